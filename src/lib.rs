//! idabench: a parallel batch benchmarking harness for IDA* on permutation puzzles.

pub mod app;
pub mod cli;
pub mod domains;
pub mod record;
pub mod rng;
pub mod search;
pub mod solve;
