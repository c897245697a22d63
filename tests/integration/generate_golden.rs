//! `idabench generate` against committed output: the same arguments must give the same bytes on
//! every version, not only twice from one build.
//!
//! The files in tests/data/golden/ were written by the generators before any of them was
//! reworked. A mismatch means datasets that users generated earlier can no longer be made again:
//! fix the generator, do not regenerate the file, unless the format change is deliberate and
//! announced.

use crate::common::{command, root, Tmp};
use std::path::{Path, PathBuf};
use std::process::Output;

/// Each golden file and the `generate` arguments that wrote it.
const GOLDEN: &[(&str, &[&str])] = &[
    ("tiles-all-2x2.csv", &["--size", "2x2", "--all"]),
    (
        "tiles-all-3x2-goal.csv",
        &["--size", "3x2", "--goal", "0 1 2 3 4 5", "--all"],
    ),
    (
        "tiles-random-3x3-default-seed.csv",
        &["--size", "3x3", "--count", "4"],
    ),
    (
        "tiles-random-4x4.csv",
        &["--size", "4x4", "--count", "5", "--seed", "7"],
    ),
    (
        "tiles-walk-4x4.csv",
        &[
            "--size", "4x4", "--count", "5", "--seed", "7", "--walk", "40",
        ],
    ),
    (
        "tiles-walk-5x3.csv",
        &[
            "--size", "5x3", "--count", "3", "--seed", "2", "--walk", "25",
        ],
    ),
    (
        "tiles-random-3x3-goal.csv",
        &[
            "--size",
            "3x3",
            "--goal",
            "1 2 3 8 0 4 7 6 5",
            "--count",
            "5",
            "--seed",
            "11",
        ],
    ),
    (
        "tiles-walk-3x3-goal.csv",
        &[
            "--size",
            "3x3",
            "--goal",
            "1 2 3 8 0 4 7 6 5",
            "--count",
            "5",
            "--seed",
            "11",
            "--walk",
            "15",
        ],
    ),
    (
        "rotation-random.csv",
        &["--domain", "rotation", "--count", "5", "--seed", "2286"],
    ),
    (
        "rotation-walk.csv",
        &[
            "--domain", "rotation", "--count", "5", "--seed", "3", "--walk", "6",
        ],
    ),
    (
        "booksort-random.csv",
        &[
            "--domain", "booksort", "--size", "10", "--count", "5", "--seed", "1",
        ],
    ),
    (
        "booksort-walk.csv",
        &[
            "--domain", "booksort", "--size", "8", "--count", "5", "--seed", "2", "--walk", "3",
        ],
    ),
    (
        "knights-random.csv",
        &["--domain", "knights", "--count", "5", "--seed", "1"],
    ),
    (
        "knights-walk.csv",
        &[
            "--domain", "knights", "--count", "5", "--seed", "12", "--walk", "12",
        ],
    ),
];

fn golden_dir() -> PathBuf {
    root().join("tests/data/golden")
}

/// `generate ARGS...`, run from `cwd`.
fn generate(cwd: &Path, args: &[&str]) -> Output {
    command(cwd, &["generate"])
        .args(args)
        .output()
        .expect("run idabench")
}

/// Where two outputs part, for a message that shows the row instead of two byte dumps.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    let want = String::from_utf8_lossy(want);
    let got = String::from_utf8_lossy(got);
    let mut lines = want.lines().zip(got.lines()).enumerate();
    match lines.find(|(_, (w, g))| w != g) {
        Some((i, (w, g))) => format!("line {}:\n  want {w}\n  got  {g}", i + 1),
        None => format!(
            "{} lines wanted, {} written",
            want.lines().count(),
            got.lines().count()
        ),
    }
}

#[test]
fn generate_writes_the_committed_bytes() {
    let tmp = Tmp::new("golden");
    let mut failures = Vec::new();
    for (file, args) in GOLDEN {
        let want = std::fs::read(golden_dir().join(file)).expect("golden file");
        let out = generate(tmp.path(), args);
        assert!(
            out.status.success(),
            "generate {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        if out.stdout != want {
            failures.push(format!(
                "{file} (generate {}): {}",
                args.join(" "),
                first_difference(&want, &out.stdout)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_golden_file_is_checked() {
    let mut on_disk: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("golden directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".csv"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = GOLDEN.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn out_file_holds_the_committed_bytes() {
    let tmp = Tmp::new("golden");
    let dir = tmp.path();
    let path = dir.join("walk.csv");
    let (file, args) = GOLDEN
        .iter()
        .find(|(f, _)| *f == "tiles-walk-4x4.csv")
        .expect("listed");
    let mut with_out = args.to_vec();
    with_out.extend(["--out", path.to_str().unwrap()]);
    let out = generate(dir, &with_out);
    let written = std::fs::read(&path);
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        written.unwrap(),
        std::fs::read(golden_dir().join(file)).unwrap()
    );
    assert_eq!(
        left,
        ["walk.csv"],
        "only the dataset is left in the directory"
    );
}
