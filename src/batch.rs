//! The batch runner: jobs (instance x variant) solved in parallel on rayon workers, each result
//! handed back as a `Record` with its iterations soon after it is finished, with progress on
//! stderr. The only module that knows rayon and indicatif.

use crate::dataset::{Dataset, Instance};
use crate::domains::Puzzle;
use crate::error::Error;
use crate::record::{on_off, Record, Status};
use crate::search::{Helpers, Iteration, Limits, Split, SplitDepth};
use crate::solve::{self, thread_cpu_time, Answer, Spec};
use indicatif::{ProgressBar, ProgressStyle};
use std::borrow::Cow;
use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
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
}

/// How to run a batch.
pub struct BatchOptions<'a> {
    /// Worker threads.
    pub jobs: usize,
    pub max_nodes: Option<u64>,
    pub time_limit: Option<Duration>,
    /// Where a job's large iterations are cut for the workers to share (`None`: never).
    pub split: Option<SplitDepth>,
    /// No progress output at all.
    pub quiet: bool,
    /// Set from outside (Ctrl-C): running searches stop, queued jobs are skipped.
    pub cancel: &'a AtomicBool,
}

/// Counts kept while a batch runs, for the progress line.
#[derive(Default)]
struct ProgressCounts {
    done: u64,
    solved: u64,
    limited: u64,
    nodes: u64,
    cpu: f64,
}

impl ProgressCounts {
    fn add<S>(&mut self, r: &Record<S>) {
        self.done += 1;
        self.solved += u64::from(r.status == Status::Solved);
        self.limited += u64::from(r.status.limited());
        self.nodes += r.nodes_generated;
        self.cpu += r.time_cpu_s;
    }

    fn of(finished: &Finished<'_>) -> ProgressCounts {
        let mut counts = ProgressCounts::default();
        for (_, r, _) in finished.jobs() {
            counts.add(r);
        }
        counts
    }

    fn absorb(&mut self, other: &ProgressCounts) {
        self.done += other.done;
        self.solved += other.solved;
        self.limited += other.limited;
        self.nodes += other.nodes;
        self.cpu += other.cpu;
    }

    fn message(&self) -> String {
        let rate = if self.cpu > 0.0 {
            self.nodes as f64 / self.cpu
        } else {
            0.0
        };
        format!(
            "solved {} limited {} | {:.1} M nodes/s per worker",
            self.solved,
            self.limited,
            rate / 1e6
        )
    }
}

/// A finished job's record, which borrows the job's names.
pub type JobRecord<'a> = Record<Cow<'a, str>>;

/// A job as its worker finishes it.
struct FinishedJob<'a> {
    /// The job's place in the run's order.
    index: usize,
    record: JobRecord<'a>,
    /// The search's counts of each iteration.
    iterations: Vec<Iteration>,
}

/// A worker's finished jobs, as `prepare` reads them: each job's index (its place in the run's
/// order) and record, and the iterations of all of them in one list, each job's a stretch of
/// it. A search's own list of iterations is copied here and freed on the worker that made it:
/// lists made on the workers and freed on the collector's thread left the allocator holding up
/// to 20 MB more on the 181,440-job run.
pub struct Finished<'a> {
    jobs: Vec<(usize, JobRecord<'a>, Range<usize>)>,
    iterations: Vec<Iteration>,
}

impl<'a> Finished<'a> {
    fn with_capacity(jobs: usize) -> Finished<'a> {
        Finished {
            jobs: Vec::with_capacity(jobs),
            iterations: Vec::new(),
        }
    }

    fn push(&mut self, job: FinishedJob<'a>) {
        let start = self.iterations.len();
        self.iterations.extend_from_slice(&job.iterations);
        let stretch = start..self.iterations.len();
        self.jobs.push((job.index, job.record, stretch));
    }

    fn len(&self) -> usize {
        self.jobs.len()
    }

    fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    fn clear(&mut self) {
        self.jobs.clear();
        self.iterations.clear();
    }

    /// Each job's index, record and iterations, in the order they finished.
    pub fn jobs(&self) -> impl Iterator<Item = (usize, &JobRecord<'a>, &[Iteration])> + '_ {
        self.jobs
            .iter()
            .map(|(i, r, s)| (*i, r, &self.iterations[s.clone()]))
    }
}

/// Solves every job on `opts.jobs` workers and gives the finished jobs to `sink` on the calling
/// thread, in completion order, in batches: each batch goes through `prepare` on the worker
/// that finished it first (so that formatting rows is shared by the workers, not left to the
/// one collecting thread), and `sink` takes what `prepare` made. Jobs cut short by
/// `opts.cancel` give nothing. An error from `sink` stops the run (the jobs still running are
/// cancelled) and is returned.
pub fn run<'a, T: Send>(
    jobs: &[Job<'a>],
    opts: &BatchOptions<'_>,
    prepare: impl Fn(&Finished<'a>) -> T + Sync,
    mut sink: impl FnMut(T) -> Result<(), Error>,
) -> Result<(), Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
        .map_err(|e| Error::runtime(format!("cannot start {} worker(s): {e}", opts.jobs)))?;
    let queue = longest_first(jobs);
    let next = AtomicUsize::new(0);
    let progress = Progress::new(jobs.len() as u64, opts.quiet);
    let (tx, rx) = mpsc::channel::<(ProgressCounts, T)>();
    let mut tally = ProgressCounts::default();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                // Each worker takes the next job of the queue when it is free, so the long jobs at
                // its head start first and the short ones fill the gaps at the end. Records are
                // handed over every `HAND_OVER`, or sooner once `HAND_OVER_RECORDS` are done:
                // one wake-up of the collector per job would cost more than a tiny job itself,
                // and a small batch is still in the cache when the collector reads it.
                rayon::broadcast(|_| {
                    let mut done = Finished::with_capacity(HAND_OVER_RECORDS);
                    let mut meter = Meter::start();
                    let mut handed = Instant::now();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= queue.len() || opts.cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let job = queue[i];
                        let (finished, ran) = run_job(job, opts);
                        if let Some(finished) = finished {
                            done.push(finished);
                            meter.ended(ran.wall, ran.shared);
                        }
                        let now = ran.ended.unwrap_or_else(Instant::now);
                        let hand_over =
                            done.len() >= HAND_OVER_RECORDS || now - handed >= HAND_OVER;
                        if hand_over || now - meter.read_at >= CPU_READ_EVERY {
                            meter.read(&mut done);
                        }
                        if hand_over {
                            // The collector takes everything until the last sender is gone.
                            let _ = tx.send((ProgressCounts::of(&done), prepare(&done)));
                            done.clear();
                            handed = now;
                        }
                    }
                    meter.read(&mut done);
                    if !done.is_empty() {
                        let _ = tx.send((ProgressCounts::of(&done), prepare(&done)));
                    }
                });
                drop(tx);
            })
        });
        let mut result = Ok(());
        loop {
            // Woken at least every `TICK` so that progress moves while a long job runs.
            let first = match rx.recv_timeout(TICK) {
                Ok(first) => first,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    progress.update(&tally);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            // Each worker's batch as it came: gathering them into one would move every row.
            for (counts, prepared) in std::iter::once(first).chain(rx.try_iter()) {
                tally.absorb(&counts);
                if result.is_ok() {
                    result = sink(prepared);
                    if result.is_err() {
                        opts.cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
            progress.update(&tally);
        }
        progress.finish(&tally);
        result
    })
}

/// The jobs in the order to start them: the likely longest first, so that a run does not end
/// waiting on one long job while the other workers idle. The hint is the dataset's reference
/// length (the search grows about exponentially with it), known before any search and free to
/// read; jobs without one come last, and ties keep the run's order. Results do not depend on the
/// order: every job is searched alone.
fn longest_first<'j, 'a>(jobs: &'j [Job<'a>]) -> Vec<&'j Job<'a>> {
    // Keys read once, not at every comparison (each would be a cache miss on a large instance).
    let mut keyed: Vec<(std::cmp::Reverse<Option<u32>>, &Job)> = jobs
        .iter()
        .map(|job| (std::cmp::Reverse(job.instance.optimal), job))
        .collect();
    keyed.sort_by_key(|&(key, _)| key);
    keyed.into_iter().map(|(_, job)| job).collect()
}

/// How a job's search ran, for the `Meter`.
#[derive(Default)]
struct Ran {
    wall: Duration,
    shared: Shared,
    /// When the search ended (`None`: it failed or panicked).
    ended: Option<Instant>,
}

/// Solves one job: the finished job (none when it was cancelled before it finished), untimed,
/// and how its search ran.
fn run_job<'a>(job: &Job<'a>, opts: &BatchOptions<'_>) -> (Option<FinishedJob<'a>>, Ran) {
    let limits = Limits {
        max_nodes: opts.max_nodes,
        max_time: opts.time_limit,
        max_depth: None,
        cancel: Some(opts.cancel),
        split: None,
    };
    let mut ran = Ran::default();
    let record = guarded(job, || {
        let started = Instant::now();
        let (answer, shared) = search_shared(&job.instance.puzzle, &job.spec, limits, opts.split)?;
        let ended = Instant::now();
        ran = Ran {
            wall: ended - started,
            shared,
            ended: Some(ended),
        };
        Ok(answer)
    });
    (record, ran)
}

/// A worker's CPU clock, read at most every `CPU_READ_EVERY` of wall time instead of around each
/// job: reading a thread's CPU clock is a system call (0.6 µs here), more than a tiny job's whole
/// search. The jobs that ended between two readings share the CPU time measured over them in
/// proportion to their wall times; a job longer than `CPU_READ_EVERY` is read alone, so its CPU
/// time is its own up to the few microseconds of harness work since the last reading.
struct Meter {
    /// The last reading: the thread's CPU time, and when it was read.
    cpu: Duration,
    read_at: Instant,
    /// Wall time and sharing of the jobs since the last reading, whose records end `done`.
    pending: Vec<(Duration, Shared)>,
}

/// The longest a worker goes without reading its CPU clock while jobs end.
const CPU_READ_EVERY: Duration = Duration::from_micros(100);

impl Meter {
    fn start() -> Meter {
        Meter {
            cpu: thread_cpu_time(),
            read_at: Instant::now(),
            pending: Vec::with_capacity(HAND_OVER_RECORDS),
        }
    }

    /// A job with a record (now the last of `done`) ended after `wall`.
    fn ended(&mut self, wall: Duration, shared: Shared) {
        self.pending.push((wall, shared));
    }

    /// Reads the clocks and sets the times of the pending jobs, the last records of `done`. The
    /// thread ran `cpu / wall` of the time since the last reading (less when the machine took
    /// it away); each job is given that share of its own wall time.
    fn read(&mut self, done: &mut Finished<'_>) {
        let (cpu, now) = (thread_cpu_time(), Instant::now());
        let share = running_share(cpu.saturating_sub(self.cpu), now - self.read_at);
        let first = done.jobs.len() - self.pending.len();
        for ((_, record, _), &(wall, shared)) in done.jobs[first..].iter_mut().zip(&self.pending) {
            set_times(record, wall, shared.cpu(wall.mul_f64(share)));
        }
        self.pending.clear();
        (self.cpu, self.read_at) = (cpu, now);
    }
}

/// The part of `wall` a thread ran, given its CPU time over it: at most all of it (the two clocks
/// are read one after the other), and all of it when no time passed.
fn running_share(cpu: Duration, wall: Duration) -> f64 {
    if wall.is_zero() {
        return 1.0;
    }
    (cpu.as_secs_f64() / wall.as_secs_f64()).min(1.0)
}

/// How sharing a search with other threads skews its own thread's CPU clock: the time this
/// thread spent on other jobs' subtrees meanwhile, and the time others spent on this job's.
#[derive(Clone, Copy, Default)]
struct Shared {
    lent: Duration,
    helped: Duration,
}

impl Shared {
    /// The job's CPU time on every thread, given its own thread's.
    fn cpu(self, own: Duration) -> Duration {
        own.saturating_sub(self.lent) + self.helped
    }
}

/// Solves one job on the calling thread alone, its iterations never split: what `worker` times,
/// one job at a time. `None` when it was cancelled.
pub fn solve_job<'a>(job: &Job<'a>, limits: Limits<'_>) -> Option<JobRecord<'a>> {
    guarded(job, || {
        solve::solve(&job.instance.puzzle, &job.spec, limits)
    })
    .map(|f| f.record)
}

/// Solves one puzzle on `threads` threads of its own: `split` cuts its large iterations for them.
pub fn solve_alone(
    puzzle: &Puzzle,
    spec: &Spec,
    limits: Limits<'_>,
    split: Option<SplitDepth>,
    threads: usize,
) -> Result<Answer, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} thread(s): {e}"))?;
    pool.install(|| solve_shared(puzzle, spec, limits, split))
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
    let wall = Instant::now();
    let cpu = thread_cpu_time();
    let (mut answer, shared) = search_shared(puzzle, spec, limits, split)?;
    answer.wall = wall.elapsed();
    answer.cpu = shared.cpu(thread_cpu_time().saturating_sub(cpu));
    Ok(answer)
}

/// `solve_shared` without the timing: the answer, and how sharing skews this thread's clock.
fn search_shared(
    puzzle: &Puzzle,
    spec: &Spec,
    limits: Limits<'_>,
    split: Option<SplitDepth>,
) -> Result<(Answer, Shared), String> {
    let helpers = Pool {
        threads: rayon::current_num_threads(),
        owner: std::thread::current().id(),
        cpu_ns: AtomicU64::new(0),
    };
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
        helped: Duration::from_nanos(helpers.cpu_ns.load(Ordering::Relaxed)),
    };
    Ok((answer, shared))
}

thread_local! {
    /// CPU time this thread spent on other jobs' subtrees (`solve_shared` takes it off its own).
    static LENT: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// The rayon pool's workers as helpers of one job's search.
struct Pool {
    threads: usize,
    /// The thread that runs the job.
    owner: std::thread::ThreadId,
    /// CPU time other threads spent on the job's subtrees.
    cpu_ns: AtomicU64,
}

impl Helpers for Pool {
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
                    let cpu = thread_cpu_time();
                    work();
                    let spent = thread_cpu_time().saturating_sub(cpu);
                    let ns = u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX);
                    self.cpu_ns.fetch_add(ns, Ordering::Relaxed);
                    LENT.with(|l| l.set(l.get() + spent));
                });
            }
            work();
        });
    }
}

/// `job` finished by `solve`, which may panic: a panic becomes an `error` record (the run goes
/// on with the other jobs); a cancelled search gives nothing.
fn guarded<'a>(
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
        step: Cow::Borrowed(spec.step.name()),
        reverse_pruning: Cow::Borrowed(on_off(spec.reverse_pruning)),
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
    let (status, message) = judge(&a, optimal);
    r.status = status;
    r.message = Cow::Owned(message);
    r.length = a.length;
    r.nodes_generated = a.stats.generated;
    r.nodes_expanded = a.stats.expanded;
    r.iterations = a.stats.iterations.len() as u32;
    r.final_bound = a.stats.final_bound;
    set_times(&mut r, a.wall, a.cpu);
    r.initial_h = a.stats.initial_h;
    r.optimal_guaranteed = a.optimal_guaranteed;
    r.path = Cow::Owned(a.path.unwrap_or_default());
    FinishedJob {
        index: job.index,
        record: r,
        iterations: std::mem::take(&mut a.stats.iterations),
    }
}

fn set_times<S>(r: &mut Record<S>, wall: Duration, cpu: Duration) {
    r.time_wall_s = wall.as_secs_f64();
    r.time_cpu_s = cpu.as_secs_f64();
    r.nodes_per_s = if r.time_cpu_s > 0.0 {
        (r.nodes_generated as f64 / r.time_cpu_s).round()
    } else {
        0.0
    };
}

/// The status to report, given the dataset's reference length. Shorter than the reference is
/// `wrong`; longer is `wrong` too when the variant guarantees a shortest path (the search or the
/// dataset is in error), and `suboptimal` when it does not. No solution (unsolvable, or none
/// within the depth cap) where the reference has a length is `wrong`.
fn judge(a: &Answer, optimal: Option<u32>) -> (Status, String) {
    match (a.status, a.length, optimal) {
        (Status::Wrong, _, _) => (
            Status::Wrong,
            "the returned path does not replay to the goal".into(),
        ),
        (Status::Solved, Some(len), Some(opt)) if len < opt => (
            Status::Wrong,
            format!("length {len} is shorter than the reference {opt}"),
        ),
        (Status::Solved, Some(len), Some(opt)) if len > opt && a.optimal_guaranteed => (
            Status::Wrong,
            format!(
                "length {len} is longer than the reference {opt}, from a variant that guarantees a shortest path"
            ),
        ),
        (Status::Solved, Some(len), Some(opt)) if len > opt => (
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
        (status, _, _) => (status, String::new()),
    }
}

/// Progress on stderr: a bar on a terminal, a plain line every few seconds elsewhere.
enum Progress {
    Quiet,
    Bar(ProgressBar, std::cell::Cell<Instant>),
    Lines {
        total: u64,
        started: Instant,
        last: std::cell::Cell<Instant>,
        /// The job count of the last line printed, so that `finish` does not repeat it.
        printed: std::cell::Cell<Option<u64>>,
    },
}

/// How often the collector wakes without a finished job, to keep progress moving.
const TICK: Duration = Duration::from_secs(1);
/// How long a worker keeps finished records before handing them to the collector.
const HAND_OVER: Duration = Duration::from_millis(50);
/// How many finished records a worker keeps at most before handing them over (about 80 KB).
const HAND_OVER_RECORDS: usize = 256;
const LINE_EVERY: Duration = Duration::from_secs(5);
const BAR_MESSAGE_EVERY: Duration = Duration::from_millis(200);
const BAR_TICK: Duration = Duration::from_millis(200);

impl Progress {
    fn new(total: u64, quiet: bool) -> Progress {
        if quiet {
            return Progress::Quiet;
        }
        let now = Instant::now();
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            // The template is a constant that parses; the plain bar is only a fallback.
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} jobs | {msg} | {elapsed_precise} ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            // Redrawn from its own thread, so that elapsed and ETA move during a long job.
            bar.enable_steady_tick(BAR_TICK);
            Progress::Bar(bar, std::cell::Cell::new(now))
        } else {
            Progress::Lines {
                total,
                started: now,
                last: std::cell::Cell::new(now),
                printed: std::cell::Cell::new(None),
            }
        }
    }

    /// Lines mode: prints the progress line and remembers its job count.
    fn line(
        total: u64,
        started: Instant,
        printed: &std::cell::Cell<Option<u64>>,
        tally: &ProgressCounts,
    ) {
        printed.set(Some(tally.done));
        // Progress is for people: a full or closed stderr must not stop the run.
        let _ = writeln!(
            std::io::stderr(),
            "[{:>6.0}s] {}/{} jobs | {}",
            started.elapsed().as_secs_f64(),
            tally.done,
            total,
            tally.message()
        );
    }

    fn update(&self, tally: &ProgressCounts) {
        match self {
            Progress::Quiet => {}
            Progress::Bar(bar, last) => {
                bar.set_position(tally.done);
                if last.get().elapsed() >= BAR_MESSAGE_EVERY {
                    last.set(Instant::now());
                    bar.set_message(tally.message());
                }
            }
            Progress::Lines {
                total,
                started,
                last,
                printed,
            } => {
                if last.get().elapsed() >= LINE_EVERY {
                    last.set(Instant::now());
                    Progress::line(*total, *started, printed, tally);
                }
            }
        }
    }

    fn finish(&self, tally: &ProgressCounts) {
        match self {
            Progress::Quiet => {}
            Progress::Bar(bar, _) => {
                bar.set_message(tally.message());
                bar.finish();
            }
            Progress::Lines {
                total,
                started,
                printed,
                ..
            } => {
                // The last update may already have printed this count.
                if printed.get() != Some(tally.done) {
                    Progress::line(*total, *started, printed, tally);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset;
    use crate::domains::HeuristicKind;
    use crate::search::Step;
    use std::path::Path;

    /// A one-instance dataset: the 8-puzzle one move from the goal, reference length 1.
    fn dataset() -> Dataset {
        let csv = b"id,domain,size,start,goal,optimal\none,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n";
        dataset::parse(Path::new("t.csv"), csv).unwrap()
    }

    fn job(d: &Dataset) -> Job<'_> {
        Job {
            index: 0,
            dataset: d,
            instance: &d.instances[0],
            spec: Spec {
                heuristic: HeuristicKind::parse("manhattan").unwrap(),
                step: Step::Next,
                reverse_pruning: true,
            },
            variant: "manhattan/stepnext/prune",
        }
    }

    #[test]
    fn the_likely_longest_jobs_start_first_and_ties_keep_the_run_order() {
        let csv = b"id,domain,size,start,goal,optimal
a,tiles,3x3,1 2 3 4 5 6 7 0 8,,1
b,tiles,3x3,1 2 3 4 5 6 0 7 8,,2
c,tiles,3x3,1 2 3 4 5 6 7 0 8,,9
d,tiles,3x3,1 2 3 4 5 6 0 7 8,,
e,tiles,3x3,1 2 3 4 5 6 0 7 8,,2
";
        let d = dataset::parse(Path::new("t.csv"), csv).unwrap();
        let jobs: Vec<Job> = d
            .instances
            .iter()
            .enumerate()
            .map(|(index, instance)| Job {
                index,
                instance,
                ..job(&d)
            })
            .collect();
        let order: Vec<&str> = longest_first(&jobs)
            .iter()
            .map(|j| j.instance.id.as_str())
            .collect();
        assert_eq!(order, ["c", "b", "e", "a", "d"]);
    }

    fn answer(status: Status, length: Option<u32>, optimal_guaranteed: bool) -> Answer {
        Answer {
            status,
            path: length.map(|n| "L".repeat(n as usize)),
            length,
            stats: Default::default(),
            optimal_guaranteed,
            depth_cap: Some(4),
            wall: Duration::ZERO,
            cpu: Duration::ZERO,
            split: Default::default(),
        }
    }

    #[test]
    fn jobs_between_two_clock_readings_share_the_cpu_time_by_their_wall_times() {
        let ms = Duration::from_millis;
        assert_eq!(running_share(ms(10), ms(10)), 1.0);
        // The machine took half the time away: each job ran half its wall time.
        assert_eq!(running_share(ms(5), ms(10)), 0.5);
        assert_eq!(ms(8).mul_f64(running_share(ms(5), ms(10))), ms(4));
        // The CPU clock read a little after the wall clock does not make a job run longer.
        assert_eq!(running_share(ms(11), ms(10)), 1.0);
        assert_eq!(running_share(ms(1), Duration::ZERO), 1.0);
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
        assert_eq!(r.key(), ("t", "one", "manhattan/stepnext/prune"));
        assert_eq!((r.length, r.optimal), (None, Some(1)));
        // A formatted panic message is kept too.
        let r = guarded(&job(&d), || panic!("tile {}", 9))
            .expect("a record")
            .record;
        assert_eq!(r.message, "the search panicked: tile 9");
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
        }];
        let f = guarded(&job(&d), || Ok(solved)).unwrap();
        assert_eq!(
            (f.record.status, f.record.length),
            (Status::Solved, Some(1))
        );
        assert_eq!((f.index, f.iterations.len()), (0, 1));
    }

    #[test]
    fn verdicts_against_the_reference_length() {
        let verdict = |status, length, guaranteed, optimal| {
            judge(&answer(status, length, guaranteed), optimal).0
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
        let (_, message) = judge(&answer(Solved, Some(7), true), Some(6));
        assert!(message.contains("guarantees"), "{message}");
    }
}
