//! The pages and pictures written with a run or a comparison: report.html (`html`) and the SVG
//! files beside it, by `idabench plot`, at the end of `run`, `merge` and `combine` (where no
//! failure may cost the run its reports) and by `compare --out`; and every report of a run
//! joined from others (`merge`, `combine`).
//!
//! `plot` reads a run with `compare::load`, the loader `compare` uses, so a report means the
//! same thing to both.

pub mod html;
mod jobs;

use crate::compare::{self, Compared, SavedRun};
use crate::error::{Done, Error};
/// The size of the pictures, for the commands above the plots (`ab`) that ask for them here.
pub use crate::plot::PlotSize;
use crate::plot::{self, first_against_others, present, unfinished, IterationRows, Job, Pictures};
use crate::results::folder;
use crate::results::iterations::{self, Row, Span, Spans};
use crate::results::record::{Manifest, Record, RowKey};
use crate::results::runs::{Rows, Tally};
use crate::results::summary::{self, Summaries};
use crate::results::ReportError;
use crate::util::atomic::{self, Failure};
use crate::util::term::note;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `plot` was asked that cannot be drawn: an `--out` that names a file, a `--pair` of
/// variants the run does not have.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PlotError(String);

fn unplottable(message: String) -> Error {
    PlotError(message).into()
}

/// What `idabench plot` is asked to draw.
#[derive(Clone, Debug, Default)]
pub struct PlotOptions {
    /// Where the SVG files go; default: the report directory.
    pub out: Option<PathBuf>,
    /// Scatter plots to draw, as (x variant, y variant); empty: the first variant against each
    /// other one.
    pub pairs: Vec<(String, String)>,
    /// The size of each picture.
    pub size: PlotSize,
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
    if let Some(out) = &opts.out {
        check_pages_dir(out, Some(&report_dir))?;
    }
    let dir = opts.out.clone().unwrap_or_else(|| report_dir.clone());
    // (An --out that is not a folder was refused by `check_pages_dir`.)
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    check_pages(&dir)?;
    if let Some(m) = &run.manifest {
        if !m.finished() {
            note(format_args!(
                "note: {} is an unfinished run ({} jobs missing): plotting the rows it has",
                run.source,
                m.jobs_missing.map_or("some".into(), |n| n.to_string())
            ));
        }
    }
    let jobs: Vec<Job> = run
        .jobs
        .iter()
        .map(|r| Job {
            dataset: r.dataset,
            instance: r.instance,
            variant: r.variant,
            domain: r.domain,
            size: r.size,
            status: r.status,
            length: r.length,
            nodes_generated: r.nodes_generated,
            time_cpu_s: r.time_cpu_s,
            has_iterations: r.iterations > 0,
        })
        .collect();
    let iterations_csv = report_dir.join(crate::results::iterations::FILE);
    let mut rows = |chosen: &[usize]| -> Result<Vec<Vec<Row>>, String> {
        if !iterations_csv.is_file() {
            return Err(format!(
                "no {} beside runs.csv (a run made before idabench wrote it)",
                crate::results::iterations::FILE
            ));
        }
        // A repeated job's iterations are its representative repetition's.
        let wanted: Vec<RowKey> = chosen.iter().map(|&j| run.jobs.get(j).row_key()).collect();
        let mut lists = vec![Vec::new(); chosen.len()];
        for (k, row) in crate::results::iterations::select(&iterations_csv, &wanted)? {
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
    let pictures = plot::pictures(
        &jobs,
        instances,
        &variants,
        &pairs,
        unfinished.as_deref(),
        &mut rows,
        opts.size,
    );
    for said in &pictures.notes {
        note(format_args!("note: {said}"));
    }
    let mut written = Vec::new();
    for (name, svg) in &pictures.drawn {
        let path = dir.join(name);
        write_file(&path, svg.as_bytes())?;
        written.push(path);
    }
    let summaries = summary::read_summary(&report_dir.join("summary.csv")).and_then(|variants| {
        let groups = summary::read_groups(&report_dir.join(summary::GROUPS_CSV))?;
        Ok(Summaries { variants, groups })
    });
    let page = html::RunReport {
        name: run_name(&report_dir),
        manifest: run.manifest.as_ref(),
        summaries: summaries.as_ref().map_err(ToString::to_string),
        pictures: &pictures,
        files: html::report_files(&report_dir, &dir, &html::RUN_FILES),
        jobs: &jobs,
        variants: &variants,
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
    pub summaries: &'a Summaries,
    /// Whether to draw the plots (not with `--no-plots`), and their size.
    pub plots: bool,
    pub size: PlotSize,
}

/// Draws a run's plots into its report directory and writes its report.html there, at the end
/// of `run` and `merge`, after the other reports. Nothing here may cost the run its reports or
/// its exit code: a picture that cannot be drawn is left out (report.html says why), and a file
/// that cannot be written, or a panic while drawing, is a warning on stderr.
pub fn after_run(end: &RunEnd, rows: &mut IterationRows) {
    let pictures = if end.plots {
        let with_jobs: HashSet<&str> = end.jobs.iter().map(|j| j.variant).collect();
        let variants = present(end.variants.iter().map(String::as_str), |v| {
            with_jobs.contains(v)
        });
        let pairs = first_against_others(&variants);
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let unfinished = unfinished(end.manifest, end.jobs.len());
            plot::pictures(
                end.jobs,
                end.instances,
                &variants,
                &pairs,
                unfinished.as_deref(),
                rows,
                end.size,
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
            note(format_args!("warning: {e}; the reports are whole"));
        }
    }
    let page = html::RunReport {
        name: run_name(end.dir),
        manifest: Some(end.manifest),
        summaries: Ok(end.summaries),
        pictures: &pictures,
        files: html::report_files(end.dir, end.dir, &html::RUN_FILES),
        jobs: end.jobs,
        variants: end.variants,
    };
    if let Err(e) = write_file(&end.dir.join(html::FILE), html::run_page(&page).as_bytes()) {
        note(format_args!("warning: {e}; the reports are whole"));
    }
}

/// A report joined from the rows of others (`merge`, `combine`), its rows kept and summarized.
pub struct Joined<'a> {
    /// Its directory.
    pub out: &'a Path,
    /// Each job's row, by job index; `None` for a job no report holds.
    pub records: Vec<Option<&'a Record>>,
    pub rows: &'a Rows,
    pub manifest: &'a Manifest,
    pub summaries: &'a Summaries,
    /// Whether to draw the plots, and their size.
    pub plots: bool,
    pub size: PlotSize,
}

/// Writes every report of `joined` (`summary::write_reports`; the iterations copied from where
/// `spans` says they lie), then its plots and report.html (`after_run`); what to print: its
/// summary and where it is.
pub fn write_joined(joined: &Joined, spans: &mut Spans) -> Result<String, Error> {
    let (out, rows) = (joined.out, joined.rows);
    summary::write_reports(out, rows, Some(spans), joined.manifest, joined.summaries)?;
    // A job's repetitions lie a round apart; the pictures show each job once.
    let round = joined.records.len() / joined.manifest.repeat.max(1) as usize;
    let mut all: Vec<(usize, usize, &Tally)> = Vec::with_capacity(rows.kept());
    all.extend(rows.tallies().map(|(i, t)| (i, i % round.max(1), t)));
    let (index, finished): (Vec<usize>, Vec<Job>) = summary::reduce_jobs(round, &all)
        .filter_map(|(i, job)| {
            let t = job.tally;
            let r = joined.records[i]?;
            let job = Job {
                dataset: &r.dataset,
                instance: &r.instance,
                variant: &r.variant,
                domain: &r.domain,
                size: &r.size,
                status: t.status,
                length: t.length,
                nodes_generated: t.nodes_generated,
                time_cpu_s: t.time_cpu_s,
                has_iterations: spans.jobs[i].len > 0,
            };
            Some((i, job))
        })
        .unzip();
    let run_end = RunEnd {
        dir: out,
        jobs: &finished,
        instances: plot::instances_in_run_order(&finished),
        variants: &joined.manifest.variants,
        manifest: joined.manifest,
        summaries: joined.summaries,
        plots: joined.plots,
        size: joined.size,
    };
    after_run(&run_end, &mut |chosen| {
        let wanted: Vec<Span> = chosen.iter().map(|&k| spans.jobs[index[k]]).collect();
        iterations::read_spans(&spans.sources, &wanted).map_err(|e| e.to_string())
    });
    Ok(format!(
        "{}\nreports: {}\n",
        summary::summary_md(joined.summaries, joined.manifest),
        out.display()
    ))
}

/// Writes the pictures of a comparison (unless not `plots`; each `size`) and its report.html into `dir`
/// (created if missing), for `compare --out`: as at the end of a run, a failure is a warning on
/// stderr and changes no verdict or exit code.
pub fn after_compare(
    dir: &Path,
    compared: &Compared,
    plots: bool,
    sides: &html::Sides,
    size: PlotSize,
) {
    if let Err(e) = std::fs::create_dir_all(dir) {
        note(format_args!(
            "warning: {}: {e}: the comparison's pictures and report.html are not written",
            dir.display()
        ));
        return;
    }
    let pictures = if plots {
        let drawn = std::panic::catch_unwind(|| plot::comparison_pictures(compared, size));
        let pictures = drawn.unwrap_or_else(|_| Pictures {
            drawn: Vec::new(),
            notes: vec![
                "the pictures were not drawn: drawing them failed (see the panic on stderr)".into(),
            ],
        });
        for said in &pictures.notes {
            note(format_args!("note: {said}"));
        }
        pictures
    } else {
        Pictures {
            drawn: Vec::new(),
            notes: vec!["no pictures: compare was given --no-plots".into()],
        }
    };
    let page = html::compare_page(compared, &pictures, dir, sides);
    let files = pictures
        .drawn
        .iter()
        .map(|(name, svg)| (name.as_str(), svg));
    for (name, text) in files.chain([(html::FILE, &page)]) {
        if let Err(e) = write_file(&dir.join(name), text.as_bytes()) {
            note(format_args!("warning: {e}"));
        }
    }
}

/// Refuses `dir`, named with `--out`, as the folder for pages (report.html and pictures) when
/// it holds a run other than `own`: a run's pages are its own, and a comparison or another
/// run's plot must not replace them. A link or special file in place of a page is refused too
/// (see `check_pages`).
pub fn check_pages_dir(dir: &Path, own: Option<&Path>) -> Result<(), Error> {
    folder::check_out(dir)?;
    let same = |a: &Path, b: &Path| matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b);
    let holds_run = std::fs::symlink_metadata(dir.join("runs.csv")).is_ok();
    if holds_run && !own.is_some_and(|own| same(own, dir)) {
        return Err(ReportError::Refused(format!(
            "--out {}: it holds a run (runs.csv), whose report.html and pictures are its own: choose another --out",
            dir.display()
        ))
        .into());
    }
    check_pages(dir)
}

/// Refuses a link, FIFO or device in `dir` under the name of a page (report.html, an SVG
/// picture), before anything is drawn: it would lead the page elsewhere. Other files in the
/// folder are not the pages' concern.
fn check_pages(dir: &Path) -> Result<(), Error> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == html::FILE || name.ends_with(".svg") {
            folder::check_own_file(&entry.path())?;
        }
    }
    Ok(())
}

/// Writes `path`, a file of a report folder, whole (see `atomic`); a link or special file
/// there is refused, not written through.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    folder::check_own_file(path)?;
    atomic::replace_with(path, |file| file.write_all(bytes)).map_err(|e| match e {
        Failure::Fill(e) | Failure::Io(e) => Error::io(path, e),
    })
}

/// The run's variants: in the manifest's order when it has one (the order of `--heuristic`,
/// `--step`, `--reverse-pruning`), then any others in the order runs.csv first names them.
fn variants(run: &SavedRun) -> Vec<String> {
    let listed = run.manifest.iter().flat_map(|m| m.variants.iter());
    // A set, not a search of the jobs for each variant: a run may have as many variants as jobs.
    let with_jobs: HashSet<&str> = run.jobs.iter().map(|j| j.variant).collect();
    let in_runs = run.jobs.iter().map(|j| j.variant);
    present(listed.map(String::as_str).chain(in_runs), |v| {
        with_jobs.contains(v)
    })
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
                return Err(unplottable(format!(
                    "--pair {a},{b}: the run has no variant `{v}`; it has {}",
                    variants.join(", ")
                )));
            }
        }
        if a == b {
            return Err(unplottable(format!(
                "--pair {a},{b}: expected two different variants"
            )));
        }
    }
    Ok(asked.to_vec())
}
