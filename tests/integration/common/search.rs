//! Searches as the library tests run them: Korf's variant, starts made by random walks, and the
//! length of a solved search.

use idabench::domains::tiles::{TileState, Tiles};
use idabench::search::{Domain, Outcome, Prune, SearchResult, Step, Variant};
use idabench::util::rng::Rng;
use std::fmt::Debug;

/// Korf's search: each threshold the least cost over it, the move back to the parent pruned.
pub const KORF: Variant = Variant {
    step: Step::Next,
    prune: Prune::Reverse,
};

/// The length of the path a search found; a search that found none fails the test.
pub fn length<M: Debug>(r: &SearchResult<M>) -> u32 {
    match &r.outcome {
        Outcome::Solved(p) => p.len() as u32,
        other => panic!("not solved: {other:?}"),
    }
}

/// The state `moves` random moves (any of them, the way back too) from the goal of `d`.
pub fn random_walk(d: &Tiles, rng: &mut Rng, moves: usize) -> TileState {
    let mut s = d.goal().clone();
    for _ in 0..moves {
        let options = d.moves(&s);
        let m = options[rng.below(options.len() as u64) as usize];
        d.apply(&mut s, m);
    }
    s
}
