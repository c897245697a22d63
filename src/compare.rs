//! Joins two runs job by job and gives verdicts: exact checks on results, a bootstrap interval on CPU time.
//!
//! Node counts, lengths and statuses are deterministic, so any difference between the runs is a real
//! change and is listed job by job. CPU time is noisy, so it is judged by the geometric mean of the
//! ratios current / baseline and a 95% percentile-bootstrap interval: only an interval lying wholly
//! beyond the threshold is a regression. Per variant, each job is one instance and the bootstrap
//! resamples jobs. Overall, the jobs of one instance under different variants are correlated (a
//! slow instance is slow under every variant), so each instance's ratios are first reduced to their
//! geometric mean and the bootstrap resamples instances: resampling the pooled jobs would treat
//! one instance as many independent ones and give a far too narrow interval. Jobs too fast for the
//! timer (`Options::min_time_s`) give no ratio; they are counted and reported.

use crate::error::{Done, Error, EXIT_REGRESSED, EXIT_WRONG};
use crate::record::{self, Manifest, Record};
use crate::rng::Rng;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

/// How `Comparison::render` lays out the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An aligned table for the terminal.
    Text,
    /// A headline and a table for a pull-request comment or a GitHub job summary.
    Markdown,
    /// One row per variant plus an `overall` row, and nothing else.
    Csv,
}

/// What `run` and `compare` are asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// A time ratio beyond this factor (or below its inverse) counts as a change; at least 1.
    pub time_threshold: f64,
    /// The timing floor, in seconds of CPU time: a job gives a time ratio only when both runs
    /// measured at least this much (and more than 0). Shorter times are mostly timer resolution
    /// and scheduling noise, so such jobs are counted as untimed instead. At least 0; 0 times
    /// every job with a measured time.
    pub min_time_s: f64,
    /// Report changed results (status, length, node counts) without failing on them.
    pub allow_node_changes: bool,
    pub format: Format,
    /// Seeds the bootstrap, so the same two runs always give the same interval.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            time_threshold: 1.10,
            min_time_s: 0.001,
            allow_node_changes: false,
            format: Format::Text,
            seed: 1,
        }
    }
}

/// One run as read from disk.
#[derive(Clone, Debug)]
pub struct Run {
    /// In the order of runs.csv; no two share a `Record::key()` (`load` checks).
    pub records: Vec<Record>,
    pub manifest: Option<Manifest>,
    /// Where the run was read from, as the user named it.
    pub source: String,
}

/// Reads a run: `path` is a report directory holding runs.csv (and optionally manifest.json), or a
/// runs.csv file (with an optional manifest.json beside it).
pub fn load(path: &Path) -> Result<Run, String> {
    if !path.exists() {
        return Err(format!(
            "{}: no such file or directory (expected a report directory holding runs.csv, or a runs.csv file)",
            path.display()
        ));
    }
    let (csv_path, manifest_path) = if path.is_dir() {
        (path.join("runs.csv"), path.join("manifest.json"))
    } else {
        (path.to_path_buf(), path.with_file_name("manifest.json"))
    };
    let records = read_records(&csv_path)?;
    let manifest = if manifest_path.is_file() {
        Some(record::read_manifest(&manifest_path)?)
    } else {
        None
    };
    Ok(Run {
        records,
        manifest,
        source: path.display().to_string(),
    })
}

fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let records = record::read_runs(path)?;
    if records.is_empty() {
        return Err(format!(
            "{}: no jobs (expected a header row and one row per job)",
            path.display()
        ));
    }
    Ok(records)
}

fn check_same_datasets(base: &Run, cur: &Run) -> Result<(), String> {
    let (Some(bm), Some(cm)) = (&base.manifest, &cur.manifest) else {
        return Ok(());
    };
    for b in &bm.datasets {
        if let Some(c) = cm.datasets.iter().find(|c| c.name == b.name) {
            if c.sha256 != b.sha256 {
                return Err(format!(
                    "different datasets: `{}` has sha256 {} in {} but {} in {}",
                    b.name, b.sha256, base.source, c.sha256, cur.source
                ));
            }
        }
    }
    Ok(())
}

/// Compares two runs and writes the report to `out`; returns the exit code (see
/// `Comparison::exit_code`). Warnings go to stderr. Input problems (a missing file, an unreadable
/// CSV, different datasets, no job in common, a threshold below 1, a negative timing floor) are
/// `Err`: exit code 2.
pub fn run(
    baseline: &Path,
    current: &Path,
    opts: &Options,
    out: &mut dyn std::io::Write,
) -> Result<Done, Error> {
    if !opts.time_threshold.is_finite() || opts.time_threshold < 1.0 {
        return Err(Error::usage(format!(
            "time threshold must be a number of at least 1 (e.g. 1.10), got {}",
            opts.time_threshold
        )));
    }
    if !opts.min_time_s.is_finite() || opts.min_time_s < 0.0 {
        return Err(Error::usage(format!(
            "minimum time must be a number of seconds of at least 0 (e.g. 0.001), got {}",
            opts.min_time_s
        )));
    }
    let base = load(baseline).map_err(Error::Input)?;
    let cur = load(current).map_err(Error::Input)?;
    check_same_datasets(&base, &cur).map_err(Error::Input)?;
    let comparison = compare(&base, &cur, opts);
    if comparison.overall.jobs_compared == 0 {
        return Err(Error::input(format!(
            "no job in common between {} and {}: different datasets?",
            base.source, cur.source
        )));
    }
    for warning in &comparison.warnings {
        eprintln!("warning: {warning}");
    }
    out.write_all(comparison.render(opts.format).as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("stdout", e))?;
    Ok(comparison.done())
}

/// The time verdict, from where the 95% interval of the geometric-mean ratio lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval is below 1 / threshold.
    Improved,
    /// The whole interval is within [1 / threshold, threshold].
    Unchanged,
    /// The interval straddles a threshold, or there are fewer than 2 ratios.
    Inconclusive,
    /// The whole interval is above the threshold.
    Regressed,
}

impl Verdict {
    fn from_interval(low: f64, high: f64, threshold: f64) -> Verdict {
        if high < 1.0 / threshold {
            Verdict::Improved
        } else if low > threshold {
            Verdict::Regressed
        } else if low >= 1.0 / threshold && high <= threshold {
            Verdict::Unchanged
        } else {
            Verdict::Inconclusive
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.pad(match self {
            Verdict::Improved => "improved",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Regressed => "regressed",
        })
    }
}

/// CPU time of the jobs where both runs measured at least `Options::min_time_s`, whether or not
/// their results changed: a job that now hits the time limit is slower, and dropping it would
/// hide that.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeStats {
    /// Jobs that gave a ratio current / baseline.
    pub timed: usize,
    /// Jobs in both runs that gave none: under the timing floor (or unmeasured) in either run.
    pub untimed: usize,
    /// What the bootstrap resamples: a variant's timed jobs, or overall the instances (dataset,
    /// instance) with at least one timed job, each standing for the geometric mean of its jobs'
    /// ratios across variants.
    pub units: usize,
    /// Geometric mean of the units' ratios; `None` without any.
    pub geomean: Option<f64>,
    /// 95% bootstrap interval of the geometric mean; `None` with fewer than 2 units.
    pub interval: Option<(f64, f64)>,
    pub verdict: Verdict,
}

/// One variant's figures, or all variants' (`variant` = `overall`).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
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
}

/// A job's identity across runs: `Record::key()`, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub dataset: String,
    pub instance: String,
    pub variant: String,
}

impl Job {
    fn of(record: &Record) -> Job {
        Job {
            dataset: record.dataset.clone(),
            instance: record.instance.clone(),
            variant: record.variant.clone(),
        }
    }
}

/// One field of one job that differs between the runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub job: Job,
    /// `status`, `length`, `nodes_generated` or `nodes_expanded`.
    pub field: &'static str,
    pub baseline: String,
    pub current: String,
}

/// The two runs joined: what `render` prints and `exit_code` judges.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// `Run::source` of each side.
    pub baseline: String,
    pub current: String,
    pub threshold: f64,
    /// `Options::min_time_s`.
    pub min_time_s: f64,
    pub allow_node_changes: bool,
    /// Variants in the order they first appear in the baseline, then those new in the current run.
    pub variants: Vec<Summary>,
    pub overall: Summary,
    /// In baseline order, one entry per differing field.
    pub changes: Vec<Change>,
    pub missing_in_current: Vec<Job>,
    pub missing_in_baseline: Vec<Job>,
    /// Differences between the manifests that make the times less comparable.
    pub warnings: Vec<String>,
}

/// Per-variant tallies while joining.
struct Tally {
    summary: Summary,
    log_ratios: Vec<f64>,
    untimed: usize,
}

impl Tally {
    fn new(variant: &str) -> Tally {
        Tally {
            summary: Summary {
                variant: variant.to_owned(),
                jobs_compared: 0,
                changed: 0,
                missing_in_current: 0,
                missing_in_baseline: 0,
                time: TimeStats {
                    timed: 0,
                    untimed: 0,
                    units: 0,
                    geomean: None,
                    interval: None,
                    verdict: Verdict::Inconclusive,
                },
            },
            log_ratios: Vec::new(),
            untimed: 0,
        }
    }

    /// The summary, with the time judged by a bootstrap over `units` (log-ratios); `None`
    /// stands for the tally's own jobs.
    fn finish(mut self, units: Option<&[f64]>, threshold: f64, seed: u64) -> Summary {
        let units = units.unwrap_or(&self.log_ratios);
        self.summary.time = time_stats(units, self.log_ratios.len(), self.untimed, threshold, seed);
        self.summary
    }
}

/// The log-ratios of each instance (dataset, instance), across variants, in the order the
/// instances were first met.
#[derive(Default)]
struct ByInstance {
    /// Sum of the log-ratios and their count.
    sums: Vec<(f64, usize)>,
    index: HashMap<(String, String), usize>,
}

impl ByInstance {
    fn add(&mut self, record: &Record, log_ratio: f64) {
        let next = self.sums.len();
        let i = *self
            .index
            .entry((record.dataset.clone(), record.instance.clone()))
            .or_insert(next);
        if i == next {
            self.sums.push((0.0, 0));
        }
        self.sums[i].0 += log_ratio;
        self.sums[i].1 += 1;
    }

    /// Each instance's mean log-ratio: the log of the geometric mean of its ratios.
    fn log_means(&self) -> Vec<f64> {
        self.sums.iter().map(|&(sum, n)| sum / n as f64).collect()
    }
}

/// The tallies in the order their variants were first met.
#[derive(Default)]
struct Tallies {
    list: Vec<Tally>,
    index: HashMap<String, usize>,
}

impl Tallies {
    fn of(&mut self, variant: &str) -> &mut Tally {
        let i = match self.index.get(variant) {
            Some(&i) => i,
            None => {
                self.list.push(Tally::new(variant));
                self.index.insert(variant.to_owned(), self.list.len() - 1);
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }
}

/// Joins the runs on `Record::key()`. Pure: manifests only feed `warnings`; the input checks that
/// can fail are `run`'s.
pub fn compare(base: &Run, cur: &Run, opts: &Options) -> Comparison {
    let current: HashMap<_, _> = cur.records.iter().map(|r| (r.key(), r)).collect();
    let mut tallies = Tallies::default();
    let mut instances = ByInstance::default();
    let mut changes = Vec::new();
    let mut missing_in_current = Vec::new();
    for b in &base.records {
        let t = tallies.of(&b.variant);
        let Some(c) = current.get(&b.key()) else {
            t.summary.missing_in_current += 1;
            missing_in_current.push(Job::of(b));
            continue;
        };
        t.summary.jobs_compared += 1;
        let before = changes.len();
        changes.extend(field_changes(b, c));
        if changes.len() > before {
            t.summary.changed += 1;
        }
        let floor = opts.min_time_s;
        if timed(b.time_cpu_s, floor) && timed(c.time_cpu_s, floor) {
            let log_ratio = (c.time_cpu_s / b.time_cpu_s).ln();
            t.log_ratios.push(log_ratio);
            instances.add(b, log_ratio);
        } else {
            t.untimed += 1;
        }
    }
    let in_base: HashSet<_> = base.records.iter().map(Record::key).collect();
    let mut missing_in_baseline = Vec::new();
    for c in cur.records.iter().filter(|c| !in_base.contains(&c.key())) {
        let t = tallies.of(&c.variant);
        t.summary.missing_in_baseline += 1;
        missing_in_baseline.push(Job::of(c));
    }

    let mut overall = Tally::new("overall");
    for t in &tallies.list {
        overall.log_ratios.extend(&t.log_ratios);
        overall.untimed += t.untimed;
        let (o, s) = (&mut overall.summary, &t.summary);
        o.jobs_compared += s.jobs_compared;
        o.changed += s.changed;
        o.missing_in_current += s.missing_in_current;
        o.missing_in_baseline += s.missing_in_baseline;
    }
    // Each group is resampled from the same seed, so a variant's interval does not depend on
    // which other variants the runs hold.
    let variants = tallies
        .list
        .into_iter()
        .map(|t| t.finish(None, opts.time_threshold, opts.seed))
        .collect();
    Comparison {
        baseline: base.source.clone(),
        current: cur.source.clone(),
        threshold: opts.time_threshold,
        min_time_s: opts.min_time_s,
        allow_node_changes: opts.allow_node_changes,
        variants,
        overall: overall.finish(Some(&instances.log_means()), opts.time_threshold, opts.seed),
        changes,
        missing_in_current,
        missing_in_baseline,
        warnings: manifest_warnings(base, cur),
    }
}

/// A CPU time worth a ratio: measured, and at least the floor.
fn timed(time_s: f64, floor: f64) -> bool {
    time_s.is_finite() && time_s > 0.0 && time_s >= floor
}

fn field_changes(b: &Record, c: &Record) -> Vec<Change> {
    let length = |l: Option<u32>| l.map_or_else(|| "-".to_owned(), |l| l.to_string());
    let fields = [
        ("status", b.status.to_string(), c.status.to_string()),
        ("length", length(b.length), length(c.length)),
        (
            "nodes_generated",
            b.nodes_generated.to_string(),
            c.nodes_generated.to_string(),
        ),
        (
            "nodes_expanded",
            b.nodes_expanded.to_string(),
            c.nodes_expanded.to_string(),
        ),
    ];
    fields
        .into_iter()
        .filter(|(_, before, after)| before != after)
        .map(|(field, baseline, current)| Change {
            job: Job::of(b),
            field,
            baseline,
            current,
        })
        .collect()
}

fn manifest_warnings(base: &Run, cur: &Run) -> Vec<String> {
    let (bm, cm) = match (&base.manifest, &cur.manifest) {
        (Some(bm), Some(cm)) => (bm, cm),
        (b, c) => {
            // Without both manifests neither the datasets nor the machines can be checked.
            return [(b, &base.source), (c, &cur.source)]
                .into_iter()
                .filter(|(m, _)| m.is_none())
                .map(|(_, source)| {
                    format!("no manifest.json for {source}: datasets and machines not checked")
                })
                .collect();
        }
    };
    [
        ("cpu_model", &bm.cpu_model, &cm.cpu_model),
        ("build_profile", &bm.build_profile, &cm.build_profile),
        (
            "idabench_version",
            &bm.idabench_version,
            &cm.idabench_version,
        ),
    ]
    .into_iter()
    .filter(|(_, b, c)| b != c)
    .map(|(field, b, c)| format!("{field} differs: baseline `{b}`, current `{c}`"))
    .collect()
}

/// How many bootstrap resamples: enough that the 2.5% tails hold 50 resamples each.
const RESAMPLES: usize = 2000;

/// Judges the log-ratios `units` (a variant's jobs, or the instances' means);
/// `timed` and `untimed` count jobs, for the report.
fn time_stats(units: &[f64], timed: usize, untimed: usize, threshold: f64, seed: u64) -> TimeStats {
    let n = units.len();
    let geomean = (n > 0).then(|| mean(units).exp());
    let interval = (n >= 2).then(|| bootstrap_interval(units, seed));
    let verdict = match interval {
        Some((low, high)) => Verdict::from_interval(low, high, threshold),
        None => Verdict::Inconclusive,
    };
    TimeStats {
        timed,
        untimed,
        units: n,
        geomean,
        interval,
        verdict,
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// Percentile interval of the geometric mean: resample the log-ratios with replacement, take
/// each resample's mean, and read the 2.5% and 97.5% points.
fn bootstrap_interval(log_ratios: &[f64], seed: u64) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let n = log_ratios.len();
    let mut sample = vec![0.0; n];
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for x in &mut sample {
                *x = log_ratios[rng.below(n as u64) as usize];
            }
            mean(&sample)
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let tail = RESAMPLES / 40;
    (means[tail].exp(), means[RESAMPLES - 1 - tail].exp())
}

impl Comparison {
    /// `Wrong` (exit 4) when results changed (a status, length or node count differs in a job both runs
    /// hold) unless `allow_node_changes`; else `Regressed` (exit 3) when the overall time verdict is `regressed`;
    /// else `Ok`. Per-variant verdicts are reported but do not gate: with many variants, failing
    /// on any one of them would multiply false alarms. Jobs in one run only (missing from the
    /// current run, or new in it) are listed and never fail.
    pub fn done(&self) -> Done {
        if !self.changes.is_empty() && !self.allow_node_changes {
            Done::Wrong
        } else if self.overall.time.verdict == Verdict::Regressed {
            Done::Regressed
        } else {
            Done::Ok
        }
    }

    /// The variants whose time regressed.
    fn regressed_variants(&self) -> Vec<&str> {
        self.variants
            .iter()
            .filter(|s| s.time.verdict == Verdict::Regressed)
            .map(|s| s.variant.as_str())
            .collect()
    }

    /// Pass or fail and why, then the overall figures.
    fn headline(&self) -> (String, String) {
        let o = &self.overall;
        let regressed = self.regressed_variants();
        let mut status = match self.done() {
            Done::Wrong => format!("FAIL (exit {EXIT_WRONG}): results changed"),
            Done::Regressed => format!("FAIL (exit {EXIT_REGRESSED}): overall time regressed"),
            Done::Ok | Done::Interrupted => "OK".to_owned(),
        };
        if !regressed.is_empty() {
            status += &format!(
                "; time regressed in {} of {} variants ({}), reported but not gating",
                regressed.len(),
                self.variants.len(),
                regressed.join(", ")
            );
        }
        let details = format!(
            "overall time {}: {}, threshold {:.2}; {} of {} changed, {} missing in current, {} new",
            o.time.verdict,
            ratio_and_interval(&o.time),
            self.threshold,
            o.changed,
            jobs(o.jobs_compared),
            o.missing_in_current,
            o.missing_in_baseline,
        );
        (status, details)
    }

    /// What the time figures are, and how many jobs gave none.
    fn time_note(&self) -> String {
        let mut note =
            "Time is CPU time, current / baseline: per variant, the geometric mean over \
                        its jobs and a 95% bootstrap interval over them; overall, the geometric \
                        mean over instances (each instance's geometric mean across variants) and \
                        a 95% bootstrap interval over instances."
                .to_owned();
        let untimed = self.overall.time.untimed;
        if untimed > 0 {
            let why = if self.min_time_s > 0.0 {
                format!(
                    "under {} of CPU time in either run",
                    duration(self.min_time_s)
                )
            } else {
                "no CPU time measured in either run".to_owned()
            };
            note += &format!(
                " {} of {} not timed ({why}).",
                untimed,
                jobs(self.overall.jobs_compared)
            );
        }
        note
    }

    fn summaries(&self) -> impl Iterator<Item = &Summary> {
        self.variants.iter().chain(std::iter::once(&self.overall))
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Csv => self.csv(),
        }
    }

    fn text(&self) -> String {
        let mut rows = vec![TABLE_HEADER.map(str::to_owned).to_vec()];
        rows.extend(self.summaries().map(|s| summary_cells(s, |v| v.to_owned())));
        let mut out = format!(
            "baseline: {}\ncurrent:  {}\n{}\n\n{}",
            self.baseline,
            self.current,
            self.time_note(),
            aligned(
                &rows,
                &[false, true, true, true, true, true, true, false, false]
            ),
        );
        if !self.changes.is_empty() {
            out += &format!("\nchanged results ({}):\n", jobs(self.overall.changed));
            let rows: Vec<Vec<String>> = self
                .changes
                .iter()
                .map(|c| {
                    let mut row = job_cells(&c.job);
                    row.extend([c.field.to_owned(), c.baseline.clone()]);
                    row.extend(["->".to_owned(), c.current.clone()]);
                    row
                })
                .collect();
            out += &indent(&aligned(&rows, &[false; 7]));
        }
        for (title, list) in self.missing_lists() {
            out += &format!("\n{title} ({}):\n", jobs(list.len()));
            let rows: Vec<Vec<String>> = list.iter().map(job_cells).collect();
            out += &indent(&aligned(&rows, &[false; 3]));
        }
        let (status, details) = self.headline();
        out + &format!("\n{status}; {details}\n")
    }

    fn missing_lists(&self) -> impl Iterator<Item = (&'static str, &Vec<Job>)> {
        [
            ("missing in current", &self.missing_in_current),
            (
                "new in current (not in baseline)",
                &self.missing_in_baseline,
            ),
        ]
        .into_iter()
        .filter(|(_, jobs)| !jobs.is_empty())
    }

    fn markdown(&self) -> String {
        let (status, details) = self.headline();
        let mut out = format!(
            "**idabench compare: {status}**: {details}\n\nBaseline `{}`, current `{}`. {}\n\n",
            self.baseline,
            self.current,
            self.time_note()
        );
        for warning in &self.warnings {
            out += &format!("> warning: {warning}\n\n");
        }
        let overall = summary_cells(&self.overall, |_| "**overall**".to_owned());
        out += &md_table(
            &TABLE_HEADER,
            "|---|--:|--:|--:|--:|--:|--:|---|---|",
            self.variants
                .iter()
                .map(|s| summary_cells(s, md_code))
                .chain(std::iter::once(overall)),
        );
        if !self.changes.is_empty() {
            out += &format!(
                "\n#### Changed results ({})\n\n",
                jobs(self.overall.changed)
            );
            out += &md_table(
                &[
                    "dataset", "instance", "variant", "field", "baseline", "current",
                ],
                "|---|---|---|---|--:|--:|",
                self.changes.iter().map(|c| {
                    let mut cells: Vec<String> =
                        job_cells(&c.job).iter().map(|v| md_code(v)).collect();
                    cells.extend([c.field.to_owned(), c.baseline.clone(), c.current.clone()]);
                    cells
                }),
            );
        }
        for (title, list) in self.missing_lists() {
            out += &format!("\n#### {title} ({})\n\n", jobs(list.len()));
            out += &md_table(
                &["dataset", "instance", "variant"],
                "|---|---|---|",
                list.iter()
                    .map(|j| job_cells(j).iter().map(|v| md_code(v)).collect()),
            );
        }
        out
    }

    fn csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let float = |x: Option<f64>| x.map_or_else(String::new, |x| format!("{x:.4}"));
        let header = [
            "variant",
            "jobs_compared",
            "changed",
            "missing_in_current",
            "missing_in_baseline",
            "timed",
            "untimed",
            "time_ratio_geomean",
            "ci_low",
            "ci_high",
            "verdict",
        ];
        let rows = self.summaries().map(|s| {
            [
                s.variant.clone(),
                s.jobs_compared.to_string(),
                s.changed.to_string(),
                s.missing_in_current.to_string(),
                s.missing_in_baseline.to_string(),
                s.time.timed.to_string(),
                s.time.untimed.to_string(),
                float(s.time.geomean),
                float(s.time.interval.map(|i| i.0)),
                float(s.time.interval.map(|i| i.1)),
                s.time.verdict.to_string(),
            ]
        });
        for row in std::iter::once(header.map(str::to_owned)).chain(rows) {
            writer
                .write_record(&row)
                .expect("writing CSV to memory cannot fail");
        }
        let bytes = writer
            .into_inner()
            .expect("writing CSV to memory cannot fail");
        String::from_utf8(bytes).expect("CSV written from strings is UTF-8")
    }
}

const TABLE_HEADER: [&str; 9] = [
    "variant",
    "jobs",
    "changed",
    "missing",
    "new",
    "timed",
    "time ratio",
    "95% interval",
    "verdict",
];

fn summary_cells(s: &Summary, variant: impl Fn(&str) -> String) -> Vec<String> {
    vec![
        variant(&s.variant),
        s.jobs_compared.to_string(),
        s.changed.to_string(),
        s.missing_in_current.to_string(),
        s.missing_in_baseline.to_string(),
        s.time.timed.to_string(),
        s.time
            .geomean
            .map_or_else(|| "-".to_owned(), |g| format!("{g:.3}")),
        s.time
            .interval
            .map_or_else(|| "-".to_owned(), |(l, h)| format!("[{l:.3}, {h:.3}]")),
        s.time.verdict.to_string(),
    ]
}

/// The overall ratio, its interval and how many instances it rests on.
fn ratio_and_interval(time: &TimeStats) -> String {
    match (time.geomean, time.interval) {
        (Some(g), Some((l, h))) => {
            format!(
                "ratio {g:.3} [{l:.3}, {h:.3}] over {} instances",
                time.units
            )
        }
        (Some(g), None) => format!("ratio {g:.3} from a single instance"),
        _ => "no timed jobs".to_owned(),
    }
}

/// Seconds in the largest unit that keeps a whole part: `0.001` is `1 ms`.
fn duration(seconds: f64) -> String {
    let (value, unit) = if seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else {
        (seconds * 1e6, "µs")
    };
    let digits = format!("{value:.3}");
    let digits = digits.trim_end_matches('0').trim_end_matches('.');
    format!("{digits} {unit}")
}

fn jobs(n: usize) -> String {
    if n == 1 {
        "1 job".to_owned()
    } else {
        format!("{n} jobs")
    }
}

fn job_cells(job: &Job) -> Vec<String> {
    vec![
        job.dataset.clone(),
        job.instance.clone(),
        job.variant.clone(),
    ]
}

/// Columns padded to their widest cell; `right[i]` right-aligns column `i`.
fn aligned(rows: &[Vec<String>], right: &[bool]) -> String {
    let mut widths = vec![0; right.len()];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(widths.iter().zip(right))
            .map(|(cell, (&w, &right))| {
                if right {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
    }
    out
}

fn indent(block: &str) -> String {
    block.lines().map(|line| format!("  {line}\n")).collect()
}

/// A code span that cannot break the table: `|` would end the cell, and a backtick the span.
fn md_code(value: &str) -> String {
    format!("`{}`", value.replace('|', "\\|").replace('`', "'"))
}

fn md_table(header: &[&str], rule: &str, rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut out = format!("| {} |\n{rule}\n", header.join(" | "));
    for row in rows {
        out += &format!("| {} |\n", row.join(" | "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{DatasetInfo, Status};
    use std::path::PathBuf;

    fn record(instance: usize, variant: &str, time_cpu_s: f64) -> Record {
        Record {
            dataset: "korf100".to_owned(),
            instance: instance.to_string(),
            domain: "tiles".to_owned(),
            size: "4x4".to_owned(),
            variant: variant.to_owned(),
            heuristic: "manhattan".to_owned(),
            step: "2".to_owned(),
            reverse_pruning: "on".to_owned(),
            status: Status::Solved,
            length: Some(50 + instance as u32 % 7),
            optimal: Some(50 + instance as u32 % 7),
            nodes_generated: 1000 + 37 * instance as u64,
            nodes_expanded: 400 + 11 * instance as u64,
            iterations: 5,
            final_bound: 50,
            time_wall_s: time_cpu_s,
            time_cpu_s,
            nodes_per_s: 0.0,
            initial_h: 40,
            optimal_guaranteed: true,
            message: String::new(),
            path: "UDLR".to_owned(),
        }
    }

    const VARIANTS: [&str; 2] = ["manhattan/step2/prune", "manhattan/next/prune"];

    /// 20 instances x 2 variants, with times spread over two orders of magnitude, all above the
    /// default timing floor.
    fn baseline() -> Run {
        let records = VARIANTS
            .iter()
            .flat_map(|v| (1..=20).map(move |i| record(i, v, 0.01 * (i * i) as f64)))
            .collect();
        Run {
            records,
            manifest: None,
            source: "base".to_owned(),
        }
    }

    /// The baseline with every time multiplied by `factor(job index)`.
    fn scaled(factor: impl Fn(usize) -> f64) -> Run {
        let mut run = baseline();
        for (i, r) in run.records.iter_mut().enumerate() {
            r.time_cpu_s *= factor(i);
        }
        run.source = "cur".to_owned();
        run
    }

    fn manifest(cpu_model: &str, sha256: &str) -> Manifest {
        Manifest {
            idabench_version: "0.1.0".to_owned(),
            git_commit: None,
            rustc_version: "rustc 1.95.0".to_owned(),
            build_profile: "release".to_owned(),
            cpu_model: cpu_model.to_owned(),
            cores: 2,
            jobs: 2,
            command_line: vec!["idabench".to_owned(), "run".to_owned()],
            datasets: vec![DatasetInfo {
                path: "datasets/korf100.csv".to_owned(),
                name: "korf100".to_owned(),
                sha256: sha256.to_owned(),
                instances: 20,
            }],
            variants: VARIANTS.map(str::to_owned).to_vec(),
            max_nodes: None,
            time_limit_s: None,
            start_time: "2026-01-01T00:00:00Z".to_owned(),
            end_time: "2026-01-01T00:01:00Z".to_owned(),
            complete: Some(true),
            jobs_total: Some(20 * VARIANTS.len()),
            jobs_missing: Some(0),
        }
    }

    /// A fresh directory under the system temp dir, unique to this process and test.
    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("idabench-compare-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write_report(dir: &Path, run: &Run) {
        let mut writer = csv::Writer::from_path(dir.join("runs.csv")).unwrap();
        for r in &run.records {
            writer.serialize(r).unwrap();
        }
        writer.flush().unwrap();
        if let Some(m) = &run.manifest {
            std::fs::write(
                dir.join("manifest.json"),
                serde_json::to_string_pretty(m).unwrap(),
            )
            .unwrap();
        }
    }

    #[test]
    fn a_run_compared_with_itself_is_clean() {
        let run = baseline();
        let c = compare(&run, &run, &Options::default());
        assert_eq!(c.done(), Done::Ok);
        assert_eq!(c.overall.jobs_compared, 40);
        assert_eq!(c.overall.time.verdict, Verdict::Unchanged);
        assert_eq!(c.overall.time.interval, Some((1.0, 1.0)));
        assert!(c
            .variants
            .iter()
            .all(|s| s.time.verdict == Verdict::Unchanged));
        assert!(c.changes.is_empty() && c.missing_in_current.is_empty());
        assert!(c.missing_in_baseline.is_empty());
        assert_eq!(
            c.variants
                .iter()
                .map(|s| s.variant.as_str())
                .collect::<Vec<_>>(),
            VARIANTS
        );
    }

    #[test]
    fn a_changed_node_count_fails_with_4_and_lists_the_job() {
        let base = baseline();
        let mut cur = baseline();
        cur.records[23].nodes_generated = 12345;
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(c.done(), Done::Wrong);
        assert_eq!(
            c.changes,
            vec![Change {
                job: Job {
                    dataset: "korf100".to_owned(),
                    instance: "4".to_owned(),
                    variant: VARIANTS[1].to_owned(),
                },
                field: "nodes_generated",
                baseline: "1148".to_owned(),
                current: "12345".to_owned(),
            }]
        );
        assert_eq!(c.variants[1].changed, 1);
        assert_eq!(c.overall.changed, 1);
        let text = c.render(Format::Text);
        assert!(text.contains("korf100  4  manhattan/next/prune  nodes_generated  1148  ->  12345"));
        assert!(text.contains("FAIL (exit 4)"));
        let md = c.render(Format::Markdown);
        assert!(md.contains(
            "| `korf100` | `4` | `manhattan/next/prune` | nodes_generated | 1148 | 12345 |"
        ));
    }

    #[test]
    fn every_changed_field_of_every_job_is_listed() {
        let base = baseline();
        let mut cur = baseline();
        cur.records[0].status = Status::NodeLimit;
        cur.records[0].length = None;
        cur.records[5].nodes_expanded += 1;
        let c = compare(&base, &cur, &Options::default());
        let listed: Vec<(&str, &str, &str, &str)> = c
            .changes
            .iter()
            .map(|ch| {
                (
                    ch.job.instance.as_str(),
                    ch.field,
                    ch.baseline.as_str(),
                    ch.current.as_str(),
                )
            })
            .collect();
        assert_eq!(
            listed,
            [
                ("1", "status", "solved", "node_limit"),
                ("1", "length", "51", "-"),
                ("6", "nodes_expanded", "466", "467"),
            ]
        );
        assert_eq!(c.overall.changed, 2);
    }

    #[test]
    fn allowed_node_changes_do_not_fail() {
        let base = baseline();
        let mut cur = baseline();
        cur.records[23].nodes_generated = 12345;
        let opts = Options {
            allow_node_changes: true,
            ..Options::default()
        };
        let c = compare(&base, &cur, &opts);
        assert_eq!(c.done(), Done::Ok);
        assert_eq!(c.changes.len(), 1);
    }

    #[test]
    fn a_uniform_slowdown_beyond_the_threshold_regresses() {
        let c = compare(&baseline(), &scaled(|_| 1.5), &Options::default());
        assert_eq!(c.overall.time.verdict, Verdict::Regressed);
        assert!(c
            .variants
            .iter()
            .all(|s| s.time.verdict == Verdict::Regressed));
        assert!((c.overall.time.geomean.unwrap() - 1.5).abs() < 1e-9);
        assert_eq!(c.done(), Done::Regressed);
        assert!(c.render(Format::Text).contains(
            "\nFAIL (exit 3): overall time regressed; time regressed in 2 of 2 variants"
        ));
    }

    #[test]
    fn a_regression_in_one_variant_is_reported_but_only_the_overall_verdict_fails() {
        let c = compare(
            &baseline(),
            &scaled(|i| if i < 20 { 1.0 } else { 1.15 }),
            &Options::default(),
        );
        assert_eq!(c.variants[0].time.verdict, Verdict::Unchanged);
        assert_eq!(c.variants[1].time.verdict, Verdict::Regressed);
        // Every instance: sqrt(1.15), within the threshold.
        assert_eq!(c.overall.time.verdict, Verdict::Unchanged);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(Format::Text);
        assert!(
            text.contains(
                "OK; time regressed in 1 of 2 variants (manhattan/next/prune), reported but not gating;"
            ),
            "{text}"
        );
        let row: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("manhattan/next/prune "))
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(
            row,
            [
                "manhattan/next/prune",
                "20",
                "0",
                "0",
                "0",
                "20",
                "1.150",
                "[1.150,",
                "1.150]",
                "regressed"
            ]
        );
    }

    /// `n` instances x `variants` variants, each job 10 ms in the baseline.
    fn grid(n: usize, variants: usize, factor: impl Fn(usize) -> f64) -> (Run, Run) {
        let names: Vec<String> = (0..variants).map(|v| format!("v{v}")).collect();
        let run = |factor: &dyn Fn(usize) -> f64| Run {
            records: (1..=n)
                .flat_map(|i| names.iter().map(move |v| record(i, v, 0.01 * factor(i))))
                .collect(),
            manifest: None,
            source: "grid".to_owned(),
        };
        (run(&|_| 1.0), run(&factor))
    }

    #[test]
    fn the_overall_interval_is_over_instances_not_over_pooled_jobs() {
        // Two instances as fast as before, two much slower, under every variant: the jobs of
        // one instance move together, so four instances are all the evidence there is.
        let factors = [1.0, 1.05, 1.6, 1.7];
        let (base, cur) = grid(4, 10, |i| factors[i - 1]);
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(c.overall.time.timed, 40);
        assert_eq!(c.overall.time.units, 4);
        let (low, high) = c.overall.time.interval.unwrap();
        assert!(low < 1.1 && high > 1.5, "{low} {high}");
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
        assert_eq!(c.done(), Done::Ok);
        // Resampling the 40 jobs as if independent would have called it a regression.
        let pooled: Vec<f64> = cur
            .records
            .iter()
            .map(|r| (r.time_cpu_s / 0.01).ln())
            .collect();
        let (low, _) = bootstrap_interval(&pooled, 1);
        assert!(low > 1.1, "{low}");
    }

    #[test]
    fn each_instance_weighs_the_same_however_many_variants_it_has_timed() {
        // Instance 1 twice as slow under both variants; instance 2 as fast as before, with one
        // job under the floor: the overall ratio is sqrt(2), not 2^(2/3).
        let (base, mut cur) = grid(2, 2, |i| if i == 1 { 2.0 } else { 1.0 });
        cur.records[3].time_cpu_s = 0.0005;
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(c.overall.time.timed, 3);
        assert_eq!(c.overall.time.untimed, 1);
        assert_eq!(c.overall.time.units, 2);
        assert!((c.overall.time.geomean.unwrap() - 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(c.variants[1].time.timed, 1);
        assert_eq!(c.variants[1].time.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn jobs_under_the_timing_floor_in_either_run_are_not_timed() {
        let mut base = baseline();
        let mut cur = scaled(|_| 2.0);
        // Variant 0: 19 jobs at 0.5 ms in the baseline, 1 ms now; only one ratio is left.
        for (b, c) in base.records.iter_mut().zip(&mut cur.records).take(19) {
            b.time_cpu_s = 0.0005;
            c.time_cpu_s = 0.001;
        }
        // Variant 1: one job under the floor in the current run only.
        cur.records[20].time_cpu_s = 0.0009;
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(
            (c.variants[0].time.timed, c.variants[0].time.untimed),
            (1, 19)
        );
        assert_eq!(c.variants[0].time.interval, None);
        assert_eq!(c.variants[0].time.verdict, Verdict::Inconclusive);
        assert_eq!(
            (c.variants[1].time.timed, c.variants[1].time.untimed),
            (19, 1)
        );
        assert_eq!(c.variants[1].time.verdict, Verdict::Regressed);
        assert_eq!((c.overall.time.timed, c.overall.time.untimed), (20, 20));
        // Instance 1 has no timed job left.
        assert_eq!(c.overall.time.units, 19);
        assert_eq!(c.overall.time.verdict, Verdict::Regressed);
        let text = c.render(Format::Text);
        assert!(
            text.contains("20 of 40 jobs not timed (under 1 ms of CPU time in either run)."),
            "{text}"
        );
        assert!(c
            .render(Format::Markdown)
            .contains("20 of 40 jobs not timed (under 1 ms"));
        assert!(c.render(Format::Csv).contains("\noverall,40,0,0,0,20,20,"));

        let c = compare(
            &base,
            &cur,
            &Options {
                min_time_s: 0.0,
                ..Options::default()
            },
        );
        assert_eq!((c.overall.time.timed, c.overall.time.untimed), (40, 0));
        assert!(!c.render(Format::Text).contains("not timed"));
    }

    #[test]
    fn durations_are_shown_in_a_readable_unit() {
        assert_eq!(duration(0.001), "1 ms");
        assert_eq!(duration(0.0025), "2.5 ms");
        assert_eq!(duration(0.00005), "50 µs");
        assert_eq!(duration(2.0), "2 s");
    }

    #[test]
    fn changed_results_take_precedence_over_a_regression() {
        let mut cur = scaled(|_| 1.5);
        cur.records[0].nodes_expanded = 1;
        assert_eq!(
            compare(&baseline(), &cur, &Options::default()).done(),
            Done::Wrong
        );
    }

    #[test]
    fn a_uniform_speedup_improves() {
        let c = compare(&baseline(), &scaled(|_| 0.6), &Options::default());
        assert_eq!(c.overall.time.verdict, Verdict::Improved);
        assert_eq!(c.done(), Done::Ok);
    }

    #[test]
    fn noise_straddling_the_threshold_is_inconclusive() {
        let c = compare(
            &baseline(),
            &scaled(|i| if i % 2 == 0 { 0.8 } else { 1.5 }),
            &Options::default(),
        );
        let (low, high) = c.overall.time.interval.unwrap();
        assert!(low < 1.1 && 1.1 < high, "{low} {high}");
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
        assert!(c
            .variants
            .iter()
            .all(|s| s.time.verdict == Verdict::Inconclusive));
        assert_eq!(c.done(), Done::Ok);
    }

    #[test]
    fn untimed_jobs_and_single_ratios_are_inconclusive() {
        let base = baseline();
        let mut cur = scaled(|_| 2.0);
        for r in cur.records.iter_mut().skip(1) {
            r.time_cpu_s = 0.0;
        }
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(c.variants[0].time.timed, 1);
        assert_eq!(c.variants[0].time.untimed, 19);
        assert_eq!(c.variants[0].time.interval, None);
        assert_eq!(c.variants[0].time.verdict, Verdict::Inconclusive);
        assert_eq!(c.variants[1].time.geomean, None);
        assert_eq!(c.overall.time.units, 1);
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(Format::Text);
        assert!(
            text.contains("ratio 2.000 from a single instance"),
            "{text}"
        );
    }

    #[test]
    fn the_bootstrap_is_fixed_by_the_seed() {
        let cur = scaled(|i| 1.0 + (i % 5) as f64 / 10.0);
        let once = compare(&baseline(), &cur, &Options::default());
        let again = compare(&baseline(), &cur, &Options::default());
        assert_eq!(once.overall.time, again.overall.time);
    }

    #[test]
    fn missing_jobs_are_listed_both_ways_and_do_not_fail() {
        let base = baseline();
        let mut cur = baseline();
        let gone = cur.records.remove(3);
        cur.records.push(record(21, VARIANTS[0], 1.0));
        cur.records.push(record(1, "zero/step1/none", 1.0));
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(c.missing_in_current, vec![Job::of(&gone)]);
        assert_eq!(
            c.missing_in_baseline,
            vec![Job::of(&cur.records[39]), Job::of(&cur.records[40])]
        );
        assert_eq!(c.variants[0].missing_in_current, 1);
        assert_eq!(c.variants[0].missing_in_baseline, 1);
        assert_eq!(c.variants[2].variant, "zero/step1/none");
        assert_eq!(c.variants[2].missing_in_baseline, 1);
        assert_eq!(c.overall.missing_in_baseline, 2);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(Format::Text);
        assert!(text.contains("missing in current (1 job):\n  korf100  4  manhattan/step2/prune\n"));
        assert!(text.contains("new in current (not in baseline) (2 jobs):\n"));
        assert!(text.contains("\nOK; overall time unchanged"), "{text}");
        assert!(text.contains("1 missing in current, 2 new"), "{text}");
        let md = c.render(Format::Markdown);
        assert!(md.contains("#### missing in current (1 job)"));
    }

    #[test]
    fn new_jobs_alone_do_not_fail() {
        let base = baseline();
        let mut cur = baseline();
        cur.records.push(record(21, VARIANTS[0], 1.0));
        assert_eq!(compare(&base, &cur, &Options::default()).done(), Done::Ok);
    }

    #[test]
    fn csv_output_is_one_row_per_variant_and_overall() {
        let c = compare(&baseline(), &scaled(|_| 1.5), &Options::default());
        let csv = c.render(Format::Csv);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "variant,jobs_compared,changed,missing_in_current,missing_in_baseline,timed,untimed,\
             time_ratio_geomean,ci_low,ci_high,verdict"
        );
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[3],
            "overall,40,0,0,0,40,0,1.5000,1.5000,1.5000,regressed"
        );
    }

    #[test]
    fn differing_manifests_give_warnings() {
        let mut base = baseline();
        let mut cur = baseline();
        base.manifest = Some(manifest("Intel Xeon", "aa"));
        cur.manifest = Some(manifest("AMD EPYC", "aa"));
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(
            c.warnings,
            ["cpu_model differs: baseline `Intel Xeon`, current `AMD EPYC`"]
        );
        assert!(c
            .render(Format::Markdown)
            .contains("> warning: cpu_model differs"));
        cur.manifest = None;
        let c = compare(&base, &cur, &Options::default());
        assert_eq!(
            c.warnings,
            ["no manifest.json for base: datasets and machines not checked"]
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
        let opts = Options {
            format: Format::Csv,
            ..Options::default()
        };
        assert_eq!(run(&a, &b, &opts, &mut out).unwrap(), Done::Regressed);
        let csv = String::from_utf8(out).unwrap();
        assert!(csv.ends_with("overall,40,0,0,0,40,0,1.5000,1.5000,1.5000,regressed\n"));
        let loaded = load(&a.join("runs.csv")).unwrap();
        assert_eq!(loaded.records, base.records);
        assert_eq!(loaded.manifest, base.manifest);
        let mut out = Vec::new();
        assert_eq!(
            run(&a, &a, &Options::default(), &mut out).unwrap(),
            Done::Ok
        );
        assert!(String::from_utf8(out).unwrap().contains("unchanged"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_inputs_are_errors_naming_the_file() {
        let dir = temp_dir("bad");
        let missing = dir.join("nowhere");
        let err = load(&missing).unwrap_err();
        assert!(err.starts_with(&missing.display().to_string()), "{err}");

        let empty_dir = dir.join("empty");
        std::fs::create_dir(&empty_dir).unwrap();
        let err = load(&empty_dir).unwrap_err();
        assert!(
            err.contains(&empty_dir.join("runs.csv").display().to_string()),
            "{err}"
        );

        let garbage = dir.join("garbage.csv");
        std::fs::write(&garbage, "this is,not a run\nat all\n").unwrap();
        let err = load(&garbage).unwrap_err();
        assert_eq!(
            err,
            format!(
                "{}:2: expected 2 fields like the header, found 1",
                garbage.display()
            )
        );

        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(record(1, VARIANTS[0], 1.0)).unwrap();
        let full = String::from_utf8(writer.into_inner().unwrap()).unwrap();

        let gone = dir.join("gone.csv");
        // Without the last column (path), in the header and the row.
        let text: String = full
            .lines()
            .map(|line| format!("{}\n", &line[..line.rfind(',').unwrap()]))
            .collect();
        std::fs::write(&gone, text).unwrap();
        let err = load(&gone).unwrap_err();
        assert_eq!(err, format!("{}:2: missing field `path`", gone.display()));

        let bad_number = dir.join("bad_number.csv");
        std::fs::write(&bad_number, full.replace(",1037,", ",lots,")).unwrap();
        let err = load(&bad_number).unwrap_err();
        assert!(
            err.starts_with(&format!(
                "{}:2: column `nodes_generated`: ",
                bad_number.display()
            )),
            "{err}"
        );
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
        let mut other = baseline();
        for r in &mut other.records {
            r.dataset = "korf50".to_owned();
        }
        for (path, run) in [(&a, &base), (&b, &cur), (&c, &other)] {
            std::fs::create_dir(path).unwrap();
            write_report(path, run);
        }
        let err = run(&a, &b, &Options::default(), &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("different datasets: `korf100` has sha256 aa in"),
            "{err}"
        );
        let err = run(&a, &c, &Options::default(), &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("no job in common"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_job_listed_twice_is_an_error() {
        let dir = temp_dir("twice");
        let mut run = baseline();
        run.records.push(record(2, VARIANTS[1], 3.0));
        write_report(&dir, &run);
        let err = load(&dir).unwrap_err();
        assert!(
            err.contains("runs.csv:42: job (dataset korf100, instance 2, variant"),
            "{err}"
        );
        assert!(err.ends_with("first at line 23"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn thresholds_below_one_are_refused() {
        let opts = Options {
            time_threshold: 0.9,
            ..Options::default()
        };
        let err = run(Path::new("a"), Path::new("b"), &opts, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("time threshold must be"), "{err}");
        for min_time_s in [-0.001, f64::NAN] {
            let opts = Options {
                min_time_s,
                ..Options::default()
            };
            let err = run(Path::new("a"), Path::new("b"), &opts, &mut Vec::new())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("minimum time must be"), "{err}");
        }
    }
}
