//! The report files of a run beside runs.csv: summary.csv, summary.md and manifest.json, and
//! the one step that writes every report of a finished (or interrupted) run. Every file but the
//! streamed runs.csv and iterations.csv is written whole or not at all (a temporary name, then a
//! rename).

use crate::domains::Spec;
use crate::results::iterations::{self, Spans};
use crate::results::record::{on_off, Manifest, Status};
use crate::results::repetitions::{self, ByJob, Measured};
use crate::results::runs::{write_atomic, write_runs, Rows, Tally};
use crate::results::{read_file, ReportError};
use crate::util::text::markdown_code;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::Path;

/// One variant's figures: a row of summary.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantSummary {
    pub variant: String,
    pub heuristic: String,
    pub step: String,
    pub reverse_pruning: String,
    pub jobs: u64,
    pub solved: u64,
    /// Jobs stopped by `--max-nodes` or `--time-limit`.
    pub limited: u64,
    pub unsolvable: u64,
    pub over_cap: u64,
    pub suboptimal: u64,
    pub wrong: u64,
    pub error: u64,
    /// Jobs whose answer is not guaranteed shortest (step 2 on a domain without a known parity).
    pub not_guaranteed_optimal: u64,
    pub nodes_generated_total: u64,
    pub nodes_expanded_total: u64,
    /// This variant's instances that every variant running them solved: the set the geometric
    /// means are taken over (heuristics run on their own domains only).
    pub common_solved: u64,
    pub nodes_generated_geomean: Option<f64>,
    pub time_cpu_geomean_s: Option<f64>,
    pub time_cpu_p50_s: Option<f64>,
    pub time_cpu_p90_s: Option<f64>,
    pub time_cpu_p99_s: Option<f64>,
    pub time_cpu_max_s: Option<f64>,
    pub time_cpu_total_s: f64,
    pub nodes_per_s: Option<f64>,
    /// Mean penalised time: a job's CPU time when it was answered, else twice the time limit
    /// (twice its own time when no time limit was set).
    pub par2_s: Option<f64>,
    /// The first variant's geometric-mean time over this one's (above 1: this one is faster);
    /// `None` unless both means are over the same instances.
    pub speedup: Option<f64>,
    /// Jobs whose repetitions (`--repeat`) ended in different statuses because of the time
    /// limit; counted in no other status.
    #[serde(default)]
    pub unstable: u64,
    /// The median, over the variant's repeated jobs of at least 1 ms, of the spread of a job's
    /// CPU times: (max - min) / median of its repetitions'. `None` without repetitions.
    #[serde(default)]
    pub time_cpu_spread_p50: Option<f64>,
    /// The largest such spread.
    #[serde(default)]
    pub time_cpu_spread_max: Option<f64>,
}

fn geomean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for v in values {
        sum += v.max(1e-9).ln();
        n += 1;
    }
    (n > 0).then(|| (sum / n as f64).exp())
}

/// A finished row as the summaries see it: its job's instance (numbered across the run's
/// datasets) and variant (an index into the run's variants), and its tally.
pub type Finished<'t> = (usize, usize, &'t Tally);

/// A job's repetitions reduced to one (see `repetitions`): the tally that stands for the job,
/// with its median CPU time and its status, and the spread of its CPU times.
#[derive(Clone, Copy, Debug)]
pub struct JobTally {
    pub tally: Tally,
    /// See `Reduced::cpu_spread`.
    pub spread: Option<f64>,
}

/// A run's rows reduced to one per job, in job order: each job's representative row (see
/// `Reduced::representative`) and its reduced tally. `rows` gives each row's number, its job's
/// number (below `jobs`) and its tally, in job order but for repetitions, a job's in repetition
/// order.
pub fn reduce_jobs<'r>(
    jobs: usize,
    rows: &'r [(usize, usize, &Tally)],
) -> Box<dyn Iterator<Item = (usize, JobTally)> + 'r> {
    let once = |&(row, _, t): &(usize, usize, &Tally)| {
        let job = JobTally {
            tally: *t,
            spread: None,
        };
        (row, job)
    };
    // Without repetitions each job comes once, in job order: nothing to gather.
    if rows.windows(2).all(|w| w[0].1 < w[1].1) {
        return Box::new(rows.iter().map(once));
    }
    let by_job = ByJob::new(jobs, rows.iter().enumerate().map(|(k, r)| (k, r.1)));
    let reduced: Vec<(usize, JobTally)> = by_job
        .iter()
        .map(|group| {
            let (representative, job) = reduce(group.iter().map(|&k| rows[k].2));
            (rows[group[representative]].0, job)
        })
        .collect();
    Box::new(reduced.into_iter())
}

/// One summary row per variant, in the order of `variants` (`names[k]` is `variants[k].name()`).
/// `finished` holds every repetition of a job (in repetition order), each job first reduced to
/// one; it is in job order, which fixes the order of the floating-point sums. `time_limit_s` is
/// the run's limit, for PAR-2.
pub fn summarize<'t>(
    finished: impl IntoIterator<Item = Finished<'t>>,
    variants: &[Spec],
    names: &[String],
    time_limit_s: Option<f64>,
) -> Vec<VariantSummary> {
    // Each row as its job's number, twice: the row's number in `reduce_jobs` is its job's.
    let variants_n = names.len();
    let finished = finished.into_iter();
    // Sized up front: grown one doubling at a time, the copies cost more than the filling.
    let (least, most) = finished.size_hint();
    let mut rows: Vec<(usize, usize, &Tally)> = Vec::with_capacity(most.unwrap_or(least));
    rows.extend(finished.map(|(instance, variant, tally)| {
        let job = instance * variants_n + variant;
        (job, job, tally)
    }));
    let instances = rows.iter().map(|r| r.1 / variants_n + 1).max().unwrap_or(0);
    let mut by_variant: Vec<Vec<(usize, JobTally)>> = vec![Vec::new(); variants_n];
    for (job, tally) in reduce_jobs(instances * variants_n, &rows) {
        by_variant[job % variants_n].push((job / variants_n, tally));
    }
    // Instances not solved by every variant that ran them: a heuristic runs only on its own
    // domain, so "every variant" means every one that had a job there.
    let mut unsolved = vec![false; instances];
    for (i, t) in by_variant.iter().flatten() {
        unsolved[*i] |= !t.tally.status.has_solution();
    }
    // The instances each variant's geometric means are over, ascending.
    let mean_sets: Vec<Vec<usize>> = by_variant
        .iter()
        .map(|jobs| {
            let mut set: Vec<usize> = jobs
                .iter()
                .map(|&(i, _)| i)
                .filter(|&i| !unsolved[i])
                .collect();
            set.sort_unstable();
            set
        })
        .collect();
    let mut rows: Vec<VariantSummary> = names
        .iter()
        .zip(variants)
        .zip(&by_variant)
        .map(|((name, spec), jobs)| summarize_one(name, spec, jobs, &unsolved, time_limit_s))
        .collect();
    // A ratio of geometric means says something only when both are over the same instances:
    // not between heuristics of different domains, nor in a run cut short.
    let first = rows.first().and_then(|r| r.time_cpu_geomean_s);
    for (row, set) in rows.iter_mut().zip(&mean_sets) {
        row.speedup = match (first, row.time_cpu_geomean_s) {
            (Some(a), Some(b)) if b > 0.0 && mean_sets.first() == Some(set) => Some(a / b),
            _ => None,
        };
    }
    rows
}

/// A job's repetitions' tallies (at least one), in repetition order, reduced to one: the index
/// of the representative among them, and the job's tally.
fn reduce<'t>(mut repetitions: impl ExactSizeIterator<Item = &'t Tally>) -> (usize, JobTally) {
    // A job run once is itself, and costs no list: most runs have no repetitions.
    if repetitions.len() == 1 {
        let job = JobTally {
            tally: *repetitions.next().expect("one repetition"),
            spread: None,
        };
        return (0, job);
    }
    let tallies: Vec<&Tally> = repetitions.collect();
    let measured: Vec<Measured> = tallies
        .iter()
        .zip(1..)
        .map(|(t, repetition)| Measured {
            repetition,
            status: t.status,
            nodes_generated: t.nodes_generated,
            nodes_expanded: t.nodes_expanded,
            time_cpu_s: t.time_cpu_s,
            time_wall_s: 0.0,
        })
        .collect();
    let reduced = repetitions::reduce(&measured);
    let job = JobTally {
        tally: Tally {
            status: reduced.status,
            time_cpu_s: reduced.time_cpu_s,
            ..*tallies[reduced.representative]
        },
        spread: reduced.cpu_spread(),
    };
    (reduced.representative, job)
}

/// The row of variant `name` from its jobs (instance, reduced tally); its geometric means are
/// over the instances not `unsolved`.
fn summarize_one(
    name: &str,
    spec: &Spec,
    jobs: &[(usize, JobTally)],
    unsolved: &[bool],
    time_limit_s: Option<f64>,
) -> VariantSummary {
    let records: Vec<&Tally> = jobs.iter().map(|(_, t)| &t.tally).collect();
    let in_common: Vec<&Tally> = jobs
        .iter()
        .filter(|&&(i, _)| !unsolved[i])
        .map(|(_, t)| &t.tally)
        .collect();
    let mut spreads: Vec<f64> = jobs.iter().filter_map(|(_, t)| t.spread).collect();
    let spread_p50 = (!spreads.is_empty()).then(|| repetitions::median(&mut spreads));
    let spread_max = spreads.iter().copied().reduce(f64::max);
    let count = |status: Status| records.iter().filter(|r| r.status == status).count() as u64;
    // Microseconds up to a week, 3 significant digits.
    let mut hist = Histogram::<u64>::new_with_bounds(1, 604_800_000_000, 3).expect("valid bounds");
    for r in &records {
        hist.saturating_record(((r.time_cpu_s * 1e6).round() as u64).max(1));
    }
    let quantile = |q: f64| (!records.is_empty()).then(|| hist.value_at_quantile(q) as f64 / 1e6);
    let cpu_total: f64 = records.iter().map(|r| r.time_cpu_s).sum();
    let nodes_total: u64 = records.iter().map(|r| r.nodes_generated).sum();
    let par2 = (!records.is_empty()).then(|| {
        records
            .iter()
            .map(|r| {
                if r.status.answered() {
                    r.time_cpu_s
                } else {
                    2.0 * time_limit_s.unwrap_or(r.time_cpu_s)
                }
            })
            .sum::<f64>()
            / records.len() as f64
    });
    // A variant without a job (no domain of the datasets takes its heuristic) says nothing.
    let column = |text: &str| {
        if records.is_empty() {
            String::new()
        } else {
            text.to_string()
        }
    };
    VariantSummary {
        variant: name.to_string(),
        heuristic: column(spec.heuristic.name()),
        step: column(spec.step.name()),
        reverse_pruning: column(on_off(spec.reverse_pruning)),
        jobs: records.len() as u64,
        solved: records.iter().filter(|r| r.status.solved()).count() as u64,
        limited: count(Status::NodeLimit) + count(Status::TimeLimit),
        unsolvable: count(Status::Unsolvable),
        over_cap: count(Status::OverCap),
        suboptimal: count(Status::Suboptimal),
        wrong: count(Status::Wrong),
        error: count(Status::Error),
        not_guaranteed_optimal: records.iter().filter(|r| !r.optimal_guaranteed).count() as u64,
        nodes_generated_total: nodes_total,
        nodes_expanded_total: records.iter().map(|r| r.nodes_expanded).sum(),
        common_solved: in_common.len() as u64,
        nodes_generated_geomean: geomean(in_common.iter().map(|r| r.nodes_generated as f64)),
        time_cpu_geomean_s: geomean(in_common.iter().map(|r| r.time_cpu_s)),
        time_cpu_p50_s: quantile(0.5),
        time_cpu_p90_s: quantile(0.9),
        time_cpu_p99_s: quantile(0.99),
        time_cpu_max_s: (!records.is_empty()).then(|| hist.max() as f64 / 1e6),
        time_cpu_total_s: cpu_total,
        nodes_per_s: (cpu_total > 0.0).then(|| nodes_total as f64 / cpu_total),
        par2_s: par2,
        speedup: None,
        unstable: count(Status::Unstable),
        time_cpu_spread_p50: spread_p50,
        time_cpu_spread_max: spread_max,
    }
}

/// Reads summary.csv back; an error names the file and line.
pub fn read_summary(path: &Path) -> Result<Vec<VariantSummary>, ReportError> {
    let bytes = read_file(path)?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    reader
        .deserialize()
        .map(|row| {
            row.map_err(|e: csv::Error| {
                let line = e.position().map_or(0, csv::Position::line);
                ReportError::Read(format!("{}:{line}: {e}", path.display()))
            })
        })
        .collect()
}

pub fn summary_csv(rows: &[VariantSummary]) -> Result<Vec<u8>, ReportError> {
    let failed = |e: String| ReportError::Write(format!("summary.csv: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).map_err(|e| failed(e.to_string()))?;
    }
    w.into_inner().map_err(|e| failed(e.to_string()))
}

/// summary.md: a title, the run's setting, whether jobs are missing, and one table row per
/// variant. Names from files (datasets, variants of merged shards, the machine) are each a
/// `markdown_code` span: the file is pasted into pull requests.
pub fn summary_md(rows: &[VariantSummary], manifest: &Manifest) -> String {
    let datasets: Vec<String> = manifest
        .datasets
        .iter()
        .map(|d| {
            let plural = if d.instances == 1 { "" } else { "s" };
            format!(
                "{} ({} instance{plural})",
                markdown_code(&d.name),
                d.instances
            )
        })
        .collect();
    let mut out = format!(
        "## idabench run\n\n{} on {} with {} worker{}; limits: {}.\n\n",
        datasets.join(", "),
        markdown_code(&manifest.cpu_model),
        manifest.jobs,
        if manifest.jobs == 1 { "" } else { "s" },
        manifest.limits_text(),
    );
    if !manifest.shards.is_empty() {
        out.push_str(&format!(
            "Merged from {} shard(s) of {}; manifest.json lists each one's machine.\n\n",
            manifest.shards.len(),
            manifest.shards[0].shard.count
        ));
    }
    match (manifest.jobs_missing, manifest.jobs_total) {
        (Some(missing @ 1..), Some(total)) if !manifest.shards.is_empty() => {
            out.push_str(&format!(
                "**Incomplete merge: {missing} of {total} jobs are missing (their shards are \
                 unfinished or were not given; missing.csv lists those of unfinished shards). \
                 The figures below are over the finished jobs only.**\n\n"
            ));
        }
        (Some(missing @ 1..), Some(total)) => {
            out.push_str(&format!(
                "**Incomplete run: {missing} of {total} jobs are missing (it was interrupted); \
                 `--resume` runs them. The figures below are over the finished jobs only.**\n\n"
            ));
        }
        _ => {}
    }
    // The unstable column only where repetitions could make a job so: a run without them keeps
    // its table as it was.
    let repeated = repeated(rows, manifest.repeat);
    let (unstable_head, unstable_rule) = if repeated {
        (" unstable |", "--:|")
    } else {
        ("", "")
    };
    out.push_str(&format!(
        "| variant | jobs | solved | suboptimal | wrong | error | limited |{unstable_head} unsolvable | over cap | nodes generated | geomean nodes | geomean CPU s | p50 s | p90 s | p99 s | max s | Mnodes/s | PAR-2 s | speed-up |\n\
         |---|--:|--:|--:|--:|--:|--:|{unstable_rule}--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    ));
    // A wrong answer or an error must not pass unseen in a column of zeros.
    let flagged = |n: u64| match n {
        0 => "0".to_string(),
        n => format!("**{n}**"),
    };
    for r in rows {
        let unstable = if repeated {
            format!(" {} |", r.unstable)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |{unstable} {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            markdown_code(&r.variant),
            r.jobs,
            r.solved,
            r.suboptimal,
            flagged(r.wrong),
            flagged(r.error),
            r.limited,
            r.unsolvable,
            r.over_cap,
            r.nodes_generated_total,
            fmt(r.nodes_generated_geomean, 0),
            seconds(r.time_cpu_geomean_s),
            seconds(r.time_cpu_p50_s),
            seconds(r.time_cpu_p90_s),
            seconds(r.time_cpu_p99_s),
            seconds(r.time_cpu_max_s),
            fmt(r.nodes_per_s.map(|v| v / 1e6), 1),
            seconds(r.par2_s),
            fmt(r.speedup, 2),
        ));
    }
    let unguaranteed: Vec<String> = rows
        .iter()
        .filter(|r| r.not_guaranteed_optimal > 0)
        .map(|r| {
            format!(
                "{} ({} jobs)",
                markdown_code(&r.variant),
                r.not_guaranteed_optimal
            )
        })
        .collect();
    if !unguaranteed.is_empty() {
        out.push_str(&format!(
            "\nNot guaranteed shortest (step 2 where the domain has no solution parity): {}.\n",
            unguaranteed.join(", ")
        ));
    }
    if let Some(note) = repetitions_note(rows, manifest.repeat) {
        out.push_str(&format!("\n{note}\n"));
    }
    let problems: u64 = rows.iter().map(|r| r.suboptimal + r.wrong + r.error).sum();
    out.push_str(&format!(
        "\nGeometric means are over the instances solved by every variant that ran them ({} for the first variant; `common_solved` in summary.csv); a speed-up is given only between means over the same instances. Times are CPU seconds of the job, on every thread that searched it.{}\n",
        rows.first().map_or(0, |r| r.common_solved),
        if problems > 0 {
            format!(" **{problems} job(s) are suboptimal, wrong or failed: see runs.csv.**")
        } else {
            String::new()
        }
    ));
    out
}

/// Whether a summary's tables show the `unstable` column: for a run with repetitions (`repeat`
/// from its manifest), or one whose rows count an unstable job.
pub fn repeated(rows: &[VariantSummary], repeat: u32) -> bool {
    repeat > 1 || rows.iter().any(|r| r.unstable > 0)
}

/// What summary.md and report.html say of a run with repetitions: how its jobs were reduced,
/// the spread of their CPU times, and the unstable jobs; `None` for a run without. Plain text,
/// which each page escapes its own way.
pub fn repetitions_note(rows: &[VariantSummary], repeat: u32) -> Option<String> {
    if !repeated(rows, repeat) {
        return None;
    }
    let mut note = format!(
        "Each job ran {repeat} times (--repeat {repeat}), in rounds (every job once, then again): \
         a job counts once, with the median of its repetitions' CPU times and their node counts, \
         which must agree (a repetition stopped by the time limit excepted: a difference makes \
         the job wrong)."
    );
    let p50: Vec<f64> = rows.iter().filter_map(|r| r.time_cpu_spread_p50).collect();
    let max = rows
        .iter()
        .filter_map(|r| r.time_cpu_spread_max)
        .reduce(f64::max);
    let percent = |v: f64| format!("{:.1}%", 100.0 * v);
    if let Some(max) = max {
        let least = p50.iter().copied().fold(f64::INFINITY, f64::min);
        let most = p50.iter().copied().fold(0.0, f64::max);
        let median = if least == most {
            percent(least)
        } else {
            format!("from {} to {}", percent(least), percent(most))
        };
        note += &format!(
            " The spread of a job's CPU times, (max - min) / median over jobs of at least 1 ms: \
             its median per variant {median}, the largest {} (time_cpu_spread_p50 and \
             time_cpu_spread_max in summary.csv).",
            percent(max)
        );
    }
    let unstable: u64 = rows.iter().map(|r| r.unstable).sum();
    if unstable > 0 {
        note += &format!(
            " {unstable} job(s) are unstable: their repetitions ended in different statuses \
             because of the time limit (runs.csv keeps each repetition's status)."
        );
    }
    Some(note)
}

/// Seconds to three significant digits, so that microsecond jobs do not all read 0.0000.
pub fn seconds(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v > 0.0 => {
            let decimals = (2 - v.log10().floor() as i32).max(0) as usize;
            format!("{v:.decimals$}")
        }
        Some(v) => format!("{v}"),
    }
}

/// `v` with `decimals` decimals, or `-`.
pub fn fmt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.decimals$}"))
}

pub fn manifest_json(m: &Manifest) -> Result<Vec<u8>, ReportError> {
    let mut bytes = serde_json::to_vec_pretty(m)
        .map_err(|e| ReportError::Write(format!("manifest.json: {e}")))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes a finished (or interrupted) run's reports into `dir`: runs.csv and iterations.csv
/// (from where `iterations` says each job's rows lie; none without it) in job order,
/// summary.csv, summary.md and manifest.json. Every report a run leaves is written here.
pub fn write_reports(
    dir: &Path,
    rows: &Rows,
    iterations: Option<&mut Spans>,
    manifest: &Manifest,
    summaries: &[VariantSummary],
) -> Result<(), ReportError> {
    let iterations_path = dir.join(iterations::FILE);
    // The two big files side by side, on two threads: each is a copy of rows from the file the
    // run appended them to, and the run's wall time waits for both.
    let (runs, iterations) = std::thread::scope(|scope| {
        let runs = scope.spawn(|| write_runs(&dir.join("runs.csv"), rows));
        let iterations = match iterations {
            Some(spans) => iterations::write_in_order(&iterations_path, spans),
            None => match std::fs::remove_file(&iterations_path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(ReportError::Write(format!(
                    "{}: {e}",
                    iterations_path.display()
                ))),
                _ => Ok(()),
            },
        };
        let runs = runs
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (runs, iterations)
    });
    runs?;
    iterations?;
    let files: [(&str, Result<Vec<u8>, ReportError>); 3] = [
        ("summary.csv", summary_csv(summaries)),
        (
            "summary.md",
            Ok(summary_md(summaries, manifest).into_bytes()),
        ),
        // Last: a manifest with an end time marks the other reports as final.
        ("manifest.json", manifest_json(manifest)),
    ];
    for (name, bytes) in files {
        write_atomic(&dir.join(name), &bytes?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::{manifest, record};
    use crate::results::record::DatasetInfo;

    fn spec(heuristic: &str) -> Spec {
        Spec {
            heuristic: crate::domains::HeuristicKind::parse(heuristic).unwrap(),
            step: crate::search::Step::Next,
            reverse_pruning: true,
        }
    }

    #[test]
    fn summaries_count_statuses_and_take_geometric_means_over_common_instances() {
        let mut a = Tally::of(&record());
        let mut b = a;
        b.status = Status::NodeLimit;
        let mut c = a;
        c.time_cpu_s = 1.0;
        a.nodes_generated = 100;
        let specs = [spec("manhattan"), spec("zero")];
        let names: Vec<String> = specs.iter().map(Spec::name).collect();
        // Instance 0 under both variants, instance 1 under the first.
        let rows = summarize(
            [(0, 0, &a), (1, 0, &b), (0, 1, &c)],
            &specs,
            &names,
            Some(10.0),
        );
        assert_eq!((rows[0].jobs, rows[0].solved, rows[0].limited), (2, 1, 1));
        assert_eq!(
            (rows[1].variant.as_str(), rows[1].heuristic.as_str()),
            ("zero/stepnext/prune", "zero")
        );
        // Instance 1 was not solved by every variant that ran it: only instance 0 is common.
        assert_eq!(rows[0].common_solved, 1);
        let close = |v: Option<f64>, want: f64| (v.unwrap() - want).abs() < 1e-9 * want;
        assert!(close(rows[0].nodes_generated_geomean, 100.0));
        // PAR-2: (0.25 + 2 x 10) / 2.
        assert!(close(rows[0].par2_s, 10.125));
        assert!(close(rows[1].speedup, 0.25));
    }

    #[test]
    fn repetitions_count_as_one_job_with_its_median_time() {
        let t = |status, nodes, cpu| Tally {
            status,
            nodes_generated: nodes,
            time_cpu_s: cpu,
            ..Tally::of(&record())
        };
        let specs = [spec("manhattan")];
        let names: Vec<String> = specs.iter().map(Spec::name).collect();
        // Instance 0 three times, alike; instance 1 stopped once by the time limit; instance 2
        // with node counts that differ.
        let rows = [
            (0, t(Status::Solved, 10, 0.002)),
            (1, t(Status::Solved, 10, 0.5)),
            (2, t(Status::Solved, 10, 0.5)),
            (0, t(Status::Solved, 10, 0.004)),
            (1, t(Status::TimeLimit, 7, 1.0)),
            (2, t(Status::Solved, 11, 0.5)),
            (0, t(Status::Solved, 10, 0.003)),
            (1, t(Status::Solved, 10, 0.5)),
            (2, t(Status::Solved, 10, 0.5)),
        ];
        let finished = rows.iter().map(|(i, t)| (*i, 0, t));
        let r = &summarize(finished, &specs, &names, Some(1.0))[0];
        assert_eq!((r.jobs, r.solved, r.unstable, r.wrong), (3, 1, 1, 1));
        assert_eq!(r.nodes_generated_total, 30);
        // The median of instance 0's times, 3 ms, spread (4 - 2) / 3; instance 1's 0.5 s, (1 -
        // 0.5) / 0.5; instance 2's 0.5 s, 0.
        assert!((r.time_cpu_total_s - 1.003).abs() < 1e-12, "{r:?}");
        assert!((r.time_cpu_spread_max.unwrap() - 1.0).abs() < 1e-12);
        assert!((r.time_cpu_spread_p50.unwrap() - 2.0 / 3.0).abs() < 1e-12);
        let mut m = manifest();
        m.repeat = 3;
        let md = summary_md(std::slice::from_ref(r), &m);
        assert!(md.contains("| limited | unstable | unsolvable |"), "{md}");
        assert!(
            md.contains("| 3 | 1 | 0 | **1** | 0 | 0 | 1 | 0 | 0 |"),
            "{md}"
        );
        assert!(md.contains("Each job ran 3 times (--repeat 3)"), "{md}");
        assert!(md.contains("1 job(s) are unstable"), "{md}");
        // Without repetitions, the table is as it always was.
        let once = summarize([(0, 0, &rows[0].1)], &specs, &names, None);
        let md = summary_md(&once, &manifest());
        assert!(md.contains("| limited | unsolvable |"), "{md}");
        assert!(!md.contains("--repeat"), "{md}");
    }

    #[test]
    fn no_speedup_between_variants_over_different_instances() {
        let t = Tally::of(&record());
        // A tiles instance under manhattan, a rotation instance under center, and a variant
        // whose heuristic took no instance.
        let specs = [spec("manhattan"), spec("center"), spec("zero")];
        let names: Vec<String> = specs.iter().map(Spec::name).collect();
        let rows = summarize([(0, 0, &t), (1, 1, &t)], &specs, &names, None);
        assert_eq!((rows[2].jobs, rows[2].heuristic.as_str()), (0, ""));
        assert_eq!(rows[0].speedup, Some(1.0));
        assert_eq!(rows[1].speedup, None);
        assert!(rows[1].time_cpu_geomean_s.is_some());
        let md = summary_md(&rows, &manifest());
        assert!(md.contains("| 1.00 |\n| `center/stepnext/prune` |"), "{md}");
        assert!(md.contains("| - |\n\nGeometric means"), "{md}");
    }

    /// A merged run's names come from the shards' files: a dataset, a machine and a variant
    /// that would break out of their code spans stay in them, each on its line.
    #[test]
    fn names_from_files_stay_in_their_code_spans() {
        let t = Tally::of(&record());
        let specs = [spec("manhattan")];
        let names = ["x`|\n# v\x1b[2J".to_owned()];
        let rows = summarize([(0, 0, &t)], &specs, &names, None);
        let mut m = manifest();
        m.datasets.push(DatasetInfo {
            path: String::new(),
            name: "we`ird\n## set".into(),
            sha256: String::new(),
            instances: 1,
        });
        m.cpu_model = "cpu\u{202e}\n|---|".into();
        let md = summary_md(&rows, &m);
        assert!(
            md.starts_with(
                "## idabench run\n\n``we`ird\\n## set`` (1 instance) on `cpu\\u{202e}\\n\\|---\\|` with "
            ),
            "{md}"
        );
        assert!(md.contains("\n| ``x`\\|\\n# v\\x1b[2J`` | 1 |"), "{md}");
        assert!(!md.contains(['\x1b', '\u{202e}']), "{md}");
        assert_eq!(md.lines().filter(|l| l.starts_with('#')).count(), 1, "{md}");
    }

    #[test]
    fn the_summary_of_an_interrupted_run_says_how_many_jobs_are_missing() {
        let mut m = manifest();
        assert!(!summary_md(&[], &m).contains("Incomplete"));
        m.complete = Some(false);
        m.jobs_total = Some(30);
        m.jobs_missing = Some(7);
        assert!(summary_md(&[], &m).contains(
            "**Incomplete run: 7 of 30 jobs are missing (it was interrupted); `--resume` runs them."
        ));
    }
}
