//! The batch runner: jobs (instance x variant) solved in parallel on rayon workers, each result
//! handed back as a `Record` with its iterations soon after it is finished, with progress on
//! stderr. The one module that schedules jobs on rayon's workers.

use crate::error::Error;
use crate::results::record::RunLimits;
use crate::runner::checkpoint::{self, Checkpointing, Store};
use crate::runner::job::{guarded, search_shared, FinishedJob, Job, JobRecord, Shared};
use crate::runner::meter::{Meter, CPU_READ_EVERY};
use crate::runner::progress::{Progress, ProgressCounts};
use crate::runner::RunnerError;
use crate::search::checkpoint::Checkpoints;
use crate::search::{Iteration, Limits, SplitDepth};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How to run a batch.
pub struct BatchOptions<'a> {
    /// Worker threads.
    pub jobs: usize,
    pub limits: RunLimits,
    /// Where a job's large iterations are cut for the workers to share (`None`: never).
    pub split: Option<SplitDepth>,
    /// No progress output at all.
    pub quiet: bool,
    /// Set from outside (Ctrl-C): running searches stop, queued jobs are skipped.
    pub cancel: &'a AtomicBool,
    /// Where jobs save their progress and take up an earlier attempt's (`None`: nowhere).
    pub checkpoints: Option<Checkpointing>,
}

/// A worker's finished jobs, as `prepare` reads them: each job's index (its place in the run's
/// order) and record, and the iterations of all of them in one list, each job's a stretch of
/// it. A search's own list of iterations is copied here and freed on the worker that made it:
/// lists made on the workers and freed on the collector's thread left the allocator holding up
/// to 20 MB more on the 181,440-job run.
pub struct Finished<'a> {
    pub(super) jobs: Vec<(usize, JobRecord<'a>, Range<usize>)>,
    iterations: Vec<Iteration>,
    /// The checkpoint files of these jobs (few jobs run long enough to have one).
    checkpoints: Vec<PathBuf>,
}

impl<'a> Finished<'a> {
    fn with_capacity(jobs: usize) -> Finished<'a> {
        Finished {
            jobs: Vec::with_capacity(jobs),
            iterations: Vec::new(),
            checkpoints: Vec::new(),
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
        self.checkpoints.clear();
    }

    /// The checkpoint files these jobs left, to remove once their rows are written.
    pub fn checkpoints(&self) -> &[PathBuf] {
        &self.checkpoints
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
        .map_err(|e| RunnerError::Threads(format!("cannot start {} worker(s): {e}", opts.jobs)))?;
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
                            done.checkpoints.extend(ran.checkpoint);
                            meter.ended(ran.wall, ran.shared, ran.prior);
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

/// The jobs in the order to start them: round by round (`--repeat`: every job's first
/// repetition before any second one), and in a round the likely longest first, so that a run
/// does not end waiting on one long job while the other workers idle. The hint is the dataset's
/// reference length (the search grows about exponentially with it), known before any search and
/// free to read; jobs without one come last, and ties keep the run's order. Results do not
/// depend on the order: every job is searched alone.
fn longest_first<'j, 'a>(jobs: &'j [Job<'a>]) -> Vec<&'j Job<'a>> {
    // Keys read once, not at every comparison (each would be a cache miss on a large instance).
    // One number: the round above, then the reference length, the longest first and none
    // last.
    let mut keyed: Vec<(u64, &Job)> = jobs
        .iter()
        .map(|job| {
            let length = job
                .instance
                .optimal
                .map_or(1 << 32, |o| u64::from(u32::MAX - o));
            ((u64::from(job.repetition) << 33) | length, job)
        })
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
    /// The CPU and wall time of the job's earlier attempts, which its checkpoint counted.
    prior: (Duration, Duration),
    /// The job's checkpoint file, if it has one.
    checkpoint: Option<PathBuf>,
}

/// Solves one job: the finished job (none when it was cancelled before it finished), untimed,
/// and how its search ran.
fn run_job<'a>(job: &Job<'a>, opts: &BatchOptions<'_>) -> (Option<FinishedJob<'a>>, Ran) {
    let store = opts.checkpoints.as_ref().map(|c| c.store(job));
    let unshared = AtomicU64::new(0);
    let helped = store.as_ref().map_or(&unshared, |s| &s.helped_ns);
    let prior = store.as_ref().map_or_else(Default::default, Store::prior);
    let limits = Limits {
        cancel: Some(opts.cancel),
        checkpoint: store.as_ref().map(|s| s as &dyn Checkpoints),
        ..checkpoint::remaining(opts.limits.search(), prior)
    };
    let mut ran = Ran::default();
    let record = guarded(job, || {
        let started = Instant::now();
        let (answer, shared) =
            search_shared(&job.instance.puzzle, &job.spec, limits, opts.split, helped)?;
        let ended = Instant::now();
        ran = Ran {
            wall: ended - started,
            shared,
            ended: Some(ended),
            // Read again: a checkpoint the search refused counts no earlier time.
            prior: store.as_ref().map_or_else(Default::default, Store::prior),
            checkpoint: store.as_ref().and_then(|s| s.written().map(PathBuf::from)),
        };
        Ok(answer)
    });
    (record, ran)
}

/// How often the collector wakes without a finished job, to keep progress moving.
const TICK: Duration = Duration::from_secs(1);
/// How long a worker keeps finished records before handing them to the collector.
const HAND_OVER: Duration = Duration::from_millis(50);
/// How many finished records a worker keeps at most before handing them over (about 80 KB).
pub(super) const HAND_OVER_RECORDS: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset;
    use crate::runner::job::tests::job;
    use std::path::Path;

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
        // Repeated, every job's first repetition starts before any second one.
        let repeated: Vec<Job> = jobs
            .iter()
            .flat_map(|j| [2, 1].map(|repetition| Job { repetition, ..*j }))
            .collect();
        let order: Vec<(u32, &str)> = longest_first(&repeated)
            .iter()
            .map(|j| (j.repetition, j.instance.id.as_str()))
            .collect();
        let round = ["c", "b", "e", "a", "d"];
        let want: Vec<(u32, &str)> = [1, 2]
            .into_iter()
            .flat_map(|r| round.map(|id| (r, id)))
            .collect();
        assert_eq!(order, want);
    }
}
