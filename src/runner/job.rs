//! One job: an instance under a variant, solved (alone, or sharing its large iterations with the
//! pool's other workers), its answer checked against the dataset's reference length and made a
//! runs.csv record, a panic or an error included.

use crate::dataset::{Dataset, Instance};
use crate::domains::{Puzzle, Spec};
use crate::results::growth;
use crate::results::record::{on_off, Record, Status};
use crate::runner::checkpoint::{self, Found, Identity, Store};
use crate::runner::solve::{self, Answer};
use crate::runner::RunnerError;
use crate::search::{Helpers, Iteration, Limits, Split, SplitDepth};
use crate::util::clock::thread_cpu_time;
use crate::util::term;
use std::borrow::Cow;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One instance under one variant.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// The job's place in the run's deterministic order.
    pub index: usize,
    pub dataset: &'a Dataset,
    pub instance: &'a Instance,
    pub spec: Spec,
    /// `spec.name()`, made once per variant rather than once per job.
    pub variant: &'a str,
    /// Which of the job's runs this is (`run --repeat`), from 1.
    pub repetition: u32,
    /// The name of the run the job's row goes to (runs.csv's `run` column): empty until the
    /// run's folder is chosen, and for rows that go to no run folder.
    pub run: &'a str,
}

/// A finished job's record, which borrows the job's names.
pub type JobRecord<'a> = Record<Cow<'a, str>>;

/// A job as its worker finishes it.
pub(super) struct FinishedJob<'a> {
    /// The job's place in the run's order.
    pub(super) index: usize,
    pub(super) record: JobRecord<'a>,
    /// The search's counts of each iteration.
    pub(super) iterations: Vec<Iteration>,
}

/// How sharing a search with other threads skews its own thread's CPU clock: the time this
/// thread spent on other jobs' subtrees meanwhile, and the time others spent on this job's.
#[derive(Clone, Copy, Default)]
pub(super) struct Shared {
    lent: Duration,
    helped: Duration,
}

impl Shared {
    /// The job's CPU time on every thread, given its own thread's.
    pub(super) fn cpu(self, own: Duration) -> Duration {
        own.saturating_sub(self.lent) + self.helped
    }
}

/// Solves one job on the calling thread alone, its iterations never split: what `worker` times,
/// one job at a time. `None` when it was cancelled.
pub(crate) fn solve_job<'a>(job: &Job<'a>, limits: Limits<'_>) -> Option<JobRecord<'a>> {
    guarded(job, || {
        solve::solve(&job.instance.puzzle, &job.spec, limits)
    })
    .map(|f| f.record)
}

/// Solves one puzzle on `threads` threads of its own: `split` cuts its large iterations for them.
/// With a `checkpoint` file, its progress is saved there, an earlier attempt's taken from there
/// (its times count in the answer's), and the file removed once the search has ended; a file
/// there of another puzzle, variant or build is refused (the error says so).
pub(crate) fn solve_alone(
    puzzle: &Puzzle,
    spec: &Spec,
    limits: Limits<'_>,
    split: Option<SplitDepth>,
    threads: usize,
    checkpoint: Option<(PathBuf, Duration, Identity)>,
) -> Result<Answer, RunnerError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| RunnerError::Threads(format!("cannot start {threads} thread(s): {e}")))?;
    pool.install(|| {
        let Some((path, every, identity)) = checkpoint else {
            return solve_shared(puzzle, spec, limits, split).map_err(RunnerError::Refused);
        };
        let (store, found) = Store::open(path.clone(), every, identity);
        if let Found::Refused(why) = found {
            return Err(RunnerError::Refused(format!(
                "--checkpoint-file {}: refused: {why} (remove it to start afresh)",
                path.display()
            )));
        }
        let prior = store.prior();
        let limits = Limits {
            checkpoint: Some(&store),
            ..checkpoint::remaining(limits, prior)
        };
        let mut answer =
            timed(puzzle, spec, limits, split, &store.helped_ns).map_err(RunnerError::Refused)?;
        // Read again: a checkpoint the search refused counts no earlier time.
        let prior = store.prior();
        answer.cpu += prior.0;
        answer.wall += prior.1;
        if answer.status != Status::Cancelled {
            if let Err(e) = store.remove() {
                term::note(format_args!(
                    "warning: cannot remove checkpoint {}: {e}",
                    path.display()
                ));
            }
        }
        Ok(answer)
    })
}

/// Solves one puzzle on the current rayon worker, lending its split iterations' subtrees to the
/// pool's other workers whenever they are free. The answer's CPU time is the job's on every
/// thread: this one's, less what it spent on other jobs' subtrees meanwhile, plus its helpers'.
pub fn solve_shared(
    puzzle: &Puzzle,
    spec: &Spec,
    limits: Limits<'_>,
    split: Option<SplitDepth>,
) -> Result<Answer, String> {
    timed(puzzle, spec, limits, split, &AtomicU64::new(0))
}

/// `solve_shared`, the helpers' CPU time added up in `helped`.
fn timed(
    puzzle: &Puzzle,
    spec: &Spec,
    limits: Limits<'_>,
    split: Option<SplitDepth>,
    helped: &AtomicU64,
) -> Result<Answer, String> {
    let wall = Instant::now();
    let cpu = thread_cpu_time();
    let (mut answer, shared) = search_shared(puzzle, spec, limits, split, helped)?;
    answer.wall = wall.elapsed();
    answer.cpu = shared.cpu(thread_cpu_time().saturating_sub(cpu));
    Ok(answer)
}

/// `solve_shared` without the timing: the answer, and how sharing skews this thread's clock.
/// The helpers' CPU time is added to `helped` as they spend it (a checkpoint's store reads it).
pub(super) fn search_shared(
    puzzle: &Puzzle,
    spec: &Spec,
    limits: Limits<'_>,
    split: Option<SplitDepth>,
    helped: &AtomicU64,
) -> Result<(Answer, Shared), String> {
    let helpers = Pool {
        threads: rayon::current_num_threads(),
        owner: std::thread::current().id(),
        cpu_ns: helped,
    };
    let helped0 = helped.load(Ordering::Relaxed);
    let limits = Limits {
        split: split.map(|depth| Split {
            depth,
            helpers: &helpers,
        }),
        ..limits
    };
    let lent = LENT.with(Cell::get);
    let answer = solve::search(puzzle, spec, limits)?;
    let shared = Shared {
        lent: LENT.with(Cell::get).saturating_sub(lent),
        helped: Duration::from_nanos(helped.load(Ordering::Relaxed).saturating_sub(helped0)),
    };
    Ok((answer, shared))
}

thread_local! {
    /// CPU time this thread spent on other jobs' subtrees (`solve_shared` takes it off its own).
    static LENT: Cell<Duration> = const { Cell::new(Duration::ZERO) };
    /// This thread's CPU clock when, helping another job, it last counted its time to that job.
    static HELPING: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// The CPU time the calling thread has spent on other jobs' subtrees so far.
pub(super) fn lent() -> Duration {
    LENT.with(Cell::get)
}

/// The rayon pool's workers as helpers of one job's search.
struct Pool<'a> {
    threads: usize,
    /// The thread that runs the job.
    owner: std::thread::ThreadId,
    /// CPU time other threads spent on the job's subtrees.
    cpu_ns: &'a AtomicU64,
}

impl Helpers for Pool<'_> {
    fn threads(&self) -> usize {
        self.threads
    }

    fn help(&self, work: &(dyn Fn() + Sync)) {
        // One offer per other worker: a worker busy with a job of its own takes it up only once
        // it finds no whole job left; an offer nobody took is run (and finds nothing to do) by
        // the owner at the end of the scope.
        rayon::in_place_scope(|scope| {
            for _ in 1..self.threads {
                scope.spawn(|_| {
                    if std::thread::current().id() == self.owner {
                        return work();
                    }
                    HELPING.with(|h| h.set(thread_cpu_time()));
                    work();
                    self.searched();
                });
            }
            work();
        });
    }

    /// A helper's CPU time since it began or last said so goes to the job's count at once,
    /// so that a checkpoint saved while the helpers work counts what they finished.
    fn searched(&self) {
        if std::thread::current().id() == self.owner {
            return;
        }
        let now = thread_cpu_time();
        let spent = now.saturating_sub(HELPING.with(|h| h.replace(now)));
        let ns = u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX);
        self.cpu_ns.fetch_add(ns, Ordering::Relaxed);
        LENT.with(|l| l.set(l.get() + spent));
    }
}

/// `job` finished by `solve`, which may panic: a panic becomes an `error` record (the run goes
/// on with the other jobs); a cancelled search gives nothing.
pub(super) fn guarded<'a>(
    job: &Job<'a>,
    solve: impl FnOnce() -> Result<Answer, String>,
) -> Option<FinishedJob<'a>> {
    let result = panic::catch_unwind(AssertUnwindSafe(solve));
    let answer = match result {
        Ok(Ok(answer)) if answer.status == Status::Cancelled => return None,
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(message)) => Err(message),
        Err(panic) => Err(panic_message(panic.as_ref())),
    };
    Some(finished(job, answer))
}

/// The `error` record of `job`, with `message`: for a job whose answer never came (`ab`'s
/// worker killed in it).
pub(crate) fn error_record(job: &Job, message: String) -> Record {
    finished(job, Err(message)).record.to_owned_record()
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    format!("the search panicked: {text}")
}

/// A finished job: its record, the answer checked against the dataset's reference length, and
/// its iterations. The record owns only the answer's path and a message: the names every job
/// repeats are the job's.
fn finished<'a>(job: &Job<'a>, answer: Result<Answer, String>) -> FinishedJob<'a> {
    let spec = &job.spec;
    let optimal = job.instance.optimal;
    let mut r = Record {
        dataset: Cow::Borrowed(job.dataset.name.as_str()),
        instance: Cow::Borrowed(job.instance.id.as_str()),
        domain: Cow::Borrowed(job.instance.domain.name()),
        size: Cow::Borrowed(&job.instance.size),
        variant: Cow::Borrowed(job.variant),
        heuristic: Cow::Borrowed(spec.heuristic.name()),
        step: spec.step.name(),
        reverse_pruning: Cow::Borrowed(on_off(spec.reverse_pruning())),
        status: Status::Error,
        length: None,
        optimal,
        nodes_generated: 0,
        nodes_expanded: 0,
        iterations: 0,
        final_bound: 0,
        time_wall_s: 0.0,
        time_cpu_s: 0.0,
        nodes_per_s: 0.0,
        initial_h: 0,
        optimal_guaranteed: true,
        message: Cow::Borrowed(""),
        path: Cow::Borrowed(""),
        limit_clock: Cow::Borrowed(""),
        repetition: job.repetition,
        run: Cow::Borrowed(job.run),
        pruning: Cow::Borrowed(spec.pruning.kind()),
        branching_factor: None,
        bpmx_raises: 0,
        cost_model: Cow::Borrowed(spec.cost.name()),
        cost: None,
    };
    let mut a = match answer {
        Ok(a) => a,
        Err(message) => {
            r.status = Status::Error;
            r.message = Cow::Owned(message);
            return FinishedJob {
                index: job.index,
                record: r,
                iterations: Vec::new(),
            };
        }
    };
    // The dataset's reference cost, where it is for this variant's costs.
    let reference_cost = job
        .instance
        .optimal_cost
        .filter(|(model, _)| *model == spec.cost)
        .map(|(_, c)| c);
    let (status, message) = judge(&a, optimal, reference_cost, spec.cost.is_unit());
    r.status = status;
    r.message = Cow::Owned(message);
    r.length = a.length;
    r.cost = a.cost.map(|(units, scale)| units as f64 / f64::from(scale));
    r.nodes_generated = a.stats.generated;
    r.nodes_expanded = a.stats.expanded;
    r.iterations = a.stats.iterations.len() as u32;
    r.final_bound = a.stats.final_bound;
    set_times(&mut r, a.wall, a.cpu);
    r.initial_h = a.stats.initial_h;
    r.optimal_guaranteed = a.optimal_guaranteed;
    r.path = Cow::Owned(a.path.unwrap_or_default());
    r.limit_clock = Cow::Borrowed(a.limit_clock.map_or("", |c| c.name()));
    // b* reads the last bound as a depth in moves: under weighted moves it is a cost, and after
    // a policy that overshoots, the last iteration is a proof below the solution's cost.
    r.branching_factor = if spec.cost.is_unit() && !spec.step.overshoots() {
        growth::branching_factor(&a.stats.iterations)
    } else {
        None
    };
    r.bpmx_raises = a.stats.bpmx_raises;
    FinishedJob {
        index: job.index,
        record: r,
        iterations: std::mem::take(&mut a.stats.iterations),
    }
}

pub(super) fn set_times<S>(r: &mut Record<S>, wall: Duration, cpu: Duration) {
    r.time_wall_s = wall.as_secs_f64();
    r.time_cpu_s = cpu.as_secs_f64();
    r.nodes_per_s = if r.time_cpu_s > 0.0 {
        (r.nodes_generated as f64 / r.time_cpu_s).round()
    } else {
        0.0
    };
}

/// The status to report, given the dataset's reference length and, where it has one for the
/// variant's cost model, reference cost. Cheaper than the reference cost, or shorter than the
/// reference length, is `wrong`; dearer is `wrong` too when the variant guarantees a cheapest
/// path (the search or the dataset is in error), and `suboptimal` when it does not. Under unit
/// costs the length is the cost; under weighted moves a cheapest path may be longer than a
/// shortest one, so only a path shorter than the reference length is judged by length. No
/// solution (unsolvable, or none within the depth cap) where the reference has a length is
/// `wrong`. A search stopped by a limit with a solution in hand (one it had not yet proven the
/// cheapest) keeps its limit's status: its solution is `wrong` only where it is cheaper or
/// shorter than the reference, since costing more is what an unproven solution may do.
fn judge(
    a: &Answer,
    optimal: Option<u32>,
    reference_cost: Option<f64>,
    unit: bool,
) -> (Status, String) {
    if let Some((units, scale)) = a.past_diameter {
        // Under weighted moves the bound is a cost in whole units of the model's scale: told
        // in the model's units, as runs.csv's `cost`.
        let bound = if unit {
            format!("{units} moves, the puzzle's proven diameter")
        } else {
            format!(
                "a cost of {}, the puzzle's proven diameter in moves at its dearest move's cost",
                units as f64 / f64::from(scale)
            )
        };
        return (
            Status::Error,
            format!("no solution within {bound}: the heuristic (or the search) is broken"),
        );
    }
    let unproven = a.status.limited() && a.path.is_some();
    let judged = a.status == Status::Solved || unproven;
    if let (true, Some((units, scale)), Some(want)) = (judged, a.cost, reference_cost) {
        let cost = units as f64 / f64::from(scale);
        // Costs are whole numbers of 1/scale: half of one tells two apart.
        let tolerance = 0.5 / f64::from(scale);
        if cost < want - tolerance {
            return (
                Status::Wrong,
                format!("cost {cost} is below the reference cost {want}"),
            );
        }
        if cost > want + tolerance && !unproven {
            return if a.optimal_guaranteed {
                (
                    Status::Wrong,
                    format!("cost {cost} is above the reference cost {want}, from a variant that guarantees a cheapest path"),
                )
            } else {
                (
                    Status::Suboptimal,
                    format!("cost {cost} is above the reference cost {want}"),
                )
            };
        }
    }
    match (a.status, a.length, optimal) {
        (Status::Wrong, _, _) => (
            Status::Wrong,
            "the returned path does not replay to the goal".into(),
        ),
        (Status::Solved, Some(len), Some(opt)) if len < opt => (
            Status::Wrong,
            format!("length {len} is shorter than the reference {opt}"),
        ),
        (_, Some(len), Some(opt)) if unproven && len < opt => (
            Status::Wrong,
            format!(
                "length {len} of the solution found before the limit is shorter than the \
                 reference {opt}"
            ),
        ),
        (Status::Solved, Some(len), Some(opt)) if unit && len > opt && a.optimal_guaranteed => (
            Status::Wrong,
            format!(
                "length {len} is longer than the reference {opt}, from a variant that guarantees a shortest path"
            ),
        ),
        (Status::Solved, Some(len), Some(opt)) if unit && len > opt => (
            Status::Suboptimal,
            format!("length {len} is longer than the reference {opt}"),
        ),
        (Status::Unsolvable, _, Some(opt)) => (
            Status::Wrong,
            format!("reported unsolvable, but the reference length is {opt}"),
        ),
        (Status::OverCap, _, Some(opt)) if a.depth_cap.is_none_or(|cap| opt <= cap) => (
            Status::Wrong,
            format!("no solution within the depth cap, but the reference length is {opt}"),
        ),
        (Status::Unsolvable, _, None) if reference_cost.is_some() => (
            Status::Wrong,
            format!(
                "reported unsolvable, but the reference cost is {}",
                reference_cost.unwrap_or_default()
            ),
        ),
        (status, _, _) if unproven => (
            status,
            "the solution found before the limit is not proven the cheapest".into(),
        ),
        (status, _, _) => (status, String::new()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::dataset;
    use crate::domains::HeuristicKind;
    use crate::search::{Pruning, Step};
    use std::path::Path;

    /// A one-instance dataset: the 8-puzzle one move from the goal, reference length 1.
    pub(crate) fn dataset() -> Dataset {
        let csv = b"id,domain,size,start,goal,optimal\none,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n";
        dataset::parse(Path::new("t.csv"), csv).unwrap()
    }

    pub(crate) fn job(d: &Dataset) -> Job<'_> {
        Job {
            index: 0,
            dataset: d,
            instance: &d.instances[0],
            spec: Spec {
                heuristic: HeuristicKind::parse("manhattan").unwrap(),
                step: Step::Next,
                pruning: Pruning::Reverse,
                cost: crate::domains::cost::CostModel::Unit,
            },
            variant: "manhattan/stepnext/prune",
            run: "t",
            repetition: 1,
        }
    }

    fn answer(status: Status, length: Option<u32>, optimal_guaranteed: bool) -> Answer {
        Answer {
            status,
            path: length.map(|n| "L".repeat(n as usize)),
            length,
            cost: length.map(|n| (u64::from(n), 1)),
            stats: Default::default(),
            optimal_guaranteed,
            depth_cap: Some(4),
            past_diameter: None,
            limit_clock: None,
            wall: Duration::ZERO,
            cpu: Duration::ZERO,
            split: Default::default(),
        }
    }

    #[test]
    fn a_shared_search_counts_its_helpers_time_and_not_what_it_lent() {
        let ms = Duration::from_millis;
        // A job that lent its thread to other jobs' subtrees, and was helped.
        let shared = Shared {
            lent: ms(3),
            helped: ms(7),
        };
        assert_eq!(shared.cpu(ms(10)), ms(14));
        assert_eq!(shared.cpu(ms(2)), ms(7));
    }

    #[test]
    fn a_panicking_job_becomes_an_error_record() {
        let d = dataset();
        let r = guarded(&job(&d), || panic!("no such tile"))
            .expect("a record")
            .record;
        assert_eq!(r.status, Status::Error);
        assert_eq!(r.message, "the search panicked: no such tile");
        assert_eq!(r.job(), ("t", "one", "manhattan/stepnext/prune"));
        assert_eq!((r.length, r.optimal), (None, Some(1)));
        // A formatted panic message is kept too.
        let r = guarded(&job(&d), || panic!("tile {}", 9))
            .expect("a record")
            .record;
        assert_eq!(r.message, "the search panicked: tile 9");
    }

    #[test]
    fn a_job_without_an_answer_has_an_error_record() {
        let d = dataset();
        let r = error_record(&job(&d), "no answer".into());
        assert_eq!(r.status, Status::Error);
        assert_eq!(r.message, "no answer");
        assert_eq!(r.job(), ("t", "one", "manhattan/stepnext/prune"));
        assert_eq!((r.length, r.optimal, r.time_cpu_s), (None, Some(1), 0.0));
    }

    #[test]
    fn a_cancelled_job_gives_no_record_and_a_solved_one_is_judged() {
        let d = dataset();
        assert!(guarded(&job(&d), || Ok(answer(Status::Cancelled, None, true))).is_none());
        let mut solved = answer(Status::Solved, Some(1), true);
        solved.stats.iterations = vec![Iteration {
            bound: 1,
            generated: 3,
            expanded: 1,
            budget: None,
        }];
        let f = guarded(&job(&d), || Ok(solved)).unwrap();
        assert_eq!(
            (f.record.status, f.record.length),
            (Status::Solved, Some(1))
        );
        assert_eq!((f.index, f.iterations.len()), (0, 1));
    }

    /// Under weighted moves the cost is judged against the reference cost, to half a unit of
    /// its scale, and a path longer than the reference length is no fault.
    #[test]
    fn verdicts_against_the_reference_cost() {
        let weighted = |length: u32, units: u64, guaranteed| {
            let mut a = answer(Status::Solved, Some(length), guaranteed);
            a.cost = Some((units, 840));
            a
        };
        let verdict = |a: &Answer, want| judge(a, Some(6), want, false).0;
        use Status::*;
        // 1680/840 = 2, the reference.
        assert_eq!(verdict(&weighted(8, 1680, true), Some(2.0)), Solved);
        assert_eq!(verdict(&weighted(8, 1680, true), None), Solved);
        assert_eq!(verdict(&weighted(8, 1679, true), Some(2.0)), Wrong);
        assert_eq!(verdict(&weighted(8, 1681, true), Some(2.0)), Wrong);
        assert_eq!(verdict(&weighted(8, 1681, false), Some(2.0)), Suboptimal);
        // Shorter than a shortest path is wrong whatever it costs.
        assert_eq!(verdict(&weighted(5, 1680, true), Some(2.0)), Wrong);
        let (_, message) = judge(&weighted(8, 1679, true), Some(6), Some(2.0), false);
        assert!(message.contains("below the reference cost 2"), "{message}");
        let unsolvable = answer(Unsolvable, None, true);
        assert_eq!(judge(&unsolvable, None, Some(2.0), false).0, Wrong);
    }

    /// A search stopped by a limit with a solution it had not proven the cheapest keeps the
    /// limit's status and says so; only a solution cheaper or shorter than the reference is
    /// `wrong`, a dearer or longer one is what it may be.
    #[test]
    fn an_unproven_solution_at_a_limit_is_wrong_only_below_the_reference() {
        use Status::*;
        let stopped = |status, length: u32, units: u64| {
            let mut a = answer(status, Some(length), false);
            a.cost = Some((units, 840));
            a
        };
        for status in [NodeLimit, TimeLimit] {
            for (length, units, reference, want) in [
                (8, 1680, Some(2.0), status),
                (8, 2520, Some(2.0), status),
                (9, 2520, None, status),
                (8, 1679, Some(2.0), Wrong),
                (5, 2520, Some(2.0), Wrong),
            ] {
                let (verdict, message) =
                    judge(&stopped(status, length, units), Some(6), reference, false);
                assert_eq!(verdict, want, "{status} {length} {units}");
                if verdict == status {
                    assert_eq!(
                        message,
                        "the solution found before the limit is not proven the cheapest"
                    );
                }
            }
            // Under unit costs, by length alone.
            let unit = |length| judge(&answer(status, Some(length), false), Some(6), None, true);
            assert_eq!(unit(7).0, status);
            let (verdict, message) = unit(5);
            assert_eq!(verdict, Wrong);
            assert!(
                message.starts_with("length 5 of the solution found before the limit"),
                "{message}"
            );
            // Without a solution, a limit is no answer.
            assert_eq!(
                judge(&answer(status, None, true), Some(6), Some(2.0), false),
                (status, String::new())
            );
        }
    }

    /// Past the puzzle's diameter under weighted moves, the bound is told as a cost in the
    /// model's units, not in whole units of its scale.
    #[test]
    fn the_diameter_passed_is_told_in_the_models_units() {
        let mut broken = answer(Status::Error, None, true);
        // The 8-puzzle under inverse-heavy: 31 moves at most, of tile 1 at most (840/840).
        broken.past_diameter = Some((31 * 840, 840));
        let (status, message) = judge(&broken, None, None, false);
        assert_eq!(status, Status::Error);
        assert_eq!(
            message,
            "no solution within a cost of 31, the puzzle's proven diameter in moves at its \
             dearest move's cost: the heuristic (or the search) is broken"
        );
        broken.past_diameter = Some((31 * 8, 1));
        let (_, message) = judge(&broken, None, None, false);
        assert!(
            message.starts_with("no solution within a cost of 248, "),
            "{message}"
        );
    }

    #[test]
    fn verdicts_against_the_reference_length() {
        let verdict = |status, length, guaranteed, optimal| {
            judge(&answer(status, length, guaranteed), optimal, None, true).0
        };
        use Status::*;
        // Equal, or no reference: the search's own status.
        assert_eq!(verdict(Solved, Some(6), true, Some(6)), Solved);
        assert_eq!(verdict(Solved, Some(6), false, None), Solved);
        assert_eq!(verdict(OverCap, None, true, None), OverCap);
        // Shorter than the reference: always wrong.
        assert_eq!(verdict(Solved, Some(5), true, Some(6)), Wrong);
        assert_eq!(verdict(Solved, Some(5), false, Some(6)), Wrong);
        // Longer: wrong from a variant that guarantees optimality, else suboptimal.
        assert_eq!(verdict(Solved, Some(7), true, Some(6)), Wrong);
        assert_eq!(verdict(Solved, Some(7), false, Some(6)), Suboptimal);
        // No solution where the reference has one.
        assert_eq!(verdict(Unsolvable, None, true, Some(6)), Wrong);
        assert_eq!(verdict(OverCap, None, true, Some(4)), Wrong);
        // Beyond the domain's cap (4 here), over_cap is the right answer.
        assert_eq!(verdict(OverCap, None, true, Some(6)), OverCap);
        // Limits are no answer: nothing to judge.
        assert_eq!(verdict(NodeLimit, None, true, Some(6)), NodeLimit);
        let (_, message) = judge(&answer(Solved, Some(7), true), Some(6), None, true);
        assert!(message.contains("guarantees"), "{message}");
        // A search that passed the puzzle's diameter is broken, reference or not.
        let mut broken = answer(Error, None, true);
        broken.past_diameter = Some((31, 1));
        for optimal in [None, Some(6)] {
            let (status, message) = judge(&broken, optimal, None, true);
            assert_eq!(status, Error);
            assert!(
                message.starts_with("no solution within 31 moves, the puzzle's proven diameter"),
                "{message}"
            );
        }
    }

    /// A helper's CPU time reaches the job's count after each subtree it searched, while
    /// `help` still runs: a checkpoint saved then counts it. The owner waits for it (at most
    /// 20 s: without it, the helper never says it is done before the owner gives up).
    #[test]
    fn a_helpers_time_is_counted_after_each_subtree() {
        use std::sync::atomic::AtomicBool;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let counted = AtomicU64::new(0);
            let helpers = Pool {
                threads: 2,
                owner: std::thread::current().id(),
                cpu_ns: &counted,
            };
            let (seen, done) = (AtomicBool::new(false), AtomicBool::new(false));
            let work = || {
                if std::thread::current().id() == helpers.owner {
                    let give_up = Instant::now() + Duration::from_secs(20);
                    while counted.load(Ordering::Relaxed) == 0 && Instant::now() < give_up {
                        std::thread::yield_now();
                    }
                    seen.store(counted.load(Ordering::Relaxed) > 0, Ordering::Relaxed);
                    done.store(true, Ordering::Relaxed);
                } else {
                    let (began, give_up) = (thread_cpu_time(), Instant::now());
                    while thread_cpu_time() - began < Duration::from_millis(2)
                        && give_up.elapsed() < Duration::from_secs(20)
                    {}
                    helpers.searched();
                    while !done.load(Ordering::Relaxed) {
                        std::thread::yield_now();
                    }
                }
            };
            helpers.help(&work);
            assert!(
                seen.load(Ordering::Relaxed),
                "the helper's time was not counted"
            );
            assert!(counted.load(Ordering::Relaxed) >= 2_000_000);
        });
    }
}
