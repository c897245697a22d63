//! The duplicate-pruning automaton's builder (Taylor & Korf, AAAI 1993): move sequences compared
//! by effect, the later of two forbidden, the forbidden ones compiled into `search::fsm::Automaton`.
//!
//! Sequences of up to `depth` moves are met in the search's order, by length and then by labels
//! (`find`). A sequence whose effect an earlier one already has is forbidden, and not extended:
//! any longer sequence holding it holds a forbidden one. The earlier sequence is its replacement;
//! since it comes first in the search's order, the first shortest path in that order (the one IDA*
//! returns, the judges' dictionary-order answer) never holds a forbidden sequence, so it is never
//! pruned.
//!
//! On a walk (the tiles, the knight) a sequence can be played from a cell only when every cell it
//! visits is on the board, and the replacement must be playable wherever the forbidden sequence
//! is. The rule: a sequence is forbidden only by an earlier one whose cells lie within the
//! smallest box around its own cells; such a one can be played wherever it can, on every board.
//! (A replacement that leaves the box is passed over for a later one that stays inside; when none
//! does, the sequence is kept, and later sequences with its effect may be forbidden in its favour.)
//!
//! The forbidden sequences are compiled by Aho and Corasick's construction: a trie of them, its
//! failure links, flattened into the dense table `Automaton::next`; a move that completes a
//! forbidden sequence, or whose failure completes one, is `FORBIDDEN`. States are numbered breadth
//! first, labels in order, so that the depth-2 automaton of the tiles or the knight is
//! `Automaton::reverse_only` entry for entry.

mod find;
pub mod tree;

pub use find::Estimate;

use crate::search::fsm::{Automaton, Moves, FORBIDDEN};

/// How far a build has come: reported once per sequence length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The length whose sequences were just compared.
    pub length: u32,
    /// The automaton's depth, the last length.
    pub depth: u32,
    /// Sequences of this length compared (none of them holding a shorter forbidden one).
    pub sequences: u64,
    /// Forbidden sequences found so far, of every length.
    pub forbidden: u64,
}

/// A forbidden sequence and the earlier one that replaces it, as lists of labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub forbidden: Vec<usize>,
    pub kept: Vec<usize>,
}

/// The automaton that forbids every sequence of up to `depth` moves that an earlier one replaces.
/// Err (saying why) for moves it cannot compare or an automaton too large for memory.
pub fn build(moves: &Moves, depth: u32) -> Result<Automaton, String> {
    build_with(moves, depth, None, &mut |_| {})
}

/// `build`, with walks compared only within a `window` (width, height): on a board of that size
/// or smaller, no sequence spanning more can be played, so the automaton prunes the same there as
/// `build`'s and is smaller and faster to build. It is sound on any board. `progress` hears of
/// each length as it is finished.
///
/// A depth whose tables are forecast (`estimate`) to pass 4 GiB is refused once the first
/// lengths have shown the growth, before the large ones are met: in well under a second.
pub fn build_with(
    moves: &Moves,
    depth: u32,
    window: Option<(usize, usize)>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Automaton, String> {
    let packing = check(moves, depth)?;
    let found =
        find::forbidden_pairs(moves, depth, window, &packing, progress, find::Until::Built)?;
    compile(&packing, labels(moves), &found.pairs, depth)
}

/// What `build_with` would hold, without building: the lengths of up to 2^14 sequences are
/// searched (a fraction of a second), and the growth they show carried on to `depth`; a build
/// that short is measured. Err where `build_with` would refuse, naming the depth that fits.
pub fn estimate(
    moves: &Moves,
    depth: u32,
    window: Option<(usize, usize)>,
) -> Result<Estimate, String> {
    let packing = check(moves, depth)?;
    let found = find::forbidden_pairs(
        moves,
        depth,
        window,
        &packing,
        &mut |_| {},
        find::Until::Forecast,
    )?;
    Ok(found.estimate)
}

/// Every minimal forbidden sequence of up to `depth` moves with its replacement, in the order
/// they are met: what `build_with` compiles, for checking it.
pub fn duplicates(
    moves: &Moves,
    depth: u32,
    window: Option<(usize, usize)>,
) -> Result<Vec<Duplicate>, String> {
    let packing = check(moves, depth)?;
    let found = find::forbidden_pairs(
        moves,
        depth,
        window,
        &packing,
        &mut |_| {},
        find::Until::Built,
    )?;
    Ok(found
        .pairs
        .iter()
        .map(|p| Duplicate {
            forbidden: packing.unpack(p.forbidden),
            kept: packing.unpack(p.kept),
        })
        .collect())
}

fn labels(moves: &Moves) -> usize {
    match moves {
        Moves::Walk(steps) => steps.len(),
        Moves::Permutations(perms) => perms.len(),
    }
}

/// Refuses moves that cannot be compared, and a depth whose sequences do not fit the packing.
fn check(moves: &Moves, depth: u32) -> Result<Packing, String> {
    if depth == 0 {
        return Err("an automaton's depth is 1 or more".into());
    }
    let labels = labels(moves);
    if labels == 0 {
        return Err("no moves".into());
    }
    match moves {
        Moves::Walk(steps) => {
            if let Some(i) = steps.iter().position(|&s| s == (0, 0)) {
                return Err(format!("step {} of the walk does not move", i + 1));
            }
            let longest = steps
                .iter()
                .map(|&(x, y)| x.unsigned_abs().max(y.unsigned_abs()))
                .max()
                .unwrap_or(0);
            // Relative cells are kept in i8 and their grid numbered in u16.
            if u64::from(longest) * u64::from(depth) > 127 {
                return Err(format!(
                    "a walk of {depth} steps of up to {longest} cells leaves the {} cells the \
                     builder tracks each way",
                    127
                ));
            }
        }
        Moves::Permutations(perms) => {
            let n = perms[0].len();
            for (i, p) in perms.iter().enumerate() {
                let mut seen = vec![false; n];
                if p.len() != n
                    || p.iter().any(|&to| {
                        to as usize >= n || std::mem::replace(&mut seen[to as usize], true)
                    })
                {
                    return Err(format!(
                        "move {} is not a permutation of the {n} positions of move 1",
                        i + 1
                    ));
                }
            }
        }
    }
    let packing = Packing::new(labels);
    if u64::from(depth) * u64::from(packing.bits) >= 128 {
        return Err(format!(
            "sequences of {depth} of {labels} moves are too long to compare: at most {}",
            127 / packing.bits
        ));
    }
    Ok(packing)
}

/// A sequence of labels in one number: a leading 1, then each label in `bits` bits.
struct Packing {
    bits: u32,
}

impl Packing {
    const EMPTY: u128 = 1;

    fn new(labels: usize) -> Packing {
        Packing {
            bits: usize::BITS - (labels.max(2) - 1).leading_zeros(),
        }
    }

    fn push(&self, seq: u128, label: usize) -> u128 {
        (seq << self.bits) | label as u128
    }

    fn unpack(&self, seq: u128) -> Vec<usize> {
        let len = (127 - seq.leading_zeros()) / self.bits;
        let mask = (1u128 << self.bits) - 1;
        (0..len)
            .rev()
            .map(|i| ((seq >> (i * self.bits)) & mask) as usize)
            .collect()
    }
}

/// What the automaton may take: 2^32 - 1 is `FORBIDDEN`, and a table of 4 GiB is enough.
const MAX_TABLE_BYTES: usize = 4 << 30;

/// The Aho-Corasick automaton of the forbidden sequences of `pairs`.
fn compile(
    packing: &Packing,
    labels: usize,
    pairs: &[find::Pair],
    depth: u32,
) -> Result<Automaton, String> {
    // The trie: `trie[node * labels + label]`, 0 for no child (the root is no one's child).
    let mut trie: Vec<u32> = vec![0; labels];
    let too_large = |states: usize| {
        format!(
            "the automaton would have more than {states} states ({} GiB): choose a smaller depth",
            MAX_TABLE_BYTES >> 30
        )
    };
    for pair in pairs {
        let word = packing.unpack(pair.forbidden);
        let mut node = 0usize;
        for (i, &label) in word.iter().enumerate() {
            let slot = node * labels + label;
            if i + 1 == word.len() {
                trie[slot] = FORBIDDEN;
            } else if trie[slot] == 0 {
                let new = trie.len() / labels;
                if (new + 1) * labels * 4 > MAX_TABLE_BYTES || new >= FORBIDDEN as usize {
                    return Err(too_large(new));
                }
                trie[slot] = new as u32;
                trie.resize(trie.len() + labels, 0);
                node = new;
            } else {
                node = trie[slot] as usize;
            }
        }
    }
    // Numbered breadth first, children in label order.
    let states = trie.len() / labels;
    let mut order = Vec::with_capacity(states);
    let mut number = vec![0u32; states];
    order.push(0usize);
    let mut i = 0;
    while i < order.len() {
        let node = order[i];
        for &child in &trie[node * labels..(node + 1) * labels] {
            if child != 0 && child != FORBIDDEN {
                number[child as usize] = order.len() as u32;
                order.push(child as usize);
            }
        }
        i += 1;
    }
    let mut next = vec![0u32; states * labels];
    let mut fail = vec![0u32; states];
    for (state, &node) in order.iter().enumerate() {
        for label in 0..labels {
            let child = trie[node * labels + label];
            // Where the failure link would go: the longest proper suffix that is in the trie.
            let fallback = if state == 0 {
                0
            } else {
                next[fail[state] as usize * labels + label]
            };
            next[state * labels + label] = if child == FORBIDDEN {
                FORBIDDEN
            } else if child != 0 {
                let to = number[child as usize];
                // A prefix of a forbidden sequence that ends with another is never reached:
                // forbidden sequences hold no shorter one.
                fail[to as usize] = if fallback == FORBIDDEN { 0 } else { fallback };
                if fallback == FORBIDDEN {
                    FORBIDDEN
                } else {
                    to
                }
            } else {
                fallback
            };
        }
    }
    Ok(Automaton::from_table(
        labels,
        next.into_boxed_slice(),
        depth,
    ))
}

#[cfg(test)]
mod tests;
