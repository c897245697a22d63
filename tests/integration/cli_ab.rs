//! `idabench ab` and its hidden `worker` as a user and CI run them: the same build twice, a
//! build whose node counts differ, a build without the worker mode, and binaries that are not
//! idabench or speak another protocol. Other builds are stood in for by small shell scripts
//! around this one. Nothing here asserts on a time: the datasets' jobs are under the timing
//! floor, so no verdict depends on the machine.

use crate::common::{
    assert_exit, command, csv_rows, dataset, limit_memory, output_within, show, text, with_stdin,
    Tmp, BIN,
};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::LazyLock;
use std::time::Duration;

/// 31 8-puzzle states of at most 30 moves: each job takes microseconds, under the 1 ms floor.
static EIGHT: LazyLock<String> = LazyLock::new(|| dataset("p1379.csv"));

/// An executable shell script at `dir/name`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `ab` of `baseline` against this build (unless `extra` names another `--current`) into
/// `out/ab`, run from `cwd`.
fn ab_command(cwd: &Path, baseline: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut c = command(cwd, &["ab", "--baseline"]);
    c.arg(baseline)
        .args([
            EIGHT.as_str(),
            "--heuristic",
            "manhattan,linear-conflict",
            "--out",
        ])
        .arg(out)
        .args(["--name", "ab"])
        .args(extra)
        .stdin(Stdio::null());
    c
}

fn ab(cwd: &Path, baseline: &Path, out: &Path, extra: &[&str]) -> Output {
    ab_command(cwd, baseline, out, extra)
        .output()
        .expect("run idabench ab")
}

#[test]
fn the_same_build_twice_has_identical_counts_and_exits_0() {
    let tmp = Tmp::new("same");
    let dir = tmp.path();
    let out = ab(
        dir,
        Path::new(BIN),
        dir,
        &["--rounds", "3", "--format", "csv", "--plot-size", "700x500"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = dir.join("ab");
    let [base, cur] = ["runs-baseline.csv", "runs-current.csv"].map(|f| csv_rows(&report.join(f)));
    // 31 instances x 2 variants x 3 rounds.
    assert_eq!(base.len(), 186);
    assert_eq!(cur.len(), 186);
    for (b, c) in base.iter().zip(&cur) {
        // Both builds' rows are of this `ab` run.
        assert_eq!((b["run"].as_str(), c["run"].as_str()), ("ab", "ab"));
        for field in [
            "round",
            "instance",
            "variant",
            "status",
            "length",
            "nodes_generated",
        ] {
            assert_eq!(b[field], c[field], "{field}");
        }
    }
    let csv = text(&out.stdout);
    assert!(
        csv.starts_with("variant,jobs_compared,changed,missing_in_current,"),
        "{csv}"
    );
    assert!(csv.contains("\noverall,62,0,0,0,"), "{csv}");
    let pairs = csv_rows(&report.join("pairs.csv"));
    assert_eq!(pairs.len(), 186);
    // Each job alternates which build goes first from round to round.
    let firsts: Vec<&str> = pairs
        .iter()
        .filter(|p| p["instance"] == "d05" && p["variant"] == "manhattan/stepnext/prune")
        .map(|p| p["first"].as_str())
        .collect();
    assert_eq!(firsts.len(), 3);
    assert!(firsts.windows(2).all(|w| w[0] != w[1]), "{firsts:?}");
    let manifest = fs::read_to_string(report.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["mode"], "worker");
    assert_eq!(manifest["rounds"], 3);
    for side in ["baseline", "current"] {
        assert_eq!(manifest[side]["path"], BIN);
        assert_eq!(manifest[side]["protocol"], 1);
        assert_eq!(manifest[side]["version"], env!("CARGO_PKG_VERSION"));
    }
    assert!(report.join("comparison.md").is_file());
    // The pages `compare --out` writes, of each job's median time over the rounds.
    let page = fs::read_to_string(report.join("report.html")).unwrap();
    assert!(page.contains("<h1>idabench ab</h1>"), "{page}");
    assert!(!page.contains("class=\"alarm\""), "{page}");
    assert!(
        page.contains("<tr><td><code>overall</code></td><td>current</td><td>62</td>"),
        "{page}"
    );
    assert!(
        page.contains(&format!("<li>Baseline build: {BIN} (idabench ")),
        "{page}"
    );
    assert!(
        page.contains("<a href=\"pairs.csv\">pairs.csv</a>"),
        "{page}"
    );
    let nodes = crate::common::svg::read_svg(&report.join("compare-nodes.svg"));
    assert!(nodes
        .texts()
        .iter()
        .any(|t| t.content == "Nodes per job, current / baseline: 0 of 62 changed"));
    // Drawn at --plot-size.
    let svg = fs::read_to_string(report.join("compare-nodes.svg")).unwrap();
    let head = &svg[..svg.find('>').unwrap()];
    assert!(
        head.contains(" width=\"700\"") && head.contains(" height=\"500\""),
        "{head}"
    );
}

#[test]
fn a_build_with_other_node_counts_exits_4() {
    let tmp = Tmp::new("changed");
    let dir = tmp.path();
    // The same binary, stopped after 50 nodes per job: other statuses and node counts.
    let other = script(
        dir,
        "limited",
        &format!("command=$1; shift; exec {BIN} \"$command\" --max-nodes 50 \"$@\""),
    );
    let out = ab(dir, &other, dir, &["--rounds", "2"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("FAIL (exit 4): results changed"),
        "{stdout}"
    );
    assert!(stdout.contains("nodes_generated"), "{stdout}");
    // Allowed, the same comparison passes (with compare's name for the threshold, too).
    let out = ab(
        dir,
        &other,
        &dir.join("again"),
        &["--allow-node-changes", "--time-threshold", "1.2"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn missing_and_foreign_binaries_are_usage_errors() {
    let tmp = Tmp::new("foreign");
    let dir = tmp.path();
    let out = ab(dir, &dir.join("no-such-idabench"), dir, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--baseline") && err.contains("cannot run it"),
        "{err}"
    );
    // Refused before the report folder is made.
    assert!(!dir.join("ab").exists());

    let out = ab(dir, Path::new("/bin/echo"), &dir.join("echo"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("not an idabench binary"), "{err}");
    assert!(!dir.join("echo").join("ab").exists());

    // Only the first line of a long --version is quoted.
    let chatty = script(
        dir,
        "chatty",
        "echo 'chatty 2.1'; echo 'Copyright (C) someone'; echo 'License: none'",
    );
    let out = ab(dir, &chatty, &dir.join("chatty"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--version` printed `chatty 2.1`, expected"),
        "{err}"
    );
    assert!(!err.contains("Copyright"), "{err}");

    let newer = script(
        dir,
        "newer",
        "echo 'idabench-worker protocol=99 version=9.0.0 commit=- build=release'; cat > /dev/null",
    );
    let out = command(dir, &["ab", "--baseline", BIN, "--current"])
        .arg(&newer)
        .arg(&*EIGHT)
        .arg("--out")
        .arg(dir.join("newer-out"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--current") && err.contains("speaks protocol 99"),
        "{err}"
    );
}

#[test]
fn a_build_without_the_worker_mode_is_run_in_groups() {
    let tmp = Tmp::new("old");
    let dir = tmp.path();
    // What an idabench from before `ab` answers to `worker`, and its `run` otherwise.
    // It also predates `--no-plots`: its `run --help` does not list it and its `run` refuses it.
    let old = script(
        dir,
        "old",
        &format!(
            "if [ \"$1\" = worker ]; then echo \"error: unrecognized subcommand 'worker'\" >&2; \
             exit 2; fi\n\
             case \"$*\" in *--help*) {BIN} \"$@\" | grep -v -- --no-plots; exit 0;; \
             *--no-plots*) echo \"error: unexpected argument '--no-plots'\" >&2; exit 2;; esac\n\
             exec {BIN} \"$@\""
        ),
    );
    // Older than CPU time limits too: their --time-limit is refused.
    let out = ab(dir, &old, dir, &["--time-limit", "0.5"]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("predates CPU time limits"),
        "{}",
        show(&out)
    );
    // Older than automata too: fsm is refused before its `run`s, whatever the depth.
    for pruning in ["fsm", "fsm14"] {
        let out = ab(dir, &old, dir, &["--pruning", pruning]);
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains("this build cannot prune by automaton"),
            "{}",
            show(&out)
        );
    }
    let out = ab(dir, &old, dir, &["--rounds", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("has no worker mode"), "{err}");
    assert!(!err.contains("unrecognized subcommand"), "{err}");
    let report = dir.join("ab");
    let [base, cur] = ["runs-baseline.csv", "runs-current.csv"].map(|f| csv_rows(&report.join(f)));
    assert_eq!(base.len(), 124);
    assert!(base.iter().all(|r| r["dataset"] == "p1379"));
    for (b, c) in base.iter().zip(&cur) {
        assert_eq!(b["nodes_generated"], c["nodes_generated"]);
    }
    let manifest = fs::read_to_string(report.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["mode"], "run");
    assert_eq!(manifest["baseline"]["protocol"], serde_json::Value::Null);
    assert_eq!(manifest["baseline"]["build"], "release");
}

/// A build from before CPU time limits: its worker's handshake lacks `limits=...` and its
/// `--time-limit` limits wall time (it has no `--wall-limit`). `ab` refuses `--time-limit` with
/// it before any job, and gives it `--wall-limit` as its own `--time-limit`.
#[test]
fn a_build_that_predates_cpu_limits_is_refused_time_limit_and_given_wall_limit() {
    let tmp = Tmp::new("pre-cpu");
    let dir = tmp.path();
    let said = dir.join("said");
    let old = script(
        dir,
        "old",
        &format!(
            "if [ \"$1\" = worker ]; then case \"$*\" in *--wall-limit*) \
             echo \"error: unexpected argument '--wall-limit' found\" >&2; exit 2;; esac\n\
             echo \"$*\" >> {said}\n\
             {BIN} \"$@\" | {{ IFS= read -r l; printf '%s\\n' \"${{l% limits=*}}\"; exec cat; }}\n\
             else exec {BIN} \"$@\"; fi",
            said = said.display()
        ),
    );
    let out = ab(dir, &old, dir, &["--time-limit", "0.5"]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("this build predates CPU time limits")
            && err.contains("give --wall-limit instead"),
        "{err}"
    );
    assert!(!dir.join("ab").exists(), "a refused ab leaves no report");
    let out = ab(dir, &old, dir, &["--wall-limit", "5", "--rounds", "1"]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("predates CPU time limits: it is given --time-limit 5"),
        "{}",
        show(&out)
    );
    // Its workers (after the handshake read at first) were given the limit as it takes it.
    let args = fs::read_to_string(&said).unwrap();
    let planned: Vec<&str> = args.lines().filter(|l| l.contains("p1379")).collect();
    assert!(!planned.is_empty(), "{args}");
    assert!(
        planned.iter().all(|l| l.contains("--time-limit 5")),
        "{args}"
    );
    let manifest = fs::read_to_string(dir.join("ab/manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["wall_limit_s"], 5.0);
}

/// A build from before `--pruning`: its handshake lacks `pruning=...` and it refuses the flag.
/// `ab` gives it reverse and none as `--reverse-pruning on,off` (the same variant names, so the
/// pairs match), and refuses an automaton before any job, saying why.
#[test]
fn a_build_that_predates_pruning_is_given_reverse_pruning_and_refused_fsm() {
    let tmp = Tmp::new("pre-fsm");
    let dir = tmp.path();
    let said = dir.join("said");
    let old = script(
        dir,
        "old",
        &format!(
            "if [ \"$1\" = worker ]; then case \"$*\" in *--pruning*) \
             echo \"error: unexpected argument '--pruning' found\" >&2; exit 2;; esac\n\
             echo \"$*\" >> {said}\n\
             {BIN} \"$@\" | {{ IFS= read -r l; printf '%s\\n' \"${{l% pruning=*}}\"; exec cat; }}\n\
             else exec {BIN} \"$@\"; fi",
            said = said.display()
        ),
    );
    let out = ab(dir, &old, dir, &["--pruning", "fsm,reverse"]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("--baseline") && err.contains("this build cannot prune by automaton"),
        "{err}"
    );
    assert!(!dir.join("ab").exists(), "a refused ab leaves no report");
    let out = ab(
        dir,
        &old,
        dir,
        &["--pruning", "reverse,none", "--rounds", "1"],
    );
    assert_exit(&out, 0);
    let args = fs::read_to_string(&said).unwrap();
    let planned: Vec<&str> = args.lines().filter(|l| l.contains("p1379")).collect();
    assert!(!planned.is_empty(), "{args}");
    assert!(
        planned
            .iter()
            .all(|l| l.contains("--reverse-pruning on,off") && !l.contains("--pruning")),
        "{args}"
    );
    let rows = csv_rows(&dir.join("ab/runs-baseline.csv"));
    assert!(
        rows.iter()
            .any(|r| r["variant"] == "manhattan/stepnext/noprune"),
        "no noprune rows"
    );
}

/// A build from before the factors of cr and eda: its handshake lacks `step_factor=...`. `ab`
/// refuses it `eda4` before any worker starts and runs `cr` and `eda` with it; between builds
/// that offer them, the workers run the factors under their names.
#[test]
fn a_build_that_predates_step_factors_is_refused_them() {
    let tmp = Tmp::new("pre-factor");
    let dir = tmp.path();
    let old = script(
        dir,
        "old",
        &format!(
            "if [ \"$1\" = worker ]; then \
             {BIN} \"$@\" | {{ IFS= read -r l; printf '%s\\n' \"${{l% step_factor=*}}\"; exec cat; }}\n\
             else exec {BIN} \"$@\"; fi"
        ),
    );
    let out = ab(dir, &old, dir, &["--step", "cr,eda4"]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("--baseline") && err.contains("it cannot run --step eda4"),
        "{err}"
    );
    assert!(!dir.join("ab").exists(), "a refused ab leaves no report");
    let out = ab(dir, &old, dir, &["--step", "cr,eda", "--rounds", "1"]);
    assert_exit(&out, 0);
    let mine = dir.join("mine");
    let out = ab(
        dir,
        Path::new(BIN),
        &mine,
        &["--step", "cr4,eda1.5", "--rounds", "1"],
    );
    assert_exit(&out, 0);
    let rows = csv_rows(&mine.join("ab/runs-baseline.csv"));
    for step in ["cr4", "eda1.5"] {
        let variant = format!("manhattan/step{step}/prune");
        assert!(
            rows.iter().any(|r| r["variant"] == variant),
            "no {variant} rows"
        );
    }
}

/// A build whose `fsm` may be fsm14 on every domain, stood in for by this one: its handshake
/// offers automata without `fsm_depth=domain`, it refuses a `--pruning` list holding `fsm`
/// without a depth (which it would read otherwise than this build), and it writes each worker's
/// arguments to `dir/said`.
fn older_fsm(dir: &Path) -> PathBuf {
    script(
        dir,
        "old",
        &format!(
            "if [ \"$1\" = worker ]; then echo \"$*\" >> {said}\n\
             prev=; for a in \"$@\"; do if [ \"$prev\" = --pruning ]; then case \",$a,\" in \
             *,fsm,*) echo \"error: fsm is fsm14 here\" >&2; exit 2;; esac; fi; prev=$a; done\n\
             {BIN} \"$@\" | {{ IFS= read -r l; printf '%s\\n' \"${{l% fsm_depth=*}}\"; exec cat; }}\n\
             else exec {BIN} \"$@\"; fi",
            said = dir.join("said").display()
        ),
    )
}

/// The arguments of the workers of `dir/said` that were given a plan (the handshakes read first
/// are given a dataset that does not exist).
fn planned_workers(dir: &Path) -> Vec<String> {
    fs::read_to_string(dir.join("said"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.contains("no-dataset.csv"))
        .map(str::to_owned)
        .collect()
}

/// `--pruning fsm` over the tiles and the knights is fsm14 on one and fsm10 on the other: a
/// build that may read `fsm` as fsm14 everywhere cannot run both in one plan, so the pair is
/// refused before any worker is given its jobs, naming the depths and what to ask instead; as
/// the baseline, and as the current build, whose plan is made before the baseline's worker
/// starts too.
#[test]
fn fsm_over_domains_of_other_depths_is_refused_with_a_build_whose_fsm_is_one_depth() {
    for role in ["baseline", "current"] {
        let tmp = Tmp::new(&format!("fsm-depths-refused-{role}"));
        fsm_over_two_depths_is_refused(tmp.path(), role);
    }
}

fn fsm_over_two_depths_is_refused(dir: &Path, role: &str) {
    let old = older_fsm(dir);
    let knights = dataset("knights.csv");
    let mut c = command(dir, &["ab"]);
    match role {
        "baseline" => c.arg("--baseline").arg(&old),
        _ => c.args(["--baseline", BIN, "--current"]).arg(&old),
    };
    c.args([EIGHT.as_str(), knights.as_str(), "--pruning", "fsm,reverse"])
        .args(["--rounds", "1", "--out"])
        .arg(dir)
        .args(["--name", "ab"])
        .stdin(Stdio::null());
    let out = output_within(c, Duration::from_secs(600));
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    let flag = format!("--{role}");
    for want in [
        flag.as_str(),
        "fsm_depth=domain",
        "here: tiles fsm14, knights fsm10 (it may not know the default of knights)",
        "--pruning fsm10",
        "--domain tiles --pruning fsm",
    ] {
        assert!(err.contains(want), "wanted {want:?}:\n{err}");
    }
    assert!(
        planned_workers(dir).is_empty(),
        "{:?}",
        planned_workers(dir)
    );
    assert!(!dir.join("ab").exists(), "a refused ab leaves no report");
    assert!(
        !dir.join(".cache").exists(),
        "no automaton is built for a refused pair"
    );
}

/// `--pruning fsm` over tiles alone is fsm14 on both builds: the build that may read `fsm` as
/// fsm14 everywhere is given `fsm14` by name, and both count alike under the same variants.
#[test]
fn fsm_over_one_depth_is_given_by_name_to_a_build_whose_fsm_is_one_depth() {
    let tmp = Tmp::new("fsm-depths-named");
    let dir = tmp.path();
    let old = older_fsm(dir);
    let out = ab(
        dir,
        &old,
        dir,
        &["--pruning", "fsm,reverse", "--rounds", "1"],
    );
    assert_exit(&out, 0);
    let planned = planned_workers(dir);
    assert!(!planned.is_empty());
    for l in &planned {
        assert!(l.contains("--pruning fsm14,reverse"), "{l}");
    }
    let report = dir.join("ab");
    let [base, cur] = ["runs-baseline.csv", "runs-current.csv"].map(|f| csv_rows(&report.join(f)));
    // 31 instances under two heuristics and two prunings.
    assert_eq!(base.len(), 124);
    assert_eq!(cur.len(), base.len());
    let fsm14 = base
        .iter()
        .filter(|r| r["variant"].ends_with("/stepnext/fsm14"))
        .count();
    assert_eq!(fsm14, 62);
    for (b, c) in base.iter().zip(&cur) {
        for column in ["instance", "variant", "status", "length"] {
            assert_eq!(b[column], c[column]);
        }
        assert_eq!(b["nodes_generated"], c["nodes_generated"], "{b:?}");
    }
}

/// A build without the worker mode whose `run` writes a NaN time: refused (exit 2) naming the
/// column, as `compare` would refuse its runs.csv, instead of being reported.
#[test]
fn an_old_builds_row_with_a_nan_time_is_refused() {
    let tmp = Tmp::new("old-nan");
    let dir = tmp.path();
    // `run`'s last argument is its --out directory; the first row's time_cpu_s becomes NaN.
    let old = script(
        dir,
        "old",
        &format!(
            "if [ \"$1\" = worker ]; then echo \"error: unrecognized subcommand 'worker'\" >&2; \
             exit 2; fi\n\
             {BIN} \"$@\"; status=$?\n\
             for a; do out=$a; done; f=\"$out/runs/runs.csv\"\n\
             if [ -f \"$f\" ]; then awk -F, -v OFS=, 'NR == 2 {{$17 = \"NaN\"}} {{print}}' \"$f\" \
             > \"$f.new\" && mv \"$f.new\" \"$f\"; fi\n\
             exit $status"
        ),
    );
    let mut ab = ab_command(dir, &old, dir, &["--rounds", "1"]);
    ab.stdin(Stdio::null());
    let out = output_within(ab, Duration::from_secs(120));
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains(
            "runs.csv:2: column `time_cpu_s`: expected a number of seconds from 0 to 1e9 (about \
             32 years), found NaN"
        ),
        "{}",
        show(&out)
    );
    let base = fs::read_to_string(dir.join("ab/runs-baseline.csv")).unwrap();
    assert!(!base.contains("NaN"), "{base}");
}

#[test]
fn the_worker_answers_each_job_with_a_row_and_refuses_unknown_ones() {
    let tmp = Tmp::new("worker");
    let worker = command(
        tmp.path(),
        &["worker", EIGHT.as_str(), "--heuristic", "manhattan"],
    );
    let requests = "p1379,d05,manhattan/stepnext/prune\np1379,nope,manhattan/stepnext/prune\n\
                    one field\n";
    let out = with_stdin(worker, requests.as_bytes());
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert!(
        lines[0].starts_with(&format!(
            "idabench-worker protocol=1 version={} commit=",
            env!("CARGO_PKG_VERSION")
        )),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("dataset,instance,domain,size,variant,"));
    assert!(
        lines[2].starts_with(
            "p1379,d05,tiles,3x3,manhattan/stepnext/prune,manhattan,next,on,solved,5,5,"
        ),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("!stdin:2: no job (dataset p1379, instance nope"));
    assert!(lines[4].starts_with("!stdin:3: expected a job"));
}

/// A baseline whose worker passes on its first `jobs` requests (its two warm-up jobs, then
/// measured ones), line by line (`head` may hold them back in its buffer), and then, unless
/// `then` ends it, is stuck for good; `then` runs in the subshell that fed the worker, after
/// the last request.
fn stalling(dir: &Path, jobs: usize, then: &str) -> PathBuf {
    script(
        dir,
        "stalling",
        &format!(
            "if [ \"$1\" = worker ]; then {{ i=0; while [ $i -lt {jobs} ] && IFS= read -r l; \
             do printf '%s\\n' \"$l\"; i=$((i+1)); done; {then}; }} | {BIN} \"$@\"; \
             else exec {BIN} \"$@\"; fi"
        ),
    )
}

/// Polls until `done` holds, failing the test after a long while rather than hanging it.
fn wait_for(what: &str, done: impl Fn() -> bool) {
    for _ in 0..6000 {
        if done() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("{what} did not happen");
}

/// Whether process `pid` is gone (a zombie left to an init that does not reap counts as gone).
fn gone(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => true,
    }
}

#[test]
fn a_signal_stops_the_workers_and_the_pairs_measured_are_reported() {
    let tmp = Tmp::new("signal");
    let dir = tmp.path();
    // Two warm-up jobs and three measured ones, then the baseline's worker never gets its part
    // of the fourth pair: the request is swallowed (once it is, the three pairs are done) and
    // `ab` waits until the signal. The swallowing subshell writes its pid, to check that it was
    // killed with the worker.
    let sleeper = dir.join("sleeper");
    let stuck = stalling(
        dir,
        5,
        &format!(
            "read -r line; sh -c 'echo $PPID' > {0}.tmp; mv {0}.tmp {0}; exec sleep 1000",
            sleeper.display()
        ),
    );
    let child = ab_command(dir, &stuck, dir, &["--rounds", "2", "--format", "csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("the baseline's stall", || sleeper.is_file());
    let pid: i32 = fs::read_to_string(&sleeper)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let ab_pid = i32::try_from(child.id()).unwrap();
    // SAFETY: a signal to the child this test started and has not waited for.
    assert_eq!(unsafe { libc::kill(ab_pid, libc::SIGTERM) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    wait_for("the stuck worker's end", || gone(pid));
    let csv = text(&out.stdout);
    assert!(csv.contains("\noverall,3,0,0,0,"), "{csv}");
    let report = dir.join("ab");
    let md = fs::read_to_string(report.join("comparison.md")).unwrap();
    assert!(
        md.contains("INTERRUPTED (exit 130): 3 of 124 pairs measured; in them, nothing wrong"),
        "{md}"
    );
    for file in ["runs-baseline.csv", "runs-current.csv", "pairs.csv"] {
        assert_eq!(csv_rows(&report.join(file)).len(), 3, "{file}");
    }
    let manifest = fs::read_to_string(report.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["pairs"], 3);
    assert_eq!(manifest["pairs_planned"], 124);
    assert_eq!(manifest["complete"], false);
}

#[test]
fn a_worker_that_dies_leaves_the_pairs_measured_and_exits_1() {
    let tmp = Tmp::new("dies");
    let dir = tmp.path();
    // After two warm-up jobs and three measured ones, the baseline's worker sees the end of its
    // input and ends.
    let dying = stalling(dir, 5, "true");
    let out = ab(dir, &dying, dir, &["--rounds", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("Error: --baseline") && err.contains("its worker"),
        "{err}"
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("STOPPED by an error: 3 of 124 pairs measured"),
        "{stdout}"
    );
    let report = dir.join("ab");
    assert_eq!(csv_rows(&report.join("pairs.csv")).len(), 3);
    let manifest = fs::read_to_string(report.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["complete"], false);
    assert!(manifest["stopped_by"]
        .as_str()
        .unwrap()
        .contains("its worker"));
}

/// Ids that `run` accepts but that a protocol of one line per field would break (a line break,
/// a quote, a comma, a leading `!`), in a dataset whose file name starts with `!` and one whose
/// path starts with `-`, and a `--pdb-dir` that starts with `-`: `ab` pairs every job with
/// itself and exits 0.
#[test]
fn any_dataset_that_run_accepts_goes_through_the_workers() {
    let tmp = Tmp::new("odd-ids");
    let dir = tmp.path();
    let header = "id,domain,size,start,goal,optimal\n";
    let lines = "\"two\nlines\",tiles,3x3,2 8 3 1 0 4 7 6 5,1 2 3 8 0 4 7 6 5,4\n\
                \"a \"\"quote\"\"\",tiles,3x3,1 0 3 8 2 4 7 6 5,1 2 3 8 0 4 7 6 5,1\n\
                \"a,comma\",tiles,3x3,0 1 3 8 2 4 7 6 5,1 2 3 8 0 4 7 6 5,2\n\
                !bang,tiles,3x3,1 0 2 8 4 3 7 6 5,1 2 3 8 0 4 7 6 5,3\n";
    tmp.write("!bang.csv", &format!("{header}{lines}"));
    tmp.write("-dash.csv", &format!("{header}{lines}"));
    let args = [
        "--heuristic",
        "manhattan,linear-conflict",
        "--pdb-dir=-cache",
        "--",
        "-dash.csv",
        "!bang.csv",
    ];
    let out = command(
        dir,
        &["run", "--out", "reports", "--name", "run", "--quiet"],
    )
    .args(args)
    .output()
    .unwrap();
    assert_exit(&out, 0);
    let mut ab = command(dir, &["ab", "--baseline", BIN, "--rounds", "2", "--out"]);
    ab.arg(dir)
        .args(["--name", "ab"])
        .args(args)
        .stdin(Stdio::null());
    let out = output_within(ab, Duration::from_secs(120));
    assert_exit(&out, 0);
    let report = dir.join("ab");
    let [base, cur] = ["runs-baseline.csv", "runs-current.csv"].map(|f| csv_rows(&report.join(f)));
    let expected = csv_rows(&dir.join("reports/run/runs.csv"));
    // 2 datasets x 4 instances x 2 variants x 2 rounds.
    assert_eq!(expected.len(), 16);
    assert_eq!((base.len(), cur.len()), (32, 32));
    for (b, c) in base.iter().zip(&cur) {
        // A round of ab is a repetition of its jobs: its rows are keyed so.
        for r in [b, c] {
            assert_eq!(r["repetition"], r["round"], "{r:?}");
        }
        let want = expected
            .iter()
            .find(|r| {
                (&r["dataset"], &r["instance"], &r["variant"])
                    == (&b["dataset"], &b["instance"], &b["variant"])
            })
            .unwrap_or_else(|| panic!("a row of no job of `run`: {b:?}"));
        for field in [
            "dataset",
            "instance",
            "variant",
            "status",
            "nodes_generated",
            "path",
        ] {
            assert_eq!(b[field], want[field], "{field}");
            assert_eq!(c[field], want[field], "{field}");
        }
    }
    let instances: std::collections::BTreeSet<&str> =
        base.iter().map(|r| r["instance"].as_str()).collect();
    assert_eq!(
        instances.into_iter().collect::<Vec<_>>(),
        ["!bang", "a \"quote\"", "a,comma", "two\nlines"]
    );
}

/// A baseline whose worker is this build's, but for answer `line` of its stdout (1 is the
/// handshake, 2 the header, 3 the warm-up job of the one variant, 4 the first job measured),
/// which `awk` rewrites as `program` says (fields split at commas).
fn faulty(dir: &Path, line: usize, program: &str) -> PathBuf {
    script(
        dir,
        "faulty",
        &format!(
            "if [ \"$1\" = worker ]; then {BIN} \"$@\" | {{ n=0; while IFS= read -r l; do \
             n=$((n+1)); if [ $n -eq {line} ]; then l=$(printf '%s\\n' \"$l\" | \
             awk -F, -v OFS=, '{program}'); fi; printf '%s\\n' \"$l\"; done; }}; \
             else exec {BIN} \"$@\"; fi"
        ),
    )
}

/// A worker's row for another job than the one asked, or with a time that is not a number:
/// refused (exit 2) naming the job, after the report of the pairs measured before it.
#[test]
fn a_row_for_another_job_or_with_a_nan_time_is_refused() {
    let tmp = Tmp::new("faulty");
    let dir = tmp.path();
    for (name, program, says) in [
        (
            "other",
            "{$2 = \"d01\"; print}",
            "job (dataset p1379, instance d02, variant manhattan/stepnext/prune): its row cannot \
             be used: it is the row of another job (dataset p1379, instance d01, variant \
             manhattan/stepnext/prune)",
        ),
        (
            "nan",
            "{$17 = \"NaN\"; print}",
            "instance d02, variant manhattan/stepnext/prune): its row cannot be used: column \
             `time_cpu_s`: expected a number of seconds from 0 to 1e9 (about 32 years), found NaN",
        ),
    ] {
        // The third job measured.
        let bad = faulty(dir, 6, program);
        let mut ab = command(dir, &["ab", "--baseline"]);
        ab.arg(&bad)
            .args([EIGHT.as_str(), "--heuristic", "manhattan", "--out"])
            .arg(dir)
            .args(["--name", name, "--rounds", "2"])
            .stdin(Stdio::null());
        let out = output_within(ab, Duration::from_secs(60));
        assert_exit(&out, 2);
        let err = text(&out.stderr);
        assert!(err.contains(says), "{name}: {}", show(&out));
        // The two pairs before it, as measured.
        let base = csv_rows(&dir.join(name).join("runs-baseline.csv"));
        let measured: Vec<(&str, &str)> = base
            .iter()
            .map(|r| (r["instance"].as_str(), r["time_cpu_s"].as_str()))
            .collect();
        assert_eq!(measured.len(), 2, "{name}: {measured:?}");
        assert_eq!((measured[0].0, measured[1].0), ("luogu-sample", "d01"));
        assert!(measured
            .iter()
            .all(|(_, t)| t.parse::<f64>().is_ok_and(f64::is_finite)));
    }
}

/// The cases where `ab` waits out its patience, 10 s each, side by side: run one after another,
/// they would hold a thread of the test harness for half a minute.
#[test]
fn workers_that_keep_ab_waiting_are_stopped_when_its_patience_runs_out() {
    std::thread::scope(|s| {
        s.spawn(a_worker_that_stops_answering_is_killed_and_its_job_is_an_error);
        s.spawn(a_binary_that_chatters_without_a_handshake_is_refused);
        s.spawn(a_binary_that_waits_for_ever_and_says_nothing_is_refused);
    });
}

/// Waits for ever and says nothing: refused once the handshake's time is out.
fn a_binary_that_waits_for_ever_and_says_nothing_is_refused() {
    let tmp = Tmp::new("mute");
    let dir = tmp.path();
    let mute = script(dir, "mute", "exec sleep 1000");
    let out = ab(dir, &mute, &dir.join("mute"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--baseline") && err.contains("no handshake within 10 s"),
        "{err}"
    );
    assert!(!dir.join("mute").join("ab").exists());
}

/// A worker that stops answering, under --wall-limit: killed once the job's limit and 10 s are
/// past, the job recorded as `error` for its build, and `ab` exits 1 with the pairs measured.
fn a_worker_that_stops_answering_is_killed_and_its_job_is_an_error() {
    let tmp = Tmp::new("hang");
    let dir = tmp.path();
    // Two warm-up jobs and three measured ones; the baseline's part of the fourth pair is
    // swallowed, and the worker waits for it for good.
    let stuck = stalling(dir, 5, "exec sleep 1000");
    let mut ab = ab_command(dir, &stuck, dir, &["--rounds", "2", "--wall-limit", "0.5"]);
    ab.stdin(Stdio::null());
    let out = output_within(ab, Duration::from_secs(120));
    assert_exit(&out, 1);
    let err = text(&out.stderr);
    assert!(
        err.contains("Error: --baseline")
            && err.contains(
                "its worker gave no answer to job (dataset p1379, instance d01, variant \
                 linear-conflict/stepnext/prune) within 10.5 s (its wall limit of 0.5 s and 10 \
                 s more): killed; the job is recorded as `error`"
            ),
        "{}",
        show(&out)
    );
    assert!(
        text(&out.stdout).contains("STOPPED by an error: 4 of 124 pairs measured"),
        "{}",
        show(&out)
    );
    let report = dir.join("ab");
    let base = csv_rows(&report.join("runs-baseline.csv"));
    let cur = csv_rows(&report.join("runs-current.csv"));
    assert_eq!((base.len(), cur.len()), (4, 4));
    let hung = base.iter().find(|r| r["status"] == "error").unwrap();
    assert_eq!(
        (hung["instance"].as_str(), hung["variant"].as_str()),
        ("d01", "linear-conflict/stepnext/prune")
    );
    assert_eq!(
        hung["message"],
        "no answer within 10.5 s (its wall limit of 0.5 s and 10 s more): the worker was killed"
    );
    // The other build measured the job.
    assert!(cur.iter().all(|r| r["status"] == "solved"));
    let manifest = fs::read_to_string(report.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["complete"], false);
}

/// `idabench worker < /dev/zero`: one request that never ends, refused (exit 2) at the
/// protocol's bound, naming stdin's line.
#[test]
fn a_worker_fed_an_endless_line_stops_at_the_bound() {
    let tmp = Tmp::new("zero-worker");
    let mut worker = command(tmp.path(), &["worker", EIGHT.as_str()]);
    worker.stdin(fs::File::open("/dev/zero").unwrap());
    limit_memory(&mut worker);
    let out = output_within(worker, Duration::from_secs(60));
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("Error: stdin:1: a request longer than the protocol's")
            && err.contains("bytes: expected jobs as `dataset,instance,variant`"),
        "{}",
        show(&out)
    );
    // A quote left open runs to the end of the input: refused, not taken for a job.
    let worker = command(tmp.path(), &["worker", EIGHT.as_str()]);
    let out = with_stdin(
        worker,
        b"p1379,d05,manhattan/stepnext/prune\n\"p1379\nd05\n",
    );
    assert_exit(&out, 2);
    assert_eq!(text(&out.stdout).lines().count(), 3, "{}", show(&out));
    assert!(
        text(&out.stderr).contains("stdin:2: a request cut short by the end of the stream"),
        "{}",
        show(&out)
    );
}

/// Binaries whose output never ends: refused (exit 2) having read a bounded amount of it, on
/// stdout at once; on stderr within the handshake's time (in
/// `workers_that_keep_ab_waiting_are_stopped_when_its_patience_runs_out`).
#[test]
fn a_binary_whose_output_never_ends_is_refused() {
    endless("zeros", "exec cat /dev/zero", "not an idabench binary");
}

fn a_binary_that_chatters_without_a_handshake_is_refused() {
    // Its stdout kept open: no handshake and no end.
    endless(
        "chatter",
        "exec 3>&1; exec cat /dev/zero >&2",
        "no handshake within 10 s",
    );
}

/// `ab` with a baseline binary that answers `--version` and then runs `worker`.
fn endless(name: &str, worker: &str, says: &str) {
    let tmp = Tmp::new(&format!("endless-{name}"));
    let dir = tmp.path();
    let endless = script(
        dir,
        name,
        &format!("case \"$1\" in --version) echo 'zeros 1.0';; *) {worker};; esac"),
    );
    let mut ab = ab_command(dir, &endless, &dir.join(name), &[]);
    limit_memory(&mut ab);
    let out = output_within(ab, Duration::from_secs(60));
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains(says), "{name}: {}", show(&out));
}

/// Built with `--features inject-slowdown` only (`.ci/run` lints it; run it with
/// `cargo test --release --features inject-slowdown --test integration cli_ab`): the busy work
/// leaves every node count as it was, and a bad setting is a usage error.
#[cfg(feature = "inject-slowdown")]
#[test]
fn the_injected_slowdown_keeps_node_counts_and_refuses_bad_settings() {
    let tmp = Tmp::new("slowdown");
    let dir = tmp.path();
    let slow = script(
        dir,
        "slow",
        &format!("IDABENCH_SLOWDOWN=50 exec {BIN} \"$@\""),
    );
    let slow = slow.to_str().unwrap();
    let out = ab_command(
        dir,
        Path::new(BIN),
        dir,
        &["--current", slow, "--rounds", "2", "--format", "csv"],
    )
    .env_remove("IDABENCH_SLOWDOWN")
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\noverall,62,0,0,0,"));

    let out = command(dir, &["run", EIGHT.as_str(), "--out"])
        .arg(dir)
        .args(["--name", "bad", "--quiet"])
        .env("IDABENCH_SLOWDOWN", "lots")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("IDABENCH_SLOWDOWN: expected a percentage from 0 to 1000, got 'lots'"),
        "{err}"
    );
    assert!(!dir.join("bad").exists());
}

/// A worker whose handshake says `select=...` is given the selection (and `--memory-limit`) and
/// plans the selected instances alone; a build whose handshake lacks it (stood in for by this
/// one with the word cut from its handshake) is given whole datasets without the memory limit,
/// and both are sent the selected jobs only.
#[test]
fn the_selection_goes_to_workers_that_take_it_and_not_to_older_ones() {
    let tmp = Tmp::new("ab-select");
    let dir = tmp.path();
    let wrapper = |name: &str, cut: bool| {
        let said = dir.join(format!("{name}.said"));
        let handshake = if cut {
            "| { IFS= read -r l; printf '%s\\n' \"${l% select=*}\"; exec cat; }"
        } else {
            ""
        };
        let body = format!(
            "if [ \"$1\" = worker ]; then echo \"$*\" >> {said}\n{BIN} \"$@\" {handshake}\n\
             else exec {BIN} \"$@\"; fi",
            said = said.display()
        );
        (script(dir, name, &body), said)
    };
    let (old, old_said) = wrapper("old", true);
    let (new, new_said) = wrapper("new", false);
    let mut c = ab_command(
        dir,
        &old,
        dir,
        &[
            "--rounds",
            "1",
            "--instances",
            "d05,d1?",
            "--memory-limit",
            "1G",
        ],
    );
    c.arg("--current").arg(&new);
    let out = c.output().unwrap();
    assert_exit(&out, 0);
    let planned = |said: &Path| -> Vec<String> {
        fs::read_to_string(said)
            .unwrap()
            .lines()
            .filter(|l| l.contains("p1379"))
            .map(str::to_owned)
            .collect()
    };
    let (old_args, new_args) = (planned(&old_said), planned(&new_said));
    assert!(!old_args.is_empty() && !new_args.is_empty());
    for l in &old_args {
        assert!(
            !l.contains("--instances") && !l.contains("--memory-limit"),
            "{l}"
        );
    }
    for l in &new_args {
        assert!(
            l.contains("--instances=d05,d1?") && l.contains("--memory-limit"),
            "{l}"
        );
    }
    // Both builds measured the selected jobs alone: d05 and d10..d19 there are, 2 variants.
    let rows = csv_rows(&dir.join("ab/runs-baseline.csv"));
    let ids: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["instance"].as_str()).collect();
    assert!(
        ids.iter().all(|i| *i == "d05" || i.starts_with("d1")),
        "{ids:?}"
    );
    assert_eq!(rows.len(), 2 * ids.len());
    assert_eq!(csv_rows(&dir.join("ab/runs-current.csv")).len(), rows.len());
}

/// `--memory-limit` under `ab` counts the databases of the selected boards only: two 4x4 rows of
/// the two goals need six tables of pdb-555 (3 MiB), one row three (1.5 MiB). Nothing is built
/// (`--no-build`, an empty cache).
#[test]
fn ab_counts_the_memory_of_the_selected_jobs_only() {
    let tmp = Tmp::new("ab-memory");
    let dir = tmp.path();
    let data = tmp.write(
        "two.csv",
        "id,domain,size,start,goal,optimal\n\
         first,tiles,4x4,1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15,1\n\
         last,tiles,4x4,1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15,1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0,1\n",
    );
    let cache = dir.join("cache");
    let ab = |extra: &[&str]| {
        let mut c = command(
            dir,
            &[
                "ab",
                "--baseline",
                BIN,
                data.as_str(),
                "--heuristic",
                "pdb-555",
            ],
        );
        c.args([
            "--no-build",
            "--memory-limit",
            "2M",
            "--rounds",
            "1",
            "--pdb-dir",
        ])
        .arg(&cache)
        .args(extra)
        .stdin(Stdio::null());
        c.output().unwrap()
    };
    let out = ab(&[]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("the 6 pattern database(s) take 3 MiB in memory"),
        "{}",
        show(&out)
    );
    // Selected, the memory fits; the run then stops at the tables --no-build does not make.
    let out = ab(&["--instances", "last"]);
    assert!(!out.status.success());
    assert!(
        !text(&out.stderr).contains("pattern database(s) take"),
        "{}",
        show(&out)
    );
    assert!(!cache.exists());
}
