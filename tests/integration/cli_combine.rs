//! `idabench combine`: runs of one dataset with different variants joined into one report, a
//! variant renamed (plainly, or naming its run), and the refusals: a job in two runs, datasets
//! of other contents (or, with --allow-mixed, the report saying so at its top).

use crate::common::{assert_exit, csv_rows, idabench, run_tiny, show, text, Tmp, TINY};
use std::collections::HashMap;
use std::fs;
use std::path::Path;

/// `combine` run in `tmp` with `args`, into its reports folder.
fn combine(tmp: &Tmp, args: &[&str]) -> std::process::Output {
    let out = tmp.out();
    let mut all = vec!["combine", "--out", &out];
    all.extend_from_slice(args);
    idabench(tmp.path(), &all)
}

/// The lines of a report file but its header, sorted.
fn body_lines(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().skip(1).map(str::to_owned).collect();
    lines.sort();
    lines
}

#[test]
fn two_runs_of_other_variants_become_one_report_with_their_own_counts() {
    let tmp = Tmp::new("combine");
    let data = tmp.write("d.csv", TINY);
    let a = run_tiny(&tmp, &data, "manhattan", "a");
    let b = run_tiny(&tmp, &data, "misplaced,linear-conflict", "b");
    let out = combine(&tmp, &[&a, &b, "--name", "both"]);
    assert_exit(&out, 0);
    let dir = tmp.run_dir("both");
    for file in [
        "runs.csv",
        "iterations.csv",
        "summary.csv",
        "summary.md",
        "manifest.json",
        "report.html",
        "cactus.svg",
        "cactus-nodes.svg",
        "iterations.svg",
        "scatter-manhattan_stepnext_prune-vs-misplaced_stepnext_prune.svg",
    ] {
        assert!(dir.join(file).is_file(), "no {file}: {}", show(&out));
    }
    // Every row of both runs, as they wrote it; ordered by instance, then variant.
    for file in ["runs.csv", "iterations.csv"] {
        let mut theirs = body_lines(&Path::new(&a).join(file));
        theirs.extend(body_lines(&Path::new(&b).join(file)));
        theirs.sort();
        assert_eq!(body_lines(&dir.join(file)), theirs, "{file}");
    }
    let order: Vec<(String, String)> = csv_rows(&dir.join("runs.csv"))
        .into_iter()
        .map(|r| (r["instance"].clone(), r["variant"].clone()))
        .collect();
    assert_eq!(
        order[..3].iter().map(|o| &*o.0).collect::<Vec<_>>(),
        ["a"; 3]
    );
    assert_eq!(order[0].1, "manhattan/stepnext/prune");
    // Each variant's counts are its own run's.
    let summary = |dir: &Path| -> HashMap<String, HashMap<String, String>> {
        csv_rows(&dir.join("summary.csv"))
            .into_iter()
            .map(|r| (r["variant"].clone(), r))
            .collect()
    };
    let combined = summary(&dir);
    assert_eq!(combined.len(), 3);
    for source in [&a, &b] {
        for (variant, row) in summary(Path::new(source)) {
            for column in [
                "jobs",
                "solved",
                "limited",
                "suboptimal",
                "wrong",
                "error",
                "unsolvable",
                "nodes_generated_total",
                "nodes_expanded_total",
            ] {
                assert_eq!(
                    combined[&variant][column], row[column],
                    "{variant} {column}"
                );
            }
        }
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let runs = manifest["combined"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["dir"], a.as_str());
    assert_eq!(runs[1]["jobs"], 6);
    assert_eq!(
        runs[1]["manifest"]["variants"][1],
        "linear-conflict/stepnext/prune"
    );
    assert_eq!(manifest["jobs_total"], 9);
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(md.contains("Combined from 2 runs ("), "{md}");
    assert!(!md.contains("Mixed"), "{md}");
    let page = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.contains("<p>Combined from 2 runs:</p>"), "{page}");

    // Once more into the same folder: an earlier combination is replaced, never another run.
    assert_exit(&combine(&tmp, &[&a, &b, "--name", "both"]), 0);
    assert_eq!(body_lines(&dir.join("runs.csv")).len(), 9);
    let refused = combine(&tmp, &[&a, &b, "--name", "a"]);
    assert_exit(&refused, 2);
    assert!(text(&refused.stderr).contains("is one of the runs combined"));
    let refused = combine(&tmp, &[&a, &a]);
    assert_exit(&refused, 2);
    assert!(text(&refused.stderr).contains("are the same run: give each run once"));
}

#[test]
fn a_variant_in_two_runs_is_renamed_naming_its_run() {
    let tmp = Tmp::new("combine-rename");
    let data = tmp.write("d.csv", TINY);
    let old = run_tiny(&tmp, &data, "manhattan", "old");
    let new = run_tiny(&tmp, &data, "manhattan,misplaced", "new");
    let m = "manhattan/stepnext/prune";

    // The same job in both runs: refused, with the way out.
    let out = combine(&tmp, &[&old, &new]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "{old} and {new} both hold job(s) of variant '{m}' (3 in all"
        )),
        "{err}"
    );
    assert!(err.contains(&format!("--rename {new}:{m}=NEW")), "{err}");

    // The plain form cannot say which run: refused, suggesting both.
    let out = combine(&tmp, &[&old, &new, "--rename", &format!("{m}=today")]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "is in 2 runs; say which: --rename {old}:{m}=today or --rename {new}:{m}=today"
        )),
        "{err}"
    );

    let rename = format!("{old}:{m}={m}@old");
    let out = combine(&tmp, &[&old, &new, "--rename", &rename, "--name", "c"]);
    assert_exit(&out, 0);
    let dir = tmp.run_dir("c");
    let count = |file: &str, variant: &str| {
        csv_rows(&dir.join(file))
            .iter()
            .filter(|r| r["variant"] == variant)
            .count()
    };
    let renamed = format!("{m}@old");
    assert_eq!(count("runs.csv", &renamed), 3);
    assert_eq!(count("runs.csv", m), 3);
    // The renamed variant's iterations come under its new name.
    let theirs = body_lines(&Path::new(&old).join("iterations.csv")).len();
    assert_eq!(count("iterations.csv", &renamed), theirs);
    let summary = csv_rows(&dir.join("summary.csv"));
    let row = summary.iter().find(|r| r["variant"] == renamed).unwrap();
    // A rename keeps what the variant is.
    assert_eq!((&*row["heuristic"], &*row["step"]), ("manhattan", "next"));

    // In one run only, the plain form is enough.
    let out = combine(
        &tmp,
        &[
            &old,
            &new,
            "--rename",
            &format!("{old}:{m}=x"),
            "--rename",
            "misplaced/stepnext/prune=mp",
            "--name",
            "d",
        ],
    );
    assert_exit(&out, 0);
    assert_eq!(
        csv_rows(&tmp.run_dir("d").join("summary.csv"))
            .iter()
            .map(|r| r["variant"].clone())
            .collect::<Vec<_>>(),
        ["x", m, "mp"]
    );
}

#[test]
fn runs_of_other_dataset_contents_are_refused_or_marked_as_mixed() {
    let tmp = Tmp::new("combine-mixed");
    let data = tmp.write("d.csv", TINY);
    let a = run_tiny(&tmp, &data, "manhattan", "a");
    // The same dataset name, another content.
    fs::create_dir(tmp.path().join("v2")).unwrap();
    let other = tmp.write(
        "v2/d.csv",
        &TINY.replace(",,2\n", ",,2\nz,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n"),
    );
    let b = run_tiny(&tmp, &other, "misplaced", "b");
    let out = combine(&tmp, &[&a, &b]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("the runs differ in datasets: {a}: d (sha256 ")),
        "{err}"
    );
    assert!(err.contains(&format!("; {b}: d (sha256 ")), "{err}");
    assert!(err.contains("--allow-mixed"), "{err}");
    assert!(!tmp.path().join("reports").read_dir().unwrap().any(|e| {
        e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with("combined-")
    }));

    let out = combine(&tmp, &[&a, &b, "--allow-mixed", "--name", "mixed"]);
    assert_exit(&out, 0);
    let dir = tmp.run_dir("mixed");
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        md.starts_with("## idabench run\n\n**Mixed runs (combined with --allow-mixed), whose figures do not compare like with like: datasets: "),
        "{md}"
    );
    let page = fs::read_to_string(dir.join("report.html")).unwrap();
    let mixed = page.find("Mixed runs").expect("said");
    let setting = page.find("<li>Datasets:").unwrap();
    assert!(mixed < setting, "{page}");
    assert_eq!(body_lines(&dir.join("runs.csv")).len(), 3 + 4);
}

/// `run --repeat REPEAT` of `heuristics` on `data` into `tmp`'s reports as `name`: its folder.
fn run_repeated(tmp: &Tmp, data: &str, heuristics: &str, repeat: &str, name: &str) -> String {
    let out = idabench(
        tmp.path(),
        &[
            "run",
            data,
            "--heuristic",
            heuristics,
            "--repeat",
            repeat,
            "--out",
            &tmp.out(),
            "--name",
            name,
            "-q",
        ],
    );
    assert_exit(&out, 0);
    tmp.run_dir(name).display().to_string()
}

/// Sets `field` of the run `dir`'s manifest.json to `value`.
fn set_manifest(dir: &str, field: &str, value: serde_json::Value) {
    let path = Path::new(dir).join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    m[field] = value;
    fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
}

fn manifest_of(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn repeated_runs_combine_by_repetition_and_other_repeat_counts_are_mixed() {
    let tmp = Tmp::new("combine-repeat");
    let data = tmp.write("d.csv", TINY);
    let a = run_repeated(&tmp, &data, "manhattan", "2", "a");
    let b = run_repeated(&tmp, &data, "misplaced", "2", "b");
    // The manifest's figures of every run, not the first's: the largest peak, the most workers.
    set_manifest(&a, "peak_resident_bytes", 1_000.into());
    set_manifest(&b, "peak_resident_bytes", 5_000.into());
    set_manifest(&a, "jobs", 7.into());
    set_manifest(&b, "jobs", 3.into());
    let out = combine(&tmp, &["--name", "both", &a, &b, "--plot-size", "640x480"]);
    assert_exit(&out, 0);
    let dir = tmp.run_dir("both");
    let svg = fs::read_to_string(dir.join("cactus.svg")).unwrap();
    let head = &svg[..svg.find('>').unwrap()];
    assert!(
        head.contains(" width=\"640\"") && head.contains(" height=\"480\""),
        "{head}"
    );
    // Every repetition's row, keyed by job and repetition, round by round as `run` writes them.
    let mut theirs = body_lines(&Path::new(&a).join("runs.csv"));
    theirs.extend(body_lines(&Path::new(&b).join("runs.csv")));
    theirs.sort();
    assert_eq!(body_lines(&dir.join("runs.csv")), theirs);
    let rows = csv_rows(&dir.join("runs.csv"));
    let reps: Vec<&str> = rows.iter().map(|r| r["repetition"].as_str()).collect();
    assert_eq!(reps, [["1"; 6], ["2"; 6]].concat());
    let mut its = body_lines(&Path::new(&a).join("iterations.csv"));
    its.extend(body_lines(&Path::new(&b).join("iterations.csv")));
    its.sort();
    assert_eq!(body_lines(&dir.join("iterations.csv")), its);
    // The summaries count each job once, as each run's own do.
    for source in [&a, &b] {
        for row in csv_rows(&Path::new(source).join("summary.csv")) {
            let combined = csv_rows(&dir.join("summary.csv"))
                .into_iter()
                .find(|r| r["variant"] == row["variant"])
                .unwrap();
            for column in ["jobs", "solved", "nodes_generated_total"] {
                assert_eq!(combined[column], row[column], "{column}");
            }
            assert_eq!(combined["jobs"], "3");
        }
    }
    let m = manifest_of(&dir);
    assert_eq!(m["repeat"], 2);
    assert_eq!(m["jobs_total"], 12);
    assert_eq!(m["peak_resident_bytes"], 5_000);
    assert_eq!(m["jobs"], 7);
    assert_eq!(m["combined"][1]["jobs"], 6);

    // Another count of repetitions: refused naming both, or marked as mixed.
    let c = run_tiny(&tmp, &data, "linear-conflict", "c");
    let out = combine(&tmp, &["--name", "mixed", &a, &c]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("the runs differ in --repeat: {a}: 2; {c}: 1")),
        "{err}"
    );
    assert!(!tmp.run_dir("mixed").exists());
    let out = combine(&tmp, &["--name", "mixed", "--allow-mixed", &a, &c]);
    assert_exit(&out, 0);
    let dir = tmp.run_dir("mixed");
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        md.contains("**Mixed runs") && md.contains("--repeat: "),
        "{md}"
    );
    assert_eq!(body_lines(&dir.join("runs.csv")).len(), 6 + 3);
    let summary = csv_rows(&dir.join("summary.csv"));
    assert_eq!(
        summary
            .iter()
            .map(|r| r["jobs"].as_str())
            .collect::<Vec<_>>(),
        ["3", "3"]
    );
}

#[test]
fn limits_every_run_shares_are_the_combinations_and_others_are_none() {
    let tmp = Tmp::new("combine-limits");
    let data = tmp.write("d.csv", TINY);
    let a = run_tiny(&tmp, &data, "manhattan", "a");
    let b = run_tiny(&tmp, &data, "misplaced", "b");
    for (dir, nodes) in [(&a, 100_000), (&b, 100_000)] {
        set_manifest(dir, "max_nodes", nodes.into());
        set_manifest(dir, "wall_limit_s", 30.0.into());
    }
    set_manifest(&b, "wall_limit_s", 60.0.into());
    assert_exit(&combine(&tmp, &["--name", "both", &a, &b]), 2);
    let out = combine(&tmp, &["--name", "both", "--allow-mixed", &a, &b]);
    assert_exit(&out, 0);
    let m = manifest_of(&tmp.run_dir("both"));
    assert_eq!(m["max_nodes"], 100_000);
    assert!(m["wall_limit_s"].is_null(), "{m}");
    let md = fs::read_to_string(tmp.run_dir("both").join("summary.md")).unwrap();
    assert!(
        md.contains("limits: different in the combined runs"),
        "{md}"
    );
}
