//! Heuristics combined by max (`max:H1:H2:...`): the names, checked against a family's
//! heuristics, and the heuristic that carries each part's own value and estimates the largest.
//!
//! The max of admissible heuristics is admissible, and the max of consistent ones consistent: a
//! move changes each part by at most one, so it changes their largest by at most one.
//!
//! A max is `Max<P, N>` over the family's enum of parts (`max_parts!`) with `N` slots, so that
//! combining heuristics adds a few instantiations of the search kernels, not one per
//! combination: the tiles have two (two slots, and four). `zero` adds nothing to a max, and a
//! family left with one part searches it alone: the other families' maxes are of their one
//! heuristic and `zero`, and need no type of their own.

use super::cost::CostModel;
use super::{Family, HeuristicSet, PrepareError};
use crate::search::{Domain, Heuristic};
use crate::tables::store::{self, StoreError, TableInfo};
use std::sync::{Arc, Mutex};

/// What starts a max's name; its parts follow, separated by colons (`--heuristic` lists are
/// separated by commas).
pub const PREFIX: &str = "max:";
/// The most parts a max has: each node carries every part's value.
pub const MAX_PARTS: usize = 4;
/// The slots of a max of two parts.
pub const TWO: usize = 2;

/// A heuristic of a family by its name: one of the family's own, or the max of some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice<S> {
    One(S),
    Max(Vec<S>),
}

impl<S> Choice<S> {
    /// The heuristics a search runs: the one, or the parts of the max.
    pub fn parts(&self) -> &[S] {
        match self {
            Choice::One(h) => std::slice::from_ref(h),
            Choice::Max(parts) => parts,
        }
    }
}

/// The parts of `name` when it is a max (`None` when it is not), checked as far as no family
/// is needed: two to `MAX_PARTS` parts, none empty, none a max, none twice.
pub fn split(name: &str) -> Result<Option<Vec<&str>>, String> {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return Ok(None);
    };
    let parts: Vec<&str> = rest.split(':').collect();
    if parts.contains(&"max") {
        return Err(format!(
            "heuristic '{name}': a part cannot be a max itself: list every part in one max:H1:H2:..."
        ));
    }
    if parts.len() < 2 {
        return Err(format!(
            "heuristic '{name}': a max needs two parts or more, e.g. max:manhattan:walking-distance"
        ));
    }
    if parts.contains(&"") {
        return Err(format!(
            "heuristic '{name}': an empty part: separate the parts by single colons"
        ));
    }
    if parts.len() > MAX_PARTS {
        return Err(format!(
            "heuristic '{name}': {} parts, at most {MAX_PARTS}",
            parts.len()
        ));
    }
    if let Some(twice) = parts
        .iter()
        .enumerate()
        .find_map(|(i, p)| parts[..i].contains(p).then_some(p))
    {
        return Err(format!("heuristic '{name}': part '{twice}' is given twice"));
    }
    Ok(Some(parts))
}

/// `name` as a heuristic of family `F`, or why it is none.
pub fn choose<F: Family>(name: &str) -> Result<Choice<F::Heuristics>, String> {
    let names = || {
        let names: Vec<&str> = F::Heuristics::ALL.iter().map(|h| h.name()).collect();
        names.join(", ")
    };
    let Some(parts) = split(name)? else {
        return F::Heuristics::parse(name).map(Choice::One).ok_or_else(|| {
            format!(
                "heuristic '{name}' does not apply to {}: expected one of {}",
                F::NAME,
                names()
            )
        });
    };
    let mut chosen = Vec::with_capacity(parts.len());
    for part in parts {
        let h = F::Heuristics::parse(part).ok_or_else(|| {
            format!(
                "heuristic '{name}': part '{part}' is not a {} heuristic: expected one of {}",
                F::NAME,
                names()
            )
        })?;
        F::max_part(h).map_err(|why| format!("heuristic '{name}': part '{part}' {why}"))?;
        chosen.push(h);
    }
    Ok(Choice::Max(chosen))
}

/// `Family::prepare` for each heuristic of `choice` under `cost`, each table once; a part's error
/// is prefixed by the part.
pub fn prepare<F: Family>(
    d: &Arc<F>,
    choice: &Choice<F::Heuristics>,
    cost: CostModel,
    store: Option<&store::Options>,
) -> Result<Vec<TableInfo>, PrepareError> {
    let Choice::Max(parts) = choice else {
        return F::prepare(d, choice.parts()[0], cost, store);
    };
    let names: Vec<&str> = parts.iter().map(|h| h.name()).collect();
    let name = format!("{PREFIX}{}", names.join(":"));
    let mut used: Vec<TableInfo> = Vec::new();
    for &h in parts {
        let part = |m: String| format!("heuristic '{name}': part '{}': {m}", h.name());
        let infos = F::prepare(d, h, cost, store).map_err(|e| match e {
            PrepareError::Unfit(m) => PrepareError::Unfit(part(m)),
            PrepareError::Memory(m) => PrepareError::Memory(part(m)),
            PrepareError::Store(StoreError::Missing(m)) => StoreError::Missing(part(m)).into(),
            PrepareError::Store(StoreError::Io(m)) => StoreError::Io(part(m)).into(),
            PrepareError::Store(StoreError::Interrupted(m)) => {
                StoreError::Interrupted(part(m)).into()
            }
            PrepareError::Store(StoreError::Refused(m)) => StoreError::Refused(part(m)).into(),
        })?;
        for info in infos {
            if !used.contains(&info) {
                used.push(info);
            }
        }
    }
    Ok(used)
}

/// `name` kept for the rest of the process: a `HeuristicKind` holds a `&'static str`, and the
/// names of maxes are made up on the command line. Each name is kept once.
pub(super) fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    // Nothing is left half-made by a panic while the lock is held: the poison carries no meaning.
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(kept) = names.iter().find(|n| **n == name) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.into());
    names.push(kept);
    kept
}

/// One part of a max: a family's heuristic as an enum over the family's heuristic types
/// (`max_parts!`), so that the max is one type whichever heuristics it combines.
pub trait Part<D: Domain>: Copy + Sync {
    /// The part's own heuristic's value, as an enum over the family's.
    type Value: Copy + Send + Sync;
    /// Whether the part's estimate is 0 exactly at goal states (`Heuristic::GOAL_AWARE`).
    fn goal_aware(self) -> bool;
    fn init(self, d: &D, s: &D::State) -> Self::Value;
    fn update(self, d: &D, s: &D::State, m: D::Move, v: &Self::Value) -> Self::Value;
    fn estimate(self, v: &Self::Value) -> u32;
}

/// The largest of `N` heuristics' estimates. Each node carries every part's value, and each part
/// updates its own incrementally, as it does alone. `N` is fixed so that the loops over the
/// parts unroll and a node's value stays small enough to be copied without a call: with a
/// value of four slots for every max, the copies took most of the time of a two-part one.
pub struct Max<P, const N: usize> {
    parts: [P; N],
}

impl<P: Copy, const N: usize> Max<P, N> {
    /// The max of `parts` (two to `N`; the last repeats in the slots left, which changes no
    /// estimate), of which one at least is 0 exactly at goals: in every family only `zero` is
    /// not, and it is left out of a max.
    pub fn new<D: Domain>(parts: &[P]) -> Max<P, N>
    where
        P: Part<D>,
    {
        assert!(
            (2..=N).contains(&parts.len()),
            "a max of {} parts in {N} slots",
            parts.len()
        );
        assert!(
            parts.iter().any(|p| p.goal_aware()),
            "a max none of whose parts is 0 only at goals"
        );
        let last = parts[parts.len() - 1];
        Max {
            parts: std::array::from_fn(|i| parts.get(i).copied().unwrap_or(last)),
        }
    }
}

impl<D: Domain, P: Part<D>, const N: usize> Heuristic<D> for Max<P, N> {
    /// Each part's value, in the order of the parts.
    type Value = [P::Value; N];
    /// A part that is 0 only at goals is 0 only at goals, and every admissible part is 0 there.
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &D, s: &D::State) -> Self::Value {
        self.parts.map(|p| p.init(d, s))
    }

    #[inline(always)]
    fn update(&self, d: &D, s: &D::State, m: D::Move, parent: Self::Value) -> Self::Value {
        let mut values = parent;
        for (p, v) in self.parts.iter().zip(&mut values) {
            *v = p.update(d, s, m, v);
        }
        values
    }

    #[inline(always)]
    fn estimate(&self, values: Self::Value) -> u32 {
        let mut largest = 0;
        for (p, v) in self.parts.iter().zip(&values) {
            largest = largest.max(p.estimate(v));
        }
        largest
    }
}

/// A family's parts of a max, from one line per heuristic type (`Variant(Type)`): the enum of
/// the heuristics (held by `&'static`, as `crate::tables::shared` keeps them), the enum of their
/// values, and their `Part` for the domain.
macro_rules! max_parts {
    ($(#[$doc:meta])* $domain:ty => $part:ident, $value:ident { $($variant:ident($h:ty)),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub enum $part {
            $($variant(&'static $h)),+
        }

        /// What a part carries: its heuristic's value.
        #[derive(Clone, Copy)]
        pub enum $value {
            $($variant(<$h as $crate::search::Heuristic<$domain>>::Value)),+
        }

        impl $crate::domains::max::Part<$domain> for $part {
            type Value = $value;

            fn goal_aware(self) -> bool {
                match self {
                    $($part::$variant(_) => {
                        <$h as $crate::search::Heuristic<$domain>>::GOAL_AWARE
                    }),+
                }
            }

            fn init(
                self,
                d: &$domain,
                s: &<$domain as $crate::search::Domain>::State,
            ) -> $value {
                use $crate::search::Heuristic;
                match self {
                    $($part::$variant(h) => $value::$variant(h.init(d, s))),+
                }
            }

            #[inline(always)]
            fn update(
                self,
                d: &$domain,
                s: &<$domain as $crate::search::Domain>::State,
                m: <$domain as $crate::search::Domain>::Move,
                v: &$value,
            ) -> $value {
                use $crate::search::Heuristic;
                match (self, v) {
                    $(($part::$variant(h), $value::$variant(v)) => {
                        $value::$variant(h.update(d, s, m, *v))
                    })+
                    _ => unreachable!("a part's value comes from its own init"),
                }
            }

            #[inline(always)]
            fn estimate(self, v: &$value) -> u32 {
                match (self, v) {
                    $(($part::$variant(h), $value::$variant(v)) => {
                        <$h as $crate::search::Heuristic<$domain>>::estimate(h, *v)
                    })+
                    _ => unreachable!("a part's value comes from its own init"),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::{DomainKind, HeuristicKind, Puzzle};

    fn refused(name: &str) -> String {
        HeuristicKind::parse_checked(name).expect_err(name)
    }

    /// A max is named as written, and is a heuristic of every family that has all its parts.
    #[test]
    fn a_max_of_one_family_is_a_heuristic_of_it() {
        for (name, families) in [
            ("max:pdb-555:pdb-663", &[DomainKind::Tiles][..]),
            (
                "max:manhattan:linear-conflict:walking-distance:pdb-78+reflect",
                &[DomainKind::Tiles],
            ),
            ("max:center:zero", &[DomainKind::Rotation]),
            ("max:zero:breaks", &[DomainKind::Booksort]),
            (
                "max:misplaced:zero",
                &[DomainKind::Tiles, DomainKind::Knights, DomainKind::Ksolve],
            ),
        ] {
            let h = HeuristicKind::parse_checked(name).unwrap();
            assert_eq!(h.name(), name);
            for d in DomainKind::ALL {
                assert_eq!(d.accepts(h), families.contains(&d), "{name} {d:?}");
            }
        }
        assert_eq!(intern("max:center:zero"), intern("max:center:zero"));
        assert!(std::ptr::eq(
            intern("max:center:zero"),
            HeuristicKind::parse("max:center:zero").unwrap().name()
        ));
    }

    /// Each refusal says what is wrong with which part.
    #[test]
    fn bad_maxes_are_refused_naming_the_part() {
        for (name, says) in [
            ("max:manhattan", "a max needs two parts or more"),
            ("max:", "a max needs two parts or more"),
            ("max:manhattan::zero", "an empty part"),
            ("max:manhattan:max:zero", "a part cannot be a max itself"),
            ("max:zero:manhattan:zero", "part 'zero' is given twice"),
            ("max:zero:manhattan:misplaced:pdb-555:pdb-663", "5 parts, at most 4"),
            ("max:manhattan:fast", "unknown part 'fast': expected tiles heuristics: manhattan,"),
            ("max:fast:slow", "unknown part 'fast': expected one of manhattan,"),
            ("max:center:manhattan", "'center' of rotation, 'manhattan' of tiles"),
            ("max:pdb-555:pdb-CORNERS", "'pdb-555' of tiles, 'pdb-CORNERS' of ksolve"),
            ("max:misplaced:breaks", "'misplaced' of tiles and knights and ksolve, 'breaks' of booksort"),
            ("max:manhattan:pdb-555+dual+bpmx", "part 'pdb-555+dual+bpmx' is searched with bidirectional pathmax"),
            ("max:manhattan:pdb-78+random", "part 'pdb-78+random' reads the databases by more lookups than a part can carry: only the regular and +reflect lookups of a database can be parts (pdb-78, pdb-78+reflect)"),
        ] {
            let why = refused(name);
            assert!(why.contains(name) && why.contains(says), "{name}: {why}");
        }
        // The family's own message for a single heuristic it lacks.
        let h = HeuristicKind::parse("max:manhattan:zero").unwrap();
        let err = choose::<crate::domains::rotation::Rotation>(h.name()).unwrap_err();
        assert!(
            err.contains(
                "part 'manhattan' is not a rotation heuristic: expected one of center, zero"
            ),
            "{err}"
        );
    }

    /// A part the board refuses is refused with its own message, after the part's name.
    #[test]
    fn a_part_that_does_not_fit_the_board_is_named() {
        let puzzle = Puzzle::fixed(DomainKind::Tiles, "3x3", "1 2 3 4 5 6 7 8 0", None).unwrap();
        let h = HeuristicKind::parse("max:manhattan:pdb-663").unwrap();
        let alone = puzzle.prepare(HeuristicKind::parse("pdb-663").unwrap(), None);
        let (Err(PrepareError::Unfit(alone)), Err(PrepareError::Unfit(why))) =
            (alone, puzzle.prepare(h, None))
        else {
            panic!("pdb-663 fits 3x3");
        };
        assert_eq!(
            why,
            format!("heuristic 'max:manhattan:pdb-663': part 'pdb-663': {alone}")
        );
        let big = Puzzle::fixed(
            DomainKind::Tiles,
            "6x6",
            &(0..36).map(|t| t.to_string()).collect::<Vec<_>>().join(" "),
            None,
        )
        .unwrap();
        let h = HeuristicKind::parse("max:walking-distance:manhattan").unwrap();
        let Err(PrepareError::Unfit(why)) = big.prepare(h, None) else {
            panic!("walking distance on 6x6");
        };
        assert!(
            why.starts_with(
                "heuristic 'max:walking-distance:manhattan': part 'walking-distance': "
            ),
            "{why}"
        );
    }
}
