//! The worker client: one build's `idabench worker` started, its handshake checked, jobs sent
//! and rows read back; and what a binary that gives no handshake is.

use super::children::{kill_group, output, reap, spawn, Deadline, HANDSHAKE_TIMEOUT};
use super::{failed, refused};
use super::{BuildInfo, Role};
use crate::error::Error;
use crate::results::record::Record;
use crate::runner::job::Job;
use crate::runner::protocol::{self, Hello};
use crate::util::term::note;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

/// What starting a build's worker found.
pub(super) enum Started {
    Worker(Worker),
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
    pub(super) fn start(
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
                return Err(refused(format!(
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
                    format!(
                        "ended after its handshake: {}",
                        crate::util::text::shorten(said)
                    )
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
        Ok(Started::Worker(worker))
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

    /// A second worker of the same build, for another lane.
    pub(super) fn another(
        &self,
        datasets: &[PathBuf],
        words: &[OsString],
    ) -> Result<Worker, Error> {
        match Worker::start(self.role, &self.path, datasets, words)? {
            Started::Worker(w) => Ok(w),
            Started::Old { .. } => Err(self.died("no longer starts as a worker")),
        }
    }

    /// Has the worker solve `job`; its row, read by this build's column names.
    pub(super) fn solve(&mut self, job: &Job) -> Result<Record, Error> {
        let line = protocol::request(&job.dataset.name, &job.instance.id, job.variant);
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
            return Err(refused(format!("{}: {}", what(), message.trim_end())));
        }
        let row = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(answer.as_bytes())
            .records()
            .next()
            .and_then(Result::ok)
            .unwrap_or_default();
        row.deserialize::<Record>(Some(&self.header))
            .map_err(|e| refused(format!("{}: its row cannot be read: {e}", what())))
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
