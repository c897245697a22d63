//! Two runs compared (`idabench compare`): `compared`, and the types its parts share. `load` reads
//! a run, `join` pairs the jobs of two runs, `stats` judges their times, `paired` judges `ab`'s
//! rounds, `listed` holds the jobs a comparison lists and `render` writes the report.
//!
//! Joins two runs job by job and gives verdicts: exact checks on results, a bootstrap interval on
//! CPU time.
//!
//! Node counts, lengths and statuses are deterministic, so any difference between the runs is a
//! real change and is listed job by job. CPU time is noisy, so it is judged by the geometric mean
//! of the ratios current / baseline and a 95% percentile-bootstrap interval: only an interval lying
//! wholly beyond the threshold is a regression. Per variant, each job is one instance and the
//! bootstrap resamples jobs. Overall, the jobs of one instance under different variants are
//! correlated (a slow instance is slow under every variant), so each instance's ratios are first
//! reduced to their geometric mean and the bootstrap resamples instances: resampling the pooled
//! jobs would treat one instance as many independent ones and give a far too narrow interval. Jobs
//! too fast for the timer (`CompareOptions::min_time_s`) give no ratio; they are counted and
//! reported.

#[cfg(test)]
mod fixtures;
mod jobs;
mod join;
mod listed;
mod load;
mod paired;
mod render;
mod stats;

pub use jobs::{Jobs, SavedJob};
pub use join::{changed, compare, timed};
pub use listed::{Changes, Keys};
pub use load::load;
pub use paired::{paired, Incomplete};
pub use stats::{TimeStats, Verdict};

use crate::error::{Done, Error};
use crate::results::record::{Manifest, Status, StatusCounts};
use crate::util::term::note;
use crate::util::text::{shorten, visible};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// How `Comparison::render` lays out the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderFormat {
    /// An aligned table for the terminal.
    Text,
    /// A headline and a table for a pull-request comment or a GitHub job summary.
    Markdown,
    /// A row per variant and an `overall` row, then a row per changed field and per job in one
    /// run only; the `kind` column tells them apart.
    Csv,
    /// Tidy CSV: one row per (variant or job, measure, side), every cell filled.
    CsvLong,
}

/// What `run` and `compare` are asked to do.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// A time ratio beyond this factor (or below its inverse) counts as a change; at least 1.
    pub time_threshold: f64,
    /// The timing floor, in seconds of CPU time: a job gives a time ratio only when both runs
    /// measured at least this much (and more than 0). Shorter times are mostly timer resolution
    /// and scheduling noise, so such jobs are counted as untimed instead. At least 0; 0 times
    /// every job with a measured time.
    pub min_time_s: f64,
    /// Report changed results (status, length, node counts) without failing on them.
    pub allow_node_changes: bool,
    pub format: RenderFormat,
    /// Seeds the bootstrap, so the same two runs always give the same interval.
    pub seed: u64,
    /// `--pair VARIANT_A=VARIANT_B` as given: variant A of the baseline compared with variant B
    /// of the current run as one variant, named `A=B`.
    pub pairs: Vec<String>,
}

impl Default for CompareOptions {
    fn default() -> CompareOptions {
        CompareOptions {
            time_threshold: 1.10,
            min_time_s: 0.001,
            allow_node_changes: false,
            format: RenderFormat::Text,
            seed: 1,
            pairs: Vec::new(),
        }
    }
}

/// Why two runs cannot be compared: all input problems (exit 2). A report that cannot be written
/// is `Error::Io`.
#[derive(Debug, Error)]
pub enum CompareError {
    #[error("time threshold must be a number of at least 1 (e.g. 1.10), got {0}")]
    BadThreshold(f64),
    #[error("minimum time must be a number of seconds of at least 0 (e.g. 0.001), got {0}")]
    BadMinTime(f64),
    #[error(
        "{}: no such file or directory (expected a report directory holding runs.csv, or a runs.csv file)",
        .path.display()
    )]
    NotFound { path: PathBuf },
    #[error("{}: no jobs (expected a header row and one row per job)", .path.display())]
    NoJobs { path: PathBuf },
    /// runs.csv cannot be opened or has a bad row; `record::read_runs` names the file, the line
    /// and the column.
    #[error("{0}")]
    BadRuns(String),
    /// manifest.json cannot be read or parsed; the message names the file.
    #[error("{0}")]
    BadManifest(String),
    /// A dataset of the same name differs in content between the runs.
    #[error(
        "different datasets: `{name}` has sha256 {baseline_sha256} in {baseline} but {current_sha256} in {current}"
    )]
    DifferentDatasets {
        name: String,
        baseline: String,
        baseline_sha256: String,
        current: String,
        current_sha256: String,
    },
    #[error("no job in common between {baseline} and {current}: different datasets?")]
    NoJobInCommon { baseline: String, current: String },
    /// The runs hold the same instances under different variants.
    #[error(
        "no job in common between {baseline} and {current}: they share {instances} instance(s), \
         under other variants (baseline: {baseline_variants}; current: {current_variants}); to \
         compare a variant of each, give --pair BASELINE_VARIANT=CURRENT_VARIANT, or join the runs \
         into one report with `idabench combine`"
    )]
    OnlyVariantsDiffer {
        baseline: String,
        current: String,
        instances: usize,
        baseline_variants: String,
        current_variants: String,
    },
    /// A `--pair` that names no variant of its run, or a variant twice.
    #[error("{0}")]
    BadPair(String),
}

/// One run as read from disk.
#[derive(Clone, Debug)]
pub struct SavedRun {
    /// In the order of runs.csv; no two share a key (`load` checks).
    pub jobs: Jobs,
    pub manifest: Option<Manifest>,
    /// Where the run was read from, as the user named it.
    pub source: String,
}

/// Two runs read and compared.
#[derive(Clone, Debug)]
pub struct Compared {
    pub baseline: SavedRun,
    pub current: SavedRun,
    pub comparison: Comparison,
}

/// Reads and compares two runs; warnings go to stderr. Input problems (a missing file, an
/// unreadable CSV, different datasets, no job in common, a threshold below 1, a negative timing
/// floor) are `CompareError`: exit code 2.
pub fn compared(baseline: &Path, current: &Path, opts: &CompareOptions) -> Result<Compared, Error> {
    if !opts.time_threshold.is_finite() || opts.time_threshold < 1.0 {
        return Err(CompareError::BadThreshold(opts.time_threshold).into());
    }
    if !opts.min_time_s.is_finite() || opts.min_time_s < 0.0 {
        return Err(CompareError::BadMinTime(opts.min_time_s).into());
    }
    let mut base = load(baseline)?;
    let mut cur = load(current)?;
    join::check_same_datasets(&base, &cur)?;
    pair_variants(&mut base, &mut cur, &opts.pairs)?;
    let comparison = compare(&base, &cur, opts);
    if comparison.overall.jobs_compared == 0 {
        return Err(nothing_in_common(base, cur).into());
    }
    for warning in &comparison.warnings {
        note(format_args!("warning: {warning}"));
    }
    Ok(Compared {
        baseline: base,
        current: cur,
        comparison,
    })
}

/// Renames the variants `pairs` name (`A=B`: variant A of `base`, B of `cur`) to `A=B` in
/// their runs, so that they are joined as one variant. A variant name may hold `=` (a renamed
/// one): the text splits where A is a variant of the baseline and B of the current run.
fn pair_variants(
    base: &mut SavedRun,
    cur: &mut SavedRun,
    pairs: &[String],
) -> Result<(), CompareError> {
    if pairs.is_empty() {
        return Ok(());
    }
    let (ours, theirs) = (base.jobs.variants(), cur.jobs.variants());
    let mut found: Vec<(&str, &str, &str)> = Vec::new();
    for text in pairs {
        let split = text
            .match_indices('=')
            .map(|(at, _)| (&text[..at], &text[at + 1..]))
            .find(|(a, b)| ours.contains(a) && theirs.contains(b));
        let Some((a, b)) = split else {
            let listed = |run: &SavedRun, names: &[&str]| {
                format!("{} has {}", run.source, names_listed(names))
            };
            return Err(CompareError::BadPair(format!(
                "--pair {}: expected BASELINE_VARIANT=CURRENT_VARIANT, a variant of each run: {}; {}",
                shorten(text),
                listed(base, &ours),
                listed(cur, &theirs)
            )));
        };
        if ours.contains(&text.as_str()) || theirs.contains(&text.as_str()) {
            return Err(CompareError::BadPair(format!(
                "--pair {}: a run already has a variant of that name",
                shorten(text)
            )));
        }
        if let Some((_, twice)) = found
            .iter()
            .flat_map(|&(a2, b2, _)| [(a2 == a, a), (b2 == b, b)])
            .find(|(same, _)| *same)
        {
            return Err(CompareError::BadPair(format!(
                "--pair {}: variant '{}' is in another --pair: pair each variant once",
                shorten(text),
                shorten(twice)
            )));
        }
        found.push((a, b, text));
    }
    let base_jobs = base
        .jobs
        .renamed(|v| found.iter().find(|p| p.0 == v).map(|p| p.2));
    let cur_jobs = cur
        .jobs
        .renamed(|v| found.iter().find(|p| p.1 == v).map(|p| p.2));
    base.jobs = base_jobs;
    cur.jobs = cur_jobs;
    Ok(())
}

/// Why two runs have no job in common: different instances, or the same instances under other
/// variants (for which `--pair` and `combine` are the way).
fn nothing_in_common(base: SavedRun, cur: SavedRun) -> CompareError {
    let instances: HashSet<(&str, &str)> =
        base.jobs.iter().map(|j| (j.dataset, j.instance)).collect();
    let shared: HashSet<(&str, &str)> = cur
        .jobs
        .iter()
        .map(|j| (j.dataset, j.instance))
        .filter(|i| instances.contains(i))
        .collect();
    if shared.is_empty() {
        return CompareError::NoJobInCommon {
            baseline: base.source,
            current: cur.source,
        };
    }
    CompareError::OnlyVariantsDiffer {
        instances: shared.len(),
        baseline_variants: names_listed(&base.jobs.variants()),
        current_variants: names_listed(&cur.jobs.variants()),
        baseline: base.source,
        current: cur.source,
    }
}

/// The first few of `names`, each shortened, and how many more there are.
fn names_listed(names: &[&str]) -> String {
    const SHOWN: usize = 6;
    let mut listed: Vec<String> = names.iter().take(SHOWN).map(|n| shorten(n)).collect();
    if names.len() > SHOWN {
        listed.push(format!("and {} more", names.len() - SHOWN));
    }
    listed.join(", ")
}

impl Compared {
    /// Writes the report in `format` to `out`, the jobs' own figures too in `CsvLong`; how the
    /// comparison went.
    pub fn write(&self, format: RenderFormat, out: &mut dyn std::io::Write) -> Result<Done, Error> {
        let runs = (&self.baseline, &self.current);
        self.comparison.print(format, runs, out)?;
        Ok(self.comparison.done())
    }
}

impl SavedRun {
    /// The status counts of its jobs of each of `variants`, and of all its jobs.
    pub fn statuses(&self, variants: &[VariantComparison]) -> (Vec<StatusCounts>, StatusCounts) {
        let index: std::collections::HashMap<&str, usize> = variants
            .iter()
            .enumerate()
            .map(|(i, v)| (v.variant.as_str(), i))
            .collect();
        let mut each = vec![StatusCounts::default(); variants.len()];
        let mut all = StatusCounts::default();
        for j in self.jobs.iter() {
            all.add(j.status);
            if let Some(&i) = index.get(j.variant) {
                each[i].add(j.status);
            }
        }
        (each, all)
    }
}

/// One variant's figures, or all variants' (`variant` = `overall`).
#[derive(Clone, Debug, PartialEq)]
pub struct VariantComparison {
    pub variant: String,
    /// Jobs present in both runs.
    pub jobs_compared: usize,
    /// Jobs whose status, length or node counts differ.
    pub changed: usize,
    /// Jobs only in the baseline: listed, never a failure.
    pub missing_in_current: usize,
    /// New jobs: only in the current run.
    pub missing_in_baseline: usize,
    pub time: TimeStats,
    /// Of each run (baseline, current) run with `--repeat`: the median, over the jobs compared,
    /// of the spread of a job's CPU times over its repetitions (see `Reduced::cpu_spread`).
    pub cpu_spread: [Option<f64>; 2],
    /// The largest of those spreads, of each run.
    pub cpu_spread_max: [Option<f64>; 2],
}

/// A job's identity across runs: `SavedJob::key()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JobKey<'a> {
    pub dataset: &'a str,
    pub instance: &'a str,
    pub variant: &'a str,
}

impl<'a> JobKey<'a> {
    fn of(job: &SavedJob<'a>) -> JobKey<'a> {
        JobKey {
            dataset: job.dataset,
            instance: job.instance,
            variant: job.variant,
        }
    }
}

/// A field of a job that must be the same in both runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Status,
    Length,
    NodesGenerated,
    NodesExpanded,
}

impl Field {
    /// As runs.csv names it.
    pub fn name(self) -> &'static str {
        match self {
            Field::Status => "status",
            Field::Length => "length",
            Field::NodesGenerated => "nodes_generated",
            Field::NodesExpanded => "nodes_expanded",
        }
    }
}

/// The value of a `Field` in one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Status(Status),
    /// `-` when there is none.
    Length(Option<u32>),
    Count(u64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Status(s) => f.write_str(s.name()),
            Value::Length(None) => f.write_str("-"),
            Value::Length(Some(l)) => write!(f, "{l}"),
            Value::Count(n) => write!(f, "{n}"),
        }
    }
}

/// One field of one job that differs between the runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldChange<'a> {
    pub job: JobKey<'a>,
    pub field: Field,
    pub baseline: Value,
    pub current: Value,
}

/// The two runs joined: what `render` prints and `done` judges.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// `SavedRun::source` of each side.
    pub baseline: String,
    pub current: String,
    pub threshold: f64,
    /// `CompareOptions::min_time_s`.
    pub min_time_s: f64,
    pub allow_node_changes: bool,
    /// Variants in the order they first appear in the baseline, then those new in the current run.
    pub variants: Vec<VariantComparison>,
    pub overall: VariantComparison,
    /// In baseline order, one entry per differing field.
    pub changes: Changes,
    pub missing_in_current: Keys,
    pub missing_in_baseline: Keys,
    /// Differences between the manifests that make the times less comparable.
    pub warnings: Vec<Warning>,
    /// How the times were measured, which decides what their interval covers.
    pub pairing: Pairing,
    /// Set when `ab` stopped before it measured every pair.
    pub incomplete: Option<Incomplete>,
    /// The most repetitions (`run --repeat`) a job of each run (baseline, current) was reduced
    /// from: 1 for a run without.
    pub repetitions: [u32; 2],
}

/// What makes the two runs' times less comparable, or leaves it unchecked. The values come from
/// the runs' files, so each report shows them in its own format's quoting (`render`).
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// The run read from `source` has no manifest.json beside its runs.csv.
    NoManifest { source: String },
    /// A field of the manifests, as each spells it.
    Differs {
        field: &'static str,
        baseline: String,
        current: String,
    },
    /// The names of the datasets each run holds.
    Datasets {
        baseline: Vec<String>,
        current: Vec<String>,
    },
}

impl Warning {
    /// The warning, each value it names shown by `quote` (which adds the quotes).
    pub fn render(&self, quote: impl Fn(&str) -> String) -> String {
        match self {
            Warning::NoManifest { source } => format!(
                "no manifest.json for {}: datasets and machines not checked",
                quote(source)
            ),
            Warning::Differs {
                field,
                baseline,
                current,
            } => format!(
                "{field} differs: baseline {}, current {}",
                quote(baseline),
                quote(current)
            ),
            Warning::Datasets { baseline, current } => format!(
                "datasets differ: baseline {}, current {}",
                quote(&baseline.join(", ")),
                quote(&current.join(", "))
            ),
        }
    }
}

/// As a terminal shows it: each value `visible`, in backticks.
impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(|v| format!("`{}`", visible(v))))
    }
}

/// Whether the two sides' times were taken apart or side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Two runs taken at different times (`compare`): a drift of the machine's speed between them
    /// moves every ratio alike, and no bootstrap over jobs can see it.
    Unpaired,
    /// Each job measured by both builds back to back, in `rounds` rounds (`ab`).
    Paired { rounds: usize },
}

impl Comparison {
    /// `Wrong` (exit 4) when results changed (a status, length or node count differs in a job both
    /// runs hold) unless `allow_node_changes`; else `Regressed` (exit 3) when the overall time
    /// verdict is `regressed`; else `Ok`. Per-variant verdicts are reported but do not gate: with
    /// many variants, failing on any one of them would multiply false alarms. Jobs in one run only
    /// (missing from the current run, or new in it) are listed and never fail. An incomplete
    /// comparison is `Interrupted` (exit 130) or `Failed` (exit 1) whatever it found.
    pub fn done(&self) -> Done {
        match self.incomplete {
            Some(Incomplete {
                interrupted: true, ..
            }) => Done::Interrupted,
            Some(_) => Done::Failed,
            None => self.found(),
        }
    }

    /// What the measurements made show: `done` of a complete comparison.
    pub fn found(&self) -> Done {
        if !self.changes.is_empty() && !self.allow_node_changes {
            Done::Wrong
        } else if self.overall.time.verdict == Verdict::Regressed {
            Done::Regressed
        } else {
            Done::Ok
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;

    /// Compares two runs and writes the report to `out`, as `idabench compare` does.
    fn run(
        baseline: &Path,
        current: &Path,
        opts: &CompareOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<Done, Error> {
        compared(baseline, current, opts)?.write(opts.format, out)
    }
    use super::*;

    #[test]
    fn allowed_node_changes_do_not_fail() {
        let base = baseline();
        let mut cur = baseline();
        cur.jobs[23].nodes_generated = 12345;
        let opts = CompareOptions {
            allow_node_changes: true,
            ..CompareOptions::default()
        };
        let c = compare(&base, &cur, &opts);
        assert_eq!(c.done(), Done::Ok);
        assert_eq!(c.changes.len(), 1);
    }

    #[test]
    fn changed_results_take_precedence_over_a_regression() {
        let mut cur = scaled(|_| 1.5);
        cur.jobs[0].nodes_expanded = 1;
        assert_eq!(
            compare(&baseline(), &cur, &CompareOptions::default()).done(),
            Done::Wrong
        );
    }

    #[test]
    fn run_reads_report_directories() {
        let dir = temp_dir("dirs");
        let (a, b) = (dir.join("a"), dir.join("b"));
        let mut base = baseline();
        base.manifest = Some(manifest("cpu", "aa"));
        let mut cur = scaled(|_| 1.5);
        cur.manifest = Some(manifest("cpu", "aa"));
        for (path, run) in [(&a, &base), (&b, &cur)] {
            std::fs::create_dir(path).unwrap();
            write_report(path, run);
        }
        let mut out = Vec::new();
        let opts = CompareOptions {
            format: RenderFormat::Csv,
            ..CompareOptions::default()
        };
        assert_eq!(run(&a, &b, &opts, &mut out).unwrap(), Done::Regressed);
        let csv = String::from_utf8(out).unwrap();
        assert!(csv.ends_with(
            "overall,40,0,0,0,40,0,1.5000,1.5000,1.5000,regressed,overall,,,,,,unpaired,,\n"
        ));
        let loaded = load(&a.join("runs.csv")).unwrap();
        assert_eq!(loaded.jobs, base.jobs);
        assert_eq!(loaded.manifest, base.manifest);
        let mut out = Vec::new();
        assert_eq!(
            run(&a, &a, &CompareOptions::default(), &mut out).unwrap(),
            Done::Ok
        );
        assert!(String::from_utf8(out).unwrap().contains("unchanged"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn different_datasets_are_errors() {
        let dir = temp_dir("datasets");
        let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
        let mut base = baseline();
        base.manifest = Some(manifest("cpu", "aa"));
        let mut cur = baseline();
        cur.manifest = Some(manifest("cpu", "bb"));
        let mut records = baseline_records();
        for r in &mut records {
            r.dataset = "korf50".to_owned();
        }
        let other = run_of(records, "other");
        for (path, run) in [(&a, &base), (&b, &cur), (&c, &other)] {
            std::fs::create_dir(path).unwrap();
            write_report(path, run);
        }
        let err = run(&a, &b, &CompareOptions::default(), &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("different datasets: `korf100` has sha256 aa in"),
            "{err}"
        );
        let err = run(&a, &c, &CompareOptions::default(), &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("no job in common"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn thresholds_below_one_are_refused() {
        let opts = CompareOptions {
            time_threshold: 0.9,
            ..CompareOptions::default()
        };
        let err = run(Path::new("a"), Path::new("b"), &opts, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("time threshold must be"), "{err}");
        for min_time_s in [-0.001, f64::NAN] {
            let opts = CompareOptions {
                min_time_s,
                ..CompareOptions::default()
            };
            let err = run(Path::new("a"), Path::new("b"), &opts, &mut Vec::new())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("minimum time must be"), "{err}");
        }
    }

    /// Stands for stdout on a full disk.
    struct Full;

    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("no space left on device"))
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn input_problems_exit_2_and_a_failed_write_exits_1() {
        use crate::error::{exit_code, EXIT_INPUT, EXIT_RUNTIME};
        let dir = temp_dir("exits");
        write_report(&dir, &baseline());
        let opts = CompareOptions::default();

        let result = run(&dir, &dir, &opts, &mut Full);
        assert!(matches!(result, Err(Error::Io { .. })), "{result:?}");
        assert_eq!(exit_code(&result), EXIT_RUNTIME);
        assert_eq!(
            result.unwrap_err().to_string(),
            "stdout: no space left on device"
        );

        let result = run(&dir.join("nowhere"), &dir, &opts, &mut Vec::new());
        assert!(
            matches!(result, Err(Error::Compare(CompareError::NotFound { .. }))),
            "{result:?}"
        );
        assert_eq!(exit_code(&result), EXIT_INPUT);
        let strict = CompareOptions {
            time_threshold: 0.5,
            ..CompareOptions::default()
        };
        let result = run(&dir, &dir, &strict, &mut Vec::new());
        assert!(
            matches!(result, Err(Error::Compare(CompareError::BadThreshold(_)))),
            "{result:?}"
        );
        assert_eq!(exit_code(&result), EXIT_INPUT);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
