//! The worker client: one build's `idabench worker` started, its handshake checked, jobs sent
//! and rows read back, each checked to be the row of the job asked for, with measured times;
//! a worker that owes an answer too long is killed (`children::Watch`). And what a binary that
//! gives no handshake is.

use super::children::{
    kill_group, output, reap, spawn, Patience, Watch, ANSWER_GRACE, HANDSHAKE_TIMEOUT, STALL,
};
use super::{failed, refused};
use super::{BuildInfo, Role};
use crate::error::Error;
use crate::results::record::{self, Record};
use crate::runner::job::{self, Job};
use crate::runner::protocol::{self, read_message, Framing, Hello};
use crate::util::term::note;
use crate::util::text::shorten;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

/// What `ab` and the workers of one comparison go by: the longest message their plan allows
/// (`protocol::max_message`) and its jobs' wall time limit, which says how long an answer may
/// take (a CPU time limit does not: a loaded machine stretches it).
#[derive(Clone, Copy, Debug)]
pub(super) struct Terms {
    pub(super) max_message: usize,
    pub(super) wall_limit: Option<f64>,
}

/// A worker's answer to a job.
pub(super) enum Answer {
    Row(Record),
    /// No answer in time, so the worker was killed: the job's `error` record, and the error
    /// that stops the measuring.
    Hung(Record, Error),
}

/// What starting a build's worker found.
pub(super) enum Started {
    Worker(Box<Worker>),
    /// An idabench without the worker mode; its `--version`.
    Old {
        role: Role,
        path: PathBuf,
        version: String,
    },
}

impl Started {
    pub(super) fn info(&self) -> BuildInfo {
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
pub(super) struct Worker {
    role: Role,
    path: PathBuf,
    /// The plan's arguments it was started with, which another worker of the build is given.
    args: Vec<OsString>,
    hello: Hello,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Kills the worker when an answer it owes takes too long.
    watch: Watch,
    terms: Terms,
    /// The last message read.
    message: Vec<u8>,
    /// The build's runs.csv header, to read its rows by column name.
    header: csv::StringRecord,
    relay: Arc<Mutex<Relay>>,
    relay_thread: Option<std::thread::JoinHandle<()>>,
}

impl Worker {
    /// Starts `path worker ARGS` (the plan's arguments) and reads its handshake: a worker, an
    /// idabench without the worker mode, or an error (exit 2) for a binary that cannot be run,
    /// is not idabench, or speaks another protocol.
    pub(super) fn start(
        role: Role,
        path: &Path,
        args: &[OsString],
        terms: Terms,
    ) -> Result<Started, Error> {
        let shown = path.display();
        let mut child = spawn(
            Command::new(path)
                .arg("worker")
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| {
            refused(format!(
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
        let mut watch = Watch::start(child.id());
        watch.ask(Patience::Deadline(HANDSHAKE_TIMEOUT));
        let mut line = Vec::new();
        let read = read_message(&mut stdout, terms.max_message, &mut line);
        let late = watch.answered();
        let hello = match read {
            Ok(true) if late.is_none() => std::str::from_utf8(&line)
                .ok()
                .and_then(|l| Hello::parse(l.trim_end())),
            _ => None,
        };
        let Some(hello) = hello else {
            drop(stdin);
            watch.stop();
            // A binary that said something else may still be running.
            kill_group(child.id());
            let status = reap(&mut child);
            if let Some(late) = late {
                return Err(refused(format!(
                    "--{} {shown}: no handshake {late} (expected an idabench binary, whose \
                     worker answers at once)",
                    role.name()
                )));
            }
            if let Some(t) = relay_thread {
                let _ = t.join();
            }
            let held = std::mem::take(&mut relay.lock().unwrap_or_else(|e| e.into_inner()).held);
            let line = String::from_utf8_lossy(&line);
            return not_a_worker(role, path, &line, status, &held);
        };
        let mut worker = Worker {
            role,
            path: path.to_path_buf(),
            args: args.to_vec(),
            hello,
            child,
            stdin: Some(stdin),
            stdout,
            watch,
            terms,
            message: line,
            header: csv::StringRecord::new(),
            relay,
            relay_thread,
        };
        if worker.hello.protocol != protocol::PROTOCOL {
            return Err(refused(format!(
                "--{} {shown}: its worker speaks protocol {} (idabench {}), this idabench ({}) \
                 speaks protocol {}: run `ab` from a build that speaks the other's protocol",
                role.name(),
                worker.hello.protocol,
                worker.hello.version,
                env!("CARGO_PKG_VERSION"),
                protocol::PROTOCOL
            )));
        }
        // Planning the jobs and building their tables use CPU time, however long they take.
        worker.watch.ask(Patience::Progress(STALL));
        let read = read_message(&mut worker.stdout, terms.max_message, &mut worker.message);
        if let Some(patience) = worker.watch.answered() {
            return Err(worker.died(&format!(
                "gave no runs.csv header (its jobs planned, their tables ready) {patience}: killed"
            )));
        }
        let header = match read {
            Ok(true) => csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(&worker.message[..])
                .records()
                .next()
                .and_then(Result::ok),
            Err(Framing::TooLong(_)) => None,
            // It planned its jobs after the handshake: its stderr tells why that failed.
            Ok(false) | Err(_) => {
                let said = worker.stop();
                let said = said.trim();
                return Err(worker.died(&if said.is_empty() {
                    "ended after its handshake".to_owned()
                } else {
                    format!(
                        "ended after its handshake: {}",
                        crate::util::text::shorten(said)
                    )
                }));
            }
        };
        worker.header = header.ok_or_else(|| {
            refused(format!(
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
        Ok(Started::Worker(Box::new(worker)))
    }

    pub(super) fn info(&self) -> BuildInfo {
        BuildInfo {
            role: self.role.name(),
            path: self.path.display().to_string(),
            version: self.hello.version.clone(),
            protocol: Some(self.hello.protocol),
            commit: self.hello.commit.clone(),
            build: self.hello.build.clone(),
        }
    }

    /// Whether the build's worker takes a selection, as its handshake says.
    pub(super) fn selection(&self) -> bool {
        self.hello.selection
    }

    /// Whether the build's `--time-limit` limits CPU time, as its handshake says.
    pub(super) fn cpu_limits(&self) -> bool {
        self.hello.cpu_limits
    }

    /// Whether `fsm` without a depth is each domain's own depth there, as its handshake says.
    pub(super) fn fsm_domain_depths(&self) -> bool {
        self.hello.fsm_domain_depths
    }

    /// A second worker of the same build, with the same arguments: for another lane or round.
    pub(super) fn another(&self) -> Result<Worker, Error> {
        match Worker::start(self.role, &self.path, &self.args, self.terms)? {
            Started::Worker(w) => Ok(*w),
            Started::Old { .. } => Err(self.died("no longer starts as a worker")),
        }
    }

    /// Has the worker solve `job`: its row, read by this build's column names, or the job's
    /// `error` record when no answer came in time (`Patience::for_job`).
    pub(super) fn solve(&mut self, job: &Job) -> Result<Answer, Error> {
        let request = protocol::request(&job.dataset.name, &job.instance.id, job.variant);
        let patience = Patience::for_job(self.terms.wall_limit);
        // From before the request: a worker that does not read its stdin can block the write.
        self.watch.ask(patience);
        let sent = match &mut self.stdin {
            Some(stdin) => stdin.write_all(&request).and_then(|()| stdin.flush()),
            None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        };
        let read = sent
            .is_ok()
            .then(|| read_message(&mut self.stdout, self.terms.max_message, &mut self.message));
        if self.watch.answered().is_some() {
            return Ok(self.hung(job, patience));
        }
        if let Err(e) = sent {
            return Err(self.died(&format!("cannot take a job ({e})")));
        }
        let what = || {
            format!(
                "--{} {}: job (dataset {}, instance {}, variant {})",
                self.role.name(),
                self.path.display(),
                shorten(&job.dataset.name),
                shorten(&job.instance.id),
                job.variant
            )
        };
        match read {
            Some(Ok(true)) => {}
            Some(Err(e @ Framing::TooLong(_))) => {
                return Err(refused(format!("{}: its answer is {e}", what())))
            }
            Some(Err(Framing::Cut)) => {
                return Err(self.died("ended in the middle of an answer (a quote left open)"))
            }
            Some(Err(Framing::Io(e))) => return Err(self.died(&format!("cannot be read ({e})"))),
            Some(Ok(false)) | None => return Err(self.died("ended without answering")),
        }
        if let Some(message) = self.message.strip_prefix(b"!") {
            let message = String::from_utf8_lossy(message);
            return Err(refused(format!("{}: {}", what(), message.trim_end())));
        }
        self.row(job)
            .map(Answer::Row)
            .map_err(|e| refused(format!("{}: its row cannot be used: {e}", what())))
    }

    /// The last message as the row of `job`: one runs.csv row, of that job, whose times are
    /// measured ones (as `compare` would read it).
    fn row(&self, job: &Job) -> Result<Record, String> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&self.message[..]);
        let mut rows = reader.records();
        let row = match (rows.next(), rows.next()) {
            (Some(Ok(row)), None) => row,
            (Some(Err(e)), _) => return Err(e.to_string()),
            _ => return Err("expected one line of runs.csv".to_owned()),
        };
        let mut record: Record = row
            .deserialize(Some(&self.header))
            .map_err(|e| e.to_string())?;
        record::absent_columns(&mut record, &self.header);
        let (dataset, instance, variant) = record.job();
        if (dataset, instance, variant) != (&job.dataset.name, &job.instance.id, job.variant) {
            return Err(format!(
                "it is the row of another job (dataset {}, instance {}, variant {})",
                shorten(dataset),
                shorten(instance),
                shorten(variant)
            ));
        }
        match record::unwritten(&record) {
            Some(fault) => Err(fault),
            None => Ok(record),
        }
    }

    /// `job`'s answer when the worker was killed for owing it longer than `patience`.
    fn hung(&self, job: &Job, patience: Patience) -> Answer {
        let why = match (patience, self.terms.wall_limit) {
            (Patience::Deadline(_), Some(limit)) => format!(
                " (its wall limit of {limit} s and {} s more)",
                ANSWER_GRACE.as_secs()
            ),
            _ => String::new(),
        };
        let record = job::error_record(
            job,
            format!("no answer {patience}{why}: the worker was killed"),
        );
        let error = self.died(&format!(
            "gave no answer to job (dataset {}, instance {}, variant {}) {patience}{why}: killed; \
             the job is recorded as `error`",
            shorten(&job.dataset.name),
            shorten(&job.instance.id),
            shorten(job.variant)
        ));
        Answer::Hung(record, error)
    }

    /// The error for a worker that stopped answering: a runtime error (exit 1).
    pub(super) fn died(&self, what: &str) -> Error {
        failed(format!(
            "--{} {}: its worker {what}",
            self.role.name(),
            self.path.display()
        ))
    }
}

impl Worker {
    /// Ends the worker and what it started, once; what it said on stderr that was held back.
    pub(super) fn stop(&mut self) -> String {
        // The end of its stdin ends a worker between jobs; one in a job is killed.
        self.stdin.take();
        self.watch.stop();
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

/// The longest line of a worker's stderr that is passed on whole; the rest of a longer one is
/// dropped.
const NOTE_LINE: usize = 64 * 1024;

/// Copies a worker's stderr (see `Relay`).
fn pass_on(role: Role, err: impl io::Read, relay: &Mutex<Relay>) {
    let mut err = BufReader::new(err);
    let mut line = Vec::new();
    while let Ok(true) = read_line_capped(&mut err, NOTE_LINE, &mut line) {
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\n', '\r']);
        let mut relay = relay.lock().unwrap_or_else(|e| e.into_inner());
        if relay.forward {
            note(format_args!("{}: {line}", role.name()));
        } else if relay.held.len() < 65536 {
            relay.held.push_str(line);
            relay.held.push('\n');
        }
    }
}

/// Reads a line into `line` (emptied first), of which at most `cap` bytes are kept; `Ok(false)`
/// at the end of the stream.
fn read_line_capped(input: &mut impl BufRead, cap: usize, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any);
        }
        any = true;
        let (n, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = cap.saturating_sub(line.len()).min(n);
        line.extend_from_slice(&chunk[..room]);
        input.consume(n);
        if end {
            return Ok(true);
        }
    }
}

/// The handshake of `path`'s worker, what the build can do, read before it is given a plan: the
/// worker is given a dataset that does not exist, so it writes its handshake and stops without
/// reading a file or building a table, and is killed once its first line is read. `None`
/// without a handshake within `HANDSHAKE_TIMEOUT`: a build without the worker mode, or no
/// idabench (`Worker::start` tells which).
pub(super) fn handshake(path: &Path) -> Option<Hello> {
    let empty = tempfile::tempdir().ok()?;
    let mut child = spawn(
        Command::new(path)
            .args(["worker", "--"])
            .arg(empty.path().join("no-dataset.csv"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    )
    .ok()?;
    let Some(stdout) = child.stdout.take() else {
        unreachable!("stdout was piped");
    };
    let mut watch = Watch::start(child.id());
    watch.ask(Patience::Deadline(HANDSHAKE_TIMEOUT));
    let mut line = Vec::new();
    let read = read_line_capped(&mut BufReader::new(stdout), NOTE_LINE, &mut line);
    watch.stop();
    kill_group(child.id());
    let _ = reap(&mut child);
    match read {
        Ok(true) => Hello::parse(String::from_utf8_lossy(&line).trim_end()),
        _ => None,
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
    let answer = output(
        Command::new(path).arg("--version"),
        Patience::Deadline(HANDSHAKE_TIMEOUT),
    );
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
            _ => format!("`{}`", crate::util::text::shorten(&version)),
        };
        return Err(refused(format!(
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
    Err(refused(format!(
        "--{} {shown}: its worker (idabench {number}) stopped before its handshake ({how}){}",
        role.name(),
        if said.is_empty() {
            String::new()
        } else {
            format!(": {}", crate::util::text::shorten(said))
        }
    )))
}
