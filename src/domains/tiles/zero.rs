//! Zero-aware pattern databases (after Clausecker & Schintke): entries that know where the
//! blank is. A plain database keeps, for each placement of a pattern's tiles, the fewest moves of
//! those tiles wherever the blank starts: the least over the regions of free cells the tiles cut
//! the board into. Where the tiles wall the blank off from the cells it must reach, the cost from
//! its own region is larger, and still adds up with the other patterns' (each move moves one tile
//! of one pattern).
//!
//! The builder's search runs over (placement, region) anyway (`pattern_bfs::search_zero`); these
//! tables keep two of its costs per placement, next to each other at twice the plain index: with
//! the blank in the region of more than half the free cells (the open board), and the least over
//! the others (the corners the tiles close off). So a lookup reads where a plain one would, and
//! learns the class of the blank's region by flooding from it until it grows past half or stops.

use super::pattern::{Geometry, Pattern, Ranker, MAX_TILES};
use super::pattern_bfs;
use crate::tables::store::{Spec, Unbuilt};
use std::sync::atomic::AtomicBool;

/// The zero-aware database of a pattern, as the store builds, names and checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZeroAware(pub Pattern);

/// Entries a zero-aware database may have, as a plain one.
const MAX_ZERO_ENTRIES: u64 = super::pattern::MAX_ENTRIES;

impl ZeroAware {
    /// The zero-aware database of `pattern`, or why its entries cannot be indexed.
    pub fn new(pattern: Pattern) -> Result<ZeroAware, String> {
        let entries = 2 * pattern.ranker().size();
        if entries > MAX_ZERO_ENTRIES {
            return Err(format!(
                "the zero-aware database of {} has {entries} entries, more than the {MAX_ZERO_ENTRIES} it may have",
                pattern.key()
            ));
        }
        Ok(ZeroAware(pattern))
    }

    /// The zero-aware database a table file's header describes, if it describes one.
    pub fn from_header(fields: &[(String, String)]) -> Option<ZeroAware> {
        let regions = fields.iter().find(|(k, _)| k == "regions")?;
        let pattern = Pattern::described(fields)?;
        let spec = ZeroAware::new(pattern).ok()?;
        let described = spec.describe();
        let same = described.iter().find(|(k, _)| *k == "regions");
        same.is_some_and(|(_, v)| *v == regions.1).then_some(spec)
    }
}

impl Spec for ZeroAware {
    /// The plain database's key with `zero` before the cells: `tiles-4x4-blank0-zero-1.2.4.5.8`.
    fn key(&self) -> String {
        let key = self.0.key();
        let (board, cells) = key
            .rsplit_once('-')
            .expect("a pattern's key ends in its cells");
        format!("{board}-zero-{cells}")
    }

    /// The plain database's header, with what the entries are per placement and where they lie.
    fn describe(&self) -> Vec<(&'static str, String)> {
        let mut lines: Vec<(&'static str, String)> = Spec::describe(&self.0)
            .into_iter()
            .filter(|(k, _)| *k != "ranking")
            .collect();
        lines.push((
            "regions",
            "two entries per placement: the blank in the large region, elsewhere (zero-aware)"
                .into(),
        ));
        lines.push((
            "ranking",
            "mixed-radix rank of the tiles' cells, in goal-cell order, times two; plus one when the blank is outside the region of more than half the free cells".into(),
        ));
        lines
    }

    fn entries(&self) -> u64 {
        2 * self.0.ranker().size()
    }

    fn entry_format(&self) -> &'static str {
        "u8: fewest moves of the pattern's tiles with the blank in that class of regions; 255 unreachable or none"
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
            .max(pattern_bfs::zero_fields(&self.0) + 2 * self.0.ranker().size())
    }
}

/// Where a zero-aware database keeps the entry of a placement and a cell of the blank: two
/// entries per placement, by the placement's rank (as a plain database's), the first for the
/// blank in the region that holds more than half of the free cells, the second for any other.
pub struct ZeroIndex {
    ranker: Ranker,
    /// Free cells, the blank's included: a region larger than half of them is the large one.
    free: u32,
    board: Geometry,
}

impl ZeroIndex {
    pub fn new(pattern: &Pattern) -> ZeroIndex {
        ZeroIndex {
            ranker: pattern.ranker(),
            free: (pattern.width * pattern.height - pattern.cells.len()) as u32,
            board: Geometry::new(pattern.width, pattern.height),
        }
    }

    /// The entries of the database.
    pub fn size(&self) -> u64 {
        2 * self.ranker.size()
    }

    /// The rank of the tiles on `cells` (by slot): their entries are at twice it and after.
    #[inline(always)]
    pub fn rank(&self, cells: &[u8]) -> usize {
        self.ranker.rank(cells)
    }

    /// Whether the blank's cell, `blank`, lies outside the region of more than half the free
    /// cells, with the tiles on `cells`: the second of the placement's entries is its.
    #[inline(always)]
    pub fn outside(&self, cells: &[u8], blank: u8) -> bool {
        let covered = cells[..self.ranker.tiles()]
            .iter()
            .fold(0u32, |m, &c| m | 1 << (c % 32));
        self.board
            .flood_within(1 << (blank % 32), self.board.all & !covered, self.free / 2)
    }

    /// The index of the entry of the tiles on `cells` with the blank on `blank`.
    pub fn index(&self, cells: &[u8], blank: u8) -> usize {
        2 * self.rank(cells) + usize::from(self.outside(cells, blank))
    }
}
