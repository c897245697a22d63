//! One instance under one variant: the run-time kinds are matched once here and handed to a
//! monomorphic `ida_star::<D, H>`; the answer comes back domain-free (path as text, figures, times).

use crate::domains::tiles::{self, LinearConflict, Manhattan, Misplaced, TileState, Tiles};
use crate::search::{self, Domain, Heuristic, Limits, Outcome, Step, Variant, Zero};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Heuristics by name; which ones a domain accepts is `DomainKind::heuristics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    Zero,
    Misplaced,
    Manhattan,
    LinearConflict,
}

impl HeuristicKind {
    pub const ALL: [HeuristicKind; 4] = [
        HeuristicKind::Zero,
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Zero => "zero",
            HeuristicKind::Misplaced => "misplaced",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
        }
    }

    pub fn parse(s: &str) -> Option<HeuristicKind> {
        HeuristicKind::ALL.into_iter().find(|h| h.name() == s)
    }
}

/// The puzzle families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DomainKind {
    Tiles,
}

impl DomainKind {
    pub const ALL: [DomainKind; 1] = [DomainKind::Tiles];

    pub fn name(self) -> &'static str {
        match self {
            DomainKind::Tiles => "tiles",
        }
    }

    pub fn parse(s: &str) -> Option<DomainKind> {
        DomainKind::ALL.into_iter().find(|d| d.name() == s)
    }

    /// The heuristics this domain accepts, the default first.
    pub fn heuristics(self) -> &'static [HeuristicKind] {
        match self {
            DomainKind::Tiles => &[
                HeuristicKind::Manhattan,
                HeuristicKind::LinearConflict,
                HeuristicKind::Misplaced,
                HeuristicKind::Zero,
            ],
        }
    }
}

/// One variant: heuristic, threshold step, reverse-move pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    pub heuristic: HeuristicKind,
    pub step: Step,
    pub reverse_pruning: bool,
}

impl Spec {
    /// The stable name used in reports, e.g. `manhattan/step2/prune`.
    pub fn name(&self) -> String {
        format!(
            "{}/step{}/{}",
            self.heuristic.name(),
            self.step.name(),
            if self.reverse_pruning {
                "prune"
            } else {
                "noprune"
            }
        )
    }

    fn variant(&self) -> Variant {
        Variant {
            step: self.step,
            reverse_pruning: self.reverse_pruning,
        }
    }
}

/// What became of one job. `Suboptimal` and `Error` are given by the batch runner, which knows the
/// dataset's reference length and catches failures; `Cancelled` is never written to a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Solved,
    Unsolvable,
    OverCap,
    NodeLimit,
    TimeLimit,
    Suboptimal,
    Wrong,
    Error,
    Cancelled,
}

impl Status {
    pub const ALL: [Status; 9] = [
        Status::Solved,
        Status::Unsolvable,
        Status::OverCap,
        Status::NodeLimit,
        Status::TimeLimit,
        Status::Suboptimal,
        Status::Wrong,
        Status::Error,
        Status::Cancelled,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::OverCap => "over_cap",
            Status::NodeLimit => "node_limit",
            Status::TimeLimit => "time_limit",
            Status::Suboptimal => "suboptimal",
            Status::Wrong => "wrong",
            Status::Error => "error",
            Status::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.name() == s)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A start state ready to search, with its domain's tables (shared between jobs).
#[derive(Clone)]
pub enum Puzzle {
    Tiles {
        domain: Arc<Tiles>,
        start: TileState,
    },
}

impl Puzzle {
    /// A sliding-tile puzzle of `width` x `height`; `goal` defaults to 1..n-1 then the blank.
    pub fn tiles(size: &str, start: &str, goal: Option<&str>) -> Result<Puzzle, String> {
        let (w, h) = tiles::parse_size(size)?;
        let n = w * h;
        let start = tiles::parse_permutation(start, n).map_err(|e| format!("start: {e}"))?;
        let goal = match goal {
            Some(g) => tiles::parse_permutation(g, n).map_err(|e| format!("goal: {e}"))?,
            None => tiles::default_goal(n),
        };
        let domain = Arc::new(Tiles::new(w, h, &goal)?);
        let start = domain.state(&start)?;
        Ok(Puzzle::Tiles { domain, start })
    }

    pub fn kind(&self) -> DomainKind {
        match self {
            Puzzle::Tiles { .. } => DomainKind::Tiles,
        }
    }
}

/// The answer to one job, with no search types left in it.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: Status,
    pub path: Option<String>,
    pub length: Option<u32>,
    pub stats: search::Stats,
    /// False when the variant cannot promise a shortest path (step 2 without a known parity).
    pub optimal_guaranteed: bool,
    pub wall: Duration,
    /// CPU time of the thread that ran the search.
    pub cpu: Duration,
}

/// Solves `puzzle` under `spec`; an error names a heuristic the domain does not have.
pub fn solve(puzzle: &Puzzle, spec: &Spec, limits: Limits<'_>) -> Result<Answer, String> {
    if !puzzle.kind().heuristics().contains(&spec.heuristic) {
        return Err(format!(
            "heuristic '{}' does not apply to {}: expected one of {}",
            spec.heuristic.name(),
            puzzle.kind().name(),
            names(puzzle.kind().heuristics())
        ));
    }
    let wall = Instant::now();
    let cpu = thread_cpu_time();
    let mut answer = match puzzle {
        Puzzle::Tiles { domain, start } => {
            let d: &Tiles = domain;
            if !d.is_solvable(start) {
                unsolvable(d.solution_parity(start).is_some())
            } else {
                match spec.heuristic {
                    HeuristicKind::Zero => run(d, &Zero, start, spec, limits),
                    HeuristicKind::Misplaced => run(d, &Misplaced, start, spec, limits),
                    HeuristicKind::Manhattan => run(d, &Manhattan, start, spec, limits),
                    HeuristicKind::LinearConflict => run(d, &LinearConflict, start, spec, limits),
                }
            }
        }
    };
    answer.wall = wall.elapsed();
    answer.cpu = thread_cpu_time().saturating_sub(cpu);
    Ok(answer)
}

/// The names of `kinds`, comma separated.
pub fn names(kinds: &[HeuristicKind]) -> String {
    kinds
        .iter()
        .map(|h| h.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn unsolvable(optimal_guaranteed: bool) -> Answer {
    Answer {
        status: Status::Unsolvable,
        path: None,
        length: None,
        stats: search::Stats::default(),
        optimal_guaranteed,
        wall: Duration::ZERO,
        cpu: Duration::ZERO,
    }
}

fn run<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    start: &D::State,
    spec: &Spec,
    limits: Limits<'_>,
) -> Answer {
    let r = search::ida_star(d, h, start, spec.variant(), limits);
    let (status, path) = match &r.outcome {
        Outcome::Solved(p) => (Status::Solved, Some(p)),
        Outcome::Wrong(p) => (Status::Wrong, Some(p)),
        Outcome::Unsolvable => (Status::Unsolvable, None),
        Outcome::OverCap => (Status::OverCap, None),
        Outcome::NodeLimit => (Status::NodeLimit, None),
        Outcome::TimeLimit => (Status::TimeLimit, None),
        Outcome::Cancelled => (Status::Cancelled, None),
    };
    Answer {
        status,
        length: path.map(|p| p.len() as u32),
        path: path.map(|p| d.path_string(start, p)),
        stats: r.stats,
        optimal_guaranteed: r.optimal_guaranteed,
        wall: Duration::ZERO,
        cpu: Duration::ZERO,
    }
}

/// CPU time consumed so far by the calling thread.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
