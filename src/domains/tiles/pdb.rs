//! The additive pattern-database heuristics of the literature: the partitions of the 15- and
//! 24-puzzle's tiles into disjoint patterns, and the heuristic that adds their databases' entries,
//! optionally taking the larger of that sum and the sum for the board reflected about its main
//! diagonal (the same databases read a second time).

use super::pattern::{Pattern, Ranker, MAX_CELLS, MAX_TILES};
use super::zero::ZeroIndex;
use super::Grid;
use crate::search::Heuristic;
use std::ops::IndexMut;

/// A partition of the tiles, written as the tile numbers of the goal with the blank first (tile
/// `t` belongs on cell `t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    pub name: &'static str,
    pub width: usize,
    pub height: usize,
    pub groups: &'static [&'static [u8]],
    /// Its databases are zero-aware (`zero::ZeroAware`): they know whether the blank is walled
    /// off.
    pub zero: bool,
}

/// The 7-8 and 6-6-6-6 partitions are Korf & Felner's (2002), as their published code reads them.
/// Their papers show the 5-5-5 and 6-6-3 ones only as figures; these are the ones public solvers
/// use for this goal (e.g. alexyuisingwu/sliding-puzzle-database-generator), and
/// docs/pattern-databases.md compares the node counts they give with the published ones.
pub const PDB_555: Partition = Partition {
    name: "5-5-5",
    width: 4,
    height: 4,
    zero: false,
    groups: &[&[1, 2, 4, 5, 8], &[3, 6, 7, 10, 11], &[9, 12, 13, 14, 15]],
};
pub const PDB_663: Partition = Partition {
    name: "6-6-3",
    width: 4,
    height: 4,
    zero: false,
    groups: &[&[1, 2, 4, 5, 8, 9], &[3, 6, 7, 10, 11, 15], &[12, 13, 14]],
};
pub const PDB_78: Partition = Partition {
    name: "7-8",
    width: 4,
    height: 4,
    zero: false,
    groups: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
};
pub const PDB_6666: Partition = Partition {
    name: "6-6-6-6",
    width: 5,
    height: 5,
    zero: false,
    groups: &[
        &[1, 2, 5, 6, 7, 12],
        &[3, 4, 8, 9, 13, 14],
        &[10, 11, 15, 16, 20, 21],
        &[17, 18, 19, 22, 23, 24],
    ],
};

/// Patterns in one partition, at most.
pub const MAX_PATTERNS: usize = 4;

impl Partition {
    /// The same partition, its databases zero-aware.
    pub const fn zero_aware(self) -> Partition {
        Partition { zero: true, ..self }
    }

    /// The partition's patterns for a goal with the blank on `blank`: the goal with the blank
    /// first as written, or the one with the blank last, turned half a turn (so each pattern keeps
    /// its shape). Other goals are an error naming the two that work.
    pub fn patterns(
        &self,
        width: usize,
        height: usize,
        blank: usize,
    ) -> Result<Vec<Pattern>, String> {
        let n = self.width * self.height;
        if (width, height) != (self.width, self.height) {
            return Err(format!(
                "the {} pattern databases are for {}x{} boards, not {width}x{height}",
                self.name, self.width, self.height
            ));
        }
        let turn = match blank {
            0 => false,
            b if b == n - 1 => true,
            _ => {
                return Err(format!(
                    "the {} pattern databases need a goal with the blank first (0 1 2 ... {}) or last (1 2 ... {} 0), up to a relabelling of the tiles; this goal has the blank on cell {blank}",
                    self.name,
                    n - 1,
                    n - 1
                ))
            }
        };
        self.groups
            .iter()
            .map(|group| {
                let cells: Vec<u8> = group
                    .iter()
                    .map(|&c| if turn { (n - 1) as u8 - c } else { c })
                    .collect();
                Pattern::new(width, height, blank, &cells)
            })
            .collect()
    }
}

/// The board as one lookup reads it: directly, or reflected about the main diagonal.
struct View {
    /// pattern[tile]: the pattern of the tile in this view (`u8::MAX` for the blank).
    pattern: [u8; 256],
    /// slot[tile]: the tile's slot in its pattern in this view.
    slot: [u8; 256],
    /// tiles[p][i]: the tile in slot `i` of pattern `p` in this view.
    tiles: Vec<[u8; MAX_TILES]>,
    /// cell[c]: the cell this view sees cell `c` as.
    cell: [u8; 256],
}

/// How a database is read: an entry per placement at its rank (`Ranker`), or two costs in a
/// byte, by the blank's region, as excesses over the pattern's Manhattan distance (`ZeroIndex`,
/// zero-aware databases).
pub trait Index: Send + Sync + 'static {
    /// Whether `read` needs the pattern tiles' Manhattan distance: the search then carries it.
    const MANHATTAN: bool;
    /// Where a node carries its patterns' Manhattan distances: `[u8; 2 * MAX_PATTERNS]` if
    /// `MANHATTAN`, else `[u8; 0]`, so that the plain databases' nodes stay the size they were.
    type Carried: Copy
        + Send
        + Sync
        + std::fmt::Debug
        + PartialEq
        + Eq
        + Default
        + IndexMut<usize, Output = u8>;
    /// The entries of the database.
    fn size(&self) -> u64;
    /// The cost in `table` of the tiles on `cells` (by slot), `manhattan` from their goal cells
    /// (0 unless `MANHATTAN`), with the blank on `blank`.
    fn read(&self, table: &[u8], cells: &[u8; SLOTS], blank: u8, manhattan: u8) -> u8;
}

impl Index for Ranker {
    const MANHATTAN: bool = false;
    type Carried = [u8; 0];

    fn size(&self) -> u64 {
        Ranker::size(self)
    }

    #[inline(always)]
    fn read(&self, table: &[u8], cells: &[u8; SLOTS], _: u8, _: u8) -> u8 {
        table[self.rank(cells)]
    }
}

impl Index for ZeroIndex {
    const MANHATTAN: bool = true;
    type Carried = [u8; 2 * MAX_PATTERNS];

    fn size(&self) -> u64 {
        ZeroIndex::size(self)
    }

    #[inline(always)]
    fn read(&self, table: &[u8], cells: &[u8; SLOTS], blank: u8, manhattan: u8) -> u8 {
        self.cost(table, cells, blank, manhattan)
    }
}

/// The sum of disjoint pattern databases' entries; with `reflect`, the larger of it and the same
/// sum for the reflected board.
pub struct PatternDbs<I: Index = Ranker> {
    views: Vec<View>,
    tables: Vec<(&'static [u8], I, usize)>,
    /// distance[p][slot][c]: how far cell `c` is from the goal cell of pattern `p`'s tile in
    /// `slot` (the board as the databases see it, in either view).
    distance: [[[u8; MAX_CELLS]; SLOTS]; MAX_PATTERNS],
    cells: usize,
}

impl PatternDbs {
    /// The heuristic for a board whose tile `t` belongs on `goal_cell[t]` (the blank, tile 0,
    /// on `patterns[*].blank`), reading the database of `patterns[i]` in `tables[i]`. The patterns
    /// must cover every tile, so that the estimate is 0 only at the goal.
    pub fn new(
        patterns: &[Pattern],
        tables: Vec<&'static [u8]>,
        goal_cell: &[u8],
        reflect: bool,
    ) -> PatternDbs {
        PatternDbs::with_index(patterns, tables, goal_cell, reflect, Pattern::ranker)
    }
}

impl PatternDbs<ZeroIndex> {
    /// `PatternDbs::new` for the zero-aware databases of `patterns`.
    pub fn zero_aware(
        patterns: &[Pattern],
        tables: Vec<&'static [u8]>,
        goal_cell: &[u8],
        reflect: bool,
    ) -> PatternDbs<ZeroIndex> {
        PatternDbs::with_index(patterns, tables, goal_cell, reflect, ZeroIndex::new)
    }
}

impl<I: Index> PatternDbs<I> {
    /// `PatternDbs::new`, each table read at the index `index` gives for its pattern.
    fn with_index(
        patterns: &[Pattern],
        tables: Vec<&'static [u8]>,
        goal_cell: &[u8],
        reflect: bool,
        index: impl Fn(&Pattern) -> I,
    ) -> PatternDbs<I> {
        let first = &patterns[0];
        let (w, n) = (first.width, first.width * first.height);
        assert!(patterns.len() <= MAX_PATTERNS && tables.len() == patterns.len());
        assert!(patterns.iter().all(|p| p.cells.len() <= SLOTS));
        assert_eq!(
            patterns.iter().map(|p| p.cells.len()).sum::<usize>(),
            n - 1,
            "the patterns must cover every tile"
        );
        assert!(!reflect || first.width == first.height);
        let reflected = |c: usize| (c % w) * w + c / w;
        let mut views = Vec::new();
        for mirror in [false, true].into_iter().take(1 + reflect as usize) {
            let on = |c: usize| if mirror { reflected(c) } else { c };
            let mut view = View {
                pattern: [u8::MAX; 256],
                slot: [0; 256],
                tiles: vec![[0; MAX_TILES]; patterns.len()],
                cell: [0; 256],
            };
            for c in 0..n {
                view.cell[c] = on(c) as u8;
            }
            for (t, &goal) in goal_cell.iter().enumerate().take(n).skip(1) {
                let home = on(goal as usize) as u8;
                for (p, pattern) in patterns.iter().enumerate() {
                    if let Some(slot) = pattern.cells.iter().position(|&c| c == home) {
                        view.pattern[t] = p as u8;
                        view.slot[t] = slot as u8;
                        view.tiles[p][slot] = t as u8;
                    }
                }
            }
            views.push(view);
        }
        let mut distance = [[[0u8; MAX_CELLS]; SLOTS]; MAX_PATTERNS];
        for (d, pattern) in distance.iter_mut().zip(patterns) {
            for (slot, d) in d.iter_mut().enumerate().take(pattern.cells.len()) {
                for (c, d) in d.iter_mut().enumerate().take(n) {
                    *d = pattern.distance(slot, c);
                }
            }
        }
        PatternDbs {
            views,
            distance,
            tables: tables
                .into_iter()
                .zip(patterns)
                .map(|(t, p)| {
                    let index = index(p);
                    assert_eq!(t.len() as u64, index.size(), "a table of another size");
                    (t, index, p.cells.len())
                })
                .collect(),
            cells: n,
        }
    }

    /// The cells, as view `v` sees them, of pattern `p`'s tiles, by slot, with tile `t` on cell
    /// `at[t]`.
    fn cells(&self, v: usize, p: usize, at: &[u8; MAX_CELLS]) -> [u8; SLOTS] {
        let view = &self.views[v];
        let mut cells = [0u8; SLOTS];
        for (cell, &t) in cells.iter_mut().zip(&view.tiles[p][..self.tables[p].2]) {
            *cell = view.cell[at[t as usize % MAX_CELLS] as usize];
        }
        cells
    }

    /// Pattern `p`'s entry with its tiles on `cells`, `manhattan` from their goal cells, and the
    /// blank on `blank`.
    #[inline(always)]
    fn entry(&self, p: usize, cells: &[u8; SLOTS], blank: u8, manhattan: u8) -> u8 {
        let (table, index, _) = &self.tables[p];
        index.read(table, cells, blank, manhattan)
    }

    /// The Manhattan distance of pattern `p`'s tiles on `cells` from their goal cells.
    fn manhattan(&self, p: usize, cells: &[u8; SLOTS]) -> u8 {
        let d = &self.distance[p];
        (0..self.tables[p].2)
            .map(|slot| d[slot][usize::from(cells[slot]) % MAX_CELLS])
            .sum()
    }
}

/// Tiles per pattern whose cells a node carries: every partition's patterns fit.
const SLOTS: usize = 8;

/// What a node carries: each pattern's entry, and the cells of its tiles by slot, in view `v` at
/// `v * MAX_PATTERNS + p`, so that a move rewrites one cell and ranks the cells where they lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entries<C> {
    entries: [u8; 2 * MAX_PATTERNS],
    /// Each view's sum of its entries.
    sums: [u16; 2],
    /// Each pattern's Manhattan distance, where the index reads it (`Index::Carried`).
    manhattan: C,
    cells: [[u8; SLOTS]; 2 * MAX_PATTERNS],
}

impl<G: Grid, I: Index> Heuristic<G> for PatternDbs<I> {
    type Value = Entries<I::Carried>;
    const GOAL_AWARE: bool = true;
    const PARTIAL: bool = true;

    fn init(&self, _: &G, s: &G::State) -> Self::Value {
        let mut at = [0u8; MAX_CELLS];
        for c in 0..self.cells {
            at[G::tile(s, c) as usize] = c as u8;
        }
        let mut e = Entries {
            entries: [0; 2 * MAX_PATTERNS],
            sums: [0; 2],
            manhattan: I::Carried::default(),
            cells: [[0; SLOTS]; 2 * MAX_PATTERNS],
        };
        for v in 0..self.views.len() {
            let blank = self.views[v].cell[at[0] as usize];
            for p in 0..self.tables.len() {
                let cells = self.cells(v, p, &at);
                let mut manhattan = 0;
                if I::MANHATTAN {
                    manhattan = self.manhattan(p, &cells);
                    e.manhattan[v * MAX_PATTERNS + p] = manhattan;
                }
                e.entries[v * MAX_PATTERNS + p] = self.entry(p, &cells, blank, manhattan);
                e.sums[v] += u16::from(e.entries[v * MAX_PATTERNS + p]);
                e.cells[v * MAX_PATTERNS + p] = cells;
            }
        }
        e
    }

    /// Only the moved tile's pattern changes, in each view.
    #[inline(always)]
    fn update(&self, d: &G, s: &G::State, m: G::Move, e: Self::Value) -> Self::Value {
        match self.update_below(d, s, m, e, u32::MAX) {
            Some(e) => e,
            None => unreachable!("no estimate reaches u32::MAX"),
        }
    }

    /// The reflected view is read only when the direct one stays below `ceiling`: its lookup
    /// misses the cache as often, and most children are cut off by the first.
    #[inline(always)]
    fn update_below(
        &self,
        _: &G,
        s: &G::State,
        m: G::Move,
        mut e: Self::Value,
        ceiling: u32,
    ) -> Option<Self::Value> {
        let (b, blank, t) = G::slide(s, m);
        for (v, view) in self.views.iter().enumerate() {
            if v > 0 && u32::from(e.sums[0]) >= ceiling {
                return None;
            }
            let p = view.pattern[t as usize] as usize % MAX_PATTERNS;
            let at = v * MAX_PATTERNS + p;
            let slot = view.slot[t as usize] as usize % SLOTS;
            let (from, to) = (e.cells[at][slot], view.cell[b]);
            e.cells[at][slot] = to;
            let mut manhattan = 0;
            if I::MANHATTAN {
                let d = &self.distance[p][slot];
                manhattan = e.manhattan[at] + d[usize::from(to) % MAX_CELLS]
                    - d[usize::from(from) % MAX_CELLS];
                e.manhattan[at] = manhattan;
            }
            let new = self.entry(p, &e.cells[at], view.cell[blank], manhattan);
            e.sums[v] = e.sums[v] - u16::from(e.entries[at]) + u16::from(new);
            e.entries[at] = new;
        }
        Some(e)
    }

    #[inline(always)]
    fn estimate(&self, e: Self::Value) -> u32 {
        u32::from(e.sums[0].max(e.sums[1]))
    }
}
