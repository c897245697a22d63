//! One instance under one variant: the run-time kinds are matched once here and handed to a
//! monomorphic `ida_star::<D, H>`; the answer comes back domain-free (path as text, figures, times).

use crate::domains::booksort::{BookState, Booksort, Breaks};
use crate::domains::knights::{self, KnightState, Knights};
use crate::domains::rotation::{Center, Rotation, RotationState};
use crate::domains::tiles::{self, LinearConflict, Manhattan, Misplaced, TileState, Tiles};
use crate::record::Status;
use crate::search::{self, Domain, Heuristic, Limits, Outcome, Step, Variant, Zero};
use crate::text::shorten;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Heuristics by name; which ones a domain accepts is `DomainKind::heuristics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    Zero,
    Misplaced,
    Manhattan,
    LinearConflict,
    Center,
    Breaks,
}

impl HeuristicKind {
    pub const ALL: [HeuristicKind; 6] = [
        HeuristicKind::Zero,
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Center,
        HeuristicKind::Breaks,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Zero => "zero",
            HeuristicKind::Misplaced => "misplaced",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Center => "center",
            HeuristicKind::Breaks => "breaks",
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
    Rotation,
    Booksort,
    Knights,
}

impl DomainKind {
    pub const ALL: [DomainKind; 4] = [
        DomainKind::Tiles,
        DomainKind::Rotation,
        DomainKind::Booksort,
        DomainKind::Knights,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DomainKind::Tiles => "tiles",
            DomainKind::Rotation => "rotation",
            DomainKind::Booksort => "booksort",
            DomainKind::Knights => "knights",
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
            DomainKind::Rotation => &[HeuristicKind::Center, HeuristicKind::Zero],
            DomainKind::Booksort => &[HeuristicKind::Breaks, HeuristicKind::Zero],
            DomainKind::Knights => &[HeuristicKind::Misplaced, HeuristicKind::Zero],
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

/// A start state ready to search, with its domain's tables (shared between jobs).
// A tile state is large (256 cells) but is copied into the search once per job; boxing it would
// only add an allocation per instance.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Puzzle {
    Tiles {
        domain: Arc<Tiles>,
        start: TileState,
    },
    Rotation {
        domain: Arc<Rotation>,
        start: RotationState,
    },
    Booksort {
        domain: Arc<Booksort>,
        start: BookState,
    },
    Knights {
        domain: Arc<Knights>,
        start: KnightState,
    },
}

impl Puzzle {
    /// A sliding-tile puzzle of `width` x `height`; `goal` defaults to 1..n-1 then the blank.
    /// An error names the field at fault.
    pub fn tiles(
        size: &str,
        start: &str,
        goal: Option<&str>,
    ) -> Result<Puzzle, (&'static str, String)> {
        let (w, h) = tiles::parse_size(size).map_err(|e| ("size", e))?;
        let n = w * h;
        let start = tiles::parse_permutation(start, n).map_err(|e| ("start", e))?;
        let goal = match goal {
            Some(g) => tiles::parse_permutation(g, n).map_err(|e| ("goal", e))?,
            None => tiles::default_goal(n),
        };
        let domain = Arc::new(Tiles::new(w, h, &goal).map_err(|e| ("goal", e))?);
        let start = domain.state(&start).map_err(|e| ("start", e))?;
        Ok(Puzzle::Tiles { domain, start })
    }

    /// A puzzle of any domain from its dataset fields. Tiles need `size` and may have a `goal`;
    /// the other domains fix their board and goal (`size` may be empty or the size the start
    /// implies). An error names the field at fault.
    pub fn fixed(
        kind: DomainKind,
        size: &str,
        start: &str,
        goal: Option<&str>,
    ) -> Result<Puzzle, (&'static str, String)> {
        if kind != DomainKind::Tiles && goal.is_some_and(|g| !g.trim().is_empty()) {
            return Err((
                "goal",
                format!("domain '{}' has a fixed goal: leave it empty", kind.name()),
            ));
        }
        let size = size.trim();
        match kind {
            DomainKind::Tiles => Puzzle::tiles(size, start, goal),
            DomainKind::Rotation => {
                if !size.is_empty() {
                    return Err((
                        "size",
                        format!("'{}': the board is fixed; leave size empty", shorten(size)),
                    ));
                }
                let start = Rotation::parse(start).map_err(|e| ("start", e))?;
                static SHARED: OnceLock<Arc<Rotation>> = OnceLock::new();
                let domain = Arc::clone(SHARED.get_or_init(|| Arc::new(Rotation::new())));
                Ok(Puzzle::Rotation { domain, start })
            }
            DomainKind::Booksort => {
                let (fresh, start) = Booksort::parse(start).map_err(|e| ("start", e))?;
                let n = fresh.n();
                if !size.is_empty() && size != n.to_string() {
                    return Err((
                        "size",
                        format!(
                            "'{}': the start has {n} books; leave size empty or write {n}",
                            shorten(size)
                        ),
                    ));
                }
                static SHARED: [OnceLock<Arc<Booksort>>; 16] = [const { OnceLock::new() }; 16];
                let domain = Arc::clone(SHARED[n].get_or_init(|| Arc::new(fresh)));
                Ok(Puzzle::Booksort { domain, start })
            }
            DomainKind::Knights => {
                if !size.is_empty() && size != "5x5" {
                    return Err((
                        "size",
                        format!("'{}': the board is 5x5; leave size empty", shorten(size)),
                    ));
                }
                let start = Knights::parse(start).map_err(|e| ("start", e))?;
                static SHARED: OnceLock<Arc<Knights>> = OnceLock::new();
                let domain = Arc::clone(SHARED.get_or_init(|| Arc::new(Knights::new())));
                Ok(Puzzle::Knights { domain, start })
            }
        }
    }

    pub fn kind(&self) -> DomainKind {
        match self {
            Puzzle::Tiles { .. } => DomainKind::Tiles,
            Puzzle::Rotation { .. } => DomainKind::Rotation,
            Puzzle::Booksort { .. } => DomainKind::Booksort,
            Puzzle::Knights { .. } => DomainKind::Knights,
        }
    }

    /// The size written in reports: `WxH` for tiles, the number of books, `5x5` for knights.
    pub fn size(&self) -> String {
        match self {
            Puzzle::Tiles { domain, .. } => format!("{}x{}", domain.width(), domain.height()),
            Puzzle::Rotation { .. } => String::new(),
            Puzzle::Booksort { domain, .. } => domain.n().to_string(),
            Puzzle::Knights { .. } => "5x5".into(),
        }
    }

    /// The start state as the dataset's tokens.
    pub fn start_tokens(&self) -> String {
        let join = |v: &[u8]| {
            v.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match self {
            Puzzle::Tiles { domain, start } => join(domain.tiles(start)),
            Puzzle::Rotation { domain, start } => join(domain.digits(start)),
            Puzzle::Booksort { domain, start } => join(domain.books(start)),
            Puzzle::Knights { start, .. } => start
                .cells()
                .iter()
                .map(|&c| {
                    if c == knights::BLANK {
                        "*".into()
                    } else {
                        c.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
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
                    HeuristicKind::Center | HeuristicKind::Breaks => {
                        unreachable!("checked against the domain's list")
                    }
                }
            }
        }
        Puzzle::Rotation { domain, start } => match spec.heuristic {
            HeuristicKind::Center => run(&**domain, &Center, start, spec, limits),
            _ => run(&**domain, &Zero, start, spec, limits),
        },
        Puzzle::Booksort { domain, start } => match spec.heuristic {
            HeuristicKind::Breaks => run(&**domain, &Breaks, start, spec, limits),
            _ => run(&**domain, &Zero, start, spec, limits),
        },
        Puzzle::Knights { domain, start } => match spec.heuristic {
            HeuristicKind::Misplaced => run(&**domain, &knights::Misplaced, start, spec, limits),
            _ => run(&**domain, &Zero, start, spec, limits),
        },
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
