//! `idabench solve` as a user runs it: output lines, exit codes, error messages.

use crate::common::{idabench, Tmp};

fn field<'a>(stdout: &'a str, key: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| {
            l.strip_prefix(&format!("{key}: "))
                .or(l.strip_suffix(&format!("{key}:")))
        })
        .unwrap_or_else(|| panic!("no '{key}' line in:\n{stdout}"))
}

#[test]
fn solves_korf_79_with_its_published_count() {
    let tmp = Tmp::new("solve");
    let out = idabench(
        tmp.path(),
        &[
            "solve",
            "--size",
            "4x4",
            "--start",
            "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15",
            "--goal",
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
            "--heuristic",
            "manhattan",
            "--step",
            "2",
            "--reverse-pruning",
            "on",
        ],
    );
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&s, "status"), "solved");
    assert_eq!(field(&s, "length"), "42");
    assert_eq!(field(&s, "path").len(), 42);
    assert_eq!(field(&s, "nodes_generated"), "540860");
    assert_eq!(field(&s, "final_bound"), "42");
    assert_eq!(field(&s, "nodes_expanded"), "262910");
    assert_eq!(field(&s, "iterations"), "8");
    let time_s: f64 = field(&s, "time_s").parse().unwrap();
    assert!(time_s.is_finite() && time_s >= 0.0, "{time_s}");
}

#[test]
fn json_output_and_p1379_goal() {
    let tmp = Tmp::new("solve");
    let out = idabench(
        tmp.path(),
        &[
            "solve",
            "--size",
            "3x3",
            "--start",
            "2 8 3 1 0 4 7 6 5",
            "--goal",
            "1 2 3 8 0 4 7 6 5",
            "--format",
            "json",
        ],
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["length"], 4);
    assert_eq!(v["path"], "ULDR");
}

#[test]
fn unsolvable_is_an_answer() {
    let tmp = Tmp::new("solve");
    let out = idabench(
        tmp.path(),
        &["solve", "--size", "3x3", "--start", "1 2 3 4 5 6 8 7 0"],
    );
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&s, "status"), "unsolvable");
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    let tmp = Tmp::new("solve");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--size", "3x3", "--start", "1 2 3 4 5 6 7 8"],
            "expected 9 tiles",
        ),
        (
            &["--size", "3x3", "--start", "1 2 3 4 5 6 7 8 8"],
            "appears twice",
        ),
        (
            &["--size", "3x3", "--start", "1 2 3 4 5 6 7 8 9"],
            "out of range",
        ),
        (
            &["--size", "3x3", "--start", "1 2 3 4 x 6 7 8 0"],
            "not a tile number",
        ),
        (
            &["--size", "3by3", "--start", "1 2 3 4 5 6 7 8 0"],
            "invalid size",
        ),
        (&["--size", "1x3", "--start", "1 2 0"], "invalid size"),
        (&["--size", "99x99", "--start", "1 2 0"], "invalid size"),
        (
            &[
                "--size",
                "3x3",
                "--start",
                "1 2 3 4 5 6 7 8 0",
                "--goal",
                "1 2 3",
            ],
            "goal: expected 9 tiles",
        ),
        (
            &[
                "--size",
                "3x3",
                "--start",
                "1 2 3 4 5 6 7 8 0",
                "--step",
                "3",
            ],
            "expected 1, 2, next, cr, eda or bts",
        ),
        (
            &[
                "--size",
                "3x3",
                "--start",
                "1 2 3 4 5 6 7 8 0",
                "--heuristic",
                "euclid",
            ],
            "unknown heuristic",
        ),
        (
            &["--domain", "cube", "--size", "3x3", "--start", "0"],
            "unknown domain",
        ),
    ];
    for (args, expect) in cases {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        let out = idabench(tmp.path(), &all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn node_limit_is_reported_with_the_counts_reached() {
    let tmp = Tmp::new("solve");
    let out = idabench(
        tmp.path(),
        &[
            "solve",
            "--size",
            "4x4",
            "--start",
            "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
            "--goal",
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
            "--heuristic",
            "misplaced",
            "--max-nodes",
            "50000",
        ],
    );
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&s, "status"), "node_limit");
    let nodes: u64 = field(&s, "nodes_generated").parse().unwrap();
    assert!((50_000..50_004).contains(&nodes));
}
