//! The `idabench` binary: parse the command line, run it, turn the outcome into an exit code.

use clap::Parser;
use idabench::{app, cli::Cli, error};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other Unix tools, end quietly when the reader of stdout goes away (`| head`).
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = app::run(cli);
    if let Err(e) = &result {
        // Nowhere else to tell: a full or closed stderr leaves only the exit code.
        let _ = writeln!(std::io::stderr(), "Error: {e}");
    }
    ExitCode::from(error::exit_code(&result))
}
