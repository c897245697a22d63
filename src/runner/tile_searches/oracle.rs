//! The sliding-tile solver against an exhaustive BFS of the 8-puzzle and small boards.

use super::{bfs, length, KORF};
use crate::domains::tiles::{
    self, LinearConflict, Manhattan, Misplaced, TileState, Tiles, Tiles3x3,
};
use crate::search::{
    ida_star, ida_star_fixed, Domain, Heuristic, Limits, Outcome, Prune, SearchResult, Step,
    Variant, Zero,
};
use crate::util::rng::Rng;

fn solve<H: Heuristic<Tiles>>(d: &Tiles, h: &H, s: &TileState, v: Variant) -> SearchResult<u8> {
    ida_star(d, h, s, v, Limits::default())
}

/// Two searches of one start on two types of its board found the same path with the same counts.
fn same<A: Domain, B: Domain>(
    a: &A,
    sa: &A::State,
    ra: &SearchResult<A::Move>,
    b: &B,
    sb: &B::State,
    rb: &SearchResult<B::Move>,
) {
    let pa = match &ra.outcome {
        Outcome::Solved(p) => a.path_string(sa, p),
        _ => panic!("not solved"),
    };
    let pb = match &rb.outcome {
        Outcome::Solved(p) => Some(b.path_string(sb, p)),
        _ => None,
    };
    assert_eq!((Some(pa), &ra.stats), (pb, &rb.stats));
}

fn all_variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for step in Step::ALL {
        for reverse_pruning in [true, false] {
            v.push(Variant {
                step,
                prune: Prune::reverse(reverse_pruning),
            });
        }
    }
    v
}

/// Every 8-puzzle state (about 20 s): `.ci/run` runs it; `cargo test` runs the sample below.
#[test]
#[ignore = "every state of the 8-puzzle: run by .ci/run"]
fn eight_puzzle_every_state_manhattan_and_linear_conflict_are_exact() {
    exact_on(|_, _| true);
}

/// A seeded sixteenth of the 8-puzzle's states, and every state 30 or more moves away.
#[test]
fn eight_puzzle_manhattan_and_linear_conflict_are_exact_on_a_sample() {
    let mut rng = Rng::new(0x8_2026);
    exact_on(|_, dist| dist >= 30 || rng.below(16) == 0);
}

/// Manhattan and linear conflict on the 8-puzzle states that `keep` picks (given each state and
/// its BFS distance, in a fixed order): optimal lengths, linear conflict generating no more than
/// Manhattan, and the fixed-size board's kernel searching as the general one.
fn exact_on(mut keep: impl FnMut(&[u8], u32) -> bool) {
    let goal = tiles::default_goal(9);
    let oracle = bfs(3, 3, &goal);
    assert_eq!(oracle.len(), 181_440);
    // OEIS A089473: the number of 8-puzzle states at each distance.
    let mut histogram = vec![0u32; 32];
    for &dist in oracle.values() {
        histogram[dist as usize] += 1;
    }
    assert_eq!(
        histogram,
        [
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2
        ]
    );
    let d = Tiles::new(3, 3, &goal).unwrap();
    let fixed = Tiles3x3::new(&d);
    let manhattan = Manhattan::new(&d);
    let linear_conflict = LinearConflict::new(&d);
    let mut states: Vec<(&Vec<u8>, u32)> = oracle.iter().map(|(p, &dist)| (p, dist)).collect();
    states.sort();
    let mut checked = 0;
    for (perm, dist) in states {
        if !keep(perm, dist) {
            continue;
        }
        checked += 1;
        let s = d.state(perm).unwrap();
        assert!(d.is_solvable(&s));
        let md = solve(&d, &manhattan, &s, KORF);
        assert_eq!(length(&md), dist, "manhattan on {perm:?}");
        let lc = solve(&d, &linear_conflict, &s, KORF);
        assert_eq!(length(&lc), dist, "linear-conflict on {perm:?}");
        assert!(lc.stats.generated <= md.stats.generated || dist < 2);
        // The fixed-size board and its kernel, which runs use: the same paths and counts.
        let fs = fixed.state(&s);
        let fixed_md = ida_star_fixed(&fixed, &manhattan, &fs, KORF, Limits::default());
        same(&d, &s, &md, &fixed, &fs, &fixed_md);
        let fixed_lc = ida_star_fixed(&fixed, &linear_conflict, &fs, KORF, Limits::default());
        same(&d, &s, &lc, &fixed, &fs, &fixed_lc);
    }
    assert!(checked > 11_000, "{checked} states checked");
}

/// The 8-puzzle with the default goal, and every state (tiles row-major, 0 = blank) with its
/// distance from the BFS oracle, in order.
fn eight_puzzle_states() -> (Tiles, Vec<(Vec<u8>, u32)>) {
    let goal = tiles::default_goal(9);
    let mut states: Vec<(Vec<u8>, u32)> = bfs(3, 3, &goal).into_iter().collect();
    states.sort();
    (Tiles::new(3, 3, &goal).unwrap(), states)
}

#[test]
fn eight_puzzle_heuristics_never_exceed_the_distance_and_misplaced_is_exact_on_a_sample() {
    let (d, states) = eight_puzzle_states();
    let manhattan = Manhattan::new(&d);
    let linear_conflict = LinearConflict::new(&d);
    for (i, &(ref perm, dist)) in states.iter().enumerate() {
        let s = d.state(perm).unwrap();
        let (mp, md, lc) = (
            Heuristic::<Tiles>::estimate(&Misplaced, Misplaced.init(&d, &s)),
            Heuristic::<Tiles>::estimate(&manhattan, manhattan.init(&d, &s)),
            Heuristic::<Tiles>::estimate(&linear_conflict, linear_conflict.init(&d, &s)),
        );
        assert!(
            mp <= md && md <= lc && lc <= dist,
            "{perm:?}: {mp} {md} {lc} > {dist}"
        );
        if i % 181 == 0 {
            let r = solve(&d, &Misplaced, &s, KORF);
            assert_eq!(length(&r), dist, "misplaced on {perm:?}");
        }
    }
}

#[test]
fn eight_puzzle_every_variant_is_optimal_and_pruning_never_saves_nodes_when_off() {
    let (d, states) = eight_puzzle_states();
    let manhattan = Manhattan::new(&d);
    let linear_conflict = LinearConflict::new(&d);
    for &(ref perm, dist) in states.iter().step_by(1009) {
        let s = d.state(perm).unwrap();
        for v in all_variants().into_iter().filter(|v| v.reverse_pruning()) {
            let runs = [
                solve(&d, &Misplaced, &s, v),
                solve(&d, &manhattan, &s, v),
                solve(&d, &linear_conflict, &s, v),
            ];
            for r in &runs {
                assert_eq!(length(r), dist, "{perm:?} {v:?}");
                assert!(r.optimal_guaranteed);
            }
            // Without pruning the tree of a deep state is too large to search in a test.
            if dist <= 18 {
                let off = Variant {
                    prune: Prune::None,
                    ..v
                };
                let off_runs = [
                    solve(&d, &Misplaced, &s, off),
                    solve(&d, &manhattan, &s, off),
                    solve(&d, &linear_conflict, &s, off),
                ];
                for (on, off) in runs.iter().zip(&off_runs) {
                    assert_eq!(length(off), dist, "{perm:?} {v:?} without pruning");
                    // A policy that overshoots may meet another solution first, and search
                    // below it again: its counts need not be smaller with pruning.
                    if !v.step.overshoots() {
                        assert!(off.stats.generated >= on.stats.generated, "{perm:?} {v:?}");
                        assert!(off.stats.expanded >= on.stats.expanded, "{perm:?} {v:?}");
                    }
                }
            }
        }
        if dist <= 14 {
            assert_eq!(
                length(&solve(&d, &Zero, &s, KORF)),
                dist,
                "zero on {perm:?}"
            );
        }
    }
}

/// Small boards of every shape, each with a random goal: parity-based solvability agrees with
/// reachability, and IDA* finds the BFS distance.
#[test]
fn small_boards_with_random_goals_match_bfs() {
    let mut rng = Rng::new(11);
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)] {
        let n = w * h;
        let mut goal: Vec<u8> = (0..n as u8).collect();
        rng.shuffle(&mut goal);
        let oracle = bfs(w, h, &goal);
        let d = Tiles::new(w, h, &goal).unwrap();
        let linear_conflict = LinearConflict::new(&d);
        let mut perm: Vec<u8> = (0..n as u8).collect();
        for _ in 0..300 {
            rng.shuffle(&mut perm);
            let s = d.state(&perm).unwrap();
            assert_eq!(
                d.is_solvable(&s),
                oracle.contains_key(&perm),
                "{w}x{h} {perm:?}"
            );
            if let Some(&dist) = oracle.get(&perm) {
                assert_eq!(length(&solve(&d, &linear_conflict, &s, KORF)), dist);
                let two = Variant {
                    step: Step::Two,
                    prune: Prune::Reverse,
                };
                assert_eq!(length(&solve(&d, &Misplaced, &s, two)), dist);
            }
        }
        assert_eq!(oracle.len() * 2, (1..=n).product::<usize>());
    }
}

#[test]
fn luogu_p1379_goal() {
    let goal = tiles::parse_permutation("1 2 3 8 0 4 7 6 5", 9).unwrap();
    let d = Tiles::new(3, 3, &goal).unwrap();
    let manhattan = Manhattan::new(&d);
    let s = d
        .state(&tiles::parse_permutation("2 8 3 1 0 4 7 6 5", 9).unwrap())
        .unwrap();
    for v in all_variants() {
        assert_eq!(length(&solve(&d, &manhattan, &s, v)), 4);
    }
}

#[test]
fn apply_then_undo_is_the_identity_and_incremental_values_equal_recomputation() {
    let mut rng = Rng::new(5);
    for (w, h) in [(2, 2), (3, 3), (4, 4), (5, 3), (3, 5), (6, 6), (7, 4)] {
        let n = w * h;
        let mut goal: Vec<u8> = (0..n as u8).collect();
        rng.shuffle(&mut goal);
        let d = Tiles::new(w, h, &goal).unwrap();
        let manhattan = Manhattan::new(&d);
        let linear_conflict = LinearConflict::new(&d);
        let mut s = d.goal().clone();
        assert_eq!(manhattan.init(&d, &s), 0);
        assert_eq!(Misplaced.init(&d, &s), 0);
        assert_eq!(
            Heuristic::<Tiles>::estimate(&linear_conflict, linear_conflict.init(&d, &s)),
            0
        );
        let (mut md, mut mp, mut lc) = (
            manhattan.init(&d, &s),
            Misplaced.init(&d, &s),
            linear_conflict.init(&d, &s),
        );
        for _ in 0..2000 {
            let moves = d.moves(&s);
            let m = moves[rng.below(moves.len() as u64) as usize];
            let before = s.clone();
            d.apply(&mut s, m);
            let mut back = s.clone();
            d.apply(&mut back, d.inverse(&before, m));
            assert_eq!(back, before);
            md = manhattan.update(&d, &before, m, md);
            mp = Misplaced.update(&d, &before, m, mp);
            lc = linear_conflict.update(&d, &before, m, lc);
            assert_eq!(md, manhattan.init(&d, &s), "{w}x{h}");
            assert_eq!(mp, Misplaced.init(&d, &s), "{w}x{h}");
            assert_eq!(lc, linear_conflict.init(&d, &s), "{w}x{h}");
            assert!(d.is_solvable(&s));
        }
    }
}
