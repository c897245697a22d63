//! What a run leaves on disk, as serde types: one `Record` per job (a row of runs.csv), and the
//! run's `Manifest`. Written by `run`, read back by `compare` and `--resume`.

use crate::domains::cost::CostModel;
use crate::results::combined::CombinedRun;
use crate::results::shard::Shard;
use crate::results::{read_file, ReportError};
use crate::search::{Clock, Pruning};
use crate::tables::automata::AutomatonInfo;
use crate::tables::store::TableInfo;
use crate::util::{format, text};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

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

/// How many jobs ended in each status, as every page, summary and picture counts them: solved
/// through `Status::solved`, and the rest by name (the two limits together), so that a wrong
/// answer or an error is never folded into another count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub jobs: u64,
    pub solved: u64,
    pub suboptimal: u64,
    pub wrong: u64,
    pub error: u64,
    /// Stopped by `--max-nodes` or `--time-limit`.
    pub limited: u64,
    /// Repeated jobs whose repetitions a time limit split (see `results::repetitions`).
    pub unstable: u64,
    pub unsolvable: u64,
    pub over_cap: u64,
}

impl StatusCounts {
    /// The names of the counts, as the CSV files spell them, in the order the pages show them.
    pub const NAMES: [&'static str; 8] = [
        "solved",
        "suboptimal",
        "wrong",
        "error",
        "limited",
        "unstable",
        "unsolvable",
        "over_cap",
    ];

    pub fn of(statuses: impl IntoIterator<Item = Status>) -> StatusCounts {
        let mut counts = StatusCounts::default();
        for status in statuses {
            counts.add(status);
        }
        counts
    }

    pub fn add(&mut self, status: Status) {
        self.jobs += 1;
        let count = match status {
            s if s.solved() => &mut self.solved,
            s if s.limited() => &mut self.limited,
            Status::Unstable => &mut self.unstable,
            Status::Suboptimal => &mut self.suboptimal,
            Status::Wrong => &mut self.wrong,
            Status::Unsolvable => &mut self.unsolvable,
            Status::OverCap => &mut self.over_cap,
            // And `cancelled`, which is never in a report: a job stopped from outside failed.
            _ => &mut self.error,
        };
        *count += 1;
    }

    /// The counts in the order of `NAMES`.
    pub fn values(&self) -> [u64; 8] {
        [
            self.solved,
            self.suboptimal,
            self.wrong,
            self.error,
            self.limited,
            self.unstable,
            self.unsolvable,
            self.over_cap,
        ]
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
    /// On a `time_limit` row, the clock whose limit stopped the job (`cpu`: `--time-limit`,
    /// `wall`: `--wall-limit`, as `Clock` spells them); empty on every other row. A runs.csv from
    /// before the column limited wall time only: its `time_limit` rows read as `wall`
    /// (`absent_columns`). Text, checked by `unwritten`, so that a bad value is refused naming
    /// its column.
    #[serde(default)]
    pub limit_clock: S,
    /// Which of the job's runs this is, from 1 (`run --repeat N`); 1 in a runs.csv written
    /// before the column existed.
    #[serde(default = "first_repetition")]
    pub repetition: u32,
    /// The name of the run that made the row: its report folder's name (a merged run's, for a
    /// merge). Empty in rows written before the column existed.
    #[serde(default)]
    pub run: S,
    /// `none`, `reverse` or `fsm` (`Pruning::kind`; the automaton's depth is in the variant's
    /// name). A runs.csv from before the column reads it from `reverse_pruning`: on is reverse,
    /// off none (`absent_columns`).
    #[serde(default)]
    pub pruning: S,
    /// The effective branching factor b* of the job's last iteration (see `growth`); `None`
    /// (empty) where it has none, and in rows written before the column existed.
    #[serde(default)]
    pub branching_factor: Option<f64>,
    /// How often bidirectional pathmax raised a node's heuristic value (`Stats::bpmx_raises`);
    /// 0 without it, and in rows written before the column existed.
    #[serde(default)]
    pub bpmx_raises: u64,
    /// `unit`, `heavy` or `inverse-heavy` (`CostModel`): what a move costs. A runs.csv from
    /// before the column was of unit costs (`absent_columns`).
    #[serde(default)]
    pub cost_model: S,
    /// What the solution costs, in the model's units (under inverse-heavy a move of tile t costs
    /// 1/t, so this is a fraction written to f64's precision); empty without a solution. A
    /// runs.csv from before the column reads it as the length (`absent_columns`).
    #[serde(default)]
    pub cost: Option<f64>,
}

fn first_repetition() -> u32 {
    1
}

/// Spelled `cpu` or `wall` in manifests (`time_limit_clock`), as in runs.csv's `limit_clock`.
impl Serialize for Clock {
    fn serialize<Z: serde::Serializer>(&self, out: Z) -> Result<Z::Ok, Z::Error> {
        out.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Clock {
    fn deserialize<Z: serde::Deserializer<'de>>(input: Z) -> Result<Clock, Z::Error> {
        let word = String::deserialize(input)?;
        Clock::parse(&word).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected cpu or wall, found `{}`",
                text::shorten(&word)
            ))
        })
    }
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
        let text = |out: &mut Vec<u8>, s: &S| text::csv_field(out, s.as_ref().as_bytes());
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
        text::csv_field(out, self.status.name().as_bytes());
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
        text::csv_field(
            out,
            if self.optimal_guaranteed {
                b"true"
            } else {
                b"false"
            },
        );
        text(out, &self.message);
        text(out, &self.path);
        text(out, &self.limit_clock);
        int(out, self.repetition.into());
        text(out, &self.run);
        text(out, &self.pruning);
        match self.branching_factor {
            Some(b) => float(out, b),
            None => out.push(b','),
        }
        int(out, self.bpmx_raises);
        text(out, &self.cost_model);
        match self.cost {
            Some(c) => float(out, c),
            None => out.push(b','),
        }
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
    /// The definition files its rows name (domain ksolve), as written there, with their SHA-256.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub puzzles: Vec<PuzzleInfo>,
}

/// A puzzle definition file a dataset names: its path as written in the dataset, and the
/// SHA-256 of what it held.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleInfo {
    pub path: String,
    pub sha256: String,
}

impl DatasetInfo {
    /// What two runs must agree on to have read the same dataset: its SHA-256, and those of the
    /// definition files its rows name.
    pub fn content(&self) -> String {
        let mut text = self.sha256.clone();
        for p in &self.puzzles {
            text.push_str(&format!("; puzzle {} sha256 {}", p.path, p.sha256));
        }
        text
    }
}

/// Which instances of its datasets a run kept (`--domain`, `--size`, `--instances`,
/// `--instances-file`), as given, so that it can be given again; empty: every instance, which is
/// also what a manifest written before selections existed means.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// `--instances` entries: ids, `DATASET:ID`, with `*` and `?`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances_file: Option<IdsFile>,
}

/// The `--instances-file` a run read: its path as given, and the SHA-256 of what it held then.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdsFile {
    pub path: String,
    pub sha256: String,
}

impl Selection {
    pub fn is_empty(&self) -> bool {
        *self == Selection::default()
    }

    /// Whether both keep the same instances of the same datasets: the same entries in any order,
    /// and an ids file of the same content wherever it lies.
    pub fn same(&self, other: &Selection) -> bool {
        let set = |v: &[String]| -> Vec<String> {
            let mut v = v.to_vec();
            v.sort();
            v.dedup();
            v
        };
        let file = |s: &Selection| s.instances_file.as_ref().map(|f| f.sha256.clone());
        set(&self.domains) == set(&other.domains)
            && set(&self.sizes) == set(&other.sizes)
            && set(&self.instances) == set(&other.instances)
            && file(self) == file(other)
    }

    /// For messages: the flags that give it again, or `none (every instance)`.
    pub fn text(&self) -> String {
        if self.is_empty() {
            return "none (every instance)".into();
        }
        let mut words = Vec::new();
        for (flag, values) in [
            ("--domain", &self.domains),
            ("--size", &self.sizes),
            ("--instances", &self.instances),
        ] {
            if !values.is_empty() {
                words.push(format!("{flag} {}", text::shorten(&values.join(","))));
            }
        }
        if let Some(f) = &self.instances_file {
            words.push(format!(
                "--instances-file {} (SHA-256 {})",
                text::shorten(&f.path),
                f.sha256
            ));
        }
        words.join(" ")
    }
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
    /// `--time-limit`: seconds of each job's time on the clock `time_limit_clock` says.
    pub time_limit_s: Option<f64>,
    /// The clock of `time_limit_s`: `cpu` in every manifest written since `--time-limit` limits
    /// CPU time. Absent (or null) in a manifest written before: its `time_limit_s` was wall time,
    /// and a run resumed from it keeps that (see `RunLimits`).
    #[serde(default)]
    pub time_limit_clock: Option<Clock>,
    /// `--wall-limit`: seconds of each job's wall time.
    #[serde(default)]
    pub wall_limit_s: Option<f64>,
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
    /// The duplicate-pruning automata the run's fsm variants used: each one's depth, states,
    /// bytes and build time. Absent in manifests of runs without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub automata: Vec<AutomatonInfo>,
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
    /// The instances the run kept; absent: every instance of its datasets.
    #[serde(default, skip_serializing_if = "Selection::is_empty")]
    pub selection: Selection,
    /// The most memory the run's process held resident (its high-water mark, read at its end),
    /// in bytes: of a resumed run, the largest of its processes'; of a merge, the largest of
    /// its shards' (the merge's own is not counted). Absent in manifests written before it was
    /// recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_resident_bytes: Option<u64>,
    /// Of a combined report (`combine`): the runs it was made from. Absent for any other.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combined: Vec<CombinedRun>,
    /// `--repeat`: how many times each job runs (each time a row of runs.csv); 1 in manifests
    /// written before it existed.
    #[serde(default = "first_repetition")]
    pub repeat: u32,
    /// The seed of the hash that picks each node's lookup under a `+random` heuristic
    /// (`tiles::lookups::RANDOM_LOOKUP_SEED`); absent when the run has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_lookup_seed: Option<u64>,
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
    /// The shard's `peak_resident_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_resident_bytes: Option<u64>,
}

impl Manifest {
    /// The run ended with every job done: it has an end time and does not say it is incomplete.
    /// A run still going or killed has no end time; an interrupted one says `complete: false`.
    pub fn finished(&self) -> bool {
        !self.end_time.is_empty() && self.complete != Some(false)
    }

    /// The per-job limits in force, by clock, whatever the manifest's age.
    pub fn limits(&self) -> RunLimits {
        let (cpu_s, wall_s) = match self.time_limit_clock {
            Some(Clock::Cpu) => (self.time_limit_s, self.wall_limit_s),
            // Before `time_limit_clock`, `--time-limit` limited wall time.
            None | Some(Clock::Wall) => {
                let wall = match (self.time_limit_s, self.wall_limit_s) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                (None, wall)
            }
        };
        RunLimits {
            max_nodes: self.max_nodes,
            cpu_s,
            wall_s,
        }
    }

    /// The per-job limits, e.g. `1000000 nodes, 5 s CPU, 10 s wall`, or `none`; for a report
    /// combined from runs of other limits (`combine --allow-mixed`), that they differ.
    pub fn limits_text(&self) -> String {
        let limits = self.combined.iter().map(|r| r.manifest.limits_text());
        if limits.collect::<std::collections::HashSet<_>>().len() > 1 {
            return "different in the combined runs".into();
        }
        self.limits().text()
    }

    /// The run's memory in words, e.g. `450 MiB at the peak (resident); pattern databases:
    /// 2 of 1.5 MiB in all; automata: fsm14 on tiles 4x4 (4 moves): 5 states, 80 B, built in 0.000 s`, or
    /// `None` when the manifest records none.
    pub fn memory_text(&self) -> Option<String> {
        let peak = self.peak_resident_bytes.map(|b| {
            let whose = if self.shards.is_empty() {
                ""
            } else {
                ", the largest shard's"
            };
            format!("{} at the peak (resident{whose})", format::bytes(b))
        });
        let tables = (!self.pattern_databases.is_empty()).then(|| {
            let total: u64 = self.pattern_databases.iter().map(TableInfo::bytes).sum();
            format!(
                "pattern databases: {} of {} in all",
                self.pattern_databases.len(),
                format::bytes(total)
            )
        });
        let automata = (!self.automata.is_empty()).then(|| {
            let each: Vec<String> = self
                .automata
                .iter()
                .map(|a| {
                    let within = a.window.map_or(String::new(), |(w, h)| format!(" {w}x{h}"));
                    let how = match a.read_s {
                        Some(s) => format!("read in {s:.3} s"),
                        None => format!("built in {:.3} s", a.build_s),
                    };
                    format!(
                        "fsm{} on {}{within} ({} moves): {} states, {}, {how}",
                        a.depth,
                        a.domain,
                        a.labels,
                        a.states,
                        format::bytes(a.bytes as u64),
                    )
                })
                .collect();
            format!("automata: {}", each.join("; "))
        });
        let parts: Vec<String> = [peak, tables, automata].into_iter().flatten().collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// A run's per-job limits, each time limit with its clock: what `Manifest::limits` reads from a
/// manifest of any age, and what `--resume`, `merge` and `compare` hold runs to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunLimits {
    pub max_nodes: Option<u64>,
    /// CPU seconds of a job, on every thread that searched it.
    pub cpu_s: Option<f64>,
    /// Wall seconds of a job.
    pub wall_s: Option<f64>,
}

impl RunLimits {
    /// E.g. `1000000 nodes, 5 s CPU, 10 s wall`, or `none`.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        match self.max_nodes {
            Some(1) => parts.push("1 node".to_owned()),
            Some(n) => parts.push(format!("{n} nodes")),
            None => {}
        }
        parts.extend(self.time_parts());
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    /// The time limits alone, e.g. `5 s CPU, 10 s wall`, or `none`.
    pub fn time_text(&self) -> String {
        let parts = self.time_parts();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    fn time_parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(t) = self.cpu_s {
            parts.push(format!("{t} s CPU"));
        }
        if let Some(t) = self.wall_s {
            parts.push(format!("{t} s wall"));
        }
        parts
    }

    /// The limits as the search takes them.
    pub fn search(&self) -> crate::search::Limits<'static> {
        crate::search::Limits {
            max_nodes: self.max_nodes,
            max_cpu: self.cpu_s.map(Duration::from_secs_f64),
            max_wall: self.wall_s.map(Duration::from_secs_f64),
            ..crate::search::Limits::default()
        }
    }

    /// The seconds PAR-2 charges twice for a job without an answer: the CPU limit, else the
    /// wall limit (a run limited by wall time only, as every run was before CPU limits).
    pub fn penalty_s(&self) -> Option<f64> {
        self.cpu_s.or(self.wall_s)
    }
}

/// The columns of runs.csv, in order (a test checks them against the header `Record`
/// serializes to).
pub(crate) const RUNS_HEADER: [&str; 30] = [
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
    "limit_clock",
    "repetition",
    "run",
    "pruning",
    "branching_factor",
    "bpmx_raises",
    "cost_model",
    "cost",
];

/// The columns every runs.csv has, the first of `RUNS_HEADER`: those after them came later, and
/// a file without them is read with the meaning their absence has (`absent_columns`).
const ALWAYS_THERE: usize = 22;

/// Gives `record`, read by `header`, what the columns its file lacks mean: a runs.csv from
/// before `limit_clock` limited wall time only, so its `time_limit` rows were stopped by it;
/// one from before `pruning` pruned reverse moves or nothing, as `reverse_pruning` says. The
/// other columns after `ALWAYS_THERE` take their serde defaults when absent: `repetition` 1,
/// `run` empty (the reader names the run), `branching_factor` empty (not recorded then) and
/// `bpmx_raises` 0 (no build before it had pathmax). One from before `cost_model` moved at unit
/// costs, so its solutions cost their length.
pub(crate) fn absent_columns<'a, S: From<&'a str> + AsRef<str>>(
    record: &mut Record<S>,
    header: &csv::StringRecord,
) {
    if record.status == Status::TimeLimit && !header.iter().any(|h| h == "limit_clock") {
        record.limit_clock = S::from(Clock::Wall.name());
    }
    if !header.iter().any(|h| h == "pruning") {
        let pruning = match record.reverse_pruning.as_ref() {
            "on" => Pruning::Reverse,
            _ => Pruning::None,
        };
        record.pruning = S::from(pruning.kind());
    }
    if !header.iter().any(|h| h == "cost_model") {
        record.cost_model = S::from(CostModel::Unit.name());
        record.cost = record.length.map(f64::from);
    }
}

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
    let missing: Vec<&str> = RUNS_HEADER[..ALWAYS_THERE]
        .iter()
        .copied()
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
                ALWAYS_THERE
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
        let mut record: Record<&str> = row
            .deserialize(Some(&headers))
            .map_err(|e| csv_error(path, Some(&headers), &e))?;
        absent_columns(&mut record, &headers);
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
            pruning: self.pruning.as_ref().to_owned(),
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
            limit_clock: self.limit_clock.as_ref().to_owned(),
            repetition: self.repetition,
            run: self.run.as_ref().to_owned(),
            branching_factor: self.branching_factor,
            bpmx_raises: self.bpmx_raises,
            cost_model: self.cost_model.as_ref().to_owned(),
            cost: self.cost,
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
pub(crate) fn unwritten<S: AsRef<str>>(record: &Record<S>) -> Option<String> {
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
    if let Some(b) = record
        .branching_factor
        .filter(|b| !b.is_finite() || *b < 0.0)
    {
        return fault(
            "branching_factor",
            "a finite number of at least 0, or empty",
            b,
        );
    }
    let clock = record.limit_clock.as_ref();
    match (record.status, clock) {
        (Status::TimeLimit, "") => {
            return Some(
                "column `limit_clock`: empty on a time_limit row: expected cpu or wall, the clock \
                 that stopped the job"
                    .to_owned(),
            )
        }
        (Status::TimeLimit, c) if Clock::parse(c).is_none() => {
            return Some(format!(
                "column `limit_clock`: expected cpu or wall, found `{}`",
                text::shorten(c)
            ))
        }
        (status, c) if status != Status::TimeLimit && !c.is_empty() => {
            return Some(format!(
                "column `limit_clock`: `{}` on a {status} row: expected it empty (it names the \
                 clock that stopped a time_limit row)",
                text::shorten(c)
            ))
        }
        _ => {}
    }
    let pruning = record.pruning.as_ref();
    let on = record.reverse_pruning.as_ref() == "on";
    let agrees = match pruning {
        "none" => !on,
        "reverse" | "fsm" => on,
        _ => {
            return Some(format!(
                "column `pruning`: expected none, reverse or fsm, found `{}`",
                text::shorten(pruning)
            ))
        }
    };
    if !agrees {
        return Some(format!(
            "column `pruning`: `{pruning}` with reverse_pruning `{}`: fsm and reverse prune \
             reverse moves (on), none does not (off)",
            text::shorten(record.reverse_pruning.as_ref())
        ));
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
    fn every_job_is_in_exactly_one_count_an_unstable_one_too() {
        let c = StatusCounts::of(Status::WRITTEN.into_iter().chain([Status::Unstable]));
        assert_eq!(c.jobs, 9);
        assert_eq!(c.values().iter().sum::<u64>(), c.jobs);
        assert_eq!((c.limited, c.unstable, c.solved), (2, 1, 1));
        assert_eq!(StatusCounts::NAMES[5], "unstable");
    }

    #[test]
    fn every_status_is_spelled_in_reports_as_it_is_named() {
        for status in Status::WRITTEN.into_iter().chain([Status::Cancelled]) {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.name()));
            assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), status);
        }
    }

    /// runs.csv rows as `parse_runs` reads them: `header` and one row of the fixture's record,
    /// its status and `limit_clock` replaced (`None`: a header without the column).
    fn read_row(header: &str, status: &str, clock: Option<&str>) -> Result<Vec<Record>, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(crate::results::fixtures::record()).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let names = r.headers().unwrap().clone();
        let values = r.records().next().unwrap().unwrap();
        let mut fields: HashMap<&str, String> =
            names.iter().zip(values.iter().map(str::to_owned)).collect();
        fields.insert("status", status.to_owned());
        fields.insert("limit_clock", clock.unwrap_or_default().to_owned());
        // The fixture's fields hold no comma or quote: joined as they are.
        let row: Vec<&str> = header.split(',').map(|c| fields[c].as_str()).collect();
        parse_runs(
            Path::new("runs.csv"),
            format!("{header}\n{}\n", row.join(",")).as_bytes(),
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn the_limit_clock_is_read_by_its_absence_too_and_checked() {
        let header = RUNS_HEADER.join(",");
        let before = RUNS_HEADER[..ALWAYS_THERE].join(",");
        let clock = |rows: Result<Vec<Record>, String>| rows.unwrap()[0].limit_clock.clone();
        assert_eq!(clock(read_row(&header, "time_limit", Some("cpu"))), "cpu");
        assert_eq!(clock(read_row(&header, "solved", Some(""))), "");
        // A file from before the column: its time limits were wall time.
        assert_eq!(clock(read_row(&before, "time_limit", None)), "wall");
        assert_eq!(clock(read_row(&before, "node_limit", None)), "");
        for (status, value, says) in [
            (
                "time_limit",
                "fast",
                "column `limit_clock`: expected cpu or wall, found `fast`",
            ),
            (
                "time_limit",
                "",
                "column `limit_clock`: empty on a time_limit row",
            ),
            (
                "solved",
                "wall",
                "column `limit_clock`: `wall` on a solved row: expected it empty",
            ),
        ] {
            let e = read_row(&header, status, Some(value)).unwrap_err();
            assert!(e.starts_with("runs.csv:2: ") && e.contains(says), "{e}");
        }
    }

    /// A row with `reverse_pruning` and `pruning` set, under `header`.
    fn pruning_row(header: &str, on: &str, pruning: &str) -> Result<Record, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(crate::results::fixtures::record()).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let names = r.headers().unwrap().clone();
        let values = r.records().next().unwrap().unwrap();
        let mut fields: HashMap<&str, String> =
            names.iter().zip(values.iter().map(str::to_owned)).collect();
        fields.insert("reverse_pruning", on.to_owned());
        fields.insert("pruning", pruning.to_owned());
        let row: Vec<&str> = header.split(',').map(|c| fields[c].as_str()).collect();
        parse_runs(
            Path::new("runs.csv"),
            format!("{header}\n{}\n", row.join(",")).as_bytes(),
        )
        .map(|mut rows| rows.remove(0))
        .map_err(|e| e.to_string())
    }

    /// A runs.csv from before `pruning` (without `run` and `repetition` too, or with them)
    /// reads it from `reverse_pruning`; a written one must be a kind that agrees with it.
    #[test]
    fn the_pruning_is_read_by_its_absence_too_and_checked() {
        let header = RUNS_HEADER.join(",");
        let pruning = RUNS_HEADER.iter().position(|&c| c == "pruning").unwrap();
        for before in [
            RUNS_HEADER[..ALWAYS_THERE].join(","),
            RUNS_HEADER[..pruning].join(","),
        ] {
            for (on, kind) in [("on", "reverse"), ("off", "none")] {
                let r = pruning_row(&before, on, "").unwrap();
                assert_eq!((r.reverse_pruning.as_str(), r.pruning.as_str()), (on, kind));
            }
        }
        for (on, kind) in [("on", "reverse"), ("off", "none"), ("on", "fsm")] {
            assert_eq!(pruning_row(&header, on, kind).unwrap().pruning, kind);
        }
        for (on, kind, says) in [
            (
                "on",
                "",
                "column `pruning`: expected none, reverse or fsm, found ``",
            ),
            (
                "on",
                "fsm14",
                "expected none, reverse or fsm, found `fsm14`",
            ),
            ("off", "fsm", "`fsm` with reverse_pruning `off`"),
            ("off", "reverse", "`reverse` with reverse_pruning `off`"),
            ("on", "none", "`none` with reverse_pruning `on`"),
        ] {
            let e = pruning_row(&header, on, kind).unwrap_err();
            assert!(e.starts_with("runs.csv:2: ") && e.contains(says), "{e}");
        }
    }

    /// The automata a run used are said with its memory, and a manifest without them (older,
    /// or of a run without fsm variants) reads back with none and says nothing of them.
    #[test]
    fn the_automata_are_in_the_memory_text_and_absent_from_older_manifests() {
        let mut m = crate::results::fixtures::manifest();
        m.peak_resident_bytes = Some(2048);
        assert_eq!(m.memory_text().unwrap(), "2 KiB at the peak (resident)");
        let json = serde_json::to_string(&m).unwrap();
        assert!(!json.contains("automata"), "{json}");
        m.automata.push(AutomatonInfo {
            domain: "tiles".into(),
            window: Some((4, 4)),
            depth: 14,
            built_depth: 14,
            states: 5,
            labels: 4,
            bytes: 80,
            build_s: 0.25,
            source: "built".into(),
            read_s: None,
            file: None,
        });
        assert_eq!(
            m.memory_text().unwrap(),
            "2 KiB at the peak (resident); automata: fsm14 on tiles 4x4 (4 moves): 5 states, 80 B, \
             built in 0.250 s"
        );
        let back: Manifest = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back.automata, m.automata);
        // One read from the cache says so; a manifest from before `source` reads as built.
        m.automata[0].source = "read".into();
        m.automata[0].read_s = Some(0.004);
        assert!(m.memory_text().unwrap().ends_with("80 B, read in 0.004 s"));
        let old = r#"{"domain":"tiles","depth":14,"built_depth":14,"states":5,"labels":4,"bytes":80,"build_s":0.25}"#;
        let old: AutomatonInfo = serde_json::from_str(old).unwrap();
        assert_eq!((old.source.as_str(), old.read_s), ("built", None));
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
            pruning: "none".into(),
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
            limit_clock: String::new(),
            repetition: 1,
            run: "2026-11-26T07-00-00Z".into(),
            branching_factor: None,
            bpmx_raises: 0,
            cost_model: "unit".into(),
            cost: None,
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
            branching_factor: Some(2.1304),
            bpmx_raises: 17,
            ..plain.clone()
        };
        let limited = Record {
            status: Status::TimeLimit,
            limit_clock: "cpu".into(),
            ..plain.clone()
        };
        let mut records = vec![plain.clone(), odd, limited];
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
                branching_factor: Some(x),
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
