//! What the test modules share: the project's root, a scratch directory per test, the idabench
//! binary run in it, and its output described for assertion messages; a tiny dataset, its runs
//! and a reader of report CSVs; Korf's instances, a BFS
//! oracle for small boards, Korf's search variant and random walks, and a reader of the SVG
//! pictures.

pub mod korf;
pub mod svg;

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The idabench binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_idabench");

/// The project's root, which holds datasets/, reports/baseline and tests/data: the one place
/// the tests learn where it is.
pub fn root() -> &'static Path {
    // The tests belong to the binary's package, in cli/ under the project.
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The bundled dataset `datasets/NAME`, as a command-line argument.
pub fn dataset(name: &str) -> String {
    root()
        .join("datasets")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

/// The committed report CI compares against, `reports/baseline`.
pub fn baseline() -> String {
    root().join("reports/baseline").to_str().unwrap().to_owned()
}

/// A scratch directory, removed at the end (kept, and named, when the test failed).
pub struct Tmp(PathBuf);

impl Tmp {
    /// A fresh directory named after the process, `tag`, the test's thread and a count: the
    /// tests are threads of one process, and each directory is its own.
    pub fn new(tag: &str) -> Tmp {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "idabench-{}-{tag}-{}-{}",
            std::process::id(),
            std::thread::current()
                .name()
                .unwrap_or("t")
                .replace("::", "-"),
            MADE.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Tmp(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The absolute path of `name` in the scratch directory, as a string.
    pub fn at(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }

    /// Writes a file in the scratch directory; its absolute path as a string.
    pub fn write(&self, name: &str, text: &str) -> String {
        fs::write(self.0.join(name), text).unwrap();
        self.at(name)
    }

    /// The folder given to `--out`.
    pub fn out(&self) -> String {
        self.at("reports")
    }

    /// The report folder of run `name` under `out`.
    pub fn run_dir(&self, name: &str) -> PathBuf {
        self.0.join("reports").join(name)
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for inspection: {}", self.0.display());
        } else if fs::remove_dir_all(&self.0).is_err() {
            // A read-only directory inside must be writable again to be removed.
            let _ = Command::new("chmod")
                .arg("-R")
                .arg("u+w")
                .arg(&self.0)
                .status();
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

/// The names in `dir`, sorted (none when it does not exist).
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

/// idabench with `args`, run from `cwd` (a scratch directory, so that nothing lands in the
/// project), for the tests that give it input, signals, limits or an environment.
pub fn command<S: AsRef<OsStr>>(cwd: &Path, args: &[S]) -> Command {
    let mut c = Command::new(BIN);
    // Runs with automata write them to the default cache directory: each test its own, in its
    // scratch folder (removed with it), so that no test reads what an earlier build or test
    // wrote; a command run elsewhere gets one of the process's.
    let tmp = std::env::temp_dir();
    let cache = if cwd.starts_with(&tmp) && cwd != tmp {
        cwd.join(".cache")
    } else {
        tmp.join(format!("idabench-test-cache-{}", std::process::id()))
    };
    c.args(args).current_dir(cwd).env("XDG_CACHE_HOME", cache);
    c
}

/// How long any command of the suite may take: far above the longest (seconds), so that only a
/// hang reaches it, and the hang fails its test instead of holding the suite.
pub const LONGEST: std::time::Duration = std::time::Duration::from_secs(600);

/// idabench with `args`, run from `cwd`, its output captured (no input), within `LONGEST`.
pub fn idabench<S: AsRef<OsStr>>(cwd: &Path, args: &[S]) -> Output {
    within(command(cwd, args), LONGEST.as_secs())
}

/// Runs `cmd` with `input` on its stdin, its output captured, within `LONGEST`. A program that
/// stops reading early (at a bound, or needing no input) may leave its input unread.
pub fn with_stdin(cmd: Command, input: &[u8]) -> Output {
    fed_within(cmd, input, LONGEST)
}

/// `output_within` with no input and a limit in seconds: a hostile case must end, with a clear
/// exit code. The limit is far above what the case needs: no test asserts on time.
pub fn within(mut cmd: Command, seconds: u64) -> Output {
    cmd.stdin(Stdio::null());
    output_within(cmd, std::time::Duration::from_secs(seconds))
}

/// Limits `cmd` (and what it starts) to 512 MiB of address space: far more than a bounded read
/// takes, far less than an unbounded one reaches before any deadline, or than a thousand
/// threads' stacks.
pub fn limit_memory(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 512 << 20,
                rlim_max: 512 << 20,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Describes an output for assertion messages.
pub fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// The exit code is `code`, and nothing panicked.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(out.status.code(), Some(code), "{}", show(out));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "a panic:\n{}",
        show(out)
    );
}

/// Runs `cmd` (stdin as set, else inherited), its output captured, and fails the test if it has
/// not ended within `limit`: for hostile input, where the bug would be a hang. The child is
/// killed first, so a hang ends the test instead of the test run.
pub fn output_within(mut cmd: Command, limit: std::time::Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run idabench");
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            // SIGTERM first, so that a command with children of its own (`ab`'s workers, each
            // in a process group of its own) ends them; then SIGKILL.
            // SAFETY: a plain kill(2) of our own child, not yet waited for.
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
            std::thread::sleep(std::time::Duration::from_secs(2));
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}: killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// How long a hostile case of the bad-input suite may take: far beyond what the binary needs for
/// any input a test gives, so that only a hang (or work that grows without bound) reaches it.
pub const HANG: std::time::Duration = std::time::Duration::from_secs(60);

/// `with_stdin` within `HANG` (see `output_within`).
pub fn with_stdin_within(cmd: Command, input: &[u8]) -> Output {
    fed_within(cmd, input, HANG)
}

/// `cmd` with `input` on its stdin, within `limit` (see `output_within`).
fn fed_within(mut cmd: Command, input: &[u8], limit: std::time::Duration) -> Output {
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    cmd.stdin(reader);
    let input = input.to_vec();
    // Written on a thread of its own, so that a program that stops reading cannot stall the test:
    // once `output_within` has dropped `cmd`, which holds the pipe's other end, a write still
    // waiting fails, and a program that stopped early may leave its input unread.
    let feeder = std::thread::spawn(move || {
        let _ = writer.write_all(&input);
    });
    let out = output_within(cmd, limit);
    feeder.join().unwrap();
    out
}

/// Three 8-puzzle instances of 8, 14 and 2 moves: each job takes microseconds.
pub const TINY: &str = "id,domain,size,start,goal,optimal\n\
                        a,tiles,3x3,0 1 2 4 8 3 7 6 5,,8\n\
                        b,tiles,3x3,0 1 2 3 6 8 4 7 5,,14\n\
                        c,tiles,3x3,1 2 3 4 5 6 0 7 8,,2\n";

/// `run DATASET --heuristic HEURISTICS` into `tmp`'s reports folder as `name` (exit 0, or 4 for a
/// wrong answer): its folder.
pub fn run_tiny(tmp: &Tmp, dataset: &str, heuristics: &str, name: &str) -> String {
    let out = idabench(
        tmp.path(),
        &[
            "run",
            dataset,
            "--heuristic",
            heuristics,
            "--out",
            &tmp.out(),
            "--name",
            name,
            "--quiet",
        ],
    );
    assert!(matches!(out.status.code(), Some(0 | 4)), "{}", show(&out));
    tmp.run_dir(name).display().to_string()
}

/// The rows of a CSV file, each as its columns by name.
pub fn csv_rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_owned(), v.to_owned()))
                .collect()
        })
        .collect()
}

/// runs.csv without its time columns (and the node rate made from them) and the run's name.
pub fn rows_without_times(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| {
            !header[i].starts_with("time_") && !["nodes_per_s", "run"].contains(&header[i])
        })
        .collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            keep.iter().map(|&i| f[i]).collect::<Vec<_>>().join(",")
        })
        .collect()
}
