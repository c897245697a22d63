//! The report folder of `ab`: both builds' rows by round, the pairs, the comparison and the
//! manifest, each file whole or not at all; and its report.html and pictures, `compare --out`'s.

use super::failed;
use super::schedule::Pair;
use super::BuildInfo;
use crate::compare::{self, CompareOptions, Compared, Jobs, RenderFormat, SavedRun};
use crate::error::Error;
use crate::report::html::{self, Sides};
use crate::report::PlotSize;
use crate::results::folder;
use crate::results::record::{DatasetInfo, Record, RunLimits, Selection, Status, RUNS_HEADER};
use crate::results::runs;
use crate::search::Clock;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// manifest.json of an `ab` report.
#[derive(Serialize)]
pub(super) struct AbManifest {
    pub(super) command: &'static str,
    pub(super) idabench_version: String,
    pub(super) baseline: BuildInfo,
    pub(super) current: BuildInfo,
    /// `worker` or `run`.
    pub(super) mode: &'static str,
    pub(super) schedule: String,
    pub(super) rounds: usize,
    pub(super) lanes: usize,
    /// Jobs per round.
    pub(super) jobs: usize,
    /// Pairs measured.
    pub(super) pairs: usize,
    /// Rounds x jobs.
    pub(super) pairs_planned: usize,
    /// Whether every pair was measured.
    pub(super) complete: bool,
    /// What stopped the measuring early: a signal, or the error.
    pub(super) stopped_by: Option<String>,
    pub(super) threshold: f64,
    pub(super) datasets: Vec<DatasetInfo>,
    pub(super) variants: Vec<String>,
    /// The instances compared; absent: every instance of the datasets.
    #[serde(skip_serializing_if = "Selection::is_empty")]
    pub(super) selection: Selection,
    pub(super) max_nodes: Option<u64>,
    /// `--time-limit`, on the clock `time_limit_clock` says (`cpu`), as in a run's manifest.
    pub(super) time_limit_s: Option<f64>,
    pub(super) time_limit_clock: Clock,
    pub(super) wall_limit_s: Option<f64>,
    pub(super) cpu_model: String,
    pub(super) cores: usize,
    pub(super) host: Option<String>,
    pub(super) command_line: Vec<String>,
    pub(super) start_time: String,
    pub(super) end_time: String,
}

/// The columns of pairs.csv.
const PAIRS_HEADER: &str =
    "round,order,dataset,instance,variant,first,baseline_cpu_s,current_cpu_s,ratio\n";

/// runs-baseline.csv, runs-current.csv, pairs.csv, comparison.md and manifest.json, each whole
/// or not at all.
pub(super) fn write_report(
    dir: &Path,
    pairs: &[Pair],
    manifest: &AbManifest,
    comparison: &compare::Comparison,
) -> Result<(), Error> {
    let header = format!("round,{}\n", RUNS_HEADER.join(","));
    let mut runs = [header.clone().into_bytes(), header.into_bytes()];
    let mut table = PAIRS_HEADER.as_bytes().to_vec();
    let mut sorted: Vec<&Pair> = pairs.iter().collect();
    sorted.sort_by_key(|p| (p.round, p.job));
    // Each build's rows are of this `ab` run, whatever its workers called them.
    let run = folder::run_name(dir);
    for p in sorted {
        for (bytes, r) in runs.iter_mut().zip([&p.baseline, &p.current]) {
            bytes.extend_from_slice(format!("{},", p.round + 1).as_bytes());
            Record {
                run: run.clone(),
                ..r.clone()
            }
            .write_csv(bytes);
        }
        let floor = CompareOptions::default().min_time_s;
        let timed = |t: f64| t.is_finite() && t > 0.0 && t >= floor;
        let ratio = if timed(p.baseline.time_cpu_s) && timed(p.current.time_cpu_s) {
            format!("{:.6}", p.current.time_cpu_s / p.baseline.time_cpu_s)
        } else {
            String::new()
        };
        let mut row = csv::Writer::from_writer(Vec::new());
        row.write_record([
            (p.round + 1).to_string(),
            p.order.to_string(),
            p.baseline.dataset.clone(),
            p.baseline.instance.clone(),
            p.baseline.variant.clone(),
            if p.baseline_first {
                "baseline"
            } else {
                "current"
            }
            .to_owned(),
            p.baseline.time_cpu_s.to_string(),
            p.current.time_cpu_s.to_string(),
            ratio,
        ])
        .map_err(|e| failed(e.to_string()))?;
        table.extend(row.into_inner().map_err(|e| failed(e.to_string()))?);
    }
    let json = serde_json::to_vec_pretty(manifest).map_err(|e| failed(e.to_string()))?;
    let markdown = comparison.render(RenderFormat::Markdown);
    let files: [(&str, &[u8]); 5] = [
        ("runs-baseline.csv", &runs[0]),
        ("runs-current.csv", &runs[1]),
        ("pairs.csv", &table),
        ("comparison.md", markdown.as_bytes()),
        ("manifest.json", &json),
    ];
    for (name, bytes) in files {
        runs::write_atomic(&dir.join(name), bytes)?;
    }
    Ok(())
}

/// The files of an `ab` report that its report.html links to.
const FILES: [&str; 5] = [
    "runs-baseline.csv",
    "runs-current.csv",
    "pairs.csv",
    "comparison.md",
    "manifest.json",
];

/// report.html and the pictures of `compared` in `dir`, as `compare --out` writes them, with the
/// builds and the setting from `manifest`: a failure only warns.
pub(super) fn write_pages(dir: &Path, compared: &Compared, manifest: &AbManifest, size: PlotSize) {
    let build = |b: &BuildInfo| {
        format!(
            "{} build: {} (idabench {}, commit {}, {})",
            if b.role == "baseline" {
                "Baseline"
            } else {
                "Current"
            },
            b.path,
            b.version,
            b.commit,
            b.build
        )
    };
    let datasets: Vec<String> = manifest
        .datasets
        .iter()
        .map(|d| format!("{} ({} instances)", d.name, d.instances))
        .collect();
    let facts = vec![
        build(&manifest.baseline),
        build(&manifest.current),
        format!("Datasets: {}", datasets.join(", ")),
        format!(
            "Limits: {}",
            RunLimits {
                max_nodes: manifest.max_nodes,
                cpu_s: manifest.time_limit_s,
                wall_s: manifest.wall_limit_s,
            }
            .text()
        ),
        format!(
            "{} rounds of {} jobs on {} ({} cores), {} lane(s): {}",
            manifest.rounds,
            manifest.jobs,
            manifest.cpu_model,
            manifest.cores,
            manifest.lanes,
            manifest.schedule
        ),
        format!("From {} to {}", manifest.start_time, manifest.end_time),
    ];
    let sides = Sides::Builds {
        facts,
        files: html::report_files(dir, dir, &FILES),
    };
    crate::report::after_compare(dir, compared, true, &sides, size);
}

/// Each build's jobs as one run, for the pages and pictures (and `--format csv-long`): a job's
/// row from its first round, or from the first round in which it was wrong or failed (which
/// must show), with the median of its CPU times over the rounds.
pub(super) fn typical(pairs: &[Pair], source: [&str; 2]) -> [SavedRun; 2] {
    let mut by_job: BTreeMap<usize, Vec<&Pair>> = BTreeMap::new();
    for p in pairs {
        by_job.entry(p.job).or_default().push(p);
    }
    [0, 1].map(|side| {
        fn row(p: &Pair, side: usize) -> &Record {
            if side == 0 {
                &p.baseline
            } else {
                &p.current
            }
        }
        let mut jobs = Jobs::with_capacity(by_job.len());
        for rounds in by_job.values_mut() {
            rounds.sort_by_key(|p| p.round);
            let shown = rounds
                .iter()
                .map(|p| row(p, side))
                .find(|r| matches!(r.status, Status::Wrong | Status::Error))
                .unwrap_or_else(|| row(rounds[0], side));
            let mut times: Vec<f64> = rounds.iter().map(|p| row(p, side).time_cpu_s).collect();
            times.sort_by(f64::total_cmp);
            let mid = times.len() / 2;
            let median = if times.len() % 2 == 1 {
                times[mid]
            } else {
                (times[mid - 1] + times[mid]) / 2.0
            };
            jobs.push(&Record {
                time_cpu_s: median,
                ..shown.clone()
            });
        }
        SavedRun {
            jobs,
            manifest: None,
            source: source[side].to_owned(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::record;

    fn pair(round: usize, job: usize, current: (Status, f64)) -> Pair {
        let r = Record {
            instance: job.to_string(),
            ..record()
        };
        Pair {
            round,
            job,
            order: job,
            baseline_first: true,
            baseline: r.clone(),
            current: Record {
                status: current.0,
                time_cpu_s: current.1,
                ..r
            },
        }
    }

    #[test]
    fn a_job_shows_its_median_time_and_a_round_that_went_wrong() {
        let ok = Status::Solved;
        let pairs = [
            pair(0, 1, (ok, 0.5)),
            pair(0, 0, (ok, 3.0)),
            pair(1, 0, (Status::Error, 1.0)),
            pair(2, 0, (ok, 2.0)),
            pair(1, 1, (ok, 0.1)),
        ];
        let [base, cur] = typical(&pairs, ["a", "b"]);
        let jobs: Vec<(&str, Status, f64)> = cur
            .jobs
            .iter()
            .map(|j| (j.instance, j.status, j.time_cpu_s))
            .collect();
        assert_eq!(jobs, [("0", Status::Error, 2.0), ("1", ok, 0.3)]);
        assert_eq!(base.jobs.get(0).time_cpu_s, record().time_cpu_s);
        assert_eq!((base.source.as_str(), cur.source.as_str()), ("a", "b"));
    }
}
