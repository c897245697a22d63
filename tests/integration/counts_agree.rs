//! One run with every kind of count (a wrong answer, suboptimal ones, jobs stopped by the node
//! limit and by the time limit, an unstable job, two domains, repetitions), read back from every
//! place that counts statuses: summary.csv, summary-groups.csv, summary.md, the run's stdout,
//! report.html's two tables, the cactus pictures' legends and each of their panels' curves must
//! all say the same.

use crate::common::korf::KORF_GOAL;
use crate::common::svg::Svg;
use crate::common::*;
use std::collections::HashMap;
use std::path::Path;

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

/// Of each panel of a cactus picture (by its caption's label, e.g. `tiles 3x3`), how many
/// instances each variant's curve reaches: the count at its highest point, read on the panel's
/// y axis; a variant without a curve there reaches none. Variants are told by their colour in
/// the legend, whose samples come after every panel's curves.
fn panel_counts(svg: &str, variants: usize) -> HashMap<(String, String), u64> {
    let svg = Svg::parse(svg).unwrap();
    let y = |t: &crate::common::svg::TextElement| t.attributes["y"].parse::<f64>().unwrap();
    let mut panels: Vec<(f64, String)> = svg
        .texts()
        .iter()
        .filter_map(|t| {
            let (label, rest) = t.content.rsplit_once(": ")?;
            let n = rest
                .strip_suffix(" instances")
                .or(rest.strip_suffix(" instance"))?;
            n.parse::<u64>().ok()?;
            Some((y(t), label.to_owned()))
        })
        .collect();
    panels.sort_by(|a, b| a.0.total_cmp(&b.0));
    let lines = svg.coloured_lines();
    let (curves, samples) = lines.split_at(lines.len() - variants);
    let names: Vec<String> = svg
        .texts()
        .iter()
        .filter_map(|t| {
            let (name, n) = t.content.strip_suffix(')')?.rsplit_once(" (")?;
            n.parse::<u64>().ok()?;
            Some(name.to_owned())
        })
        .collect();
    assert_eq!(names.len(), variants, "{names:?}");
    let legend_top = samples[0].1[0].1;
    let mut counts = HashMap::new();
    for (k, (top, label)) in panels.iter().enumerate() {
        let bottom = panels.get(k + 1).map_or(legend_top, |p| p.0);
        let inside = |py: f64| py > *top && py < bottom;
        // The y axis's labels: whole counts, right-aligned left of the chart.
        let ticks: Vec<(f64, f64)> = svg
            .texts()
            .iter()
            .filter(|t| t.attr("text-anchor") == Some("end") && inside(y(t)))
            .filter_map(|t| Some((t.content.parse::<f64>().ok()?, y(t))))
            .collect();
        assert!(ticks.len() >= 2, "{label}: {ticks:?}");
        let ((v0, y0), (v1, y1)) = (ticks[0], ticks[ticks.len() - 1]);
        let value = |py: f64| v0 + (py - y0) * (v1 - v0) / (y1 - y0);
        for ((colour, _), name) in samples.iter().zip(&names) {
            let highest = curves
                .iter()
                .filter(|(c, points)| c == colour && points.iter().all(|p| inside(p.1)))
                .flat_map(|(_, points)| points.iter().map(|p| p.1))
                .min_by(f64::total_cmp);
            let n = highest.map_or(0.0, value).round() as u64;
            counts.insert((label.clone(), name.clone()), n);
        }
    }
    counts
}

/// Rewrites the rows of the run `dir`'s runs.csv: `edit` gets each row's fields by column.
fn edit_runs(dir: &Path, edit: impl Fn(&mut HashMap<String, String>)) {
    let path = dir.join("runs.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut out = format!("{}\n", header.join(","));
    for line in lines {
        let mut row: HashMap<String, String> = header
            .iter()
            .map(|h| h.to_string())
            .zip(line.split(',').map(str::to_owned))
            .collect();
        edit(&mut row);
        let fields: Vec<&str> = header.iter().map(|h| row[*h].as_str()).collect();
        out += &format!("{}\n", fields.join(","));
    }
    std::fs::write(&path, out).unwrap();
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
    let out = tmp.out();
    let args = [
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
        &out,
        "--name",
        "r",
    ];
    assert_exit(&idabench(tmp.path(), &args), 4);
    let dir = tmp.run_dir("r");
    // Where a time limit stops a job depends on the machine: its rows are written here, and the
    // reports made again from them (--resume runs nothing). Rotation's first instance stopped
    // in both repetitions is limited; the second tiles instance stopped in one is unstable.
    let first_rotation = csv_rows(&dir.join("runs.csv"))
        .into_iter()
        .find(|r| r["dataset"] == "rotation")
        .unwrap()["instance"]
        .clone();
    edit_runs(&dir, |row| {
        let job = (row["instance"].as_str(), row["variant"].as_str());
        let stopped = job == (first_rotation.as_str(), "center/stepnext/prune")
            || (job == ("a", "manhattan/stepnext/prune") && row["repetition"] == "2");
        if stopped {
            for (column, value) in [
                ("status", "time_limit"),
                ("limit_clock", "cpu"),
                ("length", ""),
                ("path", ""),
                ("message", ""),
            ] {
                row.insert(column.to_owned(), value.to_owned());
            }
        }
    });
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let out = idabench(tmp.path(), &resumed);
    assert_exit(&out, 4);
    let stdout = text(&out.stdout);
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
        // The pictures count what the summaries call solved, in their legends and in each
        // panel: a panel per domain and size, its curve reaching the group's solved count.
        for svg in &svgs {
            assert!(svg.contains(&format!("{v} ({})", row["solved"])), "{v}");
            let panels = panel_counts(svg, summary.len());
            for g in groups.iter().filter(|g| g["variant"] == v) {
                let label = format!("{} {}", g["domain"], g["size"]).trim().to_owned();
                assert_eq!(
                    panels
                        .get(&(label.clone(), v.to_owned()))
                        .map(u64::to_string),
                    Some(g["solved"].clone()),
                    "{v}: the cactus panel of {label}"
                );
            }
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
    for name in ["solved", "suboptimal", "wrong", "limited", "unstable"] {
        assert!(seen[name] > 0, "no {name} job: {seen:?}");
    }
    let statuses: Vec<String> = csv_rows(&dir.join("runs.csv"))
        .into_iter()
        .map(|r| r["status"].clone())
        .collect();
    assert_eq!(statuses.iter().filter(|s| *s == "time_limit").count(), 3);
    assert!(statuses.iter().any(|s| s == "node_limit"));
    assert_eq!(csv_rows(&dir.join("runs.csv")).len(), 2 * (3 * 2 + 20 * 2));
}
