//! The step of `run`, `solve` and `worker` that makes a heuristic's pattern databases ready
//! before the first search needs them, after checking that they fit `--memory-limit`, and builds
//! the variants' duplicate-pruning automata.

use crate::domains::max;
use crate::domains::tiles::pattern::Pattern;
use crate::domains::tiles::Tiles;
use crate::domains::{Family, HeuristicKind, PrepareError, Puzzle, UsePuzzle};
use crate::runner::plan::TableOptions;
use crate::search::fsm::Moves;
use crate::search::Pruning;
use crate::tables::automata::{self, AutomatonInfo};
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

/// Makes the tables of heuristic `h` ready for every puzzle family in `puzzles` (one puzzle of
/// each board and goal is enough), returning what was used, each table once. `place(i)` says
/// where the `i`-th puzzle comes from, for an error (`file:line: instance 'id'`), if anywhere.
/// With `tables.memory_limit`, tables that would not fit it are refused before any is read.
pub fn prepare<'a>(
    puzzles: impl IntoIterator<Item = (&'a Puzzle, HeuristicKind)>,
    place: impl Fn(usize) -> Option<String>,
    tables: &TableOptions,
    quiet: bool,
) -> Result<Vec<TableInfo>, PrepareError> {
    let wanted = wanted(puzzles, place)?;
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let options = checked(&wanted, tables, quiet)?;
    let mut used: Vec<TableInfo> = Vec::new();
    for (puzzle, h, _) in wanted {
        for info in puzzle.prepare(h, Some(&options))? {
            if !used.contains(&info) {
                used.push(info);
            }
        }
    }
    Ok(used)
}

/// What `prepare` refuses before it reads or builds a table (a heuristic that does not fit a
/// board, tables that would not fit `--memory-limit`), checked without reading or building any:
/// for `slurm`, before it writes a script whose every task would be refused.
pub fn check<'a>(
    puzzles: impl IntoIterator<Item = (&'a Puzzle, HeuristicKind)>,
    place: impl Fn(usize) -> Option<String>,
    tables: &TableOptions,
) -> Result<(), PrepareError> {
    let wanted = wanted(puzzles, place)?;
    if !wanted.is_empty() {
        checked(&wanted, tables, true)?;
    }
    Ok(())
}

/// A heuristic's tables for one puzzle family: a puzzle of it, the heuristic and its patterns.
type Wanted<'a> = Vec<(&'a Puzzle, HeuristicKind, Vec<Pattern>)>;

/// Of `puzzles`, one of each family and heuristic whose heuristic has tables, the heuristic
/// checked to fit it.
fn wanted<'a>(
    puzzles: impl IntoIterator<Item = (&'a Puzzle, HeuristicKind)>,
    place: impl Fn(usize) -> Option<String>,
) -> Result<Wanted<'a>, PrepareError> {
    let mut wanted: Wanted = Vec::new();
    let mut done: Vec<(usize, HeuristicKind)> = Vec::new();
    for (i, (puzzle, h)) in puzzles.into_iter().enumerate() {
        let key = (puzzle.family_id(), h);
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        fit(puzzle, h, || place(i))?;
        let patterns = patterns_of(puzzle, h);
        if !patterns.is_empty() {
            wanted.push((puzzle, h, patterns));
        }
    }
    Ok(wanted)
}

/// The store's options for `wanted`'s tables, once they are known to fit `--memory-limit`.
fn checked(
    wanted: &Wanted,
    tables: &TableOptions,
    quiet: bool,
) -> Result<store::Options, PrepareError> {
    let options = store::Options {
        dir: cache_dir(tables.pdb_dir.as_deref())?,
        build: !tables.no_build,
        rebuild: false,
        quiet,
        stop: tables.stop,
    };
    if let Some(limit) = tables.memory_limit {
        let footprints = wanted
            .iter()
            .flat_map(|(_, _, patterns)| patterns)
            .map(|p| store::footprint(p, &options));
        check_memory(footprints, limit)?;
    }
    Ok(options)
}

/// Refuses tables whose making ready, in `prepare`'s order, would at its peak hold more than
/// `limit` bytes: every table read or built before one, and that one's build (`Spec::
/// build_memory`) or the table itself. The rest of a process (its datasets, jobs and rows) is
/// not counted: beside pattern databases it is small.
fn check_memory(
    footprints: impl Iterator<Item = Footprint>,
    limit: u64,
) -> Result<(), PrepareError> {
    let (mut held, mut peak) = (0u64, 0u64);
    let mut seen: Vec<Footprint> = Vec::new();
    for f in footprints {
        // A table two heuristics share (pdb-555 and pdb-555+reflect) is made ready once.
        if seen.iter().any(|s| s.name == f.name) {
            continue;
        }
        peak = peak.max(held.saturating_add(f.build.unwrap_or(f.table)));
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
    Err(PrepareError::Memory(format!(
        "--memory-limit {} ({limit} bytes): the {} pattern database(s) take {} in memory{building}, \
         {} at the peak; give a larger --memory-limit, or other heuristics",
        bytes(limit),
        seen.len(),
        bytes(held),
        bytes(peak)
    )))
}

/// Builds the automaton of every fsm pruning in `wanted` for its puzzle's moves (one puzzle of
/// each family and board is enough), before the first job: no job's time counts the building.
/// Returns what each automaton took, each once. An error (the builder's reason, e.g. too large)
/// names the pruning, the family and the puzzle's place (`place(i)` for the `i`-th entry).
pub fn automata<'a>(
    wanted: impl IntoIterator<Item = (&'a Puzzle, Pruning)>,
    place: impl Fn(usize) -> Option<String>,
) -> Result<Vec<AutomatonInfo>, PrepareError> {
    struct MovesOf;
    impl UsePuzzle for MovesOf {
        type Output = (&'static str, Moves, Option<(usize, usize)>);
        fn with<F: Family>(self, d: &Arc<F>, _: &F::State) -> Self::Output {
            (F::NAME, d.fsm_moves(), d.fsm_window())
        }
    }
    let mut done: Vec<(usize, u32)> = Vec::new();
    let mut infos: Vec<AutomatonInfo> = Vec::new();
    for (i, (puzzle, pruning)) in wanted.into_iter().enumerate() {
        let Pruning::Fsm(depth) = pruning else {
            continue;
        };
        if done.contains(&(puzzle.family_id(), depth)) {
            continue;
        }
        done.push((puzzle.family_id(), depth));
        let (domain, moves, window) = puzzle.with(MovesOf);
        if let Err(e) = automata::shared(&moves, window, depth) {
            let at = place(i).map_or(String::new(), |at| format!("{at}: "));
            return Err(PrepareError::Unfit(format!(
                "{at}pruning {} on {domain}: {e}",
                pruning.name()
            )));
        }
        let info = automata::info(domain, &moves, window, depth).expect("built just now");
        // Boards of one family may share their moves, and so an automaton.
        if !infos.contains(&info) {
            infos.push(info);
        }
    }
    Ok(infos)
}

/// Refuses `h` where it does not fit `puzzle`'s board, naming the puzzle's place. Checked
/// without a store: most heuristics have no tables, and those need no cache directory.
fn fit(
    puzzle: &Puzzle,
    h: HeuristicKind,
    place: impl FnOnce() -> Option<String>,
) -> Result<(), PrepareError> {
    match puzzle.prepare(h, None) {
        Ok(_) => Ok(()),
        Err(PrepareError::Unfit(m)) => Err(PrepareError::Unfit(match place() {
            Some(at) => format!("{at}: {m}"),
            None => m,
        })),
        Err(e) => Err(e),
    }
}

/// The pattern databases of `h` (of every part of a max) on `puzzle`'s board, once `fit` has
/// passed it: none for a heuristic without tables.
fn patterns_of(puzzle: &Puzzle, h: HeuristicKind) -> Vec<Pattern> {
    let Puzzle::Tiles { domain, .. } = puzzle else {
        return Vec::new();
    };
    let Ok(choice) = max::choose::<Tiles>(h.name()) else {
        return Vec::new();
    };
    choice
        .parts()
        .iter()
        .filter_map(|t| t.partition())
        .filter_map(|(partition, _)| domain.patterns(partition).ok())
        .flatten()
        .collect()
}
