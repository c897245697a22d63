//! The IDA* loop: iterations over a bound, and the in-place depth-first search inside one.

use super::{Domain, Heuristic, Iteration, Limits, Outcome, SearchResult, Stats, Step, Variant};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Expansions between two looks at the clock and the cancel flag.
const CHECK_EVERY: u32 = 1 << 14;

enum Flow {
    Continue,
    Found,
    Stop(Stop),
}

#[derive(Clone, Copy)]
enum Stop {
    Nodes,
    Time,
    Cancelled,
}

struct Search<'a, D: Domain, H: Heuristic<D>> {
    d: &'a D,
    h: &'a H,
    s: D::State,
    path: Vec<D::Move>,
    bound: u32,
    /// Smallest f seen above the bound in this iteration.
    next_bound: u32,
    /// A node was left unexpanded because of the depth cap.
    capped: bool,
    cap: u32,
    generated: u64,
    expanded: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    limits: Limits<'a>,
    countdown: u32,
}

/// Runs IDA* from `start` with heuristic `h` and the given variant and limits.
///
/// A path is returned as `Solved` only after it has been replayed from `start` to a goal.
pub fn ida_star<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    start: &D::State,
    variant: Variant,
    limits: Limits<'_>,
) -> SearchResult<D::Move> {
    if variant.reverse_pruning {
        run::<D, H, true>(d, h, start, variant.step, limits)
    } else {
        run::<D, H, false>(d, h, start, variant.step, limits)
    }
}

fn run<D: Domain, H: Heuristic<D>, const PRUNE: bool>(
    d: &D,
    h: &H,
    start: &D::State,
    step: Step,
    limits: Limits<'_>,
) -> SearchResult<D::Move> {
    let started = Instant::now();
    let cap = match (d.depth_cap(), limits.max_depth) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(u32::MAX),
    };
    let parity = d.solution_parity(start);
    let optimal_guaranteed = step != Step::Two || parity.is_some();
    let hv = h.init(d, start);
    let h0 = h.estimate(hv);
    let mut search = Search {
        d,
        h,
        s: start.clone(),
        path: Vec::with_capacity(256),
        bound: h0,
        next_bound: u32::MAX,
        capped: false,
        cap,
        generated: 1,
        expanded: 0,
        max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
        deadline: limits.max_time.map(|t| started + t),
        limits,
        countdown: CHECK_EVERY,
    };
    if step == Step::Two {
        if let Some(p) = parity {
            search.bound += (search.bound + p) % 2;
        }
    }
    let mut stats = Stats {
        initial_h: h0,
        ..Stats::default()
    };
    let outcome = loop {
        if search.bound > cap {
            break Outcome::OverCap;
        }
        search.next_bound = u32::MAX;
        search.capped = false;
        let (gen0, exp0) = (
            if stats.iterations.is_empty() {
                0
            } else {
                search.generated
            },
            search.expanded,
        );
        let flow = search.dfs::<PRUNE>(0, hv, D::NO_MOVE);
        stats.iterations.push(Iteration {
            bound: search.bound,
            generated: search.generated - gen0,
            expanded: search.expanded - exp0,
        });
        stats.final_bound = search.bound;
        match flow {
            Flow::Found => {
                let mut path = std::mem::take(&mut search.path);
                path.reverse();
                break if super::replay(d, start, &path) {
                    Outcome::Solved(path)
                } else {
                    Outcome::Wrong(path)
                };
            }
            Flow::Stop(Stop::Nodes) => break Outcome::NodeLimit,
            Flow::Stop(Stop::Time) => break Outcome::TimeLimit,
            Flow::Stop(Stop::Cancelled) => break Outcome::Cancelled,
            Flow::Continue => {}
        }
        if search.next_bound == u32::MAX {
            break if search.capped {
                Outcome::OverCap
            } else {
                Outcome::Unsolvable
            };
        }
        let next = match step {
            Step::One => search.bound + 1,
            Step::Two => search.bound + 2,
            Step::Next => search.next_bound,
        };
        // The last iteration below the cap searches exactly up to it.
        search.bound = if next > cap && search.bound < cap {
            cap
        } else {
            next
        };
    };
    stats.generated = search.generated;
    stats.expanded = search.expanded;
    SearchResult {
        outcome,
        stats,
        optimal_guaranteed,
    }
}

impl<D: Domain, H: Heuristic<D>> Search<'_, D, H> {
    /// Searches below the current state, which is `g` moves from the start, within the bound, and
    /// has heuristic value `hv`. `back` is the move that would undo the last one (skipped when
    /// `PRUNE`; `D::NO_MOVE` at the start). On `Found`, the moves to the goal are pushed onto `path` in reverse order.
    fn dfs<const PRUNE: bool>(&mut self, g: u32, hv: H::Value, back: D::Move) -> Flow {
        let goal = if H::GOAL_AWARE {
            self.h.estimate(hv) == 0
        } else {
            self.d.is_goal(&self.s)
        };
        if goal {
            return Flow::Found;
        }
        if g >= self.cap {
            self.capped = true;
            return Flow::Continue;
        }
        if let Some(stop) = self.check() {
            return Flow::Stop(stop);
        }
        self.expanded += 1;
        let d = self.d;
        for &m in d.moves(&self.s) {
            if PRUNE && m == back {
                continue;
            }
            self.generated += 1;
            // A child beyond the bound is evaluated from its parent and dropped: it is never
            // applied to the state, and costs no call.
            let child = self.h.update(d, &self.s, m, hv);
            let f = g + 1 + self.h.estimate(child);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let undo = d.inverse(&self.s, m);
            d.apply(&mut self.s, m);
            match self.dfs::<PRUNE>(g + 1, child, undo) {
                Flow::Continue => {}
                Flow::Found => {
                    self.path.push(m);
                    return Flow::Found;
                }
                stop => return stop,
            }
            d.apply(&mut self.s, undo);
        }
        Flow::Continue
    }

    #[inline]
    fn check(&mut self) -> Option<Stop> {
        if self.generated >= self.max_nodes {
            return Some(Stop::Nodes);
        }
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            if let Some(c) = self.limits.cancel {
                if c.load(Ordering::Relaxed) {
                    return Some(Stop::Cancelled);
                }
            }
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    return Some(Stop::Time);
                }
            }
        }
        None
    }
}
