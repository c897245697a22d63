//! Admissible heuristics for the weighted sliding tiles (misplaced tiles, Manhattan distance and
//! linear conflict, each tile's moves counted at what they cost), updated incrementally along a
//! move; and, in tests, the 8-puzzle's exact weighted distances as their oracle.
//!
//! All three are consistent as well as admissible: a move of tile t changes only t's own terms
//! (its Manhattan term by exactly cost(t); misplaced by 0 or cost(t); one line's conflict
//! penalty, that of t's goal line when t enters or leaves it, by 0 to 2 cost(t) in the direction
//! opposite to Manhattan's change), so no estimate moves by more than the move costs.

use super::weighted::Weighted;
use super::{Grid, TileState, MAX_SIDE};
use crate::domains::cost::CostModel;
use crate::search::Heuristic;

/// The board, goal and cost model a heuristic's tables were built for: tables of another would
/// give estimates that are wrong and not admissible, silently.
#[derive(PartialEq)]
struct BuiltFor {
    width: usize,
    height: usize,
    goal: [u8; 256],
    model: CostModel,
}

impl BuiltFor {
    fn of(d: &Weighted) -> BuiltFor {
        BuiltFor {
            width: d.width(),
            height: d.height(),
            goal: d.places().cell,
            model: d.model(),
        }
    }

    /// Once per search, in `init`.
    fn check(&self, d: &Weighted, name: &str) {
        assert!(
            *self == BuiltFor::of(d),
            "a {name} table used on a board or cost model it was not built for"
        );
    }
}

/// An estimate that is a sum over tiles of what each adds in its cell: two table reads per move.
struct PerTile {
    /// `value[tile][cell]`; 0 for the blank.
    value: Box<[[u32; 256]; 256]>,
    built_for: BuiltFor,
}

impl PerTile {
    fn new(d: &Weighted, of: impl Fn(u8, usize) -> u32) -> PerTile {
        let mut value: Box<[[u32; 256]; 256]> = vec![[0u32; 256]; 256]
            .into_boxed_slice()
            .try_into()
            .expect("256 rows");
        let n = d.board().cells();
        for (t, row) in value.iter_mut().enumerate().take(n).skip(1) {
            for (cell, v) in row.iter_mut().enumerate().take(n) {
                *v = of(t as u8, cell);
            }
        }
        PerTile {
            value,
            built_for: BuiltFor::of(d),
        }
    }

    fn init(&self, d: &Weighted, s: &TileState, name: &str) -> u32 {
        self.built_for.check(d, name);
        (0..d.board().cells())
            .map(|cell| self.value[Weighted::tile(s, cell) as usize][cell])
            .sum()
    }

    #[inline(always)]
    fn update(&self, s: &TileState, m: u8, v: u32) -> u32 {
        let (b, to, t) = Weighted::slide(s, m);
        let row = &self.value[t as usize];
        // `v` holds the tile's term at `to`: no underflow.
        v + row[b] - row[to]
    }
}

/// The summed cost of the tiles not on their goal cell: each must move at least once.
pub struct WeightedMisplaced(PerTile);

impl WeightedMisplaced {
    pub fn new(d: &Weighted) -> WeightedMisplaced {
        let goal = &d.places().cell;
        WeightedMisplaced(PerTile::new(d, |t, cell| {
            if goal[t as usize] as usize == cell {
                0
            } else {
                d.weight(t)
            }
        }))
    }
}

impl<'a> Heuristic<Weighted<'a>> for WeightedMisplaced {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Weighted<'a>, s: &TileState) -> u32 {
        self.0.init(d, s, "weighted misplaced")
    }

    #[inline(always)]
    fn update(&self, _: &Weighted<'a>, s: &TileState, m: u8, v: u32) -> u32 {
        self.0.update(s, m, v)
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

/// The sum over tiles of cost x distance to the goal cell: each step of a tile costs its weight.
pub struct WeightedManhattan(PerTile);

impl WeightedManhattan {
    pub fn new(d: &Weighted) -> WeightedManhattan {
        WeightedManhattan(weighted_manhattan(d))
    }
}

fn weighted_manhattan(d: &Weighted) -> PerTile {
    let (board, goal) = (d.board(), &d.places().cell);
    PerTile::new(d, |t, cell| {
        d.weight(t) * board.distance(goal[t as usize] as usize, cell)
    })
}

impl<'a> Heuristic<Weighted<'a>> for WeightedManhattan {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Weighted<'a>, s: &TileState) -> u32 {
        self.0.init(d, s, "weighted Manhattan")
    }

    #[inline(always)]
    fn update(&self, _: &Weighted<'a>, s: &TileState, m: u8, v: u32) -> u32 {
        self.0.update(s, m, v)
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

/// Weighted Manhattan plus, per row and per column, 2 x (the summed cost of the tiles in it that
/// belong in it - the heaviest subset of them already in goal order along it). Tiles that never
/// leave a line cannot pass one another, so those that stay form such an in-order subset; each
/// other tile leaves the line and comes back, two moves across it that Manhattan does not count
/// (rows count vertical moves, columns horizontal ones: their penalties add). Dropping the
/// lightest conflicting tile one at a time instead could remove more weight than the order
/// forces out, and overestimate.
///
/// A move changes one line's penalty at most: the moved tile's goal line, when the tile enters
/// or leaves it. Lines of up to `TABULATED` cells have every penalty tabulated by their contents;
/// longer ones are recomputed.
pub struct WeightedLinearConflict {
    manhattan: PerTile,
    rows: Lines,
    cols: Lines,
}

impl WeightedLinearConflict {
    pub fn new(d: &Weighted) -> WeightedLinearConflict {
        let (w, h) = (d.width(), d.height());
        let places = d.places();
        WeightedLinearConflict {
            manhattan: weighted_manhattan(d),
            rows: Lines::new(d, h, w, w, 1, &places.row, &places.col),
            cols: Lines::new(d, w, h, 1, w, &places.col, &places.row),
        }
    }
}

impl<'a> Heuristic<Weighted<'a>> for WeightedLinearConflict {
    /// Manhattan and the penalties together.
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Weighted<'a>, s: &TileState) -> u32 {
        let at = |cell: usize| Weighted::tile(s, cell);
        let rows: u32 = (0..self.rows.count).map(|i| self.rows.penalty(i, at)).sum();
        let cols: u32 = (0..self.cols.count).map(|i| self.cols.penalty(i, at)).sum();
        self.manhattan.init(d, s, "weighted linear-conflict") + rows + cols
    }

    #[inline]
    fn update(&self, d: &Weighted<'a>, s: &TileState, m: u8, v: u32) -> u32 {
        let (b, to, t) = Weighted::slide(s, m);
        let v = self.manhattan.update(s, m, v);
        let (row, col) = (&d.board().row, &d.board().col);
        // A vertical move takes the tile from one row to another and along its column, whose
        // order it keeps: only the tile's goal row can change, if it is one of the two. Likewise
        // columns for a horizontal move. Either way the tile's place along the line is the
        // blank's.
        let (lines, left, reached, place) = if col[b] == col[to] {
            (&self.rows, row[to], row[b], col[b])
        } else {
            (&self.cols, col[to], col[b], row[b])
        };
        let home = lines.line[t as usize];
        if home != left && home != reached {
            return v;
        }
        let (old, new) = lines.change(s, b, to, t, home == reached, place as usize);
        // `v` holds the line's old penalty: no underflow.
        v + new - old
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

/// Lines up to this long have their penalties tabulated: (len + 1)^len entries per line, 7,776
/// for 5 (311 KB for the 5x5 board's ten lines); a 6-cell line would take 117,649.
const TABULATED: usize = 5;

/// The rows, or the columns, of a board: which tiles belong in each, and their penalties.
struct Lines {
    count: usize,
    len: usize,
    /// Cell of place p of line i: `i * line_step + p * place_step`.
    line_step: usize,
    place_step: usize,
    /// Per tile: its goal line (`u8::MAX` for the blank), its key (goal place along that line
    /// + 1) and what it costs to move.
    line: [u8; 256],
    key: [u8; 256],
    weight: [u32; 256],
    /// Where tabulated: `digit[tile][cell]` is what `tile` in `cell` adds to the code of the
    /// cell's line, its key times `(len + 1)^place` if it belongs in that line, else 0, so that
    /// a line's code is one read per cell; and `table[i * codes + code]` the penalty of line i
    /// holding `code`. Both empty for lines too long.
    digit: Vec<[u16; 256]>,
    table: Vec<u32>,
    codes: usize,
    pow: [usize; MAX_SIDE],
}

impl Lines {
    /// `count` lines of `len` cells; `goal_line[t]` and `goal_place[t]` say where tile t belongs.
    fn new(
        d: &Weighted,
        count: usize,
        len: usize,
        line_step: usize,
        place_step: usize,
        goal_line: &[u8; 256],
        goal_place: &[u8; 256],
    ) -> Lines {
        let n = d.board().cells();
        let mut lines = Lines {
            count,
            len,
            line_step,
            place_step,
            line: [u8::MAX; 256],
            key: [0; 256],
            weight: [0; 256],
            digit: Vec::new(),
            table: Vec::new(),
            codes: 0,
            pow: [0; MAX_SIDE],
        };
        // Which tile belongs at each key of each line.
        let mut tile_at = [[0u8; MAX_SIDE + 1]; MAX_SIDE];
        for t in 1..n {
            lines.line[t] = goal_line[t];
            lines.key[t] = goal_place[t] + 1;
            lines.weight[t] = d.weight(t as u8);
            tile_at[goal_line[t] as usize][lines.key[t] as usize] = t as u8;
        }
        if len > TABULATED {
            return lines;
        }
        let base = len + 1;
        for (p, pow) in lines.pow.iter_mut().take(len).enumerate() {
            *pow = base.pow(p as u32);
        }
        lines.codes = base.pow(len as u32);
        lines.digit = vec![[0u16; 256]; 256];
        for t in 1..n {
            let i = lines.line[t] as usize;
            for p in 0..len {
                let cell = i * line_step + p * place_step;
                lines.digit[t][cell] = (lines.key[t] as usize * lines.pow[p]) as u16;
            }
        }
        lines.table = (0..count)
            .flat_map(|i| {
                let (lines, tile_at) = (&lines, &tile_at[i]);
                (0..lines.codes).map(move |code| {
                    penalty((0..len).map(|p| {
                        let key = (code / lines.pow[p] % base) as u8;
                        (key, lines.weight[tile_at[key as usize] as usize])
                    }))
                })
            })
            .collect();
        lines
    }

    fn tabulated(&self) -> bool {
        !self.table.is_empty()
    }

    /// The penalty of line `i`, with `at(cell)` giving the tile in a cell.
    fn penalty(&self, i: usize, at: impl Fn(usize) -> u8) -> u32 {
        penalty((0..self.len).map(|p| {
            let t = at(i * self.line_step + p * self.place_step) as usize;
            if self.line[t] as usize == i {
                (self.key[t], self.weight[t])
            } else {
                (0, 0)
            }
        }))
    }

    /// The penalties of line `i` before and after the move of tile `t` from `to` to `b` (the
    /// blank's cell, at `place` along the line), which `enters` the line or leaves it.
    #[inline(always)]
    fn change(
        &self,
        s: &TileState,
        b: usize,
        to: usize,
        t: u8,
        enters: bool,
        place: usize,
    ) -> (u32, u32) {
        let i = self.line[t as usize] as usize;
        if self.tabulated() {
            // `& 255` tells the compiler the cell is within the table's row: no check to make.
            let code: usize = (0..self.len)
                .map(|p| {
                    let cell = (i * self.line_step + p * self.place_step) & 255;
                    self.digit[Weighted::tile(s, cell) as usize][cell] as usize
                })
                .sum();
            let shift = self.key[t as usize] as usize * self.pow[place];
            let after = if enters { code + shift } else { code - shift };
            let line = &self.table[i * self.codes..(i + 1) * self.codes];
            (line[code], line[after])
        } else {
            let after = |cell: usize| {
                if cell == b {
                    t
                } else if cell == to {
                    0
                } else {
                    Weighted::tile(s, cell)
                }
            };
            (
                self.penalty(i, |cell| Weighted::tile(s, cell)),
                self.penalty(i, after),
            )
        }
    }
}

/// 2 x (the summed weight of a line's tiles - the heaviest subset of them in increasing key
/// order), from each cell's (key, weight) in line order; key 0 for cells of no account (the
/// blank, tiles of other lines).
fn penalty(keyed: impl Iterator<Item = (u8, u32)>) -> u32 {
    // heaviest[k]: the heaviest in-order subset seen so far that ends with key k. Keys are at
    // most MAX_SIDE, each at most once in a line.
    let mut heaviest = [0u32; MAX_SIDE + 1];
    let (mut total, mut kept) = (0, 0);
    for (key, weight) in keyed.filter(|&(k, _)| k != 0) {
        let key = key as usize;
        let best = weight + heaviest[..key].iter().copied().max().unwrap_or(0);
        heaviest[key] = heaviest[key].max(best);
        kept = kept.max(best);
        total += weight;
    }
    2 * (total - kept)
}

/// The 3x3 states, for the oracle below: a state is its blank's cell and the order of its eight
/// tiles read row by row (the blank skipped). On a board of odd width the blank's moves along a
/// row keep that order and its moves across rows move one tile past two others, so the number
/// of inversions keeps its parity: the states that reach the goal 1 2 3 4 5 6 7 8 0 are those
/// with an even order, 9 x 8!/2 = 181,440 of them.
#[cfg(test)]
pub(crate) const STATES_3X3: usize = 9 * 20_160;

/// The index of a solvable 3x3 state (row-major, 0 the blank) among `STATES_3X3`:
/// blank cell x 20,160 + the Lehmer rank of the tiles' order halved (the rank's digit of weight
/// 1!, 0 or 1, swaps the last two tiles: of the two orders that differ only there one is even
/// and one odd, so halving numbers the even orders 0 to 20,159).
#[cfg(test)]
pub(crate) fn index_3x3(cells: &[u8]) -> usize {
    let blank = cells.iter().position(|&t| t == 0).expect("a blank");
    let order: Vec<u8> = cells.iter().copied().filter(|&t| t != 0).collect();
    let mut rank = 0;
    for i in 0..8 {
        let smaller_after = order[i + 1..].iter().filter(|&&t| t < order[i]).count();
        rank = rank * (8 - i) + smaller_after;
    }
    blank * 20_160 + rank / 2
}

/// The state of an index (`index_3x3`'s inverse).
#[cfg(test)]
pub(crate) fn state_3x3(index: usize) -> [u8; 9] {
    let (blank, half) = (index / 20_160, index % 20_160);
    // Lehmer digits from the first tile on; the seventh is the parity's, the eighth always 0.
    let mut digits = [0usize; 8];
    let mut rest = half;
    for i in (0..6).rev() {
        digits[i] = rest % (8 - i);
        rest /= 8 - i;
    }
    digits[6] = digits[..6].iter().sum::<usize>() % 2;
    let mut unused: Vec<u8> = (1..=8).collect();
    let mut cells = [0u8; 9];
    let mut next = digits.iter().map(|&d| unused.remove(d));
    for (cell, c) in cells.iter_mut().enumerate() {
        if cell != blank {
            *c = next.next().expect("eight tiles");
        }
    }
    cells
}

/// The cheapest cost from every solvable 3x3 state to the goal 1 2 3 4 5 6 7 8 0 under `model`,
/// indexed by `index_3x3`: Dijkstra from the goal, which gives the distances to it because a
/// tile that moves can move straight back at the same cost.
#[cfg(test)]
pub(crate) fn weighted_distances_3x3(model: CostModel) -> Vec<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let costs = model.tile_costs(8).expect("every model weighs 8 tiles");
    let mut dist = vec![u32::MAX; STATES_3X3];
    let goal = index_3x3(&[1, 2, 3, 4, 5, 6, 7, 8, 0]);
    dist[goal] = 0;
    let mut queue = BinaryHeap::from([Reverse((0u32, goal))]);
    while let Some(Reverse((cost, i))) = queue.pop() {
        if cost > dist[i] {
            continue;
        }
        let cells = state_3x3(i);
        let blank = cells.iter().position(|&t| t == 0).expect("a blank");
        let (r, c) = (blank / 3, blank % 3);
        let neighbours = [
            (r > 0).then(|| blank - 3),
            (r < 2).then(|| blank + 3),
            (c > 0).then(|| blank - 1),
            (c < 2).then(|| blank + 1),
        ];
        for from in neighbours.into_iter().flatten() {
            let mut next = cells;
            next.swap(blank, from);
            let j = index_3x3(&next);
            let through = cost + costs[cells[from] as usize];
            if through < dist[j] {
                dist[j] = through;
                queue.push(Reverse((through, j)));
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::tiles::{default_goal, LinearConflict, Manhattan, Misplaced, Tiles};
    use crate::search::Domain;
    use crate::util::rng::Rng;

    fn goal_3x3() -> Tiles {
        Tiles::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap()
    }

    /// The three heuristics of a weighted board.
    struct Three(WeightedMisplaced, WeightedManhattan, WeightedLinearConflict);

    impl Three {
        fn new(d: &Weighted) -> Three {
            Three(
                WeightedMisplaced::new(d),
                WeightedManhattan::new(d),
                WeightedLinearConflict::new(d),
            )
        }

        /// Their estimates of `s`, from scratch.
        fn init(&self, d: &Weighted, s: &TileState) -> [u32; 3] {
            [self.0.init(d, s), self.1.init(d, s), self.2.init(d, s)]
        }

        /// Their values after move `m` from `s`.
        fn update(&self, d: &Weighted, s: &TileState, m: u8, v: [u32; 3]) -> [u32; 3] {
            [
                self.0.update(d, s, m, v[0]),
                self.1.update(d, s, m, v[1]),
                self.2.update(d, s, m, v[2]),
            ]
        }
    }

    /// Their unit twins, on the plain board.
    struct Unit(Manhattan, LinearConflict);

    impl Unit {
        fn new(tiles: &Tiles) -> Unit {
            Unit(Manhattan::new(tiles), LinearConflict::new(tiles))
        }

        fn init(&self, tiles: &Tiles, s: &TileState) -> [u32; 3] {
            [
                Misplaced.init(tiles, s),
                self.0.init(tiles, s),
                Heuristic::<Tiles>::estimate(&self.1, self.1.init(tiles, s)),
            ]
        }
    }

    #[test]
    fn the_index_numbers_exactly_the_solvable_3x3_states() {
        let tiles = goal_3x3();
        for i in 0..STATES_3X3 {
            let cells = state_3x3(i);
            assert_eq!(index_3x3(&cells), i, "{cells:?}");
            assert!(
                tiles.is_solvable(&tiles.state(&cells).unwrap()),
                "{cells:?}"
            );
        }
    }

    /// The unit oracle is the breadth-first distances, computed here apart, and their known
    /// histogram: 181,440 states, at most 31 moves away, 2 of them at 31.
    #[test]
    fn unit_distances_are_the_breadth_first_ones() {
        let unit = weighted_distances_3x3(CostModel::Unit);
        let tiles = goal_3x3();
        let mut depth = vec![u32::MAX; STATES_3X3];
        let mut layer = vec![tiles.goal().clone()];
        depth[index_3x3(tiles.tiles(tiles.goal()))] = 0;
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for s in &layer {
                for &m in tiles.moves(s) {
                    let mut child = s.clone();
                    tiles.apply(&mut child, m);
                    let j = index_3x3(tiles.tiles(&child));
                    if depth[j] == u32::MAX {
                        depth[j] = d;
                        next.push(child);
                    }
                }
            }
            layer = next;
        }
        assert_eq!(unit, depth);
        let mut histogram = [0usize; 32];
        for &d in &unit {
            histogram[d as usize] += 1;
        }
        #[rustfmt::skip]
        let known = [
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
        ];
        assert_eq!(histogram, known);
    }

    /// Costs checked by hand, and every weighted distance satisfying Bellman's equations (0 at
    /// the goal, elsewhere the cheapest move plus its neighbour's distance), which with positive
    /// costs only the true distances do.
    #[test]
    fn weighted_distances_are_the_cheapest_costs() {
        let heavy = weighted_distances_3x3(CostModel::Heavy);
        let inverse = weighted_distances_3x3(CostModel::InverseHeavy);
        let at = |table: &[u32], cells: [u8; 9]| table[index_3x3(&cells)];
        assert_eq!(at(&heavy, [1, 2, 3, 4, 5, 6, 7, 8, 0]), 0);
        // One move: tile 8 right, tile 6 down.
        assert_eq!(at(&heavy, [1, 2, 3, 4, 5, 6, 7, 0, 8]), 8);
        assert_eq!(at(&heavy, [1, 2, 3, 4, 5, 0, 7, 8, 6]), 6);
        // Two moves, each tile one step from home: weighted Manhattan is a lower bound, met.
        assert_eq!(at(&heavy, [1, 2, 3, 4, 0, 6, 7, 5, 8]), 5 + 8);
        assert_eq!(at(&heavy, [1, 2, 3, 4, 5, 6, 0, 7, 8]), 7 + 8);
        assert_eq!(at(&heavy, [1, 2, 3, 4, 0, 5, 7, 8, 6]), 5 + 6);
        // Inverse-heavy counts in 840ths: tile t costs 840 / t.
        assert_eq!(at(&inverse, [1, 2, 3, 4, 5, 6, 7, 0, 8]), 105);
        assert_eq!(at(&inverse, [1, 2, 3, 4, 0, 6, 7, 5, 8]), 168 + 105);
        let tiles = goal_3x3();
        for (model, table) in [
            (CostModel::Heavy, &heavy),
            (CostModel::InverseHeavy, &inverse),
        ] {
            let costs = model.tile_costs(8).unwrap();
            for (i, &d) in table.iter().enumerate() {
                let s = tiles.state(&state_3x3(i)).unwrap();
                let best = tiles
                    .moves(&s)
                    .iter()
                    .map(|&m| {
                        let mut child = s.clone();
                        tiles.apply(&mut child, m);
                        costs[tiles.tiles(&s)[m as usize] as usize]
                            + table[index_3x3(tiles.tiles(&child))]
                    })
                    .min()
                    .unwrap();
                let expected = if tiles.is_goal(&s) { 0 } else { best };
                assert_eq!(d, expected, "{model:?} {:?}", state_3x3(i));
            }
        }
    }

    /// Every 3x3 state: under unit costs each heuristic is its unit twin, and under every model
    /// each is at most the true cost. The means are printed beside the true cost's.
    #[test]
    fn admissible_on_every_3x3_state_and_the_unit_ones_under_unit_costs() {
        let tiles = goal_3x3();
        let unit = Unit::new(&tiles);
        for model in CostModel::ALL {
            let d = Weighted::new(&tiles, model).unwrap();
            let h = Three::new(&d);
            let oracle = weighted_distances_3x3(model);
            let mut sums = [0u64; 4];
            for (i, &cost) in oracle.iter().enumerate() {
                let s = tiles.state(&state_3x3(i)).unwrap();
                let values = h.init(&d, &s);
                if model == CostModel::Unit {
                    assert_eq!(values, unit.init(&tiles, &s), "{:?}", state_3x3(i));
                }
                assert!(
                    values.iter().all(|&v| v <= cost),
                    "{model:?} {:?}: {values:?} over {cost}",
                    state_3x3(i)
                );
                for (sum, v) in sums.iter_mut().zip(values.into_iter().chain([cost])) {
                    *sum += u64::from(v);
                }
            }
            let mean = sums.map(|s| s as f64 / STATES_3X3 as f64);
            println!(
                "3x3 {}: mean misplaced {:.3}, manhattan {:.3}, linear conflict {:.3}, \
                 true cost {:.3}",
                model.name(),
                mean[0],
                mean[1],
                mean[2],
                mean[3]
            );
        }
    }

    /// On every move of every 3x3 state, under each model, no estimate drops by more than the
    /// move costs (the module's argument).
    #[test]
    fn consistent_on_every_3x3_move() {
        let tiles = goal_3x3();
        for model in CostModel::ALL {
            let d = Weighted::new(&tiles, model).unwrap();
            let h = Three::new(&d);
            for i in 0..STATES_3X3 {
                let s = tiles.state(&state_3x3(i)).unwrap();
                let parent = h.init(&d, &s);
                for &m in d.moves(&s) {
                    let cost = d.cost(&s, m);
                    let mut child = s.clone();
                    d.apply(&mut child, m);
                    let child = h.init(&d, &child);
                    assert!(
                        parent.iter().zip(&child).all(|(p, c)| *p <= cost + c),
                        "{model:?} {:?}, move to {m}: {parent:?} to {child:?} at {cost}",
                        state_3x3(i)
                    );
                }
            }
        }
    }

    /// Along seeded random walks, the values carried move by move equal the estimates from
    /// scratch, and are 0 at the goal; under unit costs they are the unit heuristics'. Boards
    /// with tabulated lines (3x3, 4x4, 5x5), with recomputed ones (7x3's rows, 6x6), and a goal
    /// with the blank first.
    #[test]
    fn incremental_values_equal_the_estimates_from_scratch_along_random_walks() {
        let boards = [
            (3, 3, false),
            (4, 4, false),
            (5, 5, false),
            (7, 3, false),
            (6, 6, false),
            (4, 4, true),
        ];
        for (seed, (w, h, blank_first)) in boards.into_iter().enumerate() {
            let n = w * h;
            let goal: Vec<u8> = if blank_first {
                (0..n as u8).collect()
            } else {
                default_goal(n)
            };
            let tiles = Tiles::new(w, h, &goal).unwrap();
            let unit = Unit::new(&tiles);
            for model in CostModel::ALL {
                let Ok(d) = Weighted::new(&tiles, model) else {
                    assert!(n > 16 && model == CostModel::InverseHeavy, "{w}x{h}");
                    continue;
                };
                let hs = Three::new(&d);
                let mut s = tiles.goal().clone();
                let mut v = hs.init(&d, &s);
                assert_eq!(v, [0; 3], "{w}x{h} {model:?} at the goal");
                let mut rng = Rng::new(seed as u64);
                let mut conflicts = 0;
                for step in 0..4000 {
                    let moves = d.moves(&s);
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    v = hs.update(&d, &s, m, v);
                    d.apply(&mut s, m);
                    assert_eq!(v, hs.init(&d, &s), "{w}x{h} {model:?}, move {step}");
                    if model == CostModel::Unit {
                        assert_eq!(v, unit.init(&tiles, &s), "{w}x{h} unit, move {step}");
                    }
                    conflicts += (v[2] > v[1]) as u32;
                }
                // Else the walk never tried the penalties.
                assert!(conflicts > 100, "{w}x{h} {model:?}: {conflicts}");
            }
        }
    }

    /// A line holding, in order, the tiles that belong at its places 3, 1 and 2, weighing 5, 2
    /// and 2: keeping the two light ones in place and moving the heavy one out and back costs
    /// 10, moving the two light ones out costs 8, the penalty; counting tiles instead of
    /// weight would move the heavy one. On the heavy 3x3 board, the top row 3 1 2 costs
    /// 2 x 3 either way, besides Manhattan's 3 x 2 + 1 + 2.
    #[test]
    fn the_penalty_keeps_the_heaviest_in_order_subset() {
        assert_eq!(penalty([(3, 5), (1, 2), (2, 2)].into_iter()), 8);
        assert_eq!(penalty([(3, 1), (0, 7), (1, 1), (2, 1)].into_iter()), 2);
        assert_eq!(penalty([(1, 4), (2, 1), (3, 9)].into_iter()), 0);
        let tiles = goal_3x3();
        let d = Weighted::new(&tiles, CostModel::Heavy).unwrap();
        let s = tiles.state(&[3, 1, 2, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(Three::new(&d).init(&d, &s), [6, 9, 9 + 6]);
    }

    #[test]
    #[should_panic(expected = "not built for")]
    fn a_table_refuses_another_cost_model() {
        let tiles = goal_3x3();
        let heavy = Weighted::new(&tiles, CostModel::Heavy).unwrap();
        let unit = Weighted::new(&tiles, CostModel::Unit).unwrap();
        WeightedLinearConflict::new(&heavy).init(&unit, tiles.goal());
    }
}
