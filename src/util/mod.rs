//! Leaves that know nothing of puzzles or runs: user text and bounded reads, atomic writes,
//! mapped files (and a message, not a bus error, when one is cut short under the process),
//! number formats, text patterns, the build's identity, the clock, a seeded generator, and clean
//! stops on signals.

pub(crate) mod atomic;
pub mod build;
pub(crate) mod clock;
pub(crate) mod files;
pub(crate) mod format;
pub(crate) mod glob;
pub(crate) mod interrupt;
pub(crate) mod mapped;
pub mod rng;
pub(crate) mod sigbus;
pub(crate) mod term;
pub(crate) mod text;
