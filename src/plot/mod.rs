//! `idabench plot`: SVG pictures of one run's report (cactus plots by CPU time and by nodes, and
//! per-instance scatter plots of nodes between two variants), drawn with plotters' SVG backend.
//!
//! The run is read with `compare::load`, the loader `compare` uses, so a report means the same
//! thing to both. plotters is built without a font library: its SVG backend writes text as
//! `<text>` elements that the viewer lays out, and estimates text sizes itself for the layout.

mod cactus;
mod scatter;
mod style;

use crate::atomic::{self, Failure};
use crate::compare::{self, SavedRun};
use crate::error::{Done, Error};
use cactus::{cactus, Measure};
use scatter::scatter;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

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
/// names each written file on `out`. A plot that cannot be drawn (nothing solved, one variant)
/// is skipped with a note on stderr. Bad input (no runs.csv, an unknown variant in a pair) is
/// exit 2, like `compare`.
pub fn plot(report: &Path, opts: &PlotOptions, out: &mut dyn Write) -> Result<Done, Error> {
    let run = compare::load(report)?;
    let variants = variants(&run);
    let pairs = pairs(&variants, &opts.pairs)?;
    let dir = match &opts.out {
        Some(dir) => dir.clone(),
        None if report.is_dir() => report.to_path_buf(),
        None => report
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    if let Some(m) = &run.manifest {
        if !m.finished() {
            eprintln!(
                "note: {} is an unfinished run ({} jobs missing): plotting the rows it has",
                run.source,
                m.jobs_missing.map_or("some".into(), |n| n.to_string())
            );
        }
    }

    let mut pictures: Vec<(String, Result<String, String>)> = Vec::new();
    pictures.push(("cactus.svg".into(), cactus(&run, &variants, Measure::Time)));
    pictures.push((
        "cactus-nodes.svg".into(),
        cactus(&run, &variants, Measure::Nodes),
    ));
    if pairs.is_empty() {
        eprintln!("note: no scatter plot: the run has one variant");
    }
    let mut names = HashSet::new();
    for (a, b) in &pairs {
        let name = format!("scatter-{}-vs-{}.svg", safe_name(a), safe_name(b));
        if !names.insert(name.clone()) {
            eprintln!("note: skipped {a} vs {b}: its file name {name} is taken by another pair");
            continue;
        }
        pictures.push((name, scatter(&run, a, b)));
    }

    for (name, picture) in pictures {
        match picture {
            Ok(svg) => {
                let path = dir.join(&name);
                atomic::write_with(&path, |file| file.write_all(svg.as_bytes())).map_err(|e| {
                    match e {
                        Failure::Fill(e) | Failure::Io(e) => Error::io(&path, e),
                    }
                })?;
                writeln!(out, "{}", path.display()).map_err(|e| Error::io("stdout", e))?;
            }
            Err(why) => eprintln!("note: skipped {name}: {why}"),
        }
    }
    out.flush().map_err(|e| Error::io("stdout", e))?;
    Ok(Done::Ok)
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
    let present: HashSet<&str> = run.records.iter().map(|r| r.variant.as_str()).collect();
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let listed = run.manifest.iter().flat_map(|m| m.variants.iter());
    for v in listed.chain(run.records.iter().map(|r| &r.variant)) {
        if present.contains(v.as_str()) && seen.insert(v.clone()) {
            out.push(v.clone());
        }
    }
    out
}

/// The scatter plots to draw: `asked`, checked against the run's variants, or the first variant
/// against each other one.
fn pairs(variants: &[String], asked: &[(String, String)]) -> Result<Vec<(String, String)>, Error> {
    if asked.is_empty() {
        return Ok(variants
            .iter()
            .skip(1)
            .map(|b| (variants[0].clone(), b.clone()))
            .collect());
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
