//! What a run leaves on disk, and where (`folder`): runs.csv rows and the manifest (`record`), runs.csv as a run
//! writes it (`runs`), the summaries and the other report files (`summary`), iterations.csv
//! (`iterations`), shard files (`shard`), what a combined report records of its runs
//! (`combined`), a repeated job's rows reduced to one (`repetitions`), and the figures derived
//! from a job's iterations (`growth`).

pub mod combined;
#[cfg(test)]
pub(crate) mod fixtures;
pub(crate) mod folder;
pub mod growth;
pub(crate) mod iterations;
pub mod record;
pub mod repetitions;
pub(crate) mod runs;
pub(crate) mod shard;
pub(crate) mod summary;

use thiserror::Error;

/// Why a report file could not be read or written; the message names the file (and the line).
#[derive(Debug, Error)]
pub enum ReportError {
    /// A report file that is missing, unreadable or malformed.
    #[error("{0}")]
    Read(String),
    /// A report file that could not be written.
    #[error("{0}")]
    Write(String),
    /// A report folder that cannot be used as asked (a `--name` that is not a plain name).
    #[error("{0}")]
    Refused(String),
}

/// The bytes of a file of a report folder, read within the bounds datasets have; anything but
/// a regular file is refused (see `text::read_own_file`).
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, ReportError> {
    crate::util::text::read_own_file(path).map_err(ReportError::Read)
}

/// The bytes of a report file the user named on the command line, which may be a pipe (see
/// `text::read_file`).
pub fn read_named_file(path: &std::path::Path) -> Result<Vec<u8>, ReportError> {
    crate::util::text::read_file(path).map_err(ReportError::Read)
}
