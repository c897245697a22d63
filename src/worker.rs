//! `idabench worker` (hidden): one build's process for a round of `ab`. It plans the jobs of its
//! arguments as `run` does, then solves the jobs named on stdin one at a time, each on this
//! thread alone, and answers each with a runs.csv row on stdout.
//!
//! The protocol, so that two builds of different versions can talk or refuse clearly:
//! 1. the worker's first line is the handshake `idabench-worker protocol=P version=V commit=C
//!    build=B` (`commit=-` when unknown), written at once; `ab` refuses a protocol it does not
//!    speak, and a binary that gives no handshake within a few seconds;
//! 2. its second line, once its jobs are planned and their tables ready, is the runs.csv header
//!    of this build, so `ab` reads the rows by column name and builds with other column sets
//!    still understand each other;
//! 3. then each stdin line is one job as a CSV record `dataset,instance,variant`, answered by
//!    one line: the job's runs.csv row, or `!` and a message when it cannot be answered (a job
//!    this worker did not plan). End of stdin ends the worker.

use crate::batch::{self, Job};
use crate::cli::WorkerArgs;
use crate::error::{Done, Error};
use crate::pdb;
use crate::record::RUNS_HEADER;
use crate::run;
use crate::search::Limits;
use crate::solve::Spec;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::Duration;

/// The worker protocol's version: raised whenever a line of it changes meaning.
pub const PROTOCOL: u32 = 1;

/// The first word of the handshake.
pub const HELLO: &str = "idabench-worker";

/// What the handshake says of a build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    pub protocol: u32,
    pub version: String,
    /// The source commit, `-` when the build does not know it.
    pub commit: String,
    /// The build profile, e.g. `release`.
    pub build: String,
}

impl Hello {
    /// This build's handshake.
    pub fn this_build() -> Hello {
        Hello {
            protocol: PROTOCOL,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            commit: run::git_commit().unwrap_or_else(|| "-".to_owned()),
            build: env!("IDABENCH_PROFILE").to_owned(),
        }
    }

    pub fn line(&self) -> String {
        format!(
            "{HELLO} protocol={} version={} commit={} build={}",
            self.protocol, self.version, self.commit, self.build
        )
    }

    /// Reads a handshake line; `None` when the line is not one. Unknown `key=value` words are
    /// skipped, so that a later protocol may add some.
    pub fn parse(line: &str) -> Option<Hello> {
        let mut words = line.split_whitespace();
        if words.next() != Some(HELLO) {
            return None;
        }
        let mut hello = Hello {
            protocol: 0,
            version: String::new(),
            commit: "-".to_owned(),
            build: String::new(),
        };
        for word in words {
            match word.split_once('=') {
                Some(("protocol", p)) => hello.protocol = p.parse().ok()?,
                Some(("version", v)) => hello.version = v.to_owned(),
                Some(("commit", c)) => hello.commit = c.to_owned(),
                Some(("build", b)) => hello.build = b.to_owned(),
                _ => {}
            }
        }
        (hello.protocol > 0).then_some(hello)
    }
}

/// A job's request line: `dataset,instance,variant` as one CSV record, with its line end.
pub fn request(dataset: &str, instance: &str, variant: &str) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record([dataset, instance, variant])
        .expect("writing CSV to memory cannot fail");
    let bytes = writer
        .into_inner()
        .expect("writing CSV to memory cannot fail");
    String::from_utf8(bytes).expect("CSV written from strings is UTF-8")
}

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
    let plan = &args.plan;
    let (datasets, _) = run::read_datasets(&plan.datasets)?;
    let specs = run::variants(plan, &datasets);
    let names: Vec<String> = specs.iter().map(Spec::name).collect();
    let jobs = run::plan_jobs(plan, &datasets, &specs, &names, true)?.jobs;
    pdb::prepare(
        jobs.iter().map(|j| (&j.instance.puzzle, j.spec.heuristic)),
        |i| Some(run::place(&jobs[i])),
        &plan.tables,
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
        max_nodes: plan.limits.max_nodes,
        max_time: plan.limits.time_limit.map(Duration::from_secs_f64),
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
                Some(job) => match batch::solve_job(job, limits) {
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

/// The three fields of a request line.
fn parse_request(line: &str) -> Option<[String; 3]> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    let record = reader.records().next()?.ok()?;
    match record.iter().collect::<Vec<_>>()[..] {
        [d, i, v] => Some([d.to_owned(), i.to_owned(), v.to_owned()]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_read_back_and_others_are_refused() {
        let hello = Hello::this_build();
        assert_eq!(Hello::parse(&hello.line()), Some(hello));
        let later = Hello::parse("idabench-worker protocol=7 version=9.0.0 build=release x=y");
        assert_eq!(later.map(|h| (h.protocol, h.commit)), Some((7, "-".into())));
        assert_eq!(Hello::parse("idabench 0.1.0"), None);
        assert_eq!(Hello::parse("idabench-worker version=1"), None);
        assert_eq!(Hello::parse("idabench-worker protocol=x"), None);
    }

    #[test]
    fn requests_survive_commas_and_quotes() {
        let line = request("d", "a,\"b\"", "manhattan/stepnext/prune");
        let key = parse_request(line.trim_end()).unwrap();
        assert_eq!(key, ["d", "a,\"b\"", "manhattan/stepnext/prune"]);
        assert_eq!(parse_request("just one"), None);
        assert_eq!(parse_request(""), None);
    }
}
