//! The sliding-tile heuristics: misplaced tiles, Manhattan distance and linear conflict, each
//! updated incrementally from the parent's value along a move.

use super::{Grid, MAX_SIDE};
use crate::search::Heuristic;

/// Tiles not on their goal cell, the blank excluded.
pub struct Misplaced;

impl<G: Grid> Heuristic<G> for Misplaced {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &G, s: &G::State) -> u32 {
        (0..d.board().cells())
            .filter(|&cell| {
                let t = G::tile(s, cell);
                t != 0 && d.places().cell[t as usize] as usize != cell
            })
            .count() as u32
    }

    #[inline(always)]
    fn update(&self, d: &G, s: &G::State, m: G::Move, v: u32) -> u32 {
        let (b, to, t) = G::slide(s, m);
        // The tile leaves `to` (misplaced if it belonged there) and lands on `b`.
        let home = d.places().cell[t as usize] as usize;
        v + (home == to) as u32 - (home == b) as u32
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

/// Sum of the tiles' Manhattan distances to their goal cells: two table reads per move.
pub struct Manhattan {
    /// dist[tile][cell] = the distance of `tile` at `cell` from its goal cell (0 for the blank).
    dist: Box<[[u8; 256]; 256]>,
    /// The board the table was built for: width, height and goal cell of each tile.
    built_for: (usize, usize, [u8; 256]),
}

impl Manhattan {
    /// The distance table of `d`'s board and goal.
    pub fn new<G: Grid>(d: &G) -> Manhattan {
        let mut dist: Box<[[u8; 256]; 256]> = vec![[0u8; 256]; 256]
            .into_boxed_slice()
            .try_into()
            .expect("256 rows");
        let n = d.board().cells();
        for (t, row) in dist.iter_mut().enumerate().take(n).skip(1) {
            let goal = d.places().cell[t] as usize;
            for (cell, v) in row.iter_mut().enumerate().take(n) {
                *v = d.board().distance(goal, cell) as u8;
            }
        }
        Manhattan {
            dist,
            built_for: (d.width(), d.height(), d.places().cell),
        }
    }
}

impl<G: Grid> Heuristic<G> for Manhattan {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    /// Checks, once per search, that the table is this board's: another's would give estimates
    /// that are wrong and not admissible, silently.
    fn init(&self, d: &G, s: &G::State) -> u32 {
        let (width, height, goal) = &self.built_for;
        assert!(
            (*width, *height) == (d.width(), d.height()) && *goal == d.places().cell,
            "a Manhattan table used on a board it was not built for"
        );
        (0..d.board().cells())
            .map(|cell| self.dist[G::tile(s, cell) as usize][cell] as u32)
            .sum()
    }

    #[inline(always)]
    fn update(&self, _: &G, s: &G::State, m: G::Move, v: u32) -> u32 {
        let (b, to, t) = G::slide(s, m);
        let row = &self.dist[t as usize];
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
pub struct LinearConflict {
    manhattan: Manhattan,
    /// Penalties of rows (length width) and columns (length height).
    rows: LineTable,
    cols: LineTable,
    /// `row_digit[tile][cell]`: what `tile` in `cell` adds to the code of the cell's row (its key
    /// times the place value of the cell's column), so that a line's code is one read
    /// per cell. Likewise `col_digit` for columns. One row per tile; empty for lines too long to
    /// tabulate.
    row_digit: Vec<[u32; 256]>,
    col_digit: Vec<[u32; 256]>,
}

impl LinearConflict {
    pub fn new<G: Grid>(d: &G) -> LinearConflict {
        let (rows, cols) = (LineTable::new(d.width()), LineTable::new(d.height()));
        let (board, places) = (d.board(), d.places());
        let digits = |tabulated: bool| vec![[0u32; 256]; if tabulated { board.cells() } else { 0 }];
        let (mut row_digit, mut col_digit) = (digits(rows.tabulated()), digits(cols.tabulated()));
        for t in 1..board.cells() {
            for cell in 0..board.cells() {
                let (r, c) = (board.row[cell], board.col[cell]);
                if rows.tabulated() && places.row[t] == r {
                    row_digit[t][cell] = (places.col[t] as u32 + 1) * rows.pow[c as usize] as u32;
                }
                if cols.tabulated() && places.col[t] == c {
                    col_digit[t][cell] = (places.row[t] as u32 + 1) * cols.pow[r as usize] as u32;
                }
            }
        }
        LinearConflict {
            manhattan: Manhattan::new(d),
            rows,
            cols,
            row_digit,
            col_digit,
        }
    }
}

/// The tabulated code of the line made of `cells` in `s`: the sum of `digit[tile][cell]` (see
/// `LinearConflict::row_digit`).
#[inline(always)]
fn line_code<G: Grid>(
    digit: &[[u32; 256]],
    s: &G::State,
    cells: impl Iterator<Item = usize>,
) -> usize {
    // `& 255` tells the compiler the cell is within the table's row: no check to make.
    cells
        .map(|cell| digit[G::tile(s, cell) as usize][cell & 255] as usize)
        .sum()
}

/// The penalty of one line from its tiles: `line[t]` is the goal line of tile `t`, `along[t]` its
/// goal place along that line.
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

/// The penalty of row `r`, with `at(cell)` giving the tile in a cell.
fn row_penalty<G: Grid>(d: &G, at: impl Fn(usize) -> u8, r: usize) -> u32 {
    let w = d.width();
    line_penalty(
        (r * w..(r + 1) * w).map(at),
        &d.places().row,
        &d.places().col,
        r as u8,
    )
}

/// The penalty of column `c`, with `at(cell)` giving the tile in a cell.
fn col_penalty<G: Grid>(d: &G, at: impl Fn(usize) -> u8, c: usize) -> u32 {
    let w = d.width();
    line_penalty(
        (0..d.height()).map(|r| at(r * w + c)),
        &d.places().col,
        &d.places().row,
        c as u8,
    )
}

impl<G: Grid> Heuristic<G> for LinearConflict {
    /// (Manhattan, conflict penalty)
    type Value = (u32, u32);
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &G, s: &G::State) -> (u32, u32) {
        let at = |cell: usize| G::tile(s, cell);
        let conflicts = (0..d.height()).map(|r| row_penalty(d, at, r)).sum::<u32>()
            + (0..d.width()).map(|c| col_penalty(d, at, c)).sum::<u32>();
        (self.manhattan.init(d, s), conflicts)
    }

    #[inline]
    fn update(&self, d: &G, s: &G::State, m: G::Move, (md, lc): (u32, u32)) -> (u32, u32) {
        let (b, to, t) = G::slide(s, m);
        let md = self.manhattan.update(d, s, m, md);
        let (row, col, places) = (&d.board().row, &d.board().col, d.places());
        let now = |cell: usize| G::tile(s, cell);
        let after = |cell: usize| {
            if cell == b {
                t
            } else if cell == to {
                0
            } else {
                G::tile(s, cell)
            }
        };
        // A vertical move takes the tile from one row to another: only the penalty of its goal
        // row can change, and only if that is one of the two; it enters that row when the blank
        // leaves it. Likewise columns for a horizontal move. Either way its place along the line
        // is the blank's.
        let (old, new) = if col[b] == col[to] {
            let r = places.row[t as usize];
            if r != row[b] && r != row[to] {
                return (md, lc);
            }
            if self.rows.tabulated() {
                let key = places.col[t as usize] as usize + 1;
                let (w, line) = (d.width(), r as usize);
                let code = line_code::<G>(&self.row_digit, s, line * w..(line + 1) * w);
                self.rows.change(code, key, r == row[b], col[b] as usize)
            } else {
                (
                    row_penalty(d, now, r as usize),
                    row_penalty(d, after, r as usize),
                )
            }
        } else {
            let c = places.col[t as usize];
            if c != col[b] && c != col[to] {
                return (md, lc);
            }
            if self.cols.tabulated() {
                let key = places.row[t as usize] as usize + 1;
                let (w, line) = (d.width(), c as usize);
                let cells = (0..d.height()).map(|i| i * w + line);
                let code = line_code::<G>(&self.col_digit, s, cells);
                self.cols.change(code, key, c == col[b], row[b] as usize)
            } else {
                (
                    col_penalty(d, now, c as usize),
                    col_penalty(d, after, c as usize),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::tiles::Tiles;
    use crate::search::Heuristic;

    #[test]
    #[should_panic(expected = "not built for")]
    fn a_table_refuses_another_board() {
        let a = Tiles::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        let b = Tiles::new(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        Manhattan::new(&a).init(&b, b.goal());
    }
}
