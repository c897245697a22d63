//! The original judges' input and output formats, so that idabench can stand in for the seeds'
//! programs and be checked against judge data byte for byte.

use crate::domains::booksort::{self, Booksort, Breaks};
use crate::domains::knights::{self, Knights};
use crate::domains::rotation::{Center, Rotation};
use crate::domains::tiles::{self, Manhattan, Tiles};
use crate::search::{ida_star, Domain, Heuristic, Limits, Outcome, Prune, Step, Variant};
use crate::util::text::shorten;

/// The judge problems idabench reads and answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Luogu P1379: one line of 9 digits (0 = blank), goal 123804765; prints the minimum moves.
    P1379,
    /// UVA 10181: a count, then 4x4 boards; prints the blank's moves (L R U D, at most 50; the
    /// first in dictionary order among the shortest) or `This puzzle is not solvable.`.
    Uva10181,
    /// TIOJ 1573: one 4x4 board; prints the minimum moves, or -1 when unsolvable.
    Tioj1573,
    /// POJ 2286: lines of 24 digits, ended by a line `0`; prints the moves (lexicographically first
    /// among the shortest) or `No moves needed`, then the centre digit.
    Poj2286,
    /// POJ 3460: a count, then per case n and n books; prints the moves if at most 4, else
    /// `5 or more`.
    Poj3460,
    /// Luogu P2324: a count, then per case 5 rows of 5 of `0`, `1`, `*`; prints the moves if at
    /// most 15, else -1.
    P2324,
}

impl Problem {
    pub const ALL: [Problem; 6] = [
        Problem::P1379,
        Problem::Uva10181,
        Problem::Tioj1573,
        Problem::Poj2286,
        Problem::Poj3460,
        Problem::P2324,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Problem::P1379 => "p1379",
            Problem::Uva10181 => "uva10181",
            Problem::Tioj1573 => "tioj1573",
            Problem::Poj2286 => "poj2286",
            Problem::Poj3460 => "poj3460",
            Problem::P2324 => "p2324",
        }
    }

    pub fn parse(s: &str) -> Option<Problem> {
        Problem::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// Korf's search: Manhattan distance, bound raised to the next f, no move undoing the last.
const KORF: Variant = Variant {
    step: Step::Next,
    prune: Prune::Reverse,
};

/// Judge input that cannot be answered: the problem, and what is wrong with the input.
#[derive(Debug, thiserror::Error)]
#[error("{problem}: {message}")]
pub struct JudgeError {
    problem: &'static str,
    message: String,
}

/// The judge's expected output for `input`; an error describes malformed input.
pub fn answer(problem: Problem, input: &str) -> Result<String, JudgeError> {
    solve(problem, input).map_err(|message| JudgeError {
        problem: problem.name(),
        message,
    })
}

fn solve(problem: Problem, input: &str) -> Result<String, String> {
    match problem {
        Problem::P1379 => p1379(input),
        Problem::Uva10181 => uva10181(input),
        Problem::Tioj1573 => tioj1573(input),
        Problem::Poj2286 => poj2286(input),
        Problem::Poj3460 => poj3460(input),
        Problem::P2324 => p2324(input),
    }
}

/// The first solution of Korf's search with `h` on `d` from `start`, or `None` when there is
/// none within the domain's cap (or `max_depth`).
fn first_solution<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    start: &D::State,
    max_depth: Option<u32>,
) -> Result<Option<Vec<D::Move>>, String> {
    let limits = Limits {
        max_depth,
        ..Limits::default()
    };
    match ida_star(d, h, start, KORF, limits).outcome {
        Outcome::Solved(path) => Ok(Some(path)),
        Outcome::OverCap | Outcome::Unsolvable => Ok(None),
        _ => Err("the search stopped without an answer".into()),
    }
}

/// Cases up to a line holding `0`; tokens of a case may not span lines.
fn poj2286(input: &str) -> Result<String, String> {
    let d = Rotation::new();
    let mut out = String::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.trim();
        if line == "0" {
            return Ok(out);
        }
        if line.is_empty() {
            continue;
        }
        let start = Rotation::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        // Step `next` with pruning of the reverse move only: the contract that yields the
        // lexicographically first shortest answer.
        let path = first_solution(&d, &Center, &start, None)?
            .ok_or_else(|| format!("line {}: no solution found", i + 1))?;
        out.push_str(&d.judge_answer(&start, &d.path_string(&start, &path)));
    }
    Err("the input must end with a line holding 0".into())
}

/// The next token as a count; the error says what was expected.
fn number<'a>(tokens: &mut impl Iterator<Item = &'a str>, what: &str) -> Result<usize, String> {
    let tok = tokens
        .next()
        .ok_or_else(|| format!("input ended: expected {what}"))?;
    tok.parse()
        .map_err(|_| format!("'{}': expected {what}", shorten(tok)))
}

fn poj3460(input: &str) -> Result<String, String> {
    let mut tokens = input.split_whitespace();
    let mut number = |what: &str| number(&mut tokens, what);
    let cases = number("the number of cases")?;
    let mut out = String::new();
    for case in 1..=cases {
        let n = number("the number of books")?;
        let books: Vec<String> = (0..n)
            .map(|_| number("a book number").map(|b| b.to_string()))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("case {case}: {e}"))?;
        let (d, start) =
            Booksort::parse(&books.join(" ")).map_err(|e| format!("case {case}: {e}"))?;
        let path = first_solution(&d, &Breaks, &start, None)?;
        out.push_str(&booksort::judge_answer(path.map(|p| p.len() as u32)));
    }
    Ok(out)
}

fn p2324(input: &str) -> Result<String, String> {
    let mut tokens = input.split_whitespace();
    let cases = number(&mut tokens, "the number of cases")?;
    let d = Knights::new();
    let mut out = String::new();
    for case in 1..=cases {
        let rows: Vec<&str> = tokens.by_ref().take(5).collect();
        if rows.len() != 5 {
            return Err(format!(
                "case {case}: expected 5 rows, found {}",
                rows.len()
            ));
        }
        let start = Knights::parse(&rows.join(" ")).map_err(|e| format!("case {case}: {e}"))?;
        let path = first_solution(&d, &knights::Misplaced, &start, None)?;
        out.push_str(&knights::judge_answer(path.map(|p| p.len() as u32)));
    }
    Ok(out)
}

/// Solves a tiles start (tokens row-major, 0 = blank) on `d`, within `max_depth` moves.
fn solve_tiles(
    d: &Tiles,
    tokens: &[&str],
    max_depth: Option<u32>,
) -> Result<Option<String>, String> {
    let start = d.state(&tiles::parse_permutation(&tokens.join(" "), d.cells())?)?;
    if !d.is_solvable(&start) {
        return Ok(None);
    }
    let h = Manhattan::new(d);
    Ok(first_solution(d, &h, &start, max_depth)?.map(|path| d.path_string(&start, &path)))
}

fn p1379(input: &str) -> Result<String, String> {
    let line = input
        .split_whitespace()
        .next()
        .ok_or("empty input: expected 9 digits")?;
    if line.len() != 9 || !line.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{}': expected 9 digits, 0 for the blank",
            shorten(line)
        ));
    }
    let tokens: Vec<String> = line.chars().map(String::from).collect();
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let goal = tiles::parse_permutation("1 2 3 8 0 4 7 6 5", 9)?;
    let d = Tiles::new(3, 3, &goal)?;
    match solve_tiles(&d, &tokens, None)? {
        Some(path) => Ok(format!("{}\n", path.len())),
        None => Err(format!("'{line}' cannot reach 123804765")),
    }
}

fn uva10181(input: &str) -> Result<String, String> {
    let mut tokens = input.split_whitespace();
    let count = number(&mut tokens, "the number of boards")?;
    // Moves tried in alphabetical order: the first shortest path found is the first in dictionary
    // order, the one the reference answers give (the judge itself accepts any path).
    let d = Tiles::with_order(4, 4, &tiles::default_goal(16), "DLRU")?;
    let mut out = String::new();
    for case in 1..=count {
        let board: Vec<&str> = tokens.by_ref().take(16).collect();
        if board.len() != 16 {
            return Err(format!(
                "board {case}: expected 16 numbers, found {}",
                board.len()
            ));
        }
        match solve_tiles(&d, &board, Some(50)).map_err(|e| format!("board {case}: {e}"))? {
            Some(path) => out.push_str(&path),
            None => out.push_str("This puzzle is not solvable."),
        }
        out.push('\n');
    }
    Ok(out)
}

fn tioj1573(input: &str) -> Result<String, String> {
    let board: Vec<&str> = input.split_whitespace().collect();
    if board.len() != 16 {
        return Err(format!("expected 16 numbers, found {}", board.len()));
    }
    let d = Tiles::new(4, 4, &tiles::default_goal(16))?;
    Ok(match solve_tiles(&d, &board, None)? {
        Some(path) => format!("{}\n", path.len()),
        None => "-1\n".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_samples() {
        assert_eq!(answer(Problem::P1379, "283104765\n").unwrap(), "4\n");
        let uva = "2\n2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n13 1 2 4\n5 0 3 7\n9 6 10 12\n15 8 11 14\n";
        assert_eq!(
            answer(Problem::Uva10181, uva).unwrap(),
            "LLLDRDRDR\nThis puzzle is not solvable.\n"
        );
        assert_eq!(
            answer(
                Problem::Tioj1573,
                "2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n"
            )
            .unwrap(),
            "9\n"
        );
        assert_eq!(
            answer(
                Problem::Tioj1573,
                "13 1 2 4\n5 0 3 7\n9 6 10 12\n15 8 11 14\n"
            )
            .unwrap(),
            "-1\n"
        );
    }

    #[test]
    fn the_other_judges_samples() {
        let rotation = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n\
                        1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n";
        assert_eq!(
            answer(Problem::Poj2286, rotation).unwrap(),
            "AC\n2\nDDHH\n2\n"
        );
        let books = "3\n6\n1 3 4 6 2 5\n5\n5 4 3 2 1\n10\n6 8 5 3 4 7 2 9 1 10\n";
        assert_eq!(
            answer(Problem::Poj3460, books).unwrap(),
            "2\n3\n5 or more\n"
        );
        let knights = "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n";
        assert_eq!(answer(Problem::P2324, knights).unwrap(), "7\n-1\n");
    }

    /// The UVA answer is the first shortest path in dictionary order: never after the path of
    /// Korf's move order, and of the same length.
    #[test]
    fn uva_paths_come_first_in_dictionary_order() {
        let goal = tiles::default_goal(16);
        let korf = Tiles::new(4, 4, &goal).unwrap();
        let mut rng = crate::util::rng::Rng::new(10181);
        for _ in 0..20 {
            let mut s = korf.goal().clone();
            for _ in 0..24 {
                let moves = korf.moves(&s);
                let m = moves[rng.below(moves.len() as u64) as usize];
                korf.apply(&mut s, m);
            }
            let board: Vec<String> = korf.tiles(&s).iter().map(u8::to_string).collect();
            let uva = answer(Problem::Uva10181, &format!("1\n{}\n", board.join(" "))).unwrap();
            let uva = uva.trim_end();
            let path = first_solution(&korf, &Manhattan::new(&korf), &s, None)
                .unwrap()
                .unwrap();
            let first = korf.path_string(&s, &path);
            assert_eq!(uva.len(), first.len());
            assert!(uva <= first.as_str(), "{uva} after {first}");
        }
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(answer(Problem::Poj2286, "1 1 1\n0\n").is_err());
        assert!(answer(
            Problem::Poj2286,
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n"
        )
        .is_err());
        assert!(answer(Problem::Poj3460, "1\n3\n1 2").is_err());
        assert!(answer(Problem::P2324, "1\n10110\n01*11\n").is_err());
        assert!(answer(Problem::P1379, "").is_err());
        assert!(answer(Problem::P1379, "28310476").is_err());
        assert!(answer(Problem::P1379, "283104766").is_err());
        assert!(answer(Problem::Uva10181, "2\n1 2 3").is_err());
        assert!(answer(Problem::Uva10181, "x").is_err());
        assert!(answer(Problem::Tioj1573, "1 2 3").is_err());
    }
}
