//! The sliding tiles with weighted moves: the general board whose move costs what its tile
//! weighs under a `CostModel` (searched by the generic kernel; the unit-cost boards keep theirs).

use super::{Board, GoalPlaces, Grid, TileState, Tiles};
use crate::domains::cost::CostModel;
use crate::search::Domain;

/// `Tiles` whose move of tile t costs `costs[t]`.
pub struct Weighted<'a> {
    tiles: &'a Tiles,
    model: CostModel,
    /// Indexed by tile; 0 for the blank.
    costs: [u32; 256],
    /// The most a move costs.
    heaviest: u32,
}

impl<'a> Weighted<'a> {
    /// `tiles` under `model`, or why the model cannot weigh its tiles.
    pub fn new(tiles: &'a Tiles, model: CostModel) -> Result<Weighted<'a>, String> {
        let weights = model.tile_costs(tiles.cells() - 1)?;
        let mut costs = [0; 256];
        costs[..weights.len()].copy_from_slice(&weights);
        Ok(Weighted {
            tiles,
            model,
            costs,
            heaviest: weights.iter().copied().max().unwrap_or(0),
        })
    }

    pub fn model(&self) -> CostModel {
        self.model
    }

    /// What moving `tile` costs.
    #[inline(always)]
    pub fn weight(&self, tile: u8) -> u32 {
        self.costs[tile as usize]
    }
}

impl Domain for Weighted<'_> {
    type State = TileState;
    type Move = u8;
    const NO_MOVE: u8 = Tiles::NO_MOVE;
    const AUTOMATA: bool = false;

    #[inline(always)]
    fn moves<'b>(&'b self, s: &TileState) -> &'b [u8] {
        self.tiles.moves(s)
    }

    #[inline(always)]
    fn labels<'b>(&'b self, s: &TileState) -> &'b [u16] {
        self.tiles.labels(s)
    }

    #[inline(always)]
    fn inverse(&self, s: &TileState, m: u8) -> u8 {
        self.tiles.inverse(s, m)
    }

    #[inline(always)]
    fn apply(&self, s: &mut TileState, to: u8) {
        self.tiles.apply(s, to)
    }

    #[inline(always)]
    fn cost(&self, s: &TileState, to: u8) -> u32 {
        self.costs[s.cells[to as usize] as usize]
    }

    fn is_goal(&self, s: &TileState) -> bool {
        self.tiles.is_goal(s)
    }

    /// Each move of tile t takes it to a cell of the other colour of a chessboard, so t moves
    /// as often as its distance to its goal cell, modulo 2: a solution costs, modulo 2, the sum
    /// of each tile's cost times that distance.
    fn solution_parity(&self, s: &TileState) -> Option<u32> {
        let board = &self.tiles.board;
        let places = &self.tiles.places;
        let sum: u64 = (0..board.cells())
            .map(|cell| {
                let t = s.cells[cell] as usize;
                let home = places.cell[t] as usize;
                u64::from(self.costs[t]) * u64::from(board.distance(cell, home))
            })
            .sum();
        Some((sum % 2) as u32)
    }

    /// A shortest solution (in moves) costs at most its length times the heaviest move.
    fn diameter(&self) -> Option<u32> {
        self.tiles.diameter()?.checked_mul(self.heaviest)
    }

    fn path_string(&self, start: &TileState, path: &[u8]) -> String {
        self.tiles.path_string(start, path)
    }
}

impl Grid for Weighted<'_> {
    fn board(&self) -> &Board {
        &self.tiles.board
    }

    fn places(&self) -> &GoalPlaces {
        &self.tiles.places
    }

    #[inline(always)]
    fn tile(s: &TileState, cell: usize) -> u8 {
        s.cells[cell]
    }

    #[inline(always)]
    fn slide(s: &TileState, m: u8) -> (usize, usize, u8) {
        Tiles::slide(s, m)
    }
}
