//! Zero-aware pattern databases (after Clausecker & Schintke): entries that know where the
//! blank is. A plain database keeps, for each placement of a pattern's tiles, the fewest moves of
//! those tiles wherever the blank starts: the least over the regions of free cells the tiles cut
//! the board into. Where the tiles wall the blank off from the cells it must reach, the cost from
//! its own region is larger, and still adds up with the other patterns' (each move moves one tile
//! of one pattern).
//!
//! The builder's search runs over (placement, region) anyway (`pattern_bfs::search_zero`); these
//! tables keep two of its costs per placement: with the blank in the region of more than half
//! the free cells (the open board), and the least over the others (the corners the tiles close
//! off). Both fit in the one byte a plain table spends on a placement, read where a plain lookup
//! reads: a cost exceeds the pattern tiles' Manhattan distance by an even number of moves (each
//! move takes one tile one step nearer or farther), and on the 24-puzzle's 6-tile patterns by at
//! most 10, so half the excess fits in 4 bits (the 15-puzzle's partitions fit too; a build whose
//! costs do not fit refuses). The search carries each pattern's Manhattan distance, and learns
//! the class of the blank's region by flooding from it until it grows past half or stops.

use super::pattern::{Geometry, Pattern, Ranker, MAX_TILES};
use super::pattern_bfs;
use crate::tables::store::{Spec, Unbuilt};
use std::sync::atomic::AtomicBool;

/// The zero-aware database of a pattern, as the store builds, names and checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZeroAware(pub Pattern);

/// The half-excess that marks a class of regions a placement does not have.
pub const NONE: u8 = 15;
/// A placement's byte before the build has found either class's cost.
pub const ABSENT: u8 = NONE | NONE << 4;

/// What a placement's byte keeps of a `cost` of tiles `manhattan` from their goal cells, in the
/// half for the blank's class of regions: the excess, halved; `None` if it is odd or negative
/// (never a cost of these tiles) or does not fit below `NONE` (the 24-puzzle's and 15-puzzle's
/// patterns fit; a 2x5 board's whole puzzle does not, and its build is refused).
pub fn half(cost: u8, manhattan: u8) -> Option<u8> {
    let excess = cost.checked_sub(manhattan)?;
    (excess % 2 == 0 && excess / 2 < NONE).then_some(excess / 2)
}

impl ZeroAware {
    /// The zero-aware database of `pattern` (the same number of entries as its plain one).
    pub fn new(pattern: Pattern) -> ZeroAware {
        ZeroAware(pattern)
    }

    /// The zero-aware database a table file's header describes, if it describes one. One of an
    /// older layout is taken for today's, so that its load names the header line that differs.
    pub fn from_header(fields: &[(String, String)]) -> Option<ZeroAware> {
        fields.iter().find(|(k, _)| k == "regions")?;
        Pattern::described(fields).map(ZeroAware::new)
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

    /// The plain database's header, with what the entries are per placement.
    fn describe(&self) -> Vec<(&'static str, String)> {
        let mut lines: Vec<(&'static str, String)> = Spec::describe(&self.0)
            .into_iter()
            .filter(|(k, _)| *k != "ranking")
            .collect();
        lines.push((
            "regions",
            "two costs per placement, in 4 bits each: the blank in the large region, elsewhere (zero-aware)"
                .into(),
        ));
        lines.push((
            "ranking",
            "mixed-radix rank of the tiles' cells, in goal-cell order".into(),
        ));
        lines
    }

    fn entries(&self) -> u64 {
        self.0.ranker().size()
    }

    fn entry_format(&self) -> &'static str {
        "u8: low 4 bits with the blank in the region of more than half the free cells, high 4 bits elsewhere: (fewest moves of the pattern's tiles - their Manhattan distance) / 2; 15 unreachable or none"
    }

    /// The goal placement's, which is 0 in the goal blank's class only.
    fn goal_entry(&self) -> u64 {
        Spec::goal_entry(&self.0)
    }

    /// The goal placement's byte is 0 in the goal blank's class and not in the other; every
    /// other placement's cost is at least its Manhattan distance, above 0.
    fn check(&self, table: &[u8], _zeros: u64) -> Result<(), String> {
        let p = &self.0;
        let mut cells = [0u8; MAX_TILES];
        cells[..p.cells.len()].copy_from_slice(&p.cells);
        let index = ZeroIndex::new(p);
        let Some(&goal) = table.get(self.goal_entry() as usize) else {
            return Err("the goal placement's entry is missing".into());
        };
        let class = u8::from(index.outside(&cells, p.blank as u8));
        if goal >> (4 * class) & 15 != 0 || goal >> (4 - 4 * class) & 15 == 0 {
            return Err(format!(
                "the goal placement's entry is {goal:#04x}: its half for the goal blank's region ({}) must be 0, the other above 0",
                ["the large one", "a walled-off one"][class as usize]
            ));
        }
        Ok(())
    }

    fn build(
        &self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, Unbuilt> {
        pattern_bfs::search_zero(&self.0, progress, stop)
    }

    fn build_memory(&self) -> u64 {
        pattern_bfs::memory(&self.0)
    }
}

/// How a zero-aware database is read: at the placement's rank, the half of its byte for the
/// blank's class of regions.
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
        self.ranker.size()
    }

    /// Whether the blank's cell, `blank`, lies outside the region of more than half the free
    /// cells, with the tiles on `cells`: the high half of the placement's byte is its.
    #[inline(always)]
    pub fn outside(&self, cells: &[u8], blank: u8) -> bool {
        let covered = cells[..self.ranker.tiles()]
            .iter()
            .fold(0u32, |m, &c| m | 1 << (c % 32));
        self.board
            .flood_within(1 << (blank % 32), self.board.all & !covered, self.free / 2)
    }

    /// The cost in `table` of the tiles on `cells` (by slot), `manhattan` from their goal cells,
    /// with the blank on `blank`. The byte is read before the flood that picks its half, so that
    /// the two overlap.
    #[inline(always)]
    pub fn cost(&self, table: &[u8], cells: &[u8], blank: u8, manhattan: u8) -> u8 {
        let byte = table[self.ranker.rank(cells)];
        let half = byte >> (4 * u8::from(self.outside(cells, blank))) & 15;
        manhattan + 2 * half
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_holds_an_even_excess_of_up_to_28() {
        assert_eq!(half(7, 3), Some(2));
        assert_eq!(half(3, 3), Some(0));
        assert_eq!(half(3 + 28, 3), Some(14));
        // Too large, odd, or below the Manhattan distance: none of them a cost of these tiles.
        assert_eq!(half(3 + 30, 3), None);
        assert_eq!(half(4, 3), None);
        assert_eq!(half(1, 3), None);
    }

    /// The check finds a goal placement whose byte does not hold 0 in the goal blank's class,
    /// or holds it in both.
    #[test]
    fn the_check_reads_the_goal_blanks_half_of_the_goal_placements_byte() {
        // Tiles on 1 and 3 wall off the goal blank's cell 0: its class is the other one.
        let walled = ZeroAware::new(Pattern::new(3, 3, 0, &[1, 3]).unwrap());
        let open = ZeroAware::new(Pattern::new(3, 3, 0, &[1, 2]).unwrap());
        for (spec, good, bads) in [(&walled, 0x02, [0x20, 0x00]), (&open, 0x20, [0x02, 0x00])] {
            let goal = spec.goal_entry() as usize;
            let mut table = vec![0x11; spec.entries() as usize];
            table[goal] = good;
            assert_eq!(spec.check(&table, 0), Ok(()));
            for bad in bads {
                table[goal] = bad;
                assert!(spec.check(&table, 0).is_err(), "{bad:#x}");
            }
        }
    }
}
