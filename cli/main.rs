//! The `idabench` binary: records which build it is, then runs the command line.

use idabench::util::build::{self, Build};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Compiled into this package alone (see build.rs), so that a new commit rebuilds only the
    // binary, not the library.
    build::set(Build {
        commit: env!("IDABENCH_GIT_COMMIT"),
        rustc: env!("IDABENCH_RUSTC_VERSION"),
        profile: env!("IDABENCH_PROFILE"),
    });
    idabench::cmd::main()
}
