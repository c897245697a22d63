//! Records the compiler version, build profile and source commit for run manifests.

use std::path::PathBuf;
use std::process::Command;

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
    git_commit();
}

/// Exports IDABENCH_GIT_COMMIT: the commit of the source being built, `-dirty` when tracked files
/// differ from it, empty without git or outside a repository.
fn git_commit() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            // Without optional locks, `git status` does not rewrite the index (which would
            // rerun this script).
            let dirty = git(&[
                "--no-optional-locks",
                "status",
                "--porcelain",
                "--untracked-files=no",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
        _ => String::new(),
    };
    println!("cargo:rustc-env=IDABENCH_GIT_COMMIT={commit}");
    // A new commit or checkout moves HEAD (or the branch it names) and rewrites the index; an
    // edited source file may change the dirty mark. Asked of git, so a worktree's files are found
    // too. Only existing paths: cargo reruns a script on every build for a missing one.
    let mut watch = vec![dir.join(".git/HEAD"), dir.join(".git/index")];
    let mut git_paths = vec!["HEAD".to_string(), "index".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        git_paths.push(branch);
    }
    for p in git_paths {
        if let Some(path) = git(&["rev-parse", "--git-path", &p]) {
            watch.push(dir.join(path));
        }
    }
    watch.extend(["src", "Cargo.toml", "Cargo.lock"].map(|p| dir.join(p)));
    watch.sort();
    watch.dedup();
    for path in watch.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
