//! Placeholder for the builder of duplicate-pruning automata, which replaces this file at merge:
//! here every depth gives the depth-2 automaton, reverse-move pruning.

use crate::search::fsm::{Automaton, Moves};

/// The automaton that forbids only a move straight after its inverse, the inverses found from
/// `moves`. Err when a move has no inverse among them.
pub fn build(moves: &Moves, _depth: u32) -> Result<Automaton, String> {
    let inverse: Option<Vec<usize>> = match moves {
        Moves::Walk(steps) => steps
            .iter()
            .map(|&(dx, dy)| steps.iter().position(|&s| s == (-dx, -dy)))
            .collect(),
        Moves::Permutations(perms) => perms
            .iter()
            .map(|p| {
                perms.iter().position(|q| {
                    p.iter()
                        .enumerate()
                        .all(|(i, &to)| q[to as usize] as usize == i)
                })
            })
            .collect(),
    };
    let inverse = inverse.ok_or("a move without an inverse among the moves")?;
    if inverse.is_empty() {
        return Err("no moves".into());
    }
    Ok(Automaton::reverse_only(&inverse))
}
