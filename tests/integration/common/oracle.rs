//! The tests' own sliding-tile neighbours, written without any of the library's tables.

/// The cells next to `cell` on a `w` x `h` board, in the blank's order: up, left, right, down.
pub fn neighbours(w: usize, h: usize, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / w, cell % w);
    let mut out = Vec::new();
    if r > 0 {
        out.push(cell - w);
    }
    if c > 0 {
        out.push(cell - 1);
    }
    if c + 1 < w {
        out.push(cell + 1);
    }
    if r + 1 < h {
        out.push(cell + w);
    }
    out
}
