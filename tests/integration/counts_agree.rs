//! One run with every kind of count (a wrong answer, suboptimal ones, jobs stopped by a limit,
//! two domains, repetitions), read back from every place that counts statuses: summary.csv,
//! summary-groups.csv, summary.md, the run's stdout, report.html's two tables and the cactus
//! pictures' legends must all say the same.

use crate::common::korf::KORF_GOAL;
use crate::common::*;
use std::collections::HashMap;

/// The counts every summary gives, by the names summary.csv spells them.
const COUNTS: [&str; 8] = [
    "solved",
    "suboptimal",
    "wrong",
    "error",
    "limited",
    "unstable",
    "unsolvable",
    "over_cap",
];

/// The rows of the first table after `<h2 id="{id}">` in `html`, each cell's text without tags.
fn html_table(html: &str, id: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<h2 id=\"{id}\">"))
        .unwrap_or_else(|| panic!("report.html has no {id} table"));
    let end = html[start..].find("</table>").unwrap() + start;
    html[start..end]
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<t")
                .skip(1)
                .map(|cell| {
                    let text = &cell[cell.find('>').unwrap() + 1..];
                    let mut plain = String::new();
                    let mut in_tag = false;
                    for c in text.chars() {
                        match c {
                            '<' => in_tag = true,
                            '>' => in_tag = false,
                            c if !in_tag => plain.push(c),
                            _ => {}
                        }
                    }
                    plain.trim().to_owned()
                })
                .collect()
        })
        .collect()
}

/// A Markdown table's row whose first cell is `first`, by its heading names.
fn md_row(md: &str, first: &str) -> HashMap<String, String> {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().replace("**", ""))
            .collect()
    };
    let header = cells(md.lines().find(|l| l.starts_with("| variant |")).unwrap());
    let row = md
        .lines()
        .find(|l| l.starts_with(&format!("| {first} |")))
        .unwrap_or_else(|| panic!("no row {first} in:\n{md}"));
    header.into_iter().zip(cells(row)).collect()
}

#[test]
fn every_page_and_picture_counts_the_statuses_of_summary_csv() {
    let tmp = Tmp::new("counts-agree");
    // w's reference is wrong (it is 1 move away); k is Korf's first, far over the node limit.
    let csv = format!(
        "id,domain,size,start,goal,optimal\n\
         w,tiles,3x3,1 2 3 4 5 6 7 0 8,,3\n\
         a,tiles,3x3,1 2 3 4 5 6 0 7 8,,2\n\
         k,tiles,4x4,14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3,{KORF_GOAL},57\n"
    );
    let tiles = tmp.write("t.csv", &csv);
    let rotation = dataset("rotation.csv");
    let out = idabench(
        tmp.path(),
        &[
            "run",
            &tiles,
            &rotation,
            "--step",
            "2,next",
            "--max-nodes",
            "200000",
            "--repeat",
            "2",
            "--out",
            &tmp.out(),
            "--name",
            "r",
        ],
    );
    assert_exit(&out, 4);
    let stdout = text(&out.stdout);
    let dir = tmp.run_dir("r");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (md, html) = (read("summary.md"), read("report.html"));
    let svgs = [read("cactus.svg"), read("cactus-nodes.svg")];
    let summary = csv_rows(&dir.join("summary.csv"));
    let groups = csv_rows(&dir.join("summary-groups.csv"));
    let html_summary = html_table(&html, "summary");
    let html_statuses = html_table(&html, "statuses");
    let mut seen: HashMap<&str, u64> = HashMap::new();
    for row in &summary {
        let v = row["variant"].as_str();
        let count = |name: &str| row[name].parse::<u64>().unwrap();
        for name in COUNTS {
            *seen.entry(name).or_default() += count(name);
        }
        // summary.md and the run's stdout.
        let in_md = md_row(&md, &format!("`{v}`"));
        assert_eq!(in_md, md_row(&stdout, &format!("`{v}`")), "{v}: stdout");
        for name in COUNTS {
            let heading = name.replace('_', " ");
            assert_eq!(in_md[&heading], row[name], "{v}: summary.md's {heading}");
        }
        // report.html's summary table, its rows by the same headings.
        let heads = &html_summary[0];
        let cells = html_summary
            .iter()
            .find(|r| r[0] == v)
            .unwrap_or_else(|| panic!("{v}: no row in report.html's summary"));
        for name in COUNTS {
            let k = heads
                .iter()
                .position(|h| *h == name.replace('_', " "))
                .unwrap();
            assert_eq!(cells[k], row[name], "{v}: report.html's {name}");
        }
        // report.html's statuses, by runs.csv's names: both limits are the summary's limited.
        let heads = &html_statuses[0];
        let cells = html_statuses.iter().find(|r| r[0] == v).unwrap();
        let status = |name: &str| {
            heads
                .iter()
                .position(|h| h == name)
                .map_or(0, |k| cells[k].parse::<u64>().unwrap())
        };
        for name in COUNTS {
            let n = match name {
                "limited" => status("node_limit") + status("time_limit"),
                name => status(name),
            };
            assert_eq!(n, count(name), "{v}: report.html's statuses, {name}");
        }
        // The pictures count what the summaries call solved.
        for svg in &svgs {
            assert!(svg.contains(&format!("{v} ({})", row["solved"])), "{v}");
        }
        // The groups add up to the variant.
        for name in COUNTS {
            let total: u64 = groups
                .iter()
                .filter(|g| g["variant"] == v)
                .map(|g| g[name].parse::<u64>().unwrap())
                .sum();
            assert_eq!(total, count(name), "{v}: summary-groups.csv's {name}");
        }
    }
    // The run holds what the test is for: each kind of count, two domains, repetitions.
    for name in ["solved", "suboptimal", "wrong", "limited"] {
        assert!(seen[name] > 0, "no {name} job: {seen:?}");
    }
    assert_eq!(csv_rows(&dir.join("runs.csv")).len(), 2 * (3 * 2 + 20 * 2));
}
