//! Zero-aware pattern databases (Clausecker & Schintke): an entry per placement of a pattern's
//! tiles *and region of the blank*, the fewest moves of those tiles with the blank starting in
//! that region. A plain database keeps the least of these over the regions, so where the blank
//! is walled off from where the tiles need it the zero-aware entry is larger, and still adds up
//! with the other patterns' (each move moves one tile of one pattern).
//!
//! The entries lie as the builder's search holds its states (`pattern_bfs`): by map (the set of
//! cells the tiles cover, in colex order), then region (numbered by their lowest cells), then
//! the tiles' order on the map's cells (Lehmer rank), each region's block padded to whole words
//! of the search's two-bit fields. `ZeroIndex` finds an entry from the tiles' cells and the
//! blank's cell.

use super::pattern::{Pattern, MAX_CELLS, MAX_TILES};
use super::pattern_bfs::{self, Maps};
use crate::tables::store::{Spec, Unbuilt};
use std::sync::atomic::AtomicBool;

/// The zero-aware database of a pattern, as the store builds, names and checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZeroAware(pub Pattern);

/// Entries a zero-aware database may have: its index is a `u32`.
const MAX_ZERO_ENTRIES: u64 = u32::MAX as u64;

impl ZeroAware {
    /// The zero-aware database of `pattern`, or why its entries cannot be indexed.
    pub fn new(pattern: Pattern) -> Result<ZeroAware, String> {
        let entries = Maps::new(&pattern).fields();
        if entries > MAX_ZERO_ENTRIES {
            return Err(format!(
                "the zero-aware database of {} has {entries} entries, more than the {MAX_ZERO_ENTRIES} it may have",
                pattern.key()
            ));
        }
        Ok(ZeroAware(pattern))
    }
}

impl Spec for ZeroAware {
    fn key(&self) -> String {
        let p = &self.0;
        let cells: Vec<String> = p.cells.iter().map(|c| c.to_string()).collect();
        format!(
            "tiles-{}x{}-blank{}-zero-{}",
            p.width,
            p.height,
            p.blank,
            cells.join(".")
        )
    }

    fn describe(&self) -> Vec<(&'static str, String)> {
        let p = &self.0;
        let cells: Vec<String> = p.cells.iter().map(|c| c.to_string()).collect();
        vec![
            ("puzzle", format!("tiles {}x{}", p.width, p.height)),
            ("goal", format!("blank on cell {}", p.blank)),
            (
                "pattern",
                format!("tiles whose goal cells are {}", cells.join(" ")),
            ),
            ("regions", "an entry per region of the blank (zero-aware)".into()),
            (
                "ranking",
                "colex rank of the covered cells, region of the blank by lowest cell, Lehmer rank of the tiles' order; blocks padded to 32".into(),
            ),
        ]
    }

    fn entries(&self) -> u64 {
        Maps::new(&self.0).fields()
    }

    fn entry_format(&self) -> &'static str {
        "u8: fewest moves of the pattern's tiles with the blank in that region; 255 unreachable or padding"
    }

    fn goal_entry(&self) -> u64 {
        let p = &self.0;
        let mut cells = [0u8; MAX_TILES];
        cells[..p.cells.len()].copy_from_slice(&p.cells);
        ZeroIndex::new(p).index(&cells, p.blank as u8) as u64
    }

    fn build(
        &self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, Unbuilt> {
        pattern_bfs::search_zero(&self.0, progress, stop).ok_or(Unbuilt::Stopped)
    }

    fn build_memory(&self) -> u64 {
        pattern_bfs::memory(&self.0, true)
    }
}

/// Where a zero-aware database keeps the entry of a placement and a cell of the blank.
pub struct ZeroIndex {
    k: usize,
    n: usize,
    /// The first entry of each map's blocks.
    first: Vec<u32>,
    /// `region[map * n + cell]`: the region of a free cell.
    region: Vec<u8>,
    /// Entries per region's block.
    stride: u32,
    /// C(c, j) for the colex rank.
    binomial: [[u32; MAX_TILES + 1]; MAX_CELLS + 1],
    size: u64,
}

impl ZeroIndex {
    pub fn new(pattern: &Pattern) -> ZeroIndex {
        let maps = Maps::new(pattern);
        let first = maps.first[..maps.first.len() - 1]
            .iter()
            .map(|&f| u32::try_from(f).expect("ZeroAware::new refuses larger databases"))
            .collect();
        ZeroIndex {
            size: maps.fields(),
            k: maps.k,
            n: maps.n,
            first,
            stride: maps.stride as u32,
            region: maps.region,
            binomial: maps.binomial,
        }
    }

    /// The entries of the database.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of the entry of the tiles on `cells` (by slot) with the blank on `blank`.
    #[inline(always)]
    pub fn index(&self, cells: &[u8], blank: u8) -> usize {
        let k = self.k;
        let mask = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        let mut map = 0usize;
        let mut left = mask;
        let mut j = 1;
        while left != 0 {
            map += self.binomial[left.trailing_zeros() as usize][j] as usize;
            left &= left - 1;
            j += 1;
        }
        // Slot i's digit: how many of the cells the later slots cover lie below its own (the
        // builder's Lehmer rank of the order, `pattern_bfs::Orders::rank`).
        let mut rest = mask;
        let mut order = 0usize;
        for (i, &c) in cells[..k].iter().enumerate() {
            order = order * (k - i) + (rest & ((1u32 << c) - 1)).count_ones() as usize;
            rest &= !(1 << c);
        }
        let region = self.region[map * self.n + blank as usize] as usize;
        self.first[map] as usize + region * self.stride as usize + order
    }
}
