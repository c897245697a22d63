//! Running jobs: the plan of a run's jobs from one options type (`plan`), the instances it
//! selects (`select`), their tables made ready (`prepare`), one instance under one variant
//! solved by the engine (`solve`) and recorded as a job (`job`), its progress saved and
//! resumed (`checkpoint`), a batch of jobs on rayon's
//! workers (`batch`, with its CPU `meter` and `progress`), the worker protocol of `ab`
//! (`protocol`) and the machine's facts (`machine`).

pub mod batch;
pub mod checkpoint;
pub mod job;
pub(crate) mod machine;
mod meter;
pub(crate) mod plan;
pub(crate) mod prepare;
mod progress;
pub(crate) mod protocol;
pub(crate) mod select;
pub mod solve;
#[cfg(test)]
mod tile_searches;

/// Why jobs could not be planned or run; error.rs gives each its exit class.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// What was asked cannot run: datasets that clash, a variant left with no job (a heuristic
    /// of no selected instance's domain, or whose tables fit none of their boards).
    #[error("{0}")]
    Refused(String),
    /// The threads to search on could not be started.
    #[error("{0}")]
    Threads(String),
}
