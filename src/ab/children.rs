//! The processes `ab` starts: each in a process group of its own, killed whole when `ab` is
//! interrupted or gives up on one, and waited for with a deadline where one must answer soon.

use super::CANCEL;
use crate::util::interrupt;
use crate::util::term::note;
use std::io::{self};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// The processes `ab` started and has not yet waited for, each the leader of its own process
/// group. Their own group keeps a terminal's Ctrl-C from killing them before `ab` knows it was
/// interrupted (it would take that for a worker that died); `ab`'s handler kills the groups
/// instead, so that a search in progress stops at once and nothing a worker started is left.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

pub(super) fn install_signal_handler() {
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
pub(super) fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) touches no memory of this process.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// Spawns `command` in a process group of its own, listed in `CHILDREN` until `reap` waits for
/// it; when `ab` was already interrupted, the child is killed at once.
pub(super) fn spawn(command: &mut Command) -> io::Result<Child> {
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
pub(super) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Kills a child's process group if not stopped within `HANDSHAKE_TIMEOUT`.
pub(super) struct Deadline {
    stop: mpsc::Sender<()>,
    watch: std::thread::JoinHandle<bool>,
}

impl Deadline {
    pub(super) fn start(pid: u32) -> Deadline {
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
    pub(super) fn stop(self) -> bool {
        drop(self.stop);
        self.watch.join().unwrap_or(true)
    }
}

/// `command`'s stdout and stderr (stdin closed), run as `spawn` runs it; with `limit`, an error
/// when it has not ended within `HANDSHAKE_TIMEOUT` (it is killed).
pub(super) fn output(command: &mut Command, limit: bool) -> io::Result<std::process::Output> {
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
pub(super) fn reap(child: &mut Child) -> io::Result<std::process::ExitStatus> {
    let pid = child.id();
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&p| p != pid);
    child.wait()
}
