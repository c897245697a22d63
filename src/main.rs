//! The `idabench` binary: parse the command line, run it, turn the outcome into an exit code.

use clap::Parser;
use idabench::cli::{Cli, Command};
use idabench::{app, error, text};
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
    let _ = write!(std::io::stderr(), "{cut}");
    std::process::exit(e.exit_code());
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => exit_on_clap_error(e),
    };
    // Like other Unix tools, the commands that print their result end quietly when its reader
    // goes away (`| head`). A run keeps SIGPIPE ignored: a closed stderr must not end it between
    // its last job and its reports, and a closed stdout is an error it reports after writing them.
    // So does `ab`, which writes to its workers' pipes: a worker that died is an error to report.
    if !matches!(cli.command, Command::Run(_) | Command::Ab(_)) {
        // SAFETY: restoring the default action of SIGPIPE before any thread starts.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    // Read once, before any search starts; a bad value is a usage error like a bad flag.
    #[cfg(feature = "inject-slowdown")]
    if let Err(e) = idabench::search::slowdown::init_from_env() {
        let _ = writeln!(std::io::stderr(), "Error: {e}");
        return ExitCode::from(error::EXIT_INPUT);
    }
    let result = app::run(cli);
    if let Err(e) = &result {
        // Nowhere else to tell: a full or closed stderr leaves only the exit code.
        let _ = writeln!(std::io::stderr(), "Error: {e}");
    }
    ExitCode::from(error::exit_code(&result))
}
