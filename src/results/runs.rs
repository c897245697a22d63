//! runs.csv: rows appended as jobs finish (each batch in one write), then rewritten whole in job
//! order; the tallies the summaries and progress read of them; and how a run whose rows are all
//! in went.

use crate::error::Done;
use crate::results::folder;
use crate::results::record::{Record, Status, RUNS_HEADER};
use crate::results::summary::VariantSummary;
use crate::results::ReportError;
use crate::util::atomic;
use crate::util::files;
use crate::util::mapped::Mapped;
use crate::util::term::note;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Appends rows to runs.csv as jobs finish, each batch in one write, so that an interrupted run
/// keeps every row it finished.
pub struct RunsWriter {
    path: PathBuf,
    file: File,
    /// The file's length: where the next rows go.
    len: u64,
}

impl RunsWriter {
    /// Opens `path` for appending; writes the header when the file is new or empty.
    pub fn append_to(path: &Path) -> io::Result<RunsWriter> {
        let mut file = files::append_own(path)?;
        let mut len = file.metadata()?.len();
        if len == 0 {
            let header = runs_header();
            file.write_all(header.as_bytes())?;
            len = header.len() as u64;
        }
        Ok(RunsWriter {
            path: path.to_path_buf(),
            file,
            len,
        })
    }

    /// Appends `rows` and keeps them in `kept` as rows of this file.
    pub fn append(&mut self, rows: &Formatted, kept: &mut Rows) -> Result<(), ReportError> {
        self.file.write_all(&rows.bytes).map_err(|e| {
            ReportError::Write(format!("{}: cannot write: {e}", self.path.display()))
        })?;
        kept.keep_written(rows, &self.path, self.len);
        self.len += rows.bytes.len() as u64;
        Ok(())
    }

    /// Makes the rows written so far durable: before what they replace (a job's checkpoint) is
    /// removed, so that a crash cannot lose both.
    pub fn sync(&self) -> Result<(), ReportError> {
        self.file
            .sync_data()
            .map_err(|e| ReportError::Write(format!("{}: cannot write: {e}", self.path.display())))
    }
}

/// Writes `bytes` to `path` whole (see `atomic`): on failure the old file stays and no temporary
/// file is left.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    folder::check_own_file(path)?;
    atomic::replace_with(path, |out| out.write_all(bytes))
        .map_err(|e| ReportError::Write(format!("{}: cannot write: {e}", path.display())))
}

/// Writes runs.csv whole (see `write_atomic`): the header, then `rows` in job order.
pub fn write_runs(path: &Path, rows: &Rows) -> Result<(), ReportError> {
    folder::check_own_file(path)?;
    atomic::replace_with(path, |out| rows.write_csv(out))
        .map_err(|e| ReportError::Write(format!("{}: cannot write: {e}", path.display())))
}

/// What the summaries and the progress line read of a finished job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    pub status: Status,
    pub length: Option<u32>,
    pub nodes_generated: u64,
    pub nodes_expanded: u64,
    pub time_cpu_s: f64,
    pub optimal_guaranteed: bool,
}

impl Tally {
    pub fn of<S>(r: &Record<S>) -> Tally {
        Tally {
            status: r.status,
            length: r.length,
            nodes_generated: r.nodes_generated,
            nodes_expanded: r.nodes_expanded,
            time_cpu_s: r.time_cpu_s,
            optimal_guaranteed: r.optimal_guaranteed,
        }
    }
}

/// The finished jobs' rows of runs.csv, each in its job's slot with its tally. runs.csv is
/// appended to in the order jobs finish; at the end it is rewritten in job order. A row the run
/// wrote is read back from where it lies in the file it was appended to (so that the run does
/// not hold its rows: 23 MB for the 8-puzzle's 181,440 jobs); a row kept from a record (an
/// earlier run's, under `--resume`, or a shard's, in `merge`) is held here as its bytes.
pub struct Rows {
    bytes: Vec<u8>,
    /// The file the run appends its rows to, once it has written one.
    file: Option<PathBuf>,
    slots: Vec<Option<Kept>>,
    kept: usize,
}

/// A runs.csv row of a job with a short path is about this long.
const ROW_BYTES: usize = 160;

#[derive(Clone, Copy)]
struct Kept {
    /// From where in `bytes`, or in `file` when `written`.
    start: u64,
    len: u32,
    written: bool,
    tally: Tally,
}

impl Rows {
    /// Room for `jobs` jobs, none finished.
    pub fn new(jobs: usize) -> Rows {
        Rows {
            bytes: Vec::new(),
            file: None,
            slots: vec![None; jobs],
            kept: 0,
        }
    }

    /// Keeps the rows of `records`, each a job's index and record, as bytes. A job has one
    /// row: a second replaces the first.
    pub fn keep<'r, S: AsRef<str> + 'r>(
        &mut self,
        records: impl IntoIterator<Item = (usize, &'r Record<S>)>,
    ) {
        let rows = Formatted::of(records);
        let first = self.bytes.len() as u64;
        self.bytes.extend_from_slice(&rows.bytes);
        self.place(&rows, first, false);
    }

    /// Keeps `rows`, written to `file` from byte `at` on.
    fn keep_written(&mut self, rows: &Formatted, file: &Path, at: u64) {
        if self.file.as_deref() != Some(file) {
            self.file = Some(file.to_path_buf());
        }
        self.place(rows, at, true);
    }

    fn place(&mut self, rows: &Formatted, first: u64, written: bool) {
        let mut start = 0;
        for &(job, end, tally) in &rows.rows {
            let slot = &mut self.slots[job];
            self.kept += usize::from(slot.is_none());
            *slot = Some(Kept {
                start: first + start as u64,
                // A row holds a path of at most a few thousand moves.
                len: u32::try_from(end - start).expect("a runs.csv row under 4 GB"),
                written,
                tally,
            });
            start = end;
        }
    }

    pub fn has(&self, job: usize) -> bool {
        self.slots[job].is_some()
    }

    /// How many jobs have their row.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// How many jobs have none.
    pub fn missing(&self) -> usize {
        self.slots.len() - self.kept
    }

    /// The finished jobs' tallies with their job index, in job order.
    pub fn tallies(&self) -> impl Iterator<Item = (usize, &Tally)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|k| (i, &k.tally)))
    }

    /// runs.csv: the header, then the rows in job order.
    pub fn write_csv(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(runs_header().as_bytes())?;
        let mut file = self.file.as_deref().map(Mapped::new);
        for k in self.slots.iter().flatten() {
            let row = if k.written {
                let file = file.as_mut().expect("a written row has its file");
                file.read(k.start, k.len as usize)
                    .map_err(io::Error::other)?
            } else {
                &self.bytes[k.start as usize..][..k.len as usize]
            };
            out.write_all(row)?;
        }
        Ok(())
    }
}

/// Jobs' rows of runs.csv as bytes, each with its job's index, where it ends and its tally:
/// formatted where the jobs finished, for `RunsWriter::append`.
#[derive(Default)]
pub struct Formatted {
    bytes: Vec<u8>,
    rows: Vec<(usize, usize, Tally)>,
}

impl Formatted {
    pub fn of<'r, S: AsRef<str> + 'r>(
        records: impl IntoIterator<Item = (usize, &'r Record<S>)>,
    ) -> Formatted {
        let records = records.into_iter();
        let mut rows = Formatted {
            bytes: Vec::with_capacity(records.size_hint().0 * ROW_BYTES),
            rows: Vec::with_capacity(records.size_hint().0),
        };
        for (job, r) in records {
            r.write_csv(&mut rows.bytes);
            rows.rows.push((job, rows.bytes.len(), Tally::of(r)));
        }
        rows
    }
}

/// The header line of runs.csv.
fn runs_header() -> String {
    format!("{}\n", RUNS_HEADER.join(","))
}

/// How a report whose every job has its row went, from its summaries (each job counted once,
/// its repetitions reduced: see `repetitions`): wrong when a job is, failed when one ended in an
/// error; a note says which column tells more.
pub fn verdict(summaries: &[VariantSummary]) -> Done {
    let wrong: u64 = summaries.iter().map(|s| s.wrong).sum();
    if wrong > 0 {
        note(format_args!(
            "{wrong} job(s) are wrong: see the status and message columns of runs.csv"
        ));
        return Done::Wrong;
    }
    let failed: u64 = summaries.iter().map(|s| s.error).sum();
    if failed > 0 {
        note(format_args!(
            "{failed} job(s) ended in an error: see the message column of runs.csv"
        ));
        return Done::Failed;
    }
    Done::Ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::record;

    #[test]
    fn the_header_is_the_one_records_serialize_to_and_rows_follow_in_job_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(record()).unwrap();
        let serialized = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut rows = Rows::new(3);
        let mut out = Vec::new();
        rows.write_csv(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), runs_header());
        assert_eq!(serialized.lines().next(), runs_header().lines().next());
        let (first, mut third) = (record(), record());
        third.instance = "3".into();
        let row = |r: &Record| {
            let mut row = Vec::new();
            r.write_csv(&mut row);
            String::from_utf8(row).unwrap()
        };
        // One row kept from a record, one appended to the file and read back from it.
        rows.keep([(2, &third)]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let mut writer = RunsWriter::append_to(&path).unwrap();
        writer
            .append(&Formatted::of([(0, &first)]), &mut rows)
            .unwrap();
        let appended = std::fs::read_to_string(&path).unwrap();
        assert_eq!(appended, format!("{}{}", runs_header(), row(&first)));
        assert!(rows.has(0) && !rows.has(1) && rows.has(2));
        assert_eq!((rows.kept(), rows.missing()), (2, 1));
        let mut out = Vec::new();
        rows.write_csv(&mut out).unwrap();
        let want = format!("{}{}{}", runs_header(), row(&first), row(&third));
        assert_eq!(String::from_utf8(out).unwrap(), want);
        // Rewritten in place, the file is read through the one it replaces.
        write_runs(&path, &rows).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), want);
        let jobs: Vec<usize> = rows.tallies().map(|(i, _)| i).collect();
        assert_eq!(jobs, [0, 2]);
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        use std::fs;
        let dir = std::env::temp_dir().join(format!("idabench-report-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("summary.csv")).unwrap();
        // The rename fails: a directory holds the name.
        let e = write_atomic(&dir.join("summary.csv"), b"rows\n").unwrap_err();
        let left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(e, ReportError::Write(_)), "{e}");
        assert!(e.to_string().contains("summary.csv: cannot write"), "{e}");
        assert_eq!(left, ["summary.csv"]);
    }
}
