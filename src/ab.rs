//! `idabench ab`: two builds run on the same jobs, paired and interleaved in time, then judged
//! as `compare` judges two runs (`compare::paired`), and the report folder of it.
//!
//! Each build answers through worker processes (`worker`) that live for a round, so a job costs a
//! line on a pipe rather than a process start. The schedule: in each round, every job is run by
//! one build and then at once by the other, the build that goes first alternating from job to
//! job and, for one job, from round to round; `--jobs` lanes do this side by side, each with its
//! own two workers, started afresh for each round. A baseline built before the worker mode is run, with the current build, as
//! alternating `idabench run` invocations over small groups of instances instead.

use crate::batch::Job;
use crate::cli::{AbArgs, CompareFormat, OnOff, PlanArgs};
use crate::clock;
use crate::compare::{self, CompareError, CompareOptions, Incomplete, RenderFormat, SavedRun};
use crate::error::{Done, Error};
use crate::interrupt;
use crate::record::{self, DatasetInfo, Record, RUNS_HEADER};
use crate::report;
use crate::run::{self, note};
use crate::solve::Spec;
use crate::worker::{self, Hello};
use serde::Serialize;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Instances per `idabench run` invocation when the baseline has no worker mode: small enough
/// that the two builds' runs of one group stay close in time, large enough that the process
/// start of each invocation is small beside its jobs.
const GROUP: usize = 4;

/// How often progress is told on stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Set by Ctrl-C, SIGTERM or SIGHUP: no new pair is started.
static CANCEL: AtomicBool = AtomicBool::new(false);

/// The processes `ab` started and has not yet waited for, each the leader of its own process
/// group. Their own group keeps a terminal's Ctrl-C from killing them before `ab` knows it was
/// interrupted (it would take that for a worker that died); `ab`'s handler kills the groups
/// instead, so that a search in progress stops at once and nothing a worker started is left.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn install_signal_handler() {
    // Every signal kills the workers' groups: one started since the first is stopped too.
    interrupt::install(
        &CANCEL,
        kill_children,
        || {
            note(format_args!(
                "\ninterrupted: stopping the workers; the pairs measured are kept and reported"
            ))
        },
        "Ctrl-C or SIGTERM will end ab at once, without a report",
    );
}

fn kill_children() {
    let children = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    for &pid in children.iter() {
        kill_group(pid);
    }
}

/// SIGKILL to the process group of `pid`, a child not yet waited for (so the group still exists
/// and is ours).
fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) touches no memory of this process.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// Spawns `command` in a process group of its own, listed in `CHILDREN` until `reap` waits for
/// it; when `ab` was already interrupted, the child is killed at once.
fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut children = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    let child = command.process_group(0).spawn()?;
    children.push(child.id());
    if CANCEL.load(Ordering::SeqCst) {
        kill_group(child.id());
    }
    Ok(child)
}

/// How long a binary has to give its handshake, or to answer `--version` or `run --help`: a
/// worker writes its handshake before it plans its jobs or builds its tables, so a binary that
/// takes longer is not answering at all (a script that waits for input, a program that hangs).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Kills a child's process group if not stopped within `HANDSHAKE_TIMEOUT`.
struct Deadline {
    stop: mpsc::Sender<()>,
    watch: std::thread::JoinHandle<bool>,
}

impl Deadline {
    fn start(pid: u32) -> Deadline {
        let (stop, stopped) = mpsc::channel::<()>();
        let watch = std::thread::spawn(move || {
            let late =
                stopped.recv_timeout(HANDSHAKE_TIMEOUT) == Err(mpsc::RecvTimeoutError::Timeout);
            if late {
                kill_group(pid);
            }
            late
        });
        Deadline { stop, watch }
    }

    /// Whether the time ran out (and the child was killed). Called before the child is waited
    /// for, so that the kill cannot reach another process that took its pid.
    fn stop(self) -> bool {
        drop(self.stop);
        self.watch.join().unwrap_or(true)
    }
}

/// `command`'s stdout and stderr (stdin closed), run as `spawn` runs it; with `limit`, an error
/// when it has not ended within `HANDSHAKE_TIMEOUT` (it is killed).
fn output(command: &mut Command, limit: bool) -> io::Result<std::process::Output> {
    let mut child = spawn(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )?;
    // Both pipes at once: a child that fills one while the other is read would never end.
    let mut err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(err) = &mut err {
            let _ = io::Read::read_to_end(err, &mut bytes);
        }
        bytes
    });
    let deadline = limit.then(|| Deadline::start(child.id()));
    let mut stdout = Vec::new();
    if let Some(out) = &mut child.stdout {
        let _ = io::Read::read_to_end(out, &mut stdout);
    }
    let stderr = reader.join().unwrap_or_default();
    let late = deadline.is_some_and(Deadline::stop);
    let status = reap(&mut child)?;
    if late {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("no answer within {} s", HANDSHAKE_TIMEOUT.as_secs()),
        ));
    }
    Ok(std::process::Output {
        status,
        stdout,
        stderr,
    })
}

/// Waits for `child`, taken off `CHILDREN` first: once waited for, its pid may name another
/// process.
fn reap(child: &mut Child) -> io::Result<std::process::ExitStatus> {
    let pid = child.id();
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&p| p != pid);
    child.wait()
}

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
pub fn ab(args: &AbArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    // First, so that a signal at any later point stops the workers rather than orphaning them.
    install_signal_handler();
    if !args.threshold.is_finite() || args.threshold < 1.0 {
        return Err(CompareError::BadThreshold(args.threshold).into());
    }
    let start_time = clock::rfc3339_now();
    let current = match &args.current {
        Some(path) => path.clone(),
        None => std::env::current_exe()
            .map_err(|e| Error::runtime(format!("cannot find this binary: {e}")))?,
    };
    let (datasets, infos) = run::read_datasets(&args.plan.datasets)?;
    let specs = run::variants(&args.plan, &datasets);
    let names: Vec<String> = specs.iter().map(Spec::name).collect();
    let jobs = run::plan_jobs(&args.plan, &datasets, &specs, &names, args.quiet)?.jobs;
    let words = variant_words(&args.plan);
    let paths = [args.baseline.clone(), current];
    let started = [Role::Baseline, Role::Current].map(|role| {
        let path = &paths[role as usize];
        Worker::start(role, path, &args.plan.datasets, &words)
    });
    let [base, cur] = started;
    if CANCEL.load(Ordering::SeqCst) {
        note(format_args!("interrupted before any pair was measured"));
        return Ok(Done::Interrupted);
    }
    let (base, cur) = (base?, cur?);
    // After the handshakes, so that a binary refused leaves no empty folder behind.
    let dir = claim_dir(&args.out, args.name.as_deref())?;
    let rounds = args.rounds as usize;
    let (measured, builds, mode) = match (base, cur) {
        (Started::Worker(base), Started::Worker(cur)) => {
            let builds = [base.info(), cur.info()];
            if !args.quiet {
                tell_start(&builds, jobs.len(), rounds, usize::from(args.jobs));
            }
            let measured = by_workers(args, &jobs, base, cur, rounds);
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
            if !args.quiet {
                tell_start(&builds, jobs.len(), rounds, 1);
            }
            let measured = by_runs(args, &jobs, &paths, &words, rounds, &mut builds);
            (measured, builds, Mode::Run)
        }
    };
    let Measured { pairs, error } = measured;
    let planned = rounds * jobs.len();
    // A signal kills the workers and `run`s, which fails what they were doing: once interrupted,
    // an error is the interruption's.
    let interrupted = CANCEL.load(Ordering::SeqCst);
    let error = error.filter(|_| !interrupted);
    let opts = CompareOptions {
        time_threshold: args.threshold,
        allow_node_changes: args.allow_node_changes,
        format: match args.format {
            CompareFormat::Text => RenderFormat::Text,
            CompareFormat::Markdown => RenderFormat::Markdown,
            CompareFormat::Csv => RenderFormat::Csv,
        },
        ..CompareOptions::default()
    };
    let reached = pairs.iter().map(|p| p.round + 1).max().unwrap_or(0);
    let rounds_runs = by_round(&pairs, &jobs, reached, &builds);
    let mut comparison = compare::paired(&rounds_runs, &opts);
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
            Mode::Worker => usize::from(args.jobs),
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
        threshold: args.threshold,
        datasets: infos,
        variants: names.clone(),
        max_nodes: args.plan.limits.max_nodes,
        time_limit_s: args.plan.limits.time_limit,
        cpu_model: run::cpu_model(),
        cores: run::cores(),
        host: run::host_name(),
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        start_time,
        end_time: clock::rfc3339_now(),
    };
    write_report(&dir, &pairs, &manifest, &comparison)?;
    stdout
        .write_all(comparison.render(opts.format).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("stdout", e))?;
    if !args.quiet || interrupted || error.is_some() {
        note(format_args!("report: {}", dir.display()));
    }
    match error {
        Some(e) => Err(e),
        None => Ok(comparison.done()),
    }
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
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    if let Some(name) = name {
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return Err(Error::input(format!(
                "--name '{name}': expected a plain directory name"
            )));
        }
        let dir = out.join(name);
        return match fs::create_dir(&dir) {
            Ok(()) => Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(Error::input(format!(
                "{} already exists: choose another --name or --out",
                dir.display()
            ))),
            Err(e) => Err(Error::io(&dir, e)),
        };
    }
    let stamp = format!("ab-{}", clock::compact_now());
    for k in 1u32.. {
        let dir = match k {
            1 => out.join(&stamp),
            _ => out.join(format!("{stamp}-{k}")),
        };
        match fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(&dir, e)),
        }
    }
    unreachable!("some ab-<stamp>-K is free")
}

/// The flags that choose a plan's variants and limits, as both builds' command lines take them.
fn variant_words(plan: &PlanArgs) -> Vec<OsString> {
    let mut words: Vec<OsString> = Vec::new();
    let mut flag = |name: &str, value: String| {
        words.push(name.into());
        words.push(value.into());
    };
    if !plan.heuristic.is_empty() {
        let names: Vec<&str> = plan.heuristic.iter().map(|h| h.name()).collect();
        flag("--heuristic", names.join(","));
    }
    let steps: Vec<&str> = plan.step.iter().map(|s| s.name()).collect();
    flag("--step", steps.join(","));
    let pruning: Vec<&str> = plan
        .reverse_pruning
        .iter()
        .map(|p| match p {
            OnOff::On => "on",
            OnOff::Off => "off",
        })
        .collect();
    flag("--reverse-pruning", pruning.join(","));
    if let Some(n) = plan.limits.max_nodes {
        flag("--max-nodes", n.to_string());
    }
    if let Some(t) = plan.limits.time_limit {
        flag("--time-limit", t.to_string());
    }
    if let Some(dir) = &plan.tables.dir.pdb_dir {
        words.push("--pdb-dir".into());
        words.push(dir.into());
    }
    if plan.tables.no_build {
        words.push("--no-build".into());
    }
    words
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

/// What starting a build's worker found.
enum Started {
    Worker(Worker),
    /// An idabench without the worker mode; its `--version`.
    Old {
        role: Role,
        path: PathBuf,
        version: String,
    },
}

impl Started {
    fn info(&self) -> BuildInfo {
        match self {
            Started::Worker(w) => w.info(),
            Started::Old {
                role,
                path,
                version,
            } => BuildInfo {
                role: role.name(),
                path: path.display().to_string(),
                version: version.clone(),
                protocol: None,
                commit: "-".to_owned(),
                build: "-".to_owned(),
            },
        }
    }
}

/// A worker's stderr, passed on to ours with the build's role in front once the handshake is
/// done; before that, kept, to explain a worker that did not start (and not shown when the
/// build merely lacks the worker mode).
struct Relay {
    forward: bool,
    held: String,
}

/// One build's worker process.
struct Worker {
    role: Role,
    path: PathBuf,
    hello: Hello,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// The build's runs.csv header, to read its rows by column name.
    header: csv::StringRecord,
    relay: Arc<Mutex<Relay>>,
    relay_thread: Option<std::thread::JoinHandle<()>>,
}

impl Worker {
    /// Starts `path worker DATASET... WORDS` and reads its handshake: a worker, an idabench
    /// without the worker mode, or an error (exit 2) for a binary that cannot be run, is not
    /// idabench, or speaks another protocol.
    fn start(
        role: Role,
        path: &Path,
        datasets: &[PathBuf],
        words: &[OsString],
    ) -> Result<Started, Error> {
        let shown = path.display();
        let mut child = spawn(
            Command::new(path)
                .arg("worker")
                .args(datasets)
                .args(words)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| {
            Error::usage(format!(
                "--{} {shown}: cannot run it: {e} (expected an idabench binary)",
                role.name()
            ))
        })?;
        let relay = Arc::new(Mutex::new(Relay {
            forward: false,
            held: String::new(),
        }));
        let relay_thread = child.stderr.take().map(|err| {
            let relay = Arc::clone(&relay);
            std::thread::spawn(move || pass_on(role, err, &relay))
        });
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("stdin and stdout were piped");
        };
        let mut stdout = BufReader::new(stdout);
        let mut line = String::new();
        let deadline = Deadline::start(child.id());
        let read = stdout.read_line(&mut line);
        let late = deadline.stop();
        let hello = match read {
            Ok(_) if !late => Hello::parse(line.trim_end()),
            _ => None,
        };
        let Some(hello) = hello else {
            drop(stdin);
            // A binary that said something else may still be running.
            kill_group(child.id());
            let status = reap(&mut child);
            if late {
                return Err(Error::usage(format!(
                    "--{} {shown}: no handshake within {} s (expected an idabench binary, whose \
                     worker answers at once)",
                    role.name(),
                    HANDSHAKE_TIMEOUT.as_secs()
                )));
            }
            if let Some(t) = relay_thread {
                let _ = t.join();
            }
            let held = std::mem::take(&mut relay.lock().unwrap_or_else(|e| e.into_inner()).held);
            return not_a_worker(role, path, &line, status, &held);
        };
        let mut worker = Worker {
            role,
            path: path.to_path_buf(),
            hello,
            child,
            stdin: Some(stdin),
            stdout,
            header: csv::StringRecord::new(),
            relay,
            relay_thread,
        };
        if worker.hello.protocol != worker::PROTOCOL {
            return Err(Error::usage(format!(
                "--{} {shown}: its worker speaks protocol {} (idabench {}), this idabench ({}) \
                 speaks protocol {}: run `ab` from a build that speaks the other's protocol",
                role.name(),
                worker.hello.protocol,
                worker.hello.version,
                env!("CARGO_PKG_VERSION"),
                worker::PROTOCOL
            )));
        }
        let mut line = String::new();
        match worker.stdout.read_line(&mut line) {
            Ok(n) if n > 0 => {}
            // It planned its jobs after the handshake: its stderr tells why that failed.
            _ => {
                let said = worker.stop();
                let said = said.trim();
                return Err(worker.died(&if said.is_empty() {
                    "ended after its handshake".to_owned()
                } else {
                    format!("ended after its handshake: {}", crate::text::shorten(said))
                }));
            }
        }
        worker.header = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.trim_end().as_bytes())
            .records()
            .next()
            .and_then(Result::ok)
            .ok_or_else(|| {
                Error::input(format!(
                    "--{} {shown}: its worker's second line is not a runs.csv header",
                    role.name()
                ))
            })?;
        let mut relay = worker.relay.lock().unwrap_or_else(|e| e.into_inner());
        relay.forward = true;
        for held in relay.held.lines() {
            note(format_args!("{}: {held}", role.name()));
        }
        relay.held.clear();
        drop(relay);
        Ok(Started::Worker(worker))
    }

    fn info(&self) -> BuildInfo {
        BuildInfo {
            role: self.role.name(),
            path: self.path.display().to_string(),
            version: self.hello.version.clone(),
            protocol: Some(self.hello.protocol),
            commit: self.hello.commit.clone(),
            build: self.hello.build.clone(),
        }
    }

    /// A second worker of the same build, for another lane.
    fn another(&self, datasets: &[PathBuf], words: &[OsString]) -> Result<Worker, Error> {
        match Worker::start(self.role, &self.path, datasets, words)? {
            Started::Worker(w) => Ok(w),
            Started::Old { .. } => Err(self.died("no longer starts as a worker")),
        }
    }

    /// Has the worker solve `job`; its row, read by this build's column names.
    fn solve(&mut self, job: &Job) -> Result<Record, Error> {
        let line = worker::request(&job.dataset.name, &job.instance.id, job.variant);
        let sent = match &mut self.stdin {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        };
        if let Err(e) = sent {
            return Err(self.died(&format!("cannot take a job ({e})")));
        }
        let mut answer = String::new();
        match self.stdout.read_line(&mut answer) {
            Ok(n) if n > 0 => {}
            Ok(_) => return Err(self.died("ended without answering")),
            Err(e) => return Err(self.died(&format!("cannot be read ({e})"))),
        }
        let what = || {
            format!(
                "--{} {}: job (dataset {}, instance {}, variant {})",
                self.role.name(),
                self.path.display(),
                job.dataset.name,
                job.instance.id,
                job.variant
            )
        };
        if let Some(message) = answer.strip_prefix('!') {
            return Err(Error::input(format!("{}: {}", what(), message.trim_end())));
        }
        let row = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(answer.as_bytes())
            .records()
            .next()
            .and_then(Result::ok)
            .unwrap_or_default();
        row.deserialize::<Record>(Some(&self.header))
            .map_err(|e| Error::input(format!("{}: its row cannot be read: {e}", what())))
    }

    /// The error for a worker that stopped answering: a runtime error (exit 1).
    fn died(&self, what: &str) -> Error {
        Error::runtime(format!(
            "--{} {}: its worker {what}",
            self.role.name(),
            self.path.display()
        ))
    }
}

impl Worker {
    /// Ends the worker and what it started, once; what it said on stderr that was held back.
    fn stop(&mut self) -> String {
        // The end of its stdin ends a worker between jobs; one in a job is killed.
        self.stdin.take();
        if let Some(t) = self.relay_thread.take() {
            kill_group(self.child.id());
            let _ = reap(&mut self.child);
            let _ = t.join();
        }
        std::mem::take(&mut self.relay.lock().unwrap_or_else(|e| e.into_inner()).held)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Copies a worker's stderr (see `Relay`).
fn pass_on(role: Role, err: impl io::Read, relay: &Mutex<Relay>) {
    for line in BufReader::new(err).lines() {
        let Ok(line) = line else { break };
        let mut relay = relay.lock().unwrap_or_else(|e| e.into_inner());
        if relay.forward {
            note(format_args!("{}: {line}", role.name()));
        } else if relay.held.len() < 65536 {
            relay.held.push_str(&line);
            relay.held.push('\n');
        }
    }
}

/// What a binary that gave no handshake is: an idabench without the worker mode (`Old`), an
/// idabench whose worker failed (its stderr tells why), or no idabench at all.
fn not_a_worker(
    role: Role,
    path: &Path,
    first_line: &str,
    status: io::Result<std::process::ExitStatus>,
    stderr: &str,
) -> Result<Started, Error> {
    let shown = path.display();
    let answer = output(Command::new(path).arg("--version"), true);
    // Its first line only: another program's --version may go on for a page.
    let version = match &answer {
        Ok(o) => String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(str::trim)
            .find(|line| !line.is_empty())
            .unwrap_or_default()
            .to_owned(),
        Err(_) => String::new(),
    };
    let Some(number) = version.strip_prefix("idabench ") else {
        let said = match &answer {
            Err(e) if e.kind() == io::ErrorKind::TimedOut => format!("nothing ({e})"),
            _ if version.is_empty() => "nothing".to_owned(),
            _ => format!("`{}`", crate::text::shorten(&version)),
        };
        return Err(Error::usage(format!(
            "--{} {shown}: not an idabench binary (`{shown} --version` printed {said}, \
             expected `idabench VERSION`)",
            role.name()
        )));
    };
    if stderr.contains("unrecognized subcommand") && first_line.is_empty() {
        return Ok(Started::Old {
            role,
            path: path.to_path_buf(),
            version: number.to_owned(),
        });
    }
    let how = match status {
        Ok(s) => s.to_string(),
        Err(e) => e.to_string(),
    };
    let said = stderr.trim();
    Err(Error::input(format!(
        "--{} {shown}: its worker (idabench {number}) stopped before its handshake ({how}){}",
        role.name(),
        if said.is_empty() {
            String::new()
        } else {
            format!(": {}", crate::text::shorten(said))
        }
    )))
}

/// One job's two measurements in one round.
struct Pair {
    round: usize,
    /// The job's index in the plan.
    job: usize,
    /// The job's place in the schedule.
    order: usize,
    baseline_first: bool,
    baseline: Record,
    current: Record,
}

/// Whether the baseline goes first for job (or group) `j` in round `r`: alternating from one
/// to the next, and for one job from round to round.
fn baseline_first(r: usize, j: usize) -> bool {
    (r + j).is_multiple_of(2)
}

/// Every job in every round on workers: lane 0 on the workers already started, the other lanes
/// on workers of their own, all taking the schedule's next pair when free. A signal or a
/// failure stops the lanes; the pairs finished are kept.
fn by_workers(
    args: &AbArgs,
    jobs: &[Job<'_>],
    base: Worker,
    cur: Worker,
    rounds: usize,
) -> Measured {
    let datasets = &args.plan.datasets;
    let words = variant_words(&args.plan);
    let mut lanes = Vec::new();
    for _ in 1..args.jobs {
        match (
            base.another(datasets, &words),
            cur.another(datasets, &words),
        ) {
            (Ok(a), Ok(b)) => lanes.push([a, b]),
            (Err(e), _) | (_, Err(e)) => return stopped(Vec::new(), e),
        }
    }
    lanes.insert(0, [base, cur]);
    let warm_up = warm_up_jobs(jobs);
    let total = rounds * jobs.len();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<Pair, Error>>();
    std::thread::scope(|scope| {
        for mut lane in lanes {
            let (tx, next, failed, warm_up) = (tx.clone(), &next, &failed, &warm_up);
            let words = &words;
            scope.spawn(move || {
                // A worker killed by the signal handler fails its job: that is the interruption,
                // not an error.
                let fail = |e: Error| {
                    if !CANCEL.load(Ordering::SeqCst) {
                        failed.store(true, Ordering::Relaxed);
                        let _ = tx.send(Err(e));
                    }
                };
                let mut lane_round = None;
                loop {
                    if failed.load(Ordering::Relaxed) || CANCEL.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= total {
                        return;
                    }
                    let (round, job) = (k / jobs.len(), k % jobs.len());
                    if lane_round != Some(round) {
                        // Fresh workers each round: how fast a process happens to be (where its
                        // code, stack and heap land) then varies from round to round, where the
                        // bootstrap over rounds sees it, instead of favouring one build for the
                        // whole comparison.
                        if lane_round.is_some() {
                            match (
                                lane[0].another(datasets, words),
                                lane[1].another(datasets, words),
                            ) {
                                (Ok(a), Ok(b)) => lane = [a, b],
                                (Err(e), _) | (_, Err(e)) => return fail(e),
                            }
                        }
                        // The first jobs of a process pay for its page faults and tables: each
                        // worker solves one short job of each variant before it is measured.
                        for w in &mut lane {
                            for &j in warm_up {
                                if let Err(e) = w.solve(&jobs[j]) {
                                    return fail(e);
                                }
                            }
                        }
                        lane_round = Some(round);
                    }
                    let first = baseline_first(round, job);
                    let order = if first { [0, 1] } else { [1, 0] };
                    let mut records: [Option<Record>; 2] = [None, None];
                    for side in order {
                        match lane[side].solve(&jobs[job]) {
                            Ok(r) => records[side] = Some(r),
                            Err(e) => return fail(e),
                        }
                    }
                    let [Some(baseline), Some(current)] = records else {
                        unreachable!("both sides answered");
                    };
                    let pair = Pair {
                        round,
                        job,
                        order: k,
                        baseline_first: first,
                        baseline,
                        current,
                    };
                    if tx.send(Ok(pair)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        collect(rx, total, args.quiet)
    })
}

/// The pairs as they come, with progress on stderr; the first error stops the lanes.
fn collect(rx: mpsc::Receiver<Result<Pair, Error>>, total: usize, quiet: bool) -> Measured {
    let started = Instant::now();
    let mut last = started;
    let mut pairs = Vec::with_capacity(total);
    let mut error = None;
    for pair in rx {
        match pair {
            Ok(p) => pairs.push(p),
            Err(e) => {
                error.get_or_insert(e);
            }
        }
        if !quiet && last.elapsed() >= PROGRESS_EVERY {
            last = Instant::now();
            note(format_args!(
                "[{:>6.0}s] {}/{total} pairs",
                started.elapsed().as_secs_f64(),
                pairs.len()
            ));
        }
    }
    pairs.sort_by_key(|p| p.order);
    Measured { pairs, error }
}

/// Measuring stopped by `error`.
fn stopped(pairs: Vec<Pair>, error: Error) -> Measured {
    Measured {
        pairs,
        error: Some(error),
    }
}

/// Of each variant, the job with the shortest reference length (the dataset's free hint; the
/// first job of the variant when none has one).
fn warm_up_jobs(jobs: &[Job<'_>]) -> Vec<usize> {
    let mut best: Vec<(&str, usize)> = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let key = |j: &Job| j.instance.optimal.unwrap_or(u32::MAX);
        match best.iter_mut().find(|(v, _)| *v == job.variant) {
            Some((_, b)) if key(job) < key(&jobs[*b]) => *b = i,
            Some(_) => {}
            None => best.push((job.variant, i)),
        }
    }
    best.into_iter().map(|(_, i)| i).collect()
}

/// Every job in every round by `idabench run` invocations: groups of up to `GROUP` instances of
/// one dataset, each written as a dataset file of its own (the same name, so the rows name the
/// original dataset), run by both builds back to back. Fills in each build's commit and profile
/// from its first run's manifest. A signal or a failure stops it; the groups finished are kept.
fn by_runs(
    args: &AbArgs,
    jobs: &[Job<'_>],
    paths: &[PathBuf; 2],
    words: &[OsString],
    rounds: usize,
    builds: &mut [BuildInfo; 2],
) -> Measured {
    let tmp = match tempfile::tempdir() {
        Ok(tmp) => tmp,
        Err(e) => return stopped(Vec::new(), Error::io(std::env::temp_dir(), e)),
    };
    let groups = match group_files(jobs, tmp.path()) {
        Ok(groups) => groups,
        Err(e) => return stopped(Vec::new(), e),
    };
    let index: HashMap<(&str, &str, &str), usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            (
                (j.dataset.name.as_str(), j.instance.id.as_str(), j.variant),
                i,
            )
        })
        .collect();
    // The plots of these small runs would be thrown away, and drawing them is time spent
    // between the two builds' runs of a group; but only a build that knows `--no-plots` may be
    // given it (a build from before the plots would refuse the flag), so each build is asked.
    let words = paths.each_ref().map(|bin| {
        let mut words = words.to_vec();
        if takes_no_plots(bin) {
            words.push("--no-plots".into());
        }
        words
    });
    let total = rounds * groups.len();
    let mut pairs = Vec::new();
    let mut read_manifest = [true, true];
    for k in 0..total {
        if CANCEL.load(Ordering::SeqCst) {
            break;
        }
        let (round, g) = (k / groups.len(), k % groups.len());
        let first = baseline_first(round, g);
        let mut got: [Vec<Record>; 2] = [Vec::new(), Vec::new()];
        for side in if first { [0, 1] } else { [1, 0] } {
            let out = tmp.path().join(format!("r{round}-g{g}-{side}"));
            let (records, manifest) =
                match run_group(&paths[side], &groups[g], &words[side], &out, side) {
                    Ok(got) => got,
                    Err(e) => return stopped(pairs, e),
                };
            if std::mem::take(&mut read_manifest[side]) {
                if let Some(m) = manifest {
                    builds[side].commit = m.git_commit.unwrap_or_else(|| "-".to_owned());
                    builds[side].build = m.build_profile;
                }
            }
            got[side] = records;
            let _ = fs::remove_dir_all(&out);
        }
        let [base, cur] = got;
        let mut current: HashMap<usize, Record> = HashMap::new();
        for r in cur {
            if let Some(&i) = index.get(&r.key()) {
                current.insert(i, r);
            }
        }
        for b in base {
            let Some(&job) = index.get(&b.key()) else {
                continue;
            };
            if let Some(c) = current.remove(&job) {
                pairs.push(Pair {
                    round,
                    job,
                    order: k * jobs.len() + job,
                    baseline_first: first,
                    baseline: b,
                    current: c,
                });
            }
        }
        if !args.quiet && k + 1 < total && (k + 1) % groups.len() == 0 {
            note(format_args!("round {} of {rounds} done", round + 1));
        }
    }
    Measured { pairs, error: None }
}

/// The dataset file of each group of instances, in the plan's order.
fn group_files(jobs: &[Job<'_>], tmp: &Path) -> Result<Vec<PathBuf>, Error> {
    // Instances in plan order, each once, grouped by dataset.
    let mut instances: Vec<(&crate::dataset::Dataset, Vec<&str>)> = Vec::new();
    for job in jobs {
        let id = job.instance.id.as_str();
        match instances.last_mut() {
            Some((d, ids)) if std::ptr::eq(*d, job.dataset) => {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            _ => instances.push((job.dataset, vec![id])),
        }
    }
    let mut files = Vec::new();
    for (dataset, ids) in instances {
        let bytes = fs::read(&dataset.path).map_err(|e| Error::io(&dataset.path, e))?;
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
        let header = reader
            .headers()
            .map_err(|e| Error::input(format!("{}: {e}", dataset.path.display())))?
            .clone();
        let id_column = header.iter().position(|h| h.trim() == "id").unwrap_or(0);
        let rows: Vec<csv::StringRecord> = reader
            .records()
            .collect::<Result<_, _>>()
            .map_err(|e| Error::input(format!("{}: {e}", dataset.path.display())))?;
        for group in ids.chunks(GROUP) {
            let dir = tmp.join(format!("g{}", files.len()));
            fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let path = dir.join(format!("{}.csv", dataset.name));
            let mut writer = csv::Writer::from_writer(Vec::new());
            let mut write = |r: &csv::StringRecord| {
                writer
                    .write_record(r)
                    .map_err(|e| Error::runtime(e.to_string()))
            };
            write(&header)?;
            for row in &rows {
                if row
                    .get(id_column)
                    .is_some_and(|id| group.contains(&id.trim()))
                {
                    write(row)?;
                }
            }
            let bytes = writer
                .into_inner()
                .map_err(|e| Error::runtime(e.to_string()))?;
            fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
            files.push(path);
        }
    }
    Ok(files)
}

/// Whether `bin run` takes `--no-plots`, as its `run --help` tells.
fn takes_no_plots(bin: &Path) -> bool {
    output(Command::new(bin).args(["run", "--help"]), true)
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("--no-plots"))
}

/// `BIN run DATASET WORDS --jobs 1 --quiet --out DIR --name runs`: its rows and manifest.
fn run_group(
    bin: &Path,
    dataset: &Path,
    words: &[OsString],
    out: &Path,
    side: usize,
) -> Result<(Vec<Record>, Option<record::Manifest>), Error> {
    let role = [Role::Baseline, Role::Current][side].name();
    let output = output(
        Command::new(bin)
            .arg("run")
            .arg(dataset)
            .args(words)
            .args(["--jobs", "1", "--quiet", "--name", "runs", "--out"])
            .arg(out),
        false,
    )
    .map_err(|e| Error::usage(format!("--{role} {}: cannot run it: {e}", bin.display())))?;
    let runs = out.join("runs").join("runs.csv");
    match record::read_runs(&runs) {
        Ok(records) if !records.is_empty() => {
            let manifest = record::read_manifest(&out.join("runs").join("manifest.json")).ok();
            Ok((records, manifest))
        }
        _ => Err(Error::runtime(format!(
            "--{role} {}: `run` of {} gave no rows ({}): {}",
            bin.display(),
            dataset.display(),
            output.status,
            crate::text::shorten(String::from_utf8_lossy(&output.stderr).trim())
        ))),
    }
}

/// Each round's two runs, the jobs in plan order; sources are the builds' paths.
fn by_round(
    pairs: &[Pair],
    jobs: &[Job<'_>],
    rounds: usize,
    builds: &[BuildInfo; 2],
) -> Vec<(SavedRun, SavedRun)> {
    let run = |source: &str| SavedRun {
        records: Vec::with_capacity(jobs.len()),
        manifest: None,
        source: source.to_owned(),
    };
    let mut out: Vec<(SavedRun, SavedRun)> = (0..rounds)
        .map(|_| (run(&builds[0].path), run(&builds[1].path)))
        .collect();
    let mut sorted: Vec<&Pair> = pairs.iter().collect();
    sorted.sort_by_key(|p| (p.round, p.job));
    for p in sorted {
        out[p.round].0.records.push(p.baseline.clone());
        out[p.round].1.records.push(p.current.clone());
    }
    out
}

/// manifest.json of an `ab` report.
#[derive(Serialize)]
struct AbManifest {
    command: &'static str,
    idabench_version: String,
    baseline: BuildInfo,
    current: BuildInfo,
    /// `worker` or `run`.
    mode: &'static str,
    schedule: String,
    rounds: usize,
    lanes: usize,
    /// Jobs per round.
    jobs: usize,
    /// Pairs measured.
    pairs: usize,
    /// Rounds x jobs.
    pairs_planned: usize,
    /// Whether every pair was measured.
    complete: bool,
    /// What stopped the measuring early: a signal, or the error.
    stopped_by: Option<String>,
    threshold: f64,
    datasets: Vec<DatasetInfo>,
    variants: Vec<String>,
    max_nodes: Option<u64>,
    time_limit_s: Option<f64>,
    cpu_model: String,
    cores: usize,
    host: Option<String>,
    command_line: Vec<String>,
    start_time: String,
    end_time: String,
}

/// The columns of pairs.csv.
const PAIRS_HEADER: &str =
    "round,order,dataset,instance,variant,first,baseline_cpu_s,current_cpu_s,ratio\n";

/// runs-baseline.csv, runs-current.csv, pairs.csv, comparison.md and manifest.json, each whole
/// or not at all.
fn write_report(
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
        .map_err(|e| Error::runtime(e.to_string()))?;
        table.extend(
            row.into_inner()
                .map_err(|e| Error::runtime(e.to_string()))?,
        );
    }
    let json = serde_json::to_vec_pretty(manifest).map_err(|e| Error::runtime(e.to_string()))?;
    let markdown = comparison.render(RenderFormat::Markdown);
    let files: [(&str, &[u8]); 5] = [
        ("runs-baseline.csv", &runs[0]),
        ("runs-current.csv", &runs[1]),
        ("pairs.csv", &table),
        ("comparison.md", markdown.as_bytes()),
        ("manifest.json", &json),
    ];
    for (name, bytes) in files {
        report::write_atomic(&dir.join(name), bytes).map_err(Error::runtime)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_build_alternates_by_job_and_by_round() {
        let firsts: Vec<bool> = (0..4).map(|j| baseline_first(0, j)).collect();
        assert_eq!(firsts, [true, false, true, false]);
        assert!((0..6).all(|j| baseline_first(1, j) != baseline_first(0, j)));
    }
}
