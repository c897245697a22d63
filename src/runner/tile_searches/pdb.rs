//! Pattern databases: the partitions' shapes, each database against an independent search,
//! every 3x3 and 2x4 state against its breadth-first distance (admissible, exact at the goal,
//! and how much the estimate can change in one move), the incremental update against a fresh
//! look-up, the 15-puzzle databases between Manhattan and the optimum, Korf-100 lengths with
//! pdb-663, identical searches on both kernels and under relabelled goals, and the on-disk store.
//!
//! Only 3x3, 2x4, 4x2, 2x3 boards and the 5-5-5 and 6-6-3 databases are built here: the larger
//! ones take minutes. Nothing here asserts on a time.

use super::{estimate, korf100, length, neighbours, summary, walk_agrees, Korf, KORF, SMALL};
use crate::domains::tiles::pattern::{self, Pattern, UNREACHED};
use crate::domains::tiles::pdb::{
    Index, Partition, PatternDbs, PDB_555, PDB_663, PDB_6666, PDB_78,
};
use crate::domains::tiles::zero::{ZeroAware, ZeroIndex};
use crate::domains::tiles::{self, FixedTiles, Grid, Manhattan, TileState, Tiles};
use crate::domains::Spec;
use crate::domains::{DomainKind, Family, HeuristicKind, Puzzle};
use crate::results::record::Status;
use crate::runner::job::solve_shared;
use crate::runner::solve::solve;
use crate::search::{
    ida_star, ida_star_fixed, Domain, Factor, Heuristic, Limits, Prune, Pruning, SplitDepth, Step,
    Variant,
};
use crate::tables::automata;
use crate::tables::store::{self, Unusable};
use crate::util::rng::Rng;
use std::collections::VecDeque;

// ---------------------------------------------------------------------------------------------
// Helpers

/// The patterns of a board `w` x `h` whose goal has the blank on `blank`, as goal cells.
fn patterns(w: usize, h: usize, blank: usize, groups: &[&[u8]]) -> Vec<Pattern> {
    groups
        .iter()
        .map(|g| Pattern::new(w, h, blank, g).unwrap())
        .collect()
}

/// The additive heuristic of `patterns` for `d`, its tables built in memory (once per process:
/// `store::table` keeps them by name).
fn dbs(d: &Tiles, patterns: &[Pattern], reflect: bool) -> PatternDbs {
    let tables = patterns.iter().map(|p| store::table(p)).collect();
    PatternDbs::new(patterns, tables, &d.places().cell, reflect)
}

/// The heuristic of a named partition for `d`'s board and goal.
fn partition_dbs(d: &Tiles, partition: Partition, reflect: bool) -> PatternDbs {
    dbs(d, &d.patterns(partition).unwrap(), reflect)
}

fn korf_goal() -> Vec<u8> {
    (0..16).collect()
}

/// The cell `cell` becomes when a square board of side `w` is reflected about its main diagonal.
fn mirrored(w: usize, cell: usize) -> usize {
    (cell % w) * w + cell / w
}

// ---------------------------------------------------------------------------------------------
// The partitions

/// Each named partition, for the goal with the blank first and the one with the blank last,
/// splits the tiles into disjoint patterns covering every cell but the blank's, and each pattern
/// is one connected block of cells, as in the papers' figures. (A scattered pattern is still
/// admissible, only much weaker: nothing else would notice it.)
#[test]
fn partitions_are_connected_blocks_covering_every_tile_once() {
    for partition in [PDB_555, PDB_663, PDB_78, PDB_6666] {
        let (w, h) = (partition.width, partition.height);
        let n = w * h;
        for blank in [0, n - 1] {
            let what = format!("{} with the blank on {blank}", partition.name);
            let patterns = partition.patterns(w, h, blank).unwrap();
            let mut covered = vec![0; n];
            for p in &patterns {
                for &c in &p.cells {
                    covered[c as usize] += 1;
                }
                // Flood from the first cell through the pattern's cells.
                let mut reached = vec![p.cells[0] as usize];
                let mut k = 0;
                while k < reached.len() {
                    for next in neighbours(w, h, reached[k]) {
                        if p.cells.contains(&(next as u8)) && !reached.contains(&next) {
                            reached.push(next);
                        }
                    }
                    k += 1;
                }
                assert_eq!(
                    reached.len(),
                    p.cells.len(),
                    "{what}: pattern {:?} is not one block of cells",
                    p.cells
                );
            }
            for (c, &times) in covered.iter().enumerate() {
                assert_eq!(times, usize::from(c != blank), "{what}: cell {c}");
            }
        }
    }
}

/// Boards and goals without databases are refused, naming what works.
#[test]
fn other_boards_and_goals_are_refused() {
    let e = PDB_663.patterns(3, 3, 0).unwrap_err();
    assert!(e.contains("4x4") && e.contains("3x3"), "{e}");
    let e = PDB_663.patterns(4, 4, 5).unwrap_err();
    assert!(
        e.contains("blank first (0 1 2 ... 15)") && e.contains("last (1 2 ... 15 0)"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Each database against a plain search over (placement, blank cell)

/// The database of `p` computed the slow, obvious way: a 0-1 breadth-first search over every
/// placement of the pattern's tiles and every blank cell, where moving the blank into a cell of
/// no pattern tile is free and swapping it with a pattern tile costs one; an entry is the least
/// cost over the blank's cells. States are numbered by base-n digits, not by the library's ranking.
fn plain_database(p: &Pattern) -> Vec<(Vec<u8>, u8)> {
    plain_costs(p)
        .into_iter()
        .map(|(cells, by_blank)| {
            let best = by_blank.iter().copied().min().unwrap();
            (cells, best)
        })
        .collect()
}

/// The search of `plain_database`: every placement with its cost for each cell of the blank
/// (`UNREACHED` on the tiles' own cells).
fn plain_costs(p: &Pattern) -> Vec<(Vec<u8>, Vec<u8>)> {
    let (w, h) = (p.width, p.height);
    let n = w * h;
    let k = p.cells.len();
    let code =
        |cells: &[u8], blank: usize| cells.iter().fold(blank, |acc, &c| acc * n + c as usize);
    let size = n.pow(k as u32 + 1);
    let mut dist = vec![u8::MAX; size];
    let mut queue = VecDeque::new();
    let start = code(&p.cells, p.blank);
    dist[start] = 0;
    queue.push_back((p.cells.clone(), p.blank));
    while let Some((cells, blank)) = queue.pop_front() {
        let here = dist[code(&cells, blank)];
        for next in neighbours(w, h, blank) {
            let mut moved = cells.clone();
            let cost = match cells.iter().position(|&c| c as usize == next) {
                Some(i) => {
                    moved[i] = blank as u8;
                    1
                }
                None => 0,
            };
            let to = code(&moved, next);
            if here + cost < dist[to] {
                dist[to] = here + cost;
                if cost == 0 {
                    queue.push_front((moved, next));
                } else {
                    queue.push_back((moved, next));
                }
            }
        }
    }
    // Every placement (distinct cells), with its cost for each blank cell.
    let mut out = Vec::new();
    let mut cells = vec![0u8; k];
    fn each(i: usize, n: usize, cells: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
        if i == cells.len() {
            return f(cells);
        }
        for c in 0..n as u8 {
            if !cells[..i].contains(&c) {
                cells[i] = c;
                each(i + 1, n, cells, f);
            }
        }
    }
    each(0, n, &mut cells, &mut |cells| {
        let by_blank = (0..n)
            .map(|b| {
                if cells.contains(&(b as u8)) {
                    UNREACHED
                } else {
                    dist[code(cells, b)]
                }
            })
            .collect();
        out.push((cells.to_vec(), by_blank));
    });
    out
}

/// `pattern::build` (placements and the blank's regions, in parallel) agrees entry by entry with
/// the plain search, on small boards, for a pattern of each 15-puzzle partition, and on a board
/// where the pattern holds every tile (so half the placements cannot be reached at all).
#[test]
fn databases_equal_a_plain_search_over_placements_and_blank_cells() {
    let mut cases = vec![
        Pattern::new(3, 3, 0, &[1, 2, 3, 4]).unwrap(),
        Pattern::new(3, 3, 0, &[5, 6, 7, 8]).unwrap(),
        Pattern::new(3, 3, 8, &[0, 4, 8 - 1]).unwrap(),
        Pattern::new(3, 3, 4, &[0, 2, 6, 8]).unwrap(),
        Pattern::new(2, 4, 0, &[1, 2, 3]).unwrap(),
        Pattern::new(4, 2, 7, &[0, 1, 2, 3]).unwrap(),
        // Every tile of the 2x3 board: a placement fixes the blank's cell.
        Pattern::new(3, 2, 5, &[0, 1, 2, 3, 4]).unwrap(),
    ];
    // The 6-6-3 partition's three tiles and one of the 5-5-5 partition's patterns.
    let fifteen = Tiles::new(4, 4, &korf_goal()).unwrap();
    for partition in [PDB_663, PDB_555] {
        let smallest = fifteen
            .patterns(partition)
            .unwrap()
            .into_iter()
            .min_by_key(|p| p.cells.len())
            .unwrap();
        cases.push(smallest);
    }
    for p in &cases {
        let built = pattern::build(p, &|_| {});
        let ranker = p.ranker();
        assert_eq!(built.len() as u64, ranker.size(), "{}", p.key());
        let plain = plain_database(p);
        assert_eq!(plain.len() as u64, ranker.size(), "{}", p.key());
        let mut unreached = 0;
        for (cells, want) in &plain {
            assert_eq!(
                built[ranker.rank(cells)],
                *want,
                "{}: tiles on {cells:?}",
                p.key()
            );
            unreached += usize::from(*want == UNREACHED);
        }
        // Only the board whose pattern holds every tile has placements no move reaches.
        let full = p.cells.len() + 1 == p.width * p.height;
        assert_eq!(unreached > 0, full, "{}", p.key());
        if full {
            assert_eq!(unreached, plain.len() / 2, "{}", p.key());
        }
    }
}

/// The zero-aware databases (`ZeroAware`) hold, for every placement and cell of the blank on the
/// same boards, the plain search's least cost over the blank's cells in regions of the same
/// class: the region of more than half the free cells, or the others (regions found here by a
/// search of their own); the half of a byte for a class a placement does not have is 15, and
/// the store's check passes.
#[test]
fn zero_aware_databases_hold_the_plain_search_for_every_blank_cell() {
    let fifteen = Tiles::new(4, 4, &korf_goal()).unwrap();
    let mut cases = vec![
        Pattern::new(3, 3, 0, &[1, 2, 3, 4]).unwrap(),
        Pattern::new(3, 3, 8, &[0, 4, 8 - 1]).unwrap(),
        Pattern::new(3, 3, 4, &[0, 2, 6, 8]).unwrap(),
        Pattern::new(2, 4, 0, &[1, 2, 3]).unwrap(),
        Pattern::new(4, 2, 7, &[0, 1, 2, 3]).unwrap(),
        Pattern::new(3, 2, 5, &[0, 1, 2, 3, 4]).unwrap(),
    ];
    cases.extend(
        fifteen
            .patterns(PDB_663)
            .unwrap()
            .into_iter()
            .filter(|p| p.cells.len() == 3),
    );
    for p in &cases {
        let spec = ZeroAware::new(p.clone());
        let built = pattern_bfs_zero(p);
        let index = ZeroIndex::new(p);
        assert_eq!(built.len() as u64, index.size(), "{}", p.key());
        assert_eq!(
            built.len() as u64,
            store::Spec::entries(&spec),
            "{}",
            p.key()
        );
        // Which halves of which bytes some state reads.
        let mut used = vec![[false; 2]; built.len()];
        let mut slots = [0u8; 8];
        let (w, h) = (p.width, p.height);
        let free = w * h - p.cells.len();
        for (cells, by_blank) in plain_costs(p) {
            slots[..cells.len()].copy_from_slice(&cells);
            // Whether each free cell's region holds more than half of the free cells.
            let large: Vec<bool> = (0..w * h)
                .map(|from| {
                    let mut seen = vec![from];
                    let mut k = 0;
                    while k < seen.len() {
                        for next in neighbours(w, h, seen[k]) {
                            if !cells.contains(&(next as u8)) && !seen.contains(&next) {
                                seen.push(next);
                            }
                        }
                        k += 1;
                    }
                    2 * seen.len() > free
                })
                .collect();
            for blank in 0..w * h {
                if cells.contains(&(blank as u8)) {
                    continue;
                }
                let want = (0..w * h)
                    .filter(|&b| !cells.contains(&(b as u8)) && large[b] == large[blank])
                    .map(|b| by_blank[b])
                    .min()
                    .unwrap();
                let manhattan: usize = cells
                    .iter()
                    .zip(&p.cells)
                    .map(|(&c, &home)| {
                        let (c, home) = (c as usize, home as usize);
                        (c % w).abs_diff(home % w) + (c / w).abs_diff(home / w)
                    })
                    .sum();
                // An unreachable state's half is the mark of none, 15.
                let cost = index.cost(&built, &slots, blank as u8, manhattan as u8);
                let cost = if cost == manhattan as u8 + 30 {
                    UNREACHED
                } else {
                    cost
                };
                assert_eq!(
                    cost,
                    want,
                    "{}: tiles on {cells:?}, blank on {blank}",
                    p.key()
                );
                assert_eq!(large[blank], !index.outside(&slots, blank as u8));
                used[p.ranker().rank(&slots)][usize::from(!large[blank])] = true;
            }
        }
        for (byte, used) in built.iter().zip(&used) {
            for (class, &used) in used.iter().enumerate() {
                let half = byte >> (4 * class) & 15;
                assert!(used || half == 15, "{}: a half of no state's", p.key());
            }
        }
        let zeros = built.iter().filter(|&&e| e == 0).count() as u64;
        assert_eq!(
            store::Spec::check(&spec, &built, zeros),
            Ok(()),
            "{}",
            p.key()
        );
    }
}

/// The zero-aware heuristic of `patterns` for `d`, its tables built in memory.
fn zero_dbs(d: &Tiles, patterns: &[Pattern], reflect: bool) -> PatternDbs<ZeroIndex> {
    let tables = patterns
        .iter()
        .map(|p| store::table(&ZeroAware::new(p.clone())))
        .collect();
    PatternDbs::zero_aware(patterns, tables, &d.places().cell, reflect)
}

/// Every state of each small board under the zero-aware databases: admissible, 0 only at the
/// goal, never below the plain databases' estimate and above it somewhere; the value `update`
/// carries to each neighbour is the one `init` computes there; the fixed 3x3 board reads the same.
#[test]
fn zero_aware_estimates_are_admissible_and_at_least_the_plain_ones() {
    for case in SMALL {
        let d = Tiles::new(case.w, case.h, case.goal).unwrap();
        let blank = case.goal.iter().position(|&t| t == 0).unwrap();
        let patterns = patterns(case.w, case.h, blank, case.groups);
        let (states, dist) = every_state(case.w, case.h, case.goal);
        for reflect in [false, true].into_iter().take(1 + case.reflect as usize) {
            let what = format!("{}, zero-aware, reflect {reflect}", case.name);
            let plain = dbs(&d, &patterns, reflect);
            let plain = estimates(&d, &plain, &states, &dist, &what);
            let h = zero_dbs(&d, &patterns, reflect);
            let est = estimates(&d, &h, &states, &dist, &what);
            let higher = states
                .iter()
                .filter(|s| {
                    let i = perm_index(s);
                    assert!(
                        est[i] >= plain[i],
                        "{what}: below the plain estimate at {s:?}"
                    );
                    est[i] > plain[i]
                })
                .count();
            assert!(higher > 0, "{what}: never above the plain estimate");
            let fixed = ((case.w, case.h) == (3, 3)).then(|| FixedTiles::<3, 3, 9>::new(&d));
            for s in &states {
                let state = d.state(s).unwrap();
                let v = h.init(&d, &state);
                for m in d.moves(&state) {
                    let mut child = state.clone();
                    d.apply(&mut child, *m);
                    assert_eq!(
                        h.update(&d, &state, *m, v),
                        h.init(&d, &child),
                        "{what}: {s:?}"
                    );
                }
                if let Some(fixed) = &fixed {
                    let fs = fixed.state(&state);
                    assert_eq!(
                        estimate(fixed, &h, &fs),
                        est[perm_index(s)] as u32,
                        "{what}"
                    );
                }
            }
        }
    }
}

/// The zero-aware table of `p`, built as the store builds it.
fn pattern_bfs_zero(p: &Pattern) -> Vec<u8> {
    let spec = ZeroAware::new(p.clone());
    store::Spec::build(&spec, &|_| {}, &std::sync::atomic::AtomicBool::new(false)).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Every state of small boards

/// The rank of a permutation of 0..n among all n! (Lehmer code).
fn perm_index(p: &[u8]) -> usize {
    let n = p.len();
    (0..n).fold(0, |acc, i| {
        acc * (n - i) + p[i + 1..].iter().filter(|&&x| x < p[i]).count()
    })
}

/// Every state that reaches `goal` on a `w` x `h` board, in breadth-first order, and each
/// one's distance (by `perm_index`): the real puzzle, searched here without the library.
fn every_state(w: usize, h: usize, goal: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let n = w * h;
    let mut dist = vec![u8::MAX; (1..=n).product()];
    let mut order = vec![goal.to_vec()];
    dist[perm_index(goal)] = 0;
    let mut k = 0;
    while k < order.len() {
        let s = order[k].clone();
        let blank = s.iter().position(|&t| t == 0).unwrap();
        for next in neighbours(w, h, blank) {
            let mut child = s.clone();
            child.swap(blank, next);
            let i = perm_index(&child);
            if dist[i] == u8::MAX {
                dist[i] = dist[perm_index(&s)] + 1;
                order.push(child);
            }
        }
        k += 1;
    }
    (order, dist)
}

/// The estimate of every state of a small board (by `perm_index`), checked on the way: at most
/// the distance, 0 exactly at the goal.
fn estimates<I: Index>(
    d: &Tiles,
    h: &PatternDbs<I>,
    states: &[Vec<u8>],
    dist: &[u8],
    what: &str,
) -> Vec<u8> {
    let mut est = vec![0u8; dist.len()];
    for s in states {
        let i = perm_index(s);
        let e = estimate(d, h, &d.state(s).unwrap());
        assert!(e <= dist[i] as u32, "{what}: h {e} > {} at {s:?}", dist[i]);
        assert_eq!(e == 0, dist[i] == 0, "{what}: h {e} at {s:?}");
        est[i] = e as u8;
    }
    est
}

/// Every state of each small board: the estimate never exceeds the breadth-first distance and is
/// 0 only at the goal, with and without reflection, and the fixed 3x3 board reads the same.
///
/// It is not consistent, and says so: an entry is the least cost over every cell the blank might
/// be on, including cells walled off from where it is. On the 3x3 board with the blank first and
/// patterns {1,2,3,4} + {5,6,7,8}, `5 1 _ / 3 4 2 / 6 7 8` has h 10 (its distance, 10), and
/// sliding tile 2 up gives `5 1 2 / 3 4 _ / 6 7 8` with h 3 (distance 11): tiles 1 to 4 are home,
/// so their entry is 0, their cost with the blank on cell 0, although the blank is now outside
/// the corner that tiles 1 and 3 wall in and cannot get back without moves of theirs (their entry
/// one move earlier was 7). The largest change per move is measured for each case and pinned (5
/// to 9 on these boards); IDA* needs admissibility only.
#[test]
fn every_small_board_state_is_within_its_distance() {
    for case in SMALL {
        let d = Tiles::new(case.w, case.h, case.goal).unwrap();
        let blank = case.goal.iter().position(|&t| t == 0).unwrap();
        let patterns = patterns(case.w, case.h, blank, case.groups);
        let (states, dist) = every_state(case.w, case.h, case.goal);
        // Half the permutations: the other half has the other parity.
        assert_eq!(states.len() * 2, dist.len(), "{}", case.name);
        for reflect in [false, true].into_iter().take(1 + case.reflect as usize) {
            let what = format!("{}, reflect {reflect}", case.name);
            let h = dbs(&d, &patterns, reflect);
            let est = estimates(&d, &h, &states, &dist, &what);
            if (case.w, case.h) == (3, 3) {
                let fixed = FixedTiles::<3, 3, 9>::new(&d);
                for s in &states {
                    let fs = fixed.state(&d.state(s).unwrap());
                    assert_eq!(
                        estimate(&fixed, &h, &fs),
                        est[perm_index(s)] as u32,
                        "{what}: fixed board at {s:?}"
                    );
                }
            }
            let mut worst = (0, Vec::new(), Vec::new());
            for s in &states {
                let blank = s.iter().position(|&t| t == 0).unwrap();
                for next in neighbours(case.w, case.h, blank) {
                    let mut child = s.clone();
                    child.swap(blank, next);
                    let change = est[perm_index(s)].abs_diff(est[perm_index(&child)]);
                    if change > worst.0 {
                        worst = (change, s.clone(), child);
                    }
                }
            }
            let (a, b) = (&worst.1, &worst.2);
            assert_eq!(
                worst.0,
                case.largest_change,
                "{what}: largest change of h in one move, e.g. {a:?} (h {}, distance {}) to {b:?} (h {}, distance {})",
                est[perm_index(a)],
                dist[perm_index(a)],
                est[perm_index(b)],
                dist[perm_index(b)]
            );
        }
    }
}

/// One pattern of every tile is the whole puzzle: its database is the exact distance of every
/// 3x3 state (so it also changes by exactly one per move).
#[test]
fn a_pattern_of_every_tile_is_the_exact_distance() {
    for goal in [
        &[0, 1, 2, 3, 4, 5, 6, 7, 8][..],
        &[1, 2, 3, 8, 0, 4, 7, 6, 5][..],
    ] {
        let d = Tiles::new(3, 3, goal).unwrap();
        let blank = goal.iter().position(|&t| t == 0).unwrap();
        let cells: Vec<u8> = (0..9u8).filter(|&c| c as usize != blank).collect();
        let h = dbs(&d, &patterns(3, 3, blank, &[&cells]), false);
        let (states, dist) = every_state(3, 3, goal);
        let est = estimates(&d, &h, &states, &dist, "every tile");
        for s in &states {
            assert_eq!(est[perm_index(s)], dist[perm_index(s)], "at {s:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The incremental update

/// Along 2,000-move random walks, `update` (which looks up only the moved tile's pattern) equals
/// `init`, on the general board and the fixed 3x3 and 4x4 boards, with and without reflection.
#[test]
fn update_equals_init_along_random_walks() {
    for (k, case) in SMALL.iter().enumerate() {
        let d = Tiles::new(case.w, case.h, case.goal).unwrap();
        let blank = case.goal.iter().position(|&t| t == 0).unwrap();
        let patterns = patterns(case.w, case.h, blank, case.groups);
        for reflect in [false, true].into_iter().take(1 + case.reflect as usize) {
            let what = format!("{}, reflect {reflect}", case.name);
            let h = dbs(&d, &patterns, reflect);
            let (highest, _) = walk_agrees(&d, &h, d.goal(), 2000, k as u64, &what);
            assert!(highest >= 10, "{what}: the walk stayed near the goal");
            if (case.w, case.h) == (3, 3) {
                let fixed = FixedTiles::<3, 3, 9>::new(&d);
                let start = fixed.state(d.goal());
                walk_agrees(
                    &fixed,
                    &h,
                    &start,
                    2000,
                    k as u64,
                    &format!("{what}, fixed"),
                );
            }
        }
    }
    // The goal with the blank last shares all its code with the blank first but the half turn of
    // the partition: the cheaper 5-5-5 databases cover it.
    for (goal, partitions) in [
        (korf_goal(), &[PDB_555, PDB_663][..]),
        (tiles::default_goal(16), &[PDB_555][..]),
    ] {
        let d = Tiles::new(4, 4, &goal).unwrap();
        let fixed = FixedTiles::<4, 4, 16>::new(&d);
        for &partition in partitions {
            for reflect in [false, true] {
                let what = format!("{} {goal:?}, reflect {reflect}", partition.name);
                let h = partition_dbs(&d, partition, reflect);
                let (highest, _) = walk_agrees(&d, &h, d.goal(), 2000, 7, &what);
                assert!(highest >= 30, "{what}: the walk stayed near the goal");
                let start = fixed.state(d.goal());
                walk_agrees(&fixed, &h, &start, 2000, 8, &format!("{what}, fixed"));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The 15-puzzle databases

/// A uniformly random state of `d` that reaches its goal.
fn random_state(d: &Tiles, rng: &mut Rng) -> TileState {
    let mut tiles: Vec<u8> = (0..16).collect();
    rng.shuffle(&mut tiles);
    if !d.is_solvable(&d.state(&tiles).unwrap()) {
        // Swapping two tiles (not the blank) flips the parity.
        let mut numbered = (0..16).filter(|&c| tiles[c] != 0);
        let (a, b) = (numbered.next().unwrap(), numbered.next().unwrap());
        tiles.swap(a, b);
    }
    let s = d.state(&tiles).unwrap();
    assert!(d.is_solvable(&s));
    s
}

/// The state of Korf's goal (tile t on cell t) reflected about the main diagonal: the tile on
/// cell c goes to the mirrored cell and is renamed for its mirrored home.
fn mirror(tiles: &[u8]) -> Vec<u8> {
    let mut out = vec![0; 16];
    for (c, &t) in tiles.iter().enumerate() {
        out[mirrored(4, c)] = mirrored(4, t as usize) as u8;
    }
    out
}

/// A state for Korf's goal turned half a turn and renamed for the goal with the blank last (tile
/// t on cell t - 1): the same puzzle, every distance kept.
fn half_turn(tiles: &[u8]) -> Vec<u8> {
    let mut out = vec![0; 16];
    for (c, &t) in tiles.iter().enumerate() {
        out[15 - c] = if t == 0 { 0 } else { 16 - t };
    }
    out
}

/// On Korf's 100 and 200 random states: every database heuristic is at least Manhattan (each
/// pattern counts at least its tiles' distances), reflection is exactly the larger of the direct
/// and the mirrored look-up, the goal with the blank last reads its databases exactly as the
/// goal with the blank first (the half turn maps one onto the other), and on Korf's 100 no
/// estimate exceeds the optimal length. The sums over Korf's 100 are pinned: a change of
/// partition or database shows there first.
#[test]
fn fifteen_puzzle_estimates_lie_between_manhattan_and_the_optimum() {
    let first = Tiles::new(4, 4, &korf_goal()).unwrap();
    let last = Tiles::new(4, 4, &tiles::default_goal(16)).unwrap();
    let manhattan = Manhattan::new(&first);
    let plain = [
        partition_dbs(&first, PDB_555, false),
        partition_dbs(&first, PDB_663, false),
    ];
    let reflected = [
        partition_dbs(&first, PDB_555, true),
        partition_dbs(&first, PDB_663, true),
    ];
    let turned = [
        partition_dbs(&last, PDB_555, false),
        partition_dbs(&last, PDB_555, true),
    ];
    let mut rng = Rng::new(15);
    let random: Vec<Vec<u8>> = (0..200)
        .map(|_| first.tiles(&random_state(&first, &mut rng)).to_vec())
        .collect();
    let korf = korf100();
    let mut sums = [0u32; 5];
    for (k, tiles) in korf
        .iter()
        .map(|k| &k.start)
        .chain(random.iter())
        .enumerate()
    {
        let s = first.state(tiles).unwrap();
        let md = estimate(&first, &manhattan, &s);
        let direct = plain.each_ref().map(|h| estimate(&first, h, &s));
        let both = reflected.each_ref().map(|h| estimate(&first, h, &s));
        let m = first.state(&mirror(tiles)).unwrap();
        let seen = plain.each_ref().map(|h| estimate(&first, h, &m));
        for i in 0..2 {
            assert!(direct[i] >= md, "{tiles:?}: {} < Manhattan {md}", direct[i]);
            assert_eq!(both[i], direct[i].max(seen[i]), "{tiles:?}: reflection");
        }
        let t = last.state(&half_turn(tiles)).unwrap();
        assert!(last.is_solvable(&t));
        assert_eq!(estimate(&last, &turned[0], &t), direct[0], "{tiles:?}");
        assert_eq!(estimate(&last, &turned[1], &t), both[0], "{tiles:?}");
        if let Some(Korf { id, optimal, .. }) = korf.get(k) {
            for h in direct.iter().chain(&both) {
                assert!(h <= optimal, "#{id}: h {h} > optimal {optimal}");
            }
            for (sum, h) in sums
                .iter_mut()
                .zip([md, direct[0], both[0], direct[1], both[1]])
            {
                *sum += h;
            }
        }
    }
    // Manhattan, pdb-555, pdb-555+reflect, pdb-663, pdb-663+reflect: means 37.05 to 42.79.
    assert_eq!(sums, [3705, 4173, 4225, 4213, 4279]);
}

// ---------------------------------------------------------------------------------------------
// Searches

fn puzzle(start: &[u8], goal: &[u8]) -> Puzzle {
    let words = |t: &[u8]| t.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    Puzzle::fixed(DomainKind::Tiles, "4x4", &words(start), Some(&words(goal))).unwrap()
}

fn spec(heuristic: &str) -> Spec {
    Spec {
        heuristic: HeuristicKind::parse(heuristic).unwrap(),
        step: Step::Next,
        pruning: Pruning::Reverse,
        cost: crate::domains::cost::CostModel::Unit,
    }
}

/// Every one of Korf's 100, solved with pdb-663 the way `run` does it (the fixed 4x4 board and
/// its kernel), has Korf's optimal length. The total of nodes generated is pinned: the search
/// and the databases are deterministic.
#[test]
fn korf_100_with_pdb_663_have_their_optimal_lengths() {
    assert_eq!(korf_100_nodes("pdb-663"), 181_599_870);
}

/// The same with the zero-aware databases, reflected: fewer nodes than `pdb-663+reflect`'s
/// 56,436,754 (counted by `run` on the same day).
#[test]
fn korf_100_with_pdb_663z_reflected_have_their_optimal_lengths() {
    assert_eq!(korf_100_nodes("pdb-663z+reflect"), 40_574_196);
}

/// Korf's 100 solved with `heuristic` as `run` solves them, each at Korf's optimal length: the
/// nodes generated in all.
fn korf_100_nodes(heuristic: &str) -> u64 {
    use rayon::prelude::*;
    let goal = korf_goal();
    korf100()
        .par_iter()
        .map(
            |Korf {
                 id, start, optimal, ..
             }| {
                let a = solve(&puzzle(start, &goal), &spec(heuristic), Limits::default()).unwrap();
                assert_eq!(a.status, Status::Solved, "#{id}");
                assert_eq!(a.length, Some(*optimal), "#{id}");
                assert!(a.optimal_guaranteed, "#{id}");
                assert!(a.stats.initial_h <= *optimal, "#{id}");
                a.stats.generated
            },
        )
        .sum()
}

/// A goal that only renames the tiles of Korf's reads the same databases: renaming start and goal
/// alike searches the same tree, node for node. The goal with the blank last (Korf's instances
/// turned half a turn) is solved at the same optimal lengths.
#[test]
fn renamed_and_turned_goals_find_the_optimal_lengths() {
    let mut rng = Rng::new(100);
    let mut name: Vec<u8> = (1..16).collect();
    rng.shuffle(&mut name);
    // name[t - 1] is tile t's new number; the blank stays 0.
    let rename = |tiles: &[u8]| -> Vec<u8> {
        tiles
            .iter()
            .map(|&t| if t == 0 { 0 } else { name[t as usize - 1] })
            .collect()
    };
    let korf = korf100();
    let last = tiles::default_goal(16);
    for id in [97, 42, 47, 93, 79, 9, 12, 55] {
        let k = korf.iter().find(|k| k.id == id).unwrap();
        let (tiles, optimal) = (&k.start, &k.optimal);
        for h in ["pdb-555", "pdb-555+reflect", "pdb-663"] {
            let plain = solve(&puzzle(tiles, &korf_goal()), &spec(h), Limits::default()).unwrap();
            let renamed = solve(
                &puzzle(&rename(tiles), &rename(&korf_goal())),
                &spec(h),
                Limits::default(),
            )
            .unwrap();
            assert_eq!(plain.length, Some(*optimal), "#{id} {h}");
            assert_eq!(renamed.stats, plain.stats, "#{id} {h}");
            assert_eq!(renamed.path, plain.path, "#{id} {h}");
            if h.starts_with("pdb-555") {
                let turned = half_turn(tiles);
                for (start, goal) in [
                    (turned.clone(), last.clone()),
                    (rename(&turned), rename(&last)),
                ] {
                    let a = solve(&puzzle(&start, &goal), &spec(h), Limits::default()).unwrap();
                    assert_eq!(a.length, Some(*optimal), "#{id} {h}, the blank last");
                    assert_eq!(a.stats.initial_h, plain.stats.initial_h, "#{id} {h}");
                }
            }
        }
    }
}

/// The same search on the general board (generic kernel), on the fixed 4x4 board (unrolled
/// kernel) and through `solve`: the same path, node counts and iterations, with and without
/// reflection. Korf's easiest instances, to stay cheap on the general board.
#[test]
fn both_kernels_and_both_boards_search_the_same_tree() {
    let d = Tiles::new(4, 4, &korf_goal()).unwrap();
    let fixed = FixedTiles::<4, 4, 16>::new(&d);
    let korf = korf100();
    for reflect in [false, true] {
        let h = partition_dbs(&d, PDB_663, reflect);
        let name = if reflect {
            "pdb-663+reflect"
        } else {
            "pdb-663"
        };
        for id in [97, 42, 47, 93, 79, 9] {
            let k = korf.iter().find(|k| k.id == id).unwrap();
            let (tiles, optimal) = (&k.start, &k.optimal);
            let s = d.state(tiles).unwrap();
            let fs = fixed.state(&s);
            let general = ida_star(&d, &h, &s, KORF, Limits::default());
            assert_eq!(length(&general), *optimal, "#{id}");
            let want = summary(&d, &s, &general);
            let unrolled = ida_star_fixed(&fixed, &h, &fs, KORF, Limits::default());
            assert_eq!(summary(&fixed, &fs, &unrolled), want, "#{id} {name}");
            let a = solve(&puzzle(tiles, &korf_goal()), &spec(name), Limits::default()).unwrap();
            assert_eq!(a.stats, general.stats, "#{id} {name}");
            let path = a.path.map(|p| format!("solved {p}"));
            assert_eq!(path.as_deref(), want.split(';').next(), "#{id} {name}");
        }
    }
}

/// `H`, its partial lookups on (`SKIP`) or off (every value computed whole: the search the
/// partial lookups must reproduce), counting the children whose value it stopped short of.
struct Lookups<'a, H, const SKIP: bool>(&'a H, std::sync::atomic::AtomicU64);

/// `H` with every value computed whole.
fn computed_whole<H>(h: &H) -> Lookups<'_, H, false> {
    Lookups(h, Default::default())
}

impl<D: Domain, H: Heuristic<D>, const SKIP: bool> Heuristic<D> for Lookups<'_, H, SKIP> {
    type Value = H::Value;
    const GOAL_AWARE: bool = H::GOAL_AWARE;
    const PARTIAL: bool = SKIP && H::PARTIAL;

    fn init(&self, d: &D, s: &D::State) -> H::Value {
        self.0.init(d, s)
    }

    fn update(&self, d: &D, s: &D::State, m: D::Move, parent: H::Value) -> H::Value {
        self.0.update(d, s, m, parent)
    }

    fn estimate(&self, v: H::Value) -> u32 {
        self.0.estimate(v)
    }

    fn update_below(
        &self,
        d: &D,
        s: &D::State,
        m: D::Move,
        parent: H::Value,
        ceiling: u32,
    ) -> Option<H::Value> {
        if !SKIP {
            return Some(self.0.update(d, s, m, parent));
        }
        let value = self.0.update_below(d, s, m, parent, ceiling);
        if value.is_none() {
            self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        value
    }
}

/// The partial lookups do stop short: many children the direct view cuts off are not looked up
/// in the reflected one (else the test below compares two equal searches), and the search is
/// still the whole one's.
#[test]
fn partial_lookups_skip_the_reflected_view_of_children_the_direct_one_cuts_off() {
    let d = Tiles::new(4, 4, &korf_goal()).unwrap();
    let h = partition_dbs(&d, PDB_663, true);
    let k = korf100().into_iter().find(|k| k.id == 97).unwrap();
    let s = d.state(&k.start).unwrap();
    let counted = Lookups::<_, true>(&h, Default::default());
    let partial = ida_star(&d, &counted, &s, KORF, Limits::default());
    let whole = ida_star(&d, &computed_whole(&h), &s, KORF, Limits::default());
    assert_eq!(summary(&d, &s, &partial), summary(&d, &s, &whole));
    let skipped = counted.1.into_inner();
    let generated = partial.stats.generated;
    // 491 of 1,047 when written.
    assert!(
        skipped > generated / 4 && skipped < generated,
        "{skipped} of {generated} children skipped the reflected view"
    );
}

/// Reading the reflected view only when the direct one leaves a child within reach changes
/// nothing a search reports: the same path, counts and bounds as reading both every time, under
/// every threshold policy and pruning (an automaton's too), on both kernels, under a node limit,
/// and split between threads.
#[test]
fn partial_lookups_search_the_same_tree_as_whole_ones() {
    let d = Tiles::new(4, 4, &korf_goal()).unwrap();
    let fixed = FixedTiles::<4, 4, 16>::new(&d);
    let h = partition_dbs(&d, PDB_663, true);
    let automaton =
        automata::shared(&d.fsm_moves(), d.fsm_window(), Pruning::DEFAULT_FSM_DEPTH).unwrap();
    let korf = korf100();
    let steps = [
        Step::Next,
        Step::One,
        Step::Two,
        Step::Cr(Factor::TWO),
        Step::Eda(Factor::TWO),
        Step::Bts,
    ];
    for id in [97, 42, 47, 93] {
        let k = korf.iter().find(|k| k.id == id).unwrap();
        let s = d.state(&k.start).unwrap();
        let fs = fixed.state(&s);
        for step in steps {
            for prune in [Prune::None, Prune::Reverse, Prune::Fsm(automaton)] {
                let v = Variant { step, prune };
                let what = format!("#{id} {step:?} {prune:?}");
                let whole = ida_star(&d, &computed_whole(&h), &s, v, Limits::default());
                let want = summary(&d, &s, &whole);
                let partial = ida_star(&d, &h, &s, v, Limits::default());
                assert_eq!(summary(&d, &s, &partial), want, "{what}");
                let unrolled = ida_star_fixed(&fixed, &h, &fs, v, Limits::default());
                assert_eq!(summary(&fixed, &fs, &unrolled), want, "{what}, unrolled");
                let limits = Limits {
                    max_nodes: Some(whole.stats.generated / 2),
                    ..Limits::default()
                };
                let whole = ida_star_fixed(&fixed, &computed_whole(&h), &fs, v, limits);
                let partial = ida_star_fixed(&fixed, &h, &fs, v, limits);
                assert_eq!(
                    summary(&fixed, &fs, &partial),
                    summary(&fixed, &fs, &whole),
                    "{what}, node limit"
                );
            }
        }
        let alone = solve(
            &puzzle(&k.start, &korf_goal()),
            &spec("pdb-663+reflect"),
            Limits::default(),
        )
        .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for split in [SplitDepth::Depth(1), SplitDepth::Depth(6)] {
            let got = pool
                .install(|| {
                    solve_shared(
                        &puzzle(&k.start, &korf_goal()),
                        &spec("pdb-663+reflect"),
                        Limits::default(),
                        Some(split),
                    )
                })
                .unwrap();
            assert_eq!(
                (&got.path, &got.stats),
                (&alone.path, &alone.stats),
                "#{id} {split:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The store

/// A table written by `store::prepare` reads back byte for byte as `pattern::build` made it, under
/// a header that names its pattern, size and checksum; `table` then hands out those bytes. Every
/// kind of damage to a copy is told apart by `store::verify`.
#[test]
fn a_stored_table_reads_back_as_built_and_damage_is_named() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    // Patterns no other test asks for: the store keeps a table by name for the whole process, so
    // `prepare` would not touch the disk for one already held.
    let p = Pattern::new(3, 4, 0, &[1, 2, 4, 5]).unwrap();
    let other = Pattern::new(3, 4, 0, &[3, 6, 7, 10]).unwrap();
    let options = store::Options {
        dir: dir.path().to_path_buf(),
        build: true,
        rebuild: false,
        quiet: true,
        stop: None,
    };
    let info = store::prepare(&p, &options).unwrap();
    let path = dir.path().join(format!("{}.{}", p.key(), store::EXTENSION));
    assert_eq!(info.file.as_deref(), Some(path.as_path()));
    let built = pattern::build(&p, &|_| {});
    let crc = format!("{:08x}", crc32fast::hash(&built));
    assert_eq!(
        (info.name.as_str(), info.entries),
        (p.key().as_str(), 11_880)
    );
    assert_eq!(info.crc32, crc);

    let (fields, mut reader) = store::read_header(&path).unwrap();
    let mut entries = Vec::new();
    reader.read_to_end(&mut entries).unwrap();
    assert!(entries == built, "the file's entries differ from the build");
    assert_eq!(Pattern::from_header(&fields), Some(p.clone()));
    let field = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
    assert_eq!(field("crc32"), Some(crc.as_str()));
    assert_eq!(field("entries"), Some("11880"));
    assert_eq!(
        field("format"),
        Some(store::FORMAT_VERSION.to_string().as_str())
    );
    assert_eq!(store::verify(&p, &path).unwrap(), crc32fast::hash(&built));
    assert!(store::table(&p) == &built[..]);

    // Damaged copies, each checked against `p`.
    store::prepare(&other, &options).unwrap();
    let other_path = dir
        .path()
        .join(format!("{}.{}", other.key(), store::EXTENSION));
    let good = std::fs::read(&path).unwrap();
    let header_len = good.len() - built.len();
    let mut flipped = good.clone();
    flipped[header_len + 5000] ^= 0x10;
    let version = format!("format: {}\n", store::FORMAT_VERSION);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("flipped", flipped),
        ("truncated", good[..good.len() - 10].to_vec()),
        ("padded", [&good[..], b"\0"].concat()),
        ("header cut", good[..header_len / 2].to_vec()),
        ("other pattern", std::fs::read(&other_path).unwrap()),
        (
            "other version",
            String::from_utf8_lossy(&good[..header_len])
                .replace(
                    &version,
                    &format!("format: {}\n", store::FORMAT_VERSION + 1),
                )
                .into_bytes()
                .into_iter()
                .chain(built.iter().copied())
                .collect(),
        ),
    ];
    let copy = dir.path().join("copy.pdb");
    for (what, bytes) in cases {
        assert!(bytes != good, "{what}: no damage done");
        std::fs::write(&copy, &bytes).unwrap();
        let why = store::verify(&p, &copy).expect_err(what);
        let text = why.to_string();
        match (what, why) {
            ("flipped", Unusable::Checksum { expected, found }) => {
                assert_eq!(expected, crc);
                assert_ne!(found, crc);
            }
            ("truncated", Unusable::Truncated { expected, found }) => {
                assert_eq!((expected, found), (11_880, 11_870))
            }
            ("padded", Unusable::Truncated { expected, found }) => {
                assert_eq!((expected, found), (11_880, 11_881))
            }
            ("header cut", Unusable::Header(_)) => {}
            ("other pattern", Unusable::Header(m)) => assert!(m.contains("pattern"), "{m}"),
            ("other version", Unusable::Header(m)) => assert!(m.contains("format"), "{m}"),
            (what, _) => panic!("{what}: {text}"),
        }
    }
    assert!(matches!(
        store::verify(&p, &dir.path().join("absent.pdb")),
        Err(Unusable::Missing)
    ));
}
