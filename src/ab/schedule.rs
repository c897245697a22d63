//! The schedule on workers: every job in every round, each by both builds back to back, the
//! first alternating, on one or more lanes; the pairs collected as they come.

use super::client::{Answer, Worker};
use super::{AbOptions, BuildInfo, Measured, CANCEL};
use crate::compare::{Jobs, SavedRun};
use crate::error::Error;
use crate::results::record::Record;
use crate::runner::job::Job;
use crate::util::term::note;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often progress is told on stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// One job's two measurements in one round.
pub(super) struct Pair {
    pub(super) round: usize,
    /// The job's index in the plan.
    pub(super) job: usize,
    /// The job's place in the schedule.
    pub(super) order: usize,
    pub(super) baseline_first: bool,
    pub(super) baseline: Record,
    pub(super) current: Record,
}

impl Pair {
    /// The pair of `job` measured in `round` (from 0); each build's row has the round as its
    /// repetition (from 1), so that runs-baseline.csv and runs-current.csv are keyed as a
    /// repeated run's runs.csv is: a round of `ab` is a repetition of its jobs.
    pub(super) fn new(
        round: usize,
        job: usize,
        order: usize,
        baseline_first: bool,
        rows: [Record; 2],
    ) -> Pair {
        let [mut baseline, mut current] = rows;
        let repetition = u32::try_from(round + 1).expect("at most 100,000 rounds");
        baseline.repetition = repetition;
        current.repetition = repetition;
        Pair {
            round,
            job,
            order,
            baseline_first,
            baseline,
            current,
        }
    }
}

/// Whether the baseline goes first for job (or group) `j` in round `r`: alternating from one
/// to the next, and for one job from round to round.
pub(super) fn baseline_first(r: usize, j: usize) -> bool {
    (r + j).is_multiple_of(2)
}

/// Every job in every round on workers: lane 0 on the workers already started, the other lanes
/// on workers of their own (each build's with its first worker's arguments), all taking the
/// schedule's next pair when free. A signal or a failure stops the lanes; the pairs finished are kept, with the pair
/// of a job that a worker was killed in (`Answer::Hung`).
pub(super) fn by_workers(
    opts: &AbOptions,
    jobs: &[Job<'_>],
    [base, cur]: [Worker; 2],
    rounds: usize,
) -> Measured {
    let mut lanes = Vec::new();
    for _ in 1..opts.lanes {
        match (base.another(), cur.another()) {
            (Ok(a), Ok(b)) => lanes.push([a, b]),
            (Err(e), _) | (_, Err(e)) => return stopped(Vec::new(), e),
        }
    }
    lanes.insert(0, [base, cur]);
    let warm_up = warm_up_jobs(jobs);
    let total = rounds * jobs.len();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<Pair, Error>>();
    std::thread::scope(|scope| {
        for mut lane in lanes {
            let (tx, next, failed, warm_up) = (tx.clone(), &next, &failed, &warm_up);
            scope.spawn(move || {
                // A worker killed by the signal handler fails its job: that is the interruption,
                // not an error.
                let fail = |e: Error| {
                    if !CANCEL.load(Ordering::SeqCst) {
                        failed.store(true, Ordering::Relaxed);
                        let _ = tx.send(Err(e));
                    }
                };
                let mut lane_round = None;
                loop {
                    if failed.load(Ordering::Relaxed) || CANCEL.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= total {
                        return;
                    }
                    let (round, job) = (k / jobs.len(), k % jobs.len());
                    if lane_round != Some(round) {
                        // Fresh workers each round: how fast a process happens to be (where its
                        // code, stack and heap land) then varies from round to round, where the
                        // bootstrap over rounds sees it, instead of favouring one build for the
                        // whole comparison.
                        if lane_round.is_some() {
                            match (lane[0].another(), lane[1].another()) {
                                (Ok(a), Ok(b)) => lane = [a, b],
                                (Err(e), _) | (_, Err(e)) => return fail(e),
                            }
                        }
                        // The first jobs of a process pay for its page faults and tables: each
                        // worker solves one short job of each variant before it is measured.
                        for w in &mut lane {
                            for &j in warm_up {
                                match w.solve(&jobs[j]) {
                                    Ok(Answer::Row(_)) => {}
                                    Ok(Answer::Hung(_, e)) | Err(e) => return fail(e),
                                }
                            }
                        }
                        lane_round = Some(round);
                    }
                    let first = baseline_first(round, job);
                    let order = if first { [0, 1] } else { [1, 0] };
                    let mut records: [Option<Record>; 2] = [None, None];
                    let mut hung = None;
                    for side in order {
                        match lane[side].solve(&jobs[job]) {
                            Ok(Answer::Row(r)) => records[side] = Some(r),
                            // The other build still measures the job: its pair then records
                            // which build failed it.
                            Ok(Answer::Hung(r, e)) => {
                                records[side] = Some(r);
                                hung.get_or_insert(e);
                            }
                            Err(e) => return fail(e),
                        }
                    }
                    let [Some(baseline), Some(current)] = records else {
                        unreachable!("both sides answered");
                    };
                    let pair = Pair::new(round, job, k, first, [baseline, current]);
                    if tx.send(Ok(pair)).is_err() {
                        return;
                    }
                    if let Some(e) = hung {
                        return fail(e);
                    }
                }
            });
        }
        drop(tx);
        collect(rx, total, opts.quiet)
    })
}

/// The pairs as they come, with progress on stderr; the first error stops the lanes.
pub(super) fn collect(
    rx: mpsc::Receiver<Result<Pair, Error>>,
    total: usize,
    quiet: bool,
) -> Measured {
    let started = Instant::now();
    let mut last = started;
    let mut pairs = Vec::with_capacity(total);
    let mut error = None;
    for pair in rx {
        match pair {
            Ok(p) => pairs.push(p),
            Err(e) => {
                error.get_or_insert(e);
            }
        }
        if !quiet && last.elapsed() >= PROGRESS_EVERY {
            last = Instant::now();
            note(format_args!(
                "[{:>6.0}s] {}/{total} pairs",
                started.elapsed().as_secs_f64(),
                pairs.len()
            ));
        }
    }
    pairs.sort_by_key(|p| p.order);
    Measured { pairs, error }
}

/// Measuring stopped by `error`.
pub(super) fn stopped(pairs: Vec<Pair>, error: Error) -> Measured {
    Measured {
        pairs,
        error: Some(error),
    }
}

/// Of each variant, the job with the shortest reference length (the dataset's free hint; the
/// first job of the variant when none has one).
fn warm_up_jobs(jobs: &[Job<'_>]) -> Vec<usize> {
    let mut best: Vec<(&str, usize)> = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let key = |j: &Job| j.instance.optimal.unwrap_or(u32::MAX);
        match best.iter_mut().find(|(v, _)| *v == job.variant) {
            Some((_, b)) if key(job) < key(&jobs[*b]) => *b = i,
            Some(_) => {}
            None => best.push((job.variant, i)),
        }
    }
    best.into_iter().map(|(_, i)| i).collect()
}

/// Each round's two runs, the jobs in plan order; sources are the builds' paths.
pub(super) fn by_round(
    pairs: &[Pair],
    jobs: &[Job<'_>],
    rounds: usize,
    builds: &[BuildInfo; 2],
) -> Vec<(SavedRun, SavedRun)> {
    let run = |source: &str| SavedRun {
        jobs: Jobs::with_capacity(jobs.len()),
        manifest: None,
        source: source.to_owned(),
    };
    let mut out: Vec<(SavedRun, SavedRun)> = (0..rounds)
        .map(|_| (run(&builds[0].path), run(&builds[1].path)))
        .collect();
    let mut sorted: Vec<&Pair> = pairs.iter().collect();
    sorted.sort_by_key(|p| (p.round, p.job));
    for p in sorted {
        out[p.round].0.jobs.push(&p.baseline);
        out[p.round].1.jobs.push(&p.current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_build_alternates_by_job_and_by_round() {
        let firsts: Vec<bool> = (0..4).map(|j| baseline_first(0, j)).collect();
        assert_eq!(firsts, [true, false, true, false]);
        assert!((0..6).all(|j| baseline_first(1, j) != baseline_first(0, j)));
    }
}
