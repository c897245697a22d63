//! Knight's Spirit (SCOI2005, Luogu P2324): twelve knights of each colour and a blank on a 5x5
//! board, a knight jumping into the blank at each move, and its heuristic.
//!
//! Cells are numbered 0 to 24 row-major; messages count positions from 1, as every domain does
//! (position 1 is cell 0). A move is the cell the blank moves to, i.e. the cell of the knight that
//! jumps; from each cell the blank tries the knight's offsets (row, column) (-2,-1), (-2,+1),
//! (-1,-2), (-1,+2), (+1,-2), (+1,+2), (+2,-1), (+2,+1), in that order. Paths are written as the
//! blank's successive cells, e.g. `1 8 19`.
//!
//! A knight's move always lands on a square of the other colour, so each move flips the colour of
//! the blank's square: every solution's length has the parity of the blank's row + column minus
//! that of its target (2,2).
//! The judge wants the shortest length if it is at most 15, else -1: the depth cap is 15.

use super::{Family, FieldError, UseSearch};
use crate::search::fsm::Moves;
use crate::search::{Domain, Heuristic, Zero};
use crate::util::text::shorten;
use std::sync::{Arc, OnceLock};

/// The judge's limit: longer solutions are reported as -1.
pub const DEPTH_CAP: u32 = 15;

const SIDE: usize = 5;
const CELLS: usize = SIDE * SIDE;
/// The blank's value in `KnightState::cells` (the knights are 0 and 1, their colours).
pub const BLANK: u8 = 2;
/// Knights of each colour on the board.
const PER_COLOUR: usize = 12;

/// The knight's offsets (row, column) in move order.
const OFFSETS: [(isize, isize); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The target layout, row-major: 1 and 0 the colours, 2 the blank in the centre.
const TARGET: [u8; CELLS] = [
    1, 1, 1, 1, 1, //
    0, 1, 1, 1, 1, //
    0, 0, 2, 1, 1, //
    0, 0, 0, 0, 1, //
    0, 0, 0, 0, 0, //
];
const TARGET_BLANK: usize = 12;

/// A position: the colour of the knight on each cell (`BLANK` for the empty one), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnightState {
    cells: [u8; CELLS],
    blank: u8,
}

impl KnightState {
    /// The cells, row-major: 0 and 1 the knights' colours, `BLANK` the empty cell.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }
}

/// The board's target and the knight-move tables the search reads.
pub struct Knights {
    goal: KnightState,
    /// The cells the blank can move to from each cell, in move order.
    legal: [[u8; 8]; CELLS],
    legal_len: [u8; CELLS],
    /// The index in `OFFSETS` of each move of `legal`.
    labels: [[u16; 8]; CELLS],
}

impl Default for Knights {
    fn default() -> Knights {
        Knights::new()
    }
}

impl Knights {
    pub fn new() -> Knights {
        let mut legal = [[0u8; 8]; CELLS];
        let mut legal_len = [0u8; CELLS];
        let mut labels = [[0u16; 8]; CELLS];
        for cell in 0..CELLS {
            let (r, c) = ((cell / SIDE) as isize, (cell % SIDE) as isize);
            for (label, (dr, dc)) in OFFSETS.into_iter().enumerate() {
                let (nr, nc) = (r + dr, c + dc);
                if (0..SIDE as isize).contains(&nr) && (0..SIDE as isize).contains(&nc) {
                    legal[cell][legal_len[cell] as usize] =
                        (nr as usize * SIDE + nc as usize) as u8;
                    labels[cell][legal_len[cell] as usize] = label as u16;
                    legal_len[cell] += 1;
                }
            }
        }
        Knights {
            goal: KnightState {
                cells: TARGET,
                blank: TARGET_BLANK as u8,
            },
            legal,
            legal_len,
            labels,
        }
    }

    pub fn goal(&self) -> &KnightState {
        &self.goal
    }

    /// A state from 25 cells, row-major: 0 and 1 the knights' colours, 2 (`BLANK`) the empty cell.
    pub fn state(&self, cells: &[u8]) -> Result<KnightState, String> {
        if let Some((i, &v)) = cells.iter().enumerate().find(|&(_, &v)| v > BLANK) {
            return Err(format!(
                "value {v} at position {}: expected 0, 1 or {BLANK} (the blank)",
                i + 1
            ));
        }
        state_of(cells)
    }

    /// Parses a board written with `0`, `1` and `*` (the blank), row-major, grouped in one of
    /// three ways: 25 single tokens, the judge's 5 rows of 5 characters
    /// (`11111 01111 00*11 00001 00000`), or one string of 25. Rows of other lengths are refused
    /// even when they add up to 25 cells: `111110 1111 ...` is a row too long and one too short,
    /// not a board.
    pub fn parse(text: &str) -> Result<KnightState, String> {
        let mut cells = Vec::with_capacity(CELLS);
        for ch in text.chars().filter(|ch| !ch.is_whitespace()) {
            cells.push(match ch {
                '0' => 0,
                '1' => 1,
                '*' => BLANK,
                _ => {
                    return Err(format!(
                        "character '{ch}' at position {}: expected 0, 1 or *",
                        cells.len() + 1
                    ))
                }
            });
        }
        check_rows(text)?;
        state_of(&cells)
    }
}

/// Refuses a grouping of the cells other than `Knights::parse` takes: a token longer than one
/// cell makes every token a row, which must have the board's width. (The characters are checked
/// before, so a token's length is its number of cells.)
fn check_rows(text: &str) -> Result<(), String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() < 2 || tokens.iter().all(|t| t.len() == 1) {
        return Ok(());
    }
    match tokens.iter().enumerate().find(|(_, t)| t.len() != SIDE) {
        Some((i, t)) => Err(format!(
            "row {} has {} cells: rows have the board's width, {SIDE} (write 5 rows of 5, \
             25 single cells or one string of 25)",
            i + 1,
            t.len()
        )),
        None => Ok(()),
    }
}

/// The judge's output for a search result: the length if it is at most 15, else -1.
pub fn judge_answer(length: Option<u32>) -> String {
    match length {
        Some(len) if len <= DEPTH_CAP => format!("{len}\n"),
        _ => "-1\n".to_string(),
    }
}

/// Checks the counts of a board whose every cell holds 0, 1 or `BLANK`.
fn state_of(cells: &[u8]) -> Result<KnightState, String> {
    if cells.len() != CELLS {
        return Err(format!("expected {CELLS} cells, found {}", cells.len()));
    }
    let count = |v: u8| cells.iter().filter(|&&c| c == v).count();
    let blanks = count(BLANK);
    if blanks != 1 {
        return Err(format!("expected one blank (*), found {blanks}"));
    }
    let (zeros, ones) = (count(0), count(1));
    if ones != PER_COLOUR {
        return Err(format!(
            "expected twelve 1s and twelve 0s, found {ones} 1s and {zeros} 0s"
        ));
    }
    let mut board = [0u8; CELLS];
    board.copy_from_slice(cells);
    let blank = cells.iter().position(|&c| c == BLANK).expect("one blank") as u8;
    Ok(KnightState {
        cells: board,
        blank,
    })
}

impl Domain for Knights {
    type State = KnightState;
    type Move = u8;
    /// The board has 25 cells, so 255 is never one.
    const NO_MOVE: u8 = u8::MAX;

    #[inline(always)]
    fn moves<'a>(&'a self, s: &KnightState) -> &'a [u8] {
        let b = s.blank as usize;
        &self.legal[b][..self.legal_len[b] as usize]
    }

    /// The jump's index in `OFFSETS`.
    #[inline(always)]
    fn labels<'a>(&'a self, s: &KnightState) -> &'a [u16] {
        let b = s.blank as usize;
        &self.labels[b][..self.legal_len[b] as usize]
    }

    /// The knight jumps back: the blank returns to where it was.
    #[inline(always)]
    fn inverse(&self, s: &KnightState, _: u8) -> u8 {
        s.blank
    }

    #[inline(always)]
    fn apply(&self, s: &mut KnightState, to: u8) {
        s.cells[s.blank as usize] = s.cells[to as usize];
        s.cells[to as usize] = BLANK;
        s.blank = to;
    }

    fn is_goal(&self, s: &KnightState) -> bool {
        s.cells == self.goal.cells
    }

    fn solution_parity(&self, s: &KnightState) -> Option<u32> {
        let colour = |cell: usize| ((cell / SIDE + cell % SIDE) % 2) as u32;
        Some((colour(s.blank as usize) + colour(TARGET_BLANK)) % 2)
    }

    fn depth_cap(&self) -> Option<u32> {
        Some(DEPTH_CAP)
    }

    /// The blank's successive cells (0 to 24, row-major), space-separated, e.g. `1 8 19`.
    fn path_string(&self, _: &KnightState, path: &[u8]) -> String {
        let cells: Vec<String> = path.iter().map(|to| to.to_string()).collect();
        cells.join(" ")
    }
}

/// Knights not on a cell of their colour in the target, the blank excluded. A move moves one
/// knight, so it puts at most one in place: admissible, and 0 only at the target (the 24 knights
/// filling their target cells leave the blank's).
pub struct Misplaced;

impl Heuristic<Knights> for Misplaced {
    type Value = u32;
    const GOAL_AWARE: bool = true;

    fn init(&self, d: &Knights, s: &KnightState) -> u32 {
        s.cells
            .iter()
            .zip(&d.goal.cells)
            .filter(|&(&k, &g)| k != BLANK && k != g)
            .count() as u32
    }

    #[inline(always)]
    fn update(&self, d: &Knights, s: &KnightState, m: u8, v: u32) -> u32 {
        let (from, to) = (m as usize, s.blank as usize);
        let k = s.cells[from];
        // One more misplaced if the knight belonged on `from`, one fewer if it belongs on `to`.
        v + (d.goal.cells[from] == k) as u32 - (d.goal.cells[to] == k) as u32
    }

    #[inline(always)]
    fn estimate(&self, v: u32) -> u32 {
        v
    }
}

heuristic_set! {
    /// Knight's Spirit's heuristics.
    KnightsHeuristic {
        Misplaced => "misplaced": "knights not on a cell of their colour in the target",
        Zero => "zero": "none: blind iterative deepening",
    }
}

/// Accepts no size, or the board's own (`5x5`, as tiles write sizes).
fn check_size(size: Option<&str>) -> Result<(), FieldError> {
    let size = size.map_or("", str::trim);
    if size.is_empty() || size.eq_ignore_ascii_case("5x5") {
        return Ok(());
    }
    Err((
        "size",
        format!("'{}': the board is 5x5; leave size empty", shorten(size)),
    ))
}

impl Family for Knights {
    const NAME: &'static str = "knights";
    const SIZE_HELP: &'static str = "none (the board is 5x5)";
    const STATE_HELP: &'static str = "25 cells 0, 1 or * (the blank), row-major";
    type Heuristics = KnightsHeuristic;
    type Start = KnightState;

    fn unpack(&self, s: &KnightState) -> KnightState {
        s.clone()
    }

    fn instance(
        size: Option<&str>,
        start: &str,
        goal: Option<&str>,
    ) -> Result<(Arc<Knights>, KnightState), FieldError> {
        super::no_goal(Self::NAME, goal)?;
        check_size(size)?;
        let start = Knights::parse(start).map_err(|e| ("start", e))?;
        static SHARED: OnceLock<Arc<Knights>> = OnceLock::new();
        Ok((
            Arc::clone(SHARED.get_or_init(|| Arc::new(Knights::new()))),
            start,
        ))
    }

    /// Built in about 3 s once and cached; 12 is the deepest that fits (docs/pruning.md).
    const FSM_DEPTH: u32 = 10;

    /// The blank's eight jumps, in `OFFSETS`' order.
    fn fsm_moves(&self) -> Moves {
        Moves::Walk(
            OFFSETS
                .iter()
                .map(|&(dr, dc)| (dc as i32, dr as i32))
                .collect(),
        )
    }

    fn fsm_window(&self) -> Option<(usize, usize)> {
        Some((SIDE, SIDE))
    }

    fn size(&self) -> String {
        "5x5".into()
    }

    /// The target; the `size` column is left empty, as the board is fixed.
    fn generator_goal(size: Option<&str>) -> Result<(String, String), FieldError> {
        check_size(size)?;
        Ok((String::new(), Knights::new().tokens(&Knights::new().goal)))
    }

    fn tokens(&self, s: &KnightState) -> String {
        let cells: Vec<String> = s
            .cells
            .iter()
            .map(|&c| match c {
                BLANK => "*".to_string(),
                colour => colour.to_string(),
            })
            .collect();
        cells.join(" ")
    }

    fn with_heuristic<V: UseSearch>(
        d: &Arc<Knights>,
        start: &<Knights as Domain>::State,
        h: KnightsHeuristic,
        visit: V,
    ) -> V::Output {
        match h {
            KnightsHeuristic::Misplaced => visit.with(&**d, start, &Misplaced),
            KnightsHeuristic::Zero => visit.with(&**d, start, &Zero),
        }
    }

    /// A max's parts are `misplaced` and `zero`, whose estimate is 0 everywhere: the max is
    /// `misplaced` alone, searched as it is alone.
    fn with_max<V: UseSearch>(
        d: &Arc<Knights>,
        start: &<Knights as Domain>::State,
        parts: &[KnightsHeuristic],
        visit: V,
    ) -> V::Output {
        debug_assert!(parts.contains(&KnightsHeuristic::Misplaced));
        Self::with_heuristic(d, start, KnightsHeuristic::Misplaced, visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{ida_star, replay, Limits, Outcome, Prune, SearchResult, Step, Variant};
    use crate::util::rng::Rng;
    use std::sync::OnceLock;

    /// C(24, 12): the ways to place the 1s on the 24 cells the blank leaves.
    const PLACEMENTS: u32 = 2_704_156;

    /// Distances from the target of every state within `DEPTH_CAP` moves of it, by BFS over
    /// states packed as a bit per cell holding a 1 plus the blank's cell, with knight moves
    /// found by their own test (|dr| x |dc| = 2), not by the domain's tables.
    /// The tests only ask whether a distance is at most 15: the 1,671,855 states within 15 moves
    /// take about 0.5 s, where a BFS of the whole space (67,603,900 states, all connected, the
    /// farthest 39 moves away) takes about 30 s in release.
    struct Oracle {
        /// Indexed by `rank`: distance + 1, 0 for states farther than `DEPTH_CAP`.
        dist: Vec<u8>,
        binom: [[u32; CELLS]; CELLS],
    }

    impl Oracle {
        fn build() -> Oracle {
            let mut binom = [[0u32; CELLS]; CELLS];
            for n in 0..CELLS {
                binom[n][0] = 1;
                for k in 1..=n {
                    binom[n][k] = binom[n - 1][k - 1] + binom[n - 1][k];
                }
            }
            assert_eq!(binom[24][12], PLACEMENTS);
            let mut oracle = Oracle {
                dist: vec![0u8; CELLS * PLACEMENTS as usize],
                binom,
            };
            let jumps: Vec<Vec<u32>> = (0..CELLS)
                .map(|a| {
                    (0..CELLS)
                        .filter(|&b| {
                            (a / SIDE).abs_diff(b / SIDE) * (a % SIDE).abs_diff(b % SIDE) == 2
                        })
                        .map(|b| b as u32)
                        .collect()
                })
                .collect();
            let target = pack(&TARGET);
            let r = oracle.rank(target);
            oracle.dist[r] = 1;
            let mut frontier = vec![target];
            for depth in 1..=DEPTH_CAP as u8 {
                let mut next = Vec::new();
                for &s in &frontier {
                    let (ones, blank) = (s & CELL_BITS, s >> CELLS);
                    for &to in &jumps[blank as usize] {
                        let ones = if ones >> to & 1 == 1 {
                            ones & !(1 << to) | 1 << blank
                        } else {
                            ones
                        };
                        let t = ones | to << CELLS;
                        let r = oracle.rank(t);
                        if oracle.dist[r] == 0 {
                            oracle.dist[r] = depth + 1;
                            next.push(t);
                        }
                    }
                }
                frontier = next;
            }
            oracle
        }

        /// blank x C(24, 12) + the combinatorial rank of the 1s' cells among the other 24.
        fn rank(&self, s: u32) -> usize {
            let (ones, blank) = (s & CELL_BITS, s >> CELLS);
            let below = (1u32 << blank) - 1;
            let mut rest = ones & below | (ones >> 1) & !below;
            let (mut r, mut k) = (0, 1);
            while rest != 0 {
                r += self.binom[rest.trailing_zeros() as usize][k];
                k += 1;
                rest &= rest - 1;
            }
            (blank * PLACEMENTS + r) as usize
        }

        /// The distance of `s` to the target, `None` beyond `DEPTH_CAP`.
        fn distance(&self, s: &KnightState) -> Option<u32> {
            match self.dist[self.rank(pack(&s.cells))] {
                0 => None,
                d => Some(d as u32 - 1),
            }
        }
    }

    const CELL_BITS: u32 = (1 << CELLS) - 1;

    fn pack(cells: &[u8; CELLS]) -> u32 {
        let mut s = 0;
        for (i, &c) in cells.iter().enumerate() {
            match c {
                1 => s |= 1 << i,
                BLANK => s |= (i as u32) << CELLS,
                _ => {}
            }
        }
        s
    }

    fn oracle() -> &'static Oracle {
        static ORACLE: OnceLock<Oracle> = OnceLock::new();
        ORACLE.get_or_init(Oracle::build)
    }

    /// `len` random moves from the target, never straight back (a walk that may undo its last
    /// move mostly stays within a few moves of the target).
    fn walk(d: &Knights, rng: &mut Rng, len: u64) -> KnightState {
        let mut s = d.goal().clone();
        let mut back = Knights::NO_MOVE;
        for _ in 0..len {
            let moves: Vec<u8> = d.moves(&s).iter().copied().filter(|&m| m != back).collect();
            let m = moves[rng.below(moves.len() as u64) as usize];
            back = d.inverse(&s, m);
            d.apply(&mut s, m);
        }
        s
    }

    fn random_board(d: &Knights, rng: &mut Rng) -> KnightState {
        let mut cells = TARGET;
        rng.shuffle(&mut cells);
        d.state(&cells).unwrap()
    }

    fn solve(d: &Knights, s: &KnightState, v: Variant) -> SearchResult<u8> {
        ida_star(d, &Misplaced, s, v, Limits::default())
    }

    /// The solution's length, `None` when there is none within the cap.
    fn length(r: &SearchResult<u8>) -> Option<u32> {
        match &r.outcome {
            Outcome::Solved(p) => Some(p.len() as u32),
            Outcome::OverCap => None,
            other => panic!("neither solved nor over the cap: {other:?}"),
        }
    }

    fn all_variants() -> impl Iterator<Item = Variant> {
        Step::ALL.into_iter().flat_map(|step| {
            [true, false].map(|reverse_pruning| Variant {
                step,
                prune: Prune::reverse(reverse_pruning),
            })
        })
    }

    const TARGET_TEXT: &str = "11111 01111 00*11 00001 00000";

    #[test]
    fn parses_rows_single_tokens_and_one_string() {
        let d = Knights::new();
        let rows = Knights::parse(TARGET_TEXT).unwrap();
        assert_eq!(&rows, d.goal());
        let tokens: Vec<String> = TARGET_TEXT
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(String::from)
            .collect();
        assert_eq!(Knights::parse(&tokens.join(" ")).unwrap(), rows);
        assert_eq!(Knights::parse(&TARGET_TEXT.replace(' ', "")).unwrap(), rows);
        assert_eq!(
            Knights::parse("\n11111\n01111\n00*11\n00001\n00000\n").unwrap(),
            rows
        );
        assert_eq!(d.state(&TARGET).unwrap(), rows);
        assert_eq!(rows.cells(), &TARGET);
    }

    #[test]
    fn rejects_bad_boards_with_clear_messages() {
        let d = Knights::new();
        let err = |text: &str| Knights::parse(text).unwrap_err();
        let row = |n: usize, cells: usize| {
            format!("row {n} has {cells} cells: rows have the board's width, 5 (write 5 rows of 5, 25 single cells or one string of 25)")
        };
        assert_eq!(err("11111 01111 00*11 00001 0000"), row(5, 4));
        assert_eq!(err("11111 01111 00*11 00001 000000"), row(5, 6));
        // Rows of the wrong widths that add up to 25 cells, and rows mixed with single cells.
        assert_eq!(err("111110 1111 00*11 00001 00000"), row(1, 6));
        assert_eq!(err("11111 0111 100*11 00001 00000"), row(2, 4));
        assert_eq!(err("1111101111 00*11 00001 00000"), row(1, 10));
        assert_eq!(err("11111 0 1 1 1 1 00*11 00001 00000"), row(2, 1));
        assert_eq!(
            err("11111 01111 00*11 00001"),
            "expected 25 cells, found 20"
        );
        assert_eq!(
            err("1 1 1 1 1 0 1 1 1 1 0 0 * 1 1 0 0 0 0 1 0 0 0 0"),
            "expected 25 cells, found 24"
        );
        assert_eq!(
            err("11111011110*011000010000000"),
            "expected 25 cells, found 27"
        );
        assert_eq!(
            err("11111 01x11 00*11 00001 00000"),
            "character 'x' at position 8: expected 0, 1 or *"
        );
        assert_eq!(
            err("11111 01111 00*11 00001 0000*"),
            "expected one blank (*), found 2"
        );
        assert_eq!(
            err("11111 01111 00111 00001 00000"),
            "expected one blank (*), found 0"
        );
        assert_eq!(
            err("11111 01111 00*11 00001 00001"),
            "expected twelve 1s and twelve 0s, found 13 1s and 11 0s"
        );
        let mut cells = TARGET;
        cells[3] = 3;
        assert_eq!(
            d.state(&cells).unwrap_err(),
            "value 3 at position 4: expected 0, 1 or 2 (the blank)"
        );
        assert_eq!(
            d.state(&TARGET[1..]).unwrap_err(),
            "expected 25 cells, found 24"
        );
    }

    #[test]
    fn moves_are_knight_jumps_in_offset_order() {
        let d = Knights::new();
        let mut s = d.goal().clone();
        assert_eq!(d.moves(&s), &[1, 3, 5, 9, 15, 19, 21, 23]);
        d.apply(&mut s, 1);
        assert_eq!(d.moves(&s), &[8, 10, 12]);
        assert_eq!(s.cells[12], 1);
        assert_eq!(d.path_string(d.goal(), &[1, 8, 19]), "1 8 19");
        assert_eq!(d.path_string(d.goal(), &[]), "");
        let degrees: usize = (0..CELLS).map(|c| d.legal_len[c] as usize).sum();
        // 48 knight-move pairs on a 5x5 board, each seen from both ends.
        assert_eq!(degrees, 96);
        assert_eq!(judge_answer(Some(0)), "0\n");
        assert_eq!(judge_answer(Some(15)), "15\n");
        assert_eq!(judge_answer(Some(16)), "-1\n");
        assert_eq!(judge_answer(None), "-1\n");
    }

    #[test]
    fn apply_then_inverse_is_identity_and_parity_flips() {
        let d = Knights::new();
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let len = rng.below(30);
            let s = walk(&d, &mut rng, len);
            let p = d.solution_parity(&s).unwrap();
            assert_eq!(p as u64, len % 2);
            for &m in d.moves(&s) {
                let mut t = s.clone();
                let undo = d.inverse(&s, m);
                d.apply(&mut t, m);
                assert_ne!(t, s);
                assert_eq!(d.solution_parity(&t), Some(1 - p));
                assert!(d.moves(&t).contains(&undo));
                d.apply(&mut t, undo);
                assert_eq!(t, s);
            }
        }
    }

    #[test]
    fn misplaced_is_incremental_and_never_exceeds_the_distance() {
        let d = Knights::new();
        let o = oracle();
        let mut rng = Rng::new(9);
        assert_eq!(Misplaced.init(&d, d.goal()), 0);
        assert_eq!(o.distance(d.goal()), Some(0));
        for _ in 0..500 {
            let len = 1 + rng.below(20);
            let s = walk(&d, &mut rng, len);
            let h = Misplaced.init(&d, &s);
            assert_eq!(h == 0, d.is_goal(&s));
            if let Some(dist) = o.distance(&s) {
                assert!(h <= dist, "{:?}: {h} > {dist}", s.cells);
            }
            for &m in d.moves(&s) {
                let mut t = s.clone();
                let child = Misplaced.update(&d, &s, m, h);
                d.apply(&mut t, m);
                assert_eq!(child, Misplaced.init(&d, &t));
            }
        }
    }

    #[test]
    fn sample_gives_the_judges_output() {
        const SAMPLE_IN: &str =
            "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n";
        const SAMPLE_OUT: &str = "7\n-1\n";
        let d = Knights::new();
        let o = oracle();
        let mut lines = SAMPLE_IN.lines();
        let cases: usize = lines.next().unwrap().trim().parse().unwrap();
        let rows: Vec<&str> = lines.collect();
        assert_eq!(rows.len(), 5 * cases);
        let mut out = String::new();
        for board in rows.chunks(5) {
            let s = Knights::parse(&board.join("\n")).unwrap();
            let korf = Variant {
                step: Step::Next,
                prune: Prune::Reverse,
            };
            let len = length(&solve(&d, &s, korf));
            assert_eq!(len, o.distance(&s));
            out += &judge_answer(len);
        }
        assert_eq!(out, SAMPLE_OUT);
    }

    #[test]
    fn ida_star_matches_the_oracle_on_walks_and_random_boards() {
        let d = Knights::new();
        let o = oracle();
        let mut rng = Rng::new(2005);
        let mut starts: Vec<KnightState> = (0..100)
            .map(|_| {
                let len = 1 + rng.below(20);
                walk(&d, &mut rng, len)
            })
            .collect();
        starts.extend((0..4).map(|_| random_board(&d, &mut rng)));
        let (mut solved, mut capped, mut deepest) = (0, 0, 0);
        for s in &starts {
            let want = o.distance(s);
            for step in [Step::Next, Step::Two] {
                let r = solve(
                    &d,
                    s,
                    Variant {
                        step,
                        prune: Prune::Reverse,
                    },
                );
                assert!(r.optimal_guaranteed);
                assert_eq!(length(&r), want, "{:?} step {}", s.cells, step.name());
            }
            match want {
                Some(dist) => {
                    solved += 1;
                    deepest = deepest.max(dist);
                }
                None => capped += 1,
            }
        }
        // The seed gives starts on both sides of the cap, some exactly at it.
        assert_eq!((solved, capped, deepest), (95, 9, DEPTH_CAP));
    }

    #[test]
    fn every_variant_is_optimal_on_short_walks() {
        let d = Knights::new();
        let o = oracle();
        let mut rng = Rng::new(24);
        for _ in 0..40 {
            let len = rng.below(11);
            let s = walk(&d, &mut rng, len);
            let want = o.distance(&s).unwrap();
            for v in all_variants() {
                let r = solve(&d, &s, v);
                assert!(r.optimal_guaranteed);
                match &r.outcome {
                    Outcome::Solved(p) => {
                        assert_eq!(p.len() as u32, want, "{:?} {v:?}", s.cells);
                        assert!(replay(&d, &s, p));
                    }
                    other => panic!("{:?} {v:?}: {other:?}", s.cells),
                }
            }
        }
    }

    /// The bundled dataset's `optimal` column agrees with the oracle (empty: more than 15).
    #[test]
    fn bundled_dataset_lengths_match_the_oracle() {
        let text = include_str!("../../datasets/knights.csv");
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let s = Knights::parse(f[3]).unwrap();
            assert_eq!(f[5].parse::<u32>().ok(), oracle().distance(&s), "{line}");
        }
    }
}
