//! A job run several times (`run --repeat N`) reduced to one: the rule by which every summary,
//! comparison and picture reads a repeated run, and the check a run makes as repetitions finish.
//!
//! Node counts are deterministic, so a job's repetitions must agree on them and on their
//! status, except a repetition stopped by `--time-limit` (where the clock stops it depends on
//! the machine) or one that ended in `error` (which counts nothing): a difference is a wrong
//! result, and the job is `wrong`. Repetitions that agree but end in different statuses differ
//! by a time limit alone (one solved, one stopped): the job is `unstable`, counted as such and
//! in no other status. Otherwise the job has its repetitions' status (`wrong` or `error` when
//! one of them is). Its CPU and wall times are the medians of its repetitions' (the mean of
//! the middle two of an even count), and their spread is the range of its CPU times. A job run
//! once reduces to itself, its figures unchanged.

use crate::results::record::{Record, Status};

/// What the rule reads of one repetition of a job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Its number, from 1, as messages name it.
    pub repetition: u32,
    pub status: Status,
    pub nodes_generated: u64,
    pub nodes_expanded: u64,
    pub time_cpu_s: f64,
    pub time_wall_s: f64,
}

impl Measured {
    pub fn of<S>(r: &Record<S>) -> Measured {
        Measured {
            repetition: r.repetition,
            status: r.status,
            nodes_generated: r.nodes_generated,
            nodes_expanded: r.nodes_expanded,
            time_cpu_s: r.time_cpu_s,
            time_wall_s: r.time_wall_s,
        }
    }
}

/// A job's repetitions reduced to one.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduced {
    /// Which repetition's results (length, node counts, iterations, path) stand for the job, as
    /// an index into those reduced: the first whose status is the job's, else the first.
    pub representative: usize,
    /// The job's status: the repetitions', `wrong`, `error` or `unstable` (see the module).
    pub status: Status,
    /// Why the repetitions make the job `wrong` or `unstable`, naming them; empty otherwise.
    pub message: String,
    /// How many repetitions were reduced.
    pub repetitions: u32,
    /// The median of the repetitions' CPU times.
    pub time_cpu_s: f64,
    /// The median of their wall times.
    pub time_wall_s: f64,
    /// The least and the most CPU time of a repetition: the spread.
    pub time_cpu_min_s: f64,
    pub time_cpu_max_s: f64,
}

/// The least median CPU time whose spread is told: below it a spread is the timer's resolution
/// and the scheduler's, not the job's (as `compare` gives no time ratio below 1 ms).
pub const SPREAD_FLOOR_S: f64 = 0.001;

impl Reduced {
    /// The spread of the job's CPU times relative to their median, (max - min) / median; `None`
    /// for a job run once or whose median is under `SPREAD_FLOOR_S`.
    pub fn cpu_spread(&self) -> Option<f64> {
        (self.repetitions > 1 && self.time_cpu_s >= SPREAD_FLOOR_S)
            .then(|| (self.time_cpu_max_s - self.time_cpu_min_s) / self.time_cpu_s)
    }
}

/// Whether a repetition's node counts and status must be the job's: not when a time limit
/// stopped it, nor when it ended in error.
pub fn counted(status: Status) -> bool {
    !matches!(status, Status::TimeLimit | Status::Error)
}

/// Why `later` cannot be a run of the job `earlier` is a run of: both are counted and their
/// status or node counts differ. The message names both repetitions and what differs.
pub fn disagreement(earlier: &Measured, later: &Measured) -> Option<String> {
    if !counted(earlier.status) || !counted(later.status) {
        return None;
    }
    let figures = [
        (
            "status",
            earlier.status.to_string(),
            later.status.to_string(),
        ),
        (
            "nodes_generated",
            earlier.nodes_generated.to_string(),
            later.nodes_generated.to_string(),
        ),
        (
            "nodes_expanded",
            earlier.nodes_expanded.to_string(),
            later.nodes_expanded.to_string(),
        ),
    ];
    let differ: Vec<String> = figures
        .into_iter()
        .filter(|(_, a, b)| a != b)
        .map(|(what, a, b)| format!("{what} {a} and {b}"))
        .collect();
    (!differ.is_empty()).then(|| {
        format!(
            "repetitions {} and {} of this job differ: {}",
            earlier.repetition,
            later.repetition,
            differ.join(", ")
        )
    })
}

/// Reduces a job's repetitions (at least one), given in repetition order.
pub fn reduce(reps: &[Measured]) -> Reduced {
    assert!(!reps.is_empty(), "a job has at least one repetition");
    let first_counted = reps.iter().find(|r| counted(r.status));
    let differ = first_counted.and_then(|a| reps.iter().find_map(|b| disagreement(a, b)));
    let has = |status: Status| reps.iter().any(|r| r.status == status);
    let (status, message) = if let Some(why) = differ {
        (Status::Wrong, why)
    } else if has(Status::Wrong) {
        (Status::Wrong, String::new())
    } else if has(Status::Error) {
        (Status::Error, String::new())
    } else if reps.iter().any(|r| r.status != reps[0].status) {
        let each: Vec<String> = reps
            .iter()
            .map(|r| format!("{} {}", r.repetition, r.status))
            .collect();
        (
            Status::Unstable,
            format!(
                "its repetitions end in different statuses because of the time limit: {}",
                each.join(", ")
            ),
        )
    } else {
        (reps[0].status, String::new())
    };
    let representative = reps
        .iter()
        .position(|r| r.status == status)
        .or_else(|| reps.iter().position(|r| counted(r.status)))
        .unwrap_or(0);
    let mut cpu: Vec<f64> = reps.iter().map(|r| r.time_cpu_s).collect();
    let mut wall: Vec<f64> = reps.iter().map(|r| r.time_wall_s).collect();
    Reduced {
        representative,
        status,
        message,
        repetitions: reps.len() as u32,
        time_cpu_s: median(&mut cpu),
        time_wall_s: median(&mut wall),
        time_cpu_min_s: cpu[0],
        time_cpu_max_s: cpu[cpu.len() - 1],
    }
}

/// The median of `values` (not empty), which it sorts: the middle one, or the mean of the middle
/// two.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// A run's rows gathered by job: for each job, in the order of the jobs' numbers, the indices of
/// the rows that are its repetitions, in the order given. Two lists for the whole run, not one
/// per job: the 8-puzzle's run has 181,440 jobs.
pub struct ByJob {
    /// Where each job's rows end in `rows`.
    ends: Vec<usize>,
    rows: Vec<usize>,
}

impl ByJob {
    /// `rows` gives each row's index and its job's number, below `jobs`.
    pub fn new(jobs: usize, rows: impl IntoIterator<Item = (usize, usize)>) -> ByJob {
        let rows: Vec<(usize, usize)> = rows.into_iter().collect();
        let mut ends = vec![0; jobs];
        for &(_, job) in &rows {
            ends[job] += 1;
        }
        let mut next = 0;
        for end in &mut ends {
            next += *end;
            *end = next - *end;
        }
        // `ends` holds each job's start here, and is moved to its end as the rows are placed.
        let mut placed = vec![0; rows.len()];
        for (row, job) in rows {
            placed[ends[job]] = row;
            ends[job] += 1;
        }
        ByJob { ends, rows: placed }
    }

    /// Each job's rows, in job order; jobs without a row are left out.
    pub fn iter(&self) -> impl Iterator<Item = &[usize]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.rows[start..end])
            .filter(|rows| !rows.is_empty())
    }
}

/// One job of a run reduced to one row: the representative repetition's row with the job's
/// status, its median times (and the node rate of the median CPU time), and, as its message,
/// why the repetitions make it `wrong` or `unstable`; and the reduction itself, for the spread.
#[derive(Clone, Debug, PartialEq)]
pub struct ReducedRecord {
    pub record: Record,
    pub reduced: Reduced,
}

/// Every job of `records` (a run's rows, any order) reduced to one, in the order of each job's
/// first row; a job's rows are taken in repetition order. What `compare`, and a report made of
/// runs.csv files, read a run as.
pub fn reduce_records(records: Vec<Record>) -> Vec<ReducedRecord> {
    let mut number: std::collections::HashMap<(&str, &str, &str), usize> =
        std::collections::HashMap::new();
    let jobs: Vec<usize> = records
        .iter()
        .map(|r| {
            let next = number.len();
            *number.entry(r.job()).or_insert(next)
        })
        .collect();
    let by_job = ByJob::new(number.len(), jobs.into_iter().enumerate());
    drop(number);
    let mut records: Vec<Option<Record>> = records.into_iter().map(Some).collect();
    by_job
        .iter()
        .map(|rows| {
            let mut rows = rows.to_vec();
            rows.sort_by_key(|&i| records[i].as_ref().map_or(0, |r| r.repetition));
            let measured: Vec<Measured> = rows
                .iter()
                .filter_map(|&i| records[i].as_ref().map(Measured::of))
                .collect();
            let reduced = reduce(&measured);
            let mut record = records[rows[reduced.representative]]
                .take()
                .expect("each row belongs to one job");
            if reduced.repetitions > 1 {
                apply(&mut record, &reduced);
            }
            ReducedRecord { record, reduced }
        })
        .collect()
}

/// The reduction written into the representative's row.
fn apply(record: &mut Record, reduced: &Reduced) {
    record.status = reduced.status;
    if !reduced.message.is_empty() {
        record.message = reduced.message.clone();
    }
    record.time_cpu_s = reduced.time_cpu_s;
    record.time_wall_s = reduced.time_wall_s;
    record.nodes_per_s = if record.time_cpu_s > 0.0 {
        (record.nodes_generated as f64 / record.time_cpu_s).round()
    } else {
        0.0
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::record;

    fn rep(repetition: u32, status: Status, nodes: u64, cpu: f64) -> Measured {
        Measured {
            repetition,
            status,
            nodes_generated: nodes,
            nodes_expanded: nodes / 2,
            time_cpu_s: cpu,
            time_wall_s: cpu * 2.0,
        }
    }

    #[test]
    fn a_job_run_once_is_itself() {
        let one = rep(1, Status::NodeLimit, 10, 0.123);
        let r = reduce(&[one]);
        assert_eq!(
            (r.status, r.representative, r.repetitions),
            (Status::NodeLimit, 0, 1)
        );
        assert_eq!((r.time_cpu_s, r.time_wall_s), (0.123, 0.246));
        assert_eq!(r.cpu_spread(), None);
        assert!(r.message.is_empty());
    }

    #[test]
    fn times_are_medians_and_the_spread_their_range() {
        use Status::Solved;
        let r = reduce(&[
            rep(1, Solved, 10, 0.004),
            rep(2, Solved, 10, 0.002),
            rep(3, Solved, 10, 0.003),
        ]);
        assert_eq!(
            (r.status, r.time_cpu_s, r.time_wall_s),
            (Solved, 0.003, 0.006)
        );
        assert_eq!((r.time_cpu_min_s, r.time_cpu_max_s), (0.002, 0.004));
        assert!((r.cpu_spread().unwrap() - 2.0 / 3.0).abs() < 1e-12);
        let even = reduce(&[rep(1, Solved, 10, 0.002), rep(2, Solved, 10, 0.004)]);
        assert_eq!(even.time_cpu_s, 0.003);
        // Under a millisecond, no spread is told.
        let tiny = reduce(&[rep(1, Solved, 10, 1e-6), rep(2, Solved, 10, 3e-6)]);
        assert_eq!(tiny.cpu_spread(), None);
    }

    #[test]
    fn counts_that_differ_are_wrong_and_a_time_limit_is_unstable() {
        use Status::*;
        let r = reduce(&[
            rep(1, Solved, 10, 1.0),
            rep(2, Solved, 12, 1.0),
            rep(3, Solved, 10, 1.0),
        ]);
        assert_eq!(r.status, Wrong);
        assert_eq!(
            r.message,
            "repetitions 1 and 2 of this job differ: nodes_generated 10 and 12, nodes_expanded 5 and 6"
        );
        // A time limit stops anywhere: its counts are not compared, but it makes the job
        // unstable.
        let r = reduce(&[
            rep(1, Solved, 10, 1.0),
            rep(2, TimeLimit, 7, 2.0),
            rep(3, Solved, 10, 1.0),
        ]);
        assert_eq!((r.status, r.representative), (Unstable, 0));
        assert_eq!(
            r.message,
            "its repetitions end in different statuses because of the time limit: 1 solved, 2 time_limit, 3 solved"
        );
        let all_stopped = reduce(&[rep(1, TimeLimit, 7, 2.0), rep(2, TimeLimit, 9, 2.0)]);
        assert_eq!(all_stopped.status, TimeLimit);
        // A status that differs without a time limit is a wrong result too.
        let r = reduce(&[rep(1, Solved, 10, 1.0), rep(2, NodeLimit, 10, 1.0)]);
        assert_eq!(r.status, Wrong);
        // A repetition in error or judged wrong makes the job so.
        let r = reduce(&[rep(1, Solved, 10, 1.0), rep(2, Error, 0, 0.0)]);
        assert_eq!((r.status, r.representative), (Error, 1));
        let r = reduce(&[rep(1, TimeLimit, 3, 1.0), rep(2, Wrong, 10, 1.0)]);
        assert_eq!((r.status, r.representative), (Wrong, 1));
    }

    #[test]
    fn rows_are_gathered_by_job_in_job_order() {
        let by_job = ByJob::new(4, [(0, 2), (1, 0), (2, 2), (3, 0), (4, 3)]);
        let groups: Vec<&[usize]> = by_job.iter().collect();
        assert_eq!(groups, [&[1, 3][..], &[0, 2], &[4]]);
        assert_eq!(ByJob::new(2, []).iter().count(), 0);
    }

    #[test]
    fn records_reduce_to_one_per_job_in_the_order_of_their_first_row() {
        let row = |instance: &str, repetition: u32, cpu: f64| Record {
            instance: instance.into(),
            repetition,
            time_cpu_s: cpu,
            ..record()
        };
        let jobs = reduce_records(vec![
            row("b", 2, 0.3),
            row("a", 1, 0.1),
            row("b", 1, 0.1),
            row("b", 3, 0.2),
        ]);
        let got: Vec<(&str, u32, f64)> = jobs
            .iter()
            .map(|j| {
                let r = &j.record;
                (r.instance.as_str(), r.repetition, r.time_cpu_s)
            })
            .collect();
        assert_eq!(got, [("b", 1, 0.2), ("a", 1, 0.1)]);
        assert_eq!(jobs[0].record.nodes_per_s, 25.0);
        assert_eq!(jobs[0].reduced.repetitions, 3);
        // A job run once keeps its row as it was.
        assert_eq!(jobs[1].record, row("a", 1, 0.1));
    }
}
