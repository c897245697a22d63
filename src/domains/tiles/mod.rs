//! Sliding-tile puzzles of any width x height (sides 2 to 16, at most 255 cells) with any goal,
//! and their heuristics.
//!
//! On the general board (`Tiles`) a move is the cell the blank moves to; the 3x3, 4x4 and 5x5
//! boards also come as types of their own (`fixed.rs`), searched faster on the same tree. From each
//! cell the blank tries up, left, right, down, in that order (Korf's). Paths are written as the
//! blank's motion: `U`, `D`, `L`, `R`.
//! Every move swaps the blank with a tile and moves the blank one cell, so the parity of the
//! permutation plus the blank's distance to its goal cell never changes: a start is solvable exactly
//! when the two parities agree, and every solution's length has the parity of that distance.

mod fixed;
mod heuristics;
pub mod lookups;
pub mod pattern;
mod pattern_bfs;
pub mod pdb;
mod tables;
mod walking;
pub mod weighted;
pub mod weighted_heuristics;
pub mod weighted_pdb;
pub mod zero;

pub use fixed::{FixedState, FixedTiles, Slide, Tiles3x3, Tiles4x4, Tiles5x5};
pub use heuristics::{LinearConflict, Manhattan, Misplaced};
pub use tables::{Board, GoalPlaces};
pub use walking::{WalkValue, WalkingDistance};

use super::cost::CostModel;
use super::max::{self, Max};
use super::{Family, FieldError, HeuristicSet, PrepareError, UseSearch};
use crate::search::fsm::Moves;
use crate::search::{Bpmx, Domain, Zero};
use crate::tables::store::{StoreError, TableInfo};
use crate::tables::{shared, store};
use crate::util::text::shorten;
use lookups::{PatternLookups, Policy};
use pattern::Pattern;
use pdb::{Partition, PatternDbs, PDB_555, PDB_663, PDB_6666, PDB_78};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use weighted::Weighted;
use weighted_heuristics::{WeightedLinearConflict, WeightedManhattan, WeightedMisplaced};
use zero::{ZeroAware, ZeroIndex};

pub const MIN_SIDE: usize = 2;
pub const MAX_SIDE: usize = 16;
/// Cell 255 is kept free as the engine's "no move" (so 16x16 is out).
pub const MAX_CELLS: usize = 255;

/// Cells hold tile numbers, 0 for the blank, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileState {
    cells: [u8; 256],
    blank: u8,
}

/// The puzzle's board and goal, with the tables the search reads.
pub struct Tiles {
    board: Board,
    goal: TileState,
    places: GoalPlaces,
    /// The blank tries up, left, right, down, as the fixed-size boards do.
    korf_order: bool,
    /// This board as a type of its size, where there is one: searched by `with_heuristic`.
    fixed: Option<FixedBoard>,
}

/// The fixed-size boards.
enum FixedBoard {
    B3(Box<Tiles3x3>),
    B4(Box<Tiles4x4>),
    B5(Box<Tiles5x5>),
}

/// A sliding-tile board as its heuristics read it: the general `Tiles` and the fixed sizes.
pub trait Grid: Domain {
    fn board(&self) -> &Board;
    fn places(&self) -> &GoalPlaces;
    fn width(&self) -> usize {
        self.board().width
    }
    fn height(&self) -> usize {
        self.board().height
    }
    /// The tile in `cell` of `s`.
    fn tile(s: &Self::State, cell: usize) -> u8;
    /// For move `m` from `s`: the cell the blank leaves (the tile's new cell), the cell it reaches
    /// (the tile's old cell), and the tile.
    fn slide(s: &Self::State, m: Self::Move) -> (usize, usize, u8);
}

/// Parses a size written `WxH` (e.g. `4x4`), each side between 2 and 16.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "invalid size '{}': expected WIDTHxHEIGHT such as 3x3 or 4x4, each side {MIN_SIDE} to {MAX_SIDE}",
            shorten(text)
        )
    };
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: usize = w.trim().parse().map_err(|_| bad())?;
    let h: usize = h.trim().parse().map_err(|_| bad())?;
    if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(MIN_SIDE..=MAX_SIDE).contains(&h) {
        return Err(bad());
    }
    if w * h > MAX_CELLS {
        return Err(format!(
            "invalid size '{}': at most {MAX_CELLS} cells (16x15), found {}",
            shorten(text),
            w * h
        ));
    }
    Ok((w, h))
}

/// Parses `n` whitespace-separated tiles forming a permutation of 0..n (0 = blank).
pub fn parse_permutation(text: &str, n: usize) -> Result<Vec<u8>, String> {
    let mut seen = vec![false; n];
    let mut tiles = Vec::with_capacity(n);
    for (i, tok) in text.split_whitespace().enumerate() {
        let v: usize = tok.parse().map_err(|_| {
            format!(
                "token {} '{}' is not a tile number (expected 0 to {})",
                i + 1,
                shorten(tok),
                n - 1
            )
        })?;
        if v >= n {
            return Err(format!(
                "tile {v} (token {}) is out of range: expected 0 to {} for {n} cells",
                i + 1,
                n - 1
            ));
        }
        if seen[v] {
            return Err(format!("tile {v} appears twice (token {})", i + 1));
        }
        seen[v] = true;
        tiles.push(v as u8);
    }
    if tiles.len() != n {
        return Err(format!(
            "expected {n} tiles (0 to {}), found {}",
            n - 1,
            tiles.len()
        ));
    }
    Ok(tiles)
}

/// The default goal: 1 2 ... n-1, then the blank.
pub fn default_goal(n: usize) -> Vec<u8> {
    (1..n).map(|t| t as u8).chain([0]).collect()
}

impl Tiles {
    /// A puzzle of `width` x `height` whose goal is `goal` (row-major, 0 = blank).
    pub fn new(width: usize, height: usize, goal: &[u8]) -> Result<Tiles, String> {
        Tiles::with_order(width, height, goal, "ULRD")
    }

    /// A puzzle whose blank tries its moves in `order`, the four letters U L R D in some order
    /// (`new` uses Korf's ULRD; DLRU finds the lexicographically first shortest path).
    pub fn with_order(
        width: usize,
        height: usize,
        goal: &[u8],
        order: &str,
    ) -> Result<Tiles, String> {
        let board = Board::new(width, height, order)?;
        check_permutation(goal, board.cells())?;
        let places = GoalPlaces::new(&board, goal);
        let mut tiles = Tiles {
            board,
            goal: state_of(goal),
            places,
            korf_order: order == "ULRD",
            fixed: None,
        };
        tiles.fixed = match (width, height) {
            _ if !tiles.korf_order => None,
            (3, 3) => Some(FixedBoard::B3(Box::new(Tiles3x3::new(&tiles)))),
            (4, 4) => Some(FixedBoard::B4(Box::new(Tiles4x4::new(&tiles)))),
            (5, 5) => Some(FixedBoard::B5(Box::new(Tiles5x5::new(&tiles)))),
            _ => None,
        };
        Ok(tiles)
    }

    pub fn width(&self) -> usize {
        self.board.width
    }

    pub fn height(&self) -> usize {
        self.board.height
    }

    pub fn cells(&self) -> usize {
        self.board.cells()
    }

    pub fn goal(&self) -> &TileState {
        &self.goal
    }

    /// The patterns of `partition` for this board and goal.
    pub fn patterns(&self, partition: Partition) -> Result<Vec<Pattern>, String> {
        partition.patterns(self.width(), self.height(), self.goal.blank as usize)
    }

    /// The tables of `partition`'s databases for this board and goal under move costs `cost`:
    /// its patterns, weighed unless `cost` is unit (`weighted_pdb::weighted_patterns`).
    pub fn tables(
        &self,
        partition: Partition,
        cost: CostModel,
    ) -> Result<Vec<Box<dyn store::Spec + Send>>, String> {
        if cost.is_unit() {
            let patterns = self.patterns(partition)?;
            if partition.zero {
                return patterns
                    .into_iter()
                    .map(|p| Ok(Box::new(ZeroAware::new(p)) as Box<dyn store::Spec + Send>))
                    .collect();
            }
            return Ok(patterns
                .into_iter()
                .map(|p| Box::new(p) as Box<dyn store::Spec + Send>)
                .collect());
        }
        let weighed = weighted_pdb::weighted_patterns(self, partition, cost)?;
        Ok(weighed
            .into_iter()
            .map(|(wp, _)| Box::new(wp) as Box<dyn store::Spec + Send>)
            .collect())
    }

    /// Whether the blank tries its moves in Korf's order, up, left, right, down.
    pub fn korf_order(&self) -> bool {
        self.korf_order
    }

    /// The tiles of `s`, row-major.
    pub fn tiles<'s>(&self, s: &'s TileState) -> &'s [u8] {
        &s.cells[..self.cells()]
    }

    /// A state from a permutation of 0..n (row-major, 0 = blank).
    pub fn state(&self, tiles: &[u8]) -> Result<TileState, String> {
        check_permutation(tiles, self.cells())?;
        Ok(state_of(tiles))
    }

    /// Whether the goal can be reached from `s`.
    pub fn is_solvable(&self, s: &TileState) -> bool {
        let n = self.cells();
        // The permutation taking `s` to the goal, as goal cells of the tiles in `s`.
        let mut perm = [0u8; 256];
        for (p, &t) in perm.iter_mut().zip(&s.cells[..n]) {
            *p = self.places.cell[t as usize];
        }
        permutation_parity(&perm[..n]) == self.blank_distance(s) % 2
    }

    /// The blank's Manhattan distance to its goal cell.
    pub fn blank_distance(&self, s: &TileState) -> u32 {
        self.board
            .distance(s.blank as usize, self.places.cell[0] as usize)
    }

    /// The letter of the blank's motion from cell `from` to the neighbouring cell `to`.
    pub fn letter(&self, from: u8, to: u8) -> char {
        let (from, to) = (from as usize, to as usize);
        let dir = if to + self.board.width == from {
            0
        } else if to + 1 == from {
            1
        } else if to == from + 1 {
            2
        } else {
            3
        };
        tables::LETTERS[dir]
    }

    /// The move from `s` written by a letter (`U`, `L`, `R`, `D`), if it is legal there.
    pub fn move_of(&self, s: &TileState, letter: char) -> Option<u8> {
        self.moves(s)
            .iter()
            .copied()
            .find(|&to| self.letter(s.blank, to) == letter)
    }
}

fn check_permutation(tiles: &[u8], n: usize) -> Result<(), String> {
    let mut seen = [false; 256];
    if tiles.len() != n {
        return Err(format!("expected {n} tiles, found {}", tiles.len()));
    }
    for &t in tiles {
        if t as usize >= n || seen[t as usize] {
            return Err(format!("not a permutation of 0..{}: tile {t}", n - 1));
        }
        seen[t as usize] = true;
    }
    Ok(())
}

fn state_of(tiles: &[u8]) -> TileState {
    let mut cells = [0u8; 256];
    cells[..tiles.len()].copy_from_slice(tiles);
    let blank = tiles
        .iter()
        .position(|&t| t == 0)
        .expect("checked permutation") as u8;
    TileState { cells, blank }
}

/// 0 for an even permutation, 1 for an odd one (by counting cycles).
fn permutation_parity(perm: &[u8]) -> u32 {
    let mut seen = [false; 256];
    let mut transpositions = 0;
    for i in 0..perm.len() {
        let mut len = 0;
        let mut j = i;
        while !seen[j] {
            seen[j] = true;
            j = perm[j] as usize;
            len += 1;
        }
        if len > 0 {
            transpositions += len - 1;
        }
    }
    transpositions % 2
}

/// The longest shortest solution a start can have, where it is proven. The 8-puzzle's is 31 for
/// every goal (a breadth-first search from each blank cell gives 31, but 30 from the centre);
/// the 15-puzzle's is 80 for a goal with the blank in a corner (Brüngger, Marzetta, Fukuda &
/// Nievergelt, 1999; tiles' labels and the board's symmetries make every such goal alike), and
/// unknown for the others.
fn diameter(board: &Board, goal_blank: usize) -> Option<u32> {
    let (w, h) = (board.width, board.height);
    let (row, col) = (goal_blank / w, goal_blank % w);
    let corner = (row == 0 || row == h - 1) && (col == 0 || col == w - 1);
    match (w, h) {
        (3, 3) => Some(31),
        (4, 4) if corner => Some(80),
        _ => None,
    }
}

impl Domain for Tiles {
    type State = TileState;
    type Move = u8;
    /// Boards have at most 255 cells, so cell 255 is never a move.
    const NO_MOVE: u8 = u8::MAX;

    #[inline(always)]
    fn moves<'a>(&'a self, s: &TileState) -> &'a [u8] {
        let b = s.blank as usize;
        // At most four: the bound lets the compiler drop the slice check.
        &self.board.legal[b][..(self.board.legal_len[b] as usize).min(4)]
    }

    #[inline(always)]
    fn labels<'a>(&'a self, s: &TileState) -> &'a [u16] {
        let b = s.blank as usize;
        &self.board.labels[b][..(self.board.legal_len[b] as usize).min(4)]
    }

    /// The blank goes back where it was.
    #[inline(always)]
    fn inverse(&self, s: &TileState, _: u8) -> u8 {
        s.blank
    }

    #[inline(always)]
    fn apply(&self, s: &mut TileState, to: u8) {
        s.cells[s.blank as usize] = s.cells[to as usize];
        s.cells[to as usize] = 0;
        s.blank = to;
    }

    fn is_goal(&self, s: &TileState) -> bool {
        s.cells[..self.cells()] == self.goal.cells[..self.cells()]
    }

    fn solution_parity(&self, s: &TileState) -> Option<u32> {
        Some(self.blank_distance(s) % 2)
    }

    fn diameter(&self) -> Option<u32> {
        diameter(&self.board, self.goal.blank as usize)
    }

    /// The blank's motions as letters, e.g. `ULLD`.
    fn path_string(&self, start: &TileState, path: &[u8]) -> String {
        let mut blank = start.blank;
        path.iter()
            .map(|&to| {
                let l = self.letter(blank, to);
                blank = to;
                l
            })
            .collect()
    }
}

impl Grid for Tiles {
    fn board(&self) -> &Board {
        &self.board
    }

    fn places(&self) -> &GoalPlaces {
        &self.places
    }

    #[inline(always)]
    fn tile(s: &TileState, cell: usize) -> u8 {
        s.cells[cell]
    }

    #[inline(always)]
    fn slide(s: &TileState, m: u8) -> (usize, usize, u8) {
        (s.blank as usize, m as usize, s.cells[m as usize])
    }
}

heuristic_set! {
    /// The sliding-tile heuristics.
    TilesHeuristic {
        Manhattan => "manhattan": "sum of the tiles' distances to their goal cells",
        LinearConflict => "linear-conflict":
            "Manhattan + 2 per tile that must leave its goal line for others",
        WalkingDistance => "walking-distance":
            "vertical + horizontal moves, each exact when tiles are told apart only by goal row (column); up to 5x5",
        Misplaced => "misplaced": "tiles not on their goal cell",
        Zero => "zero": "none: blind iterative deepening",
        Pdb555 => "pdb-555": "4x4: additive pattern databases of 5, 5 and 5 tiles",
        Pdb555Reflect => "pdb-555+reflect": "pdb-555, and the board reflected about its diagonal",
        Pdb663 => "pdb-663": "4x4: additive pattern databases of 6, 6 and 3 tiles",
        Pdb663Reflect => "pdb-663+reflect": "pdb-663, and the board reflected about its diagonal",
        Pdb78 => "pdb-78": "4x4: additive pattern databases of 7 and 8 tiles (576 MB)",
        Pdb78Reflect => "pdb-78+reflect": "pdb-78, and the board reflected about its diagonal",
        Pdb6666 => "pdb-6666": "5x5: additive pattern databases of 6 tiles each (510 MB)",
        Pdb6666Reflect => "pdb-6666+reflect": "pdb-6666, and the board reflected about its diagonal",
        Pdb555Z => "pdb-555z": "pdb-555's patterns, zero-aware: entries for the blank in the open region or walled off",
        Pdb555ZReflect => "pdb-555z+reflect": "pdb-555z, and the board reflected about its diagonal",
        Pdb663Z => "pdb-663z": "pdb-663's patterns, zero-aware: entries for the blank in the open region or walled off",
        Pdb663ZReflect => "pdb-663z+reflect": "pdb-663z, and the board reflected about its diagonal",
        Pdb78Z => "pdb-78z": "pdb-78's patterns, zero-aware: entries for the blank in the open region or walled off (576 MB)",
        Pdb78ZReflect => "pdb-78z+reflect": "pdb-78z, and the board reflected about its diagonal",
        Pdb6666Z => "pdb-6666z": "pdb-6666's patterns, zero-aware: entries for the blank in the open region or walled off (510 MB)",
        Pdb6666ZReflect => "pdb-6666z+reflect": "pdb-6666z, and the board reflected about its diagonal",
        Pdb555Dual => "pdb-555+dual": "the larger of pdb-555's regular and dual lookups",
        Pdb555DualBpmx => "pdb-555+dual+bpmx": "pdb-555+dual searched with bidirectional pathmax",
        Pdb555DualReflect => "pdb-555+dual+reflect": "the largest of pdb-555's regular, reflected, dual and dual reflected lookups",
        Pdb555DualReflectBpmx => "pdb-555+dual+reflect+bpmx": "pdb-555+dual+reflect searched with bidirectional pathmax",
        Pdb555Random => "pdb-555+random": "pdb-555: one lookup per node, chosen by a seeded hash of the state",
        Pdb555RandomBpmx => "pdb-555+random+bpmx": "pdb-555+random searched with bidirectional pathmax",
        Pdb663Dual => "pdb-663+dual": "the larger of pdb-663's regular and dual lookups",
        Pdb663DualBpmx => "pdb-663+dual+bpmx": "pdb-663+dual searched with bidirectional pathmax",
        Pdb663DualReflect => "pdb-663+dual+reflect": "the largest of pdb-663's regular, reflected, dual and dual reflected lookups",
        Pdb663DualReflectBpmx => "pdb-663+dual+reflect+bpmx": "pdb-663+dual+reflect searched with bidirectional pathmax",
        Pdb663Random => "pdb-663+random": "pdb-663: one lookup per node, chosen by a seeded hash of the state",
        Pdb663RandomBpmx => "pdb-663+random+bpmx": "pdb-663+random searched with bidirectional pathmax",
        Pdb78Dual => "pdb-78+dual": "the larger of pdb-78's regular and dual lookups",
        Pdb78DualBpmx => "pdb-78+dual+bpmx": "pdb-78+dual searched with bidirectional pathmax",
        Pdb78DualReflect => "pdb-78+dual+reflect": "the largest of pdb-78's regular, reflected, dual and dual reflected lookups",
        Pdb78DualReflectBpmx => "pdb-78+dual+reflect+bpmx": "pdb-78+dual+reflect searched with bidirectional pathmax",
        Pdb78Random => "pdb-78+random": "pdb-78: one lookup per node, chosen by a seeded hash of the state",
        Pdb78RandomBpmx => "pdb-78+random+bpmx": "pdb-78+random searched with bidirectional pathmax",
        Pdb6666Dual => "pdb-6666+dual": "the larger of pdb-6666's regular and dual lookups",
        Pdb6666DualBpmx => "pdb-6666+dual+bpmx": "pdb-6666+dual searched with bidirectional pathmax",
        Pdb6666DualReflect => "pdb-6666+dual+reflect": "the largest of pdb-6666's regular, reflected, dual and dual reflected lookups",
        Pdb6666DualReflectBpmx => "pdb-6666+dual+reflect+bpmx": "pdb-6666+dual+reflect searched with bidirectional pathmax",
        Pdb6666Random => "pdb-6666+random": "pdb-6666: one lookup per node, chosen by a seeded hash of the state",
        Pdb6666RandomBpmx => "pdb-6666+random+bpmx": "pdb-6666+random searched with bidirectional pathmax",
    }
}

/// How a pattern-database heuristic reads its partition's databases: the lookups, and whether
/// the search passes values by bidirectional pathmax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdbLookup {
    pub policy: Policy,
    pub bpmx: bool,
}

impl TilesHeuristic {
    /// The partition of a pattern-database heuristic and how it reads it, from its name:
    /// `pdb-X`, then `+reflect`, `+dual`, `+dual+reflect` or `+random`, then `+bpmx`.
    pub fn partition(self) -> Option<(Partition, PdbLookup)> {
        let rest = self.name().strip_prefix("pdb-")?;
        let (rest, bpmx) = match rest.strip_suffix("+bpmx") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (x, lookups) = rest.split_once('+').unwrap_or((rest, ""));
        let (x, zero) = match x.strip_suffix('z') {
            Some(x) => (x, true),
            None => (x, false),
        };
        let partition = match x {
            "555" => PDB_555,
            "663" => PDB_663,
            "78" => PDB_78,
            "6666" => PDB_6666,
            _ => unreachable!(
                "a pattern-database heuristic of no partition: {}",
                self.name()
            ),
        };
        let partition = if zero {
            partition.zero_aware()
        } else {
            partition
        };
        let policy = match lookups {
            "" => Policy::Regular,
            "reflect" => Policy::Reflect,
            "dual" => Policy::Dual,
            "dual+reflect" => Policy::DualReflect,
            "random" => Policy::Random,
            _ => unreachable!("a pattern-database heuristic of no lookup: {}", self.name()),
        };
        Some((partition, PdbLookup { policy, bpmx }))
    }
}

/// The boards made so far, one per size and goal: a dataset of all 181,440 8-puzzle states must
/// not build 181,440 copies, and two datasets of one board share it.
type Built = HashMap<(usize, usize, Vec<u8>), Arc<Tiles>>;

thread_local! {
    /// The previous row's size and goal as written ("" = default) and table, on this thread: rows
    /// come in runs of one size and goal, and recognising the run skips parsing the size and the
    /// goal, and the lock on the boards that threads reading parts of one dataset would otherwise
    /// take in turn for every row.
    static LAST: RefCell<Option<(String, String, Arc<Tiles>)>> = const { RefCell::new(None) };
}

impl Family for Tiles {
    const NAME: &'static str = "tiles";
    const SIZE_HELP: &'static str =
        "WIDTHxHEIGHT, e.g. 3x3 or 4x4 (each side 2 to 16, at most 255 cells)";
    const STATE_HELP: &'static str = "the tiles row-major, 0 = blank";
    type Heuristics = TilesHeuristic;
    /// The board's cells only: a 3x3 start is 9 bytes instead of 257.
    type Start = Box<[u8]>;

    fn unpack(&self, s: &Box<[u8]>) -> TileState {
        state_of(s)
    }

    fn instance(
        size: Option<&str>,
        start: &str,
        goal: Option<&str>,
    ) -> Result<(Arc<Tiles>, Box<[u8]>), FieldError> {
        let size = match size.map(str::trim) {
            None => {
                return Err((
                    "size",
                    "the header has no 'size' column: domain 'tiles' needs one, WIDTHxHEIGHT such as 3x3 or 4x4".into(),
                ))
            }
            Some("") => {
                return Err((
                    "size",
                    "empty: domain 'tiles' needs WIDTHxHEIGHT such as 3x3 or 4x4".into(),
                ))
            }
            Some(s) => s,
        };
        let goal_text = goal.map_or("", str::trim);
        let last = LAST.with_borrow(|last| match last {
            Some((ls, lg, d)) if ls == size && lg == goal_text => Some(Arc::clone(d)),
            _ => None,
        });
        let domain = match last {
            Some(d) => d,
            None => {
                let (w, h) = parse_size(size).map_err(|e| ("size", e))?;
                let n = w * h;
                // The start is judged before the goal, as a row is read left to right.
                start_cells(start, n, size)?;
                let goal = match goal_text {
                    "" => default_goal(n),
                    g => counted_permutation(g, n, size, "goal")?,
                };
                static BUILT: Mutex<Option<Built>> = Mutex::new(None);
                // Nothing is left half-made by a panic while the lock is held: the poison carries
                // no meaning.
                let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
                let domain = match built.get_or_insert_with(Built::new).entry((w, h, goal)) {
                    std::collections::hash_map::Entry::Occupied(e) => Arc::clone(e.get()),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let built = Tiles::new(w, h, &e.key().2).map_err(|e| ("goal", e))?;
                        Arc::clone(e.insert(Arc::new(built)))
                    }
                };
                LAST.set(Some((
                    size.to_owned(),
                    goal_text.to_owned(),
                    Arc::clone(&domain),
                )));
                domain
            }
        };
        let start = start_cells(start, domain.cells(), size)?;
        Ok((domain, start))
    }

    fn size(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }

    /// Chosen on Korf's 100 and the 24-puzzle (docs/pruning.md, "The default depth").
    const FSM_DEPTH: u32 = 14;

    /// The blank's four steps, in the board's move order (the fixed-size boards' is Korf's).
    fn fsm_moves(&self) -> Moves {
        Moves::Walk(self.board.steps.to_vec())
    }

    fn fsm_window(&self) -> Option<(usize, usize)> {
        Some((self.width(), self.height()))
    }

    fn tokens(&self, s: &TileState) -> String {
        let tokens: Vec<String> = self.tiles(s).iter().map(u8::to_string).collect();
        tokens.join(" ")
    }

    /// The default goal; `generate` draws tiles instances with generators of its own.
    fn generator_goal(size: Option<&str>) -> Result<(String, String), FieldError> {
        let size = size.ok_or(("size", "tiles need WIDTHxHEIGHT, e.g. 3x3".to_string()))?;
        let (w, h) = parse_size(size).map_err(|e| ("size", e))?;
        let goal: Vec<String> = default_goal(w * h).iter().map(u8::to_string).collect();
        Ok((format!("{w}x{h}"), goal.join(" ")))
    }

    fn solvable(&self, s: &TileState) -> bool {
        self.is_solvable(s)
    }

    fn prepare(
        d: &Arc<Tiles>,
        h: TilesHeuristic,
        cost: CostModel,
        store: Option<&store::Options>,
    ) -> Result<Vec<TableInfo>, PrepareError> {
        if h == TilesHeuristic::WalkingDistance {
            walking::check_size(d.width(), d.height()).map_err(PrepareError::Unfit)?;
        }
        if !cost.is_unit() {
            Tiles::weighs(d, h, cost).map_err(PrepareError::Unfit)?;
        }
        let Some((partition, _)) = h.partition() else {
            return Ok(Vec::new());
        };
        let tables = d
            .tables(partition, cost)
            .map_err(|e| PrepareError::Unfit(format!("{}: {e}", h.name())))?;
        let missing = |m: String, options: &store::Options| {
            let goal = if d.goal.blank == 0 {
                ""
            } else {
                " --goal last"
            };
            let n = d.cells();
            let built_by_pdb = d.tiles(&d.goal) == (0..n as u8).collect::<Vec<_>>()
                || d.tiles(&d.goal) == default_goal(n);
            if !cost.is_unit() && !built_by_pdb {
                // Weighed by tile numbers, the tables of a goal that relabels the tiles are its
                // own, and `pdb build` knows only its two goals.
                return StoreError::Missing(format!(
                    "{m}; a run without --no-build builds it (`idabench pdb build` builds the \
                     weighted databases of the goals with the blank first or last only)"
                ));
            }
            let cost = if cost.is_unit() {
                String::new()
            } else {
                format!(" --cost {}", cost.name())
            };
            StoreError::Missing(format!(
                "{m}; `idabench pdb build {}{goal}{cost} --pdb-dir {}` builds it",
                h.name(),
                options.dir.display()
            ))
        };
        match store {
            Some(options) => tables
                .iter()
                .map(|t| {
                    store::prepare(&**t, options).map_err(|e| match e {
                        StoreError::Missing(m) => missing(m, options).into(),
                        e => e.into(),
                    })
                })
                .collect(),
            None => Ok(Vec::new()),
        }
    }

    fn tables(
        d: &Arc<Tiles>,
        h: TilesHeuristic,
        cost: CostModel,
    ) -> Vec<Box<dyn store::Spec + Send>> {
        h.partition()
            .and_then(|(partition, _)| d.tables(partition, cost).ok())
            .unwrap_or_default()
    }

    /// `zero`, whose estimate is 0 everywhere, adds nothing to a max: a max left with one part
    /// is that part, searched as it is alone. Any other max runs on the general board whatever
    /// the size: on the fixed-size boards too, it would cost the build the kernels unrolled per
    /// blank cell once more per board. A max of two parts, the common one, carries two values;
    /// of three or four, four.
    fn with_max<V: UseSearch>(
        d: &Arc<Tiles>,
        start: &TileState,
        parts: &[TilesHeuristic],
        visit: V,
    ) -> V::Output {
        let useful: Vec<TilesHeuristic> = parts
            .iter()
            .copied()
            .filter(|&h| h != TilesHeuristic::Zero)
            .collect();
        if let [alone] = useful[..] {
            return Self::with_heuristic(d, start, alone, visit);
        }
        let parts: Vec<TilesPart> = useful.iter().map(|&h| TilesPart::of(d, h)).collect();
        if parts.len() == max::TWO {
            visit.with(&**d, start, &Max::<_, { max::TWO }>::new(&parts))
        } else {
            visit.with(&**d, start, &Max::<_, { max::MAX_PARTS }>::new(&parts))
        }
    }

    /// Of the pattern databases, only the regular and reflected lookups can be parts. Pathmax
    /// (`+bpmx`) is how a whole search runs, and a max searched with it would be a second type
    /// of heuristic per family, with kernels of their own. The other lookups (`+dual`,
    /// `+random`) carry the state's hash and where each tile is and whose cell each is: every
    /// part of every max would carry that much, and copying it per node made every max several
    /// times slower.
    fn max_part(h: TilesHeuristic) -> Result<(), String> {
        match h.partition() {
            Some((_, PdbLookup { bpmx: true, .. })) => Err(
                "is searched with bidirectional pathmax, which a max is not: only the regular and \
                 +reflect lookups of a database can be parts"
                    .to_string(),
            ),
            Some((p, _)) if p.zero => Err(
                "reads zero-aware databases, which a max does not take as a part (yet): use it alone"
                    .to_string(),
            ),
            Some((_, PdbLookup { policy: Policy::Dual | Policy::DualReflect | Policy::Random, .. })) => Err(format!(
                "reads the databases by more lookups than a part can carry: only the regular and +reflect lookups of a database can be parts ({0}, {0}+reflect)",
                h.name().split('+').next().unwrap_or_default()
            )),
            _ => Ok(()),
        }
    }

    fn cost_scale(&self, cost: CostModel) -> u32 {
        cost.scale(self.cells() - 1).unwrap_or(1)
    }

    fn weighs(d: &Arc<Tiles>, h: TilesHeuristic, cost: CostModel) -> Result<(), String> {
        Weighted::new(d, cost)?;
        match h {
            TilesHeuristic::Manhattan
            | TilesHeuristic::LinearConflict
            | TilesHeuristic::Misplaced
            | TilesHeuristic::Zero
            | TilesHeuristic::Pdb555
            | TilesHeuristic::Pdb663 => Ok(()),
            _ if h.partition().is_some_and(|(p, _)| p.zero) => Err(format!(
                "{} has no weighted form: under --cost {} the tiles offer manhattan, \
                 linear-conflict, misplaced, zero, pdb-555 and pdb-663 (zero-aware databases \
                 count moves, not what they cost)",
                h.name(),
                cost.name()
            )),
            TilesHeuristic::WalkingDistance => Err(format!(
                "walking-distance counts moves, not what they cost: it has no form for --cost {}",
                cost.name()
            )),
            _ => Err(format!(
                "{} has no weighted form: under --cost {} the tiles offer manhattan, \
                 linear-conflict, misplaced, zero, pdb-555 and pdb-663 (a reflected, dual or \
                 random lookup would charge a tile's moves at another tile's cost)",
                h.name(),
                cost.name()
            )),
        }
    }

    /// Weighted moves are searched on the general board by the generic kernel: one set of
    /// kernels per weighted heuristic, for every board.
    fn with_weighted<V: UseSearch>(
        d: &Arc<Tiles>,
        start: &TileState,
        h: TilesHeuristic,
        cost: CostModel,
        visit: V,
    ) -> Result<V::Output, String> {
        Tiles::weighs(d, h, cost)?;
        let w = Weighted::new(d, cost)?;
        // One table per heuristic and model, named without an allocation per job.
        let heavy = cost == CostModel::Heavy;
        let name = match h {
            TilesHeuristic::Manhattan if heavy => "manhattan/heavy",
            TilesHeuristic::Manhattan => "manhattan/inverse-heavy",
            TilesHeuristic::LinearConflict if heavy => "linear-conflict/heavy",
            TilesHeuristic::LinearConflict => "linear-conflict/inverse-heavy",
            _ if heavy => "misplaced/heavy",
            _ => "misplaced/inverse-heavy",
        };
        Ok(match h {
            TilesHeuristic::Manhattan => visit.with(
                &w,
                start,
                shared(d, name, |t| {
                    WeightedManhattan::new(&Weighted::new(t, cost).expect("weighed above"))
                }),
            ),
            TilesHeuristic::LinearConflict => visit.with(
                &w,
                start,
                shared(d, name, |t| {
                    WeightedLinearConflict::new(&Weighted::new(t, cost).expect("weighed above"))
                }),
            ),
            TilesHeuristic::Misplaced => visit.with(
                &w,
                start,
                shared(d, name, |t| {
                    WeightedMisplaced::new(&Weighted::new(t, cost).expect("weighed above"))
                }),
            ),
            TilesHeuristic::Zero => visit.with(&w, start, &Zero),
            TilesHeuristic::Pdb555 | TilesHeuristic::Pdb663 => {
                let (partition, _) = h.partition().expect("a database heuristic");
                let dbs = weighted_pdb::weighted_pattern_dbs(d, partition, cost)?;
                visit.with(&w, start, dbs)
            }
            _ => unreachable!("weighs refuses {}", h.name()),
        })
    }

    /// The 3x3, 4x4 and 5x5 boards are searched as fixed-size types (same tree, faster), under
    /// the heuristics whose search the kernel's speed decides. Each fixed board costs the build a
    /// set of kernels unrolled per place for each heuristic, so the general board takes the
    /// rest: blind search (`zero`, which counts nodes); on the 5x5 board, walking distance and
    /// misplaced tiles (linear conflict was 30% slower per node there: docs/speed.md); the dual
    /// and random lookups, whose time goes to their lookups (3% more per node on the general
    /// board, on korf13.csv with pdb-555+dual); and databases on the boards they do not exist
    /// for.
    fn with_heuristic<V: UseSearch>(
        d: &Arc<Tiles>,
        start: &TileState,
        h: TilesHeuristic,
        visit: V,
    ) -> V::Output {
        // For a database heuristic, whether it is searched on a fixed-size board.
        let unrolled = h
            .partition()
            .map(|(_, l)| matches!(l.policy, Policy::Regular | Policy::Reflect) && !l.bpmx);
        let zero = h == TilesHeuristic::Zero;
        let zero_aware = h.partition().is_some_and(|(p, _)| p.zero);
        match (&d.fixed, unrolled) {
            (_, None) if zero => visit.with(&**d, start, &Zero),
            (Some(FixedBoard::B3(b)), None) => with_plain(d, &**b, &b.state(start), h, visit),
            (Some(FixedBoard::B4(b)), None) => with_plain(d, &**b, &b.state(start), h, visit),
            (Some(FixedBoard::B5(b)), None) if h == TilesHeuristic::Manhattan => {
                visit.with(&**b, &b.state(start), shared(d, h.name(), Manhattan::new))
            }
            (Some(FixedBoard::B5(b)), None) if h == TilesHeuristic::LinearConflict => visit.with(
                &**b,
                &b.state(start),
                shared(d, h.name(), LinearConflict::new),
            ),
            (Some(FixedBoard::B4(b)), Some(true)) if zero_aware => {
                visit.with(&**b, &b.state(start), zero_aware_dbs(d, h))
            }
            (Some(FixedBoard::B5(b)), Some(true)) if zero_aware => {
                visit.with(&**b, &b.state(start), zero_aware_dbs(d, h))
            }
            (Some(FixedBoard::B4(b)), Some(true)) => {
                visit.with(&**b, &b.state(start), pattern_dbs(d, h))
            }
            (Some(FixedBoard::B5(b)), Some(true)) => {
                visit.with(&**b, &b.state(start), pattern_dbs(d, h))
            }
            (_, None) => with_plain(d, &**d, start, h, visit),
            (_, Some(_)) => with_databases(d, start, h, visit),
        }
    }
}

/// Heuristic `h`, one without databases and not blind, of the tiles `d` (its tables shared per
/// `d`), on `board`, a type of `d`'s board.
fn with_plain<G: Grid, V: UseSearch>(
    d: &Arc<Tiles>,
    board: &G,
    start: &G::State,
    h: TilesHeuristic,
    visit: V,
) -> V::Output
where
    Manhattan: crate::search::Heuristic<G>,
    LinearConflict: crate::search::Heuristic<G>,
    Misplaced: crate::search::Heuristic<G>,
    WalkingDistance: crate::search::Heuristic<G>,
{
    match h {
        TilesHeuristic::Manhattan => visit.with(board, start, shared(d, h.name(), Manhattan::new)),
        TilesHeuristic::LinearConflict => {
            visit.with(board, start, shared(d, h.name(), LinearConflict::new))
        }
        TilesHeuristic::WalkingDistance => {
            visit.with(board, start, shared(d, h.name(), WalkingDistance::new))
        }
        TilesHeuristic::Misplaced => visit.with(board, start, &Misplaced),
        _ => unreachable!("{} is searched elsewhere (with_heuristic)", h.name()),
    }
}

/// Pattern-database heuristic `h` of the tiles `d` (its tables shared per `d`), under any
/// lookup, on the general board. (The fixed boards take the regular and reflected lookups only,
/// `Tiles::with_heuristic`: a generic function over the board would build the other lookups'
/// kernels for them too, unrolled per place, and never run them.)
fn with_databases<V: UseSearch>(
    d: &Arc<Tiles>,
    start: &TileState,
    h: TilesHeuristic,
    visit: V,
) -> V::Output {
    let (partition, lookup) = h.partition().expect("a pattern-database heuristic");
    match (lookup.policy, lookup.bpmx) {
        (Policy::Regular | Policy::Reflect, false) if partition.zero => {
            visit.with(&**d, start, zero_aware_dbs(d, h))
        }
        (Policy::Regular | Policy::Reflect, false) => visit.with(&**d, start, pattern_dbs(d, h)),
        (_, false) => visit.with(&**d, start, pattern_lookups(d, h)),
        (_, true) => {
            let dbs = shared(d, h.name(), |d| {
                Bpmx(lookups_of(d, partition, lookup.policy))
            });
            visit.with(&**d, start, dbs)
        }
    }
}

/// The databases of `partition` for `d` and the patterns they are of. `Family::prepare` has
/// refused boards and goals without databases.
fn tables_of(d: &Tiles, partition: Partition) -> (Vec<Pattern>, Vec<&'static [u8]>) {
    let patterns = d.patterns(partition).unwrap_or_else(|e| panic!("{e}"));
    let tables = patterns.iter().map(|p| store::table(p)).collect();
    (patterns, tables)
}

fn lookups_of(d: &Tiles, partition: Partition, policy: Policy) -> PatternLookups {
    let (patterns, tables) = tables_of(d, partition);
    PatternLookups::new(&patterns, tables, &d.places.cell, policy)
}

/// Pattern-database heuristic `h`, read regularly or reflected, shared per board and goal.
fn pattern_dbs(d: &Arc<Tiles>, h: TilesHeuristic) -> &'static PatternDbs {
    let (partition, lookup) = h.partition().expect("a pattern-database heuristic");
    assert!(
        !partition.zero,
        "zero-aware databases are read by zero_aware_dbs"
    );
    shared(d, h.name(), |d| {
        let (patterns, tables) = tables_of(d, partition);
        let reflect = lookup.policy == Policy::Reflect;
        PatternDbs::new(&patterns, tables, &d.places.cell, reflect)
    })
}

/// Zero-aware pattern-database heuristic `h`, read regularly or reflected, shared per board and
/// goal.
fn zero_aware_dbs(d: &Arc<Tiles>, h: TilesHeuristic) -> &'static PatternDbs<ZeroIndex> {
    let (partition, lookup) = h.partition().expect("a pattern-database heuristic");
    shared(d, h.name(), |d| {
        let patterns = d.patterns(partition).unwrap_or_else(|e| panic!("{e}"));
        let tables = patterns
            .iter()
            .map(|p| store::table(&ZeroAware::new(p.clone())))
            .collect();
        let reflect = lookup.policy == Policy::Reflect;
        PatternDbs::zero_aware(&patterns, tables, &d.places.cell, reflect)
    })
}

/// Pattern-database heuristic `h` of more lookups (dual, random), without pathmax, shared per
/// board and goal.
fn pattern_lookups(d: &Arc<Tiles>, h: TilesHeuristic) -> &'static PatternLookups {
    let (partition, lookup) = h.partition().expect("a pattern-database heuristic");
    shared(d, h.name(), |d| lookups_of(d, partition, lookup.policy))
}

max_parts! {
    /// A sliding-tile heuristic as a part of a max, on the general board.
    Tiles => TilesPart, TilesPartValue {
        Manhattan(Manhattan),
        LinearConflict(LinearConflict),
        WalkingDistance(WalkingDistance),
        Misplaced(Misplaced),
        Pdbs(PatternDbs),
    }
}

impl TilesPart {
    /// Heuristic `h` as a part, with the tables it has alone (shared with its runs alone).
    fn of(d: &Arc<Tiles>, h: TilesHeuristic) -> TilesPart {
        match h {
            TilesHeuristic::Manhattan => TilesPart::Manhattan(shared(d, h.name(), Manhattan::new)),
            TilesHeuristic::LinearConflict => {
                TilesPart::LinearConflict(shared(d, h.name(), LinearConflict::new))
            }
            TilesHeuristic::WalkingDistance => {
                TilesPart::WalkingDistance(shared(d, h.name(), WalkingDistance::new))
            }
            TilesHeuristic::Misplaced => TilesPart::Misplaced(&Misplaced),
            TilesHeuristic::Zero => unreachable!("zero is left out of a max by with_max"),
            _ => match h.partition().expect("a pattern-database heuristic").1 {
                PdbLookup {
                    policy: Policy::Regular | Policy::Reflect,
                    bpmx: false,
                } => TilesPart::Pdbs(pattern_dbs(d, h)),
                _ => unreachable!("{} is refused as a part by max_part", h.name()),
            },
        }
    }
}

/// `n` tiles (a board of size `size`) as a permutation of 0..n, the error naming `field`. The
/// count is checked first: with one token too many, `parse_permutation` would blame a duplicate
/// or out-of-range tile instead. A wrong count names the size, which may be what is wrong.
fn counted_permutation(
    text: &str,
    n: usize,
    size: &str,
    field: &'static str,
) -> Result<Vec<u8>, FieldError> {
    let found = text.split_whitespace().count();
    if found != n {
        return Err((
            field,
            format!(
                "expected {n} tiles (0 to {}), found {found}: size {size} has {n} cells",
                n - 1
            ),
        ));
    }
    parse_permutation(text, n).map_err(|e| (field, e))
}

/// The cells of a start of `n` tiles (a board of size `size`), checked.
fn start_cells(start: &str, n: usize, size: &str) -> Result<Box<[u8]>, FieldError> {
    let start = start.trim();
    if start.is_empty() {
        return Err((
            "start",
            format!(
                "empty: expected {n} tiles (0 to {}) separated by spaces, row-major, 0 = blank",
                n - 1
            ),
        ));
    }
    let mut cells = [0u8; 256];
    if fast_permutation(start, n, &mut cells).is_err() {
        let tiles = counted_permutation(start, n, size, "start")?;
        cells[..n].copy_from_slice(&tiles);
    }
    Ok(cells[..n].into())
}

/// `counted_permutation` without allocating, for the common case of a good row; a bad one is
/// parsed again for its message.
fn fast_permutation(text: &str, n: usize, cells: &mut [u8; 256]) -> Result<(), ()> {
    let mut seen = [false; 256];
    let mut count = 0;
    for token in text.split_whitespace() {
        let tile: usize = token.parse().map_err(|_| ())?;
        if count == n || tile >= n || seen[tile] {
            return Err(());
        }
        seen[tile] = true;
        cells[count] = tile as u8;
        count += 1;
    }
    if count == n {
        Ok(())
    } else {
        Err(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Heuristic;

    /// Which board `with_heuristic` searches on: the fixed-size one exactly for 3x3, 4x4 and 5x5
    /// with Korf's move order, whatever the goal.
    #[test]
    fn fixed_size_boards_are_chosen_by_size_and_move_order() {
        let board = |w: usize, h: usize, order: &str| {
            let goal: Vec<u8> = (0..(w * h) as u8).rev().collect();
            match Tiles::with_order(w, h, &goal, order).unwrap().fixed {
                Some(FixedBoard::B3(_)) => "3x3",
                Some(FixedBoard::B4(_)) => "4x4",
                Some(FixedBoard::B5(_)) => "5x5",
                None => "general",
            }
        };
        assert_eq!(board(3, 3, "ULRD"), "3x3");
        assert_eq!(board(4, 4, "ULRD"), "4x4");
        assert_eq!(board(5, 5, "ULRD"), "5x5");
        assert_eq!(board(4, 4, "DLRU"), "general");
        for (w, h) in [(2, 2), (3, 4), (4, 3), (5, 4), (6, 6)] {
            assert_eq!(board(w, h, "ULRD"), "general", "{w}x{h}");
        }
    }

    /// `with_heuristic` hands the 4x4 board's own type (a state of 16 bytes) the start asked for.
    #[test]
    fn the_fixed_size_board_gets_the_start() {
        use crate::search::{Heuristic, Limits, Outcome, Prune, Step, Variant};
        struct Solve;
        impl UseSearch for Solve {
            type Output = (usize, String);
            fn with<D: Domain, H: Heuristic<D>>(
                self,
                d: &D,
                start: &D::State,
                h: &H,
            ) -> (usize, String) {
                let v = Variant {
                    step: Step::Next,
                    prune: Prune::Reverse,
                };
                let path = match d.search(h, start, v, Limits::default()).outcome {
                    Outcome::Solved(p) => d.path_string(start, &p),
                    _ => panic!("not solved"),
                };
                (std::mem::size_of::<D::State>(), path)
            }
        }
        let (d, start) =
            Tiles::instance(Some("4x4"), "1 2 3 4 5 6 7 0 9 10 11 8 13 14 15 12", None).unwrap();
        let answer = Tiles::with_heuristic(&d, &d.unpack(&start), TilesHeuristic::Manhattan, Solve);
        assert_eq!(answer, (16, "DD".to_string()));
    }

    /// Along random walks on the general 3x3 and 4x4 boards, a max's value, carried from node to
    /// node, gives each part's estimate from scratch and the largest of them: for two parts, for
    /// three in four slots, and for pdb-555's two lookups (the databases built in memory).
    #[test]
    fn a_max_is_its_parts_largest_along_random_walks() {
        use crate::domains::max::{Max, Part};
        use crate::util::rng::Rng;
        use TilesHeuristic as T;
        fn walk<const N: usize>(d: &Arc<Tiles>, parts: &[TilesHeuristic], seed: u64) {
            let of: Vec<TilesPart> = parts.iter().map(|&h| TilesPart::of(d, h)).collect();
            let max = Max::<_, N>::new(&of);
            let mut rng = Rng::new(seed);
            let mut s = d.goal().clone();
            let mut v = max.init(&**d, &s);
            let mut raised = [0u32; N];
            for step in 0..3000 {
                let moves = d.moves(&s);
                let m = moves[rng.below(moves.len() as u64) as usize];
                v = max.update(&**d, &s, m, v);
                d.apply(&mut s, m);
                let alone: Vec<u32> = of.iter().map(|p| p.estimate(&p.init(&**d, &s))).collect();
                for (i, p) in of.iter().enumerate() {
                    assert_eq!(
                        p.estimate(&v[i]),
                        alone[i],
                        "{parts:?} part {i}, move {step}"
                    );
                }
                let largest = *alone.iter().max().unwrap();
                assert_eq!(max.estimate(v), largest, "{parts:?}, move {step}");
                for (r, &a) in raised.iter_mut().zip(&alone) {
                    *r += (a == largest) as u32;
                }
            }
            // Not one part the largest all along: else the walk says little of the max.
            let largest_somewhere = raised.iter().filter(|&&r| r > 0).count();
            assert!(largest_somewhere >= 2, "{parts:?}: the largest {raised:?}");
        }
        for size in ["3x3", "4x4"] {
            let n = if size == "3x3" { 9 } else { 16 };
            let goal: Vec<String> = (0..n).map(|t: u32| t.to_string()).collect();
            let goal = goal.join(" ");
            let (d, _) = Tiles::instance(Some(size), &goal, Some(&goal)).unwrap();
            walk::<2>(&d, &[T::Misplaced, T::WalkingDistance], 1);
            walk::<2>(&d, &[T::WalkingDistance, T::Manhattan], 2);
            walk::<4>(
                &d,
                &[T::Misplaced, T::WalkingDistance, T::LinearConflict],
                3,
            );
            walk::<4>(
                &d,
                &[
                    T::Misplaced,
                    T::WalkingDistance,
                    T::Manhattan,
                    T::LinearConflict,
                ],
                4,
            );
            if size == "4x4" {
                walk::<2>(&d, &[T::Pdb555, T::Pdb555Reflect], 5);
                walk::<4>(&d, &[T::Pdb555Reflect, T::WalkingDistance, T::Pdb555], 6);
            }
        }
    }

    /// Manhattan plus a constant: never 0, though it claims to be 0 exactly at the goal (the
    /// defect of a table whose goal entry is not 0), so the search never recognises the goal.
    struct NeverZero(heuristics::Manhattan, u32);

    impl<G: Grid> Heuristic<G> for NeverZero {
        type Value = u32;
        const GOAL_AWARE: bool = true;

        fn init(&self, d: &G, s: &G::State) -> u32 {
            self.0.init(d, s) + self.1
        }

        fn update(&self, d: &G, s: &G::State, m: G::Move, v: u32) -> u32 {
            self.0.update(d, s, m, v)
        }

        fn estimate(&self, v: u32) -> u32 {
            v
        }
    }

    /// A search that cannot recognise the goal stops once its bound passes the board's proven
    /// diameter (31 for every 8-puzzle goal, 80 for a 15-puzzle goal with the blank in a
    /// corner), as `PastDiameter`, instead of iterating for ever; other boards and goals have no
    /// proven diameter.
    #[test]
    fn a_search_that_never_finds_the_goal_stops_past_the_diameter() {
        use crate::search::{ida_star, Limits, Outcome, Prune, Step, Variant};
        fn stepping<G: Grid>(
            d: &G,
            start: &G::State,
            offset: u32,
            step: Step,
        ) -> (Outcome<G::Move>, u32) {
            let h = NeverZero(heuristics::Manhattan::new(d), offset);
            let v = Variant {
                step,
                prune: Prune::Reverse,
            };
            // A node limit far above what the searches need: without the diameter they would
            // end at it (a failure here), not run for ever.
            let limits = Limits {
                max_nodes: Some(100_000_000),
                ..Limits::default()
            };
            let r = ida_star(d, &h, start, v, limits);
            (r.outcome, r.stats.final_bound)
        }
        fn stops_at<G: Grid>(d: &G, start: &G::State, offset: u32) -> (Outcome<G::Move>, u32) {
            stepping(d, start, offset, Step::One)
        }
        let one_move = |size: &str, start: &str| {
            let (d, start) = Tiles::instance(Some(size), start, None).unwrap();
            let start = d.unpack(&start);
            (d, start)
        };
        let (d, start) = one_move("3x3", "1 2 3 4 5 6 7 0 8");
        assert_eq!(stops_at(&*d, &start, 1), (Outcome::PastDiameter(31), 31));
        // Step 2 with the solutions' parity known never overshoots: past the diameter is broken
        // there too (where the parity is unknown it stops at the diameter instead: pancake).
        assert_eq!(
            stepping(&*d, &start, 1, Step::Two),
            (Outcome::PastDiameter(31), 31)
        );
        let fixed = Tiles3x3::new(&d);
        let start = fixed.state(&start);
        assert_eq!(stops_at(&fixed, &start, 1), (Outcome::PastDiameter(31), 31));
        // The offset keeps the 15-puzzle's iterations below 80 small.
        let (d, start) = one_move("4x4", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15");
        let fixed = Tiles4x4::new(&d);
        let fixed_start = fixed.state(&start);
        assert_eq!(
            stops_at(&fixed, &fixed_start, 60),
            (Outcome::PastDiameter(80), 80)
        );
        // An estimate past the diameter at the start: no iteration at all.
        assert_eq!(stops_at(&*d, &start, 90), (Outcome::PastDiameter(80), 0));

        let diameter = |w: usize, h: usize, blank: usize| {
            let mut goal: Vec<u8> = (1..(w * h) as u8).collect();
            goal.insert(blank, 0);
            Tiles::new(w, h, &goal).unwrap().diameter()
        };
        for blank in 0..9 {
            assert_eq!(diameter(3, 3, blank), Some(31), "3x3, blank at {blank}");
        }
        for blank in [0, 3, 12, 15] {
            assert_eq!(diameter(4, 4, blank), Some(80), "4x4, blank at {blank}");
        }
        for blank in [1, 5, 6, 14] {
            assert_eq!(diameter(4, 4, blank), None, "4x4, blank at {blank}");
        }
        assert_eq!(diameter(5, 5, 24), None);
        assert_eq!(diameter(2, 3, 5), None);
    }
}
