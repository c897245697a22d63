//! The tables of a sliding-tile board that every tiles type and heuristic reads: where the blank
//! can move from each cell, each cell's row and column, and where each tile belongs in the goal.

use super::{MAX_CELLS, MAX_SIDE, MIN_SIDE};

/// The blank's directions: letters, row and column offsets. Their order here is the index a
/// move order is written in; the order the blank tries them is chosen per board.
pub const LETTERS: [char; 4] = ['U', 'L', 'R', 'D'];
const DR: [isize; 4] = [-1, 0, 0, 1];
const DC: [isize; 4] = [0, -1, 1, 0];

/// A board's shape: its moves and coordinates, independent of the goal.
pub struct Board {
    pub width: usize,
    pub height: usize,
    /// The cells the blank can move to from each cell, in move order.
    pub legal: [[u8; 4]; 256],
    pub legal_len: [u8; 256],
    /// The label of each move of `legal`: its direction's place in the move order.
    pub labels: [[u16; 4]; 256],
    /// The directions' steps (column, row) in the move order.
    pub steps: [(i32, i32); 4],
    /// Row and column of each cell.
    pub row: [u8; 256],
    pub col: [u8; 256],
}

impl Board {
    /// A `width` x `height` board whose blank tries its moves in `order`, the four letters U L R D
    /// in some order.
    pub fn new(width: usize, height: usize, order: &str) -> Result<Board, String> {
        let dirs: Vec<usize> = order
            .chars()
            .filter_map(|l| LETTERS.iter().position(|&x| x == l))
            .collect();
        let mut sorted = dirs.clone();
        sorted.sort_unstable();
        if sorted != [0, 1, 2, 3] || order.chars().count() != 4 {
            return Err(format!(
                "move order '{order}': expected the letters U, L, R, D, each once"
            ));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&width)
            || !(MIN_SIDE..=MAX_SIDE).contains(&height)
            || width * height > MAX_CELLS
        {
            return Err(format!(
                "invalid size {width}x{height}: each side must be {MIN_SIDE} to {MAX_SIDE}, at most {MAX_CELLS} cells"
            ));
        }
        let mut board = Board {
            width,
            height,
            legal: [[0; 4]; 256],
            legal_len: [0; 256],
            labels: [[0; 4]; 256],
            steps: [0, 1, 2, 3].map(|i| (DC[dirs[i]] as i32, DR[dirs[i]] as i32)),
            row: [0; 256],
            col: [0; 256],
        };
        for cell in 0..width * height {
            board.row[cell] = (cell / width) as u8;
            board.col[cell] = (cell % width) as u8;
            let (r, c) = ((cell / width) as isize, (cell % width) as isize);
            for (label, &m) in dirs.iter().enumerate() {
                let (nr, nc) = (r + DR[m], c + DC[m]);
                if nr >= 0 && nc >= 0 && (nr as usize) < height && (nc as usize) < width {
                    board.legal[cell][board.legal_len[cell] as usize] =
                        (nr as usize * width + nc as usize) as u8;
                    board.labels[cell][board.legal_len[cell] as usize] = label as u16;
                    board.legal_len[cell] += 1;
                }
            }
        }
        Ok(board)
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The Manhattan distance between two cells.
    pub fn distance(&self, a: usize, b: usize) -> u32 {
        let w = self.width;
        ((a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)) as u32
    }
}

/// Where each tile belongs: the goal read the other way round.
pub struct GoalPlaces {
    /// cell[tile] = its goal cell.
    pub cell: [u8; 256],
    /// The goal row and column of each tile.
    pub row: [u8; 256],
    pub col: [u8; 256],
}

impl GoalPlaces {
    /// The places of `goal` (a permutation of 0..n, row-major) on `board`.
    pub fn new(board: &Board, goal: &[u8]) -> GoalPlaces {
        let mut places = GoalPlaces {
            cell: [0; 256],
            row: [0; 256],
            col: [0; 256],
        };
        for (cell, &t) in goal.iter().enumerate() {
            places.cell[t as usize] = cell as u8;
            places.row[t as usize] = board.row[cell];
            places.col[t as usize] = board.col[cell];
        }
        places
    }
}
