//! The puzzles: each a `Domain` with its own heuristics.

pub mod tiles;
