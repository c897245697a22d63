//! The report folder of `ab`: both builds' rows by round, the pairs, the comparison and the
//! manifest, each file whole or not at all.

use super::failed;
use super::schedule::Pair;
use super::BuildInfo;
use crate::compare::{self, CompareOptions, RenderFormat};
use crate::error::Error;
use crate::results::record::{DatasetInfo, Selection, RUNS_HEADER};
use crate::results::runs;
use crate::search::Clock;
use serde::Serialize;
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
    for p in sorted {
        for (bytes, r) in runs.iter_mut().zip([&p.baseline, &p.current]) {
            bytes.extend_from_slice(format!("{},", p.round + 1).as_bytes());
            r.write_csv(bytes);
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
