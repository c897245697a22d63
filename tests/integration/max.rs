//! Heuristics combined by max: Korf's 100 optimal on a sample with two databases and with
//! Manhattan and walking distance; a max whose part dominates searches exactly as that part, in
//! every family; the same counts on one thread, on two and split; the databases of every part
//! in the manifest; and each bad name or part refused (exit 2). Nothing here asserts on a time.

use crate::common::korf::{counts_alike_on_one_thread_two_and_split, korf100, Korf, KORF_GOAL};
use crate::common::{assert_exit, idabench, text, Tmp};

use idabench::domains::{DomainKind, HeuristicKind, Puzzle, Spec};
use idabench::results::record::Status;
use idabench::runner::solve::{solve, Answer};
use idabench::search::{Limits, Pruning, Step};
use idabench::util::rng::Rng;

fn spec(heuristic: &str) -> Spec {
    Spec {
        heuristic: HeuristicKind::parse(heuristic).unwrap(),
        step: Step::Next,
        pruning: Pruning::Reverse,
        cost: idabench::domains::cost::CostModel::Unit,
    }
}

fn korf(k: &Korf) -> Puzzle {
    Puzzle::fixed(DomainKind::Tiles, "4x4", k.tokens, Some(KORF_GOAL)).unwrap()
}

fn solved(puzzle: &Puzzle, heuristic: &str) -> Answer {
    let a = solve(puzzle, &spec(heuristic), Limits::default()).unwrap();
    assert_eq!(a.status, Status::Solved, "{heuristic}");
    a
}

/// Five of Korf's 100, drawn by a seed among the 40 Korf's search found easiest, have their
/// optimal lengths under the max of pdb-555 and pdb-663 (databases built in memory) and under
/// the max of Manhattan and walking distance; the max of two databases never generates more
/// nodes than the better of them on the last iteration, whose bound both share.
#[test]
fn a_sample_of_korf_100_is_optimal_with_maxes() {
    let mut easy = korf100();
    easy.sort_by_key(|k| k.korf1985_nodes);
    easy.truncate(40);
    Rng::new(26).shuffle(&mut easy);
    for k in &easy[..5] {
        let puzzle = korf(k);
        for h in ["max:pdb-555:pdb-663", "max:manhattan:walking-distance"] {
            assert_eq!(solved(&puzzle, h).length, Some(k.optimal), "#{} {h}", k.id);
        }
        let last = |h: &str| {
            let a = solved(&puzzle, h);
            *a.stats.iterations.last().unwrap()
        };
        let both = last("max:pdb-555:pdb-663");
        for part in ["pdb-555", "pdb-663"] {
            let alone = last(part);
            assert_eq!(alone.bound, both.bound, "#{} {part}", k.id);
            assert!(both.generated <= alone.generated, "#{} {part}", k.id);
        }
    }
}

/// Where one part is never below the others (linear conflict above Manhattan and misplaced
/// tiles; any heuristic above `zero`), the max is that part at every node: the same path and
/// counts, in the order the parts are written or another, with two parts or three, and in
/// every family.
#[test]
fn a_max_searches_as_its_dominant_part() {
    let same = |puzzle: &Puzzle, alone: &str, maxes: &[&str]| {
        let a = solved(puzzle, alone);
        for h in maxes {
            let m = solved(puzzle, h);
            assert_eq!(
                (&m.path, &m.stats),
                (&a.path, &a.stats),
                "{h} against {alone}"
            );
        }
    };
    for k in korf100().iter().filter(|k| [79, 12].contains(&k.id)) {
        same(
            &korf(k),
            "linear-conflict",
            &[
                "max:manhattan:linear-conflict",
                "max:linear-conflict:manhattan",
                "max:misplaced:linear-conflict:zero",
            ],
        );
    }
    for (file, kind, alone) in [
        ("rotation.csv", DomainKind::Rotation, "center"),
        ("booksort.csv", DomainKind::Booksort, "breaks"),
        ("knights.csv", DomainKind::Knights, "misplaced"),
    ] {
        let text = std::fs::read_to_string(crate::common::dataset(file)).unwrap();
        for line in text.lines().skip(1).take(3) {
            let f: Vec<&str> = line.split(',').collect();
            let puzzle = Puzzle::fixed(kind, f[2], f[3], None).unwrap();
            let maxes = [format!("max:{alone}:zero"), format!("max:zero:{alone}")];
            let maxes: Vec<&str> = maxes.iter().map(String::as_str).collect();
            same(&puzzle, alone, &maxes);
        }
    }
}

/// `run` writes the same node counts and lengths for maxes of two parts and of three on one
/// thread, on two, and with every iteration split at depth 3, on four of Korf's easiest
/// instances; the manifest lists each part's databases, as when the part runs alone.
#[test]
fn runs_count_alike_on_one_thread_two_and_split() {
    let tmp = Tmp::new("max-threads");
    let one = counts_alike_on_one_thread_two_and_split(
        &tmp,
        "max:pdb-555:pdb-663,max:linear-conflict:walking-distance:pdb-555+reflect",
    );
    assert_eq!(one.len(), 8);
    assert!(one.iter().all(|r| r.contains(" solved ")), "{one:?}");
    assert!(
        one.iter()
            .any(|r| r.contains(" max:pdb-555:pdb-663/stepnext/prune max:pdb-555:pdb-663 ")),
        "{one:?}"
    );
    let manifest = std::fs::read_to_string(tmp.run_dir("one").join("manifest.json")).unwrap();
    for table in [
        "tiles-4x4-blank0-1.2.4.5.8",
        "tiles-4x4-blank0-3.6.7.10.11",
        "tiles-4x4-blank0-9.12.13.14.15",
        "tiles-4x4-blank0-1.2.4.5.8.9",
        "tiles-4x4-blank0-3.6.7.10.11.15",
        "tiles-4x4-blank0-12.13.14",
    ] {
        assert_eq!(
            manifest.matches(&format!("\"{table}\"")).count(),
            1,
            "{table}: {manifest}"
        );
    }
}

/// Each bad max is a usage error (exit 2) whose message names the part at fault; a part the
/// board refuses says so with its own message, and a missing database's hint builds the
/// part's database.
#[test]
fn bad_maxes_are_refused() {
    let tmp = Tmp::new("max-refused");
    let pdb = tmp.at("pdb");
    let solve = |size: &str, start: &str, h: &str, extra: &[&str]| {
        let mut args = vec![
            "solve",
            "--size",
            size,
            "--start",
            start,
            "--heuristic",
            h,
            "--pdb-dir",
            &pdb,
        ];
        args.extend_from_slice(extra);
        let out = idabench(tmp.path(), &args);
        assert_exit(&out, 2);
        text(&out.stderr)
    };
    let eight = "1 2 3 4 5 6 0 7 8";
    for (h, says) in [
        ("max:manhattan", "a max needs two parts or more"),
        (
            "max:manhattan:fast",
            "unknown part 'fast': expected tiles heuristics:",
        ),
        ("max:manhattan:manhattan", "part 'manhattan' is given twice"),
        ("max:manhattan:max:zero", "a part cannot be a max itself"),
        ("max:manhattan:center", "'center' of rotation"),
        (
            "max:manhattan:pdb-555+random+bpmx",
            "part 'pdb-555+random+bpmx' is searched with bidirectional pathmax",
        ),
        (
            "max:manhattan:pdb-555+random",
            "part 'pdb-555+random' reads",
        ),
        ("max:manhattan:pdb-555", "part 'pdb-555': "),
    ] {
        let err = solve("3x3", eight, h, &[]);
        assert!(err.contains(h) && err.contains(says), "{h}: {err}");
    }
    let fifteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    let err = solve("4x4", fifteen, "max:manhattan:pdb-663", &["--no-build"]);
    assert!(
        err.contains("part 'pdb-663': ") && err.contains("idabench pdb build pdb-663 --goal last"),
        "{err}"
    );
    let built = std::fs::read_dir(&pdb).map_or(0, |d| d.count());
    assert_eq!(built, 0, "--no-build built a database");
}
