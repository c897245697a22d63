//! The search for duplicate move sequences: every sequence of up to the automaton's depth, by
//! length and then by labels, its effect compared with those of the sequences before it.
//!
//! A sequence's effect is what it does to any state, relative to where it starts: on a walk, the
//! blank's displacement and where each cell it touched now takes its content from; for
//! permutations, their composition. Two sequences with one effect reach the same state from any
//! state where both can be played. Sequences are enumerated depth-first once per length, so that
//! only the effects of the last three lengths are kept in memory: when every move has an inverse
//! among the moves, a child of a sequence whose effect is first met at length n - 1 has an effect
//! first met at length n - 2, n - 1 or n, never earlier. (A sequence kept because no earlier one
//! could replace it on a bounded board may have an older effect; its children are then compared
//! with fewer sequences, which prunes less and stays sound.) Effects are kept by a 64-bit hash,
//! not whole: sequences met with one hash are told apart by replaying them.

use super::{Packing, Progress};
use crate::search::fsm::{Automaton, Moves, FORBIDDEN};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The cells a walk visited, relative to its start: the smallest box holding them (min x, min
/// y, max x, max y). Permutations have none: every one can be played from every state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span([i8; 4]);

impl Span {
    const POINT: Span = Span([0; 4]);

    /// True when every cell of `self` lies inside `outer`, so that a sequence spanning `self`
    /// can be played wherever one spanning `outer` can.
    fn within(self, outer: Span) -> bool {
        let ([ax0, ay0, ax1, ay1], [bx0, by0, bx1, by1]) = (self.0, outer.0);
        ax0 >= bx0 && ay0 >= by0 && ax1 <= bx1 && ay1 <= by1
    }

    fn with(self, x: i32, y: i32) -> Span {
        let [x0, y0, x1, y1] = self.0;
        let (x, y) = (x as i8, y as i8);
        Span([x0.min(x), y0.min(y), x1.max(x), y1.max(y)])
    }

    fn width(self) -> i32 {
        i32::from(self.0[2]) - i32::from(self.0[0]) + 1
    }

    fn height(self) -> i32 {
        i32::from(self.0[3]) - i32::from(self.0[1]) + 1
    }
}

/// A sequence met earlier, which can stand for a later one with its effect. Its packed labels
/// are two halves, so that an entry takes 24 bytes, not 32.
#[derive(Clone, Copy, Debug)]
struct Earlier {
    seq: [u64; 2],
    span: Span,
}

impl Earlier {
    fn new(seq: u128, span: Span) -> Earlier {
        Earlier {
            seq: [(seq >> 64) as u64, seq as u64],
            span,
        }
    }

    fn seq(&self) -> u128 {
        (u128::from(self.seq[0]) << 64) | u128::from(self.seq[1])
    }
}

/// The sequences met so far with one effect: the first, and those after it that could not be
/// replaced (on a walk, when no earlier one lay within their span).
enum Met {
    One(Earlier),
    Many(Vec<Earlier>),
}

impl Met {
    fn iter(&self) -> std::slice::Iter<'_, Earlier> {
        match self {
            Met::One(e) => std::slice::from_ref(e).iter(),
            Met::Many(v) => v.iter(),
        }
    }

    fn push(&mut self, e: Earlier) {
        match self {
            Met::One(first) => *self = Met::Many(vec![*first, e]),
            Met::Many(v) => v.push(e),
        }
    }
}

/// The 64-bit hash of an effect: the key effects are kept under. Two effects may share one;
/// `Layer::meet` tells them apart by replaying the sequences met, so no effect is stored.
fn hash(effect: &[u16]) -> u64 {
    let mut h = effect.len() as u64;
    for &v in effect {
        h = (h.rotate_left(5) ^ u64::from(v)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    // Murmur3's finaliser: the table reads the low bits and the top seven.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Keys that are hashes already pass through.
#[derive(Default)]
struct Pass(u64);

impl Hasher for Pass {
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The sequences met, by the hash of their effect.
type Effects = HashMap<u64, Met, BuildHasherDefault<Pass>>;

/// Where the search plays its sequences: it pushes and pops moves, and reads the effect of the
/// sequence on the stack.
trait Space {
    fn labels(&self) -> usize;
    /// Plays `label` when the sequence then still fits; false (and nothing played) otherwise.
    fn push(&mut self, label: usize) -> bool;
    fn pop(&mut self);
    /// The effect of the sequence played, written into `out`.
    fn effect(&mut self, out: &mut Vec<u16>);
    fn span(&self) -> Span;
    /// Whether every move's inverse is one of the moves.
    fn reversible(&self) -> bool;
    /// Whether some sequences cannot be played (a walk within a window): then a count of the
    /// sequences an automaton lets through is no bound on those met.
    fn bounded(&self) -> bool;
    /// The same moves with nothing played.
    fn fresh(&self) -> Self;
}

/// A blank walking on an unbounded board, kept on a square grid wide enough for `depth` steps
/// in any direction; `window` bounds the span of a sequence.
struct Walk {
    steps: Vec<(i32, i32)>,
    side: i32,
    reach: i32,
    /// `grid[cell]`: the cell whose content is now in `cell`.
    grid: Vec<u16>,
    /// The blank's cells, from the start (x, y relative to it).
    path: Vec<(i32, i32)>,
    spans: Vec<Span>,
    window: (i32, i32),
    cells: Vec<u16>,
}

impl Walk {
    fn new(steps: &[(i32, i32)], depth: u32, window: Option<(usize, usize)>) -> Walk {
        let longest = steps
            .iter()
            .map(|&(x, y)| x.abs().max(y.abs()))
            .max()
            .unwrap_or(1);
        let reach = longest * depth as i32;
        let side = 2 * reach + 1;
        let window = window.map_or((i32::MAX, i32::MAX), |(w, h)| (w as i32, h as i32));
        Walk {
            steps: steps.to_vec(),
            side,
            reach,
            grid: (0..(side * side) as u16).collect(),
            path: vec![(0, 0)],
            spans: vec![Span::POINT],
            window,
            cells: Vec::new(),
        }
    }

    fn cell(&self, (x, y): (i32, i32)) -> usize {
        ((y + self.reach) * self.side + x + self.reach) as usize
    }
}

impl Space for Walk {
    fn labels(&self) -> usize {
        self.steps.len()
    }

    fn push(&mut self, label: usize) -> bool {
        let (dx, dy) = self.steps[label];
        let &(x, y) = self.path.last().expect("the start is on the path");
        let to = (x + dx, y + dy);
        let span = self.spans[self.spans.len() - 1].with(to.0, to.1);
        if span.width() > self.window.0 || span.height() > self.window.1 {
            return false;
        }
        let (a, b) = (self.cell((x, y)), self.cell(to));
        self.grid.swap(a, b);
        self.path.push(to);
        self.spans.push(span);
        true
    }

    fn pop(&mut self) {
        let to = self.path.pop().expect("a move to undo");
        self.spans.pop();
        let from = *self.path.last().expect("the start is on the path");
        let (a, b) = (self.cell(from), self.cell(to));
        self.grid.swap(a, b);
    }

    fn effect(&mut self, out: &mut Vec<u16>) {
        // Only cells on the path can have changed.
        out.clear();
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        cells.extend(self.path.iter().map(|&p| self.cell(p) as u16));
        cells.sort_unstable();
        cells.dedup();
        for &c in &cells {
            let from = self.grid[c as usize];
            if from != c {
                out.push(c);
                out.push(from);
            }
        }
        self.cells = cells;
    }

    fn span(&self) -> Span {
        self.spans[self.spans.len() - 1]
    }

    fn reversible(&self) -> bool {
        self.steps
            .iter()
            .all(|&(x, y)| self.steps.contains(&(-x, -y)))
    }

    fn bounded(&self) -> bool {
        self.window != (i32::MAX, i32::MAX)
    }

    fn fresh(&self) -> Walk {
        Walk {
            grid: (0..(self.side * self.side) as u16).collect(),
            path: vec![(0, 0)],
            spans: vec![Span::POINT],
            cells: Vec::new(),
            steps: self.steps.clone(),
            ..*self
        }
    }
}

/// Fixed permutations of positions, composed.
struct Perms {
    perms: Vec<Vec<u16>>,
    /// The composition after each prefix: `stack[k][i]` is where the piece first at `i` is.
    stack: Vec<Vec<u16>>,
}

impl Perms {
    fn new(perms: &[Vec<u16>]) -> Perms {
        let n = perms.first().map_or(0, Vec::len);
        Perms {
            perms: perms.to_vec(),
            stack: vec![(0..n as u16).collect()],
        }
    }
}

impl Space for Perms {
    fn labels(&self) -> usize {
        self.perms.len()
    }

    fn push(&mut self, label: usize) -> bool {
        let p = &self.perms[label];
        let top = &self.stack[self.stack.len() - 1];
        let next = top.iter().map(|&at| p[at as usize]).collect();
        self.stack.push(next);
        true
    }

    fn pop(&mut self) {
        self.stack.pop();
    }

    fn effect(&mut self, out: &mut Vec<u16>) {
        out.clear();
        out.extend_from_slice(&self.stack[self.stack.len() - 1]);
    }

    fn span(&self) -> Span {
        Span::POINT
    }

    fn reversible(&self) -> bool {
        self.perms.iter().all(|p| {
            let mut inverse = vec![0u16; p.len()];
            for (i, &to) in p.iter().enumerate() {
                inverse[to as usize] = i as u16;
            }
            self.perms.contains(&inverse)
        })
    }

    fn bounded(&self) -> bool {
        false
    }

    fn fresh(&self) -> Perms {
        Perms::new(&self.perms)
    }
}

/// A forbidden sequence and the earlier one with its effect that replaces it, both packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pair {
    pub forbidden: u128,
    pub kept: u128,
}

/// How much the search may hold: about 4 GiB of tables.
const MAX_EFFECT_BYTES: usize = 4 << 30;

/// The sequences a length must have met before the next lengths' growth is forecast from it:
/// fewer, and the first lengths, where little is forbidden yet, would forecast too much.
const PROBE: u64 = 1 << 14;

/// Where `search` stops: with every pair, or at its first forecast (`fsm::estimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Until {
    Built,
    Forecast,
}

/// What `search` found: the pairs (those of the lengths searched, when it stopped at a
/// forecast) and what the whole build holds, forecast or measured.
pub(super) struct Searched {
    pub pairs: Vec<Pair>,
    pub estimate: Estimate,
}

/// Every minimal forbidden sequence of up to `depth` moves, in order, with its replacement.
/// `compile` turns the forbidden ones of each length into the automaton that prunes the next.
/// Refused (Err, with the depth that fits) before a length whose tables are forecast to pass
/// 4 GiB.
pub(super) fn forbidden_pairs(
    moves: &Moves,
    depth: u32,
    window: Option<(usize, usize)>,
    packing: &Packing,
    progress: &mut dyn FnMut(&Progress),
    until: Until,
) -> Result<Searched, String> {
    match moves {
        Moves::Walk(steps) => search(
            &mut Walk::new(steps, depth, window),
            depth,
            packing,
            progress,
            until,
        ),
        Moves::Permutations(perms) => {
            search(&mut Perms::new(perms), depth, packing, progress, until)
        }
    }
}

struct Layer<'a, S> {
    space: &'a mut S,
    packing: &'a Packing,
    length: u32,
    prune: &'a Automaton,
    /// The effects first met at the lengths still compared (all of them when moves have no
    /// inverses), the current length last.
    effects: &'a mut [Effects],
    found: Vec<Pair>,
    sequences: u64,
    effect: Vec<u16>,
    /// Where earlier sequences are replayed to read their effect.
    check: S,
    other: Vec<u16>,
    candidates: Vec<Earlier>,
}

fn search<S: Space>(
    space: &mut S,
    depth: u32,
    packing: &Packing,
    progress: &mut dyn FnMut(&Progress),
    until: Until,
) -> Result<Searched, String> {
    let reversible = space.reversible();
    let mut effects: Vec<Effects> = vec![Effects::default()];
    let mut start = Vec::new();
    space.effect(&mut start);
    effects[0].insert(
        hash(&start),
        Met::One(Earlier::new(Packing::EMPTY, Span::POINT)),
    );
    let mut pairs: Vec<Pair> = Vec::new();
    let mut check = Some(space.fresh());
    // The sequences met at each length, the empty one at 0.
    let mut met: Vec<u64> = vec![1];
    let mut peak = bytes_of(&effects);
    let mut forecast = None;
    for length in 1..=depth {
        let prune = super::compile(packing, space.labels(), &pairs, depth)?;
        if met[length as usize - 1] >= PROBE {
            let counts = forecast_met(&*space, &prune, &met, depth);
            let shape = Shape {
                reversible,
                labels: space.labels(),
            };
            let whole = shape.estimate(&counts, depth);
            if !whole.fits() {
                let fits = (1..depth)
                    .rev()
                    .find(|&d| shape.estimate(&counts, d).fits())
                    .unwrap_or(1);
                return Err(format!(
                    "comparing the move sequences of up to {depth} moves would take about \
                     {:.1} GiB of memory and the automaton up to {:.1} GiB, by the growth of the \
                     first {} lengths (the builder takes at most {} GiB of each); choose a depth \
                     of at most {fits}",
                    whole.building as f64 / f64::from(1 << 30),
                    whole.table as f64 / f64::from(1 << 30),
                    length - 1,
                    MAX_EFFECT_BYTES >> 30
                ));
            }
            if until == Until::Forecast {
                return Ok(Searched {
                    pairs,
                    estimate: whole,
                });
            }
            forecast = Some(whole);
        }
        effects.push(Effects::default());
        // Reversible moves: only the lengths n - 2, n - 1 and n are compared.
        let keep = if reversible { 3 } else { effects.len() };
        let first = effects.len() - keep.min(effects.len());
        let mut layer = Layer {
            space: &mut *space,
            packing,
            length,
            prune: &prune,
            effects: &mut effects[first..],
            found: Vec::new(),
            sequences: 0,
            effect: Vec::new(),
            check: check.take().expect("one replay space"),
            other: Vec::new(),
            candidates: Vec::new(),
        };
        layer.walk(Automaton::START, Packing::EMPTY, 0)?;
        check = Some(layer.check);
        let (found, sequences) = (layer.found, layer.sequences);
        pairs.extend(found);
        met.push(sequences);
        peak = peak.max(bytes_of(&effects));
        if reversible && effects.len() > 2 {
            // Lengths n - 2 and under are compared no more.
            let at = effects.len() - 3;
            effects[at] = Effects::default();
        }
        progress(&Progress {
            length,
            depth,
            sequences,
            forbidden: pairs.len() as u64,
        });
    }
    // A build too short to forecast is measured.
    let estimate = forecast.unwrap_or_else(|| Estimate {
        building: peak as u64,
        table: Shape {
            reversible,
            labels: space.labels(),
        }
        .table_bound(&met.iter().map(|&m| m as f64).collect::<Vec<_>>(), depth),
    });
    Ok(Searched { pairs, estimate })
}

/// The sequences each length up to `depth` is forecast to meet, from those met so far (`met`,
/// lengths 0 to n - 1) and `prune`, the automaton of the pairs found so far. Where every
/// sequence can be played, the sequences `prune` lets through: exact at length n, and more than
/// are met after it (later lengths forbid more). On a walk within a window, which bends the
/// growth down as the walks reach its sides, the growth of the last lengths goes on: since it
/// falls with the length, the forecast errs high.
fn forecast_met<S: Space>(space: &S, prune: &Automaton, met: &[u64], depth: u32) -> Vec<f64> {
    let known = met.len();
    let mut counts: Vec<f64> = met.iter().map(|&m| m as f64).collect();
    if space.bounded() {
        let last = counts[known - 1];
        // Over two lengths where there are: a walk's one-step growth alternates.
        let growth = if known >= 3 && counts[known - 3] > 0.0 {
            (last / counts[known - 3]).sqrt()
        } else {
            last / counts[known - 2].max(1.0)
        };
        for n in known..=depth as usize {
            counts.push(last * growth.powi((n - known + 1) as i32));
        }
        return counts;
    }
    let labels = prune.labels();
    let mut at = vec![0.0f64; prune.states()];
    at[Automaton::START as usize] = 1.0;
    for n in 1..=depth as usize {
        let mut next = vec![0.0f64; prune.states()];
        for (state, &c) in at.iter().enumerate() {
            if c == 0.0 {
                continue;
            }
            for label in 0..labels {
                let to = prune.next(state as u32, label);
                if to != FORBIDDEN {
                    next[to as usize] += c;
                }
            }
        }
        at = next;
        if n >= known {
            counts.push(at.iter().sum());
        }
    }
    counts
}

/// What a build holds, forecast or measured (`fsm::estimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The tables of sequences met, at their largest, in bytes: the most a build holds.
    pub building: u64,
    /// A bound on the automaton's table, in bytes: a state is a sequence met shorter than the
    /// depth.
    pub table: u64,
}

impl Estimate {
    /// Whether the builder takes it.
    pub fn fits(&self) -> bool {
        self.building <= MAX_EFFECT_BYTES as u64 && self.table <= super::MAX_TABLE_BYTES as u64
    }
}

/// What the size of a build depends on besides the sequences met.
struct Shape {
    reversible: bool,
    labels: usize,
}

impl Shape {
    /// The build to `depth` of sequences met as `counts` (by length) says.
    fn estimate(&self, counts: &[f64], depth: u32) -> Estimate {
        let depth = depth as usize;
        let kept = if self.reversible { 3 } else { depth + 1 };
        let building = (1..=depth)
            .map(|n| (n + 1).saturating_sub(kept)..=n)
            .map(|lengths| lengths.map(|k| map_bytes(counts[k])).sum::<f64>())
            .fold(0.0, f64::max);
        Estimate {
            building: building.min(u64::MAX as f64) as u64,
            table: self.table_bound(counts, depth as u32),
        }
    }

    fn table_bound(&self, counts: &[f64], depth: u32) -> u64 {
        let states = 1.0 + counts[1..depth as usize].iter().sum::<f64>();
        (states * self.labels as f64 * 4.0).min(u64::MAX as f64) as u64
    }
}

/// What a table of effects holding `entries` takes: the hash map's power-of-two buckets, 7/8
/// of them usable, each an entry and a control byte, as `bytes_of` counts them.
fn map_bytes(entries: f64) -> f64 {
    if entries < 1.0 {
        return 0.0;
    }
    let buckets = (entries * 8.0 / 7.0).ceil().max(8.0).log2().ceil().exp2();
    buckets * 7.0 / 8.0 * (std::mem::size_of::<(u64, Met)>() + 1) as f64
}

/// What the tables hold, about: an entry is a key and a `Met`, and a byte of control.
fn bytes_of(effects: &[Effects]) -> usize {
    let entry = std::mem::size_of::<(u64, Met)>() + 1;
    effects.iter().map(|e| e.capacity() * entry).sum()
}

impl<S: Space> Layer<'_, S> {
    /// Every sequence of `self.length` moves that extends `seq` (of `played` moves, automaton
    /// state `state`) and contains no forbidden sequence, in order.
    fn walk(&mut self, state: u32, seq: u128, played: u32) -> Result<(), String> {
        for label in 0..self.space.labels() {
            let next = self.prune.next(state, label);
            if next == FORBIDDEN || !self.space.push(label) {
                continue;
            }
            let child = self.packing.push(seq, label);
            let result = if played + 1 == self.length {
                self.meet(child)
            } else {
                self.walk(next, child, played + 1)
            };
            self.space.pop();
            result?;
        }
        Ok(())
    }

    /// Compares the sequence on the stack with those met before it.
    fn meet(&mut self, seq: u128) -> Result<(), String> {
        self.sequences += 1;
        let span = self.space.span();
        self.space.effect(&mut self.effect);
        let key = hash(&self.effect);
        let me = Earlier::new(seq, span);
        for i in 0..self.effects.len() {
            let Some(met) = self.effects[i].get(&key) else {
                continue;
            };
            let mut candidates = std::mem::take(&mut self.candidates);
            candidates.clear();
            candidates.extend(met.iter().copied());
            // The sequences with this hash whose effect is this one, in the order met.
            let mut same = false;
            for &e in &candidates {
                if !self.same_effect(e.seq()) {
                    continue;
                }
                same = true;
                if e.span.within(span) {
                    self.found.push(Pair {
                        forbidden: seq,
                        kept: e.seq(),
                    });
                    self.candidates = candidates;
                    return Ok(());
                }
            }
            self.candidates = candidates;
            if same {
                // Met before, but no earlier sequence can replace it everywhere it can be
                // played: kept, and a candidate to replace later ones.
                self.effects[i].get_mut(&key).expect("found above").push(me);
                return Ok(());
            }
        }
        let last = self.effects.len() - 1;
        match self.effects[last].get_mut(&key) {
            // Another effect of this length with this hash: kept beside it, told apart by
            // replaying.
            Some(met) => met.push(me),
            None => {
                let before = self.effects[last].capacity();
                self.effects[last].insert(key, Met::One(me));
                if self.effects[last].capacity() != before
                    && bytes_of(self.effects) > MAX_EFFECT_BYTES
                {
                    return Err(format!(
                        "comparing the move sequences of length {} would take more than {} GiB \
                         of memory; choose a depth of at most {}",
                        self.length,
                        MAX_EFFECT_BYTES >> 30,
                        self.length - 1
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the packed sequence `seq` has the effect in `self.effect`.
    fn same_effect(&mut self, seq: u128) -> bool {
        let labels = self.packing.unpack(seq);
        for &l in &labels {
            let played = self.check.push(l);
            debug_assert!(played, "a sequence met is played again");
        }
        self.check.effect(&mut self.other);
        for _ in &labels {
            self.check.pop();
        }
        self.other == self.effect
    }
}
