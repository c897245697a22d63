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
use crate::runner::protocol::{self, frame_row, parse_request, read_message, Framing, Hello};
use crate::util::text::shorten;
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Runs the worker on `input` and `out` (stdin and stdout) until `input` ends. A request it
/// cannot read (longer than the protocol allows, or cut short) ends it with an input error: where
/// the next one would start is then unknown.
pub fn serve(
    args: &WorkerArgs,
    mut input: impl BufRead,
    out: &mut dyn Write,
) -> Result<Done, Error> {
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
        jobs.iter().map(|j| (&j.instance.puzzle, j.spec)),
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
    let limits = options.limits().search();
    writeln!(out, "{}", RUNS_HEADER.join(",")).map_err(fail)?;
    out.flush().map_err(fail)?;
    let max = protocol::max_message(&jobs);
    let mut request = Vec::new();
    let mut row = Vec::new();
    // Where the next request starts, as `stdin:LINE` names it.
    let mut line = 1;
    loop {
        let at = line;
        match read_message(&mut input, max, &mut request) {
            Ok(true) => {}
            Ok(false) => break,
            Err(Framing::Io(e)) => return Err(Error::io("stdin", e)),
            Err(e) => {
                return Err(Error::input(format!(
                    "stdin:{at}: a request {e}: expected jobs as `dataset,instance,variant`, one CSV record each (ab's worker protocol)"
                )))
            }
        }
        line += request.iter().filter(|&&b| b == b'\n').count();
        row.clear();
        match parse_request(&request) {
            Some(key) => match index.get(&(key[0].as_str(), key[1].as_str(), key[2].as_str())) {
                Some(job) => match job::solve_job(job, limits) {
                    Some(record) => {
                        record.write_csv(&mut row);
                        frame_row(&mut row);
                    }
                    None => row.extend_from_slice(b"!the search was cancelled\n"),
                },
                None => row.extend_from_slice(
                    format!(
                        "!stdin:{at}: no job (dataset {}, instance {}, variant {}) in this worker's plan\n",
                        shorten(&key[0]),
                        shorten(&key[1]),
                        shorten(&key[2])
                    )
                    .as_bytes(),
                ),
            },
            None => row.extend_from_slice(
                format!("!stdin:{at}: expected a job as `dataset,instance,variant`\n").as_bytes(),
            ),
        }
        out.write_all(&row)
            .and_then(|()| out.flush())
            .map_err(fail)?;
    }
    Ok(Done::Ok)
}
