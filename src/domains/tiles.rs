//! Sliding-tile puzzles of any width x height (sides 2 to 16, at most 255 cells) with any goal,
//! and their heuristics.
//!
//! A move is the cell the blank moves to; from each cell the blank tries up, left, right, down, in
//! that order (Korf's). Paths are written as the blank's motion: `U`, `D`, `L`, `R`.
//! Every move swaps the blank with a tile and moves the blank one cell, so the parity of the
//! permutation plus the blank's distance to its goal cell never changes: a start is solvable exactly
//! when the two parities agree, and every solution's length has the parity of that distance.

use crate::search::{Domain, Heuristic};
use crate::text::shorten;

pub const MIN_SIDE: usize = 2;
pub const MAX_SIDE: usize = 16;
/// Cell 255 is kept free as the engine's "no move" (so 16x16 is out).
pub const MAX_CELLS: usize = 255;

/// The blank's directions in move order: up, left, right, down.
const LETTERS: [char; 4] = ['U', 'L', 'R', 'D'];
const DR: [isize; 4] = [-1, 0, 0, 1];
const DC: [isize; 4] = [0, -1, 1, 0];

/// Cells hold tile numbers, 0 for the blank, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileState {
    cells: [u8; 256],
    blank: u8,
}

/// The puzzle's geometry and goal, with the tables the search reads.
pub struct Tiles {
    width: usize,
    height: usize,
    goal: TileState,
    /// goal_pos[tile] = its goal cell.
    goal_pos: [u8; 256],
    /// The cells the blank can move to from each cell, in move order.
    legal: [[u8; 4]; 256],
    legal_len: [u8; 256],
    /// Row and column of each cell, and the goal row and column of each tile.
    row: [u8; 256],
    col: [u8; 256],
    goal_row: [u8; 256],
    goal_col: [u8; 256],
    /// Linear-conflict penalties of rows (length width) and columns (length height).
    row_lines: LineTable,
    col_lines: LineTable,
    /// dist[tile][cell] = Manhattan distance of `tile` at `cell` from its goal cell.
    dist: Box<[[u8; 256]; 256]>,
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
        let dirs: Vec<usize> = order
            .chars()
            .filter_map(|l| LETTERS.iter().position(|&x| x == l))
            .collect();
        let mut sorted = dirs.clone();
        sorted.sort_unstable();
        if sorted != [0, 1, 2, 3] || order.chars().count() != 4 {
            return Err(format!(
                "move order '{order}': expected the letters U, L, R, D, each once"
            ));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&width)
            || !(MIN_SIDE..=MAX_SIDE).contains(&height)
            || width * height > MAX_CELLS
        {
            return Err(format!(
                "invalid size {width}x{height}: each side must be {MIN_SIDE} to {MAX_SIDE}, at most {MAX_CELLS} cells"
            ));
        }
        let n = width * height;
        check_permutation(goal, n)?;
        let goal = state_of(goal);
        let mut goal_pos = [0u8; 256];
        for (cell, &t) in goal.cells[..n].iter().enumerate() {
            goal_pos[t as usize] = cell as u8;
        }
        let mut legal = [[0u8; 4]; 256];
        let mut legal_len = [0u8; 256];
        for cell in 0..n {
            let (r, c) = ((cell / width) as isize, (cell % width) as isize);
            for &m in &dirs {
                let (nr, nc) = (r + DR[m], c + DC[m]);
                if nr >= 0 && nc >= 0 && (nr as usize) < height && (nc as usize) < width {
                    legal[cell][legal_len[cell] as usize] =
                        (nr as usize * width + nc as usize) as u8;
                    legal_len[cell] += 1;
                }
            }
        }
        let mut dist: Box<[[u8; 256]; 256]> = vec![[0u8; 256]; 256]
            .into_boxed_slice()
            .try_into()
            .expect("256 rows");
        for t in 1..n {
            let g = goal_pos[t] as usize;
            for cell in 0..n {
                dist[t][cell] =
                    ((g / width).abs_diff(cell / width) + (g % width).abs_diff(cell % width)) as u8;
            }
        }
        let (mut row, mut col) = ([0u8; 256], [0u8; 256]);
        let (mut goal_row, mut goal_col) = ([0u8; 256], [0u8; 256]);
        for cell in 0..n {
            row[cell] = (cell / width) as u8;
            col[cell] = (cell % width) as u8;
            let t = goal.cells[cell] as usize;
            goal_row[t] = row[cell];
            goal_col[t] = col[cell];
        }
        Ok(Tiles {
            width,
            height,
            goal,
            goal_pos,
            row,
            col,
            goal_row,
            goal_col,
            row_lines: LineTable::new(width),
            col_lines: LineTable::new(height),
            legal,
            legal_len,
            dist,
        })
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    pub fn goal(&self) -> &TileState {
        &self.goal
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
        let perm: Vec<u8> = s.cells[..n]
            .iter()
            .map(|&t| self.goal_pos[t as usize])
            .collect();
        permutation_parity(&perm) == self.blank_distance(s) % 2
    }

    /// The blank's Manhattan distance to its goal cell.
    pub fn blank_distance(&self, s: &TileState) -> u32 {
        let (b, g) = (s.blank as usize, self.goal_pos[0] as usize);
        ((b / self.width).abs_diff(g / self.width) + (b % self.width).abs_diff(g % self.width))
            as u32
    }

    /// The letter of the blank's motion from cell `from` to the neighbouring cell `to`.
    pub fn letter(&self, from: u8, to: u8) -> char {
        let (from, to) = (from as usize, to as usize);
        let dir = if to + self.width == from {
            0
        } else if to + 1 == from {
            1
        } else if to == from + 1 {
            2
        } else {
            3
        };
        LETTERS[dir]
    }

    /// The move from `s` written by a letter (`U`, `L`, `R`, `D`), if it is legal there.
    pub fn move_of(&self, s: &TileState, letter: char) -> Option<u8> {
        self.moves(s)
            .iter()
            .copied()
            .find(|&to| self.letter(s.blank, to) == letter)
    }

    /// The penalty of one line from its tiles: `line[t]` is the goal line of tile `t`, `along[t]`
    /// its goal place along that line.
    #[inline]
    fn line_penalty(
        tiles: impl Iterator<Item = u8>,
        line: &[u8; 256],
        along: &[u8; 256],
        this: u8,
    ) -> u32 {
        keys_penalty(tiles.map(|t| {
            if t != 0 && line[t as usize] == this {
                along[t as usize] + 1
            } else {
                0
            }
        }))
    }

    /// The tabulated code of row `r`: its keys (goal column + 1 for tiles whose goal row is `r`,
    /// else 0) as digits.
    #[inline(always)]
    fn row_code(&self, s: &TileState, r: usize) -> usize {
        let w = self.width;
        (0..w)
            .map(|i| {
                let t = s.cells[r * w + i] as usize;
                let key = if self.goal_row[t] as usize == r && t != 0 {
                    self.goal_col[t] as usize + 1
                } else {
                    0
                };
                key * self.row_lines.pow[i]
            })
            .sum()
    }

    /// The tabulated code of column `c` (see `row_code`).
    #[inline(always)]
    fn col_code(&self, s: &TileState, c: usize) -> usize {
        let w = self.width;
        (0..self.height)
            .map(|i| {
                let t = s.cells[i * w + c] as usize;
                let key = if self.goal_col[t] as usize == c && t != 0 {
                    self.goal_row[t] as usize + 1
                } else {
                    0
                };
                key * self.col_lines.pow[i]
            })
            .sum()
    }

    /// The penalty of row `r`, with `at(cell)` giving the tile in a cell.
    fn row_penalty(&self, at: impl Fn(usize) -> u8, r: usize) -> u32 {
        let w = self.width;
        Tiles::line_penalty(
            (r * w..(r + 1) * w).map(at),
            &self.goal_row,
            &self.goal_col,
            r as u8,
        )
    }

    /// The penalty of column `c`, with `at(cell)` giving the tile in a cell.
    fn col_penalty(&self, at: impl Fn(usize) -> u8, c: usize) -> u32 {
        let w = self.width;
        Tiles::line_penalty(
            (0..self.height).map(|r| at(r * w + c)),
            &self.goal_col,
            &self.goal_row,
            c as u8,
        )
    }

    /// The full linear-conflict penalty of a state (every row and column).
    fn conflicts(&self, s: &TileState) -> u32 {
        let at = |cell: usize| s.cells[cell];
        (0..self.height)
            .map(|r| self.row_penalty(at, r))
            .sum::<u32>()
            + (0..self.width)
                .map(|c| self.col_penalty(at, c))
                .sum::<u32>()
    }

    fn manhattan_full(&self, s: &TileState) -> u32 {
        s.cells[..self.cells()]
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.dist[t as usize][cell] as u32)
            .sum()
    }

    fn misplaced_full(&self, s: &TileState) -> u32 {
        s.cells[..self.cells()]
            .iter()
            .zip(&self.goal.cells[..self.cells()])
            .filter(|&(&t, &g)| t != 0 && t != g)
            .count() as u32
    }

    /// For move `m` from `s`: the cell the blank leaves (the tile's new cell), the cell it
    /// reaches (the tile's old cell), and the tile.
    #[inline(always)]
    fn moved(&self, s: &TileState, m: u8) -> (usize, usize, u8) {
        (s.blank as usize, m as usize, s.cells[m as usize])
    }
}

/// Extra moves (2 per tile) forced by tiles that sit in their goal line in the wrong order:
/// 2 x (tiles in their goal line - the longest run already in goal order). `keys` are the goal
/// places along the line + 1, 0 for tiles of other lines and the blank.
fn keys_penalty(keys: impl Iterator<Item = u8>) -> u32 {
    // Patience sorting, for the longest increasing run.
    let mut tails = [0u8; MAX_SIDE];
    let (mut run, mut in_line) = (0usize, 0u32);
    for key in keys.filter(|&k| k != 0) {
        in_line += 1;
        let at = tails[..run].partition_point(|&x| x < key);
        tails[at] = key;
        if at == run {
            run += 1;
        }
    }
    2 * (in_line - run as u32)
}

/// Lines up to this long have their penalties tabulated ((len + 1)^len entries: 117,649 for 6).
const TABULATED: usize = 6;

/// The penalty of every possible line of one length, indexed by the line's keys read as digits
/// in base len + 1; empty for lines too long to tabulate.
struct LineTable {
    pow: [usize; MAX_SIDE],
    penalty: Vec<u8>,
}

impl LineTable {
    fn new(len: usize) -> LineTable {
        let mut pow = [0usize; MAX_SIDE];
        if len > TABULATED {
            return LineTable {
                pow,
                penalty: Vec::new(),
            };
        }
        let base = len + 1;
        for (i, p) in pow.iter_mut().take(len).enumerate() {
            *p = base.pow(i as u32);
        }
        let penalty = (0..base.pow(len as u32))
            .map(|code| keys_penalty((0..len).map(|i| (code / pow[i] % base) as u8)) as u8)
            .collect();
        LineTable { pow, penalty }
    }

    fn tabulated(&self) -> bool {
        !self.penalty.is_empty()
    }

    /// The penalties of a line with `code` before and after a tile with `key` enters it (or
    /// leaves it) at `place`.
    #[inline(always)]
    fn change(&self, code: usize, key: usize, enters: bool, place: usize) -> (u32, u32) {
        let shift = key * self.pow[place];
        let after = if enters { code + shift } else { code - shift };
        (self.penalty[code] as u32, self.penalty[after] as u32)
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
    let mut seen = vec![false; perm.len()];
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

impl Domain for Tiles {
    type State = TileState;
    type Move = u8;
    /// Boards have at most 255 cells, so cell 255 is never a move.
    const NO_MOVE: u8 = u8::MAX;

    #[inline(always)]
    fn moves<'a>(&'a self, s: &TileState) -> &'a [u8] {
        let b = s.blank as usize;
        &self.legal[b][..self.legal_len[b] as usize]
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

/// Tiles not on their goal cell, the blank excluded.
pub struct Misplaced;

impl Heuristic<Tiles> for Misplaced {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Tiles, s: &TileState) -> u32 {
        d.misplaced_full(s)
    }

    #[inline(always)]
    fn update(&self, d: &Tiles, s: &TileState, m: u8, v: u32) -> u32 {
        let (b, to, t) = d.moved(s, m);
        // The tile leaves `to` (misplaced if it belonged there) and lands on `b`.
        v + (d.goal.cells[to] == t) as u32 - (d.goal.cells[b] == t) as u32
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

/// Sum of the tiles' Manhattan distances to their goal cells: two table reads per move.
pub struct Manhattan;

impl Heuristic<Tiles> for Manhattan {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Tiles, s: &TileState) -> u32 {
        d.manhattan_full(s)
    }

    #[inline(always)]
    fn update(&self, d: &Tiles, s: &TileState, m: u8, v: u32) -> u32 {
        let (b, to, t) = d.moved(s, m);
        let row = &d.dist[t as usize];
        v + row[b] as u32 - row[to] as u32
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

/// Manhattan plus 2 for each tile that must leave its goal row or column to let others pass
/// (per line: tiles in their goal line minus the longest subsequence already in goal order).
/// A move changes the penalty of at most one line, the moved tile's goal line; it is recomputed.
pub struct LinearConflict;

impl Heuristic<Tiles> for LinearConflict {
    /// (Manhattan, conflict penalty)
    type Value = (u32, u32);
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Tiles, s: &TileState) -> (u32, u32) {
        (d.manhattan_full(s), d.conflicts(s))
    }

    #[inline]
    fn update(&self, d: &Tiles, s: &TileState, m: u8, (md, lc): (u32, u32)) -> (u32, u32) {
        let (b, to, t) = d.moved(s, m);
        let md = Manhattan.update(d, s, m, md);
        let now = |cell: usize| s.cells[cell];
        let after = |cell: usize| {
            if cell == b {
                t
            } else if cell == to {
                0
            } else {
                s.cells[cell]
            }
        };
        // A vertical move takes the tile from one row to another: only the penalty of its goal
        // row can change, and only if that is one of the two; it enters that row when the blank
        // leaves it. Likewise columns for a horizontal move. Either way its place along the line
        // is the blank's.
        let (old, new) = if d.col[b] == d.col[to] {
            let r = d.goal_row[t as usize];
            if r != d.row[b] && r != d.row[to] {
                return (md, lc);
            }
            if d.row_lines.tabulated() {
                let key = d.goal_col[t as usize] as usize + 1;
                let code = d.row_code(s, r as usize);
                d.row_lines
                    .change(code, key, r == d.row[b], d.col[b] as usize)
            } else {
                (
                    d.row_penalty(now, r as usize),
                    d.row_penalty(after, r as usize),
                )
            }
        } else {
            let c = d.goal_col[t as usize];
            if c != d.col[b] && c != d.col[to] {
                return (md, lc);
            }
            if d.col_lines.tabulated() {
                let key = d.goal_row[t as usize] as usize + 1;
                let code = d.col_code(s, c as usize);
                d.col_lines
                    .change(code, key, c == d.col[b], d.row[b] as usize)
            } else {
                (
                    d.col_penalty(now, c as usize),
                    d.col_penalty(after, c as usize),
                )
            }
        };
        (md, lc + new - old)
    }

    #[inline(always)]
    fn estimate(&self, (md, lc): (u32, u32)) -> u32 {
        md + lc
    }
}
