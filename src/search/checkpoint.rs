//! What a search has done so far, in a form that lets a later search go on from there with the
//! counts, path and iterations of one that was never stopped: the finished iterations, and
//! inside the current one the subtrees of a cut finished so far, in move order.
//!
//! The engine knows nothing of files: it hands its progress to a `Checkpoints` (the runner's,
//! which writes it) and takes the progress to resume from the same. Everything here is plain
//! numbers, no search type: a solution's moves are their places in `Domain::moves`.

use std::fmt;

/// Where a search's progress goes, and where a resumed search's comes from.
pub trait Checkpoints: Sync {
    /// The progress to go on from, if any (read once, at the search's start).
    fn resume(&self) -> Option<Progress>;
    /// True when enough time has passed since the last save (or the start) for another.
    fn due(&self) -> bool;
    /// Keeps `progress` (a failure to keep it is the store's to report, never the search's).
    fn save(&self, progress: &Progress);
    /// The progress `resume` gave does not fit this search (another build's, or damaged): the
    /// search starts afresh, and says why through the store.
    fn refuse(&self, why: &str);
}

/// The store's name in a `Limits`' debug output, not its contents.
impl fmt::Debug for dyn Checkpoints + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Checkpoints")
    }
}

/// A search's progress: its finished iterations, and the one under way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub iterations: Vec<Finished>,
    pub current: Option<Partial>,
}

/// A finished iteration: what `Stats::iterations` holds of it, and what its policy read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub bound: u32,
    pub generated: u64,
    pub expanded: u64,
    pub budget: Option<u64>,
    /// A node was left unexpanded at the depth cap.
    pub capped: bool,
    /// The values bidirectional pathmax raised in it (`Stats::bpmx_raises`; pathmax searches
    /// are saved between iterations only, so the iteration under way has none to keep).
    pub bpmx_raises: u64,
    pub end: End,
}

/// How an iteration that did not end the search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It searched every node within its bound; `next` is the smallest f it cut off
    /// (`u32::MAX`: none).
    Completed {
        next: u32,
        histogram: Option<Counts>,
    },
    /// It found a solution (a policy that overshoots searched on below it): each move's place
    /// among the moves of the state it is played from.
    Found(Vec<u16>),
    /// It was given up at its node budget.
    OverBudget,
}

/// IDA*_CR's histogram of the f-values cut off: its bucket width and counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    pub width: u32,
    pub counts: Vec<u64>,
}

/// The iteration under way: cut at `depth` (as a split iteration is), the subtrees below the cut
/// finished so far, in move order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    pub bound: u32,
    pub depth: u32,
    /// A node was left at the depth cap, above the cut or in a finished subtree.
    pub capped: bool,
    /// The f-values the finished subtrees cut off (those above the cut are counted again).
    pub histogram: Option<Counts>,
    pub subtrees: Vec<Subtree>,
}

/// A finished subtree below the cut: the nodes it generated and expanded (its root not
/// included: the node above generated it), and its smallest f above the bound as an excess
/// over it (`u32::MAX`: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subtree {
    pub generated: u64,
    pub expanded: u64,
    pub excess: u32,
}
