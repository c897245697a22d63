//! What a run leaves on disk, as serde types: one `Record` per job (a row of runs.csv), and the
//! run's `Manifest`. Written by `run`, read back by `compare` and `--resume`.

use crate::results::shard::Shard;
use crate::results::{read_file, ReportError};
use crate::tables::store::TableInfo;
use crate::util::text;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// What became of one job, spelled in runs.csv as `solved`, `over_cap`, ... `Suboptimal`, `Wrong`
/// (against the dataset's reference) and `Error` are given by the batch runner, which knows the
/// reference length and catches failures; `Cancelled` is a search stopped from outside, never
/// written to a report. `Unstable` is never written either: it is what a job repeated with
/// `--repeat` reduces to when its repetitions end in different statuses because of a time
/// limit (see `repetitions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Solved,
    Unsolvable,
    OverCap,
    NodeLimit,
    TimeLimit,
    Suboptimal,
    Wrong,
    Error,
    Cancelled,
    Unstable,
}

impl Status {
    /// Every status a report may hold (all but `Cancelled`).
    pub const WRITTEN: [Status; 8] = [
        Status::Solved,
        Status::Unsolvable,
        Status::OverCap,
        Status::NodeLimit,
        Status::TimeLimit,
        Status::Suboptimal,
        Status::Wrong,
        Status::Error,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::OverCap => "over_cap",
            Status::NodeLimit => "node_limit",
            Status::TimeLimit => "time_limit",
            Status::Suboptimal => "suboptimal",
            Status::Wrong => "wrong",
            Status::Error => "error",
            Status::Cancelled => "cancelled",
            Status::Unstable => "unstable",
        }
    }

    /// Counted as solved, in every report and picture alike: a shortest solution (or one no
    /// reference contradicts). A suboptimal answer is counted as what it is, never as solved.
    pub fn solved(self) -> bool {
        self == Status::Solved
    }

    /// A solution was found (and replayed), shortest or not.
    pub fn has_solution(self) -> bool {
        matches!(self, Status::Solved | Status::Suboptimal)
    }

    /// The search ran to an answer: a solution, or a proof that there is none within the cap.
    pub fn answered(self) -> bool {
        self.has_solution() || matches!(self, Status::Unsolvable | Status::OverCap)
    }

    /// Stopped by a per-job limit.
    pub fn limited(self) -> bool {
        matches!(self, Status::NodeLimit | Status::TimeLimit)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One job's result: a row of runs.csv. Units are in the column names; empty cells are `None`.
/// The text is `String` when read back; a run writes rows that borrow it from the job (`Cow`),
/// so that a job's row costs no allocation of the names every job repeats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<S = String> {
    /// The dataset file's stem, e.g. `korf100` for datasets/korf100.csv.
    pub dataset: S,
    /// The instance's `id` in its dataset.
    pub instance: S,
    pub domain: S,
    pub size: S,
    /// Stable variant name, e.g. `manhattan/step2/prune`.
    pub variant: S,
    pub heuristic: S,
    /// `1`, `2` or `next`.
    pub step: S,
    /// `on` or `off`.
    pub reverse_pruning: S,
    pub status: Status,
    pub length: Option<u32>,
    /// The dataset's reference length, when it has one.
    pub optimal: Option<u32>,
    pub nodes_generated: u64,
    pub nodes_expanded: u64,
    pub iterations: u32,
    pub final_bound: u32,
    pub time_wall_s: f64,
    /// CPU time of the job on every thread that searched it: the honest figure when jobs share
    /// cores.
    pub time_cpu_s: f64,
    /// nodes_generated / time_cpu_s (0 when no time was measured).
    pub nodes_per_s: f64,
    pub initial_h: u32,
    /// False when the variant cannot promise a shortest path (step 2 without a known parity).
    pub optimal_guaranteed: bool,
    /// Why a job is `error` or `wrong`; empty otherwise.
    pub message: S,
    /// The solution's moves (tiles: the blank's motion as U D L R).
    pub path: S,
    /// Which of the job's runs this is, from 1 (`run --repeat N`); 1 in a runs.csv written
    /// before the column existed.
    #[serde(default = "first_repetition")]
    pub repetition: u32,
}

fn first_repetition() -> u32 {
    1
}

impl<S: AsRef<str>> Record<S> {
    /// The job (dataset, instance, variant): what a repeated job's rows share, and what two
    /// runs are joined on once each job is reduced to one (see `repetitions`).
    pub fn job(&self) -> (&str, &str, &str) {
        (
            self.dataset.as_ref(),
            self.instance.as_ref(),
            self.variant.as_ref(),
        )
    }

    /// The key of a row of runs.csv: its job and repetition. No two rows of a run share it.
    pub fn key(&self) -> RowKey<'_> {
        let (dataset, instance, variant) = self.job();
        RowKey {
            dataset,
            instance,
            variant,
            repetition: self.repetition,
        }
    }

    /// Appends the row to `out` as csv's serializer writes it (quoted only where a field holds a
    /// comma, a quote or a line break; numbers as itoa and ryu spell them), without serde's and
    /// csv's per-field machinery: rows are written once per job, and for tiny jobs that was a
    /// large part of the harness's cost.
    pub fn write_csv(&self, out: &mut Vec<u8>) {
        let text = |out: &mut Vec<u8>, s: &S| field(out, s.as_ref().as_bytes());
        let int = |out: &mut Vec<u8>, n: u64| {
            out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
            out.push(b',');
        };
        let float = |out: &mut Vec<u8>, x: f64| {
            // ryu spells a whole number of at most 16 digits as its digits and `.0`: itoa is
            // several times quicker at it, and `nodes_per_s` is always whole.
            if x.fract() == 0.0 && x.is_sign_positive() && x < 1e16 {
                out.extend_from_slice(itoa::Buffer::new().format(x as u64).as_bytes());
                out.extend_from_slice(b".0");
            } else {
                out.extend_from_slice(ryu::Buffer::new().format(x).as_bytes());
            }
            out.push(b',');
        };
        let opt = |out: &mut Vec<u8>, n: Option<u32>| match n {
            Some(n) => int(out, n.into()),
            None => out.push(b','),
        };
        for s in [
            &self.dataset,
            &self.instance,
            &self.domain,
            &self.size,
            &self.variant,
            &self.heuristic,
            &self.step,
            &self.reverse_pruning,
        ] {
            text(out, s);
        }
        field(out, self.status.name().as_bytes());
        opt(out, self.length);
        opt(out, self.optimal);
        int(out, self.nodes_generated);
        int(out, self.nodes_expanded);
        int(out, self.iterations.into());
        int(out, self.final_bound.into());
        float(out, self.time_wall_s);
        float(out, self.time_cpu_s);
        float(out, self.nodes_per_s);
        int(out, self.initial_h.into());
        field(
            out,
            if self.optimal_guaranteed {
                b"true"
            } else {
                b"false"
            },
        );
        text(out, &self.message);
        text(out, &self.path);
        int(out, self.repetition.into());
        // The last field's comma becomes the line's end.
        if let Some(last) = out.last_mut() {
            *last = b'\n';
        }
    }
}

/// A row's key: its job and its repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey<'a> {
    pub dataset: &'a str,
    pub instance: &'a str,
    pub variant: &'a str,
    pub repetition: u32,
}

impl std::fmt::Display for RowKey<'_> {
    /// `(dataset 'd', instance 'i', variant 'v')`, with `, repetition N` when N is not 1: as
    /// messages name a job, each name shortened.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "(dataset '{}', instance '{}', variant '{}'",
            text::shorten(self.dataset),
            text::shorten(self.instance),
            text::shorten(self.variant)
        )?;
        if self.repetition != 1 {
            write!(f, ", repetition {}", self.repetition)?;
        }
        f.write_str(")")
    }
}

/// Appends `value` and a comma, quoted as csv quotes by default: only a field holding the
/// delimiter, a quote, CR or LF is quoted, with its quotes doubled.
pub(crate) fn field(out: &mut Vec<u8>, value: &[u8]) {
    if value
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        out.push(b'"');
        for &b in value {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(value);
    }
    out.push(b',');
}

/// The `reverse_pruning` column's spelling.
pub(crate) fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

/// One dataset file a run read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetInfo {
    pub path: String,
    pub name: String,
    pub sha256: String,
    pub instances: usize,
}

/// Where, how and on what a run was made: manifest.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub idabench_version: String,
    pub git_commit: Option<String>,
    pub rustc_version: String,
    pub build_profile: String,
    pub cpu_model: String,
    pub cores: usize,
    pub jobs: usize,
    pub command_line: Vec<String>,
    pub datasets: Vec<DatasetInfo>,
    pub variants: Vec<String>,
    pub max_nodes: Option<u64>,
    pub time_limit_s: Option<f64>,
    /// UTC, RFC 3339.
    pub start_time: String,
    /// Empty while the run is going (and after a hard kill); set when it ends, interrupted or not.
    pub end_time: String,
    /// Whether every planned job has its row: false while the run is going and after an
    /// interrupt. Absent (`None`) in manifests written before these fields existed.
    #[serde(default)]
    pub complete: Option<bool>,
    /// The jobs the run planned: instances x the variants that apply to them.
    #[serde(default)]
    pub jobs_total: Option<usize>,
    /// Planned jobs without a row in runs.csv; `--resume` runs them.
    #[serde(default)]
    pub jobs_missing: Option<usize>,
    /// The pattern databases the run's heuristics read, with their checksums.
    #[serde(default)]
    pub pattern_databases: Vec<TableInfo>,
    /// The machine's host name, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Which share of a run this is (`run --shard K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Of a merged report (`merge`): the shards it was made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<ShardInfo>,
    /// `--split` as given (`auto`, `off` or a depth): how a job's search was shared between the
    /// workers. It changes times, never counts. Absent in manifests written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// `--repeat`: how many times each job runs (each time a row of runs.csv); 1 in manifests
    /// written before it existed.
    #[serde(default = "first_repetition")]
    pub repeat: u32,
}

/// One shard of a merged report, as its own manifest told it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// The shard's report directory, as given to `merge`.
    pub dir: String,
    pub shard: Shard,
    pub host: Option<String>,
    pub cpu_model: String,
    pub cores: usize,
    pub jobs: usize,
    pub start_time: String,
    pub end_time: String,
    pub jobs_total: usize,
    /// The shard's jobs without a row (only with `merge --allow-missing`).
    pub jobs_missing: usize,
}

impl Manifest {
    /// The run ended with every job done: it has an end time and does not say it is incomplete.
    /// A run still going or killed has no end time; an interrupted one says `complete: false`.
    pub fn finished(&self) -> bool {
        !self.end_time.is_empty() && self.complete != Some(false)
    }

    /// The per-job limits, e.g. `1000000 nodes, 5 s`, or `none`.
    pub fn limits_text(&self) -> String {
        let nodes = |n: u64| {
            if n == 1 {
                "1 node".into()
            } else {
                format!("{n} nodes")
            }
        };
        match (self.max_nodes, self.time_limit_s) {
            (None, None) => "none".into(),
            (Some(n), None) => nodes(n),
            (None, Some(t)) => format!("{t} s"),
            (Some(n), Some(t)) => format!("{}, {t} s", nodes(n)),
        }
    }
}

/// The columns of runs.csv, in order (a test checks them against the header `Record`
/// serializes to).
pub(crate) const RUNS_HEADER: [&str; 23] = [
    "dataset",
    "instance",
    "domain",
    "size",
    "variant",
    "heuristic",
    "step",
    "reverse_pruning",
    "status",
    "length",
    "optimal",
    "nodes_generated",
    "nodes_expanded",
    "iterations",
    "final_bound",
    "time_wall_s",
    "time_cpu_s",
    "nodes_per_s",
    "initial_h",
    "optimal_guaranteed",
    "message",
    "path",
    "repetition",
];

/// The columns of runs.csv that a runs.csv written before they existed lacks: read as their
/// default (`Record` says which).
const ADDED_COLUMNS: [&str; 1] = ["repetition"];

/// Reads a runs.csv; every error names the file and line. A row listed twice (the same job and
/// repetition) is an error: it would make joining two runs ambiguous.
pub fn read_runs(path: &Path) -> Result<Vec<Record>, ReportError> {
    parse_runs(path, &read_file(path)?)
}

/// Parses the bytes of the runs.csv at `path` as `read_runs` does.
pub(crate) fn parse_runs(path: &Path, bytes: &[u8]) -> Result<Vec<Record>, ReportError> {
    let mut records = Vec::new();
    let mut first_line: HashMap<(String, String, String, u32), u64> = HashMap::new();
    visit_runs(path, bytes, |line, record| {
        let (dataset, instance, variant) = record.job();
        let key = (
            dataset.to_owned(),
            instance.to_owned(),
            variant.to_owned(),
            record.repetition,
        );
        if let Some(first) = first_line.insert(key, line) {
            return Err(repeated(path, line, record.key(), first));
        }
        records.push(record.to_owned_record());
        Ok(())
    })
    .map_err(ReportError::Read)?;
    Ok(records)
}

/// The error of a row listed again on `line`, first on line `first`.
pub(crate) fn repeated(path: &Path, line: u64, key: RowKey<'_>, first: u64) -> String {
    format!(
        "{}:{line}: job {key} appears again; first at line {first}",
        path.display(),
    )
}

/// Checks the header of the runs.csv at `path`, whose bytes are `bytes`, then calls `f` with
/// each row and its line, the row's text borrowed from a buffer that the next row reuses: a
/// reader that keeps a few fields of each row does not pay for all of them. Every error names
/// the file and line; an empty file has no rows.
pub(crate) fn visit_runs(
    path: &Path,
    bytes: &[u8],
    mut f: impl FnMut(u64, &Record<&str>) -> Result<(), String>,
) -> Result<(), String> {
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = reader
        .headers()
        .map_err(|e| csv_error(path, None, &e))?
        .clone();
    let missing: Vec<&str> = RUNS_HEADER
        .into_iter()
        .filter(|column| !ADDED_COLUMNS.contains(column))
        .filter(|column| !headers.iter().any(|h| h == *column))
        .collect();
    // An empty file has no header at all: the callers say it holds no jobs.
    if !missing.is_empty() && !headers.is_empty() {
        let line = headers.position().map_or(1, csv::Position::line);
        let found = headers.iter().collect::<Vec<_>>().join(",");
        let mut lacks: Vec<String> = missing.iter().take(3).map(|c| format!("`{c}`")).collect();
        if missing.len() > 3 {
            lacks.push(format!(
                "{} more of its {} columns",
                missing.len() - 3,
                RUNS_HEADER.len() - ADDED_COLUMNS.len()
            ));
        }
        return Err(format!(
            "{}:{line}: not a runs.csv of idabench: the header lacks {} (found '{}')",
            path.display(),
            lacks.join(", "),
            text::shorten(&found)
        ));
    }
    let mut row = csv::StringRecord::new();
    while reader
        .read_record(&mut row)
        .map_err(|e| csv_error(path, Some(&headers), &e))?
    {
        let record: Record<&str> = row
            .deserialize(Some(&headers))
            .map_err(|e| csv_error(path, Some(&headers), &e))?;
        let line = row.position().map_or(0, csv::Position::line);
        if let Some(fault) = unwritten(&record) {
            return Err(format!("{}:{line}: {fault}", path.display()));
        }
        f(line, &record)?;
    }
    Ok(())
}

impl<S: AsRef<str>> Record<S> {
    /// The row with its text copied.
    pub(crate) fn to_owned_record(&self) -> Record {
        Record {
            dataset: self.dataset.as_ref().to_owned(),
            instance: self.instance.as_ref().to_owned(),
            domain: self.domain.as_ref().to_owned(),
            size: self.size.as_ref().to_owned(),
            variant: self.variant.as_ref().to_owned(),
            heuristic: self.heuristic.as_ref().to_owned(),
            step: self.step.as_ref().to_owned(),
            reverse_pruning: self.reverse_pruning.as_ref().to_owned(),
            status: self.status,
            length: self.length,
            optimal: self.optimal,
            nodes_generated: self.nodes_generated,
            nodes_expanded: self.nodes_expanded,
            iterations: self.iterations,
            final_bound: self.final_bound,
            time_wall_s: self.time_wall_s,
            time_cpu_s: self.time_cpu_s,
            nodes_per_s: self.nodes_per_s,
            initial_h: self.initial_h,
            optimal_guaranteed: self.optimal_guaranteed,
            message: self.message.as_ref().to_owned(),
            path: self.path.as_ref().to_owned(),
            repetition: self.repetition,
        }
    }
}

/// The most seconds a job's time may be: 10^9 s (about 32 years), as for `--time-limit`. A CPU
/// time adds up the job's threads, so a week on 1,000 of them is still far below it; a larger
/// time is a damaged file, and a time near the largest number would make the pictures' axes
/// and the ratios of `compare` infinite.
const MAX_SECONDS: f64 = 1e9;

/// Why `record` is no row a report holds, or `None`: times and rates are measured, so finite
/// and at least 0 (a damaged file's NaN or negative times would pass through `compare` as
/// untimed jobs and into the totals of the summaries `--resume` writes), times at most
/// `MAX_SECONDS`, a repetition from 1 to `MAX_REPEAT`, and `cancelled` and `unstable` are never
/// written. Read from a file, or from a worker of `ab`.
pub(crate) fn unwritten<S>(record: &Record<S>) -> Option<String> {
    let times = [
        ("time_wall_s", record.time_wall_s),
        ("time_cpu_s", record.time_cpu_s),
    ];
    // As runs.csv spells numbers (ryu's shortest form): `1.7e308`, not its 309 digits.
    let fault = |column: &str, expected: &str, value: f64| {
        Some(format!(
            "column `{column}`: expected {expected}, found {}",
            ryu::Buffer::new().format(value)
        ))
    };
    if let Some((column, value)) = times
        .into_iter()
        .find(|&(_, t)| !(0.0..=MAX_SECONDS).contains(&t))
    {
        return fault(
            column,
            &format!("a number of seconds from 0 to {MAX_SECONDS:e} (about 32 years)"),
            value,
        );
    }
    let rate = record.nodes_per_s;
    if !rate.is_finite() || rate < 0.0 {
        return fault("nodes_per_s", "a finite number of at least 0", rate);
    }
    if !(1..=MAX_REPEAT).contains(&record.repetition) {
        return Some(format!(
            "column `repetition`: expected a whole number from 1 to {MAX_REPEAT}, found {}",
            record.repetition
        ));
    }
    (!Status::WRITTEN.contains(&record.status)).then(|| {
        format!(
            "column `status`: `{}` is never written to a report: expected {}",
            record.status,
            Status::WRITTEN.map(Status::name).join(", ")
        )
    })
}

/// The most times a job may run: `run --repeat`, and `ab --rounds`, whose rounds are its rows'
/// repetitions. Far more than any measurement wants; a larger repetition is a damaged file.
pub const MAX_REPEAT: u32 = 100_000;

/// Names the file, the line and, where csv knows it, the column.
fn csv_error(path: &Path, headers: Option<&csv::StringRecord>, error: &csv::Error) -> String {
    let place = match error.position() {
        Some(pos) => format!("{}:{}", path.display(), pos.line()),
        None => path.display().to_string(),
    };
    let what = match error.kind() {
        csv::ErrorKind::Deserialize { err, .. } => {
            let column = err
                .field()
                .and_then(|i| headers?.get(usize::try_from(i).ok()?));
            match column {
                Some(column) => format!("column `{column}`: {}", err.kind()),
                None => err.kind().to_string(),
            }
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("expected {expected_len} fields like the header, found {len}"),
        _ => error.to_string(),
    };
    format!("{place}: {what}")
}

pub(crate) fn read_manifest(path: &Path) -> Result<Manifest, ReportError> {
    let bytes = read_file(path)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ReportError::Read(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_is_spelled_in_reports_as_it_is_named() {
        for status in Status::WRITTEN.into_iter().chain([Status::Cancelled]) {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.name()));
            assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), status);
        }
    }

    #[test]
    fn a_cancelled_row_and_a_device_are_refused() {
        let dir = std::env::temp_dir().join(format!("idabench-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("runs.csv");
        let mut w = csv::Writer::from_path(&path).unwrap();
        w.serialize(Record {
            status: Status::Cancelled,
            ..crate::results::fixtures::record()
        })
        .unwrap();
        w.flush().unwrap();
        drop(w);
        let e = read_runs(&path).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            e.ends_with("runs.csv:2: column `status`: `cancelled` is never written to a report: expected solved, unsolvable, over_cap, node_limit, time_limit, suboptimal, wrong, error"),
            "{e}"
        );
        // A report folder's files are regular files: a device is refused before it is read.
        let e = read_runs(Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(e, ReportError::Read(_)), "{e}");
        let e = e.to_string();
        assert_eq!(e, "/dev/zero: cannot open: not a regular file but a device");
        let e = read_manifest(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "/dev/zero: cannot open: not a regular file but a device");
    }

    #[test]
    fn rows_are_written_as_csv_serializes_them() {
        let plain = Record::<String> {
            dataset: "korf100".into(),
            instance: "7".into(),
            domain: "tiles".into(),
            size: "4x4".into(),
            variant: "manhattan/step2/noprune".into(),
            heuristic: "manhattan".into(),
            step: "2".into(),
            reverse_pruning: "off".into(),
            status: Status::NodeLimit,
            length: None,
            optimal: Some(57),
            nodes_generated: u64::MAX,
            nodes_expanded: 0,
            iterations: u32::MAX,
            final_bound: 55,
            time_wall_s: 1.042e-6,
            time_cpu_s: 0.0,
            nodes_per_s: 933707.0,
            initial_h: 41,
            optimal_guaranteed: false,
            message: String::new(),
            path: String::new(),
            repetition: 1,
        };
        let odd = Record {
            dataset: "a,b".into(),
            instance: "say \"hi\"".into(),
            size: " spaced ".into(),
            status: Status::Wrong,
            length: Some(0),
            time_wall_s: 123456789.125,
            time_cpu_s: 1e-300,
            nodes_per_s: 1e21,
            optimal_guaranteed: true,
            message: "two\nlines\r\nand a \"quote\", é".into(),
            path: "\"".into(),
            repetition: 7,
            ..plain.clone()
        };
        let mut records = vec![plain.clone(), odd];
        // Whole numbers take a shortcut: around it, and at its edges.
        for x in [
            0.0,
            -0.0,
            1.0,
            0.5,
            933707.0,
            1e15,
            9999999999999998.0,
            1e16,
            1.5e16,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
        ] {
            records.push(Record {
                nodes_per_s: x,
                time_cpu_s: -x,
                ..plain.clone()
            });
        }
        for r in records {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.serialize(&r).unwrap();
            let mut mine = Vec::new();
            r.write_csv(&mut mine);
            assert_eq!(
                String::from_utf8(mine).unwrap(),
                String::from_utf8(w.into_inner().unwrap()).unwrap()
            );
        }
    }
}
