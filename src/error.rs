//! What can go wrong, by area, and the one place where outcomes and errors become exit codes.

use crate::ab::AbError;
use crate::compare::CompareError;
use crate::dataset::DatasetError;
use crate::domains::judge::JudgeError;
use crate::domains::PrepareError;
use crate::report::PlotError;
use crate::results::ReportError;
use crate::runner::RunnerError;
use crate::tables::store::StoreError;
use std::path::Path;
use thiserror::Error;

/// Exit codes, as documented in README and `--help`.
pub(crate) const EXIT_OK: u8 = 0;
pub(crate) const EXIT_RUNTIME: u8 = 1;
pub(crate) const EXIT_INPUT: u8 = 2;
pub(crate) const EXIT_REGRESSED: u8 = 3;
pub(crate) const EXIT_WRONG: u8 = 4;
/// A run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report an interrupt).
pub(crate) const EXIT_INTERRUPTED: u8 = crate::util::interrupt::EXIT_INTERRUPTED;

/// How a command that ran to its end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    Ok,
    /// `compare`: the overall time verdict is `regressed`.
    Regressed,
    /// A `wrong` job, or `compare` found changed results.
    Wrong,
    /// Stopped by a signal; what finished is kept.
    Interrupted,
    /// A `run` whose every job has its row, some of them `error` (a job that failed).
    Failed,
}

/// Why a command could not do its work.
#[derive(Debug, Error)]
pub enum Error {
    /// Flags or values that cannot be used as given.
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    Compare(#[from] CompareError),
    #[error(transparent)]
    Ab(#[from] AbError),
    /// What `plot` was asked that cannot be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// Judge input that cannot be answered.
    #[error(transparent)]
    Judge(#[from] JudgeError),
    /// A heuristic that does not fit a board, or tables that cannot be had.
    #[error(transparent)]
    Prepare(#[from] PrepareError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Jobs that cannot be planned or run.
    #[error(transparent)]
    Runner(#[from] RunnerError),
    /// A report file that cannot be read (input) or written (runtime).
    #[error(transparent)]
    Report(#[from] ReportError),
    /// Input refused where the commands read it: states and values on the command line, judge
    /// input on stdin, a resume that does not match its run.
    #[error("{0}")]
    Input(String),
    /// Reading or writing a file or stream failed.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Runtime(String),
}

impl Error {
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    pub fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }

    pub fn runtime(message: impl Into<String>) -> Error {
        Error::Runtime(message.into())
    }

    /// An I/O failure on `path` (or a stream such as `stdout`).
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.as_ref().display().to_string(),
            source,
        }
    }
}

/// The exit code of a command's result.
pub fn exit_code(result: &Result<Done, Error>) -> u8 {
    match result {
        Ok(Done::Ok) => EXIT_OK,
        Ok(Done::Regressed) => EXIT_REGRESSED,
        Ok(Done::Wrong) => EXIT_WRONG,
        Ok(Done::Interrupted)
        | Err(
            Error::Prepare(PrepareError::Store(StoreError::Interrupted(_)))
            | Error::Store(StoreError::Interrupted(_)),
        ) => EXIT_INTERRUPTED,
        Ok(Done::Failed) => EXIT_RUNTIME,
        Err(Error::Usage(_) | Error::Dataset(_) | Error::Input(_) | Error::Judge(_)) => EXIT_INPUT,
        Err(
            Error::Compare(_)
            | Error::Report(ReportError::Read(_) | ReportError::Refused(_))
            | Error::Plot(_),
        ) => EXIT_INPUT,
        Err(Error::Report(ReportError::Write(_))) => EXIT_RUNTIME,
        // A heuristic that does not fit, a table its entries' format cannot hold, or no good
        // table under --no-build (or no cache directory): what was asked cannot be done; a
        // cache that cannot be written: runtime.
        Err(
            Error::Prepare(
                PrepareError::Unfit(_)
                | PrepareError::Store(StoreError::Missing(_) | StoreError::Refused(_))
                | PrepareError::Memory(_),
            )
            | Error::Store(StoreError::Missing(_) | StoreError::Refused(_)),
        ) => EXIT_INPUT,
        Err(
            Error::Prepare(PrepareError::Store(StoreError::Io(_)))
            | Error::Store(StoreError::Io(_)),
        ) => EXIT_RUNTIME,
        Err(Error::Runner(RunnerError::Refused(_)) | Error::Ab(AbError::Refused(_))) => EXIT_INPUT,
        Err(Error::Ab(AbError::Failed(_))) => EXIT_RUNTIME,
        Err(Error::Io { .. } | Error::Runtime(_) | Error::Runner(RunnerError::Threads(_))) => {
            EXIT_RUNTIME
        }
    }
}
