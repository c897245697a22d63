//! The puzzles: each a `Domain` with its own heuristics.

pub mod booksort;
pub mod knights;
pub mod rotation;
pub mod tiles;
