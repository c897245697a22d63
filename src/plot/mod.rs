//! The pictures of runs and comparisons, as SVG drawn with plotters' SVG backend, and where they
//! are written with their report.html: by `idabench plot` (cactus plots by CPU time and by nodes,
//! nodes per iteration of the hardest solved instances, per-instance scatter plots of nodes
//! between two variants), at the end of `run` and `merge` (the same, where no failure may cost
//! the run its reports), and by `compare --out` (a comparison's two pictures).
//!
//! `plot` reads a run with `compare::load`, the loader `compare` uses, so a report means the
//! same thing to both; the pictures themselves read only `Job`s, which a run can also give from
//! its memory. plotters is built without a font library: its SVG backend writes text as
//! `<text>` elements that the viewer lays out, and estimates text sizes itself for the layout.

mod cactus;
mod comparison;
mod iterations;
mod scatter;
mod style;

pub use style::{si, thousands};

use crate::atomic::{self, Failure};
use crate::compare::{self, Compared, SavedRun};
use crate::error::{Done, Error};
use crate::html;
use crate::iterations::Row;
use crate::record::{Manifest, Status};
use crate::report::{self, VariantSummary};
use cactus::{cactus, Measure};
use scatter::scatter;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One job as the pictures see it.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub dataset: &'a str,
    pub instance: &'a str,
    pub variant: &'a str,
    pub status: Status,
    pub nodes_generated: u64,
    pub time_cpu_s: f64,
    /// Whether iterations.csv has rows of the job.
    pub has_iterations: bool,
}

/// The per-iteration rows of the jobs given by their indices into the pictures' jobs, one list
/// per job; an error says why there are none.
pub type IterationRows<'s> = dyn FnMut(&[usize]) -> Result<Vec<Vec<Row>>, String> + 's;

/// What `idabench plot` is asked to draw.
#[derive(Clone, Debug, Default)]
pub struct PlotOptions {
    /// Where the SVG files go; default: the report directory.
    pub out: Option<PathBuf>,
    /// Scatter plots to draw, as (x variant, y variant); empty: the first variant against each
    /// other one.
    pub pairs: Vec<(String, String)>,
}

/// Reads the run at `report` (a report directory or its runs.csv), writes the SVG files and
/// report.html and names each written file on `out`. A plot that cannot be drawn (nothing
/// solved, one variant) is skipped with a note on stderr. Bad input (no runs.csv, an unknown
/// variant in a pair) is exit 2, like `compare`.
pub fn plot(report: &Path, opts: &PlotOptions, out: &mut dyn Write) -> Result<Done, Error> {
    let run = compare::load(report)?;
    let variants = variants(&run);
    let pairs = pairs(&variants, &opts.pairs)?;
    let report_dir = if report.is_dir() {
        report.to_path_buf()
    } else {
        report
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf()
    };
    let dir = opts.out.clone().unwrap_or_else(|| report_dir.clone());
    std::fs::create_dir_all(&dir).map_err(|e| {
        if dir.exists() && !dir.is_dir() {
            Error::usage(format!(
                "{}: not a directory (--out names the folder the pictures go to)",
                dir.display()
            ))
        } else {
            Error::io(&dir, e)
        }
    })?;
    if let Some(m) = &run.manifest {
        if !m.finished() {
            eprintln!(
                "note: {} is an unfinished run ({} jobs missing): plotting the rows it has",
                run.source,
                m.jobs_missing.map_or("some".into(), |n| n.to_string())
            );
        }
    }
    let jobs: Vec<Job> = run
        .records
        .iter()
        .map(|r| Job {
            dataset: &r.dataset,
            instance: &r.instance,
            variant: &r.variant,
            status: r.status,
            nodes_generated: r.nodes_generated,
            time_cpu_s: r.time_cpu_s,
            has_iterations: r.iterations > 0,
        })
        .collect();
    let iterations_csv = report_dir.join(crate::iterations::FILE);
    let mut rows = |chosen: &[usize]| -> Result<Vec<Vec<Row>>, String> {
        if !iterations_csv.is_file() {
            return Err(format!(
                "no {} beside runs.csv (a run made before idabench wrote it)",
                crate::iterations::FILE
            ));
        }
        let wanted: Vec<(&str, &str, &str)> = chosen
            .iter()
            .map(|&j| (jobs[j].dataset, jobs[j].instance, jobs[j].variant))
            .collect();
        let mut lists = vec![Vec::new(); chosen.len()];
        for (k, row) in crate::iterations::select(&iterations_csv, &wanted)? {
            lists[k].push(row);
        }
        Ok(lists)
    };

    let unfinished = run
        .manifest
        .as_ref()
        .and_then(|m| unfinished(m, jobs.len()));
    let instances = jobs
        .iter()
        .map(|j| (j.dataset, j.instance))
        .collect::<HashSet<_>>()
        .len();
    let pictures = pictures(
        &jobs,
        instances,
        &variants,
        &pairs,
        unfinished.as_deref(),
        &mut rows,
    );
    for note in &pictures.notes {
        eprintln!("note: {note}");
    }
    let mut written = Vec::new();
    for (name, svg) in &pictures.drawn {
        let path = dir.join(name);
        write_file(&path, svg.as_bytes())?;
        written.push(path);
    }
    let summaries = report::read_summary(&report_dir.join("summary.csv"));
    let page = html::RunReport {
        name: run_name(&report_dir),
        manifest: run.manifest.as_ref(),
        summaries: summaries.as_deref().map_err(Clone::clone),
        pictures: &pictures,
        files: html::report_files(&report_dir, &dir, &html::RUN_FILES),
    };
    let path = dir.join(html::FILE);
    write_file(&path, html::run_page(&page).as_bytes())?;
    written.push(path);
    for path in written {
        writeln!(out, "{}", path.display()).map_err(|e| Error::io("stdout", e))?;
    }
    out.flush().map_err(|e| Error::io("stdout", e))?;
    Ok(Done::Ok)
}

/// A run's name: its report directory's.
fn run_name(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What a run's report.html is made of, at the end of `run` and `merge`.
pub struct RunEnd<'a> {
    /// The report directory.
    pub dir: &'a Path,
    pub jobs: &'a [Job<'a>],
    /// How many instances the jobs are of (see `instances_in_run_order`).
    pub instances: usize,
    /// The run's variants, in its order.
    pub variants: &'a [String],
    pub manifest: &'a Manifest,
    pub summaries: &'a [VariantSummary],
    /// Whether to draw the plots (not with `--no-plots`).
    pub plots: bool,
}

/// Draws a run's plots into its report directory and writes its report.html there, at the end
/// of `run` and `merge`, after the other reports. Nothing here may cost the run its reports or
/// its exit code: a picture that cannot be drawn is left out (report.html says why), and a file
/// that cannot be written, or a panic while drawing, is a warning on stderr.
pub fn after_run(end: &RunEnd, rows: &mut IterationRows) {
    let pictures = if end.plots {
        let with_jobs: HashSet<&str> = end.jobs.iter().map(|j| j.variant).collect();
        let variants = present(end.variants.iter(), |v| with_jobs.contains(v));
        let pairs = first_against_others(&variants);
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let unfinished = unfinished(end.manifest, end.jobs.len());
            pictures(
                end.jobs,
                end.instances,
                &variants,
                &pairs,
                unfinished.as_deref(),
                rows,
            )
        }));
        drawn.unwrap_or_else(|_| Pictures {
            drawn: Vec::new(),
            notes: vec![
                "the plots were not drawn: drawing them failed (see the panic on stderr)".into(),
            ],
        })
    } else {
        Pictures {
            drawn: Vec::new(),
            notes: vec!["no plots: the run was given --no-plots".into()],
        }
    };
    for (name, svg) in &pictures.drawn {
        if let Err(e) = write_file(&end.dir.join(name), svg.as_bytes()) {
            crate::run::note(format_args!("warning: {e}; the reports are whole"));
        }
    }
    let page = html::RunReport {
        name: run_name(end.dir),
        manifest: Some(end.manifest),
        summaries: Ok(end.summaries),
        pictures: &pictures,
        files: html::report_files(end.dir, end.dir, &html::RUN_FILES),
    };
    if let Err(e) = write_file(&end.dir.join(html::FILE), html::run_page(&page).as_bytes()) {
        crate::run::note(format_args!("warning: {e}; the reports are whole"));
    }
}

/// Writes the pictures of a comparison (unless not `plots`) and its report.html into `dir`
/// (created if missing), for `compare --out`: as at the end of a run, a failure is a warning on
/// stderr and changes no verdict or exit code.
pub fn after_compare(dir: &Path, compared: &Compared, plots: bool) {
    if let Err(e) = std::fs::create_dir_all(dir) {
        crate::run::note(format_args!(
            "warning: {}: {e}: the comparison's pictures and report.html are not written",
            dir.display()
        ));
        return;
    }
    let pictures = if plots {
        let drawn = std::panic::catch_unwind(|| comparison::pictures(compared));
        let pictures = drawn.unwrap_or_else(|_| Pictures {
            drawn: Vec::new(),
            notes: vec![
                "the pictures were not drawn: drawing them failed (see the panic on stderr)".into(),
            ],
        });
        for note in &pictures.notes {
            crate::run::note(format_args!("note: {note}"));
        }
        pictures
    } else {
        Pictures {
            drawn: Vec::new(),
            notes: vec!["no pictures: compare was given --no-plots".into()],
        }
    };
    let page = html::compare_page(compared, &pictures, dir);
    let files = pictures
        .drawn
        .iter()
        .map(|(name, svg)| (name.as_str(), svg));
    for (name, text) in files.chain([(html::FILE, &page)]) {
        if let Err(e) = write_file(&dir.join(name), text.as_bytes()) {
            crate::run::note(format_args!("warning: {e}"));
        }
    }
}

/// Writes `path` whole (see `atomic`).
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    atomic::write_with(path, |file| file.write_all(bytes)).map_err(|e| match e {
        Failure::Fill(e) | Failure::Io(e) => Error::io(path, e),
    })
}

/// The pictures drawn, as (file name, SVG), and a note for each one that was not, saying why.
#[derive(Debug, Default)]
pub struct Pictures {
    pub drawn: Vec<(String, String)>,
    pub notes: Vec<String>,
}

impl Pictures {
    fn add(&mut self, name: &str, picture: Result<String, String>) {
        match picture {
            Ok(svg) => self.drawn.push((name.to_owned(), svg)),
            Err(why) => self.notes.push(format!("skipped {name}: {why}")),
        }
    }
}

/// What the titles say of a run that did not finish (interrupted, or still going): how many of
/// its planned jobs have a row, e.g. `interrupted: 6 of 26 jobs`; none for a finished run.
fn unfinished(manifest: &Manifest, done: usize) -> Option<String> {
    if manifest.finished() {
        return None;
    }
    let how = if manifest.complete == Some(false) {
        "interrupted"
    } else {
        "unfinished"
    };
    let total = manifest
        .jobs_total
        .or(manifest.jobs_missing.map(|missing| missing + done));
    Some(match total {
        Some(total) => format!("{how}: {done} of {total} jobs"),
        None => format!("{how} run"),
    })
}

/// The pictures of a run: the cactus plots, the iterations of the hardest instances, and the
/// scatter plot of each pair (the caller has checked their variants). `unfinished` says how
/// much of an unfinished run there is; `rows` gives the iterations of the jobs that plot
/// chooses.
fn pictures(
    jobs: &[Job],
    instances: usize,
    variants: &[String],
    pairs: &[(String, String)],
    unfinished: Option<&str>,
    rows: &mut IterationRows,
) -> Pictures {
    // The nodes per iteration are drawn beside the others, on a second thread: at the end of a
    // run every core is free, and the run's wall time waits for the pictures.
    let (cactus_time, cactus_nodes, scatters, by_iteration) = std::thread::scope(|scope| {
        let others = scope.spawn(|| {
            let time = cactus(jobs, instances, unfinished, variants, Measure::Time);
            let nodes = cactus(jobs, instances, unfinished, variants, Measure::Nodes);
            (time, nodes, scatters(jobs, pairs))
        });
        let by_iteration = iterations::iterations(jobs, variants, rows);
        let (time, nodes, scatters) = others
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (time, nodes, scatters, by_iteration)
    });
    let mut pictures = Pictures::default();
    pictures.add("cactus.svg", cactus_time);
    pictures.add("cactus-nodes.svg", cactus_nodes);
    pictures.add("iterations.svg", by_iteration);
    pictures.drawn.extend(scatters.drawn);
    pictures.notes.extend(scatters.notes);
    pictures
}

/// The scatter plots of `pairs`, with notes of why none or not all.
fn scatters(jobs: &[Job], pairs: &[(String, String)]) -> Pictures {
    let mut pictures = Pictures::default();
    if pairs.is_empty() {
        pictures
            .notes
            .push("no scatter plot: the run has one variant".into());
    }
    let mut names = HashSet::new();
    for (a, b) in pairs {
        let name = format!("scatter-{}-vs-{}.svg", safe_name(a), safe_name(b));
        if !names.insert(name.clone()) {
            pictures.notes.push(format!(
                "skipped {a} vs {b}: its file name {name} is taken by another pair"
            ));
            continue;
        }
        pictures.add(&name, scatter(jobs, a, b));
    }
    pictures
}

/// How many instances `jobs` are of, when they come in a run's order (`run` and `merge` give
/// them so): all jobs of an instance next to each other, so only neighbours need comparing.
pub fn instances_in_run_order(jobs: &[Job]) -> usize {
    let other = |w: &[Job]| (w[0].dataset, w[0].instance) != (w[1].dataset, w[1].instance);
    jobs.first()
        .map_or(0, |_| 1 + jobs.windows(2).filter(|w| other(w)).count())
}

/// A file name made of a variant name: every character other than an ASCII letter, a digit,
/// `.`, `-` or `_` becomes `_` (so `manhattan/step2/prune` becomes `manhattan_step2_prune`).
pub fn safe_name(variant: &str) -> String {
    variant
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The run's variants: in the manifest's order when it has one (the order of `--heuristic`,
/// `--step`, `--reverse-pruning`), then any others in the order runs.csv first names them.
fn variants(run: &SavedRun) -> Vec<String> {
    let listed = run.manifest.iter().flat_map(|m| m.variants.iter());
    present(listed.chain(run.records.iter().map(|r| &r.variant)), |v| {
        run.records.iter().any(|r| r.variant == *v)
    })
}

/// The names of `names` that `has_jobs`, each once, in order.
fn present<'a>(
    names: impl Iterator<Item = &'a String>,
    has_jobs: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for v in names {
        if seen.insert(v.as_str()) && has_jobs(v) {
            out.push(v.clone());
        }
    }
    out
}

/// The first variant against each other one: the scatter plots drawn by default.
fn first_against_others(variants: &[String]) -> Vec<(String, String)> {
    match variants.split_first() {
        Some((first, others)) => others.iter().map(|b| (first.clone(), b.clone())).collect(),
        None => Vec::new(),
    }
}

/// The scatter plots to draw: `asked`, checked against the run's variants, or the first variant
/// against each other one.
fn pairs(variants: &[String], asked: &[(String, String)]) -> Result<Vec<(String, String)>, Error> {
    if asked.is_empty() {
        return Ok(first_against_others(variants));
    }
    for (a, b) in asked {
        for v in [a, b] {
            if !variants.contains(v) {
                return Err(Error::usage(format!(
                    "--pair {a},{b}: the run has no variant `{v}`; it has {}",
                    variants.join(", ")
                )));
            }
        }
        if a == b {
            return Err(Error::usage(format!(
                "--pair {a},{b}: expected two different variants"
            )));
        }
    }
    Ok(asked.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_replace_slashes() {
        assert_eq!(safe_name("manhattan/step2/prune"), "manhattan_step2_prune");
        assert_eq!(safe_name("a b/../c"), "a_b_.._c");
    }
}
