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

pub mod definition;

use crate::search::{Domain, Heuristic};
use definition::{DefError, Definition};

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

/// A defined puzzle under a metric, with the tables the search reads.
pub struct Ksolve {
    name: String,
    metric: Metric,
    slots: usize,
    /// Every power of every defined move, in file order, each move's clockwise powers first.
    names: Vec<String>,
    /// The touches of power `k`: `touches[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    touches: Vec<Touch>,
    /// The power that undoes each power.
    inverse: Vec<u16>,
    /// The powers that are moves in the metric, in order, and their labels (their index here).
    moves: Vec<u16>,
    labels: Vec<u16>,
    /// Each slot's orientation count.
    omod: Vec<u8>,
    goal: Position,
    /// The most slots one move changes.
    most_touched: u32,
}

impl Ksolve {
    /// The puzzle of definition `def` under `metric`. Refused, naming the line: more than
    /// `MAX_SLOTS` slots, a set of more than 255 pieces, two powers of one name (a move named
    /// `R2` beside `R`), more than 65,535 powers.
    pub fn new(def: &Definition, metric: Metric) -> Result<Ksolve, DefError> {
        let mut slots = 0;
        let mut offsets = Vec::with_capacity(def.sets.len());
        for set in &def.sets {
            if set.size > 255 {
                return Err(DefError {
                    line: set.line,
                    message: format!("set `{}`: {} pieces, at most 255", set.name, set.size),
                });
            }
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
        if powers.len() > usize::from(u16::MAX) {
            return Err(DefError {
                line: def.moves.last().map_or(1, |m| m.line),
                message: format!("{} powers of moves, at most {}", powers.len(), u16::MAX),
            });
        }
        let mut names: Vec<String> = Vec::with_capacity(powers.len());
        for p in &powers {
            if names.contains(&p.name) {
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
        let inverse = powers
            .iter()
            .map(|p| {
                let undo = powers
                    .iter()
                    .position(|q| q.base == p.base && q.amount == -p.amount)
                    // An amount that is its own negative: half the order (R2), or an order of 2.
                    .unwrap_or_else(|| {
                        powers
                            .iter()
                            .position(|q| q.base == p.base && q.amount == p.amount)
                            .unwrap()
                    });
                undo as u16
            })
            .collect();
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
        Ok(Ksolve {
            name: def.name.clone(),
            metric,
            slots,
            names,
            starts,
            touches,
            inverse,
            moves,
            labels,
            omod,
            goal,
            most_touched,
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

    /// The position that `sequence` (power names separated by blanks, any power in either
    /// metric) reaches from the solved one, or the first name that is no move.
    pub fn after(&self, sequence: &str) -> Result<Position, String> {
        let mut s = self.solved();
        for (i, name) in sequence.split_whitespace().enumerate() {
            let Some(k) = self.names.iter().position(|n| n == name) else {
                return Err(format!(
                    "move {} '{}' is not a move of {} (its moves: {})",
                    i + 1,
                    crate::util::text::shorten(name),
                    self.name,
                    self.names.join(" ")
                ));
            };
            self.apply(&mut s, k as u16);
        }
        Ok(s)
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

    /// Each move in the metric as a permutation of (slot, turn) points, in the order of
    /// `Domain::moves`: two sequences that agree on every point agree on every position.
    pub fn point_permutations(&self) -> Vec<Vec<u16>> {
        let mut first = vec![0usize; self.slots + 1];
        for i in 0..self.slots {
            first[i + 1] = first[i] + usize::from(self.omod[i]);
        }
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

#[cfg(test)]
mod tests;
