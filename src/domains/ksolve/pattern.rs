//! Pattern databases of a defined puzzle: for every placement of chosen pieces of one set (their
//! slots and turns), the fewest moves that bring them to their solved slots and turns, whatever
//! the other pieces do. Built by a parallel breadth-first search over ranked placements and kept
//! by `tables::store`, like the tiles' databases.
//!
//! A pattern is named `pdb-SET` (every piece of the set) or `pdb-SET.PIECES`, the pieces by their
//! solved numbers from 1 as ranges and single numbers joined by `_` (`pdb-EDGES.1-6`,
//! `pdb-EDGES.1_3_5-7`). A placement is ranked as the chosen pieces' slots (a partial
//! permutation, mixed radix) then their turns (base `omod`). When every piece of the set is
//! chosen, the last piece's slot follows from the others', and so does its turn when no move
//! changes the sum of the set's turns (the cube's corner twist and edge flip): neither is
//! ranked, which makes the 3x3x3's corner database Korf's 8! * 3^7 entries.

use super::{add, Ksolve, Metric};
use crate::tables::store::{Spec, Unbuilt};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What starts a pattern database's name.
pub const PREFIX: &str = "pdb-";
/// The most pieces of one pattern, for the arrays a lookup ranks them in: `MOST_ENTRIES` allows
/// no more than 13 (14! is above it), and 16 keeps the arrays aligned.
pub const MAX_PIECES: usize = 16;
// A set's slots are bits of a u128 while ranking.
const _: () = assert!(super::MAX_SLOTS <= 128);
/// The most entries of one database, a byte each (16 GiB).
const MOST_ENTRIES: u64 = 1 << 34;
/// An entry no placement reached yet (and, after the build, one no move sequence reaches).
const UNSEEN: u8 = u8::MAX;
const ENTRY_FORMAT: &str =
    "u8: fewest moves that bring the pattern's pieces to their solved slots and turns; 255 unreachable";
/// Not a chosen piece, in `Pattern::order`.
const NONE: u8 = u8::MAX;

/// Whether `name` could be a pattern of some defined puzzle, before a puzzle is known: a set
/// name after `pdb-`, no blank, and none of the characters that separate heuristics, the parts of
/// a max or a lookup (`,` `:` `+`).
pub fn well_formed(name: &str) -> bool {
    name.strip_prefix(PREFIX).is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_graphic() && !matches!(c, ',' | ':' | '+'))
    })
}

/// Chosen pieces of one set of a defined puzzle, with the moves as they act on that set.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// As named (`pdb-EDGES.1-6`).
    name: String,
    puzzle: String,
    metric: Metric,
    set: String,
    /// The set's first slot, its size and orientation count.
    first: usize,
    n: usize,
    omod: u8,
    /// The chosen pieces' solved labels (from 0), in order.
    pieces: Vec<u8>,
    /// Each label's place in `pieces`, or `NONE`.
    order: Vec<u8>,
    /// The pieces whose slot is ranked, and those whose turn is (see the module's note).
    placed: usize,
    turned: usize,
    /// `omod ^ turned`.
    turns: u64,
    /// The sum of the set's turns, mod `omod`, where every move keeps it.
    turn_sum: u8,
    /// Where each power takes the piece of each slot of the set, and the turn it adds:
    /// `dest[power * n + slot]`.
    dest: Vec<u8>,
    dturn: Vec<u8>,
    /// The powers that are moves in the metric.
    moves: Vec<u16>,
    /// The chosen pieces' solved slots and turns.
    goal_at: Vec<u8>,
    goal_turn: Vec<u8>,
    /// SHA-256 of all the above that the entries depend on.
    digest: String,
}

impl Pattern {
    /// The pattern `name` of puzzle `d`, or why it is none of `d`'s.
    pub fn new(d: &Ksolve, name: &str) -> Result<Pattern, String> {
        if !well_formed(name) {
            return Err(format!(
                "'{name}' is not a pattern: pdb-SET or pdb-SET.PIECES (pdb-EDGES.1-6)"
            ));
        }
        let rest = &name[PREFIX.len()..];
        let sets = || {
            let names: Vec<&str> = d.sets.iter().map(|s| s.name.as_str()).collect();
            names.join(", ")
        };
        let (s, list) = match d.sets.iter().position(|s| s.name == rest) {
            Some(s) => (s, None),
            None => {
                let found = rest.rsplit_once('.').and_then(|(set, list)| {
                    Some((d.sets.iter().position(|s| s.name == set)?, list))
                });
                let Some((s, list)) = found else {
                    return Err(format!(
                        "{name}: {} has no set '{rest}' (its sets: {})",
                        d.name,
                        sets()
                    ));
                };
                (s, Some(list))
            }
        };
        let set = &d.sets[s];
        let n = set.size;
        let pieces: Vec<u8> = match list {
            None => (0..n as u8).collect(),
            Some(list) => numbers(list, n).map_err(|e| format!("{name}: {e}"))?,
        };
        let labels = &d.goal.piece[set.first..set.first + n];
        let mut order = vec![NONE; n];
        let (mut goal_at, mut goal_turn) = (Vec::new(), Vec::new());
        for (i, &p) in pieces.iter().enumerate() {
            let mut at = labels.iter().enumerate().filter(|(_, &l)| l == p);
            let Some((slot, _)) = at.next() else {
                return Err(format!(
                    "{name}: set '{}' has no piece {} in the solved position",
                    set.name,
                    p + 1
                ));
            };
            if at.next().is_some() {
                return Err(format!(
                    "{name}: piece {} of set '{}' is in more than one slot of the solved position \
                     (pieces alike): a database of pieces alike is not supported",
                    p + 1,
                    set.name
                ));
            }
            order[usize::from(p)] = i as u8;
            goal_at.push(slot as u8);
            goal_turn.push(d.goal.turn[set.first + slot]);
        }
        let k = pieces.len();
        if k > MAX_PIECES {
            return Err(format!(
                "{name}: {k} pieces, at most {MAX_PIECES} in one database"
            ));
        }
        let powers = d.names.len();
        let mut dest = Vec::with_capacity(powers * n);
        let mut dturn = vec![0u8; powers * n];
        for k in 0..powers {
            dest.extend(0..n as u8);
            for t in d.touches(k as u16) {
                let (slot, from) = (usize::from(t.slot), usize::from(t.from));
                if (set.first..set.first + n).contains(&from) {
                    dest[k * n + from - set.first] = (slot - set.first) as u8;
                    dturn[k * n + from - set.first] = t.turn;
                }
            }
        }
        // Whether every move keeps the sum of the set's turns.
        let kept = d.moves.iter().all(|&m| {
            let m = usize::from(m);
            dturn[m * n..(m + 1) * n]
                .iter()
                .map(|&t| usize::from(t))
                .sum::<usize>()
                % usize::from(set.omod)
                == 0
        });
        let whole = k == n;
        let placed = if whole { n - 1 } else { k };
        let turned = if whole && kept && set.omod > 1 {
            k - 1
        } else {
            k
        };
        let turns = (u64::from(set.omod)).checked_pow(turned as u32);
        let slots = (0..placed).try_fold(1u64, |p, i| p.checked_mul((n - i) as u64));
        let entries = turns.zip(slots).and_then(|(t, s)| t.checked_mul(s));
        match entries {
            Some(e) if e <= MOST_ENTRIES => {}
            _ => {
                let size = (0..placed).fold(f64::from(set.omod).powi(turned as i32), |p, i| {
                    p * (n - i) as f64
                });
                return Err(format!(
                    "{name}: its database would have {size:.3e} entries, more than {MOST_ENTRIES} ({k} of the {n} pieces of set '{}', {} turns each): choose fewer pieces",
                    set.name, set.omod
                ));
            }
        }
        let turn_sum = (goal_turn.iter().map(|&t| usize::from(t)).sum::<usize>()
            % usize::from(set.omod)) as u8;
        let mut hash = Sha256::new();
        for part in [&pieces, &goal_at, &goal_turn, &dest, &dturn] {
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part);
        }
        hash.update([set.omod]);
        for &m in &d.moves {
            hash.update(m.to_le_bytes());
        }
        Ok(Pattern {
            name: name.to_string(),
            puzzle: d.name.clone(),
            metric: d.metric,
            set: set.name.clone(),
            first: set.first,
            n,
            omod: set.omod,
            pieces,
            order,
            placed,
            turned,
            turns: turns.unwrap_or(1),
            turn_sum,
            dest,
            dturn,
            moves: d.moves.clone(),
            goal_at,
            goal_turn,
            digest: crate::util::format::hex(&hash.finalize()),
        })
    }

    /// The pattern as one spelling of it: the set, and the pieces as ranges unless they are all
    /// of them (`EDGES.1-6`), so that `pdb-EDGES.1_2-6` shares `pdb-EDGES.1-6`'s table.
    fn canonical(&self) -> String {
        if self.pieces.len() == self.n {
            return self.set.clone();
        }
        let mut ranges: Vec<(u8, u8)> = Vec::new();
        for &p in &self.pieces {
            match ranges.last_mut() {
                Some((_, last)) if *last + 1 == p => *last = p,
                _ => ranges.push((p, p)),
            }
        }
        let ranges: Vec<String> = ranges
            .iter()
            .map(|&(a, b)| match a == b {
                true => (a + 1).to_string(),
                false => format!("{}-{}", a + 1, b + 1),
            })
            .collect();
        format!("{}.{}", self.set, ranges.join("_"))
    }

    /// The rank of the placement with piece `i` in slot `at[i]` (of the set) turned `turn[i]`.
    #[inline(always)]
    fn rank(&self, at: &[u8; MAX_PIECES], turn: &[u8; MAX_PIECES]) -> u64 {
        let mut used = 0u128;
        let mut r = 0u64;
        for (i, &slot) in at[..self.placed].iter().enumerate() {
            let below = (used & ((1u128 << slot) - 1)).count_ones();
            r = r * (self.n - i) as u64 + u64::from(u32::from(slot) - below);
            used |= 1 << slot;
        }
        let mut o = 0u64;
        for &t in turn[..self.turned].iter().rev() {
            o = o * u64::from(self.omod) + u64::from(t);
        }
        r * self.turns + o
    }

    /// The placement of rank `r`, as `rank` takes it.
    fn unrank(&self, r: u64, at: &mut [u8; MAX_PIECES], turn: &mut [u8; MAX_PIECES]) {
        let k = self.pieces.len();
        let (mut slots, mut o) = (r / self.turns, r % self.turns);
        let mut sum = 0usize;
        for t in turn[..self.turned].iter_mut() {
            *t = (o % u64::from(self.omod)) as u8;
            o /= u64::from(self.omod);
            sum += usize::from(*t);
        }
        if self.turned < k {
            let omod = usize::from(self.omod);
            turn[k - 1] = ((usize::from(self.turn_sum) + omod - sum % omod) % omod) as u8;
        }
        let mut digits = [0u8; MAX_PIECES];
        for i in (0..self.placed).rev() {
            let radix = (self.n - i) as u64;
            digits[i] = (slots % radix) as u8;
            slots /= radix;
        }
        let mut used = 0u128;
        for i in 0..self.placed {
            let mut left = digits[i];
            let mut slot = 0u8;
            loop {
                if used & (1 << slot) == 0 {
                    if left == 0 {
                        break;
                    }
                    left -= 1;
                }
                slot += 1;
            }
            at[i] = slot;
            used |= 1 << slot;
        }
        if self.placed < k {
            at[k - 1] = (!used).trailing_zeros() as u8;
        }
    }

    /// The rank of the chosen pieces' placement in `s` after power `m` (`None`: in `s`).
    #[inline(always)]
    pub fn rank_of(&self, s: &super::Position, m: Option<u16>) -> u64 {
        let mut at = [0u8; MAX_PIECES];
        let mut turn = [0u8; MAX_PIECES];
        let slots = self.first..self.first + self.n;
        let pieces = &s.piece[slots.clone()];
        let turns = &s.turn[slots];
        match m {
            None => {
                for (j, (&p, &t)) in pieces.iter().zip(turns).enumerate() {
                    let i = self.order[usize::from(p)];
                    if i != NONE {
                        at[usize::from(i)] = j as u8;
                        turn[usize::from(i)] = t;
                    }
                }
            }
            Some(m) => {
                let base = usize::from(m) * self.n;
                let dest = &self.dest[base..base + self.n];
                let dturn = &self.dturn[base..base + self.n];
                for j in 0..self.n {
                    let i = self.order[usize::from(pieces[j])];
                    if i != NONE {
                        at[usize::from(i)] = dest[j];
                        turn[usize::from(i)] = add(turns[j], dturn[j], self.omod);
                    }
                }
            }
        }
        self.rank(&at, &turn)
    }

    /// The placement that power `m` makes of `at` and `turn`, in `to`.
    #[inline(always)]
    fn moved(
        &self,
        m: u16,
        at: &[u8; MAX_PIECES],
        turn: &[u8; MAX_PIECES],
        to: (&mut [u8; MAX_PIECES], &mut [u8; MAX_PIECES]),
    ) {
        let base = usize::from(m) * self.n;
        for i in 0..self.pieces.len() {
            let j = base + usize::from(at[i]);
            to.0[i] = self.dest[j];
            to.1[i] = add(turn[i], self.dturn[j], self.omod);
        }
    }

    /// The breadth-first search that fills the table: layer by layer, each layer by expanding
    /// its entries (forward), or, once fewer entries are left unseen than the layer holds, by
    /// looking from each unseen entry for a neighbour in the layer (backward: every move's
    /// inverse is a move). Entries are bytes packed eight to an atomic word, so that both cores
    /// write into one table; a layer's entries all get one value, so that the order of writes
    /// never matters and the table is the same on any number of threads.
    pub(super) fn search(
        &self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, Unbuilt> {
        let total = self.entries();
        let words: Vec<AtomicU64> = (0..total.div_ceil(8))
            .into_par_iter()
            .map(|_| AtomicU64::new(u64::MAX))
            .collect();
        let byte = |r: u64| (words[(r / 8) as usize].load(Ordering::Relaxed) >> (r % 8 * 8)) as u8;
        // Sets entry `r` to `v` if it is unseen; true if this call did.
        let set = |r: u64, v: u8| {
            let shift = r % 8 * 8;
            let word = &words[(r / 8) as usize];
            if (word.load(Ordering::Relaxed) >> shift) as u8 != UNSEEN {
                return false;
            }
            let keep = !(0xFFu64 << shift) | (u64::from(v) << shift);
            (word.fetch_and(keep, Ordering::Relaxed) >> shift) as u8 == UNSEEN
        };
        set(self.goal_entry(), 0);
        let mut seen = 1u64;
        let mut layer = 1u64;
        progress(seen);
        const CHUNK: u64 = 1 << 14;
        for depth in 0u8.. {
            let backward = total - seen < layer;
            let found = AtomicU64::new(0);
            let chunks = total.div_ceil(CHUNK);
            (0..chunks).into_par_iter().for_each(|c| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let mut at = [0u8; MAX_PIECES];
                let mut turn = [0u8; MAX_PIECES];
                let mut to_at = [0u8; MAX_PIECES];
                let mut to_turn = [0u8; MAX_PIECES];
                let mut here = 0u64;
                for r in c * CHUNK..((c + 1) * CHUNK).min(total) {
                    let v = byte(r);
                    if backward {
                        if v != UNSEEN {
                            continue;
                        }
                        self.unrank(r, &mut at, &mut turn);
                        for &m in &self.moves {
                            self.moved(m, &at, &turn, (&mut to_at, &mut to_turn));
                            if byte(self.rank(&to_at, &to_turn)) == depth {
                                here += set(r, depth + 1) as u64;
                                break;
                            }
                        }
                    } else if v == depth {
                        self.unrank(r, &mut at, &mut turn);
                        for &m in &self.moves {
                            self.moved(m, &at, &turn, (&mut to_at, &mut to_turn));
                            here += set(self.rank(&to_at, &to_turn), depth + 1) as u64;
                        }
                    }
                }
                let before = found.fetch_add(here, Ordering::Relaxed);
                progress(seen + before + here);
            });
            if stop.load(Ordering::Relaxed) {
                return Err(Unbuilt::Stopped);
            }
            layer = found.into_inner();
            if layer == 0 {
                break;
            }
            if depth + 1 == UNSEEN {
                return Err(Unbuilt::Refused(format!(
                    "{}: placements {UNSEEN} moves from solved: an entry holds at most {}",
                    self.name,
                    UNSEEN - 1
                )));
            }
            seen += layer;
        }
        let mut table: Vec<u8> = words
            .into_iter()
            .flat_map(|w| w.into_inner().to_le_bytes())
            .collect();
        table.truncate(total as usize);
        Ok(table)
    }
}

/// Piece numbers from 1 to `n`, as ranges and single numbers joined by `_` (`1-4_7`), in
/// order, each once: as labels from 0.
fn numbers(list: &str, n: usize) -> Result<Vec<u8>, String> {
    let number = |w: &str| {
        w.parse::<usize>()
            .ok()
            .filter(|x| (1..=n).contains(x))
            .ok_or_else(|| format!("'{w}' is not a piece number from 1 to {n}"))
    };
    let mut pieces = Vec::new();
    for item in list.split('_') {
        let (a, b) = match item.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(item)?, number(item)?),
        };
        if a > b {
            return Err(format!("range '{item}' runs backwards"));
        }
        for p in a..=b {
            let label = (p - 1) as u8;
            if pieces.contains(&label) {
                return Err(format!("piece {p} is chosen twice"));
            }
            pieces.push(label);
        }
    }
    pieces.sort_unstable();
    Ok(pieces)
}

/// Keeps a name readable in a file name: letters, digits, `.`, `_` and `-`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Spec for Pattern {
    fn key(&self) -> String {
        format!(
            "ksolve-{}-{}-{PREFIX}{}-{}",
            file_safe(&self.puzzle),
            self.metric.name(),
            file_safe(&self.canonical()),
            &self.digest[..16]
        )
    }

    fn describe(&self) -> Vec<(&'static str, String)> {
        let pieces: Vec<String> = self.pieces.iter().map(|p| (p + 1).to_string()).collect();
        vec![
            (
                "puzzle",
                format!("ksolve {}, {} metric", self.puzzle, self.metric.name()),
            ),
            (
                "pattern",
                format!("set {} pieces {}", self.set, pieces.join(" ")),
            ),
            (
                "moves",
                format!("sha256 {} (of the pieces' solved slots and turns, and of every move on the set)", self.digest),
            ),
            (
                "ranking",
                "mixed-radix rank of the pieces' slots, then their turns".into(),
            ),
        ]
    }

    fn entries(&self) -> u64 {
        (0..self.placed).fold(self.turns, |p, i| p * (self.n - i) as u64)
    }

    fn entry_format(&self) -> &'static str {
        ENTRY_FORMAT
    }

    fn goal_entry(&self) -> u64 {
        let mut at = [0u8; MAX_PIECES];
        let mut turn = [0u8; MAX_PIECES];
        at[..self.goal_at.len()].copy_from_slice(&self.goal_at);
        turn[..self.goal_turn.len()].copy_from_slice(&self.goal_turn);
        self.rank(&at, &turn)
    }

    fn build(
        &self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, Unbuilt> {
        self.search(progress, stop)
    }

    /// The packed words and the table made of them.
    fn build_memory(&self) -> u64 {
        2 * self.entries().div_ceil(8) * 8
    }
}

/// A defined puzzle's table as its file's header describes it, for `pdb list` and `pdb verify`,
/// which have no definition file to make its `Pattern` from: its size, checksum and single 0
/// can be checked, and a run checks the rest (the header against the puzzle's own).
pub struct Recorded {
    key: String,
    fields: Vec<(&'static str, String)>,
    entries: u64,
}

impl Recorded {
    /// The table named `key` whose header has `fields`, if they are a defined puzzle's.
    pub fn from_header(key: &str, fields: &[(String, String)]) -> Option<Recorded> {
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        if !field("puzzle")?.starts_with("ksolve ") {
            return None;
        }
        let described = ["puzzle", "pattern", "moves", "ranking"]
            .into_iter()
            .map(|name| Some((name, field(name)?)))
            .collect::<Option<_>>()?;
        Some(Recorded {
            key: key.to_string(),
            fields: described,
            entries: field("entries")?.parse().ok()?,
        })
    }
}

impl Spec for Recorded {
    fn key(&self) -> String {
        self.key.clone()
    }

    fn describe(&self) -> Vec<(&'static str, String)> {
        self.fields.clone()
    }

    fn entries(&self) -> u64 {
        self.entries
    }

    fn entry_format(&self) -> &'static str {
        ENTRY_FORMAT
    }

    /// Not known from the header: `check` counts the 0s instead.
    fn goal_entry(&self) -> u64 {
        0
    }

    fn check(&self, _: &[u8], zeros: u64) -> Result<(), String> {
        match zeros {
            1 => Ok(()),
            _ => Err(format!(
                "{zeros} entries are 0, where only the goal's may be"
            )),
        }
    }

    fn build(&self, _: &(dyn Fn(u64) + Sync), _: &AtomicBool) -> Result<Vec<u8>, Unbuilt> {
        Err(Unbuilt::Refused(format!(
            "{}: a defined puzzle's database is built by a run that uses it (idabench run or solve with --puzzle)",
            self.key
        )))
    }

    fn build_memory(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::super::definition::parse;
    use super::super::{KsolveHeuristic, Position};
    use super::*;
    use crate::domains::{DomainKind, HeuristicKind, HeuristicSet};
    use crate::search::{
        ida_star, replay, Domain, Heuristic, Limits, Outcome, Prune, Step, Variant,
    };
    use crate::util::rng::Rng;
    use std::sync::Arc;

    fn puzzle(file: &str, metric: Metric) -> Ksolve {
        let text =
            std::fs::read_to_string(format!("{}/puzzles/{file}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        Ksolve::new(&parse(&text).unwrap(), metric, file).unwrap()
    }

    fn scrambled(d: &Ksolve, moves: u32, rng: &mut Rng) -> Position {
        d.scramble(moves, |n| rng.below(n)).0
    }

    /// Ranks are a bijection onto 0..entries, with or without the last piece's slot and turn.
    #[test]
    fn ranks_and_unranks_agree_on_every_entry() {
        let cube = puzzle("3x3x3.tws", Metric::Half);
        let spin = puzzle("topspin-8-4.tws", Metric::Half);
        for (d, name, entries) in [
            (&cube, "pdb-EDGES.1-3", 12 * 11 * 10 * 8),
            (&cube, "pdb-CORNERS.2_5", 8 * 7 * 9),
            (&spin, "pdb-TOKENS", 40320),
            (&spin, "pdb-TOKENS.1_3-4_8", 8 * 7 * 6 * 5),
        ] {
            let p = Pattern::new(d, name).unwrap();
            assert_eq!(p.entries(), entries, "{name}");
            let (mut at, mut turn) = ([0u8; MAX_PIECES], [0u8; MAX_PIECES]);
            for r in 0..entries {
                p.unrank(r, &mut at, &mut turn);
                assert_eq!(p.rank(&at, &turn), r, "{name}");
            }
            assert_eq!(p.rank_of(&d.solved(), None), p.goal_entry(), "{name}");
        }
        // Korf's corner database: the eighth corner's slot and twist follow from the others'.
        assert_eq!(
            Pattern::new(&cube, "pdb-CORNERS").unwrap().entries(),
            88_179_840
        );
        assert_eq!(
            Pattern::new(&cube, "pdb-EDGES.1-6").unwrap().entries(),
            42_577_920
        );
    }

    /// A placement ranked from the parent and the move is the child's; entries of neighbours
    /// differ by one at most (consistent), on 3x3x3 patterns in both metrics.
    #[test]
    fn lookups_after_a_move_are_the_childs_and_consistent() {
        for metric in Metric::ALL {
            let d = puzzle("3x3x3.tws", metric);
            for name in ["pdb-CORNERS.1-4", "pdb-EDGES.5-8", "pdb-EDGES.1_12"] {
                let p = Pattern::new(&d, name).unwrap();
                let table = p.search(&|_| {}, &AtomicBool::new(false)).unwrap();
                assert!(
                    !table.contains(&UNSEEN),
                    "{name}: every placement is reachable"
                );
                let mut rng = Rng::new(29);
                for _ in 0..200 {
                    let s = scrambled(&d, 12, &mut rng);
                    let h = table[p.rank_of(&s, None) as usize];
                    for &m in d.moves(&s) {
                        let mut t = s.clone();
                        d.apply(&mut t, m);
                        let child = p.rank_of(&t, None);
                        assert_eq!(p.rank_of(&s, Some(m)), child, "{name}");
                        assert!(table[child as usize].abs_diff(h) <= 1, "{name}");
                    }
                }
            }
        }
    }

    /// The same table on one thread as on two.
    #[test]
    fn builds_alike_on_any_number_of_threads() {
        let d = puzzle("3x3x3.tws", Metric::Quarter);
        let p = Pattern::new(&d, "pdb-EDGES.1-4").unwrap();
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| p.search(&|_| {}, &AtomicBool::new(false)).unwrap())
        };
        let one = on(1);
        assert_eq!(one, on(2));
        assert_eq!(one.iter().filter(|&&e| e == 0).count(), 1);
    }

    /// Searches with databases find the lengths `misplaced` finds, on short scrambles.
    #[test]
    fn searches_with_databases_are_optimal() {
        let d = Arc::new(puzzle("3x3x3.tws", Metric::Half));
        let parts = [
            KsolveHeuristic::Pdb("pdb-CORNERS.1-4"),
            KsolveHeuristic::Pdb("pdb-EDGES.1-4"),
            KsolveHeuristic::Misplaced,
        ];
        let dbs = super::super::databases(&d, "test-max-databases", &parts);
        let misplaced = super::super::Misplaced::of(&d);
        let next = Variant {
            step: Step::Next,
            prune: Prune::Reverse,
        };
        let mut rng = Rng::new(5);
        for _ in 0..12 {
            let s = scrambled(&d, 5, &mut rng);
            let a = ida_star(&*d, dbs, &s, next, Limits::default());
            let b = ida_star(&*d, &misplaced, &s, next, Limits::default());
            let (Outcome::Solved(pa), Outcome::Solved(pb)) = (a.outcome, b.outcome) else {
                panic!("unsolved");
            };
            assert!(replay(&*d, &s, &pa));
            assert_eq!(pa.len(), pb.len());
            assert!(a.stats.generated <= b.stats.generated);
            assert!(dbs.estimate(dbs.init(&d, &s)) <= pa.len() as u32);
        }
    }

    /// Pattern names parse for defined puzzles and never take a tiles heuristic's name; patterns a
    /// puzzle does not have are refused saying why.
    #[test]
    fn names_are_checked() {
        for name in ["pdb-CORNERS", "pdb-EDGES.1-6", "pdb-x.y"] {
            assert_eq!(
                KsolveHeuristic::parse(name),
                Some(KsolveHeuristic::Pdb(name))
            );
            let h = HeuristicKind::parse_checked(name).unwrap();
            assert!(DomainKind::Ksolve.accepts(h) && !DomainKind::Tiles.accepts(h));
        }
        for name in [
            "pdb-555",
            "pdb-78z",
            "pdb-",
            "pdb-A+reflect",
            "pdb-A:B",
            "pdb-A B",
        ] {
            assert_eq!(KsolveHeuristic::parse(name), None, "{name}");
        }
        let max = HeuristicKind::parse_checked("max:pdb-CORNERS:pdb-EDGES.1-6").unwrap();
        assert!(DomainKind::Ksolve.accepts(max));
        let d = puzzle("3x3x3.tws", Metric::Half);
        for (name, says) in [
            (
                "pdb-FACES",
                "3x3x3.tws has no set 'FACES' (its sets: EDGES, CORNERS)",
            ),
            ("pdb-EDGES.0-3", "'0' is not a piece number from 1 to 12"),
            ("pdb-EDGES.5-3", "range '5-3' runs backwards"),
            ("pdb-EDGES.1_1", "piece 1 is chosen twice"),
            (
                "pdb-EDGES",
                "have 9.810e11 entries, more than 17179869184 (12 of the 12 pieces of set 'EDGES'",
            ),
        ] {
            let why = Pattern::new(&d, name).unwrap_err();
            assert!(
                why.starts_with(&format!("{name}: ")) && why.contains(says),
                "{why}"
            );
        }
        let text = "Set RING 4 1\nSolved\nRING\n1 1 2 2\nEnd\nMove T\nRING\n2 3 4 1\nEnd\n";
        let ring = Ksolve::new(&parse(text).unwrap(), Metric::Half, "ring").unwrap();
        let why = Pattern::new(&ring, "pdb-RING.1").unwrap_err();
        assert!(
            why.contains("piece 1 of set 'RING' is in more than one slot"),
            "{why}"
        );
        let why = Pattern::new(&ring, "pdb-RING.3").unwrap_err();
        assert!(
            why.contains("set 'RING' has no piece 3 in the solved position"),
            "{why}"
        );
    }
}
