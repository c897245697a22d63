//! The figures that show why a variant wins (issue 26): runs.csv's `branching_factor` and
//! `bpmx_raises`, iterations.csv's `growth` and `children_per_expansion`, checked against the
//! counts they come from; and runs written before these columns existed, still read by `plot`,
//! `compare`, `combine`, `--resume` and `merge`.

use crate::cli_run::{rows, run, runs, Table, EIGHT};
use crate::common::{assert_exit, idabench, show, Tmp};
use std::collections::HashMap;
use std::fs;
use std::path::Path;

const HEADER: &str = "id,domain,size,start,goal,optimal\n";

/// The b > 0 with 1 + b + ... + b^d = n, by Newton's method from above (the sum is convex in b,
/// so the steps come down to the root without passing it).
fn solve(n: f64, d: u32) -> f64 {
    let mut b = n.powf(1.0 / f64::from(d)).max(1.0) + 1.0;
    for _ in 0..200 {
        let (sum, slope) = (0..=d).fold((0.0, 0.0), |(s, ds), i| {
            let i = i as i32;
            (s + b.powi(i), ds + f64::from(i) * b.powi(i - 1))
        });
        let next = b - (sum - n) / slope;
        if (next - b).abs() <= 1e-15 * b {
            return next;
        }
        b = next;
    }
    b
}

/// A file's rows by column name.
fn by_name(t: &Table) -> Vec<HashMap<&str, &str>> {
    t.rows
        .iter()
        .map(|r| {
            t.header
                .iter()
                .map(String::as_str)
                .zip(r.iter().map(String::as_str))
                .collect()
        })
        .collect()
}

#[test]
fn each_jobs_branching_factor_solves_its_last_iterations_sum_and_growth_is_a_ratio() {
    let tmp = Tmp::new("why-columns");
    let data = tmp.write("eight.csv", &format!("{HEADER}{}", rows("3x3", EIGHT)));
    let extra = [
        "-q",
        "--heuristic",
        "manhattan,misplaced",
        "--step",
        "1,next",
    ];
    run(&tmp, "w", &[&data], &extra, 0);
    let dir = tmp.run_dir("w");
    let (jobs, its) = (runs(&dir), Table::read(&dir.join("iterations.csv")));
    assert!(jobs.header.ends_with(&[
        "run".to_owned(),
        "pruning".to_owned(),
        "branching_factor".to_owned(),
        "bpmx_raises".to_owned(),
        "cost_model".to_owned(),
        "cost".to_owned()
    ]));
    let its = by_name(&its);
    let mut defined = 0;
    for job in by_name(&jobs) {
        let key = |r: &HashMap<&str, &str>| {
            ["dataset", "instance", "variant", "repetition"].map(|c| r[c].to_owned())
        };
        let mine: Vec<&HashMap<&str, &str>> = its.iter().filter(|r| key(r) == key(&job)).collect();
        let what = format!("{:?}", key(&job));
        assert_eq!(job["bpmx_raises"], "0", "{what}");
        // Each iteration's ratios, from its own counts and the previous row's.
        let count = |r: &HashMap<&str, &str>, c: &str| r[c].parse::<u64>().unwrap() as f64;
        for (k, r) in mine.iter().enumerate() {
            let growth = (k > 0)
                .then(|| count(r, "nodes_generated") / count(mine[k - 1], "nodes_generated"));
            let per = (count(r, "nodes_expanded") > 0.0)
                .then(|| count(r, "nodes_generated") / count(r, "nodes_expanded"));
            for (column, want) in [("growth", growth), ("children_per_expansion", per)] {
                let got = (!r[column].is_empty()).then(|| r[column].parse::<f64>().unwrap());
                assert_eq!(got, want, "{what} iteration {}: {column}", k + 1);
            }
        }
        // b* of the last iteration's tree: its count, the start added after the first.
        let last = mine.last().expect("every job here ran an iteration");
        let n = count(last, "nodes_generated") + if mine.len() > 1 { 1.0 } else { 0.0 };
        let d: u32 = last["bound"].parse().unwrap();
        assert_eq!(last["bound"], job["final_bound"]);
        if d == 0 || n < 2.0 {
            assert_eq!(job["branching_factor"], "", "{what}");
            continue;
        }
        defined += 1;
        let b: f64 = job["branching_factor"].parse().unwrap();
        let want = solve(n, d);
        assert!(
            (b - want).abs() <= 1e-9 * want,
            "{what}: {b} against {want} (N {n}, d {d})"
        );
    }
    assert!(defined >= 30, "{defined}");
    // A known one: the solved goal is a tree of the start alone, bound 0.
    let goal = by_name(&jobs)
        .into_iter()
        .find(|r| r["instance"] == "goal")
        .unwrap()["branching_factor"]
        .to_owned();
    assert_eq!(goal, "");
}

/// Removes the last `n` columns of the CSV file at `path`.
fn cut_columns(path: &Path, n: usize) {
    let t = Table::read(path);
    let keep = t.header.len() - n;
    let line = |fields: &[String]| {
        let quoted: Vec<String> = fields[..keep]
            .iter()
            .map(|f| match f.contains([',', '"', '\n']) {
                true => format!("\"{}\"", f.replace('"', "\"\"")),
                false => f.clone(),
            })
            .collect();
        quoted.join(",") + "\n"
    };
    let mut text = line(&t.header);
    for r in &t.rows {
        text += &line(r);
    }
    fs::write(path, text).unwrap();
}

/// A run's folder as a build before the new columns wrote it.
fn as_before(dir: &Path) {
    cut_columns(&dir.join("runs.csv"), 4);
    cut_columns(&dir.join("iterations.csv"), 3);
}

#[test]
fn runs_from_before_the_columns_are_read_and_copied_whole() {
    let tmp = Tmp::new("why-old");
    let data = tmp.write("eight.csv", &format!("{HEADER}{}", rows("3x3", EIGHT)));
    let extra = ["-q", "--heuristic", "manhattan", "--jobs", "1"];
    run(&tmp, "new", &[&data], &extra, 0);
    run(&tmp, "old", &[&data], &extra, 0);
    let (new, old) = (tmp.run_dir("new"), tmp.run_dir("old"));
    as_before(&old);
    let s = |p: &Path| p.to_str().unwrap().to_owned();

    // plot and compare read it; compare finds the same results.
    assert_exit(&idabench(tmp.path(), &["plot", &s(&old)]), 0);
    let out = idabench(tmp.path(), &["compare", &s(&old), &s(&new)]);
    assert_exit(&out, 0);

    // combine copies its rows with every column: runs.csv's read as empty and 0,
    // iterations.csv's computed as the new run's are.
    let out = idabench(
        tmp.path(),
        &[
            "combine",
            &s(&old),
            &s(&new),
            "--out",
            &tmp.out(),
            "--name",
            "both",
            "--rename",
            &format!("{}:manhattan/stepnext/prune=before", s(&old)),
        ],
    );
    assert_exit(&out, 0);
    let both = tmp.run_dir("both");
    let rows = by_name_owned(&runs(&both));
    let before: Vec<_> = rows.iter().filter(|r| r["variant"] == "before").collect();
    assert_eq!(before.len(), EIGHT.len());
    assert!(before
        .iter()
        .all(|r| r["branching_factor"].is_empty() && r["bpmx_raises"] == "0"));
    let ratios = |variant: &str| -> Vec<(String, String)> {
        by_name_owned(&Table::read(&both.join("iterations.csv")))
            .into_iter()
            .filter(|r| r["variant"] == variant)
            .map(|r| (r["growth"].clone(), r["children_per_expansion"].clone()))
            .collect()
    };
    assert_eq!(ratios("before"), ratios("manhattan/stepnext/prune"));

    // --resume rewrites its files whole: the rows it kept, and the job it ran again.
    let kept = fs::read_to_string(old.join("runs.csv")).unwrap();
    let last = kept.trim_end().rfind('\n').unwrap();
    fs::write(old.join("runs.csv"), &kept[..=last]).unwrap();
    let out = run(
        &tmp,
        "old",
        &[&data],
        &[&extra[..], &["--resume"]].concat(),
        0,
    );
    let resumed = by_name_owned(&runs(&old));
    assert_eq!(resumed.len(), EIGHT.len(), "{}", show(&out));
    let filled = resumed
        .iter()
        .filter(|r| !r["branching_factor"].is_empty())
        .count();
    assert_eq!(filled, 1, "only the job run again has one");
    let its = Table::read(&old.join("iterations.csv"));
    assert_eq!(its.header.last().unwrap(), "budget");
    assert_eq!(
        by_name_owned(&its)
            .iter()
            .map(|r| (r["growth"].clone(), r["children_per_expansion"].clone()))
            .collect::<Vec<_>>(),
        by_name_owned(&Table::read(&new.join("iterations.csv")))
            .iter()
            .map(|r| (r["growth"].clone(), r["children_per_expansion"].clone()))
            .collect::<Vec<_>>()
    );

    // merge joins shards written so.
    let mut shards = Vec::new();
    for k in 1..=2 {
        let name = format!("s{k}");
        let shard = format!("{k}/2");
        run(
            &tmp,
            &name,
            &[&data],
            &[&extra[..], &["--shard", &shard]].concat(),
            0,
        );
        as_before(&tmp.run_dir(&name));
        shards.push(s(&tmp.run_dir(&name)));
    }
    let merged = tmp.path().join("merged");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    let merged_s = s(&merged);
    args.extend(["--out", &merged_s]);
    let out = idabench(tmp.path(), &args);
    assert_exit(&out, 0);
    assert_eq!(runs(&merged).rows.len(), EIGHT.len());
    let its = Table::read(&merged.join("iterations.csv"));
    assert_eq!(its.header.last().unwrap(), "budget");
}

/// A file's rows by column name, owned.
fn by_name_owned(t: &Table) -> Vec<HashMap<String, String>> {
    t.rows
        .iter()
        .map(|r| t.header.iter().cloned().zip(r.iter().cloned()).collect())
        .collect()
}
