//! The report files of a run beside runs.csv: summary.csv, summary.md and manifest.json, and
//! the one step that writes every report of a finished (or interrupted) run. Every file but the
//! streamed runs.csv and iterations.csv is written whole or not at all (a temporary name, then a
//! rename).

use crate::domains::Spec;
use crate::results::combined;
use crate::results::folder;
use crate::results::iterations::{self, Spans};
use crate::results::record::{on_off, Manifest, Record, StatusCounts};
use crate::results::repetitions::{self, ByJob, Measured};
use crate::results::runs::{write_atomic, write_runs, Rows, Tally};
use crate::results::{read_file, ReportError};
use crate::util::text::markdown_code;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io;
use std::path::Path;

/// One variant's figures: a row of summary.csv (and, after its group's columns, of
/// summary-groups.csv).
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
    /// This variant's instances that every variant running them solved (`Status::solved`): the
    /// set the geometric means are taken over (heuristics run on their own domains only).
    pub common_solved: u64,
    pub nodes_generated_geomean: Option<f64>,
    pub time_cpu_geomean_s: Option<f64>,
    pub time_cpu_p50_s: Option<f64>,
    pub time_cpu_p90_s: Option<f64>,
    pub time_cpu_p99_s: Option<f64>,
    pub time_cpu_max_s: Option<f64>,
    pub time_cpu_total_s: f64,
    pub nodes_per_s: Option<f64>,
    /// Mean penalised CPU time: a job's CPU time when it was answered, else twice the time
    /// limit; `None` in a run without a time limit, where nothing bounds a penalty.
    pub par2_s: Option<f64>,
    /// The first variant's CPU time over this one's, as the geometric mean over the instances
    /// both solved with at least `SPEEDUP_FLOOR_S` of CPU in both (above 1: this one is faster);
    /// `None` without such an instance.
    pub speedup: Option<f64>,
    /// Mean penalised nodes: a job's nodes generated when it was answered, else twice the node
    /// limit; `None` in a run without a node limit. Absent from summaries written before it.
    #[serde(default)]
    pub par2_nodes: Option<f64>,
    /// How many instances `speedup` is over.
    #[serde(default)]
    pub speedup_instances: u64,
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
    /// The run's name (its report folder's), as runs.csv's `run` column gives it: set where
    /// summary.csv is written; empty in files written before the column existed.
    #[serde(default)]
    pub run: String,
}

/// The least CPU time a job needs, in both variants, to count in a speed-up: below a
/// millisecond a job's time is mostly the clock's and the harness's, as `compare` and `ab`
/// hold too.
pub const SPEEDUP_FLOOR_S: f64 = 1e-3;

/// One variant's figures over one group of the run's instances: a row of summary-groups.csv.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupSummary {
    pub group: Group,
    pub summary: VariantSummary,
}

/// A run's summaries: one row per variant, and one per group and variant that has jobs in it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summaries {
    pub variants: Vec<VariantSummary>,
    pub groups: Vec<GroupSummary>,
}

impl Summaries {
    /// The group rows of `variant`, when it ran in more than one group: the rows summary.md and
    /// report.html show under its pooled row.
    pub fn breakdown<'s>(&'s self, variant: &str) -> Vec<&'s GroupSummary> {
        let rows: Vec<&GroupSummary> = self
            .groups
            .iter()
            .filter(|g| g.summary.variant == variant)
            .collect();
        if rows.len() > 1 {
            rows
        } else {
            Vec::new()
        }
    }
}

/// The instances of one dataset of one domain and size: what a variant's figures are broken
/// down by.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Group {
    pub dataset: String,
    pub domain: String,
    pub size: String,
}

impl Group {
    /// How the tables name the group: `korf100: tiles 4x4`, `rotation: rotation` (a domain of
    /// one size has none).
    pub fn label(&self) -> String {
        let kind = [self.domain.as_str(), self.size.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        format!("{}: {kind}", self.dataset)
    }
}

/// The group of each instance of a run (numbered across its datasets, as in `Finished`), the
/// groups in the order their first instance comes.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    keys: Vec<Group>,
    known: HashMap<Group, usize>,
    of_instance: Vec<usize>,
    /// The group placed last.
    last: Option<usize>,
}

impl Groups {
    /// Puts `instance` in the group of (`dataset`, `domain`, `size`). A run's jobs come
    /// instance by instance, so the group is nearly always the last one named: it is compared
    /// before anything is allocated.
    pub fn place(&mut self, instance: usize, dataset: &str, domain: &str, size: &str) {
        let same = |g: &Group| g.dataset == dataset && g.domain == domain && g.size == size;
        let group = match self.last {
            Some(g) if same(&self.keys[g]) => g,
            _ => {
                let key = Group {
                    dataset: dataset.to_owned(),
                    domain: domain.to_owned(),
                    size: size.to_owned(),
                };
                let next = self.keys.len();
                *self.known.entry(key.clone()).or_insert_with(|| {
                    self.keys.push(key);
                    next
                })
            }
        };
        if self.of_instance.len() <= instance {
            self.of_instance.resize(instance + 1, usize::MAX);
        }
        self.of_instance[instance] = group;
        self.last = Some(group);
    }

    /// The group of `instance`, if it was placed.
    fn of(&self, instance: usize) -> Option<usize> {
        self.of_instance
            .get(instance)
            .copied()
            .filter(|&g| g != usize::MAX)
    }
}

/// The group of each instance with a row, from its row's dataset, domain and size: `records`
/// by job index, `places` each job's (instance, variant).
pub fn groups_of(records: &[Option<&Record>], places: &[(usize, usize)]) -> Groups {
    let mut groups = Groups::default();
    for (r, &(instance, _)) in records.iter().zip(places) {
        if let Some(r) = r {
            groups.place(instance, &r.dataset, &r.domain, &r.size);
        }
    }
    groups
}

/// The limits a run's penalties are taken from (see `VariantSummary::par2_s`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    pub time_limit_s: Option<f64>,
    pub max_nodes: Option<u64>,
}

impl Limits {
    pub fn of(manifest: &Manifest) -> Limits {
        Limits {
            // The CPU limit, else the wall limit: what stopped a job the penalty stands for.
            time_limit_s: manifest.limits().penalty_s(),
            max_nodes: manifest.max_nodes,
        }
    }
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

/// One summary row per variant, in the order of `variants` (`names[k]` is `variants[k].name()`),
/// and one per group of `groups` (in their order) and variant with jobs in it. `finished` holds
/// every repetition of a job (in repetition order), each job first reduced to one; it is in job
/// order, which fixes the order of the floating-point sums.
pub fn summarize<'t>(
    finished: impl IntoIterator<Item = Finished<'t>>,
    variants: &[Spec],
    names: &[String],
    groups: &Groups,
    limits: Limits,
) -> Summaries {
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
        unsolved[*i] |= !t.tally.status.solved();
    }
    // The first variant's time on each instance it solved, where it is long enough to compare.
    let mut first_times: Vec<Option<f64>> = vec![None; unsolved.len()];
    for (i, t) in by_variant.first().into_iter().flatten() {
        first_times[*i] = timed(&t.tally);
    }
    let context = Context {
        unsolved: &unsolved,
        first_times: &first_times,
        limits,
    };
    let rows = names
        .iter()
        .zip(variants)
        .zip(&by_variant)
        .map(|((name, spec), jobs)| context.row(name, spec, jobs))
        .collect();
    let mut in_group: Vec<Vec<Vec<(usize, JobTally)>>> =
        vec![vec![Vec::new(); names.len()]; groups.keys.len()];
    for (v, jobs) in by_variant.iter().enumerate() {
        for &(i, t) in jobs {
            if let Some(g) = groups.of(i) {
                in_group[g][v].push((i, t));
            }
        }
    }
    let group_rows = groups
        .keys
        .iter()
        .zip(&in_group)
        .flat_map(|(group, per_variant)| {
            names
                .iter()
                .zip(variants)
                .zip(per_variant)
                .filter(|(_, jobs)| !jobs.is_empty())
                .map(|((name, spec), jobs)| GroupSummary {
                    group: group.clone(),
                    summary: context.row(name, spec, jobs),
                })
        })
        .collect();
    Summaries {
        variants: rows,
        groups: group_rows,
    }
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

/// A job's CPU time, when it counts in a speed-up: solved, with at least `SPEEDUP_FLOOR_S`.
fn timed(t: &Tally) -> Option<f64> {
    (t.status.solved() && t.time_cpu_s >= SPEEDUP_FLOOR_S).then_some(t.time_cpu_s)
}

/// What every summary row of a run is measured against.
struct Context<'a> {
    /// Of each instance: not solved by every variant that ran it.
    unsolved: &'a [bool],
    /// Of each instance: the first variant's time, where it counts in a speed-up.
    first_times: &'a [Option<f64>],
    limits: Limits,
}

impl Context<'_> {
    /// The row of variant `name` from its jobs (instance, tally), all of the run's or those of a
    /// group: its geometric means are over the instances not `unsolved`, its speed-up over those
    /// both it and the first variant solved in a time that counts.
    fn row(&self, name: &str, spec: &Spec, jobs: &[(usize, JobTally)]) -> VariantSummary {
        let records: Vec<&Tally> = jobs.iter().map(|(_, t)| &t.tally).collect();
        let in_common: Vec<&Tally> = jobs
            .iter()
            .filter(|&&(i, _)| !self.unsolved[i])
            .map(|(_, t)| &t.tally)
            .collect();
        let mut spreads: Vec<f64> = jobs.iter().filter_map(|(_, t)| t.spread).collect();
        let spread_p50 = (!spreads.is_empty()).then(|| repetitions::median(&mut spreads));
        let spread_max = spreads.iter().copied().reduce(f64::max);
        let counts = StatusCounts::of(records.iter().map(|r| r.status));
        // Microseconds up to a week, 3 significant digits.
        let mut hist =
            Histogram::<u64>::new_with_bounds(1, 604_800_000_000, 3).expect("valid bounds");
        for r in &records {
            hist.saturating_record(((r.time_cpu_s * 1e6).round() as u64).max(1));
        }
        let quantile =
            |q: f64| (!records.is_empty()).then(|| hist.value_at_quantile(q) as f64 / 1e6);
        let cpu_total: f64 = records.iter().map(|r| r.time_cpu_s).sum();
        let nodes_total: u64 = records.iter().map(|r| r.nodes_generated).sum();
        // Penalised means: a job not answered counts as twice the limit that stopped it (or
        // would have). Without the limit there is no penalty to give, so no figure: under a node
        // limit alone, a time penalty of twice a job's own time would favour the variant that
        // reaches the limit soonest.
        let penalised = |limit: Option<f64>, measure: &dyn Fn(&Tally) -> f64| {
            let limit = limit.filter(|_| !records.is_empty())?;
            let sum: f64 = records
                .iter()
                .map(|r| {
                    if r.status.answered() {
                        measure(r)
                    } else {
                        2.0 * limit
                    }
                })
                .sum();
            Some(sum / records.len() as f64)
        };
        let (mut log_ratios, mut compared) = (0.0, 0u64);
        for (i, t) in jobs {
            if let (Some(first), Some(mine)) = (self.first_times[*i], timed(&t.tally)) {
                log_ratios += (first / mine).ln();
                compared += 1;
            }
        }
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
            step: column(&spec.step.name()),
            reverse_pruning: column(on_off(spec.reverse_pruning())),
            jobs: records.len() as u64,
            solved: counts.solved,
            limited: counts.limited,
            unsolvable: counts.unsolvable,
            over_cap: counts.over_cap,
            suboptimal: counts.suboptimal,
            wrong: counts.wrong,
            error: counts.error,
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
            par2_s: penalised(self.limits.time_limit_s, &|r| r.time_cpu_s),
            speedup: (compared > 0).then(|| (log_ratios / compared as f64).exp()),
            par2_nodes: penalised(self.limits.max_nodes.map(|n| n as f64), &|r| {
                r.nodes_generated as f64
            }),
            speedup_instances: compared,
            unstable: counts.unstable,
            time_cpu_spread_p50: spread_p50,
            time_cpu_spread_max: spread_max,
            run: String::new(),
        }
    }
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

/// summary.csv, each row naming the run `run`.
pub fn summary_csv(rows: &[VariantSummary], run: &str) -> Result<Vec<u8>, ReportError> {
    csv_of(SUMMARY_CSV, rows.iter().map(|r| named(r, run)))
}

/// `row` as run `run`'s.
fn named(row: &VariantSummary, run: &str) -> VariantSummary {
    VariantSummary {
        run: run.to_owned(),
        ..row.clone()
    }
}

/// The file of the summaries by group beside summary.csv.
pub const GROUPS_CSV: &str = "summary-groups.csv";
const SUMMARY_CSV: &str = "summary.csv";

/// summary-groups.csv: a row per group and variant, the group's columns (dataset, domain,
/// size) then summary.csv's, each row naming the run `run`.
pub fn groups_csv(rows: &[GroupSummary], run: &str) -> Result<Vec<u8>, ReportError> {
    csv_of(
        GROUPS_CSV,
        rows.iter().map(|r| (&r.group, named(&r.summary, run))),
    )
}

fn csv_of<T: Serialize>(name: &str, rows: impl Iterator<Item = T>) -> Result<Vec<u8>, ReportError> {
    let failed = |e: String| ReportError::Write(format!("{name}: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).map_err(|e| failed(e.to_string()))?;
    }
    w.into_inner().map_err(|e| failed(e.to_string()))
}

/// Reads summary-groups.csv back; an error names the file and line. A run made before the file
/// existed has none: `Ok` of no rows.
pub fn read_groups(path: &Path) -> Result<Vec<GroupSummary>, ReportError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(Vec::new());
    }
    let bytes = read_file(path)?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let failed = |e: &csv::Error| {
        let line = e.position().map_or(0, csv::Position::line);
        ReportError::Read(format!("{}:{line}: {e}", path.display()))
    };
    let headers = reader.headers().map_err(|e| failed(&e))?.clone();
    const GROUP: [&str; 3] = ["dataset", "domain", "size"];
    if headers.len() < GROUP.len() || headers.iter().zip(GROUP).any(|(h, want)| h != want) {
        return Err(ReportError::Read(format!(
            "{}:1: not a {GROUPS_CSV}: its header does not start with {}",
            path.display(),
            GROUP.join(",")
        )));
    }
    // The group's columns, then a summary.csv row: read as summary.csv is.
    let rest = |r: &csv::StringRecord| r.iter().skip(GROUP.len()).collect::<csv::StringRecord>();
    let summary_headers = rest(&headers);
    reader
        .records()
        .map(|row| {
            let row = row.map_err(|e| failed(&e))?;
            let mut tail = rest(&row);
            tail.set_position(row.position().cloned());
            let summary = tail
                .deserialize(Some(&summary_headers))
                .map_err(|e| failed(&e))?;
            Ok(GroupSummary {
                group: Group {
                    dataset: row[0].to_owned(),
                    domain: row[1].to_owned(),
                    size: row[2].to_owned(),
                },
                summary,
            })
        })
        .collect()
}

/// Which penalised mean the tables show in their PAR-2 column: the time one in a run limited by
/// time, else the node one in a run limited by nodes, else none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Par2 {
    Time,
    Nodes,
    Neither,
}

impl Par2 {
    /// The column of a run whose `manifest` gives its limits; without one, of the figures
    /// `rows` have. A summary written before PAR-2 followed the limit may hold a time PAR-2 of a
    /// run limited by nodes: the manifest's limits leave it out.
    pub fn of(rows: &[VariantSummary], manifest: Option<&Manifest>) -> Par2 {
        if let Some(m) = manifest {
            // A time limit on either clock: the one `Limits::of` penalises with.
            return match (m.limits().penalty_s(), m.max_nodes) {
                (Some(_), _) => Par2::Time,
                (None, Some(_)) => Par2::Nodes,
                (None, None) => Par2::Neither,
            };
        }
        if rows.iter().any(|r| r.par2_s.is_some()) {
            Par2::Time
        } else if rows.iter().any(|r| r.par2_nodes.is_some()) {
            Par2::Nodes
        } else {
            Par2::Neither
        }
    }

    /// The column's heading, with its unit.
    pub fn heading(self) -> &'static str {
        match self {
            Par2::Time => "PAR-2 s",
            Par2::Nodes => "PAR-2 nodes",
            Par2::Neither => "PAR-2",
        }
    }

    /// The figure of `r` this column shows.
    pub fn value(self, r: &VariantSummary) -> Option<f64> {
        match self {
            Par2::Time => r.par2_s,
            Par2::Nodes => r.par2_nodes,
            Par2::Neither => None,
        }
    }

    /// What the tables' note says of the column.
    pub fn note(self) -> &'static str {
        match self {
            Par2::Time => "PAR-2 is the mean CPU time with each job not answered counted as twice the time limit.",
            Par2::Nodes => "PAR-2 nodes is the mean of nodes generated with each job not answered counted as twice the node limit (a run limited by nodes only has no time PAR-2).",
            Par2::Neither => "No PAR-2: the run had no limit to penalise with.",
        }
    }
}

/// What the tables' note says of the geometric means and speed-ups (`common` instances behind
/// the first variant's means).
pub fn means_note(common: u64) -> String {
    format!(
        "Geometric means are over the instances solved by every variant that ran them ({common} for the first variant; `common_solved` in summary.csv). A speed-up is the first variant's CPU time over this one's, geometric mean over the instances both solved with at least {} ms of CPU in both (`speedup_instances`), as `compare` and `ab` count; `-` without one. Times are CPU seconds of the job, on every thread that searched it.",
        SPEEDUP_FLOOR_S * 1e3
    )
}

/// summary.md: a title, the run's setting, whether jobs are missing, and one table row per
/// variant, followed by its rows per group when it ran in more than one. Names from files
/// (datasets, variants of merged shards, the machine) are each a `markdown_code` span: the file
/// is pasted into pull requests.
pub fn summary_md(summaries: &Summaries, manifest: &Manifest) -> String {
    let rows = &summaries.variants;
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
    let differences = combined::of_manifest(manifest);
    let (mixed, noted): (Vec<_>, Vec<_>) = differences.iter().partition(|d| d.mixes);
    let mut out = String::from("## idabench run\n\n");
    if !mixed.is_empty() {
        let said: Vec<String> = mixed.iter().map(|d| d.render(markdown_code)).collect();
        out.push_str(&format!(
            "**Mixed runs (combined with --allow-mixed), whose figures do not compare like with \
             like: {}.**\n\n",
            said.join("; ")
        ));
    }
    out.push_str(&format!(
        "{} on {} with {} worker{}; limits: {}.\n\n",
        datasets.join(", "),
        markdown_code(&manifest.cpu_model),
        manifest.jobs,
        if manifest.jobs == 1 { "" } else { "s" },
        manifest.limits_text(),
    ));
    if let Some(memory) = manifest.memory_text() {
        out.push_str(&format!("Memory: {memory}.\n\n"));
    }
    if !manifest.combined.is_empty() {
        let runs: Vec<String> = manifest
            .combined
            .iter()
            .map(|r| {
                let variants: Vec<String> = r
                    .variants()
                    .map(|(name, from)| match from {
                        Some(from) => {
                            format!(
                                "{} (renamed from {})",
                                markdown_code(name),
                                markdown_code(from)
                            )
                        }
                        None => markdown_code(name),
                    })
                    .collect();
                format!("{}: {}", markdown_code(&r.dir), variants.join(", "))
            })
            .collect();
        out.push_str(&format!(
            "Combined from {} runs ({}); manifest.json holds each one's manifest.{}\n\n",
            runs.len(),
            runs.join("; "),
            if noted.is_empty() {
                String::new()
            } else {
                let said: Vec<String> = noted.iter().map(|d| d.render(markdown_code)).collect();
                format!(" They differ in {}.", said.join("; "))
            }
        ));
    }
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
    let par2 = Par2::of(rows, Some(manifest));
    // The unstable column only where repetitions could make a job so: a run without them keeps
    // its table as it was.
    let repeated = repeated(rows, manifest.repeat);
    let (unstable_head, unstable_rule) = if repeated {
        (" unstable |", "--:|")
    } else {
        ("", "")
    };
    out.push_str(&format!(
        "| variant | jobs | solved | suboptimal | wrong | error | limited |{unstable_head} unsolvable | over cap | nodes generated | geomean nodes | geomean CPU s | p50 s | p90 s | p99 s | max s | Mnodes/s | {} | speed-up |\n\
         |---|--:|--:|--:|--:|--:|--:|{unstable_rule}--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
        par2.heading()
    ));
    // A wrong answer or an error must not pass unseen in a column of zeros.
    let flagged = |n: u64| match n {
        0 => "0".to_string(),
        n => format!("**{n}**"),
    };
    let line = |name: String, r: &VariantSummary| {
        let unstable = if repeated {
            format!(" {} |", r.unstable)
        } else {
            String::new()
        };
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} |{unstable} {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
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
            match par2 {
                Par2::Time => seconds(par2.value(r)),
                _ => fmt(par2.value(r), 0),
            },
            fmt(r.speedup, 2),
        )
    };
    let mut broken_down = false;
    for r in rows {
        out.push_str(&line(markdown_code(&r.variant), r));
        for g in summaries.breakdown(&r.variant) {
            broken_down = true;
            out.push_str(&line(
                format!("↳ {}", markdown_code(&g.group.label())),
                &g.summary,
            ));
        }
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
            "\nNot guaranteed shortest (step 2 where the domain has no solution parity, or a \
             solution found before a limit stopped cr, eda or bts): {}.\n",
            unguaranteed.join(", ")
        ));
    }
    if let Some(note) = repetitions_note(rows, manifest.repeat) {
        out.push_str(&format!("\n{note}\n"));
    }
    let problems: u64 = rows.iter().map(|r| r.suboptimal + r.wrong + r.error).sum();
    out.push_str(&format!(
        "\n{} {}{}{}\n",
        means_note(rows.first().map_or(0, |r| r.common_solved)),
        par2.note(),
        if broken_down {
            format!(" Rows marked ↳ give a variant's figures on each dataset, domain and size it ran ({GROUPS_CSV}); its speed-up there is over that group's instances.")
        } else {
            String::new()
        },
        if problems > 0 {
            format!(" **{problems} job(s) are suboptimal, wrong or failed: see runs.csv.**")
        } else {
            String::new()
        }
    ));
    out
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
/// summary.csv, summary-groups.csv, summary.md and manifest.json. Every report a run leaves is
/// written here.
pub fn write_reports(
    dir: &Path,
    rows: &Rows,
    iterations: Option<&mut Spans>,
    manifest: &Manifest,
    summaries: &Summaries,
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
    let run = folder::run_name(dir);
    let files: [(&str, Result<Vec<u8>, ReportError>); 4] = [
        (SUMMARY_CSV, summary_csv(&summaries.variants, &run)),
        (GROUPS_CSV, groups_csv(&summaries.groups, &run)),
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
    use crate::results::record::{DatasetInfo, Status};

    fn spec(heuristic: &str) -> Spec {
        Spec {
            heuristic: crate::domains::HeuristicKind::parse(heuristic).unwrap(),
            step: crate::search::Step::Next,
            pruning: crate::search::Pruning::Reverse,
            cost: crate::domains::cost::CostModel::Unit,
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
            &Groups::default(),
            Limits {
                time_limit_s: Some(10.0),
                max_nodes: None,
            },
        )
        .variants;
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
        let limits = Limits {
            time_limit_s: Some(1.0),
            max_nodes: None,
        };
        let all = summarize(finished, &specs, &names, &Groups::default(), limits);
        let r = &all.variants[0];
        assert_eq!((r.jobs, r.solved, r.unstable, r.wrong), (3, 1, 1, 1));
        assert_eq!(r.nodes_generated_total, 30);
        // The median of instance 0's times, 3 ms, spread (4 - 2) / 3; instance 1's 0.5 s, (1 -
        // 0.5) / 0.5; instance 2's 0.5 s, 0.
        assert!((r.time_cpu_total_s - 1.003).abs() < 1e-12, "{r:?}");
        assert!((r.time_cpu_spread_max.unwrap() - 1.0).abs() < 1e-12);
        assert!((r.time_cpu_spread_p50.unwrap() - 2.0 / 3.0).abs() < 1e-12);
        let mut m = manifest();
        m.repeat = 3;
        let md = summary_md(&all, &m);
        assert!(md.contains("| limited | unstable | unsolvable |"), "{md}");
        assert!(
            md.contains("| 3 | 1 | 0 | **1** | 0 | 0 | 1 | 0 | 0 |"),
            "{md}"
        );
        assert!(md.contains("Each job ran 3 times (--repeat 3)"), "{md}");
        assert!(md.contains("1 job(s) are unstable"), "{md}");
        // Without repetitions, the table is as it always was.
        let once = summarize(
            [(0, 0, &rows[0].1)],
            &specs,
            &names,
            &Groups::default(),
            Limits::default(),
        );
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
        let rows = summarize(
            [(0, 0, &t), (1, 1, &t)],
            &specs,
            &names,
            &Groups::default(),
            Limits::default(),
        );
        let md = summary_md(&rows, &manifest());
        let rows = rows.variants;
        assert_eq!((rows[2].jobs, rows[2].heuristic.as_str()), (0, ""));
        assert_eq!(rows[0].speedup, Some(1.0));
        assert_eq!(rows[1].speedup, None);
        assert!(rows[1].time_cpu_geomean_s.is_some());
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
        let rows = summarize(
            [(0, 0, &t)],
            &specs,
            &names,
            &Groups::default(),
            Limits::default(),
        );
        let mut m = manifest();
        m.datasets.push(DatasetInfo {
            path: String::new(),
            name: "we`ird\n## set".into(),
            sha256: String::new(),
            instances: 1,
            puzzles: Vec::new(),
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
        let none = Summaries::default();
        assert!(!summary_md(&none, &m).contains("Incomplete"));
        m.complete = Some(false);
        m.jobs_total = Some(30);
        m.jobs_missing = Some(7);
        assert!(summary_md(&none, &m).contains(
            "**Incomplete run: 7 of 30 jobs are missing (it was interrupted); `--resume` runs them."
        ));
    }

    /// Jobs of one instance each, numbered in order: (variant, status, CPU seconds, nodes).
    fn tallies(jobs: &[(usize, Status, f64, u64)]) -> Vec<(usize, Tally)> {
        jobs.iter()
            .map(|&(variant, status, time_cpu_s, nodes_generated)| {
                let mut t = Tally::of(&record());
                (t.status, t.time_cpu_s, t.nodes_generated) = (status, time_cpu_s, nodes_generated);
                (variant, t)
            })
            .collect()
    }

    #[test]
    fn speedups_are_over_instances_both_solved_with_a_millisecond_or_more() {
        use Status::*;
        let jobs = tallies(&[
            // Instance 0: under a millisecond in the first variant; 1 and 2 count; 3 is
            // suboptimal in the second, so neither common nor compared.
            (0, Solved, 0.0005, 10),
            (1, Solved, 0.0002, 10),
            (0, Solved, 0.010, 10),
            (1, Solved, 0.005, 10),
            (0, Solved, 0.020, 10),
            (1, Solved, 0.040, 10),
            (0, Solved, 0.030, 10),
            (1, Suboptimal, 0.001, 10),
        ]);
        let specs = [spec("manhattan"), spec("misplaced")];
        let names: Vec<String> = specs.iter().map(Spec::name).collect();
        let finished = jobs.iter().enumerate().map(|(k, (v, t))| (k / 2, *v, t));
        let rows = summarize(
            finished,
            &specs,
            &names,
            &Groups::default(),
            Limits::default(),
        )
        .variants;
        // sqrt(10/5 x 20/40) = 1; with instance 0 it would be (2.5 x 2 x 0.5)^(1/3).
        let speedup = rows[1].speedup.unwrap();
        assert!((speedup - 1.0).abs() < 1e-12, "{speedup}");
        assert_eq!(
            (rows[1].speedup_instances, rows[0].speedup_instances),
            (2, 3)
        );
        assert_eq!(rows[0].speedup, Some(1.0));
        assert_eq!((rows[0].common_solved, rows[1].common_solved), (3, 3));
        // Every job under a millisecond: no speed-up at all.
        let fast = tallies(&[(0, Solved, 0.0005, 10), (1, Solved, 0.0002, 10)]);
        let finished = fast.iter().map(|(v, t)| (0, *v, t));
        let rows = summarize(
            finished,
            &specs,
            &names,
            &Groups::default(),
            Limits::default(),
        );
        assert_eq!(
            (rows.variants[0].speedup, rows.variants[1].speedup),
            (None, None)
        );
        let md = summary_md(&rows, &manifest());
        assert!(md.contains("with at least 1 ms of CPU in both"), "{md}");
    }

    #[test]
    fn par2_needs_the_limit_it_penalises_with() {
        use Status::*;
        let jobs = tallies(&[(0, Solved, 0.5, 100), (0, NodeLimit, 0.1, 1000)]);
        let specs = [spec("manhattan")];
        let names: Vec<String> = specs.iter().map(Spec::name).collect();
        let of = |limits: Limits| {
            let finished = jobs.iter().enumerate().map(|(k, (v, t))| (k, *v, t));
            summarize(finished, &specs, &names, &Groups::default(), limits)
        };
        let by_nodes = of(Limits {
            time_limit_s: None,
            max_nodes: Some(1000),
        });
        let row = &by_nodes.variants[0];
        // (100 + 2 x 1000) / 2 nodes; no time PAR-2, which would reward the quick stop.
        assert_eq!((row.par2_s, row.par2_nodes), (None, Some(1050.0)));
        let mut m = manifest();
        m.max_nodes = Some(1000);
        let md = summary_md(&by_nodes, &m);
        assert!(
            md.contains("| PAR-2 nodes | speed-up |") && md.contains("| 1050 |"),
            "{md}"
        );
        let by_time = of(Limits {
            time_limit_s: Some(2.0),
            max_nodes: None,
        })
        .variants;
        assert_eq!(
            (by_time[0].par2_s, by_time[0].par2_nodes),
            (Some(2.25), None)
        );
        let unlimited = of(Limits::default());
        let row = &unlimited.variants[0];
        assert_eq!((row.par2_s, row.par2_nodes), (None, None));
        assert!(summary_md(&unlimited, &manifest()).contains("No PAR-2: the run had no limit"));
        // As a summary.csv of before: a time PAR-2 in a run the manifest says was limited by
        // nodes only is not shown.
        let timed = of(Limits {
            time_limit_s: Some(2.0),
            max_nodes: None,
        });
        let md = summary_md(&timed, &m);
        assert!(
            md.contains("| PAR-2 nodes | speed-up |") && !md.contains("| 2.25 |"),
            "{md}"
        );
    }

    #[test]
    fn groups_break_a_variant_down_and_their_csv_reads_back() {
        use Status::*;
        let jobs = tallies(&[
            (0, Solved, 0.01, 10),
            (1, Solved, 0.02, 20),
            (0, Solved, 0.01, 30),
            (0, NodeLimit, 0.01, 40),
        ]);
        let specs = [spec("manhattan"), spec("misplaced")];
        let names: Vec<String> = specs.iter().map(Spec::name).collect();
        // Instance 0 of the first dataset, instances 1 and 2 of a second with another size.
        let mut groups = Groups::default();
        groups.place(0, "a", "tiles", "3x3");
        groups.place(1, "b,c", "tiles", "4x4");
        groups.place(2, "b,c", "tiles", "4x4");
        let finished = [(0, 0), (0, 1), (1, 0), (2, 0)]
            .into_iter()
            .zip(&jobs)
            .map(|((i, v), (_, t))| (i, v, t));
        let s = summarize(finished, &specs, &names, &groups, Limits::default());
        let rows: Vec<(&str, &str, u64, u64)> = s
            .groups
            .iter()
            .map(|g| {
                (
                    g.group.size.as_str(),
                    g.summary.variant.as_str(),
                    g.summary.jobs,
                    g.summary.solved,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("3x3", "manhattan/stepnext/prune", 1, 1),
                ("3x3", "misplaced/stepnext/prune", 1, 1),
                ("4x4", "manhattan/stepnext/prune", 2, 1),
            ]
        );
        assert_eq!(s.breakdown("manhattan/stepnext/prune").len(), 2);
        assert!(s.breakdown("misplaced/stepnext/prune").is_empty());
        let md = summary_md(&s, &manifest());
        assert!(md.contains("\n| ↳ `b,c: tiles 4x4` | 2 | 1 |"), "{md}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GROUPS_CSV);
        let bytes = groups_csv(&s.groups, "r").unwrap();
        assert!(bytes.starts_with(b"dataset,domain,size,variant,heuristic,"));
        std::fs::write(&path, &bytes).unwrap();
        let of_r: Vec<GroupSummary> = s
            .groups
            .iter()
            .map(|g| GroupSummary {
                group: g.group.clone(),
                summary: named(&g.summary, "r"),
            })
            .collect();
        assert_eq!(read_groups(&path).unwrap(), of_r);
        assert_eq!(read_groups(&dir.path().join("none.csv")).unwrap(), []);
        std::fs::write(&path, "variant,jobs\nx,1\n").unwrap();
        let e = read_groups(&path).unwrap_err().to_string();
        assert!(e.ends_with("summary-groups.csv:1: not a summary-groups.csv: its header does not start with dataset,domain,size"), "{e}");
    }
}
