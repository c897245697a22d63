//! Walking distance (Takahashi): vertical and horizontal moves counted apart, each exactly for a
//! relaxation that remembers only which row (for vertical moves) or which column (horizontal) each
//! tile is in, updated by table reads along a move.
//!
//! The row relaxation: tiles are told apart only by their goal row (their class), and a state is,
//! for each row, how many tiles of each class it holds (the blank's row is the one holding a tile
//! fewer). A vertical move takes one tile from a row next to the blank's into the blank's row. A
//! breadth-first search from the goal's abstraction over every such matrix gives the fewest
//! vertical moves that can bring each one to the goal; likewise columns and horizontal moves.
//! `h` is the sum. It is admissible (a path in the puzzle makes as many vertical moves as its
//! image in the row relaxation, which has at least the tabulated number, and likewise for
//! horizontal ones), consistent (a move changes one of the two matrices by one relaxed move, and
//! the other not at all, so `h` changes by at most 1), and at least Manhattan (each relaxed move
//! takes one tile one row, so a relaxed path is at least the tiles' summed row distances).
//!
//! A table depends only on its number of lines, their length and the line of the goal's blank;
//! mirroring the lines (first to last) turns a blank in line `i` into one in line `lines - 1 - i`,
//! so one table serves both, and tables are shared by every board and goal that needs them. The
//! 5x5 board's is the large one, 65,650,495 entries built in seconds; its row and column tables
//! for both goals used in practice, blank first and blank last, are all that one table.
//!
//! A state of a table is written as one code per line (its counts of each class, numbered), a byte
//! each in a word, and ranked densely with three reads of small tables (see `Table::index`). A
//! move changes two codes of one table (`take`, `give`) and reads its distance once.

use super::Grid;
use crate::search::Heuristic;
use std::sync::Mutex;

/// The longest side a board may have. Tables of up to 5 lines of up to 5 cells have at most
/// 65,650,495 states (5x5's); 6 lines can have billions (98,490,450,906 for 5x6,
/// 2,096,380,208,796 for 6x6). Some longer boards would still do (2x6, 3x6), but one rule is
/// simpler to state and to test.
pub const MAX_SIDE: usize = 5;

/// No code: in `take`, what a line with no tile of the class gives up; elsewhere, entries that
/// no reachable state reads.
const NONE: u8 = u8::MAX;

/// A table's state in a word: the code of line `i` in bits `8i..8i + 8` (0 past the last line).
/// In a node's value the top byte holds its distance.
type Codes = u64;
const CODES: u64 = (1 << (8 * MAX_SIDE)) - 1;
const DIST: u32 = 56;

/// Refuses a board too large for walking distance's tables.
pub fn check_size(width: usize, height: usize) -> Result<(), String> {
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(format!(
            "heuristic 'walking-distance' takes boards of at most {MAX_SIDE}x{MAX_SIDE} (each side \
             up to {MAX_SIDE}), not {width}x{height}"
        ));
    }
    Ok(())
}

/// Walking distance on one board and goal: the row and column tables (shared, see
/// `Table::shared`) and where each cell and tile falls in them.
pub struct WalkingDistance {
    rows: Side,
    cols: Side,
    /// The board the mappings were made for: width, height and goal cell of each tile.
    built_for: (usize, usize, [u8; 256]),
}

/// One direction: its table, and where each cell's line sits in a state's word (8 x the line,
/// the board's row or column, mirrored when the table is, see `Side::new`) and each tile's
/// class.
struct Side {
    table: &'static Table,
    shift: [u8; 256],
    class: [u8; 256],
}

/// What a node carries: the state of both tables, each with its distance in the top byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkValue {
    rows: Codes,
    cols: Codes,
}

impl WalkingDistance {
    /// The mappings of `d`'s board and goal, with its tables (built if no board built them yet).
    ///
    /// Panics on a board with a side over `MAX_SIDE` (see `check_size`).
    pub fn new<G: Grid>(d: &G) -> WalkingDistance {
        let (w, h) = (d.width(), d.height());
        if let Err(e) = check_size(w, h) {
            panic!("{e}");
        }
        let (board, places) = (d.board(), d.places());
        let blank = places.cell[0] as usize;
        let n = board.cells();
        WalkingDistance {
            rows: Side::new(h, w, &board.row, board.row[blank], &places.cell, n),
            cols: Side::new(w, h, &board.col, board.col[blank], &places.cell, n),
            built_for: (w, h, places.cell),
        }
    }
}

impl Side {
    /// `lines` lines of `len` cells; `of_cell` is each cell's line, `goal_cell` each tile's goal
    /// cell, `blank_line` the line of the goal's blank.
    fn new(
        lines: usize,
        len: usize,
        of_cell: &[u8; 256],
        blank_line: u8,
        goal_cell: &[u8; 256],
        cells: usize,
    ) -> Side {
        let last = lines as u8 - 1;
        // Mirrored so that the blank's goal line is in the first half: one table for both.
        let mirror = blank_line > last - blank_line;
        let line_of = |l: u8| if mirror { last - l } else { l };
        let mut shift = [0u8; 256];
        let mut class = [0u8; 256];
        for cell in 0..cells {
            shift[cell] = 8 * line_of(of_cell[cell]);
        }
        for t in 1..cells {
            class[t] = line_of(of_cell[goal_cell[t] as usize]);
        }
        Side {
            table: Table::shared(lines, len, line_of(blank_line) as usize),
            shift,
            class,
        }
    }

    /// The state of `s` in this direction with its distance, from scratch.
    fn codes<G: Grid>(&self, d: &G, s: &G::State) -> Codes {
        let mut counts = [[0u8; MAX_SIDE]; MAX_SIDE];
        for cell in 0..d.board().cells() {
            let t = G::tile(s, cell) as usize;
            if t != 0 {
                counts[self.shift[cell] as usize / 8][self.class[t] as usize] += 1;
            }
        }
        let codes = (0..self.table.lines)
            .map(|line| (self.table.code(&counts[line]) as u64) << (8 * line))
            .sum();
        codes | (self.table.dist[self.table.index(codes)] as u64) << DIST
    }

    /// `v` after tile `t` moves from cell `to` into the blank's cell `b`, along this direction.
    #[inline(always)]
    fn slide(&self, v: Codes, b: usize, to: usize, t: u8) -> Codes {
        let table = self.table;
        let from = self.shift[to & 255] as u32;
        let into = self.shift[b & 255] as u32;
        let codes = table.moved(v & CODES, from, into, self.class[t as usize] as usize);
        codes | (table.dist[table.index(codes)] as u64) << DIST
    }
}

impl<G: Grid> Heuristic<G> for WalkingDistance {
    type Value = WalkValue;
    /// The estimate is 0 only when both states are the goal's: every tile in its goal row and in
    /// its goal column, so on its goal cell, and the blank on the one cell left.
    const GOAL_AWARE: bool = true;

    /// Checks, once per search, that the mappings are this board's: another's would give
    /// estimates that are wrong and not admissible, silently.
    fn init(&self, d: &G, s: &G::State) -> WalkValue {
        let (width, height, goal) = &self.built_for;
        assert!(
            (*width, *height) == (d.width(), d.height()) && *goal == d.places().cell,
            "a walking-distance table used on a board it was not built for"
        );
        WalkValue {
            rows: self.rows.codes(d, s),
            cols: self.cols.codes(d, s),
        }
    }

    #[inline(always)]
    fn update(&self, _: &G, s: &G::State, m: G::Move, v: WalkValue) -> WalkValue {
        let (b, to, t) = G::slide(s, m);
        // Cells side by side are 1 apart, cells one above the other the width (at least 2).
        if b.abs_diff(to) == 1 {
            WalkValue {
                rows: v.rows,
                cols: self.cols.slide(v.cols, b, to, t),
            }
        } else {
            WalkValue {
                rows: self.rows.slide(v.rows, b, to, t),
                cols: v.cols,
            }
        }
    }

    #[inline(always)]
    fn estimate(&self, v: WalkValue) -> u32 {
        (v.rows >> DIST) as u32 + (v.cols >> DIST) as u32
    }
}

/// The exact distances of one relaxation: `lines` lines of `len` cells, tiles in `lines` classes
/// (class `i` belongs in line `i`: `len` tiles, `len - 1` in the goal blank's line).
///
/// The tables read per move are indexed by bytes of a state's word, so that no index needs a
/// bounds check but `mid`'s and `dist`'s.
struct Table {
    lines: usize,
    base: usize,
    /// The code of a line from its counts of each class read as digits in base `len + 1`. Code 0
    /// is the empty line, which stands for the lines past the last.
    code_of: Vec<u8>,
    /// `take[code][class]`: the code of a full line after a tile of `class` leaves it (`NONE` if
    /// it has none); `give[code][class]`: of the blank's line after a tile of `class` enters it.
    take: Box<[[u8; 8]; 256]>,
    give: Box<[[u8; 8]; 256]>,
    /// The states ranked in the order of their first two lines, then the third, then the last
    /// two (see `index`). `top[first + 256 * second]`: how many states come before those that
    /// begin with these two lines, and the row of `mid` for the counts the other three must hold.
    top: Box<[(u32, u32); 1 << 16]>,
    /// `mid[row + third]`: how many of the states that begin with those two lines come before
    /// those whose third line is `third`.
    mid: Vec<u32>,
    /// `rest[fourth + 256 * fifth]`: the rank of the last two lines among those with the same
    /// counts of each class (which the first three fix).
    rest: Box<[u32; 1 << 16]>,
    /// The fewest moves from each state to the goal's.
    dist: Vec<u8>,
}

/// A boxed array of `x`, built on the heap (`Box::new([x; N])` may build it on the stack first).
fn boxed<T: Clone, const N: usize>(x: T) -> Box<[T; N]> {
    vec![x; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has N entries"))
}

impl Table {
    /// The table for `lines`, `len` and `blank_line`, built the first time any board asks for
    /// it. Tables live as long as the process, as `crate::tables::shared`'s do; they are
    /// shared more widely (by board shape, not by board and goal), since they are the large part.
    fn shared(lines: usize, len: usize, blank_line: usize) -> &'static Table {
        type Built = Vec<((usize, usize, usize), &'static Table)>;
        static BUILT: Mutex<Built> = Mutex::new(Vec::new());
        // A panic while building leaves nothing behind, so the lock's poison carries no meaning.
        let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
        let key = (lines, len, blank_line);
        if let Some(&(_, table)) = built.iter().find(|(k, _)| *k == key) {
            return table;
        }
        let table: &'static Table = Box::leak(Box::new(Table::build(lines, len, blank_line)));
        built.push((key, table));
        table
    }

    fn build(lines: usize, len: usize, blank_line: usize) -> Table {
        assert!((2..=MAX_SIDE).contains(&lines) && (2..=MAX_SIDE).contains(&len));
        let mut size = [0u8; MAX_SIDE];
        for (i, s) in size.iter_mut().enumerate().take(lines) {
            *s = (len - (i == blank_line) as usize) as u8;
        }
        let base = len + 1;
        let key = |counts: &[u8; MAX_SIDE]| -> usize {
            (0..lines)
                .map(|i| counts[i] as usize * base.pow(i as u32))
                .sum()
        };
        let within = |a: &[u8; MAX_SIDE], b: &[u8; MAX_SIDE]| a.iter().zip(b).all(|(x, y)| x <= y);
        let total = |counts: &[u8; MAX_SIDE]| counts.iter().map(|&x| x as usize).sum::<usize>();

        // A line holds `len` tiles, or `len - 1` and the blank; never more of a class than exist.
        let mut counts = vec![[0u8; MAX_SIDE]];
        let mut code_of = vec![NONE; base.pow(lines as u32)];
        code_of[0] = 0;
        for (k, code) in code_of.iter_mut().enumerate() {
            let mut line = [0u8; MAX_SIDE];
            for (i, c) in line.iter_mut().enumerate().take(lines) {
                *c = (k / base.pow(i as u32) % base) as u8;
            }
            if (total(&line) == len || total(&line) == len - 1) && within(&line, &size) {
                *code = counts.len() as u8;
                counts.push(line);
            }
        }
        let codes = counts.len();
        assert!(codes < NONE as usize, "{codes} line codes fit a byte");
        let short = |code: usize| (total(&counts[code]) == len - 1) as usize;
        let mut take = boxed([NONE; 8]);
        let mut give = boxed([NONE; 8]);
        for code in 1..codes {
            for class in 0..lines {
                let mut line = counts[code];
                if short(code) == 0 && line[class] > 0 {
                    line[class] -= 1;
                    take[code][class] = code_of[key(&line)];
                } else if short(code) == 1 && line[class] < size[class] {
                    line[class] += 1;
                    give[code][class] = code_of[key(&line)];
                }
            }
        }
        // Real lines in the first `lines` places, the empty one after.
        let allowed = |place: usize, code: usize| (code == 0) == (place >= lines);
        let add = |a: &[u8; MAX_SIDE], b: &[u8; MAX_SIDE]| -> [u8; MAX_SIDE] {
            std::array::from_fn(|i| a[i] + b[i])
        };
        let sub = |a: &[u8; MAX_SIDE], b: &[u8; MAX_SIDE]| -> [u8; MAX_SIDE] {
            std::array::from_fn(|i| a[i] - b[i])
        };

        // The last two lines, and how many pairs hold each counts of each class. Totals see to
        // it that exactly one line of a state holds the blank.
        let mut pairs = vec![0u32; code_of.len()];
        let mut rest = boxed(u32::MAX);
        for (d, e) in (0..codes).flat_map(|e| (0..codes).map(move |d| (d, e))) {
            let sum = add(&counts[d], &counts[e]);
            if allowed(3, d) && allowed(4, e) && short(d) + short(e) <= 1 && within(&sum, &size) {
                rest[d + 256 * e] = pairs[key(&sum)];
                pairs[key(&sum)] += 1;
            }
        }
        // The first two lines; a row of `mid` for each counts the other three must hold, made
        // when a pair of first lines first needs it, with how many states it has.
        let mut mid = Vec::new();
        let mut row_of = vec![None; code_of.len()];
        let mut top = boxed((u32::MAX, 0));
        let mut states = 0u64;
        for (a, b) in (0..codes).flat_map(|b| (0..codes).map(move |a| (a, b))) {
            let sum = add(&counts[a], &counts[b]);
            if !allowed(0, a) || !allowed(1, b) || short(a) + short(b) > 1 || !within(&sum, &size) {
                continue;
            }
            let need = sub(&size, &sum);
            let (row, followers) = *row_of[key(&need)].get_or_insert_with(|| {
                let row = mid.len();
                mid.resize(row + codes, u32::MAX);
                let mut before = 0;
                for c in (0..codes).filter(|&c| allowed(2, c) && within(&counts[c], &need)) {
                    mid[row + c] = before;
                    before += pairs[key(&sub(&need, &counts[c]))];
                }
                (row as u32, before)
            });
            if followers > 0 {
                top[a + 256 * b] = (states as u32, row);
                states += followers as u64;
            }
        }
        assert!(states < u32::MAX as u64);
        let mut table = Table {
            lines,
            base,
            code_of,
            take,
            give,
            top,
            mid,
            rest,
            dist: vec![0; states as usize],
        };
        table.search(blank_line, &size);
        table
    }

    /// Fills `dist` by breadth-first search from the goal.
    fn search(&mut self, blank_line: usize, size: &[u8; MAX_SIDE]) {
        let mut goal = 0;
        for (i, &s) in size.iter().enumerate().take(self.lines) {
            let mut counts = [0u8; MAX_SIDE];
            counts[i] = s;
            goal |= (self.code(&counts) as u64) << (8 * i);
        }
        let start = self.index(goal);
        // A bit per state, set when it is reached: eight times smaller than `dist`, so that the
        // test for each neighbour mostly stays in the cache.
        let mut seen = vec![0u64; self.dist.len().div_ceil(64)];
        seen[start / 64] |= 1 << (start % 64);
        // Each state with the line of its blank above its codes.
        let mut layer = vec![goal | (blank_line as u64) << (8 * MAX_SIDE)];
        let mut depth = 0;
        let mut reached = 1usize;
        while !layer.is_empty() {
            depth += 1;
            assert!(depth < u8::MAX, "distances fit a byte");
            let mut next = Vec::new();
            for &state in &layer {
                let into = (state >> (8 * MAX_SIDE)) as usize;
                for from in [into.wrapping_sub(1), into + 1] {
                    if from >= self.lines {
                        continue;
                    }
                    for class in 0..self.lines {
                        let (from_shift, into_shift) = (8 * from as u32, 8 * into as u32);
                        let child = self.moved(state & CODES, from_shift, into_shift, class);
                        if (child >> from_shift) as u8 == NONE {
                            continue;
                        }
                        let i = self.index(child);
                        let (word, bit) = (i / 64, 1u64 << (i % 64));
                        if seen[word] & bit == 0 {
                            seen[word] |= bit;
                            self.dist[i] = depth;
                            next.push(child | (from as u64) << (8 * MAX_SIDE));
                        }
                    }
                }
            }
            reached += next.len();
            layer = next;
        }
        assert_eq!(reached, self.dist.len(), "every state reached");
    }

    /// The code of a line holding `counts[class]` tiles of each class.
    fn code(&self, counts: &[u8; MAX_SIDE]) -> u8 {
        let key: usize = (0..self.lines)
            .map(|i| counts[i] as usize * self.base.pow(i as u32))
            .sum();
        self.code_of[key]
    }

    /// `codes` after a tile of `class` leaves the full line at bit `from` for the blank's line at
    /// bit `into` (the line it leaves is `NONE` if it has no tile of that class).
    #[inline(always)]
    fn moved(&self, codes: Codes, from: u32, into: u32, class: usize) -> Codes {
        let left = self.take[(codes >> from) as u8 as usize][class & 7];
        let entered = self.give[(codes >> into) as u8 as usize][class & 7];
        codes & !(0xff << from | 0xff << into) | (left as u64) << from | (entered as u64) << into
    }

    /// The dense rank of a state: three reads of small tables.
    #[inline(always)]
    fn index(&self, codes: Codes) -> usize {
        let (before, row) = self.top[codes as u16 as usize];
        let third = (codes >> 16) as u8 as usize;
        let last = (codes >> 24) as u16 as usize;
        before as usize + self.mid[row as usize + third] as usize + self.rest[last] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::tiles::Tiles;

    #[test]
    #[should_panic(expected = "not built for")]
    fn mappings_refuse_another_board() {
        let a = Tiles::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        let b = Tiles::new(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        WalkingDistance::new(&a).init(&b, b.goal());
    }

    #[test]
    #[should_panic(expected = "at most 5x5")]
    fn boards_over_five_by_five_have_no_tables() {
        let goal: Vec<u8> = (0..12).collect();
        WalkingDistance::new(&Tiles::new(6, 2, &goal).unwrap());
    }

    /// The number of states of each relaxation: n x n matrices with the goal's class sizes as
    /// column sums and `len` as row sums but for one row (the blank's) of `len - 1`, counted
    /// independently (by dynamic programming over rows); the search reaches every one.
    #[test]
    fn tables_hold_every_state() {
        for (lines, len, blank, states) in [
            (3, 3, 0, 105),
            (2, 4, 1, 8),
            (4, 2, 1, 480),
            (4, 4, 0, 24_964),
            (4, 3, 3, 4_324),
            (3, 4, 2, 255),
            (2, 5, 1, 10),
            (5, 2, 4, 11_010),
            (4, 5, 3, 107_712),
            (5, 3, 4, 352_560),
            (5, 4, 0, 5_977_015),
        ] {
            assert_eq!(
                Table::build(lines, len, blank).dist.len(),
                states,
                "{lines} lines of {len}"
            );
        }
    }
}
