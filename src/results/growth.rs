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
//! from 1 past N, so b* is one number, found as the f64 nearest the root; it is below
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
    // The sum less `nodes` and its slope, by Horner's rule (an overflow to infinity only says
    // that b is too large).
    let excess = |b: f64| {
        let (mut sum, mut slope) = (1.0f64, 0.0f64);
        for _ in 0..depth {
            slope = slope * b + sum;
            sum = sum * b + 1.0;
        }
        (sum - nodes, slope)
    };
    // Newton's method from the right of the root: the sum is increasing and convex for b > 0,
    // so each step lands between the root and the last point, a few steps where bisection takes
    // some seventy (this runs once per job, and a job may take microseconds). The start lies to
    // the right: the sum at b is at least b^depth.
    let mut b = nodes.powf(1.0 / f64::from(depth));
    for _ in 0..100 {
        let (over, slope) = excess(b);
        let next = b - over / slope;
        if next.is_nan() || next >= b || next <= 0.0 {
            break;
        }
        b = next;
    }
    // Rounding may stop the steps an ulp or two short: settle on the double nearest the root.
    for _ in 0..64 {
        let below = b.next_down();
        if below <= 0.0 || excess(below).0 < 0.0 {
            break;
        }
        b = below;
    }
    let below = b.next_down();
    let nearer = below > 0.0 && excess(below).0.abs() < excess(b).0.abs();
    Some(if nearer { below } else { b })
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
            budget: None,
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
