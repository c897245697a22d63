//! Duplicate pruning by finite-state machine (Taylor & Korf 1993): the automaton the search carries
//! down the tree in place of the last move, and what a domain tells the builder about its moves.
//!
//! Each move has a label (its place in the domain's move order: the blank's direction on the
//! tiles, the move's index on the Rotation Game). The automaton reads the labels of the path so
//! far and answers, for the next move, the state after it or `FORBIDDEN` when the path would then
//! end in a sequence that another sequence, first in the search's move order, replaces.

/// The answer of `Automaton::next` for a move the automaton forbids.
pub const FORBIDDEN: u32 = u32::MAX;

/// A deterministic automaton over move labels: a dense table, `labels` entries per state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    labels: usize,
    /// `next[state * labels + label]`: the state after the move, or `FORBIDDEN`.
    next: Box<[u32]>,
    /// The length of the longest move sequence compared when it was built (2: reverse moves
    /// only).
    depth: u32,
}

impl Automaton {
    /// The state at the start of a search.
    pub const START: u32 = 0;

    /// An automaton from its table. Every entry is `FORBIDDEN` or a state below
    /// `next.len() / labels`.
    pub fn from_table(labels: usize, next: Box<[u32]>, depth: u32) -> Automaton {
        Automaton::checked(labels, next, depth).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `from_table`, Err (saying what is wrong) for a table that is not an automaton's: one read
    /// from a file.
    pub fn checked(labels: usize, next: Box<[u32]>, depth: u32) -> Result<Automaton, String> {
        if labels == 0 || next.is_empty() || !next.len().is_multiple_of(labels) {
            return Err(format!(
                "a table of {} entries is no whole number of states of {labels} labels",
                next.len()
            ));
        }
        let states = next.len() / labels;
        if let Some(i) = next
            .iter()
            .position(|&s| s != FORBIDDEN && s as usize >= states)
        {
            return Err(format!(
                "entry {i} leads to state {}, past the last ({})",
                next[i],
                states - 1
            ));
        }
        Ok(Automaton {
            labels,
            next,
            depth,
        })
    }

    /// The depth-2 automaton: it forbids only a move straight after its inverse (`inverse[l]` is
    /// the label that undoes label `l`), which is reverse-move pruning.
    pub fn reverse_only(inverse: &[usize]) -> Automaton {
        let labels = inverse.len();
        // State 0 is the start, state 1 + l follows a move labelled l.
        let mut next = vec![0; (labels + 1) * labels];
        for state in 0..=labels {
            for l in 0..labels {
                next[state * labels + l] = if state > 0 && inverse[state - 1] == l {
                    FORBIDDEN
                } else {
                    1 + l as u32
                };
            }
        }
        Automaton::from_table(labels, next.into_boxed_slice(), 2)
    }

    /// The state after a move labelled `label` from `state`, or `FORBIDDEN`.
    #[inline(always)]
    pub fn next(&self, state: u32, label: usize) -> u32 {
        self.next[state as usize * self.labels + label]
    }

    pub fn states(&self) -> usize {
        self.next.len() / self.labels
    }

    pub fn labels(&self) -> usize {
        self.labels
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Its size in memory.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(&*self.next)
    }

    /// The table, for saving it.
    pub fn table(&self) -> &[u32] {
        &self.next
    }
}

/// What the builder needs to know of a domain's moves, labels in the search's move order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moves {
    /// A blank walks on a rectangular board, each label a step (column, row): the tiles' four
    /// directions, the knight's eight jumps. A sequence can be played from a cell when every cell
    /// it visits is on the board.
    Walk(Vec<(i32, i32)>),
    /// Every move is one fixed permutation of positions (`p[i]`: where the piece at position `i`
    /// goes), playable from every state.
    Permutations(Vec<Vec<u16>>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_2_automaton_forbids_only_the_inverse_of_the_last_move() {
        // Up, left, right, down: up and down undo each other, left and right.
        let a = Automaton::reverse_only(&[3, 2, 1, 0]);
        assert_eq!(a.states(), 5);
        for l in 0..4 {
            assert_ne!(a.next(Automaton::START, l), FORBIDDEN);
        }
        let after_up = a.next(Automaton::START, 0);
        assert_eq!(a.next(after_up, 3), FORBIDDEN);
        for l in 0..3 {
            assert_ne!(a.next(after_up, l), FORBIDDEN);
        }
        let after_left = a.next(after_up, 1);
        assert_eq!(a.next(after_left, 2), FORBIDDEN);
        assert_ne!(a.next(after_left, 3), FORBIDDEN);
    }

    #[test]
    fn pruning_names_read_back() {
        use crate::search::Pruning;
        for p in [
            Pruning::None,
            Pruning::Reverse,
            Pruning::Fsm(2),
            Pruning::Fsm(22),
        ] {
            assert_eq!(Pruning::parse(&p.name()), Some(p));
        }
        assert_eq!(Pruning::parse("fsm"), Some(Pruning::FsmDefault));
        assert_eq!(Pruning::FsmDefault.or_depth(8), Pruning::Fsm(8));
        assert_eq!(Pruning::Reverse.or_depth(8), Pruning::Reverse);
        for bad in ["fsm1", "fsm33", "fsm-3", "fsmx", "Reverse", ""] {
            assert_eq!(Pruning::parse(bad), None, "{bad}");
        }
    }
}
