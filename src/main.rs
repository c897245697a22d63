//! The `idabench` binary: parse the command line, run it, turn the outcome into an exit code.

use clap::Parser;
use idabench::{app, cli::Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other Unix tools, end quietly when the reader of stdout goes away (`| head`).
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match app::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            eprintln!("Error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}
