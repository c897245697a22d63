//! The subcommands: the only place that sees clap's argument types (`args`) and writes to
//! stdout. Each command's arguments become calls of the wings that do the work.

mod ab;
mod args;
mod combine;
mod compare;
mod generate;
mod merge;
mod pdb;
mod plot;
mod run;
mod slurm;
mod solve;
mod tree;
mod worker;

use crate::cmd::args::{Cli, Command};
use crate::domains::DomainKind;
use crate::error::{self, Done, Error};
use crate::util::text;
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// Prints clap's message and exits with its code (2 for a usage error, 0 for --help). clap quotes
/// a refused value whole, so an error quoting a long value, or one a terminal would obey, is
/// printed plain with the quotes cut and made visible.
fn exit_on_clap_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit();
    }
    let plain = e.render().to_string();
    let cut = text::visible_lines(&text::shorten_quoted(&plain)).into_owned();
    if cut == plain {
        e.exit();
    }
    let _ = write!(std::io::stderr(), "{cut}");
    std::process::exit(e.exit_code());
}

/// The whole program after the build is recorded: parse the command line, run it, turn the
/// outcome into an exit code.
pub fn main() -> ExitCode {
    if let Some(why) = start_misread(std::env::args_os().skip(1)) {
        let _ = writeln!(std::io::stderr(), "error: {why}");
        return ExitCode::from(2);
    }
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
    let result = slowdown_from_env().and_then(|()| run(cli));
    if let Err(e) = &result {
        // Nowhere else to tell: a full or closed stderr leaves only the exit code. Messages
        // quote ids and file names, which must not command the terminal.
        let _ = writeln!(
            std::io::stderr(),
            "Error: {}",
            text::visible_lines(&e.to_string())
        );
    }
    ExitCode::from(error::exit_code(&result))
}

/// Why `--start` is misread, if it is: a flag given where its value belongs (`--start
/// --heuristic manhattan`), or a negative start left unquoted (`--start -1 -2`). `--start` takes
/// values that begin with a hyphen (burnt stacks), so clap would take the flag for the start and
/// stumble on the flag's value, or take `-1` alone and stumble on `-2`; no start begins with `--`.
fn start_misread(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    let args: Vec<String> = args
        .map(|a| a.to_string_lossy().into_owned())
        .take_while(|a| a != "--")
        .collect();
    let at = args.iter().position(|a| a == "--start")?;
    let negative = |a: &String| a.len() > 1 && a[1..].starts_with(|c: char| c.is_ascii_digit());
    match (args.get(at + 1), args.get(at + 2)) {
        (Some(flag), _) if flag.starts_with("--") => Some(format!(
            "--start needs a value, not the flag '{}' (a stack that begins with a minus is a \
             value: --start \"-2 1\")",
            text::shorten(flag)
        )),
        (Some(first), Some(next))
            if first.starts_with('-') && next.starts_with('-') && negative(next) =>
        {
            Some(format!(
                "--start takes the whole start as one value: quote it (--start \"{} {} ...\")",
                text::shorten(first),
                text::shorten(next)
            ))
        }
        _ => None,
    }
}

/// Reads IDABENCH_SLOWDOWN (the inject-slowdown feature) once, before any search starts; a bad
/// value is a usage error like a bad flag.
fn slowdown_from_env() -> Result<(), Error> {
    #[cfg(feature = "inject-slowdown")]
    crate::search::slowdown::init_from_env().map_err(Error::usage)?;
    Ok(())
}

/// Runs a parsed command line: how it went, which `error::exit_code` makes an exit code.
fn run(cli: Cli) -> Result<Done, Error> {
    match cli.command {
        Command::Run(args) => run::run_batch(&args, &mut std::io::stdout()),
        Command::Solve(args) => solve::solve(args),
        Command::Compare(args) => compare::compare(args),
        Command::Ab(args) => ab::ab(&args, &mut std::io::stdout()),
        Command::Worker(args) => crate::cmd::worker::serve(
            &args,
            std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
        ),
        Command::Plot(args) => plot::plot(args),
        Command::Generate(args) => generate::generate(args),
        Command::Merge(args) => merge::merge(&args, &mut std::io::stdout()),
        Command::Combine(args) => combine::combine(&args, &mut std::io::stdout()),
        Command::Slurm(args) => slurm::slurm(&args, &mut std::io::stdout()),
        Command::Pdb(cmd) => pdb::command(cmd, &mut std::io::stdout()),
        Command::Tree(args) => tree::tree(&args, &mut std::io::stdout()),
    }
}

/// Writes a command's report `text` to `stdout`, every value in it made visible.
fn print(stdout: &mut dyn Write, text: &str) -> Result<(), Error> {
    stdout
        .write_all(text::visible_lines(text).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("stdout", e))
}

/// The domain `--domain` names.
fn domain_kind(name: &str) -> Result<DomainKind, Error> {
    args::parse_domain(name).map_err(|e| Error::usage(format!("--domain: {e}")))
}
