//! The jobs of `run`, `ab`, `worker` and `slurm`, planned one way from one options type: the
//! datasets read and checked, the instances selected, the variants multiplied out, the jobs in
//! their deterministic order (a heuristic only on the boards it fits), and a shard's share of
//! them; and the options as the command-line words that plan them again.

use crate::dataset::Instance;
use crate::dataset::{self, Dataset};
use crate::domains::cost::CostModel;
use crate::domains::{DomainKind, HeuristicKind, PrepareError, Spec};
use crate::error::Error;
use crate::results::record::{on_off, DatasetInfo, PuzzleInfo, RunLimits, Selection};
use crate::results::shard::{self, Shard};
use crate::runner::job::Job;
use crate::runner::select::{self, SelectOptions};
use crate::runner::RunnerError;
use crate::search::{Pruning, Step};
use crate::util::term::note;
use crate::util::text::shorten;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
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
    /// `--memory-limit`, in bytes: tables that would not fit are refused before any is read.
    pub memory_limit: Option<u64>,
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
    /// Move costs (`--cost`).
    pub costs: Vec<CostModel>,
    /// The prunings (`--pruning`, or `--reverse-pruning` on and off as reverse and none).
    pub pruning: Vec<Pruning>,
    /// Generated nodes after which a job stops.
    pub max_nodes: Option<u64>,
    /// CPU seconds after which a job stops (`--time-limit`).
    pub time_limit: Option<f64>,
    /// Wall seconds after which a job stops (`--wall-limit`).
    pub wall_limit: Option<f64>,
    pub tables: TableOptions,
    /// Which instances of the datasets run.
    pub select: SelectOptions,
    /// How many times each job runs (`run --repeat`), at least 1.
    pub repeat: u32,
}

impl PlanOptions {
    /// The per-job limits, each time limit with its clock.
    pub fn limits(&self) -> RunLimits {
        RunLimits {
            max_nodes: self.max_nodes,
            cpu_s: self.time_limit,
            wall_s: self.wall_limit,
        }
    }

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
        let steps: Vec<_> = self.steps.iter().map(|s| s.name()).collect();
        flag("--step", steps.join(","));
        // Unit costs alone in the words every build takes.
        if self.costs.iter().any(|c| !c.is_unit()) {
            let costs: Vec<&str> = self.costs.iter().map(|c| c.name()).collect();
            flag("--cost", costs.join(","));
        }
        // Without an automaton, in the words every build since reverse-move pruning takes (`ab`
        // plans a build from before `--pruning` with them).
        if self.pruning.iter().any(|p| p.is_fsm()) {
            let pruning: Vec<String> = self.pruning.iter().map(|p| p.name()).collect();
            flag("--pruning", pruning.join(","));
        } else {
            let pruning: Vec<&str> = self
                .pruning
                .iter()
                .map(|&p| on_off(p.reverse_moves()))
                .collect();
            flag("--reverse-pruning", pruning.join(","));
        }
        if let Some(n) = self.max_nodes {
            flag("--max-nodes", n.to_string());
        }
        if let Some(t) = self.time_limit {
            flag("--time-limit", t.to_string());
        }
        if let Some(t) = self.wall_limit {
            flag("--wall-limit", t.to_string());
        }
        if let Some(bytes) = self.tables.memory_limit {
            flag("--memory-limit", bytes.to_string());
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
        words.extend(self.select.words());
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
    /// The domains `specs[k]` runs on, where its automaton is only some domains' default
    /// (`variants`); `None`: every domain it applies to.
    only: Vec<Option<Vec<DomainKind>>>,
    /// The domains `fsm` without a depth runs on, each at its own default depth (`variants`):
    /// in the selected instances, and in every instance of the datasets.
    fsm_defaults: [Vec<DomainKind>; 2],
    /// Whether heuristics were asked for (else each domain runs its default).
    requested: bool,
    /// Of each instance, in the datasets' order, whether the selection keeps it (`None`: all).
    keep: Option<Vec<bool>>,
    /// What the manifest records of the selection.
    pub selection: Selection,
}

impl Loaded {
    /// Reads and checks every dataset of `opts`, selects its instances and multiplies out the
    /// variants.
    pub fn read(opts: &PlanOptions) -> Result<Loaded, Error> {
        let fsm = opts.pruning.iter().find(|p| p.is_fsm());
        if let (Some(fsm), Some(cost)) = (fsm, opts.costs.iter().find(|c| !c.is_unit())) {
            return Err(RunnerError::Refused(format!(
                "--pruning {} needs --cost unit: an automaton prunes a move sequence for an \
                 equally long one, which under --cost {} may cost more",
                fsm.name(),
                cost.name()
            ))
            .into());
        }
        let (datasets, infos) = read_datasets(&opts.datasets)?;
        let chosen = select::choose(&opts.select, &datasets)?;
        let (chosen_variants, fsm_selected) = variants(opts, &chosen.domains);
        let (specs, only): (Vec<Spec>, Vec<_>) = chosen_variants.into_iter().unzip();
        let every: Vec<DomainKind> = DomainKind::ALL
            .into_iter()
            .filter(|k| datasets.iter().any(|d| d.domains.contains(k)))
            .collect();
        let fsm_defaults = [fsm_selected, variants(opts, &every).1];
        let names = specs.iter().map(Spec::name).collect();
        Ok(Loaded {
            datasets,
            infos,
            specs,
            names,
            only,
            fsm_defaults,
            requested: !opts.heuristics.is_empty(),
            keep: chosen.keep,
            selection: chosen.selection,
        })
    }

    /// The domains `fsm` without a depth runs on here, each at its own default depth
    /// (`DomainKind::fsm_depth`): those of the selected instances, or with `whole` those of every
    /// instance of the datasets (what a plan without the selection runs).
    pub fn fsm_defaults(&self, whole: bool) -> &[DomainKind] {
        &self.fsm_defaults[usize::from(whole)]
    }

    /// The jobs of the selected instances, in their deterministic order: each instance under
    /// every variant whose heuristic its domain has and fits its board and goal. A variant left
    /// with no job is an error. Unless `quiet`, notes say how many were skipped, and why: one
    /// line per heuristic and dataset for the boards it does not fit.
    pub fn plan(&self, quiet: bool) -> Result<Plan<'_>, Error> {
        let Loaded {
            datasets,
            specs,
            names,
            only,
            requested,
            keep,
            ..
        } = self;
        let requested = *requested;
        // Sized up front: growing by doubling would copy every job planned so far.
        let most = datasets.iter().map(|d| d.instances.len()).sum::<usize>() * specs.len();
        let mut jobs = Vec::with_capacity(most);
        let mut places = Vec::with_capacity(most);
        let mut other_domain = 0u64;
        let mut fits = Fits::new(specs.len());
        let mut per_variant = vec![0usize; specs.len()];
        let instances = datasets
            .iter()
            .flat_map(|d| d.instances.iter().map(move |i| (d, i)));
        for (instance_no, (d, instance)) in instances.enumerate() {
            if keep.as_ref().is_some_and(|k| !k[instance_no]) {
                continue;
            }
            for (variant_no, (spec, variant)) in specs.iter().zip(names).enumerate() {
                if !runs_under(instance.domain, spec.heuristic, requested) {
                    other_domain += 1;
                } else if only[variant_no]
                    .as_ref()
                    .is_some_and(|o| !o.contains(&instance.domain))
                {
                    // Another domain's default automaton: this one's has a variant of its own.
                } else if fits.fit(d, instance, instance_no, variant_no, spec) {
                    per_variant[variant_no] += 1;
                    jobs.push(Job {
                        index: jobs.len(),
                        dataset: d,
                        instance,
                        spec: *spec,
                        variant,
                        run: "",
                        repetition: 1,
                    });
                    places.push((instance_no, variant_no));
                }
            }
        }
        if let Some(k) = per_variant.iter().position(|&n| n == 0) {
            return Err(RunnerError::Refused(fits.no_job(&names[k], &specs[k])).into());
        }
        if !quiet && requested {
            if other_domain > 0 {
                note(format_args!("note: {other_domain} instance x variant pair(s) skipped: the heuristic does not apply to the instance's domain"));
            }
            for u in &fits.unfit {
                note(format_args!(
                    "note: heuristic {}{} skipped on {} instance(s) of dataset {}: it does not fit their board or goal ({})",
                    u.heuristic.name(),
                    under(u.cost),
                    u.instances,
                    shorten(&u.dataset.name),
                    u.first
                ));
            }
        }
        Ok(Plan { jobs, places })
    }
}

/// Which heuristics fit which boards and goals, each asked once, and the instances a heuristic
/// is skipped on for want of a fit, by dataset.
struct Fits<'a> {
    /// By the puzzle's family (board and goal), heuristic and cost model.
    known: HashMap<(usize, HeuristicKind, CostModel), bool>,
    /// Of each variant, the family last asked and the answer: consecutive instances mostly share
    /// one, and a lookup per job would cost more than the rest of planning it.
    last: Vec<Option<(usize, bool)>>,
    unfit: Vec<Unfit<'a>>,
}

/// The instances of one dataset that one heuristic, under one cost model, does not fit.
struct Unfit<'a> {
    dataset: &'a Dataset,
    heuristic: HeuristicKind,
    cost: CostModel,
    instances: u64,
    /// The last instance counted (its place in the run), so that each counts once whatever the
    /// number of variants of the heuristic.
    last: usize,
    /// The first such instance's place, and why.
    first: String,
}

impl<'a> Fits<'a> {
    fn new(variants: usize) -> Fits<'a> {
        Fits {
            known: HashMap::new(),
            last: vec![None; variants],
            unfit: Vec::new(),
        }
    }

    /// Whether the heuristic of `spec`, variant `variant_no`, fits the board and goal of
    /// `instance`, the `instance_no`-th of the run, of dataset `d`, under the variant's move
    /// costs; the instance is counted when it does not.
    fn fit(
        &mut self,
        d: &'a Dataset,
        instance: &Instance,
        instance_no: usize,
        variant_no: usize,
        spec: &Spec,
    ) -> bool {
        let (h, cost) = (spec.heuristic, spec.cost);
        let unfit = |i: &Instance| match i.puzzle.prepare(h, None) {
            Err(PrepareError::Unfit(why)) => Some(why),
            _ => i.puzzle.weighs(h, cost).err(),
        };
        let family = instance.puzzle.family_id();
        let fits = match self.last[variant_no] {
            Some((f, fits)) if f == family => fits,
            _ => {
                let fits = *self
                    .known
                    .entry((family, h, cost))
                    .or_insert_with(|| unfit(instance).is_none());
                self.last[variant_no] = Some((family, fits));
                fits
            }
        };
        if fits {
            return true;
        }
        let same =
            |u: &&mut Unfit| std::ptr::eq(u.dataset, d) && u.heuristic == h && u.cost == cost;
        match self.unfit.iter_mut().find(same) {
            Some(u) if u.last == instance_no => {}
            Some(u) => {
                u.instances += 1;
                u.last = instance_no;
            }
            None => self.unfit.push(Unfit {
                dataset: d,
                heuristic: h,
                cost,
                instances: 1,
                last: instance_no,
                first: format!(
                    "{}: {}",
                    instance_place(d, instance),
                    unfit(instance).unwrap_or_default()
                ),
            }),
        }
        false
    }

    /// Why `variant`, of `spec`, has no job.
    fn no_job(&self, variant: &str, spec: &Spec) -> String {
        let (h, cost) = (spec.heuristic, spec.cost);
        if let Some(u) = self
            .unfit
            .iter()
            .find(|u| u.heuristic == h && u.cost == cost)
        {
            return format!(
                "variant {variant} has no job: heuristic {}{} fits none of the selected instances of its domains ({})",
                h.name(),
                under(cost),
                u.first
            );
        }
        let domains: Vec<&str> = DomainKind::ALL
            .iter()
            .filter(|d| d.accepts(h))
            .map(|d| d.name())
            .collect();
        format!(
            "variant {variant} has no job: heuristic {} is for {}, and none of the selected instances is",
            h.name(),
            domains.join(" and ")
        )
    }
}

/// The SHA-256 of `bytes`, in lowercase hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    crate::util::format::hex(&Sha256::digest(bytes))
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
            sha256: sha256_hex(&bytes),
            instances: d.instances.len(),
            puzzles: d
                .puzzles
                .iter()
                .map(|(path, sha256)| PuzzleInfo {
                    path: path.clone(),
                    sha256: sha256.clone(),
                })
                .collect(),
        });
        datasets.push(d);
    }
    Ok((datasets, infos))
}

/// A variant and the domains it is restricted to (`None`: every domain it applies to).
type Restricted = (Spec, Option<Vec<DomainKind>>);

/// Every combination of the requested heuristics (default: the default of each of `domains`,
/// those of the selected instances), steps and pruning settings, in that nesting, each with the
/// domains it is restricted to. `fsm` without a depth is each domain's own
/// (`DomainKind::fsm_depth`): one variant per depth among the domains of `domains` that have the
/// heuristic, restricted to those domains, so that `--pruning fsm` runs `fsm14` on the tiles and
/// `fsm8` on the Rotation Game; the domains it runs on come second.
fn variants(opts: &PlanOptions, domains: &[DomainKind]) -> (Vec<Restricted>, Vec<DomainKind>) {
    let mut heuristics = opts.heuristics.clone();
    if heuristics.is_empty() {
        for kind in domains {
            let default = kind.default_heuristic();
            if !heuristics.contains(&default) {
                heuristics.push(default);
            }
        }
    }
    let mut specs: Vec<Restricted> = Vec::new();
    let mut add = |spec: Spec, only: Option<Vec<DomainKind>>| match specs
        .iter_mut()
        .find(|(s, _)| *s == spec)
    {
        None => specs.push((spec, only)),
        Some((_, have)) => match (have.as_mut(), only) {
            (Some(have), Some(only)) => {
                for d in only {
                    if !have.contains(&d) {
                        have.push(d);
                    }
                }
            }
            (Some(_), None) => *have = None,
            (None, _) => {}
        },
    };
    let requested = !opts.heuristics.is_empty();
    let mut fsm_defaults: Vec<DomainKind> = Vec::new();
    for &heuristic in &heuristics {
        let mut having: Vec<DomainKind> = domains
            .iter()
            .copied()
            .filter(|&d| runs_under(d, heuristic, requested))
            .collect();
        if having.is_empty() {
            // No selected instance has it: the variant is refused for want of jobs, under the
            // name its domains give it.
            having = DomainKind::ALL
                .into_iter()
                .filter(|d| d.accepts(heuristic))
                .collect();
        }
        for &step in &opts.steps {
            for &pruning in &opts.pruning {
                if pruning != Pruning::FsmDefault {
                    for &cost in &opts.costs {
                        add(
                            Spec {
                                heuristic,
                                step,
                                pruning,
                                cost,
                            },
                            None,
                        );
                    }
                    continue;
                }
                let mut depths: Vec<u32> = Vec::new();
                for d in &having {
                    if !depths.contains(&d.fsm_depth()) {
                        depths.push(d.fsm_depth());
                    }
                    if !fsm_defaults.contains(d) {
                        fsm_defaults.push(*d);
                    }
                }
                for depth in depths {
                    let only: Vec<DomainKind> = having
                        .iter()
                        .copied()
                        .filter(|d| d.fsm_depth() == depth)
                        .collect();
                    for &cost in &opts.costs {
                        add(
                            Spec {
                                heuristic,
                                step,
                                pruning: Pruning::Fsm(depth),
                                cost,
                            },
                            Some(only.clone()),
                        );
                    }
                }
            }
        }
    }
    (specs, fsm_defaults)
}

/// ` under --cost C` for weighted moves, else nothing.
fn under(cost: CostModel) -> String {
    if cost.is_unit() {
        String::new()
    } else {
        format!(" under --cost {}", cost.name())
    }
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
    instance_place(job.dataset, job.instance)
}

/// Where `instance` of `d` is, for a message: `file:line: instance 'id'`.
fn instance_place(d: &Dataset, instance: &Instance) -> String {
    format!(
        "{}:{}: instance '{}'",
        d.path.display(),
        instance.line,
        shorten(&instance.id)
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
