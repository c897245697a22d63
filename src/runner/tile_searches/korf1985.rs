//! The 15-puzzle: Korf's 1985 node counts, the seed's four cases, every variant on easy states.

use super::{korf100, length, random_walk, KORF};
use crate::domains::tiles::{self, LinearConflict, Manhattan, Misplaced, Tiles};
use crate::domains::Spec;
use crate::domains::{DomainKind, HeuristicKind, Puzzle};
use crate::results::record::Status;
use crate::runner::solve::solve;
use crate::search::{ida_star, Domain, Limits, Outcome, Prune, Pruning, Step, Variant};
use crate::util::rng::Rng;

/// Manhattan, first solution, moves up/left/right/down, no parent regeneration: Korf's own
/// search, whose counts (nodes generated, the start included) were published in 1985.
#[test]
fn korf_1985_node_counts_on_the_ten_easiest() {
    let goal: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &goal).unwrap();
    let manhattan = Manhattan::new(&d);
    let easy = [79, 12, 42, 55, 97, 19, 94, 47, 93, 9];
    let all = korf100();
    assert_eq!(all.len(), 100);
    for id in easy {
        let k = all.iter().find(|k| k.id == id).unwrap();
        let (start, optimal, nodes) = (&k.start, &k.optimal, &k.korf1985_nodes);
        let s = d.state(start).unwrap();
        for step in [Step::Two, Step::Next] {
            let v = Variant {
                step,
                prune: Prune::Reverse,
            };
            let r = ida_star(&d, &manhattan, &s, v, Limits::default());
            assert_eq!(length(&r), *optimal, "#{id}");
            assert_eq!(r.stats.generated, *nodes, "#{id} {step:?}");
            let per_iteration: u64 = r.stats.iterations.iter().map(|i| i.generated).sum();
            assert_eq!(per_iteration, r.stats.generated);
            assert_eq!(r.stats.final_bound, *optimal);
            // The way `run` and `solve` go: the fixed-size board and its kernel.
            let words: Vec<String> = start.iter().map(u8::to_string).collect();
            let goal_words: Vec<String> = goal.iter().map(u8::to_string).collect();
            let puzzle = Puzzle::fixed(
                DomainKind::Tiles,
                "4x4",
                &words.join(" "),
                Some(&goal_words.join(" ")),
            )
            .unwrap();
            let spec = Spec {
                heuristic: HeuristicKind::parse("manhattan").unwrap(),
                step,
                pruning: Pruning::Reverse,
                cost: crate::domains::cost::CostModel::Unit,
            };
            let a = solve(&puzzle, &spec, Limits::default()).unwrap();
            assert_eq!(a.status, Status::Solved, "#{id}");
            assert_eq!(a.length, Some(*optimal), "#{id}");
            assert_eq!(a.stats, r.stats, "#{id} {step:?}");
            let general_path = match &r.outcome {
                Outcome::Solved(p) => d.path_string(&s, p),
                _ => unreachable!("solved above"),
            };
            assert_eq!(a.path, Some(general_path), "#{id}");
        }
    }
}

#[test]
fn seed_cases() {
    let d = Tiles::new(4, 4, &tiles::default_goal(16)).unwrap();
    let linear_conflict = LinearConflict::new(&d);
    let cases = [
        ("11 3 1 7 4 6 8 2 15 9 10 13 14 12 5 0", 56),
        ("14 10 6 0 4 9 1 8 2 3 5 11 12 13 7 15", 49),
        ("0 5 15 14 7 9 6 13 1 2 12 10 8 11 4 3", 62),
        ("6 10 3 15 14 8 7 11 5 1 0 2 13 12 9 4", 48),
    ];
    let v = KORF;
    for (start, optimal) in cases {
        let s = d
            .state(&tiles::parse_permutation(start, 16).unwrap())
            .unwrap();
        let r = ida_star(&d, &linear_conflict, &s, v, Limits::default());
        assert_eq!(length(&r), optimal, "{start}");
    }
}

/// Random walks from the goal give easy states; every variant must agree with the optimum.
#[test]
fn every_variant_on_easy_fifteen_puzzle_states() {
    let d = Tiles::new(4, 4, &tiles::default_goal(16)).unwrap();
    let manhattan = Manhattan::new(&d);
    let linear_conflict = LinearConflict::new(&d);
    let mut rng = Rng::new(2024);
    for _ in 0..12 {
        let s = random_walk(&d, &mut rng, 30);
        let optimal = length(&ida_star(&d, &linear_conflict, &s, KORF, Limits::default()));
        for step in Step::ALL {
            let on = Variant {
                step,
                prune: Prune::Reverse,
            };
            let off = Variant {
                step,
                prune: Prune::None,
            };
            let md_on = ida_star(&d, &manhattan, &s, on, Limits::default());
            let md_off = ida_star(&d, &manhattan, &s, off, Limits::default());
            let lc_on = ida_star(&d, &linear_conflict, &s, on, Limits::default());
            let lc_off = ida_star(&d, &linear_conflict, &s, off, Limits::default());
            for r in [&md_on, &md_off, &lc_on, &lc_off] {
                assert_eq!(length(r), optimal);
            }
            // A policy that overshoots may meet another solution first without pruning.
            if !step.overshoots() {
                assert!(md_off.stats.generated >= md_on.stats.generated);
                assert!(lc_off.stats.generated >= lc_on.stats.generated);
            }
            if optimal <= 20 {
                let mp = ida_star(&d, &Misplaced, &s, on, Limits::default());
                assert_eq!(length(&mp), optimal);
            }
        }
    }
}

#[test]
fn limits_stop_the_search_with_the_counts_reached() {
    let goal: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &goal).unwrap();
    let manhattan = Manhattan::new(&d);
    let start = korf100().into_iter().find(|k| k.id == 1).unwrap().start;
    let s = d.state(&start).unwrap();
    let v = KORF;
    let limits = Limits {
        max_nodes: Some(100_000),
        ..Limits::default()
    };
    let r = ida_star(&d, &Misplaced, &s, v, limits);
    assert_eq!(r.outcome, Outcome::NodeLimit);
    assert!(r.stats.generated >= 100_000 && r.stats.generated < 100_004);
    let limits = Limits {
        max_depth: Some(45),
        ..Limits::default()
    };
    let r = ida_star(&d, &manhattan, &s, v, limits);
    assert_eq!(r.outcome, Outcome::OverCap);
    assert_eq!(r.stats.final_bound, 45);
}
