//! The pictures of runs and comparisons, as SVG drawn with plotters' SVG backend: cactus plots
//! by CPU time and by nodes, nodes per iteration of the hardest solved instances, per-instance
//! scatter plots of nodes between two variants, and a comparison's two pictures. They read only
//! `Job`s (or a comparison), which a run gives from its memory and `plot` from its files; where
//! they are written is `report`'s. plotters is built without a font library: its SVG backend
//! writes text as `<text>` elements that the viewer lays out, and estimates text sizes itself
//! for the layout.

mod cactus;
mod comparison;
mod iterations;
mod scatter;
mod style;

pub use comparison::pictures as comparison_pictures;
pub use style::PlotSize;

use crate::results::iterations::Row;
use crate::results::record::{Manifest, Status};
use cactus::{cactus, Measure};
use scatter::scatter;
use std::collections::HashSet;

/// One job as the pictures and report.html see it.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub dataset: &'a str,
    pub instance: &'a str,
    pub variant: &'a str,
    pub domain: &'a str,
    pub size: &'a str,
    pub status: Status,
    pub length: Option<u32>,
    pub nodes_generated: u64,
    pub time_cpu_s: f64,
    /// Whether iterations.csv has rows of the job.
    pub has_iterations: bool,
}

/// The per-iteration rows of the jobs given by their indices into the pictures' jobs, one list
/// per job; an error says why there are none.
pub type IterationRows<'s> = dyn FnMut(&[usize]) -> Result<Vec<Vec<Row>>, String> + 's;

/// The pictures drawn, as (file name, SVG), and a note for each one that was not, saying why.
#[derive(Debug, Default)]
pub struct Pictures {
    pub drawn: Vec<(String, String)>,
    pub notes: Vec<String>,
}

impl Pictures {
    pub fn add(&mut self, name: &str, picture: Result<String, String>) {
        match picture {
            Ok(svg) => self.drawn.push((name.to_owned(), svg)),
            Err(why) => self.notes.push(format!("skipped {name}: {why}")),
        }
    }
}

/// What the titles say of a run that did not finish (interrupted, or still going): how many of
/// its planned jobs have a row, e.g. `interrupted: 6 of 26 jobs`; none for a finished run.
pub fn unfinished(manifest: &Manifest, done: usize) -> Option<String> {
    if manifest.finished() {
        return None;
    }
    let how = if manifest.complete == Some(false) {
        "interrupted"
    } else {
        "unfinished"
    };
    // The pictures show each job once; a manifest counts each of its repetitions.
    let total = manifest
        .jobs_total
        .map(|rows| rows / manifest.repeat.max(1) as usize)
        .or(manifest.jobs_missing.map(|missing| missing + done));
    Some(match total {
        Some(total) => format!("{how}: {done} of {total} jobs"),
        None => format!("{how} run"),
    })
}

/// The pictures of a run: the cactus plots, the iterations of the hardest instances, and the
/// scatter plot of each pair (the caller has checked their variants). `unfinished` says how
/// much of an unfinished run there is; `rows` gives the iterations of the jobs that plot
/// chooses. Each picture is `size`.
pub fn pictures(
    jobs: &[Job],
    instances: usize,
    variants: &[String],
    pairs: &[(String, String)],
    unfinished: Option<&str>,
    rows: &mut IterationRows,
    size: PlotSize,
) -> Pictures {
    // The nodes per iteration are drawn beside the others, on a second thread: at the end of a
    // run every core is free, and the run's wall time waits for the pictures.
    let (cactus_time, cactus_nodes, scatters, by_iteration) = std::thread::scope(|scope| {
        let others = scope.spawn(|| {
            let time = cactus(jobs, instances, unfinished, variants, Measure::Time, size);
            let nodes = cactus(jobs, instances, unfinished, variants, Measure::Nodes, size);
            (time, nodes, scatters(jobs, pairs, size))
        });
        let by_iteration = iterations::iterations(jobs, variants, rows, size);
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

/// The most scatter plots drawn: more than a run of every heuristic, step and pruning has
/// (about 90), so that a runs.csv of as many variants as jobs does not draw a plot per job, each
/// going over every job.
const MOST_SCATTERS: usize = 120;

/// The scatter plots of `pairs` (the first `MOST_SCATTERS`), with notes of why none or not all.
fn scatters(jobs: &[Job], pairs: &[(String, String)], size: PlotSize) -> Pictures {
    let mut pictures = Pictures::default();
    if pairs.is_empty() {
        pictures
            .notes
            .push("no scatter plot: the run has one variant".into());
    }
    if pairs.len() > MOST_SCATTERS {
        pictures.notes.push(format!(
            "skipped {} scatter plots: at most {MOST_SCATTERS} are drawn (`plot --pair` chooses them)",
            pairs.len() - MOST_SCATTERS
        ));
    }
    let mut names = HashSet::new();
    for (a, b) in pairs.iter().take(MOST_SCATTERS) {
        let name = format!("scatter-{}-vs-{}.svg", safe_name(a), safe_name(b));
        if !names.insert(name.clone()) {
            pictures.notes.push(format!(
                "skipped {a} vs {b}: its file name {name} is taken by another pair"
            ));
            continue;
        }
        pictures.add(&name, scatter(jobs, a, b, size));
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
/// Beyond `SAFE_NAME` characters, the first `SAFE_NAME - 20` are kept with a hash of the whole
/// name (16 hex digits): a file name has at most 255 bytes, and a scatter plot's holds two.
pub fn safe_name(variant: &str) -> String {
    let safe: String = variant
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.len() <= SAFE_NAME {
        return safe;
    }
    let hash = crate::results::shard::job_hash("", "", variant);
    format!("{}-{hash:016x}", &safe[..SAFE_NAME - 20])
}

/// The most characters of a variant's part of a file name.
const SAFE_NAME: usize = 100;

/// The names of `names` that `has_jobs`, each once, in order.
pub fn present<'a>(
    names: impl Iterator<Item = &'a str>,
    has_jobs: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for v in names {
        if seen.insert(v) && has_jobs(v) {
            out.push(v.to_owned());
        }
    }
    out
}

/// The first variant against each other one: the scatter plots drawn by default.
pub fn first_against_others(variants: &[String]) -> Vec<(String, String)> {
    match variants.split_first() {
        Some((first, others)) => others.iter().map(|b| (first.clone(), b.clone())).collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_replace_slashes() {
        assert_eq!(safe_name("manhattan/step2/prune"), "manhattan_step2_prune");
        assert_eq!(safe_name("a b/../c"), "a_b_.._c");
        let long = safe_name(&"v/".repeat(60));
        assert_eq!(long.len(), SAFE_NAME - 3);
        assert!(long.starts_with(&"v_".repeat(40)), "{long}");
        assert_ne!(long, safe_name(&("v/".repeat(59) + "w/")));
    }
}
