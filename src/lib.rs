//! idabench: a parallel batch benchmarking harness for IDA* on permutation puzzles.

pub mod ab;
pub mod app;
pub mod atomic;
pub mod batch;
pub mod cli;
pub mod clock;
pub mod compare;
pub mod dataset;
pub mod domains;
pub mod error;
pub mod generate;
pub mod heuristics;
pub mod judge;
pub mod merge;
pub mod pdb;
pub mod plot;
pub mod record;
pub mod report;
pub mod rng;
pub mod run;
pub mod search;
pub mod shard;
pub mod slurm;
pub mod solve;
pub mod text;
pub mod worker;
