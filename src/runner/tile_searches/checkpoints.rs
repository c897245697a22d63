//! A search stopped at a checkpoint and resumed from it, any number of times, against the same
//! search never stopped: the same counts, iterations and path, under every threshold policy
//! (their bounds read what the finished subtrees counted, IDA*_CR their histogram), on one
//! thread and on two.

use crate::dataset;
use crate::domains::cost::CostModel;
use crate::domains::{HeuristicKind, Spec};
use crate::runner::job::solve_shared;
use crate::runner::solve::{solve, Answer};
use crate::search::checkpoint::{Checkpoints, Progress};
use crate::search::{Limits, Pruning, SplitDepth, Step};
use crate::util::rng::Rng;
use std::path::Path;
use std::sync::Mutex;

/// Korf's #13 under Manhattan distance: 11.9 million nodes, three iterations of more than a
/// million (so checkpointed inside), about 0.1 s.
const INSTANCE: usize = 13;

/// A store that saves at every chance, as a process killed at that moment would leave it, and
/// hands a search the progress it was given.
struct Recorder {
    from: Mutex<Option<Progress>>,
    saves: Mutex<Vec<Progress>>,
}

impl Recorder {
    fn new(from: Option<Progress>) -> Recorder {
        Recorder {
            from: Mutex::new(from),
            saves: Mutex::new(Vec::new()),
        }
    }
}

impl Checkpoints for Recorder {
    fn resume(&self) -> Option<Progress> {
        self.from.lock().unwrap().take()
    }
    fn due(&self) -> bool {
        true
    }
    fn save(&self, progress: &Progress) {
        self.saves.lock().unwrap().push(progress.clone());
    }
    fn refuse(&self, why: &str) {
        panic!("a search refused its own progress: {why}");
    }
}

fn spec(step: Step, pruning: Pruning) -> Spec {
    Spec {
        heuristic: HeuristicKind::parse("manhattan").unwrap(),
        step,
        pruning,
        cost: CostModel::Unit,
    }
}

/// What must not change with interruptions: outcome, path and every count.
fn key(a: &Answer) -> impl PartialEq + std::fmt::Debug + '_ {
    (a.status, &a.path, &a.stats, a.optimal_guaranteed)
}

/// Searches `spec` from `from` with a recorder, on `threads` threads (cut as `--split auto`
/// cuts when more than one): the answer and the saves it made.
fn attempt(spec: &Spec, from: Option<Progress>, threads: usize) -> (Answer, Vec<Progress>) {
    let d =
        dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/korf100.csv")).unwrap();
    let puzzle = &d.instances[INSTANCE - 1].puzzle;
    let store = Recorder::new(from);
    let limits = Limits {
        checkpoint: Some(&store),
        ..Limits::default()
    };
    let answer = if threads == 1 {
        solve(puzzle, spec, limits).unwrap()
    } else {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| solve_shared(puzzle, spec, limits, Some(SplitDepth::Auto)))
            .unwrap()
    };
    let saves = store.saves.into_inner().unwrap();
    (answer, saves)
}

/// The search never stopped, without a store.
fn uninterrupted(spec: &Spec) -> Answer {
    let d =
        dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/korf100.csv")).unwrap();
    solve(&d.instances[INSTANCE - 1].puzzle, spec, Limits::default()).unwrap()
}

/// Resumes `spec` from the saves numbered `at` (or every one, for `None`) of a search that
/// saved at every chance, and checks each resumed search's answer.
fn resumed_from_saves(spec: &Spec, at: Option<&[usize]>) {
    let want = uninterrupted(spec);
    let (whole, saves) = attempt(spec, None, 1);
    assert_eq!(key(&whole), key(&want), "saving changed the search");
    assert!(
        saves
            .iter()
            .any(|p| p.current.as_ref().is_some_and(|c| c.subtrees.len() > 100)),
        "{}: no save inside an iteration",
        spec.name()
    );
    let all: Vec<usize> = (0..saves.len()).collect();
    for &i in at.unwrap_or(&all) {
        let i = i % saves.len();
        let (got, _) = attempt(spec, Some(saves[i].clone()), 1);
        assert_eq!(key(&got), key(&want), "{}: from save {i}", spec.name());
    }
}

/// Every policy, from a seeded sample of the moments a search saved.
#[test]
fn a_search_resumed_from_any_save_counts_as_one_never_stopped() {
    let mut rng = Rng::new(28);
    for step in [Step::Next, Step::One, Step::Two, Step::Bts]
        .into_iter()
        .chain(["cr", "eda1.5"].map(|s| Step::parse(s).unwrap()))
    {
        let at: Vec<usize> = (0..4).map(|_| rng.below(1 << 20) as usize).collect();
        resumed_from_saves(&spec(step, Pruning::Reverse), Some(&at));
    }
}

/// From every save of the search under Korf's policy and under IDA*_CR's.
#[test]
#[ignore = "about a minute: every save of two searches"]
fn a_search_resumed_from_every_save_counts_as_one_never_stopped() {
    resumed_from_saves(&spec(Step::Next, Pruning::Reverse), None);
    resumed_from_saves(&spec(Step::parse("cr").unwrap(), Pruning::Reverse), None);
}

/// Stopped five times, each time at a random save of the attempt before, on one thread or two
/// (a resumed search may go on with more threads or fewer than the one that saved).
#[test]
fn a_search_stopped_five_times_counts_as_one_never_stopped() {
    let mut rng = Rng::new(60);
    for step in [Step::Next, Step::parse("cr").unwrap()] {
        let spec = spec(step, Pruning::Reverse);
        let want = uninterrupted(&spec);
        let mut from = None;
        for stop in 0..5 {
            let threads = 1 + rng.below(2) as usize;
            let from_before = from.clone();
            let (got, saves) = attempt(&spec, from.take(), threads);
            assert_eq!(key(&got), key(&want), "{} after {stop} stops", spec.name());
            // One of the saves after the first quarter, so that each attempt gets further; an
            // attempt that made none (it resumed inside its last iteration and searched that on
            // two threads) is stopped before its first.
            let later = &saves[saves.len() / 4..];
            from = match later.len() {
                0 => from_before.clone(),
                n => Some(later[rng.below(n as u64) as usize].clone()),
            };
        }
        let (got, _) = attempt(&spec, from, 1);
        assert_eq!(key(&got), key(&want), "{} after 5 stops", spec.name());
    }
}
