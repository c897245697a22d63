//! Puzzles defined by a KSolve/twsearch file through the command line: solve, generate and run
//! with the `puzzle` column, the definition's SHA-256 checked by resume and compare, and a
//! malformed file refused with its line.

use crate::common::{assert_exit, idabench, root, show, text, Tmp};

fn cube2() -> String {
    std::fs::read_to_string(root().join("puzzles/2x2x2.tws")).unwrap()
}

fn field(out: &std::process::Output, key: &str) -> String {
    text(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no {key} in {}", show(out)))
        .trim()
        .to_string()
}

#[test]
fn solve_in_both_metrics() {
    let tmp = Tmp::new("ksolve");
    let file = tmp.write("cube.tws", &cube2());
    let start = "R U F' R2 U' F";
    let half = idabench(tmp.path(), &["solve", "--puzzle", &file, "--start", start]);
    assert_exit(&half, 0);
    assert_eq!(field(&half, "length"), "6");
    let quarter = [
        "solve", "--puzzle", &file, "--metric", "quarter", "--start", start,
    ];
    let quarter = idabench(tmp.path(), &quarter);
    assert_exit(&quarter, 0);
    assert_eq!(field(&quarter, "length"), "7");
    // Every quarter-metric move is a quarter turn.
    let path = field(&quarter, "path");
    assert!(path.split(' ').all(|m| !m.ends_with('2')), "{path}");
}

/// A database of every corner of the 2x2x2 is the distance: the search walks the solution and
/// no further. It is built into --pdb-dir, listed and verified there, and read back with
/// --no-build; a set the puzzle lacks is refused naming it.
#[test]
fn a_pattern_database_is_built_kept_and_checked() {
    let tmp = Tmp::new("ksolve");
    let file = tmp.write("cube.tws", &cube2());
    let dir = tmp.path().join("pdbs");
    let dir = dir.to_str().unwrap();
    let solve = |heuristic: &str, build: bool| {
        let mut args = vec![
            "solve",
            "--puzzle",
            &file,
            "--start",
            "R U F' R2 U' F R' U2",
            "--heuristic",
            heuristic,
            "--pdb-dir",
            dir,
        ];
        if !build {
            args.push("--no-build");
        }
        idabench(tmp.path(), &args)
    };
    let built = solve("pdb-CORNERS", true);
    assert_exit(&built, 0);
    assert_eq!(field(&built, "length"), "8");
    assert_eq!(field(&built, "nodes_expanded"), "8");
    // Another spelling of the same pieces reads the same table.
    let again = solve("pdb-CORNERS.1-7", false);
    assert_exit(&again, 0);
    assert_eq!(field(&again, "nodes_expanded"), "8");
    let list = idabench(tmp.path(), &["pdb", "list", "--pdb-dir", dir]);
    assert_exit(&list, 0);
    assert!(
        text(&list.stdout).contains("ksolve-cube-half-pdb-CORNERS-"),
        "{}",
        show(&list)
    );
    let verify = idabench(tmp.path(), &["pdb", "verify", "--pdb-dir", dir]);
    assert_exit(&verify, 0);
    let missing = solve("pdb-EDGES", true);
    assert_exit(&missing, 2);
    let err = text(&missing.stderr);
    assert!(
        err.contains("pdb-EDGES: cube has no set 'EDGES' (its sets: CORNERS)"),
        "{err}"
    );
}

#[test]
fn a_malformed_definition_is_refused_with_its_line() {
    let tmp = Tmp::new("ksolve");
    let bad = tmp.write("bad.tws", &cube2().replace("Move F", "Twist F"));
    let out = idabench(tmp.path(), &["solve", "--puzzle", &bad, "--start", "R"]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("bad.tws:22: unknown keyword `Twist`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Generated walks run solved; a run of a changed definition file is not resumed or compared.
#[test]
fn the_definition_file_is_part_of_the_dataset() {
    let tmp = Tmp::new("ksolve");
    let file = tmp.write("cube.tws", &cube2());
    let data = tmp.at("walks.csv");
    let generate = [
        "generate", "--puzzle", &file, "--count", "6", "--walk", "7", "--seed", "5", "--out", &data,
    ];
    assert_exit(&idabench(tmp.path(), &generate), 0);
    let csv = std::fs::read_to_string(&data).unwrap();
    assert!(
        csv.starts_with("id,domain,size,start,goal,optimal,puzzle,metric\n"),
        "{csv}"
    );
    assert!(
        csv.lines().skip(1).all(|l| l.ends_with(",cube.tws,half")),
        "{csv}"
    );
    let out = tmp.out();
    let run = |name: &str, resume: bool| {
        let mut args = vec![
            "run", &data, "--jobs", "1", "--quiet", "--out", &out, "--name", name,
        ];
        if resume {
            args.push("--resume");
        }
        idabench(tmp.path(), &args)
    };
    assert_exit(&run("first", false), 0);
    let manifest = std::fs::read_to_string(tmp.run_dir("first").join("manifest.json")).unwrap();
    assert!(manifest.contains("\"puzzles\""), "{manifest}");
    assert!(manifest.contains("cube.tws"), "{manifest}");
    let runs = std::fs::read_to_string(tmp.run_dir("first").join("runs.csv")).unwrap();
    assert_eq!(runs.matches(",solved,").count(), 6, "{runs}");
    // A comment changes the file's bytes, not the puzzle.
    std::fs::write(&file, format!("# edited\n{}", cube2())).unwrap();
    let resumed = run("first", true);
    assert_exit(&resumed, 2);
    assert!(
        text(&resumed.stderr).contains("puzzle definition"),
        "{}",
        show(&resumed)
    );
    assert_exit(&run("second", false), 0);
    let (a, b) = (tmp.run_dir("first"), tmp.run_dir("second"));
    let compare = idabench(
        tmp.path(),
        &["compare", a.to_str().unwrap(), b.to_str().unwrap()],
    );
    assert_ne!(compare.status.code(), Some(0), "{}", show(&compare));
    assert!(
        text(&compare.stderr).contains("puzzle cube.tws"),
        "{}",
        show(&compare)
    );
}
