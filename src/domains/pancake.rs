//! Pancake sorting, plain and burnt: a stack of pancakes 1..n, listed from the top, sorted by
//! flips, each turning over the top k pancakes (reversing their order); the goal is 1..n from the
//! top. A burnt pancake has a burnt side, which must end down: a flip turns each pancake it lifts
//! upside down too, so flipping the top one alone is a move.
//!
//! A move is written as the number of pancakes it flips (`3 7 2`). Every flip undoes itself. The
//! heuristic is Helmert's gap count (SoCS 2010) with the plate below the stack as pancake n + 1,
//! and the weaker GAP-x of the literature (as HOG2 defines it), which leaves out the gaps touching
//! the x smallest pancakes but not the plate's: harder problems of the same stacks, and a second,
//! independent bound to check optimal lengths with.

use super::{Family, FieldError, UseSearch};
use crate::search::fsm::Moves;
use crate::search::{Domain, Heuristic, Zero};
use crate::util::rng::Rng;
use crate::util::text::shorten;
use std::any::Any;
use std::sync::{Arc, OnceLock};

/// The most pancakes: the plate, n + 1, is a byte too.
pub const MAX_PANCAKES: usize = 254;

/// The most burnt pancakes: each is a signed byte, the plate too.
pub const MAX_BURNT: usize = 126;

/// The stack from the top. Slot n holds the plate, n + 1, and the slots after it 0: the gap
/// between the bottom pancake and the plate is read like any other. A burnt pancake is held as a
/// signed byte, negative when its burnt side is up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    p: [u8; MAX_PANCAKES + 2],
}

/// A stack's size, with the move tables the search reads; `BURNT` when each pancake has a side
/// that must end down.
pub struct Pancakes<const BURNT: bool> {
    n: usize,
    /// The flips, in move order: 2..=n, burnt 1..=n.
    flips: Vec<u8>,
    /// The label of each flip: its index.
    labels: Vec<u16>,
    goal: Stack,
}

/// Plain pancakes, domain `pancake`.
pub type Pancake = Pancakes<false>;

/// Burnt pancakes, domain `burnt-pancake`.
pub type BurntPancake = Pancakes<true>;

impl<const BURNT: bool> Pancakes<BURNT> {
    /// The most pancakes of this kind.
    pub const MOST: usize = if BURNT { MAX_BURNT } else { MAX_PANCAKES };

    /// A stack of `n` pancakes, 1 to `MOST`.
    pub fn new(n: usize) -> Result<Pancakes<BURNT>, String> {
        if !(1..=Self::MOST).contains(&n) {
            return Err(format!(
                "invalid number of pancakes {n}: expected 1 to {}",
                Self::MOST
            ));
        }
        // Flipping one plain pancake changes nothing.
        let smallest = if BURNT { 1 } else { 2 };
        let flips: Vec<u8> = (smallest..=n as u8).collect();
        let labels = (0..flips.len() as u16).collect();
        let mut goal = [0u8; MAX_PANCAKES + 2];
        for (i, p) in goal[..=n].iter_mut().enumerate() {
            *p = i as u8 + 1;
        }
        Ok(Pancakes {
            n,
            flips,
            labels,
            goal: Stack { p: goal },
        })
    }

    /// Reads whitespace-separated pancakes from the top (burnt: `-3` with its burnt side up); n
    /// is their count.
    pub fn parse(text: &str) -> Result<(Pancakes<BURNT>, Stack), String> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let d = Self::new(tokens.len())?;
        let n = d.n;
        let expected = if BURNT {
            format!("1 to {n}, negative with the burnt side up")
        } else {
            format!("1 to {n}")
        };
        let mut seen = vec![0usize; n + 1];
        let mut stack = Vec::with_capacity(n);
        for (i, tok) in tokens.iter().enumerate() {
            let at = i + 1;
            // A plain pancake is read unsigned, so that `-4` is no number there.
            let signed = if BURNT {
                tok.parse::<i64>().ok()
            } else {
                tok.parse::<usize>()
                    .ok()
                    .map(|p| i64::try_from(p).unwrap_or(i64::MAX))
            };
            let p = match signed {
                Some(p) if (1..=n as u64).contains(&p.unsigned_abs()) => p,
                Some(_) => {
                    return Err(format!(
                        "pancake {} at position {at} is out of range: the pancakes are numbered {expected}",
                        shorten(tok)
                    ))
                }
                None => {
                    let burnt = !BURNT && tok.starts_with('-') && tok[1..].parse::<u64>().is_ok();
                    return Err(format!(
                        "token {at} '{}' is not a pancake number (expected {expected}){}",
                        shorten(tok),
                        if burnt {
                            "; pancakes with a burnt side are domain burnt-pancake"
                        } else {
                            ""
                        }
                    ));
                }
            };
            let size = p.unsigned_abs() as usize;
            if seen[size] != 0 {
                return Err(format!(
                    "pancake {size} appears twice (positions {} and {at})",
                    seen[size]
                ));
            }
            seen[size] = at;
            stack.push(p as i8 as u8);
        }
        let mut s = d.goal.clone();
        s.p[..n].copy_from_slice(&stack);
        Ok((d, s))
    }

    pub fn n(&self) -> usize {
        self.n
    }

    /// The pancakes of `s` from the top (burnt: signed bytes).
    pub fn pancakes<'s>(&self, s: &'s Stack) -> &'s [u8] {
        &s.p[..self.n]
    }
}

impl<const BURNT: bool> Domain for Pancakes<BURNT> {
    type State = Stack;
    /// The number of pancakes flipped.
    type Move = u8;
    const NO_MOVE: u8 = 0;

    #[inline(always)]
    fn moves<'a>(&'a self, _: &Stack) -> &'a [u8] {
        &self.flips
    }

    #[inline(always)]
    fn labels<'a>(&'a self, _: &Stack) -> &'a [u16] {
        &self.labels
    }

    #[inline(always)]
    fn inverse(&self, _: &Stack, m: u8) -> u8 {
        m
    }

    #[inline(always)]
    fn apply(&self, s: &mut Stack, m: u8) {
        let top = &mut s.p[..m as usize];
        top.reverse();
        if BURNT {
            for p in top {
                *p = p.wrapping_neg();
            }
        }
    }

    #[inline(always)]
    fn is_goal(&self, s: &Stack) -> bool {
        s.p[..self.n] == self.goal.p[..self.n]
    }

    /// Flipping k pancakes is floor(k / 2) swaps: flips of both parities exist.
    fn solution_parity(&self, _: &Stack) -> Option<u32> {
        None
    }

    /// Plain: taking the largest pancake left to the top and then down to its place sorts any
    /// stack in 2n - 3 flips (n >= 2). Burnt: the burnt pancake numbers (OEIS A078941, the most
    /// flips a stack of n needs) are 1 and 4 for n = 1, 2 and grow by at most 2 per pancake: at
    /// most 2n (2n - 2 from n = 10 on, Cohen and Blum 1995).
    fn diameter(&self) -> Option<u32> {
        let n = self.n as u32;
        Some(if BURNT {
            2 * n
        } else {
            (2 * n).saturating_sub(3)
        })
    }

    fn path_string(&self, _: &Stack, path: &[u8]) -> String {
        let flips: Vec<String> = path.iter().map(u8::to_string).collect();
        flips.join(" ")
    }
}

/// 1 when `a`, right above `b`, could not lie so in the sorted stack, unless `a` or `b` is one of
/// the pancakes 1..=`IGNORE`; the plate (`b` > `n`) is never left out, as in HOG2's GAP-x.
/// Plain pancakes lie together when their sizes are consecutive, either way round (a flip of
/// both puts them right); burnt ones when `b` is `a` + 1 as signed sizes: x above x + 1 burnt
/// sides down, or -(x + 1) above -x, which one flip of both puts right.
#[inline(always)]
fn gap<const IGNORE: u8, const BURNT: bool>(n: usize, a: u8, b: u8) -> u32 {
    let (apart, small, plate) = if BURNT {
        let (a, b) = (a as i8, b as i8);
        (
            i16::from(b) - i16::from(a) != 1,
            a.unsigned_abs() <= IGNORE || b.unsigned_abs() <= IGNORE,
            i16::from(b) > n as i16,
        )
    } else {
        (
            a.abs_diff(b) != 1,
            a <= IGNORE || b <= IGNORE,
            b as usize > n,
        )
    };
    (apart && (!small || plate)) as u32
}

/// The number of gaps: neighbours (the bottom pancake and the plate too) that could not lie so in
/// the sorted stack. A flip of k turns its k pancakes over as one block, so only the pair at
/// positions k - 1 and k changes: it closes at most one gap; a stack without gaps is sorted.
/// `Gap<X>` leaves out the gaps touching pancakes 1..=X but not the plate's (GAP-X): still a
/// bound, but no longer 0 only at the goal.
pub struct Gap<const IGNORE: u8>;

impl<const IGNORE: u8, const BURNT: bool> Heuristic<Pancakes<BURNT>> for Gap<IGNORE> {
    type Value = u32;
    const GOAL_AWARE: bool = IGNORE == 0;

    fn init(&self, d: &Pancakes<BURNT>, s: &Stack) -> u32 {
        s.p[..=d.n]
            .windows(2)
            .map(|w| gap::<IGNORE, BURNT>(d.n, w[0], w[1]))
            .sum()
    }

    #[inline(always)]
    fn update(&self, d: &Pancakes<BURNT>, s: &Stack, m: u8, g: u32) -> u32 {
        let k = m as usize;
        let (top, last, below) = (s.p[0], s.p[k - 1], s.p[k]);
        // The top pancake lands on `below`, turned over when burnt.
        let landed = if BURNT { top.wrapping_neg() } else { top };
        g + gap::<IGNORE, BURNT>(d.n, landed, below) - gap::<IGNORE, BURNT>(d.n, last, below)
    }

    #[inline(always)]
    fn estimate(&self, g: u32) -> u32 {
        g
    }
}

heuristic_set! {
    /// The pancake heuristics, plain and burnt.
    PancakeHeuristic {
        Gap => "gap": "the gaps: neighbours (the bottom pancake and the plate too) that are not consecutive sizes (Helmert 2010); burnt: neither x over x + 1 nor -(x + 1) over -x",
        Gap1 => "gap-1": "the gaps not touching pancake 1, the plate's always (GAP-1)",
        Gap2 => "gap-2": "the gaps not touching pancakes 1 and 2 (GAP-2)",
        Gap3 => "gap-3": "the gaps not touching pancakes 1 to 3 (GAP-3)",
        Zero => "zero": "none: blind iterative deepening",
    }
}

impl PancakeHeuristic {
    /// The pancakes whose gaps are left out (`None`: `zero`).
    fn ignored(self) -> Option<u8> {
        match self {
            PancakeHeuristic::Gap => Some(0),
            PancakeHeuristic::Gap1 => Some(1),
            PancakeHeuristic::Gap2 => Some(2),
            PancakeHeuristic::Gap3 => Some(3),
            PancakeHeuristic::Zero => None,
        }
    }
}

impl<const BURNT: bool> Family for Pancakes<BURNT> {
    const NAME: &'static str = if BURNT { "burnt-pancake" } else { "pancake" };
    const SIZE_HELP: &'static str = if BURNT {
        "the number of pancakes, 1 to 126 (the start tells, when given)"
    } else {
        "the number of pancakes, 1 to 254 (the start tells, when given)"
    };
    const STATE_HELP: &'static str = if BURNT {
        "the stack from the top, 1..n in any order, a pancake negative when its burnt side is up"
    } else {
        "the stack from the top, a permutation of 1..n"
    };
    type Heuristics = PancakeHeuristic;
    /// The pancakes alone: a `Stack` is sized for the largest.
    type Start = Box<[u8]>;

    fn unpack(&self, p: &Box<[u8]>) -> Stack {
        let mut s = self.goal.clone();
        s.p[..self.n].copy_from_slice(p);
        s
    }

    fn instance(
        size: Option<&str>,
        start: &str,
        goal: Option<&str>,
    ) -> Result<(Arc<Self>, Box<[u8]>), FieldError> {
        super::no_goal(Self::NAME, goal)?;
        let (fresh, start) = Self::parse(start).map_err(|e| ("start", e))?;
        let n = fresh.n();
        super::counted_size(size, n, "pancakes")?;
        // One static for both kinds (a static cannot name the kind): plain at [0][n], burnt at
        // [1][n].
        type Shared = OnceLock<Arc<dyn Any + Send + Sync>>;
        static SHARED: [[Shared; MAX_PANCAKES + 1]; 2] =
            [const { [const { OnceLock::new() }; MAX_PANCAKES + 1] }; 2];
        let start = fresh.pancakes(&start).into();
        let shared = SHARED[BURNT as usize][n].get_or_init(|| Arc::new(fresh));
        let domain = Arc::clone(shared)
            .downcast::<Self>()
            .expect("each slot holds its own kind of stack");
        Ok((domain, start))
    }

    /// Chosen by measurement (docs/pancake.md): the least depth that forbids more than the flip
    /// just made, 4 for burnt stacks, whose shortest cycles have 8 flips.
    const FSM_DEPTH: u32 = if BURNT { 4 } else { 3 };

    /// Flipping k sends the pancake at position x < k to k - 1 - x (burnt: upside down, so the
    /// automaton's points are the (position, side) pairs, 2x + side).
    fn fsm_moves(&self) -> Moves {
        let n = self.n as u16;
        let perms = self
            .flips
            .iter()
            .map(|&k| {
                let k = u16::from(k);
                let to = |x: u16| if x < k { k - 1 - x } else { x };
                if BURNT {
                    (0..2 * n)
                        .map(|p| {
                            let (x, side) = (p / 2, p % 2);
                            2 * to(x) + if x < k { 1 - side } else { side }
                        })
                        .collect()
                } else {
                    (0..n).map(to).collect()
                }
            })
            .collect();
        Moves::Permutations(perms)
    }

    fn size(&self) -> String {
        self.n.to_string()
    }

    /// The sorted stack of as many pancakes as `size` says.
    fn generator_goal(size: Option<&str>) -> Result<(String, String), FieldError> {
        super::counted_goal(Self::NAME, size, Self::MOST, "pancakes")
    }

    /// Burnt: the pancakes shuffled, each then burnt side up with probability 1/2 (flips reach
    /// every such stack, so every one is a fair start).
    fn random_start(goal: &[&str], rng: &mut Rng) -> String {
        let mut tokens = goal.to_vec();
        rng.shuffle(&mut tokens);
        let signed: Vec<String> = tokens
            .iter()
            .map(|t| {
                let up = BURNT && rng.below(2) == 1;
                format!("{}{t}", if up { "-" } else { "" })
            })
            .collect();
        signed.join(" ")
    }

    fn tokens(&self, s: &Stack) -> String {
        let stack: Vec<String> = self
            .pancakes(s)
            .iter()
            .map(|&p| {
                if BURNT {
                    (p as i8).to_string()
                } else {
                    p.to_string()
                }
            })
            .collect();
        stack.join(" ")
    }

    fn with_heuristic<V: UseSearch>(
        d: &Arc<Self>,
        start: &Stack,
        h: PancakeHeuristic,
        visit: V,
    ) -> V::Output {
        match h {
            PancakeHeuristic::Gap => visit.with(&**d, start, &Gap::<0>),
            PancakeHeuristic::Gap1 => visit.with(&**d, start, &Gap::<1>),
            PancakeHeuristic::Gap2 => visit.with(&**d, start, &Gap::<2>),
            PancakeHeuristic::Gap3 => visit.with(&**d, start, &Gap::<3>),
            PancakeHeuristic::Zero => visit.with(&**d, start, &Zero),
        }
    }

    /// GAP-x counts a subset of the gaps GAP-y counts for y < x: a max of them is the one that
    /// leaves out the fewest pancakes, searched as it is alone.
    fn with_max<V: UseSearch>(
        d: &Arc<Self>,
        start: &Stack,
        parts: &[PancakeHeuristic],
        visit: V,
    ) -> V::Output {
        let strongest = parts
            .iter()
            .copied()
            .filter(|h| h.ignored().is_some())
            .min_by_key(|h| h.ignored())
            .unwrap_or(PancakeHeuristic::Zero);
        Self::with_heuristic(d, start, strongest, visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{ida_star, replay, Limits, Outcome, Prune, Step, Variant};
    use crate::util::rng::Rng;
    use std::collections::HashMap;

    const NEXT: Variant = Variant {
        step: Step::Next,
        prune: Prune::Reverse,
    };

    /// Every stack of n pancakes (burnt: signed) with its distance to sorted: a BFS from the
    /// sorted stack over flips written here from the definition (reverse the top k, k from 2;
    /// burnt: from 1, and negate each), not from the domain's moves.
    fn layers(n: usize, burnt: bool) -> HashMap<Vec<i8>, u32> {
        let sorted: Vec<i8> = (1..=n as i8).collect();
        let mut dist = HashMap::from([(sorted.clone(), 0)]);
        let mut layer = vec![sorted];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for s in &layer {
                for k in (if burnt { 1 } else { 2 })..=n {
                    let mut t = s.clone();
                    t[..k].reverse();
                    if burnt {
                        t[..k].iter_mut().for_each(|p| *p = -*p);
                    }
                    if !dist.contains_key(&t) {
                        dist.insert(t.clone(), d);
                        next.push(t);
                    }
                }
            }
            layer = next;
        }
        dist
    }

    fn bfs(n: usize) -> HashMap<Vec<u8>, u32> {
        let unsigned = |s: Vec<i8>| s.into_iter().map(|p| p as u8).collect();
        layers(n, false)
            .into_iter()
            .map(|(s, d)| (unsigned(s), d))
            .collect()
    }

    /// Every GAP-x of `s` is at most `want`, its distance.
    fn gaps_at_most<const BURNT: bool>(d: &Pancakes<BURNT>, s: &Stack, want: u32) {
        for (ignore, got) in [
            (0, Gap::<0>.init(d, s)),
            (1, Gap::<1>.init(d, s)),
            (2, Gap::<2>.init(d, s)),
            (3, Gap::<3>.init(d, s)),
        ] {
            let stack = d.pancakes(s);
            assert!(got <= want, "{stack:?}: gap-{ignore} {got} > {want}");
        }
    }

    /// A gap heuristic's update after each flip equals a fresh count on the child.
    fn updates_match_counts<const X: u8, const BURNT: bool>(d: &Pancakes<BURNT>, s: &Stack) {
        let g = Gap::<X>.init(d, s);
        for &m in d.moves(s) {
            let mut t = s.clone();
            let updated = Gap::<X>.update(d, s, m, g);
            d.apply(&mut t, m);
            assert_eq!(updated, Gap::<X>.init(d, &t), "gap-{X} flip {m}");
            d.apply(&mut t, m);
            assert_eq!(&t, s);
        }
    }

    fn stack(p: &[u8]) -> (Pancake, Stack) {
        let text: Vec<String> = p.iter().map(u8::to_string).collect();
        Pancake::parse(&text.join(" ")).unwrap()
    }

    /// IDA*'s path from `s`, replayed to the goal; optimal but under step 2.
    fn solve_on<const BURNT: bool, H: Heuristic<Pancakes<BURNT>>>(
        d: &Pancakes<BURNT>,
        s: &Stack,
        h: &H,
        variant: Variant,
    ) -> Vec<u8> {
        let stack = d.pancakes(s);
        let r = ida_star(d, h, s, variant, Limits::default());
        assert!(r.optimal_guaranteed || variant.step == Step::Two);
        let Outcome::Solved(path) = r.outcome else {
            panic!("{stack:?}: {:?}", r.outcome);
        };
        assert!(replay(d, s, &path), "{stack:?}: {path:?}");
        path
    }

    fn solve<H: Heuristic<Pancake>>(h: &H, p: &[u8], variant: Variant) -> Vec<u8> {
        let (d, s) = stack(p);
        solve_on(&d, &s, h, variant)
    }

    /// The pancake numbers (OEIS A058986): the most flips any stack of n needs.
    const DIAMETERS: [u32; 9] = [0, 1, 3, 4, 5, 7, 8, 9, 10];

    /// IDA* with every heuristic gives the BFS distance of every stack of up to 7 pancakes, and
    /// of every eighth stack of 8 and every 64th of 9; each gap heuristic is at most the distance.
    #[test]
    fn ida_matches_bfs_on_small_stacks() {
        for n in 1..=9 {
            let dist = bfs(n);
            let factorial: usize = (1..=n).product();
            assert_eq!(dist.len(), factorial, "n = {n}");
            assert_eq!(*dist.values().max().unwrap(), DIAMETERS[n - 1], "n = {n}");
            let every = match n {
                ..=7 => 1,
                8 => 8,
                _ => 64,
            };
            let mut stacks: Vec<(&Vec<u8>, &u32)> = dist.iter().collect();
            stacks.sort();
            for (p, &want) in stacks.into_iter().step_by(every) {
                let (d, s) = stack(p);
                gaps_at_most(&d, &s, want);
                assert_eq!(solve(&Gap::<0>, p, NEXT).len() as u32, want, "{p:?}");
                assert_eq!(solve(&Gap::<2>, p, NEXT).len() as u32, want, "{p:?}");
                if n <= 6 {
                    assert_eq!(solve(&Zero, p, NEXT).len() as u32, want, "{p:?}");
                }
            }
        }
    }

    #[test]
    fn every_step_and_pruning_finds_the_distance() {
        let dist = bfs(7);
        let mut stacks: Vec<(&Vec<u8>, &u32)> = dist.iter().collect();
        stacks.sort();
        for (p, &want) in stacks.into_iter().step_by(37) {
            for step in Step::ALL {
                for prune in [Prune::None, Prune::Reverse] {
                    let got = solve(&Gap::<1>, p, Variant { step, prune }).len() as u32;
                    if step == Step::Two {
                        assert!(got >= want && got <= want + 1, "{p:?} {step:?}");
                    } else {
                        assert_eq!(got, want, "{p:?} {step:?} {prune:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn gap_updates_match_a_full_count() {
        let mut rng = Rng::new(2010);
        for n in [1, 2, 3, 5, 16, 40, 100, MAX_PANCAKES] {
            let mut p: Vec<u8> = (1..=n as u8).collect();
            rng.shuffle(&mut p);
            let (d, s) = stack(&p);
            updates_match_counts::<0, false>(&d, &s);
            updates_match_counts::<1, false>(&d, &s);
            updates_match_counts::<3, false>(&d, &s);
        }
    }

    #[test]
    fn gap_is_zero_only_at_the_goal() {
        let (d, s) = stack(&[1, 2, 3, 4]);
        assert!(d.is_goal(&s) && Gap::<0>.init(&d, &s) == 0);
        // Upside down, the stack has one gap: at the plate.
        let (d, s) = stack(&[4, 3, 2, 1]);
        assert_eq!(Gap::<0>.init(&d, &s), 1);
        // Pancake 1 at the bottom: GAP-1 leaves out the gap above it, not the plate's.
        let (d, s) = stack(&[2, 3, 4, 1]);
        assert_eq!(Gap::<0>.init(&d, &s), 2);
        assert_eq!(Gap::<1>.init(&d, &s), 1);
        assert!(!d.is_goal(&s));
        // GAP-1 does not see pancake 1 out of place in the middle.
        let (d, s) = stack(&[2, 3, 1, 4]);
        assert_eq!(Gap::<0>.init(&d, &s), 2);
        assert_eq!(Gap::<1>.init(&d, &s), 0);
        let (d, s) = stack(&[4, 3, 2, 1]);
        assert_eq!(Gap::<1>.init(&d, &s), 1);
    }

    /// Helmert's (2010) example: the gap count of 3 2 5 1 6 4 is 5, and so is its distance (his
    /// solution flips 5, 6, 3, 4, 5).
    #[test]
    fn helmerts_example() {
        let (d, s) = stack(&[3, 2, 5, 1, 6, 4]);
        assert_eq!(Gap::<0>.init(&d, &s), 5);
        assert!(replay(&d, &s, &[5, 6, 3, 4, 5]));
        assert_eq!(solve(&Gap::<0>, &[3, 2, 5, 1, 6, 4], NEXT).len(), 5);
    }

    #[test]
    fn fsm_moves_are_the_flips() {
        let (d, s) = stack(&[3, 1, 4, 5, 2]);
        let Moves::Permutations(perms) = d.fsm_moves() else {
            panic!("flips are permutations");
        };
        for (&m, perm) in d.moves(&s).iter().zip(&perms) {
            let mut t = s.clone();
            d.apply(&mut t, m);
            for (x, &to) in perm.iter().enumerate() {
                assert_eq!(t.p[to as usize], s.p[x], "flip {m}");
            }
        }
        assert_eq!(d.labels(&s), [0, 1, 2, 3]);
    }

    #[test]
    fn paths_are_the_flip_sizes() {
        let (d, s) = stack(&[3, 2, 1, 4]);
        let path = solve(&Gap::<0>, &[3, 2, 1, 4], NEXT);
        assert_eq!(d.path_string(&s, &path), "3");
        assert_eq!(d.path_string(&s, &[2, 5, 3]), "2 5 3");
    }

    #[test]
    fn bad_stacks_are_refused_clearly() {
        let err = |text: &str| Pancake::parse(text).err().unwrap();
        assert!(err("").contains("invalid number of pancakes 0"));
        assert!(err("1 2 x").contains("token 3 'x' is not a pancake number"));
        assert!(err("1 2 2").contains("pancake 2 appears twice (positions 2 and 3)"));
        assert!(err("1 0 2").contains("pancake 0 at position 2 is out of range"));
        assert!(err("1 4 2").contains("pancake 4 at position 2 is out of range"));
        assert!(err("1 -4 2").contains(
            "token 2 '-4' is not a pancake number (expected 1 to 3); pancakes with a burnt side are domain burnt-pancake"
        ));
        assert!(err("-0 1").contains("token 1 '-0' is not a pancake number"));
        assert!(err("1 70000").contains("pancake 70000 at position 2 is out of range"));
        let many: Vec<String> = (1..=255).map(|p| p.to_string()).collect();
        assert!(err(&many.join(" ")).contains("expected 1 to 254"));
        let e = Pancake::instance(Some("4"), "2 1 3", None).err().unwrap();
        assert_eq!(e.0, "size");
        assert!(e.1.contains("the start has 3 pancakes"));
        let e = Pancake::instance(None, "2 1 3", Some("1 2 3"))
            .err()
            .unwrap();
        assert_eq!(e.0, "goal");
        assert!(Pancake::generator_goal(Some("0")).is_err());
        assert_eq!(
            Pancake::generator_goal(Some("3")).unwrap(),
            ("3".to_string(), "1 2 3".to_string())
        );
    }

    fn burnt(p: &[i8]) -> (BurntPancake, Stack) {
        let text: Vec<String> = p.iter().map(i8::to_string).collect();
        BurntPancake::parse(&text.join(" ")).unwrap()
    }

    fn solve_burnt<H: Heuristic<BurntPancake>>(h: &H, p: &[i8]) -> Vec<u8> {
        let (d, s) = burnt(p);
        solve_on(&d, &s, h, NEXT)
    }

    /// The burnt pancake numbers (OEIS A078941): the most flips any burnt stack of n needs.
    const BURNT_DIAMETERS: [u32; 7] = [1, 4, 6, 8, 10, 12, 14];

    /// IDA* with gap gives the BFS distance of every burnt stack of up to 5 pancakes (GAP-2 too),
    /// every 8th of 6 and every 64th of 7; each gap heuristic is at most the distance, and the
    /// diameters are the burnt pancake numbers (2n for n = 2..7: `diameter` is tight there).
    #[test]
    fn burnt_ida_matches_bfs_on_small_stacks() {
        for n in 1..=7 {
            let dist = layers(n, true);
            let factorial: usize = (1..=n).product();
            assert_eq!(dist.len(), factorial << n, "n = {n}");
            let most = *dist.values().max().unwrap();
            assert_eq!(most, BURNT_DIAMETERS[n - 1], "n = {n}");
            assert_eq!(
                BurntPancake::new(n).unwrap().diameter(),
                Some(most.max(2 * n as u32))
            );
            let every = match n {
                ..=5 => 1,
                6 => 8,
                _ => 64,
            };
            let mut stacks: Vec<(&Vec<i8>, &u32)> = dist.iter().collect();
            stacks.sort();
            for (p, &want) in stacks.into_iter().step_by(every) {
                let (d, s) = burnt(p);
                gaps_at_most(&d, &s, want);
                assert_eq!(solve_burnt(&Gap::<0>, p).len() as u32, want, "{p:?}");
                if n <= 5 {
                    assert_eq!(solve_burnt(&Gap::<2>, p).len() as u32, want, "{p:?}");
                }
                if n <= 4 {
                    assert_eq!(solve_burnt(&Zero, p).len() as u32, want, "{p:?}");
                }
            }
        }
    }

    /// OEIS A078942 (Cohen and Blum 1995): the flips that turn the sorted stack with every burnt
    /// side up (-1 ... -n) right; 11 to 13 pancakes are in docs/pancake.md (seconds to a
    /// minute).
    #[test]
    fn burnt_side_up_stacks_take_the_published_flips() {
        const A078942: [usize; 10] = [1, 4, 6, 8, 10, 12, 14, 15, 17, 18];
        for (n, &want) in (1..).zip(&A078942) {
            let up: Vec<i8> = (1..=n).map(|p| -p).collect();
            assert_eq!(solve_burnt(&Gap::<0>, &up).len(), want, "n = {n}");
        }
    }

    /// -1 ... -7 is as far as a stack of 7 gets (14 flips, the diameter): step 2, whose bounds
    /// go 7, 9, ..., 13, 15 here, stops at the diameter instead of passing it, and every step
    /// finds the 14 flips.
    #[test]
    fn every_step_reaches_a_stack_at_the_diameter() {
        let up: Vec<i8> = (1..=7).map(|p| -p).collect();
        let (d, s) = burnt(&up);
        assert_eq!(d.diameter(), Some(14));
        for step in Step::ALL {
            let variant = Variant {
                step,
                prune: Prune::Reverse,
            };
            assert_eq!(solve_on(&d, &s, &Gap::<0>, variant).len(), 14, "{step:?}");
        }
    }

    #[test]
    fn burnt_gap_updates_match_a_full_count() {
        let mut rng = Rng::new(1995);
        for n in [1, 2, 3, 5, 16, 40, MAX_BURNT] {
            let mut p: Vec<i8> = (1..=n as i8).collect();
            rng.shuffle(&mut p);
            p.iter_mut()
                .for_each(|x| *x = if rng.below(2) == 1 { -*x } else { *x });
            let (d, s) = burnt(&p);
            updates_match_counts::<0, true>(&d, &s);
            updates_match_counts::<1, true>(&d, &s);
            updates_match_counts::<3, true>(&d, &s);
        }
    }

    #[test]
    fn burnt_gaps_read_the_sides() {
        let h = |p: &[i8]| {
            let (d, s) = burnt(p);
            Gap::<0>.init(&d, &s)
        };
        assert_eq!(h(&[1, 2, 3]), 0);
        // One pancake burnt side up: a gap above its neighbour only.
        assert_eq!(h(&[-1, 2, 3]), 1);
        // -3 -2 -1 is 1 2 3 flipped as one block: only the plate's gap.
        assert_eq!(h(&[-3, -2, -1]), 1);
        // 3 2 1 burnt sides down is no block: every pair is a gap.
        assert_eq!(h(&[3, 2, 1]), 3);
        assert_eq!(h(&[2, 1, 3]), 2);
        let (d, s) = burnt(&[-1, 2, 3]);
        assert!(!d.is_goal(&s));
        assert_eq!(d.moves(&s), [1, 2, 3]);
        assert!(replay(&d, &s, &[1]));
        assert_eq!(d.tokens(&s), "-1 2 3");
        // GAP-1 leaves out the gap above 2.
        assert_eq!(Gap::<1>.init(&d, &s), 0);
    }

    #[test]
    fn burnt_fsm_moves_are_the_flips_on_sides() {
        let (d, s) = burnt(&[3, -1, 4, -5, 2]);
        let Moves::Permutations(perms) = d.fsm_moves() else {
            panic!("flips are permutations");
        };
        assert_eq!(perms.len(), 5);
        for (&m, perm) in d.moves(&s).iter().zip(&perms) {
            let mut t = s.clone();
            d.apply(&mut t, m);
            for x in 0..5 {
                let before = s.p[x] as i8;
                let side = usize::from(before < 0);
                let to = perm[2 * x + side] as usize;
                let after = t.p[to / 2] as i8;
                assert_eq!(after.abs(), before.abs(), "flip {m}");
                assert_eq!(usize::from(after < 0), to % 2, "flip {m}");
            }
        }
    }

    #[test]
    fn bad_burnt_stacks_are_refused_clearly() {
        let err = |text: &str| BurntPancake::parse(text).err().unwrap();
        assert!(err("1 -1").contains("pancake 1 appears twice (positions 1 and 2)"));
        assert!(err("1 0").contains("pancake 0 at position 2 is out of range"));
        assert!(err("1 -4 2").contains("pancake -4 at position 2 is out of range"));
        assert!(err("1 x").contains("'x' is not a pancake number (expected 1 to 2, negative"));
        assert!(err("-0 1").contains("pancake -0 at position 1 is out of range"));
        assert!(err("1 99999999999999999999").contains("is not a pancake number"));
        assert!(err("1 -70000").contains("pancake -70000 at position 2 is out of range"));
        let many: Vec<String> = (1..=127).map(|p| p.to_string()).collect();
        assert!(err(&many.join(" ")).contains("expected 1 to 126"));
        let (d, p) = BurntPancake::instance(Some("3"), "-2 +3 -1", None).unwrap();
        assert_eq!(d.tokens(&d.unpack(&p)), "-2 3 -1");
        assert!(BurntPancake::generator_goal(Some("127")).is_err());
    }

    #[test]
    fn random_burnt_stacks_are_signed_and_plain_ones_unchanged() {
        let mut rng = Rng::new(5);
        let goal = ["1", "2", "3", "4", "5", "6", "7", "8"];
        let drawn = BurntPancake::random_start(&goal, &mut rng);
        assert!(drawn.contains('-') && drawn.split(' ').any(|t| !t.starts_with('-')));
        assert!(BurntPancake::parse(&drawn).is_ok());
        // The plain family draws what it always drew: the tokens shuffled, no sign.
        let plain = Pancake::random_start(&goal, &mut Rng::new(5));
        let mut shuffled = goal;
        Rng::new(5).shuffle(&mut shuffled);
        assert_eq!(plain, shuffled.join(" "));
    }

    /// `burnt-pancake.csv`'s `optimal` column: the rows of up to 16 pancakes by IDA* with gap
    /// (two seconds), the 8-stacks also with GAP-1; the 20-stacks take minutes (docs/pancake.md).
    #[test]
    fn bundled_burnt_lengths_hold() {
        let mut rows = 0;
        for line in include_str!("../../datasets/burnt-pancake.csv")
            .lines()
            .skip(1)
        {
            let f: Vec<&str> = line.split(',').collect();
            let p: Vec<i8> = f[3].split(' ').map(|x| x.parse().unwrap()).collect();
            let want: usize = f[5].parse().unwrap();
            assert_eq!(f[2].parse::<usize>().unwrap(), p.len(), "{line}");
            if p.len() <= 16 {
                assert_eq!(solve_burnt(&Gap::<0>, &p).len(), want, "{line}");
                rows += 1;
            }
            if p.len() == 8 {
                assert_eq!(solve_burnt(&Gap::<1>, &p).len(), want, "{line}");
            }
        }
        assert_eq!(rows, 300);
    }

    #[test]
    fn a_max_is_its_strongest_part() {
        struct Nodes;
        impl UseSearch for Nodes {
            type Output = u64;
            fn with<D: Domain, H: Heuristic<D>>(self, d: &D, s: &D::State, h: &H) -> u64 {
                ida_star(d, h, s, NEXT, Limits::default()).stats.generated
            }
        }
        let (d, p) = Pancake::instance(None, "5 9 2 7 1 10 3 8 4 6", None).unwrap();
        let s = d.unpack(&p);
        use PancakeHeuristic::*;
        let max = Pancake::with_max(&d, &s, &[Gap3, Gap1, Zero], Nodes);
        assert_eq!(max, Pancake::with_heuristic(&d, &s, Gap1, Nodes));
        assert_ne!(max, Pancake::with_heuristic(&d, &s, Gap3, Nodes));
    }

    /// The bundled datasets' `optimal` column: every row by IDA* with gap, and the 16-stacks of
    /// `pancake.csv` also with GAP-1 (a second the hundred; its 28-stacks take minutes).
    #[test]
    fn bundled_dataset_lengths_hold() {
        let mut rows = 0;
        for text in [
            include_str!("../../datasets/pancake.csv"),
            include_str!("../../datasets/pancake40.csv"),
        ] {
            for line in text.lines().skip(1) {
                let f: Vec<&str> = line.split(',').collect();
                let p: Vec<u8> = f[3].split(' ').map(|x| x.parse().unwrap()).collect();
                let want: usize = f[5].parse().unwrap();
                assert_eq!(f[2].parse::<usize>().unwrap(), p.len(), "{line}");
                assert_eq!(solve(&Gap::<0>, &p, NEXT).len(), want, "{line}");
                if p.len() == 16 {
                    assert_eq!(solve(&Gap::<1>, &p, NEXT).len(), want, "{line}");
                }
                rows += 1;
            }
        }
        assert_eq!(rows, 500);
    }
}
