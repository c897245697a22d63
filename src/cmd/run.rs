//! The `run` command, step by step: read the datasets, plan the jobs, claim and lock the run
//! directory, take over what a resumed run finished, run the missing jobs while their rows are
//! streamed to runs.csv, then write the reports and say how the run went.

use crate::cmd::args::RunArgs;
use crate::domains::tiles::lookups::RANDOM_LOOKUP_SEED;
use crate::error::{Done, Error};

use crate::plot::{self, PlotSize};
use crate::report;
use crate::results;
use crate::results::folder;
use crate::results::iterations::{self, Span, Spans};
use crate::results::record::{self, DatasetInfo, Manifest, RowKey, RunLimits};
use crate::results::repetitions::{self, Measured};
use crate::results::runs::{self, verdict, Rows, RunsWriter, Tally};
use crate::results::shard::{self, Shard};
use crate::results::summary::{self, Groups, Limits, Summaries};
use crate::runner::batch::{self, BatchOptions};
use crate::runner::checkpoint::{self, Checkpointing};
use crate::runner::job::{Job, JobRecord};
use crate::runner::machine::{cores, cpu_model, host_name, peak_resident_bytes};
use crate::runner::plan::{place, take_shard, Loaded, Plan};
use crate::runner::prepare;
use crate::search::Clock;
use crate::util::build;
use crate::util::clock;
use crate::util::files;
use crate::util::interrupt;
use crate::util::term::note;
use crate::util::text::visible_lines;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::{self, File, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

/// Runs `idabench run`: the summary goes to `stdout`; progress and notes go to stderr. The
/// process is to end after it: a finished run leaves its memory to the system.
pub fn run_batch(args: &RunArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    // First, so that a signal at any later point stops the run cleanly rather than killing it.
    install_signal_handler();
    let start_time = clock::rfc3339_now();
    let mut options = args.options();
    // A database being built stops at a signal, as the jobs do.
    options.tables.stop = Some(&CANCEL);
    let loaded = Loaded::read(&options)?;
    let plan = loaded.plan(args.quiet)?;
    // Sharded before it is repeated: a shard holds every repetition of its jobs.
    let (plan, shard) = match args.shard {
        Some((index, count)) => {
            let (plan, share) = take_shard(plan, index, count);
            (plan, Some(share.repeated(options.repeat)))
        }
        None => (plan, None),
    };
    let Plan { jobs, places } = plan.repeated(options.repeat);
    // Before the run directory is claimed, so that a heuristic that cannot be had leaves none
    // behind; a table built here is kept in the cache either way.
    let ready = prepare::prepare(
        jobs.iter().map(|j| (&j.instance.puzzle, j.spec)),
        |i| Some(place(&jobs[i])),
        &options.tables,
        args.quiet,
    )?;
    let mut manifest = new_manifest(
        args,
        loaded.infos.clone(),
        &loaded.names,
        start_time,
        jobs.len(),
    );
    manifest.pattern_databases = ready.tables;
    manifest.automata = ready.automata;
    manifest.shard = shard.as_ref().map(|s| s.shard);
    manifest.selection = loaded.selection.clone();
    let run_dir = RunDir::claim(args, &manifest)?;
    let (mut rows, mut spans) = if args.resume {
        resume(&run_dir.path, &mut manifest, &jobs, args.quiet)?
    } else {
        let spans = Spans::new(run_dir.path.join(iterations::FILE), jobs.len());
        (Rows::new(jobs.len()), spans)
    };
    if let Some(share) = &shard {
        write_shard_jobs(&run_dir.path, &jobs, &share.places)?;
    }
    run_missing(
        args,
        &run_dir.path,
        &mut manifest,
        &jobs,
        &mut rows,
        &mut spans,
    )?;
    let finished = rows.tallies().map(|(i, t)| (places[i].0, places[i].1, t));
    let mut groups = Groups::default();
    for (job, &(instance, _)) in jobs.iter().zip(&places) {
        let puzzle = &job.instance;
        groups.place(
            instance,
            &job.dataset.name,
            puzzle.domain.name(),
            &puzzle.size,
        );
    }
    let summaries = summary::summarize(
        finished,
        &loaded.specs,
        &loaded.names,
        &groups,
        Limits::of(&manifest),
    );
    let reports = Reports {
        rows: &rows,
        spans: &mut spans,
        summaries: &summaries,
    };
    let done = finish(args, &run_dir.path, manifest, &jobs, reports, stdout);
    // The process ends with the run: the system takes back its memory at once, where dropping
    // the instances, jobs and rows would free them one allocation at a time (9 ms of CPU, 3% of
    // the harness's cost, on the 181,440-state 8-puzzle run).
    std::mem::forget((jobs, places, rows, spans, summaries));
    std::mem::forget(loaded);
    done
}

/// Set by Ctrl-C, SIGTERM or SIGHUP; searches poll it.
static CANCEL: AtomicBool = AtomicBool::new(false);

fn install_signal_handler() {
    interrupt::install(
        &CANCEL,
        || {},
        || {
            note(format_args!(
                "\ninterrupted: stopping; finished jobs are kept (rerun with --resume)"
            ))
        },
        "Ctrl-C or SIGTERM will end the run at once, keeping the rows already in runs.csv",
    );
}

/// The shard's shard_jobs.csv: each job with its index in the whole run, for `merge`.
fn write_shard_jobs(dir: &Path, jobs: &[Job<'_>], places: &[usize]) -> Result<(), Error> {
    let lines = jobs.iter().zip(places).map(|(j, &place)| (place, key(j)));
    let path = dir.join(shard::JOBS_FILE);
    let bytes = shard::jobs_csv(lines).map_err(|e| Error::io(&path, e))?;
    Ok(runs::write_atomic(&path, &bytes)?)
}

/// A run directory, locked by this process until the value is dropped: a second `run` or
/// `--resume` on it is refused rather than writing the same reports.
struct RunDir {
    path: PathBuf,
    /// Holds the lock: flock(2) on the directory itself, which the kernel releases when the
    /// process ends, however it ends, so a killed run leaves no stale lock (and no lock file).
    _lock: File,
}

impl RunDir {
    /// The run directory the arguments name (see `pick_run_dir`), locked; a new run's directory
    /// must not hold a run yet.
    fn claim(args: &RunArgs, manifest: &Manifest) -> Result<RunDir, Error> {
        let path = pick_run_dir(args, manifest)?;
        let dir = File::open(&path).map_err(|e| Error::io(&path, e))?;
        match dir.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(Error::usage(format!(
                    "{}: another idabench process is running there: wait for it to end, or choose another --name",
                    path.display()
                )))
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        // Under the lock: nothing the run writes or reads here may lead elsewhere or hold it.
        folder::check_own(&path)?;
        // Checked under the lock: a run that started beside this one may have just finished.
        if !args.resume && path.join("runs.csv").exists() {
            return Err(Error::input(format!(
                "{} already holds a run: pass --resume to finish it, or choose another --name",
                path.display()
            )));
        }
        Ok(RunDir { path, _lock: dir })
    }
}

/// OUT/NAME, created for a new run; with --resume and no --name, the newest unfinished run in
/// OUT that these options (`manifest`) can resume; without either, a new OUT/<UTC timestamp>.
fn pick_run_dir(args: &RunArgs, manifest: &Manifest) -> Result<PathBuf, Error> {
    if let Some(name) = &args.name {
        if args.resume {
            let dir = folder::existing(&args.out, name)?;
            if fs::symlink_metadata(dir.join("runs.csv")).is_err() {
                return Err(Error::input(format!(
                    "--resume: {} does not exist: there is no run to resume there",
                    dir.join("runs.csv").display()
                )));
            }
            return Ok(dir);
        }
        return folder::named(&args.out, name);
    }
    if args.resume {
        let (newest, unfinished) = newest_unfinished_run(&args.out, manifest);
        return newest.ok_or_else(|| {
            let others = match unfinished {
                0 => String::new(),
                n => format!(
                    " ({n} unfinished run(s) there were made with other datasets, selections, variants or limits: resume one by --name, with its options)"
                ),
            };
            Error::input(format!(
                "--resume: no unfinished run of these datasets, selection, variants and limits to resume in {}{others}; finished runs are only resumed by name (give --name)",
                args.out.display()
            ))
        });
    }
    folder::new_stamped(&args.out, "")
}

/// The newest run in `out` (by the time of its runs.csv) whose manifest says it is unfinished
/// (interrupted, killed, or still going: then its lock refuses it) and that the run `manifest`
/// describes can resume (see `unlike`); and how many unfinished runs there are in all. A
/// finished run, such as a committed baseline, is never picked; a run without a readable
/// manifest cannot be resumed.
fn newest_unfinished_run(out: &Path, manifest: &Manifest) -> (Option<PathBuf>, usize) {
    let Ok(entries) = fs::read_dir(out) else {
        return (None, 0);
    };
    // Folders only: a link to a run elsewhere is not this folder's run.
    let unfinished: Vec<(PathBuf, Manifest)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| p.join("runs.csv").is_file())
        .filter_map(|p| {
            let m = record::read_manifest(&p.join("manifest.json")).ok()?;
            (!m.finished()).then_some((p, m))
        })
        .collect();
    let total = unfinished.len();
    let newest = unfinished
        .into_iter()
        .filter(|(p, m)| unlike(m, manifest, p).is_none())
        .map(|(p, _)| p)
        .max_by_key(|p| {
            fs::metadata(p.join("runs.csv"))
                .and_then(|m| m.modified())
                .ok()
        });
    (newest, total)
}

/// The manifest of a run that has not started: no end time, every job missing.
fn new_manifest(
    args: &RunArgs,
    datasets: Vec<DatasetInfo>,
    names: &[String],
    start_time: String,
    jobs_total: usize,
) -> Manifest {
    let cores = cores();
    Manifest {
        idabench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: build::git_commit(),
        rustc_version: build::get().rustc.to_string(),
        build_profile: build::get().profile.to_string(),
        cpu_model: cpu_model(),
        cores,
        jobs: args.jobs.map_or(cores, usize::from),
        // Lossy: a path that is not UTF-8 is still recorded, with U+FFFD for its bad bytes.
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        datasets,
        variants: names.to_vec(),
        max_nodes: args.plan.limits.max_nodes,
        time_limit_s: args.plan.limits.time_limit,
        time_limit_clock: Some(Clock::Cpu),
        wall_limit_s: args.plan.limits.wall_limit,
        start_time,
        end_time: String::new(),
        complete: Some(false),
        jobs_total: Some(jobs_total),
        jobs_missing: Some(jobs_total),
        pattern_databases: Vec::new(),
        automata: Vec::new(),
        host: host_name(),
        shard: None,
        shards: Vec::new(),
        split: Some(args.split.split.name()),
        selection: Default::default(),
        peak_resident_bytes: None,
        combined: Vec::new(),
        repeat: args.repeat,
        random_lookup_seed: args
            .plan
            .heuristic
            .iter()
            .any(|h| h.name().contains("+random"))
            .then_some(RANDOM_LOOKUP_SEED),
    }
}

/// A job's repetition's key, as its rows are keyed.
fn key<'j>(job: &Job<'j>) -> RowKey<'j> {
    RowKey {
        dataset: &job.dataset.name,
        instance: &job.instance.id,
        variant: job.variant,
        repetition: job.repetition,
    }
}

/// The rows the run in `dir` finished before, each in its job's slot, and where their
/// iteration rows lie in its iterations.csv, after checking that it was made with the same
/// datasets, selection, limits and variants (its manifest must say so: without one nothing can
/// be checked). The run keeps its start time and selection as first given. A last line cut
/// short by a hard kill is dropped, and its job runs again; so does a job whose iteration rows
/// are not all there.
fn resume(
    dir: &Path,
    manifest: &mut Manifest,
    jobs: &[Job<'_>],
    quiet: bool,
) -> Result<(Rows, Spans), Error> {
    let old = record::read_manifest(&dir.join("manifest.json")).map_err(|e| {
        Error::input(format!(
            "--resume: {e}: without its manifest the run's datasets, variants and limits cannot be checked; start a new run instead"
        ))
    })?;
    if let Some(why) = unlike(&old, manifest, dir) {
        return Err(Error::input(why));
    }
    // The run goes on under the limits it started with, on their clocks: a run from before CPU
    // limits keeps limiting wall time.
    manifest.time_limit_s = old.time_limit_s;
    manifest.time_limit_clock = old.time_limit_clock;
    manifest.wall_limit_s = old.wall_limit_s;
    // The same variants can still plan other jobs: with and without --heuristic, a dataset of
    // two domains runs other heuristics on each.
    if old.jobs_total.is_some_and(|n| n != jobs.len()) {
        return Err(Error::input(format!(
            "--resume: {} was planned with {} jobs, these options plan {}: give the same --heuristic, --step and --reverse-pruning",
            dir.display(),
            old.jobs_total.unwrap_or_default(),
            jobs.len()
        )));
    }
    manifest.start_time = old.start_time;
    // The same selection, perhaps written otherwise: the run keeps it as first given.
    manifest.selection = old.selection;
    manifest.peak_resident_bytes = old.peak_resident_bytes;
    let runs_path = dir.join("runs.csv");
    let mut bytes = results::read_file(&runs_path)?;
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        bytes.truncate(keep);
        runs::write_atomic(&runs_path, &bytes)?;
    }
    let mut done = if bytes.is_empty() {
        Vec::new()
    } else {
        record::read_runs(&runs_path)?
    };
    let order: HashMap<RowKey, usize> = jobs.iter().map(|j| (key(j), j.index)).collect();
    // Rows of jobs without a runs.csv row (written just before a kill) are left out here.
    let iterations_path = dir.join(iterations::FILE);
    let found = iterations::scan(&iterations_path, 0, jobs.len(), |k| order.get(&k).copied())
        .map_err(|e| Error::input(format!("--resume: {e}")))?;
    let mut spans = Spans::new(iterations_path, jobs.len());
    let mut rows = Rows::new(jobs.len());
    let mut incomplete = 0;
    let name = folder::run_name(dir);
    for r in &mut done {
        // Rows written before runs.csv had a `run` column are this run's too.
        if r.run.is_empty() {
            r.run.clone_from(&name);
        }
        match order.get(&r.key()) {
            Some(&i) => {
                // A job's iteration rows are written before its runs.csv row, but a crash of
                // the machine may keep the later write and lose the earlier one: such a job
                // runs again rather than keep a row without its iterations.
                let whole = match found[i] {
                    Some(f) => f.whole && f.rows == r.iterations,
                    None => r.iterations == 0,
                };
                if whole {
                    rows.keep([(i, &*r)]);
                    spans.jobs[i] = found[i].map_or_else(Span::default, |f| f.span);
                } else {
                    incomplete += 1;
                }
            }
            // Dropping it would lose finished work without a word.
            None => {
                return Err(Error::input(format!(
                    "--resume: {} holds job {}, which these options do not plan: give the options of the run being resumed",
                    runs_path.display(),
                    r.key()
                )))
            }
        }
    }
    if incomplete > 0 {
        note(format_args!(
            "note: {incomplete} finished job(s) lack some of their rows in {}: they run again",
            iterations::FILE
        ));
    }
    if !quiet {
        let kept = rows.kept();
        note(format_args!(
            "resuming {}: {kept} job(s) done, {} to run",
            dir.display(),
            jobs.len() - kept
        ));
    }
    Ok((rows, spans))
}

/// Why the run in `dir`, whose manifest is `old`, cannot be resumed as the run `manifest`
/// describes (other datasets, shard, selection, limits, variants or pattern databases), if it
/// cannot.
fn unlike(old: &Manifest, manifest: &Manifest, dir: &Path) -> Option<String> {
    if old
        .datasets
        .iter()
        .map(|d| (&d.name, d.content()))
        .ne(manifest.datasets.iter().map(|d| (&d.name, d.content())))
    {
        return Some(format!(
            "--resume: {} was made from other dataset files (names or SHA-256 differ, of a dataset or of a puzzle definition it names); start a new run instead",
            dir.display()
         ));
    }
    if !old.shards.is_empty() {
        return Some(format!(
            "--resume: {} is a merge of shards: resume the unfinished shards and merge again",
            dir.display()
        ));
    }
    if old.shard != manifest.shard {
        let what = |s: Option<Shard>| match s {
            Some(s) => format!("shard {s} of a run of {} jobs", s.all_jobs),
            None => "a whole run (no --shard)".to_string(),
        };
        return Some(format!(
            "--resume: {} is {}, not {}: give the same --shard and options",
            dir.display(),
            what(old.shard),
            what(manifest.shard)
        ));
    }
    if !old.selection.same(&manifest.selection) {
        return Some(format!(
            "--resume: {} was made with selection {}, not {}: give the same --domain, --size, --instances and --instances-file (of the same content)",
            dir.display(),
            old.selection.text(),
            manifest.selection.text()
        ));
    }
    if !same_limits(old, manifest) {
        let before = if old.time_limit_clock.is_none() && old.time_limit_s.is_some() {
            " (by an idabench whose --time-limit limited wall time: give that --time-limit, or the same --wall-limit)"
        } else {
            ""
        };
        return Some(format!(
            "--resume: {} was made with limits {}{before}, not {}: give the same --max-nodes, --time-limit and --wall-limit",
            dir.display(),
            old.limits_text(),
            manifest.limits_text()
         ));
    }
    if old.repeat != manifest.repeat {
        return Some(format!(
            "--resume: {} was made with --repeat {}, not {}: give the same --repeat",
            dir.display(),
            old.repeat,
            manifest.repeat
        ));
    }
    if old.variants != manifest.variants {
        return Some(format!(
            "--resume: {} was made with variants {}, not {}",
            dir.display(),
            old.variants.join(" "),
            manifest.variants.join(" ")
        ));
    }
    let tables = |m: &Manifest| -> Vec<(String, String)> {
        let mut t: Vec<_> = m
            .pattern_databases
            .iter()
            .map(|t| (t.name.clone(), t.crc32.clone()))
            .collect();
        t.sort();
        t
    };
    if tables(old) != tables(manifest) {
        return Some(format!(
            "--resume: {} was made with other pattern databases (names or CRC-32 differ from the cache's); start a new run instead",
            dir.display()
         ));
    }
    None
}

/// Whether options asking for `new`'s limits resume a run made with `old`'s: the same limits on
/// the same clocks. A run made before CPU limits limited wall time with `--time-limit`: it is
/// resumed by the same `--time-limit` (or `--wall-limit`), and keeps limiting wall time.
fn same_limits(old: &Manifest, new: &Manifest) -> bool {
    let asked = new.limits();
    if old.time_limit_clock.is_some() || old.time_limit_s.is_none() {
        return old.limits() == asked;
    }
    let wall = match (asked.cpu_s, asked.wall_s) {
        (Some(_), Some(_)) => return false,
        (cpu, wall) => cpu.or(wall),
    };
    old.limits()
        == RunLimits {
            cpu_s: None,
            wall_s: wall,
            ..asked
        }
}

/// Writes the manifest of the run in progress, runs.csv and iterations.csv with the rows kept so
/// far, then runs every job without a row, appending rows to both as they come and keeping them
/// in `rows` and `spans`.
fn run_missing(
    args: &RunArgs,
    dir: &Path,
    manifest: &mut Manifest,
    jobs: &[Job<'_>],
    rows: &mut Rows,
    spans: &mut Spans,
) -> Result<(), Error> {
    let name = folder::run_name(dir);
    let todo: Vec<Job> = jobs
        .iter()
        .filter(|j| !rows.has(j.index))
        .map(|j| Job { run: &name, ..*j })
        .collect();
    manifest.jobs_missing = Some(todo.len());
    let manifest_path = dir.join("manifest.json");
    runs::write_atomic(&manifest_path, &summary::manifest_json(manifest)?)?;
    // The rewritten file holds exactly the kept rows; new rows are appended to it.
    let runs_path = dir.join("runs.csv");
    runs::write_runs(&runs_path, rows)?;
    let mut writer = RunsWriter::append_to(&runs_path).map_err(|e| Error::io(&runs_path, e))?;
    let iterations_path = dir.join(iterations::FILE);
    iterations::write_in_order(&iterations_path, spans)?;
    let mut appender = iterations::Appender::append_to(&iterations_path)
        .map_err(|e| Error::io(&iterations_path, e))?;
    let opts = BatchOptions {
        jobs: manifest.jobs,
        limits: manifest.limits(),
        split: args.split.split.0,
        quiet: args.quiet,
        cancel: &CANCEL,
        checkpoints: match args.checkpoint.checkpoint.0 {
            Some(every) => {
                let folder = dir.join(checkpoint::FOLDER);
                make_checkpoint_folder(&folder)?;
                Some(Checkpointing::new(folder.clone(), every).map_err(|e| Error::io(&folder, e))?)
            }
            None => None,
        },
    };
    let agreement = (manifest.repeat > 1).then(|| Agreement::new(jobs, manifest.repeat, rows));
    let format = |finished: &batch::Finished<'_>| {
        let runs = match &agreement {
            None => runs::Formatted::of(finished.jobs().map(|(i, r, _)| (i, r))),
            Some(agreement) => {
                let checked = agreement.check(finished);
                runs::Formatted::of(checked.iter().map(|(i, r)| (*i, r.as_ref())))
            }
        };
        (
            runs,
            iterations::Formatted::of(&iterations_path, finished.jobs()),
        )
    };
    let format =
        |finished: &batch::Finished<'_>| (format(finished), finished.checkpoints().to_vec());
    batch::run(&todo, &opts, format, |((runs, iterations), ended)| {
        // Iteration rows first: a job whose runs.csv row is on disk has its iteration rows
        // there too, and --resume drops iteration rows of jobs that have no runs.csv row.
        appender.append_formatted(&iterations?, spans)?;
        writer.append(&runs, rows)?;
        // Once its row is on disk, a job's checkpoint is of no more use.
        if !ended.is_empty() {
            writer.sync()?;
        }
        for path in ended {
            if let Err(e) = fs::remove_file(&path) {
                if e.kind() != std::io::ErrorKind::NotFound {
                    return Err(Error::io(&path, e));
                }
            }
        }
        Ok(())
    })?;
    // Every job has its row: no checkpoint is of use, whatever --checkpoint this attempt had.
    let folder = dir.join(checkpoint::FOLDER);
    if jobs.iter().all(|j| rows.has(j.index)) && files::stranger_at(&folder).is_none() {
        let _ = fs::remove_dir_all(&folder);
    }
    Ok(())
}

/// Creates the run's checkpoint folder if need be; a link, FIFO or device in its place, or in
/// it, is refused (as anywhere in a run's folder).
fn make_checkpoint_folder(dir: &Path) -> Result<(), Error> {
    if let Some(what) = files::stranger_at(dir) {
        return Err(Error::input(format!(
            "{} is {what}, not a folder: idabench will not write through it",
            dir.display()
        )));
    }
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    if let Some((path, what)) = files::stranger_in(dir).map_err(|e| Error::io(dir, e))? {
        return Err(Error::input(format!(
            "{} is {what}: idabench will not write through it",
            path.display()
        )));
    }
    Ok(())
}

/// Of each job of a repeated run, the first repetition finished whose node counts the others
/// must have (see `repetitions::disagreement`), found as they finish: the check that marks a
/// repetition that disagrees `wrong` when its row is written.
struct Agreement {
    /// The jobs of one round: a job's repetitions lie this far apart.
    round: usize,
    first: Mutex<Vec<Option<Measured>>>,
}

impl Agreement {
    /// For `jobs`, `repeat` rounds of them, with the repetitions a resumed run kept in `rows`.
    fn new(jobs: &[Job<'_>], repeat: u32, rows: &Rows) -> Agreement {
        let round = jobs.len() / repeat as usize;
        let agreement = Agreement {
            round,
            first: Mutex::new(vec![None; round]),
        };
        let mut first = agreement.first.lock().unwrap_or_else(|e| e.into_inner());
        for (i, t) in rows.tallies() {
            let measured = Measured {
                repetition: jobs[i].repetition,
                status: t.status,
                nodes_generated: t.nodes_generated,
                nodes_expanded: t.nodes_expanded,
                time_cpu_s: t.time_cpu_s,
                time_wall_s: 0.0,
            };
            keep(&mut first[i % round], measured);
        }
        drop(first);
        agreement
    }

    /// The finished jobs' records, each checked against its job's first counted repetition:
    /// one that disagrees is `wrong`, its message naming both repetitions and what differs.
    fn check<'f, 'a>(
        &self,
        finished: &'f batch::Finished<'a>,
    ) -> Vec<(usize, Cow<'f, JobRecord<'a>>)> {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        finished
            .jobs()
            .map(
                |(i, r, _)| match keep(&mut first[i % self.round], Measured::of(r)) {
                    None => (i, Cow::Borrowed(r)),
                    Some(why) => {
                        let mut wrong = r.clone();
                        wrong.status = record::Status::Wrong;
                        wrong.message = Cow::Owned(why);
                        (i, Cow::Owned(wrong))
                    }
                },
            )
            .collect()
    }
}

/// Keeps `measured` as its job's `first` counted repetition unless one is kept already; why it
/// disagrees with that one, if it does.
fn keep(first: &mut Option<Measured>, measured: Measured) -> Option<String> {
    match first {
        Some(earlier) => repetitions::disagreement(earlier, &measured),
        None => {
            if repetitions::counted(measured.status) {
                *first = Some(measured);
            }
            None
        }
    }
}

/// What a run's reports are written from.
struct Reports<'r> {
    rows: &'r Rows,
    spans: &'r mut Spans,
    summaries: &'r Summaries,
}

/// Records the end of the run in its manifest, writes every report and draws the plots, prints
/// the summary on `stdout`; the outcome: interrupted when jobs are missing, wrong when a job is.
fn finish(
    args: &RunArgs,
    dir: &Path,
    mut manifest: Manifest,
    jobs: &[Job<'_>],
    reports: Reports<'_>,
    stdout: &mut dyn Write,
) -> Result<Done, Error> {
    let Reports {
        rows,
        spans,
        summaries,
    } = reports;
    let done = rows.kept();
    let missing = rows.missing();
    manifest.end_time = clock::rfc3339_now();
    manifest.complete = Some(missing == 0);
    // Read before the reports are written, whose memory is small beside the run's.
    manifest.peak_resident_bytes = manifest.peak_resident_bytes.max(peak_resident_bytes());
    manifest.jobs_missing = Some(missing);
    summary::write_reports(dir, rows, Some(spans), &manifest, summaries)?;
    let plots = (!args.no_plots).then(|| args.pictures.plot_size.unwrap_or_default());
    draw_plots(dir, jobs, rows, spans, &manifest, summaries, plots);
    let text = format!(
        "{}\nreports: {}\n",
        summary::summary_md(summaries, &manifest),
        dir.display()
    );
    stdout
        .write_all(visible_lines(&text).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("stdout", e))?;
    if missing > 0 {
        note(format_args!(
            "interrupted: {done} of {} jobs done; finish with: --resume --out {} --name {}",
            done + missing,
            args.out.display(),
            dir.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ));
        return Ok(Done::Interrupted);
    }
    Ok(verdict(&summaries.variants))
}

/// The plots of the run's finished jobs and its report.html (see `report::after_run`), their
/// iterations read from where `spans` says they lie.
fn draw_plots(
    dir: &Path,
    jobs: &[Job<'_>],
    rows: &Rows,
    spans: &Spans,
    manifest: &Manifest,
    summaries: &Summaries,
    plots: Option<PlotSize>,
) {
    // A job's repetitions lie a round apart; the pictures show each job once.
    let round = jobs.len() / manifest.repeat.max(1) as usize;
    let mut all: Vec<(usize, usize, &Tally)> = Vec::with_capacity(rows.kept());
    all.extend(rows.tallies().map(|(i, t)| (i, i % round, t)));
    let reduced = summary::reduce_jobs(round, &all);
    // Sized up front: grown one doubling at a time, the copies cost more than the filling.
    let mut index = Vec::with_capacity(all.len());
    let mut finished = Vec::with_capacity(all.len());
    for (i, job) in reduced {
        let t = &job.tally;
        index.push(i);
        finished.push(plot::Job {
            dataset: &jobs[i].dataset.name,
            instance: &jobs[i].instance.id,
            variant: jobs[i].variant,
            domain: jobs[i].instance.domain.name(),
            size: &jobs[i].instance.size,
            status: t.status,
            length: t.length,
            nodes_generated: t.nodes_generated,
            time_cpu_s: t.time_cpu_s,
            has_iterations: spans.jobs[i].len > 0,
        });
    }
    let end = report::RunEnd {
        dir,
        jobs: &finished,
        instances: plot::instances_in_run_order(&finished),
        variants: &manifest.variants,
        manifest,
        summaries,
        plots: plots.is_some(),
        size: plots.unwrap_or_default(),
    };
    report::after_run(&end, &mut |chosen| {
        let wanted: Vec<Span> = chosen.iter().map(|&k| spans.jobs[index[k]]).collect();
        iterations::read_spans(&spans.sources, &wanted).map_err(|e| e.to_string())
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::record::Status;

    #[test]
    fn a_repetition_is_checked_against_the_first_one_no_time_limit_stopped() {
        let m = |repetition, status, nodes| Measured {
            repetition,
            status,
            nodes_generated: nodes,
            nodes_expanded: 1,
            time_cpu_s: 0.1,
            time_wall_s: 0.1,
        };
        let mut first = None;
        // A repetition stopped by the time limit is no reference: it stopped anywhere.
        assert_eq!(keep(&mut first, m(2, Status::TimeLimit, 3)), None);
        assert_eq!(first, None);
        assert_eq!(keep(&mut first, m(1, Status::Solved, 10)), None);
        assert_eq!(keep(&mut first, m(3, Status::Solved, 10)), None);
        assert_eq!(keep(&mut first, m(5, Status::TimeLimit, 4)), None);
        assert_eq!(
            keep(&mut first, m(4, Status::Solved, 12)).as_deref(),
            Some("repetitions 1 and 4 of this job differ: nodes_generated 10 and 12")
        );
    }
}
