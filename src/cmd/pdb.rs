//! The `pdb` command: build, list, verify, path, for unit-cost and weighted databases alike.
//! `list` and `verify` show the duplicate-pruning automata kept in the same directory too.

use crate::cmd::args::{BlankGoal, PdbBuildArgs, PdbCommand, PdbDirArgs};
use crate::domains::ksolve::pattern::Recorded;
use crate::domains::tiles::weighted_pdb::{self, WeightedPattern};
use crate::domains::tiles::{default_goal, Tiles, TilesHeuristic};
use crate::domains::{Family, HeuristicSet};
use crate::error::{Done, Error};
use crate::runner::prepare;
use crate::tables::automata;
use crate::tables::store::{self, Fields, Spec, Unusable, EXTENSION};
use crate::util::interrupt;
use crate::util::term::note;
use crate::util::text::visible_lines;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Set by Ctrl-C, SIGTERM or SIGHUP: the database being built stops.
static STOP: AtomicBool = AtomicBool::new(false);

/// The cache directory `--pdb-dir` names, or the default.
fn dir(args: &PdbDirArgs) -> Result<PathBuf, Error> {
    Ok(prepare::cache_dir(args.pdb_dir.as_deref())?)
}

/// Runs `idabench pdb ...`.
pub fn command(cmd: PdbCommand, stdout: &mut dyn Write) -> Result<Done, Error> {
    match cmd {
        PdbCommand::Build(args) => build(&args, stdout),
        PdbCommand::List(args) => list(&dir(&args)?, stdout),
        PdbCommand::Verify(args) => verify(&dir(&args)?, stdout),
        PdbCommand::Path(args) => {
            let d = dir(&args)?;
            out(stdout, &format!("{}\n", d.display()))?;
            Ok(Done::Ok)
        }
    }
}

/// Writes `text`, which names the files found in the cache directory: `visible_lines`, so that
/// no file name commands the terminal.
fn out(stdout: &mut dyn Write, text: &str) -> Result<(), Error> {
    stdout
        .write_all(visible_lines(text).as_bytes())
        .map_err(|e| Error::io("stdout", e))
}

fn build(args: &PdbBuildArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    let dir = dir(&args.dir)?;
    let mut heuristics = Vec::new();
    for name in &args.heuristics {
        let h = TilesHeuristic::parse(name)
            .and_then(|h| h.partition().map(|p| (h, p.0)))
            .ok_or_else(|| {
                let names: Vec<&str> = TilesHeuristic::ALL
                    .iter()
                    .filter(|h| h.partition().is_some())
                    .map(|h| h.name())
                    .collect();
                Error::usage(format!(
                    "'{name}' is not a pattern-database heuristic: expected one of {}",
                    names.join(", ")
                ))
            })?;
        heuristics.push(h);
    }
    let blanks: &[bool] = match args.goal {
        BlankGoal::First => &[true],
        BlankGoal::Last => &[false],
        BlankGoal::Both => &[true, false],
    };
    // Every heuristic and cost checked before the first build: a refusal costs no minutes.
    let mut wanted: Vec<(String, Vec<Box<dyn Spec + Send>>)> = Vec::new();
    for (h, partition) in heuristics {
        for &cost in &args.cost {
            for &first in blanks {
                let n = partition.width * partition.height;
                let goal: Vec<u8> = if first {
                    (0..n as u8).collect()
                } else {
                    default_goal(n)
                };
                let tiles = Arc::new(
                    Tiles::new(partition.width, partition.height, &goal).map_err(Error::runtime)?,
                );
                let label = if cost.is_unit() {
                    h.name().to_string()
                } else {
                    Tiles::weighs(&tiles, h, cost).map_err(Error::usage)?;
                    format!("{}/{}", h.name(), cost.name())
                };
                let tables = tiles.tables(partition, cost).map_err(Error::runtime)?;
                wanted.push((label, tables));
            }
        }
    }
    interrupt::install(
        &STOP,
        || {},
        || {
            note(format_args!(
                "\ninterrupted: stopping the build; the databases finished are kept"
            ))
        },
        "Ctrl-C or SIGTERM will end the build at once",
    );
    let options = store::Options {
        dir: dir.clone(),
        build: true,
        rebuild: args.force,
        quiet: args.quiet,
        stop: Some(&STOP),
    };
    let mut done: Vec<String> = Vec::new();
    for (label, tables) in wanted {
        for table in tables {
            let key = table.key();
            if done.contains(&key) {
                continue;
            }
            let path = dir.join(format!("{key}.{EXTENSION}"));
            done.push(key);
            // Built when missing: never `StoreError::Missing` here.
            let info = store::ensure(&*table, &options)?;
            out(
                stdout,
                &format!(
                    "{label}\t{}\t{} entries\tcrc32 {}\t{}\n",
                    info.name,
                    info.entries,
                    info.crc32,
                    path.display()
                ),
            )?;
        }
    }
    Ok(Done::Ok)
}

/// The database files in `dir`, sorted.
fn files(dir: &Path, extension: &str) -> Result<Vec<PathBuf>, Error> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == extension))
        .collect();
    files.sort();
    Ok(files)
}

/// Files a build left behind when it was killed (see `store`'s temporary names).
fn unfinished(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(".building-") && n.ends_with(".tmp"))
        })
        .collect();
    found.sort();
    found
}

/// The table a file's header describes (a sliding-tile pattern, unit-cost or weighted, or a
/// defined puzzle's, as recorded), if it is one, with the header.
fn table_of(path: &Path) -> Result<(Box<dyn Spec + Send>, Fields), Unusable> {
    let (fields, _) = store::read_header(path)?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let defined = stem
        .and_then(|key| Recorded::from_header(&key, &fields))
        .map(|r| Box::new(r) as Box<dyn Spec + Send>);
    let table = defined
        .or_else(|| weighted_pdb::table_of_header(&fields))
        .ok_or_else(|| {
            Unusable::Header(
                "its header does not describe a sliding-tile pattern nor a defined puzzle's".into(),
            )
        })?;
    Ok((table, fields))
}

/// What `list` says of a table's move costs: nothing for a unit table; for a weighted one the
/// cost models it is for on `pdb build`'s goals, or its costs when it is another goal's.
fn costs_of(fields: &Fields) -> String {
    let Some(wp) = WeightedPattern::from_header(fields) else {
        return String::new();
    };
    let models: Vec<&str> = wp.models().iter().map(|m| m.name()).collect();
    if models.is_empty() {
        let costs: Vec<String> = wp.costs.iter().map(u16::to_string).collect();
        format!("\tcosts {} (another goal's)", costs.join(" "))
    } else {
        format!("\tcost {}", models.join(" or "))
    }
}

fn list(dir: &Path, stdout: &mut dyn Write) -> Result<Done, Error> {
    let files = files(dir, EXTENSION)?;
    let automata = files_of_automata(dir)?;
    for path in unfinished(dir) {
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        out(
            stdout,
            &format!(
                "{}\tan unfinished build ({:.1} MB): delete it unless a build is running\n",
                path.display(),
                bytes as f64 / 1e6
            ),
        )?;
    }
    if files.is_empty() && automata.is_empty() {
        out(
            stdout,
            &format!("no pattern databases in {}\n", dir.display()),
        )?;
        return Ok(Done::Ok);
    }
    for path in files {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let line = match table_of(&path) {
            Ok((p, fields)) => format!(
                "{}\t{} entries\t{:.1} MB{}\n",
                p.key(),
                p.entries(),
                bytes as f64 / 1e6,
                costs_of(&fields)
            ),
            Err(why) => format!("{}\tunusable: {why}\n", path.display()),
        };
        out(stdout, &line)?;
    }
    for path in automata {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let line = match automata::describe(&path) {
            Ok(a) => format!(
                "{}\tautomaton: {} states of {} moves\t{:.1} MB\n",
                a.name,
                a.states,
                a.labels,
                bytes as f64 / 1e6
            ),
            Err(why) => format!("{}\tunusable: {why}\n", path.display()),
        };
        out(stdout, &line)?;
    }
    Ok(Done::Ok)
}

/// The duplicate-pruning automata's files in `dir`, sorted.
fn files_of_automata(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    files(dir, automata::EXTENSION)
}

fn verify(dir: &Path, stdout: &mut dyn Write) -> Result<Done, Error> {
    // Nothing to vouch for: a misspelt --pdb-dir must not pass as a sound cache. (A file there is
    // read_dir's error below.)
    if !dir.exists() {
        return Err(Error::input(format!(
            "{}: no such directory, so no pattern database to verify (build them with `idabench pdb build`; `idabench pdb path` names the default directory)",
            dir.display()
        )));
    }
    let files = files(dir, EXTENSION)?;
    let mut bad = 0;
    for path in &files {
        let verdict = table_of(path).and_then(|(p, _)| {
            if path.file_stem().is_some_and(|s| *s != *p.key()) {
                return Err(Unusable::Header(format!(
                    "its header is for {}, not the table its name says",
                    p.key()
                )));
            }
            store::verify(&*p, path)
        });
        let line = match verdict {
            Ok(crc) => format!("ok\t{}\tcrc32 {crc:08x}\n", path.display()),
            Err(why) => {
                bad += 1;
                format!("bad\t{}\t{why}\n", path.display())
            }
        };
        out(stdout, &line)?;
    }
    // Automata are checked whole against their own headers; a run rebuilds a damaged one.
    let automata = files_of_automata(dir)?;
    let mut bad_automata = 0;
    for path in &automata {
        let line = match automata::verify(path) {
            Ok(crc) => format!("ok\t{}\tcrc32 {crc}\n", path.display()),
            Err(why) => {
                bad_automata += 1;
                format!("bad\t{}\t{why}\n", path.display())
            }
        };
        out(stdout, &line)?;
    }
    if bad > 0 {
        return Err(Error::runtime(format!(
            "{bad} of {} pattern database(s) in {} are damaged: delete them or rebuild them with `idabench pdb build HEURISTIC --force` (and the --cost of weighted ones, named ...-wCOSTS); a defined puzzle's (ksolve-...): delete it, and the next run that uses it builds it",
            files.len(),
            dir.display()
        )));
    }
    if bad_automata > 0 {
        return Err(Error::runtime(format!(
            "{bad_automata} of {} automaton file(s) in {} are damaged: delete them (the next run \
             that needs one builds it again)",
            automata.len(),
            dir.display()
        )));
    }
    out(
        stdout,
        &format!(
            "{} pattern database(s) in {} are sound\n",
            files.len(),
            dir.display()
        ),
    )?;
    if !automata.is_empty() {
        out(
            stdout,
            &format!(
                "{} automaton file(s) in {} are sound\n",
                automata.len(),
                dir.display()
            ),
        )?;
    }
    Ok(Done::Ok)
}
