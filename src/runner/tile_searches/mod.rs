//! The searches `run` and `solve` make on the sliding tiles, checked against what lies outside
//! the kernels: exhaustive breadth-first distances, Korf's published counts, Dijkstra's costs
//! under weighted moves, and each other (the general board's generic kernel against the
//! fixed-size boards' unrolled one). They live in the library, not with the integration tests,
//! so that they search with the kernels the library already builds instead of building each
//! (board, heuristic) kernel again in the test binary.

mod checkpoints;
mod fixed_boards;
mod fsm;
mod korf1985;
mod lookups;
mod oracle;
mod pdb;
mod walking;
mod weighted;

use crate::domains::tiles::pattern::Pattern;
use crate::domains::tiles::{Grid, TileState, Tiles};
use crate::search::{Domain, Heuristic, Outcome, Prune, SearchResult, Step, Variant};
use crate::util::rng::Rng;
use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::path::Path;
use std::sync::OnceLock;

/// Korf's search: each threshold the least cost over it, the move back to the parent pruned.
const KORF: Variant = Variant {
    step: Step::Next,
    prune: Prune::Reverse,
};

/// The goal of Korf's instances: the blank first.
const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

/// The length of the path a search found; a search that found none fails the test.
fn length<M: Debug>(r: &SearchResult<M>) -> u32 {
    match &r.outcome {
        Outcome::Solved(p) => p.len() as u32,
        other => panic!("not solved: {other:?}"),
    }
}

/// The state `moves` random moves (any of them, the way back too) from the goal of `d`.
fn random_walk(d: &Tiles, rng: &mut Rng, moves: usize) -> TileState {
    let mut s = d.goal().clone();
    for _ in 0..moves {
        let options = d.moves(&s);
        let m = options[rng.below(options.len() as u64) as usize];
        d.apply(&mut s, m);
    }
    s
}

/// One row of `datasets/korf100.csv`.
struct Korf {
    id: u32,
    /// The start as the dataset writes it: tiles separated by spaces, 0 for the blank.
    tokens: &'static str,
    start: Vec<u8>,
    optimal: u32,
    /// Nodes generated in Korf's 1985 table.
    korf1985_nodes: u64,
}

/// Korf's 100 instances from the bundled dataset, in its order.
fn korf100() -> Vec<Korf> {
    static TEXT: OnceLock<String> = OnceLock::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/korf100.csv");
    TEXT.get_or_init(|| std::fs::read_to_string(path).unwrap())
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&'static str> = line.split(',').collect();
            Korf {
                id: f[0].parse().unwrap(),
                tokens: f[3],
                start: f[3].split(' ').map(|t| t.parse().unwrap()).collect(),
                optimal: f[5].parse().unwrap(),
                korf1985_nodes: f[6].parse().unwrap(),
            }
        })
        .collect()
}

/// The cells next to `cell` on a `w` x `h` board, in the blank's order: up, left, right, down.
/// Written without the library's tables, for the oracle below.
fn neighbours(w: usize, h: usize, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / w, cell % w);
    let mut out = Vec::new();
    if r > 0 {
        out.push(cell - w);
    }
    if c > 0 {
        out.push(cell - 1);
    }
    if c + 1 < w {
        out.push(cell + 1);
    }
    if r + 1 < h {
        out.push(cell + w);
    }
    out
}

/// Distances to `goal` of every state reachable from it (tiles row-major, 0 = blank), by a
/// breadth-first search over plain vectors.
fn bfs(width: usize, height: usize, goal: &[u8]) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::from([(goal.to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let b = s.iter().position(|&t| t == 0).unwrap();
        for nb in neighbours(width, height, b) {
            let mut t = s.clone();
            t.swap(b, nb);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                queue.push_back(t);
            }
        }
    }
    dist
}

/// What two searches of one start must agree on: the outcome as text (the path's letters, or
/// the kind of stop) and every count.
fn summary<D: Domain>(d: &D, start: &D::State, r: &SearchResult<D::Move>) -> String {
    let outcome = match &r.outcome {
        Outcome::Solved(p) => format!("solved {}", d.path_string(start, p)),
        Outcome::Wrong(p) => format!("wrong {}", d.path_string(start, p)),
        Outcome::Unsolvable => "unsolvable".into(),
        Outcome::OverCap => "over the cap".into(),
        Outcome::PastDiameter(d) => format!("past the diameter {d}"),
        Outcome::NodeLimit => "node limit".into(),
        Outcome::TimeLimit(clock) => format!("time limit ({clock:?})"),
        Outcome::Cancelled => "cancelled".into(),
    };
    format!(
        "{outcome}; generated {} expanded {} raises {} iterations {:?} bound {} h0 {} optimal {}",
        r.stats.generated,
        r.stats.expanded,
        r.stats.bpmx_raises,
        r.stats.iterations,
        r.stats.final_bound,
        r.stats.initial_h,
        r.optimal_guaranteed
    )
}

/// A small board, a goal and a partition of its tiles (as goal cells).
struct Small {
    name: &'static str,
    w: usize,
    h: usize,
    goal: &'static [u8],
    groups: &'static [&'static [u8]],
    /// Reflection needs a square board.
    reflect: bool,
    /// The largest change of the estimate across one move, measured: see
    /// `every_small_board_state_is_within_its_distance`.
    largest_change: u8,
}

const SMALL: &[Small] = &[
    Small {
        name: "3x3, blank first, 4+4",
        w: 3,
        h: 3,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        groups: &[&[1, 2, 3, 4], &[5, 6, 7, 8]],
        reflect: true,
        largest_change: 7,
    },
    Small {
        name: "3x3, blank first, 3+3+2",
        w: 3,
        h: 3,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        groups: &[&[1, 2, 3], &[4, 5, 6], &[7, 8]],
        reflect: true,
        largest_change: 5,
    },
    Small {
        name: "3x3, blank last, 4+4",
        w: 3,
        h: 3,
        goal: &[1, 2, 3, 4, 5, 6, 7, 8, 0],
        groups: &[&[0, 1, 2, 3], &[4, 5, 6, 7]],
        reflect: true,
        largest_change: 7,
    },
    Small {
        name: "3x3, blank in the middle, 4+4",
        w: 3,
        h: 3,
        goal: &[1, 2, 3, 8, 0, 4, 7, 6, 5],
        groups: &[&[0, 1, 2, 3], &[5, 6, 7, 8]],
        reflect: true,
        largest_change: 7,
    },
    Small {
        name: "2x4, blank first, 4+3",
        w: 2,
        h: 4,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7],
        groups: &[&[1, 2, 3, 4], &[5, 6, 7]],
        reflect: false,
        largest_change: 9,
    },
    Small {
        name: "2x4, blank last, 4+3",
        w: 2,
        h: 4,
        goal: &[1, 2, 3, 4, 5, 6, 7, 0],
        groups: &[&[0, 1, 2, 3], &[4, 5, 6]],
        reflect: false,
        largest_change: 9,
    },
    Small {
        name: "4x2, blank first, 3+4",
        w: 4,
        h: 2,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7],
        groups: &[&[1, 2, 3], &[4, 5, 6, 7]],
        reflect: false,
        largest_change: 7,
    },
];

impl Small {
    fn blank(&self) -> usize {
        self.goal.iter().position(|&t| t == 0).unwrap()
    }

    /// The patterns of the partition, as the databases read them.
    fn patterns(&self) -> Vec<Pattern> {
        self.groups
            .iter()
            .map(|g| Pattern::new(self.w, self.h, self.blank(), g).unwrap())
            .collect()
    }
}

/// A heuristic's estimate of `s`, computed afresh.
fn estimate<G: Grid, H: Heuristic<G>>(d: &G, h: &H, s: &G::State) -> u32 {
    h.estimate(h.init(d, s))
}

/// Walks `moves` random moves from `start`, checking after each that the value `update` carried
/// from the parent is the one `init` computes afresh. Returns the largest estimate seen and the
/// largest change of the estimate in one move.
fn walk_agrees<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    start: &D::State,
    moves: usize,
    seed: u64,
    what: &str,
) -> (u32, u32)
where
    H::Value: PartialEq + Debug,
{
    let mut rng = Rng::new(seed);
    let mut s = start.clone();
    let mut v = h.init(d, &s);
    let (mut highest, mut change) = (0, 0);
    for step in 0..moves {
        let options = d.moves(&s);
        let m = options[rng.below(options.len() as u64) as usize];
        let before = h.estimate(v);
        v = h.update(d, &s, m, v);
        d.apply(&mut s, m);
        assert_eq!(v, h.init(d, &s), "{what}: move {step}");
        highest = highest.max(h.estimate(v));
        change = change.max(h.estimate(v).abs_diff(before));
    }
    (highest, change)
}
