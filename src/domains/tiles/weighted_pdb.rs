//! Weighted additive pattern databases: for each pattern of a partition, the least total cost of
//! its tiles' moves under a `CostModel` (moves of other tiles free), built by a bucketed
//! Dijkstra, and the heuristic of the weighted tiles that adds the patterns' entries.
//!
//! An entry is indexed as the unit databases' are (`Pattern`'s ranking of the tiles' cells) and
//! is the least cost over every cell of the blank. Each real move moves one tile and is charged
//! to at most one pattern, so the sum over a partition's disjoint patterns is admissible.
//!
//! Entries are costs, held as `u16` (little-endian on disk) in units of the greatest common
//! divisor of the pattern's tiles' costs: heavy costs are the tile numbers (gcd 1 for every
//! pattern here), inverse-heavy costs `lcm(1..15)/t` on the 4x4 shrink by that gcd to a few
//! hundred or thousand units a move. A lookup multiplies the entry back by that unit. A table
//! whose entries pass 65,534 units is refused by its build, naming the pattern; a table's name
//! carries its tiles' costs in those units, so a unit-cost table or another cost model's is never
//! read for it (two models whose costs are proportional on a pattern share its table).

use super::pattern::{Geometry, Pattern, Ranker, MAX_CELLS, MAX_TILES};
use super::pdb::{Partition, MAX_PATTERNS};
use super::weighted::Weighted;
use super::{Grid, Tiles};
use crate::domains::cost::CostModel;
use crate::search::{Domain, Heuristic};
use crate::tables::shared;
use crate::tables::store::{self, Spec, Unbuilt};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// The entry of a placement no move sequence reaches, and one past the largest cost held.
pub const UNREACHED: u16 = u16::MAX;

/// A pattern whose tiles' moves cost what `costs` says, in units of its entries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WeightedPattern {
    pub pattern: Pattern,
    /// costs[i]: a move of the tile whose goal is `pattern.cells[i]`.
    pub costs: Vec<u16>,
}

impl WeightedPattern {
    /// `pattern` with a cost per tile, each 1 to 65,534.
    pub fn new(pattern: Pattern, costs: &[u16]) -> Result<WeightedPattern, String> {
        if costs.len() != pattern.cells.len() || costs.iter().any(|&c| c == 0 || c == UNREACHED) {
            return Err(format!(
                "pattern {}: expected a cost of 1 to {} units for each of its {} tiles, not {costs:?}",
                pattern.key(),
                UNREACHED - 1,
                pattern.cells.len()
            ));
        }
        Ok(WeightedPattern {
            pattern,
            costs: costs.to_vec(),
        })
    }

    /// The weighted pattern a table file's header describes (see `describe`), if it is one.
    pub fn from_header(fields: &[(String, String)]) -> Option<WeightedPattern> {
        let (_, costs) = fields.iter().find(|(k, _)| k == "costs")?;
        let costs: Vec<u16> = costs
            .strip_suffix(COSTS_SUFFIX)?
            .split(' ')
            .map(|c| c.parse().ok())
            .collect::<Option<_>>()?;
        WeightedPattern::new(Pattern::described(fields)?, &costs).ok()
    }

    /// The weighted cost models under which `pdb build` makes this table: those whose costs
    /// `weigh` gives its pattern on the goal with the blank first or last that puts the blank
    /// where the pattern's goal does. A table made for a goal that relabels the tiles may be
    /// none's; one whose costs are all equal (a single tile) is every model's.
    pub fn models(&self) -> Vec<CostModel> {
        let p = &self.pattern;
        let n = p.width * p.height;
        let goal: Vec<u8> = match p.blank {
            0 => (0..n as u8).collect(),
            b if b + 1 == n => super::default_goal(n),
            _ => return Vec::new(),
        };
        let Ok(d) = Tiles::new(p.width, p.height, &goal) else {
            return Vec::new();
        };
        CostModel::ALL
            .into_iter()
            .filter(|m| !m.is_unit())
            .filter(|&m| weigh(&d, vec![p.clone()], m).is_ok_and(|w| w[0].0 == *self))
            .collect()
    }

    fn heaviest(&self) -> u16 {
        self.costs.iter().copied().max().unwrap_or(1)
    }
}

/// The end of a header's `costs` line, after the costs.
const COSTS_SUFFIX: &str = " (a move of each tile, in goal-cell order, in units of the entries)";

/// The table a file's header describes, unit-cost, zero-aware or weighted, if it describes one.
pub fn table_of_header(fields: &[(String, String)]) -> Option<Box<dyn Spec + Send>> {
    if let Some(w) = WeightedPattern::from_header(fields) {
        return Some(Box::new(w));
    }
    if let Some(z) = super::zero::ZeroAware::from_header(fields) {
        return Some(Box::new(z));
    }
    Pattern::from_header(fields).map(|p| Box::new(p) as Box<dyn Spec + Send>)
}

/// `patterns` of `d` weighed by `model`: each with its tiles' costs in units of their greatest
/// common divisor, and that unit in the model's costs (`CostModel::tile_costs`).
pub fn weigh(
    d: &Tiles,
    patterns: Vec<Pattern>,
    model: CostModel,
) -> Result<Vec<(WeightedPattern, u32)>, String> {
    let tile_costs = model.tile_costs(d.cells() - 1)?;
    patterns
        .into_iter()
        .map(|p| {
            let costs: Vec<u32> = p
                .cells
                .iter()
                .map(|&c| tile_costs[d.goal.cells[c as usize] as usize])
                .collect();
            let unit = costs.iter().copied().fold(0, gcd);
            let units: Vec<u16> = costs
                .iter()
                .map(|&c| u16::try_from(c / unit).unwrap_or(UNREACHED))
                .collect();
            let p = WeightedPattern::new(p, &units)
                .map_err(|e| format!("cost {}: {e}", model.name()))?;
            Ok((p, unit))
        })
        .collect()
}

/// The weighted patterns of `partition` for `d`'s board and goal under `model` (see `weigh`),
/// or why there are none: another board or goal, or a model that cannot weigh the board.
pub fn weighted_patterns(
    d: &Tiles,
    partition: Partition,
    model: CostModel,
) -> Result<Vec<(WeightedPattern, u32)>, String> {
    weigh(d, d.patterns(partition)?, model)
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Spec for WeightedPattern {
    /// The unit pattern's name and the costs: `tiles-4x4-blank0-1.2.4.5.8-w1.2.4.5.8`.
    fn key(&self) -> String {
        let costs: Vec<String> = self.costs.iter().map(u16::to_string).collect();
        format!("{}-w{}", self.pattern.key(), costs.join("."))
    }

    fn describe(&self) -> Vec<(&'static str, String)> {
        let costs: Vec<String> = self.costs.iter().map(u16::to_string).collect();
        let mut lines = Spec::describe(&self.pattern);
        lines.push(("costs", format!("{}{COSTS_SUFFIX}", costs.join(" "))));
        lines
    }

    fn entries(&self) -> u64 {
        self.pattern.ranker().size()
    }

    fn entry_bytes(&self) -> u64 {
        2
    }

    fn entry_format(&self) -> &'static str {
        "u16 little-endian: least total cost of the pattern's tiles' moves, over every blank cell; 65535 unreachable"
    }

    fn goal_entry(&self) -> u64 {
        Spec::goal_entry(&self.pattern)
    }

    fn build(
        &self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, Unbuilt> {
        build_until(self, progress, stop)
    }

    /// The entries (two bytes, and two more while they are written out), the mask of regions
    /// reached per placement (two or four bytes), and the states pending in the buckets, eight
    /// bytes each, `PENDING_PER_ENTRY` per entry.
    fn build_memory(&self) -> u64 {
        let mask = if narrow_masks(&self.pattern) { 2 } else { 4 };
        self.entries()
            .saturating_mul(4 + mask + 8 * PENDING_PER_ENTRY)
    }
}

/// States pending in the buckets per entry, as memory is held for them: the buckets of pdb-555's
/// and pdb-663's twelve tables under heavy and inverse-heavy costs held at most 0.97 states per
/// entry at once, in vectors that grow by doubling (docs/pattern-databases.md).
const PENDING_PER_ENTRY: u64 = 2;

/// The table of `wp`, two bytes per entry, or `Unbuilt::Stopped` soon after `stop` is set, or
/// `Unbuilt::Refused` when an entry passes what 16 bits hold.
pub fn build_until(
    wp: &WeightedPattern,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Vec<u8>, Unbuilt> {
    if narrow_masks(&wp.pattern) {
        dijkstra::<AtomicU16>(wp, progress, stop)
    } else {
        dijkstra::<AtomicU32>(wp, progress, stop)
    }
}

/// Pending states handled by one task of a bucket.
const CHUNK: usize = 1 << 14;

/// A pending state: a placement's rank and the blank's cell, packed.
fn pack(rank: usize, cell: usize) -> u64 {
    (rank as u64) << 5 | cell as u64
}

/// Whether a region of the board fits the build's 16-bit masks (else it takes 32-bit ones).
fn narrow_masks(pattern: &Pattern) -> bool {
    pattern.width * pattern.height <= 16
}

/// A bit per cell, shared between the build's threads.
trait Mask: Send + Sync + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    fn get(&self) -> u32;
    /// Sets `bits`; the bits set before.
    fn or(&self, bits: u32) -> u32;
}

macro_rules! mask {
    ($atomic:ty, $int:ty) => {
        impl Mask for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                (0..len)
                    .into_par_iter()
                    .map(|_| <$atomic>::new(0))
                    .collect()
            }
            #[inline(always)]
            fn get(&self) -> u32 {
                self.load(Ordering::Relaxed) as u32
            }
            #[inline(always)]
            fn or(&self, bits: u32) -> u32 {
                self.fetch_or(bits as $int, Ordering::Relaxed) as u32
            }
        }
    };
}

mask!(AtomicU16, u16);
mask!(AtomicU32, u32);

/// Dial's algorithm over (placement, region of the blank), from the goal. A state is settled the
/// first time a bucket reaches any cell of its region (the blank's moves through free cells cost
/// nothing: the region is closed at once); a move of pattern tile `i` into the region costs
/// `costs[i]` and goes to the bucket that much later. Moves are reversible at equal cost, so the
/// distances from the goal are the costs to it. Within a bucket, states are settled in parallel:
/// whichever thread marks a region first expands it.
fn dijkstra<M: Mask>(
    wp: &WeightedPattern,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Vec<u8>, Unbuilt> {
    let pattern = &wp.pattern;
    let ranker = pattern.ranker();
    let size = ranker.size() as usize;
    let k = pattern.cells.len();
    let board = Geometry::new(pattern.width, pattern.height);
    let entries: Vec<AtomicU16> = (0..size)
        .into_par_iter()
        .map(|_| AtomicU16::new(UNREACHED))
        .collect();
    let seen = M::zeroed(size);
    // Bucket `c % ring.len()` holds the states reached at cost `c`: a move costs at most
    // `heaviest`, so every pending state is within that of the bucket being settled.
    let mut ring: Vec<Vec<u64>> = vec![Vec::new(); wp.heaviest() as usize + 1];
    ring[0].push(pack(ranker.rank(&pattern.cells), pattern.blank));
    let mut pending = 1usize;
    let reached = AtomicU64::new(0);
    let too_far = AtomicBool::new(false);
    let mut cost = 0usize;
    while pending > 0 {
        let slot = cost % ring.len();
        let mut bucket = std::mem::take(&mut ring[slot]);
        pending -= bucket.len();
        // In rank order, the tables are read and written along their length; a state reached
        // twice at this cost is settled once.
        bucket.par_sort_unstable();
        bucket.dedup();
        let settle = |chunk: &[u64]| {
            let mut out: Vec<Vec<u64>> = vec![Vec::new(); k];
            if stop.load(Ordering::Relaxed) {
                return out;
            }
            let mut cells = [0u8; MAX_TILES];
            let mut first = 0;
            for &state in chunk {
                let (rank, cell) = ((state >> 5) as usize, state & 31);
                let bit = 1u32 << cell;
                if seen[rank].get() & bit != 0 {
                    continue;
                }
                let covered = ranker.unrank(rank as u64, &mut cells);
                let region = board.flood(bit, board.all & !covered);
                if seen[rank].or(region) & bit != 0 {
                    continue;
                }
                if cost >= UNREACHED as usize {
                    too_far.store(true, Ordering::Relaxed);
                    return out;
                }
                let entry = &entries[rank];
                if entry.load(Ordering::Relaxed) == UNREACHED
                    && entry
                        .compare_exchange(
                            UNREACHED,
                            cost as u16,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        )
                        .is_ok()
                {
                    first += 1;
                }
                for (i, out) in out.iter_mut().enumerate() {
                    let from = cells[i];
                    let blank = 1u32 << from;
                    let mut into = board.neighbours[from as usize] & region;
                    while into != 0 {
                        cells[i] = into.trailing_zeros() as u8;
                        into &= into - 1;
                        let to = ranker.rank(&cells[..k]);
                        if seen[to].get() & blank == 0 {
                            out.push(pack(to, from as usize));
                        }
                    }
                    cells[i] = from;
                }
            }
            if first > 0 {
                progress(reached.fetch_add(first, Ordering::Relaxed) + first);
            }
            out
        };
        let moved: Vec<Vec<Vec<u64>>> = bucket.par_chunks(CHUNK).map(settle).collect();
        drop(bucket);
        if stop.load(Ordering::Relaxed) {
            return Err(Unbuilt::Stopped);
        }
        if too_far.load(Ordering::Relaxed) {
            return Err(Unbuilt::Refused(format!(
                "pattern database {}: an entry costs more than {} units, more than its 16-bit \
                 entries hold",
                wp.key(),
                UNREACHED - 1
            )));
        }
        let buckets = ring.len();
        for by_tile in moved {
            for (i, states) in by_tile.into_iter().enumerate() {
                pending += states.len();
                ring[(cost + wp.costs[i] as usize) % buckets].extend(states);
            }
        }
        cost += 1;
    }
    Ok(entries
        .into_par_iter()
        .flat_map_iter(|e| e.into_inner().to_le_bytes())
        .collect())
}

/// The sum of a partition's weighted databases' entries, each multiplied by its unit.
pub struct WeightedPdbs {
    /// pattern[tile]: the pattern of the tile (`u8::MAX` for the blank).
    pattern: [u8; 256],
    /// tiles[p][i]: the tile in slot `i` of pattern `p`.
    tiles: [[u8; MAX_TILES]; MAX_PATTERNS],
    /// Each pattern's table (two bytes an entry), ranking and number of tiles.
    tables: Vec<(&'static [u8], Ranker, usize)>,
    /// What an entry's unit costs, per pattern (0 past the last pattern).
    units: [u32; MAX_PATTERNS],
    cells: usize,
}

impl WeightedPdbs {
    /// The heuristic for a board whose tile `t` belongs on `goal_cell[t]`, reading the database
    /// of `patterns[i]` (and its unit) in `tables[i]`. The patterns must cover every tile, so
    /// that the estimate is 0 only at the goal; refused when the largest sum of entries would not
    /// fit 32 bits.
    pub fn new(
        patterns: &[(WeightedPattern, u32)],
        tables: Vec<&'static [u8]>,
        goal_cell: &[u8],
    ) -> Result<WeightedPdbs, String> {
        let first = &patterns[0].0.pattern;
        let n = first.width * first.height;
        assert!(patterns.len() <= MAX_PATTERNS && tables.len() == patterns.len());
        assert_eq!(
            patterns.iter().map(|(p, _)| p.costs.len()).sum::<usize>(),
            n - 1,
            "the patterns must cover every tile"
        );
        let mut h = WeightedPdbs {
            pattern: [u8::MAX; 256],
            tiles: [[0; MAX_TILES]; MAX_PATTERNS],
            tables: Vec::new(),
            units: [0; MAX_PATTERNS],
            cells: n,
        };
        for (t, &goal) in goal_cell.iter().enumerate().take(n).skip(1) {
            for (p, (wp, _)) in patterns.iter().enumerate() {
                if let Some(slot) = wp.pattern.cells.iter().position(|&c| c == goal) {
                    h.pattern[t] = p as u8;
                    h.tiles[p][slot] = t as u8;
                }
            }
        }
        let mut most = 0u64;
        for (p, (table, (wp, unit))) in tables.into_iter().zip(patterns).enumerate() {
            let ranker = wp.pattern.ranker();
            assert_eq!(
                table.len() as u64,
                2 * ranker.size(),
                "a table of another size"
            );
            let largest = table
                .par_chunks_exact(2)
                .map(|e| u16::from_le_bytes([e[0], e[1]]))
                .max()
                .unwrap_or(0);
            most += u64::from(largest) * u64::from(*unit);
            h.tables.push((table, ranker, wp.costs.len()));
            h.units[p] = *unit;
        }
        if most > u64::from(u32::MAX) {
            return Err(format!(
                "the weighted databases' entries add up to {most}, more than an estimate holds \
                 (32 bits)"
            ));
        }
        Ok(h)
    }

    /// Pattern `p`'s entry with tile `t` on cell `at[t]`, in its units.
    #[inline(always)]
    fn entry(&self, p: usize, at: &[u8; MAX_CELLS]) -> u16 {
        let (table, ranker, k) = &self.tables[p];
        let mut cells = [0u8; MAX_TILES];
        for (cell, &t) in cells.iter_mut().zip(&self.tiles[p][..*k]) {
            *cell = at[t as usize % MAX_CELLS];
        }
        let i = 2 * ranker.rank(&cells);
        u16::from_le_bytes([table[i], table[i + 1]])
    }
}

/// What a node carries: each pattern's entry, in its units, and each tile's cell, so that a
/// lookup reads its pattern's cells without scanning the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightedEntries {
    entries: [u16; MAX_PATTERNS],
    at: [u8; MAX_CELLS],
}

impl Heuristic<Weighted<'_>> for WeightedPdbs {
    type Value = WeightedEntries;
    const GOAL_AWARE: bool = true;

    fn init(&self, _: &Weighted<'_>, s: &<Weighted<'_> as Domain>::State) -> WeightedEntries {
        let mut e = WeightedEntries {
            entries: [0; MAX_PATTERNS],
            at: [0; MAX_CELLS],
        };
        for c in 0..self.cells {
            e.at[<Weighted<'_> as Grid>::tile(s, c) as usize] = c as u8;
        }
        for p in 0..self.tables.len() {
            e.entries[p] = self.entry(p, &e.at);
        }
        e
    }

    /// Only the moved tile's pattern changes.
    #[inline(always)]
    fn update(
        &self,
        _: &Weighted<'_>,
        s: &<Weighted<'_> as Domain>::State,
        m: u8,
        mut e: WeightedEntries,
    ) -> WeightedEntries {
        let (b, to, t) = <Weighted<'_> as Grid>::slide(s, m);
        e.at[t as usize % MAX_CELLS] = b as u8;
        e.at[0] = to as u8;
        let p = self.pattern[t as usize] as usize % MAX_PATTERNS;
        e.entries[p] = self.entry(p, &e.at);
        e
    }

    #[inline(always)]
    fn estimate(&self, e: WeightedEntries) -> u32 {
        // `new` checked that the largest sum fits.
        (0..MAX_PATTERNS)
            .map(|p| u32::from(e.entries[p]) * self.units[p])
            .sum()
    }
}

/// The weighted databases of each cost model for one partition and board, built once.
#[derive(Default)]
struct ByModel([OnceLock<Result<WeightedPdbs, String>>; CostModel::ALL.len()]);

/// The weighted pattern-database heuristic of `partition` for the tiles `d` under `model`, built
/// once per process per board and goal, partition and model (its tables as `store::prepare`
/// left them, or built in memory), or why it cannot be: another board or goal, a model that
/// cannot weigh the board, entries past 16 bits.
pub fn weighted_pattern_dbs(
    d: &Arc<Tiles>,
    partition: Partition,
    model: CostModel,
) -> Result<&'static WeightedPdbs, String> {
    // The partition's name ("5-5-5") is no heuristic's: the registry keeps these apart.
    let by_model: &'static ByModel = shared(d, partition.name, |_| ByModel::default());
    let which = CostModel::ALL.iter().position(|&m| m == model).unwrap_or(0);
    by_model.0[which]
        .get_or_init(|| {
            let patterns = weighted_patterns(d, partition, model)?;
            let tables = patterns
                .iter()
                .map(|(wp, _)| store::try_table(wp))
                .collect::<Result<Vec<_>, String>>()?;
            WeightedPdbs::new(&patterns, tables, &d.places.cell)
        })
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::tiles::pattern;
    use crate::domains::tiles::pdb::{PDB_555, PDB_663, PDB_6666};
    use crate::search::Domain;
    use crate::util::rng::Rng;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The entries `build_until` gives `wp`.
    fn entries(wp: &WeightedPattern) -> Vec<u16> {
        let bytes = build_until(wp, &|_| {}, &AtomicBool::new(false)).unwrap();
        bytes
            .chunks_exact(2)
            .map(|e| u16::from_le_bytes([e[0], e[1]]))
            .collect()
    }

    fn neighbours(w: usize, h: usize, cell: usize) -> Vec<usize> {
        let (r, c) = (cell / w, cell % w);
        let mut out = Vec::new();
        if r > 0 {
            out.push(cell - w);
        }
        if r + 1 < h {
            out.push(cell + w);
        }
        if c > 0 {
            out.push(cell - 1);
        }
        if c + 1 < w {
            out.push(cell + 1);
        }
        out
    }

    fn board(w: usize, h: usize, goal: &[u8]) -> Tiles {
        Tiles::new(w, h, goal).unwrap()
    }

    fn blank_first(n: usize) -> Vec<u8> {
        (0..n as u8).collect()
    }

    /// Under costs of 1 the Dijkstra gives the breadth-first build's entries exactly (its
    /// unreached 255 as 65535): on small boards, on one where the pattern holds every tile (half
    /// the placements unreached), and on pdb-555's first pattern of the 15-puzzle.
    #[test]
    fn unit_costs_give_the_unit_databases() {
        let fifteen = board(4, 4, &blank_first(16));
        let cases = [
            Pattern::new(3, 3, 0, &[1, 2, 3, 4]).unwrap(),
            Pattern::new(3, 3, 4, &[0, 2, 6, 8]).unwrap(),
            Pattern::new(2, 4, 0, &[1, 2, 3]).unwrap(),
            Pattern::new(3, 2, 5, &[0, 1, 2, 3, 4]).unwrap(),
            fifteen.patterns(PDB_555).unwrap().remove(0),
        ];
        for p in cases {
            let unit = pattern::build(&p, &|_| {});
            let ones = vec![1; p.cells.len()];
            let weighted = entries(&WeightedPattern::new(p.clone(), &ones).unwrap());
            let expected: Vec<u16> = unit
                .iter()
                .map(|&e| match e {
                    pattern::UNREACHED => UNREACHED,
                    e => e as u16,
                })
                .collect();
            assert!(weighted == expected, "{}", p.key());
        }
    }

    /// The database of `wp` the slow, obvious way: Dijkstra over every placement of its tiles
    /// and every blank cell, where the blank's move into a free cell costs nothing and its swap
    /// with the tile of slot `i` costs `costs[i]`; an entry is the least cost over the blank's
    /// cells. Placements are listed in the order of `Ranker::unrank`.
    fn plain_database(wp: &WeightedPattern) -> Vec<u16> {
        let p = &wp.pattern;
        let (w, h) = (p.width, p.height);
        let n = w * h;
        let code =
            |cells: &[u8], blank: usize| cells.iter().fold(blank, |acc, &c| acc * n + c as usize);
        let decode = |mut code: usize, k: usize| {
            let mut cells = vec![0u8; k];
            for c in cells.iter_mut().rev() {
                *c = (code % n) as u8;
                code /= n;
            }
            (cells, code)
        };
        let k = p.cells.len();
        let mut dist = vec![u32::MAX; n.pow(k as u32 + 1)];
        let mut heap = BinaryHeap::new();
        let start = code(&p.cells, p.blank);
        dist[start] = 0;
        heap.push(Reverse((0u32, start)));
        while let Some(Reverse((d, at))) = heap.pop() {
            if d > dist[at] {
                continue;
            }
            let (cells, blank) = decode(at, k);
            for next in neighbours(w, h, blank) {
                let mut moved = cells.clone();
                let cost = match cells.iter().position(|&c| c as usize == next) {
                    Some(i) => {
                        moved[i] = blank as u8;
                        u32::from(wp.costs[i])
                    }
                    None => 0,
                };
                let to = code(&moved, next);
                if d + cost < dist[to] {
                    dist[to] = d + cost;
                    heap.push(Reverse((d + cost, to)));
                }
            }
        }
        let ranker = p.ranker();
        let mut cells = [0u8; MAX_TILES];
        (0..ranker.size())
            .map(|rank| {
                let covered = ranker.unrank(rank, &mut cells);
                let best = (0..n)
                    .filter(|b| covered & (1 << b) == 0)
                    .map(|b| dist[code(&cells[..k], b)])
                    .min()
                    .unwrap();
                u16::try_from(best).unwrap_or(UNREACHED)
            })
            .collect()
    }

    /// Under heavy and inverse-heavy costs, every entry is the plain Dijkstra's, on 3x3, 2x4 and
    /// 3x2 boards (one pattern of every tile, half its placements unreached), and lies between
    /// the unit database's moves times the lightest and times the heaviest tile's cost.
    #[test]
    fn weighted_entries_equal_a_plain_dijkstra_over_placements_and_blank_cells() {
        let cases = [
            (3, 3, vec![0, 1, 2, 3, 4, 5, 6, 7, 8], vec![1, 2, 3, 4]),
            (3, 3, vec![0, 1, 2, 3, 4, 5, 6, 7, 8], vec![5, 6, 7, 8]),
            (3, 3, vec![1, 2, 3, 4, 5, 6, 7, 8, 0], vec![0, 4, 7]),
            (2, 4, vec![0, 1, 2, 3, 4, 5, 6, 7], vec![1, 2, 3, 5]),
            (3, 2, vec![1, 2, 3, 4, 5, 0], vec![0, 1, 2, 3, 4]),
        ];
        for (w, h, goal, cells) in cases {
            let d = board(w, h, &goal);
            let blank = goal.iter().position(|&t| t == 0).unwrap();
            let p = Pattern::new(w, h, blank, &cells).unwrap();
            let unit = pattern::build(&p, &|_| {});
            for model in [CostModel::Heavy, CostModel::InverseHeavy] {
                let (wp, _) = weigh(&d, vec![p.clone()], model).unwrap().remove(0);
                let built = entries(&wp);
                assert!(
                    built == plain_database(&wp),
                    "{} {}",
                    wp.key(),
                    model.name()
                );
                let (light, heavy) = (*wp.costs.iter().min().unwrap() as u32, wp.heaviest() as u32);
                for (&e, &moves) in built.iter().zip(&unit) {
                    if moves == pattern::UNREACHED {
                        assert_eq!(e, UNREACHED);
                    } else {
                        let e = e as u32;
                        assert!(moves as u32 * light <= e && e <= moves as u32 * heavy);
                    }
                }
            }
        }
    }

    /// The least cost from every state of a small board to its goal under `model`: Dijkstra
    /// from the goal (moves are reversible at equal cost), states keyed by their tiles.
    fn true_costs(d: &Tiles, model: CostModel) -> std::collections::HashMap<Vec<u8>, u32> {
        let costs = model.tile_costs(d.cells() - 1).unwrap();
        let (w, h) = (d.width(), d.height());
        let mut dist = std::collections::HashMap::new();
        let goal = d.tiles(d.goal()).to_vec();
        dist.insert(goal.clone(), 0u32);
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0u32, goal)));
        while let Some(Reverse((cost, tiles))) = heap.pop() {
            if dist[&tiles] < cost {
                continue;
            }
            let blank = tiles.iter().position(|&t| t == 0).unwrap();
            for next in neighbours(w, h, blank) {
                let mut moved = tiles.clone();
                moved.swap(blank, next);
                let c = cost + costs[tiles[next] as usize];
                if dist.get(&moved).is_none_or(|&old| c < old) {
                    dist.insert(moved.clone(), c);
                    heap.push(Reverse((c, moved)));
                }
            }
        }
        dist
    }

    /// The 8-puzzle's two 4-tile patterns under heavy and inverse-heavy costs, on every one of
    /// its 181,440 states against its least cost by Dijkstra: never above it, 0 exactly at the
    /// goal, and above the weighted Manhattan distance (each tile's distance times its cost)
    /// somewhere, or the databases would add nothing.
    #[test]
    fn the_8_puzzle_estimate_never_exceeds_the_least_cost() {
        let d = board(3, 3, &blank_first(9));
        for model in [CostModel::Heavy, CostModel::InverseHeavy] {
            let patterns = vec![
                Pattern::new(3, 3, 0, &[1, 2, 3, 4]).unwrap(),
                Pattern::new(3, 3, 0, &[5, 6, 7, 8]).unwrap(),
            ];
            let weighed = weigh(&d, patterns, model).unwrap();
            let tables = weighed
                .iter()
                .map(|(wp, _)| store::try_table(wp).unwrap())
                .collect();
            let h = WeightedPdbs::new(&weighed, tables, &d.places.cell).unwrap();
            let weighted = Weighted::new(&d, model).unwrap();
            let dist = true_costs(&d, model);
            assert_eq!(dist.len(), 181_440);
            let mut above_manhattan = 0;
            for (tiles, &cost) in &dist {
                let s = d.state(tiles).unwrap();
                let estimate = h.estimate(h.init(&weighted, &s));
                assert!(
                    estimate <= cost,
                    "{} {tiles:?}: {estimate} > {cost}",
                    model.name()
                );
                assert_eq!(estimate == 0, cost == 0, "{tiles:?}");
                let manhattan: u32 = (0..9)
                    .map(|c| {
                        let t = tiles[c] as usize;
                        let (r, col) = (c / 3, c % 3);
                        let (gr, gc) = (t / 3, t % 3);
                        weighted.weight(t as u8) * (r.abs_diff(gr) + col.abs_diff(gc)) as u32
                    })
                    .sum();
                above_manhattan += usize::from(tiles[0] != 0 && estimate > manhattan);
            }
            assert!(above_manhattan > 0, "{}", model.name());
        }
    }

    /// Along seeded random walks, the value carried from node to node is the one computed from
    /// scratch: on the 8-puzzle and on the 15-puzzle with pdb-555, under both weighted models.
    #[test]
    fn the_incremental_update_is_a_fresh_lookup_along_random_walks() {
        let eight = board(3, 3, &blank_first(9));
        let fifteen = Arc::new(board(4, 4, &blank_first(16)));
        for model in [CostModel::Heavy, CostModel::InverseHeavy] {
            let small = vec![
                Pattern::new(3, 3, 0, &[1, 2, 3, 4]).unwrap(),
                Pattern::new(3, 3, 0, &[5, 6, 7, 8]).unwrap(),
            ];
            let weighed = weigh(&eight, small, model).unwrap();
            let tables = weighed
                .iter()
                .map(|(wp, _)| store::try_table(wp).unwrap())
                .collect();
            let h8 = WeightedPdbs::new(&weighed, tables, &eight.places.cell).unwrap();
            let h15 = weighted_pattern_dbs(&fifteen, PDB_555, model).unwrap();
            for (d, h, seed) in [(&eight, &h8, 1), (&*fifteen, h15, 2)] {
                let weighted = Weighted::new(d, model).unwrap();
                let mut rng = Rng::new(seed);
                let mut s = d.goal().clone();
                let mut v = h.init(&weighted, &s);
                assert_eq!(h.estimate(v), 0);
                let mut positive = 0;
                for step in 0..5000 {
                    let moves = weighted.moves(&s);
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    v = h.update(&weighted, &s, m, v);
                    weighted.apply(&mut s, m);
                    assert_eq!(v, h.init(&weighted, &s), "{} move {step}", model.name());
                    positive += usize::from(h.estimate(v) > 0);
                }
                assert!(positive > 4000);
            }
        }
    }

    /// Each pattern's costs in units of their greatest common divisor, and that unit: heavy
    /// costs are the tile numbers; inverse-heavy ones lcm(1..15)/t = 360,360/t on the 4x4.
    /// Table names carry the costs, so no two models' tables (nor a unit table) share a name
    /// unless their costs are the same.
    #[test]
    fn patterns_are_weighed_in_units_of_their_costs_gcd() {
        let d = board(4, 4, &blank_first(16));
        let weighed = |partition, model| {
            let w = weighted_patterns(&d, partition, model).unwrap();
            w.into_iter()
                .map(|(wp, unit)| (wp.costs, unit))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            weighed(PDB_555, CostModel::Heavy),
            [
                (vec![1, 2, 4, 5, 8], 1),
                (vec![3, 6, 7, 10, 11], 1),
                (vec![9, 12, 13, 14, 15], 1)
            ]
        );
        assert_eq!(
            weighed(PDB_555, CostModel::InverseHeavy),
            [
                (vec![40, 20, 10, 8, 5], 9009),
                (vec![770, 385, 330, 231, 210], 156),
                (vec![1820, 1365, 1260, 1170, 1092], 22)
            ]
        );
        assert_eq!(
            weighed(PDB_663, CostModel::InverseHeavy),
            [
                (vec![360, 180, 90, 72, 45, 40], 1001),
                (vec![770, 385, 330, 231, 210, 154], 156),
                (vec![91, 84, 78], 330)
            ]
        );
        // The goal with the blank last: cell c holds tile c + 1.
        let last = board(4, 4, &crate::domains::tiles::default_goal(16));
        let (wp, unit) = weighted_patterns(&last, PDB_663, CostModel::Heavy)
            .unwrap()
            .remove(2);
        assert_eq!(
            (wp.pattern.cells.clone(), wp.costs.clone(), unit),
            (vec![1, 2, 3], vec![2, 3, 4], 1)
        );
        assert_eq!(wp.key(), "tiles-4x4-blank15-1.2.3-w2.3.4");
        let unit_key = Spec::key(&wp.pattern);
        assert_ne!(wp.key(), unit_key);
        let ones = WeightedPattern::new(wp.pattern.clone(), &[1, 1, 1]).unwrap();
        assert_ne!(ones.key(), unit_key);

        // Models and boards the databases do not fit.
        let e = weighted_patterns(
            &board(5, 5, &blank_first(25)),
            PDB_6666,
            CostModel::InverseHeavy,
        )
        .unwrap_err();
        assert!(e.contains("at most 15 tiles"), "{e}");
        let e = weighted_patterns(&board(3, 3, &blank_first(9)), PDB_555, CostModel::Heavy)
            .unwrap_err();
        assert!(e.contains("4x4") && e.contains("3x3"), "{e}");
        let e = WeightedPattern::new(wp.pattern.clone(), &[1, 0, 1]).unwrap_err();
        assert!(e.contains("cost of 1 to 65534"), "{e}");
    }

    /// `pdb list` names the cost models of a weighted table from its header alone, on `pdb
    /// build`'s goals: each of pdb-555's and pdb-663's tables under each model, for the blank
    /// first and last. A single tile's table is both models'; a relabelled goal's is none's.
    #[test]
    fn a_weighted_table_names_the_models_it_is_for() {
        for goal in [blank_first(16), crate::domains::tiles::default_goal(16)] {
            let d = board(4, 4, &goal);
            for partition in [PDB_555, PDB_663] {
                for model in [CostModel::Heavy, CostModel::InverseHeavy] {
                    for (wp, _) in weighted_patterns(&d, partition, model).unwrap() {
                        assert_eq!(wp.models(), [model], "{}", wp.key());
                    }
                }
            }
        }
        let single = WeightedPattern::new(Pattern::new(3, 3, 0, &[4]).unwrap(), &[1]).unwrap();
        assert_eq!(single.models(), [CostModel::Heavy, CostModel::InverseHeavy]);
        let mut swapped = blank_first(16);
        swapped.swap(1, 2);
        let (wp, _) = weighted_patterns(&board(4, 4, &swapped), PDB_555, CostModel::Heavy)
            .unwrap()
            .remove(0);
        assert_eq!(wp.costs, [2, 1, 4, 5, 8]);
        assert_eq!(wp.models(), []);
    }

    /// A pattern whose entries pass 16 bits is refused by its build, naming its table; a stop
    /// asked for before a build ends it without a table.
    #[test]
    fn entries_past_16_bits_are_refused_and_a_stop_stops() {
        let p = Pattern::new(3, 3, 0, &[1, 2, 3]).unwrap();
        let heavy = WeightedPattern::new(p.clone(), &[30_000, 30_000, 30_000]).unwrap();
        let why = match build_until(&heavy, &|_| {}, &AtomicBool::new(false)) {
            Err(Unbuilt::Refused(why)) => why,
            other => panic!("{:?}", other.map(|t| t.len())),
        };
        assert!(
            why.contains(&heavy.key()) && why.contains("16-bit"),
            "{why}"
        );
        assert!(store::try_table(&heavy).unwrap_err().contains("16-bit"));
        let light = WeightedPattern::new(p, &[1, 2, 3]).unwrap();
        assert_eq!(
            build_until(&light, &|_| {}, &AtomicBool::new(true)),
            Err(Unbuilt::Stopped)
        );
    }

    /// pdb-555's weighted tables on the 15-puzzle: the goal's entry is the only 0, and the
    /// heuristic is shared once per board, partition and model.
    #[test]
    fn the_goal_entry_is_the_only_zero_and_the_heuristic_is_shared() {
        let d = Arc::new(board(4, 4, &blank_first(16)));
        for model in [CostModel::Heavy, CostModel::InverseHeavy] {
            for (wp, _) in weighted_patterns(&d, PDB_555, model).unwrap() {
                let table = store::try_table(&wp).unwrap();
                let zeros: Vec<usize> = table
                    .chunks_exact(2)
                    .enumerate()
                    .filter(|(_, e)| e == &[0, 0])
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(zeros, [Spec::goal_entry(&wp) as usize], "{}", wp.key());
            }
            let h = weighted_pattern_dbs(&d, PDB_555, model).unwrap();
            assert!(std::ptr::eq(
                h,
                weighted_pattern_dbs(&d, PDB_555, model).unwrap()
            ));
        }
        let heavy = weighted_pattern_dbs(&d, PDB_555, CostModel::Heavy).unwrap();
        let inverse = weighted_pattern_dbs(&d, PDB_555, CostModel::InverseHeavy).unwrap();
        assert!(!std::ptr::eq(heavy, inverse));
        let e = weighted_pattern_dbs(
            &Arc::new(board(3, 3, &blank_first(9))),
            PDB_555,
            CostModel::Heavy,
        );
        assert!(e.is_err());
    }

    /// A weighted table written by `store::prepare` reads back as built, two bytes an entry,
    /// under a header naming its costs; `table_of_header` tells it from a unit table's; a
    /// second entry of 0 (its checksum made to match) is found damaged.
    #[test]
    fn a_stored_weighted_table_reads_back_and_a_second_zero_is_damage() {
        use std::io::Read;
        let dir = tempfile::tempdir().unwrap();
        // A pattern no other test asks for: the store keeps a table by name for the process, and
        // `prepare` would not touch the disk for one already held.
        let p = Pattern::new(4, 3, 0, &[1, 2, 5, 6]).unwrap();
        let wp = WeightedPattern::new(p.clone(), &[1, 2, 5, 6]).unwrap();
        let options = store::Options {
            dir: dir.path().to_path_buf(),
            build: true,
            rebuild: false,
            quiet: true,
            stop: None,
        };
        let info = store::prepare(&wp, &options).unwrap();
        let built = build_until(&wp, &|_| {}, &AtomicBool::new(false)).unwrap();
        assert_eq!((info.entries, info.bytes()), (11_880, 2 * 11_880));
        let path = dir
            .path()
            .join(format!("{}.{}", wp.key(), store::EXTENSION));
        let (fields, mut reader) = store::read_header(&path).unwrap();
        let mut on_disk = Vec::new();
        reader.read_to_end(&mut on_disk).unwrap();
        assert!(on_disk == built);
        assert_eq!(WeightedPattern::from_header(&fields), Some(wp.clone()));
        assert_eq!(Pattern::from_header(&fields), None);
        assert_eq!(table_of_header(&fields).unwrap().key(), wp.key());
        store::prepare(&p, &options).unwrap();
        let unit_path = dir.path().join(format!("{}.{}", p.key(), store::EXTENSION));
        let (unit_fields, _) = store::read_header(&unit_path).unwrap();
        assert_eq!(table_of_header(&unit_fields).unwrap().key(), p.key());
        assert_eq!(WeightedPattern::from_header(&unit_fields), None);
        assert!(matches!(
            store::verify(&wp, &unit_path),
            Err(store::Unusable::Header(_))
        ));

        // Entry 7 set to 0, the header's checksum made to match.
        let good = std::fs::read(&path).unwrap();
        let header = good.len() - built.len();
        let mut zeroed = built.clone();
        zeroed[14..16].copy_from_slice(&[0, 0]);
        assert_ne!(Spec::goal_entry(&wp), 7);
        let text = String::from_utf8(good[..header].to_vec()).unwrap().replace(
            &format!("crc32: {:08x}", crc32fast::hash(&built)),
            &format!("crc32: {:08x}", crc32fast::hash(&zeroed)),
        );
        let copy = dir.path().join("copy.pdb");
        std::fs::write(&copy, [text.as_bytes(), &zeroed].concat()).unwrap();
        match store::verify(&wp, &copy) {
            Err(store::Unusable::Entries(m)) => assert!(m.contains("2 entries are 0"), "{m}"),
            other => panic!("{other:?}"),
        }
        // An odd byte more: not a whole number of entries.
        std::fs::write(&copy, [&good[..], b"\0"].concat()).unwrap();
        assert!(matches!(
            store::verify(&wp, &copy),
            Err(store::Unusable::Truncated {
                expected: 23_760,
                found: 23_761
            })
        ));
    }

    /// The process's CPU time so far, in seconds.
    fn cpu_seconds() -> f64 {
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage fills the struct it is given.
        unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        secs(usage.ru_utime) + secs(usage.ru_stime)
    }

    /// pdb-555 and pdb-663 of the 15-puzzle (blank first) under heavy and inverse-heavy costs:
    /// every table built, its entries between the unit database's moves times its lightest and
    /// times its heaviest cost, the goal's entry its only 0. Prints each build's wall and CPU
    /// time beside the unit build's of the same pattern (docs/pattern-databases.md quotes them):
    /// `cargo test --release --lib weighted_pdb -- --ignored --nocapture --test-threads 1`.
    #[test]
    #[ignore]
    fn the_15_puzzle_partitions_build_under_both_models() {
        let d = board(4, 4, &blank_first(16));
        let timed = |build: &dyn Fn() -> Vec<u8>| {
            let (wall, cpu) = (std::time::Instant::now(), cpu_seconds());
            let built = build();
            let took = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
            (built, took)
        };
        for partition in [PDB_555, PDB_663] {
            for model in [CostModel::Heavy, CostModel::InverseHeavy] {
                for (wp, unit) in weighted_patterns(&d, partition, model).unwrap() {
                    let (built, (wall, cpu)) =
                        timed(&|| build_until(&wp, &|_| {}, &AtomicBool::new(false)).unwrap());
                    let (moves, (unit_wall, unit_cpu)) =
                        timed(&|| pattern::build(&wp.pattern, &|_| {}));
                    let built: Vec<u16> = built
                        .chunks_exact(2)
                        .map(|e| u16::from_le_bytes([e[0], e[1]]))
                        .collect();
                    let (light, heavy) =
                        (*wp.costs.iter().min().unwrap() as u32, wp.heaviest() as u32);
                    let mut zeros = 0;
                    for (&e, &m) in built.iter().zip(&moves) {
                        let e = e as u32;
                        assert!(
                            m as u32 * light <= e && e <= m as u32 * heavy,
                            "{}",
                            wp.key()
                        );
                        zeros += usize::from(e == 0);
                    }
                    assert_eq!(zeros, 1);
                    println!(
                        "{} {} {}: {} entries, largest {} x {unit}; built in {wall:.2} s wall, \
                         {cpu:.2} s CPU (unit: {unit_wall:.2} s, {unit_cpu:.2} s)",
                        partition.name,
                        model.name(),
                        wp.key(),
                        built.len(),
                        built.iter().max().unwrap(),
                    );
                }
            }
        }
    }
}
