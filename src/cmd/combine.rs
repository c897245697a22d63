//! The `combine` command: finished runs of the same datasets, limits and repetitions, with
//! different variants (or one variant under new names, `--rename`), joined into one report
//! folder with every report and picture a run leaves, as if one run had run all their variants.

use crate::cmd::args::CombineArgs;
use crate::domains::Spec;
use crate::error::{Done, Error};
use crate::report::{self, Joined};
use crate::results::combined::{self, CombinedRun, Renamed};
use crate::results::folder;
use crate::results::iterations::{self, Appender, Span, Spans};
use crate::results::record::{self, DatasetInfo, Manifest, Record, RowKey, RunLimits};
use crate::results::runs::{verdict, Rows};
use crate::results::summary;
use crate::search::{Clock, Iteration};
use crate::tables::automata::AutomatonInfo;
use crate::util::clock;
use crate::util::term::note;
use crate::util::text::shorten;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many duplicate jobs an error lists before it only counts the rest.
const LISTED: usize = 3;

/// Jobs whose iteration rows are read at a time: a bound on what is held while they are copied.
const CHUNK: usize = 4096;

/// One run to combine, read back.
struct Source {
    /// As given on the command line: `--rename RUN:OLD=NEW` names it so.
    given: String,
    dir: PathBuf,
    manifest: Manifest,
    rows: Vec<Record>,
    /// Where each row's iteration rows lie in the run's iterations.csv; `None` without one.
    iterations: Option<Vec<Span>>,
    renamed: Vec<Renamed>,
}

impl Source {
    /// Its variants by their names in the run: the manifest's, then any other a row has.
    fn variants(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.manifest.variants.iter().map(String::as_str).collect();
        let mut seen: HashSet<&str> = names.iter().copied().collect();
        for r in &self.rows {
            if seen.insert(&r.variant) {
                names.push(&r.variant);
            }
        }
        names
    }

    /// The combined report's name of its variant `name`.
    fn new_name<'a>(&'a self, name: &'a str) -> &'a str {
        self.renamed
            .iter()
            .find(|r| r.from == name)
            .map_or(name, |r| r.to.as_str())
    }
}

/// Runs `idabench combine`: the summary goes to `stdout`, notes to stderr.
pub fn combine(args: &CombineArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    let mut runs = args
        .runs
        .iter()
        .map(|d| read_run(d))
        .collect::<Result<Vec<_>, _>>()?;
    refuse_repeats(&runs)?;
    for (run, rename) in renames(&args.rename, &runs)? {
        runs[run].renamed.push(rename);
    }
    let differences = combined::differences(runs.iter().map(|r| (r.given.as_str(), &r.manifest)));
    let mixed: Vec<String> = differences
        .iter()
        .filter(|d| d.mixes)
        .map(|d| d.render(|v| v.to_owned()))
        .collect();
    if !mixed.is_empty() && !args.allow_mixed {
        return Err(Error::input(format!(
            "the runs differ in {}\ncombine joins runs of the same datasets (SHA-256), limits and \
             --repeat counts; --allow-mixed combines them anyway, and the report says so at its top",
            mixed.join("\nand in ")
        )));
    }
    if !mixed.is_empty() {
        note(format_args!(
            "note: combining runs that differ in {} (--allow-mixed): the report says so",
            mixed.join("; and in ")
        ));
    }
    let plan = plan(&runs)?;
    let out = claim(args, &runs)?;

    let mut rows = Rows::new(plan.slots.len());
    let renamed: Vec<Option<Record>> = plan
        .slots
        .iter()
        .map(|slot| {
            slot.map(|(run, row)| {
                let (source, r) = (&runs[run], &runs[run].rows[row]);
                Record {
                    variant: source.new_name(&r.variant).to_owned(),
                    ..r.clone()
                }
            })
        })
        .collect();
    let records: Vec<Option<&Record>> = renamed.iter().map(Option::as_ref).collect();
    rows.keep(
        records
            .iter()
            .enumerate()
            .filter_map(|(slot, r)| r.map(|r| (slot, r))),
    );
    let mut spans = copy_iterations(&out, &runs, &plan, &records)?;
    let finished = rows
        .tallies()
        .map(|(slot, t)| (plan.places[slot].0, plan.places[slot].1, t));
    let manifest = combined_manifest(&runs, &plan);
    let summaries = summary::summarize(
        finished,
        &plan.specs,
        &plan.variants,
        &summary::groups_of(&records, &plan.places),
        summary::Limits::of(&manifest),
    );
    let joined = Joined {
        out: &out,
        records,
        rows: &rows,
        manifest: &manifest,
        summaries: &summaries,
        plots: !args.no_plots,
        size: args.pictures.plot_size.unwrap_or_default(),
    };
    let text = report::write_joined(&joined, &mut spans)?;
    super::print(stdout, &text)?;
    Ok(verdict(&summaries.variants))
}

/// A finished run's manifest, runs.csv and where its iteration rows lie. A run's folder is
/// idabench's own: a link or FIFO planted in it is refused, not read through.
fn read_run(dir: &Path) -> Result<Source, Error> {
    if !dir.is_dir() {
        return Err(Error::input(format!(
            "{}: not a report directory (combine takes the report directories of finished runs)",
            dir.display()
        )));
    }
    folder::check_own(dir)?;
    let manifest = record::read_manifest(&dir.join("manifest.json")).map_err(|e| {
        Error::input(format!(
            "{e}: combine takes the report directories of finished runs, whose manifest.json says which datasets and limits they ran"
        ))
    })?;
    if let Some(shard) = manifest.shard {
        return Err(Error::input(format!(
            "{}: shard {shard} of a run: merge its shards first (`idabench merge`), then combine the merged report",
            dir.display()
        )));
    }
    if !manifest.finished() {
        return Err(Error::input(format!(
            "{}: an unfinished run ({} jobs missing): finish it first (`idabench run ... --resume` with its options)",
            dir.display(),
            manifest
                .jobs_missing
                .map_or_else(|| "some".to_owned(), |n| n.to_string())
        )));
    }
    let runs_csv = dir.join("runs.csv");
    let mut rows = record::read_runs(&runs_csv)?;
    // Rows from before runs.csv named its run are this one's.
    let name = folder::run_name(dir);
    for r in rows.iter_mut().filter(|r| r.run.is_empty()) {
        r.run.clone_from(&name);
    }
    let path = dir.join(iterations::FILE);
    let iterations = if path.is_file() {
        let by_key: HashMap<RowKey, usize> =
            rows.iter().enumerate().map(|(k, r)| (r.key(), k)).collect();
        let found = iterations::scan(&path, 0, rows.len(), |key| by_key.get(&key).copied())
            .map_err(Error::input)?;
        let spans = rows
            .iter()
            .zip(found)
            .map(|(r, found)| iterations::span_of(r, found))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::input(format!("{}: {e}", dir.display())))?;
        Some(spans)
    } else {
        note(format_args!(
            "note: {} has no {}: the combined one lacks the iterations of its {} job(s)",
            dir.display(),
            iterations::FILE,
            rows.len()
        ));
        None
    };
    Ok(Source {
        given: dir.display().to_string(),
        dir: dir.to_path_buf(),
        manifest,
        rows,
        iterations,
        renamed: Vec::new(),
    })
}

/// A run given twice would hold every job twice.
fn refuse_repeats(runs: &[Source]) -> Result<(), Error> {
    let mut seen: HashMap<PathBuf, &str> = HashMap::new();
    for r in runs {
        let real = fs::canonicalize(&r.dir).map_err(|e| Error::io(&r.dir, e))?;
        if let Some(before) = seen.insert(real, &r.given) {
            return Err(Error::usage(format!(
                "{before} and {} are the same run: give each run once",
                r.given
            )));
        }
    }
    Ok(())
}

/// Each `--rename` as the run it applies to and the renaming: `RUN:OLD=NEW`, RUN one of the
/// runs exactly as given (the longest that fits), or `OLD=NEW` for the one run that has a
/// variant OLD. Variant names hold `/`, and a renamed one may hold `=`: the text splits at the
/// first `=` after which OLD is a variant of the run.
fn renames(given: &[String], runs: &[Source]) -> Result<Vec<(usize, Renamed)>, Error> {
    let variants: Vec<Vec<&str>> = runs.iter().map(Source::variants).collect();
    let split = |text: &str, run: usize| -> Option<Renamed> {
        text.match_indices('=').find_map(|(at, _)| {
            let (from, to) = (&text[..at], &text[at + 1..]);
            (!to.is_empty() && variants[run].contains(&from)).then(|| Renamed {
                from: from.to_owned(),
                to: to.to_owned(),
            })
        })
    };
    let mut out: Vec<(usize, Renamed)> = Vec::new();
    for text in given {
        let shown = shorten(text);
        let mut qualified: Vec<usize> = (0..runs.len())
            .filter(|&r| {
                text.strip_prefix(runs[r].given.as_str())
                    .is_some_and(|rest| rest.starts_with(':'))
            })
            .collect();
        qualified.sort_by_key(|&r| std::cmp::Reverse(runs[r].given.len()));
        let by_run = qualified
            .into_iter()
            .find_map(|r| split(&text[runs[r].given.len() + 1..], r).map(|n| (r, n)));
        let rename = match by_run {
            Some(found) => found,
            None => {
                let holders: Vec<(usize, Renamed)> = (0..runs.len())
                    .filter_map(|r| split(text, r).map(|n| (r, n)))
                    .collect();
                match holders.as_slice() {
                    [one] => one.clone(),
                    [] => return Err(unknown_rename(text, runs, &variants)),
                    [..] => {
                        let (from, to) = (&holders[0].1.from, &holders[0].1.to);
                        let forms: Vec<String> = holders
                            .iter()
                            .map(|(r, _)| format!("--rename {}:{from}={to}", runs[*r].given))
                            .collect();
                        return Err(Error::usage(format!(
                            "--rename {shown}: variant '{}' is in {} runs; say which: {}",
                            shorten(from),
                            holders.len(),
                            forms.join(" or ")
                        )));
                    }
                }
            }
        };
        let (run, ref n) = rename;
        let source = &runs[run];
        if out.iter().any(|(r, o)| *r == run && o.from == n.from) {
            return Err(Error::usage(format!(
                "--rename {shown}: variant '{}' of {} is renamed twice",
                shorten(&n.from),
                source.given
            )));
        }
        out.push(rename);
    }
    // Renamed at once (a swap is fine), but no two variants of a run may end with one name.
    for (r, source) in runs.iter().enumerate() {
        let mut names: HashMap<&str, &str> = HashMap::new();
        for v in &variants[r] {
            let new = out
                .iter()
                .find(|(run, n)| *run == r && n.from == *v)
                .map_or(*v, |(_, n)| n.to.as_str());
            if let Some(other) = names.insert(new, v) {
                return Err(Error::usage(format!(
                    "--rename: variants '{}' and '{}' of {} would both be named '{}'",
                    shorten(other),
                    shorten(v),
                    source.given,
                    shorten(new)
                )));
            }
        }
    }
    Ok(out)
}

/// The refusal of a `--rename` that names no variant of any run.
fn unknown_rename(text: &str, runs: &[Source], variants: &[Vec<&str>]) -> Error {
    if !text.contains('=') {
        return Error::usage(format!(
            "--rename {}: expected OLD=NEW, or RUN:OLD=NEW with RUN one of the runs as given",
            shorten(text)
        ));
    }
    let listed: Vec<String> = runs
        .iter()
        .zip(variants)
        .map(|(r, v)| {
            let names: Vec<String> = v.iter().map(|n| shorten(n)).collect();
            format!("{}: {}", r.given, names.join(", "))
        })
        .collect();
    Error::usage(format!(
        "--rename {}: no run has a variant of that name (expected OLD=NEW, or RUN:OLD=NEW with RUN one of the runs as given); the runs' variants are {}",
        shorten(text),
        listed.join("; ")
    ))
}

/// The combined report's rows and how the summaries see them. A job (instance, variant) has a
/// slot per repetition, laid out as `run --repeat` lays its rows out, round by round: the slot
/// of repetition R of job J is (R - 1) * jobs + J. A run made with fewer repetitions than the
/// most leaves its jobs' later slots empty (only with `--allow-mixed`).
struct Plan {
    /// Each slot's run and row, `None` for a repetition no run made.
    slots: Vec<Option<(usize, usize)>>,
    /// Each slot's instance number and variant index; jobs in the report's order: by instance
    /// (in the order the runs first list them), then by variant.
    places: Vec<(usize, usize)>,
    /// The most repetitions of a job: the report's rounds.
    repeat: u32,
    /// The report's variants: each run's, renamed, in the runs' order.
    variants: Vec<String>,
    specs: Vec<Spec>,
}

/// The combined report's rows: every row of every run, a job held by two runs (after renames)
/// refused.
fn plan(runs: &[Source]) -> Result<Plan, Error> {
    let mut variants: Vec<String> = Vec::new();
    let mut variant_index: HashMap<String, usize> = HashMap::new();
    for source in runs {
        for v in source.variants() {
            let name = source.new_name(v);
            if !variant_index.contains_key(name) {
                variant_index.insert(name.to_owned(), variants.len());
                variants.push(name.to_owned());
            }
        }
    }
    let mut instance_index: HashMap<(&str, &str), usize> = HashMap::new();
    // (instance, variant, repetition, run, row)
    let mut rows: Vec<(usize, usize, u32, usize, usize)> = Vec::new();
    for (run, source) in runs.iter().enumerate() {
        for (row, r) in source.rows.iter().enumerate() {
            let next = instance_index.len();
            let instance = *instance_index
                .entry((&r.dataset, &r.instance))
                .or_insert(next);
            let variant = variant_index[source.new_name(&r.variant)];
            rows.push((instance, variant, r.repetition, run, row));
        }
    }
    rows.sort_unstable();
    // A job's rows from one run are its repetitions; from two runs, the same job twice.
    let mut twice: Vec<(usize, usize, usize, usize)> = Vec::new();
    for w in rows.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.0, a.1) == (b.0, b.1)
            && a.3 != b.3
            && twice.last().map(|t| (t.0, t.1)) != Some((a.0, a.1))
        {
            twice.push((a.0, a.1, a.3, a.4));
            twice.push((b.0, b.1, b.3, b.4));
        }
    }
    if let Some(first) = twice.chunks(2).next() {
        let (a, b) = (&runs[first[0].2], &runs[first[1].2]);
        let variant = &variants[first[0].1];
        let listed: Vec<String> = twice
            .chunks(2)
            .take(LISTED)
            .map(|w| {
                let r = &runs[w[0].2].rows[w[0].3];
                format!(
                    "(dataset {}, instance {})",
                    shorten(&r.dataset),
                    shorten(&r.instance)
                )
            })
            .collect();
        let from = b.rows[first[1].3].variant.as_str();
        return Err(Error::input(format!(
            "{} and {} both hold job(s) of variant '{}' ({} in all, first {}): one job would have two rows; to keep both, give one a new name, e.g. --rename {}:{}=NEW",
            a.given,
            b.given,
            shorten(variant),
            twice.len() / 2,
            listed.join(", "),
            b.given,
            from
        )));
    }
    let mut jobs: Vec<(usize, usize)> = rows.iter().map(|r| (r.0, r.1)).collect();
    jobs.dedup();
    let repeat = rows
        .iter()
        .map(|r| r.2)
        .chain(runs.iter().map(|r| r.manifest.repeat))
        .max()
        .unwrap_or(1)
        .max(1);
    let round = jobs.len();
    let mut slots = vec![None; round * repeat as usize];
    let mut job = 0;
    for &(instance, variant, repetition, run, row) in &rows {
        while jobs[job] != (instance, variant) {
            job += 1;
        }
        slots[(repetition.max(1) as usize - 1) * round + job] = Some((run, row));
    }
    let specs = specs(runs, &variants)?;
    Ok(Plan {
        places: (0..slots.len()).map(|k| jobs[k % round.max(1)]).collect(),
        slots,
        repeat,
        variants,
        specs,
    })
}

/// Each variant's heuristic, step and pruning, for summary.csv: from its rows' columns (which a
/// rename leaves as they are), else from its name in its run. One name must not stand for two
/// variants in two runs.
fn specs(runs: &[Source], variants: &[String]) -> Result<Vec<Spec>, Error> {
    let mut found: Vec<Option<(Spec, &str)>> = vec![None; variants.len()];
    for source in runs {
        for v in source.variants() {
            let name = source.new_name(v);
            let k = variants.iter().position(|n| n == name).expect("planned");
            let row = source.rows.iter().find(|r| r.variant == v);
            let spec = row
                .and_then(|r| {
                    Spec::of_columns(
                        &r.heuristic,
                        &r.step,
                        &r.reverse_pruning,
                        &r.pruning,
                        &r.cost_model,
                    )
                })
                .or_else(|| Spec::parse(v))
                .ok_or_else(|| {
                    Error::input(format!(
                        "{}: variant '{}' is not a variant name (heuristic/stepS/prune or noprune) and no runs.csv row gives its heuristic, step and reverse_pruning",
                        source.given,
                        shorten(v)
                    ))
                })?;
            match found[k] {
                Some((other, before)) if other != spec => {
                    return Err(Error::input(format!(
                        "variant '{}' is {} in {before} but {} in {}: give one a new name with --rename",
                        shorten(name),
                        other.name(),
                        spec.name(),
                        source.given
                    )));
                }
                Some(_) => {}
                None => found[k] = Some((spec, &source.given)),
            }
        }
    }
    Ok(found
        .into_iter()
        .map(|f| f.expect("every variant is some run's").0)
        .collect())
}

/// OUT/NAME (default `combined-<UTC timestamp>`), created: a link there, one of the runs, or a
/// run that is not an earlier combination is refused; an earlier combination is replaced.
fn claim(args: &CombineArgs, runs: &[Source]) -> Result<PathBuf, Error> {
    let dir = match &args.name {
        Some(name) => folder::named(&args.out, name)?,
        None => folder::new_stamped(&args.out, "combined-")?,
    };
    let sources: Vec<&Path> = runs.iter().map(|r| r.dir.as_path()).collect();
    let shown = format!("{} (--out and --name)", dir.display());
    folder::check_joined(
        &dir,
        &shown,
        &sources,
        "the runs combined",
        "a combination",
        |m| !m.combined.is_empty(),
    )?;
    Ok(dir)
}

/// The runs' iteration rows, each under its job's variant in the report, appended to `out`'s
/// iterations.csv run by run; `write_reports` puts them in job order. Where they lie.
fn copy_iterations(
    out: &Path,
    runs: &[Source],
    plan: &Plan,
    records: &[Option<&Record>],
) -> Result<Spans, Error> {
    let path = out.join(iterations::FILE);
    folder::check_own_file(&path)?;
    // An earlier combination's rows are not this one's.
    match fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(&path, e)),
        _ => {}
    }
    let mut spans = Spans::new(path.clone(), plan.slots.len());
    let mut appender = Appender::append_to(&path).map_err(|e| Error::io(&path, e))?;
    for (run, source) in runs.iter().enumerate() {
        let Some(found) = &source.iterations else {
            continue;
        };
        let jobs: Vec<(usize, usize)> = plan
            .slots
            .iter()
            .enumerate()
            .filter_map(|(slot, s)| s.filter(|&(r, _)| r == run).map(|(_, row)| (slot, row)))
            .collect();
        let sources = [source.dir.join(iterations::FILE)];
        for chunk in jobs.chunks(CHUNK) {
            let wanted: Vec<Span> = chunk.iter().map(|&(_, row)| found[row]).collect();
            let read: Vec<Vec<Iteration>> = iterations::read_spans(&sources, &wanted)?
                .into_iter()
                .map(|rows| {
                    rows.iter()
                        .map(|r| Iteration {
                            bound: r.bound,
                            generated: r.nodes_generated,
                            expanded: r.nodes_expanded,
                            budget: r.budget,
                        })
                        .collect()
                })
                .collect();
            let formatted = iterations::Formatted::of(
                &path,
                chunk.iter().zip(&read).map(|(&(job, _), its)| {
                    (
                        job,
                        records[job].expect("a planned slot has its row"),
                        its.as_slice(),
                    )
                }),
            )?;
            appender.append_formatted(&formatted, &mut spans)?;
        }
    }
    Ok(spans)
}

/// The combined report's manifest: the first run's build, the datasets of them all, their
/// machines, from the first start to the last end, and every run's own manifest in `combined`.
/// Of figures that each run has: the largest peak resident size and the most workers (what the
/// busiest run needed), the most repetitions, and each limit that every run had (a limit the
/// runs do not share, combined with `--allow-mixed`, is none of the combination's: no PAR-2 is
/// charged with it, and `limits_text` says they differ).
fn combined_manifest(runs: &[Source], plan: &Plan) -> Manifest {
    let first = &runs[0].manifest;
    let limits: Vec<RunLimits> = runs.iter().map(|r| r.manifest.limits()).collect();
    let shared = |value: fn(&RunLimits) -> Option<f64>| {
        let v = value(&limits[0]);
        limits.iter().all(|l| value(l) == v).then_some(v).flatten()
    };
    let max_nodes = limits[0]
        .max_nodes
        .filter(|&n| limits.iter().all(|l| l.max_nodes == Some(n)));
    let (cpu_s, wall_s) = (shared(|l| l.cpu_s), shared(|l| l.wall_s));
    let distinct = |value: fn(&Manifest) -> String| {
        let mut seen: Vec<String> = Vec::new();
        for r in runs {
            let v = value(&r.manifest);
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen
    };
    let mut datasets: Vec<DatasetInfo> = Vec::new();
    for d in runs.iter().flat_map(|r| &r.manifest.datasets) {
        if !datasets
            .iter()
            .any(|k| k.name == d.name && k.content() == d.content())
        {
            datasets.push(d.clone());
        }
    }
    let mut tables = Vec::new();
    for t in runs.iter().flat_map(|r| &r.manifest.pattern_databases) {
        if !tables
            .iter()
            .any(|k: &crate::tables::store::TableInfo| k.name == t.name && k.crc32 == t.crc32)
        {
            tables.push(t.clone());
        }
    }
    let one = |values: Vec<String>| (values.len() == 1).then(|| values[0].clone());
    let combined = runs
        .iter()
        .enumerate()
        .map(|(run, r)| CombinedRun {
            dir: r.given.clone(),
            renamed: r.renamed.clone(),
            jobs: plan
                .slots
                .iter()
                .flatten()
                .filter(|&&(k, _)| k == run)
                .count(),
            manifest: r.manifest.clone(),
        })
        .collect();
    Manifest {
        cpu_model: distinct(|m| m.cpu_model.clone()).join("; "),
        git_commit: one(distinct(|m| m.git_commit.clone().unwrap_or_default()))
            .filter(|c| !c.is_empty()),
        host: one(distinct(|m| m.host.clone().unwrap_or_default())).filter(|h| !h.is_empty()),
        split: one(distinct(|m| m.split.clone().unwrap_or_default())).filter(|s| !s.is_empty()),
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        datasets,
        variants: plan.variants.clone(),
        start_time: distinct(|m| m.start_time.clone())
            .into_iter()
            .min()
            .unwrap_or_default(),
        end_time: distinct(|m| m.end_time.clone())
            .into_iter()
            .max()
            .unwrap_or_else(clock::rfc3339_now),
        complete: Some(true),
        jobs_total: Some(plan.slots.iter().flatten().count()),
        jobs_missing: Some(0),
        jobs: runs
            .iter()
            .map(|r| r.manifest.jobs)
            .max()
            .unwrap_or(first.jobs),
        peak_resident_bytes: runs
            .iter()
            .filter_map(|r| r.manifest.peak_resident_bytes)
            .max(),
        max_nodes,
        time_limit_s: cpu_s,
        time_limit_clock: Some(Clock::Cpu),
        wall_limit_s: wall_s,
        repeat: plan.repeat,
        pattern_databases: tables,
        automata: AutomatonInfo::union(runs.iter().map(|r| &r.manifest.automata)),
        // The seed of the first run with `+random` lookups: each variant's counts are its run's.
        random_lookup_seed: runs.iter().find_map(|r| r.manifest.random_lookup_seed),
        shard: None,
        shards: Vec::new(),
        combined,
        ..first.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::{manifest, record};

    fn source(given: &str, variants: &[&str]) -> Source {
        Source {
            given: given.to_owned(),
            dir: PathBuf::from(given),
            manifest: Manifest {
                variants: variants.iter().map(|v| v.to_string()).collect(),
                ..manifest()
            },
            rows: variants
                .iter()
                .map(|v| Record {
                    variant: v.to_string(),
                    ..record()
                })
                .collect(),
            iterations: None,
            renamed: Vec::new(),
        }
    }

    fn renamed(given: &[&str], runs: &[Source]) -> Result<Vec<(usize, String, String)>, String> {
        let given: Vec<String> = given.iter().map(|g| g.to_string()).collect();
        renames(&given, runs)
            .map(|v| v.into_iter().map(|(r, n)| (r, n.from, n.to)).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_rename_names_its_run_when_the_variant_is_in_several() {
        let m = "manhattan/step2/prune";
        let runs = [source("old", &[m]), source("r/new:x", &[m, "a=b"])];
        let want = |run, to: &str| Ok(vec![(run, m.to_owned(), to.to_owned())]);
        assert_eq!(
            renamed(&["old:manhattan/step2/prune=m@old"], &runs),
            want(0, "m@old")
        );
        // A run whose name holds ':' is matched whole, as given.
        assert_eq!(
            renamed(&["r/new:x:manhattan/step2/prune=now"], &runs),
            want(1, "now")
        );
        let e = renamed(&["manhattan/step2/prune=m2"], &runs).unwrap_err();
        assert_eq!(
            e,
            "--rename manhattan/step2/prune=m2: variant 'manhattan/step2/prune' is in 2 runs; say which: --rename old:manhattan/step2/prune=m2 or --rename r/new:x:manhattan/step2/prune=m2"
        );
        // In one run only, the plain form is enough; a variant name may hold '='.
        assert_eq!(
            renamed(&["a=b=c"], &runs),
            Ok(vec![(1, "a=b".to_owned(), "c".to_owned())])
        );
        let e = renamed(&["zero=z"], &runs).unwrap_err();
        assert!(
            e.starts_with("--rename zero=z: no run has a variant of that name"),
            "{e}"
        );
        assert!(renamed(&["zero"], &runs)
            .unwrap_err()
            .contains("expected OLD=NEW"));
        let e = renamed(
            &["old:manhattan/step2/prune=a", "old:manhattan/step2/prune=b"],
            &runs,
        )
        .unwrap_err();
        assert!(e.contains("renamed twice"), "{e}");
        let e = renamed(&["r/new:x:a=b=manhattan/step2/prune"], &runs).unwrap_err();
        assert!(
            e.contains("would both be named 'manhattan/step2/prune'"),
            "{e}"
        );
        // A swap is two renames at once.
        assert!(renamed(
            &[
                "r/new:x:a=b=manhattan/step2/prune",
                "r/new:x:manhattan/step2/prune=a=b"
            ],
            &runs
        )
        .is_ok());
    }
}
