//! The step of `run`, `solve` and `worker` that makes a heuristic's pattern databases ready
//! before the first search needs them.

use crate::domains::tiles::TilesHeuristic;
use crate::domains::{HeuristicKind, HeuristicSet, PrepareError, Puzzle};
use crate::runner::plan::TableOptions;
use crate::tables::store::{self, StoreError, TableInfo};
use std::path::{Path, PathBuf};

/// The cache directory `pdb_dir` names, or the default.
pub fn cache_dir(pdb_dir: Option<&Path>) -> Result<PathBuf, StoreError> {
    pdb_dir.map(Path::to_path_buf).or_else(store::default_dir).ok_or_else(|| {
        StoreError::Missing("no cache directory for pattern databases: neither XDG_CACHE_HOME nor HOME is set; give --pdb-dir DIR".into())
    })
}

/// Makes the tables of heuristic `h` ready for every puzzle family in `puzzles` (one puzzle of
/// each board and goal is enough), returning what was used, each table once. `place(i)` says
/// where the `i`-th puzzle comes from, for an error (`file:line: instance 'id'`), if anywhere.
pub fn prepare<'a>(
    puzzles: impl IntoIterator<Item = (&'a Puzzle, HeuristicKind)>,
    place: impl Fn(usize) -> Option<String>,
    tables: &TableOptions,
    quiet: bool,
) -> Result<Vec<TableInfo>, PrepareError> {
    let mut options = None;
    let mut used: Vec<TableInfo> = Vec::new();
    let mut done: Vec<(usize, HeuristicKind)> = Vec::new();
    for (i, (puzzle, h)) in puzzles.into_iter().enumerate() {
        let key = (puzzle.family_id(), h);
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        fit(puzzle, h, || place(i))?;
        if !needs_tables(puzzle, h) {
            continue;
        }
        if options.is_none() {
            options = Some(store::Options {
                dir: cache_dir(tables.pdb_dir.as_deref())?,
                build: !tables.no_build,
                rebuild: false,
                quiet,
                stop: tables.stop,
            });
        }
        for info in puzzle.prepare(h, options.as_ref())? {
            if !used.contains(&info) {
                used.push(info);
            }
        }
    }
    Ok(used)
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

fn needs_tables(puzzle: &Puzzle, h: HeuristicKind) -> bool {
    matches!(puzzle, Puzzle::Tiles { .. })
        && TilesHeuristic::parse(h.name()).is_some_and(|t| t.partition().is_some())
}
