//! Stamps the binary with the compiler version, build profile and source commit for run
//! manifests and `ab`'s handshake.
//!
//! This script belongs to the binary's package alone, so when it reruns only the small binary
//! crate is rebuilt, never the library. It reruns when the commit moves (HEAD or its branch) and
//! when a source file changes (for the `-dirty` mark); not on the index, which `git status` and
//! `git add` rewrite without changing either.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binary is built from: the `-dirty` mark looks at these and only these.
const SOURCES: [&str; 4] = ["src", "cli", "Cargo.toml", "Cargo.lock"];

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .unwrap_or_default();
    println!("cargo:rustc-env=IDABENCH_RUSTC_VERSION={}", version.trim());
    let profile = std::env::var("PROFILE").unwrap_or_default();
    println!("cargo:rustc-env=IDABENCH_PROFILE={profile}");
    println!("cargo:rerun-if-changed=build.rs");
    let package = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = package.parent().unwrap_or(&package).to_path_buf();
    git_commit(&root);
}

/// Runs git in `root`; its output, trimmed, when it succeeds.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Exports IDABENCH_GIT_COMMIT: the commit of the source being built, `-dirty` when a tracked
/// file of the build's sources differs from it, empty without git or outside a repository.
fn git_commit(root: &Path) {
    let commit = match git(root, &["rev-parse", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            // Without optional locks, `git status` does not rewrite the index.
            let mut status = vec![
                "--no-optional-locks",
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
            ];
            status.extend(SOURCES);
            let dirty = git(root, &status).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
        _ => String::new(),
    };
    println!("cargo:rustc-env=IDABENCH_GIT_COMMIT={commit}");
    // A commit, checkout or reset moves HEAD or the branch it names (a loose ref, or the packed
    // refs once git has packed it). Asked of git, so that a worktree's files are found too.
    let mut watch: Vec<PathBuf> = SOURCES.iter().map(|p| root.join(p)).collect();
    let mut refs = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        refs.push(branch);
    }
    for r in refs {
        if let Some(path) = git(root, &["rev-parse", "--git-path", &r]) {
            watch.push(root.join(path));
        }
    }
    watch.sort();
    watch.dedup();
    // Only existing paths: cargo reruns a script on every build for a missing one.
    for path in watch.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
