//! A search stopped at a checkpoint and resumed from it, any number of times, against the same
//! search never stopped: the same counts, iterations and path, under every threshold policy
//! (their bounds read what the finished subtrees counted, IDA*_CR their histogram), on one
//! thread and on two.

use crate::dataset;
use crate::domains::cost::CostModel;
use crate::domains::{HeuristicKind, Puzzle, Spec};
use crate::results::record::Status;
use crate::runner::job::solve_shared;
use crate::runner::solve::{solve, Answer};
use crate::search::checkpoint::{Checkpoints, Progress};
use crate::search::{Limits, Pruning, SplitDepth, Step};
use crate::util::rng::Rng;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Korf's #13 under Manhattan distance: 11.9 million nodes, three iterations of more than a
/// million (so checkpointed inside), about 0.1 s.
const INSTANCE: usize = 13;
/// heavy15's instance searched under heavy moves.
const HEAVY: usize = 1;
/// Korf's instance searched with pathmax over pdb-555+dual.
const BPMX: usize = 26;

/// A store that saves at every chance, as a process killed at that moment would leave it, and
/// hands a search the progress it was given; with `cancel`, it sets the flag at its `n`th save
/// (the search then stops cleanly, and saves once more).
struct Recorder<'a> {
    from: Mutex<Option<Progress>>,
    saves: Mutex<Vec<Progress>>,
    cancel: Option<(usize, &'a AtomicBool)>,
    /// Why the search refused the progress it was given, when it may (else a refusal fails).
    refused: Option<Mutex<Vec<String>>>,
}

impl Recorder<'_> {
    fn new(from: Option<Progress>) -> Recorder<'static> {
        Recorder {
            from: Mutex::new(from),
            saves: Mutex::new(Vec::new()),
            cancel: None,
            refused: None,
        }
    }
}

impl Checkpoints for Recorder<'_> {
    fn resume(&self) -> Option<Progress> {
        self.from.lock().unwrap().take()
    }
    fn due(&self) -> bool {
        true
    }
    fn save(&self, progress: &Progress) {
        let mut saves = self.saves.lock().unwrap();
        saves.push(progress.clone());
        if let Some((n, flag)) = self.cancel {
            if saves.len() == n {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
    fn refuse(&self, why: &str) {
        match &self.refused {
            Some(refused) => refused.lock().unwrap().push(why.to_string()),
            None => panic!("a search refused its own progress: {why}"),
        }
    }
}

fn spec(step: Step, pruning: Pruning) -> Spec {
    spec_of("manhattan", step, pruning, CostModel::Unit)
}

fn spec_of(heuristic: &str, step: Step, pruning: Pruning, cost: CostModel) -> Spec {
    Spec {
        heuristic: HeuristicKind::parse(heuristic).unwrap(),
        step,
        pruning,
        cost,
    }
}

/// What must not change with interruptions: outcome, path and every count.
fn key(a: &Answer) -> impl PartialEq + std::fmt::Debug + '_ {
    (a.status, &a.path, &a.stats, a.optimal_guaranteed)
}

/// Korf's instance `id`.
fn korf(id: usize) -> Puzzle {
    let d =
        dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/korf100.csv")).unwrap();
    d.instances[id - 1].puzzle.clone()
}

/// Searches `spec` on `puzzle` from `from` with `store` (a recorder given `from`), on
/// `threads` threads (cut as `--split auto` cuts when more than one): the answer and the saves
/// it made.
fn attempt_with(
    puzzle: &Puzzle,
    spec: &Spec,
    store: Recorder<'_>,
    limits: Limits<'_>,
    threads: usize,
) -> (Answer, Vec<Progress>) {
    let limits = Limits {
        checkpoint: Some(&store),
        ..limits
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

/// `attempt_with` on Korf's #13 without limits.
fn attempt(spec: &Spec, from: Option<Progress>, threads: usize) -> (Answer, Vec<Progress>) {
    let (got, saves) = attempt_with(
        &korf(INSTANCE),
        spec,
        Recorder::new(from.clone()),
        Limits::default(),
        threads,
    );
    if let Some(from) = &from {
        took_up(from, &got, &saves);
    }
    (got, saves)
}

/// Checks that a search given `from` went on from it rather than from the start: its first
/// save holds what `from` held and more; one that made no save ended in the iteration `from`
/// was in or before (a search from the start saves after its first iteration).
fn took_up(from: &Progress, got: &Answer, saves: &[Progress]) {
    let done = from.iterations.len();
    let Some(first) = saves.first() else {
        assert!(
            got.stats.iterations.len() <= done + 1,
            "a resumed search that made no save searched {} iterations from {done} finished",
            got.stats.iterations.len()
        );
        return;
    };
    assert!(
        first.iterations.len() >= done && first.iterations[..done] == from.iterations[..],
        "the first save does not begin with the iterations it was given"
    );
    let subtrees = |p: &Progress| p.current.as_ref().map_or(0, |c| c.subtrees.len());
    assert!(
        first.iterations.len() > done || subtrees(first) > subtrees(from),
        "the first save holds no more than it was given: {} iterations, {} subtrees",
        first.iterations.len(),
        subtrees(first)
    );
}

/// The search never stopped, without a store.
fn uninterrupted(spec: &Spec) -> Answer {
    solve(&korf(INSTANCE), spec, Limits::default()).unwrap()
}

/// Resumes `spec` on `puzzle` from the saves numbered `at` (or every one, for `None`) of a
/// search that saved at every chance, and checks each resumed search's answer and that it went
/// on from the save; `inside`: some saves are inside an iteration.
fn resumed_from(puzzle: &Puzzle, spec: &Spec, at: Option<&[usize]>, inside: bool) {
    let want = solve(puzzle, spec, Limits::default()).unwrap();
    let (whole, saves) = attempt_with(puzzle, spec, Recorder::new(None), Limits::default(), 1);
    assert_eq!(key(&whole), key(&want), "saving changed the search");
    assert_eq!(
        saves
            .iter()
            .any(|p| p.current.as_ref().is_some_and(|c| c.subtrees.len() > 100)),
        inside,
        "{}: saves inside an iteration",
        spec.name()
    );
    assert!(saves.len() > 2, "{}: {} saves", spec.name(), saves.len());
    let all: Vec<usize> = (0..saves.len()).collect();
    for &i in at.unwrap_or(&all) {
        let i = i % saves.len();
        let from = saves[i].clone();
        let (got, again) = attempt_with(
            puzzle,
            spec,
            Recorder::new(Some(from.clone())),
            Limits::default(),
            1,
        );
        assert_eq!(key(&got), key(&want), "{}: from save {i}", spec.name());
        took_up(&from, &got, &again);
    }
}

fn resumed_from_saves(spec: &Spec, at: Option<&[usize]>) {
    resumed_from(&korf(INSTANCE), spec, at, true);
}

/// Duplicate pruning by automaton, weighted moves, and bidirectional pathmax (saved between
/// iterations only), each from a seeded sample of its saves.
#[test]
fn fsm_weighted_and_pathmax_searches_resume_as_never_stopped() {
    let mut rng = Rng::new(29);
    let mut at = || -> Vec<usize> { (0..3).map(|_| rng.below(1 << 20) as usize).collect() };
    resumed_from_saves(&spec(Step::Next, Pruning::Fsm(2)), Some(&at()));
    let heavy =
        dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/heavy15.csv")).unwrap();
    let weighted = spec_of("manhattan", Step::Next, Pruning::Reverse, CostModel::Heavy);
    resumed_from(
        &heavy.instances[HEAVY - 1].puzzle,
        &weighted,
        Some(&at()),
        true,
    );
    let bpmx = spec_of(
        "pdb-555+dual+bpmx",
        Step::Next,
        Pruning::Reverse,
        CostModel::Unit,
    );
    resumed_from(&korf(BPMX), &bpmx, Some(&at()), false);
}

/// Stopped cleanly (the cancel flag) part way through an iteration, a search saves what it
/// finished, and goes on from there as never stopped: under pathmax, the values the unfinished
/// iteration raised are not counted twice.
#[test]
fn a_search_stopped_cleanly_saves_and_resumes_as_never_stopped() {
    let bpmx = spec_of(
        "pdb-555+dual+bpmx",
        Step::Next,
        Pruning::Reverse,
        CostModel::Unit,
    );
    for (puzzle, spec, n) in [
        (korf(BPMX), bpmx, 2),
        (
            korf(INSTANCE),
            spec(Step::parse("cr").unwrap(), Pruning::Reverse),
            300,
        ),
    ] {
        let want = solve(&puzzle, &spec, Limits::default()).unwrap();
        let flag = AtomicBool::new(false);
        let store = Recorder {
            cancel: Some((n, &flag)),
            ..Recorder::new(None)
        };
        let limits = Limits {
            cancel: Some(&flag),
            ..Limits::default()
        };
        let (stopped, saves) = attempt_with(&puzzle, &spec, store, limits, 1);
        assert_eq!(stopped.status, Status::Cancelled, "{}", spec.name());
        // The flag is read every few thousand nodes: iterations may end before, and save.
        assert!(saves.len() > n, "{}: the stop saves once more", spec.name());
        let last = saves.last().unwrap().clone();
        // The stop fell inside an iteration that it did not finish.
        assert!(stopped.stats.iterations.len() > last.iterations.len());
        if spec.heuristic.name().ends_with("+bpmx") {
            let kept: u64 = last.iterations.iter().map(|i| i.bpmx_raises).sum();
            assert!(
                stopped.stats.bpmx_raises > kept,
                "no raise in the unfinished iteration"
            );
        }
        let (got, again) = attempt_with(
            &puzzle,
            &spec,
            Recorder::new(Some(last.clone())),
            Limits::default(),
            1,
        );
        assert_eq!(key(&got), key(&want), "{}", spec.name());
        took_up(&last, &got, &again);
    }
}

/// A search resumed under a node limit stops where the same search never stopped stops, from
/// saves made before the limit and after it (a checkpoint saved without the limit holds
/// iterations and subtrees past it, which are searched again rather than restored).
#[test]
fn a_search_resumed_under_a_node_limit_stops_where_one_never_stopped_does() {
    let mut rng = Rng::new(31);
    for step in [Step::Next, Step::parse("cr").unwrap()] {
        let spec = spec(step, Pruning::Reverse);
        let (whole, saves) = attempt(&spec, None, 1);
        let total = whole.stats.generated;
        for _ in 0..3 {
            let max_nodes = total / 4 + rng.below(total / 2);
            let limits = Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            };
            let want = solve(&korf(INSTANCE), &spec, limits).unwrap();
            assert_eq!(want.status, Status::NodeLimit);
            for _ in 0..3 {
                let from = saves[rng.below(saves.len() as u64) as usize].clone();
                let (got, _) =
                    attempt_with(&korf(INSTANCE), &spec, Recorder::new(Some(from)), limits, 1);
                assert_eq!(
                    key(&got),
                    key(&want),
                    "{} under {max_nodes} nodes",
                    spec.name()
                );
            }
        }
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

/// An iteration split between two threads saves, when due, the finished subtrees that lead in
/// move order; a search resumed from such a save, on one thread or two, counts as one never
/// stopped.
#[test]
fn a_split_iteration_saves_the_subtrees_that_lead_and_resumes_from_them() {
    let mut rng = Rng::new(9);
    for step in [Step::Next, Step::parse("cr").unwrap()] {
        let spec = spec(step, Pruning::Reverse);
        let want = uninterrupted(&spec);
        let (got, saves) = attempt(&spec, None, 2);
        assert_eq!(key(&got), key(&want), "{}", spec.name());
        let inside: Vec<&Progress> = saves
            .iter()
            .filter(|p| p.current.as_ref().is_some_and(|c| !c.subtrees.is_empty()))
            .collect();
        assert!(
            !inside.is_empty(),
            "{}: no save inside a split iteration",
            spec.name()
        );
        for _ in 0..3 {
            let from = inside[rng.below(inside.len() as u64) as usize].clone();
            let threads = 1 + rng.below(2) as usize;
            let (got, _) = attempt(&spec, Some(from), threads);
            assert_eq!(key(&got), key(&want), "{} on {threads}", spec.name());
        }
    }
}

/// Progress with a valid checksum but counts no search makes (past 2^64 when added, an excess
/// past the largest bound, more tallies than nodes) is refused, and the search starts afresh
/// to the answer of one never stopped.
#[test]
fn progress_with_counts_past_their_bounds_is_refused() {
    let cr = spec(Step::parse("cr").unwrap(), Pruning::Reverse);
    let want = uninterrupted(&cr);
    let (_, saves) = attempt(&cr, None, 1);
    let inside = saves
        .iter()
        .rfind(|p| p.current.as_ref().is_some_and(|c| c.subtrees.len() > 1))
        .expect("a save inside an iteration")
        .clone();
    let mut huge_count = inside.clone();
    huge_count.iterations[1].generated = u64::MAX - 1;
    let mut huge_excess = inside.clone();
    huge_excess.current.as_mut().unwrap().subtrees[0].excess = u32::MAX - 1;
    let mut tallies = inside.clone();
    let current = tallies.current.as_mut().unwrap();
    current.histogram.as_mut().unwrap().counts[0] = u64::MAX;
    for (bad, why) in [
        (huge_count, "counts past 2^64"),
        (huge_excess, "counts past a bound"),
        (tallies, "tallies more than"),
    ] {
        let store = Recorder {
            refused: Some(Mutex::new(Vec::new())),
            ..Recorder::new(Some(bad))
        };
        let limits = Limits {
            checkpoint: Some(&store),
            ..Limits::default()
        };
        let got = solve(&korf(INSTANCE), &cr, limits).unwrap();
        assert_eq!(key(&got), key(&want), "{why}");
        let refused = store.refused.unwrap().into_inner().unwrap();
        assert!(
            refused.len() == 1 && refused[0].contains(why),
            "{why}: {refused:?}"
        );
    }
}
