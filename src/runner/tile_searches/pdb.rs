//! Pattern databases on both kernels: the general board's generic kernel, the fixed 4x4 board's
//! unrolled one and `solve` search the same tree with pdb-663, regular and reflected.

use super::{korf100, length, KORF};
use crate::domains::tiles::pdb::{PatternDbs, PDB_663};
use crate::domains::tiles::{FixedTiles, Grid, Tiles};
use crate::domains::{DomainKind, HeuristicKind, Puzzle, Spec};
use crate::runner::solve::solve;
use crate::search::{
    ida_star, ida_star_fixed, Domain, Limits, Outcome, Pruning, SearchResult, Step,
};
use crate::tables::store;

fn korf_goal() -> Vec<u8> {
    (0..16).collect()
}

/// pdb-663 for `d`, its tables built in memory (once per process: `store::table` keeps them).
fn pdb_663(d: &Tiles, reflect: bool) -> PatternDbs {
    let patterns = d.patterns(PDB_663).unwrap();
    let tables = patterns.iter().map(|p| store::table(p)).collect();
    PatternDbs::new(&patterns, tables, &d.places().cell, reflect)
}

fn puzzle(start: &[u8], goal: &[u8]) -> Puzzle {
    let words = |t: &[u8]| t.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    Puzzle::fixed(DomainKind::Tiles, "4x4", &words(start), Some(&words(goal))).unwrap()
}

fn spec(heuristic: &str) -> Spec {
    Spec {
        heuristic: HeuristicKind::parse(heuristic).unwrap(),
        step: Step::Next,
        pruning: Pruning::Reverse,
    }
}

/// What must agree between two searches: outcome as text, every count.
fn summary<D: Domain>(d: &D, start: &D::State, r: &SearchResult<D::Move>) -> String {
    let outcome = match &r.outcome {
        Outcome::Solved(p) => d.path_string(start, p),
        other => panic!("not solved: {}", matches!(other, Outcome::Wrong(_))),
    };
    format!(
        "{outcome}; generated {} expanded {} iterations {:?} bound {} h0 {}",
        r.stats.generated,
        r.stats.expanded,
        r.stats.iterations,
        r.stats.final_bound,
        r.stats.initial_h
    )
}

/// The same search on the general board (generic kernel), on the fixed 4x4 board (unrolled
/// kernel) and through `solve`: the same path, node counts and iterations, with and without
/// reflection. Korf's easiest instances, to stay cheap on the general board.
#[test]
fn both_kernels_and_both_boards_search_the_same_tree() {
    let d = Tiles::new(4, 4, &korf_goal()).unwrap();
    let fixed = FixedTiles::<4, 4, 16>::new(&d);
    let korf = korf100();
    for reflect in [false, true] {
        let h = pdb_663(&d, reflect);
        let name = if reflect {
            "pdb-663+reflect"
        } else {
            "pdb-663"
        };
        for id in [97, 42, 47, 93, 79, 9] {
            let k = korf.iter().find(|k| k.id == id).unwrap();
            let (tiles, optimal) = (&k.start, &k.optimal);
            let s = d.state(tiles).unwrap();
            let fs = fixed.state(&s);
            let general = ida_star(&d, &h, &s, KORF, Limits::default());
            assert_eq!(length(&general), *optimal, "#{id}");
            let want = summary(&d, &s, &general);
            let unrolled = ida_star_fixed(&fixed, &h, &fs, KORF, Limits::default());
            assert_eq!(summary(&fixed, &fs, &unrolled), want, "#{id} {name}");
            let a = solve(&puzzle(tiles, &korf_goal()), &spec(name), Limits::default()).unwrap();
            assert_eq!(a.stats, general.stats, "#{id} {name}");
            assert_eq!(a.path.as_deref(), want.split(';').next(), "#{id} {name}");
        }
    }
}
