//! `idabench ab`: two builds run on the same jobs, paired and interleaved in time, then judged
//! as `compare` judges two runs (`compare::paired`), and the report folder of it.
//!
//! Each build answers through worker processes (`idabench worker`, spoken to by `client`) that
//! live for a round, so a job costs a line on a pipe rather than a process start. The schedule
//! (`schedule`): in each round, every job is run by one build and then at once by the other, the
//! build that goes first alternating from job to job and, for one job, from round to round;
//! lanes do this side by side, each with its own two workers, started afresh for each round.
//! A baseline built before the worker mode is run, with the current build, as alternating
//! `idabench run` invocations over small groups of instances instead (`legacy`). The processes
//! `ab` starts, and how it stops them, are `children`'s; the report folder is `report`'s.

mod children;
mod client;
mod legacy;
mod report;
mod schedule;

use crate::compare::{self, CompareError, CompareOptions, Compared, Incomplete, RenderFormat};
use crate::domains::DomainKind;
use crate::error::{Done, Error};
use crate::report::PlotSize;
use crate::results::folder;
use crate::runner::machine;
use crate::runner::plan::{place, Loaded, PlanOptions};
use crate::runner::prepare;
use crate::runner::protocol;
use crate::runner::select::SelectOptions;
use crate::search::{Clock, Pruning, Step};
use crate::util::clock;
use crate::util::term::note;
use children::install_signal_handler;
use client::{Started, Terms, Worker};
use legacy::{by_runs, GROUP};
use report::{typical, write_pages, write_report, AbManifest};
use schedule::{by_round, by_workers, Pair};
use serde::Serialize;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Why `ab` stopped; error.rs gives each its exit class.
#[derive(Debug, thiserror::Error)]
pub enum AbError {
    /// What `ab` was given cannot be measured: a binary that cannot be run, is not idabench or
    /// does not answer as a worker should, or a report folder that exists.
    #[error("{0}")]
    Refused(String),
    /// A worker or a run that failed, or the machine.
    #[error("{0}")]
    Failed(String),
}

fn refused(message: impl Into<String>) -> Error {
    AbError::Refused(message.into()).into()
}

fn failed(message: impl Into<String>) -> Error {
    AbError::Failed(message.into()).into()
}

/// What `ab` is asked: the two builds, the jobs, the rounds and how to judge them.
#[derive(Clone, Debug)]
pub struct AbOptions {
    /// The baseline build's binary.
    pub baseline: PathBuf,
    /// The current build's binary (default: this one).
    pub current: Option<PathBuf>,
    pub plan: PlanOptions,
    pub rounds: u32,
    /// The ratio the whole overall interval must exceed for `regressed`.
    pub threshold: f64,
    /// Pairs measured at a time, each lane with its own two workers.
    pub lanes: u16,
    pub format: RenderFormat,
    pub allow_node_changes: bool,
    /// Where the report folder goes, and its name (default: `ab-<UTC timestamp>`).
    pub out: PathBuf,
    pub name: Option<String>,
    pub quiet: bool,
    /// The size of the report's pictures.
    pub plot_size: PlotSize,
}

/// Set by Ctrl-C, SIGTERM or SIGHUP: no new pair is started.
static CANCEL: AtomicBool = AtomicBool::new(false);

/// Which of the two builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Baseline,
    Current,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Baseline => "baseline",
            Role::Current => "current",
        }
    }
}

/// Runs `idabench ab`: the comparison goes to `stdout`, notes and progress to stderr. Stopped
/// by a signal or by a worker that failed, it still writes the report of the pairs measured,
/// marked incomplete, then exits 130 or with the failure's error.
pub fn ab(opts: &AbOptions, stdout: &mut dyn Write) -> Result<Done, Error> {
    // First, so that a signal at any later point stops the workers rather than orphaning them.
    install_signal_handler();
    if !opts.threshold.is_finite() || opts.threshold < 1.0 {
        return Err(CompareError::BadThreshold(opts.threshold).into());
    }
    let start_time = clock::rfc3339_now();
    let current = match &opts.current {
        Some(path) => path.clone(),
        None => {
            std::env::current_exe().map_err(|e| failed(format!("cannot find this binary: {e}")))?
        }
    };
    let options = &opts.plan;
    let loaded = Loaded::read(options)?;
    let jobs = loaded.plan(opts.quiet)?.jobs;
    // The tables of the selected jobs alone, checked once for both builds: a build that plans
    // whole datasets (below) would count those of boards not selected.
    prepare::check(
        jobs.iter().map(|j| (&j.instance.puzzle, j.spec)),
        |i| Some(place(&jobs[i])),
        &options.tables,
    )?;
    // A worker whose handshake says it takes a selection plans the selected instances alone
    // (the ids file pinned by its SHA-256, as a Slurm task's). Any other build plans every
    // instance, without --memory-limit, and is sent only the selected jobs; the fallback's
    // groups hold only the selected instances: a baseline built before selections reached the
    // workers is still compared.
    let mut selected = options.clone();
    selected.select.instances_sha256 = loaded
        .selection
        .instances_file
        .as_ref()
        .map(|f| f.sha256.clone());
    let mut whole = PlanOptions {
        select: SelectOptions::default(),
        ..options.clone()
    };
    if !selected.select.is_empty() {
        whole.tables.memory_limit = None;
    }
    let terms = Terms {
        max_message: protocol::max_message(&jobs),
        wall_limit: options.wall_limit,
    };
    let paths = [opts.baseline.clone(), current];
    // Both plans before either worker starts: a build refused leaves the other unstarted, with
    // no table or automaton built for it.
    let planned = [Role::Baseline, Role::Current]
        .map(|role| plan_for(role, &paths[role as usize], &selected, &whole, &loaded));
    let plans = match planned {
        [Ok(base), Ok(cur)] => [base, cur],
        [Err(e), _] | [_, Err(e)] if !CANCEL.load(Ordering::SeqCst) => return Err(e),
        _ => return Ok(interrupted_early()),
    };
    let started = [Role::Baseline, Role::Current].map(|role| {
        let path = &paths[role as usize];
        let plan = &plans[role as usize];
        let started = Worker::start(role, path, &plan.args(), terms)?;
        let timed = options.time_limit.is_some() || options.wall_limit.is_some();
        let translated =
            (plan.time_limit, plan.wall_limit) != (options.time_limit, options.wall_limit);
        match &started {
            Started::Old { .. } if options.time_limit.is_some() => {
                return Err(predates_cpu_limits(role, path))
            }
            // Its time limits and its selection were chosen from the handshake of a worker
            // started before.
            Started::Worker(w)
                if (timed && w.cpu_limits() == translated)
                    || (!plan.select.is_empty() && !w.selection())
                    || (plan.pruning.contains(&Pruning::FsmDefault) && !w.fsm_domain_depths()) =>
            {
                return Err(refused(format!(
                    "--{} {}: its worker's handshake differs from the one before: the binary \
                     changed while ab started",
                    role.name(),
                    path.display()
                )))
            }
            _ => {}
        }
        Ok(started)
    });
    let [base, cur] = started;
    if CANCEL.load(Ordering::SeqCst) {
        return Ok(interrupted_early());
    }
    let (base, cur) = (base?, cur?);
    let [base_plan, cur_plan] = plans;
    // After the handshakes, so that a binary refused leaves no empty folder behind.
    let dir = claim_dir(&opts.out, opts.name.as_deref())?;
    let rounds = opts.rounds as usize;
    let (measured, builds, mode) = match (base, cur) {
        (Started::Worker(base), Started::Worker(cur)) => {
            let builds = [base.info(), cur.info()];
            if !opts.quiet {
                tell_start(&builds, jobs.len(), rounds, usize::from(opts.lanes));
            }
            let measured = by_workers(opts, &jobs, [*base, *cur], rounds);
            (measured, builds, Mode::Worker)
        }
        (base, cur) => {
            let mut builds = [base.info(), cur.info()];
            drop((base, cur));
            note(format_args!(
                "note: {} has no worker mode (an idabench older than `ab`): both builds run as \
                 alternating `idabench run` invocations over groups of {GROUP} instances, one \
                 job at a time; --jobs is not used",
                old_side(&builds)
            ));
            if !opts.quiet {
                tell_start(&builds, jobs.len(), rounds, 1);
            }
            let words = [base_plan.words(), cur_plan.words()];
            let measured = by_runs(opts, &jobs, &paths, words, rounds, &mut builds);
            (measured, builds, Mode::Run)
        }
    };
    let Measured { pairs, error } = measured;
    let planned = rounds * jobs.len();
    // A signal kills the workers and `run`s, which fails what they were doing: once interrupted,
    // an error is the interruption's.
    let interrupted = CANCEL.load(Ordering::SeqCst);
    let error = error.filter(|_| !interrupted);
    let judging = CompareOptions {
        time_threshold: opts.threshold,
        allow_node_changes: opts.allow_node_changes,
        format: opts.format,
        ..CompareOptions::default()
    };
    let reached = pairs.iter().map(|p| p.round + 1).max().unwrap_or(0);
    let rounds_runs = by_round(&pairs, &jobs, reached, &builds);
    let mut comparison = compare::paired(&rounds_runs, &judging);
    if interrupted || error.is_some() {
        comparison.incomplete = Some(Incomplete {
            measured: pairs.len(),
            planned,
            interrupted,
        });
    }
    let manifest = AbManifest {
        command: "ab",
        idabench_version: env!("CARGO_PKG_VERSION").to_owned(),
        baseline: builds[0].clone(),
        current: builds[1].clone(),
        mode: mode.name(),
        schedule: mode.schedule(),
        rounds,
        lanes: match mode {
            Mode::Worker => usize::from(opts.lanes),
            Mode::Run => 1,
        },
        jobs: jobs.len(),
        pairs: pairs.len(),
        pairs_planned: planned,
        complete: !interrupted && error.is_none(),
        stopped_by: match (&error, interrupted) {
            (Some(e), _) => Some(e.to_string()),
            (None, true) => Some("a signal (Ctrl-C, SIGTERM or SIGHUP)".to_owned()),
            (None, false) => None,
        },
        threshold: opts.threshold,
        datasets: loaded.infos.clone(),
        variants: loaded.names.clone(),
        selection: loaded.selection.clone(),
        max_nodes: options.max_nodes,
        time_limit_s: options.time_limit,
        time_limit_clock: Clock::Cpu,
        wall_limit_s: options.wall_limit,
        cpu_model: machine::cpu_model(),
        cores: machine::cores(),
        host: machine::host_name(),
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        start_time,
        end_time: clock::rfc3339_now(),
    };
    write_report(&dir, &pairs, &manifest, &comparison)?;
    let [baseline, current] = typical(&pairs, [&builds[0].path, &builds[1].path]);
    let compared = Compared {
        baseline,
        current,
        comparison,
    };
    write_pages(&dir, &compared, &manifest, opts.plot_size);
    let found = compared.write(judging.format, stdout)?;
    if !opts.quiet || interrupted || error.is_some() {
        note(format_args!("report: {}", dir.display()));
    }
    match error {
        Some(e) => Err(e),
        None => Ok(found),
    }
}

/// The plan as the build of `role` at `path` takes it. A build from before CPU time limits (its
/// worker's handshake does not offer them) limits wall time with its `--time-limit` and knows
/// neither `--wall-limit` nor `--memory-limit`: it is given the wall limit as its `--time-limit`,
/// no memory limit, and is refused a `--time-limit`, which would stop its jobs at other points
/// than the other build's. Without a handshake (no worker mode, or no idabench at all),
/// `Worker::start` tells which, and `ab` refuses a `--time-limit` to a build without the worker
/// mode then. A build whose handshake says it takes a selection is given `selected`, any other
/// `whole` (see `ab`); one whose handshake does not offer automata is refused fsm variants, one
/// that does not offer the factors of cr and eda is refused `cr4` and the like, and
/// one that does not say `fsm` is each domain's own depth is given that depth (`one_fsm_depth`).
fn plan_for(
    role: Role,
    path: &Path,
    selected: &PlanOptions,
    whole: &PlanOptions,
    loaded: &Loaded,
) -> Result<PlanOptions, Error> {
    let fsm = selected.pruning.iter().find(|p| p.is_fsm());
    let selecting = !selected.select.is_empty();
    let limited = selected.time_limit.is_some()
        || selected.wall_limit.is_some()
        || selected.tables.memory_limit.is_some();
    let weighted = selected.costs.iter().find(|c| !c.is_unit());
    let policy = selected.steps.iter().find(|s| !Step::ALL[..3].contains(s));
    if fsm.is_none() && !selecting && !limited && weighted.is_none() && policy.is_none() {
        return Ok(selected.clone());
    }
    let hello = client::handshake(path);
    if !hello.as_ref().is_some_and(|h| h.costs) {
        let asked = match (weighted, policy) {
            (Some(c), _) => Some(format!("--cost {}", c.name())),
            (None, Some(s)) => Some(format!("--step {}", s.name())),
            (None, None) => None,
        };
        if let Some(asked) = asked {
            return Err(refused(format!(
                "--{} {}: this build knows neither --cost nor the steps cr, eda and bts (its \
                 worker's handshake does not offer them), so it cannot run {asked}; compare \
                 unit costs and the steps 1, 2 and next with it",
                role.name(),
                path.display(),
            )));
        }
    }
    if let Some(factor) = selected.steps.iter().find(|s| s.named_factor().is_some()) {
        if !hello.as_ref().is_some_and(|h| h.step_factors) {
            return Err(refused(format!(
                "--{} {}: this build runs cr and eda at their factor 2 only (its worker's \
                 handshake does not offer step_factor), so it cannot run --step {}; compare cr \
                 and eda with it",
                role.name(),
                path.display(),
                factor.name()
            )));
        }
    }
    // Without an automaton the plan's words are `--reverse-pruning` (`PlanOptions::words`),
    // which every build takes; an automaton needs a build whose handshake offers it.
    if let Some(fsm) = fsm {
        if !hello.as_ref().is_some_and(|h| h.fsm_pruning) {
            return Err(refused(format!(
                "--{} {}: this build cannot prune by automaton (its worker's handshake does not \
                 offer --pruning), so it cannot run the {} variants; compare --pruning none and \
                 reverse with it, which it runs as --reverse-pruning off and on",
                role.name(),
                path.display(),
                fsm.name()
            )));
        }
    }
    let given_whole = selecting && !hello.as_ref().is_some_and(|h| h.selection);
    let options = if given_whole { whole } else { selected };
    let options = if selected.pruning.contains(&Pruning::FsmDefault)
        && !hello.as_ref().is_some_and(|h| h.fsm_domain_depths)
    {
        one_fsm_depth(
            role,
            path,
            options,
            loaded.fsm_defaults(given_whole),
            given_whole,
        )?
    } else {
        options.clone()
    };
    let memory = options.tables.memory_limit;
    if options.time_limit.is_none() && options.wall_limit.is_none() && memory.is_none() {
        return Ok(options);
    }
    if hello.as_ref().is_some_and(|h| h.cpu_limits) {
        return Ok(options);
    }
    if hello.is_some() && options.time_limit.is_some() {
        return Err(predates_cpu_limits(role, path));
    }
    if hello.is_some() {
        let wall = options.wall_limit.map(|w| {
            format!(
                "it is given --time-limit {w}, which limits wall time there, for --wall-limit {w}"
            )
        });
        let memory =
            memory.map(|_| "it is not given --memory-limit, which it does not know".to_owned());
        note(format_args!(
            "note: the {} build ({}) predates CPU time limits: {}",
            role.name(),
            path.display(),
            wall.into_iter()
                .chain(memory)
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let mut older = PlanOptions {
        time_limit: options.wall_limit,
        wall_limit: None,
        ..options
    };
    older.tables.memory_limit = None;
    Ok(older)
}

/// `options` with `fsm` without a depth as the one default depth of the domains it runs on
/// (`domains`), for a build whose worker's handshake does not say that `fsm` is each domain's
/// own depth: such a build may read `fsm` as fsm14 on every domain, and every build that offers
/// automata reads `fsmN` alike. It runs each depth of its plan on every domain, so domains of
/// different default depths are refused, before any worker starts. `whole`: the build takes no
/// selection, and `domains` are those of the whole datasets.
fn one_fsm_depth(
    role: Role,
    path: &Path,
    options: &PlanOptions,
    domains: &[DomainKind],
    whole: bool,
) -> Result<PlanOptions, Error> {
    let domains: Vec<DomainKind> = DomainKind::ALL
        .into_iter()
        .filter(|d| domains.contains(d))
        .collect();
    let mut depths: Vec<u32> = domains.iter().map(|d| d.fsm_depth()).collect();
    depths.sort_unstable();
    depths.dedup();
    let at = |depth: u32| {
        let mut one = options.clone();
        one.pruning.clear();
        for p in &options.pruning {
            let p = p.or_depth(depth);
            if !one.pruning.contains(&p) {
                one.pruning.push(p);
            }
        }
        one
    };
    match depths[..] {
        [depth] => Ok(at(depth)),
        // No domain runs the variant (a plan without jobs is refused before): any depth names
        // it, as long as the build is not sent a bare `fsm`.
        [] => Ok(at(Pruning::DEFAULT_FSM_DEPTH)),
        [shallowest, ..] => {
            let each: Vec<String> = domains
                .iter()
                .map(|d| format!("{} fsm{}", d.name(), d.fsm_depth()))
                .collect();
            let unknown: Vec<&str> = domains
                .iter()
                .filter(|d| d.fsm_depth() != Pruning::DEFAULT_FSM_DEPTH)
                .map(|d| d.name())
                .collect();
            let one_domain = if whole {
                // Such a build takes no selection: it is given the whole datasets, whose
                // domains these are, so `--domain` would not narrow them.
                "or compare datasets of one domain at a time (this build takes no selection: it \
                 is given whole datasets)"
                    .to_owned()
            } else {
                format!(
                    "or compare one domain at a time (--domain {} --pruning fsm)",
                    domains[0].name()
                )
            };
            Err(refused(format!(
                "--{} {}: this build may read --pruning fsm as fsm{} on every domain (its \
                 worker's handshake does not say fsm_depth=domain), and it runs each depth it is \
                 given on every domain, so it cannot run fsm at each domain's own default depth \
                 here: {} (it may not know the default{} of {}); ask for one depth on every \
                 domain (e.g. --pruning fsm{shallowest}), {one_domain}",
                role.name(),
                path.display(),
                Pruning::DEFAULT_FSM_DEPTH,
                each.join(", "),
                if unknown.len() > 1 { "s" } else { "" },
                unknown.join(" and "),
            )))
        }
    }
}

/// What a signal before the first pair ends `ab` with.
fn interrupted_early() -> Done {
    note(format_args!("interrupted before any pair was measured"));
    Done::Interrupted
}

/// The refusal of `--time-limit` for a build whose `--time-limit` limits wall time.
fn predates_cpu_limits(role: Role, path: &Path) -> Error {
    refused(format!(
        "--{} {}: this build predates CPU time limits (its worker's handshake does not offer \
         them): its --time-limit limits wall time, so its jobs would stop at other points than \
         the other build's; give --wall-limit instead, which both builds take (it is passed to \
         that build as its own --time-limit)",
        role.name(),
        path.display()
    ))
}

/// The pairs measured, in schedule order, and the error that stopped the measuring early (none
/// when it ran to its end or was interrupted: `CANCEL` tells which).
struct Measured {
    pairs: Vec<Pair>,
    error: Option<Error>,
}

/// How the builds were run.
#[derive(Clone, Copy)]
enum Mode {
    Worker,
    Run,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Worker => "worker",
            Mode::Run => "run",
        }
    }

    fn schedule(self) -> String {
        match self {
            Mode::Worker => "each job by both builds back to back, the first alternating from job to job and from round to round".to_owned(),
            Mode::Run => format!("each group of {GROUP} instances by both builds' `idabench run` back to back, the first alternating from group to group and from round to round"),
        }
    }
}

fn old_side(builds: &[BuildInfo; 2]) -> String {
    builds
        .iter()
        .filter(|b| b.protocol.is_none())
        .map(|b| format!("the {} build ({})", b.role, b.path))
        .collect::<Vec<_>>()
        .join(" and ")
}

fn tell_start(builds: &[BuildInfo; 2], jobs: usize, rounds: usize, lanes: usize) {
    for b in builds {
        note(format_args!(
            "{}: {} (idabench {}, commit {}, {})",
            b.role, b.path, b.version, b.commit, b.build
        ));
    }
    note(format_args!(
        "{jobs} jobs x {rounds} rounds, each job by both builds back to back, {lanes} lane(s)"
    ));
}

/// OUT/NAME, created empty; without a name the first free `ab-<UTC timestamp>[-K]`.
fn claim_dir(out: &Path, name: Option<&str>) -> Result<PathBuf, Error> {
    if let Some(name) = name {
        folder::check_name(name)?;
        folder::check_out(out)?;
        fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
        let dir = out.join(name);
        return match fs::create_dir(&dir) {
            Ok(()) => Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(refused(format!(
                "{} already exists: choose another --name or --out",
                dir.display()
            ))),
            Err(e) => Err(Error::io(&dir, e)),
        };
    }
    folder::new_stamped(out, "ab-")
}

/// One build as the manifest names it.
#[derive(Clone, Debug, Serialize)]
struct BuildInfo {
    role: &'static str,
    path: String,
    version: String,
    /// The worker protocol it speaks; `None` for a build without the worker mode.
    protocol: Option<u32>,
    commit: String,
    build: String,
}
