//! The breadth-first search that fills a pattern database: two bits per state, layer by layer,
//! over states grouped by the set of cells the pattern's tiles cover.
//!
//! A state is a placement of the tiles and the region of the blank (see `pattern`). Which cells
//! the tiles cover (the *map*) fixes the regions, so states are stored map by map: for each map,
//! one block per region, and in a block one field per order of the tiles on the map's cells
//! (a permutation of the `k` tiles, by its Lehmer rank). A move of the tile on cell `a` into the
//! region's cell `b` takes every state of a block to one block of a neighbouring map, and maps
//! the tiles' order by the same function for all of them: the identity when no covered cell lies
//! between `a` and `b` (every sideways move), otherwise one of `k * (k - 1)` fixed remappings.
//! So a layer is expanded block by block, a move at a time, and its writes stay in two small
//! blocks instead of landing all over memory.
//!
//! Each field is 3 (unseen), 0 (expanded), or 1 and 2 in turn for the layer being expanded and
//! the next one. Moves are reversible and cost one each, so a state's neighbours lie in the
//! layers next to its own, and the three values suffice. A placement's entry is the layer in
//! which the first of its states is expanded; a zero-aware entry keeps, for each class of
//! regions (see `zero`), the layer in which the first of its states in such a region is
//! expanded (as its excess over the tiles' Manhattan distance, halved).

use super::pattern::{Geometry, Pattern, Ranker, MAX_CELLS, MAX_TILES, UNREACHED};
use super::zero;
use crate::tables::store::Unbuilt;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The low bit of every two-bit field of a word.
const LOW: u64 = 0x5555_5555_5555_5555;
/// Fields per word.
const FIELDS: usize = 32;
/// Runs of ranks (see `reorder`) put in order by one task.
const RUNS: usize = 1 << 12;
/// Tiles for which the remappings are tabulated (8! fits a u16); larger patterns compute them.
const TABULATED: usize = 8;

/// The maps of `k` tiles on the board, in colex order of their masks, with their regions.
struct Maps {
    n: usize,
    k: usize,
    /// The cells each map covers, by rank.
    masks: Vec<u32>,
    /// `region[map * n + cell]`: the region of a free cell, numbered by their lowest cells.
    region: Vec<u8>,
    /// The first field of each map's blocks, and the total at the end.
    first: Vec<u64>,
    /// Fields per block: k! rounded up to whole words.
    stride: u64,
    /// C(c, j) for the colex rank.
    binomial: [[u32; MAX_TILES + 1]; MAX_CELLS + 1],
}

impl Maps {
    fn new(pattern: &Pattern) -> Maps {
        let (n, k) = (pattern.width * pattern.height, pattern.cells.len());
        let board = Geometry::new(pattern.width, pattern.height);
        let mut binomial = [[0u32; MAX_TILES + 1]; MAX_CELLS + 1];
        for (c, row) in binomial.iter_mut().enumerate() {
            row[0] = 1;
            for j in 1..=MAX_TILES.min(c) {
                // C(c, j) = C(c, j - 1) * (c + 1 - j) / j, exact in u64.
                row[j] = (u64::from(row[j - 1]) * (c + 1 - j) as u64 / j as u64) as u32;
            }
        }
        let count = binomial[n][k] as usize;
        let mut masks = Vec::with_capacity(count);
        let mut mask = (1u32 << k) - 1;
        for _ in 0..count {
            masks.push(mask);
            // The next mask with as many bits, in increasing order (which is colex order).
            let low = mask & mask.wrapping_neg();
            let ripple = mask.wrapping_add(low);
            mask = ripple | (((mask ^ ripple) >> 2) / low);
        }
        let regions: Vec<(Vec<u8>, u64)> = masks
            .par_iter()
            .map(|&covered| {
                let mut region = vec![u8::MAX; n];
                let mut free = board.all & !covered;
                let mut count = 0u64;
                while free != 0 {
                    let r = board.flood(free & free.wrapping_neg(), free);
                    for cell in Bits(u64::from(r)) {
                        region[cell] = count as u8;
                    }
                    free &= !r;
                    count += 1;
                }
                (region, count)
            })
            .collect();
        let factorial: u64 = (1..=k as u64).product();
        let stride = factorial.div_ceil(FIELDS as u64) * FIELDS as u64;
        let mut first = Vec::with_capacity(count + 1);
        let mut total = 0;
        for (_, blocks) in &regions {
            first.push(total);
            total += blocks * stride;
        }
        first.push(total);
        Maps {
            n,
            k,
            masks,
            region: regions.into_iter().flat_map(|(r, _)| r).collect(),
            first,
            stride,
            binomial,
        }
    }

    /// Fields in all: every map's regions, a block each.
    fn fields(&self) -> u64 {
        *self.first.last().unwrap()
    }

    /// The bytes `search` and `search_zero` hold at most: the entries twice (by map, then in
    /// order), or once with the fields; and these tables.
    fn memory(&self) -> u64 {
        let entries = self.masks.len() as u64 * (1..=self.k as u64).product::<u64>();
        let remap = if self.k <= TABULATED {
            (self.k * self.k) as u64 * self.stride * 2
        } else {
            0
        };
        let held = entries + entries.max(self.fields() / 4);
        held + self.masks.len() as u64 * (self.n as u64 + 12) + remap
    }

    fn rank(&self, mask: u32) -> usize {
        Bits(u64::from(mask))
            .enumerate()
            .map(|(j, cell)| self.binomial[cell][j + 1] as usize)
            .sum()
    }

    /// The first word of the block of `map`'s region `r`.
    fn block(&self, map: usize, r: u8) -> usize {
        ((self.first[map] + u64::from(r) * self.stride) / FIELDS as u64) as usize
    }

    /// States in all: a block's padding is none.
    fn states(&self) -> u64 {
        self.fields() / self.stride * (1..=self.k as u64).product::<u64>()
    }

    fn regions(&self, map: usize) -> u8 {
        ((self.first[map + 1] - self.first[map]) / self.stride) as u8
    }
}

/// The set bits of a mask, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let bit = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            bit
        })
    }
}

/// Ranks of the orders of `k` tiles on `k` places (slot `i` on place `p[i]`), by Lehmer code,
/// and the remapping of a rank when the tile on place `q` moves to place `to` and the tiles
/// between close up.
struct Orders {
    k: usize,
    /// For `k <= TABULATED`: `table[(q * k + to) * stride + rank]`.
    table: Vec<u16>,
    stride: usize,
}

impl Orders {
    fn new(k: usize, stride: usize, tabulate: bool) -> Orders {
        let mut orders = Orders {
            k,
            table: Vec::new(),
            stride,
        };
        if tabulate {
            let count: usize = (1..=k).product();
            let mut table = vec![0u16; k * k * stride];
            table
                .par_chunks_mut(stride)
                .enumerate()
                .for_each(|(pair, out)| {
                    let (q, to) = (pair / k, pair % k);
                    for (rank, slot) in out[..count].iter_mut().enumerate() {
                        *slot = orders.moved(q, to, rank) as u16;
                    }
                });
            orders.table = table;
        }
        orders
    }

    fn rank(&self, places: &[u8]) -> usize {
        let mut used = 0u32;
        places[..self.k]
            .iter()
            .enumerate()
            .fold(0, |rank, (i, &p)| {
                let before = (used & ((1 << p) - 1)).count_ones() as usize;
                used |= 1 << p;
                rank * (self.k - i) + p as usize - before
            })
    }

    fn unrank(&self, rank: usize, places: &mut [u8; MAX_TILES]) {
        let mut digits = [0usize; MAX_TILES];
        let mut rest = rank;
        for i in (0..self.k).rev() {
            digits[i] = rest % (self.k - i);
            rest /= self.k - i;
        }
        let mut free = (1u32 << self.k) - 1;
        for (place, &digit) in places.iter_mut().zip(&digits[..self.k]) {
            let mut left = free;
            for _ in 0..digit {
                left &= left - 1;
            }
            *place = left.trailing_zeros() as u8;
            free &= !(1 << *place);
        }
    }

    fn moved(&self, q: usize, to: usize, rank: usize) -> usize {
        let mut places = [0u8; MAX_TILES];
        self.unrank(rank, &mut places);
        let (q, to) = (q as u8, to as u8);
        for p in &mut places[..self.k] {
            *p = if *p == q {
                to
            } else if q < to && *p > q && *p <= to {
                *p - 1
            } else if to < q && *p >= to && *p < q {
                *p + 1
            } else {
                *p
            };
        }
        self.rank(&places)
    }

    #[inline(always)]
    fn remap(&self, q: usize, to: usize, rank: usize) -> usize {
        if self.table.is_empty() {
            self.moved(q, to, rank)
        } else {
            self.table[(q * self.k + to) * self.stride + rank] as usize
        }
    }
}

/// The most memory `search` (or `search_zero`) holds for `pattern`, in bytes, the database
/// included.
pub fn memory(pattern: &Pattern) -> u64 {
    Maps::new(pattern).memory()
}

/// Fills the database of `pattern` (one byte per placement, in the order of `pattern.ranker()`),
/// or `None` soon after `stop` is set. `progress` is told, now and then and from any thread, the
/// share of the work done so far (states expanded, each once, then entries put in order), scaled
/// to the number of entries.
pub fn search(
    pattern: &Pattern,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<u8>> {
    let tabulate = pattern.cells.len() <= TABULATED;
    search_with(pattern, progress, stop, tabulate, None)
}

/// Fills the zero-aware database of `pattern`: a byte per placement, in the order of
/// `pattern.ranker()`, with the fewest moves with the blank in the region that holds more than
/// half of the free cells, and the least over the other regions, each as its half-excess over
/// the tiles' Manhattan distance (`zero::half`) in the low and high 4 bits. Otherwise as
/// `search`; refused, naming a placement, if a cost does not fit its 4 bits.
pub fn search_zero(
    pattern: &Pattern,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Vec<u8>, Unbuilt> {
    let tabulate = pattern.cells.len() <= TABULATED;
    let misfit = AtomicU64::new(u64::MAX);
    let table = search_with(pattern, progress, stop, tabulate, Some(&misfit));
    let table = table.ok_or(Unbuilt::Stopped)?;
    match misfit.into_inner() {
        u64::MAX => Ok(table),
        rank => Err(Unbuilt::Refused(format!(
            "the zero-aware database of {}: the costs of placement {rank} exceed its tiles' Manhattan distance by more than 4 bits hold",
            pattern.key()
        ))),
    }
}

/// `search`, or with `misfit`, `search_zero` (a placement whose costs do not fit its byte goes
/// in `misfit`, by its rank), with the orders' remappings tabulated or computed as asked.
fn search_with(
    pattern: &Pattern,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
    tabulate: bool,
    misfit: Option<&AtomicU64>,
) -> Option<Vec<u8>> {
    let zero = misfit.is_some();
    let maps = Maps::new(pattern);
    let (n, k) = (maps.n, maps.k);
    let board = Geometry::new(pattern.width, pattern.height);
    let ranker = pattern.ranker();
    let orders = Orders::new(k, maps.stride as usize, tabulate);
    let words = (maps.fields() / FIELDS as u64) as usize;
    let fields: Vec<AtomicU64> = (0..words)
        .into_par_iter()
        .map(|_| AtomicU64::new(u64::MAX))
        .collect();
    // Entries by map and order during the search, where a block's writes stay together; put in
    // the ranker's order at the end. A zero-aware byte takes each class's cost at the first
    // expansion of one of its placement's states in a region of that class: layers come in
    // order, so that is the least.
    let orders_per_map = ranker.size() as usize / maps.masks.len();
    let empty = if zero { zero::ABSENT } else { UNREACHED };
    let mut by_map = vec![empty; ranker.size() as usize];
    let misfit_at = AtomicU64::new(u64::MAX);

    // The goal: each tile on its own cell, in slot order (rank 0), the blank's region.
    let goal = maps.rank(pattern.cells.iter().fold(0, |m, &c| m | 1 << c));
    let r = maps.region[goal * n + pattern.blank];
    fields[maps.block(goal, r)].fetch_and(!0b10, Ordering::Relaxed);

    // Progress counts states expanded, then entries put in order (each costs about as much as
    // an expansion), scaled to the number of entries.
    let total = ranker.size();
    let work = maps.states() + ranker.size();
    let report = |done: u64| progress((done as u128 * total as u128 / work as u128) as u64);
    let reached = AtomicU64::new(0);
    let mut depth = 0u8;
    loop {
        // This layer's fields hold `now`; the next layer's get `next`, by clearing one bit of 3.
        let now = if depth.is_multiple_of(2) { 1u64 } else { 2 };
        let clear = if now == 1 { 0b01 } else { 0b10 };
        let pattern_now = now * LOW;
        let more = AtomicBool::new(false);
        let mut per_map = Vec::with_capacity(maps.masks.len());
        let mut rest = &mut by_map[..];
        for _ in 0..maps.masks.len() {
            let (entries, after) = std::mem::take(&mut rest).split_at_mut(orders_per_map);
            per_map.push(entries);
            rest = after;
        }
        per_map
            .into_par_iter()
            .enumerate()
            .with_min_len(16)
            .for_each_init(
                Vec::new,
                |frontier: &mut Vec<(u32, u64)>, (map, entries)| {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let covered = maps.masks[map];
                    let free = board.all & !covered;
                    // A zero-aware entry's Manhattan distance: slot by place on the map's cells,
                    // tabulated once the map has a state to expand.
                    let mut distance = [[0u8; MAX_TILES]; MAX_TILES];
                    let mut tabulated = false;
                    let mut expanded = 0;
                    for r in 0..maps.regions(map) {
                        let start = maps.block(map, r);
                        frontier.clear();
                        for w in 0..maps.stride as usize / FIELDS {
                            let x = fields[start + w].load(Ordering::Relaxed) ^ pattern_now;
                            let z = !(x | x >> 1) & LOW;
                            if z != 0 {
                                frontier.push((w as u32, z));
                            }
                        }
                        if frontier.is_empty() {
                            continue;
                        }
                        if zero && !tabulated {
                            for (place, cell) in Bits(u64::from(covered)).enumerate() {
                                for (slot, row) in distance[..k].iter_mut().enumerate() {
                                    row[place] = pattern.distance(slot, cell);
                                }
                            }
                            tabulated = true;
                        }
                        let region = Bits(u64::from(free))
                            .filter(|&c| maps.region[map * n + c] == r)
                            .fold(0u32, |m, c| m | 1 << c);
                        // The half of a zero-aware byte this region's class takes.
                        let shift = 4 * u8::from(2 * region.count_ones() as usize <= n - k);
                        for b in Bits(u64::from(region)) {
                            for a in Bits(u64::from(board.neighbours[b] & covered)) {
                                let moved = covered ^ (1 << a) ^ (1 << b);
                                let child = maps.rank(moved);
                                let to = maps.block(child, maps.region[child * n + a]);
                                let q = (covered & ((1 << a) - 1)).count_ones() as usize;
                                let p = (moved & ((1 << b) - 1)).count_ones() as usize;
                                let mut grew = false;
                                if p == q {
                                    for &(w, z) in frontier.iter() {
                                        let word = &fields[to + w as usize];
                                        let c = word.load(Ordering::Relaxed);
                                        let new = z & c & c >> 1;
                                        if new != 0 {
                                            word.fetch_and(!(new * clear), Ordering::Relaxed);
                                            grew = true;
                                        }
                                    }
                                } else {
                                    for &(w, z) in frontier.iter() {
                                        for bit in Bits(z) {
                                            let rank = w as usize * FIELDS + bit / 2;
                                            let i = orders.remap(q, p, rank);
                                            let word = &fields[to + i / FIELDS];
                                            let shift = 2 * (i % FIELDS);
                                            if word.load(Ordering::Relaxed) >> shift & 3 == 3 {
                                                word.fetch_and(
                                                    !(clear << shift),
                                                    Ordering::Relaxed,
                                                );
                                                grew = true;
                                            }
                                        }
                                    }
                                }
                                if grew {
                                    more.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                        // Expanded: close the fields, and give new placements their entry.
                        for &(w, z) in frontier.iter() {
                            fields[start + w as usize].fetch_and(!(z * 3), Ordering::Relaxed);
                            expanded += u64::from(z.count_ones());
                            for bit in Bits(z) {
                                let order = w as usize * FIELDS + bit / 2;
                                let entry = &mut entries[order];
                                if !zero {
                                    *entry = (*entry).min(depth);
                                } else if *entry >> shift & 15 == zero::NONE {
                                    let mut places = [0u8; MAX_TILES];
                                    orders.unrank(order, &mut places);
                                    let manhattan = (0..k)
                                        .map(|slot| distance[slot][usize::from(places[slot])])
                                        .sum();
                                    match zero::half(depth, manhattan) {
                                        Some(half) => {
                                            *entry = *entry & !(15 << shift) | half << shift;
                                        }
                                        None => {
                                            let at = (map * orders_per_map + order) as u64;
                                            misfit_at.fetch_min(at, Ordering::Relaxed);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    if expanded > 0 {
                        report(reached.fetch_add(expanded, Ordering::Relaxed) + expanded);
                    }
                },
            );
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if !more.load(Ordering::Relaxed) {
            break;
        }
        depth += 1;
        assert!(depth < UNREACHED, "a pattern needing 255 moves or more");
    }
    drop(fields);
    let at = misfit_at.into_inner();
    if let Some(misfit) = misfit.filter(|_| at != u64::MAX) {
        misfit.store(
            ranked(&maps, &orders, &ranker, at as usize),
            Ordering::Relaxed,
        );
    }
    let expanded = reached.load(Ordering::Relaxed);
    Some(reorder(&maps, &orders, pattern, &by_map, &|done| {
        report(expanded + done)
    }))
}

/// The rank by `ranker` of the placement at `at` among the entries by map and order.
fn ranked(maps: &Maps, orders: &Orders, ranker: &Ranker, at: usize) -> u64 {
    let per_map = ranker.size() as usize / maps.masks.len();
    let mut places = [0u8; MAX_TILES];
    orders.unrank(at % per_map, &mut places);
    let on: Vec<u8> = Bits(u64::from(maps.masks[at / per_map]))
        .map(|c| c as u8)
        .collect();
    let cells: Vec<u8> = places[..maps.k]
        .iter()
        .map(|&p| on[usize::from(p)])
        .collect();
    ranker.rank(&cells) as u64
}

/// The entries `by_map` holds by map and order, in the order of `pattern.ranker()`; `progress` is
/// told the entries done so far, now and then.
fn reorder(
    maps: &Maps,
    orders: &Orders,
    pattern: &Pattern,
    by_map: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<u8> {
    let done = AtomicU64::new(0);
    let ranker = pattern.ranker();
    let (k, per_map) = (maps.k, by_map.len() / maps.masks.len());
    let all = Geometry::new(pattern.width, pattern.height).all;
    // The last tile's cell is a rank's last digit: a run of `last` ranks from a multiple of it
    // puts that tile on each cell the others leave free, in order, and nothing else changes.
    let last = maps.n - k + 1;
    let mut out = vec![0u8; by_map.len()];
    out.par_chunks_mut(last * RUNS)
        .enumerate()
        .for_each(|(chunk, out)| {
            let mut cells = [0u8; MAX_TILES];
            let mut places = [0u8; MAX_TILES];
            let mut at = [0usize; MAX_CELLS];
            for (run, out) in out.chunks_mut(last).enumerate() {
                let start = (chunk * RUNS + run) * last;
                let others = ranker.unrank(start as u64, &mut cells) & !(1 << cells[k - 1]);
                // The reads land all over `by_map`: a run's indices are found first, so that its
                // reads are in flight together.
                for (at, cell) in at.iter_mut().zip(Bits(u64::from(all & !others))) {
                    cells[k - 1] = cell as u8;
                    let covered = others | 1 << cell;
                    for (place, &c) in places[..k].iter_mut().zip(&cells[..k]) {
                        *place = (covered & ((1 << c) - 1)).count_ones() as u8;
                    }
                    *at = maps.rank(covered) * per_map + orders.rank(&places);
                }
                for (out, &at) in out.iter_mut().zip(&at) {
                    *out = by_map[at];
                }
            }
            progress(done.fetch_add(out.len() as u64, Ordering::Relaxed) + out.len() as u64);
        });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn orders_rank_and_unrank_every_permutation() {
        for k in 1..=6 {
            let count: usize = (1..=k).product();
            let orders = Orders::new(k, count, false);
            let mut places = [0u8; MAX_TILES];
            let mut seen = std::collections::HashSet::new();
            for rank in 0..count {
                orders.unrank(rank, &mut places);
                let used = places[..k].iter().fold(0u32, |m, &p| m | 1 << p);
                assert_eq!(used, (1 << k) - 1, "k {k}, rank {rank}");
                assert_eq!(orders.rank(&places), rank);
                seen.insert(places);
            }
            assert_eq!(seen.len(), count);
        }
    }

    /// The oracles in `runner::tile_searches::pdb` check builds with tabulated remappings; the
    /// computed ones (patterns of more tiles) must give the same tables, zero-aware ones too.
    #[test]
    fn computed_remappings_build_the_tabulated_tables() {
        for (w, h, cells) in [
            (3, 3, &[1, 2, 3, 4, 5][..]),
            (4, 3, &[1, 2, 5, 6, 9]),
            (3, 2, &[0, 1, 2, 3, 4]),
        ] {
            let blank = (0..w * h).find(|c| !cells.contains(&(*c as u8))).unwrap();
            let p = Pattern::new(w, h, blank, cells).unwrap();
            let stop = AtomicBool::new(false);
            for zero in [false, true] {
                let fits = AtomicU64::new(u64::MAX);
                let misfit = zero.then_some(&fits);
                assert_eq!(
                    search_with(&p, &|_| {}, &stop, false, misfit),
                    search_with(&p, &|_| {}, &stop, true, misfit),
                    "{}, zero-aware {zero}",
                    p.key()
                );
                assert_eq!(fits.into_inner(), u64::MAX, "{}: a misfit", p.key());
            }
        }
    }

    /// On the 2x5 board, the whole puzzle's costs run far past its Manhattan distance: the
    /// zero-aware build refuses, naming a placement whose cost does not fit, which the plain
    /// table confirms.
    #[test]
    fn a_zero_aware_build_whose_costs_do_not_fit_refuses_naming_one() {
        let p = Pattern::new(5, 2, 0, &[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
        let stop = AtomicBool::new(false);
        let plain = search(&p, &|_| {}, &stop).unwrap();
        let Err(Unbuilt::Refused(why)) = search_zero(&p, &|_| {}, &stop) else {
            panic!("a zero-aware 2x5 table was built");
        };
        let rank: u64 = why
            .split_once("placement ")
            .and_then(|(_, rest)| rest.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no placement in {why:?}"));
        let mut cells = [0u8; MAX_TILES];
        p.ranker().unrank(rank, &mut cells);
        let manhattan: u8 = (0..9)
            .map(|slot| p.distance(slot, cells[slot].into()))
            .sum();
        // One free cell: its region is the large one, whose cost is the plain entry.
        assert_eq!(zero::half(plain[rank as usize], manhattan), None, "{why}");
    }

    #[test]
    fn maps_come_in_colex_order_with_their_regions() {
        // Three tiles on the 3x3 board: C(9, 3) maps; tiles on 1, 3 and 4 wall off cell 0.
        let p = Pattern::new(3, 3, 0, &[1, 2, 3]).unwrap();
        let maps = Maps::new(&p);
        assert_eq!(maps.masks.len(), 84);
        for (rank, &mask) in maps.masks.iter().enumerate() {
            assert_eq!(maps.rank(mask), rank);
            assert_eq!(mask.count_ones(), 3);
        }
        let walled = maps.rank(0b11010);
        assert_eq!(maps.regions(walled), 2);
        assert_eq!(maps.region[walled * 9], 0);
        assert!((2..9)
            .filter(|&c| c != 3 && c != 4)
            .all(|c| maps.region[walled * 9 + c] == 1));
        // Every state of one region is a block of 3! orders, padded to a word.
        assert_eq!(maps.stride, 32);
        assert_eq!(maps.states() % 6, 0);
    }

    #[test]
    fn progress_ends_at_every_entry_when_every_state_is_reached() {
        let p = Pattern::new(4, 3, 0, &[1, 2, 5, 6]).unwrap();
        let most = Mutex::new(0u64);
        let record = |done| {
            let mut most = most.lock().unwrap();
            *most = (*most).max(done);
        };
        let table = search(&p, &record, &AtomicBool::new(false)).unwrap();
        assert!(table.iter().all(|&d| d != UNREACHED));
        assert_eq!(*most.lock().unwrap(), p.ranker().size());
        assert!(search(&p, &|_| {}, &AtomicBool::new(true)).is_none());
        // A zero-aware build's progress counts its placements too.
        *most.lock().unwrap() = 0;
        let zero = search_zero(&p, &record, &AtomicBool::new(false)).unwrap();
        assert_eq!(zero.len() as u64, p.ranker().size());
        assert_eq!(*most.lock().unwrap(), p.ranker().size());
        assert_eq!(
            search_zero(&p, &|_| {}, &AtomicBool::new(true)),
            Err(Unbuilt::Stopped)
        );
    }
}
