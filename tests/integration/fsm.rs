//! Duplicate pruning by automaton (`--pruning fsm`) on the command line: runs name, write and
//! count fsm variants alike at any number of workers and with `--split`, next to the old names
//! and flags (the searches themselves are checked in the library's `runner::tile_searches`).
//! Nothing here asserts on a time.

use crate::common::{self, assert_exit, command, csv_rows, rows_without_times, text, Tmp};
use idabench::search::Pruning;

/// `--pruning none,reverse,fsm` runs three variants (on the 3x3 instances of the smoke set: the
/// 4x4 ones take seconds without pruning) under their names (the old ones unchanged,
/// the automaton's with its depth), writes `pruning` and `reverse_pruning` for each, and the
/// same rows with one worker, two, and a split search.
#[test]
fn run_names_and_writes_each_pruning_and_counts_alike_on_any_workers() {
    let out = Tmp::new("fsm-run");
    let dataset = common::dataset("smoke.csv");
    let mut rows = Vec::new();
    for (name, jobs, split) in [("one", "1", "off"), ("two", "2", "off"), ("cut", "2", "2")] {
        let status = command(
            out.path(),
            &[
                "run",
                "--quiet",
                "--pruning",
                "none,reverse,fsm",
                "--size",
                "3x3",
                "--jobs",
                jobs,
                "--split",
                split,
                "--name",
                name,
            ],
        )
        .arg("--out")
        .arg(out.path())
        .arg(&dataset)
        .output()
        .unwrap();
        assert!(status.status.success(), "{status:?}");
        rows.push(rows_without_times(&out.path().join(name)));
    }
    assert_eq!(rows[0], rows[1]);
    assert_eq!(rows[0], rows[2]);
    let rows = csv_rows(&out.path().join("one").join("runs.csv"));
    let fsm = format!("manhattan/stepnext/fsm{}", Pruning::DEFAULT_FSM_DEPTH);
    for (variant, pruning, on) in [
        ("manhattan/stepnext/noprune", "none", "off"),
        ("manhattan/stepnext/prune", "reverse", "on"),
        (fsm.as_str(), "fsm", "on"),
    ] {
        let mine: Vec<_> = rows.iter().filter(|r| r["variant"] == variant).collect();
        assert_eq!(mine.len(), 7, "{variant}");
        for r in mine {
            assert_eq!(
                (r["pruning"].as_str(), r["reverse_pruning"].as_str()),
                (pruning, on)
            );
            assert_eq!(r["length"], r["optimal"], "{variant}");
        }
    }
}

/// `--reverse-pruning on,off` keeps its names and means reverse and none; giving it with
/// `--pruning` is a usage error, as is a pruning that is not one.
#[test]
fn reverse_pruning_keeps_working_and_both_flags_are_refused() {
    let out = Tmp::new("fsm-flags");
    let dataset = common::dataset("smoke.csv");
    let run = command(
        out.path(),
        &[
            "run",
            "--quiet",
            "--reverse-pruning",
            "on,off",
            "--size",
            "3x3",
            "--name",
            "old",
        ],
    )
    .arg("--out")
    .arg(out.path())
    .arg(&dataset)
    .output()
    .unwrap();
    assert!(run.status.success(), "{run:?}");
    let rows = csv_rows(&out.path().join("old").join("runs.csv"));
    let seen: std::collections::BTreeSet<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (&*r["variant"], &*r["pruning"], &*r["reverse_pruning"]))
        .collect();
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            ("manhattan/stepnext/noprune", "none", "off"),
            ("manhattan/stepnext/prune", "reverse", "on"),
        ]
    );
    let start = ["--size", "3x3", "--start", "1 2 3 4 5 6 7 0 8"];
    for (args, says) in [
        (
            vec!["run", "--pruning", "fsm", "--reverse-pruning", "on"],
            "cannot be used with",
        ),
        (vec!["run", "--pruning", "fsm1"], "unknown pruning 'fsm1'"),
        (
            vec!["run", "--pruning", "reverse,fsmx"],
            "unknown pruning 'fsmx'",
        ),
    ] {
        let o = command(out.path(), &args).arg(&dataset).output().unwrap();
        assert_exit(&o, 2);
        assert!(
            text(&o.stderr).contains(says),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    let both = command(
        out.path(),
        &["solve", "--pruning", "none", "--reverse-pruning", "off"],
    )
    .args(start)
    .output()
    .unwrap();
    assert_exit(&both, 2);
    for pruning in ["none", "reverse", "fsm", "fsm3"] {
        let o = command(out.path(), &["solve", "--pruning", pruning])
            .args(start)
            .output()
            .unwrap();
        assert_exit(&o, 0);
        assert!(
            text(&o.stdout).contains("length: 1\n"),
            "{pruning}: {}",
            text(&o.stdout)
        );
    }
}
