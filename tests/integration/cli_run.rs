//! `idabench run` (and `generate`) as a user runs them: the variant product, every report file
//! and column, `--resume` after a hard kill, determinism across worker counts, limits, exit codes,
//! unsolvable rows, all 181,440 8-puzzle states, and progress output.
//!
//! Only std: the binary is run with `std::process::Command`, its CSV and JSON are read by the
//! small parsers at the end of this file. Nothing here asserts on a time.

use crate::common::korf::KORF_GOAL;
use crate::common::{assert_exit, command, idabench, show, text, Tmp};
use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// Datasets

/// 8-puzzle states (default goal, blank last) with their optimal lengths from `idabench solve`.
/// Shallow enough for every variant: misplaced tiles without reverse-move pruning grows fast
/// with depth (past 14 billion nodes at 28 moves).
pub(crate) const EIGHT: &[(&str, &str, u32)] = &[
    ("goal", "1 2 3 4 5 6 7 8 0", 0),
    ("one", "1 2 3 4 5 6 7 0 8", 1),
    ("two", "1 2 3 4 0 6 7 5 8", 2),
    ("six", "4 1 3 7 2 6 0 5 8", 6),
    ("e8", "2 3 5 1 0 4 7 8 6", 8),
    ("e12", "2 8 3 4 0 5 7 1 6", 12),
    ("e16a", "7 4 2 1 0 6 8 3 5", 16),
    ("e16b", "3 5 4 7 2 1 0 8 6", 16),
    ("e18a", "5 2 1 4 0 3 8 6 7", 18),
    ("e18b", "2 8 5 3 0 1 4 7 6", 18),
];

/// Easy 15-puzzle states (random walks from the default goal) with their optimal lengths.
const FIFTEEN: &[(&str, &str, u32)] = &[
    ("w1", "6 1 3 8 2 10 4 7 0 11 14 12 5 9 13 15", 22),
    ("w2", "5 1 4 8 2 3 11 7 9 6 10 12 13 14 15 0", 18),
    ("w4", "6 1 0 3 2 13 7 4 5 9 11 8 10 14 15 12", 22),
    ("w5", "5 1 2 3 6 10 4 0 13 9 8 11 14 15 7 12", 18),
];

/// 15-puzzle states from 36-move random walks: about half of them are solved by misplaced-tiles
/// IDA* within 3,000,000 nodes, the others reach that limit. Optimal lengths unknown.
const WALK36: &[&str] = &[
    "6 2 3 11 1 5 4 8 9 10 15 7 13 14 12 0",
    "4 3 2 7 1 10 15 8 6 5 0 11 9 13 14 12",
    "5 1 2 3 10 8 15 4 0 6 13 7 14 9 11 12",
    "1 4 0 8 6 3 2 12 5 11 9 7 13 14 15 10",
    "2 5 4 8 13 1 6 7 0 11 15 3 10 9 12 14",
    "5 8 2 7 3 1 4 11 9 6 0 10 13 14 15 12",
    "6 4 1 2 5 10 7 8 14 13 3 12 9 0 11 15",
    "0 1 9 4 6 2 3 12 13 8 5 10 11 15 14 7",
    "2 5 1 6 9 14 7 3 10 8 11 4 13 15 12 0",
    "5 1 2 3 10 11 12 4 9 6 0 7 13 14 15 8",
    "4 1 3 12 2 7 8 11 6 10 9 5 13 0 14 15",
    "5 6 1 11 10 0 8 7 2 9 4 3 13 14 15 12",
    "0 3 4 8 6 13 7 15 1 10 12 11 2 5 9 14",
    "1 2 3 4 7 8 11 12 9 5 6 10 13 0 14 15",
    "0 6 10 5 1 8 3 2 14 11 12 4 9 13 15 7",
    "9 1 5 4 13 2 8 7 14 12 10 3 11 0 6 15",
    "6 1 12 3 7 0 2 4 5 9 14 15 13 10 11 8",
    "5 3 0 12 1 7 8 4 2 9 11 15 13 6 10 14",
    "1 3 8 7 5 2 4 12 13 15 6 11 10 0 9 14",
    "5 9 6 2 1 10 7 3 14 13 15 4 12 0 11 8",
    "1 6 3 2 5 4 7 0 10 13 15 11 9 14 8 12",
    "5 1 4 2 9 0 3 8 12 7 15 11 6 10 13 14",
    "3 2 4 8 1 0 12 11 5 9 6 10 7 13 14 15",
    "6 5 0 3 1 15 2 7 13 14 10 4 9 12 11 8",
    "1 10 2 3 11 0 9 6 8 15 14 4 5 13 12 7",
    "1 3 15 7 5 9 4 8 13 6 2 14 10 12 11 0",
    "6 2 7 3 1 9 4 8 10 14 5 11 13 0 15 12",
    "1 3 7 4 6 10 2 8 9 5 0 15 13 14 12 11",
    "2 10 7 3 5 6 9 4 13 1 0 8 12 14 11 15",
    "5 1 2 7 10 0 3 8 15 6 14 4 9 13 12 11",
];

/// The settings of the runs of WALK36: one worker, quiet (the last argument).
const WALK36_ARGS: [&str; 7] = [
    "--heuristic",
    "misplaced",
    "--max-nodes",
    "3000000",
    "--jobs",
    "1",
    "--quiet",
];

/// Korf's instance #1 (goal: blank first), optimal 57: far beyond misplaced tiles' reach.
const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

const HEADER: &str = "id,domain,size,start,goal,optimal\n";

pub(crate) fn rows(size: &str, states: &[(&str, &str, u32)]) -> String {
    states
        .iter()
        .map(|(id, start, opt)| format!("{id},tiles,{size},{start},,{opt}\n"))
        .collect()
}

fn eight_csv() -> String {
    format!("{HEADER}{}", rows("3x3", EIGHT))
}

fn fifteen_csv() -> String {
    format!("{HEADER}{}", rows("4x4", FIFTEEN))
}

fn walk36_csv() -> String {
    let mut text = String::from(HEADER);
    for (k, start) in WALK36.iter().enumerate() {
        text.push_str(&format!("w{},tiles,4x4,{start},,\n", k + 1));
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Running the binary

/// `idabench run DATASETS... --out OUT --name NAME EXTRA...`, expecting exit `code`.
pub(crate) fn run(tmp: &Tmp, name: &str, datasets: &[&str], extra: &[&str], code: i32) -> Output {
    let out_dir = tmp.out();
    let mut args = vec!["run"];
    args.extend_from_slice(datasets);
    args.extend_from_slice(&["--out", &out_dir, "--name", name]);
    args.extend_from_slice(extra);
    let out = idabench(tmp.path(), &args);
    assert_exit(&out, code);
    out
}

/// No temporary file is left in a run directory.
fn assert_no_tmp(dir: &Path) {
    for e in fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !name.ends_with(".tmp"),
            "{}: left behind {name}",
            dir.display()
        );
    }
}

pub(crate) fn runs(dir: &Path) -> Table {
    Table::read(&dir.join("runs.csv"))
}

/// The columns that measure time: with the run's name, the only ones allowed to differ between
/// equal runs.
const TIME_COLUMNS: [&str; 3] = ["time_wall_s", "time_cpu_s", "nodes_per_s"];

/// The rows of a runs.csv without their time columns and the run's name.
pub(crate) fn without_times(t: &Table) -> Vec<Vec<String>> {
    let keep: Vec<usize> = (0..t.header.len())
        .filter(|&i| !TIME_COLUMNS.contains(&t.header[i].as_str()) && t.header[i] != "run")
        .collect();
    t.rows
        .iter()
        .map(|r| keep.iter().map(|&i| r[i].clone()).collect())
        .collect()
}

fn assert_same_results(a: &Table, b: &Table, what: &str) {
    assert_eq!(a.header, b.header, "{what}: headers");
    assert_eq!(a.rows.len(), b.rows.len(), "{what}: row counts");
    for (k, (x, y)) in without_times(a).iter().zip(without_times(b)).enumerate() {
        assert_eq!(*x, y, "{what}: data row {}", k + 1);
    }
}

/// iterations.csv of the run in `dir` against its runs.csv: the header; for every job, in job
/// order, one row per iteration it counts, numbered from 1, whose nodes add up to the job's and
/// whose last bound is its final bound; no other rows.
pub(crate) fn assert_iterations_match_runs(dir: &Path) {
    let text = fs::read_to_string(dir.join("iterations.csv")).unwrap();
    assert!(
        text.starts_with(
            "dataset,instance,variant,iteration,bound,nodes_generated,nodes_expanded,repetition,\
             growth,children_per_expansion,budget\n"
        ),
        "{text}"
    );
    let it = Table::read(&dir.join("iterations.csv"));
    let t = runs(dir);
    let mut next = it.rows.iter().peekable();
    for row in &t.rows {
        let key = [
            t.get(row, "dataset"),
            t.get(row, "instance"),
            t.get(row, "variant"),
            t.get(row, "repetition"),
        ];
        let mut mine = Vec::new();
        while let Some(r) = next.next_if(|r| [&r[0], &r[1], &r[2], &r[7]] == key) {
            mine.push(r);
        }
        let what = format!("iterations.csv of {key:?}");
        assert_eq!(mine.len() as f64, t.num(row, "iterations"), "{what}");
        for (k, r) in mine.iter().enumerate() {
            assert_eq!(it.num(r, "iteration"), (k + 1) as f64, "{what}");
        }
        let sum = |c: &str| mine.iter().map(|r| it.num(r, c)).sum::<f64>();
        if let Some(last) = mine.last() {
            assert_eq!(
                sum("nodes_generated"),
                t.num(row, "nodes_generated"),
                "{what}"
            );
            assert_eq!(
                sum("nodes_expanded"),
                t.num(row, "nodes_expanded"),
                "{what}"
            );
            assert_eq!(it.get(last, "bound"), t.get(row, "final_bound"), "{what}");
        }
    }
    assert!(next.next().is_none(), "iterations.csv has rows of no job");
}

fn variant_name(h: &str, step: &str, prune: &str) -> String {
    format!(
        "{h}/step{step}/{}",
        if prune == "on" { "prune" } else { "noprune" }
    )
}

// ---------------------------------------------------------------------------------------------
// 1, 2, 9: the variant product, every report file and column, --quiet

const RUNS_COLUMNS: [&str; 20] = [
    "dataset",
    "instance",
    "domain",
    "size",
    "variant",
    "heuristic",
    "step",
    "reverse_pruning",
    "status",
    "length",
    "optimal",
    "nodes_generated",
    "nodes_expanded",
    "iterations",
    "final_bound",
    "time_wall_s",
    "time_cpu_s",
    "nodes_per_s",
    "path",
    "run",
];

const SUMMARY_COLUMNS: [&str; 17] = [
    "variant",
    "jobs",
    "solved",
    "limited",
    "nodes_generated_total",
    "nodes_expanded_total",
    "nodes_generated_geomean",
    "time_cpu_geomean_s",
    "time_cpu_p50_s",
    "time_cpu_p90_s",
    "time_cpu_p99_s",
    "time_cpu_max_s",
    "nodes_per_s",
    "par2_s",
    "speedup",
    "wrong",
    "run",
];

#[test]
fn variant_product_writes_every_report_and_column() {
    let tmp = Tmp::new("product");
    let eight = tmp.write("eight.csv", &eight_csv());
    let out = run(
        &tmp,
        "p",
        &[&eight],
        &[
            "--heuristic",
            "manhattan,misplaced",
            "--step",
            "1,2",
            "--reverse-pruning",
            "on,off",
            "--jobs",
            "2",
            "--quiet",
        ],
        0,
    );
    assert_eq!(text(&out.stderr), "", "--quiet writes nothing on stderr");
    let dir = tmp.run_dir("p");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("reports: {}", dir.display())),
        "{stdout}"
    );
    for f in [
        "runs.csv",
        "iterations.csv",
        "summary.csv",
        "summary-groups.csv",
        "summary.md",
        "manifest.json",
    ] {
        assert!(dir.join(f).is_file(), "{f} is missing");
    }
    assert_no_tmp(&dir);
    assert_iterations_match_runs(&dir);
    // The run's plots, drawn at its end: 8 variants, so 7 scatter plots of the first against
    // each other one.
    let drawn = crate::common::svg::svgs(&dir);
    assert_eq!(drawn.len(), 3 + 7, "{drawn:?}");
    assert_eq!(
        drawn[..3],
        ["cactus-nodes.svg", "cactus.svg", "iterations.svg"]
    );

    // The product: 2 heuristics x 2 steps x 2 pruning settings.
    let mut expected = Vec::new();
    for h in ["manhattan", "misplaced"] {
        for s in ["1", "2"] {
            for p in ["on", "off"] {
                expected.push(variant_name(h, s, p));
            }
        }
    }
    let expected_set: HashSet<&str> = expected.iter().map(String::as_str).collect();
    assert!(expected_set.contains("manhattan/step2/prune"));
    assert!(expected_set.contains("misplaced/step1/noprune"));

    let manifest = Json::read(&dir.join("manifest.json"));
    let variants: Vec<String> = manifest
        .get("variants")
        .arr()
        .iter()
        .map(|v| v.str().to_owned())
        .collect();
    assert_eq!(variants.len(), 8);
    assert_eq!(
        variants.iter().map(String::as_str).collect::<HashSet<_>>(),
        expected_set
    );

    // runs.csv: every column, instances x 8 rows in dataset order, each row consistent.
    let t = runs(&dir);
    for c in RUNS_COLUMNS {
        assert!(t.header.iter().any(|h| h == c), "runs.csv lacks `{c}`");
    }
    assert_eq!(t.rows.len(), EIGHT.len() * 8);
    for (k, row) in t.rows.iter().enumerate() {
        let (id, _, opt) = EIGHT[k / 8];
        let variant = &variants[k % 8];
        let g = |c: &str| t.get(row, c);
        assert_eq!(g("dataset"), "eight");
        assert_eq!(g("instance"), id);
        assert_eq!(g("domain"), "tiles");
        assert_eq!(g("size"), "3x3");
        assert_eq!(g("variant"), variant);
        assert_eq!(
            &variant_name(g("heuristic"), g("step"), g("reverse_pruning")),
            variant,
            "row {}: heuristic/step/reverse_pruning against the variant name",
            k + 1
        );
        // Every variant here is admissible: each job is solved at the optimal length.
        assert_eq!(g("status"), "solved", "row {}", k + 1);
        assert_eq!(g("length"), opt.to_string(), "row {}", k + 1);
        assert_eq!(g("optimal"), opt.to_string());
        assert_eq!(g("path").len(), opt as usize);
        assert!(g("path").chars().all(|c| "UDLR".contains(c)));
        assert!(t.num(row, "nodes_generated") >= t.num(row, "nodes_expanded"));
        assert!(t.num(row, "nodes_generated") >= 1.0);
        assert!(t.num(row, "iterations") >= 1.0);
        assert_eq!(g("final_bound"), opt.to_string());
        assert_eq!(g("run"), "p", "row {}: the run's name", k + 1);
        // Times are measurements: their values are not asserted, only that they are numbers.
        for c in TIME_COLUMNS {
            let v = t.num(row, c);
            assert!(v.is_finite() && v >= 0.0, "{c}: {v}");
        }
    }

    // summary.csv: one row per variant, in the manifest's order, totals from runs.csv.
    let s = Table::read(&dir.join("summary.csv"));
    for c in SUMMARY_COLUMNS {
        assert!(s.header.iter().any(|h| h == c), "summary.csv lacks `{c}`");
    }
    assert_eq!(s.rows.len(), 8);
    for (row, variant) in s.rows.iter().zip(&variants) {
        assert_eq!(s.get(row, "variant"), variant);
        assert_eq!(s.get(row, "run"), "p");
        let mine: Vec<&Vec<String>> = t
            .rows
            .iter()
            .filter(|r| t.get(r, "variant") == variant)
            .collect();
        let total = |c: &str| mine.iter().map(|r| t.num(r, c) as u64).sum::<u64>();
        assert_eq!(s.get(row, "jobs"), EIGHT.len().to_string());
        assert_eq!(s.get(row, "solved"), EIGHT.len().to_string());
        assert_eq!(s.get(row, "limited"), "0");
        assert_eq!(s.get(row, "wrong"), "0");
        assert_eq!(
            s.get(row, "nodes_generated_total"),
            total("nodes_generated").to_string()
        );
        assert_eq!(
            s.get(row, "nodes_expanded_total"),
            total("nodes_expanded").to_string()
        );
        let geomean = (mine
            .iter()
            .map(|r| t.num(r, "nodes_generated").ln())
            .sum::<f64>()
            / mine.len() as f64)
            .exp();
        let got = s.num(row, "nodes_generated_geomean");
        assert!(
            (got - geomean).abs() <= 1e-9 * geomean,
            "{got} vs {geomean}"
        );
        let q: Vec<f64> = ["p50", "p90", "p99", "max"]
            .iter()
            .map(|p| s.num(row, &format!("time_cpu_{p}_s")))
            .collect();
        assert!(q[0] >= 0.0 && q.windows(2).all(|w| w[0] <= w[1]), "{q:?}");
        for c in ["nodes_per_s", "time_cpu_geomean_s"] {
            let v = s.num(row, c);
            assert!(v.is_finite() && v >= 0.0, "{c}: {v}");
        }
        // No limit: nothing to penalise with.
        assert_eq!((s.get(row, "par2_s"), s.get(row, "par2_nodes")), ("", ""));
    }

    // summary.md: a table row per variant.
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    for v in &variants {
        assert!(md.contains(&format!("| `{v}` | {} |", EIGHT.len())), "{md}");
    }

    // manifest.json: every field.
    let m = &manifest;
    assert_eq!(m.get("idabench_version").str(), env!("CARGO_PKG_VERSION"));
    match m.get("git_commit") {
        Json::Null => {}
        Json::Str(c) => assert!(c.len() >= 40, "{c}"),
        other => panic!("git_commit: {other:?}"),
    }
    assert!(m.get("rustc_version").str().starts_with("rustc "));
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    assert_eq!(m.get("build_profile").str(), profile);
    assert!(!m.get("cpu_model").str().is_empty());
    assert!(m.get("cores").num() >= 1.0);
    assert_eq!(m.get("jobs").num(), 2.0);
    let argv: Vec<&str> = m.get("command_line").arr().iter().map(Json::str).collect();
    for a in ["run", eight.as_str(), "manhattan,misplaced", "--quiet"] {
        assert!(argv.contains(&a), "command_line {argv:?} lacks {a}");
    }
    let datasets = m.get("datasets").arr();
    assert_eq!(datasets.len(), 1);
    let d = &datasets[0];
    assert_eq!(d.get("name").str(), "eight");
    assert_eq!(d.get("path").str(), eight);
    assert_eq!(d.get("instances").num(), EIGHT.len() as f64);
    let sha = d.get("sha256").str();
    assert_eq!(sha.len(), 64);
    assert!(sha
        .bytes()
        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    if let Some(want) = sha256sum(Path::new(&eight)) {
        assert_eq!(sha, want, "sha256 of {eight}");
    }
    assert_eq!(*m.get("max_nodes"), Json::Null);
    assert_eq!(*m.get("time_limit_s"), Json::Null);
    for key in ["start_time", "end_time"] {
        let t = m.get(key).str();
        let b = t.as_bytes();
        assert!(
            b.len() == 20 && b[4] == b'-' && b[10] == b'T' && b[19] == b'Z',
            "{key}: {t}"
        );
    }
}

/// The SHA-256 of a file from `sha256sum`, when that tool exists.
fn sha256sum(path: &Path) -> Option<String> {
    let out = Command::new("sha256sum").arg(path).output().ok()?;
    if !out.status.success() {
        return None;
    }
    text(&out.stdout)
        .split_whitespace()
        .next()
        .map(str::to_owned)
}

// ---------------------------------------------------------------------------------------------
// 4, 9: determinism across worker counts; progress lines without --quiet

#[test]
fn jobs_1_and_jobs_2_give_the_same_rows() {
    let tmp = Tmp::new("determinism");
    let eight = tmp.write("eight.csv", &eight_csv());
    let fifteen = tmp.write("fifteen.csv", &fifteen_csv());
    let variants = [
        "--heuristic",
        "manhattan,misplaced",
        "--step",
        "1,2",
        "--reverse-pruning",
        "on,off",
    ];
    let jobs = |n: &'static str| [&variants[..], &["--jobs", n]].concat();
    // Without --quiet, on a pipe: plain progress lines on stderr, the last one with the count.
    let one = run(&tmp, "j1", &[&eight, &fifteen], &jobs("1"), 0);
    let total = (EIGHT.len() + FIFTEEN.len()) * 8;
    let stderr = text(&one.stderr);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.contains(&format!("{total}/{total} jobs")),
        "progress on stderr:\n{stderr}"
    );
    let two = run(
        &tmp,
        "j2",
        &[&eight, &fifteen],
        &[&jobs("2")[..], &["--quiet"]].concat(),
        0,
    );
    assert_eq!(text(&two.stderr), "");
    let a = runs(&tmp.run_dir("j1"));
    let b = runs(&tmp.run_dir("j2"));
    assert_eq!(a.rows.len(), total);
    assert_same_results(&a, &b, "--jobs 1 against --jobs 2");
    // iterations.csv holds no time: the same bytes.
    assert_iterations_match_runs(&tmp.run_dir("j1"));
    assert_eq!(
        fs::read(tmp.run_dir("j1").join("iterations.csv")).unwrap(),
        fs::read(tmp.run_dir("j2").join("iterations.csv")).unwrap()
    );
    // Both datasets, in the order given, every job solved at its optimal length.
    let datasets: Vec<&str> = a.rows.iter().map(|r| a.get(r, "dataset")).collect();
    assert!(datasets[..EIGHT.len() * 8].iter().all(|&d| d == "eight"));
    assert!(datasets[EIGHT.len() * 8..].iter().all(|&d| d == "fifteen"));
    for r in &a.rows {
        assert_eq!(a.get(r, "status"), "solved");
        assert_eq!(a.get(r, "length"), a.get(r, "optimal"));
    }
    let m = Json::read(&tmp.run_dir("j2").join("manifest.json"));
    assert_eq!(m.get("jobs").num(), 2.0);
    assert_eq!(m.get("datasets").arr().len(), 2);
}

// ---------------------------------------------------------------------------------------------
// 3: --resume

/// Complete data rows (ended by a newline) in a runs.csv; 0 while it does not exist.
fn finished_rows(path: &Path) -> usize {
    let bytes = fs::read(path).unwrap_or_default();
    bytes
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        .saturating_sub(1)
}

/// Starts a run, waits for at least 2 finished rows, sends it `signal`; the rows it kept and its
/// exit code (None when killed), or None when the run finished before the signal.
fn start_and_signal(
    tmp: &Tmp,
    name: &str,
    dataset: &str,
    args: &[&str],
    signal: libc::c_int,
) -> Option<(usize, Option<i32>)> {
    let out_dir = tmp.out();
    let mut all = vec!["run", dataset, "--out", &out_dir, "--name", name];
    all.extend_from_slice(args);
    let mut child = command(tmp.path(), &all)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start idabench");
    let runs_csv = tmp.run_dir(name).join("runs.csv");
    // Ends: the run either writes its rows or exits.
    loop {
        if finished_rows(&runs_csv) >= 2 {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // SAFETY: signals the child this test started (and has not yet reaped).
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    let status = child.wait().unwrap();
    let kept = finished_rows(&runs_csv);
    if status.success() || kept == WALK36.len() {
        return None;
    }
    assert!(kept >= 2, "{kept} rows");
    Some((kept, status.code()))
}

#[test]
fn resume_after_a_kill_matches_a_clean_run() {
    let tmp = Tmp::new("resume");
    let walk = tmp.write("walk36.csv", &walk36_csv());
    let args = WALK36_ARGS;
    let clean = {
        run(&tmp, "clean", &[&walk], &args, 0);
        runs(&tmp.run_dir("clean"))
    };
    assert_eq!(clean.rows.len(), WALK36.len());
    let statuses: HashSet<&str> = clean.rows.iter().map(|r| clean.get(r, "status")).collect();
    assert_eq!(
        statuses,
        HashSet::from(["solved", "node_limit"]),
        "the dataset mixes solved and limited jobs"
    );

    // Kill a run after its first rows (again, in the unlikely case it finished first).
    let (name, kept) = (1..=3)
        .find_map(|k| {
            let name = format!("killed{k}");
            start_and_signal(&tmp, &name, &walk, &args, libc::SIGKILL).map(|(kept, _)| (name, kept))
        })
        .expect("a run of 30 jobs was never caught before its end");
    let dir = tmp.run_dir(&name);
    let before = Json::read(&dir.join("manifest.json"));
    let partial = runs(&dir);
    assert_eq!(partial.rows.len(), kept);

    // Resume without --quiet (the last argument): it says what it keeps.
    let resume = |name: &str| {
        let again = [&args[..args.len() - 1], &["--resume"]].concat();
        run(&tmp, name, &[&walk], &again, 0)
    };
    let resumed = resume(&name);
    let stderr = text(&resumed.stderr);
    assert!(
        stderr.contains(&format!(
            "{kept} job(s) done, {} to run",
            WALK36.len() - kept
        )),
        "{stderr}"
    );
    let after = runs(&dir);
    // Exactly one row per job, in job order, results equal to the clean run's.
    let keys: HashSet<&str> = after
        .rows
        .iter()
        .map(|r| after.get(r, "instance"))
        .collect();
    assert_eq!(keys.len(), WALK36.len(), "one row per job, no duplicates");
    assert_same_results(&clean, &after, "resumed against clean");
    // The rows finished before the kill are kept as they were, times included (jobs start
    // longest first, so they need not be the first rows in job order).
    for row in &partial.rows {
        assert!(after.rows.contains(row), "{row:?} was not kept as it was");
    }
    let m = Json::read(&dir.join("manifest.json"));
    assert_eq!(m.get("start_time"), before.get("start_time"));
    assert_no_tmp(&dir);
    // iterations.csv holds no time: the same bytes as the clean run's, each job's rows once.
    let clean_iterations = fs::read(tmp.run_dir("clean").join("iterations.csv")).unwrap();
    assert_iterations_match_runs(&tmp.run_dir("clean"));
    assert_eq!(
        fs::read(dir.join("iterations.csv")).unwrap(),
        clean_iterations
    );

    // A last line cut short (a kill in the middle of a write) is dropped and its job run again.
    // iterations.csv holds the rows of every job (a job's rows are written before its runs.csv
    // row) and a line cut short: those of jobs without a runs.csv row are dropped.
    let cut = tmp.run_dir("cut");
    fs::create_dir_all(&cut).unwrap();
    fs::copy(
        tmp.run_dir("clean").join("manifest.json"),
        cut.join("manifest.json"),
    )
    .unwrap();
    let full = fs::read_to_string(tmp.run_dir("clean").join("runs.csv")).unwrap();
    let lines: Vec<&str> = full.split_inclusive('\n').collect();
    let mut text_cut: String = lines[..6].concat(); // header + 5 rows
    text_cut.push_str(&lines[6][..lines[6].len() / 2]);
    fs::write(cut.join("runs.csv"), &text_cut).unwrap();
    let mut iterations_cut = clean_iterations.clone();
    iterations_cut.extend_from_slice(b"walk36,w3,misplaced/stepnext/prune,1,2");
    fs::write(cut.join("iterations.csv"), &iterations_cut).unwrap();
    let out = resume("cut");
    assert!(
        text(&out.stderr).contains(&format!("5 job(s) done, {} to run", WALK36.len() - 5)),
        "{}",
        show(&out)
    );
    let after_cut = runs(&cut);
    assert_same_results(&clean, &after_cut, "resumed after a cut line against clean");
    assert_eq!(&after_cut.rows[..5], &clean.rows[..5]);
    assert_eq!(
        fs::read(cut.join("iterations.csv")).unwrap(),
        clean_iterations
    );

    // A job of runs.csv whose iteration rows are not all there (a machine crash can keep a
    // later write and lose an earlier one) runs again.
    let lost = tmp.run_dir("lost");
    fs::create_dir_all(&lost).unwrap();
    for f in ["manifest.json", "runs.csv"] {
        fs::copy(cut.join(f), lost.join(f)).unwrap();
    }
    let text_lost = String::from_utf8(clean_iterations.clone()).unwrap();
    let second = clean.get(&clean.rows[1], "instance");
    let first_row_of_second = text_lost
        .lines()
        .find(|l| l.split(',').nth(1) == Some(second))
        .unwrap();
    fs::write(
        lost.join("iterations.csv"),
        text_lost.replacen(&format!("{first_row_of_second}\n"), "", 1),
    )
    .unwrap();
    let out = resume("lost");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "note: 1 finished job(s) lack some of their rows in iterations.csv: they run again"
        ) && stderr.contains(&format!("{} job(s) done, 1 to run", WALK36.len() - 1)),
        "{stderr}"
    );
    assert_same_results(&clean, &runs(&lost), "resumed after lost iteration rows");
    assert_eq!(
        fs::read(lost.join("iterations.csv")).unwrap(),
        clean_iterations
    );

    // Resuming a finished run runs nothing and leaves runs.csv as it was, byte for byte.
    let before = fs::read(tmp.run_dir("clean").join("runs.csv")).unwrap();
    let out = resume("clean");
    assert!(
        text(&out.stderr).contains(&format!("{} job(s) done, 0 to run", WALK36.len())),
        "{}",
        show(&out)
    );
    assert_eq!(
        fs::read(tmp.run_dir("clean").join("runs.csv")).unwrap(),
        before
    );
}

#[test]
fn a_run_directory_is_never_overwritten_or_resumed_with_other_settings() {
    let tmp = Tmp::new("refuse");
    let eight = tmp.write("eight.csv", &eight_csv());
    run(
        &tmp,
        "r",
        &[&eight],
        &["--quiet", "--max-nodes", "1000000"],
        0,
    );
    let runs_csv = tmp.run_dir("r").join("runs.csv");
    let original = fs::read(&runs_csv).unwrap();
    let refused = |extra: &[&str], dataset: &str, what: &str| {
        let out = run(&tmp, "r", &[dataset], extra, 2);
        let stderr = text(&out.stderr);
        assert!(stderr.contains(what), "wanted '{what}' in:\n{stderr}");
        assert!(
            stderr.contains(tmp.run_dir("r").to_str().unwrap()),
            "{stderr}"
        );
        assert_eq!(
            fs::read(&runs_csv).unwrap(),
            original,
            "runs.csv was touched"
        );
    };
    // Without --resume.
    refused(&["--max-nodes", "1000000"], &eight, "already holds a run");
    // --resume with other variants.
    refused(
        &[
            "--resume",
            "--max-nodes",
            "1000000",
            "--heuristic",
            "misplaced",
        ],
        &eight,
        "variants",
    );
    refused(
        &["--resume", "--max-nodes", "1000000", "--step", "1,2"],
        &eight,
        "variants",
    );
    // --resume with other limits.
    refused(&["--resume"], &eight, "limits");
    refused(
        &["--resume", "--max-nodes", "1000000", "--time-limit", "5"],
        &eight,
        "limits",
    );
    // --resume on a changed dataset file of the same name.
    let changed = tmp.path().join("other");
    fs::create_dir_all(&changed).unwrap();
    let changed_eight = changed.join("eight.csv");
    fs::write(
        &changed_eight,
        format!("{HEADER}{}", rows("3x3", &EIGHT[..3])),
    )
    .unwrap();
    refused(
        &["--resume", "--max-nodes", "1000000"],
        changed_eight.to_str().unwrap(),
        "other dataset files",
    );
    // --resume of a run that does not exist.
    let out = run(&tmp, "nothing-here", &[&eight], &["--resume"], 2);
    assert!(
        text(&out.stderr).contains("no run to resume")
            || text(&out.stderr).contains("does not exist")
    );
    // The same settings resume fine.
    run(
        &tmp,
        "r",
        &[&eight],
        &["--resume", "--max-nodes", "1000000", "-q"],
        0,
    );
}

/// Every file of a directory, by name, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn resume_without_a_name_never_picks_a_finished_run() {
    let tmp = Tmp::new("resume-finished");
    let eight = tmp.write("eight.csv", &eight_csv());
    // A finished run, like a committed baseline in a fresh clone.
    run(&tmp, "baseline", &[&eight], &["-q"], 0);
    let finished = tmp.run_dir("baseline");
    let before = snapshot(&finished);
    let out_dir = tmp.out();
    let resume = |extra: &[&str]| {
        let args = [&["run", &eight, "--out", &out_dir, "--resume"][..], extra].concat();
        idabench(tmp.path(), &args)
    };
    let out = resume(&["-q"]);
    assert_exit(&out, 2);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no unfinished run") && stderr.contains("--name"),
        "{stderr}"
    );
    assert_eq!(snapshot(&finished), before, "the finished run was touched");

    // An unfinished run beside it (its manifest's end_time still empty) is the one resumed.
    let cut = tmp.run_dir("cut");
    fs::create_dir_all(&cut).unwrap();
    for (name, bytes) in &before {
        fs::write(cut.join(name), bytes).unwrap();
    }
    let manifest = text(&before["manifest.json"]);
    let at = manifest.find("\"end_time\": \"").unwrap() + "\"end_time\": \"".len();
    let end = at + manifest[at..].find('"').unwrap();
    assert!(end > at, "a finished run has an end time:\n{manifest}");
    fs::write(
        cut.join("manifest.json"),
        format!("{}{}", &manifest[..at], &manifest[end..]),
    )
    .unwrap();
    let out = resume(&[]);
    assert_exit(&out, 0);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("resuming {}", cut.display())),
        "{stderr}"
    );
    assert_eq!(snapshot(&finished), before, "the finished run was touched");
    let m = Json::read(&cut.join("manifest.json"));
    assert!(!m.get("end_time").str().is_empty());
}

#[test]
fn runs_without_a_name_never_share_a_directory() {
    let tmp = Tmp::new("unnamed");
    let a = tmp.write("a.csv", &format!("{HEADER}{}", rows("3x3", &EIGHT[1..2])));
    let b = tmp.write("b.csv", &format!("{HEADER}{}", rows("3x3", &EIGHT[2..3])));
    let out_dir = tmp.out();
    // Started within the same second more often than not.
    for d in [&a, &b] {
        let out = idabench(tmp.path(), &["run", d, "--out", &out_dir, "-q"]);
        assert_exit(&out, 0);
    }
    let mut datasets: Vec<String> = fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| {
            let t = runs(&e.unwrap().path());
            assert_eq!(t.rows.len(), 1);
            t.get(&t.rows[0], "dataset").to_owned()
        })
        .collect();
    datasets.sort();
    assert_eq!(datasets, ["a", "b"], "each run keeps its own reports");
}

// ---------------------------------------------------------------------------------------------
// 5: limits

#[test]
fn limits_stop_a_job_and_the_run_goes_on() {
    let tmp = Tmp::new("limits");
    let data = format!(
        "{HEADER}korf1,tiles,4x4,{KORF1},{KORF_GOAL},57\n{}{}",
        rows("3x3", &EIGHT[1..4]),
        rows("4x4", &FIFTEEN[3..4])
    );
    let path = tmp.write("limits.csv", &data);
    // `clock`: the limit_clock of the limited job; every other row has none.
    let check = |name: &str, status: &str, clock: &str| {
        let dir = tmp.run_dir(name);
        let t = runs(&dir);
        assert_eq!(t.rows.len(), 5);
        let korf = &t.rows[0];
        assert_eq!(t.get(korf, "instance"), "korf1");
        assert_eq!(t.get(korf, "status"), status);
        assert_eq!(t.get(korf, "limit_clock"), clock);
        assert!(t.rows[1..]
            .iter()
            .all(|r| t.get(r, "limit_clock").is_empty()));
        assert_eq!(t.get(korf, "length"), "");
        assert_eq!(t.get(korf, "path"), "");
        assert_eq!(t.get(korf, "optimal"), "57");
        for r in &t.rows[1..] {
            assert_eq!(
                t.get(r, "status"),
                "solved",
                "the jobs after a limited one run"
            );
            assert_eq!(t.get(r, "length"), t.get(r, "optimal"));
            // Why no limit stops them, exactly: they generate fewer nodes than --max-nodes, and
            // the engine looks at the clock once every 16,384 expansions, so a job that expands
            // fewer cannot reach a time limit on however slow or loaded a machine.
            assert!(t.num(r, "nodes_generated") < 100_000.0);
            assert!(t.num(r, "nodes_expanded") < 16_384.0);
        }
        let s = Table::read(&dir.join("summary.csv"));
        assert_eq!(s.get(&s.rows[0], "limited"), "1");
        assert_eq!(s.get(&s.rows[0], "solved"), "4");
        assert_no_tmp(&dir);
        (
            t.num(korf, "nodes_generated"),
            Json::read(&dir.join("manifest.json")),
        )
    };

    let limit = 100_000u64;
    let l = limit.to_string();
    run(
        &tmp,
        "nodes",
        &[&path],
        &["--heuristic", "misplaced", "--max-nodes", &l, "-q"],
        0,
    );
    let (nodes, m) = check("nodes", "node_limit", "");
    assert!(
        nodes >= limit as f64,
        "{nodes} nodes under a limit of {limit}"
    );
    assert_eq!(m.get("max_nodes").num(), limit as f64);

    run(
        &tmp,
        "time",
        &[&path],
        &["--heuristic", "misplaced", "--time-limit", "0.05", "-q"],
        0,
    );
    let (_, m) = check("time", "time_limit", "cpu");
    assert_eq!(m.get("time_limit_s").num(), 0.05);
    assert_eq!(m.get("time_limit_clock").str(), "cpu");
    assert_eq!(*m.get("wall_limit_s"), Json::Null);

    run(
        &tmp,
        "wall",
        &[&path],
        &["--heuristic", "misplaced", "--wall-limit", "0.05", "-q"],
        0,
    );
    let (_, m) = check("wall", "time_limit", "wall");
    assert_eq!(m.get("wall_limit_s").num(), 0.05);
    assert_eq!(*m.get("time_limit_s"), Json::Null);
    let summary = fs::read_to_string(tmp.run_dir("wall").join("summary.md")).unwrap();
    assert!(summary.contains("limits: 0.05 s wall."), "{summary}");
}

/// The header of runs.csv before `limit_clock`.
const RUNS_HEADER_BEFORE_CLOCK: &str = "dataset,instance,domain,size,variant,heuristic,step,\
    reverse_pruning,status,length,optimal,nodes_generated,nodes_expanded,iterations,final_bound,\
    time_wall_s,time_cpu_s,nodes_per_s,initial_h,optimal_guaranteed,message,path";

/// A run made before `--time-limit` limited CPU time: its manifest has no `time_limit_clock` and
/// its runs.csv no `limit_clock`, and its limit was wall time. Its rows read as stopped by the
/// wall clock, `--resume` with the same `--time-limit` (or `--wall-limit`) takes it up and keeps
/// limiting wall time, and other seconds are refused.
#[test]
fn an_old_runs_time_limit_reads_as_wall_and_resume_keeps_it() {
    let tmp = Tmp::new("old-limit");
    // Two jobs that take far longer than the limit, and one that does not.
    let data = format!(
        "{HEADER}k1,tiles,4x4,{KORF1},{KORF_GOAL},57\nk2,tiles,4x4,{KORF1},{KORF_GOAL},57\n{}",
        rows("3x3", &EIGHT[1..2])
    );
    let path = tmp.write("old.csv", &data);
    let limited = ["--heuristic", "misplaced", "--time-limit", "0.05", "-q"];
    run(&tmp, "old", &[&path], &limited, 0);
    let dir = tmp.run_dir("old");
    // As the idabench before CPU limits wrote them: no clock, and (k2 interrupted) no k2 row.
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    let manifest = manifest
        .replace("  \"time_limit_clock\": \"cpu\",\n", "")
        .replace("  \"wall_limit_s\": null,\n", "");
    assert!(
        !manifest.contains("clock") && !manifest.contains("wall_limit"),
        "{manifest}"
    );
    fs::write(dir.join("manifest.json"), manifest).unwrap();
    let old_runs: String = fs::read_to_string(dir.join("runs.csv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("old,k2,"))
        // The columns up to `path` (no field before it holds a comma).
        .map(|l| format!("{}\n", l.split(',').take(22).collect::<Vec<_>>().join(",")))
        .collect();
    assert!(
        old_runs.starts_with(&format!("{}\n", RUNS_HEADER_BEFORE_CLOCK)),
        "{old_runs}"
    );
    fs::write(dir.join("runs.csv"), old_runs).unwrap();

    // Other seconds, or both clocks, are other limits; the message says how the old run counted.
    for other in [
        &["--time-limit", "0.1"][..],
        &["--time-limit", "0.05", "--wall-limit", "0.05"],
    ] {
        let args = [&["--resume", "--heuristic", "misplaced", "-q"][..], other].concat();
        let out = run(&tmp, "old", &[&path], &args, 2);
        assert!(
            text(&out.stderr).contains(
                "limits 0.05 s wall (by an idabench whose --time-limit limited wall time"
            ),
            "{}",
            show(&out)
        );
    }
    let out = run(
        &tmp,
        "old",
        &[&path],
        &[&["--resume"][..], &limited].concat(),
        0,
    );
    assert!(
        text(&out.stdout).contains("limits: 0.05 s wall."),
        "{}",
        show(&out)
    );
    let t = runs(&dir);
    let clocks: Vec<(&str, &str, &str)> = t.triples(["instance", "status", "limit_clock"]);
    assert_eq!(
        clocks,
        [
            ("k1", "time_limit", "wall"),
            ("k2", "time_limit", "wall"),
            ("one", "solved", "")
        ]
    );
    let m = Json::read(&dir.join("manifest.json"));
    assert_eq!(m.get("time_limit_s").num(), 0.05);
    assert_eq!(*m.get("time_limit_clock"), Json::Null);

    // A run of this idabench is resumed on its own clocks only.
    run(&tmp, "new", &[&path], &limited, 0);
    let wall = [
        "--resume",
        "--heuristic",
        "misplaced",
        "--wall-limit",
        "0.05",
        "-q",
    ];
    let out = run(&tmp, "new", &[&path], &wall, 2);
    assert!(
        text(&out.stderr).contains("was made with limits 0.05 s CPU, not 0.05 s wall"),
        "{}",
        show(&out)
    );
}

// ---------------------------------------------------------------------------------------------
// 6, 7: exit codes, wrong rows, unsolvable rows

#[test]
fn a_row_shorter_than_its_reference_is_wrong_and_exits_4() {
    let tmp = Tmp::new("wrong");
    // `six` claims 8 moves; the solver finds 6.
    let data = format!(
        "{HEADER}two,tiles,3x3,1 2 3 4 0 6 7 5 8,,2\nsix,tiles,3x3,4 1 3 7 2 6 0 5 8,,8\none,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n"
    );
    let path = tmp.write("claims.csv", &data);
    let out = run(&tmp, "w", &[&path], &["-q"], 4);
    assert!(text(&out.stderr).contains("wrong"), "{}", show(&out));
    let dir = tmp.run_dir("w");
    let t = runs(&dir);
    let status: Vec<&str> = t.rows.iter().map(|r| t.get(r, "status")).collect();
    assert_eq!(status, ["solved", "wrong", "solved"]);
    let six = &t.rows[1];
    assert_eq!(t.get(six, "length"), "6");
    assert_eq!(t.get(six, "optimal"), "8");
    assert!(t.get(six, "message").contains("shorter"), "{:?}", six);
    let s = Table::read(&dir.join("summary.csv"));
    assert_eq!(s.get(&s.rows[0], "wrong"), "1");
    assert_eq!(s.get(&s.rows[0], "solved"), "2");
    for f in ["runs.csv", "summary.csv", "summary.md", "manifest.json"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
}

#[test]
fn unsolvable_rows_are_jobs_with_status_unsolvable() {
    let tmp = Tmp::new("unsolvable");
    let data = format!(
        "{HEADER}u8,tiles,3x3,1 2 3 4 5 6 8 7 0,,\n\
         ok,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n\
         u15,tiles,4x4,2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0,,\n"
    );
    let path = tmp.write("mixed.csv", &data);
    let out = run(
        &tmp,
        "u",
        &[&path],
        &[
            "--heuristic",
            "manhattan,misplaced",
            "--step",
            "2,next",
            "-q",
        ],
        0,
    );
    assert_eq!(text(&out.stderr), "");
    let t = runs(&tmp.run_dir("u"));
    assert_eq!(t.rows.len(), 3 * 4);
    for r in &t.rows {
        let id = t.get(r, "instance");
        let want = if id == "ok" { "solved" } else { "unsolvable" };
        assert_eq!(t.get(r, "status"), want, "{id} {}", t.get(r, "variant"));
        if want == "unsolvable" {
            assert_eq!(t.get(r, "length"), "");
            assert_eq!(t.get(r, "path"), "");
        }
    }
    let s = Table::read(&tmp.run_dir("u").join("summary.csv"));
    for row in &s.rows {
        assert_eq!(s.get(row, "unsolvable"), "2");
        assert_eq!(s.get(row, "solved"), "1");
    }
}

// ---------------------------------------------------------------------------------------------
// 8: generate, and every 8-puzzle state

#[test]
fn every_eight_puzzle_state_is_solved_at_its_optimal_length() {
    let tmp = Tmp::new("all8");
    let all = tmp.path().join("all.csv");
    let all = all.to_str().unwrap();
    let out = idabench(
        tmp.path(),
        &[
            "generate", "--domain", "tiles", "--size", "3x3", "--all", "--out", all,
        ],
    );
    assert_exit(&out, 0);
    let out = run(
        &tmp,
        "all",
        &[all],
        &["--heuristic", "manhattan", "--quiet"],
        0,
    );
    assert_eq!(text(&out.stderr), "");
    let t = runs(&tmp.run_dir("all"));
    assert_eq!(t.rows.len(), 181_440);
    let (status, length, optimal, instance) = (
        t.col("status"),
        t.col("length"),
        t.col("optimal"),
        t.col("instance"),
    );
    let mut ids = HashSet::with_capacity(t.rows.len());
    let mut by_length = BTreeMap::new();
    for r in &t.rows {
        assert_eq!(r[status], "solved", "{r:?}");
        assert!(!r[optimal].is_empty(), "{r:?}");
        assert_eq!(r[length], r[optimal], "{r:?}");
        assert!(ids.insert(r[instance].as_str()), "{} twice", r[instance]);
        *by_length
            .entry(r[length].parse::<u32>().unwrap())
            .or_insert(0u32) += 1;
    }
    // The 8-puzzle's diameter is 31, reached by exactly two states.
    assert_eq!(by_length.last_key_value(), Some((&31, &2)));
    assert_eq!(by_length.first_key_value(), Some((&0, &1)));
    let s = Table::read(&tmp.run_dir("all").join("summary.csv"));
    assert_eq!(s.get(&s.rows[0], "solved"), "181440");
}

#[test]
fn generate_is_reproducible_and_walks_are_solved_within_their_length() {
    let tmp = Tmp::new("generate");
    let gen = |extra: &[&str]| {
        let mut args = vec!["generate", "--domain", "tiles"];
        args.extend_from_slice(extra);
        let out = idabench(tmp.path(), &args);
        assert_exit(&out, 0);
        out.stdout
    };
    let a = gen(&["--size", "4x4", "--count", "20", "--seed", "9"]);
    let b = gen(&["--size", "4x4", "--count", "20", "--seed", "9"]);
    assert_eq!(a, b, "the same arguments give the same bytes");
    assert_ne!(a, gen(&["--size", "4x4", "--count", "20", "--seed", "10"]));
    assert_eq!(text(&a).lines().count(), 21);
    let file = tmp.path().join("g.csv");
    gen(&[
        "--size",
        "4x4",
        "--count",
        "20",
        "--seed",
        "9",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        fs::read(&file).unwrap(),
        a,
        "--out writes what stdout shows"
    );
    assert_no_tmp(tmp.path());

    // Random walks: every state is solvable in at most K moves, with K's parity.
    for (size, k) in [("3x3", 9u32), ("4x4", 12)] {
        let ks = k.to_string();
        let args = [
            "--size", size, "--count", "12", "--seed", "4", "--walk", &ks,
        ];
        let walk = gen(&args);
        assert_eq!(walk, gen(&args));
        assert_eq!(text(&walk).lines().count(), 13);
        let name = format!("walk{size}");
        let path = tmp.write(&format!("{name}.csv"), &text(&walk));
        run(&tmp, &name, &[&path], &["-q"], 0);
        let t = runs(&tmp.run_dir(&name));
        assert_eq!(t.rows.len(), 12);
        for r in &t.rows {
            assert_eq!(t.get(r, "status"), "solved");
            assert_eq!(t.get(r, "size"), size);
            let len: u32 = t.get(r, "length").parse().unwrap();
            assert!(
                len <= k && len % 2 == k % 2,
                "length {len} after a {k}-move walk"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Minimal CSV and JSON readers

/// A CSV file: its header and rows (RFC 4180 quoting).
pub(crate) struct Table {
    pub(crate) header: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn read(path: &Path) -> Table {
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut records = parse_csv(&text);
        assert!(!records.is_empty(), "{}: empty", path.display());
        let header = records.remove(0);
        for (k, r) in records.iter().enumerate() {
            assert_eq!(r.len(), header.len(), "{}: row {}", path.display(), k + 1);
        }
        Table {
            header,
            rows: records,
        }
    }

    fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column `{name}` in {:?}", self.header))
    }

    pub(crate) fn get<'a>(&self, row: &'a [String], name: &str) -> &'a str {
        &row[self.col(name)]
    }

    /// Each row's values in the columns `a`, `b` and `c`.
    fn triples(&self, [a, b, c]: [&str; 3]) -> Vec<(&str, &str, &str)> {
        self.rows
            .iter()
            .map(|r| (self.get(r, a), self.get(r, b), self.get(r, c)))
            .collect()
    }

    fn num(&self, row: &[String], name: &str) -> f64 {
        let v = self.get(row, name);
        v.parse()
            .unwrap_or_else(|_| panic!("`{name}` = '{v}' is not a number"))
    }
}

fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[derive(Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub(crate) fn read(path: &Path) -> Json {
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut p = JsonParser {
            b: text.as_bytes(),
            i: 0,
        };
        let v = p.value();
        p.ws();
        assert_eq!(p.i, p.b.len(), "{}: trailing bytes", path.display());
        v
    }

    pub(crate) fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key `{key}`")),
            _ => panic!("not an object looking for `{key}`: {self:?}"),
        }
    }

    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }

    pub(crate) fn num(&self) -> f64 {
        match self {
            Json::Num(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }

    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("not an array: {self:?}"),
        }
    }
}

struct JsonParser<'a> {
    b: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(
            self.b.get(self.i),
            Some(&c),
            "JSON: wanted '{}' at {}",
            c as char,
            self.i
        );
        self.i += 1;
    }

    fn peek(&mut self) -> u8 {
        self.ws();
        *self.b.get(self.i).expect("JSON: unexpected end")
    }

    fn value(&mut self) -> Json {
        match self.peek() {
            b'{' => {
                self.eat(b'{');
                let mut fields = Vec::new();
                if self.peek() == b'}' {
                    self.i += 1;
                    return Json::Obj(fields);
                }
                loop {
                    let key = self.string();
                    self.eat(b':');
                    fields.push((key, self.value()));
                    match self.peek() {
                        b',' => self.i += 1,
                        _ => {
                            self.eat(b'}');
                            return Json::Obj(fields);
                        }
                    }
                }
            }
            b'[' => {
                self.eat(b'[');
                let mut items = Vec::new();
                if self.peek() == b']' {
                    self.i += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(self.value());
                    match self.peek() {
                        b',' => self.i += 1,
                        _ => {
                            self.eat(b']');
                            return Json::Arr(items);
                        }
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            _ => {
                let start = self.i;
                while self.i < self.b.len() && !b",]} \n\r\t".contains(&self.b[self.i]) {
                    self.i += 1;
                }
                match std::str::from_utf8(&self.b[start..self.i]).unwrap() {
                    "null" => Json::Null,
                    "true" => Json::Bool(true),
                    "false" => Json::Bool(false),
                    n => Json::Num(n.parse().unwrap_or_else(|_| panic!("JSON: bad value {n}"))),
                }
            }
        }
    }

    fn string(&mut self) -> String {
        self.eat(b'"');
        let mut out = Vec::new();
        loop {
            let c = self.b[self.i];
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).unwrap(),
                b'\\' => {
                    let e = self.b[self.i];
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = std::str::from_utf8(&self.b[self.i..self.i + 4]).unwrap();
                            self.i += 4;
                            let ch = char::from_u32(u32::from_str_radix(hex, 16).unwrap())
                                .unwrap_or('\u{fffd}');
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
    }
}

/// Ctrl-C: running searches stop, the finished rows and every report are written, the exit code
/// is 130, and `--resume` then gives the same rows as a clean run.
#[test]
fn ctrl_c_stops_cleanly_and_resume_finishes_the_run() {
    let tmp = Tmp::new("sigint");
    let walk = tmp.write("walk36.csv", &walk36_csv());
    let args = WALK36_ARGS;
    run(&tmp, "clean", &[&walk], &args, 0);
    let clean = runs(&tmp.run_dir("clean"));
    // Caught before its end in one of three tries, as in the SIGKILL test.
    let interrupted = (1..=3).find_map(|k| {
        let name = format!("int{k}");
        start_and_signal(&tmp, &name, &walk, &args, libc::SIGINT).map(|(_, code)| (name, code))
    });
    let (name, code) = interrupted.expect("no run was caught before its end");
    assert_eq!(code, Some(130));
    let dir = tmp.run_dir(&name);
    for file in ["runs.csv", "summary.csv", "summary.md", "manifest.json"] {
        assert!(dir.join(file).is_file(), "{file} after Ctrl-C");
    }
    assert_no_tmp(&dir);
    let partial = runs(&dir);
    assert!(partial.rows.len() >= 2 && partial.rows.len() < clean.rows.len());
    run(
        &tmp,
        &name,
        &[&walk],
        &[&args[..], &["--resume"]].concat(),
        0,
    );
    assert_eq!(without_times(&runs(&dir)), without_times(&clean));
}

// ---------------------------------------------------------------------------------------------
// Verdicts, default heuristics per domain, speed-ups, limits' values

/// Rotation Game instance 16 of datasets/rotation.csv: 6 moves; step 2 has no parity to align
/// to there and answers 7.
const ROTATION16: &str = "16,rotation,,1 1 3 2 2 1 2 3 1 3 2 3 2 3 3 1 2 3 1 2 2 3 1 1,,6\n";

#[test]
fn a_longer_answer_from_a_variant_without_guarantee_is_suboptimal() {
    let tmp = Tmp::new("suboptimal");
    let path = tmp.write("rot.csv", &format!("{HEADER}{ROTATION16}"));
    let out = run(&tmp, "s", &[&path], &["--step", "2,next", "-q"], 0);
    assert_eq!(text(&out.stderr), "");
    let dir = tmp.run_dir("s");
    let t = runs(&dir);
    let row = |variant: &str| {
        t.rows
            .iter()
            .find(|r| t.get(r, "variant") == variant)
            .unwrap_or_else(|| panic!("no row for {variant}"))
    };
    let two = row("center/step2/prune");
    assert_eq!(t.get(two, "status"), "suboptimal");
    assert_eq!(t.get(two, "length"), "7");
    assert_eq!(t.get(two, "optimal"), "6");
    assert_eq!(t.get(two, "optimal_guaranteed"), "false");
    assert_eq!(
        t.get(two, "message"),
        "length 7 is longer than the reference 6"
    );
    let next = row("center/stepnext/prune");
    assert_eq!(t.get(next, "status"), "solved");
    assert_eq!(t.get(next, "length"), "6");
    let s = Table::read(&dir.join("summary.csv"));
    assert_eq!(s.get(&s.rows[0], "suboptimal"), "1");
    assert_eq!(s.get(&s.rows[0], "wrong"), "0");
}

#[test]
fn answers_that_contradict_the_reference_from_guaranteed_variants_are_wrong() {
    let tmp = Tmp::new("verdicts");
    // `six` takes 6 moves, the file claims 4; a booksort shelf needing more than the cap of 4
    // moves, claimed to take 4; an unsolvable 8-puzzle, claimed to take 5.
    let data = format!(
        "{HEADER}six,tiles,3x3,4 1 3 7 2 6 0 5 8,,4\n\
         capped,booksort,,2 1 4 3 6 5 8 7 10 9,,4\n\
         u8,tiles,3x3,1 2 3 4 5 6 8 7 0,,5\n\
         one,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n"
    );
    let path = tmp.write("claims.csv", &data);
    let out = run(&tmp, "v", &[&path], &["-q"], 4);
    assert!(
        text(&out.stderr).contains("3 job(s) are wrong"),
        "{}",
        show(&out)
    );
    let t = runs(&tmp.run_dir("v"));
    assert_eq!(
        t.triples(["instance", "status", "message"]),
        [
            (
                "six",
                "wrong",
                "length 6 is longer than the reference 4, from a variant that guarantees a shortest path"
            ),
            (
                "capped",
                "wrong",
                "no solution within the depth cap, but the reference length is 4"
            ),
            (
                "u8",
                "wrong",
                "reported unsolvable, but the reference length is 5"
            ),
            ("one", "solved", ""),
        ]
    );
}

/// Two 8-puzzle rows and a Knight's Spirit one.
fn tiles_and_knights_csv() -> String {
    format!(
        "{HEADER}{}w4-1,knights,,1 1 1 1 1 1 1 1 1 0 0 0 * 1 1 0 0 0 0 1 0 0 0 0 0,,4\n",
        rows("3x3", &EIGHT[1..3])
    )
}

#[test]
fn without_heuristic_each_domain_runs_only_its_own_default() {
    let tmp = Tmp::new("defaults");
    // Knights' default `misplaced` is also a tiles heuristic: it must not run on the tiles rows.
    let path = tmp.write("mixed.csv", &tiles_and_knights_csv());
    run(&tmp, "d", &[&path], &["-q"], 0);
    let dir = tmp.run_dir("d");
    let t = runs(&dir);
    assert_eq!(
        t.triples(["instance", "variant", "status"]),
        [
            ("one", "manhattan/stepnext/prune", "solved"),
            ("two", "manhattan/stepnext/prune", "solved"),
            ("w4-1", "misplaced/stepnext/prune", "solved"),
        ]
    );
    let m = Json::read(&dir.join("manifest.json"));
    let variants: Vec<&str> = m.get("variants").arr().iter().map(Json::str).collect();
    assert_eq!(
        variants,
        ["manhattan/stepnext/prune", "misplaced/stepnext/prune"]
    );
    assert_eq!(m.get("jobs_total").num(), 3.0);
    // With --heuristic, a heuristic runs on every domain it applies to.
    run(&tmp, "e", &[&path], &["--heuristic", "misplaced", "-q"], 0);
    assert_eq!(runs(&tmp.run_dir("e")).rows.len(), 3);
}

#[test]
fn resume_refuses_options_that_plan_other_jobs_and_keeps_every_row() {
    let tmp = Tmp::new("replan");
    let path = tmp.write("mixed.csv", &tiles_and_knights_csv());
    // The same two variant names either way: with --heuristic, misplaced also runs on tiles.
    for (name, first, again) in [
        ("both", &["--heuristic", "manhattan,misplaced"][..], &[][..]),
        (
            "defaults",
            &[][..],
            &["--heuristic", "manhattan,misplaced"][..],
        ),
    ] {
        run(&tmp, name, &[&path], &[first, &["-q"]].concat(), 0);
        let before = fs::read(tmp.run_dir(name).join("runs.csv")).unwrap();
        let out = run(
            &tmp,
            name,
            &[&path],
            &[again, &["--resume", "-q"]].concat(),
            2,
        );
        assert!(
            text(&out.stderr).contains("give the same --heuristic"),
            "{}",
            show(&out)
        );
        assert_eq!(
            fs::read(tmp.run_dir(name).join("runs.csv")).unwrap(),
            before
        );
    }
}

/// A run over two domains, under a node limit: summary-groups.csv has a row per dataset,
/// domain, size and variant, whose jobs add up to summary.csv's; summary.md and report.html
/// break down the variant that ran in both groups; the cactus plots have a panel per domain;
/// speed-ups are over the instances both variants solved with 1 ms or more (as runs.csv tells);
/// PAR-2 is counted in nodes.
#[test]
fn a_run_over_two_domains_is_broken_down_by_group() {
    let tmp = Tmp::new("groups");
    let data = format!("{HEADER}{}{ROTATION16}", rows("3x3", &EIGHT[3..6]));
    let path = tmp.write("mixed.csv", &data);
    let args = [
        "--heuristic",
        "zero,manhattan,center",
        "--max-nodes",
        "20000",
        "-q",
    ];
    run(&tmp, "m", &[&path], &args, 0);
    let dir = tmp.run_dir("m");
    let s = Table::read(&dir.join("summary.csv"));
    let g = Table::read(&dir.join("summary-groups.csv"));
    assert_eq!(&g.header[..4], ["dataset", "domain", "size", "variant"]);
    assert_eq!(
        g.header[3..],
        s.header[..],
        "summary.csv's columns after the group's"
    );
    let rotation_size = runs(&dir).rows.last().unwrap()[3].clone();
    let keys: Vec<(&str, &str, &str, &str)> = g
        .rows
        .iter()
        .map(|r| {
            (
                g.get(r, "dataset"),
                g.get(r, "domain"),
                g.get(r, "size"),
                g.get(r, "jobs"),
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("mixed", "tiles", "3x3", "3"),
            ("mixed", "tiles", "3x3", "3"),
            ("mixed", "rotation", rotation_size.as_str(), "1"),
            ("mixed", "rotation", rotation_size.as_str(), "1"),
        ]
    );
    let variants: Vec<&str> = g.rows.iter().map(|r| g.get(r, "variant")).collect();
    let [zero, manhattan, center] =
        ["zero", "manhattan", "center"].map(|h| format!("{h}/stepnext/prune"));
    assert_eq!(variants, [&zero, &manhattan, &zero, &center]);
    // A variant's groups add up to its row.
    for row in &s.rows {
        let v = s.get(row, "variant");
        for column in ["jobs", "solved", "limited", "nodes_generated_total"] {
            let sum: f64 = g
                .rows
                .iter()
                .filter(|r| g.get(r, "variant") == v)
                .map(|r| g.num(r, column))
                .sum();
            assert_eq!(sum, s.num(row, column), "{v} {column}");
        }
        // Under a node limit only: PAR-2 in nodes, none in time.
        assert_eq!(s.get(row, "par2_s"), "", "{v}");
        assert!(s.num(row, "par2_nodes") > 0.0, "{v}");
    }

    // Speed-ups against zero: over the instances both solved in 1 ms of CPU or more.
    let t = runs(&dir);
    let timed = |v: &str| -> Vec<&str> {
        t.rows
            .iter()
            .filter(|r| t.get(r, "variant") == v && t.get(r, "status") == "solved")
            .filter(|r| t.num(r, "time_cpu_s") >= 0.001)
            .map(|r| t.get(r, "instance"))
            .collect()
    };
    for row in &s.rows {
        let v = s.get(row, "variant");
        let both = timed(v).iter().filter(|i| timed(&zero).contains(i)).count();
        assert_eq!(s.num(row, "speedup_instances"), both as f64, "{v}");
        assert_eq!(s.get(row, "speedup").is_empty(), both == 0, "{v}");
    }

    // summary.md and report.html: zero's groups under its row, no others.
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    let lines: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    assert!(lines[1].starts_with(&format!("| `{zero}` |")), "{md}");
    assert!(lines[2].starts_with("| ↳ `mixed: tiles 3x3` | 3 |"), "{md}");
    assert!(lines[3].starts_with("| ↳ `mixed: rotation"), "{md}");
    assert!(lines[4].starts_with(&format!("| `{manhattan}` |")), "{md}");
    assert_eq!(md.matches("↳").count(), 3, "two rows and the note: {md}");
    assert!(md.contains("| PAR-2 nodes | speed-up |"), "{md}");
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(html.matches("<tr><td>↳ <code>mixed: ").count(), 2, "{html}");

    // A panel per domain, each counting its own instances.
    for picture in ["cactus.svg", "cactus-nodes.svg"] {
        let svg = fs::read_to_string(dir.join(picture)).unwrap();
        for caption in ["tiles 3x3: 3 instances", "rotation"] {
            assert!(svg.contains(caption), "{picture}: no panel {caption}");
        }
        assert_eq!(
            svg.matches("instances solved (count)").count(),
            2,
            "{picture}"
        );
    }
}

#[test]
fn a_node_limit_of_zero_is_refused() {
    let tmp = Tmp::new("max-nodes-0");
    let eight = tmp.write("eight.csv", &eight_csv());
    let out = run(&tmp, "z", &[&eight], &["--max-nodes", "0"], 2);
    assert!(text(&out.stderr).contains("--max-nodes"), "{}", show(&out));
    assert!(!tmp.run_dir("z").exists(), "no run directory");
}

// ---------------------------------------------------------------------------------------------
// Output streams and paths that are not UTF-8

#[test]
fn a_full_stdout_is_an_error_and_a_full_stderr_is_ignored() {
    let tmp = Tmp::new("full");
    let eight = tmp.write(
        "eight.csv",
        &format!("{HEADER}{}", rows("3x3", &EIGHT[..4])),
    );
    let full = || {
        fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out_dir = tmp.out();
    let run_args = |name: &'static str| {
        vec![
            "run", &eight, "--out", &out_dir, "--name", name, "--jobs", "1",
        ]
    };
    // run > /dev/full: the reports are written, then the summary cannot be: exit 1.
    let out = command(tmp.path(), &run_args("stdout"))
        .stdout(full())
        .output()
        .unwrap();
    assert_exit(&out, 1);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Error: stdout: No space left on device"),
        "{stderr}"
    );
    assert_eq!(runs(&tmp.run_dir("stdout")).rows.len(), 4);
    // solve > /dev/full, in each output format.
    for format in ["text", "json"] {
        let out = command(
            tmp.path(),
            &[
                "solve", "--size", "3x3", "--start", EIGHT[3].1, "--format", format,
            ],
        )
        .stdout(full())
        .output()
        .unwrap();
        assert_exit(&out, 1);
        assert!(text(&out.stderr).contains("stdout"), "{}", show(&out));
    }
    let mut judge = command(
        tmp.path(),
        &["solve", "--format", "judge", "--problem", "p1379"],
    )
    .stdin(Stdio::piped())
    .stdout(full())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    {
        use std::io::Write;
        judge
            .stdin
            .take()
            .unwrap()
            .write_all(b"283104765\n")
            .unwrap();
    }
    assert_exit(&judge.wait_with_output().unwrap(), 1);
    // run 2>/dev/full: progress and notes are lost, the run is not (a panic would exit 101).
    // walking-distance is skipped on the 6x6 row, which is noted on stderr.
    let wide = tmp.write(
        "wide.csv",
        &format!(
            "{HEADER}w,tiles,6x6,{} 0 35,,1\n",
            (1..35).map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
        ),
    );
    let mut args = run_args("stderr");
    args.extend([wide.as_str(), "--heuristic", "manhattan,walking-distance"]);
    let out = command(tmp.path(), &args).stderr(full()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(text(&out.stdout).contains("reports: "));
    assert_eq!(runs(&tmp.run_dir("stderr")).rows.len(), 9);
    // An error message that cannot be written still gives its exit code.
    let out = command(tmp.path(), &["run", "/nonexistent.csv", "--out", &out_dir])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The write end of a pipe whose reader is already gone: a write to it fails with EPIPE, or
/// kills a process that has not ignored SIGPIPE. Both ends are close-on-exec: a child that
/// another test starts meanwhile must not inherit the read end (the pipe would keep a reader);
/// the child given the write end gets it as its stdout or stderr, which are not closed on exec.
fn closed_pipe() -> Stdio {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: `pipe2` fills the two descriptors; the read end is closed at once and the write end
    // is owned by the returned `Stdio` alone.
    unsafe {
        assert_eq!(libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC), 0);
        libc::close(fds[0]);
        Stdio::from_raw_fd(fds[1])
    }
}

#[test]
fn a_closed_pipe_on_stderr_or_stdout_does_not_end_a_run_before_its_reports() {
    let tmp = Tmp::new("closed-pipe");
    let eight = tmp.write(
        "eight.csv",
        &format!("{HEADER}{}", rows("3x3", &EIGHT[..4])),
    );
    let out_dir = tmp.out();
    let run_args = |name: &'static str| vec!["run", &eight, "--out", &out_dir, "--name", name];
    // Progress and notes go nowhere; the run and its reports are whole, and it exits 0.
    let out = command(tmp.path(), &run_args("stderr"))
        .stderr(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let dir = tmp.run_dir("stderr");
    assert!(dir.join("summary.md").is_file());
    assert_eq!(
        Json::read(&dir.join("manifest.json"))
            .get("jobs_missing")
            .num(),
        0.0
    );
    // The summary has no reader: exit 1 with a message, after every report is written.
    let out = command(tmp.path(), &run_args("stdout"))
        .stdout(closed_pipe())
        .output()
        .unwrap();
    assert_exit(&out, 1);
    assert!(
        text(&out.stderr).contains("Error: stdout: Broken pipe"),
        "{}",
        show(&out)
    );
    assert!(tmp.run_dir("stdout").join("summary.md").is_file());
}

#[test]
fn dataset_and_out_paths_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let tmp = Tmp::new("non-utf8");
    let dataset = tmp.path().join(OsStr::from_bytes(b"eight\xff.csv"));
    fs::write(&dataset, format!("{HEADER}{}", rows("3x3", &EIGHT[1..3]))).unwrap();
    let out_dir = tmp.path().join(OsStr::from_bytes(b"out\xfe"));
    let out = command(tmp.path(), &["run"])
        .arg(&dataset)
        .arg("--out")
        .arg(&out_dir)
        .args(["--name", "n", "-q"])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let dir = out_dir.join("n");
    let t = runs(&dir);
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.get(&t.rows[0], "dataset"), "eight\u{fffd}");
    let m = Json::read(&dir.join("manifest.json"));
    let argv: Vec<&str> = m.get("command_line").arr().iter().map(Json::str).collect();
    assert!(
        argv.iter().any(|a| a.ends_with("eight\u{fffd}.csv")),
        "{argv:?}"
    );
    assert!(argv.iter().any(|a| a.ends_with("out\u{fffd}")), "{argv:?}");
}

// ---------------------------------------------------------------------------------------------
// SIGTERM, incomplete runs, the run directory's lock, --resume's checks

/// A child process, killed when the test fails before it ends.
struct Running(Option<std::process::Child>);

impl Running {
    fn child(&mut self) -> &mut std::process::Child {
        self.0.as_mut().expect("still running")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Polls until `path` exists; false when `child` exited first.
fn wait_for_file(path: &Path, child: &mut std::process::Child) -> bool {
    while !path.exists() {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    true
}

/// The arguments of a run that is still going when a test signals it: two easy jobs, then
/// Korf #1 under misplaced tiles, billions of nodes (the node limit only bounds a run that a
/// failed test never signalled).
const BUSY_LIMITS: [&str; 4] = ["--heuristic", "misplaced", "--max-nodes", "10000000000"];

/// Starts the busy run OUT/`name` on `--jobs 1`, in a process group of its own when
/// `own_group` (as `timeout` starts its command; a Ctrl-C on the tests then does not reach
/// it); returns once its runs.csv exists, which it writes under the directory's lock and after
/// its signal handler is in place.
fn start_busy_run(tmp: &Tmp, name: &str, own_group: bool) -> (String, Running) {
    let data = format!(
        "{HEADER}{}korf1,tiles,4x4,{KORF1},{KORF_GOAL},57\n",
        rows("3x3", &EIGHT[1..3])
    );
    let path = tmp.write("busy.csv", &data);
    let out_dir = tmp.out();
    let mut args = vec![
        "run", &path, "--out", &out_dir, "--name", name, "--jobs", "1",
    ];
    args.extend(BUSY_LIMITS);
    let mut busy = command(tmp.path(), &args);
    if own_group {
        busy.process_group(0);
    }
    let mut running = Running(Some(
        busy.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    ));
    assert!(
        wait_for_file(&tmp.run_dir(name).join("runs.csv"), running.child()),
        "the run ended early"
    );
    (path, running)
}

/// Sends `signal` to the running child and waits for its end.
fn signal_and_wait(mut running: Running, signal: libc::c_int) -> Output {
    // SAFETY: signals the child this test started and has not reaped.
    unsafe {
        libc::kill(running.child().id() as libc::pid_t, signal);
    }
    running.0.take().unwrap().wait_with_output().unwrap()
}

/// Sends SIGTERM as `timeout` does, to the child and then to its process group: one request
/// that arrives twice. A millisecond apart, unlike `timeout`'s two calls, because the system
/// merges a signal with the same one still pending; so the second comes while the run is
/// stopping, where `timeout`'s did in most runs of it.
fn terminate_as_timeout_does(mut running: Running) -> Output {
    let pid = running.child().id() as libc::pid_t;
    // SAFETY: signals the child this test started and has not reaped.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
    std::thread::sleep(Duration::from_millis(1));
    // SAFETY: signals the process group the child leads, which holds nothing else.
    unsafe {
        libc::kill(-pid, libc::SIGTERM);
    }
    running.0.take().unwrap().wait_with_output().unwrap()
}

#[test]
fn sigterm_stops_cleanly_and_the_reports_say_the_run_is_incomplete() {
    let tmp = Tmp::new("sigterm");
    let (path, running) = start_busy_run(&tmp, "busy", true);
    // Both deliveries are one request to stop: the second must not end the run before its
    // reports are written.
    let out = terminate_as_timeout_does(running);
    assert_exit(&out, 130);
    assert!(text(&out.stderr).contains("interrupted"), "{}", show(&out));
    let dir = tmp.run_dir("busy");
    for file in ["runs.csv", "summary.csv", "summary.md", "manifest.json"] {
        assert!(dir.join(file).is_file(), "{file} after SIGTERM");
    }
    assert_no_tmp(&dir);
    let done = runs(&dir).rows.len();
    assert!(done < 3, "Korf #1 cannot have finished");
    let m = Json::read(&dir.join("manifest.json"));
    assert_eq!(*m.get("complete"), Json::Bool(false));
    assert_eq!(m.get("jobs_total").num(), 3.0);
    assert_eq!(m.get("jobs_missing").num(), (3 - done) as f64);
    assert!(!m.get("end_time").str().is_empty());
    let want = format!(
        "**Incomplete run: {} of 3 jobs are missing (it was interrupted)",
        3 - done
    );
    let md = fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(md.contains(&want), "{md}");
    assert!(text(&out.stdout).contains(&want), "{}", show(&out));

    // --resume without --name picks only an unfinished run these options can resume: this
    // interrupted one differs in its limits, so none, and the message says there is one of
    // other options to resume by name.
    let out_dir = tmp.out();
    let out = idabench(
        tmp.path(),
        &[
            "run",
            &path,
            "--out",
            &out_dir,
            "--resume",
            "--heuristic",
            "misplaced",
        ],
    );
    assert_exit(&out, 2);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--resume: no unfinished run of these datasets, selection, variants and limits to resume in")
            && stderr.contains("(1 unfinished run(s) there were made with other datasets, selections, variants or limits: resume one by --name, with its options)"),
        "{stderr}"
    );
    assert!(!stderr.contains("start a new run"), "{stderr}");
}

#[test]
fn a_run_directory_in_use_is_refused_until_its_process_ends() {
    let tmp = Tmp::new("lock");
    let (path, running) = start_busy_run(&tmp, "busy", false);
    // While it runs, neither a resume nor a new run may write its directory.
    for extra in [&["--resume"][..], &[]] {
        let out = run(
            &tmp,
            "busy",
            &[&path],
            &[&BUSY_LIMITS[..], extra].concat(),
            2,
        );
        assert!(
            text(&out.stderr).contains("another idabench process is running there"),
            "{}",
            show(&out)
        );
    }
    // A process killed outright leaves no stale lock: the next --resume gets as far as the
    // manifest's checks (and stops there only because the limits differ).
    let out = signal_and_wait(running, libc::SIGKILL);
    assert_eq!(out.status.code(), None, "killed");
    let out = run(
        &tmp,
        "busy",
        &[&path],
        &["--resume", "--heuristic", "misplaced"],
        2,
    );
    assert!(
        text(&out.stderr).contains("was made with limits"),
        "{}",
        show(&out)
    );
}

#[test]
fn resume_refuses_a_run_without_a_readable_manifest() {
    let tmp = Tmp::new("no-manifest");
    let eight = tmp.write("eight.csv", &eight_csv());
    let other = tmp.write(
        "other.csv",
        &format!("{HEADER}{}", rows("3x3", &EIGHT[..2])),
    );
    // The rows of another dataset, in a directory whose manifest is missing or unreadable.
    run(&tmp, "other", &[&other], &["-q"], 0);
    let other_rows = fs::read(tmp.run_dir("other").join("runs.csv")).unwrap();
    for (name, manifest) in [
        ("missing", None),
        ("garbled", Some("{\"idabench_version\":")),
    ] {
        let dir = tmp.run_dir(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("runs.csv"), &other_rows).unwrap();
        if let Some(m) = manifest {
            fs::write(dir.join("manifest.json"), m).unwrap();
        }
        let out = run(&tmp, name, &[&eight], &["--resume", "-q"], 2);
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("{}", dir.join("manifest.json").display()))
                && stderr.contains("start a new run"),
            "{stderr}"
        );
        assert_eq!(fs::read(dir.join("runs.csv")).unwrap(), other_rows);
        assert!(!dir.join("summary.csv").exists());
    }
    // Without --name, a run without a manifest is not a candidate either.
    let out = idabench(
        tmp.path(),
        &["run", &eight, "--out", &tmp.out(), "--resume", "-q"],
    );
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("no unfinished run"),
        "{}",
        show(&out)
    );
}

/// A run with a wrong answer (a reference length the search contradicts) says so first in
/// report.html, in red, and its tables (report.html, summary.md, stdout) count each status by
/// name: wrong, suboptimal and error are never folded into one "other" column. The alarm comes
/// from runs.csv's rows, so that a folder without a readable summary.csv still shows it.
#[test]
fn report_html_says_a_wrong_answer_first_and_counts_statuses_by_name() {
    let tmp = Tmp::new("wrong-page");
    let data = tmp.write(
        "lying.csv",
        "id,domain,size,start,goal,optimal\n\
         near,tiles,3x3,1 2 3 4 5 6 7 0 8,,3\n\
         fine,tiles,3x3,1 2 3 4 5 6 0 7 8,,2\n",
    );
    let out = tmp.out();
    let args = [
        "run",
        &data,
        "--heuristic",
        "manhattan",
        "--out",
        &out,
        "--name",
        "r",
        "-q",
    ];
    let run = idabench(tmp.path(), &args);
    assert_exit(&run, 4);
    let page = fs::read_to_string(Path::new(&out).join("r/report.html")).unwrap();
    let alarm = page.find("<p class=\"alarm\"><strong>1 wrong answer</strong>");
    let summary = page.find("<h2 id=\"summary\">").unwrap();
    assert!(alarm.is_some_and(|a| a < summary), "{page}");
    for column in [
        "solved",
        "suboptimal",
        "wrong",
        "error",
        "limited",
        "unsolvable",
        "over cap",
    ] {
        assert!(
            page.contains(&format!("<th>{column}</th>")),
            "{column}: {page}"
        );
    }
    assert!(!page.contains("<th>other</th>"), "{page}");
    assert!(page.contains("<strong class=\"bad\">1</strong>"), "{page}");
    // summary.md (and run's stdout) count the same statuses by name.
    let md = fs::read_to_string(Path::new(&out).join("r/summary.md")).unwrap();
    assert!(
        md.contains(
            "| jobs | solved | suboptimal | wrong | error | limited | unsolvable | over cap |"
        ) && md.contains("| 2 | 1 | 0 | **1** | 0 | 0 | 0 | 0 |"),
        "{md}"
    );
    assert!(text(&run.stdout).contains("| 2 | 1 | 0 | **1** | 0 | 0 | 0 | 0 |"));
    // The alarm reads runs.csv's rows: a folder whose summary.csv is gone still shows it.
    fs::remove_file(Path::new(&out).join("r/summary.csv")).unwrap();
    let plot = idabench(tmp.path(), &["plot", &format!("{out}/r")]);
    assert_exit(&plot, 0);
    let page = fs::read_to_string(Path::new(&out).join("r/report.html")).unwrap();
    assert!(page.contains("<p>No summary: "), "{page}");
    let alarm = page.find("<p class=\"alarm\"><strong>1 wrong answer</strong>");
    assert!(
        alarm.is_some_and(|a| a < page.find("<h2 id=\"summary\">").unwrap()),
        "{page}"
    );

    let honest = tmp.write(
        "honest.csv",
        &fs::read_to_string(&data).unwrap().replace(",,3\n", ",,1\n"),
    );
    let args = [
        "run",
        &honest,
        "--heuristic",
        "manhattan",
        "--out",
        &out,
        "--name",
        "h",
        "-q",
    ];
    assert_exit(&idabench(tmp.path(), &args), 0);
    let page = fs::read_to_string(Path::new(&out).join("h/report.html")).unwrap();
    assert!(!page.contains("class=\"alarm\""), "{page}");
}

#[test]
fn every_row_names_its_run_and_rows_from_before_the_column_take_it_on_resume() {
    let tmp = Tmp::new("run-column");
    let eight = tmp.write("eight.csv", &eight_csv());
    run(
        &tmp,
        "old",
        &[&eight],
        &["-q", "--heuristic", "manhattan"],
        0,
    );
    let dir = tmp.run_dir("old");
    let t = runs(&dir);
    assert!(t.rows.iter().all(|r| t.get(r, "run") == "old"));
    // As a runs.csv written before the column existed, its last job not done yet.
    let run_col = t.col("run");
    let mut old = t.header[..run_col].join(",") + "\n";
    for r in &t.rows[..t.rows.len() - 1] {
        let fields: Vec<String> = r[..run_col]
            .iter()
            .map(|f| match f.contains([',', '"', '\n']) {
                true => format!("\"{}\"", f.replace('"', "\"\"")),
                false => f.clone(),
            })
            .collect();
        old += &(fields.join(",") + "\n");
    }
    fs::write(dir.join("runs.csv"), old).unwrap();
    run(
        &tmp,
        "old",
        &[&eight],
        &["-q", "--heuristic", "manhattan", "--resume"],
        0,
    );
    let t = runs(&dir);
    assert_eq!(t.rows.len(), EIGHT.len());
    let names: HashSet<&str> = t.rows.iter().map(|r| t.get(r, "run")).collect();
    assert_eq!(names, HashSet::from(["old"]));
}
