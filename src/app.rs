//! Subcommand glue: each command's arguments turned into calls of the modules that do the work
//! (`run` is the run module's); `solve`'s output.

use crate::cli::{
    Cli, Command, CompareArgs, CompareFormat, Format, GenerateArgs, LimitArgs, OnOff, SolveArgs,
};
use crate::compare;
use crate::domains::tiles;
use crate::error::{Done, Error};
use crate::generate;
use crate::judge;
use crate::report;
use crate::run;
use crate::search::Limits;
use crate::solve::{self, DomainKind, Puzzle, Spec};
use serde_json::json;
use std::io::Write;
use std::time::Duration;

/// Runs a parsed command line; the exit code on success.
pub fn run(cli: Cli) -> Result<Done, Error> {
    match cli.command {
        Command::Run(args) => run::run_batch(&args, &mut std::io::stdout()),
        Command::Solve(args) => solve_one(args),
        Command::Compare(args) => compare_runs(args),
        Command::Generate(args) => generate_dataset(args),
    }
}

fn limits(args: &LimitArgs) -> Limits<'static> {
    Limits {
        max_nodes: args.max_nodes,
        max_time: args.time_limit.map(Duration::from_secs_f64),
        ..Limits::default()
    }
}

fn solve_one(args: SolveArgs) -> Result<Done, Error> {
    if args.format == Format::Judge || args.problem.is_some() {
        let problem = args
            .problem
            .ok_or_else(|| Error::input("--format judge needs --problem"))?;
        if args.format != Format::Judge {
            return Err(Error::input("--problem goes with --format judge"));
        }
        let mut input = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)
            .map_err(|e| Error::input(format!("stdin: {e}")))?;
        let out = judge::answer(problem, &input)
            .map_err(|e| Error::input(format!("{}: {e}", problem.name())))?;
        write_stdout(&out)?;
        return Ok(Done::Ok);
    }
    let Some(start) = &args.start else {
        return Err(Error::input("--start is required"));
    };
    let kind = DomainKind::parse(&args.domain).ok_or_else(|| {
        let known: Vec<&str> = DomainKind::ALL.iter().map(|d| d.name()).collect();
        Error::input(format!(
            "--domain: unknown domain '{}': expected one of {}",
            args.domain,
            known.join(", ")
        ))
    })?;
    if kind == DomainKind::Tiles && args.size.is_none() {
        return Err(Error::input(
            "--size: domain tiles needs WIDTHxHEIGHT, e.g. --size 4x4",
        ));
    }
    let size = args.size.as_deref().unwrap_or("");
    let puzzle = Puzzle::fixed(kind, size, start, args.goal.as_deref())
        .map_err(|(field, e)| Error::input(format!("--{field}: {e}")))?;
    let spec = Spec {
        heuristic: args.variant.heuristic.unwrap_or(kind.heuristics()[0]),
        step: args.variant.step,
        reverse_pruning: args.variant.reverse_pruning == OnOff::On,
    };
    let a = solve::solve(&puzzle, &spec, limits(&args.limits)).map_err(Error::input)?;
    let st = &a.stats;
    match args.format {
        Format::Text => {
            let opt = |v: Option<String>| v.unwrap_or_default();
            write_stdout(&format!(
                "status: {}\nlength: {}\npath: {}\nnodes_generated: {}\nnodes_expanded: {}\n\
                 iterations: {}\nfinal_bound: {}\ntime_s: {:.6}\noptimal_guaranteed: {}\n",
                a.status,
                opt(a.length.map(|l| l.to_string())),
                opt(a.path.clone()),
                st.generated,
                st.expanded,
                st.iterations.len(),
                st.final_bound,
                a.wall.as_secs_f64(),
                a.optimal_guaranteed
            ))?;
        }
        Format::Judge => unreachable!("handled above"),
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
            write_stdout(&format!("{out:#}\n"))?;
        }
    }
    Ok(Done::Ok)
}

/// Writes `text` to stdout: a full or closed stdout is an error (exit 1), not a panic.
fn write_stdout(text: &str) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("stdout", e))
}

fn generate_dataset(args: GenerateArgs) -> Result<Done, Error> {
    let Some(kind) = DomainKind::parse(&args.domain) else {
        let known: Vec<&str> = DomainKind::ALL.iter().map(|d| d.name()).collect();
        return Err(Error::input(format!(
            "--domain: unknown domain '{}': expected one of {}",
            args.domain,
            known.join(", ")
        )));
    };
    let mode = match (args.all, args.count, args.walk) {
        (true, _, _) => generate::Mode::All,
        (false, Some(count), None) => generate::Mode::Random {
            count,
            seed: args.seed,
        },
        (false, Some(count), Some(moves)) => generate::Mode::Walk {
            count,
            seed: args.seed,
            moves,
        },
        (false, None, _) => return Err(Error::input("give --all or --count N")),
    };
    let mut bytes = Vec::new();
    if kind == DomainKind::Tiles {
        let size = args
            .size
            .as_deref()
            .ok_or_else(|| Error::input("--size: tiles need WIDTHxHEIGHT, e.g. --size 3x3"))?;
        let (width, height) = tiles::parse_size(size).map_err(Error::input)?;
        let goal = match &args.goal {
            Some(g) => tiles::parse_permutation(g, width * height)
                .map_err(|e| Error::input(format!("--goal: {e}")))?,
            None => tiles::default_goal(width * height),
        };
        let spec = generate::TilesSpec {
            width,
            height,
            goal,
        };
        generate::tiles(&spec, &mode, &mut bytes).map_err(Error::input)?;
    } else {
        if args.goal.is_some() {
            return Err(Error::input(format!(
                "--goal: {} has a fixed goal",
                kind.name()
            )));
        }
        let books = match (kind, args.size.as_deref()) {
            (DomainKind::Booksort, Some(n)) => n.trim().parse().map_err(|_| {
                Error::input(format!("--size '{n}': booksort needs the number of books"))
            })?,
            (DomainKind::Booksort, None) => {
                return Err(Error::input("--size: booksort needs the number of books"))
            }
            _ => 0,
        };
        generate::fixed(kind, books, &mode, &mut bytes).map_err(Error::input)?;
    }
    match &args.out {
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is the reader's choice, not an error.
            if let Err(e) = stdout.write_all(&bytes).and_then(|_| stdout.flush()) {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    return Err(Error::runtime(format!("stdout: {e}")));
                }
            }
        }
        Some(path) => report::write_atomic(path, &bytes).map_err(Error::runtime)?,
    }
    Ok(Done::Ok)
}

fn compare_runs(args: CompareArgs) -> Result<Done, Error> {
    let opts = compare::Options {
        time_threshold: args.time_threshold,
        allow_node_changes: args.allow_node_changes,
        format: match args.format {
            CompareFormat::Text => compare::Format::Text,
            CompareFormat::Markdown => compare::Format::Markdown,
            CompareFormat::Csv => compare::Format::Csv,
        },
        ..compare::Options::default()
    };
    compare::run(
        &args.baseline,
        &args.current,
        &opts,
        &mut std::io::stdout().lock(),
    )
}
