//! A KSolve/twsearch puzzle definition (`.tws`, `.def`) read from text: piece sets with their
//! orientations, the solved position and the base moves, each as a permutation of every set's
//! slots with orientation changes. What a file uses beyond that subset is refused naming the line
//! and keyword.
//!
//! Conventions (twsearch's, see docs): a permutation says where each slot's piece *comes from*
//! (entry `i` of a move is the slot whose piece moves into slot `i`); a position's entry `i` is
//! the piece in slot `i`. Orientation is kept per slot, in "state representation": a `Move`
//! block's orientation line is per piece (ksolve's), converted when read: `state.o[i] =
//! move.o[p[i]]`. Composing `a` then `b`: `c.p[j] = a.p[b.p[j]]`, `c.o[j] = (a.o[b.p[j]] +
//! b.o[j]) mod omod`.

use std::fmt;

/// One set of pieces: `size` slots, each piece with `omod` orientations (1: none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSet {
    pub name: String,
    pub size: usize,
    pub omod: u8,
    /// The line that defines it, for limits checked later.
    pub line: usize,
}

/// Every set's slots: the piece in (or coming from) each slot, 0-based, and its orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// `perm[set][slot]`.
    pub perm: Vec<Vec<u16>>,
    /// `ori[set][slot]`, each below the set's `omod`.
    pub ori: Vec<Vec<u8>>,
}

/// A base move as defined (its powers are made from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseMove {
    pub name: String,
    /// The line that names it, for errors found later (e.g. a move of order 1).
    pub line: usize,
    pub effect: Arrangement,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub name: String,
    pub sets: Vec<PieceSet>,
    /// The goal: pieces of one set may repeat (identical pieces, "colours").
    pub solved: Arrangement,
    pub moves: Vec<BaseMove>,
}

/// Why a file was refused: its line (from 1) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for DefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Keywords of the format this reader does not take: named when refused.
const UNSUPPORTED: [&str; 11] = [
    "StartState",
    "MoveTransformation",
    "MoveAlias",
    "MoveSequence",
    "Illegal",
    "Ignore",
    "Block",
    "ForbiddenPairs",
    "ForbiddenGroups",
    "Multiplicators",
    "ParallelMoves",
];

/// Largest set and orientation count taken (twsearch's limits are alike).
const MAX_SET: usize = 1 << 12;
pub(super) const MAX_OMOD: u8 = 127;

/// Whether `name` may name a set or a move: printable ASCII without the characters datasets and
/// positions use as separators (`,`, `"`, `/`) or that start a comment (`#`), and not a number
/// (a line of numbers is a permutation or turns).
fn fit_name(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_graphic() && !matches!(b, b',' | b'"' | b'/' | b'#'))
        && !name.bytes().all(|b| b.is_ascii_digit())
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, DefError> {
    Err(DefError {
        line,
        message: message.into(),
    })
}

/// The lines that hold tokens: (line number, tokens). A line whose first character is `#` is a
/// comment; tokens split at blanks.
fn lines(text: &str) -> Vec<(usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, t)| !t.is_empty())
        .collect()
}

/// Reads a definition file's text.
pub fn parse(text: &str) -> Result<Definition, DefError> {
    let lines = lines(text);
    let mut at = 0;
    let mut name = None;
    let mut sets: Vec<PieceSet> = Vec::new();
    let mut solved = None;
    let mut moves: Vec<BaseMove> = Vec::new();
    while at < lines.len() {
        let (line, ref tokens) = lines[at];
        at += 1;
        let keyword = tokens[0];
        match keyword {
            "Name" => {
                if at != 1 {
                    return err(line, "`Name` must be the file's first line");
                }
                let [_, n] = tokens[..] else {
                    return err(line, "expected `Name NAME`");
                };
                name = Some(n.to_string());
            }
            "Set" => {
                if solved.is_some() || !moves.is_empty() {
                    return err(
                        line,
                        "`Set` after `Solved` or a `Move`: every set comes first",
                    );
                }
                let [_, set, size, omod] = tokens[..] else {
                    return err(line, "expected `Set NAME SIZE ORIENTATIONS`");
                };
                if sets.iter().any(|s| s.name == set) {
                    return err(line, format!("set `{set}` is defined twice"));
                }
                if !fit_name(set) {
                    return err(
                        line,
                        format!("set name `{set}`: a name is printable ASCII without , \" / # and not a number"),
                    );
                }
                let size: usize = match size.parse() {
                    Ok(n) if (1..=MAX_SET).contains(&n) => n,
                    _ => {
                        return err(
                            line,
                            format!("set `{set}`: size `{size}` is not 1 to {MAX_SET}"),
                        )
                    }
                };
                let omod: u8 = match omod.parse() {
                    Ok(n) if (1..=MAX_OMOD).contains(&n) => n,
                    _ => {
                        return err(
                            line,
                            format!("set `{set}`: orientations `{omod}` is not 1 to {MAX_OMOD}"),
                        )
                    }
                };
                sets.push(PieceSet {
                    name: set.to_string(),
                    size,
                    omod,
                    line,
                });
            }
            "Solved" => {
                if tokens.len() != 1 {
                    return err(line, "expected `Solved` alone on its line");
                }
                if solved.is_some() {
                    return err(line, "a second `Solved`");
                }
                if sets.is_empty() {
                    return err(line, "`Solved` before any `Set`");
                }
                let (block, next) = block(&lines, at, line, &sets, Kind::Position)?;
                solved = Some(block);
                at = next;
            }
            "Move" => {
                let [_, move_name] = tokens[..] else {
                    return err(line, "expected `Move NAME`");
                };
                if sets.is_empty() {
                    return err(line, "`Move` before any `Set`");
                }
                if moves.iter().any(|m| m.name == move_name) {
                    return err(line, format!("move `{move_name}` is defined twice"));
                }
                if !fit_name(move_name) {
                    return err(
                        line,
                        format!("move name `{move_name}`: a name is printable ASCII without , \" / # and not a number"),
                    );
                }
                if sets.iter().any(|s| s.name == move_name) {
                    return err(
                        line,
                        format!(
                            "move `{move_name}` has the name of a set: a start would be ambiguous"
                        ),
                    );
                }
                let (effect, next) = block(&lines, at, line, &sets, Kind::Move)?;
                moves.push(BaseMove {
                    name: move_name.to_string(),
                    line,
                    effect,
                });
                at = next;
            }
            "End" => return err(line, "`End` without a block to end"),
            k if UNSUPPORTED.contains(&k) => {
                return err(line, format!("keyword `{k}` is not supported"));
            }
            k => return err(line, format!("unknown keyword `{k}`")),
        }
    }
    let last = lines.last().map_or(1, |l| l.0);
    if sets.is_empty() {
        return err(last, "no `Set`");
    }
    let Some(solved) = solved else {
        return err(last, "no `Solved` block");
    };
    if moves.is_empty() {
        return err(last, "no `Move`");
    }
    Ok(Definition {
        name: name.unwrap_or_else(|| "Unnamed".to_string()),
        sets,
        solved,
        moves,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Pieces may repeat (colours); orientation per slot.
    Position,
    /// A permutation of the slots; orientation per piece, converted to per slot.
    Move,
}

/// The block that begins at `lines[at]` (after the line `opened` that opened it), up to and
/// including its `End`: each set named on a line of its own, then its permutation (1-based),
/// then, optionally, its orientations. A set left out stays in place, unturned. Returns the
/// arrangement (0-based) and the index of the line after `End`.
fn block(
    lines: &[(usize, Vec<&str>)],
    mut at: usize,
    opened: usize,
    sets: &[PieceSet],
    kind: Kind,
) -> Result<(Arrangement, usize), DefError> {
    let mut perm: Vec<Vec<u16>> = sets.iter().map(|s| (0..s.size as u16).collect()).collect();
    let mut ori: Vec<Vec<u8>> = sets.iter().map(|s| vec![0; s.size]).collect();
    let mut given = vec![false; sets.len()];
    loop {
        let Some((line, tokens)) = lines.get(at) else {
            return err(opened, "block not closed by `End`");
        };
        let line = *line;
        at += 1;
        if tokens[..] == ["End"] {
            break;
        }
        let [set_name] = tokens[..] else {
            return err(
                line,
                format!(
                    "expected a set's name or `End`, found `{}`",
                    tokens.join(" ")
                ),
            );
        };
        let Some(s) = sets.iter().position(|s| s.name == set_name) else {
            return err(line, format!("unknown set `{set_name}`"));
        };
        if given[s] {
            return err(line, format!("set `{set_name}` twice in one block"));
        }
        given[s] = true;
        let set = &sets[s];
        let Some((pline, ptokens)) = lines.get(at) else {
            return err(
                line,
                format!("set `{set_name}`: its permutation is missing"),
            );
        };
        at += 1;
        let numbers = |l: usize, t: &[&str], what: &str| -> Result<Vec<usize>, DefError> {
            if t.len() != set.size {
                return err(
                    l,
                    format!(
                        "set `{set_name}`: {what} has {} entries, not {}",
                        t.len(),
                        set.size
                    ),
                );
            }
            t.iter()
                .map(|x| {
                    x.parse::<usize>().map_err(|_| DefError {
                        line: l,
                        message: format!("set `{set_name}`: `{x}` in its {what} is not a number"),
                    })
                })
                .collect()
        };
        let p = numbers(*pline, ptokens, "permutation")?;
        if let Some(&bad) = p.iter().find(|&&x| x == 0 || x > set.size) {
            return err(
                *pline,
                format!("set `{set_name}`: piece {bad} is not 1 to {}", set.size),
            );
        }
        if kind == Kind::Move {
            let mut seen = vec![false; set.size];
            for &x in &p {
                if std::mem::replace(&mut seen[x - 1], true) {
                    return err(
                        *pline,
                        format!("set `{set_name}`: not a permutation ({x} appears twice)"),
                    );
                }
            }
        }
        perm[s] = p.iter().map(|&x| (x - 1) as u16).collect();
        // An orientation line is one of numbers (no name is one): a set's name or `End` is the
        // next chunk.
        let has_ori = lines
            .get(at)
            .is_some_and(|(_, t)| t.iter().all(|x| x.bytes().all(|b| b.is_ascii_digit())));
        if has_ori {
            let (oline, otokens) = &lines[at];
            at += 1;
            let o = numbers(*oline, otokens, "orientation")?;
            if let Some(&bad) = o.iter().find(|&&x| x >= usize::from(set.omod)) {
                return err(
                    *oline,
                    format!(
                        "set `{set_name}`: orientation {bad} is not below {}",
                        set.omod
                    ),
                );
            }
            ori[s] = match kind {
                Kind::Position => o.iter().map(|&x| x as u8).collect(),
                // Per piece as written; per slot as kept: the slot takes its piece's change.
                Kind::Move => perm[s]
                    .iter()
                    .map(|&from| o[usize::from(from)] as u8)
                    .collect(),
            };
        }
    }
    Ok((Arrangement { perm, ori }, at))
}

impl Arrangement {
    /// `self` then `then`.
    pub fn then(&self, then: &Arrangement, sets: &[PieceSet]) -> Arrangement {
        let mut perm = Vec::with_capacity(sets.len());
        let mut ori = Vec::with_capacity(sets.len());
        for (s, set) in sets.iter().enumerate() {
            let (ap, ao, bp, bo) = (&self.perm[s], &self.ori[s], &then.perm[s], &then.ori[s]);
            perm.push(bp.iter().map(|&j| ap[usize::from(j)]).collect());
            ori.push(
                bp.iter()
                    .zip(bo)
                    .map(|(&j, &o)| (ao[usize::from(j)] + o) % set.omod)
                    .collect(),
            );
        }
        Arrangement { perm, ori }
    }

    /// The identity of `sets`: every piece home, unturned.
    pub fn identity(sets: &[PieceSet]) -> Arrangement {
        Arrangement {
            perm: sets.iter().map(|s| (0..s.size as u16).collect()).collect(),
            ori: sets.iter().map(|s| vec![0; s.size]).collect(),
        }
    }
}

/// A move of the search: a base move's power, named as twsearch names it (`R`, `R2`, `R'`;
/// order 5: `R`, `R2`, `R2'`, `R'`), with how many quarter turns it is (`|amount|`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Power {
    pub name: String,
    /// Which base move (index into `Definition::moves`).
    pub base: usize,
    /// Signed: clockwise powers up to half the order, counter-clockwise below.
    pub amount: i32,
    pub effect: Arrangement,
}

/// The largest order of a move taken (its powers but the identity are moves).
const MAX_ORDER: usize = 256;

impl Definition {
    /// Every base move's powers but the identity, in file order, each base move's clockwise
    /// first. A move whose order is 1 (it moves nothing) or above `MAX_ORDER` is refused, naming
    /// its line.
    pub fn powers(&self) -> Result<Vec<Power>, DefError> {
        let identity = Arrangement::identity(&self.sets);
        let mut out = Vec::new();
        for (b, m) in self.moves.iter().enumerate() {
            let mut all = vec![m.effect.clone()];
            loop {
                let next = all.last().unwrap().then(&m.effect, &self.sets);
                if next == identity {
                    break;
                }
                if all.len() + 1 >= MAX_ORDER {
                    return err(
                        m.line,
                        format!("move `{}`: order above {MAX_ORDER}", m.name),
                    );
                }
                all.push(next);
            }
            if all[0] == identity {
                return err(m.line, format!("move `{}` moves nothing", m.name));
            }
            let order = all.len() as i32 + 1;
            for (k, effect) in all.into_iter().enumerate() {
                let k = k as i32 + 1;
                let amount = if order - k < k { k - order } else { k };
                let mut name = m.name.clone();
                if amount.abs() != 1 {
                    name.push_str(&amount.abs().to_string());
                }
                if amount < 0 {
                    name.push('\'');
                }
                out.push(Power {
                    name,
                    base: b,
                    amount,
                    effect,
                });
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corner set of a 2x2x2 with the DBL corner fixed: ksolve's 2x2x2.def's U, R and F.
    const CUBE2: &str = "\
# the 2x2x2 with one corner fixed
Name Cube2
Set CORNERS 7 3
Solved
CORNERS
1 2 3 4 5 6 7
End
Move U
CORNERS
4 1 2 3 5 6 7
End
Move R
CORNERS
2 6 3 4 1 5 7
1 2 0 0 2 1 0
End
";

    #[test]
    fn a_small_definition_is_read() {
        let d = parse(CUBE2).unwrap();
        assert_eq!(d.name, "Cube2");
        assert_eq!(
            d.sets,
            [PieceSet {
                name: "CORNERS".into(),
                size: 7,
                omod: 3,
                line: 3,
            }]
        );
        assert_eq!(d.moves.len(), 2);
        assert_eq!(d.moves[0].effect.perm[0], [3, 0, 1, 2, 4, 5, 6]);
        // R: per piece 1 2 0 0 2 1 0, taken at each slot's source 1 5 2 3 0 4 6 (0-based).
        assert_eq!(d.moves[1].effect.ori[0], [2, 1, 0, 0, 1, 2, 0]);
    }

    #[test]
    fn four_quarter_turns_are_the_identity() {
        let d = parse(CUBE2).unwrap();
        for m in &d.moves {
            let mut a = Arrangement::identity(&d.sets);
            for _ in 0..4 {
                a = a.then(&m.effect, &d.sets);
            }
            assert_eq!(a, Arrangement::identity(&d.sets), "{}", m.name);
        }
    }

    #[test]
    fn powers_are_named_as_twsearch_names_them() {
        let d = parse(CUBE2).unwrap();
        let names: Vec<String> = d.powers().unwrap().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["U", "U2", "U'", "R", "R2", "R'"]);
        // A 5-cycle: R, R2, R2', R'.
        let five = "Set S 5 1\nSolved\nS\n1 2 3 4 5\nEnd\nMove R\nS\n2 3 4 5 1\nEnd\n";
        let names: Vec<String> = parse(five)
            .unwrap()
            .powers()
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["R", "R2", "R2'", "R'"]);
        let still = "Set S 2 1\nSolved\nS\n1 2\nEnd\nMove I\nS\n1 2\nEnd\n";
        assert_eq!(parse(still).unwrap().powers().unwrap_err().line, 6);
    }

    #[test]
    fn malformed_files_are_refused_naming_the_line() {
        let cases = [
            (
                CUBE2.replace("Move U", "Turn U"),
                8,
                "unknown keyword `Turn`",
            ),
            (
                CUBE2.replace("4 1 2 3 5 6 7", "4 1 2 3 5 6"),
                10,
                "6 entries, not 7",
            ),
            (
                CUBE2.replace("4 1 2 3 5 6 7", "4 1 2 3 5 6 6"),
                10,
                "not a permutation",
            ),
            (
                CUBE2.replace("1 2 0 0 2 1 0", "3 2 0 0 2 1 0"),
                15,
                "orientation 3 is not below 3",
            ),
            (
                CUBE2.replace("Move R", "Illegal R"),
                12,
                "keyword `Illegal` is not supported",
            ),
            (
                CUBE2.replace("2 6 3 4 1 5 7", "2 6 3 4 1 5 9"),
                14,
                "piece 9 is not 1 to 7",
            ),
            (
                CUBE2.replace("1 2 0 0 2 1 0", "1 2 0 0 2 1"),
                15,
                "orientation has 6 entries, not 7",
            ),
            (CUBE2.replace("Move R", "Move R,2"), 12, "move name `R,2`"),
            (
                CUBE2.replace("Move R", "Move CORNERS"),
                12,
                "the name of a set",
            ),
            (CUBE2.replace("Set CORNERS", "Set 12"), 3, "set name `12`"),
        ];
        for (text, line, says) in cases {
            let e = parse(&text).unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.message.contains(says), "{e}");
        }
    }
}
