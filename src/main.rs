//! The `idabench` binary: parse the command line, run it, turn the outcome into an exit code.

use clap::Parser;
use idabench::{app, cli::Cli, error, text};
use std::io::Write;
use std::process::ExitCode;

/// Prints clap's message and exits with its code (2 for a usage error, 0 for --help). clap quotes
/// a refused value whole, so an error quoting a long value is printed with the quotes cut.
fn exit_on_clap_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit();
    }
    let plain = e.render().to_string();
    let cut = text::shorten_quoted(&plain);
    if cut == plain {
        e.exit();
    }
    eprint!("{cut}");
    std::process::exit(e.exit_code());
}

fn main() -> ExitCode {
    // Like other Unix tools, end quietly when the reader of stdout goes away (`| head`).
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => exit_on_clap_error(e),
    };
    let result = app::run(cli);
    if let Err(e) = &result {
        // Nowhere else to tell: a full or closed stderr leaves only the exit code.
        let _ = writeln!(std::io::stderr(), "Error: {e}");
    }
    ExitCode::from(error::exit_code(&result))
}
