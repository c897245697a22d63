//! The step of `run`, `solve` and `worker` that makes a variant's tables ready before the first
//! search needs them (a heuristic's pattern databases, a pruning's duplicate-pruning automaton,
//! each read from the cache directory or built and written there), after checking that they fit
//! `--memory-limit` and that the builder takes each automaton's depth.

use crate::domains::cost::CostModel;
use crate::domains::{Family, HeuristicKind, PrepareError, Puzzle, Spec, UsePuzzle};
use crate::runner::plan::TableOptions;
use crate::search::fsm::Moves;
use crate::search::Pruning;
use crate::tables::automata::{self, AutomatonInfo};
use crate::tables::fsm;
use crate::tables::store::{self, Footprint, StoreError, TableInfo};
use crate::util::format::bytes;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The cache directory `pdb_dir` names, or the default.
pub fn cache_dir(pdb_dir: Option<&Path>) -> Result<PathBuf, StoreError> {
    pdb_dir.map(Path::to_path_buf).or_else(store::default_dir).ok_or_else(|| {
        StoreError::Missing("no cache directory for pattern databases: neither XDG_CACHE_HOME nor HOME is set; give --pdb-dir DIR".into())
    })
}

/// What `prepare` made ready, each table and automaton once.
#[derive(Debug, Default)]
pub struct Ready {
    pub tables: Vec<TableInfo>,
    pub automata: Vec<AutomatonInfo>,
}

/// Makes the tables of every job's variant ready for its puzzle's family (one puzzle of each
/// board and goal is enough): the heuristic's pattern databases for the variant's move costs,
/// then the pruning's automaton.
/// `place(i)` says where the `i`-th puzzle comes from, for an error (`file:line: instance
/// 'id'`), if anywhere. An automaton the builder would refuse, and with
/// `tables.memory_limit` tables that would not fit it, are refused before any is read.
pub fn prepare<'a>(
    jobs: impl IntoIterator<Item = (&'a Puzzle, Spec)>,
    place: impl Fn(usize) -> Option<String>,
    tables: &TableOptions,
    quiet: bool,
) -> Result<Ready, PrepareError> {
    let jobs: Vec<(&Puzzle, Spec)> = jobs.into_iter().collect();
    let wanted = wanted(jobs.iter().map(|&(p, s)| (p, s.heuristic, s.cost)), &place)?;
    let automata = wanted_automata(&jobs, &place);
    if wanted.is_empty() && automata.is_empty() {
        return Ok(Ready::default());
    }
    let (options, cache) = checked(&wanted, &automata, tables, quiet)?;
    let mut ready = Ready::default();
    for w in wanted {
        for info in w
            .puzzle
            .prepare_under(w.heuristic, w.cost, options.as_ref())?
        {
            if !ready.tables.contains(&info) {
                ready.tables.push(info);
            }
        }
    }
    for a in &automata {
        let key = a.key();
        let info = match &cache {
            Some(cache) => automata::prepare(&key, cache),
            None => automata::shared(a.moves(), a.window, a.depth).map(|_| {
                automata::info(a.domain, a.moves(), a.window, a.depth).expect("built just now")
            }),
        }
        .map_err(|e| a.refused(&e))?;
        // Boards of one family may share their moves, and so an automaton.
        if !ready.automata.contains(&info) {
            ready.automata.push(info);
        }
    }
    Ok(ready)
}

/// What `prepare` refuses before it reads or builds a table (a heuristic that does not fit a
/// board, an automaton too large to build, tables that would not fit `--memory-limit`), checked
/// without reading or building any: for `slurm` and `ab`, before they start processes that
/// would each refuse.
pub fn check<'a>(
    jobs: impl IntoIterator<Item = (&'a Puzzle, Spec)>,
    place: impl Fn(usize) -> Option<String>,
    tables: &TableOptions,
) -> Result<(), PrepareError> {
    let jobs: Vec<(&Puzzle, Spec)> = jobs.into_iter().collect();
    let mut wanted = wanted(jobs.iter().map(|&(p, s)| (p, s.heuristic, s.cost)), &place)?;
    if tables.memory_limit.is_none() {
        // Their footprints alone need them (and the cache directory).
        wanted.clear();
    }
    let automata = wanted_automata(&jobs, &place);
    if !wanted.is_empty() || !automata.is_empty() {
        checked(&wanted, &automata, tables, true)?;
    }
    Ok(())
}

/// An automaton a run needs: for a family's moves, at a depth, and where it was first asked
/// for.
struct WantedAutomaton {
    domain: &'static str,
    moves: Moves,
    window: Option<(usize, usize)>,
    depth: u32,
    /// The pruning's name and the first puzzle's place, for a message.
    pruning: String,
    at: Option<String>,
}

impl WantedAutomaton {
    fn moves(&self) -> &Moves {
        &self.moves
    }

    fn key(&self) -> automata::Key<'_> {
        automata::Key {
            domain: self.domain,
            moves: &self.moves,
            window: self.window,
            depth: self.depth,
        }
    }

    fn refused(&self, why: &str) -> PrepareError {
        let at = self
            .at
            .as_ref()
            .map_or(String::new(), |at| format!("{at}: "));
        PrepareError::Unfit(format!(
            "{at}pruning {} on {}: {why}",
            self.pruning, self.domain
        ))
    }
}

/// The automata of the jobs' fsm prunings, each (moves, window, depth) once.
fn wanted_automata(
    jobs: &[(&Puzzle, Spec)],
    place: &impl Fn(usize) -> Option<String>,
) -> Vec<WantedAutomaton> {
    struct MovesOf;
    impl UsePuzzle for MovesOf {
        type Output = (&'static str, Moves, Option<(usize, usize)>);
        fn with<F: Family>(self, d: &Arc<F>, _: &F::State) -> Self::Output {
            (F::NAME, d.fsm_moves(), d.fsm_window())
        }
    }
    let mut done: Vec<(usize, u32)> = Vec::new();
    let mut wanted: Vec<WantedAutomaton> = Vec::new();
    for (i, (puzzle, spec)) in jobs.iter().enumerate() {
        let Pruning::Fsm(depth) = spec.pruning.or_depth(puzzle.kind().fsm_depth()) else {
            continue;
        };
        if done.contains(&(puzzle.family_id(), depth)) {
            continue;
        }
        done.push((puzzle.family_id(), depth));
        let (domain, moves, window) = puzzle.with(MovesOf);
        if wanted
            .iter()
            .any(|w| (w.depth, w.window, &w.moves) == (depth, window, &moves))
        {
            continue;
        }
        wanted.push(WantedAutomaton {
            domain,
            moves,
            window,
            depth,
            pruning: Pruning::Fsm(depth).name(),
            at: place(i),
        });
    }
    wanted
}

/// A heuristic's tables for one puzzle family under one cost model.
struct WantedTables<'a> {
    /// A puzzle of the family.
    puzzle: &'a Puzzle,
    heuristic: HeuristicKind,
    cost: CostModel,
    tables: Vec<Box<dyn store::Spec + Send>>,
}

type Wanted<'a> = Vec<WantedTables<'a>>;

/// Of `puzzles`, one of each family, heuristic and cost model whose heuristic has tables, the
/// heuristic checked to fit it under those costs.
fn wanted<'a>(
    puzzles: impl IntoIterator<Item = (&'a Puzzle, HeuristicKind, CostModel)>,
    place: &impl Fn(usize) -> Option<String>,
) -> Result<Wanted<'a>, PrepareError> {
    let mut wanted: Wanted = Vec::new();
    let mut done: Vec<(usize, HeuristicKind, CostModel)> = Vec::new();
    for (i, (puzzle, h, cost)) in puzzles.into_iter().enumerate() {
        let key = (puzzle.family_id(), h, cost);
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        fit(puzzle, h, cost, || place(i))?;
        let tables = puzzle.tables(h, cost);
        if !tables.is_empty() {
            wanted.push(WantedTables {
                puzzle,
                heuristic: h,
                cost,
                tables,
            });
        }
    }
    Ok(wanted)
}

/// The store's options for `wanted`'s tables and the automata's cache, once every automaton
/// is known to be one the builder takes and all of them to fit `--memory-limit`. The cache
/// directory is needed for databases; automata without one (no `--pdb-dir`, `HOME` nor
/// `XDG_CACHE_HOME`) are built in memory.
fn checked(
    wanted: &Wanted,
    automata: &[WantedAutomaton],
    tables: &TableOptions,
    quiet: bool,
) -> Result<(Option<store::Options>, Option<store::Options>), PrepareError> {
    let options = |dir| store::Options {
        dir,
        build: !tables.no_build,
        rebuild: false,
        quiet,
        stop: tables.stop,
    };
    let pdbs = if wanted.is_empty() {
        None
    } else {
        Some(options(cache_dir(tables.pdb_dir.as_deref())?))
    };
    let cache = match &pdbs {
        Some(o) => Some(o.clone()),
        None => cache_dir(tables.pdb_dir.as_deref()).ok().map(options),
    };
    let mut footprints: Vec<Footprint> = Vec::new();
    if let Some(o) = &pdbs {
        if tables.memory_limit.is_some() {
            footprints.extend(
                wanted
                    .iter()
                    .flat_map(|w| &w.tables)
                    .map(|t| store::footprint(&**t, o)),
            );
        }
    }
    for a in automata {
        let f = match &cache {
            Some(cache) => automata::footprint(&a.key(), cache),
            None => fsm::estimate(&a.moves, a.depth, a.window).map(|e| Footprint {
                name: a.key().name(),
                table: e.table,
                build: Some(e.building.saturating_add(e.table)),
            }),
        }
        .map_err(|e| a.refused(&e))?;
        footprints.push(f);
    }
    if let Some(limit) = tables.memory_limit {
        check_memory(footprints.into_iter(), automata.len(), limit)?;
    }
    Ok((pdbs, cache))
}

/// Refuses tables whose making ready, in `prepare`'s order, would at its peak hold more than
/// `limit` bytes: every table read or built before one, and that one's build (`Spec::
/// build_memory`, or an automaton's forecast) or the table itself; the last `automata` of
/// `footprints` are automata. The message names the table whose making ready reaches the peak.
/// The rest of a process (its datasets, jobs and rows) is not counted: beside these tables it is
/// small.
fn check_memory(
    footprints: impl Iterator<Item = Footprint>,
    automata: usize,
    limit: u64,
) -> Result<(), PrepareError> {
    let (mut held, mut peak) = (0u64, 0u64);
    // The first footprint at which the peak is reached, by its place in `seen`.
    let mut at_peak = 0;
    let mut seen: Vec<Footprint> = Vec::new();
    for f in footprints {
        // A table two heuristics share (pdb-555 and pdb-555+reflect) is made ready once.
        if seen.iter().any(|s| s.name == f.name) {
            continue;
        }
        let now = held.saturating_add(f.build.unwrap_or(f.table));
        if now > peak {
            (peak, at_peak) = (now, seen.len());
        }
        held = held.saturating_add(f.table);
        seen.push(f);
    }
    if peak <= limit {
        return Ok(());
    }
    let built = seen.iter().filter(|f| f.build.is_some()).count();
    let largest = seen.iter().filter_map(|f| f.build).max();
    let building = match (built, largest) {
        (0, _) | (_, None) => String::new(),
        (n, Some(b)) => format!(
            ", building the {n} not yet in the cache (up to {} while one is built)",
            bytes(b)
        ),
    };
    // Automata come last, each once.
    let databases = seen.len().saturating_sub(automata);
    let what = match automata {
        0 => format!("{databases} pattern database(s)"),
        n if databases == 0 => format!("{n} automaton(s) of duplicate pruning"),
        n => {
            format!("{databases} pattern database(s) and the {n} automaton(s) of duplicate pruning")
        }
    };
    let when = match &seen[at_peak] {
        Footprint {
            name,
            build: Some(_),
            ..
        } => format!("while {name} is built"),
        Footprint { name, .. } => format!("once {name} is read"),
    };
    Err(PrepareError::Memory(format!(
        "--memory-limit {} ({limit} bytes): the {what} take {} in memory{building}, \
         {} at the peak ({when}); give a larger --memory-limit, or other heuristics or prunings",
        bytes(limit),
        bytes(held),
        bytes(peak)
    )))
}

/// Refuses `h` where it does not fit `puzzle`'s board or moves weighed under `cost`, naming the
/// puzzle's place. Checked without a store: most heuristics have no tables, and those need no
/// cache directory.
fn fit(
    puzzle: &Puzzle,
    h: HeuristicKind,
    cost: CostModel,
    place: impl FnOnce() -> Option<String>,
) -> Result<(), PrepareError> {
    match puzzle.prepare_under(h, cost, None) {
        Ok(_) => Ok(()),
        Err(PrepareError::Unfit(m)) => Err(PrepareError::Unfit(match place() {
            Some(at) => format!("{at}: {m}"),
            None => m,
        })),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::{DomainKind, HeuristicKind};
    use crate::runner::solve::solve;
    use crate::search::{Limits, Step};
    use std::fs;

    /// The tables a search under weighted moves reads are those `prepare` read from the cache,
    /// not built again: a file whose entries were all made 1 (the goal's left 0, the checksum
    /// made to match) gives the start's estimate. Without the files, `--no-build` refuses, and
    /// for a goal `pdb build` does not make it says that a run builds them.
    #[test]
    fn a_weighted_search_reads_the_tables_prepare_read_from_the_cache() {
        // A goal no other test uses, two tiles of each pattern swapped: tables are held per
        // process by name, heuristics by board and goal, and under heavy costs each of this
        // goal's tables is named by costs of its own.
        let goal = "0 2 1 3 4 5 7 6 8 9 10 11 13 12 14 15";
        // The blank moved right, then down: only the first pattern (goal cells 1 2 4 5 8) has
        // tiles off their goal cells (2 and 5).
        let start = "2 5 1 3 4 0 7 6 8 9 10 11 13 12 14 15";
        let puzzle = Puzzle::fixed(DomainKind::Tiles, "4x4", start, Some(goal)).unwrap();
        let spec = Spec {
            heuristic: HeuristicKind::parse("pdb-555").unwrap(),
            step: Step::Next,
            pruning: Pruning::Reverse,
            cost: CostModel::Heavy,
        };
        let dir = tempfile::tempdir().unwrap();
        let tables = |no_build| TableOptions {
            pdb_dir: Some(dir.path().to_path_buf()),
            no_build,
            stop: None,
            memory_limit: None,
        };
        let why = prepare([(&puzzle, spec)], |_| None, &tables(true), true)
            .unwrap_err()
            .to_string();
        assert!(
            why.contains("-w2.1.4.5.8 in ") && why.contains("a run without --no-build builds it"),
            "{why}"
        );

        let options = store::Options {
            dir: dir.path().to_path_buf(),
            build: true,
            rebuild: false,
            quiet: true,
            stop: None,
        };
        let Puzzle::Tiles { domain, .. } = &puzzle else {
            unreachable!()
        };
        let partition = crate::domains::tiles::pdb::PDB_555;
        for table in domain.tables(partition, CostModel::Heavy).unwrap() {
            let info = store::ensure(&*table, &options).unwrap();
            let path = info.file.unwrap();
            let file = fs::read(&path).unwrap();
            let header = file.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
            let entries: Vec<u8> = file[header..]
                .chunks_exact(2)
                .flat_map(|e| if e == [0, 0] { [0, 0] } else { [1, 0] })
                .collect();
            let text = String::from_utf8(file[..header].to_vec()).unwrap().replace(
                &format!("crc32: {}", info.crc32),
                &format!("crc32: {:08x}", crc32fast::hash(&entries)),
            );
            fs::write(&path, [text.as_bytes(), &entries].concat()).unwrap();
        }
        let ready = prepare([(&puzzle, spec)], |_| None, &tables(true), true).unwrap();
        assert_eq!(ready.tables.len(), 3);
        assert!(ready.tables.iter().all(|t| t.file.is_some()), "{ready:?}");
        let a = solve(&puzzle, &spec, Limits::default()).unwrap();
        // Tiles 2 and 5 cost 2 and 5 a move: the true table holds 7 there, the altered one 1.
        assert_eq!(a.stats.initial_h, 1);
        assert_eq!(a.cost, Some((7, 1)));
    }
}
