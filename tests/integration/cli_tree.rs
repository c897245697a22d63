//! `idabench tree` through the binary: the published branching factors, exact counts, csv, and
//! every refusal with exit 2 and a message naming the flag.

use crate::common::{assert_exit, idabench, text, Tmp};

fn tree(args: &[&str]) -> std::process::Output {
    let tmp = Tmp::new("tree");
    let mut all = vec!["tree"];
    all.extend_from_slice(args);
    idabench(tmp.path(), &all)
}

/// The factor printed on the text output's last line.
fn factor(stdout: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("asymptotic branching factor: "))
        .expect("a factor line");
    line["asymptotic branching factor: ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn reverse_pruning_gives_edelkamp_and_korfs_factors() {
    // The 15-puzzle's 2.1304 (Edelkamp & Korf, AAAI 1998) and the 24-puzzle's 2.36762.
    for (size, b) in [("4x4", 2.1304), ("5x5", 2.36762)] {
        let out = tree(&["--size", size, "--pruning", "reverse", "--depth", "6"]);
        assert_exit(&out, 0);
        let got = factor(&text(&out.stdout));
        assert!((got - b).abs() < 1e-4, "{size}: {got}");
    }
}

/// The automata's factors as docs/pruning.md gives them: a builder that stays sound but prunes
/// otherwise (another sequence kept, the box rule changed) moves them.
#[test]
fn automata_give_the_documented_factors() {
    for (size, depth, b) in [
        ("3x3", "fsm10", 1.614991146),
        ("4x4", "fsm10", 2.037148013),
        ("5x5", "fsm8", 2.324484383),
    ] {
        let out = tree(&["--size", size, "--pruning", depth, "--depth", "6"]);
        assert_exit(&out, 0);
        let got = factor(&text(&out.stdout));
        assert!((got - b).abs() < 1e-8, "{size} {depth}: {got}");
    }
}

#[test]
fn counts_are_exact_and_csv_is_a_table() {
    // From a corner of 4x4 with reverse-move pruning: 2 moves, then 2 from each of the two
    // edge cells (3 moves, one back); then 10 and 24, as a walk of the tree counts them (the
    // unit tests compare the classes with that walk).
    let out = tree(&[
        "--size",
        "4x4",
        "--pruning",
        "reverse",
        "--depth",
        "4",
        "--format",
        "csv",
    ]);
    assert_exit(&out, 0);
    let csv = text(&out.stdout);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["depth", "nodes", "ratio", "branching_factor"]);
    let nodes: Vec<&str> = rows[1..].iter().map(|r| r[1]).collect();
    assert_eq!(nodes, ["1", "2", "4", "10", "24"]);
    assert_eq!(rows[4][2], "2.500000000");
    // A duplicate-pruning automaton prunes at least what reverse-move pruning does.
    let fsm = tree(&[
        "--size",
        "4x4",
        "--pruning",
        "fsm8",
        "--depth",
        "3",
        "--blank",
        "5",
    ]);
    assert_exit(&fsm, 0);
    let reverse = tree(&[
        "--size",
        "4x4",
        "--pruning",
        "reverse",
        "--depth",
        "3",
        "--blank",
        "5",
    ]);
    assert!(factor(&text(&fsm.stdout)) < factor(&text(&reverse.stdout)) - 0.01);
}

#[test]
fn bad_arguments_exit_2_naming_the_flag() {
    for (args, needle) in [
        (
            vec!["--size", "4y4", "--pruning", "none", "--depth", "3"],
            "--size",
        ),
        (
            vec!["--size", "1x4", "--pruning", "none", "--depth", "3"],
            "--size",
        ),
        (
            vec![
                "--size",
                "3x3",
                "--blank",
                "9",
                "--pruning",
                "none",
                "--depth",
                "3",
            ],
            "--blank",
        ),
        (
            vec![
                "--size",
                "3x3",
                "--blank=-1",
                "--pruning",
                "none",
                "--depth",
                "3",
            ],
            "--blank",
        ),
        (
            vec!["--size", "3x3", "--pruning", "none", "--depth", "0"],
            "--depth",
        ),
        (
            vec!["--size", "3x3", "--pruning", "fsm1", "--depth", "3"],
            "--pruning",
        ),
        (
            vec!["--size", "3x3", "--pruning", "on", "--depth", "3"],
            "--pruning",
        ),
        (vec!["--size", "3x3", "--pruning", "none"], "--depth"),
        (
            vec!["--size", "3x3", "--pruning", "none", "--depth", "10001"],
            "--depth",
        ),
    ] {
        let out = tree(&args);
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains(needle),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}
