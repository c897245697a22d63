//! The IDA* loop: iterations over a bound, and the in-place depth-first search inside one, by
//! either of two kernels that count alike: the generic one, and one for domains whose moves come
//! from a few places known at compile time (`FixedMoves`), unrolled per place. Each kernel comes
//! with reverse-move pruning on or off (a const parameter) and, written apart so that those two
//! stay as they were, with an automaton (`fsm::Automaton`) whose state each node carries; and the
//! generic one with bidirectional pathmax, for heuristics that ask for it (`Heuristic::BPMX`).

use super::checkpoint::{End, Finished, Partial, Progress};
use super::fsm::{Automaton, FORBIDDEN};
use super::policy::{Done, Histogram, Policy, Then};
use super::split::{self, Order};
use super::{
    Clock, Domain, FixedMoves, Heuristic, Iteration, Limits, Outcome, Prune, SearchResult,
    SplitStats, Stats, Step, Variant, MAX_BRANCH, MAX_PLACES,
};
use crate::util::clock::thread_cpu_time;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Generated nodes between two looks at the clock and the cancel flag (about a millisecond).
pub(super) const CHECK_EVERY: u64 = 1 << 17;

/// Under a CPU time limit, the first look comes after this many generated nodes (tens of
/// microseconds): it reads the thread's CPU clock for the first time, and the CPU time before it
/// is not counted. A search that ends sooner (most of a batch's tiny jobs) never pays for the
/// system call.
const FIRST_CPU_LOOK: u64 = 1 << 12;

/// What `dfs` returns when the search must unwind: a goal was found or a limit reached (`Run::stop`
/// says which). Any other value is the smallest excess over the bound of an f seen below the node
/// (`u32::MAX`: none); an f above the bound exceeds it by at least 1, so never 0.
pub(super) const UNWIND: u32 = 0;

/// The f that a search returning `r` saw above `bound`, or `r` itself: `UNWIND` or none.
pub(super) fn over(bound: u32, r: u32) -> u32 {
    match r {
        UNWIND | u32::MAX => r,
        excess => bound + excess,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    Found,
    Nodes,
    Time(Clock),
    Cancelled,
    /// A subtree of a split iteration that an earlier subtree's solution made useless.
    Abandoned,
}

/// What one iteration reads and never changes besides the domain and the heuristic (the kernels
/// read the bound as each node's slack, and whether it is the cap from `Run::bound_is_cap`).
#[derive(Clone, Copy)]
pub(super) struct Iter {
    pub(super) bound: u32,
    /// The automaton of a search that prunes by one (`None` for the other kernels).
    pub(super) automaton: Option<&'static Automaton>,
}

impl Iter {
    /// The automaton of an fsm kernel's search, which `ida_star` always gives it.
    fn automaton(self) -> &'static Automaton {
        self.automaton
            .expect("an fsm kernel runs only with its variant's automaton")
    }
}

/// What the search changes: the state, the counters, the path once found; and, set once per
/// iteration, whether its bound is the cap.
///
/// In declaration order (`repr(C)`), the fields every node reads and writes first: each then
/// sits within a short displacement of the struct's address, so that the kernels' instructions
/// stay short whatever the cold fields after them (limits, clocks) grow to. Left to the
/// compiler's order, the CPU time limit's fields moved them and the search took 2.4% longer.
#[repr(C)]
pub(super) struct Run<'a, D: Domain> {
    pub(super) generated: u64,
    /// `generated` at which to look at the node limit, the clock and the cancel flag next.
    pub(super) next_check: u64,
    pub(super) expanded: u64,
    /// The iteration's bound is the depth cap: a node without slack is at the cap.
    pub(super) bound_is_cap: bool,
    /// A node was left unexpanded because of the depth cap.
    pub(super) capped: bool,
    pub(super) stop: Option<Stop>,
    pub(super) s: D::State,
    pub(super) path: Vec<D::Move>,
    pub(super) max_nodes: u64,
    pub(super) deadline: Option<Instant>,
    /// This thread's share of the search's CPU budget, with `--time-limit`.
    pub(super) cpu: Option<CpuMeter<'a>>,
    pub(super) limits: Limits<'a>,
    /// In a subtree of a split iteration: its place among the subtrees, looked at with the limits.
    pub(super) order: Option<Order<'a>>,
    /// Spins of busy work every `slowdown::EVERY` expansions.
    #[cfg(feature = "inject-slowdown")]
    pub(super) slowdown: u64,
    /// Values raised by bidirectional pathmax (`Stats::bpmx_raises`).
    pub(super) bpmx_raises: u64,
    /// The f-values cut off, when the policy reads them (IDA*_CR).
    pub(super) histogram: Option<Box<Histogram>>,
    /// The least excess over the bound of a child cut off in this search (`u32::MAX`: none yet),
    /// kept for heuristics that may stop short (`Heuristic::PARTIAL`).
    pub(super) least_over: u32,
}

/// Runs IDA* from `start` with heuristic `h` and the given variant and limits, with the generic
/// kernel.
///
/// A path is returned as `Solved` only after it has been replayed from `start` to a goal.
pub fn ida_star<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    start: &D::State,
    variant: Variant,
    limits: Limits<'_>,
) -> SearchResult<D::Move> {
    if H::BPMX {
        return match variant.prune {
            Prune::None => run::<D, H, Pathmax<false>>(d, h, start, variant, limits),
            Prune::Reverse => run::<D, H, Pathmax<true>>(d, h, start, variant, limits),
            Prune::Fsm(_) => run::<D, H, PathmaxFsm>(d, h, start, variant, limits),
        };
    }
    match variant.prune {
        Prune::None => run::<D, H, Generic<false>>(d, h, start, variant, limits),
        Prune::Reverse => run::<D, H, Generic<true>>(d, h, start, variant, limits),
        Prune::Fsm(_) if D::AUTOMATA => run::<D, H, GenericFsm>(d, h, start, variant, limits),
        Prune::Fsm(_) => unreachable!("fsm pruning of weighted moves is refused before a search"),
    }
}

/// `ida_star` with the kernel unrolled per place: the same tree, counts and path, faster. A
/// heuristic that wants pathmax is searched by `ida_star`'s kernel with it (the same tree).
pub fn ida_star_fixed<D: FixedMoves, H: Heuristic<D>>(
    d: &D,
    h: &H,
    start: &D::State,
    variant: Variant,
    limits: Limits<'_>,
) -> SearchResult<D::Move> {
    if H::BPMX {
        return ida_star(d, h, start, variant, limits);
    }
    match variant.prune {
        Prune::None => run::<D, H, Fixed<false>>(d, h, start, variant, limits),
        Prune::Reverse => run::<D, H, Fixed<true>>(d, h, start, variant, limits),
        Prune::Fsm(_) => run::<D, H, FixedFsm>(d, h, start, variant, limits),
    }
}

/// The depth-first search of one iteration: the smallest f above the bound seen, or `UNWIND`
/// with `run.stop` set. The kernels themselves carry the bound minus the depth (the node's
/// slack) instead of both, and return excesses over the bound: fewer values to pass down and to
/// keep across each call.
pub(super) trait Kernel<D: Domain, H: Heuristic<D>> {
    /// What a node hands its children of the path to it: the move that undoes the last one, or
    /// the automaton's state.
    type Carry: Copy + Send + Sync;
    /// What the start carries.
    const START: Self::Carry;
    /// The whole iteration, from the start (`run.s`, heuristic value `hv`).
    fn iteration(d: &D, h: &H, it: Iter, run: &mut Run<'_, D>, hv: H::Value) -> u32 {
        Self::subtree(d, h, it, run, 0, hv, Self::START)
    }
    /// What the child by move `m` (labelled `label`, undone by `undo`) of a node that carries
    /// `carry` carries, or `None` when the move is pruned: for a search that walks the tree
    /// outside the kernel (a split iteration above its cut).
    fn pass(
        it: Iter,
        carry: Self::Carry,
        m: D::Move,
        label: u16,
        undo: D::Move,
    ) -> Option<Self::Carry>;
    /// The search below `run.s`, `g` moves from the start, carrying `carry`.
    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        carry: Self::Carry,
    ) -> u32;
}

/// What `Kernel::pass` says with reverse-move pruning on (`prune`) or off.
fn pass_reverse<M: PartialEq>(prune: bool, back: M, m: M, undo: M) -> Option<M> {
    (!(prune && m == back)).then_some(undo)
}

/// What `Kernel::pass` says with an automaton.
fn pass_fsm(it: Iter, state: u32, label: u16) -> Option<u32> {
    let next = it.automaton().next(state, label.into());
    (next != FORBIDDEN).then_some(next)
}

/// The generic kernel, reverse-move pruning on or off.
struct Generic<const PRUNE: bool>;

impl<D: Domain, H: Heuristic<D>, const PRUNE: bool> Kernel<D, H> for Generic<PRUNE> {
    type Carry = D::Move;
    const START: D::Move = D::NO_MOVE;

    fn pass(_: Iter, back: D::Move, m: D::Move, _: u16, undo: D::Move) -> Option<D::Move> {
        pass_reverse(PRUNE, back, m, undo)
    }

    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        back: D::Move,
    ) -> u32 {
        over(
            it.bound,
            dfs::<D, H, PRUNE>(d, h, run, it.bound - g, hv, back),
        )
    }
}

/// The generic kernel with an automaton.
struct GenericFsm;

impl<D: Domain, H: Heuristic<D>> Kernel<D, H> for GenericFsm {
    type Carry = u32;
    const START: u32 = Automaton::START;

    fn pass(it: Iter, state: u32, _: D::Move, label: u16, _: D::Move) -> Option<u32> {
        pass_fsm(it, state, label)
    }

    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        state: u32,
    ) -> u32 {
        let a = it.automaton();
        over(it.bound, dfs_fsm(d, h, a, run, it.bound - g, hv, state))
    }
}

/// The kernel unrolled per place, reverse-move pruning on or off.
struct Fixed<const PRUNE: bool>;

impl<D: FixedMoves, H: Heuristic<D>, const PRUNE: bool> Kernel<D, H> for Fixed<PRUNE> {
    type Carry = D::Move;
    const START: D::Move = D::NO_MOVE;

    fn pass(_: Iter, back: D::Move, m: D::Move, _: u16, undo: D::Move) -> Option<D::Move> {
        pass_reverse(PRUNE, back, m, undo)
    }

    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        back: D::Move,
    ) -> u32 {
        let place = d.place(&run.s);
        let came_from = if back == D::NO_MOVE {
            NOWHERE
        } else {
            D::place_after(back)
        };
        let slack = it.bound - g;
        over(
            it.bound,
            at::<D, H, PRUNE>(place, d, h, run, slack, hv, came_from),
        )
    }
}

/// The kernel unrolled per place, with an automaton.
struct FixedFsm;

impl<D: FixedMoves, H: Heuristic<D>> Kernel<D, H> for FixedFsm {
    type Carry = u32;
    const START: u32 = Automaton::START;

    fn pass(it: Iter, state: u32, _: D::Move, label: u16, _: D::Move) -> Option<u32> {
        pass_fsm(it, state, label)
    }

    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        state: u32,
    ) -> u32 {
        let place = d.place(&run.s);
        let a = it.automaton();
        over(
            it.bound,
            at_fsm::<D, H>(place, d, h, a, run, it.bound - g, hv, state),
        )
    }
}

/// The iterations of one search, each with the bound (and budget) its policy gives it.
fn run<D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    start: &D::State,
    variant: Variant,
    limits: Limits<'_>,
) -> SearchResult<D::Move> {
    let step = variant.step;
    let automaton = match variant.prune {
        Prune::Fsm(a) => Some(a),
        Prune::None | Prune::Reverse => None,
    };
    let cap = match (d.depth_cap(), limits.max_depth) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(u32::MAX),
    };
    let diameter = d.diameter().unwrap_or(u32::MAX);
    let parity = d.solution_parity(start);
    let optimal_guaranteed = step != Step::Two || parity.is_some();
    let hv = h.init(d, start);
    let h0 = h.estimate(hv);
    let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
    let budget = limits.max_cpu.map(CpuBudget::new);
    let mut run = Run {
        s: start.clone(),
        path: Vec::with_capacity(256),
        capped: false,
        bound_is_cap: false,
        generated: 1,
        expanded: 0,
        next_check: max_nodes.min(
            1 + if limits.max_cpu.is_some() {
                FIRST_CPU_LOOK
            } else {
                CHECK_EVERY
            },
        ),
        max_nodes,
        deadline: limits.max_wall.map(|t| Instant::now() + t),
        cpu: budget.as_ref().map(CpuMeter::new),
        limits,
        stop: None,
        order: None,
        #[cfg(feature = "inject-slowdown")]
        slowdown: super::slowdown::lump(),
        bpmx_raises: 0,
        histogram: None,
        least_over: u32::MAX,
    };
    let (mut policy, mut then) = Policy::new(step, h0, parity);
    let mut stats = Stats {
        initial_h: h0,
        ..Stats::default()
    };
    let mut split = SplitStats::default();
    // The cheapest solution found so far, replayed, with its cost.
    let mut incumbent: Option<(Vec<D::Move>, u32)> = None;
    let store = limits.checkpoint;
    // What an earlier search of this job did, taken over iteration by iteration; and this
    // search's own, kept for the store.
    let mut restored = store.and_then(|s| s.resume());
    let mut progress = Progress::default();
    // An earlier search's progress that does not fit this search: refused, and searched afresh.
    macro_rules! afresh {
        ($why:expr) => {{
            let store = store.expect("only a store's progress is restored");
            store.refuse($why);
            return self::run::<D, H, K>(d, h, start, variant, limits);
        }};
    }
    let outcome = loop {
        let (mut bound, budget, histogram) = match then {
            Then::Iterate {
                bound,
                budget,
                histogram,
            } => (bound, budget, histogram),
            Then::Solved => {
                let (path, _) = incumbent
                    .take()
                    .expect("a policy proves only a solution found");
                break Outcome::Solved(path);
            }
            Then::Exhausted => {
                break if run.capped {
                    Outcome::OverCap
                } else {
                    Outcome::Unsolvable
                };
            }
        };
        // A bound that may overshoot (step 2 too, where the solutions' parity is unknown) stops at
        // what the puzzle's diameter allows; for the others a bound past it is a broken heuristic.
        let overshoots = step.overshoots() || (step == Step::Two && parity.is_none());
        if bound > diameter && overshoots && policy.lower_bound() <= diameter {
            bound = diameter;
        }
        if bound > cap {
            break Outcome::OverCap;
        }
        if bound > diameter {
            break Outcome::PastDiameter(diameter);
        }
        let (gen0, exp0) = (
            if stats.iterations.is_empty() {
                0
            } else {
                run.generated
            },
            run.expanded,
        );
        let index = stats.iterations.len();
        let raises0 = run.bpmx_raises;
        let saved = restored.as_ref().and_then(|p| p.iterations.get(index));
        // An iteration inside which this search's node limit falls is searched, not restored,
        // to stop where an uninterrupted search stops (the checkpoint may have been saved
        // under another limit); the rest of what was saved is of no more use.
        let totals = saved.map(|rec| {
            (
                gen0.checked_add(rec.generated),
                exp0.checked_add(rec.expanded),
                raises0.checked_add(rec.bpmx_raises),
            )
        });
        if let Some((Some(generated), _, _)) = totals {
            if generated >= max_nodes {
                restored = None;
            }
        }
        if let Some(rec) = restored.as_ref().and_then(|p| p.iterations.get(index)) {
            let done = (rec.bound == bound && rec.budget == budget)
                .then(|| restore(d, start, rec, histogram.is_some()))
                .flatten();
            let Some((done, found)) = done else {
                afresh!(&format!(
                    "its iteration {} does not fit this search",
                    index + 1
                ));
            };
            let Some((Some(generated), Some(expanded), Some(raises))) = totals else {
                afresh!(&format!("its iteration {} counts past 2^64", index + 1));
            };
            run.generated = generated;
            run.expanded = expanded;
            run.bpmx_raises = raises;
            run.capped = rec.capped;
            stats.iterations.push(Iteration {
                bound,
                generated: rec.generated,
                expanded: rec.expanded,
                budget,
            });
            stats.final_bound = bound;
            if found.is_some() {
                incumbent = found;
            }
            progress.iterations.push(rec.clone());
            then = after(&mut policy, bound, done, cap);
            continue;
        }
        // The iteration an earlier search was inside when it last saved.
        let partial = match restored.take().and_then(|p| p.current) {
            Some(p) if p.bound != bound => {
                afresh!(&format!(
                    "its iteration {} does not fit this search",
                    index + 1
                ))
            }
            Some(p)
                if H::BPMX
                    || budget.is_some()
                    || !(1..=split::MAX_SPLIT_DEPTH).contains(&p.depth)
                    || p.histogram.is_some() != histogram.is_some() =>
            {
                afresh!("its iteration under way is not one this search cuts")
            }
            // The f-values the finished subtrees tallied are of children they generated.
            Some(p) if !tallies_fit(&p) => {
                afresh!("its iteration under way tallies more than its subtrees generated")
            }
            other => other,
        };
        run.capped = false;
        // A budget is a node limit of this iteration's own (the run's stands above it).
        let budget_end = budget.map(|b| run.generated.saturating_add(b));
        if let Some(end) = budget_end {
            run.max_nodes = max_nodes.min(end);
            run.next_check = run.next_check.min(run.max_nodes);
        }
        run.histogram = histogram;
        run.least_over = u32::MAX;
        let it = Iter { bound, automaton };
        run.bound_is_cap = bound == cap;
        let left = run.max_nodes.saturating_sub(run.generated);
        // Under pathmax a subtree's values flow to its siblings: subtrees searched apart would
        // not be the sequential search, so such a search is never cut. Nor is an iteration with
        // a budget: the threads could not stop where the sequential search stops, and a probe
        // given up is searched whole by them before it is searched again on one thread.
        let cut = if H::BPMX || budget.is_some() {
            None
        } else {
            split::depth(limits.split, &stats.iterations, left)
        };
        // A checkpointed search saves inside its large iterations: each is cut as a split one
        // is and searched subtree by subtree on this thread (an iteration split between threads
        // saves the finished subtrees that lead in move order).
        let resumable = match (store, partial) {
            (Some(_), Some(p)) => Some(p),
            (Some(_), None)
                if cut.is_none()
                    && !H::BPMX
                    && budget.is_none()
                    && stats
                        .iterations
                        .last()
                        .is_some_and(|i| i.generated >= split::AUTO_MIN_NODES) =>
            {
                Some(Partial {
                    bound,
                    depth: split::resumable_depth::<D, H, K>(d, h, it, &mut run, hv),
                    capped: false,
                    histogram: run.histogram.as_ref().map(|h| h.empty_like().counts()),
                    subtrees: Vec::new(),
                })
            }
            _ => None,
        };
        let next_bound = match (resumable, store, cut) {
            (Some(partial), Some(store), _) => {
                progress.current = Some(partial);
                let next =
                    split::resumable::<D, H, K>(d, h, it, &mut run, hv, &mut progress, store);
                match next {
                    Ok(next) => next,
                    Err(why) => afresh!(why),
                }
            }
            (_, _, Some((depth, helpers))) => split::iteration::<D, H, K>(
                d,
                h,
                it,
                &mut run,
                hv,
                (depth, helpers),
                &mut split,
                store.map(|s| (&mut progress, s)),
            ),
            _ => K::iteration(d, h, it, &mut run, hv),
        };
        stats.iterations.push(Iteration {
            bound,
            generated: run.generated - gen0,
            expanded: run.expanded - exp0,
            budget,
        });
        stats.final_bound = bound;
        let done = match run.stop {
            Some(Stop::Found) => {
                let mut path = std::mem::take(&mut run.path);
                path.reverse();
                if !super::replay(d, start, &path) {
                    break Outcome::Wrong(path);
                }
                // Within a bound of u32 costs.
                let cost = super::path_cost(d, start, &path) as u32;
                incumbent = Some((path, cost));
                run.stop = None;
                Done::Found(cost)
            }
            Some(Stop::Nodes) if budget_end.is_some_and(|end| end < max_nodes) => {
                run.stop = None;
                Done::OverBudget
            }
            Some(Stop::Nodes) => break Outcome::NodeLimit,
            Some(Stop::Time(clock)) => break Outcome::TimeLimit(clock),
            Some(Stop::Cancelled) => {
                // Stopped from outside: what it has finished is kept for the next attempt.
                if let Some(store) = store {
                    store.save(&progress);
                }
                break Outcome::Cancelled;
            }
            Some(Stop::Abandoned) => unreachable!("only a split iteration's subtree is abandoned"),
            None => Done::Completed {
                generated: run.generated - gen0,
                expanded: run.expanded - exp0,
                next: next_bound,
                histogram: run.histogram.take(),
            },
        };
        if !matches!(done, Done::Completed { .. }) {
            // A search that stopped inside unwound without undoing its moves.
            run.s = start.clone();
        }
        if budget_end.is_some() {
            run.max_nodes = max_nodes;
            run.next_check = max_nodes.min(run.generated + CHECK_EVERY);
        }
        if store.is_some() {
            let end = match &done {
                Done::Completed {
                    next, histogram, ..
                } => End::Completed {
                    next: *next,
                    histogram: histogram.as_ref().map(|h| h.counts()),
                },
                Done::Found(_) => End::Found(places(
                    d,
                    start,
                    incumbent.as_ref().map_or(&[][..], |(p, _)| p),
                )),
                Done::OverBudget => End::OverBudget,
            };
            let last = stats.iterations.last().copied().unwrap_or_default();
            progress.iterations.push(Finished {
                bound,
                generated: last.generated,
                expanded: last.expanded,
                budget,
                capped: run.capped,
                bpmx_raises: run.bpmx_raises - raises0,
                end,
            });
            progress.current = None;
        }
        then = after(&mut policy, bound, done, cap);
        if let (Some(store), Then::Iterate { .. }) = (store, &then) {
            if store.due() {
                store.save(&progress);
            }
        }
    };
    stats.generated = run.generated;
    stats.expanded = run.expanded;
    stats.bpmx_raises = run.bpmx_raises;
    // A limit that stopped the search below a solution it found leaves that solution unproven.
    let incumbent = match outcome {
        Outcome::NodeLimit | Outcome::TimeLimit(_) | Outcome::Cancelled => {
            incumbent.map(|(path, _)| path)
        }
        _ => None,
    };
    SearchResult {
        outcome,
        stats,
        optimal_guaranteed: optimal_guaranteed && incumbent.is_none(),
        incumbent,
        split,
    }
}

/// The policy's next iteration after one at `bound` came to `done`: the last iteration below
/// the cap searches exactly up to it.
fn after(policy: &mut Policy, bound: u32, done: Done, cap: u32) -> Then {
    match policy.after(bound, done) {
        Then::Iterate {
            bound: next,
            budget,
            histogram,
        } if next > cap && bound < cap => Then::Iterate {
            bound: cap,
            budget,
            histogram: histogram.map(|_| Box::new(Histogram::new(cap))),
        },
        other => other,
    }
}

/// What a finished iteration an earlier search saved came to, as the policy reads it, with the
/// solution it found (replayed to a goal) and its cost; `None` when it cannot be this search's
/// (a histogram where the policy reads none or none where it reads one, a path that does not
/// replay).
#[allow(clippy::type_complexity)]
fn restore<D: Domain>(
    d: &D,
    start: &D::State,
    rec: &Finished,
    histogram: bool,
) -> Option<(Done, Option<(Vec<D::Move>, u32)>)> {
    Some(match &rec.end {
        End::Completed { next, histogram: h } => {
            // The smallest f cut off is above the bound, and the f-values tallied are of
            // children generated in the iteration.
            if *next <= rec.bound {
                return None;
            }
            let histogram = match (h, histogram) {
                (Some(c), true) => {
                    let tallied = c.counts.iter().try_fold(0u64, |t, &n| t.checked_add(n));
                    if tallied.is_none_or(|t| t > rec.generated) {
                        return None;
                    }
                    Some(Box::new(Histogram::from_counts(c)?))
                }
                (None, false) => None,
                _ => return None,
            };
            let done = Done::Completed {
                generated: rec.generated,
                expanded: rec.expanded,
                next: *next,
                histogram,
            };
            (done, None)
        }
        End::Found(places) => {
            let mut s = start.clone();
            let mut path = Vec::with_capacity(places.len());
            for &i in places {
                let m = *d.moves(&s).get(usize::from(i))?;
                d.apply(&mut s, m);
                path.push(m);
            }
            if !super::replay(d, start, &path) {
                return None;
            }
            // Within a bound of u32 costs.
            let cost = super::path_cost(d, start, &path) as u32;
            (Done::Found(cost), Some((path, cost)))
        }
        End::OverBudget => (Done::OverBudget, None),
    })
}

/// Whether the tallies of an iteration under way that a checkpoint holds are a histogram's, and
/// sum, without overflow, to no more than the nodes its subtrees generated.
fn tallies_fit(p: &Partial) -> bool {
    let Some(h) = &p.histogram else {
        return true;
    };
    if Histogram::from_counts(h).is_none() {
        return false;
    }
    let tallied = h.counts.iter().try_fold(0u64, |t, &n| t.checked_add(n));
    let generated = p
        .subtrees
        .iter()
        .try_fold(0u64, |t, s| t.checked_add(s.generated));
    matches!((tallied, generated), (Some(t), Some(g)) if t <= g)
}

/// Each move of `path` from `start` as its place among the moves of the state it is played
/// from: a path as a checkpoint holds it.
fn places<D: Domain>(d: &D, start: &D::State, path: &[D::Move]) -> Vec<u16> {
    let mut s = start.clone();
    path.iter()
        .map(|&m| {
            let i = d.moves(&s).iter().position(|&x| x == m).unwrap_or(0);
            d.apply(&mut s, m);
            i as u16
        })
        .collect()
}

/// Searches below the current state `run.s`, which has heuristic value `hv` and `slack` moves
/// left within the bound (the bound minus its depth). `back` is the move that would undo the
/// last one (skipped when `PRUNE`; `D::NO_MOVE` at the start). Returns the smallest excess over
/// the bound of an f seen below, or `UNWIND` with `run.stop` set; on `Found`, the moves to the
/// goal are pushed onto `run.path` in reverse order.
///
/// The domain and the heuristic come as arguments, not in a struct, so that the compiler knows
/// their tables cannot change during the call and keeps their addresses in registers.
fn dfs<D: Domain, H: Heuristic<D>, const PRUNE: bool>(
    d: &D,
    h: &H,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    back: D::Move,
) -> u32 {
    if let Some(done) = enter(d, h, run, slack, hv) {
        return done;
    }
    let mut excess = u32::MAX;
    for &m in d.moves(&run.s) {
        if PRUNE && m == back {
            continue;
        }
        let searched = child(
            d,
            h,
            run,
            slack,
            hv,
            m,
            &mut excess,
            |run, hv, undo, slack| dfs::<D, H, PRUNE>(d, h, run, slack, hv, undo),
        );
        if !searched {
            return UNWIND;
        }
    }
    excess
}

/// `dfs` with automaton `a`, in whose state `state` the path to the node left it: a move the
/// automaton forbids is neither tried nor counted.
fn dfs_fsm<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    a: &Automaton,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    state: u32,
) -> u32 {
    if let Some(done) = enter(d, h, run, slack, hv) {
        return done;
    }
    let mut excess = u32::MAX;
    let (moves, labels) = (d.moves(&run.s), d.labels(&run.s));
    for (&m, &label) in moves.iter().zip(labels) {
        let next = a.next(state, label.into());
        if next == FORBIDDEN {
            continue;
        }
        let searched = child(d, h, run, slack, hv, m, &mut excess, |run, hv, _, slack| {
            dfs_fsm(d, h, a, run, slack, hv, next)
        });
        if !searched {
            return UNWIND;
        }
    }
    excess
}

/// The generic kernel with bidirectional pathmax, reverse-move pruning on or off.
struct Pathmax<const PRUNE: bool>;

impl<D: Domain, H: Heuristic<D>, const PRUNE: bool> Kernel<D, H> for Pathmax<PRUNE> {
    type Carry = D::Move;
    const START: D::Move = D::NO_MOVE;

    fn pass(_: Iter, back: D::Move, m: D::Move, _: u16, undo: D::Move) -> Option<D::Move> {
        pass_reverse(PRUNE, back, m, undo)
    }

    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        back: D::Move,
    ) -> u32 {
        let slack = it.bound - g;
        let (excess, _) = pathmax::<D, H, Self>(d, h, it, run, slack, hv, h.estimate(hv), back);
        over(it.bound, excess)
    }
}

/// The generic kernel with bidirectional pathmax and an automaton.
struct PathmaxFsm;

impl<D: Domain, H: Heuristic<D>> Kernel<D, H> for PathmaxFsm {
    type Carry = u32;
    const START: u32 = Automaton::START;

    fn pass(it: Iter, state: u32, _: D::Move, label: u16, _: D::Move) -> Option<u32> {
        pass_fsm(it, state, label)
    }

    fn subtree(
        d: &D,
        h: &H,
        it: Iter,
        run: &mut Run<'_, D>,
        g: u32,
        hv: H::Value,
        state: u32,
    ) -> u32 {
        let slack = it.bound - g;
        let (excess, _) = pathmax::<D, H, Self>(d, h, it, run, slack, hv, h.estimate(hv), state);
        over(it.bound, excess)
    }
}

/// `dfs` with bidirectional pathmax, in the form IDA* gives it (Zahavi, Felner, Schaeffer &
/// Sturtevant 2007; Felner et al. 2011): `hn` is the node's value, its estimate or more as its
/// parent raised it. All children are evaluated first, and `hn` rises to the largest child's
/// minus one; each child, when its turn comes, rises to `hn` minus one; each child's search
/// returns the child's value, raised below it, and `hn` rises to that minus one. Whenever `hn`
/// passes the slack the node is cut and its remaining children are not searched. A value so
/// travels up one level per return and down one level per call, as far as the depth-first order
/// takes it: BPMX(∞) along the search, without searching a node again to pass a value further.
/// Returns `dfs`'s excess and the node's final value.
///
/// With weighted moves each "minus one" is minus the move's cost. Every raise is admissible: a
/// move can be undone at its cost, so a node is at most that much further from the goal than
/// any neighbour. So every f that cuts a node is a lower bound on the
/// cost of a solution through it, and the smallest such excess is a safe next bound.
///
/// The kernel `K` says which moves are pruned, from what the path carries (`Kernel::pass`).
#[allow(clippy::too_many_arguments)]
fn pathmax<D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    it: Iter,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    mut hn: u32,
    carry: K::Carry,
) -> (u32, u32) {
    if let Some(done) = enter(d, h, run, slack, hv) {
        return (done, hn);
    }
    // The largest child's value less what reaching it costs.
    let mut best = 0;
    let (moves, labels) = (d.moves(&run.s), d.labels(&run.s));
    for (&m, &label) in moves.iter().zip(labels) {
        if K::pass(it, carry, m, label, d.inverse(&run.s, m)).is_none() {
            continue;
        }
        run.generated += 1;
        let hc = h.estimate(h.update(d, &run.s, m, hv));
        best = best.max(hc.saturating_sub(d.cost(&run.s, m)));
    }
    if best > hn {
        hn = best;
        run.bpmx_raises += 1;
        if hn > slack {
            return (hn - slack, hn);
        }
    }
    let mut excess = u32::MAX;
    for (&m, &label) in moves.iter().zip(labels) {
        let undo = d.inverse(&run.s, m);
        let Some(below) = K::pass(it, carry, m, label, undo) else {
            continue;
        };
        // Evaluated again rather than kept from the first pass: nothing to store per node, and
        // the same value, the update being a function of the parent's value and the move.
        let cv = h.update(d, &run.s, m, hv);
        let cost = d.cost(&run.s, m);
        let mut hc = h.estimate(cv);
        if hn > hc + cost {
            hc = hn - cost;
            run.bpmx_raises += 1;
        }
        let need = cost + hc;
        if need > slack {
            excess = excess.min(need - slack);
            if run.histogram.is_some() {
                run.tally(need - slack);
            }
            continue;
        }
        d.apply(&mut run.s, m);
        let (found, hc) = pathmax::<D, H, K>(d, h, it, run, slack - cost, cv, hc, below);
        if found == UNWIND {
            if let Some(Stop::Found) = run.stop {
                run.path.push(m);
            }
            return (UNWIND, hn);
        }
        excess = excess.min(found);
        d.apply(&mut run.s, undo);
        if hc > hn + cost {
            hn = hc - cost;
            run.bpmx_raises += 1;
            if hn > slack {
                return (excess.min(hn - slack), hn);
            }
        }
    }
    (excess, hn)
}

/// The place no move comes from: the search's start.
const NOWHERE: usize = MAX_PLACES;

/// `dfs` at place `P`, with the previous move given as `came_from`, the place it left
/// (`NOWHERE` at the start): its moves are constants, and each child's search is a direct call
/// to the function of the place the move leads to.
fn dfs_at<D: FixedMoves, H: Heuristic<D>, const PRUNE: bool, const P: usize>(
    d: &D,
    h: &H,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    came_from: usize,
) -> u32 {
    if let Some(done) = enter(d, h, run, slack, hv) {
        return done;
    }
    let mut excess = u32::MAX;
    macro_rules! try_move {
        ($($i:literal)*) => {$(
            if let Some(m) = const { D::MOVES_AT[P][$i] } {
                if !(PRUNE && D::place_after(m) == came_from) {
                    let searched = child(d, h, run, slack, hv, m, &mut excess, |run, hv, _, slack| {
                        at::<D, H, PRUNE>(D::place_after(m), d, h, run, slack, hv, P)
                    });
                    if !searched {
                        return UNWIND;
                    }
                }
            }
        )*};
    }
    const { assert!(MAX_BRANCH == 4) };
    try_move!(0 1 2 3);
    excess
}

/// Calls `dfs_at` for `place`: a jump through a table at the start, a direct call once `place`
/// is a constant.
#[inline(always)]
fn at<D: FixedMoves, H: Heuristic<D>, const PRUNE: bool>(
    place: usize,
    d: &D,
    h: &H,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    came_from: usize,
) -> u32 {
    macro_rules! places {
        ($($p:literal)*) => {
            match place {
                $($p => dfs_at::<D, H, PRUNE, $p>(d, h, run, slack, hv, came_from),)*
                _ => unreachable!("place {place} of at most {MAX_PLACES}"),
            }
        };
    }
    const { assert!(MAX_PLACES == 25) };
    places!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
}

/// `dfs_at` with automaton `a`, in whose state `state` the path to the node left it: each
/// move's label is a constant, its lookup one load.
#[allow(clippy::too_many_arguments)]
fn dfs_at_fsm<D: FixedMoves, H: Heuristic<D>, const P: usize>(
    d: &D,
    h: &H,
    a: &Automaton,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    state: u32,
) -> u32 {
    if let Some(done) = enter(d, h, run, slack, hv) {
        return done;
    }
    let mut excess = u32::MAX;
    macro_rules! try_move {
        ($($i:literal)*) => {$(
            if let Some(m) = const { D::MOVES_AT[P][$i] } {
                let next = a.next(state, const { D::LABELS_AT[P][$i] as usize });
                if next != FORBIDDEN {
                    let searched = child(d, h, run, slack, hv, m, &mut excess, |run, hv, _, slack| {
                        at_fsm::<D, H>(D::place_after(m), d, h, a, run, slack, hv, next)
                    });
                    if !searched {
                        return UNWIND;
                    }
                }
            }
        )*};
    }
    const { assert!(MAX_BRANCH == 4) };
    try_move!(0 1 2 3);
    excess
}

/// `at` for `dfs_at_fsm`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn at_fsm<D: FixedMoves, H: Heuristic<D>>(
    place: usize,
    d: &D,
    h: &H,
    a: &Automaton,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    state: u32,
) -> u32 {
    macro_rules! places {
        ($($p:literal)*) => {
            match place {
                $($p => dfs_at_fsm::<D, H, $p>(d, h, a, run, slack, hv, state),)*
                _ => unreachable!("place {place} of at most {MAX_PLACES}"),
            }
        };
    }
    const { assert!(MAX_PLACES == 25) };
    places!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
}

/// What a node with `slack` moves left within the bound does before its children: the goal
/// test, the depth cap and the limits. `Some` is what its search returns when it has no children
/// to try.
#[inline(always)]
pub(super) fn enter<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
) -> Option<u32> {
    let goal = if H::GOAL_AWARE {
        h.estimate(hv) == 0
    } else {
        d.is_goal(&run.s)
    };
    if goal {
        run.stop = Some(Stop::Found);
        return Some(UNWIND);
    }
    // Every node searched has g + h within the bound, and the bound never exceeds the cap, so
    // a node is at the cap exactly when it has no slack and the bound is the cap. A heuristic
    // that is 0 only at goals has already stopped at a goal above.
    if !H::GOAL_AWARE && slack == 0 && run.bound_is_cap {
        run.capped = true;
        return Some(u32::MAX);
    }
    if run.generated >= run.next_check && run.check() {
        return Some(UNWIND);
    }
    run.expanded += 1;
    #[cfg(feature = "inject-slowdown")]
    if run.expanded.is_multiple_of(super::slowdown::EVERY) {
        super::slowdown::spin(run.slowdown);
    }
    None
}

/// Creates the child of the current node (`slack` left within the bound, heuristic value `hv`)
/// by move `m` and, within the bound, searches below it with `below` (given the child's value,
/// the move that undoes `m` and the child's slack); folds the excesses over the bound seen into
/// `excess`, and tallies them when the policy asks (`Run::histogram`). False when the search
/// unwinds.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn child<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    run: &mut Run<'_, D>,
    slack: u32,
    hv: H::Value,
    m: D::Move,
    excess: &mut u32,
    below: impl FnOnce(&mut Run<'_, D>, H::Value, D::Move, u32) -> u32,
) -> bool {
    run.generated += 1;
    // A child beyond the bound is evaluated from its parent and dropped: it is never applied to
    // the state, and costs no call. Its f exceeds the bound by what it needs beyond the slack.
    let cost = d.cost(&run.s, m);
    let hv = if H::PARTIAL {
        // An excess of at least `least` lowers nothing: `least` is one seen in this iteration,
        // so whatever it stands for here is already counted. The histogram needs every one.
        let least = (*excess).min(run.least_over);
        let ceiling = match run.histogram {
            Some(_) => u32::MAX,
            None => slack.saturating_add(least).saturating_sub(cost),
        };
        match h.update_below(d, &run.s, m, hv, ceiling) {
            Some(hv) => hv,
            None => {
                *excess = least;
                return true;
            }
        }
    } else {
        h.update(d, &run.s, m, hv)
    };
    let need = cost + h.estimate(hv);
    if need > slack {
        let over = need - slack;
        *excess = (*excess).min(over);
        if H::PARTIAL {
            run.least_over = run.least_over.min(over);
        }
        if run.histogram.is_some() {
            run.tally(over);
        }
        return true;
    }
    let undo = d.inverse(&run.s, m);
    d.apply(&mut run.s, m);
    let found = below(run, hv, undo, slack - cost);
    if found == UNWIND {
        if let Some(Stop::Found) = run.stop {
            run.path.push(m);
        }
        return false;
    }
    *excess = (*excess).min(found);
    d.apply(&mut run.s, undo);
    true
}

impl<D: Domain> Run<'_, D> {
    /// Counts a child cut off `over` above the bound in the histogram.
    #[cold]
    #[inline(never)]
    pub(super) fn tally(&mut self, over: u32) {
        if let Some(histogram) = &mut self.histogram {
            histogram.tally(over);
        }
    }

    /// Charges this thread's CPU time since its meter's last look to the search's budget.
    pub(super) fn charge_cpu(&mut self) {
        if let Some(meter) = &mut self.cpu {
            meter.charge();
        }
    }

    /// Looks at this thread's CPU clock again without charging: the time since the last look
    /// was charged by other meters on this thread (a split iteration's).
    pub(super) fn restart_cpu(&mut self) {
        if let Some(meter) = &mut self.cpu {
            meter.mark = Some(thread_cpu_time());
        }
    }

    /// The slow checks, every `CHECK_EVERY` generated nodes and at the node limit: true (with
    /// `stop` set) when the search must stop.
    #[cold]
    #[inline(never)]
    fn check(&mut self) -> bool {
        let stop = if self.generated >= self.max_nodes {
            Some(Stop::Nodes)
        } else if self
            .limits
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            Some(Stop::Cancelled)
        } else if self.cpu.as_mut().is_some_and(CpuMeter::charge) {
            Some(Stop::Time(Clock::Cpu))
        } else if self.deadline.is_some_and(|t| Instant::now() >= t) {
            Some(Stop::Time(Clock::Wall))
        } else if self.order.is_some_and(|o| o.abandoned()) {
            Some(Stop::Abandoned)
        } else {
            None
        };
        self.next_check = self.max_nodes.min(self.generated + CHECK_EVERY);
        self.stop = stop;
        stop.is_some()
    }
}

/// A search's CPU time limit and the CPU time its threads have spent on it so far: each thread
/// adds what its own clock moved since its last look (`CpuMeter`), so that helpers of a split
/// iteration spend the search's budget, not one of their own.
pub(super) struct CpuBudget {
    limit_ns: u64,
    spent_ns: AtomicU64,
}

impl CpuBudget {
    fn new(limit: Duration) -> CpuBudget {
        CpuBudget {
            limit_ns: u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX),
            spent_ns: AtomicU64::new(0),
        }
    }
}

/// One thread's part in a `CpuBudget`: where its CPU clock stood at its last look. The clock is
/// a system call, so it is read only at the slow checks (and where a split iteration hands work
/// between threads), never per node.
#[derive(Clone, Copy)]
pub(super) struct CpuMeter<'a> {
    budget: &'a CpuBudget,
    /// The thread's CPU clock at the last look; `None` before the first (`FIRST_CPU_LOOK`).
    mark: Option<Duration>,
}

impl<'a> CpuMeter<'a> {
    /// The meter of a search's own thread, which first reads its clock at the first slow check.
    fn new(budget: &'a CpuBudget) -> CpuMeter<'a> {
        CpuMeter { budget, mark: None }
    }

    /// Adds this thread's CPU time since the last look to the budget: true once it is spent.
    pub(super) fn charge(&mut self) -> bool {
        let now = thread_cpu_time();
        let spent = self
            .mark
            .map_or(Duration::ZERO, |mark| now.saturating_sub(mark));
        self.mark = Some(now);
        let ns = u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX);
        let total = self.budget.spent_ns.fetch_add(ns, Ordering::Relaxed);
        total.saturating_add(ns) >= self.budget.limit_ns
    }

    /// A meter of the same budget for the calling thread, from now: a split iteration's
    /// search above its cut, or one of its subtrees, on whichever thread takes it.
    pub(super) fn renewed(self) -> CpuMeter<'a> {
        CpuMeter {
            budget: self.budget,
            mark: Some(thread_cpu_time()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Bpmx, Domain, Heuristic, Limits, Outcome, Prune, Step, Variant};
    use super::ida_star;

    /// States 0 to 4 on a line, the goal 0; a move is the state it goes to, down first.
    struct Line;

    const NEXT: [&[u8]; 5] = [&[1], &[0, 2], &[1, 3], &[2, 4], &[3]];
    /// A move's label is the state it goes to.
    const LABELS: [&[u16]; 5] = [&[1], &[0, 2], &[1, 3], &[2, 4], &[3]];

    impl Domain for Line {
        type State = u8;
        type Move = u8;
        const NO_MOVE: u8 = u8::MAX;

        fn moves<'a>(&'a self, s: &u8) -> &'a [u8] {
            NEXT[*s as usize]
        }
        fn labels<'a>(&'a self, s: &u8) -> &'a [u16] {
            LABELS[*s as usize]
        }
        fn inverse(&self, s: &u8, _: u8) -> u8 {
            *s
        }
        fn apply(&self, s: &mut u8, m: u8) {
            *s = m;
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

    /// Admissible and inconsistent: 0 on states 1 and 2, their distance on 3 and 4.
    struct Table;

    impl Heuristic<Line> for Table {
        type Value = u8;
        const GOAL_AWARE: bool = false;

        fn init(&self, _: &Line, s: &u8) -> u8 {
            *s
        }
        fn update(&self, _: &Line, _: &u8, m: u8, _: u8) -> u8 {
            m
        }
        fn estimate(&self, s: u8) -> u32 {
            [0, 0, 0, 3, 4][s as usize]
        }
    }

    /// From state 2 (h 0, distance 2). Bound 0: the root's children 1 (h 0) and 3 (h 3) raise it
    /// to 2 (one raise), past the bound: cut, next bound 2. Bound 2: the same raise (two), child
    /// 1 raised to 1 by its parent (three), searched with slack 1; its one child (reverse pruned)
    /// is the goal. Generated: the start, 2 + 2 children of the root, 1 of state 1; expanded: the
    /// root twice and state 1. Without pathmax the search needs the bound 1 between.
    #[test]
    fn pathmax_raises_are_counted_as_done_by_hand() {
        let v = Variant {
            step: Step::Next,
            prune: Prune::Reverse,
        };
        let r = ida_star(&Line, &Bpmx(Table), &2, v, Limits::default());
        assert_eq!(r.outcome, Outcome::Solved(vec![1, 0]));
        let bounds: Vec<u32> = r.stats.iterations.iter().map(|i| i.bound).collect();
        assert_eq!(bounds, [0, 2]);
        assert_eq!((r.stats.generated, r.stats.expanded), (6, 3));
        assert_eq!(r.stats.bpmx_raises, 3);

        let r = ida_star(&Line, &Table, &2, v, Limits::default());
        assert_eq!(r.outcome, Outcome::Solved(vec![1, 0]));
        let bounds: Vec<u32> = r.stats.iterations.iter().map(|i| i.bound).collect();
        assert_eq!(bounds, [0, 1, 2]);
        assert_eq!(r.stats.bpmx_raises, 0);
    }
}
