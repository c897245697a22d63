//! A permutation puzzle defined by a KSolve/twsearch file (`definition`): the state is the piece
//! and the turn in each slot, a move is a power of a defined move (`R`, `R2`, `R'`), and the goal
//! is the file's solved position.
//!
//! In the half-turn metric (twsearch's default) every power is one move; in the quarter metric
//! only the defined moves and their inverses are, as `--metric quarter` asks. Pieces of one set
//! that the solved position does not tell apart (colours) are kept by their solved label, so that
//! two positions that look alike are one state.
//!
//! A move is applied in place along its cycles of slots, with nothing allocated: the state is two
//! fixed arrays of `MAX_SLOTS` bytes.

pub mod databases;
pub mod definition;
pub mod group;
pub mod pattern;

use super::cost::CostModel;
use super::{Family, FieldError, HeuristicSet, PrepareError, UseSearch};
use crate::search::fsm::Moves;
use crate::search::{Domain, Heuristic, Zero};
use crate::tables::store::{self, TableInfo};
use crate::util::text::shorten;
use databases::Databases;
use definition::{DefError, Definition};
use pattern::Pattern;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The most slots of all sets together (a 4x4x4's 56 fit, a megaminx's 62).
pub const MAX_SLOTS: usize = 128;

/// Which powers of the defined moves are one move each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Every power (`R`, `R2`, `R'`): the half-turn metric on cubes, twsearch's default.
    Half,
    /// The defined moves and their inverses (`R`, `R'`) only.
    Quarter,
}

impl Metric {
    pub const ALL: [Metric; 2] = [Metric::Half, Metric::Quarter];

    pub fn name(self) -> &'static str {
        match self {
            Metric::Half => "half",
            Metric::Quarter => "quarter",
        }
    }

    pub fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The piece in each slot (its solved label) and how far it is turned; slots past the puzzle's
/// hold 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    piece: [u8; MAX_SLOTS],
    turn: [u8; MAX_SLOTS],
}

/// One slot a move changes: it takes the piece of slot `from`, turned by `turn` more (mod
/// `omod`). A move's touches are listed cycle by cycle, each slot taking from the next, and the
/// `last` of a cycle from its first.
#[derive(Clone, Copy, Debug)]
struct Touch {
    slot: u8,
    from: u8,
    turn: u8,
    omod: u8,
    last: bool,
}

// `add` sums two turns in a byte.
const _: () = assert!(2 * (definition::MAX_OMOD as usize - 1) <= u8::MAX as usize);

/// `a + b` below `omod`, both below it already.
#[inline(always)]
fn add(a: u8, b: u8, omod: u8) -> u8 {
    let x = a + b;
    if x >= omod {
        x - omod
    } else {
        x
    }
}

/// The next `set.size` numbers of `words`, each below `below` (`what`: pieces or turns).
fn numbers<'w>(
    words: &mut impl Iterator<Item = &'w str>,
    set: &SetSlots,
    what: &str,
    below: usize,
) -> Result<Vec<u8>, String> {
    (0..set.size)
        .map(|k| {
            let w = words.next().ok_or_else(|| {
                format!(
                    "set '{}': {what} {} of {} is missing",
                    set.name,
                    k + 1,
                    set.size
                )
            })?;
            w.parse::<usize>()
                .ok()
                .filter(|&x| x < below)
                .map(|x| x as u8)
                .ok_or_else(|| {
                    format!(
                        "set '{}': {what} {} '{}' is not a number below {below}",
                        set.name,
                        k + 1,
                        shorten(w)
                    )
                })
        })
        .collect()
}

/// A set's name, first slot, size and orientation count.
struct SetSlots {
    name: String,
    first: usize,
    size: usize,
    omod: u8,
}

/// A defined puzzle under a metric, with the tables the search reads.
pub struct Ksolve {
    name: String,
    metric: Metric,
    slots: usize,
    sets: Vec<SetSlots>,
    /// Every power of every defined move, in file order, each move's clockwise powers first.
    names: Vec<String>,
    /// The touches of power `k`: `touches[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    touches: Vec<Touch>,
    /// The power that undoes each power.
    inverse: Vec<u16>,
    /// Each power's defined move (its index in the file).
    base: Vec<u16>,
    /// The powers that are moves in the metric, in order, and their labels (their index here).
    moves: Vec<u16>,
    labels: Vec<u16>,
    /// Each slot's orientation count.
    omod: Vec<u8>,
    goal: Position,
    /// The most slots one move changes.
    most_touched: u32,
    /// The group of the moves, made when first asked for.
    group: std::sync::OnceLock<group::Group>,
}

impl Ksolve {
    /// The puzzle of definition `def` under `metric`, named `name`. Refused, naming the line:
    /// more than `MAX_SLOTS` slots (so that a slot and a piece are bytes), two powers of one
    /// name (a move named `R2` beside `R`), 65,535 powers or more.
    pub fn new(def: &Definition, metric: Metric, name: &str) -> Result<Ksolve, DefError> {
        let mut slots = 0;
        let mut offsets = Vec::with_capacity(def.sets.len());
        for set in &def.sets {
            offsets.push(slots);
            slots += set.size;
            if slots > MAX_SLOTS {
                return Err(DefError {
                    line: set.line,
                    message: format!(
                        "set `{}` brings the slots to {slots}: at most {MAX_SLOTS} in all",
                        set.name
                    ),
                });
            }
        }
        let powers = def.powers()?;
        // Power u16::MAX is the search's "no move".
        if powers.len() >= usize::from(u16::MAX) {
            return Err(DefError {
                line: def.moves.last().map_or(1, |m| m.line),
                message: format!("{} powers of moves, at most {}", powers.len(), u16::MAX - 1),
            });
        }
        let mut names: Vec<String> = Vec::with_capacity(powers.len());
        let mut seen = std::collections::HashSet::with_capacity(powers.len());
        for p in &powers {
            if !seen.insert(p.name.as_str()) {
                return Err(DefError {
                    line: def.moves[p.base].line,
                    message: format!(
                        "two moves are named `{}` (a move and a power of one)",
                        p.name
                    ),
                });
            }
            names.push(p.name.clone());
        }
        let mut omod = vec![1u8; slots];
        for (s, set) in def.sets.iter().enumerate() {
            omod[offsets[s]..offsets[s] + set.size].fill(set.omod);
        }
        let mut starts = vec![0u32];
        let mut touches = Vec::new();
        for p in &powers {
            // Each slot's source and turn, over all sets.
            let mut from = vec![0usize; slots];
            let mut turn = vec![0u8; slots];
            for (s, set) in def.sets.iter().enumerate() {
                for j in 0..set.size {
                    from[offsets[s] + j] = offsets[s] + usize::from(p.effect.perm[s][j]);
                    turn[offsets[s] + j] = p.effect.ori[s][j];
                }
            }
            let mut done = vec![false; slots];
            for first in 0..slots {
                if done[first] || (from[first] == first && turn[first] == 0) {
                    continue;
                }
                let mut at = first;
                loop {
                    done[at] = true;
                    let last = from[at] == first;
                    touches.push(Touch {
                        slot: at as u8,
                        from: from[at] as u8,
                        turn: turn[at],
                        omod: omod[at],
                        last,
                    });
                    if last {
                        break;
                    }
                    at = from[at];
                }
            }
            starts.push(touches.len() as u32);
        }
        // A move's powers 1 to order - 1 come one after the other: power k is undone by power
        // order - k.
        let mut first = vec![0usize; def.moves.len()];
        let mut order = vec![1i32; def.moves.len()];
        for (k, p) in powers.iter().enumerate().rev() {
            first[p.base] = k;
            order[p.base] += 1;
        }
        let inverse = powers
            .iter()
            .map(|p| {
                let n = order[p.base];
                let power = if p.amount > 0 { p.amount } else { n + p.amount };
                (first[p.base] + (n - power) as usize - 1) as u16
            })
            .collect();
        let base = powers.iter().map(|p| p.base as u16).collect();
        let moves: Vec<u16> = (0..powers.len() as u16)
            .filter(|&k| metric == Metric::Half || powers[usize::from(k)].amount.abs() == 1)
            .collect();
        let labels = (0..moves.len() as u16).collect();
        let most_touched = moves
            .iter()
            .map(|&k| starts[usize::from(k) + 1] - starts[usize::from(k)])
            .max()
            .unwrap_or(0);
        let mut goal = Position {
            piece: [0; MAX_SLOTS],
            turn: [0; MAX_SLOTS],
        };
        for (s, set) in def.sets.iter().enumerate() {
            for j in 0..set.size {
                goal.piece[offsets[s] + j] = def.solved.perm[s][j] as u8;
                goal.turn[offsets[s] + j] = def.solved.ori[s][j];
            }
        }
        let sets = def
            .sets
            .iter()
            .zip(&offsets)
            .map(|(set, &first)| SetSlots {
                name: set.name.clone(),
                first,
                size: set.size,
                omod: set.omod,
            })
            .collect();
        Ok(Ksolve {
            name: name.to_string(),
            metric,
            slots,
            sets,
            names,
            starts,
            touches,
            inverse,
            base,
            moves,
            labels,
            omod,
            goal,
            most_touched,
            group: std::sync::OnceLock::new(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The solved position.
    pub fn solved(&self) -> Position {
        self.goal.clone()
    }

    /// A scramble: the position after `moves` moves of the metric from the solved one, each
    /// drawn by `below(n)` (a number below `n`) among those that are no power of the move
    /// before (`U` never follows `U'`, nor `U2` `U`), and the moves as a sequence.
    pub fn scramble(&self, moves: u32, mut below: impl FnMut(u64) -> u64) -> (Position, String) {
        let mut s = self.solved();
        let mut path = Vec::new();
        let mut last: Option<u16> = None;
        for _ in 0..moves {
            let choices: Vec<u16> = self
                .moves
                .iter()
                .copied()
                .filter(|&m| {
                    last.is_none_or(|l| self.base[usize::from(m)] != self.base[usize::from(l)])
                })
                .collect();
            // A puzzle of one defined move has no other to follow it.
            if choices.is_empty() {
                break;
            }
            let m = choices[below(choices.len() as u64) as usize];
            self.apply(&mut s, m);
            path.push(m);
            last = Some(m);
        }
        (s, self.path_string(&self.goal, &path))
    }

    /// The position that `sequence` (power names separated by blanks, any power in either
    /// metric) reaches from the solved one, or the first name that is no move.
    pub fn after(&self, sequence: &str) -> Result<Position, String> {
        let mut s = self.solved();
        for (i, name) in sequence.split_whitespace().enumerate() {
            let Some(k) = self.names.iter().position(|n| n == name) else {
                return Err(format!(
                    "move {} '{}' is not a move of {} (its moves: {})",
                    i + 1,
                    shorten(name),
                    self.name,
                    self.names.join(" ")
                ));
            };
            self.apply(&mut s, k as u16);
        }
        Ok(s)
    }

    /// A start: a move sequence from the solved position (`R U2 F'`), or a position written as
    /// `tokens` writes it (each set's name, its pieces by their solved numbers, and `/` and
    /// their turns where the set has any).
    pub fn start(&self, text: &str) -> Result<Position, String> {
        match text.split_whitespace().next() {
            Some(first) if self.sets.iter().any(|set| set.name == first) => self.position(text),
            _ => self.after(text),
        }
    }

    /// A position as `tokens` writes it: every set, in the file's order.
    fn position(&self, text: &str) -> Result<Position, String> {
        let mut words = text.split_whitespace().peekable();
        let mut s = self.solved();
        for set in &self.sets {
            match words.next() {
                Some(w) if w == set.name => {}
                Some(w) => {
                    return Err(format!(
                        "expected set '{}' next, found '{}' (a position lists every set in the file's order)",
                        set.name,
                        shorten(w)
                    ))
                }
                None => return Err(format!("set '{}' is missing", set.name)),
            }
            let slots = set.first..set.first + set.size;
            let pieces = numbers(&mut words, set, "piece", set.size + 1)?;
            let mut mine: Vec<u8> = pieces.iter().map(|p| p.wrapping_sub(1)).collect();
            let mut solved = self.goal.piece[slots.clone()].to_vec();
            mine.sort_unstable();
            solved.sort_unstable();
            if mine != solved {
                return Err(format!(
                    "set '{}': the pieces are not those of the solved position (each as often)",
                    set.name
                ));
            }
            for (slot, p) in slots.clone().zip(&pieces) {
                s.piece[slot] = p - 1;
            }
            if words.peek() == Some(&"/") {
                words.next();
                let turns = numbers(&mut words, set, "turn", usize::from(set.omod))?;
                s.turn[slots].copy_from_slice(&turns);
            } else if set.omod > 1 {
                // Left out, they would be read as some turns: a position is written whole.
                return Err(format!(
                    "set '{}': its {} turns are missing: write / and a turn for each piece",
                    set.name, set.size
                ));
            } else {
                s.turn[slots].fill(0);
            }
        }
        if let Some(w) = words.next() {
            return Err(format!("'{}' after the last set", shorten(w)));
        }
        if self.reachable(&s) == Some(false) {
            return Err(format!(
                "no sequence of {}'s moves reaches this position from the solved one (it is not in the group the moves generate)",
                self.name
            ));
        }
        Ok(s)
    }

    /// The pieces, then the turns, of the puzzle's slots (`Family::Start`).
    pub fn packed(&self, s: &Position) -> Box<[u8]> {
        s.piece[..self.slots]
            .iter()
            .chain(&s.turn[..self.slots])
            .copied()
            .collect()
    }

    /// Every position the moves reach from the solved one, in order of distance (a BFS), with
    /// its distance; `None` when there are more than `most` positions (found before any is
    /// handed on).
    pub fn every_position(&self, most: usize) -> Option<Vec<(Box<[u8]>, u32)>> {
        let solved = self.solved();
        let mut seen: std::collections::HashSet<Box<[u8]>> =
            std::collections::HashSet::from([self.packed(&solved)]);
        let mut out = vec![(self.packed(&solved), 0)];
        let mut from = 0;
        while from < out.len() {
            let (key, depth) = out[from].clone();
            from += 1;
            let s = self.unpack(&key);
            for &m in &self.moves {
                let mut t = s.clone();
                self.apply(&mut t, m);
                let packed = self.packed(&t);
                if !seen.contains(&packed) {
                    if out.len() == most {
                        return None;
                    }
                    seen.insert(packed.clone());
                    out.push((packed, depth + 1));
                }
            }
        }
        Some(out)
    }

    /// Slot `i`'s piece (its solved label, from 0) and turn.
    pub fn slot(&self, s: &Position, i: usize) -> (u8, u8) {
        (s.piece[i], s.turn[i])
    }

    /// The touches of power `k`.
    #[inline(always)]
    fn touches(&self, k: u16) -> &[Touch] {
        let k = usize::from(k);
        &self.touches[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// The group the moves generate, acting on the (slot, turn) points of `point_permutations`
    /// (the same in both metrics).
    pub fn group(&self) -> &group::Group {
        self.group.get_or_init(|| {
            let points = self.point_starts()[self.slots];
            group::Group::new(points, &self.point_permutations())
        })
    }

    /// Whether the moves reach `s` from the solved position; `None` where the solved position
    /// repeats a piece, so that `s` is no one element of the group.
    pub fn reachable(&self, s: &Position) -> Option<bool> {
        let first = self.point_starts();
        let mut g = vec![0u16; first[self.slots]];
        // Each solved label's slot, in the set at hand.
        let mut home = [usize::MAX; MAX_SLOTS];
        for set in &self.sets {
            home[..set.size].fill(usize::MAX);
            for slot in set.first..set.first + set.size {
                let label = usize::from(self.goal.piece[slot]);
                if home[label] != usize::MAX {
                    return None;
                }
                home[label] = slot;
            }
            // The piece in each slot came from its solved slot: each of its turns' points went
            // to this slot's, shifted alike.
            let omod = usize::from(set.omod);
            for slot in set.first..set.first + set.size {
                let h = home[usize::from(s.piece[slot])];
                for x in 0..omod {
                    let at = (usize::from(self.goal.turn[h]) + x) % omod;
                    let to = (usize::from(s.turn[slot]) + x) % omod;
                    g[first[h] + at] = (first[slot] + to) as u16;
                }
            }
        }
        Some(self.group().contains(&g))
    }

    /// The position group element `g` (a permutation of the points) makes of the solved one:
    /// the piece of each slot goes where `g` takes its solved turn's point.
    pub fn position_of(&self, g: &[u16]) -> Position {
        let first = self.point_starts();
        let mut s = self.solved();
        for i in 0..self.slots {
            let to = usize::from(g[first[i] + usize::from(self.goal.turn[i])]);
            let slot = first.partition_point(|&f| f <= to) - 1;
            s.piece[slot] = self.goal.piece[i];
            s.turn[slot] = (to - first[slot]) as u8;
        }
        s
    }

    /// Each slot's first (slot, turn) point, a point per turn, and the number of points last.
    fn point_starts(&self) -> Vec<usize> {
        let mut first = vec![0usize; self.slots + 1];
        for i in 0..self.slots {
            first[i + 1] = first[i] + usize::from(self.omod[i]);
        }
        first
    }

    /// Each move in the metric as a permutation of (slot, turn) points, in the order of
    /// `Domain::moves`: two sequences that agree on every point agree on every position.
    pub fn point_permutations(&self) -> Vec<Vec<u16>> {
        let first = self.point_starts();
        self.moves
            .iter()
            .map(|&k| {
                let mut to: Vec<u16> = (0..first[self.slots] as u16).collect();
                for t in self.touches(k) {
                    let (from, slot) = (usize::from(t.from), usize::from(t.slot));
                    for o in 0..t.omod {
                        to[first[from] + usize::from(o)] =
                            (first[slot] + usize::from(add(o, t.turn, t.omod))) as u16;
                    }
                }
                to
            })
            .collect()
    }
}

impl Domain for Ksolve {
    type State = Position;
    /// A power's index among all powers.
    type Move = u16;
    const NO_MOVE: u16 = u16::MAX;

    #[inline(always)]
    fn moves<'a>(&'a self, _: &Position) -> &'a [u16] {
        &self.moves
    }

    #[inline(always)]
    fn labels<'a>(&'a self, _: &Position) -> &'a [u16] {
        &self.labels
    }

    #[inline(always)]
    fn inverse(&self, _: &Position, m: u16) -> u16 {
        self.inverse[usize::from(m)]
    }

    #[inline(always)]
    fn apply(&self, s: &mut Position, m: u16) {
        let t = self.touches(m);
        let mut i = 0;
        while i < t.len() {
            let first = usize::from(t[i].slot);
            let (piece, turn) = (s.piece[first], s.turn[first]);
            loop {
                let c = t[i];
                let slot = usize::from(c.slot);
                let (p, o) = if c.last {
                    (piece, turn)
                } else {
                    let from = usize::from(c.from);
                    (s.piece[from], s.turn[from])
                };
                s.piece[slot] = p;
                s.turn[slot] = add(o, c.turn, c.omod);
                i += 1;
                if c.last {
                    break;
                }
            }
        }
    }

    #[inline(always)]
    fn is_goal(&self, s: &Position) -> bool {
        *s == self.goal
    }

    fn solution_parity(&self, _: &Position) -> Option<u32> {
        None
    }

    fn path_string(&self, _: &Position, path: &[u16]) -> String {
        let names: Vec<&str> = path
            .iter()
            .map(|&m| self.names[usize::from(m)].as_str())
            .collect();
        names.join(" ")
    }
}

/// The slots whose piece or turn is not the solved one, divided by the most slots one move
/// changes (rounded up): a move changes no other slot, so it mends at most that many.
pub struct Misplaced {
    most: u32,
}

impl Misplaced {
    /// The bound for `d`'s moves.
    pub fn of(d: &Ksolve) -> Misplaced {
        Misplaced {
            most: d.most_touched.max(1),
        }
    }

    #[inline(always)]
    fn wrong(d: &Ksolve, slot: usize, piece: u8, turn: u8) -> u32 {
        (piece != d.goal.piece[slot] || turn != d.goal.turn[slot]) as u32
    }
}

impl Heuristic<Ksolve> for Misplaced {
    /// The misplaced slots.
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Ksolve, s: &Position) -> u32 {
        (0..d.slots)
            .map(|i| Self::wrong(d, i, s.piece[i], s.turn[i]))
            .sum()
    }

    #[inline(always)]
    fn update(&self, d: &Ksolve, s: &Position, m: u16, v: u32) -> u32 {
        let mut v = v;
        for t in d.touches(m) {
            let (slot, from) = (usize::from(t.slot), usize::from(t.from));
            v -= Self::wrong(d, slot, s.piece[slot], s.turn[slot]);
            v += Self::wrong(d, slot, s.piece[from], add(s.turn[from], t.turn, t.omod));
        }
        v
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v.div_ceil(self.most)
    }
}

/// A definition file read for a dataset or the command line: the puzzle it defines under one
/// metric, and the file's SHA-256 (the manifest's, checked by resume, merge and compare).
#[derive(Clone)]
pub struct PuzzleFile {
    /// The path as the dataset or the command line wrote it.
    pub shown: String,
    pub sha256: String,
    pub domain: Arc<Ksolve>,
}

/// The largest definition file read.
const MAX_FILE: u64 = 16 << 20;

impl PuzzleFile {
    /// Reads the definition at `path` (written `shown` where it was given) under `metric`; the
    /// puzzle is named after the file (`puzzles/2x2x2.tws`: `2x2x2`). An error names the file,
    /// and the line where the definition is at fault. Puzzles of one file content, name and
    /// metric share one domain in the whole process, so that their tables are built once.
    pub fn read(path: &Path, shown: &str, metric: Metric) -> Result<PuzzleFile, String> {
        let at = |e: &dyn std::fmt::Display| format!("{shown}: {e}");
        let size = std::fs::metadata(path)
            .map_err(|e| {
                let resolved = path.display().to_string();
                if resolved == shown {
                    at(&e)
                } else {
                    at(&format!("{e} (read as {resolved})"))
                }
            })?
            .len();
        if size > MAX_FILE {
            return Err(at(&format!("{size} bytes, at most {MAX_FILE}")));
        }
        let bytes = std::fs::read(path).map_err(|e| at(&e))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| at(&"not UTF-8 text"))?;
        let sha256 = crate::util::format::hex(&Sha256::digest(&bytes));
        /// Each domain made, by its file's SHA-256, metric and name.
        type Made = Vec<((String, Metric, String), Arc<Ksolve>)>;
        static SHARED: Mutex<Made> = Mutex::new(Vec::new());
        // Named by the file, not by its `Name` line (twsearch's generated files all say
        // `PuzzleGeometryPuzzle`).
        let name = path
            .file_stem()
            .map_or_else(|| shown.to_string(), |s| s.to_string_lossy().into_owned());
        let key = (sha256.clone(), metric, name.clone());
        // Nothing is left half-made by a panic while the lock is held.
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        let domain = match shared.iter().find(|(k, _)| *k == key) {
            Some((_, d)) => Arc::clone(d),
            None => {
                let located = |e: DefError| format!("{shown}:{}: {}", e.line, e.message);
                let def = definition::parse(text).map_err(located)?;
                let d = Arc::new(Ksolve::new(&def, metric, &name).map_err(located)?);
                shared.push((key, Arc::clone(&d)));
                d
            }
        };
        Ok(PuzzleFile {
            shown: shown.to_string(),
            sha256,
            domain,
        })
    }
}

/// The heuristics of a defined puzzle: two of its own, and a pattern database of any pieces of
/// one set, named as `pattern` says (`pdb-CORNERS`, `pdb-EDGES.1-6`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KsolveHeuristic {
    Misplaced,
    Zero,
    /// By its name (kept for the process, as `HeuristicKind` keeps names).
    Pdb(&'static str),
}

impl HeuristicSet for KsolveHeuristic {
    const ALL: &'static [KsolveHeuristic] = &[KsolveHeuristic::Misplaced, KsolveHeuristic::Zero];
    const TEMPLATES: &'static [(&'static str, &'static str)] = &[(
        "pdb-SET[.PIECES]",
        "a pattern database of the set's pieces (of PIECES only: 1-6, 1_3_5-7, by their solved numbers)",
    )];

    fn name(self) -> &'static str {
        match self {
            KsolveHeuristic::Misplaced => "misplaced",
            KsolveHeuristic::Zero => "zero",
            KsolveHeuristic::Pdb(name) => name,
        }
    }

    fn about(self) -> &'static str {
        match self {
            KsolveHeuristic::Misplaced => "the slots whose piece or turn is wrong, over the most slots one move changes, rounded up",
            KsolveHeuristic::Zero => "none: blind iterative deepening",
            KsolveHeuristic::Pdb(_) => "a pattern database of chosen pieces of one set",
        }
    }

    /// Also any well-formed pattern name that is not a compiled-in puzzle's (the tiles' `pdb-555`,
    /// `pdb-78z`): whether the puzzle has that set and those pieces is known once it is read.
    fn parse(name: &str) -> Option<KsolveHeuristic> {
        if let Some(&h) = Self::ALL.iter().find(|h| h.name() == name) {
            return Some(h);
        }
        let tiles = <super::tiles::TilesHeuristic as HeuristicSet>::parse(name);
        (pattern::well_formed(name) && tiles.is_none())
            .then(|| KsolveHeuristic::Pdb(super::max::intern(name)))
    }
}

/// Why a row of domain ksolve has no puzzle.
fn no_file() -> FieldError {
    (
        "puzzle",
        "domain 'ksolve' reads its puzzle from a definition file: give the puzzle column (a path \
         relative to the dataset) or --puzzle FILE"
            .to_string(),
    )
}

impl Family for Ksolve {
    const NAME: &'static str = "ksolve";
    const SIZE_HELP: &'static str =
        "the puzzle's name and metric, from its definition file (leave it empty)";
    const STATE_HELP: &'static str =
        "a move sequence from the solved position (R U2 F'), or a position: each set's name, its pieces and / and their turns (the puzzle from --puzzle FILE)";
    type Heuristics = KsolveHeuristic;
    /// The pieces, then the turns, of the puzzle's slots: a `Position` is sized for the largest.
    type Start = Box<[u8]>;

    fn unpack(&self, start: &Box<[u8]>) -> Position {
        let mut s = self.solved();
        s.piece[..self.slots].copy_from_slice(&start[..self.slots]);
        s.turn[..self.slots].copy_from_slice(&start[self.slots..]);
        s
    }

    fn instance(
        _size: Option<&str>,
        _start: &str,
        _goal: Option<&str>,
    ) -> Result<(Arc<Ksolve>, Box<[u8]>), FieldError> {
        Err(no_file())
    }

    fn instance_from(
        file: Option<&PuzzleFile>,
        size: Option<&str>,
        start: &str,
        goal: Option<&str>,
    ) -> Result<(Arc<Ksolve>, Box<[u8]>), FieldError> {
        super::no_goal(Self::NAME, goal)?;
        let file = file.ok_or_else(no_file)?;
        let d = &file.domain;
        super::stated_size(size, &d.size(), format_args!("the puzzle is {}", d.size()))?;
        let s = d.start(start).map_err(|e| ("start", e))?;
        Ok((Arc::clone(d), d.packed(&s)))
    }

    fn size(&self) -> String {
        format!("{}-{}", self.name, self.metric.name())
    }

    /// Chosen by measurement on the 2x2x2, and kept small for puzzles of many more moves
    /// (docs/ksolve.md, "Heuristics and pruning").
    const FSM_DEPTH: u32 = 4;

    fn fsm_moves(&self) -> Moves {
        Moves::Permutations(self.point_permutations())
    }

    /// Every set's name, its pieces (by their solved numbers, from 1) and, where it has turns,
    /// `/` and the turns.
    fn tokens(&self, s: &Position) -> String {
        let mut out = Vec::new();
        for set in &self.sets {
            out.push(set.name.clone());
            let slots = set.first..set.first + set.size;
            out.extend(s.piece[slots.clone()].iter().map(|p| (p + 1).to_string()));
            if set.omod > 1 {
                out.push("/".into());
                out.extend(s.turn[slots].iter().map(u8::to_string));
            }
        }
        out.join(" ")
    }

    fn generator_goal(_size: Option<&str>) -> Result<(String, String), FieldError> {
        Err((
            "puzzle",
            "domain 'ksolve' generates from its definition file: generate --puzzle FILE".into(),
        ))
    }

    fn with_heuristic<V: UseSearch>(
        d: &Arc<Ksolve>,
        start: &Position,
        h: KsolveHeuristic,
        visit: V,
    ) -> V::Output {
        match h {
            KsolveHeuristic::Misplaced => visit.with(&**d, start, &Misplaced::of(d)),
            KsolveHeuristic::Zero => visit.with(&**d, start, &Zero),
            KsolveHeuristic::Pdb(name) => visit.with(&**d, start, databases(d, name, &[h])),
        }
    }

    /// `zero` adds nothing to a max. A max of `misplaced` alone is `misplaced`; with databases,
    /// one heuristic reads them all (and counts `misplaced` if named).
    fn with_max<V: UseSearch>(
        d: &Arc<Ksolve>,
        start: &Position,
        parts: &[KsolveHeuristic],
        visit: V,
    ) -> V::Output {
        if !parts.iter().any(|h| matches!(h, KsolveHeuristic::Pdb(_))) {
            debug_assert!(parts.contains(&KsolveHeuristic::Misplaced));
            return Self::with_heuristic(d, start, KsolveHeuristic::Misplaced, visit);
        }
        let names: Vec<&str> = parts.iter().map(|h| h.name()).collect();
        let name = super::max::intern(&format!("{}{}", super::max::PREFIX, names.join(":")));
        visit.with(&**d, start, databases(d, name, parts))
    }

    /// A database's pattern must be one of `d`'s sets and pieces; its table is read from the
    /// store or built there.
    fn prepare(
        d: &Arc<Ksolve>,
        h: KsolveHeuristic,
        _cost: CostModel,
        store: Option<&store::Options>,
    ) -> Result<Vec<TableInfo>, PrepareError> {
        let KsolveHeuristic::Pdb(name) = h else {
            return Ok(Vec::new());
        };
        let p = Pattern::new(d, name).map_err(PrepareError::Unfit)?;
        match store {
            Some(options) => Ok(vec![store::prepare(&p, options)?]),
            None => Ok(Vec::new()),
        }
    }

    fn tables(
        d: &Arc<Ksolve>,
        h: KsolveHeuristic,
        _cost: CostModel,
    ) -> Vec<Box<dyn store::Spec + Send>> {
        match h {
            KsolveHeuristic::Pdb(name) => Pattern::new(d, name)
                .map(|p| vec![Box::new(p) as Box<dyn store::Spec + Send>])
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}

/// The databases of `parts`' patterns (with `misplaced` if a part), as heuristic `name` of `d`,
/// shared by every search of `d`. `Family::prepare` has refused patterns `d` does not have.
fn databases(d: &Arc<Ksolve>, name: &'static str, parts: &[KsolveHeuristic]) -> &'static Databases {
    crate::tables::shared(d, name, |d| {
        let patterns = parts
            .iter()
            .filter_map(|h| match h {
                KsolveHeuristic::Pdb(p) => {
                    Some(Pattern::new(d, p).unwrap_or_else(|e| panic!("{e}")))
                }
                _ => None,
            })
            .collect();
        Databases::new(d, patterns, parts.contains(&KsolveHeuristic::Misplaced))
    })
}

#[cfg(test)]
mod tests;
