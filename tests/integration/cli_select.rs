//! Selecting instances (`--domain`, `--size`, `--instances`, `--instances-file`) as a user does:
//! each flag, wildcards, `DATASET:ID`, ids that hold commas or colons; entries that match
//! nothing; a heuristic skipped on the boards it does not fit; `--resume`, the Slurm script,
//! `merge` and `ab` keeping the selection. The datasets are written here; every job is a few
//! moves from its goal.

use crate::common::{assert_exit, idabench, names, show, text, Tmp, BIN};
use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

const HEADER: &str = "id,domain,size,start,goal,optimal\n";

/// `sel.csv`: 3x3, 2x2 and booksort rows, with ids holding a comma, a colon and a star; and
/// `other.csv`, which shares the id `x1`.
fn datasets(tmp: &Tmp) -> [String; 2] {
    let sel = tmp.write(
        "sel.csv",
        &format!(
            "{HEADER}x1,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\nx2,tiles,3x3,1 2 3 4 5 6 0 7 8,,2\n\
             \"y,1\",tiles,2x2,1 2 0 3,,1\nk:1,tiles,2x2,1 0 3 2,,1\ns*,tiles,3x3,1 2 3 4 5 6 7 8 0,,0\n\
             sx,tiles,3x3,1 2 3 4 5 0 7 8 6,,1\nb1,booksort,4,2 1 3 4,,1\n"
        ),
    );
    let other = tmp.write(
        "other.csv",
        &format!("{HEADER}x1,tiles,3x3,1 2 3 4 0 6 7 5 8,,2\n"),
    );
    [sel, other]
}

/// `run DATASETS ARGS --out reports --name NAME`, whose exit code must be `code`.
fn run(tmp: &Tmp, name: &str, datasets: &[&str], args: &[&str], code: i32) -> Output {
    let mut all = vec!["run"];
    all.extend(datasets);
    all.extend(args);
    all.extend([
        "--out",
        "reports",
        "--name",
        name,
        "--jobs",
        "1",
        "--no-plots",
    ]);
    let out = idabench(tmp.path(), &all);
    assert_exit(&out, code);
    out
}

/// The (dataset, instance, variant) of each row of a run's runs.csv.
fn jobs(dir: &Path) -> BTreeSet<(String, String, String)> {
    let mut r = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[0].to_owned(), rec[1].to_owned(), rec[4].to_owned())
        })
        .collect()
}

/// The (dataset, instance) of each row of a run's runs.csv.
fn instances(dir: &Path) -> BTreeSet<(String, String)> {
    jobs(dir).into_iter().map(|(d, i, _)| (d, i)).collect()
}

/// (dataset, instance) pairs.
type Ids<'a> = &'a [(&'a str, &'a str)];

fn set(pairs: Ids) -> BTreeSet<(String, String)> {
    pairs
        .iter()
        .map(|(d, i)| (d.to_string(), i.to_string()))
        .collect()
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

fn stderr_has(out: &Output, want: &str) {
    assert!(text(&out.stderr).contains(want), "{want}\n{}", show(out));
}

#[test]
fn each_flag_selects_and_flags_combine() {
    let tmp = Tmp::new("select");
    let [sel, other] = datasets(&tmp);
    let both = [sel.as_str(), other.as_str()];
    let cases: [(&[&str], Ids); 11] = [
        (&["--domain", "booksort"], &[("sel", "b1")]),
        (&["--size", "2x2"], &[("sel", "y,1"), ("sel", "k:1")]),
        (
            &["--size", "2x2,4"],
            &[("sel", "y,1"), ("sel", "k:1"), ("sel", "b1")],
        ),
        (&["--instances", "x1"], &[("sel", "x1"), ("other", "x1")]),
        (&["--instances", "sel:x1"], &[("sel", "x1")]),
        (
            &["--instances", "x?"],
            &[("sel", "x1"), ("sel", "x2"), ("other", "x1")],
        ),
        // A wildcard in the dataset's part; an id whose colon names no dataset.
        (
            &["--instances", "*r:x?,k:1"],
            &[("other", "x1"), ("sel", "k:1")],
        ),
        (&["--instances", "s*"], &[("sel", "s*"), ("sel", "sx")]),
        (&["--instances", r"s\*"], &[("sel", "s*")]),
        // Flags are all applied; the entries of one are alternatives.
        (
            &[
                "--domain",
                "tiles",
                "--size",
                "3x3",
                "--instances",
                "sel:*,y*",
            ],
            &[("sel", "x1"), ("sel", "x2"), ("sel", "s*"), ("sel", "sx")],
        ),
        (
            &["--domain", "tiles,booksort", "--size", "4"],
            &[("sel", "b1")],
        ),
    ];
    for (k, (args, want)) in cases.iter().enumerate() {
        let name = format!("c{k}");
        run(&tmp, &name, &both, args, 0);
        assert_eq!(instances(&tmp.run_dir(&name)), set(want), "{args:?}");
    }
    // The manifest keeps the selection as given; a run without one writes none, as before.
    let m = manifest(&tmp.run_dir("c9"));
    assert_eq!(m["selection"]["domains"], serde_json::json!(["tiles"]));
    assert_eq!(
        m["selection"]["instances"],
        serde_json::json!(["sel:*", "y*"])
    );
    run(&tmp, "all", &both, &[], 0);
    assert!(manifest(&tmp.run_dir("all")).get("selection").is_none());
    assert_eq!(instances(&tmp.run_dir("all")).len(), 8);

    // The file: a BOM, CRLF, a blank line, spaces at the ends, no last line end; an id with a
    // comma. With --instances, an instance listed in either runs.
    let ids = tmp.write("ids.txt", "\u{feff}y,1\r\n\n  x2  \nother:x1");
    run(
        &tmp,
        "file",
        &both,
        &["--instances-file", &ids, "--instances", "k:1"],
        0,
    );
    assert_eq!(
        instances(&tmp.run_dir("file")),
        set(&[
            ("sel", "y,1"),
            ("sel", "x2"),
            ("other", "x1"),
            ("sel", "k:1")
        ])
    );
    let m = manifest(&tmp.run_dir("file"));
    assert_eq!(m["selection"]["instances_file"]["path"], ids.as_str());
    assert_eq!(
        m["selection"]["instances_file"]["sha256"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
}

#[test]
fn what_selects_nothing_is_refused() {
    let tmp = Tmp::new("select-bad");
    let [sel, other] = datasets(&tmp);
    let both = [sel.as_str(), other.as_str()];
    let typo = tmp.write("typo.txt", "x1\nzz\n");
    let blank = tmp.write("blank.txt", "\n  \n");
    let zeros = "0".repeat(64);
    let cases: [(&[&str], &str); 11] = [
        (
            &["--instances", "x1,nope"],
            "--instances 'nope': matches no instance of the datasets (sel, other;",
        ),
        (&["--instances", "other:x2"], "--instances 'other:x2': matches no"),
        (&["--instances-file", &typo], "typo.txt:2: 'zz': matches no"),
        (&["--domain", "rotation"], "--domain rotation: matches no"),
        (
            &["--size", "5x5,2X2"],
            "--size '5x5', --size '2X2': match no instance of the datasets (sel, other; their domains: tiles, booksort; their sizes: 3x3, 2x2, 4)",
        ),
        (
            &["--domain", "booksort", "--size", "3x3"],
            "the selection --domain booksort --size 3x3 leaves no instance",
        ),
        (&["--instances-file", &blank], "blank.txt: holds no id"),
        (&["--instances-file", "missing.txt"], "--instances-file missing.txt: cannot open"),
        (&["--instances", "x1,,x2"], "an empty entry"),
        (&["--domain", "tile"], "unknown domain 'tile'"),
        (
            &["--instances-file", &typo, "--instances-sha256", &zeros],
            "the file changed since the selection was made",
        ),
    ];
    for (args, says) in cases {
        let out = run(&tmp, "never", &both, args, 2);
        stderr_has(&out, says);
    }
    assert!(names(&tmp.path().join("reports")).is_empty());
}

#[test]
fn a_heuristic_runs_on_the_boards_it_fits_and_is_skipped_on_the_others() {
    let tmp = Tmp::new("select-fit");
    // walking-distance takes boards up to 5x5: not the two 6x6 rows.
    let six = |blank_at: usize| -> String {
        let mut cells: Vec<String> = (1..36).map(|t| t.to_string()).collect();
        cells.insert(blank_at, "0".into());
        cells.join(" ")
    };
    let mixed = tmp.write(
        "mixed.csv",
        &format!(
            "{HEADER}e1,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\nb1,tiles,6x6,{},,1\nb2,tiles,6x6,{},,2\n",
            six(34),
            six(33)
        ),
    );
    let out = run(
        &tmp,
        "fit",
        &[&mixed],
        &["--heuristic", "walking-distance,manhattan"],
        0,
    );
    let notes: Vec<&str> = std::str::from_utf8(&out.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.contains("skipped"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", show(&out));
    assert!(notes[0].starts_with(&format!(
        "note: heuristic walking-distance skipped on 2 instance(s) of dataset mixed: it does not fit their board or goal ({mixed}:3: instance 'b1': "
    )), "{}", notes[0]);
    let want: BTreeSet<(String, String, String)> = [
        ("e1", "walking-distance/stepnext/prune"),
        ("e1", "manhattan/stepnext/prune"),
        ("b1", "manhattan/stepnext/prune"),
        ("b2", "manhattan/stepnext/prune"),
    ]
    .iter()
    .map(|(i, v)| ("mixed".to_string(), i.to_string(), v.to_string()))
    .collect();
    assert_eq!(jobs(&tmp.run_dir("fit")), want);
    let rows = fs::read_to_string(tmp.run_dir("fit").join("runs.csv")).unwrap();
    for row in [
        "mixed,e1,tiles,3x3,walking-distance/stepnext/prune,walking-distance,next,on,solved,1,1,",
        "mixed,b2,tiles,6x6,manhattan/stepnext/prune,manhattan,next,on,solved,2,2,",
    ] {
        assert!(rows.contains(row), "{row}\n{rows}");
    }

    // A variant left with no job is refused: a heuristic that fits no selected board, one of a
    // domain not selected.
    let out = run(
        &tmp,
        "never",
        &[&mixed],
        &["--heuristic", "walking-distance", "--size", "6x6"],
        2,
    );
    stderr_has(&out, "variant walking-distance/stepnext/prune has no job: heuristic walking-distance fits none of the selected instances of its domains");
    let out = run(
        &tmp,
        "never",
        &[&mixed],
        &["--heuristic", "manhattan,breaks"],
        2,
    );
    stderr_has(
        &out,
        "variant breaks/stepnext/prune has no job: heuristic breaks is for booksort, and none of the selected instances is",
    );

    // The bundled smoke set has 3x3 and 4x4 rows: pdb-663 goes past the 3x3 ones and asks for
    // the 4x4 database (not built here: --no-build).
    let smoke = crate::common::dataset("smoke.csv");
    let cache = tmp.at("cache");
    let out = run(
        &tmp,
        "never",
        &[&smoke],
        &["--heuristic", "pdb-663", "--no-build", "--pdb-dir", &cache],
        2,
    );
    stderr_has(
        &out,
        "note: heuristic pdb-663 skipped on 7 instance(s) of dataset smoke",
    );
    stderr_has(
        &out,
        &format!("`idabench pdb build pdb-663 --pdb-dir {cache}` builds it"),
    );
    assert!(names(&tmp.path().join("reports")).contains(&"fit".to_string()));
    assert_eq!(names(&tmp.path().join("reports")).len(), 1);
}

#[test]
fn resume_takes_only_the_same_selection() {
    let tmp = Tmp::new("select-resume");
    let [sel, _] = datasets(&tmp);
    let ids = tmp.write("ids.txt", "y,1\n");
    run(&tmp, "r", &[&sel], &["--instances", "x1,x2"], 0);
    run(&tmp, "f", &[&sel], &["--instances-file", &ids], 0);
    // The same entries in another order, and the same ids from a copy of the file elsewhere.
    run(&tmp, "r", &[&sel], &["--instances", "x2,x1", "--resume"], 0);
    let copy = tmp.write("copy.txt", "y,1\n");
    run(
        &tmp,
        "f",
        &[&sel],
        &["--instances-file", &copy, "--resume"],
        0,
    );
    for (name, args, says) in [
        (
            "r",
            vec!["--instances", "x1"],
            "was made with selection --instances x1,x2, not --instances x1: give the same --domain, --size, --instances and --instances-file",
        ),
        (
            "r",
            vec![],
            "was made with selection --instances x1,x2, not none (every instance)",
        ),
        (
            "f",
            vec!["--instances-file", ids.as_str(), "--size", "2x2"],
            "not --size 2x2 --instances-file",
        ),
    ] {
        let mut args = args;
        args.push("--resume");
        let out = run(&tmp, name, &[&sel], &args, 2);
        stderr_has(&out, says);
    }
    fs::write(&ids, "y,1\nk:1\n").unwrap();
    let out = run(
        &tmp,
        "f",
        &[&sel],
        &["--instances-file", &ids, "--resume"],
        2,
    );
    stderr_has(&out, "was made with selection --instances-file");
}

fn bash(cwd: &Path, script: &str, args: &[&str]) -> Output {
    let out = Command::new("bash")
        .arg(script)
        .args(args)
        .current_dir(cwd)
        .env_remove("SLURM_JOB_ID")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .expect("run bash");
    assert!(!text(&out.stderr).contains("panicked"), "{}", show(&out));
    out
}

#[test]
fn the_slurm_script_and_merge_keep_the_selection() {
    let tmp = Tmp::new("select-slurm");
    let [sel, other] = datasets(&tmp);
    fs::write(tmp.path().join("ids.txt"), "x1\ny,1\n").unwrap();
    let out = idabench(
        tmp.path(),
        &[
            "slurm",
            &sel,
            &other,
            "--domain",
            "tiles",
            "--instances-file",
            "ids.txt",
            "--jobs",
            "1",
            "--shards",
            "2",
            "--name",
            "s",
            "--out",
            "reports",
            "--quiet",
            "--script",
            "s.sbatch",
        ],
    );
    assert_exit(&out, 0);
    let out = bash(tmp.path(), "s.sbatch", &["shard", "1"]);
    assert_exit(&out, 0);
    let m = manifest(&tmp.run_dir("s-shard-1"));
    assert_eq!(m["selection"]["domains"], serde_json::json!(["tiles"]));
    let sha = m["selection"]["instances_file"]["sha256"].as_str().unwrap();
    let script = fs::read_to_string(tmp.path().join("s.sbatch")).unwrap();
    assert!(
        script.contains(&format!(
            " --domain=tiles --instances-file=ids.txt --instances-sha256={sha} "
        )),
        "{script}"
    );
    // A shard started after the file changed stops rather than plan other jobs.
    fs::write(tmp.path().join("ids.txt"), "x1\n").unwrap();
    let out = bash(tmp.path(), "s.sbatch", &["shard", "2"]);
    assert_exit(&out, 2);
    stderr_has(&out, "the file changed since the selection was made");
    fs::write(tmp.path().join("ids.txt"), "x1\ny,1\n").unwrap();
    assert_exit(&bash(tmp.path(), "s.sbatch", &["shard", "2"]), 0);
    let out = bash(tmp.path(), "s.sbatch", &["merge"]);
    assert_exit(&out, 0);
    let merged = tmp.run_dir("s");
    assert_eq!(manifest(&merged)["selection"], m["selection"]);
    assert_eq!(
        instances(&merged),
        set(&[("sel", "x1"), ("sel", "y,1"), ("other", "x1")])
    );

    // Shards of two selections of as many jobs are not one run.
    for (k, ids) in [(1, "x1,x2"), (2, "x2,sx")] {
        let name = format!("m-{k}");
        let shard = format!("{k}/2");
        run(
            &tmp,
            &name,
            &[&sel],
            &["--instances", ids, "--shard", &shard],
            0,
        );
    }
    let out = idabench(
        tmp.path(),
        &["merge", "reports/m-1", "reports/m-2", "--out", "reports/m"],
    );
    assert_exit(&out, 2);
    stderr_has(
        &out,
        "are not shards of one run (different selection):\n  --instances x1,x2\n  --instances x2,sx",
    );
}

/// `ab` selects the jobs itself and gives a worker whose handshake does not say it takes a
/// selection the whole plan, so that a baseline built before selections existed (stood in for by
/// a script that refuses their flags and cuts the word from its handshake) is compared.
#[test]
fn ab_compares_the_selected_jobs_with_a_build_from_before_selections() {
    let tmp = Tmp::new("select-ab");
    let [sel, _] = datasets(&tmp);
    let old = tmp.path().join("old");
    fs::write(
        &old,
        format!(
            "#!/bin/sh\ncase \"$*\" in *--instances*|*--domain*|*--size*) \
             echo \"error: unexpected argument\" >&2; exit 2;; esac\n\
             if [ \"$1\" = worker ]; then {BIN} \"$@\" | \
             {{ IFS= read -r l; printf '%s\\n' \"${{l% select=*}}\"; exec cat; }}\n\
             else exec {BIN} \"$@\"; fi\n"
        ),
    )
    .unwrap();
    fs::set_permissions(&old, fs::Permissions::from_mode(0o755)).unwrap();
    let out = idabench(
        tmp.path(),
        &[
            "ab",
            "--baseline",
            old.to_str().unwrap(),
            &sel,
            "--instances",
            "x?",
            "--rounds",
            "1",
            "--quiet",
            "--out",
            "reports",
            "--name",
            "ab",
        ],
    );
    assert_exit(&out, 0);
    let dir = tmp.run_dir("ab");
    for side in ["runs-baseline.csv", "runs-current.csv"] {
        let mut r = csv::Reader::from_path(dir.join(side)).unwrap();
        let header = r.headers().unwrap().clone();
        let at = header.iter().position(|h| h == "instance").unwrap();
        let ids: BTreeSet<String> = r.records().map(|rec| rec.unwrap()[at].to_owned()).collect();
        assert_eq!(ids, BTreeSet::from(["x1".into(), "x2".into()]), "{side}");
    }
    assert_eq!(
        manifest(&dir)["selection"]["instances"],
        serde_json::json!(["x?"])
    );
}
