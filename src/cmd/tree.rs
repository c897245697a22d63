//! `idabench tree`: the brute-force tree of a sliding-tile board under a pruning, counted depth
//! by depth, and its asymptotic branching factor.

use super::print;
use crate::cmd::args::{TreeArgs, TreeFormat};
use crate::domains::tiles;
use crate::domains::Family;
use crate::error::{Done, Error};
use crate::runner::prepare;
use crate::search::fsm::{Automaton, Moves};
use crate::search::Pruning;
use crate::tables::fsm::tree::Classes;
use crate::tables::store;
use crate::tables::{automata, fsm};
use std::fmt::Write as _;
use std::io::Write;

/// The blank's steps (column, row) in the search's order: up, left, right, down (Korf's).
const STEPS: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
/// The deepest `--depth`: 4^d passes 2^128 at d = 64, and a tree that does not grow has nothing
/// new to say that deep.
const MAX_DEPTH: u32 = 10_000;
/// The labels that undo each of `STEPS`.
const INVERSE: [usize; 4] = [3, 2, 1, 0];

/// Runs `idabench tree`: every argument is checked before anything is counted.
pub(super) fn tree(args: &TreeArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    let (width, height) =
        tiles::parse_size(&args.size).map_err(|e| Error::usage(format!("--size: {e}")))?;
    if args.blank >= width * height {
        return Err(Error::usage(format!(
            "--blank: cell {} is off the {width}x{height} board (cells 0 to {})",
            args.blank,
            width * height - 1
        )));
    }
    if args.depth == 0 {
        return Err(Error::usage("--depth: 0 counts nothing; give 1 or more"));
    }
    if args.depth > MAX_DEPTH {
        return Err(Error::usage(format!(
            "--depth: {} is more than {MAX_DEPTH}; counts of a growing tree pass 128 bits long \
             before",
            args.depth
        )));
    }
    let pruning = Pruning::parse(args.pruning.trim()).ok_or_else(|| {
        Error::usage(format!(
            "--pruning: '{}' is not none, reverse, fsm or fsmN (N from 2 to {})",
            args.pruning,
            Pruning::MAX_FSM_DEPTH
        ))
    })?;
    let pruning = pruning.or_depth(<tiles::Tiles as Family>::FSM_DEPTH);
    let (none, reverse);
    let (automaton, how): (&Automaton, String) = match pruning {
        Pruning::None => {
            none = Automaton::from_table(STEPS.len(), vec![0; STEPS.len()].into(), 1);
            (&none, String::new())
        }
        Pruning::Reverse => {
            reverse = Automaton::reverse_only(&INVERSE);
            (&reverse, String::new())
        }
        Pruning::Fsm(depth) => fsm_automaton(args, (width, height), depth)?,
        Pruning::FsmDefault => {
            fsm_automaton(args, (width, height), <tiles::Tiles as Family>::FSM_DEPTH)?
        }
    };
    let classes = Classes::new(width, height, args.blank, &STEPS, automaton);
    let counts = classes.counts(args.depth);
    let factor = classes.factor();
    let ratio = |d: usize| (d > 0).then(|| counts.nodes[d] as f64 / counts.nodes[d - 1] as f64);
    let mut text = String::new();
    match args.format {
        TreeFormat::Csv => {
            text.push_str("depth,nodes,ratio,branching_factor\n");
            for (d, n) in counts.nodes.iter().enumerate() {
                let r = ratio(d).map_or(String::new(), |r| format!("{r:.9}"));
                let _ = writeln!(text, "{d},{n},{r},{:.9}", factor.value);
            }
        }
        TreeFormat::Text => {
            let _ = writeln!(
                text,
                "board {width}x{height}, blank on cell {}, pruning {}",
                args.blank,
                pruning.name()
            );
            let _ = writeln!(
                text,
                "automaton: {} states, {} bytes{}; {} classes (cell, automaton state)\n",
                automaton.states(),
                automaton.bytes(),
                how,
                classes.len()
            );
            let wide = counts
                .nodes
                .last()
                .map_or(1, |n| n.to_string().len())
                .max(5);
            let _ = writeln!(text, "depth  {:>wide$}  ratio", "nodes");
            for (d, n) in counts.nodes.iter().enumerate() {
                let r = ratio(d).map_or(String::new(), |r| format!("{r:.6}"));
                let _ = writeln!(text, "{d:>5}  {n:>wide$}  {r}");
            }
            let how = if factor.value == 0.0 {
                "the tree is finite".to_string()
            } else if factor.converged {
                format!(
                    "sqrt(N(d+2)/N(d)) at d = {}, changing by less than 1e-9",
                    factor.depth
                )
            } else {
                format!(
                    "sqrt(N(d+2)/N(d)) at d = {}, still changing by 1e-9 or more: not settled",
                    factor.depth
                )
            };
            let _ = writeln!(
                text,
                "\nasymptotic branching factor: {:.9} ({how})",
                factor.value
            );
        }
    }
    print(stdout, &text)?;
    let last = counts.nodes.len() - 1;
    if counts.nodes[last] == 0 {
        let _ = writeln!(
            std::io::stderr(),
            "note: no node at depth {last}: the tree ends at depth {}",
            last - 1
        );
    }
    if let Some(d) = counts.overflow {
        // On stderr, so that csv stays a table; the rows before it are exact.
        let _ = writeln!(
            std::io::stderr(),
            "note: the count at depth {d} does not fit in 128 bits: counted to depth {}",
            d - 1
        );
    }
    Ok(Done::Ok)
}

/// The automaton of `depth` within `board`, read from the cache directory or built (and written
/// there) with a progress bar unless `--quiet`; in memory only when there is no cache directory.
/// With what having it took, for the text.
fn fsm_automaton(
    args: &TreeArgs,
    board: (usize, usize),
    depth: u32,
) -> Result<(&'static Automaton, String), Error> {
    let moves = Moves::Walk(STEPS.to_vec());
    let key = automata::Key {
        domain: <tiles::Tiles as Family>::NAME,
        moves: &moves,
        window: Some(board),
        depth,
    };
    // A depth the builder would refuse is a usage error (exit 2), said before anything is read
    // or built; what fails after that is the machine's (exit 1).
    if let Err(e) = fsm::estimate(&moves, depth, Some(board)) {
        return Err(Error::usage(format!("--pruning fsm{depth}: {e}")));
    }
    let refused = |e: String| Error::Runtime(format!("--pruning fsm{depth}: {e}"));
    if let Ok(dir) = prepare::cache_dir(args.dir.pdb_dir.as_deref()) {
        let options = store::Options {
            dir,
            build: true,
            rebuild: false,
            quiet: args.quiet,
            stop: None,
        };
        automata::prepare(&key, &options).map_err(refused)?;
    }
    let automaton = automata::shared(&moves, key.window, depth).map_err(refused)?;
    let info = automata::info(key.domain, &moves, key.window, depth).expect("ready above");
    let how = match info.read_s {
        Some(s) => format!(", read in {s:.2} s"),
        None => format!(", built in {:.2} s", info.build_s),
    };
    Ok((automaton, how))
}
