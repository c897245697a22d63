//! The dual, dual reflected and random lookups of pattern databases, and bidirectional pathmax:
//! every 3x3, 2x4 and 4x2 state with small databases against its breadth-first distance
//! (admissible, each lookup what the papers define at the blank's goal cell, the dual state at
//! the same distance), the incremental update against a fresh look-up, searches that find the distance
//! with and without pathmax. Nothing here asserts on a time.

use super::{bfs, estimate, length, walk_agrees, Small, KORF, SMALL};
use crate::domains::tiles::lookups::{PatternLookups, Policy};
use crate::domains::tiles::pattern::Pattern;
use crate::domains::tiles::pdb::{PatternDbs, PDB_555};
use crate::domains::tiles::{FixedTiles, Grid, Tiles};
use crate::search::{ida_star, Bpmx, Limits};
use crate::tables::store;
use crate::util::rng::Rng;

impl Small {
    fn policies(&self) -> Vec<Policy> {
        let mut p = vec![Policy::Dual, Policy::Random];
        if self.reflect {
            p.push(Policy::DualReflect);
        }
        p
    }

    /// The goal's home cell of each tile.
    fn home(&self) -> Vec<u8> {
        let mut home = vec![0u8; self.goal.len()];
        for (c, &t) in self.goal.iter().enumerate() {
            home[t as usize] = c as u8;
        }
        home
    }

    /// The state whose permutation, relative to the goal, is the inverse of `s`'s: the tile on
    /// cell `c` is the goal's tile of the cell where `s` has the goal's tile of `c`.
    fn dual(&self, s: &[u8]) -> Vec<u8> {
        let at = cells_of(s);
        (0..s.len())
            .map(|c| self.goal[at[self.goal[c] as usize]])
            .collect()
    }

    /// `s` reflected about the main diagonal, relative to the goal: the tile on cell `c` is the
    /// goal's tile of the reflection of the home of the tile on the reflection of `c`.
    fn reflected(&self, s: &[u8]) -> Vec<u8> {
        let home = self.home();
        let m = |c: usize| (c % self.w) * self.w + c / self.w;
        (0..s.len())
            .map(|c| self.goal[m(home[s[m(c)] as usize] as usize)])
            .collect()
    }
}

/// Each tile's cell in `s`.
fn cells_of(s: &[u8]) -> Vec<usize> {
    let mut at = vec![0; s.len()];
    for (c, &t) in s.iter().enumerate() {
        at[t as usize] = c;
    }
    at
}

fn tables(patterns: &[Pattern]) -> Vec<&'static [u8]> {
    patterns.iter().map(|p| store::table(p)).collect()
}

fn lookups(d: &Tiles, patterns: &[Pattern], policy: Policy) -> PatternLookups {
    PatternLookups::new(patterns, tables(patterns), &d.places().cell, policy)
}

/// Every state of each small board, with every blank cell: each policy is at most the distance
/// and 0 exactly at the goal. Where the blank is on its goal cell the dual state is at the same
/// distance, and the lookups are exactly the papers': `+dual` the larger of the regular lookup
/// of the state and of its dual, `+dual+reflect` the largest of those and their reflections,
/// `+random` one of them. Elsewhere `+random` is the regular or the reflected lookup, and the
/// policy gives more than the regular lookup somewhere.
#[test]
fn every_lookup_is_admissible_and_the_papers_at_the_blanks_goal_cell() {
    for case in SMALL {
        let d = Tiles::new(case.w, case.h, case.goal).unwrap();
        let patterns = case.patterns();
        let regular = PatternDbs::new(&patterns, tables(&patterns), &d.places().cell, false);
        let dist = bfs(case.w, case.h, case.goal);
        assert_eq!(dist.len() * 2, (1..=case.w * case.h).product::<usize>());
        let g0 = case.blank();
        let reg = |s: &[u8]| estimate(&d, &regular, &d.state(s).unwrap());
        for policy in case.policies() {
            let what = format!("{}, {policy:?}", case.name);
            let h = lookups(&d, &patterns, policy);
            let (mut above_regular, mut home_states) = (0, 0);
            for (s, &distance) in &dist {
                let e = estimate(&d, &h, &d.state(s).unwrap());
                assert!(
                    e <= distance,
                    "{what}: h {e} > distance {distance} at {s:?}"
                );
                assert_eq!(e == 0, distance == 0, "{what}: h {e} at {s:?}");
                let r = reg(s);
                let mut views = vec![r];
                if case.reflect {
                    views.push(reg(&case.reflected(s)));
                }
                let home = s[g0] == 0;
                if home {
                    home_states += 1;
                    let dual = case.dual(s);
                    assert_eq!(dist[&dual], distance, "{what}: the dual of {s:?}");
                    views.push(reg(&dual));
                    if case.reflect {
                        views.push(reg(&case.reflected(&dual)));
                    }
                }
                match policy {
                    Policy::Dual if home => {
                        assert_eq!(e, r.max(views[views.len() - 1 - case.reflect as usize]))
                    }
                    Policy::DualReflect if home => assert_eq!(e, *views.iter().max().unwrap()),
                    Policy::Dual | Policy::DualReflect => assert!(e >= r, "{what} at {s:?}"),
                    _ => assert!(views.contains(&e), "{what}: {e} not one of {views:?}"),
                }
                above_regular += usize::from(e != r);
            }
            assert_eq!(home_states * (case.w * case.h), dist.len(), "{what}");
            assert!(
                above_regular > 0,
                "{what}: never more than the regular lookup"
            );
        }
    }
}

/// Along random walks, `update` (which reads again only the patterns a move changes, or the one
/// chosen lookup) equals `init`, on the general and the fixed boards, small and 4x4.
#[test]
fn update_equals_init_along_random_walks() {
    for (k, case) in SMALL.iter().enumerate() {
        let d = Tiles::new(case.w, case.h, case.goal).unwrap();
        for policy in case.policies() {
            let what = format!("{}, {policy:?}", case.name);
            let h = lookups(&d, &case.patterns(), policy);
            walk_agrees(&d, &h, d.goal(), 2000, k as u64, &what);
            if case.reflect {
                let fixed = FixedTiles::<3, 3, 9>::new(&d);
                walk_agrees(&fixed, &h, &fixed.state(d.goal()), 2000, k as u64, &what);
            }
        }
    }
    for blank_first in [true, false] {
        let goal: Vec<u8> = if blank_first {
            (0..16).collect()
        } else {
            (1..16).chain([0]).collect()
        };
        let d = Tiles::new(4, 4, &goal).unwrap();
        let fixed = FixedTiles::<4, 4, 16>::new(&d);
        let patterns = d.patterns(PDB_555).unwrap();
        for policy in [Policy::Dual, Policy::DualReflect, Policy::Random] {
            let what = format!("pdb-555 {goal:?}, {policy:?}");
            let h = lookups(&d, &patterns, policy);
            walk_agrees(&d, &h, d.goal(), 2000, 7, &what);
            walk_agrees(&fixed, &h, &fixed.state(d.goal()), 2000, 8, &what);
        }
    }
}

/// On a seeded sample of every small board's states, IDA* with each policy, with and without
/// pathmax, finds the breadth-first distance, and pathmax raised values on some of the searches.
/// (`run` and `solve` search the lookups on the general board's kernel only.)
#[test]
fn searches_with_every_lookup_find_the_distance() {
    let mut rng = Rng::new(26);
    for case in SMALL {
        let d = Tiles::new(case.w, case.h, case.goal).unwrap();
        let dist = bfs(case.w, case.h, case.goal);
        let mut states: Vec<(&Vec<u8>, &u32)> = dist.iter().collect();
        states.sort();
        for policy in case.policies() {
            let h = lookups(&d, &case.patterns(), policy);
            let with = Bpmx(lookups(&d, &case.patterns(), policy));
            let mut raised = 0;
            for _ in 0..150 {
                let (s, &distance) = states[rng.below(states.len() as u64) as usize];
                let what = format!("{}, {policy:?} from {s:?}", case.name);
                let start = d.state(s).unwrap();
                let plain = ida_star(&d, &h, &start, KORF, Limits::default());
                assert_eq!(length(&plain), distance, "{what}");
                let r = ida_star(&d, &with, &start, KORF, Limits::default());
                assert_eq!(length(&r), distance, "{what}, pathmax");
                raised += r.stats.bpmx_raises;
            }
            assert!(
                raised > 0,
                "{}, {policy:?}: pathmax never raised",
                case.name
            );
        }
    }
}
