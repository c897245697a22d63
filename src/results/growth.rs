//! The figures that show why a variant wins, derived from a job's iterations: the effective
//! branching factor b* of a job (runs.csv's `branching_factor`), and of each iteration its
//! growth over the one before and its children per expansion (iterations.csv's `growth` and
//! `children_per_expansion`).
//!
//! b* is the b with N = 1 + b + b^2 + ... + b^d: the branching factor of a uniform tree of depth
//! d with N nodes. N is the tree of the job's last iteration, its start included: that
//! iteration's `nodes_generated` in iterations.csv, plus 1 when it is not the first (whose count
//! alone holds the start). d is that iteration's bound, whether it found a solution or was
//! stopped by a limit: the depth IDA* would search to with a perfect heuristic, and, for an
//! optimal solution, its length. The last iteration is taken because it dominates the search
//! and is the one whose bound is known. For d >= 1 and N >= 2 the sum grows strictly with b > 0
//! from 1 past N, so b* is one number, found by bisection to the last bit of an f64; it is below
//! 1 only for an iteration stopped before its tree reached depth d. There is none (an empty
//! cell) when no iteration ran, for a bound of 0 or for a tree of the start alone.

use crate::search::Iteration;

/// The effective branching factor of a job whose iterations are `iterations`, in order.
pub fn branching_factor(iterations: &[Iteration]) -> Option<f64> {
    let last = iterations.last()?;
    let start = u64::from(iterations.len() > 1);
    let nodes = last.generated.saturating_add(start) as f64;
    effective_branching(nodes, last.bound)
}

/// The b > 0 with `nodes` = b^0 + b^1 + ... + b^depth; `None` for a depth of 0 or fewer than two
/// nodes.
pub fn effective_branching(nodes: f64, depth: u32) -> Option<f64> {
    if depth == 0 || nodes.is_nan() || nodes < 2.0 {
        return None;
    }
    // Horner's rule: exact in its terms, monotone in b, and an overflow to infinity only says
    // that b is too large.
    let tree = |b: f64| (0..depth).fold(1.0, |sum, _| sum * b + 1.0);
    // The sum at b = nodes is at least 1 + nodes: the root lies below it.
    let (mut low, mut high) = (0.0f64, nodes);
    loop {
        let mid = low + (high - low) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if tree(mid) < nodes {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(if nodes - tree(low) <= tree(high) - nodes {
        low
    } else {
        high
    })
}

/// An iteration's nodes generated over the previous one's; `None` for the first (or after one
/// that generated none).
pub fn growth(previous: Option<&Iteration>, it: &Iteration) -> Option<f64> {
    let previous = previous?.generated;
    (previous > 0).then(|| it.generated as f64 / previous as f64)
}

/// An iteration's nodes generated over its nodes expanded; `None` when it expanded none.
pub fn children_per_expansion(it: &Iteration) -> Option<f64> {
    (it.expanded > 0).then(|| it.generated as f64 / it.expanded as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn it(bound: u32, generated: u64, expanded: u64) -> Iteration {
        Iteration {
            bound,
            generated,
            expanded,
        }
    }

    #[test]
    fn the_branching_factor_of_uniform_trees_is_their_branching() {
        // 1 + 2 + 4 + 8 = 15, 1 + 3 + 9 = 13, and a path of d + 1 nodes branches once a level.
        assert_eq!(effective_branching(15.0, 3), Some(2.0));
        assert_eq!(effective_branching(13.0, 2), Some(3.0));
        assert_eq!(effective_branching(11.0, 10), Some(1.0));
        // Between them, the sum at b* is N to an f64's precision.
        let b = effective_branching(1_000_000.0, 20).unwrap();
        let sum: f64 = (0..=20).map(|i| b.powi(i)).sum();
        assert!((sum - 1e6).abs() < 1e-6, "{b} {sum}");
        assert!(b > 1.8 && b < 2.0, "{b}");
        // A tree cut short of its bound branches less than once a level.
        let b = effective_branching(3.0, 10).unwrap();
        assert!(b > 0.0 && b < 1.0, "{b}");
        // A huge N and depth: no overflow to a wrong answer.
        let b = effective_branching(1e15, 200).unwrap();
        assert!(b > 1.0 && b < 1.2, "{b}");
        for (nodes, depth) in [(15.0, 0), (1.0, 5), (0.0, 5)] {
            assert_eq!(effective_branching(nodes, depth), None, "{nodes} {depth}");
        }
    }

    #[test]
    fn a_jobs_tree_is_its_last_iteration_with_the_start() {
        assert_eq!(branching_factor(&[]), None);
        // One iteration: its count holds the start.
        assert_eq!(branching_factor(&[it(3, 15, 7)]), Some(2.0));
        // A later one: the start is added to its count.
        assert_eq!(branching_factor(&[it(1, 3, 1), it(3, 14, 7)]), Some(2.0));
        assert_eq!(branching_factor(&[it(0, 1, 0)]), None);
    }

    #[test]
    fn growth_and_children_per_expansion_are_ratios_of_the_counts() {
        let (a, b) = (it(4, 10, 4), it(6, 25, 0));
        assert_eq!(growth(None, &a), None);
        assert_eq!(growth(Some(&a), &b), Some(2.5));
        assert_eq!(growth(Some(&it(2, 0, 0)), &b), None);
        assert_eq!(children_per_expansion(&a), Some(2.5));
        assert_eq!(children_per_expansion(&b), None);
    }
}
