//! Walking distance against computations of its own: on every state of the 8-puzzle and of the
//! 2x4 and 4x2 boards, the relaxed distances by their definition, the true distances, Manhattan
//! and the values after each move; along random walks on boards of every shape it takes, the
//! incremental value against the one from scratch; Korf's first ten 15-puzzles solved optimally;
//! boards over 5x5 refused.

use super::{bfs, korf100};
use crate::domains::tiles::{FixedTiles, Grid, Manhattan, Tiles, WalkingDistance};
use crate::domains::Spec;
use crate::domains::{DomainKind, HeuristicKind, Puzzle};
use crate::results::record::Status;
use crate::runner::solve::solve;
use crate::search::{Domain, Heuristic, Limits, Pruning, Step};
use crate::util::rng::Rng;
use std::collections::{HashMap, VecDeque};

/// One direction of the relaxation, by its definition: `line(cell)` is a cell's row (or column)
/// among `lines`; a state is, for each line, how many tiles it holds of each goal line, and the
/// blank's line.
struct Relaxation {
    lines: usize,
    line: Box<dyn Fn(usize) -> usize>,
    /// The goal line of each tile.
    goal_line: Vec<usize>,
    dist: HashMap<(Vec<u8>, usize), u32>,
}

impl Relaxation {
    fn new(lines: usize, line: impl Fn(usize) -> usize + 'static, goal: &[u8]) -> Relaxation {
        let mut goal_line = vec![0; goal.len()];
        for (cell, &t) in goal.iter().enumerate() {
            goal_line[t as usize] = line(cell);
        }
        let mut r = Relaxation {
            lines,
            line: Box::new(line),
            goal_line,
            dist: HashMap::new(),
        };
        // A move takes a tile of any goal line from a line next to the blank's into the blank's.
        let start = r.abstraction(goal);
        let mut queue = VecDeque::from([start.clone()]);
        r.dist.insert(start, 0);
        while let Some((m, blank)) = queue.pop_front() {
            let d = r.dist[&(m.clone(), blank)];
            for from in [blank.wrapping_sub(1), blank + 1] {
                if from >= lines {
                    continue;
                }
                for class in 0..lines {
                    if m[from * lines + class] == 0 {
                        continue;
                    }
                    let mut next = m.clone();
                    next[from * lines + class] -= 1;
                    next[blank * lines + class] += 1;
                    if let std::collections::hash_map::Entry::Vacant(e) =
                        r.dist.entry((next.clone(), from))
                    {
                        e.insert(d + 1);
                        queue.push_back((next, from));
                    }
                }
            }
        }
        r
    }

    fn abstraction(&self, tiles: &[u8]) -> (Vec<u8>, usize) {
        let mut m = vec![0; self.lines * self.lines];
        let mut blank = 0;
        for (cell, &t) in tiles.iter().enumerate() {
            let line = (self.line)(cell);
            if t == 0 {
                blank = line;
            } else {
                m[line * self.lines + self.goal_line[t as usize]] += 1;
            }
        }
        (m, blank)
    }

    fn distance(&self, tiles: &[u8]) -> u32 {
        self.dist[&self.abstraction(tiles)]
    }
}

/// On every state of a `width` x `height` board with `goal`: walking distance is the sum of the
/// relaxed distances, 0 exactly at the goal, at most the true distance, at least Manhattan; after
/// each move it changes by at most 1 and equals the value from scratch.
fn every_state(width: usize, height: usize, goal: &[u8]) {
    let d = Tiles::new(width, height, goal).unwrap();
    let wd = WalkingDistance::new(&d);
    let md = Manhattan::new(&d);
    let rows = Relaxation::new(height, move |cell| cell / width, goal);
    let cols = Relaxation::new(width, move |cell| cell % width, goal);
    let truth = bfs(width, height, goal);
    let mut exceeds_manhattan = 0;
    for (tiles, &dist) in &truth {
        let s = d.state(tiles).unwrap();
        let v = wd.init(&d, &s);
        let h = Heuristic::<Tiles>::estimate(&wd, v);
        assert_eq!(h, rows.distance(tiles) + cols.distance(tiles), "{tiles:?}");
        assert!(h <= dist, "{tiles:?}: {h} > {dist}");
        assert_eq!(h == 0, dist == 0, "{tiles:?}");
        let manhattan = Heuristic::<Tiles>::estimate(&md, md.init(&d, &s));
        assert!(h >= manhattan, "{tiles:?}");
        exceeds_manhattan += (h > manhattan) as usize;
        for &m in d.moves(&s) {
            let after = wd.update(&d, &s, m, v);
            let mut child = s.clone();
            d.apply(&mut child, m);
            assert_eq!(after, wd.init(&d, &child), "{tiles:?} then {m}");
            let h_after = Heuristic::<Tiles>::estimate(&wd, after);
            assert!(h_after.abs_diff(h) <= 1, "{tiles:?} then {m}");
        }
    }
    assert!(
        exceeds_manhattan > 0,
        "{width}x{height}: never above Manhattan"
    );
}

#[test]
fn every_eight_puzzle_state() {
    let n = 9u8;
    every_state(3, 3, &(1..n).chain([0]).collect::<Vec<_>>());
    every_state(3, 3, &(0..n).collect::<Vec<_>>());
    // The blank in the middle: no mirrored table.
    every_state(3, 3, &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
}

#[test]
fn every_two_by_four_state() {
    for (w, h) in [(4, 2), (2, 4)] {
        every_state(w, h, &(1..8).chain([0]).collect::<Vec<_>>());
        every_state(w, h, &(0..8).collect::<Vec<_>>());
    }
}

/// Along a random walk of `moves` from `start`, the incremental value equals the value from
/// scratch at every step.
fn walk<G: Grid>(board: &G, wd: &WalkingDistance, start: G::State, moves: usize, seed: u64)
where
    WalkingDistance: Heuristic<G>,
    <WalkingDistance as Heuristic<G>>::Value: PartialEq + std::fmt::Debug,
{
    let mut rng = Rng::new(seed);
    let mut s = start;
    let mut v = wd.init(board, &s);
    for step in 0..moves {
        let options = board.moves(&s);
        let m = options[rng.below(options.len() as u64) as usize];
        v = wd.update(board, &s, m, v);
        board.apply(&mut s, m);
        assert_eq!(v, wd.init(board, &s), "step {step}");
    }
}

/// The goal with the blank first and with the blank last.
fn goals(n: usize) -> [Vec<u8>; 2] {
    let n = n as u8;
    [(0..n).collect(), (1..n).chain([0]).collect()]
}

#[test]
fn incremental_values_equal_values_from_scratch() {
    for (w, h) in [
        (3, 3),
        (4, 4),
        (5, 5),
        (3, 4),
        (4, 3),
        (2, 5),
        (5, 2),
        (4, 5),
    ] {
        for goal in goals(w * h) {
            let d = Tiles::new(w, h, &goal).unwrap();
            let wd = WalkingDistance::new(&d);
            walk(&d, &wd, d.goal().clone(), 3000, w as u64 * 10 + h as u64);
            match (w, h) {
                (3, 3) => {
                    let f = FixedTiles::<3, 3, 9>::new(&d);
                    walk(&f, &wd, f.state(d.goal()), 3000, 1);
                }
                (4, 4) => {
                    let f = FixedTiles::<4, 4, 16>::new(&d);
                    walk(&f, &wd, f.state(d.goal()), 3000, 2);
                }
                (5, 5) => {
                    let f = FixedTiles::<5, 5, 25>::new(&d);
                    walk(&f, &wd, f.state(d.goal()), 3000, 3);
                }
                _ => {}
            }
        }
    }
}

/// Korf's 100, #1 to #10, through `solve` (the fixed-size 4x4 board): the published lengths.
#[test]
fn korf_first_ten_optimal() {
    let goal: Vec<String> = (0..16).map(|t| t.to_string()).collect();
    for k in korf100().iter().take(10) {
        let puzzle =
            Puzzle::fixed(DomainKind::Tiles, "4x4", k.tokens, Some(&goal.join(" "))).unwrap();
        let spec = Spec {
            heuristic: HeuristicKind::parse("walking-distance").unwrap(),
            step: Step::Next,
            pruning: Pruning::Reverse,
            cost: crate::domains::cost::CostModel::Unit,
        };
        let a = solve(&puzzle, &spec, Limits::default()).unwrap();
        assert_eq!(a.status, Status::Solved, "#{}", k.id);
        assert_eq!(a.length, Some(k.optimal), "#{}", k.id);
    }
}

#[test]
fn boards_over_five_by_five_are_refused() {
    let spec = Spec {
        heuristic: HeuristicKind::parse("walking-distance").unwrap(),
        step: Step::Next,
        pruning: Pruning::Reverse,
        cost: crate::domains::cost::CostModel::Unit,
    };
    for size in ["6x6", "2x6", "6x3"] {
        let (w, h) = crate::domains::tiles::parse_size(size).unwrap();
        let goal: Vec<String> = (1..w * h).chain([0]).map(|t| t.to_string()).collect();
        let goal = goal.join(" ");
        let puzzle = Puzzle::fixed(DomainKind::Tiles, size, &goal, None).unwrap();
        let e = solve(&puzzle, &spec, Limits::default()).unwrap_err();
        assert!(e.contains("at most 5x5") && e.contains(size), "{e}");
    }
}
