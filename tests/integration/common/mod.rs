//! What the test modules share. Running the idabench binary from the CLI tests: a scratch
//! directory per test, the command run in it, and an output described for assertion messages.

// Each test module uses only part of it.
#![allow(dead_code)]

pub mod korf;
pub mod oracle;
pub mod svg;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The project's root, which holds datasets/, reports/baseline and tests/data: the one place
/// the tests learn where it is.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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
    /// A fresh directory named after the test binary, the process, `tag` and the test's thread.
    pub fn new(tag: &str) -> Tmp {
        let dir = std::env::temp_dir().join(format!(
            "idabench-{}-{}-{tag}-{}",
            env!("CARGO_CRATE_NAME"),
            std::process::id(),
            std::thread::current()
                .name()
                .unwrap_or("t")
                .replace("::", "-")
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Tmp(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes a file in the scratch directory; its absolute path as a string.
    pub fn write(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_owned()
    }

    /// The folder given to `--out`.
    pub fn out(&self) -> String {
        self.0.join("reports").to_str().unwrap().to_owned()
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
        } else {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

/// idabench with `args`, run from `cwd` so that nothing lands in the project.
pub fn command(cwd: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_idabench"));
    c.args(args).current_dir(cwd);
    c
}

pub fn idabench(cwd: &Path, args: &[&str]) -> Output {
    command(cwd, args).output().expect("run idabench")
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
