//! Which build this program is: its commit (with `-dirty`), compiler and profile. The binary has
//! them compiled in (cli/build.rs) and hands them over at start, so that only the binary, not
//! the library, is rebuilt when a commit moves; nothing is read from a checkout at run time.

use std::sync::OnceLock;

/// What the binary was built from.
#[derive(Clone, Copy, Debug)]
pub struct Build {
    /// The source's commit, `-dirty` when tracked files differed from it; empty outside git.
    pub commit: &'static str,
    /// `rustc --version` of the compiler that built it.
    pub rustc: &'static str,
    /// Cargo's profile family: `release` or `debug`.
    pub profile: &'static str,
}

static BUILD: OnceLock<Build> = OnceLock::new();

/// Records this program's build; the first call wins.
pub fn set(build: Build) {
    let _ = BUILD.set(build);
}

/// This program's build: empty fields where nothing was recorded (the library's own tests).
pub fn get() -> Build {
    BUILD.get().copied().unwrap_or(Build {
        commit: "",
        rustc: "",
        profile: "",
    })
}

/// The commit, `None` when the binary was built outside a git checkout.
pub fn git_commit() -> Option<String> {
    Some(get().commit)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}
