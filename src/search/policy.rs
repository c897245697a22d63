//! The threshold policies: which bound (and node budget) each iteration gets from what the
//! iterations before it found, and when the cheapest solution found so far is proven optimal.
//!
//! Every iteration is a plain depth-first search within its bound that stops at its first
//! solution, so that it is the same search on any number of threads. A policy whose bound may
//! pass the cheapest solution's cost (`Step::overshoots`) keeps the solution an iteration found
//! as its incumbent and searches on below its cost: the next iteration's bound is at most the
//! incumbent's cost less one (costs are whole numbers), and the search ends when a completed
//! iteration proves that no cheaper solution exists. This is depth-first branch and bound by
//! restarts: the part of the tree before the solution is searched again, in exchange for
//! iterations that stay plain (and can be cut for several threads). A limit that stops the
//! search before that proof leaves the incumbent unproven (`SearchResult::incumbent`).
//!
//! IDA*_CR and EDA* grow by a factor of their step's (`Factor`, 2 for `cr` and `eda`), applied
//! in whole tenths so that every bound is computed exactly.
//!
//! What each iteration proves: one that completes (searches every node within its bound) without
//! a solution proves that every solution costs at least the smallest f it cut off (`lo`). A
//! solution costing `lo` is then the cheapest.

use super::checkpoint::Counts as Buckets;
use super::{Factor, Step};

/// Buckets of IDA*_CR's histogram of the f-values an iteration cut off.
const CR_BUCKETS: usize = 64;

/// Budgeted tree search: a stage ends at an iteration of at least `BTS_GROW_MIN` times the last
/// stage's nodes (then IDA*'s next iteration is fine as it is) ...
const BTS_GROW_MIN: u64 = 2;
/// ... and its probes are given up past `BTS_GROW_MAX` times them.
const BTS_GROW_MAX: u64 = 8;

/// The f-values an iteration cut off, as excesses over its bound in buckets of equal width,
/// counted by the kernels when the policy asks (`Run::tally`).
#[derive(Clone, Debug)]
pub(super) struct Histogram {
    width: u32,
    counts: [u64; CR_BUCKETS],
}

impl Histogram {
    /// Buckets for an iteration of `bound`: together they span excesses up to the bound, so an
    /// f up to twice it.
    pub(super) fn new(bound: u32) -> Histogram {
        Histogram {
            width: bound.div_ceil(CR_BUCKETS as u32).max(1),
            counts: [0; CR_BUCKETS],
        }
    }

    /// A child cut off `over` (at least 1) above the bound.
    #[inline]
    pub(super) fn tally(&mut self, over: u32) {
        let bucket = ((over - 1) / self.width) as usize;
        if let Some(count) = self.counts.get_mut(bucket) {
            *count += 1;
        }
    }

    /// Empty buckets of the same width: for a subtree of a split iteration.
    pub(super) fn empty_like(&self) -> Histogram {
        Histogram {
            width: self.width,
            counts: [0; CR_BUCKETS],
        }
    }

    /// Adds `other`'s counts (of the same width) to these.
    pub(super) fn add(&mut self, other: &Histogram) {
        for (count, more) in self.counts.iter_mut().zip(&other.counts) {
            *count += more;
        }
    }

    /// The buckets as a checkpoint holds them.
    pub(super) fn counts(&self) -> Buckets {
        Buckets {
            width: self.width,
            counts: self.counts.to_vec(),
        }
    }

    /// The histogram a checkpoint held, if it is one: as many buckets, of a width of at least 1.
    pub(super) fn from_counts(c: &Buckets) -> Option<Histogram> {
        let counts = c.counts.as_slice().try_into().ok()?;
        (c.width > 0).then_some(Histogram {
            width: c.width,
            counts,
        })
    }

    /// Adds to `sum` (of the same width) what `now` counted since it was `before`: the tallies
    /// of the subtree searched between the two.
    pub(super) fn add_since(sum: &mut Buckets, now: &Histogram, before: &Histogram) {
        for ((s, n), b) in sum.counts.iter_mut().zip(&now.counts).zip(&before.counts) {
            *s += n - b;
        }
    }

    /// The smallest bound, above `bound`, that admits at least `target` of the nodes cut off
    /// (all of those counted, when fewer), or `None` when none was counted.
    fn bound_for(&self, bound: u32, target: u64) -> Option<u32> {
        let mut admitted = 0;
        let mut last = None;
        for (i, &count) in self.counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            admitted += count;
            last = Some(bound.saturating_add((i as u32 + 1) * self.width));
            if admitted >= target {
                break;
            }
        }
        last
    }
}

/// How many of the f-values cut off IDA*_CR's next bound admits after an iteration that
/// expanded `expanded` nodes: each admitted child is expanded in the next iteration, so
/// (factor - 1) times `expanded` of them make it (at least) `factor` times this one. At least 1.
fn cr_target(expanded: u64, factor: Factor) -> u64 {
    let more = u128::from(expanded) * u128::from(factor.tenths() - 10) / 10;
    u64::try_from(more).unwrap_or(u64::MAX).max(1)
}

/// What an iteration came to, as the policy reads it.
pub(super) enum Done {
    /// It searched every node within its bound: `generated` and `expanded` nodes, the smallest
    /// f it cut off `next` (`u32::MAX`: none), the f-values cut off in `histogram` when they
    /// were counted.
    Completed {
        generated: u64,
        expanded: u64,
        next: u32,
        histogram: Option<Box<Histogram>>,
    },
    /// It found a solution of this cost.
    Found(u32),
    /// It was given up at its node budget.
    OverBudget,
}

/// What the next iteration is to be, or why there is none.
pub(super) enum Then {
    Iterate {
        bound: u32,
        budget: Option<u64>,
        histogram: Option<Box<Histogram>>,
    },
    /// The solution just found, or else the incumbent, is the cheapest.
    Solved,
    /// Every node was searched without a solution.
    Exhausted,
}

/// What a completed iteration counted.
#[derive(Clone, Copy)]
struct Counts {
    generated: u64,
    expanded: u64,
    /// The smallest f it cut off.
    next: u32,
}

/// A policy's state between iterations.
pub(super) struct Policy {
    step: Step,
    /// The last iteration's bound.
    bound: u32,
    /// Every solution costs at least this.
    lo: u32,
    /// The cost of the cheapest solution found (overshooting policies).
    best: Option<u32>,
    bts: Bts,
}

/// Budgeted tree search between its iterations: the nodes of the last stage's iteration, and the
/// probes' interval and exponential step.
struct Bts {
    stage_nodes: u64,
    probing: bool,
    /// The bounds above this hold too many nodes (`u32::MAX`: unknown).
    hi: u32,
    delta: u32,
}

impl Policy {
    /// The policy of `step` for a start whose estimate is `h0`, whose solutions' costs all have
    /// parity `parity` where known; and the first iteration.
    pub(super) fn new(step: Step, h0: u32, parity: Option<u32>) -> (Policy, Then) {
        let mut bound = h0;
        if step == Step::Two {
            if let Some(p) = parity {
                bound += (bound + p) % 2;
            }
        }
        let policy = Policy {
            step,
            bound,
            lo: h0,
            best: None,
            bts: Bts {
                stage_nodes: 0,
                probing: false,
                hi: u32::MAX,
                delta: 1,
            },
        };
        let first = policy.iterate(bound, None);
        (policy, first)
    }

    /// Every solution costs at least this.
    pub(super) fn lower_bound(&self) -> u32 {
        self.lo
    }

    /// The next iteration, after one at `bound` (the bound it was given, which the engine may
    /// have lowered to a cap) came to `done`.
    pub(super) fn after(&mut self, bound: u32, done: Done) -> Then {
        self.bound = bound;
        let generated = match done {
            Done::Found(cost) => {
                if !self.step.overshoots() || cost <= self.lo {
                    return Then::Solved;
                }
                // Any solution an iteration finds is within its bound, below the incumbent.
                self.best = Some(cost);
                self.bts.hi = self.bts.hi.min(cost - 1);
                return self.next_after(None, None);
            }
            Done::OverBudget => {
                self.bts.hi = self.bts.hi.min(bound.saturating_sub(1));
                return self.next_after(None, None);
            }
            Done::Completed {
                generated,
                expanded,
                next,
                histogram,
            } => {
                if next == u32::MAX {
                    return match self.best {
                        Some(_) => Then::Solved,
                        None => Then::Exhausted,
                    };
                }
                self.lo = self.lo.max(next);
                if self.best.is_some_and(|best| self.lo >= best) {
                    return Then::Solved;
                }
                (generated, expanded, next, histogram)
            }
        };
        let (generated, expanded, next, histogram) = generated;
        self.next_after(
            Some(Counts {
                generated,
                expanded,
                next,
            }),
            histogram,
        )
    }

    /// The next iteration's bound and budget; `completed` holds the counts of the iteration just
    /// completed, `None` when it found a solution or ran out of budget.
    fn next_after(&mut self, completed: Option<Counts>, histogram: Option<Box<Histogram>>) -> Then {
        let b = self.bound;
        let (bound, budget) = match (self.step, completed) {
            (Step::One, _) => (b + 1, None),
            (Step::Two, _) => (b + 2, None),
            (Step::Next, Some(c)) => (c.next, None),
            (Step::Cr(factor), Some(c)) => {
                let target = cr_target(c.expanded, factor);
                let wanted = histogram.and_then(|h| h.bound_for(b, target));
                (wanted.unwrap_or(c.next).max(c.next), None)
            }
            (Step::Eda(factor), Some(c)) => (factor.times(b).max(c.next), None),
            (Step::Bts, _) => self.bts_next(completed),
            // After a solution: below it, from what is proven.
            (Step::Next | Step::Cr(_) | Step::Eda(_), None) => (self.lo, None),
        };
        let bound = match self.best {
            Some(best) => bound.min(best - 1).max(self.lo),
            None => bound,
        };
        self.iterate(bound, budget)
    }

    fn iterate(&self, bound: u32, budget: Option<u64>) -> Then {
        Then::Iterate {
            bound,
            budget,
            histogram: matches!(self.step, Step::Cr(_)).then(|| Box::new(Histogram::new(bound))),
        }
    }

    /// Budgeted tree search's next iteration. A stage starts with IDA*'s iteration at `lo`,
    /// unbudgeted; if it holds at least `BTS_GROW_MIN` times the last stage's nodes, that is the
    /// stage. Otherwise probes above `lo`, each given up past `BTS_GROW_MAX` times those nodes,
    /// look for a bound that holds `BTS_GROW_MIN` times them or more: first at `lo` + d, 2d, 4d, ...
    /// (d the gap between the last bound and the next f)
    /// until one is given up, then by halving the interval between `lo` and the bounds known to
    /// hold too many. When the interval is empty, the stage ends with IDA*'s iteration at `lo`.
    fn bts_next(&mut self, completed: Option<Counts>) -> (u32, Option<u64>) {
        let bts = &mut self.bts;
        if let Some(Counts {
            generated, next, ..
        }) = completed
        {
            if generated >= BTS_GROW_MIN.saturating_mul(bts.stage_nodes) {
                // A stage: the next starts afresh at the next f.
                bts.stage_nodes = generated;
                bts.probing = false;
                bts.hi = match self.best {
                    Some(best) => best - 1,
                    None => u32::MAX,
                };
                return (self.lo, None);
            }
            if !bts.probing {
                // The first probe steps over the gap to the next f: under fine-grained costs a
                // step of one unit would search the same tree again many times.
                bts.probing = true;
                bts.delta = next.saturating_sub(self.bound).max(1);
            }
        }
        if self.lo > bts.hi {
            // No bound above `lo` holds few enough: IDA*'s iteration, whatever it holds.
            bts.probing = false;
            bts.hi = u32::MAX;
            return (self.lo, None);
        }
        let budget = Some(BTS_GROW_MAX.saturating_mul(bts.stage_nodes.max(1)));
        let bound = if bts.hi == u32::MAX {
            let bound = self.lo.saturating_add(bts.delta);
            bts.delta = bts.delta.saturating_mul(2);
            bound
        } else {
            self.lo + (bts.hi - self.lo) / 2
        };
        (bound, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        ida_star, path_cost, replay, Bpmx, Domain, Factor, Heuristic, Limits, Outcome, Prune, Step,
        Variant,
    };
    use super::{cr_target, Done, Histogram, Policy, Then};
    use crate::util::rng::Rng;

    /// Every step by its name, and cr and eda at factors of their own: the least, below 2,
    /// above it, the largest.
    fn steps() -> Vec<Step> {
        let factors = [
            "cr1.1", "cr1.5", "cr4", "cr10", "eda1.1", "eda1.5", "eda3", "eda10",
        ];
        let named = factors.map(|name| Step::parse(name).unwrap());
        Step::ALL.into_iter().chain(named).collect()
    }

    /// A connected graph of up to 20 states with symmetric whole-number edge costs; the goal is 0,
    /// a move is the state it goes to.
    struct Graph {
        next: Vec<Vec<u8>>,
        /// A move's label is the state it goes to.
        labels: Vec<Vec<u16>>,
        cost: Vec<Vec<u32>>,
    }

    impl Domain for Graph {
        type State = u8;
        type Move = u8;
        const NO_MOVE: u8 = u8::MAX;

        fn moves<'a>(&'a self, s: &u8) -> &'a [u8] {
            &self.next[*s as usize]
        }
        fn labels<'a>(&'a self, s: &u8) -> &'a [u16] {
            &self.labels[*s as usize]
        }
        fn inverse(&self, s: &u8, _: u8) -> u8 {
            *s
        }
        fn apply(&self, s: &mut u8, m: u8) {
            *s = m;
        }
        fn cost(&self, s: &u8, m: u8) -> u32 {
            self.cost[*s as usize][m as usize]
        }
        fn is_goal(&self, s: &u8) -> bool {
            *s == 0
        }
        fn solution_parity(&self, _: &u8) -> Option<u32> {
            None
        }
        fn path_string(&self, _: &u8, path: &[u8]) -> String {
            format!("{path:?}")
        }
    }

    /// A random connected graph: a random tree, and a few more edges.
    fn graph(rng: &mut Rng) -> Graph {
        let n = 2 + rng.below(19) as usize;
        let mut cost = vec![vec![0; n]; n];
        let join = |cost: &mut Vec<Vec<u32>>, a: usize, b: usize, c: u32| {
            cost[a][b] = c;
            cost[b][a] = c;
        };
        for s in 1..n {
            let to = rng.below(s as u64) as usize;
            join(&mut cost, s, to, 1 + rng.below(9) as u32);
        }
        for _ in 0..rng.below(2 * n as u64) {
            let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if a != b {
                join(&mut cost, a, b, 1 + rng.below(9) as u32);
            }
        }
        let next: Vec<Vec<u8>> = (0..n)
            .map(|a| (0..n as u8).filter(|&b| cost[a][b as usize] > 0).collect())
            .collect();
        let labels = next
            .iter()
            .map(|to| to.iter().map(|&b| u16::from(b)).collect())
            .collect();
        Graph { next, labels, cost }
    }

    /// Each state's cheapest cost to the goal (Dijkstra, by repeated relaxation: the graphs are
    /// tiny).
    fn distances(g: &Graph) -> Vec<u32> {
        let n = g.next.len();
        let mut dist = vec![u32::MAX; n];
        dist[0] = 0;
        loop {
            let mut changed = false;
            for a in 0..n {
                for &b in &g.next[a] {
                    let via = dist[b as usize].saturating_add(g.cost[a][b as usize]);
                    if via < dist[a] {
                        dist[a] = via;
                        changed = true;
                    }
                }
            }
            if !changed {
                return dist;
            }
        }
    }

    /// An admissible and in general inconsistent estimate: each state's cost scaled down by a
    /// random factor of its own.
    struct Table(Vec<u32>);

    impl Heuristic<Graph> for Table {
        type Value = u8;
        const GOAL_AWARE: bool = false;

        fn init(&self, _: &Graph, s: &u8) -> u8 {
            *s
        }
        fn update(&self, _: &Graph, _: &u8, m: u8, _: u8) -> u8 {
            m
        }
        fn estimate(&self, s: u8) -> u32 {
            self.0[s as usize]
        }
    }

    /// The smallest bound that admits the target, whole buckets at a time; all that was counted
    /// when fewer; none without counts.
    #[test]
    fn a_histogram_gives_the_bound_that_admits_the_target() {
        // Bound 128: buckets of 2, the first holding excesses 1 and 2.
        let mut h = super::Histogram::new(128);
        for over in [1, 2, 2, 5, 6, 7, 200] {
            h.tally(over);
        }
        assert_eq!(h.bound_for(128, 1), Some(130));
        assert_eq!(h.bound_for(128, 3), Some(130));
        assert_eq!(h.bound_for(128, 4), Some(134));
        assert_eq!(h.bound_for(128, 6), Some(136));
        // Excess 200 is past the buckets: never admitted.
        assert_eq!(h.bound_for(128, 100), Some(136));
        assert_eq!(super::Histogram::new(128).bound_for(128, 1), None);
    }

    /// The bound that follows an iteration at 128 that expanded 10 nodes and cut off 5, 5, 10
    /// and 20 children at excesses up to 2, 4, 6 and 8 (buckets of 2): IDA*_CR's admits
    /// (factor - 1) times 10 of them, or all when fewer; EDA*'s is 128 times the factor,
    /// rounded down. Factor 2 is `cr` and `eda`.
    #[test]
    fn a_factor_sets_how_far_cr_and_eda_raise_the_bound() {
        let after = |name: &str| {
            let step = Step::parse(name).unwrap();
            let (mut policy, first) = Policy::new(step, 128, None);
            let Then::Iterate { bound: 128, .. } = first else {
                panic!("{name}: the first bound is h0");
            };
            let mut h = Histogram::new(128);
            for (over, count) in [(2, 5), (4, 5), (6, 10), (8, 20)] {
                (0..count).for_each(|_| h.tally(over));
            }
            let done = Done::Completed {
                generated: 100,
                expanded: 10,
                next: 129,
                histogram: matches!(step, Step::Cr(_)).then(|| Box::new(h)),
            };
            match policy.after(128, done) {
                Then::Iterate { bound, .. } => bound,
                _ => panic!("{name}: no next iteration"),
            }
        };
        for (name, bound) in [
            ("cr", 132),
            ("cr2", 132),
            ("cr1.5", 130),
            ("cr3", 134),
            ("cr4", 136),
            ("cr10", 136),
            ("eda", 256),
            ("eda3", 384),
            ("eda1.5", 192),
            ("eda1.1", 140),
            ("eda10", 1280),
        ] {
            assert_eq!(after(name), bound, "{name}");
        }
        assert_eq!(cr_target(10, Factor::TWO), 10);
        assert_eq!(cr_target(7, Factor::MIN), 1);
        assert_eq!(cr_target(0, Factor::TWO), 1);
        assert_eq!(cr_target(u64::MAX, Factor::MAX), u64::MAX);
        assert_eq!(Factor::MAX.times(u32::MAX), u32::MAX);
    }

    /// On random weighted graphs searched blind (h = 0, so a child is cut off at most its
    /// move's cost, at most 9, above the bound, within the histogram's 64 units or more), each
    /// iteration of `crF` before the first solution expands at least F times the nodes of the
    /// one before (rounded down) wherever the one before cut off enough children to admit, and
    /// all it cut off otherwise; each bound of `edaF` is F times the one before (rounded down),
    /// unless the next f is larger, which is at most 9 above it.
    #[test]
    fn each_iteration_grows_by_the_factor() {
        let mut rng = Rng::new(12);
        let (mut grown, mut all_admitted, mut multiplied) = (0, 0, 0);
        for _ in 0..100 {
            let g = graph(&mut rng);
            let h = Table(vec![0; g.next.len()]);
            let start = 1 + rng.below(g.next.len() as u64 - 1) as u8;
            for name in ["cr", "cr1.5", "cr4", "eda", "eda1.5", "eda3"] {
                let step = Step::parse(name).unwrap();
                let v = Variant {
                    step,
                    prune: Prune::Reverse,
                };
                let r = ida_star(&g, &h, &start, v, Limits::default());
                let its = &r.stats.iterations;
                // Up to the iteration that found the first solution, whose bound the next one
                // (if any) retreats below: those before it completed without one.
                let first = (1..its.len())
                    .find(|&i| its[i].bound < its[i - 1].bound)
                    .map_or(its.len() - 1, |after| after - 1);
                for i in 1..first {
                    let (before, it) = (its[i - 1], its[i]);
                    match step {
                        Step::Cr(f) => {
                            // Every node entered is expanded or cut off; the start is counted
                            // once, in the first iteration.
                            let entered = before.generated + u64::from(i > 1);
                            let cut_off = entered - before.expanded;
                            let target = cr_target(before.expanded, f);
                            if cut_off >= target {
                                assert!(it.expanded >= before.expanded + target, "{name}");
                                grown += 1;
                            } else {
                                assert!(it.expanded >= before.expanded + cut_off, "{name}");
                                all_admitted += 1;
                            }
                        }
                        Step::Eda(f) => {
                            let times = f.times(before.bound);
                            assert!(
                                it.bound == times
                                    || (it.bound > times && it.bound <= before.bound + 9),
                                "{name}: {} after {}",
                                it.bound,
                                before.bound
                            );
                            multiplied += usize::from(it.bound == times);
                        }
                        _ => unreachable!(),
                    }
                }
            }
        }
        assert!(
            grown > 100 && all_admitted > 0 && multiplied > 100,
            "{grown} {all_admitted} {multiplied}"
        );
    }

    /// A node limit stops a budgeted tree search where it says, whatever its probes' budgets.
    #[test]
    fn a_node_limit_stops_every_policy() {
        let mut rng = Rng::new(5);
        let mut stopped = 0;
        for _ in 0..100 {
            let g = graph(&mut rng);
            let h = Table(vec![0; g.next.len()]);
            let start = rng.below(g.next.len() as u64) as u8;
            for step in Step::ALL {
                let v = Variant {
                    step,
                    prune: Prune::Reverse,
                };
                let whole = ida_star(&g, &h, &start, v, Limits::default());
                let max = whole.stats.generated / 2;
                if max < 2 {
                    continue;
                }
                let limits = Limits {
                    max_nodes: Some(max),
                    ..Limits::default()
                };
                let r = ida_star(&g, &h, &start, v, limits);
                assert_eq!(r.outcome, Outcome::NodeLimit, "{step:?}");
                let counted: u64 = r.stats.iterations.iter().map(|i| i.generated).sum();
                assert_eq!(counted, r.stats.generated);
                // The limit is looked at on entering a node: its children may pass it.
                assert!(r.stats.generated <= max + 20, "{step:?}");
                // Only the last iteration may be empty: the limit fell at the end of the one
                // before.
                let before_last = &r.stats.iterations[..r.stats.iterations.len() - 1];
                assert!(before_last.iter().all(|i| i.generated > 0), "{step:?}");
                stopped += 1;
            }
        }
        assert!(stopped > 100, "{stopped}");
    }

    /// A node limit that stops a policy that overshoots after it found a solution leaves that
    /// solution: replayed to the goal, costing at least the cheapest and no more than any found
    /// before a smaller limit, with `optimal_guaranteed` false. Without one, and for the other
    /// policies, there is none and the guarantee is the policy's.
    #[test]
    fn a_limit_after_a_solution_leaves_it_unproven() {
        let mut rng = Rng::new(41);
        let (mut unproven, mut without) = (0, 0);
        for _ in 0..100 {
            let g = graph(&mut rng);
            let dist = distances(&g);
            let h = Table(dist.iter().map(|&d| d * rng.below(5) as u32 / 4).collect());
            let start = rng.below(g.next.len() as u64) as u8;
            for step in steps() {
                let v = Variant {
                    step,
                    prune: Prune::Reverse,
                };
                let whole = ida_star(&g, &h, &start, v, Limits::default());
                let mut dearest = u32::MAX;
                for tenth in 1..10 {
                    let limits = Limits {
                        max_nodes: Some(whole.stats.generated * tenth / 10),
                        ..Limits::default()
                    };
                    let r = ida_star(&g, &h, &start, v, limits);
                    if r.outcome != Outcome::NodeLimit {
                        continue;
                    }
                    let Some(path) = &r.incumbent else {
                        assert_eq!(r.optimal_guaranteed, step != Step::Two, "{step:?}");
                        without += 1;
                        continue;
                    };
                    assert!(step.overshoots(), "{step:?}");
                    assert!(replay(&g, &start, path), "{step:?}");
                    let cost = path_cost(&g, &start, path) as u32;
                    assert!(cost >= dist[start as usize] && cost <= dearest, "{step:?}");
                    assert!(!r.optimal_guaranteed, "{step:?}");
                    dearest = cost;
                    unproven += 1;
                }
            }
        }
        assert!(unproven > 20 && without > 20, "{unproven} {without}");
    }

    /// Every policy, cr and eda at several factors, returns a cheapest path on random weighted
    /// graphs, with and without pathmax and reverse-move pruning; those that promise it say so,
    /// and step 2 (whose parity a graph does not know) does not, its path costing no less.
    #[test]
    fn every_policy_finds_the_cheapest_path_on_random_weighted_graphs() {
        let mut rng = Rng::new(27);
        let (mut overshot, mut given_up) = (0, 0);
        for _ in 0..300 {
            let g = graph(&mut rng);
            let dist = distances(&g);
            let h = Table(dist.iter().map(|&d| d * rng.below(5) as u32 / 4).collect());
            let start = rng.below(g.next.len() as u64) as u8;
            for step in steps() {
                for prune in [Prune::None, Prune::Reverse] {
                    let v = Variant { step, prune };
                    let plain = ida_star(&g, &h, &start, v, Limits::default());
                    let pathmax =
                        ida_star(&g, &Bpmx(Table(h.0.clone())), &start, v, Limits::default());
                    for r in [plain, pathmax] {
                        let Outcome::Solved(path) = &r.outcome else {
                            panic!("{step:?} {prune:?} from {start}: {:?}", r.outcome);
                        };
                        assert_eq!(r.incumbent, None);
                        let cost = path_cost(&g, &start, path) as u32;
                        let want = dist[start as usize];
                        assert_eq!(r.optimal_guaranteed, step != Step::Two);
                        if r.optimal_guaranteed {
                            assert_eq!(cost, want, "{step:?} {prune:?} from {start}");
                        } else {
                            assert!(cost >= want);
                        }
                        let last = r.stats.iterations.last().unwrap().bound;
                        overshot += usize::from(step.overshoots() && last < cost);
                        given_up += r
                            .stats
                            .iterations
                            .iter()
                            .filter(|i| i.budget.is_some_and(|budget| i.generated >= budget))
                            .count();
                    }
                }
            }
        }
        // Searches went on below a solution found past the cheapest cost, and probes were
        // given up at their budgets.
        assert!(overshot > 0 && given_up > 0, "{overshot} {given_up}");
    }
}
