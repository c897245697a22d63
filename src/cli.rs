//! Every command-line flag, in one place (clap derive).

use crate::search::Step;
use crate::solve::HeuristicKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "idabench",
    version,
    about = "Batch benchmarking harness for IDA* on permutation puzzles",
    after_help = "Exit codes: 0 ok; 1 runtime error; 2 usage or input error; \
                  3 performance regression (compare); 4 wrong or changed results."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve one instance given on the command line and print its figures.
    #[command(after_help = SOLVE_HELP)]
    Solve(SolveArgs),
}

const SOLVE_HELP: &str = "\
Output (text): one `key: value` line each for status, length, path, nodes_generated,
nodes_expanded, iterations, final_bound, time_s, optimal_guaranteed. The path is the blank's
motion as letters U D L R. An unsolvable start prints `status: unsolvable` and exits 0.

Example:
  idabench solve --size 4x4 --start \"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\" \\
      --goal \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\" --heuristic manhattan --step 2 --reverse-pruning on";

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Puzzle family.
    #[arg(long, default_value = "tiles")]
    pub domain: String,
    /// Board size WIDTHxHEIGHT, e.g. 3x3 or 4x4 (each side 2 to 16).
    #[arg(long)]
    pub size: String,
    /// Start state: tiles row-major separated by spaces, 0 = blank.
    #[arg(long)]
    pub start: String,
    /// Goal state in the same form (default: 1 2 ... n-1 then the blank).
    #[arg(long)]
    pub goal: Option<String>,
    #[command(flatten)]
    pub variant: VariantArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// One variant of the search.
#[derive(Args, Debug)]
pub struct VariantArgs {
    /// Heuristic: manhattan, linear-conflict, misplaced or zero (blind).
    #[arg(long, default_value = "manhattan", value_parser = parse_heuristic)]
    pub heuristic: HeuristicKind,
    /// Threshold step: 1, 2 (sound where the solution parity is known) or next (Korf's).
    #[arg(long, default_value = "next", value_parser = parse_step)]
    pub step: Step,
    /// Reverse-move pruning: on skips the move that undoes the previous one.
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub reverse_pruning: OnOff,
}

/// Per-job limits.
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Stop a search after this many generated nodes.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Stop a search after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn parse_heuristic(s: &str) -> Result<HeuristicKind, String> {
    HeuristicKind::parse(s).ok_or_else(|| {
        format!(
            "unknown heuristic '{s}': expected one of {}",
            crate::solve::names(&HeuristicKind::ALL)
        )
    })
}

pub fn parse_step(s: &str) -> Result<Step, String> {
    Step::parse(s).ok_or_else(|| format!("unknown step '{s}': expected 1, 2 or next"))
}

pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }
}
