//! Domain-independent IDA*: the `Domain` and `Heuristic` traits, variants, limits, statistics, outcomes.
//!
//! The engine is generic and monomorphic: `ida_star::<D, H>` is instantiated once per domain and
//! heuristic, and the pruning (none, reverse moves, an automaton: `Prune`) picks the kernel. States are changed in
//! place (apply, recurse, undo); moves come from the domain's precomputed tables; heuristics update
//! incrementally from the parent's value. Nothing is allocated or hashed per node. A domain whose
//! moves come from a few places known at compile time (`FixedMoves`) has `ida_star_fixed` too, the
//! same search written once per place; `Domain::search` is the one a domain wants used.
//!
//! Counting, fixed for every domain:
//! - `generated`: states created, the start once per search and every child created by an expansion,
//!   including children whose f exceeds the bound (they are created, evaluated and dropped).
//!   With reverse-move pruning on, the move that undoes the previous one is not tried and not counted;
//!   with an automaton, nor is a move it forbids.
//! - `expanded`: states whose children were created (within the bound, not a goal, below the depth cap).
//!
//! Per-iteration figures count the children created in that iteration; the start is added once, to
//! the first iteration, so the iterations add up to the totals.
//!
//! With bidirectional pathmax (`Bpmx`) an expanded node creates (and counts) all its children
//! before it searches any, so a node that a child's value then prunes still counts as expanded
//! with all its children generated, and a node that reaches the goal has generated its later
//! siblings too. Each child is counted once although it is evaluated again when its turn comes.

pub mod checkpoint;
mod engine;
pub mod fsm;
mod policy;
// In tests without the feature too, for the reading of its setting; nothing of it reaches a
// search without the feature.
#[cfg(any(test, feature = "inject-slowdown"))]
pub(crate) mod slowdown;
mod split;

pub use engine::{ida_star, ida_star_fixed};
pub use split::{AUTO_MIN_NODES, MAX_SPLIT_DEPTH};

use checkpoint::Checkpoints;
use std::borrow::Cow;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A puzzle: immutable tables in `self`, the changing position in `State`.
pub trait Domain: Sync {
    type State: Clone + Send + Sync;
    type Move: Copy + PartialEq + Send + Sync;
    /// A value that is no move: the start state's "previous move".
    const NO_MOVE: Self::Move;
    /// Whether an automaton may prune its moves (`Prune::Fsm`). An automaton trades a move
    /// sequence for an equally long one, not an equally cheap one, so a domain of weighted moves
    /// says no: its searches are refused fsm pruning before they start, and the build makes no
    /// automaton kernels for it.
    const AUTOMATA: bool = true;

    /// Moves available in `s`, in the domain's fixed order.
    fn moves<'a>(&'a self, s: &Self::State) -> &'a [Self::Move];
    /// The label of each move of `moves(s)`, in the same order and as many: its index in the
    /// domain's move order (`fsm::Moves`), which an automaton reads. Only the fsm kernels and a
    /// split search above its cut ask.
    fn labels<'a>(&'a self, s: &Self::State) -> &'a [u16];
    /// The move that undoes `m` played from `s` (the search undoes moves with it, and skips it
    /// next under reverse-move pruning).
    fn inverse(&self, s: &Self::State, m: Self::Move) -> Self::Move;
    fn apply(&self, s: &mut Self::State, m: Self::Move);
    /// What move `m` from `s` costs (called before it is applied): 1 unless the domain weighs its
    /// moves. Bounds, g and f are sums of costs. The move that undoes `m` costs the same (pathmax
    /// relies on it), and an automaton's pruning assumes unit costs.
    #[inline(always)]
    fn cost(&self, _s: &Self::State, _m: Self::Move) -> u32 {
        1
    }
    fn is_goal(&self, s: &Self::State) -> bool;
    /// The parity (0 or 1) shared by the costs (with unit costs, the lengths) of all solutions
    /// from `s`, where it is known in advance; step 2 is sound only then.
    fn solution_parity(&self, s: &Self::State) -> Option<u32>;
    /// The domain's depth cap: solutions longer than this are not searched for.
    fn depth_cap(&self) -> Option<u32> {
        None
    }
    /// A proven bound on every shortest solution's length (the puzzle's diameter, as seen from
    /// the goal): a search whose bound passes it is broken (a heuristic that never says 0 at the
    /// goal, say) and ends as `PastDiameter` instead of iterating for ever.
    fn diameter(&self) -> Option<u32> {
        None
    }
    /// A path from `start` as text.
    fn path_string(&self, start: &Self::State, path: &[Self::Move]) -> String;

    /// IDA* on this domain: `ida_star`, unless the domain has a faster kernel of its own
    /// (`FixedMoves` domains have `ida_star_fixed`).
    fn search<H: Heuristic<Self>>(
        &self,
        h: &H,
        start: &Self::State,
        variant: Variant,
        limits: Limits<'_>,
    ) -> SearchResult<Self::Move>
    where
        Self: Sized,
    {
        ida_star(self, h, start, variant, limits)
    }
}

/// Most moves a `FixedMoves` domain has from one place.
pub const MAX_BRANCH: usize = 4;
/// Most places of a `FixedMoves` domain: the cells of a 5x5 board.
pub const MAX_PLACES: usize = 25;

/// A domain whose moves from a state depend only on its place (the tiles' blank cell), one of at
/// most `MAX_PLACES`, and are known at compile time. `ida_star_fixed` writes its search once per
/// place, so that a move, its inverse and the place it leads to are constants in the code: no move
/// table, no loop over moves, a direct call per child.
pub trait FixedMoves: Domain {
    /// The moves from each place, in the order of `Domain::moves`; `None` pads.
    const MOVES_AT: [[Option<Self::Move>; MAX_BRANCH]; MAX_PLACES];
    /// The label of each move of `MOVES_AT` (`Domain::labels`); 0 pads.
    const LABELS_AT: [[u16; MAX_BRANCH]; MAX_PLACES];
    /// The place of `s`.
    fn place(&self, s: &Self::State) -> usize;
    /// The place move `m` leads to. Of the moves from one place, no two lead to the same place,
    /// and the move that undoes one leads back to the place it left: so under reverse-move
    /// pruning the kernel skips the move to the place the last one came from.
    fn place_after(m: Self::Move) -> usize;
}

/// An admissible estimate of the distance to the goal, updated incrementally along a move.
pub trait Heuristic<D: Domain>: Sync {
    /// What the heuristic carries from a node to its children.
    type Value: Copy + Send + Sync;
    /// True when `estimate` is 0 exactly at goal states, so the goal test is free.
    const GOAL_AWARE: bool;
    /// Search with bidirectional pathmax (`Bpmx`): for inconsistent heuristics, whose values
    /// are worth passing between neighbours. False: the search is exactly the one without it.
    const BPMX: bool = false;

    /// True when `update_below` may stop short of a child's value (see there): the kernels then
    /// keep the least excess over the bound seen, which tells how much of a value they need.
    const PARTIAL: bool = false;

    fn init(&self, d: &D, s: &D::State) -> Self::Value;
    /// The value of the child reached from `s` by `m` (called before `m` is applied).
    fn update(&self, d: &D, s: &D::State, m: D::Move, parent: Self::Value) -> Self::Value;
    fn estimate(&self, v: Self::Value) -> u32;
    /// `update`, or `None` when the child's estimate is at least `ceiling`: a heuristic that
    /// takes the larger of several estimates can stop at the first that reaches it, and skip
    /// the other lookups (the search needs no more: such a child is cut off, and its f cannot
    /// lower the least above the bound seen so far). With `PARTIAL` false it is never `None`.
    #[inline(always)]
    fn update_below(
        &self,
        d: &D,
        s: &D::State,
        m: D::Move,
        parent: Self::Value,
        _ceiling: u32,
    ) -> Option<Self::Value> {
        Some(self.update(d, s, m, parent))
    }
}

/// Blind iterative deepening: h = 0 everywhere, the floor every heuristic is measured against.
pub struct Zero;

impl<D: Domain> Heuristic<D> for Zero {
    type Value = ();
    const GOAL_AWARE: bool = false;

    fn init(&self, _: &D, _: &D::State) {}

    #[inline(always)]
    fn update(&self, _: &D, _: &D::State, _: D::Move, _: ()) {}

    #[inline(always)]
    fn estimate(&self, _: ()) -> u32 {
        0
    }
}

/// Heuristic `H` searched with bidirectional pathmax (Felner et al. 2011): a node's children are
/// evaluated before any is searched, a node's value is raised to its largest child's minus one,
/// a child's to its parent's minus one, and raised values return up the tree as the search
/// backtracks. Values stay admissible (moves cost one and can be undone), so the search stays
/// optimal; it prunes more where the heuristic is inconsistent. See `engine::pathmax`.
pub struct Bpmx<H>(pub H);

impl<D: Domain, H: Heuristic<D>> Heuristic<D> for Bpmx<H> {
    type Value = H::Value;
    const GOAL_AWARE: bool = H::GOAL_AWARE;
    const BPMX: bool = true;

    fn init(&self, d: &D, s: &D::State) -> H::Value {
        self.0.init(d, s)
    }

    #[inline(always)]
    fn update(&self, d: &D, s: &D::State, m: D::Move, parent: H::Value) -> H::Value {
        self.0.update(d, s, m, parent)
    }

    #[inline(always)]
    fn estimate(&self, v: H::Value) -> u32 {
        self.0.estimate(v)
    }
}

/// How the bound grows between iterations (the policies themselves: `policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// bound + 1
    One,
    /// bound + 2, the first bound aligned to the solution parity where the domain knows it
    Two,
    /// Korf's: the smallest f that exceeded the bound
    Next,
    /// IDA*_CR: the smallest bound that admits, of the f-values the last iteration cut off, at
    /// least (factor - 1) times as many nodes as it expanded (a histogram of them), so each
    /// iteration expands at least the factor times as many
    Cr(Factor),
    /// EDA*: the bound times the factor (at least the smallest f that exceeded it)
    Eda(Factor),
    /// Budgeted tree search (IBEX with depth-first search): iterations whose nodes grow 2 to 8
    /// times, found by node-budgeted probes, exponential and then binary, over the bound
    Bts,
}

/// The growth factor of `cr` and `eda`, in tenths: whole tenths keep the bounds whole numbers
/// computed exactly (no float in a policy), and a factor below 2 (`eda1.5`) is the setting
/// where `eda`'s doubling overshoots too far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Factor(u8);

impl Factor {
    /// The factor `cr` and `eda` name without a number.
    pub const TWO: Factor = Factor(20);
    /// The least factor, 1.1: a factor of 1 would not grow.
    pub const MIN: Factor = Factor(11);
    /// The largest, 10.
    pub const MAX: Factor = Factor(100);

    /// The factor in tenths: 20 is 2.
    pub fn tenths(self) -> u64 {
        u64::from(self.0)
    }

    /// `x` times the factor, rounded down, at most `u32::MAX`.
    pub fn times(self, x: u32) -> u32 {
        u32::try_from(u64::from(x) * self.tenths() / 10).unwrap_or(u32::MAX)
    }

    /// A whole number or one with one decimal (`4`, `1.5`, `4.0`), from 1.1 to 10.
    fn parse(s: &str) -> Option<Factor> {
        let (whole, tenth) = match s.split_once('.') {
            Some((whole, tenth)) if tenth.len() == 1 => (whole, tenth),
            Some(_) => return None,
            None => (s, "0"),
        };
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || whole.starts_with('0') || !digits(tenth) {
            return None;
        }
        let tenths = whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?;
        u8::try_from(tenths)
            .ok()
            .filter(|t| (Factor::MIN.0..=Factor::MAX.0).contains(t))
            .map(Factor)
    }
}

/// As step names spell it: `4`, `1.5`.
impl std::fmt::Display for Factor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 % 10 {
            0 => write!(f, "{}", self.0 / 10),
            tenth => write!(f, "{}.{tenth}", self.0 / 10),
        }
    }
}

impl Step {
    /// The steps by their names alone (`cr` and `eda` of factor 2).
    pub const ALL: [Step; 6] = [
        Step::One,
        Step::Two,
        Step::Next,
        Step::Cr(Factor::TWO),
        Step::Eda(Factor::TWO),
        Step::Bts,
    ];

    /// As runs.csv and variant names spell it: `cr` and `eda` are of factor 2, `cr4` and
    /// `eda1.5` of other factors.
    pub fn name(self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Step::One => "1",
            Step::Two => "2",
            Step::Next => "next",
            Step::Cr(Factor::TWO) => "cr",
            Step::Eda(Factor::TWO) => "eda",
            Step::Bts => "bts",
            Step::Cr(f) => return Cow::Owned(format!("cr{f}")),
            Step::Eda(f) => return Cow::Owned(format!("eda{f}")),
        })
    }

    /// A name of `ALL`, or `cr` or `eda` with a factor from 1.1 to 10, whole or with one
    /// decimal (`cr4`, `eda1.5`; `cr2` is `cr`).
    pub fn parse(s: &str) -> Option<Step> {
        if let Some(step) = Step::ALL.into_iter().find(|step| step.name() == s) {
            return Some(step);
        }
        if let Some(f) = s.strip_prefix("cr") {
            return Factor::parse(f).map(Step::Cr);
        }
        Factor::parse(s.strip_prefix("eda")?).map(Step::Eda)
    }

    /// The factor given to `cr` or `eda`, when it is not their default 2: a step that a build
    /// without factors does not know.
    pub fn named_factor(self) -> Option<Factor> {
        match self {
            Step::Cr(f) | Step::Eda(f) if f != Factor::TWO => Some(f),
            _ => None,
        }
    }

    /// Whether its bound may pass the cheapest solution's cost, so that the first solution found
    /// need not be the cheapest: the search then goes on below that solution's cost.
    pub fn overshoots(self) -> bool {
        matches!(self, Step::Cr(_) | Step::Eda(_) | Step::Bts)
    }
}

/// Which move sequences the search skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pruning {
    /// Every move is tried.
    None,
    /// The move that undoes the previous one is skipped.
    Reverse,
    /// Duplicate pruning by an automaton built from move sequences of up to this length
    /// (`fsm::Automaton`); includes reverse-move pruning.
    Fsm(u32),
    /// `fsm` without a depth: the domain's default (`Family::FSM_DEPTH`), which `or_depth`
    /// makes an `Fsm` before a variant is named or searched.
    FsmDefault,
}

impl Pruning {
    /// The depth `fsm` means on the tiles, chosen by measurement (docs/pruning.md); each
    /// domain has its own (`Family::FSM_DEPTH`).
    pub const DEFAULT_FSM_DEPTH: u32 = 14;
    /// The deepest automaton asked for by name.
    pub const MAX_FSM_DEPTH: u32 = 32;

    /// The kind, as runs.csv's `pruning` column spells it: none, reverse or fsm.
    pub fn kind(self) -> &'static str {
        match self {
            Pruning::None => "none",
            Pruning::Reverse => "reverse",
            Pruning::Fsm(_) | Pruning::FsmDefault => "fsm",
        }
    }

    /// `FsmDefault` as the automaton of `depth`, a domain's default; any other as it is.
    pub fn or_depth(self, depth: u32) -> Pruning {
        match self {
            Pruning::FsmDefault => Pruning::Fsm(depth),
            other => other,
        }
    }

    /// Whether it prunes by automaton.
    pub fn is_fsm(self) -> bool {
        matches!(self, Pruning::Fsm(_) | Pruning::FsmDefault)
    }

    /// Reverse-move pruning on or off: reverse or none.
    pub const fn reverse(on: bool) -> Pruning {
        if on {
            Pruning::Reverse
        } else {
            Pruning::None
        }
    }

    /// Whether the move that undoes the previous one is skipped (an automaton skips it too).
    pub fn reverse_moves(self) -> bool {
        self != Pruning::None
    }

    /// The name with the automaton's depth: none, reverse, fsm14.
    pub fn name(self) -> String {
        match self {
            Pruning::Fsm(depth) => format!("fsm{depth}"),
            other => other.kind().to_string(),
        }
    }

    /// `none`, `reverse`, `fsm` (the domain's default depth) or `fsmN` (N from 2 to
    /// `MAX_FSM_DEPTH`).
    pub fn parse(s: &str) -> Option<Pruning> {
        match s {
            "none" => Some(Pruning::None),
            "reverse" => Some(Pruning::Reverse),
            "fsm" => Some(Pruning::FsmDefault),
            _ => {
                let depth: u32 = s.strip_prefix("fsm")?.parse().ok()?;
                (2..=Pruning::MAX_FSM_DEPTH)
                    .contains(&depth)
                    .then_some(Pruning::Fsm(depth))
            }
        }
    }
}

/// The engine's run-time variant: everything but the heuristic, which is a type parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub step: Step,
    pub prune: Prune,
}

impl Variant {
    /// Whether the move that undoes the previous one is skipped (it is by an automaton too).
    pub fn reverse_pruning(self) -> bool {
        !matches!(self.prune, Prune::None)
    }
}

/// `Pruning` as the engine runs it: with the automaton itself, built once per process and shared
/// by every search (`crate::tables::fsm`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Prune {
    None,
    Reverse,
    Fsm(&'static fsm::Automaton),
}

impl Prune {
    /// No pruning, or reverse-move pruning (`on`).
    pub const fn reverse(on: bool) -> Prune {
        if on {
            Prune::Reverse
        } else {
            Prune::None
        }
    }

    /// The pruning by name.
    pub fn pruning(self) -> Pruning {
        match self {
            Prune::None => Pruning::None,
            Prune::Reverse => Pruning::Reverse,
            Prune::Fsm(a) => Pruning::Fsm(a.depth()),
        }
    }
}

/// The automaton's name and size, not its table.
impl std::fmt::Debug for Prune {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Prune::Fsm(a) => write!(f, "Fsm(depth {}, {} states)", a.depth(), a.states()),
            other => write!(f, "{}", other.pruning().name()),
        }
    }
}

/// When to give up. Checked cooperatively: the node limit at every expansion, the clocks and the
/// cancel flag every few thousand expansions. A limit only ever stops a search: the counts up to
/// where it stopped are the search's whatever the limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    pub max_nodes: Option<u64>,
    /// CPU time of the search, on every thread that searches it (with `split`, the helpers'
    /// too), counted from its start.
    pub max_cpu: Option<Duration>,
    /// Wall time from the search's start.
    pub max_wall: Option<Duration>,
    /// Overrides the domain's depth cap when smaller.
    pub max_depth: Option<u32>,
    /// Set from outside (Ctrl-C) to stop the search at its next check.
    pub cancel: Option<&'a AtomicBool>,
    /// Search each large iteration on several threads (`None`: on the calling thread only).
    pub split: Option<Split<'a>>,
    /// Where the search saves its progress, and takes an earlier search's from (`None`: it
    /// saves nothing).
    pub checkpoint: Option<&'a dyn Checkpoints>,
}

/// How to cut an iteration into subtrees for several threads. The search is the sequential one
/// whatever the cut: the same path, node counts and iterations.
#[derive(Clone, Copy)]
pub struct Split<'a> {
    pub depth: SplitDepth,
    /// The threads that search the subtrees.
    pub helpers: &'a dyn Helpers,
}

impl std::fmt::Debug for Split<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Split({:?}, {} threads)",
            self.depth,
            self.helpers.threads()
        )
    }
}

/// Where iterations are cut into subtrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitDepth {
    /// Iterations after one of at least `split::AUTO_MIN_NODES` generated nodes, at the
    /// shallowest depth that gives each thread many subtrees.
    Auto,
    /// Every iteration, at this depth (1 to `MAX_SPLIT_DEPTH`).
    Depth(u32),
}

/// Threads that lend a hand with one search: the search's own code runs on them, the engine
/// knows nothing of how they are had.
pub trait Helpers: Sync {
    /// How many threads may run `work` at once, the caller's included.
    fn threads(&self) -> usize;
    /// Runs `work` on the calling thread and on as many helper threads as are free, and
    /// returns once every call has returned. `work` takes tasks from a shared queue until it is
    /// empty, so it is correct with any number of calls.
    fn help(&self, work: &(dyn Fn() + Sync));
    /// Told by `work` after each subtree it searched, on the thread that searched it: a helper's
    /// CPU time can be counted to the job before `help` returns (a checkpoint saved meanwhile
    /// reads it).
    fn searched(&self) {}
}

/// One iteration of IDA*: a depth-first search within a bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Iteration {
    pub bound: u32,
    pub generated: u64,
    pub expanded: u64,
    /// The nodes it could generate before it was given up (budgeted tree search's probes); it
    /// was given up when `generated` reached it.
    pub budget: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub generated: u64,
    pub expanded: u64,
    pub iterations: Vec<Iteration>,
    /// The bound of the last iteration run (0 when none ran).
    pub final_bound: u32,
    /// The heuristic's estimate of the start state.
    pub initial_h: u32,
    /// How often bidirectional pathmax raised a node's heuristic value (0 without it).
    pub bpmx_raises: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<M> {
    /// A path of moves from the start to a goal, replayed and checked by the engine.
    Solved(Vec<M>),
    /// A path the search returned that does not replay to a goal: a defect, never hidden.
    Wrong(Vec<M>),
    /// The whole reachable space was searched without a goal.
    Unsolvable,
    /// No solution within the depth cap.
    OverCap,
    /// The bound passed the domain's proven diameter (see `Domain::diameter`) without a
    /// solution: a defect of the heuristic or the search, never an answer.
    PastDiameter(u32),
    NodeLimit,
    /// Stopped by the time limit of this clock.
    TimeLimit(Clock),
    Cancelled,
}

/// The clock a time limit counts: the search's CPU time, or the time on the wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clock {
    Cpu,
    Wall,
}

impl Clock {
    /// As reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            Clock::Cpu => "cpu",
            Clock::Wall => "wall",
        }
    }

    pub fn parse(s: &str) -> Option<Clock> {
        match s {
            "cpu" => Some(Clock::Cpu),
            "wall" => Some(Clock::Wall),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    pub outcome: Outcome<M>,
    pub stats: Stats,
    /// False when the variant cannot promise a shortest path (step 2 without a known parity),
    /// or when the answer is an `incumbent`.
    pub optimal_guaranteed: bool,
    /// With a limit's outcome (node, time, cancelled) of a policy that overshoots: the cheapest
    /// solution it had found, replayed to a goal, which the search was still trying to beat.
    /// `None` with any other outcome.
    pub incumbent: Option<Vec<M>>,
    /// How the search was shared between threads (all zero when it was not).
    pub split: SplitStats,
}

/// How a search was shared between threads: never part of its answer or counts, which are the
/// sequential search's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitStats {
    /// Iterations cut into subtrees.
    pub iterations: u32,
    /// Cut iterations searched again on one thread: a solution above the cut, or the node limit
    /// reached inside.
    pub repeated: u32,
    /// Subtrees searched.
    pub subtrees: u64,
    /// Of those, the subtrees searched by a thread other than the search's own.
    pub helped: u64,
}

/// What `path` from `start` costs (its length under unit costs).
pub fn path_cost<D: Domain>(d: &D, start: &D::State, path: &[D::Move]) -> u64 {
    let mut s = start.clone();
    let mut cost = 0;
    for &m in path {
        cost += u64::from(d.cost(&s, m));
        d.apply(&mut s, m);
    }
    cost
}

/// Replays `path` from `start`; true when every move is legal and the last state is a goal.
pub fn replay<D: Domain>(d: &D, start: &D::State, path: &[D::Move]) -> bool {
    let mut s = start.clone();
    for &m in path {
        if !d.moves(&s).contains(&m) {
            return false;
        }
        d.apply(&mut s, m);
    }
    d.is_goal(&s)
}

#[cfg(test)]
mod tests {
    use super::{Factor, Step};

    /// `cr` and `eda` are factor 2 under their old names, whatever spelling asked for it; other
    /// factors, whole or in tenths from 1.1 to 10, are in the name; anything else is no step.
    #[test]
    fn steps_name_their_factors() {
        let name = |s: &str| Step::parse(s).map(|step| step.name().into_owned());
        for (asked, named) in [
            ("cr", "cr"),
            ("cr2", "cr"),
            ("cr2.0", "cr"),
            ("eda2", "eda"),
            ("cr4", "cr4"),
            ("cr4.0", "cr4"),
            ("eda1.5", "eda1.5"),
            ("cr1.1", "cr1.1"),
            ("eda10", "eda10"),
            ("bts", "bts"),
        ] {
            assert_eq!(name(asked).as_deref(), Some(named), "{asked}");
        }
        assert_eq!(Step::parse("cr"), Some(Step::Cr(Factor::TWO)));
        let three = Factor::parse("3");
        assert_eq!(three.map(|f| f.times(7)), Some(21));
        assert_eq!(Step::parse("eda3").and_then(Step::named_factor), three);
        assert_eq!(Step::parse("cr").and_then(Step::named_factor), None);
        for bad in [
            "cr1", "cr1.0", "cr0.5", "cr10.1", "cr11", "cr1.55", "cr.5", "cr5.", "cr04", "cr-2",
            "cr 4", "cr+4", "crx", "eda1e1", "bts2", "next2", "4", "",
        ] {
            assert_eq!(Step::parse(bad), None, "{bad}");
        }
        for step in Step::ALL {
            assert_eq!(step.named_factor(), None);
            assert_eq!(Step::parse(&step.name()), Some(step));
        }
    }
}
