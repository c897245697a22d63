//! The jobs of `run`, `ab`, `worker` and `slurm`, planned one way from one options type: the
//! datasets read and checked, the variants multiplied out, the jobs in their deterministic order
//! (and a shard's share of them); and the options as the command-line words that plan them again.

use crate::dataset::{self, Dataset};
use crate::domains::{DomainKind, HeuristicKind, Spec};
use crate::error::Error;
use crate::results::record::DatasetInfo;
use crate::results::shard::{self, Shard};
use crate::runner::job::Job;
use crate::runner::RunnerError;
use crate::search::Step;
use crate::util::term::note;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Where pattern databases come from.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    /// The cache directory (default: `tables::store::default_dir`).
    pub pdb_dir: Option<PathBuf>,
    /// Refuse to build a missing or damaged database.
    pub no_build: bool,
    /// Set by a signal asking the command to end: stops a database being built.
    pub stop: Option<&'static AtomicBool>,
}

/// What a run's jobs are: the datasets, the variants and the per-job limits.
#[derive(Clone, Debug)]
pub struct PlanOptions {
    /// Dataset CSV files.
    pub datasets: Vec<PathBuf>,
    /// The heuristics asked for; none means each domain's default.
    pub heuristics: Vec<HeuristicKind>,
    /// Threshold steps.
    pub steps: Vec<Step>,
    /// Reverse-move pruning settings (on is true).
    pub pruning: Vec<bool>,
    /// Generated nodes after which a job stops.
    pub max_nodes: Option<u64>,
    /// Seconds after which a job stops.
    pub time_limit: Option<f64>,
    pub tables: TableOptions,
    /// How many times each job runs (`run --repeat`), at least 1.
    pub repeat: u32,
}

impl PlanOptions {
    /// The flags that choose the variants, limits and tables, as `run` and `worker` take them:
    /// what another build's process or a shard's script is given to plan the same jobs.
    pub fn words(&self) -> Vec<OsString> {
        let mut words: Vec<OsString> = Vec::new();
        let mut flag = |name: &str, value: String| {
            words.push(name.into());
            words.push(value.into());
        };
        if !self.heuristics.is_empty() {
            let names: Vec<&str> = self.heuristics.iter().map(|h| h.name()).collect();
            flag("--heuristic", names.join(","));
        }
        let steps: Vec<&str> = self.steps.iter().map(|s| s.name()).collect();
        flag("--step", steps.join(","));
        let pruning: Vec<&str> = self
            .pruning
            .iter()
            .map(|&p| if p { "on" } else { "off" })
            .collect();
        flag("--reverse-pruning", pruning.join(","));
        if let Some(n) = self.max_nodes {
            flag("--max-nodes", n.to_string());
        }
        if let Some(t) = self.time_limit {
            flag("--time-limit", t.to_string());
        }
        // Only `run` takes it (`ab` measures in rounds of its own): left out when 1.
        if self.repeat > 1 {
            flag("--repeat", self.repeat.to_string());
        }
        if let Some(dir) = &self.tables.pdb_dir {
            // One word: a directory whose name starts with '-' is not taken for a flag.
            let mut word = OsString::from("--pdb-dir=");
            word.push(dir);
            words.push(word);
        }
        if self.tables.no_build {
            words.push("--no-build".into());
        }
        words
    }

    /// The whole plan as `run` and `worker` take it: `words`, then the datasets after `--`, so
    /// that a dataset whose path starts with '-' is not taken for a flag.
    pub fn args(&self) -> Vec<OsString> {
        let mut args = self.words();
        args.push("--".into());
        args.extend(self.datasets.iter().map(OsString::from));
        args
    }
}

/// The datasets of a plan, read and checked, with its variants: what the jobs borrow.
pub struct Loaded {
    pub datasets: Vec<Dataset>,
    /// What the manifest records of each dataset.
    pub infos: Vec<DatasetInfo>,
    pub specs: Vec<Spec>,
    /// `names[k]` is `specs[k].name()`.
    pub names: Vec<String>,
    /// Whether heuristics were asked for (else each domain runs its default).
    requested: bool,
}

impl Loaded {
    /// Reads and checks every dataset of `opts` and multiplies out its variants.
    pub fn read(opts: &PlanOptions) -> Result<Loaded, Error> {
        let (datasets, infos) = read_datasets(&opts.datasets)?;
        let specs = variants(opts, &datasets);
        let names = specs.iter().map(Spec::name).collect();
        Ok(Loaded {
            datasets,
            infos,
            specs,
            names,
            requested: !opts.heuristics.is_empty(),
        })
    }

    /// The jobs, in their deterministic order; an error when there is none. Unless `quiet`, a
    /// note says how many instance x variant pairs do not apply.
    pub fn plan(&self, quiet: bool) -> Result<Plan<'_>, Error> {
        let Loaded {
            datasets,
            specs,
            names,
            requested,
            ..
        } = self;
        let requested = *requested;
        // Sized up front: growing by doubling would copy every job planned so far.
        let most = datasets.iter().map(|d| d.instances.len()).sum::<usize>() * specs.len();
        let mut jobs = Vec::with_capacity(most);
        let mut places = Vec::with_capacity(most);
        let mut skipped = 0u64;
        let instances = datasets
            .iter()
            .flat_map(|d| d.instances.iter().map(move |i| (d, i)));
        for (instance_no, (d, instance)) in instances.enumerate() {
            for (variant_no, (spec, variant)) in specs.iter().zip(names).enumerate() {
                if runs_under(instance.domain, spec.heuristic, requested) {
                    jobs.push(Job {
                        index: jobs.len(),
                        dataset: d,
                        instance,
                        spec: *spec,
                        variant,
                        repetition: 1,
                    });
                    places.push((instance_no, variant_no));
                } else {
                    skipped += 1;
                }
            }
        }
        if jobs.is_empty() {
            return Err(RunnerError::Refused(
                "no job to run: no requested heuristic applies to the datasets' domains".into(),
            )
            .into());
        }
        if skipped > 0 && !quiet && requested {
            note(format_args!("note: {skipped} instance x variant pair(s) skipped: the heuristic does not apply to the instance's domain"));
        }
        Ok(Plan { jobs, places })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads and checks every dataset, with what the manifest records of each.
fn read_datasets(paths: &[PathBuf]) -> Result<(Vec<Dataset>, Vec<DatasetInfo>), Error> {
    let mut datasets: Vec<Dataset> = Vec::new();
    let mut infos = Vec::new();
    for path in paths {
        let bytes = dataset::read(path)?;
        let d = dataset::parse(path, &bytes)?;
        if let Some(other) = datasets.iter().find(|o| o.name == d.name) {
            return Err(RunnerError::Refused(format!(
                "{} and {} have the same name '{}': reports key jobs by dataset name",
                other.path.display(),
                path.display(),
                d.name
            ))
            .into());
        }
        infos.push(DatasetInfo {
            path: path.display().to_string(),
            name: d.name.clone(),
            sha256: hex(&Sha256::digest(&bytes)),
            instances: d.instances.len(),
        });
        datasets.push(d);
    }
    Ok((datasets, infos))
}

/// Every combination of the requested heuristics (default: the default of each domain in the
/// datasets), steps and pruning settings, in that nesting.
fn variants(opts: &PlanOptions, datasets: &[Dataset]) -> Vec<Spec> {
    let mut heuristics = opts.heuristics.clone();
    if heuristics.is_empty() {
        for kind in DomainKind::ALL {
            let default = kind.default_heuristic();
            let present = datasets.iter().any(|d| d.domains.contains(&kind));
            if present && !heuristics.contains(&default) {
                heuristics.push(default);
            }
        }
    }
    let mut specs = Vec::new();
    for &heuristic in &heuristics {
        for &step in &opts.steps {
            for &reverse_pruning in &opts.pruning {
                let spec = Spec {
                    heuristic,
                    step,
                    reverse_pruning,
                };
                if !specs.contains(&spec) {
                    specs.push(spec);
                }
            }
        }
    }
    specs
}

/// Whether an instance of `domain` runs under `heuristic`: any heuristic of the domain when
/// heuristics were requested, else only the domain's default (knights' default `misplaced` is
/// also a tiles heuristic, but a run without `--heuristic` must not run it on tiles).
fn runs_under(domain: DomainKind, heuristic: HeuristicKind, requested: bool) -> bool {
    if requested {
        domain.accepts(heuristic)
    } else {
        domain.default_heuristic() == heuristic
    }
}

/// The run's jobs.
pub struct Plan<'a> {
    /// In their deterministic order: repetition (round), dataset, instance, variant.
    pub jobs: Vec<Job<'a>>,
    /// Of each job, the place of its instance among all the datasets' and of its variant among
    /// the run's: what the summaries group by.
    pub places: Vec<(usize, usize)>,
}

impl<'a> Plan<'a> {
    /// Every job `repeat` times, in rounds: the jobs of repetition 1 in their order, then those
    /// of repetition 2, and so on; a job's repetitions lie its plan's length apart.
    pub fn repeated(self, repeat: u32) -> Plan<'a> {
        if repeat <= 1 {
            return self;
        }
        let n = self.jobs.len();
        let mut jobs = Vec::with_capacity(n * repeat as usize);
        for repetition in 1..=repeat {
            let round = (repetition as usize - 1) * n;
            jobs.extend(self.jobs.iter().map(|j| Job {
                index: round + j.index,
                repetition,
                ..*j
            }));
        }
        let places = self.places.repeat(repeat as usize);
        Plan { jobs, places }
    }
}

/// Where a job's instance is, for a message: `file:line: instance 'id'`.
pub fn place(job: &Job<'_>) -> String {
    format!(
        "{}:{}: instance '{}'",
        job.dataset.path.display(),
        job.instance.line,
        crate::util::text::shorten(&job.instance.id)
    )
}

/// What a shard keeps of the whole run's plan.
pub struct Share {
    pub shard: Shard,
    /// Of each of the shard's jobs, its index in the whole run's order.
    pub places: Vec<usize>,
}

impl Share {
    /// The share of the whole run with every job `repeat` times, as `Plan::repeated` orders
    /// them: the shard keeps every repetition of its jobs.
    pub fn repeated(self, repeat: u32) -> Share {
        let whole = self.shard.all_jobs;
        let places = (0..repeat as usize)
            .flat_map(|round| self.places.iter().map(move |&p| round * whole + p))
            .collect();
        let shard = Shard {
            all_jobs: whole * repeat as usize,
            ..self.shard
        };
        Share { shard, places }
    }
}

/// Shard `index` of `count` of `plan`: its jobs (see `shard::assign`), renumbered in the whole
/// run's order, which they keep.
pub fn take_shard(plan: Plan<'_>, index: u32, count: u32) -> (Plan<'_>, Share) {
    let keys: Vec<(&str, &str, &str)> = plan
        .jobs
        .iter()
        .map(|j| (j.dataset.name.as_str(), j.instance.id.as_str(), j.variant))
        .collect();
    let owner = shard::assign(&keys, count);
    let all_jobs = plan.jobs.len();
    let mut mine = Plan {
        jobs: Vec::new(),
        places: Vec::new(),
    };
    let mut places = Vec::new();
    for ((job, place), owner) in plan.jobs.into_iter().zip(plan.places).zip(owner) {
        if owner == index {
            places.push(job.index);
            mine.jobs.push(Job {
                index: mine.jobs.len(),
                ..job
            });
            mine.places.push(place);
        }
    }
    let shard = Shard {
        index,
        count,
        all_jobs,
    };
    (mine, Share { shard, places })
}
