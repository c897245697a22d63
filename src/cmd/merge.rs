//! The `merge` command: the shards of one run (`run --shard K/N`) checked against each other and
//! joined into the report that the unsharded run would have written.

use crate::cmd::args::MergeArgs;
use crate::domains::Spec;
use crate::error::{Done, Error};
use crate::tables::automata::AutomatonInfo;

use crate::report;
use crate::results;
use crate::results::folder;
use crate::results::iterations::{self, Found, Span, Spans};
use crate::results::record::{self, Manifest, Record, RowKey, ShardInfo};
use crate::results::runs::verdict;
use crate::results::runs::{self, Rows};
use crate::results::shard::{self, PlannedJob, Shard};
use crate::results::summary::{self, Limits};
use crate::util::clock;
use crate::util::term::note;
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many jobs an error lists before it only counts the rest.
const LISTED: usize = 5;

/// One shard's report, read back.
struct Part {
    dir: PathBuf,
    manifest: Manifest,
    shard: Shard,
    planned: Vec<PlannedJob>,
    rows: Vec<Record>,
}

impl Part {
    fn name(&self) -> String {
        format!("{} (shard {})", self.dir.display(), self.shard)
    }
}

/// Runs `idabench merge`: the summary goes to `stdout`, notes to stderr.
pub fn merge(args: &MergeArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    let mut parts = args
        .shards
        .iter()
        .map(|d| read_part(d))
        .collect::<Result<Vec<_>, _>>()?;
    parts.sort_by_key(|p| p.shard.index);
    check_agreement(&parts)?;
    // The merged rows are one run's: the merged one's, not their shards'.
    let name = folder::run_name(&args.out);
    for r in parts.iter_mut().flat_map(|p| &mut p.rows) {
        r.run.clone_from(&name);
    }
    let first = &parts[0];
    let all_jobs = first.shard.all_jobs;
    let owners = place_jobs(&parts)?;

    // Each job's row and where its iteration rows lie, and the planned jobs that have none.
    let mut rows = Rows::new(all_jobs);
    let mut spans = Spans {
        sources: parts.iter().map(|p| p.dir.join(iterations::FILE)).collect(),
        jobs: vec![Span::default(); all_jobs],
    };
    let mut missing: Vec<(usize, &PlannedJob)> = Vec::new();
    let mut unfinished = Vec::new();
    // Each job's row, for what the summaries and pictures read of it beyond its tally.
    let mut records: Vec<Option<&Record>> = vec![None; all_jobs];
    for (p, part) in parts.iter().enumerate() {
        // A shard that lost its iterations.csv (or was written by an idabench from before it)
        // gives its rows without their iterations, only when allowed: say so, and go on.
        let iterated = spans.sources[p].is_file();
        if !iterated {
            unfinished.push(format!(
                "{} has no {}: the merged one would lack the iterations of its {} job(s)",
                part.name(),
                iterations::FILE,
                part.rows.len()
            ));
        }
        let by_key: HashMap<RowKey, usize> =
            part.planned.iter().map(|j| (j.key(), j.job)).collect();
        // Rows of jobs without a runs.csv row (a shard killed between its two writes) are left
        // out, as `--resume` leaves them out.
        let found = if iterated {
            iterations::scan(&spans.sources[p], p as u32, all_jobs, |k| {
                by_key.get(&k).copied()
            })
            .map_err(|e| Error::input(format!("{}: {e}", part.name())))?
        } else {
            Vec::new()
        };
        for r in &part.rows {
            let Some(&job) = by_key.get(&r.key()) else {
                return Err(Error::input(format!(
                    "{}: runs.csv holds job {}, which its {} does not plan",
                    part.name(),
                    r.key(),
                    shard::JOBS_FILE
                )));
            };
            rows.keep([(job, r)]);
            records[job] = Some(r);
            if iterated {
                spans.jobs[job] = iteration_span(part, r, found[job])?;
            }
        }
        let lacking: Vec<&PlannedJob> = part.planned.iter().filter(|j| !rows.has(j.job)).collect();
        if !part.manifest.finished() || !lacking.is_empty() {
            unfinished.push(format!(
                "{} is unfinished ({}): {} of its {} jobs have no row{}",
                part.name(),
                if part.manifest.end_time.is_empty() {
                    "no end time: still running, or killed"
                } else {
                    "interrupted"
                },
                lacking.len(),
                part.planned.len(),
                listed(lacking.iter().copied())
            ));
        }
        missing.extend(lacking.into_iter().map(|j| (p, j)));
    }
    let absent = absent_shards(&parts);
    let absent_jobs = all_jobs - owners.iter().filter(|o| o.is_some()).count();
    if !absent.is_empty() {
        unfinished.push(format!(
            "shard(s) {} of {} are not among the directories given: their {absent_jobs} job(s) are missing",
            absent.join(", "),
            first.shard.count
        ));
    }
    if !unfinished.is_empty() && !args.allow_missing {
        return Err(Error::input(format!(
            "{}\nfinish the shards (`idabench run ... --shard K/N --resume` with the shard's options), or pass --allow-missing for a report that says what is missing",
            unfinished.join("\n")
        )));
    }
    if !unfinished.is_empty() {
        note(format_args!(
            "the merged report lacks what these shards do not give:\n{}",
            unfinished.join("\n")
        ));
    }

    let out = prepare_out(&args.out, &parts)?;
    let names = first.manifest.variants.clone();
    let specs = names
        .iter()
        .map(|n| {
            Spec::parse(n).ok_or_else(|| {
                Error::input(format!(
                    "{}: manifest.json: variant '{n}' is not a variant name (heuristic/stepS/prune or noprune)",
                    first.name()
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let places = places(&parts, &owners, &names, first.manifest.repeat)?;
    let finished = rows
        .tallies()
        .map(|(job, t)| (places[job].0, places[job].1, t));
    let summaries = summary::summarize(
        finished,
        &specs,
        &names,
        &summary::groups_of(&records, &places),
        Limits::of(&first.manifest),
    );
    let manifest = merged_manifest(&parts, &missing, rows.missing());
    write_missing(&out, &parts, &missing)?;
    let joined = report::Joined {
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
    if rows.missing() > 0 {
        note(format_args!(
            "{} of {all_jobs} jobs are missing from the merged report",
            rows.missing(),
        ));
    }
    Ok(verdict(&summaries.variants))
}

/// Where the iteration rows of row `r` of `part` lie, as `scan` found them: every iteration its
/// runs.csv row counts, or an error (a finished shard always has them).
fn iteration_span(part: &Part, r: &Record, found: Option<Found>) -> Result<Span, Error> {
    iterations::span_of(r, found).map_err(|e| {
        Error::input(format!(
            "{}: {}: resume the shard (`idabench run ... --shard K/N --resume` with its options), which runs that job again",
            part.name(),
            e
        ))
    })
}

/// A shard's manifest, shard_jobs.csv and runs.csv. The last line of a killed shard's runs.csv
/// may be cut short: it is left out, as `--resume` would leave it out. A shard is a run's
/// folder: a link or FIFO planted in it is refused, not read through.
fn read_part(dir: &Path) -> Result<Part, Error> {
    folder::check_own(dir)?;
    let manifest = record::read_manifest(&dir.join("manifest.json")).map_err(|e| {
        Error::input(format!(
            "{e}: merge takes the report directories of `idabench run --shard K/N`"
        ))
    })?;
    let shard = manifest.shard.ok_or_else(|| {
        Error::input(format!(
            "{}: not a shard (its manifest.json has no `shard`): merge takes the reports of `idabench run --shard K/N`",
            dir.display()
        ))
    })?;
    // Round-robin dealing gives each shard the whole run's jobs divided by the shard count,
    // rounded down or up, each with all its repetitions: anything else is not a shard's
    // manifest, and must not size the merge.
    let (count, all) = (shard.count as usize, shard.all_jobs);
    let repeat = manifest.repeat.max(1) as usize;
    let jobs = all / repeat;
    let fair = jobs / count.max(1)..=jobs.div_ceil(count.max(1));
    let own = manifest.jobs_total.unwrap_or_default();
    if shard.index < 1
        || shard.index > shard.count
        || all % repeat != 0
        || own % repeat != 0
        || !fair.contains(&(own / repeat))
    {
        return Err(Error::input(format!(
            "{}: manifest.json's shard {shard} of a run of {all} jobs cannot hold {own} jobs: \
             not a shard written by `idabench run --shard K/N`",
            dir.display()
        )));
    }
    let planned = shard::read_jobs(&dir.join(shard::JOBS_FILE))?;
    if manifest.jobs_total.is_some_and(|n| n != planned.len()) {
        return Err(Error::input(format!(
            "{}: {} lists {} jobs, its manifest.json {}",
            dir.display(),
            shard::JOBS_FILE,
            planned.len(),
            manifest.jobs_total.unwrap_or_default()
        )));
    }
    let runs = dir.join("runs.csv");
    let rows = if runs.exists() {
        let mut bytes = results::read_file(&runs)?;
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        bytes.truncate(whole);
        if bytes.is_empty() {
            Vec::new()
        } else {
            record::parse_runs(&runs, &bytes)?
        }
    } else {
        Vec::new()
    };
    Ok(Part {
        dir: dir.to_path_buf(),
        manifest,
        shard,
        planned,
        rows,
    })
}

/// The shards must come from one run: the same build, datasets, selection, variants, limits and
/// shard count, each shard once, and no pattern database that differs between two of them.
fn check_agreement(parts: &[Part]) -> Result<(), Error> {
    let a = &parts[0];
    let datasets = |m: &Manifest| -> Vec<String> {
        m.datasets
            .iter()
            .map(|d| format!("{} (sha256 {})", d.name, d.content()))
            .collect()
    };
    let tables: HashMap<&str, (&str, &Part)> = parts
        .iter()
        .flat_map(|p| {
            p.manifest
                .pattern_databases
                .iter()
                .map(move |t| (t.name.as_str(), (t.crc32.as_str(), p)))
        })
        .collect();
    for b in &parts[1..] {
        let (ma, mb) = (&a.manifest, &b.manifest);
        let commit = |m: &Manifest| m.git_commit.clone().unwrap_or_else(|| "none".into());
        let differences = [
            (
                "idabench version",
                ma.idabench_version.clone(),
                mb.idabench_version.clone(),
            ),
            ("git commit", commit(ma), commit(mb)),
            (
                "build",
                format!("{} ({})", ma.build_profile, ma.rustc_version),
                format!("{} ({})", mb.build_profile, mb.rustc_version),
            ),
            ("datasets", datasets(ma).join(", "), datasets(mb).join(", ")),
            // Told apart by `same`, which reads entries in any order, and an ids file by its
            // content wherever it lies.
            if ma.selection.same(&mb.selection) {
                ("selection", String::new(), String::new())
            } else {
                ("selection", ma.selection.text(), mb.selection.text())
            },
            ("variants", ma.variants.join(" "), mb.variants.join(" ")),
            ("limits", ma.limits_text(), mb.limits_text()),
            ("--repeat", ma.repeat.to_string(), mb.repeat.to_string()),
            (
                "shard count",
                a.shard.count.to_string(),
                b.shard.count.to_string(),
            ),
            (
                "jobs of the whole run",
                a.shard.all_jobs.to_string(),
                b.shard.all_jobs.to_string(),
            ),
        ];
        if let Some((what, x, y)) = differences.into_iter().find(|(_, x, y)| x != y) {
            return Err(Error::input(format!(
                "{} and {} are not shards of one run (different {what}):\n  {x}\n  {y}",
                a.name(),
                b.name()
            )));
        }
        for t in &mb.pattern_databases {
            if let Some(&(crc, other)) = tables.get(t.name.as_str()) {
                if crc != t.crc32 {
                    return Err(Error::input(format!(
                        "{} and {} read different pattern databases {} (CRC-32 {} and {})",
                        other.name(),
                        b.name(),
                        t.name,
                        crc,
                        t.crc32
                    )));
                }
            }
        }
    }
    for pair in parts.windows(2) {
        if pair[0].shard.index == pair[1].shard.index {
            return Err(Error::input(format!(
                "{} and {} are the same shard: give each shard once",
                pair[0].dir.display(),
                pair[1].dir.display()
            )));
        }
    }
    Ok(())
}

/// Which part plans each job of the whole run (`None`: a shard not given). A job that two
/// shards plan, or a job beyond the run's, is an error.
fn place_jobs(parts: &[Part]) -> Result<Vec<Option<usize>>, Error> {
    let all_jobs = parts[0].shard.all_jobs;
    let mut owners: Vec<Option<usize>> = vec![None; all_jobs];
    let mut by_key: HashMap<RowKey, usize> = HashMap::new();
    let mut doubled: Vec<(&PlannedJob, usize, usize)> = Vec::new();
    for (p, part) in parts.iter().enumerate() {
        for j in &part.planned {
            if j.job >= all_jobs {
                return Err(Error::input(format!(
                    "{}: {} lists job {}, beyond the run's {all_jobs} jobs",
                    part.name(),
                    shard::JOBS_FILE,
                    j.job
                )));
            }
            let key = j.key();
            let other = owners[j.job].or_else(|| by_key.get(&key).copied());
            match other {
                Some(o) => doubled.push((j, o, p)),
                None => {
                    owners[j.job] = Some(p);
                    by_key.insert(key, p);
                }
            }
        }
    }
    if let Some(&(_, o, p)) = doubled.first() {
        return Err(Error::input(format!(
            "{} and {} both hold {} job(s){}",
            parts[o].name(),
            parts[p].name(),
            doubled.len(),
            listed(doubled.iter().map(|d| d.0))
        )));
    }
    Ok(owners)
}

/// `: (dataset, instance, variant), ...` for the first few jobs, and how many more there are.
fn listed<'a>(jobs: impl ExactSizeIterator<Item = &'a PlannedJob>) -> String {
    let n = jobs.len();
    if n == 0 {
        return String::new();
    }
    let shown: Vec<String> = jobs
        .take(LISTED)
        .map(|j| match j.repetition {
            1 => format!("({}, {}, {})", j.dataset, j.instance, j.variant),
            r => format!(
                "({}, {}, {}, repetition {r})",
                j.dataset, j.instance, j.variant
            ),
        })
        .collect();
    let more = if n > LISTED {
        format!(" and {} more", n - LISTED)
    } else {
        String::new()
    };
    format!(": {}{more}", shown.join(", "))
}

/// The shards of the run that no directory holds, as `K` or `A-B` ranges: found from the shards
/// given, so a manifest's shard count cannot make it long.
fn absent_shards(parts: &[Part]) -> Vec<String> {
    let mut present: Vec<u64> = parts.iter().map(|p| u64::from(p.shard.index)).collect();
    present.sort_unstable();
    present.dedup();
    let mut absent = Vec::new();
    let mut next = 1;
    for k in present
        .into_iter()
        .chain([u64::from(parts[0].shard.count) + 1])
    {
        match k - next {
            0 => {}
            1 => absent.push(next.to_string()),
            _ => absent.push(format!("{next}-{}", k - 1)),
        }
        next = k + 1;
    }
    absent
}

/// The merged report's directory, created. One that holds a run other than a merge, or one of
/// the shards, is refused: a merge replaces only an earlier merge.
fn prepare_out(out: &Path, parts: &[Part]) -> Result<PathBuf, Error> {
    folder::check_out(out)?;
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let shards: Vec<&Path> = parts.iter().map(|p| p.dir.as_path()).collect();
    let merged_before = |m: &Manifest| !m.shards.is_empty() && m.shard.is_none();
    let shown = format!("--out {}", out.display());
    folder::check_joined(out, &shown, &shards, "the shards", "a merge", merged_before)?;
    Ok(out.to_path_buf())
}

/// Of each job, the place of its instance among all the datasets' (in the run's order) and of
/// its variant among the run's, as `run` gives them to the summaries. Every round of a run of
/// `repeat` rounds has the jobs of the first in its order: its instances are numbered once.
fn places(
    parts: &[Part],
    owners: &[Option<usize>],
    names: &[String],
    repeat: u32,
) -> Result<Vec<(usize, usize)>, Error> {
    let mut planned: Vec<Option<&PlannedJob>> = vec![None; owners.len()];
    for j in parts.iter().flat_map(|p| &p.planned) {
        planned[j.job] = Some(j);
    }
    let round = owners.len() / repeat.max(1) as usize;
    let mut places = vec![(0, 0); owners.len()];
    let mut instance_no = 0;
    let mut last: Option<(&str, &str)> = None;
    for (job, j) in planned.iter().enumerate() {
        if job >= round {
            places[job] = places[job % round];
            continue;
        }
        let Some(j) = j else { continue };
        let instance = (j.dataset.as_str(), j.instance.as_str());
        if last.is_some_and(|l| l != instance) {
            instance_no += 1;
        }
        last = Some(instance);
        let variant = names.iter().position(|n| *n == j.variant).ok_or_else(|| {
            Error::input(format!(
                "{}: job {job} has variant '{}', which the manifest does not list",
                shard::JOBS_FILE,
                j.variant
            ))
        })?;
        places[job] = (instance_no, variant);
    }
    Ok(places)
}

/// The merged report's manifest: the shards' build, datasets, variants and limits (they agree),
/// the first shard's machine in the run-wide fields, every shard's in `shards`; from the first
/// start to the last end.
fn merged_manifest(
    parts: &[Part],
    missing: &[(usize, &PlannedJob)],
    jobs_missing: usize,
) -> Manifest {
    let first = &parts[0].manifest;
    let mut cpus: Vec<&str> = Vec::new();
    for p in parts {
        if !cpus.contains(&p.manifest.cpu_model.as_str()) {
            cpus.push(&p.manifest.cpu_model);
        }
    }
    let mut tables = Vec::new();
    for t in parts.iter().flat_map(|p| &p.manifest.pattern_databases) {
        if !tables
            .iter()
            .any(|k: &crate::tables::store::TableInfo| k.name == t.name)
        {
            tables.push(t.clone());
        }
    }
    let shards: Vec<ShardInfo> = parts
        .iter()
        .enumerate()
        .map(|(p, part)| ShardInfo {
            dir: part.dir.display().to_string(),
            shard: part.shard,
            host: part.manifest.host.clone(),
            cpu_model: part.manifest.cpu_model.clone(),
            cores: part.manifest.cores,
            jobs: part.manifest.jobs,
            start_time: part.manifest.start_time.clone(),
            end_time: part.manifest.end_time.clone(),
            jobs_total: part.planned.len(),
            jobs_missing: missing.iter().filter(|(o, _)| *o == p).count(),
            peak_resident_bytes: part.manifest.peak_resident_bytes,
        })
        .collect();
    let start_time = parts
        .iter()
        .map(|p| p.manifest.start_time.clone())
        .min()
        .unwrap_or_default();
    let end_time = parts
        .iter()
        .map(|p| p.manifest.end_time.clone())
        .max()
        .filter(|t| !t.is_empty())
        .unwrap_or_else(clock::rfc3339_now);
    Manifest {
        cpu_model: cpus.join("; "),
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        start_time,
        end_time,
        complete: Some(jobs_missing == 0),
        jobs_total: Some(parts[0].shard.all_jobs),
        jobs_missing: Some(jobs_missing),
        pattern_databases: tables,
        automata: AutomatonInfo::union(parts.iter().map(|p| &p.manifest.automata)),
        host: None,
        shard: None,
        peak_resident_bytes: shards.iter().filter_map(|s| s.peak_resident_bytes).max(),
        shards,
        ..first.clone()
    }
}

/// missing.csv: the jobs' repetitions of the given shards that have no row, with their shard;
/// removed when none is missing, so that it does not outlive the merge that wrote it.
fn write_missing(
    out: &Path,
    parts: &[Part],
    missing: &[(usize, &PlannedJob)],
) -> Result<(), Error> {
    let path = out.join("missing.csv");
    if missing.is_empty() {
        return match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&path, e)),
            _ => Ok(()),
        };
    }
    let write = || -> csv::Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(["dataset", "instance", "variant", "shard", "repetition"])?;
        for (p, j) in missing {
            let shard = parts[*p].shard.to_string();
            let repetition = j.repetition.to_string();
            w.write_record([&j.dataset, &j.instance, &j.variant, &shard, &repetition])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    };
    let bytes = write().map_err(|e| Error::runtime(format!("{}: {e}", path.display())))?;
    Ok(runs::write_atomic(&path, &bytes)?)
}
