//! `run --repeat N`: every job N times in rounds, a row per repetition, reports that count a job
//! once; `--resume`, shards and `merge`, and `compare` of repeated runs; node counts that differ
//! between repetitions read back as `wrong`, a time limit that splits them as `unstable`.

use crate::cli_run::{
    assert_iterations_match_runs, rows, run, runs, without_times, Json, Table, EIGHT,
};
use crate::common::{assert_exit, idabench, show, text, Tmp};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;

/// Three 8-puzzle instances under two variants: 6 jobs.
fn dataset(tmp: &Tmp) -> String {
    let states: Vec<(&str, &str, u32)> = EIGHT
        .iter()
        .filter(|(id, _, _)| ["six", "e12", "e16a"].contains(id))
        .copied()
        .collect();
    let header = "id,domain,size,start,goal,optimal\n";
    tmp.write("eight.csv", &format!("{header}{}", rows("3x3", &states)))
}

const JOBS: usize = 6;
const VARIANTS: [&str; 2] = ["manhattan/stepnext/prune", "misplaced/stepnext/prune"];

/// The options of every run here, `--repeat 3` and the quiet flag aside.
const ARGS: [&str; 4] = ["--heuristic", "manhattan,misplaced", "--jobs", "2"];

fn repeated(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ARGS.iter().map(|s| s.to_string()).collect();
    args.extend(["--repeat", "3"].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The rows of a summary.csv, by variant, as column -> value.
fn summary(dir: &Path) -> HashMap<String, HashMap<String, String>> {
    let t = Table::read(&dir.join("summary.csv"));
    t.rows
        .iter()
        .map(|r| {
            let row: HashMap<String, String> = t.header.iter().cloned().zip(r.clone()).collect();
            (row["variant"].clone(), row)
        })
        .collect()
}

/// Every row of the job of row `k`, the results columns of each repetition.
fn results(t: &Table, row: &[String]) -> [String; 6] {
    [
        "status",
        "length",
        "nodes_generated",
        "nodes_expanded",
        "iterations",
        "path",
    ]
    .map(|c| t.get(row, c).to_owned())
}

#[test]
fn a_repeated_run_has_a_row_per_repetition_in_rounds_and_counts_each_job_once() {
    let tmp = Tmp::new("repeat");
    let eight = dataset(&tmp);
    let args = repeated(&["-q"]);
    let out = run(&tmp, "r3", &[&eight], &strs(&args), 0);
    let dir = tmp.run_dir("r3");
    let t = runs(&dir);
    assert_eq!(t.rows.len(), 3 * JOBS);
    let job = |r: &[String]| ["dataset", "instance", "variant"].map(|c| t.get(r, c).to_owned());
    // Round 1 of every job in the run's order, then round 2, then round 3; each repetition's
    // results are the first's.
    for (k, row) in t.rows.iter().enumerate() {
        assert_eq!(
            t.get(row, "repetition"),
            (k / JOBS + 1).to_string(),
            "row {k}"
        );
        let first = &t.rows[k % JOBS];
        assert_eq!(job(row), job(first), "row {k}");
        assert_eq!(results(&t, row), results(&t, first), "row {k}");
        assert_eq!(t.get(row, "status"), "solved");
    }
    assert_iterations_match_runs(&dir);
    let it = Table::read(&dir.join("iterations.csv"));
    let reps: HashSet<&str> = it.rows.iter().map(|r| it.get(r, "repetition")).collect();
    assert_eq!(reps, HashSet::from(["1", "2", "3"]));

    // The reports count a job once.
    let s = summary(&dir);
    for v in VARIANTS {
        assert_eq!(
            (
                s[v]["jobs"].as_str(),
                s[v]["solved"].as_str(),
                s[v]["unstable"].as_str()
            ),
            ("3", "3", "0"),
            "{v}"
        );
        let svg = fs::read_to_string(dir.join("cactus-nodes.svg")).unwrap();
        assert!(
            svg.contains(&format!("{v} (3)")),
            "cactus-nodes.svg: no '{v} (3)'"
        );
    }
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(md.contains("| limited | unstable | unsolvable |"), "{md}");
    assert!(md.contains("Each job ran 3 times (--repeat 3)"), "{md}");
    assert!(text(&out.stdout).contains("Each job ran 3 times"));
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<th>unstable</th>") && html.contains("Each job ran 3 times"));
    let m = Json::read(&dir.join("manifest.json"));
    assert_eq!(
        (m.get("repeat").num(), m.get("jobs_total").num()),
        (3.0, 18.0)
    );

    // Without --repeat: one row per job, repetition 1, and the same counts.
    let once = [&ARGS[..], &["-q"]].concat();
    let out = run(&tmp, "r1", &[&eight], &once, 0);
    let dir1 = tmp.run_dir("r1");
    let t1 = runs(&dir1);
    assert_eq!(t1.rows.len(), JOBS);
    assert!(t1.rows.iter().all(|r| t1.get(r, "repetition") == "1"));
    assert_eq!(without_times(&t1), without_times(&t)[..JOBS]);
    let s1 = summary(&dir1);
    for v in VARIANTS {
        for c in ["jobs", "solved", "nodes_generated_total", "common_solved"] {
            assert_eq!(s1[v][c], s[v][c], "{v} {c}");
        }
        assert_eq!(s1[v]["time_cpu_spread_max"], "", "{v}");
    }
    assert!(!text(&out.stdout).contains("unstable"), "{}", show(&out));
    // Node counts are exact, so the pictures by nodes are those of the run without
    // repetitions, as `run` draws them and as `plot` draws them again from the files.
    let again = tmp.path().join("again");
    let plot = [
        "plot",
        dir.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ];
    assert_exit(&idabench(tmp.path(), &plot), 0);
    for svg in ["cactus-nodes.svg", "iterations.svg"] {
        let want = fs::read(dir1.join(svg)).unwrap();
        assert!(fs::read(dir.join(svg)).unwrap() == want, "{svg}");
        assert!(fs::read(again.join(svg)).unwrap() == want, "plot's {svg}");
    }

    // compare joins a repeated run and an unrepeated one job by job.
    let base = dir1.to_str().unwrap();
    let cur = dir.to_str().unwrap();
    for (a, b) in [(base, cur), (cur, base), (cur, cur)] {
        let out = idabench(tmp.path(), &["compare", a, b, "--format", "csv"]);
        assert_exit(&out, 0);
        let csv = text(&out.stdout);
        let mut lines = csv.lines();
        assert!(
            lines
                .next()
                .unwrap()
                .ends_with(",pairing,baseline_cpu_spread,current_cpu_spread"),
            "{csv}"
        );
        assert!(
            lines.any(|l| l.starts_with(&format!("overall,{JOBS},0,0,0,"))),
            "{csv}"
        );
    }
    let out = idabench(tmp.path(), &["compare", base, cur]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("(baseline: each job run once, current: up to 3 times)"),
        "{}",
        show(&out)
    );
}

/// A copy of the run `from` as run `to`: its manifest, its iterations.csv, and its runs.csv as
/// `edit` makes it.
fn copy_run(tmp: &Tmp, from: &str, to: &str, edit: impl Fn(&str) -> String) {
    let (a, b) = (tmp.run_dir(from), tmp.run_dir(to));
    fs::create_dir_all(&b).unwrap();
    for f in ["manifest.json", "iterations.csv"] {
        fs::copy(a.join(f), b.join(f)).unwrap();
    }
    let runs = fs::read_to_string(a.join("runs.csv")).unwrap();
    fs::write(b.join("runs.csv"), edit(&runs)).unwrap();
}

#[test]
fn a_repeated_run_resumes_shards_and_merges_by_job_and_repetition() {
    let tmp = Tmp::new("repeat-resume");
    let eight = dataset(&tmp);
    let quiet = repeated(&["-q"]);
    run(&tmp, "clean", &[&eight], &strs(&quiet), 0);
    let clean = runs(&tmp.run_dir("clean"));

    // Half of the rows (round 1 and half of round 2) kept: the resume runs the others.
    copy_run(&tmp, "clean", "half", |runs| {
        runs.split_inclusive('\n').take(1 + 9).collect()
    });
    let resume = repeated(&["--resume"]);
    let out = run(&tmp, "half", &[&eight], &strs(&resume), 0);
    assert!(
        text(&out.stderr).contains("9 job(s) done, 9 to run"),
        "{}",
        show(&out)
    );
    let half = runs(&tmp.run_dir("half"));
    assert_eq!(without_times(&half), without_times(&clean));
    assert_eq!(
        fs::read(tmp.run_dir("half").join("iterations.csv")).unwrap(),
        fs::read(tmp.run_dir("clean").join("iterations.csv")).unwrap()
    );
    // Another --repeat is another run.
    let mut other = [&ARGS[..], &["--repeat", "2", "--resume"]].concat();
    let out = run(&tmp, "half", &[&eight], &other, 2);
    assert!(
        text(&out.stderr).contains("was made with --repeat 3, not 2: give the same --repeat"),
        "{}",
        show(&out)
    );

    // Two shards, each with every repetition of its jobs; merged, the unsharded run.
    let mut shard_dirs = Vec::new();
    let mut held: HashMap<[String; 3], usize> = HashMap::new();
    for k in 1..=2 {
        let name = format!("shard{k}");
        let spec = format!("{k}/2");
        run(
            &tmp,
            &name,
            &[&eight],
            &strs(&repeated(&["-q", "--shard", &spec])),
            0,
        );
        let t = runs(&tmp.run_dir(&name));
        let mut mine: HashMap<[String; 3], Vec<String>> = HashMap::new();
        for r in &t.rows {
            let key = ["dataset", "instance", "variant"].map(|c| t.get(r, c).to_owned());
            mine.entry(key)
                .or_default()
                .push(t.get(r, "repetition").to_owned());
        }
        for (key, mut reps) in mine {
            reps.sort();
            assert_eq!(reps, ["1", "2", "3"], "shard {k}: {key:?}");
            *held.entry(key).or_default() += 1;
        }
        shard_dirs.push(tmp.run_dir(&name).to_str().unwrap().to_owned());
    }
    assert_eq!(held.len(), JOBS);
    assert!(
        held.values().all(|&n| n == 1),
        "a job in both shards: {held:?}"
    );
    let merged = tmp.run_dir("merged");
    let mut merge = vec!["merge", &shard_dirs[0], &shard_dirs[1], "--out"];
    merge.push(merged.to_str().unwrap());
    assert_exit(&idabench(tmp.path(), &merge), 0);
    assert_eq!(without_times(&runs(&merged)), without_times(&clean));
    assert_iterations_match_runs(&merged);
    let s = summary(&merged);
    assert!(VARIANTS.iter().all(|v| s[*v]["jobs"] == "3"), "{s:?}");
    // Shards of runs with another --repeat are not shards of one run.
    other = [&ARGS[..], &["-q", "--shard", "2/2"]].concat();
    run(&tmp, "once2", &[&eight], &other, 0);
    let once = tmp.run_dir("once2");
    merge[2] = once.to_str().unwrap();
    let out = idabench(tmp.path(), &merge);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("(different --repeat)"),
        "{}",
        show(&out)
    );
    // The Slurm script's shards are run with the repetitions.
    let mut slurm = vec!["slurm", eight.as_str(), "--shards", "2"];
    let args = repeated(&[]);
    slurm.extend(strs(&args));
    let out = idabench(tmp.path(), &slurm);
    assert_exit(&out, 0);
    let script = text(&out.stdout);
    assert!(
        script.contains(" --repeat 3 --jobs 2 ") && script.contains("--shard \"$k/$shards\""),
        "{script}"
    );
}

#[test]
fn repetitions_that_disagree_read_back_as_wrong_and_a_time_limit_as_unstable() {
    let tmp = Tmp::new("repeat-edited");
    let eight = dataset(&tmp);
    run(&tmp, "clean", &[&eight], &strs(&repeated(&["-q"])), 0);
    let clean = runs(&tmp.run_dir("clean"));
    let col = |name: &str| clean.header.iter().position(|h| h == name).unwrap();
    // Repetition 2 of e12 under manhattan counts one node more; repetition 3 of e16a under
    // misplaced was stopped by the time limit.
    let edit = |runs: &str| -> String {
        runs.lines()
            .map(|line| {
                let mut f: Vec<String> = line.split(',').map(str::to_owned).collect();
                let row =
                    [col("instance"), col("variant"), col("repetition")].map(|c| f[c].clone());
                if row == ["e12", VARIANTS[0], "2"] {
                    let n: u64 = f[col("nodes_generated")].parse().unwrap();
                    f[col("nodes_generated")] = (n + 1).to_string();
                }
                // Its CPU times spread by 1 ((0.75 - 0.25) / 0.5) about their median.
                if row[..2] == ["six", VARIANTS[0]] {
                    let r: f64 = row[2].parse().unwrap();
                    f[col("time_cpu_s")] = (0.25 * r).to_string();
                }
                if row == ["e16a", VARIANTS[1], "3"] {
                    f[col("status")] = "time_limit".into();
                    f[col("limit_clock")] = "cpu".into();
                    f[col("length")] = String::new();
                    f[col("path")] = String::new();
                }
                format!("{}\n", f.join(","))
            })
            .collect()
    };
    copy_run(&tmp, "clean", "edited", edit);
    // Resumed, nothing runs, and the reports are made again from the rows.
    let out = run(
        &tmp,
        "edited",
        &[&eight],
        &strs(&repeated(&["--resume"])),
        4,
    );
    assert!(
        text(&out.stderr).contains("1 job(s) are wrong"),
        "{}",
        show(&out)
    );
    let dir = tmp.run_dir("edited");
    let s = summary(&dir);
    let counts =
        |v: &str| ["jobs", "solved", "wrong", "unstable", "limited"].map(|c| s[v][c].clone());
    assert_eq!(counts(VARIANTS[0]), ["3", "2", "1", "0", "0"]);
    assert_eq!(counts(VARIANTS[1]), ["3", "2", "0", "1", "0"]);
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(md.contains("1 job(s) are unstable"), "{md}");
    // runs.csv keeps each repetition's own status.
    let t = runs(&dir);
    let statuses: Vec<&str> = t.rows.iter().map(|r| t.get(r, "status")).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "time_limit").count(), 1);
    assert_eq!(statuses.iter().filter(|s| **s == "solved").count(), 17);

    // compare reads them so too: the wrong job and the unstable one are changed results.
    let (a, b) = (tmp.run_dir("clean"), dir);
    let out = idabench(
        tmp.path(),
        &[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--format",
            "csv",
        ],
    );
    assert_exit(&out, 4);
    let csv = text(&out.stdout);
    let changed: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains(",changed,eight,"))
        .collect();
    assert_eq!(changed.len(), 2, "{csv}");
    assert!(
        changed
            .iter()
            .any(|l| l.contains(",e12,status,solved,wrong,")),
        "{csv}"
    );
    assert!(
        changed
            .iter()
            .any(|l| l.contains(",e16a,status,solved,unstable,")),
        "{csv}"
    );

    // The tidy CSV has the spread of the run made with repetitions, and no row for the other's.
    let long = idabench(
        tmp.path(),
        &[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--format",
            "csv-long",
        ],
    );
    assert_exit(&long, 4);
    let long = text(&long.stdout);
    let spreads: Vec<&str> = long.lines().filter(|l| l.contains("_spread_")).collect();
    assert_eq!(
        spreads,
        [
            format!("variant,*,*,{},time_cpu_spread_p50,current,1", VARIANTS[0]),
            format!("variant,*,*,{},time_cpu_spread_max,current,1", VARIANTS[0]),
            "overall,*,*,*,time_cpu_spread_p50,current,1".to_owned(),
            "overall,*,*,*,time_cpu_spread_max,current,1".to_owned(),
        ],
        "{long}"
    );

    // compare's page counts the unstable job by name, in the current run's row of its variant.
    let pages = tmp.path().join("pages");
    let out = idabench(
        tmp.path(),
        &[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            pages.to_str().unwrap(),
        ],
    );
    assert_exit(&out, 4);
    let page = fs::read_to_string(pages.join("report.html")).unwrap();
    let statuses = statuses_table(&page);
    let header = &statuses[0];
    let row = |variant: &str, side: &str| {
        statuses
            .iter()
            .find(|r| r[0] == variant && r[1] == side)
            .unwrap_or_else(|| panic!("no row {variant} {side}: {statuses:?}"))
    };
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    for (variant, side, wrong, unstable) in [
        (VARIANTS[1], "current", "0", "1"),
        (VARIANTS[1], "baseline", "0", "0"),
        (VARIANTS[0], "current", "1", "0"),
        ("overall", "current", "1", "1"),
    ] {
        let r = row(variant, side);
        assert_eq!(
            [r[at("wrong")].as_str(), r[at("unstable")].as_str()],
            [wrong, unstable],
            "{variant} {side}: {r:?}"
        );
    }
}

/// The cells of report.html's table of statuses, its header first, as text without tags.
fn statuses_table(page: &str) -> Vec<Vec<String>> {
    let start = page.find("id=\"statuses\"").expect("a table of statuses");
    let section = &page[start..];
    let section = &section[..section.find("</table>").expect("its end")];
    let untagged = |cell: &str| {
        let mut out = String::new();
        let mut inside = false;
        for ch in cell.chars() {
            match ch {
                '<' => inside = true,
                '>' => inside = false,
                c if !inside => out.push(c),
                _ => {}
            }
        }
        out.trim().to_owned()
    };
    section
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.replace("</th>", "</td>")
                .split("</td>")
                .map(untagged)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect()
}
