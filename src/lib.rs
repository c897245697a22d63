//! idabench: a parallel batch benchmarking harness for IDA* on permutation puzzles.
//!
//! The library in wings, from the leaves up: `util` (terminal, numbers, files, clock, signals),
//! `search` (the engine), `tables` (heuristic tables on disk and in memory, and the engine's
//! duplicate-pruning automata), `domains` (the
//! puzzles, their heuristics and judges' formats), `dataset` (CSV instances and generators),
//! `results` (what a run leaves on disk), `compare`, `plot` (the pictures), `report` (the pages
//! and pictures written with a run or a comparison), `runner` (planning and solving jobs), `ab`
//! (two builds measured side by side) and `cmd` (the subcommands). `error` is where every
//! outcome becomes an exit code.

mod ab;
pub mod cmd;
mod compare;
pub mod dataset;
pub mod domains;
mod error;
mod plot;
mod report;
pub mod results;
pub mod runner;
pub mod search;
pub mod tables;
pub mod util;
