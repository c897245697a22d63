//! Subcommand glue: each command's arguments turned into calls of the modules that do the work
//! (`run` is the run module's); `solve`'s output.

use crate::atomic::{self, Failure};
use crate::batch;
use crate::cli::{
    Cli, Command, CompareArgs, CompareFormat, Format, GenerateArgs, LimitArgs, OnOff, PlotArgs,
    SolveArgs,
};
use crate::compare;
use crate::domains::tiles;
use crate::domains::{DomainKind, Puzzle};
use crate::error::{Done, Error};
use crate::generate::{self, GenerateError};
use crate::judge;
use crate::merge;
use crate::pdb;
use crate::plot;
use crate::record::Status;
use crate::run;
use crate::search::Limits;
use crate::slurm;
use crate::solve::Spec;
use crate::text::{self, shorten};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Runs a parsed command line; the exit code on success.
pub fn run(cli: Cli) -> Result<Done, Error> {
    match cli.command {
        Command::Run(args) => run::run_batch(&args, &mut std::io::stdout()),
        Command::Solve(args) => solve_one(args),
        Command::Compare(args) => compare_runs(args),
        Command::Ab(args) => crate::ab::ab(&args, &mut std::io::stdout()),
        Command::Worker(args) => crate::worker::serve(
            &args,
            std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
        ),
        Command::Plot(args) => plot_run(args),
        Command::Generate(args) => generate_dataset(args),
        Command::Merge(args) => merge::merge(&args, &mut std::io::stdout()),
        Command::Slurm(args) => slurm::slurm(&args, &mut std::io::stdout()),
        Command::Pdb(cmd) => pdb::command(cmd, &mut std::io::stdout()),
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
        let input = read_judge_input()?;
        let out = judge::answer(problem, &input)
            .map_err(|e| Error::input(format!("{}: {e}", problem.name())))?;
        write_stdout(&out)?;
        return Ok(Done::Ok);
    }
    let Some(start) = &args.start else {
        return Err(Error::input("--start is required"));
    };
    let kind = domain_kind(&args.domain)?;
    let size = args.size.as_deref().unwrap_or("");
    let puzzle = Puzzle::fixed(kind, size, start, args.goal.as_deref())
        .map_err(|(field, e)| Error::input(format!("--{field}: {e}")))?;
    let spec = Spec {
        heuristic: args
            .variant
            .heuristic
            .unwrap_or_else(|| kind.default_heuristic()),
        step: args.variant.step,
        reverse_pruning: args.variant.reverse_pruning == OnOff::On,
    };
    if kind.accepts(spec.heuristic) {
        pdb::prepare([(&puzzle, spec.heuristic)], |_| None, &args.tables, false)?;
    }
    let threads = args.jobs.map_or_else(crate::run::cores, usize::from);
    let a = batch::solve_alone(
        &puzzle,
        &spec,
        limits(&args.limits),
        args.split.split.0,
        threads,
    )
    .map_err(Error::input)?;
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
                "threads": threads,
                "split": {
                    "iterations": a.split.iterations,
                    "repeated": a.split.repeated,
                    "subtrees": a.split.subtrees,
                    "helped": a.split.helped,
                },
            });
            write_stdout(&format!("{out:#}\n"))?;
        }
    }
    Ok(if a.status == Status::Wrong {
        Done::Wrong
    } else {
        Done::Ok
    })
}

/// Judge input on stdin, within the bounds datasets have (`text::BOUNDS`).
fn read_judge_input() -> Result<String, Error> {
    let bytes = text::read_bounded(std::io::stdin().lock(), text::BOUNDS).map_err(|e| {
        Error::input(match e.line() {
            Some(line) => format!("stdin:{line}: {e}"),
            None => format!("stdin: {e}"),
        })
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "stdin: not UTF-8 text (byte {} is not valid UTF-8)",
            e.utf8_error().valid_up_to() + 1
        ))
    })
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
    let kind = domain_kind(&args.domain)?;
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
        (false, None, _) => return Err(Error::usage("give --all or --count N")),
    };
    // Every argument is checked before the first row is written: the rows then go out as they
    // are made, so a refusal must not come after part of a dataset.
    let size = args
        .size
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if kind != DomainKind::Tiles && args.goal.is_some() {
        return Err(Error::usage(format!(
            "--goal: {} has a fixed goal",
            kind.name()
        )));
    }
    let (size_column, goal) = kind
        .generator_goal(size)
        .map_err(|(field, e)| Error::usage(format!("--{field}: {e}")))?;
    // Tiles have generators of their own: every state by BFS, uniform draws among the solvable.
    let tiles_spec = if kind == DomainKind::Tiles {
        let (width, height) = tiles::parse_size(&size_column).map_err(Error::usage)?;
        let goal = match &args.goal {
            Some(g) => tiles::parse_permutation(g, width * height)
                .map_err(|e| Error::usage(format!("--goal: {e}")))?,
            None => tiles::default_goal(width * height),
        };
        Some(generate::TilesSpec {
            width,
            height,
            goal,
        })
    } else {
        None
    };
    let generate = |out: &mut dyn Write| match &tiles_spec {
        Some(spec) => generate::tiles(spec, &mode, out),
        None => generate::fixed(kind, &size_column, &goal, &mode, out),
    };
    let fail = |target: &Path, e: GenerateError| match e {
        GenerateError::Refused(message) => Error::usage(message),
        GenerateError::Write(e) => Error::io(target, e),
    };
    match &args.out {
        None => {
            generate(&mut std::io::stdout().lock()).map_err(|e| fail(Path::new("stdout"), e))?
        }
        Some(path) => atomic::write_with(path, |file| generate(file).map_err(|e| fail(path, e)))
            .map_err(|e| match e {
                Failure::Fill(e) => e,
                Failure::Io(e) => Error::io(path, e),
            })?,
    }
    Ok(Done::Ok)
}

fn domain_kind(name: &str) -> Result<DomainKind, Error> {
    DomainKind::parse(name).ok_or_else(|| {
        Error::usage(format!(
            "--domain: unknown domain '{}': expected one of {}",
            shorten(name),
            DomainKind::names()
        ))
    })
}

fn compare_runs(args: CompareArgs) -> Result<Done, Error> {
    let opts = compare::CompareOptions {
        time_threshold: args.time_threshold,
        allow_node_changes: args.allow_node_changes,
        format: match args.format {
            CompareFormat::Text => compare::RenderFormat::Text,
            CompareFormat::Markdown => compare::RenderFormat::Markdown,
            CompareFormat::Csv => compare::RenderFormat::Csv,
        },
        ..compare::CompareOptions::default()
    };
    let compared = compare::compared(&args.baseline, &args.current, &opts)?;
    let done = compared.write(opts.format, &mut std::io::stdout().lock())?;
    if let Some(dir) = &args.out {
        plot::after_compare(dir, &compared, !args.no_plots);
    }
    Ok(done)
}

fn plot_run(args: PlotArgs) -> Result<Done, Error> {
    let opts = plot::PlotOptions {
        out: args.out,
        pairs: args.pair,
    };
    plot::plot(&args.report, &opts, &mut std::io::stdout().lock())
}
