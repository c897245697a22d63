//! The original judges' input and output formats, so that idabench can stand in for the seeds'
//! programs and be checked against judge data byte for byte.

use crate::domains::tiles::{self, Manhattan, Tiles};
use crate::search::{ida_star, Domain, Limits, Outcome, Step, Variant};

/// The judge problems idabench reads and answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Luogu P1379: one line of 9 digits (0 = blank), goal 123804765; prints the minimum moves.
    P1379,
    /// UVA 10181: a count, then 4x4 boards; prints the blank's moves (L R U D, at most 50) or
    /// `This puzzle is not solvable.`.
    Uva10181,
    /// TIOJ 1573: one 4x4 board; prints the minimum moves, or -1 when unsolvable.
    Tioj1573,
}

impl Problem {
    pub const ALL: [Problem; 3] = [Problem::P1379, Problem::Uva10181, Problem::Tioj1573];

    pub fn name(self) -> &'static str {
        match self {
            Problem::P1379 => "p1379",
            Problem::Uva10181 => "uva10181",
            Problem::Tioj1573 => "tioj1573",
        }
    }

    pub fn parse(s: &str) -> Option<Problem> {
        Problem::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// Korf's search: Manhattan distance, bound raised to the next f, no move undoing the last.
const KORF: Variant = Variant {
    step: Step::Next,
    reverse_pruning: true,
};

/// The judge's expected output for `input`; an error describes malformed input.
pub fn answer(problem: Problem, input: &str) -> Result<String, String> {
    match problem {
        Problem::P1379 => p1379(input),
        Problem::Uva10181 => uva10181(input),
        Problem::Tioj1573 => tioj1573(input),
    }
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
    let limits = Limits {
        max_depth,
        ..Limits::default()
    };
    match ida_star(d, &Manhattan, &start, KORF, limits).outcome {
        Outcome::Solved(path) => Ok(Some(d.path_string(&start, &path))),
        Outcome::OverCap => Ok(None),
        other => Err(format!("the search ended without an answer: {other:?}")),
    }
}

fn p1379(input: &str) -> Result<String, String> {
    let line = input
        .split_whitespace()
        .next()
        .ok_or("empty input: expected 9 digits")?;
    if line.len() != 9 || !line.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{line}': expected 9 digits, 0 for the blank"));
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
    let count: usize = tokens
        .next()
        .ok_or("empty input: expected the number of boards")?
        .parse()
        .map_err(|_| "the first token must be the number of boards".to_string())?;
    let d = Tiles::new(4, 4, &tiles::default_goal(16))?;
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
    fn malformed_input_is_an_error() {
        assert!(answer(Problem::P1379, "").is_err());
        assert!(answer(Problem::P1379, "28310476").is_err());
        assert!(answer(Problem::P1379, "283104766").is_err());
        assert!(answer(Problem::Uva10181, "2\n1 2 3").is_err());
        assert!(answer(Problem::Uva10181, "x").is_err());
        assert!(answer(Problem::Tioj1573, "1 2 3").is_err());
    }
}
