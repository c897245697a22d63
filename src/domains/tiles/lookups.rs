//! More lookups in one partition's pattern databases: the dual lookups (Felner, Zahavi, Schaeffer
//! & Holte 2005), kept admissible when the blank is off its goal cell as the general duality of
//! Zahavi, Felner, Holte & Schaeffer (2008) allows, and one lookup chosen per node by a seeded
//! hash of the state (Zahavi, Felner, Schaeffer & Sturtevant 2007).
//!
//! Write a state as `r`, the home cell of the piece on each cell (the blank's home is `g0`), so
//! that the goal is the identity. A solution is a product of transpositions `t1 ... tk` with
//! `r t1 ... tk = id`, so the dual state `r⁻¹` is solved by the same transpositions in reverse
//! order, at the same cost. In `r⁻¹` the piece that moves with every transposition (the dual's
//! blank) is the one labelled with the blank's cell `b`: it starts on `g0` and must end on `b`.
//! When `b = g0` the dual is an ordinary state of the same puzzle, and every database reads it
//! as it reads any state. Otherwise a database of pattern `P` still bounds the dual's moves of
//! `P`'s pieces, provided `b` is not one of `P`'s cells (the dual's blank is no piece of it) and
//! `b` lies in the region of `g0` once `P`'s pieces are home (the database's goal keeps the
//! blank in that region); the other patterns count 0. Piece `h` of the dual lies on `r(h)`: the
//! dual lookup of `P` reads the home cells of the tiles on `P`'s cells.

use super::pattern::{Pattern, Ranker, MAX_CELLS, MAX_TILES};
use super::pdb::MAX_PATTERNS;
use super::Grid;
use crate::search::Heuristic;
use crate::util::rng::Rng;

/// The seed of `Policy::Random`'s hash: recorded in a run's manifest, so that the lookup each
/// node gets can be told and repeated.
pub const RANDOM_LOOKUP_SEED: u64 = 0x1da_b3c4_2026;

/// Which lookups of a partition's databases a heuristic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The board as it is (`pdb-X`).
    Regular,
    /// The larger of the regular and the reflected lookup (`pdb-X+reflect`).
    Reflect,
    /// The larger of the regular and the dual lookup (`pdb-X+dual`).
    Dual,
    /// The largest of the regular, reflected, dual and dual reflected lookups
    /// (`pdb-X+dual+reflect`).
    DualReflect,
    /// One lookup per node, chosen by a seeded hash of the state among those exact at that node:
    /// the regular and (on a square board) the reflected one everywhere, and their duals where
    /// the blank is on its goal cell (`pdb-X+random`).
    Random,
}

/// One way to read the databases: the board as it is or reflected about its main diagonal, the
/// state or its dual.
#[derive(Clone, Copy)]
struct Lookup {
    /// Reflected about the main diagonal.
    mirror: bool,
    /// Reads the dual state: `read` holds cells of `Lookups::home`, not tiles of `Lookups::at`.
    dual: bool,
    /// read[p][i]: where slot `i` of pattern `p` is read.
    read: [[u8; MAX_TILES]; MAX_PATTERNS],
    /// The pattern a tile (regular) or a cell (dual) is read by; `u8::MAX` for none.
    pattern_of: [u8; 256],
    /// valid[p]: the blank's cells where pattern `p`'s entry bounds the distance (every cell for
    /// a regular lookup).
    valid: [u32; MAX_PATTERNS],
}

/// Lookups of `Lookup` index `l` at `l * MAX_PATTERNS + p` of `Lookups::entries`, at most.
const MAX_LOOKUPS: usize = 4;

/// A partition's databases read by a `Policy` other than `Regular` and `Reflect` (those are
/// `PatternDbs`, unchanged).
pub struct PatternLookups {
    policy: Policy,
    lookups: Vec<Lookup>,
    tables: Vec<(&'static [u8], Ranker, usize)>,
    /// The cell each cell becomes in the reflected board (the identity when not square).
    mirrored: [u8; MAX_CELLS],
    goal_cell: [u8; 256],
    cells: usize,
    /// The blank's goal cell.
    g0: usize,
    /// zobrist[tile][cell], from `RANDOM_LOOKUP_SEED`.
    zobrist: Box<[[u64; MAX_CELLS]; MAX_CELLS]>,
}

/// What a node carries: the entries of every lookup kept up to date (`Dual`, `DualReflect`) or
/// the estimate of the lookup chosen for it (`Random`), each tile's cell, each cell's home cell
/// (its piece's goal cell) and the state's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookups {
    entries: [u8; MAX_LOOKUPS * MAX_PATTERNS],
    chosen: u16,
    at: [u8; MAX_CELLS],
    home: [u8; MAX_CELLS],
    hash: u64,
}

impl PatternLookups {
    /// The heuristic for a board whose tile `t` belongs on `goal_cell[t]`, reading the database
    /// of `patterns[i]` in `tables[i]` by `policy` (`Dual`, `DualReflect` or `Random`). The
    /// patterns must cover every tile; `DualReflect` needs a square board.
    pub fn new(
        patterns: &[Pattern],
        tables: Vec<&'static [u8]>,
        goal_cell: &[u8],
        policy: Policy,
    ) -> PatternLookups {
        let first = &patterns[0];
        let (w, h, g0) = (first.width, first.height, first.blank);
        let n = w * h;
        assert!(patterns.len() <= MAX_PATTERNS && tables.len() == patterns.len());
        assert_eq!(
            patterns.iter().map(|p| p.cells.len()).sum::<usize>(),
            n - 1,
            "the patterns must cover every tile"
        );
        let square = w == h;
        let mut mirrored = [0u8; MAX_CELLS];
        for (c, m) in mirrored.iter_mut().enumerate().take(n) {
            *m = if square {
                ((c % w) * w + c / w) as u8
            } else {
                c as u8
            };
        }
        assert_eq!(
            mirrored[g0] as usize, g0,
            "the reflection keeps the blank's goal cell"
        );
        let (mirrors, duals): (&[bool], &[bool]) = match policy {
            Policy::Dual => (&[false], &[false, true]),
            Policy::DualReflect => {
                assert!(square, "reflection needs a square board");
                (&[false, true], &[false, true])
            }
            Policy::Random if square => (&[false, true], &[false, true]),
            Policy::Random => (&[false], &[false, true]),
            Policy::Regular | Policy::Reflect => {
                panic!("the regular and reflected lookups are PatternDbs'")
            }
        };
        let mut goal = [0u8; 256];
        goal[..n].copy_from_slice(&goal_cell[..n]);
        let mut lookups = Vec::new();
        for &dual in duals {
            for &mirror in mirrors {
                let on = |c: usize| if mirror { mirrored[c] as usize } else { c };
                let mut l = Lookup {
                    mirror,
                    dual,
                    read: [[0; MAX_TILES]; MAX_PATTERNS],
                    pattern_of: [u8::MAX; 256],
                    valid: [u32::MAX; MAX_PATTERNS],
                };
                for (p, pattern) in patterns.iter().enumerate() {
                    for (i, &cell) in pattern.cells.iter().enumerate() {
                        let at = if dual {
                            on(cell as usize)
                        } else {
                            // The tile whose home, in this view, is `cell`.
                            (1..n)
                                .find(|&t| on(goal[t] as usize) == cell as usize)
                                .expect("every cell but the blank's is some tile's home")
                        };
                        l.read[p][i] = at as u8;
                        l.pattern_of[at] = p as u8;
                    }
                    if dual {
                        let region = region_of(w, h, g0, &pattern.cells);
                        l.valid[p] = (0..n)
                            .filter(|&b| region & (1 << on(b)) != 0)
                            .fold(0, |m, b| m | 1 << b);
                    }
                }
                lookups.push(l);
            }
        }
        let mut rng = Rng::new(RANDOM_LOOKUP_SEED);
        let mut zobrist: Box<[[u64; MAX_CELLS]; MAX_CELLS]> = Box::new([[0; MAX_CELLS]; MAX_CELLS]);
        for row in zobrist.iter_mut() {
            for z in row.iter_mut() {
                *z = rng.next_u64();
            }
        }
        PatternLookups {
            policy,
            lookups,
            tables: tables
                .into_iter()
                .zip(patterns)
                .map(|(t, p)| {
                    assert_eq!(t.len() as u64, p.ranker().size(), "a table of another size");
                    (t, p.ranker(), p.cells.len())
                })
                .collect(),
            mirrored,
            goal_cell: goal,
            cells: n,
            g0,
            zobrist,
        }
    }

    /// Pattern `p`'s entry in lookup `l` of the node `v`.
    #[inline(always)]
    fn entry(&self, l: usize, p: usize, v: &Lookups) -> u8 {
        let look = &self.lookups[l];
        let (table, ranker, k) = &self.tables[p];
        let source = if look.dual { &v.home } else { &v.at };
        let mut cells = [0u8; MAX_TILES];
        for (cell, &i) in cells.iter_mut().zip(&look.read[p][..*k]) {
            let c = source[i as usize % MAX_CELLS] as usize % MAX_CELLS;
            *cell = if look.mirror {
                self.mirrored[c]
            } else {
                c as u8
            };
        }
        table[ranker.rank(&cells)]
    }

    /// Lookup `l`'s sum for the node `v`, each pattern counted where its entry is valid.
    #[inline(always)]
    fn sum(&self, l: usize, v: &Lookups) -> u32 {
        let blank = v.at[0] as u32 % MAX_CELLS as u32;
        let valid = &self.lookups[l].valid;
        (0..self.tables.len())
            .filter(|&p| (valid[p] >> blank) & 1 != 0)
            .map(|p| v.entries[l * MAX_PATTERNS + p] as u32)
            .sum()
    }

    /// `Random`: the estimate of the lookup the node's hash picks among those exact at it.
    #[inline(always)]
    fn chosen(&self, v: &Lookups) -> u16 {
        let views = if self.lookups.len() == 4 { 2 } else { 1 };
        let exact = if v.at[0] as usize == self.g0 {
            2 * views
        } else {
            views
        };
        // The hash's high half scaled to 0..exact: no modulo, no bias worth a division.
        let l = (((v.hash >> 32) * exact as u64) >> 32) as usize;
        (0..self.tables.len())
            .map(|p| self.entry(l, p, v) as u32)
            .sum::<u32>() as u16
    }
}

/// The cells of a `w` x `h` board the blank can reach from `from` without crossing `walls`, as a
/// mask.
fn region_of(w: usize, h: usize, from: usize, walls: &[u8]) -> u32 {
    let wall = walls.iter().fold(0u32, |m, &c| m | 1 << c);
    let mut region = 1u32 << from;
    let mut todo = vec![from];
    while let Some(c) = todo.pop() {
        let (r, col) = (c / w, c % w);
        let next = [
            (r > 0, c.wrapping_sub(w)),
            (col > 0, c.wrapping_sub(1)),
            (col + 1 < w, c + 1),
            (r + 1 < h, c + w),
        ];
        for (on_board, n) in next {
            if on_board && (region | wall) & (1 << n) == 0 {
                region |= 1 << n;
                todo.push(n);
            }
        }
    }
    region
}

impl<G: Grid> Heuristic<G> for PatternLookups {
    type Value = Lookups;
    const GOAL_AWARE: bool = true;

    fn init(&self, _: &G, s: &G::State) -> Lookups {
        let mut v = Lookups {
            entries: [0; MAX_LOOKUPS * MAX_PATTERNS],
            chosen: 0,
            at: [0; MAX_CELLS],
            home: [0; MAX_CELLS],
            hash: 0,
        };
        for c in 0..self.cells {
            let t = G::tile(s, c) as usize;
            v.at[t] = c as u8;
            v.home[c] = self.goal_cell[t];
            if t != 0 {
                v.hash ^= self.zobrist[t][c];
            }
        }
        if self.policy == Policy::Random {
            v.chosen = self.chosen(&v);
        } else {
            for l in 0..self.lookups.len() {
                for p in 0..self.tables.len() {
                    v.entries[l * MAX_PATTERNS + p] = self.entry(l, p, &v);
                }
            }
        }
        v
    }

    /// A regular lookup reads again the moved tile's pattern, a dual one the patterns of the two
    /// cells the move changes; `Random` reads its one lookup whole.
    #[inline(always)]
    fn update(&self, _: &G, s: &G::State, m: G::Move, mut v: Lookups) -> Lookups {
        let (b, to, t) = G::slide(s, m);
        let t = t as usize % MAX_CELLS;
        v.at[t] = b as u8;
        v.at[0] = to as u8;
        v.home[b % MAX_CELLS] = self.goal_cell[t];
        v.home[to % MAX_CELLS] = self.g0 as u8;
        v.hash ^= self.zobrist[t][b % MAX_CELLS] ^ self.zobrist[t][to % MAX_CELLS];
        if self.policy == Policy::Random {
            v.chosen = self.chosen(&v);
            return v;
        }
        for (l, look) in self.lookups.iter().enumerate() {
            let mut again = |p: u8| {
                if p != u8::MAX {
                    let p = p as usize % MAX_PATTERNS;
                    v.entries[l * MAX_PATTERNS + p] = self.entry(l, p, &v);
                }
            };
            if look.dual {
                again(look.pattern_of[b]);
                again(look.pattern_of[to]);
            } else {
                again(look.pattern_of[t]);
            }
        }
        v
    }

    #[inline(always)]
    fn estimate(&self, v: Lookups) -> u32 {
        if self.policy == Policy::Random {
            return v.chosen as u32;
        }
        (0..self.lookups.len())
            .map(|l| self.sum(l, &v))
            .max()
            .unwrap_or(0)
    }
}
