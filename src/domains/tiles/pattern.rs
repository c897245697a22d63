//! One pattern database of a sliding-tile board: its pattern (the goal cells of the tiles it
//! tracks), the perfect ranking of where those tiles are, and the states that the breadth-first
//! search filling it (`pattern_bfs`) runs over.
//!
//! The database holds, for each placement of the pattern's tiles, the fewest moves *of those
//! tiles* that bring them home, whatever the other tiles do and wherever the blank starts (the
//! minimum over the blank's cells). Moves of other tiles are free, so disjoint patterns add up to
//! an admissible estimate (Korf & Felner 2002).
//!
//! The search runs over (placement, region): free moves let the blank reach every cell of its
//! region, the cells not covered by pattern tiles that it can get to, so a state is a placement
//! and a region, and each move of a pattern tile into the region costs one. A placement's entry
//! is the first layer that reaches it in any region.

use crate::tables::store::{Spec, Unbuilt};
use std::sync::atomic::AtomicBool;

/// Boards of at most this many cells: a region is a bit mask.
pub const MAX_CELLS: usize = 32;
/// Tracked tiles per pattern, at most.
pub const MAX_TILES: usize = 12;
/// Entries a database may have: its build holds about two bytes per entry (`pattern_bfs`), 8 GiB
/// at this size.
pub const MAX_ENTRIES: u64 = 1 << 32;
/// The entry of a placement no move sequence reaches (none, when the board has two free cells).
pub const UNREACHED: u8 = u8::MAX;

/// The tiles a database tracks, named by their goal cells, on a `width` x `height` board whose
/// goal has the blank on `blank`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    pub width: usize,
    pub height: usize,
    pub blank: usize,
    /// Goal cells of the tracked tiles, ascending: slot `i` of a placement is the tile whose goal
    /// is `cells[i]`.
    pub cells: Vec<u8>,
}

impl Pattern {
    pub fn new(width: usize, height: usize, blank: usize, cells: &[u8]) -> Result<Pattern, String> {
        let n = width.saturating_mul(height);
        if n > MAX_CELLS || width == 0 || height == 0 {
            return Err(format!(
                "a pattern database needs a board of at most {MAX_CELLS} cells, not {width}x{height}"
            ));
        }
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != cells.len()
            || sorted.is_empty()
            || sorted.len() > MAX_TILES
            || sorted
                .iter()
                .any(|&c| c as usize >= n || c as usize == blank)
            || blank >= n
        {
            return Err(format!(
                "pattern {cells:?}: expected 1 to {MAX_TILES} distinct cells of the {width}x{height} board, not the blank's ({blank})"
            ));
        }
        let p = Pattern {
            width,
            height,
            blank,
            cells: sorted,
        };
        if p.ranker().size() > MAX_ENTRIES {
            return Err(format!(
                "pattern of {} tiles on {width}x{height}: {} entries, more than the {MAX_ENTRIES} a database may have",
                p.cells.len(),
                p.ranker().size()
            ));
        }
        Ok(p)
    }

    /// The name of its file and of its entry in a manifest: `tiles-4x4-blank0-1.2.4.5.8`.
    pub fn key(&self) -> String {
        let cells: Vec<String> = self.cells.iter().map(|c| c.to_string()).collect();
        format!(
            "tiles-{}x{}-blank{}-{}",
            self.width,
            self.height,
            self.blank,
            cells.join(".")
        )
    }

    /// The pattern a table file's header describes (see `describe`), if it describes one (and
    /// not a weighted pattern's table, whose header also has `costs`, nor a zero-aware one's,
    /// with `regions`).
    pub fn from_header(fields: &[(String, String)]) -> Option<Pattern> {
        if fields.iter().any(|(k, _)| k == "costs" || k == "regions") {
            return None;
        }
        Pattern::described(fields)
    }

    /// The pattern a header's `puzzle`, `goal` and `pattern` lines name.
    pub(super) fn described(fields: &[(String, String)]) -> Option<Pattern> {
        let field = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
        let (w, h) = field("puzzle")?.strip_prefix("tiles ")?.split_once('x')?;
        let blank = field("goal")?
            .strip_prefix("blank on cell ")?
            .parse()
            .ok()?;
        let cells: Vec<u8> = field("pattern")?
            .strip_prefix("tiles whose goal cells are ")?
            .split(' ')
            .map(|c| c.parse().ok())
            .collect::<Option<_>>()?;
        Pattern::new(w.parse().ok()?, h.parse().ok()?, blank, &cells).ok()
    }

    pub fn ranker(&self) -> Ranker {
        Ranker::new(self.width * self.height, self.cells.len())
    }

    /// How far cell `c` is from the goal cell of the tile in `slot`: its Manhattan distance.
    pub fn distance(&self, slot: usize, c: usize) -> u8 {
        let (home, w) = (usize::from(self.cells[slot]), self.width);
        ((c % w).abs_diff(home % w) + (c / w).abs_diff(home / w)) as u8
    }
}

/// The board as the builders see it: each cell's neighbours, and the region the blank reaches
/// through free cells by moves that cost nothing.
pub(super) struct Geometry {
    /// The neighbours of each cell, as masks.
    pub neighbours: Vec<u32>,
    /// Every cell of the board.
    pub all: u32,
    width: usize,
    /// Cells that have a neighbour to their right (left): a shift must not wrap a row.
    not_last: u32,
    not_first: u32,
}

impl Geometry {
    pub fn new(width: usize, height: usize) -> Geometry {
        let (w, h) = (width, height);
        let n = w * h;
        let neighbours = (0..n)
            .map(|cell| {
                let (r, c) = (cell / w, cell % w);
                let mut m = 0u32;
                if r > 0 {
                    m |= 1 << (cell - w);
                }
                if r + 1 < h {
                    m |= 1 << (cell + w);
                }
                if c > 0 {
                    m |= 1 << (cell - 1);
                }
                if c + 1 < w {
                    m |= 1 << (cell + 1);
                }
                m
            })
            .collect();
        let (not_last, not_first) = (0..n).fold((0u32, 0u32), |(l, f), c| {
            (
                l | (((c % w != w - 1) as u32) << c),
                f | (((c % w != 0) as u32) << c),
            )
        });
        Geometry {
            neighbours,
            all: if n == 32 { u32::MAX } else { (1u32 << n) - 1 },
            width: w,
            not_last,
            not_first,
        }
    }

    /// Whether the cells of `free` connected to `from` through `free` are at most `half` of
    /// them: the flood stops as soon as it passes that.
    #[inline(always)]
    pub fn flood_within(&self, from: u32, free: u32, half: u32) -> bool {
        let mut region = from;
        loop {
            let grown = self.grow(region, free);
            if grown.count_ones() > half {
                return false;
            }
            if grown == region {
                return true;
            }
            region = grown;
        }
    }

    /// The cells of `free` connected to `from` through `free`.
    #[inline(always)]
    pub fn flood(&self, from: u32, free: u32) -> u32 {
        let mut region = from;
        loop {
            let grown = self.grow(region, free);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// `region` and the cells of `free` next to it.
    #[inline(always)]
    fn grow(&self, region: u32, free: u32) -> u32 {
        let w = self.width;
        (region
            | region << w
            | region >> w
            | (region & self.not_last) << 1
            | (region & self.not_first) >> 1)
            & free
    }
}

/// A perfect ranking of the placements of `k` distinct tiles on `n` cells (n!/(n-k)! of them):
/// tile `i`'s cell, counted among the cells tiles `0..i` left free, is digit `i` of a mixed-radix
/// number (radix `n - i`).
#[derive(Clone, Copy, Debug)]
pub struct Ranker {
    n: usize,
    k: usize,
    weight: [u64; MAX_TILES],
}

impl Ranker {
    pub fn new(n: usize, k: usize) -> Ranker {
        assert!((1..=MAX_TILES).contains(&k) && k < n && n <= MAX_CELLS);
        let mut weight = [0u64; MAX_TILES];
        weight[k - 1] = 1;
        for i in (0..k - 1).rev() {
            weight[i] = weight[i + 1] * (n - 1 - i) as u64;
        }
        Ranker { n, k, weight }
    }

    /// The tiles it places.
    pub fn tiles(&self) -> usize {
        self.k
    }

    /// How many placements there are.
    pub fn size(&self) -> u64 {
        self.weight[0] * self.n as u64
    }

    /// The rank of the placement with tile `i` on `cells[i]` (distinct cells).
    #[inline(always)]
    pub fn rank(&self, cells: &[u8]) -> usize {
        let mut used = 0u32;
        let mut rank = 0u64;
        for (&cell, &w) in cells[..self.k].iter().zip(&self.weight) {
            let cell = cell % MAX_CELLS as u8;
            let bit = 1u32 << cell;
            let before = (used & (bit - 1)).count_ones();
            rank += (cell as u32 - before) as u64 * w;
            used |= bit;
        }
        rank as usize
    }

    /// The placement of `rank` into `cells`; the mask of the cells it covers.
    pub fn unrank(&self, rank: u64, cells: &mut [u8]) -> u32 {
        let all = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        let mut used = 0u32;
        let mut rest = rank;
        for (i, &w) in self.weight[..self.k].iter().enumerate() {
            let mut free = all & !used;
            for _ in 0..rest / w {
                free &= free - 1;
            }
            rest %= w;
            let cell = free.trailing_zeros();
            cells[i] = cell as u8;
            used |= 1 << cell;
        }
        used
    }
}

impl Spec for Pattern {
    fn key(&self) -> String {
        Pattern::key(self)
    }

    fn describe(&self) -> Vec<(&'static str, String)> {
        let cells: Vec<String> = self.cells.iter().map(|c| c.to_string()).collect();
        vec![
            ("puzzle", format!("tiles {}x{}", self.width, self.height)),
            ("goal", format!("blank on cell {}", self.blank)),
            (
                "pattern",
                format!("tiles whose goal cells are {}", cells.join(" ")),
            ),
            (
                "ranking",
                "mixed-radix rank of the tiles' cells, in goal-cell order".into(),
            ),
        ]
    }

    fn entries(&self) -> u64 {
        self.ranker().size()
    }

    fn entry_format(&self) -> &'static str {
        "u8: fewest moves of the pattern's tiles, over every blank cell; 255 unreachable"
    }

    fn goal_entry(&self) -> u64 {
        // Each tracked tile on its own goal cell.
        self.ranker().rank(&self.cells) as u64
    }

    fn build(
        &self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, Unbuilt> {
        build_until(self, progress, stop).ok_or(Unbuilt::Stopped)
    }

    fn build_memory(&self) -> u64 {
        super::pattern_bfs::memory(self)
    }
}

/// Fills the database of `pattern`: one byte per placement, in rank order. `progress` is told how
/// far the build has come, now and then, from any thread (see `pattern_bfs::search`).
pub fn build(pattern: &Pattern, progress: &(dyn Fn(u64) + Sync)) -> Vec<u8> {
    build_until(pattern, progress, &AtomicBool::new(false)).expect("never stopped")
}

/// As `build`, or `None` soon after `stop` is set (a signal asking the command to end).
pub fn build_until(
    pattern: &Pattern,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<u8>> {
    super::pattern_bfs::search(pattern, progress, stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_0_to_size() {
        for (n, k) in [(4, 1), (4, 3), (6, 2), (9, 4), (8, 5)] {
            let r = Ranker::new(n, k);
            let mut seen = vec![false; r.size() as usize];
            let mut cells = [0u8; MAX_TILES];
            for rank in 0..r.size() {
                let covered = r.unrank(rank, &mut cells);
                assert_eq!(covered.count_ones() as usize, k);
                assert!(cells[..k].iter().all(|&c| covered & (1 << c) != 0));
                assert_eq!(r.rank(&cells[..k]) as u64, rank);
                assert!(!seen[rank as usize]);
                seen[rank as usize] = true;
            }
        }
        assert_eq!(Ranker::new(16, 8).size(), 518_918_400);
        assert_eq!(Ranker::new(25, 6).size(), 127_512_000);
    }

    #[test]
    fn one_tile_needs_its_manhattan_distance() {
        // A lone tile moves freely: the blank can always come round, so its database is its
        // distance home.
        let p = Pattern::new(3, 3, 0, &[4]).unwrap();
        let db = build(&p, &|_| {});
        for (cell, &d) in db.iter().enumerate() {
            let (r, c) = (cell / 3, cell % 3);
            assert_eq!(d as usize, r.abs_diff(1) + c.abs_diff(1), "tile at {cell}");
        }
    }

    #[test]
    fn patterns_are_checked() {
        assert!(Pattern::new(4, 4, 0, &[0, 1]).is_err());
        assert!(Pattern::new(4, 4, 0, &[1, 1]).is_err());
        assert!(Pattern::new(4, 4, 0, &[16]).is_err());
        assert!(Pattern::new(6, 6, 0, &[1]).is_err());
        assert!(Pattern::new(5, 5, 0, &(1..13).collect::<Vec<u8>>()).is_err());
        assert_eq!(
            Pattern::new(4, 4, 0, &[7, 1, 3]).unwrap().key(),
            "tiles-4x4-blank0-1.3.7"
        );
    }
}
