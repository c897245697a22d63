//! `idabench worker` (hidden): one build's process for a round of `ab`. It plans the jobs of its
//! arguments as `run` does, then solves the jobs named on stdin one at a time, each on this
//! thread alone, and answers each with a runs.csv row on stdout (the protocol:
//! `runner::protocol`).

use crate::cmd::args::WorkerArgs;
use crate::error::{Done, Error};
use crate::results::record::RUNS_HEADER;
use crate::runner::job::{self, Job};
use crate::runner::plan::{place, Loaded};
use crate::runner::prepare;
use crate::runner::protocol::{parse_request, Hello};
use crate::search::Limits;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::Duration;

/// Runs the worker on `input` and `out` (stdin and stdout) until `input` ends.
pub fn serve(args: &WorkerArgs, input: impl BufRead, out: &mut dyn Write) -> Result<Done, Error> {
    // `ab` runs each worker in a process group of its own, out of reach of a terminal's Ctrl-C,
    // and kills it when it stops; should `ab` itself be killed outright, this ends the worker
    // too instead of leaving it to finish its job for no one.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_PDEATHSIG) changes only this process's own attributes.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    // The handshake first: `ab` waits for it only a few seconds, and planning and building
    // tables may take longer.
    let fail = |e| Error::io("stdout", e);
    writeln!(out, "{}", Hello::this_build().line())
        .and_then(|()| out.flush())
        .map_err(fail)?;
    let options = args.plan.options();
    let loaded = Loaded::read(&options)?;
    let jobs = loaded.plan(true)?.jobs;
    prepare::prepare(
        jobs.iter().map(|j| (&j.instance.puzzle, j.spec.heuristic)),
        |i| Some(place(&jobs[i])),
        &options.tables,
        true,
    )?;
    let index: HashMap<(&str, &str, &str), &Job> = jobs
        .iter()
        .map(|j| {
            (
                (j.dataset.name.as_str(), j.instance.id.as_str(), j.variant),
                j,
            )
        })
        .collect();
    let limits = Limits {
        max_nodes: options.max_nodes,
        max_time: options.time_limit.map(Duration::from_secs_f64),
        ..Limits::default()
    };
    writeln!(out, "{}", RUNS_HEADER.join(",")).map_err(fail)?;
    out.flush().map_err(fail)?;
    let mut row = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Error::io("stdin", e))?;
        row.clear();
        match parse_request(&line) {
            Some(key) => match index.get(&(key[0].as_str(), key[1].as_str(), key[2].as_str())) {
                Some(job) => match job::solve_job(job, limits) {
                    Some(record) => record.write_csv(&mut row),
                    None => row.extend_from_slice(b"!the search was cancelled\n"),
                },
                None => row.extend_from_slice(
                    format!(
                        "!stdin:{}: no job (dataset {}, instance {}, variant {}) in this worker's plan\n",
                        n + 1,
                        key[0],
                        key[1],
                        key[2]
                    )
                    .as_bytes(),
                ),
            },
            None => row.extend_from_slice(
                format!(
                    "!stdin:{}: expected a job as `dataset,instance,variant`\n",
                    n + 1
                )
                .as_bytes(),
            ),
        }
        out.write_all(&row)
            .and_then(|()| out.flush())
            .map_err(fail)?;
    }
    Ok(Done::Ok)
}
