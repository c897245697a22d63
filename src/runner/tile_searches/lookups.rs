//! The dual, dual reflected and random lookups of pattern databases, and bidirectional pathmax:
//! every 3x3 and 2x4 state with small databases against its breadth-first distance (admissible,
//! each lookup what the papers define at the blank's goal cell, the dual state at the same
//! distance), the incremental update against a fresh look-up, searches that find the distance
//! with and without pathmax. Nothing here asserts on a time.

use super::{length, neighbours, KORF};
use crate::domains::tiles::lookups::{PatternLookups, Policy};
use crate::domains::tiles::pattern::Pattern;
use crate::domains::tiles::pdb::{PatternDbs, PDB_555};
use crate::domains::tiles::{FixedTiles, Grid, Tiles};
use crate::search::{ida_star, Bpmx, Domain, Heuristic, Limits};
use crate::tables::store;
use crate::util::rng::Rng;
use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;

/// A small board, its goal and a partition of its tiles (as goal cells).
struct Small {
    name: &'static str,
    w: usize,
    h: usize,
    goal: &'static [u8],
    groups: &'static [&'static [u8]],
}

const SMALL: &[Small] = &[
    Small {
        name: "3x3, blank first, 4+4",
        w: 3,
        h: 3,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        groups: &[&[1, 2, 3, 4], &[5, 6, 7, 8]],
    },
    Small {
        name: "3x3, blank first, 3+3+2",
        w: 3,
        h: 3,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        groups: &[&[1, 2, 3], &[4, 5, 6], &[7, 8]],
    },
    Small {
        name: "3x3, blank last, 4+4",
        w: 3,
        h: 3,
        goal: &[1, 2, 3, 4, 5, 6, 7, 8, 0],
        groups: &[&[0, 1, 2, 3], &[4, 5, 6, 7]],
    },
    Small {
        name: "3x3, blank in the middle, 4+4",
        w: 3,
        h: 3,
        goal: &[1, 2, 3, 8, 0, 4, 7, 6, 5],
        groups: &[&[0, 1, 2, 3], &[5, 6, 7, 8]],
    },
    Small {
        name: "2x4, blank first, 4+3",
        w: 2,
        h: 4,
        goal: &[0, 1, 2, 3, 4, 5, 6, 7],
        groups: &[&[1, 2, 3, 4], &[5, 6, 7]],
    },
    Small {
        name: "2x4, blank last, 4+3",
        w: 2,
        h: 4,
        goal: &[1, 2, 3, 4, 5, 6, 7, 0],
        groups: &[&[0, 1, 2, 3], &[4, 5, 6]],
    },
];

impl Small {
    fn square(&self) -> bool {
        self.w == self.h
    }

    fn blank(&self) -> usize {
        self.goal.iter().position(|&t| t == 0).unwrap()
    }

    fn patterns(&self) -> Vec<Pattern> {
        self.groups
            .iter()
            .map(|g| Pattern::new(self.w, self.h, self.blank(), g).unwrap())
            .collect()
    }

    fn policies(&self) -> Vec<Policy> {
        let mut p = vec![Policy::Dual, Policy::Random];
        if self.square() {
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
    fn reflect(&self, s: &[u8]) -> Vec<u8> {
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

fn estimate<G: Grid, H: Heuristic<G>>(d: &G, h: &H, s: &G::State) -> u32 {
    h.estimate(h.init(d, s))
}

/// Every state that reaches `goal` on a `w` x `h` board and its distance.
fn every_state(w: usize, h: usize, goal: &[u8]) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::from([(goal.to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(s) = queue.pop_front() {
        let b = s.iter().position(|&t| t == 0).unwrap();
        for next in neighbours(w, h, b) {
            let mut child = s.clone();
            child.swap(b, next);
            if !dist.contains_key(&child) {
                dist.insert(child.clone(), dist[&s] + 1);
                queue.push_back(child);
            }
        }
    }
    dist
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
        let dist = every_state(case.w, case.h, case.goal);
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
                if case.square() {
                    views.push(reg(&case.reflect(s)));
                }
                let home = s[g0] == 0;
                if home {
                    home_states += 1;
                    let dual = case.dual(s);
                    assert_eq!(dist[&dual], distance, "{what}: the dual of {s:?}");
                    views.push(reg(&dual));
                    if case.square() {
                        views.push(reg(&case.reflect(&dual)));
                    }
                }
                match policy {
                    Policy::Dual if home => {
                        assert_eq!(e, r.max(views[views.len() - 1 - case.square() as usize]))
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

/// Walks `moves` random moves from `start`, checking after each that the value `update` carried
/// from the parent is the one `init` computes afresh.
fn walk_agrees<D: Domain, H: Heuristic<D>>(d: &D, h: &H, start: &D::State, seed: u64, what: &str)
where
    H::Value: PartialEq + Debug,
{
    let mut rng = Rng::new(seed);
    let mut s = start.clone();
    let mut v = h.init(d, &s);
    for step in 0..2000 {
        let options = d.moves(&s);
        let m = options[rng.below(options.len() as u64) as usize];
        v = h.update(d, &s, m, v);
        d.apply(&mut s, m);
        assert_eq!(v, h.init(d, &s), "{what}: move {step}");
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
            walk_agrees(&d, &h, d.goal(), k as u64, &what);
            if case.square() {
                let fixed = FixedTiles::<3, 3, 9>::new(&d);
                walk_agrees(&fixed, &h, &fixed.state(d.goal()), k as u64, &what);
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
            walk_agrees(&d, &h, d.goal(), 7, &what);
            walk_agrees(&fixed, &h, &fixed.state(d.goal()), 8, &what);
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
        let dist = every_state(case.w, case.h, case.goal);
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
