//! `idabench solve`: one instance under one variant, its answer as text or JSON; or, with
//! `--problem`, a judge's input answered in the judge's format.

use super::domain_kind;
use crate::cmd::args::{Format, SolveArgs};
use crate::domains::judge;
use crate::domains::Spec;
use crate::error::{Done, Error};
use crate::results::record::Status;
use crate::runner::job;
use crate::runner::{machine, prepare};
use crate::search::Limits;
use crate::util::interrupt;
use crate::util::term::note;
use crate::util::text;
use serde_json::json;
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// Runs `idabench solve`: one instance, or a judge's input.
pub(super) fn solve(args: SolveArgs) -> Result<Done, Error> {
    if args.format == Format::Judge || args.problem.is_some() {
        let problem = args
            .problem
            .ok_or_else(|| Error::input("--format judge needs --problem"))?;
        if args.format != Format::Judge {
            return Err(Error::input("--problem goes with --format judge"));
        }
        let input = read_judge_input()?;
        let out = judge::answer(problem, &input)?;
        write_stdout(&out)?;
        return Ok(Done::Ok);
    }
    let Some(start) = &args.start else {
        return Err(Error::input("--start is required"));
    };
    let kind = domain_kind(args.defined.domain())?;
    let size = args.size.as_deref().unwrap_or("");
    let file = args.defined.read().map_err(Error::input)?;
    let puzzle = kind
        .instance(file.as_ref(), Some(size), start, args.goal.as_deref())
        .map_err(|(field, e)| Error::input(format!("--{field}: {e}")))?;
    let spec = Spec {
        heuristic: args
            .variant
            .heuristic
            .unwrap_or_else(|| kind.default_heuristic()),
        step: args.variant.step,
        pruning: args.variant.pruning().or_depth(kind.fsm_depth()),
        cost: args.variant.cost,
    };
    // A heuristic of another domain is refused by the search, naming the domain's.
    if kind.accepts(spec.heuristic) {
        prepare::prepare([(&puzzle, spec)], |_| None, &args.tables.options(), false)?;
    }
    let threads = args.jobs.map_or_else(machine::cores, usize::from);
    // The puzzle and variant as given: a file of another (or of another build) is refused.
    let checkpoint = match (&args.checkpoint_file, args.checkpoint.checkpoint.0) {
        (Some(file), None) => {
            return Err(Error::Usage(format!(
                "--checkpoint-file {} needs --checkpoint above 0 (0 would neither save there \
                 nor go on from it)",
                file.display()
            )))
        }
        (Some(file), Some(every)) => {
            let identity = vec![
                ("domain", kind.name().to_string()),
                ("size", puzzle.size()),
                ("start", puzzle.start_tokens()),
                ("goal", args.goal.clone().unwrap_or_default()),
                ("variant", spec.name()),
            ];
            Some((file.clone(), every, identity))
        }
        _ => None,
    };
    // A search that saves is stopped cleanly by a signal, saving what it has done.
    let limits = if checkpoint.is_some() {
        install_signal_handler();
        Limits {
            cancel: Some(&CANCEL),
            ..args.limits.limits().search()
        }
    } else {
        args.limits.limits().search()
    };
    let a = job::solve_alone(
        &puzzle,
        &spec,
        limits,
        args.split.split.0,
        threads,
        checkpoint,
    )?;
    if a.status == Status::Cancelled {
        return Ok(Done::Interrupted);
    }
    let st = &a.stats;
    // In the model's units (under inverse-heavy, a move of tile t costs 1/t).
    let cost = a.cost.map(|(units, scale)| units as f64 / f64::from(scale));
    match args.format {
        Format::Text => {
            let opt = |v: Option<String>| v.unwrap_or_default();
            write_stdout(&format!(
                "status: {}\nlength: {}\ncost: {}\ncost_model: {}\npath: {}\n\
                 nodes_generated: {}\nnodes_expanded: {}\niterations: {}\nfinal_bound: {}\n\
                 time_s: {:.6}\noptimal_guaranteed: {}\n",
                a.status,
                opt(a.length.map(|l| l.to_string())),
                opt(cost.map(|c| c.to_string())),
                spec.cost.name(),
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
                .map(|i| json!({"bound": i.bound, "nodes_generated": i.generated, "nodes_expanded": i.expanded, "budget": i.budget}))
                .collect();
            let out = json!({
                "status": a.status.name(),
                "length": a.length,
                "cost": cost,
                "cost_model": spec.cost.name(),
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

/// Set by Ctrl-C, SIGTERM or SIGHUP while a search that saves runs; the search polls it.
static CANCEL: AtomicBool = AtomicBool::new(false);

fn install_signal_handler() {
    interrupt::install(
        &CANCEL,
        || {},
        || {
            note(format_args!(
                "\ninterrupted: saving the search's progress and stopping"
            ))
        },
        "Ctrl-C or SIGTERM will end the search at once, keeping its last checkpoint",
    );
}

/// Judge input on stdin, within the bounds datasets have (`text::BOUNDS`), a leading byte-order
/// mark skipped as datasets skip it.
fn read_judge_input() -> Result<String, Error> {
    let bytes = text::read_bounded(std::io::stdin().lock(), text::BOUNDS).map_err(|e| {
        Error::input(match e.line() {
            Some(line) => format!("stdin:{line}: {e}"),
            None => format!("stdin: {e}"),
        })
    })?;
    // Saved by a Windows editor, the input starts with a byte-order mark, which is no token.
    let input = text::without_bom(&bytes);
    let skipped = bytes.len() - input.len();
    std::str::from_utf8(input).map(str::to_owned).map_err(|e| {
        Error::input(format!(
            "stdin: not UTF-8 text (byte {} is not valid UTF-8)",
            skipped + e.valid_up_to() + 1
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
