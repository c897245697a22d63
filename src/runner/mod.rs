//! Running jobs: one instance under one variant solved by the engine (`solve`), and a batch of
//! them on rayon's workers (`batch`).

pub mod batch;
pub mod job;
pub mod machine;
mod meter;
pub mod plan;
pub mod prepare;
mod progress;
pub mod protocol;
pub mod solve;
