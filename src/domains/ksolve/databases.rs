//! The heuristic of a defined puzzle's pattern databases: the largest of their entries (and of
//! `misplaced`, when a max names it), each read at a node from the chosen pieces' slots and turns
//! as the move leaves them.
//!
//! A database's entry is a lower bound on the moves to the goal, as the pieces it follows need
//! at least that many, so the largest is one too; consistent as each is. Nothing is carried from
//! a node to its children but the misplaced count: a lookup ranks its pieces afresh, from the
//! parent's slots and the move, which costs one pass over the pattern's set.

use super::pattern::Pattern;
use super::{Ksolve, Misplaced, Position};
use crate::search::Heuristic;
use crate::tables::store;

/// The databases of some patterns of one puzzle, with `misplaced` or not.
pub struct Databases {
    parts: Vec<(Pattern, &'static [u8])>,
    misplaced: Option<Misplaced>,
}

impl Databases {
    /// The databases of `patterns` (from `crate::tables::store`: read or built there before a
    /// run, built in memory here otherwise), and `misplaced` if `with_misplaced`.
    pub fn new(d: &Ksolve, patterns: Vec<Pattern>, with_misplaced: bool) -> Databases {
        let parts = patterns
            .into_iter()
            .map(|p| {
                let table = store::table(&p);
                (p, table)
            })
            .collect();
        Databases {
            parts,
            misplaced: with_misplaced.then(|| Misplaced::of(d)),
        }
    }

    /// The largest entry of `s` after power `m` (of `s` itself: `None`), stopping at the first
    /// that reaches `ceiling`.
    #[inline(always)]
    fn largest(&self, s: &Position, m: Option<u16>, ceiling: u32, from: u32) -> u32 {
        let mut h = from;
        for (p, table) in &self.parts {
            if h >= ceiling {
                break;
            }
            h = h.max(u32::from(table[p.rank_of(s, m) as usize]));
        }
        h
    }
}

/// What a node carries: its estimate, and its misplaced slots when `misplaced` is a part.
#[derive(Clone, Copy, Debug)]
pub struct Looked {
    estimate: u32,
    wrong: u32,
}

impl Heuristic<Ksolve> for Databases {
    type Value = Looked;
    /// A database is 0 wherever its pieces are solved, the others anywhere.
    const GOAL_AWARE: bool = false;
    const PARTIAL: bool = true;

    fn init(&self, d: &Ksolve, s: &Position) -> Looked {
        let wrong = self.misplaced.as_ref().map_or(0, |h| h.init(d, s));
        let floor = self.misplaced.as_ref().map_or(0, |h| h.estimate(wrong));
        Looked {
            estimate: self.largest(s, None, u32::MAX, floor),
            wrong,
        }
    }

    #[inline(always)]
    fn update(&self, d: &Ksolve, s: &Position, m: u16, parent: Looked) -> Looked {
        self.update_below(d, s, m, parent, u32::MAX)
            .expect("no estimate reaches u32::MAX")
    }

    #[inline(always)]
    fn estimate(&self, v: Looked) -> u32 {
        v.estimate
    }

    #[inline(always)]
    fn update_below(
        &self,
        d: &Ksolve,
        s: &Position,
        m: u16,
        parent: Looked,
        ceiling: u32,
    ) -> Option<Looked> {
        let (wrong, floor) = match &self.misplaced {
            Some(h) => {
                let wrong = h.update(d, s, m, parent.wrong);
                (wrong, h.estimate(wrong))
            }
            None => (0, 0),
        };
        let estimate = self.largest(s, Some(m), ceiling, floor);
        (estimate < ceiling).then_some(Looked { estimate, wrong })
    }
}
