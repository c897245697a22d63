//! Sliding-tile boards whose size is a type: the 3x3, 4x4 and 5x5 puzzles with Korf's move order,
//! searched by the kernel unrolled per blank cell (`search::ida_star_fixed`).
//!
//! A state is `N` bytes; a move names the cell the blank leaves and the cell it reaches, so in the
//! unrolled search both are constants and so are the table entries they select. Same moves, in the
//! same order, as the general `Tiles` of that size: same trees, counts and paths.

use super::tables::{Board, GoalPlaces, LETTERS};
use super::{Grid, TileState, Tiles};
use crate::search::{
    ida_star_fixed, Domain, FixedMoves, Heuristic, Limits, SearchResult, Variant, MAX_BRANCH,
    MAX_PLACES,
};

/// A move: the blank goes from `from` to the neighbouring cell `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    pub from: u8,
    pub to: u8,
}

/// Cells hold tile numbers, 0 for the blank, row-major. The blank's cell is not stored: the
/// unrolled search knows it, and the rest looks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedState<const N: usize> {
    cells: [u8; N],
}

impl<const N: usize> FixedState<N> {
    fn blank(&self) -> usize {
        self.cells
            .iter()
            .position(|&t| t == 0)
            .expect("every state is a permutation with a blank")
    }
}

/// A `W` x `H` board of `N` = `W` x `H` cells and its goal.
pub struct FixedTiles<const W: usize, const H: usize, const N: usize> {
    board: Board,
    places: GoalPlaces,
    goal: FixedState<N>,
    /// `MOVES_AT` as slices, for `Domain::moves`.
    legal: [[Slide; MAX_BRANCH]; MAX_PLACES],
    /// `LABELS_AT`, for `Domain::labels`.
    labels: [[u16; MAX_BRANCH]; MAX_PLACES],
    legal_len: [u8; MAX_PLACES],
}

pub type Tiles3x3 = FixedTiles<3, 3, 9>;
pub type Tiles4x4 = FixedTiles<4, 4, 16>;
pub type Tiles5x5 = FixedTiles<5, 5, 25>;

/// The blank's moves from each cell of a `w` x `h` board in Korf's order: up, left, right, down;
/// and their labels, the directions' places in that order.
const fn moves_at(
    w: usize,
    h: usize,
) -> (
    [[Option<Slide>; MAX_BRANCH]; MAX_PLACES],
    [[u16; MAX_BRANCH]; MAX_PLACES],
) {
    let mut table = [[None; MAX_BRANCH]; MAX_PLACES];
    let mut labels = [[0; MAX_BRANCH]; MAX_PLACES];
    let mut cell = 0;
    while cell < w * h {
        let (r, c) = (cell / w, cell % w);
        let mut n = 0;
        let mut dir = 0;
        while dir < 4 {
            let to = match dir {
                0 if r > 0 => Some(cell - w),
                1 if c > 0 => Some(cell - 1),
                2 if c + 1 < w => Some(cell + 1),
                3 if r + 1 < h => Some(cell + w),
                _ => None,
            };
            if let Some(to) = to {
                table[cell][n] = Some(Slide {
                    from: cell as u8,
                    to: to as u8,
                });
                labels[cell][n] = dir as u16;
                n += 1;
            }
            dir += 1;
        }
        cell += 1;
    }
    (table, labels)
}

impl<const W: usize, const H: usize, const N: usize> FixedTiles<W, H, N> {
    const SHAPE: () = assert!(W * H == N && N <= MAX_PLACES);

    /// The fixed-size board of `tiles`, which must be `W` x `H` with Korf's move order.
    pub fn new(tiles: &Tiles) -> Self {
        let () = Self::SHAPE;
        assert!(
            (tiles.width(), tiles.height()) == (W, H) && tiles.korf_order(),
            "a {W}x{H} board made from another"
        );
        let mut goal = [0u8; N];
        goal.copy_from_slice(tiles.tiles(tiles.goal()));
        let mut legal = [[Self::NO_MOVE; MAX_BRANCH]; MAX_PLACES];
        let mut legal_len = [0u8; MAX_PLACES];
        for (place, moves) in Self::MOVES_AT.iter().enumerate() {
            for m in moves.iter().flatten() {
                legal[place][legal_len[place] as usize] = *m;
                legal_len[place] += 1;
            }
        }
        FixedTiles {
            legal,
            labels: Self::LABELS_AT,
            legal_len,
            board: Board::new(W, H, "ULRD").expect("a valid size"),
            places: GoalPlaces::new(tiles.board(), &goal),
            goal: FixedState { cells: goal },
        }
    }

    /// `s` of the general board this one was made from, on this one.
    pub fn state(&self, s: &TileState) -> FixedState<N> {
        let mut cells = [0u8; N];
        cells.copy_from_slice(&s.cells[..N]);
        debug_assert!(
            (0..N).all(|t| cells.contains(&(t as u8))),
            "a state of another board"
        );
        FixedState { cells }
    }
}

impl<const W: usize, const H: usize, const N: usize> Domain for FixedTiles<W, H, N> {
    type State = FixedState<N>;
    type Move = Slide;
    const NO_MOVE: Slide = Slide {
        from: u8::MAX,
        to: u8::MAX,
    };

    fn moves<'a>(&'a self, s: &FixedState<N>) -> &'a [Slide] {
        let b = s.blank();
        &self.legal[b][..self.legal_len[b] as usize]
    }

    fn labels<'a>(&'a self, s: &FixedState<N>) -> &'a [u16] {
        let b = s.blank();
        &self.labels[b][..self.legal_len[b] as usize]
    }

    /// The blank goes back where it was.
    #[inline(always)]
    fn inverse(&self, _: &FixedState<N>, m: Slide) -> Slide {
        Slide {
            from: m.to,
            to: m.from,
        }
    }

    #[inline(always)]
    fn apply(&self, s: &mut FixedState<N>, m: Slide) {
        s.cells[m.from as usize] = s.cells[m.to as usize];
        s.cells[m.to as usize] = 0;
    }

    fn is_goal(&self, s: &FixedState<N>) -> bool {
        s.cells == self.goal.cells
    }

    fn solution_parity(&self, s: &FixedState<N>) -> Option<u32> {
        Some(self.board.distance(s.blank(), self.goal.blank()) % 2)
    }

    fn diameter(&self) -> Option<u32> {
        super::diameter(&self.board, self.goal.blank())
    }

    /// The blank's motions as letters, as `Tiles` writes them.
    fn path_string(&self, _: &FixedState<N>, path: &[Slide]) -> String {
        path.iter()
            .map(|m| {
                let (from, to) = (m.from as usize, m.to as usize);
                let dir = if to + W == from {
                    0
                } else if to + 1 == from {
                    1
                } else if to == from + 1 {
                    2
                } else {
                    3
                };
                LETTERS[dir]
            })
            .collect()
    }

    fn search<Hr: Heuristic<Self>>(
        &self,
        h: &Hr,
        start: &FixedState<N>,
        variant: Variant,
        limits: Limits<'_>,
    ) -> SearchResult<Slide> {
        ida_star_fixed(self, h, start, variant, limits)
    }
}

impl<const W: usize, const H: usize, const N: usize> FixedMoves for FixedTiles<W, H, N> {
    const MOVES_AT: [[Option<Slide>; MAX_BRANCH]; MAX_PLACES] = moves_at(W, H).0;
    const LABELS_AT: [[u16; MAX_BRANCH]; MAX_PLACES] = moves_at(W, H).1;

    fn place(&self, s: &FixedState<N>) -> usize {
        s.blank()
    }

    #[inline(always)]
    fn place_after(m: Slide) -> usize {
        m.to as usize
    }
}

impl<const W: usize, const H: usize, const N: usize> Grid for FixedTiles<W, H, N> {
    fn board(&self) -> &Board {
        &self.board
    }

    fn places(&self) -> &GoalPlaces {
        &self.places
    }

    #[inline(always)]
    fn width(&self) -> usize {
        W
    }

    #[inline(always)]
    fn height(&self) -> usize {
        H
    }

    #[inline(always)]
    fn tile(s: &FixedState<N>, cell: usize) -> u8 {
        s.cells[cell]
    }

    #[inline(always)]
    fn slide(s: &FixedState<N>, m: Slide) -> (usize, usize, u8) {
        (m.from as usize, m.to as usize, s.cells[m.to as usize])
    }
}
