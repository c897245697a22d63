//! Subcommand glue: the only module that touches paths, stdout and exit codes.

use crate::cli::{Cli, Command, Format, LimitArgs, OnOff, SolveArgs};
use crate::search::Limits;
use crate::solve::{self, DomainKind, Puzzle, Spec};
use serde_json::json;
use std::time::Duration;

/// Exit codes, as documented in README and `--help`.
pub const EXIT_OK: u8 = 0;
pub const EXIT_RUNTIME: u8 = 1;
pub const EXIT_INPUT: u8 = 2;

/// An error to print and the exit code that goes with it.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_INPUT,
            message: message.into(),
        }
    }

    pub fn runtime(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_RUNTIME,
            message: message.into(),
        }
    }
}

/// Runs a parsed command line; the exit code on success.
pub fn run(cli: Cli) -> Result<u8, Failure> {
    match cli.command {
        Command::Solve(args) => solve_one(args),
    }
}

fn limits(args: &LimitArgs) -> Limits<'static> {
    Limits {
        max_nodes: args.max_nodes,
        max_time: args.time_limit.map(Duration::from_secs_f64),
        ..Limits::default()
    }
}

fn solve_one(args: SolveArgs) -> Result<u8, Failure> {
    let kind = DomainKind::parse(&args.domain).ok_or_else(|| {
        Failure::input(format!(
            "--domain: unknown domain '{}': expected tiles",
            args.domain
        ))
    })?;
    let puzzle = match kind {
        DomainKind::Tiles => Puzzle::tiles(&args.size, &args.start, args.goal.as_deref()),
    }
    .map_err(Failure::input)?;
    let spec = Spec {
        heuristic: args.variant.heuristic,
        step: args.variant.step,
        reverse_pruning: args.variant.reverse_pruning == OnOff::On,
    };
    let a = solve::solve(&puzzle, &spec, limits(&args.limits)).map_err(Failure::input)?;
    let st = &a.stats;
    match args.format {
        Format::Text => {
            let opt = |v: Option<String>| v.unwrap_or_default();
            println!("status: {}", a.status);
            println!("length: {}", opt(a.length.map(|l| l.to_string())));
            println!("path: {}", opt(a.path.clone()));
            println!("nodes_generated: {}", st.generated);
            println!("nodes_expanded: {}", st.expanded);
            println!("iterations: {}", st.iterations.len());
            println!("final_bound: {}", st.final_bound);
            println!("time_s: {:.6}", a.wall.as_secs_f64());
            println!("optimal_guaranteed: {}", a.optimal_guaranteed);
        }
        Format::Json => {
            let iterations: Vec<_> = st
                .iterations
                .iter()
                .map(|i| json!({"bound": i.bound, "nodes_generated": i.generated, "nodes_expanded": i.expanded}))
                .collect();
            let out = json!({
                "status": a.status.name(),
                "length": a.length,
                "path": a.path,
                "variant": spec.name(),
                "nodes_generated": st.generated,
                "nodes_expanded": st.expanded,
                "iterations": st.iterations.len(),
                "final_bound": st.final_bound,
                "initial_h": st.initial_h,
                "time_s": a.wall.as_secs_f64(),
                "time_cpu_s": a.cpu.as_secs_f64(),
                "optimal_guaranteed": a.optimal_guaranteed,
                "per_iteration": iterations,
            });
            println!("{out:#}");
        }
    }
    Ok(EXIT_OK)
}
