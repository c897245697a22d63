//! The processes `ab` starts: each in a process group of its own, killed whole when `ab` is
//! interrupted or gives up on one (`Watch`: an answer past its deadline, or a process that
//! stopped using CPU time), and what is read of their output, within bounds.

use super::CANCEL;
use crate::util::interrupt;
use crate::util::term::note;
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

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

/// How long past a job's time limit its answer may take: the search looks at its clock only
/// every so many nodes, and the row must still be written and read.
pub(super) const ANSWER_GRACE: Duration = Duration::from_secs(10);

/// How long a worker (or an old build's `run`) may use no CPU time at all while `ab` waits for
/// it with no time limit to go by: a search, planning and building tables all use CPU time, so
/// a worker that uses none is waiting for something that will not come.
pub(super) const STALL: Duration = Duration::from_secs(60);

/// How often the CPU time of a process `ab` waits for is read: the first reading comes this
/// long after the question, so that the short jobs most benchmarks are made of cost none.
const POLL: Duration = Duration::from_secs(1);

/// What `ab` keeps of a child's stdout or stderr: the rest is read and dropped, so that a
/// child that writes without end costs no memory.
const CAPTURE: u64 = 1 << 20;

/// How long `ab` waits for an answer before it kills the process group that owes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Patience {
    /// Until this long after the question.
    Deadline(Duration),
    /// As long as the group uses CPU time: killed after this long without any.
    Progress(Duration),
}

impl Patience {
    /// For a job's answer: its wall time limit and `ANSWER_GRACE`, or without one, `STALL`.
    pub(super) fn for_job(wall_limit: Option<f64>) -> Patience {
        match wall_limit {
            Some(s) => Patience::Deadline(Duration::from_secs_f64(s) + ANSWER_GRACE),
            None => Patience::Progress(STALL),
        }
    }
}

/// Completes "no answer ...".
impl fmt::Display for Patience {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Patience::Deadline(d) => write!(f, "within {} s", d.as_secs_f64()),
            Patience::Progress(d) => {
                write!(f, "while it used no CPU time for {} s", d.as_secs_f64())
            }
        }
    }
}

/// Kills a child's process group when an answer it owes (`ask`) takes longer than its
/// `Patience`: one thread per child, asleep while nothing is due.
pub(super) struct Watch {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

struct Shared {
    state: Mutex<Due>,
    wake: Condvar,
}

/// What the watch of one child knows.
#[derive(Default)]
struct Due {
    /// The answer owed: asked when, with what patience.
    now: Option<(Instant, Patience)>,
    /// Questions asked so far: tells one question's CPU readings from the next's.
    asked: u64,
    /// The patience that ran out, once the group was killed.
    killed: Option<Patience>,
    stop: bool,
}

impl Watch {
    pub(super) fn start(pid: u32) -> Watch {
        let shared = Arc::new(Shared {
            state: Mutex::new(Due::default()),
            wake: Condvar::new(),
        });
        let watching = Arc::clone(&shared);
        let thread = std::thread::spawn(move || watch(pid, &watching));
        Watch {
            shared,
            thread: Some(thread),
        }
    }

    fn due(&self) -> MutexGuard<'_, Due> {
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An answer is owed from now on, within `patience`.
    pub(super) fn ask(&self, patience: Patience) {
        let mut due = self.due();
        due.now = Some((Instant::now(), patience));
        due.asked += 1;
        drop(due);
        self.shared.wake.notify_one();
    }

    /// Nothing is owed any more (the answer came, or the stream ended); the patience that ran
    /// out if the group was killed for it.
    pub(super) fn answered(&self) -> Option<Patience> {
        let mut due = self.due();
        due.now = None;
        due.killed
    }

    /// Ends the watch. Called before the child is waited for, so that a kill cannot reach
    /// another process that took its pid.
    pub(super) fn stop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.due().stop = true;
            self.shared.wake.notify_one();
            let _ = thread.join();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The watch's thread (see `Watch`).
fn watch(pid: u32, shared: &Shared) {
    let lock = || shared.state.lock().unwrap_or_else(|e| e.into_inner());
    // Of the question being answered: its CPU time last read, and when it last changed.
    let mut seen: Option<(u64, Option<u64>, Instant)> = None;
    let mut due = lock();
    loop {
        if due.stop {
            return;
        }
        let Some((since, patience)) = due.now.filter(|_| due.killed.is_none()) else {
            due = shared.wake.wait(due).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let now = Instant::now();
        let left = match patience {
            Patience::Deadline(d) => (since + d).saturating_duration_since(now),
            Patience::Progress(_) if now < since + POLL => since + POLL - now,
            Patience::Progress(stall) => {
                let question = due.asked;
                // /proc is read without the lock, which `ab` takes at every job.
                drop(due);
                let ticks = group_ticks(pid);
                due = lock();
                if due.asked != question || due.now.is_none() {
                    continue;
                }
                match seen {
                    Some((q, t, _)) if q == question && t == ticks && ticks.is_some() => {}
                    _ => seen = Some((question, ticks, now)),
                }
                let changed = seen.map_or(now, |(_, _, at)| at);
                (changed + stall).saturating_duration_since(now).min(POLL)
            }
        };
        if left.is_zero() {
            kill_group(pid);
            due.killed = Some(patience);
        } else {
            due = shared
                .wake
                .wait_timeout(due, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// The CPU time, in clock ticks, that the processes of group `pgid` used, with what their
/// children that ended used (utime, stime, cutime and cstime of proc(5)); `None` when /proc
/// shows none of them, where no stall can then be seen.
fn group_ticks(pgid: u32) -> Option<u64> {
    let mut total = None;
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        if !entry
            .file_name()
            .as_encoded_bytes()
            .iter()
            .all(u8::is_ascii_digit)
        {
            continue;
        }
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command's name, which may hold anything but ends the last ')': fields 3
        // (state), 4, 5 (the process group), ...
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) != Some(pgid) {
            continue;
        }
        let ticks: u64 = fields
            .get(11..15)
            .unwrap_or_default()
            .iter()
            .filter_map(|t| t.parse::<u64>().ok())
            .sum();
        total = Some(total.unwrap_or(0) + ticks);
    }
    total
}

/// Waits until child `pid` has ended, without waiting for it (reaping it): until it is reaped,
/// its pid and its group's cannot name another process, so its watch may still kill them.
fn wait_ended(pid: u32) {
    loop {
        // SAFETY: a zeroed siginfo_t is valid, and waitid(2) writes only into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: as above; `info` lives across the call.
        let r = unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if r == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// All of `reader`, of which the first `CAPTURE` bytes are kept.
fn read_capped(mut reader: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let _ = reader.by_ref().take(CAPTURE).read_to_end(&mut kept);
    let _ = io::copy(&mut reader, &mut io::sink());
    kept
}

/// `command`'s stdout and stderr (stdin closed; the first `CAPTURE` bytes of each), run as
/// `spawn` runs it; an error when it has not ended within `patience` (it is killed).
pub(super) fn output(
    command: &mut Command,
    patience: Patience,
) -> io::Result<std::process::Output> {
    let mut child = spawn(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )?;
    let mut watch = Watch::start(child.id());
    watch.ask(patience);
    // Both pipes at once: a child that fills one while the other is read would never end.
    let err = child.stderr.take();
    let reader = std::thread::spawn(move || err.map(read_capped).unwrap_or_default());
    let stdout = child.stdout.take().map(read_capped).unwrap_or_default();
    let stderr = reader.join().unwrap_or_default();
    // A child that closed its pipes may still run: the watch stays until it ends.
    wait_ended(child.id());
    let killed = watch.answered();
    watch.stop();
    let status = reap(&mut child)?;
    if let Some(patience) = killed {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("no answer {patience}"),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `sh -c script` in a group of its own, with its watch.
    fn started(script: &str) -> (Child, Watch) {
        let child = spawn(Command::new("sh").args(["-c", script])).unwrap();
        let watch = Watch::start(child.id());
        (child, watch)
    }

    /// Waits for `child` as `ab` does: ended, its watch stopped, reaped.
    fn end(mut child: Child, mut watch: Watch) -> (Option<Patience>, Option<i32>) {
        wait_ended(child.id());
        let killed = watch.answered();
        watch.stop();
        let status = reap(&mut child).unwrap();
        (
            killed,
            std::os::unix::process::ExitStatusExt::signal(&status),
        )
    }

    #[test]
    fn a_silent_child_is_killed_when_its_patience_runs_out() {
        for patience in [
            Patience::Deadline(Duration::from_millis(50)),
            // Sleeping uses no CPU time.
            Patience::Progress(Duration::from_millis(50)),
        ] {
            let (child, watch) = started("sleep 1000");
            watch.ask(patience);
            assert_eq!(end(child, watch), (Some(patience), Some(libc::SIGKILL)));
        }
    }

    #[test]
    fn an_answer_in_time_leaves_the_child_alone() {
        let (child, watch) = started("sleep 1000");
        watch.ask(Patience::Deadline(Duration::from_millis(50)));
        assert_eq!(watch.answered(), None);
        std::thread::sleep(Duration::from_millis(100));
        // Ended here, not by the watch.
        kill_group(child.id());
        assert_eq!(end(child, watch), (None, Some(libc::SIGKILL)));
    }

    #[test]
    fn a_groups_cpu_time_is_read_from_proc() {
        let (child, watch) = started("while :; do :; done");
        let first = group_ticks(child.id()).expect("the group is in /proc");
        let mut grew = false;
        for _ in 0..1000 {
            std::thread::sleep(Duration::from_millis(10));
            if group_ticks(child.id()).is_some_and(|t| t > first) {
                grew = true;
                break;
            }
        }
        kill_group(child.id());
        end(child, watch);
        assert!(grew, "the busy child's CPU time did not grow");
        assert_eq!(group_ticks(u32::MAX), None);
    }

    #[test]
    fn output_is_capped_and_a_child_that_closes_its_pipes_is_still_watched() {
        let out = output(
            Command::new("head").args(["-c", "3000000", "/dev/zero"]),
            Patience::Deadline(HANDSHAKE_TIMEOUT),
        )
        .unwrap();
        assert_eq!(out.stdout.len() as u64, CAPTURE);
        let e = output(
            Command::new("sh").args(["-c", "exec >&- 2>&-; sleep 1000"]),
            Patience::Deadline(Duration::from_millis(50)),
        )
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(e.to_string(), "no answer within 0.05 s");
    }

    #[test]
    fn patience_for_a_job_follows_its_wall_limit() {
        assert_eq!(
            Patience::for_job(Some(0.5)),
            Patience::Deadline(Duration::from_millis(10_500))
        );
        assert_eq!(Patience::for_job(None), Patience::Progress(STALL));
        assert_eq!(
            Patience::for_job(None).to_string(),
            "while it used no CPU time for 60 s"
        );
    }
}
