//! Duplicate-pruning automata, each built once per (moves, window, depth) in the process, by
//! `fsm::build_with`, and shared read-only by every search, with what building it took.

use super::fsm;
use crate::search::fsm::{Automaton, Moves};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// An automaton built (or refused) for one (moves, depth).
struct Entry {
    moves: Moves,
    window: Option<(usize, usize)>,
    depth: u32,
    built: Result<&'static Automaton, String>,
    took: Duration,
}

/// What a run's manifest says of an automaton it used.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AutomatonInfo {
    /// The domain it was built for (its `NAME`).
    pub domain: String,
    /// The board (width, height) a walk's automaton was built within; none for moves that are
    /// played everywhere, and in manifests from before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<(usize, usize)>,
    /// The depth asked for (the variant's `fsmN`).
    pub depth: u32,
    /// The depth of the automaton built: the longest move sequences compared.
    pub built_depth: u32,
    pub states: usize,
    pub labels: usize,
    pub bytes: usize,
    pub build_s: f64,
}

impl AutomatonInfo {
    /// The automata of several runs' manifests, each (domain, window, depth) once: a merge's or a
    /// combination's.
    pub fn union<'a>(runs: impl IntoIterator<Item = &'a Vec<AutomatonInfo>>) -> Vec<AutomatonInfo> {
        let mut all: Vec<AutomatonInfo> = Vec::new();
        for a in runs.into_iter().flatten() {
            if !all
                .iter()
                .any(|k| (&k.domain, k.window, k.depth) == (&a.domain, a.window, a.depth))
            {
                all.push(a.clone());
            }
        }
        all
    }
}

static BUILT: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The automaton of depth `depth` over `moves`, built the first time it is asked for. An Err
/// (why none can be had, from the builder) is kept too, and given again.
///
/// Building holds the lock: two searches never build one automaton twice, and a run builds the
/// ones it needs before its first job (`runner::prepare`), so no job's time counts it.
///
/// A walk's automaton is built within `window`, the board's width and height, where it prunes as
/// the unbounded one does: smaller, and faster to build (`fsm::build_with`).
pub fn shared(
    moves: &Moves,
    window: Option<(usize, usize)>,
    depth: u32,
) -> Result<&'static Automaton, String> {
    // Nothing is left half-made by a panic while the lock is held: the poison carries no meaning.
    let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = built
        .iter()
        .find(|e| e.depth == depth && e.window == window && e.moves == *moves)
    {
        return e.built.clone();
    }
    let start = Instant::now();
    let result =
        fsm::build_with(moves, depth, window, &mut |_| {}).map(|a| &*Box::leak(Box::new(a)));
    built.push(Entry {
        moves: moves.clone(),
        window,
        depth,
        built: result.clone(),
        took: start.elapsed(),
    });
    result
}

/// What building the automaton of (`moves`, `depth`) took, once `shared` has built it.
pub fn info(
    domain: &str,
    moves: &Moves,
    window: Option<(usize, usize)>,
    depth: u32,
) -> Option<AutomatonInfo> {
    let built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
    let e = built
        .iter()
        .find(|e| e.depth == depth && e.window == window && e.moves == *moves)?;
    let a = e.built.as_ref().ok()?;
    Some(AutomatonInfo {
        domain: domain.to_string(),
        window,
        depth,
        built_depth: a.depth(),
        states: a.states(),
        labels: a.labels(),
        bytes: a.bytes(),
        build_s: e.took.as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_automaton_is_built_once_per_moves_and_depth() {
        let walk = Moves::Walk(vec![(0, -1), (-1, 0), (1, 0), (0, 1)]);
        let a = shared(&walk, None, 5).unwrap();
        assert!(std::ptr::eq(a, shared(&walk, None, 5).unwrap()));
        let other = Moves::Walk(vec![(0, 1), (-1, 0), (1, 0), (0, -1)]);
        assert!(!std::ptr::eq(a, shared(&other, None, 5).unwrap()));
        let info = info("tiles", &walk, None, 5).unwrap();
        assert_eq!((info.depth, info.states, info.labels), (5, a.states(), 4));
        assert_eq!(info.bytes, a.bytes());
        assert!(info.built_depth >= 2);
        assert_eq!(super::info("tiles", &walk, None, 6), None);
    }

    /// A merge keeps one automaton per (domain, board, depth): boards of one run have theirs.
    #[test]
    fn a_union_keeps_each_board_once() {
        let walk = Moves::Walk(vec![(0, -1), (-1, 0), (1, 0), (0, 1)]);
        shared(&walk, Some((3, 3)), 8).unwrap();
        shared(&walk, Some((4, 4)), 8).unwrap();
        let three = info("tiles", &walk, Some((3, 3)), 8).unwrap();
        let four = info("tiles", &walk, Some((4, 4)), 8).unwrap();
        assert_eq!((three.window, four.window), (Some((3, 3)), Some((4, 4))));
        let runs = [vec![three.clone(), four.clone()], vec![four.clone()]];
        assert_eq!(AutomatonInfo::union(&runs), [three, four]);
    }
}
