//! The Rotation Game, Booksort and Knight's Spirit through the command line: solve, the judges'
//! formats on stdin, generate, and run on the bundled datasets; the pancakes, burnt pancakes and
//! defined puzzles through run, split, shards and merge, compare and ab, as the tiles go.

use crate::common::{
    assert_exit, command, csv_rows, dataset, idabench, root, rows_without_times, show, text,
    with_stdin, Tmp, BIN,
};
use std::path::Path;
use std::process::Output;

fn judge(cwd: &Path, problem: &str, input: &str) -> Output {
    let args = ["solve", "--format", "judge", "--problem", problem];
    with_stdin(command(cwd, &args), input.as_bytes())
}

fn field(out: &Output, key: &str) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no {key} in {text}"))
        .trim()
        .to_string()
}

#[test]
fn solve_each_domain_with_its_default_heuristic() {
    let tmp = Tmp::new("domains");
    let rotation = idabench(
        tmp.path(),
        &[
            "solve",
            "--domain",
            "rotation",
            "--start",
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3",
        ],
    );
    assert_eq!(field(&rotation, "path"), "AC");
    let books = idabench(
        tmp.path(),
        &["solve", "--domain", "booksort", "--start", "5 4 3 2 1"],
    );
    assert_eq!(field(&books, "length"), "3");
    let far = idabench(
        tmp.path(),
        &[
            "solve",
            "--domain",
            "booksort",
            "--start",
            "6 8 5 3 4 7 2 9 1 10",
        ],
    );
    assert_eq!(field(&far, "status"), "over_cap");
    let knights = idabench(
        tmp.path(),
        &[
            "solve",
            "--domain",
            "knights",
            "--start",
            "10110 01*11 10111 01001 00000",
            "--step",
            "2",
        ],
    );
    assert_eq!(field(&knights, "length"), "7");
    assert_eq!(field(&knights, "optimal_guaranteed"), "true");
    let rotation_step2 = idabench(
        tmp.path(),
        &[
            "solve",
            "--domain",
            "rotation",
            "--start",
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3",
            "--step",
            "2",
        ],
    );
    assert_eq!(field(&rotation_step2, "optimal_guaranteed"), "false");
}

#[test]
fn judge_samples_byte_for_byte() {
    let tmp = Tmp::new("domains");
    let cases = [
        (
            "poj2286",
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n",
            "AC\n2\nDDHH\n2\n",
        ),
        (
            "poj3460",
            "3\n6\n1 3 4 6 2 5\n5\n5 4 3 2 1\n10\n6 8 5 3 4 7 2 9 1 10\n",
            "2\n3\n5 or more\n",
        ),
        (
            "p2324",
            "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n",
            "7\n-1\n",
        ),
        ("p1379", "283104765\n", "4\n"),
        (
            "uva10181",
            "2\n2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n13 1 2 4\n5 0 3 7\n9 6 10 12\n15 8 11 14\n",
            "LLLDRDRDR\nThis puzzle is not solvable.\n",
        ),
    ];
    for (problem, input, expected) in cases {
        let out = judge(tmp.path(), problem, input);
        assert!(
            out.status.success(),
            "{problem}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{problem}");
    }
    let bad = judge(tmp.path(), "poj3460", "1\n3\n1 2\n");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("poj3460"));
}

#[test]
fn generate_and_run_the_fixed_board_domains() {
    let tmp = Tmp::new("domains");
    for args in [
        &["--domain", "rotation", "--count", "5", "--seed", "3"][..],
        &[
            "--domain", "booksort", "--size", "9", "--count", "5", "--seed", "3",
        ],
        &[
            "--domain", "knights", "--count", "5", "--seed", "3", "--walk", "9",
        ],
    ] {
        let mut all = vec!["generate"];
        all.extend_from_slice(args);
        let a = idabench(tmp.path(), &all);
        let b = idabench(tmp.path(), &all);
        assert!(
            a.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&a.stderr)
        );
        assert_eq!(a.stdout, b.stdout, "{args:?}: same seed, same file");
        assert_eq!(String::from_utf8_lossy(&a.stdout).lines().count(), 6);
    }
    let bad = idabench(
        tmp.path(),
        &[
            "generate", "--domain", "booksort", "--size", "16", "--count", "1",
        ],
    );
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bundled_datasets_run_solved_at_their_lengths() {
    let tmp = Tmp::new("domains");
    let out_dir = tmp.path().join("reports");
    let sets: Vec<String> = ["rotation", "booksort", "knights"]
        .iter()
        .map(|d| dataset(&format!("{d}.csv")))
        .collect();
    let mut args = vec!["run"];
    args.extend(sets.iter().map(String::as_str));
    args.extend(["--step", "1,next", "--reverse-pruning", "on,off", "--quiet"]);
    args.extend(["--out", out_dir.to_str().unwrap(), "--name", "all"]);
    let out = idabench(tmp.path(), &args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs = std::fs::read_to_string(out_dir.join("all/runs.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(runs.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (status, length, optimal) = (col("status"), col("length"), col("optimal"));
    let mut rows = 0;
    for row in reader.records() {
        let row = row.unwrap();
        rows += 1;
        if row[optimal].is_empty() {
            assert_eq!(&row[status], "over_cap", "{row:?}");
        } else {
            assert_eq!(&row[status], "solved", "{row:?}");
            assert_eq!(row[length], row[optimal], "{row:?}");
        }
    }
    // 62 instances x (1 heuristic x 2 steps x 2 pruning settings).
    assert_eq!(rows, 248);
}

#[test]
fn burnt_stacks_start_with_a_minus_and_generate_signs() {
    let tmp = Tmp::new("domains");
    // A start whose first token is negative is the start, not an option.
    let up = idabench(
        tmp.path(),
        &[
            "solve",
            "--domain",
            "burnt-pancake",
            "--start",
            "-1 -2 -3 -4",
        ],
    );
    assert_eq!(field(&up, "length"), "8", "{}", show(&up));
    // An unquoted negative start is one value too many.
    let unquoted = idabench(
        tmp.path(),
        &["solve", "--domain", "burnt-pancake", "--start", "-1", "-2"],
    );
    assert_exit(&unquoted, 2);
    assert!(
        text(&unquoted.stderr).contains("quote it (--start \"-1 -2 ...\")"),
        "{}",
        show(&unquoted)
    );
    // A flag where the start belongs is refused as such, not taken for the start.
    let forgot = idabench(
        tmp.path(),
        &[
            "solve",
            "--domain",
            "tiles",
            "--size",
            "3x3",
            "--start",
            "--heuristic",
            "manhattan",
        ],
    );
    assert_exit(&forgot, 2);
    assert!(
        text(&forgot.stderr).contains("--start needs a value, not the flag '--heuristic'"),
        "{}",
        show(&forgot)
    );
    let args = [
        "generate",
        "--domain",
        "burnt-pancake",
        "--size",
        "9",
        "--count",
        "20",
        "--seed",
        "9",
    ];
    let a = idabench(tmp.path(), &args);
    assert_exit(&a, 0);
    assert_eq!(a.stdout, idabench(tmp.path(), &args).stdout);
    let rows = text(&a.stdout);
    assert_eq!(rows.lines().count(), 21);
    assert!(rows
        .lines()
        .skip(1)
        .all(|l| l.starts_with(|c: char| c.is_ascii_digit()) && l.contains(",burnt-pancake,9,")));
    assert!(rows.contains(",-") && rows.contains(" -"), "{rows}");
}

/// Pancakes, burnt pancakes and two defined puzzles (the 2x2x2 in both metrics, TopSpin (8,4))
/// under every step and pruning: a run, the same split inside each search, two shards merged,
/// `compare` of them, and `ab` of this build against itself all agree, job for job.
#[test]
fn the_later_puzzles_split_shard_merge_compare_and_ab_as_the_tiles_do() {
    let tmp = Tmp::new("domains");
    let cube = root().join("puzzles/2x2x2.tws");
    let topspin = root().join("puzzles/topspin-8-4.tws");
    let (cube, topspin) = (cube.to_str().unwrap(), topspin.to_str().unwrap());
    let data = tmp.write(
        "mixed.csv",
        &format!(
            "id,domain,size,start,goal,optimal,puzzle,metric\n\
             p16,pancake,16,2 6 5 7 16 3 9 10 12 15 1 11 4 13 14 8,,13,,\n\
             p12,pancake,,5 9 2 7 1 10 3 8 4 6 12 11,,,,\n\
             b8,burnt-pancake,8,4 -6 1 -3 5 -2 8 7,,9,,\n\
             b12,burnt-pancake,,6 -10 -11 3 -8 -2 5 -7 -12 -9 -1 4,,15,,\n\
             up7,burnt-pancake,7,-1 -2 -3 -4 -5 -6 -7,,14,,\n\
             h7,ksolve,,R U F' R2 U' F R',,,{cube},half\n\
             q8,ksolve,,R U F' R2 U' F R' U,,,{cube},quarter\n\
             t6,ksolve,,T1 T3 T5 T7 T2 T4,,,{topspin},\n"
        ),
    );
    let variants = [
        "--heuristic",
        "gap,misplaced",
        "--step",
        "1,2,next",
        "--pruning",
        "none,reverse,fsm",
    ];
    let run = |name: &str, extra: &[&str]| {
        let mut args = vec!["run", data.as_str()];
        args.extend(variants);
        args.extend(extra);
        args.extend(["--out", "reports", "--name", name, "--quiet"]);
        let out = idabench(tmp.path(), &args);
        assert_exit(&out, 0);
        tmp.run_dir(name)
    };
    let whole = run("whole", &["--jobs", "2"]);
    let mut rows = rows_without_times(&whole);
    rows.sort();
    // 5 stacks x 3 steps x 3 prunings with gap, 3 puzzles x 9 with misplaced; fsm is fsm3 on the
    // pancakes, fsm4 on the others.
    assert_eq!(rows.len(), 8 * 9, "{rows:#?}");
    for r in csv_rows(&whole.join("runs.csv")) {
        // Step 2 guarantees no shortest path here: no move count has a fixed parity.
        if r["step"] == "2" {
            assert!(["solved", "suboptimal"].contains(&&*r["status"]), "{r:?}");
        } else {
            assert_eq!(r["status"], "solved", "{r:?}");
            if !r["optimal"].is_empty() {
                assert_eq!(r["length"], r["optimal"], "{r:?}");
            }
        }
    }
    for file in [
        "report.html",
        "summary.csv",
        "summary.md",
        "cactus.svg",
        "iterations.csv",
    ] {
        assert!(whole.join(file).is_file(), "{file}");
    }
    let split = run("split", &["--jobs", "2", "--split", "2"]);
    let mut split_rows = rows_without_times(&split);
    split_rows.sort();
    assert_eq!(split_rows, rows);
    for k in ["1", "2"] {
        run(&format!("half-{k}"), &["--shard", &format!("{k}/2")]);
    }
    let merge = idabench(
        tmp.path(),
        &[
            "merge",
            "reports/half-1",
            "reports/half-2",
            "--out",
            "reports/merged",
        ],
    );
    assert_exit(&merge, 0);
    let mut merged = rows_without_times(&tmp.run_dir("merged"));
    merged.sort();
    assert_eq!(merged, rows);
    let compare = idabench(tmp.path(), &["compare", "reports/whole", "reports/merged"]);
    assert_exit(&compare, 0);
    assert!(
        text(&compare.stdout).contains("0 of 72 jobs changed"),
        "{}",
        show(&compare)
    );
    let mut ab = command(tmp.path(), &["ab", "--baseline", BIN, data.as_str()]);
    ab.args(variants).args(["--out", "reports/ab", "--quiet"]);
    let ab = ab.output().unwrap();
    assert_exit(&ab, 0);
}
