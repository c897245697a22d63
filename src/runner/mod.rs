//! Running jobs: one instance under one variant solved by the engine (`solve`), and a batch of
//! them on rayon's workers (`batch`).

pub mod batch;
pub mod job;
pub(crate) mod machine;
mod meter;
pub(crate) mod plan;
pub(crate) mod prepare;
mod progress;
pub(crate) mod protocol;
pub mod solve;
