//! Leaves that know nothing of puzzles or runs: user text and bounded reads, atomic writes,
//! mapped files, number formats, the build's identity, the clock, a seeded generator, and clean stops on signals.

pub mod atomic;
pub mod build;
pub mod clock;
pub mod format;
pub mod interrupt;
pub mod mapped;
pub mod rng;
pub mod term;
pub mod text;
