//! The fixed-size boards (3x3, 4x4, 5x5) and their unrolled kernel against the general board and
//! its generic kernel: identical outcomes, paths, node counts and iterations for every heuristic
//! each board searches, threshold step and pruning setting, under node limits and under a depth
//! cap; and blind search's counts against its tree.

use super::summary;
use crate::domains::tiles::{
    FixedTiles, Grid, LinearConflict, Manhattan, Misplaced, TileState, Tiles, WalkingDistance,
};
use crate::search::{
    ida_star, ida_star_fixed, Domain, Heuristic, Limits, Outcome, Prune, Step, Variant, Zero,
};
use crate::util::rng::Rng;

/// A state `moves` random moves from the goal of `d` (never straight back).
fn walk(d: &Tiles, moves: usize, seed: u64) -> TileState {
    let mut rng = Rng::new(seed);
    let mut s = d.goal().clone();
    let mut back = Tiles::NO_MOVE;
    for _ in 0..moves {
        let options: Vec<u8> = d.moves(&s).iter().copied().filter(|&m| m != back).collect();
        let m = options[rng.below(options.len() as u64) as usize];
        back = d.inverse(&s, m);
        d.apply(&mut s, m);
    }
    s
}

/// The general board's generic kernel and the fixed board's unrolled one agree for heuristic
/// `h` on `starts` under every variant.
/// Returns how many searches ended on a limit (nodes or depth).
fn agree<const W: usize, const H: usize, const N: usize, Hr>(
    d: &Tiles,
    h: &Hr,
    starts: &[TileState],
    limits: Limits<'_>,
) -> usize
where
    Hr: Heuristic<Tiles> + Heuristic<FixedTiles<W, H, N>>,
{
    let fixed = FixedTiles::<W, H, N>::new(d);
    let mut limited = 0;
    for s in starts {
        let fs = fixed.state(s);
        for step in Step::ALL {
            for reverse_pruning in [true, false] {
                let v = Variant {
                    step,
                    prune: Prune::reverse(reverse_pruning),
                };
                let general = ida_star(d, h, s, v, limits);
                let want = summary(d, s, &general);
                assert_eq!(
                    summary(&fixed, &fs, &ida_star_fixed(&fixed, h, &fs, v, limits)),
                    want,
                    "{W}x{H} {v:?} from {:?}",
                    d.tiles(s)
                );
                if matches!(general.outcome, Outcome::NodeLimit | Outcome::OverCap) {
                    limited += 1;
                }
            }
        }
    }
    limited
}

/// Manhattan, which every fixed board searches, on boards of one size: walks of `deep` moves,
/// searches cut by a depth cap below the solutions and, with `far`, by node limits (below and
/// above the nodes between two looks at the clock) on walks of `far` moves (`plain_agree` cuts
/// the smaller boards' searches).
fn manhattan_agrees<const W: usize, const H: usize, const N: usize>(
    d: &Tiles,
    deep: usize,
    far: Option<usize>,
) where
    FixedTiles<W, H, N>: Grid,
{
    let starts = |moves: usize, seed: u64| -> Vec<TileState> {
        (0..3).map(|i| walk(d, moves, seed + i)).collect()
    };
    let manhattan = Manhattan::new(d);
    let none = Limits::default();
    assert_eq!(
        agree::<W, H, N, _>(d, &manhattan, &starts(deep, 0), none),
        0
    );
    for max_nodes in far.map_or(&[][..], |_| &[500, 300_000]) {
        let cut = Limits {
            max_nodes: Some(*max_nodes),
            ..Limits::default()
        };
        let far = starts(far.unwrap(), 20);
        assert!(
            agree::<W, H, N, _>(d, &manhattan, &far, cut) > 0,
            "{max_nodes}"
        );
    }
    let capped = Limits {
        max_depth: Some(10),
        ..Limits::default()
    };
    assert!(agree::<W, H, N, _>(d, &manhattan, &starts(deep, 0), capped) > 0);
}

/// The other heuristics without databases, which the 3x3 and 4x4 boards search unrolled
/// (`Tiles::with_heuristic`; the 5x5 board only linear conflict of these, and blind search runs
/// on the general board only): walks of `deep` moves for the stronger heuristics, `shallow` for
/// misplaced tiles, which node limits also cut.
fn plain_agree<const W: usize, const H: usize, const N: usize>(
    d: &Tiles,
    deep: usize,
    shallow: usize,
) where
    FixedTiles<W, H, N>: Grid,
{
    let deep: Vec<TileState> = (0..3).map(|i| walk(d, deep, i)).collect();
    let shallow: Vec<TileState> = (0..2).map(|i| walk(d, shallow, 10 + i)).collect();
    let none = Limits::default();
    agree::<W, H, N, _>(d, &LinearConflict::new(d), &deep, none);
    agree::<W, H, N, _>(d, &WalkingDistance::new(d), &deep, none);
    agree::<W, H, N, _>(d, &Misplaced, &shallow, none);
    for max_nodes in [500, 300_000] {
        let cut = Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        };
        assert!(
            agree::<W, H, N, _>(d, &Misplaced, &deep, cut) > 0,
            "{max_nodes}"
        );
    }
}

#[test]
fn eight_puzzle_boards_agree() {
    for goal in [
        [1, 2, 3, 4, 5, 6, 7, 8, 0],
        // Another goal, the blank in the middle (Luogu P1379's).
        [1, 2, 3, 8, 0, 4, 7, 6, 5],
    ] {
        let d = Tiles::new(3, 3, &goal).unwrap();
        manhattan_agrees::<3, 3, 9>(&d, 24, None);
        plain_agree::<3, 3, 9>(&d, 24, 10);
    }
}

#[test]
fn fifteen_puzzle_boards_agree() {
    let korf: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &korf).unwrap();
    manhattan_agrees::<4, 4, 16>(&d, 36, None);
    plain_agree::<4, 4, 16>(&d, 36, 9);
}

#[test]
fn twenty_four_puzzle_boards_agree() {
    let goal: Vec<u8> = (1..25).chain([0]).collect();
    let d = Tiles::new(5, 5, &goal).unwrap();
    manhattan_agrees::<5, 5, 25>(&d, 30, Some(80));
    let deep: Vec<TileState> = (0..3).map(|i| walk(&d, 30, i)).collect();
    agree::<5, 5, 25, _>(&d, &LinearConflict::new(&d), &deep, Limits::default());
}

/// Generated and expanded nodes of blind iterative deepening (bounds 0, 1, ... up to `cap`, the
/// move undoing the last one skipped) from `s`, whose solutions are all longer than `cap`,
/// counted by walking the tree itself: a node within a bound is expanded unless it lies at the
/// cap, and every child of an expanded node is generated.
fn blind_counts(d: &Tiles, s: &TileState, cap: u32) -> (u64, u64) {
    fn below(
        d: &Tiles,
        s: &mut TileState,
        depth: u32,
        bound: u32,
        cap: u32,
        back: u8,
        n: &mut (u64, u64),
    ) {
        assert!(!d.is_goal(s), "a solution within the cap");
        if depth == cap {
            return;
        }
        n.1 += 1;
        for &m in d.moves(s) {
            if m == back {
                continue;
            }
            n.0 += 1;
            if depth < bound {
                let undo = d.inverse(s, m);
                d.apply(s, m);
                below(d, s, depth + 1, bound, cap, undo, n);
                d.apply(s, undo);
            }
        }
    }
    let mut n = (1, 0);
    for bound in 0..=cap {
        below(d, &mut s.clone(), 0, bound, cap, Tiles::NO_MOVE, &mut n);
    }
    n
}

#[test]
fn blind_search_stops_at_the_cap_with_the_counts_of_its_tree() {
    let d = Tiles::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let v = Variant {
        step: Step::One,
        prune: Prune::Reverse,
    };
    for (moves, seed, cap) in [(12, 1, 5), (16, 2, 7), (20, 3, 0)] {
        let s = walk(&d, moves, seed);
        let limits = Limits {
            max_depth: Some(cap),
            ..Limits::default()
        };
        let r = ida_star(&d, &Zero, &s, v, limits);
        assert!(matches!(r.outcome, Outcome::OverCap), "cap {cap}");
        assert_eq!(
            (r.stats.generated, r.stats.expanded),
            blind_counts(&d, &s, cap),
            "cap {cap}"
        );
    }
}
