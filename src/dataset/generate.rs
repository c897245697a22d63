//! Dataset generators: every state of a small board with BFS distances, uniform random solvable states, random walks;
//! and of a puzzle from a definition file, walks and every position with its distance.
//!
//! The output is the project's dataset CSV (`id,domain,size,start,goal,optimal`, and `puzzle` and
//! `metric` for a defined puzzle), the goal always written out so a file never depends on a
//! default. Every random choice comes from
//! `crate::util::rng::Rng`, so the same arguments give the same bytes on every platform.

use crate::domains::ksolve::PuzzleFile;
use crate::domains::tiles::Tiles;
use crate::domains::{DomainKind, Family, Puzzle, UsePuzzle};
use crate::search::Domain;
use crate::util::rng::Rng;
use crate::util::text::csv_field;
use std::fmt;
use std::io::{BufWriter, Write};
use std::sync::Arc;

/// The largest board `Mode::All` accepts. The BFS keeps one byte per arrangement, n! of them:
/// 10 cells (2x5) need 3.6 MB and give 1,814,400 rows; 11 would need 40 MB and 20 million rows,
/// and the next real boards (3x4, 4x3) 479 MB.
pub const ALL_MAX_CELLS: usize = 10;

/// Why a dataset could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// Arguments the generators cannot honour; said before anything is written.
    #[error("{0}")]
    Refused(String),
    /// The output failed.
    #[error("cannot write the dataset: {0}")]
    Write(#[from] std::io::Error),
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every solvable state, with its exact distance to the goal.
    All,
    /// `count` solvable states drawn uniformly.
    Random { count: u64, seed: u64 },
    /// `count` walks of `moves` moves from the goal, never undoing the move before.
    Walk { count: u64, seed: u64, moves: u32 },
}

/// A sliding-tile board and its goal (row-major, 0 = blank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilesSpec {
    pub width: usize,
    pub height: usize,
    pub goal: Vec<u8>,
}

/// Writes the dataset to `out`. Errors (e.g. --all on a board too large) are messages for the user.
pub fn tiles(spec: &TilesSpec, mode: &Mode, out: &mut dyn Write) -> Result<(), GenerateError> {
    let d = Tiles::new(spec.width, spec.height, &spec.goal).map_err(GenerateError::Refused)?;
    // Refused before the header is written, so a refusal leaves no partial file behind.
    if *mode == Mode::All && d.cells() > ALL_MAX_CELLS {
        return Err(GenerateError::Refused(format!(
            "--all is limited to boards of at most {ALL_MAX_CELLS} cells and {}x{} has {}: \
             it keeps a one-byte distance for each of the n! arrangements (10! = 3,628,800, \
             11! = 39,916,800) and writes n!/2 rows; use random states or random walks instead",
            spec.width,
            spec.height,
            d.cells()
        )));
    }
    let mut rows = Rows::new(&d, out)?;
    match *mode {
        Mode::All => all(&d, &mut rows)?,
        Mode::Random { count, seed } => random(&d, count, seed, &mut rows)?,
        Mode::Walk { count, seed, moves } => walk(&d, count, seed, moves, &mut rows)?,
    }
    rows.finish()
}

/// Every solvable state in order of distance, then of tiles, by BFS from the goal.
fn all(d: &Tiles, rows: &mut Rows) -> Result<(), GenerateError> {
    // Diameters of boards up to 10 cells are at most 55 (2x5), so a u8 holds every distance
    // and its maximum can mark the unseen.
    const UNSEEN: u8 = u8::MAX;
    let n = d.cells();
    let mut dist = vec![UNSEEN; (1..=n).product()];
    let goal = rank(d.tiles(d.goal()));
    dist[goal] = 0;
    // The BFS queue, kept whole: it ends up holding every reachable state exactly once.
    let mut order: Vec<u32> = Vec::with_capacity(dist.len() / 2);
    order.push(goal as u32);
    let mut perm = [0u8; ALL_MAX_CELLS];
    let perm = &mut perm[..n];
    let mut head = 0;
    while let Some(&r) = order.get(head) {
        head += 1;
        let r = r as usize;
        unrank(r, perm);
        let mut s = d.state(perm).expect("an unranked index is a permutation");
        let next = dist[r] + 1;
        for &m in d.moves(&s) {
            let undo = d.inverse(&s, m);
            d.apply(&mut s, m);
            let c = rank(d.tiles(&s));
            if dist[c] == UNSEEN {
                dist[c] = next;
                order.push(c as u32);
            }
            d.apply(&mut s, undo);
        }
    }
    // Ranks count permutations in lexicographic order, so sorting by (distance, rank) gives the
    // promised row order; with tiles below 10 that is also the order of the start strings.
    order.sort_unstable_by_key(|&r| (dist[r as usize], r));
    for &r in &order {
        unrank(r as usize, perm);
        rows.row(perm, Some(dist[r as usize]))?;
    }
    Ok(())
}

fn random(d: &Tiles, count: u64, seed: u64, rows: &mut Rows) -> Result<(), GenerateError> {
    let mut rng = Rng::new(seed);
    let mut tiles = d.tiles(d.goal()).to_vec();
    for _ in 0..count {
        // Fisher-Yates is uniform whatever order it starts from, so the last draw can be reused.
        rng.shuffle(&mut tiles);
        let s = d.state(&tiles).expect("a shuffled permutation");
        if !d.is_solvable(&s) {
            // Swapping the first two tiles (cells fixed by where the blank is) flips the parity
            // and is its own inverse: a bijection from the unsolvable states onto the solvable
            // ones with the same blank cell, so the result stays uniform over solvable states.
            let mut cells = (0..tiles.len()).filter(|&c| tiles[c] != 0);
            let (a, b) = (cells.next(), cells.next());
            tiles.swap(a.expect("2+ tiles"), b.expect("2+ tiles"));
        }
        rows.row(&tiles, None)?;
    }
    Ok(())
}

fn walk(
    d: &Tiles,
    count: u64,
    seed: u64,
    moves: u32,
    rows: &mut Rows,
) -> Result<(), GenerateError> {
    let mut rng = Rng::new(seed);
    for _ in 0..count {
        let mut s = d.goal().clone();
        let mut back = None;
        for _ in 0..moves {
            let mut choices = [0u8; 4];
            let mut k = 0;
            for &m in d.moves(&s) {
                if back != Some(m) {
                    choices[k] = m;
                    k += 1;
                }
            }
            // Every cell of a board with sides of 2 or more has two neighbours, so one non-reversing
            // move always remains.
            let m = choices[rng.below(k as u64) as usize];
            back = Some(d.inverse(&s, m));
            d.apply(&mut s, m);
        }
        rows.row(d.tiles(&s), None)?;
    }
    Ok(())
}

/// The lexicographic index of a permutation of 0..n among all n! (its Lehmer code read in the
/// factorial number system, accumulated Horner-style).
fn rank(perm: &[u8]) -> usize {
    let n = perm.len();
    perm.iter().enumerate().fold(0, |r, (i, &t)| {
        let smaller_after = perm[i + 1..].iter().filter(|&&u| u < t).count();
        r * (n - i) + smaller_after
    })
}

/// The permutation of 0..perm.len() whose rank is `r`, written into `perm`.
fn unrank(mut r: usize, perm: &mut [u8]) {
    let n = perm.len();
    let mut digits = [0usize; ALL_MAX_CELLS];
    for i in (0..n).rev() {
        digits[i] = r % (n - i);
        r /= n - i;
    }
    // The tiles not yet placed, in increasing order; digit i picks among them.
    let mut free = [0u8; ALL_MAX_CELLS];
    for (k, f) in free.iter_mut().enumerate() {
        *f = k as u8;
    }
    for (i, (&k, p)) in digits.iter().zip(perm.iter_mut()).enumerate() {
        *p = free[k];
        free.copy_within(k + 1..n - i, k);
    }
}

/// The CSV being written: the header on creation, then one numbered row per state.
struct Rows<'a> {
    out: BufWriter<&'a mut dyn Write>,
    /// `tiles,WxH`: the columns every row shares before the start.
    domain_size: String,
    goal: String,
    next_id: u64,
}

impl<'a> Rows<'a> {
    fn new(d: &Tiles, out: &'a mut dyn Write) -> Result<Rows<'a>, GenerateError> {
        let mut rows = Rows {
            out: BufWriter::new(out),
            domain_size: format!("tiles,{}x{}", d.width(), d.height()),
            goal: Spaced(d.tiles(d.goal())).to_string(),
            next_id: 1,
        };
        writeln!(rows.out, "id,domain,size,start,goal,optimal")?;
        Ok(rows)
    }

    fn row(&mut self, start: &[u8], optimal: Option<u8>) -> Result<(), GenerateError> {
        let (id, cols, start, goal) = (self.next_id, &self.domain_size, Spaced(start), &self.goal);
        match optimal {
            Some(o) => writeln!(self.out, "{id},{cols},{start},{goal},{o}"),
            None => writeln!(self.out, "{id},{cols},{start},{goal},"),
        }?;
        self.next_id += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<(), GenerateError> {
        self.out.flush().map_err(GenerateError::from)
    }
}

/// Tiles separated by single spaces.
struct Spaced<'a>(&'a [u8]);

impl fmt::Display for Spaced<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// Datasets of the domains with a fixed board, from `goal` (start tokens, see
/// `DomainKind::generator_goal`) with `size` written in the size column: `Random` shuffles the
/// goal's tokens (rotation: the 24 digits; booksort: the books; knights: the 25 pieces; burnt
/// pancakes are turned too: `DomainKind::random_start`), `Walk`
/// walks `moves` random moves (never undoing the one before) from it. `optimal` is left empty.
pub fn fixed(
    kind: DomainKind,
    size: &str,
    goal: &str,
    mode: &Mode,
    out: &mut dyn Write,
) -> Result<(), GenerateError> {
    let goal: Vec<&str> = goal.split_whitespace().collect();
    let (count, seed) = match *mode {
        Mode::All => {
            return Err(GenerateError::Refused(format!(
                "--all is for tiles and --puzzle only, not {}",
                kind.name()
            )))
        }
        Mode::Random { count, seed } | Mode::Walk { count, seed, .. } => (count, seed),
    };
    let mut rng = Rng::new(seed);
    let mut w = BufWriter::new(out);
    writeln!(w, "id,domain,size,start,goal,optimal")?;
    let from = Puzzle::fixed(kind, "", &goal.join(" "), None)
        .map_err(|(_, e)| GenerateError::Refused(e))?;
    for id in 1..=count {
        let start = match *mode {
            Mode::Walk { moves, .. } => walked(&from, moves, &mut rng),
            _ => kind.random_start(&goal, &mut rng),
        };
        writeln!(w, "{id},{},{size},{start},,", kind.name())?;
    }
    w.flush().map_err(GenerateError::from)
}

/// The most positions `Mode::All` takes on a defined puzzle: the BFS keeps each twice (to look
/// it up and in order), some 100 bytes each; the 2x2x2's 3,674,160 fit.
pub const ALL_MAX_POSITIONS: usize = 5_000_000;

/// Datasets of the puzzle a definition file defines (`file`, written `written` in the `puzzle`
/// column, relative to where the dataset goes), from its solved position: `Walk` walks, `All`
/// every position with its distance (a BFS), `Random` positions drawn uniformly from those the
/// moves reach (by the group's Schreier-Sims chain).
pub fn defined(
    file: &PuzzleFile,
    written: &str,
    mode: &Mode,
    out: &mut dyn Write,
) -> Result<(), GenerateError> {
    let d = &file.domain;
    let metric = d.metric().name();
    let size = d.size();
    let rows: Vec<(String, Option<u32>)> = match *mode {
        Mode::Random { count, seed } => {
            let group = d.group();
            let mut rng = Rng::new(seed);
            (0..count)
                .map(|_| {
                    let g = group.random(|n| rng.below(n));
                    (d.tokens(&d.position_of(&g)), None)
                })
                .collect()
        }
        Mode::All => {
            let all = d.every_position(ALL_MAX_POSITIONS).ok_or_else(|| {
                GenerateError::Refused(format!(
                    "--all: {} has more than {ALL_MAX_POSITIONS} positions under the {metric} metric",
                    file.shown
                ))
            })?;
            all.into_iter()
                .map(|(key, depth)| (d.tokens(&d.unpack(&key)), Some(depth)))
                .collect()
        }
        Mode::Walk { count, seed, moves } => {
            let mut rng = Rng::new(seed);
            (0..count)
                .map(|_| {
                    let (_, sequence) = d.scramble(moves, |n| rng.below(n));
                    (sequence, None)
                })
                .collect()
        }
    };
    let mut w = BufWriter::new(out);
    writeln!(w, "id,domain,size,start,goal,optimal,puzzle,metric")?;
    let mut line = Vec::new();
    for (id, (start, optimal)) in rows.iter().enumerate() {
        let (id, optimal) = ((id + 1).to_string(), optimal.map(|o| o.to_string()));
        line.clear();
        for field in [
            &id,
            "ksolve",
            &size,
            start,
            "",
            optimal.as_deref().unwrap_or(""),
        ] {
            csv_field(&mut line, field.as_bytes());
        }
        csv_field(&mut line, written.as_bytes());
        line.extend_from_slice(metric.as_bytes());
        line.push(b'\n');
        w.write_all(&line)?;
    }
    w.flush().map_err(GenerateError::from)
}

/// The start tokens of `puzzle` after `moves` random moves, none undoing the one before (fewer
/// where no other move is left).
fn walked(puzzle: &Puzzle, moves: u32, rng: &mut Rng) -> String {
    struct Walk<'r> {
        moves: u32,
        rng: &'r mut Rng,
    }
    impl UsePuzzle for Walk<'_> {
        type Output = String;
        fn with<F: Family>(self, d: &Arc<F>, start: &F::State) -> String {
            let mut s = start.clone();
            let mut back = F::NO_MOVE;
            for _ in 0..self.moves {
                let choices: Vec<F::Move> =
                    d.moves(&s).iter().copied().filter(|&m| m != back).collect();
                // A shelf of one or two books has no move but the one that undoes the last.
                if choices.is_empty() {
                    break;
                }
                let m = choices[self.rng.below(choices.len() as u64) as usize];
                back = d.inverse(&s, m);
                d.apply(&mut s, m);
            }
            d.tokens(&s)
        }
    }
    puzzle.with(Walk { moves, rng })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::tiles::{self, Manhattan};
    use crate::search::{ida_star, Limits, Outcome, Prune, Step, Variant};

    /// OEIS A089473: 8-puzzle states by distance from the goal.
    const A089473: [usize; 32] = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];

    fn spec(width: usize, height: usize, goal: &str) -> TilesSpec {
        let goal = if goal.is_empty() {
            tiles::default_goal(width * height)
        } else {
            tiles::parse_permutation(goal, width * height).unwrap()
        };
        TilesSpec {
            width,
            height,
            goal,
        }
    }

    fn generate(spec: &TilesSpec, mode: &Mode) -> String {
        let mut out = Vec::new();
        tiles(spec, mode, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// (id, start, optimal) of each row, after checking the header, the fixed columns and that
    /// the start is a solvable permutation.
    fn rows(text: &str, spec: &TilesSpec) -> Vec<(u64, Vec<u8>, Option<u32>)> {
        let n = spec.width * spec.height;
        let d = Tiles::new(spec.width, spec.height, &spec.goal).unwrap();
        let goal = spec
            .goal
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let size = format!("{}x{}", spec.width, spec.height);
        assert!(text.ends_with('\n') && !text.contains('\r'));
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("id,domain,size,start,goal,optimal"));
        lines
            .map(|line| {
                let f: Vec<&str> = line.split(',').collect();
                assert_eq!(f.len(), 6, "{line}");
                assert_eq!((f[1], f[2], f[4]), ("tiles", size.as_str(), goal.as_str()));
                let start = tiles::parse_permutation(f[3], n).unwrap();
                assert_eq!(f[3].split(' ').count(), n, "single spaces: {line}");
                assert!(d.is_solvable(&d.state(&start).unwrap()), "{line}");
                let optimal = (!f[5].is_empty()).then(|| f[5].parse().unwrap());
                (f[0].parse().unwrap(), start, optimal)
            })
            .collect()
    }

    fn manhattan(spec: &TilesSpec, start: &[u8]) -> usize {
        let w = spec.width;
        let at = |t: u8, s: &[u8]| s.iter().position(|&x| x == t).unwrap();
        (1..start.len() as u8)
            .map(|t| {
                let (a, g) = (at(t, start), at(t, &spec.goal));
                (a / w).abs_diff(g / w) + (a % w).abs_diff(g % w)
            })
            .sum()
    }

    #[test]
    fn rank_and_unrank_are_inverse_and_lexicographic() {
        let mut perm = [0u8; 5];
        let mut previous: Option<[u8; 5]> = None;
        for r in 0..120 {
            unrank(r, &mut perm);
            assert_eq!(rank(&perm), r);
            if let Some(p) = previous {
                assert!(p < perm);
            }
            previous = Some(perm);
        }
        assert_eq!(perm, [4, 3, 2, 1, 0]);
    }

    #[test]
    fn all_of_the_8_puzzle_matches_a089473() {
        let spec = spec(3, 3, "");
        let text = generate(&spec, &Mode::All);
        assert_eq!(text.lines().count(), 181_440 + 1);
        let rows = rows(&text, &spec);
        assert_eq!(
            text.lines().nth(1),
            Some("1,tiles,3x3,1 2 3 4 5 6 7 8 0,1 2 3 4 5 6 7 8 0,0")
        );
        let mut histogram = vec![0usize; A089473.len()];
        for (i, (id, start, optimal)) in rows.iter().enumerate() {
            assert_eq!(*id, i as u64 + 1);
            histogram[optimal.unwrap() as usize] += 1;
            if i > 0 {
                let (_, before, o) = &rows[i - 1];
                assert!(
                    (o.unwrap(), before) < (optimal.unwrap(), start),
                    "order at {id}"
                );
            }
        }
        assert_eq!(histogram, A089473);
    }

    #[test]
    fn all_of_2x3_with_another_goal_agrees_with_ida_star() {
        let spec = spec(2, 3, "0 5 4 3 2 1");
        let d = Tiles::new(2, 3, &spec.goal).unwrap();
        let rows = rows(&generate(&spec, &Mode::All), &spec);
        assert_eq!(rows.len(), 360);
        assert_eq!(rows[0].1, spec.goal);
        let max = rows.iter().map(|r| r.2.unwrap()).max();
        assert_eq!(max, Some(21));
        let variant = Variant {
            step: Step::Next,
            prune: Prune::Reverse,
        };
        for (_, start, optimal) in &rows {
            let s = d.state(start).unwrap();
            match ida_star(&d, &Manhattan::new(&d), &s, variant, Limits::default()).outcome {
                Outcome::Solved(p) => assert_eq!(Some(p.len() as u32), *optimal, "{start:?}"),
                other => panic!("{start:?}: {other:?}"),
            }
        }
    }

    /// Counts rows and keeps the last one, so the 110 MB of the largest board are not held.
    #[derive(Default)]
    struct Tail {
        lines: usize,
        last: Vec<u8>,
        current: Vec<u8>,
    }

    impl Write for Tail {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            for &b in buf {
                if b == b'\n' {
                    self.lines += 1;
                    self.last = std::mem::take(&mut self.current);
                } else {
                    self.current.push(b);
                }
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn all_of_the_largest_board_allowed() {
        let mut tail = Tail::default();
        tiles(&spec(5, 2, ""), &Mode::All, &mut tail).unwrap();
        assert_eq!(tail.lines, 1_814_400 + 1);
        // The 5x2 puzzle's diameter is 55.
        let last = String::from_utf8(tail.last).unwrap();
        assert!(last.ends_with(",55"), "{last}");
    }

    #[test]
    fn all_refuses_boards_over_ten_cells() {
        let err = tiles(&spec(4, 4, ""), &Mode::All, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("at most 10 cells") && err.contains("4x4"),
            "{err}"
        );
    }

    #[test]
    fn random_states_are_solvable_and_uniform() {
        let board = spec(4, 4, "");
        let mode = Mode::Random {
            count: 200,
            seed: 1,
        };
        let got = rows(&generate(&board, &mode), &board);
        assert_eq!(got.len(), 200);
        assert!(got.iter().all(|r| r.2.is_none()));
        // The 2x2 board has 12 solvable states: each should come up about 1000 times in 12000.
        let small = spec(2, 2, "");
        let mode = Mode::Random {
            count: 12_000,
            seed: 5,
        };
        let mut seen = std::collections::HashMap::new();
        for (_, start, _) in rows(&generate(&small, &mode), &small) {
            *seen.entry(start).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 12);
        assert!(seen.values().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    }

    #[test]
    fn walks_are_solvable_and_never_reverse() {
        let spec = spec(4, 3, "0 1 2 3 4 5 6 7 8 9 10 11");
        for (moves, expected) in [(1, Some(1)), (2, Some(2)), (40, None)] {
            let mode = Mode::Walk {
                count: 300,
                seed: 9,
                moves,
            };
            let rows = rows(&generate(&spec, &mode), &spec);
            assert_eq!(rows.len(), 300);
            for (_, start, optimal) in &rows {
                assert_eq!(*optimal, None);
                if let Some(e) = expected {
                    // Two moves from the goal that do not undo each other move two different
                    // tiles off their goal cells.
                    assert_eq!(manhattan(&spec, start), e, "{start:?}");
                }
            }
        }
        let zero = Mode::Walk {
            count: 1,
            seed: 1,
            moves: 0,
        };
        assert_eq!(rows(&generate(&spec, &zero), &spec)[0].1, spec.goal);
    }

    #[test]
    fn same_arguments_same_bytes() {
        let spec = spec(4, 4, "");
        for (a, b) in [
            (
                Mode::Random { count: 50, seed: 3 },
                Mode::Random { count: 50, seed: 4 },
            ),
            (
                Mode::Walk {
                    count: 50,
                    seed: 3,
                    moves: 30,
                },
                Mode::Walk {
                    count: 50,
                    seed: 4,
                    moves: 30,
                },
            ),
        ] {
            assert_eq!(generate(&spec, &a), generate(&spec, &a));
            assert_ne!(generate(&spec, &a), generate(&spec, &b));
        }
        let small = self::spec(2, 3, "");
        assert_eq!(generate(&small, &Mode::All), generate(&small, &Mode::All));
    }

    /// The bundled pancake stacks, plain and burnt, are what `generate --size N --count 100
    /// --seed N` writes, as datasets/README.md says.
    #[test]
    fn bundled_pancake_stacks_are_generate_ones() {
        for (kind, text) in [
            (
                DomainKind::Pancake,
                include_str!("../../datasets/pancake.csv"),
            ),
            (
                DomainKind::Pancake,
                include_str!("../../datasets/pancake40.csv"),
            ),
            (
                DomainKind::BurntPancake,
                include_str!("../../datasets/burnt-pancake.csv"),
            ),
        ] {
            let mut sizes: Vec<&str> = text
                .lines()
                .skip(1)
                .map(|l| l.split(',').nth(2).unwrap())
                .collect();
            sizes.dedup();
            let mut want = text.lines().skip(1);
            for size in sizes {
                let (size, goal) = kind.generator_goal(Some(size)).unwrap();
                let seed = size.parse().unwrap();
                let mut out = Vec::new();
                fixed(
                    kind,
                    &size,
                    &goal,
                    &Mode::Random { count: 100, seed },
                    &mut out,
                )
                .unwrap();
                for row in String::from_utf8(out).unwrap().lines().skip(1) {
                    let f: Vec<&str> = row.split(',').collect();
                    let w: Vec<&str> = want.next().unwrap().split(',').collect();
                    assert_eq!((w[1], w[2], w[3]), (f[1], f[2], f[3]), "{}", w[0]);
                    // pancake40.csv keeps generate's ids; the others prefix the size.
                    assert!(
                        w[0] == f[0] || w[0] == format!("n{size}-{}", f[0]),
                        "{}",
                        w[0]
                    );
                }
            }
            assert!(want.next().is_none());
        }
    }

    #[test]
    fn bad_goal_is_a_message() {
        let bad = TilesSpec {
            width: 3,
            height: 3,
            goal: vec![1, 2, 3],
        };
        assert!(tiles(&bad, &Mode::All, &mut Vec::new()).is_err());
    }

    #[test]
    fn walks_stop_where_only_the_reverse_move_is_left() {
        for (books, goal) in [("1", "1"), ("2", "1 2")] {
            let mode = Mode::Walk {
                count: 3,
                seed: 1,
                moves: 5,
            };
            let mut out = Vec::new();
            fixed(DomainKind::Booksort, books, goal, &mode, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_eq!(text.lines().count(), 4, "{text}");
        }
    }
}
