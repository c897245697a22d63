//! Running jobs: the plan of a run's jobs from one options type (`plan`), their tables made ready
//! (`prepare`), one instance under one variant solved by the engine (`solve`) and recorded as a
//! job (`job`), a batch of jobs on rayon's workers (`batch`, with its CPU `meter` and
//! `progress`), the worker protocol of `ab` (`protocol`) and the machine's facts (`machine`).

pub mod batch;
pub mod job;
pub(crate) mod machine;
mod meter;
pub(crate) mod plan;
pub(crate) mod prepare;
mod progress;
pub(crate) mod protocol;
pub mod solve;
