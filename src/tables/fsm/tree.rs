//! The brute-force tree of a blank walking on a board under an automaton: how many nodes it has
//! at each depth, and its asymptotic branching factor (Edelkamp & Korf, AAAI 1998).
//!
//! Two nodes at one depth whose blank is on the same cell with the automaton in the same state
//! have subtrees of the same shape, so the tree is counted by classes (cell, state): a vector of
//! counts per class, one product with the class graph per depth, never a walk of the tree.

use crate::search::fsm::{Automaton, FORBIDDEN};
use std::collections::HashMap;

/// The classes reachable from the start and, for each, the classes of its children.
pub struct Classes {
    /// `children[class]`: one entry per child (two moves to one class give two entries).
    children: Vec<Vec<u32>>,
}

/// Nodes per depth, exact while they fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// `nodes[d]`: the nodes at depth d, from 0 on.
    pub nodes: Vec<u128>,
    /// The first depth whose count would not fit in 128 bits, if one was asked for.
    pub overflow: Option<u32>,
}

/// How the asymptotic branching factor came out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Factor {
    /// sqrt(N(d + 2) / N(d)) at the depth `d` where it settled.
    pub value: f64,
    pub depth: u32,
    /// False when it still moved by 1e-9 or more after `MAX_FACTOR_DEPTH` depths.
    pub converged: bool,
}

/// The deepest depth the factor is iterated to.
pub const MAX_FACTOR_DEPTH: u32 = 1_000_000;
/// Settled: successive values differ by less than this, `STILL` times in a row.
pub const TOLERANCE: f64 = 1e-9;
const STILL: u32 = 20;

impl Classes {
    /// The classes of a blank starting on `blank` of a `width` x `height` board (cells row by
    /// row), moving by `steps` (label `l` is `steps[l]`, column and row) as `automaton` allows.
    pub fn new(
        width: usize,
        height: usize,
        blank: usize,
        steps: &[(i32, i32)],
        automaton: &Automaton,
    ) -> Classes {
        assert!(blank < width * height && automaton.labels() == steps.len());
        let mut index: HashMap<(u32, u32), u32> = HashMap::new();
        let mut list = vec![(blank as u32, Automaton::START)];
        index.insert(list[0], 0);
        let mut children = Vec::new();
        let mut i = 0;
        while i < list.len() {
            let (cell, state) = list[i];
            let (x, y) = (
                (cell as usize % width) as i32,
                (cell as usize / width) as i32,
            );
            let mut mine = Vec::new();
            for (label, &(dx, dy)) in steps.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                let next = automaton.next(state, label);
                if nx < 0
                    || ny < 0
                    || nx >= width as i32
                    || ny >= height as i32
                    || next == FORBIDDEN
                {
                    continue;
                }
                let class = (ny as u32 * width as u32 + nx as u32, next);
                let id = *index.entry(class).or_insert_with(|| {
                    list.push(class);
                    list.len() as u32 - 1
                });
                mine.push(id);
            }
            children.push(mine);
            i += 1;
        }
        Classes { children }
    }

    pub fn len(&self) -> usize {
        self.children.len()
    }

    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// The nodes at each depth 0..=depth, exact; counting stops at the first that overflows,
    /// or after the first depth with no node (the tree ends there).
    pub fn counts(&self, depth: u32) -> Counts {
        let mut now = vec![0u128; self.len()];
        now[0] = 1;
        let mut nodes = vec![1u128];
        for d in 1..=depth {
            let mut next = vec![0u128; self.len()];
            let mut total = Some(0u128);
            for (class, &n) in now.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                for &child in &self.children[class] {
                    let slot = &mut next[child as usize];
                    match slot.checked_add(n) {
                        Some(sum) => *slot = sum,
                        None => total = None,
                    }
                    total = total.and_then(|t| t.checked_add(n));
                }
            }
            match total {
                Some(0) => {
                    nodes.push(0);
                    break;
                }
                Some(t) => nodes.push(t),
                None => {
                    return Counts {
                        nodes,
                        overflow: Some(d),
                    }
                }
            }
            now = next;
        }
        Counts {
            nodes,
            overflow: None,
        }
    }

    /// The asymptotic branching factor: sqrt(N(d + 2) / N(d)), the square root because on a
    /// board coloured like a chessboard the one-step ratio alternates with the blank's colour.
    /// Iterated in floating point, the counts scaled to sum 1 at each depth, until it changes by
    /// less than `TOLERANCE` from one depth to the next, at `STILL` depths in a row.
    pub fn factor(&self) -> Factor {
        let mut now = vec![0f64; self.len()];
        now[0] = 1.0;
        let mut ratios = [f64::NAN; 2];
        let mut last = f64::NAN;
        let mut still = 0;
        for d in 1..=MAX_FACTOR_DEPTH {
            let mut next = vec![0f64; self.len()];
            for (class, &n) in now.iter().enumerate() {
                if n != 0.0 {
                    for &child in &self.children[class] {
                        next[child as usize] += n;
                    }
                }
            }
            // `now` sums to 1, so the sum of `next` is the ratio N(d) / N(d - 1).
            let ratio: f64 = next.iter().sum();
            if ratio == 0.0 {
                // A finite tree: nothing grows.
                return Factor {
                    value: 0.0,
                    depth: d,
                    converged: true,
                };
            }
            next.iter_mut().for_each(|n| *n /= ratio);
            now = next;
            ratios = [ratios[1], ratio];
            let b = (ratios[0] * ratios[1]).sqrt();
            // Early depths can repeat a value by chance (from the 3x3 centre: sqrt 2 twice):
            // settled means still for `STILL` depths in a row.
            still = if (b - last).abs() < TOLERANCE {
                still + 1
            } else {
                0
            };
            if still == STILL {
                return Factor {
                    value: b,
                    depth: d - 2,
                    converged: true,
                };
            }
            last = b;
        }
        Factor {
            value: last,
            depth: MAX_FACTOR_DEPTH - 2,
            converged: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::TILES;
    use super::*;
    use crate::search::fsm::Moves;

    /// The tree walked node by node: the oracle.
    fn walk(w: i32, h: i32, blank: i32, a: &Automaton, depth: u32) -> Vec<u128> {
        let mut nodes = vec![0u128; depth as usize + 1];
        let mut stack = vec![(blank, Automaton::START, 0u32)];
        while let Some((cell, state, d)) = stack.pop() {
            nodes[d as usize] += 1;
            if d == depth {
                continue;
            }
            for (l, &(dx, dy)) in TILES.iter().enumerate() {
                let (x, y) = (cell % w + dx, cell / w + dy);
                let next = a.next(state, l);
                if (0..w).contains(&x) && (0..h).contains(&y) && next != FORBIDDEN {
                    stack.push((y * w + x, next, d + 1));
                }
            }
        }
        nodes
    }

    fn none() -> Automaton {
        Automaton::from_table(4, vec![0; 4].into_boxed_slice(), 1)
    }

    #[test]
    fn class_counts_equal_the_tree_walked_node_by_node() {
        let reverse = Automaton::reverse_only(&[3, 2, 1, 0]);
        let fsm = super::super::build(&Moves::Walk(TILES.to_vec()), 10).unwrap();
        for (w, h, depth) in [(3, 3, 14), (2, 4, 14), (4, 4, 11), (3, 5, 12)] {
            for blank in [0, w * h / 2, w * h - 1] {
                let mut previous: Option<Vec<u128>> = None;
                for a in [&none(), &reverse, &fsm] {
                    let counts = Classes::new(w as usize, h as usize, blank as usize, &TILES, a)
                        .counts(depth);
                    assert_eq!(counts.overflow, None);
                    assert_eq!(
                        counts.nodes,
                        walk(w, h, blank, a, depth),
                        "{w}x{h} at {blank}"
                    );
                    // Each pruning keeps at most the nodes of the one before it, at every depth.
                    if let Some(p) = &previous {
                        assert!(counts.nodes.iter().zip(p).all(|(n, p)| n <= p));
                    }
                    previous = Some(counts.nodes);
                }
            }
        }
    }

    #[test]
    fn the_eight_puzzle_with_reverse_pruning_grows_by_the_square_root_of_three() {
        // On 3x3 with reverse-move pruning a corner has one move left, an edge two, the centre
        // three: with c, e, m the nodes on corners, edges and the centre, two moves on,
        // c'' = 2c + 2m... solved, b^4 = b^2 + 6, b = sqrt(3) (Edelkamp & Korf's 8-puzzle).
        // From the centre: 4 edges, 8 corners, 8 edges, then 8 at the centre and 8 on corners.
        let c = Classes::new(3, 3, 4, &TILES, &Automaton::reverse_only(&[3, 2, 1, 0]));
        let f = c.factor();
        assert!(f.converged);
        assert!((f.value - 3f64.sqrt()).abs() < 1e-8, "{f:?}");
        assert_eq!(&c.counts(5).nodes, &[1, 4, 8, 8, 16, 32]);
    }

    #[test]
    fn a_tree_that_ends_is_counted_to_its_end() {
        // On 2x2 the blank can only go round: 12 moves one way undo themselves, and 6 one way
        // are 6 the other way, so the depth-12 automaton leaves a finite tree.
        let fsm = super::super::build(&Moves::Walk(TILES.to_vec()), 12).unwrap();
        let c = Classes::new(2, 2, 0, &TILES, &fsm);
        let counts = c.counts(1000);
        assert_eq!(
            counts.nodes,
            walk(2, 2, 0, &fsm, counts.nodes.len() as u32 - 1)
        );
        assert_eq!(counts.nodes.last(), Some(&0));
        assert!(counts.nodes.len() < 14, "{counts:?}");
        assert_eq!(c.factor().value, 0.0);
    }

    #[test]
    fn counts_past_128_bits_are_reported_not_wrapped() {
        let c = Classes::new(5, 5, 0, &TILES, &none());
        let counts = c.counts(200);
        let at = counts.overflow.expect("4^d passes 2^128 before depth 200");
        assert_eq!(counts.nodes.len(), at as usize);
        assert!(counts.nodes.windows(2).all(|w| w[0] < w[1]));
    }
}
