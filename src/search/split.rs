//! One IDA* iteration cut at a shallow depth into subtrees that several threads search, answered
//! and counted exactly as the sequential search: the same path, the same node counts.
//!
//! The nodes above the cut are searched first, in move order, as the sequential search would; the
//! subtrees below it are then taken in that order by whichever thread is free. The first subtree
//! (in move order) that holds a solution wins: the subtrees before it are counted whole, it is
//! counted up to its solution, those after it are abandoned and not counted. Where that cannot
//! give the sequential answer (a solution above the cut, or the node limit reached inside the
//! iteration), the iteration is searched again on the calling thread, which gives it.

use super::checkpoint::{self, Checkpoints, Progress};
use super::engine::{child, enter, over, CpuMeter, Iter, Kernel, Run, Stop, CHECK_EVERY, UNWIND};
use super::policy::Histogram;
use super::{Domain, Helpers, Heuristic, Iteration, Split, SplitDepth, SplitStats};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

/// `SplitDepth::Auto` cuts an iteration only after one that generated at least this many nodes
/// (about 5 ms): the next is then several times larger, and below that a cut costs more than it
/// gives back.
pub const AUTO_MIN_NODES: u64 = 1 << 20;
/// `SplitDepth::Auto` deepens the cut until each thread has this many subtrees to take, so that
/// the last one to finish is small beside the iteration.
const AUTO_SUBTREES_PER_THREAD: usize = 64;
/// The deepest cut: `SplitDepth::Auto` goes no deeper, and a `SplitDepth::Depth` is at most this
/// (the nodes at the cut are kept in memory, about 2^depth of them on the 15-puzzle).
pub const MAX_SPLIT_DEPTH: u32 = 24;

/// Whether the next iteration is cut, and how, after `done` iterations, with `left` nodes to go
/// before the node limit.
///
/// `auto` does not cut an iteration that may reach the node limit: there the cut iteration would
/// be searched again on one thread, which doubles its cost. The next iteration is taken to grow
/// from the last as the last grew from the one before, and must fit in the nodes left 4 times.
pub(super) fn depth<'a>(
    split: Option<Split<'a>>,
    done: &[Iteration],
    left: u64,
) -> Option<(SplitDepth, &'a dyn Helpers)> {
    let split = split?;
    let last = done.last().map_or(0, |i| i.generated);
    let before = done.len().checked_sub(2).map_or(0, |i| done[i].generated);
    let growth = (last / before.max(1)).max(1);
    let fits = last.saturating_mul(growth).saturating_mul(4) <= left;
    match split.depth {
        SplitDepth::Depth(_) => Some((split.depth, split.helpers)),
        SplitDepth::Auto if split.helpers.threads() > 1 && last >= AUTO_MIN_NODES && fits => {
            Some((split.depth, split.helpers))
        }
        SplitDepth::Auto => None,
    }
}

/// A subtree's place among its iteration's subtrees, and the place of the first one known to
/// have stopped at a solution or at the node limit: a subtree after that one is abandoned.
#[derive(Clone, Copy)]
pub(super) struct Order<'a> {
    index: usize,
    found: &'a AtomicUsize,
}

impl Order<'_> {
    pub(super) fn abandoned(&self) -> bool {
        self.found.load(Ordering::Relaxed) < self.index
    }
}

/// A node at the cut: its state and heuristic value, what it carries of the path to it (the move
/// that undoes the last one, or the automaton's state), the moves from the start, and the
/// counters of the sequential search when it was generated.
struct Subtree<D: Domain, V, C> {
    s: D::State,
    hv: V,
    carry: C,
    path: Vec<D::Move>,
    /// What the moves from the start cost.
    g: u32,
    generated: u64,
    expanded: u64,
}

/// Where a subtree's result goes, once it is searched.
type Slot<M> = Mutex<Option<Searched<M>>>;

/// What the owner of a split iteration calls after each subtree it searched: saves, when due,
/// the finished subtrees that lead.
type SaveLeading<'f, M> = dyn Fn(&[Slot<M>]) + Sync + 'f;

/// What the search of one subtree came to.
struct Searched<M> {
    generated: u64,
    expanded: u64,
    capped: bool,
    next_bound: u32,
    stop: Option<Stop>,
    /// The moves from the subtree's root to a goal, last first.
    path: Vec<M>,
    /// The f-values cut off, when the policy reads them.
    histogram: Option<Box<Histogram>>,
}

/// Searches one iteration from `run.s` like `K::iteration`, with the subtrees below the cut
/// searched by `helpers`: `run` ends as `K::iteration` would leave it (its counters, its path
/// on `Found`, its stop), and the same value is returned. `count` tallies the sharing.
#[allow(clippy::too_many_arguments)]
pub(super) fn iteration<D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    it: Iter,
    run: &mut Run<'_, D>,
    hv: H::Value,
    (depth, helpers): (SplitDepth, &dyn Helpers),
    count: &mut SplitStats,
    saving: Option<(&mut Progress, &dyn Checkpoints)>,
) -> u32 {
    count.iterations += 1;
    // From here on the CPU time of this thread is charged by the meters of the search above the
    // cut and of the subtrees (those it searches, and other searches' that it helps with while
    // it waits): its own meter looks at its clock again after them.
    run.charge_cpu();
    let (k, (top, subtrees, top_next)) = match depth {
        SplitDepth::Depth(k) => (
            k.clamp(1, MAX_SPLIT_DEPTH),
            cut::<D, H, K>(d, h, it, run, hv, k),
        ),
        SplitDepth::Auto => {
            let want = helpers.threads() * AUTO_SUBTREES_PER_THREAD;
            let mut k = 1;
            let mut c = cut::<D, H, K>(d, h, it, run, hv, k);
            while c.0.stop.is_none() && c.1.len() < want && k < MAX_SPLIT_DEPTH.min(it.bound) {
                // A cut below a solution would find it above the cut: keep the one above.
                let deeper = cut::<D, H, K>(d, h, it, run, hv, k + 1);
                if deeper.0.stop.is_some() {
                    break;
                }
                (c, k) = (deeper, k + 1);
            }
            (k, c)
        }
    };
    run.restart_cpu();
    match top.stop {
        // A solution above the cut comes after the subtrees before it in move order; the node
        // limit's stopping point depends on every count before it.
        Some(Stop::Found | Stop::Nodes) => {
            count.repeated += 1;
            return K::iteration(d, h, it, run, hv);
        }
        Some(stop) => {
            run.generated = top.generated;
            run.expanded = top.expanded;
            run.stop = Some(stop);
            return UNWIND;
        }
        None => {}
    }
    // The owner saves, when due, the finished subtrees that lead in move order: a resumed
    // search cuts at the same depth and takes them up as `resumable` does.
    let saving = saving.map(|(progress, store)| {
        progress.current = Some(checkpoint::Partial {
            bound: it.bound,
            depth: k,
            capped: false,
            histogram: run.histogram.as_ref().map(|h| h.empty_like().counts()),
            subtrees: Vec::new(),
        });
        (Mutex::new(progress), store)
    });
    let save = |results: &[Slot<D::Move>]| {
        let Some((progress, store)) = &saving else {
            return;
        };
        if !store.due() {
            return;
        }
        let mut progress = progress.lock().unwrap_or_else(|e| e.into_inner());
        let Some(partial) = progress.current.as_mut() else {
            return;
        };
        let mut sum = run.histogram.as_ref().map(|h| h.empty_like());
        let (mut subtrees, mut capped) = (Vec::new(), false);
        for r in results {
            let r = r.lock().unwrap_or_else(|e| e.into_inner());
            let Some(r) = r.as_ref().filter(|r| r.stop.is_none()) else {
                break;
            };
            subtrees.push(checkpoint::Subtree {
                generated: r.generated,
                expanded: r.expanded,
                excess: if r.next_bound == u32::MAX {
                    u32::MAX
                } else {
                    r.next_bound - it.bound
                },
            });
            capped |= r.capped;
            if let (Some(sum), Some(part)) = (&mut sum, &r.histogram) {
                sum.add(part);
            }
        }
        if subtrees.len() > partial.subtrees.len() {
            partial.subtrees = subtrees;
            partial.capped = capped;
            partial.histogram = sum.map(|h| h.counts());
            store.save(&progress);
        }
    };
    let mut searched = search(d, h, it, run, &subtrees, helpers, K::subtree, count, &save);
    run.restart_cpu();
    let winner = searched.iter().position(|r| r.stop == Some(Stop::Found));
    let counted = &searched[..winner.map_or(searched.len(), |w| w + 1)];
    if counted.iter().any(|r| r.stop == Some(Stop::Nodes)) {
        count.repeated += 1;
        return K::iteration(d, h, it, run, hv);
    }
    let interrupted = counted.iter().find_map(|r| {
        r.stop
            .filter(|s| matches!(s, Stop::Time(_) | Stop::Cancelled))
    });
    let (generated, expanded, next_bound) = match (winner, interrupted) {
        (Some(w), None) => {
            let (generated, expanded) = totals(counted);
            (
                subtrees[w].generated + generated,
                subtrees[w].expanded + expanded,
                UNWIND,
            )
        }
        (_, Some(_)) => {
            let (generated, expanded) = totals(&searched);
            (top.generated + generated, top.expanded + expanded, UNWIND)
        }
        (None, None) => {
            let (generated, expanded) = totals(&searched);
            let next = searched
                .iter()
                .map(|r| r.next_bound)
                .fold(top_next, u32::min);
            (top.generated + generated, top.expanded + expanded, next)
        }
    };
    // The sequential search looks at the node limit at every node it enters; a parallel one that
    // reached it cannot say where that search would have stopped.
    if run.max_nodes != u64::MAX && generated >= run.max_nodes {
        count.repeated += 1;
        return K::iteration(d, h, it, run, hv);
    }
    run.generated = generated;
    run.expanded = expanded;
    run.next_check = run.max_nodes.min(generated + CHECK_EVERY);
    match (winner, interrupted) {
        (Some(w), None) => {
            let mut path = std::mem::take(&mut searched[w].path);
            path.extend(subtrees[w].path.iter().rev());
            run.path = path;
            run.stop = Some(Stop::Found);
        }
        (_, Some(stop)) => run.stop = Some(stop),
        (None, None) => {
            run.capped = top.capped || searched.iter().any(|r| r.capped);
            // Counts add up in any order: the sequential search's.
            if let Some(all) = &mut run.histogram {
                for part in top
                    .histogram
                    .iter()
                    .chain(searched.iter().flat_map(|r| &r.histogram))
                {
                    all.add(part);
                }
            }
        }
    }
    next_bound
}

/// Generated and expanded nodes over `searched`.
fn totals<M>(searched: &[Searched<M>]) -> (u64, u64) {
    searched
        .iter()
        .fold((0, 0), |(g, e), r| (g + r.generated, e + r.expanded))
}

/// The search above a cut: its run, the subtrees below it, the smallest f above the bound seen.
type Cut<'a, D, V, C> = (Run<'a, D>, Vec<Subtree<D, V, C>>, u32);

/// The search above depth `k`, on a copy of `run`: the copy's counters and stop as the
/// sequential search would leave them had every subtree at depth `k` been empty, the subtrees
/// in move order, and the smallest f above the bound seen above the cut.
fn cut<'a, D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    it: Iter,
    run: &Run<'a, D>,
    hv: H::Value,
    k: u32,
) -> Cut<'a, D, H::Value, K::Carry> {
    let mut top = Run {
        s: run.s.clone(),
        path: Vec::new(),
        capped: run.capped,
        bound_is_cap: run.bound_is_cap,
        generated: run.generated,
        expanded: run.expanded,
        next_check: run.next_check,
        max_nodes: run.max_nodes,
        deadline: run.deadline,
        cpu: run.cpu.map(CpuMeter::renewed),
        limits: run.limits,
        stop: None,
        order: None,
        #[cfg(feature = "inject-slowdown")]
        slowdown: run.slowdown,
        bpmx_raises: 0,
        histogram: run.histogram.as_ref().map(|h| Box::new(h.empty_like())),
        least_over: u32::MAX,
    };
    let mut subtrees = Vec::new();
    let mut path = Vec::new();
    let excess = above::<D, H, K>(
        d,
        h,
        it,
        &mut top,
        (0, 0, hv, K::START),
        k.clamp(1, MAX_SPLIT_DEPTH),
        &mut path,
        &mut |run, path, hv, carry, g| {
            subtrees.push(Subtree {
                s: run.s.clone(),
                hv,
                carry,
                path: path.to_vec(),
                g,
                generated: run.generated,
                expanded: run.expanded,
            });
            u32::MAX
        },
    );
    // Spent or not, the budget is looked at again at the first subtree's start.
    top.charge_cpu();
    (top, subtrees, over(it.bound, excess))
}

/// What `above` does with a node at the cut (in `run.s`, reached by the moves `path`, with its
/// heuristic value, carry and cost from the start): an excess over the bound as a search below
/// it would return (`u32::MAX` for none, `UNWIND` to stop).
type AtCut<'f, D, V, C> = dyn FnMut(&mut Run<'_, D>, &[<D as Domain>::Move], V, C, u32) -> u32 + 'f;

/// `dfs` above the cut at depth `k` (returning, like it, an excess over the bound), from a node
/// `depth` moves and `g` in cost from the start: a child at depth `k` within the bound is handed
/// to `at_cut` instead of being searched.
#[allow(clippy::too_many_arguments)]
fn above<D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    it: Iter,
    run: &mut Run<'_, D>,
    (depth, g, hv, carry): (u32, u32, H::Value, K::Carry),
    k: u32,
    path: &mut Vec<D::Move>,
    at_cut: &mut AtCut<'_, D, H::Value, K::Carry>,
) -> u32 {
    let slack = it.bound - g;
    if let Some(done) = enter(d, h, run, slack, hv) {
        return done;
    }
    let mut excess = u32::MAX;
    let (moves, labels) = (d.moves(&run.s), d.labels(&run.s));
    for (&m, &label) in moves.iter().zip(labels) {
        let Some(below) = K::pass(it, carry, m, label, d.inverse(&run.s, m)) else {
            continue;
        };
        path.push(m);
        let searched = child(d, h, run, slack, hv, m, &mut excess, |run, hv, _, left| {
            let g = it.bound - left;
            if depth + 1 == k {
                at_cut(run, path, hv, below, g)
            } else {
                above::<D, H, K>(d, h, it, run, (depth + 1, g, hv, below), k, path, at_cut)
            }
        });
        path.pop();
        if !searched {
            return UNWIND;
        }
    }
    excess
}

type SubtreeSearch<D, H, C> =
    fn(&D, &H, Iter, &mut Run<'_, D>, u32, <H as Heuristic<D>>::Value, C) -> u32;

thread_local! {
    /// On a thread that waits for the last subtrees of its own search's iteration: how many are
    /// still being searched. While it waits, it may help another search, one subtree at a time,
    /// so that its own search goes on as soon as it can.
    static WAITING: RefCell<Option<Arc<AtomicUsize>>> = const { RefCell::new(None) };
}

/// Searches the subtrees on the threads `helpers` lends, taken in move order. A subtree after
/// one that stopped at a solution or the node limit is abandoned (or not started); after a time
/// limit or a cancel, none is started. One result per subtree, in order, up to the first not
/// started: the subtrees after it are never counted.
#[allow(clippy::too_many_arguments)]
fn search<D: Domain, H: Heuristic<D>, C: Copy + Send + Sync>(
    d: &D,
    h: &H,
    it: Iter,
    run: &Run<'_, D>,
    subtrees: &[Subtree<D, H::Value, C>],
    helpers: &dyn Helpers,
    subtree: SubtreeSearch<D, H, C>,
    count: &mut SplitStats,
    save: &SaveLeading<'_, D::Move>,
) -> Vec<Searched<D::Move>> {
    let next = AtomicUsize::new(0);
    let found = AtomicUsize::new(usize::MAX);
    let halt = AtomicBool::new(false);
    let running = Arc::new(AtomicUsize::new(0));
    let helped = AtomicU64::new(0);
    let owner = thread::current().id();
    let results: Vec<Slot<D::Move>> = subtrees.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        loop {
            if halt.load(Ordering::Relaxed) {
                break;
            }
            running.fetch_add(1, Ordering::Relaxed);
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= subtrees.len() || found.load(Ordering::Relaxed) < i {
                running.fetch_sub(1, Ordering::Release);
                break;
            }
            let t = &subtrees[i];
            // The most this subtree may generate before the sequential search's count reaches the
            // limit (the subtrees before it only bring that point nearer).
            let budget = run.max_nodes.saturating_sub(t.generated);
            let mut r = Run {
                s: t.s.clone(),
                path: Vec::new(),
                capped: false,
                bound_is_cap: run.bound_is_cap,
                generated: 0,
                expanded: 0,
                // The limits are looked at on entering the subtree.
                next_check: 0,
                max_nodes: budget,
                deadline: run.deadline,
                cpu: run.cpu.map(CpuMeter::renewed),
                limits: run.limits,
                stop: None,
                order: Some(Order {
                    index: i,
                    found: &found,
                }),
                #[cfg(feature = "inject-slowdown")]
                slowdown: run.slowdown,
                bpmx_raises: 0,
                histogram: run.histogram.as_ref().map(|h| Box::new(h.empty_like())),
                least_over: u32::MAX,
            };
            let next_bound = subtree(d, h, it, &mut r, t.g, t.hv, t.carry);
            r.charge_cpu();
            helpers.searched();
            match r.stop {
                Some(Stop::Found | Stop::Nodes) => {
                    found.fetch_min(i, Ordering::Relaxed);
                }
                Some(Stop::Time(_) | Stop::Cancelled) => halt.store(true, Ordering::Relaxed),
                _ => {}
            }
            if thread::current().id() != owner {
                helped.fetch_add(1, Ordering::Relaxed);
            }
            let searched = Searched {
                generated: r.generated,
                expanded: r.expanded,
                capped: r.capped,
                next_bound,
                stop: r.stop,
                path: r.path,
                histogram: r.histogram,
            };
            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(searched);
            if thread::current().id() == owner {
                save(&results);
            }
            running.fetch_sub(1, Ordering::Release);
            let own_done = WAITING.with(|w| {
                w.borrow()
                    .as_ref()
                    .is_some_and(|n| n.load(Ordering::Acquire) == 0)
            });
            if own_done {
                break;
            }
        }
        if thread::current().id() == owner {
            WAITING.with(|w| *w.borrow_mut() = Some(Arc::clone(&running)));
        }
    };
    helpers.help(&work);
    WAITING.with(|w| *w.borrow_mut() = None);
    let results: Vec<Searched<D::Move>> = results
        .into_iter()
        .map_while(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    count.subtrees += results.len() as u64;
    count.helped += helped.load(Ordering::Relaxed);
    results
}

/// A resumable iteration's cut is made deep enough to hold this many subtrees, so that its
/// progress can be saved every small part of it.
const RESUMABLE_SUBTREES: usize = 1024;

/// The depth at which to cut a resumable iteration from `run.s`: the shallowest that holds
/// `RESUMABLE_SUBTREES` subtrees, or at which the search above the cut stops by itself.
pub(super) fn resumable_depth<D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    it: Iter,
    run: &mut Run<'_, D>,
    hv: H::Value,
) -> u32 {
    // The looks above the cut charge their own CPU time, as a split iteration's do.
    run.charge_cpu();
    let mut k = 1;
    while k < MAX_SPLIT_DEPTH.min(it.bound) {
        let (top, subtrees, _) = cut::<D, H, K>(d, h, it, run, hv, k);
        if top.stop.is_some() || subtrees.len() >= RESUMABLE_SUBTREES {
            break;
        }
        k += 1;
    }
    run.restart_cpu();
    k
}

/// Searches one iteration from `run.s` on this thread exactly as `K::iteration` would, cut at
/// `progress.current`'s depth: the nodes above the cut are searched in move order as the
/// sequential search searches them, each subtree below it in its turn, so every count and
/// limit falls where it falls in that search. A subtree the progress holds as finished is not
/// searched again: its counts are added where its search would have added them. After each
/// subtree searched, the progress is saved when `store` says a save is due. An error says why
/// the progress is not this iteration's: it holds more subtrees than the iteration has, or
/// counts no search makes.
#[allow(clippy::too_many_arguments)]
pub(super) fn resumable<D: Domain, H: Heuristic<D>, K: Kernel<D, H>>(
    d: &D,
    h: &H,
    it: Iter,
    run: &mut Run<'_, D>,
    hv: H::Value,
    progress: &mut Progress,
    store: &dyn Checkpoints,
) -> Result<u32, &'static str> {
    let Some(partial) = &progress.current else {
        return Err("its iteration under way is missing");
    };
    let (depth, finished) = (partial.depth, partial.subtrees.len());
    let mut index = 0;
    let mut path = Vec::new();
    let mut bad = None;
    let excess = above::<D, H, K>(
        d,
        h,
        it,
        run,
        (0, 0, hv, K::START),
        depth,
        &mut path,
        &mut |run, _, hv, carry, g| {
            let i = index;
            index += 1;
            let partial = progress
                .current
                .as_mut()
                .expect("a resumable iteration is under way");
            if let Some(&t) = partial.subtrees.get(i) {
                // A subtree's f above the bound and its expansions as a search can count them.
                let fits = t.excess == u32::MAX
                    || it.bound.checked_add(t.excess).is_some_and(|f| f < u32::MAX);
                if !fits || run.expanded.checked_add(t.expanded).is_none() {
                    bad = Some("a finished subtree of its iteration under way counts past a bound");
                    run.stop = Some(Stop::Cancelled);
                    return UNWIND;
                }
                if i == 0 {
                    // What the finished subtrees found besides their counts, once: the flag
                    // and the tallies are read at the iteration's end only.
                    run.capped |= partial.capped;
                    if let (Some(all), Some(c)) = (&mut run.histogram, &partial.histogram) {
                        if let Some(part) = Histogram::from_counts(c) {
                            all.add(&part);
                        }
                    }
                }
                // A subtree inside which the node limit may fall is searched again, to stop
                // where the sequential search stops.
                if run.generated.saturating_add(t.generated) < run.max_nodes {
                    run.generated += t.generated;
                    run.expanded += t.expanded;
                    return t.excess;
                }
            }
            let (generated, expanded) = (run.generated, run.expanded);
            let before = run.histogram.clone();
            // Each subtree's excess is its own, as a search of it alone would give.
            run.least_over = u32::MAX;
            let f = K::subtree(d, h, it, run, g, hv, carry);
            // The f above the bound as an excess over it, as the search above the cut reads it.
            let excess = if f == UNWIND || f == u32::MAX {
                f
            } else {
                f - it.bound
            };
            if f == UNWIND {
                return excess;
            }
            if i < partial.subtrees.len() {
                // A finished subtree searched again: its tallies are in the saved ones, which
                // the iteration's histogram already holds.
                run.histogram = before;
                return excess;
            }
            partial.subtrees.push(checkpoint::Subtree {
                generated: run.generated - generated,
                expanded: run.expanded - expanded,
                excess,
            });
            partial.capped |= run.capped;
            if let (Some(sum), Some(now), Some(before)) =
                (&mut partial.histogram, &run.histogram, &before)
            {
                Histogram::add_since(sum, now, before);
            }
            if store.due() {
                store.save(progress);
            }
            excess
        },
    );
    if let Some(why) = bad {
        return Err(why);
    }
    if index < finished && run.stop.is_none() {
        return Err("its iteration under way holds more subtrees than this one");
    }
    Ok(over(it.bound, excess))
}
