//! The duplicate-pruning automaton's size and build time by depth, as docs/pruning.md tabulates
//! them: `cargo run --release --example fsm_sizes -- MOVES MAX_DEPTH`, MOVES one of tiles (an
//! unbounded board), tiles4x4, tiles5x5 (compared within that board), knights (within 5x5),
//! rotation, booksortN (N books), pancakeN (N pancakes), burntN (N burnt pancakes). Stops at the
//! first depth the builder refuses. `factor` is the asymptotic branching factor of the
//! brute-force tree the automaton leaves (`idabench tree`'s, on the board: 4x4, 5x5, the knight's
//! 5x5; for permutations, over the automaton's states alone); none for the unbounded board.

use idabench::search::fsm::Moves;
use idabench::tables::fsm;
use idabench::tables::fsm::tree::Classes;
use std::time::Instant;

const TILES: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const KNIGHT: [(i32, i32); 8] = [
    (-1, -2),
    (1, -2),
    (-2, -1),
    (2, -1),
    (-2, 1),
    (2, 1),
    (-1, 2),
    (1, 2),
];

/// The Rotation Game's moves A to H (see `domains::rotation`).
fn rotation() -> Moves {
    let lines: [[u16; 7]; 4] = [
        [0, 2, 6, 11, 15, 20, 22],
        [1, 3, 8, 12, 17, 21, 23],
        [10, 9, 8, 7, 6, 5, 4],
        [19, 18, 17, 16, 15, 14, 13],
    ];
    let shift = |line: &[u16]| {
        let mut p: Vec<u16> = (0..24).collect();
        for k in 0..7 {
            p[line[(k + 1) % 7] as usize] = line[k];
        }
        p
    };
    let mut perms: Vec<Vec<u16>> = lines.iter().map(|l| shift(l)).collect();
    for i in [1, 0, 3, 2] {
        let mut l = lines[i];
        l.reverse();
        perms.push(shift(&l));
    }
    Moves::Permutations(perms)
}

/// Booksort's block moves on `n` books (see `domains::booksort`): cuts i < j < k swap the
/// blocks [i, j) and [j, k), in the order of i, then j, then k.
fn booksort(n: u16) -> Moves {
    let mut perms = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..=n {
                let p: Vec<u16> = (0..n)
                    .map(|x| match x {
                        x if x >= i && x < j => x + (k - j),
                        x if x >= j && x < k => x - (j - i),
                        x => x,
                    })
                    .collect();
                perms.push(p);
            }
        }
    }
    Moves::Permutations(perms)
}

/// The pancake flips of 2..=n pancakes (see `domains::pancake`): flipping k sends position
/// x < k to k - 1 - x.
fn pancake(n: u16) -> Moves {
    let perms = (2..=n)
        .map(|k| (0..n).map(|x| if x < k { k - 1 - x } else { x }).collect())
        .collect();
    Moves::Permutations(perms)
}

/// The burnt pancake flips of 1..=n pancakes on the (position, side) points 2x + side: flipping k
/// sends point (x, side) with x < k to (k - 1 - x, 1 - side).
fn burnt(n: u16) -> Moves {
    let perms = (1..=n)
        .map(|k| {
            (0..2 * n)
                .map(|p| match (p / 2, p % 2) {
                    (x, side) if x < k => 2 * (k - 1 - x) + 1 - side,
                    _ => p,
                })
                .collect()
        })
        .collect();
    Moves::Permutations(perms)
}

/// A board's width and height, and the step each label stands for.
type Board = (usize, usize, Vec<(i32, i32)>);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, max) = match args.as_slice() {
        [name, max] => (
            name.as_str(),
            max.parse::<u32>().expect("MAX_DEPTH: a number"),
        ),
        _ => {
            eprintln!(
                "usage: fsm_sizes tiles|tiles4x4|tiles5x5|knights|rotation|booksortN|pancakeN|burntN MAX_DEPTH"
            );
            std::process::exit(2);
        }
    };
    let (moves, window) = match name {
        "tiles" => (Moves::Walk(TILES.to_vec()), None),
        "tiles4x4" => (Moves::Walk(TILES.to_vec()), Some((4, 4))),
        "tiles5x5" => (Moves::Walk(TILES.to_vec()), Some((5, 5))),
        "knights" => (Moves::Walk(KNIGHT.to_vec()), Some((5, 5))),
        "rotation" => (rotation(), None),
        other if other.starts_with("booksort") => {
            let n = other["booksort".len()..]
                .parse()
                .expect("booksortN: N books");
            (booksort(n), None)
        }
        other if other.starts_with("burnt") => {
            let n = other["burnt".len()..]
                .parse()
                .expect("burntN: N burnt pancakes");
            (burnt(n), None)
        }
        other if other.starts_with("pancake") => {
            let n = other["pancake".len()..]
                .parse()
                .expect("pancakeN: N pancakes");
            (pancake(n), None)
        }
        _ => {
            eprintln!("unknown moves '{name}'");
            std::process::exit(2);
        }
    };
    // The board the factor is counted on, and the steps the labels stand for.
    let board: Option<Board> = match (&moves, window) {
        (Moves::Walk(steps), Some((w, h))) => Some((w, h, steps.clone())),
        (Moves::Walk(_), None) => None,
        // One cell that every move leaves the blank on: classes are the automaton's states.
        (Moves::Permutations(perms), _) => Some((1, 1, vec![(0, 0); perms.len()])),
    };
    println!("| moves | depth | forbidden | states | bytes | build s | factor |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for depth in 2..=max {
        let start = Instant::now();
        let mut forbidden = 0;
        match fsm::build_with(&moves, depth, window, &mut |p| forbidden = p.forbidden) {
            Ok(a) => {
                let took = start.elapsed().as_secs_f64();
                let factor = board.as_ref().map_or("-".to_string(), |(w, h, steps)| {
                    format!("{:.6}", Classes::new(*w, *h, 0, steps, &a).factor().value)
                });
                println!(
                    "| {name} | {depth} | {forbidden} | {} | {} | {took:.2} | {factor} |",
                    a.states(),
                    a.bytes(),
                )
            }
            Err(e) => {
                println!("| {name} | {depth} | refused: {e} | | | | |");
                break;
            }
        }
    }
}
