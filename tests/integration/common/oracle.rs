//! The tests' own sliding-tile oracle: a board's neighbours and an exhaustive BFS over plain
//! vectors, written without any of the library's tables.

use std::collections::{HashMap, VecDeque};

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

/// Distances to `goal` of every state reachable from it (tiles row-major, 0 = blank).
pub fn bfs(width: usize, height: usize, goal: &[u8]) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::from([(goal.to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let b = s.iter().position(|&t| t == 0).unwrap();
        for nb in neighbours(width, height, b) {
            let mut t = s.clone();
            t.swap(b, nb);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                queue.push_back(t);
            }
        }
    }
    dist
}
