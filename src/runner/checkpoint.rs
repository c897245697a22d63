//! Checkpoint files: a job's search progress (`search::checkpoint`) written whole or not at all
//! every so many seconds, read back by the next attempt at the job, and removed when the job
//! ends. The file names the job it is of (and the build that wrote it), so that another job's
//! or another build's progress is refused, never used; a damaged file is refused too.
//!
//! The format is text, one record a line, fields separated by single spaces:
//!
//! ```text
//! idabench-checkpoint 2
//! build <commit, or - when unknown>
//! job <key> <value>          one per field of the job's identity, values escaped
//! cpu_ns <n>                 CPU time of the attempts so far, up to this save
//! wall_ns <n>                wall time of the attempts so far
//! iteration <bound> <generated> <expanded> <budget|-> <capped 0|1> <bpmx raises> completed <next|-> [<width> <64 counts>]
//! iteration ... found <move place>...
//! iteration ... overbudget
//! current <bound> <depth> <capped 0|1> [<width> <64 counts>]
//! subtree <generated> <expanded> <excess|->
//! end <CRC-32 of every byte before this line, 8 hex digits>
//! ```

use crate::runner::job::{self, Job};
use crate::search::checkpoint::{Checkpoints, Counts, End, Finished, Partial, Progress, Subtree};
use crate::search::Limits;
use crate::util::atomic;
use crate::util::build;
use crate::util::clock::thread_cpu_time;
use crate::util::term;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The first line of every checkpoint file; a file of another version is refused.
const HEADER: &str = "idabench-checkpoint 2";
/// A checkpoint file larger than this is refused unread (one holds a few thousand lines).
const MAX_BYTES: u64 = 64 << 20;
/// A job's thread's CPU clock is first read once the job has run this long: reading it is a
/// system call, more than a tiny job's whole search, and a job this short never saves. The
/// time before that first reading is counted as CPU time (the thread was searching).
const CPU_LOOK_AFTER: Duration = Duration::from_millis(10);

/// The CPU and wall time of a job's attempts up to a save.
type Times = (Duration, Duration);

/// What a job is, as its checkpoint names it: (field, value) pairs, all of which must match.
pub type Identity = Vec<(&'static str, String)>;

/// A job's checkpoint file: where its progress is saved every `every`, and what an earlier
/// attempt left there. Its file and identity are made only when first needed (a save, or a
/// file found there at the start): most jobs end long before their first save.
pub struct Store<'a> {
    every: Duration,
    file: OnceLock<(PathBuf, Identity)>,
    /// The run and job whose file this is, when `file` is made on demand.
    job: Option<(&'a Checkpointing, Job<'a>)>,
    state: Mutex<State>,
    /// CPU time other threads spent on the job's split iterations: the job's pool adds it.
    pub(crate) helped_ns: AtomicU64,
}

struct State {
    /// When the attempt began, and when it last saved (or began).
    began: Instant,
    last: Instant,
    /// The thread's CPU clock and the time it lent to other jobs when first read, and the wall
    /// time of the attempt then (`None` before `CPU_LOOK_AFTER`).
    cpu_mark: Option<(Duration, Duration, Duration)>,
    /// The progress read from the file, until the search takes it.
    progress: Option<Progress>,
    /// CPU and wall time of the earlier attempts, as their last save counted them.
    prior: (Duration, Duration),
    /// Whether a save has failed (said once).
    failed: bool,
    /// Whether the file is there for this job: found at the start, or written since.
    there: bool,
}

/// How an earlier attempt's file was found.
pub enum Found {
    /// None there: a fresh start.
    None,
    /// Taken: the search resumes from it.
    Taken,
    /// Refused, with why (the search starts afresh, and the file is replaced at its first save).
    Refused(String),
}

impl<'a> Store<'a> {
    /// The store of the job `identity` at `path`, saving every `every`, with the progress of
    /// an earlier attempt if `path` holds a checkpoint of this job by this build. Opened on the
    /// thread that will search the job.
    pub fn open(path: PathBuf, every: Duration, identity: Identity) -> (Store<'a>, Found) {
        let store = Store::new(every, None);
        let found = store.take_up(&path, &identity);
        let _ = store.file.set((path, identity));
        (store, found)
    }

    fn new(every: Duration, job: Option<(&'a Checkpointing, Job<'a>)>) -> Store<'a> {
        let now = Instant::now();
        Store {
            every,
            file: OnceLock::new(),
            job,
            state: Mutex::new(State {
                began: now,
                last: now,
                cpu_mark: None,
                progress: None,
                prior: (Duration::ZERO, Duration::ZERO),
                failed: false,
                there: false,
            }),
            helped_ns: AtomicU64::new(0),
        }
    }

    /// Reads what an earlier attempt left at `path`, if it is this job's.
    fn take_up(&self, path: &Path, identity: &Identity) -> Found {
        let mut state = self.lock();
        match read(path, identity) {
            Ok(None) => Found::None,
            Ok(Some((progress, prior))) => {
                let done = progress.iterations.len();
                let subtrees = progress.current.as_ref().map_or(0, |c| c.subtrees.len());
                term::note(format_args!(
                    "note: resuming from checkpoint {} ({done} iteration(s) and {subtrees} \
                     subtree(s) of the next done)",
                    path.display()
                ));
                (state.progress, state.prior, state.there) = (Some(progress), prior, true);
                Found::Taken
            }
            Err(why) => {
                state.there = true;
                Found::Refused(why)
            }
        }
    }

    /// The CPU and wall time the earlier attempts spent, up to their last save (zero when the
    /// search starts afresh).
    pub fn prior(&self) -> (Duration, Duration) {
        self.lock().prior
    }

    /// The file, when one is there for this job (an earlier attempt's, or this one's): to be
    /// removed once the job has ended.
    pub fn written(&self) -> Option<&Path> {
        let there = self.lock().there;
        there.then(|| self.place().0.as_path())
    }

    /// Removes the file: the job has ended (its row is written). A file already gone is fine.
    pub fn remove(&self) -> io::Result<()> {
        match fs::remove_file(&self.place().0) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    fn place(&self) -> &(PathBuf, Identity) {
        self.file.get_or_init(|| {
            let (run, job) = self.job.expect("a store without a file has a job");
            (run.path(&job), job_identity(&job))
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The job's CPU time in this attempt, on every thread, up to now: its own thread's clock
    /// less what that thread lent to other jobs, plus what other threads spent on it.
    fn cpu(&self, state: &mut State, now: Instant) -> Duration {
        let (cpu, lent, wall) = *state
            .cpu_mark
            .get_or_insert_with(|| mark(now - state.began));
        let helped =
            Duration::from_nanos(self.helped_ns.load(std::sync::atomic::Ordering::Relaxed));
        (wall + thread_cpu_time().saturating_sub(cpu))
            .saturating_sub(job::lent().saturating_sub(lent))
            + helped
    }
}

/// The calling thread's CPU clock and the CPU time it lent to other jobs, with the wall time
/// `wall` the attempt had run by then.
fn mark(wall: Duration) -> (Duration, Duration, Duration) {
    (thread_cpu_time(), job::lent(), wall)
}

impl Checkpoints for Store<'_> {
    fn resume(&self) -> Option<Progress> {
        self.lock().progress.take()
    }

    fn due(&self) -> bool {
        let mut state = self.lock();
        let now = Instant::now();
        if state.cpu_mark.is_none() && now - state.began >= CPU_LOOK_AFTER {
            state.cpu_mark = Some(mark(now - state.began));
        }
        now - state.last >= self.every
    }

    fn save(&self, progress: &Progress) {
        let (path, identity) = self.place();
        let mut state = self.lock();
        let now = Instant::now();
        let cpu = state.prior.0 + self.cpu(&mut state, now);
        let wall = state.prior.1 + (now - state.began);
        let text = write(identity, (cpu, wall), progress);
        let written =
            atomic::replace_with(path, |out: &mut dyn Write| out.write_all(text.as_bytes()));
        state.last = Instant::now();
        match written {
            Ok(()) => state.there = true,
            Err(e) if !state.failed => {
                state.failed = true;
                term::note(format_args!(
                    "warning: cannot write checkpoint {}: {e}; the job goes on without one",
                    path.display()
                ));
            }
            Err(_) => {}
        }
    }

    fn refuse(&self, why: &str) {
        let mut state = self.lock();
        state.progress = None;
        state.prior = (Duration::ZERO, Duration::ZERO);
        term::note(format_args!(
            "warning: checkpoint {} refused: {why}; the job starts afresh",
            self.place().0.display()
        ));
    }
}

/// `value` on one line: a backslash, line feed and carriage return escaped.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// The file's text for `progress` of the job `identity`, with the attempts' times so far.
fn write(identity: &Identity, (cpu, wall): (Duration, Duration), progress: &Progress) -> String {
    let mut t = String::new();
    let commit = build::git_commit().unwrap_or_else(|| "-".into());
    let _ = writeln!(t, "{HEADER}\nbuild {}", escape(&commit));
    for (key, value) in identity {
        let _ = writeln!(t, "job {key} {}", escape(value));
    }
    let _ = writeln!(t, "cpu_ns {}\nwall_ns {}", cpu.as_nanos(), wall.as_nanos());
    let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    let excess = |v: u32| opt((v != u32::MAX).then_some(u64::from(v)));
    let counts = |t: &mut String, c: &Option<Counts>| {
        if let Some(c) = c {
            let _ = write!(t, " {}", c.width);
            for n in &c.counts {
                let _ = write!(t, " {n}");
            }
        }
    };
    for i in &progress.iterations {
        let _ = write!(
            t,
            "iteration {} {} {} {} {} {}",
            i.bound,
            i.generated,
            i.expanded,
            opt(i.budget),
            u8::from(i.capped),
            i.bpmx_raises
        );
        match &i.end {
            End::Completed { next, histogram } => {
                let _ = write!(t, " completed {}", excess(*next));
                counts(&mut t, histogram);
            }
            End::Found(places) => {
                t.push_str(" found");
                for p in places {
                    let _ = write!(t, " {p}");
                }
            }
            End::OverBudget => t.push_str(" overbudget"),
        }
        t.push('\n');
    }
    if let Some(c) = &progress.current {
        let _ = write!(t, "current {} {} {}", c.bound, c.depth, u8::from(c.capped));
        counts(&mut t, &c.histogram);
        t.push('\n');
        for s in &c.subtrees {
            let _ = writeln!(
                t,
                "subtree {} {} {}",
                s.generated,
                s.expanded,
                excess(s.excess)
            );
        }
    }
    let crc = crc32fast::hash(t.as_bytes());
    let _ = writeln!(t, "end {crc:08x}");
    t
}

/// The progress in the checkpoint at `path` and the times it counts, if it is one of the job
/// `identity` by this build; `Ok(None)` when there is no file; an error says why a file there
/// is refused.
fn read(path: &Path, identity: &Identity) -> Result<Option<(Progress, Times)>, String> {
    let file = match crate::util::files::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(file, MAX_BYTES + 1), &mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("it is larger than {MAX_BYTES} bytes"));
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| "it is not UTF-8 text".to_string())?;
    parse(text, identity).map(Some)
}

/// `text` read as a checkpoint of the job `identity` by this build.
fn parse(text: &str, identity: &Identity) -> Result<(Progress, Times), String> {
    // The last line holds the checksum of everything before it: a file cut short has none.
    let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
    let (body, last) = text.split_at(body_end);
    let crc = last
        .strip_prefix("end ")
        .map(|c| c.trim_end_matches('\n'))
        .and_then(|c| u32::from_str_radix(c, 16).ok())
        .ok_or("it is cut short (no end line)")?;
    if crc != crc32fast::hash(body.as_bytes()) {
        return Err("it is damaged (its checksum does not match)".into());
    }
    let mut lines = body.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut next = |what: &str| {
        lines
            .next()
            .ok_or_else(|| format!("it ends before its {what} line"))
    };
    let (_, header) = next("header")?;
    if header != HEADER {
        return Err(format!(
            "line 1: not a checkpoint of this version ('{HEADER}' expected)"
        ));
    }
    let (_, build_line) = next("build")?;
    let commit = build::git_commit().unwrap_or_else(|| "-".into());
    if build_line != format!("build {}", escape(&commit)) {
        return Err(format!(
            "it was written by another build ({}), not this one ({})",
            build_line.strip_prefix("build ").unwrap_or(build_line),
            commit
        ));
    }
    for (key, value) in identity {
        let (n, line) = next("job")?;
        let Some(rest) = line.strip_prefix(&format!("job {key} ")) else {
            return Err(format!("line {n}: 'job {key} ...' expected"));
        };
        if rest != escape(value) {
            return Err(format!(
                "it is of another job: its {key} is '{rest}', not '{}'",
                escape(value)
            ));
        }
    }
    let mut number = |key: &str| -> Result<u64, String> {
        let (n, line) = next(key)?;
        line.strip_prefix(key)
            .and_then(|r| r.strip_prefix(' '))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("line {n}: '{key} N' expected"))
    };
    let cpu = Duration::from_nanos(number("cpu_ns")?);
    let wall = Duration::from_nanos(number("wall_ns")?);
    let mut progress = Progress::default();
    for (n, line) in lines {
        let bad = |what: &str| format!("line {n}: {what}");
        let mut f = line.split(' ');
        let kind = f.next().unwrap_or("");
        let fields: Vec<&str> = f.collect();
        match kind {
            "iteration" if progress.current.is_none() => {
                let [bound, generated, expanded, budget, capped, raises, end, rest @ ..] =
                    &fields[..]
                else {
                    return Err(bad("an iteration needs at least 7 fields"));
                };
                let end = match *end {
                    "completed" => {
                        let [next, hist @ ..] = rest else {
                            return Err(bad("a completed iteration needs its next bound"));
                        };
                        End::Completed {
                            next: excess(next).ok_or_else(|| bad("a bad next bound"))?,
                            histogram: histogram(hist).ok_or_else(|| bad("a bad histogram"))?,
                        }
                    }
                    "found" => End::Found(
                        rest.iter()
                            .map(|p| p.parse().ok())
                            .collect::<Option<_>>()
                            .ok_or_else(|| bad("a bad move"))?,
                    ),
                    "overbudget" if rest.is_empty() => End::OverBudget,
                    _ => return Err(bad("completed, found or overbudget expected")),
                };
                progress.iterations.push(Finished {
                    bound: whole(bound).ok_or_else(|| bad("a bad bound"))?,
                    generated: whole(generated).ok_or_else(|| bad("a bad count"))?,
                    expanded: whole(expanded).ok_or_else(|| bad("a bad count"))?,
                    budget: match *budget {
                        "-" => None,
                        b => Some(whole(b).ok_or_else(|| bad("a bad budget"))?),
                    },
                    capped: flag(capped).ok_or_else(|| bad("a bad flag"))?,
                    bpmx_raises: whole(raises).ok_or_else(|| bad("a bad count"))?,
                    end,
                });
            }
            "current" if progress.current.is_none() => {
                let [bound, depth, capped, hist @ ..] = &fields[..] else {
                    return Err(bad("the current iteration needs 3 fields"));
                };
                progress.current = Some(Partial {
                    bound: whole(bound).ok_or_else(|| bad("a bad bound"))?,
                    depth: whole(depth).ok_or_else(|| bad("a bad depth"))?,
                    capped: flag(capped).ok_or_else(|| bad("a bad flag"))?,
                    histogram: histogram(hist).ok_or_else(|| bad("a bad histogram"))?,
                    subtrees: Vec::new(),
                });
            }
            "subtree" => {
                let (Some(current), [generated, expanded, x]) =
                    (progress.current.as_mut(), &fields[..])
                else {
                    return Err(bad("a subtree of the current iteration needs 3 fields"));
                };
                current.subtrees.push(Subtree {
                    generated: whole(generated).ok_or_else(|| bad("a bad count"))?,
                    expanded: whole(expanded).ok_or_else(|| bad("a bad count"))?,
                    excess: excess(x).ok_or_else(|| bad("a bad excess"))?,
                });
            }
            _ => return Err(bad("iteration, current or subtree expected")),
        }
    }
    Ok((progress, (cpu, wall)))
}

/// A whole number of its type, digits only.
fn whole<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| s.parse().ok())?
}

/// `0` or `1`.
fn flag(s: &str) -> Option<bool> {
    match s {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// An excess over a bound, at least 1, or `-` for none (`u32::MAX`).
fn excess(s: &str) -> Option<u32> {
    match s {
        "-" => Some(u32::MAX),
        s => whole(s).filter(|&x| x > 0 && x < u32::MAX),
    }
}

/// No fields, or a width and the counts.
fn histogram(fields: &[&str]) -> Option<Option<Counts>> {
    let Some((width, counts)) = fields.split_first() else {
        return Some(None);
    };
    Some(Some(Counts {
        width: whole(width).filter(|&w| w > 0)?,
        counts: counts.iter().map(|c| whole(c)).collect::<Option<_>>()?,
    }))
}

/// Where a run's jobs keep their checkpoints: one file each in `dir`, saved every `every`.
#[derive(Clone, Debug)]
pub struct Checkpointing {
    pub dir: PathBuf,
    pub every: Duration,
    /// The names of the files in `dir` when the run began: a job looks for its own only when
    /// there are some, so that a run with none reads no file and hashes no key per job.
    found: HashSet<OsString>,
}

/// The folder of a run's checkpoint files, in its run directory.
pub const FOLDER: &str = "checkpoints";

impl Checkpointing {
    /// A run's checkpoints in `dir` (which exists), saved every `every`: the files there now
    /// are listed once.
    pub fn new(dir: PathBuf, every: Duration) -> io::Result<Checkpointing> {
        let found = fs::read_dir(&dir)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<io::Result<_>>()?;
        Ok(Checkpointing { dir, every, found })
    }

    /// The checkpoint file of `job`: named by a hash of its key, since ids are any text.
    pub fn path(&self, job: &Job<'_>) -> PathBuf {
        let mut key = Sha256::new();
        for (_, value) in job_identity(job) {
            key.update(value.as_bytes());
            key.update([0]);
        }
        let hex = crate::util::format::hex(&key.finalize()[..8]);
        self.dir.join(format!("{hex}.ckpt"))
    }

    /// The store of `job`'s checkpoint, made on the thread that searches it, with an earlier
    /// attempt's progress if the run began with a file of this job: a file of another job or
    /// build there is refused with a warning, and the job starts afresh.
    pub fn store<'a>(&'a self, job: &Job<'a>) -> Store<'a> {
        let store = Store::new(self.every, Some((self, *job)));
        if !self.found.is_empty() {
            let (path, identity) = store.place();
            let listed = path.file_name().is_some_and(|n| self.found.contains(n));
            if listed {
                if let Found::Refused(why) = store.take_up(path, identity) {
                    term::note(format_args!(
                        "warning: checkpoint {} refused: {why}; the job starts afresh",
                        path.display()
                    ));
                }
            }
        }
        store
    }
}

/// What a run's job is, as its checkpoint names it.
pub fn job_identity(job: &Job<'_>) -> Identity {
    let i = job.instance;
    vec![
        ("dataset", job.dataset.name.clone()),
        ("instance", i.id.clone()),
        ("repetition", job.repetition.to_string()),
        ("variant", job.variant.to_string()),
        ("domain", i.domain.name().to_string()),
        ("size", i.size.to_string()),
        ("start", i.puzzle.start_tokens()),
    ]
}

/// The limits of an attempt that goes on from earlier ones that spent `prior` (CPU, wall): its
/// time limits less what those spent.
pub fn remaining(limits: Limits<'_>, (cpu, wall): (Duration, Duration)) -> Limits<'_> {
    Limits {
        max_cpu: limits.max_cpu.map(|t| t.saturating_sub(cpu)),
        max_wall: limits.max_wall.map(|t| t.saturating_sub(wall)),
        ..limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> Identity {
        vec![
            ("instance", "a b\nc\\".to_string()),
            ("variant", "manhattan/stepnext/prune".to_string()),
        ]
    }

    fn progress() -> Progress {
        Progress {
            iterations: vec![
                Finished {
                    bound: 40,
                    generated: 12,
                    expanded: 5,
                    budget: None,
                    capped: false,
                    bpmx_raises: 3,
                    end: End::Completed {
                        next: 42,
                        histogram: Some(Counts {
                            width: 1,
                            counts: (0..64).collect(),
                        }),
                    },
                },
                Finished {
                    bound: 44,
                    generated: 30,
                    expanded: 9,
                    budget: Some(100),
                    capped: true,
                    bpmx_raises: 0,
                    end: End::Found(vec![0, 3, 1]),
                },
                Finished {
                    bound: 43,
                    generated: 100,
                    expanded: 50,
                    budget: Some(100),
                    capped: false,
                    bpmx_raises: 0,
                    end: End::OverBudget,
                },
            ],
            current: Some(Partial {
                bound: 43,
                depth: 7,
                capped: false,
                histogram: None,
                subtrees: vec![
                    Subtree {
                        generated: 7,
                        expanded: 3,
                        excess: 2,
                    },
                    Subtree {
                        generated: 0,
                        expanded: 0,
                        excess: u32::MAX,
                    },
                ],
            }),
        }
    }

    /// What is written is read back whole; a file cut short, changed by one byte, of another
    /// job or of another version is refused with a reason, never read.
    #[test]
    fn a_checkpoint_reads_back_as_written_and_a_damaged_one_is_refused() {
        let times = (Duration::from_nanos(5), Duration::from_nanos(7));
        let text = write(&identity(), times, &progress());
        assert_eq!(parse(&text, &identity()), Ok((progress(), times)));
        for cut in [0, 10, text.len() / 2, text.len() - 2] {
            assert!(parse(&text[..cut], &identity()).is_err(), "cut at {cut}");
        }
        let mut changed = text.clone().into_bytes();
        let at = text.find("subtree 7").unwrap() + 8;
        changed[at] = b'8';
        let e = parse(std::str::from_utf8(&changed).unwrap(), &identity()).unwrap_err();
        assert!(e.contains("checksum"), "{e}");
        let mut other = identity();
        other[1].1 = "manhattan/step2/prune".into();
        let e = parse(&text, &other).unwrap_err();
        assert!(e.contains("another job: its variant"), "{e}");
        let e = parse(
            &text.replacen("checkpoint 2\n", "checkpoint 3\n", 1),
            &identity(),
        )
        .unwrap_err();
        assert!(e.contains("checksum"), "{e}");
    }

    /// A store saves whole files where it is told and removes its file; a file of another job
    /// there is refused, with the reason.
    #[test]
    fn a_store_saves_takes_up_and_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("job.ckpt");
        let (store, found) = Store::open(path.clone(), Duration::ZERO, identity());
        assert!(matches!(found, Found::None));
        assert!(store.due());
        store.save(&progress());
        let (again, found) = Store::open(path.clone(), Duration::ZERO, identity());
        assert!(matches!(found, Found::Taken));
        assert_eq!(again.resume(), Some(progress()));
        assert_eq!(again.resume(), None);
        let mut other = identity();
        other[0].1 = "b".into();
        let (_, found) = Store::open(path.clone(), Duration::ZERO, other);
        assert!(matches!(found, Found::Refused(why) if why.contains("instance")));
        store.remove().unwrap();
        assert!(!path.exists());
        store.remove().unwrap();
    }
}
