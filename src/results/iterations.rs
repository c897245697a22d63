//! iterations.csv: one row per iteration of every job (`dataset, instance, variant, iteration,
//! bound, nodes_generated, nodes_expanded, repetition, growth, children_per_expansion, budget`).
//! A file written before `repetition` existed lacks it and the rest, and its rows are of
//! repetition 1; one written before `growth` lacks it and the columns after it: `growth` and
//! `children_per_expansion` are derived from the counts (see `growth`) and not read back;
//! `budget` (the nodes a budgeted tree search's probe could generate before it was given up,
//! empty for an iteration without one) is empty in a file from before it. Rows copied from such
//! a file into a new one are written whole (`write_in_order`). A run appends a job's rows as it
//! finishes, before the job's runs.csv row, and rewrites the file in job order at its end;
//! `--resume`, `merge` and the plots read it back.
//!
//! A run does not keep the rows in memory (they are several times the size of runs.csv): only
//! where each job's rows lie in a file (a `Span`), from which the rewrite copies them in job
//! order. A job's rows are written together, so they are one stretch of the file.

use crate::results::folder;
use crate::results::growth;
use crate::results::record::{Record, RowKey};
use crate::results::ReportError;
use crate::search::Iteration;
use crate::util::atomic;
use crate::util::files;
use crate::util::mapped::Mapped;
use crate::util::text::csv_field;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The file's name in a report directory.
pub const FILE: &str = "iterations.csv";

/// The columns, in order.
pub const HEADER: [&str; 11] = [
    "dataset",
    "instance",
    "variant",
    "iteration",
    "bound",
    "nodes_generated",
    "nodes_expanded",
    "repetition",
    "growth",
    "children_per_expansion",
    "budget",
];

/// The columns of a file written before `repetition` existed.
const FIRST_COLUMNS: usize = 7;

/// The columns of a file written before `growth` and `children_per_expansion` existed.
const REPETITION_COLUMNS: usize = 8;

/// The columns of a file written before `budget` existed.
const GROWTH_COLUMNS: usize = 10;

fn header_line() -> String {
    format!("{}\n", HEADER.join(","))
}

/// One row, without its job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// From 1.
    pub iteration: u32,
    pub bound: u32,
    pub nodes_generated: u64,
    pub nodes_expanded: u64,
    pub budget: Option<u64>,
}

/// Where one job's rows lie: `len` bytes from `start` in the file `source` of the `Spans` it
/// belongs to. `len` 0: the job has no rows (it has not finished, or recorded no iteration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u64,
    pub len: u32,
    pub source: u32,
}

/// Where each job's rows lie, by job index, and the files they lie in.
#[derive(Clone, Debug)]
pub struct Spans {
    pub sources: Vec<PathBuf>,
    pub jobs: Vec<Span>,
}

impl Spans {
    /// `jobs` jobs without rows; their rows will be in `source`.
    pub fn new(source: PathBuf, jobs: usize) -> Spans {
        Spans {
            sources: vec![source],
            jobs: vec![Span::default(); jobs],
        }
    }
}

/// Appends the rows of `iterations`, the iterations of the row `key` (a job's repetition), to
/// `out`, quoted as runs.csv quotes its fields.
pub fn write_rows(out: &mut Vec<u8>, key: RowKey<'_>, iterations: &[Iteration]) {
    if iterations.is_empty() {
        return;
    }
    // Written once, then copied from the first row.
    let prefix = out.len();
    for name in [key.dataset, key.instance, key.variant] {
        csv_field(out, name.as_bytes());
    }
    let prefix = prefix..out.len();
    let mut number = itoa::Buffer::new();
    let mut repetition = itoa::Buffer::new();
    let repetition = repetition.format(key.repetition).as_bytes();
    let mut ratio = ryu::Buffer::new();
    for (i, it) in iterations.iter().enumerate() {
        if i > 0 {
            out.extend_from_within(prefix.clone());
        }
        for n in [(i + 1) as u64, it.bound.into(), it.generated, it.expanded] {
            out.extend_from_slice(number.format(n).as_bytes());
            out.push(b',');
        }
        out.extend_from_slice(repetition);
        let previous = i.checked_sub(1).map(|p| &iterations[p]);
        for figure in [
            growth::growth(previous, it),
            growth::children_per_expansion(it),
        ] {
            out.push(b',');
            if let Some(x) = figure {
                out.extend_from_slice(ratio.format(x).as_bytes());
            }
        }
        out.push(b',');
        if let Some(budget) = it.budget {
            out.extend_from_slice(number.format(budget).as_bytes());
        }
        out.push(b'\n');
    }
}

/// Appends jobs' rows to iterations.csv as they finish, each batch in one write, and notes in
/// `Spans` where each job's rows went.
pub struct Appender {
    path: PathBuf,
    file: File,
    /// The file's length: where the next rows go.
    len: u64,
}

impl Appender {
    /// Opens `path` for appending; writes the header when the file is new or empty.
    pub fn append_to(path: &Path) -> io::Result<Appender> {
        let mut file = files::append_own(path)?;
        let mut len = file.metadata()?.len();
        if len == 0 {
            let header = header_line();
            file.write_all(header.as_bytes())?;
            len = header.len() as u64;
        }
        Ok(Appender {
            path: path.to_path_buf(),
            file,
            len,
        })
    }

    /// Appends rows formatted by `Formatted::of` and records their spans in `spans`, whose
    /// source 0 must be this file.
    pub fn append_formatted(
        &mut self,
        rows: &Formatted,
        spans: &mut Spans,
    ) -> Result<(), ReportError> {
        let mut start = self.len;
        for &(job, len) in &rows.jobs {
            spans.jobs[job] = match len {
                0 => Span::default(),
                _ => Span {
                    start,
                    len,
                    source: 0,
                },
            };
            start += u64::from(len);
        }
        self.file.write_all(&rows.bytes).map_err(|e| {
            ReportError::Write(format!("{}: cannot write: {e}", self.path.display()))
        })?;
        self.len += rows.bytes.len() as u64;
        Ok(())
    }
}

/// Jobs' rows of iterations.csv as bytes, each job's with its index and length: formatted
/// where the jobs finished, for `Appender::append_formatted`.
#[derive(Default)]
pub struct Formatted {
    bytes: Vec<u8>,
    jobs: Vec<(usize, u32)>,
}

impl Formatted {
    /// The rows of `jobs` (job index, record, iterations) bound for `path`, named in the error
    /// of a job whose rows are more than a span holds.
    pub fn of<'r, S: AsRef<str> + 'r>(
        path: &Path,
        jobs: impl IntoIterator<Item = (usize, &'r Record<S>, &'r [Iteration])>,
    ) -> Result<Formatted, ReportError> {
        let mut rows = Formatted::default();
        for (job, r, iterations) in jobs {
            let start = rows.bytes.len();
            write_rows(&mut rows.bytes, r.key(), iterations);
            let len = u32::try_from(rows.bytes.len() - start).map_err(|_| {
                ReportError::Write(format!(
                    "{}: job {} has more iteration rows than a span holds",
                    path.display(),
                    r.key()
                ))
            })?;
            rows.jobs.push((job, len));
        }
        Ok(rows)
    }
}

/// Writes `path` whole (see `atomic`): the header, then the rows of every job in job order,
/// copied from where `spans` says they lie; `spans` then point into `path`. A source may be
/// `path` itself (a run's rewrite): it is read through the file opened before the rename.
pub fn write_in_order(path: &Path, spans: &mut Spans) -> Result<(), ReportError> {
    let mut sources: Vec<Mapped> = spans.sources.iter().map(|p| Mapped::new(p)).collect();
    let header = header_line();
    // Whether each source has this build's columns, known at its first span.
    let mut current: Vec<Option<bool>> = vec![None; sources.len()];
    let mut rewritten = Vec::new();
    let mut moved = Vec::with_capacity(spans.jobs.len());
    let mut position = header.len() as u64;
    folder::check_own_file(path)?;
    atomic::replace_with(path, |out| {
        out.write_all(header.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        for span in &spans.jobs {
            if span.len == 0 {
                moved.push(Span::default());
                continue;
            }
            let k = span.source as usize;
            let source = &mut sources[k];
            let whole = *current[k].get_or_insert_with(|| {
                source
                    .read(0, header.len())
                    .is_ok_and(|first| first == header.as_bytes())
            });
            let mut bytes = source.read(span.start, span.len as usize)?;
            if !whole {
                rewritten = with_every_column(&spans.sources[k], bytes)?;
                bytes = &rewritten;
            }
            let len = u32::try_from(bytes.len()).map_err(|_| {
                format!(
                    "{}: a job's rows are more than a span holds",
                    path.display()
                )
            })?;
            out.write_all(bytes)
                .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
            moved.push(Span {
                start: position,
                len,
                source: 0,
            });
            position += u64::from(len);
        }
        Ok(())
    })
    .map_err(|e| {
        ReportError::Write(match e {
            atomic::Failure::Fill(e) => e,
            atomic::Failure::Io(e) => format!("{}: cannot write: {e}", path.display()),
        })
    })?;
    *spans = Spans {
        sources: vec![path.to_path_buf()],
        jobs: moved,
    };
    Ok(())
}

/// One job's rows `bytes`, read from `path`, a file written before the last columns existed,
/// written as this build writes them.
fn with_every_column(path: &Path, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut key: Option<(String, String, String, u32)> = None;
    let mut iterations = Vec::new();
    parse(path, bytes, false, |k, row, _, _, _| {
        key.get_or_insert_with(|| {
            let names = [k.dataset, k.instance, k.variant].map(str::to_owned);
            let [dataset, instance, variant] = names;
            (dataset, instance, variant, k.repetition)
        });
        iterations.push(Iteration {
            bound: row.bound,
            generated: row.nodes_generated,
            expanded: row.nodes_expanded,
            budget: row.budget,
        });
        Ok(())
    })?;
    let mut out = Vec::new();
    if let Some((dataset, instance, variant, repetition)) = &key {
        let key = RowKey {
            dataset,
            instance,
            variant,
            repetition: *repetition,
        };
        write_rows(&mut out, key, &iterations);
    }
    Ok(out)
}

/// What `scan` found of one job's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub span: Span,
    /// How many rows.
    pub rows: u32,
    /// The rows are numbered 1, 2, ... in order and lie in one stretch of the file.
    pub whole: bool,
}

/// Where the iteration rows of the job whose runs.csv row is `r` lie, as `scan` found them: every
/// iteration the row counts, in order, or what is wrong with them (a finished run always has
/// them whole).
pub fn span_of(r: &Record, found: Option<Found>) -> Result<Span, String> {
    let (rows, whole) = found.map_or((0, true), |f| (f.rows, f.whole));
    if !whole || rows != r.iterations {
        return Err(format!(
            "{FILE} holds {rows} row(s){} of job (dataset {}, instance {}, variant {}), whose runs.csv row counts {} iteration(s)",
            if whole { "" } else { " out of order" },
            r.dataset,
            r.instance,
            r.variant,
            r.iterations
        ));
    }
    Ok(found.map_or_else(Span::default, |f| f.span))
}

/// Reads iterations.csv at `path` (index `source` of the caller's sources) and finds each job's
/// rows; `job` gives the index of the job of a row's key (a job's repetition), `None` for one
/// the caller does not know (an error naming the line). A last line without its line end (a
/// write cut short) is left out. A missing file holds no rows.
pub fn scan(
    path: &Path,
    source: u32,
    jobs: usize,
    job: impl Fn(RowKey<'_>) -> Option<usize>,
) -> Result<Vec<Option<Found>>, String> {
    let mut found: Vec<Option<Found>> = vec![None; jobs];
    let mut current: Option<(usize, Found)> = None;
    let settle = |found: &mut Vec<Option<Found>>, (j, f): (usize, Found)| {
        found[j] = match found[j] {
            // Rows of one job in two places: not what a run writes.
            Some(before) => Some(Found {
                whole: false,
                ..before
            }),
            None => Some(f),
        };
    };
    let mut last_key: Option<(Vec<u8>, usize)> = None;
    visit(path, |key, row, start, end, line| {
        let j = match &last_key {
            Some((bytes, j)) if *bytes == key_bytes(&key) => *j,
            _ => {
                let j = job(key).ok_or_else(|| {
                    format!(
                        "{}:{line}: job {key} is not one of the run's jobs",
                        path.display(),
                    )
                })?;
                last_key = Some((key_bytes(&key), j));
                j
            }
        };
        match &mut current {
            Some((cj, f)) if *cj == j => {
                f.rows += 1;
                f.whole &= row.iteration == f.rows;
                match u32::try_from(end - f.span.start) {
                    Ok(len) => f.span.len = len,
                    Err(_) => f.whole = false,
                }
            }
            _ => {
                if let Some(done) = current.take() {
                    settle(&mut found, done);
                }
                let f = Found {
                    span: Span {
                        start,
                        len: (end - start) as u32,
                        source,
                    },
                    rows: 1,
                    whole: row.iteration == 1,
                };
                current = Some((j, f));
            }
        }
        Ok(())
    })?;
    if let Some(done) = current {
        settle(&mut found, done);
    }
    Ok(found)
}

/// The rows of the jobs' repetitions `wanted` names, each as (index into `wanted`, row), in the
/// file's order. Looked up in a map: a run of many variants has many jobs wanted, one each at
/// least.
pub fn select(path: &Path, wanted: &[RowKey<'_>]) -> Result<Vec<(usize, Row)>, String> {
    let index: HashMap<RowKey<'_>, usize> = wanted
        .iter()
        .enumerate()
        .rev()
        .map(|(i, &key)| (key, i))
        .collect();
    let mut out = Vec::new();
    visit(path, |key, row, _, _, _| {
        if let Some(&i) = index.get(&key) {
            out.push((i, row));
        }
        Ok(())
    })?;
    Ok(out)
}

/// The rows of the jobs whose spans are given, read from `spans`' sources: one list per span.
pub fn read_spans(sources: &[PathBuf], spans: &[Span]) -> Result<Vec<Vec<Row>>, ReportError> {
    read_spans_text(sources, spans).map_err(ReportError::Read)
}

fn read_spans_text(sources: &[PathBuf], spans: &[Span]) -> Result<Vec<Vec<Row>>, String> {
    let mut sources_read: Vec<Mapped> = sources.iter().map(|p| Mapped::new(p)).collect();
    spans
        .iter()
        .map(|span| {
            if span.len == 0 {
                return Ok(Vec::new());
            }
            let path = &sources[span.source as usize];
            let bytes = sources_read[span.source as usize].read(span.start, span.len as usize)?;
            let mut rows = Vec::new();
            parse(path, bytes, false, |_, row, _, _, _| {
                rows.push(row);
                Ok(())
            })?;
            Ok(rows)
        })
        .collect()
}

/// A row's key as bytes, to tell whether the next row is of the same job's repetition.
fn key_bytes(key: &RowKey<'_>) -> Vec<u8> {
    let mut bytes = [key.dataset, key.instance, key.variant]
        .join("\0")
        .into_bytes();
    bytes.push(0);
    bytes.extend_from_slice(&key.repetition.to_le_bytes());
    bytes
}

/// Calls `f` with each whole row of the file at `path`: its key, its figures, its first and
/// past-the-end byte offsets, its line. The file must start with the header; a last line
/// without its line end is left out; a missing file has no rows.
fn visit(
    path: &Path,
    f: impl FnMut(RowKey<'_>, Row, u64, u64, u64) -> Result<(), String>,
) -> Result<(), String> {
    let mut file = match files::open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: cannot open: {e}", path.display())),
    };
    let whole =
        whole_lines(&mut file).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if whole == 0 {
        return Ok(());
    }
    let reader = BufReader::with_capacity(1 << 16, file.take(whole));
    parse(path, reader, true, f)
}

/// The length of the file's whole lines: up to and including its last line end.
fn whole_lines(file: &mut File) -> io::Result<u64> {
    let len = file.seek(SeekFrom::End(0))?;
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    while end > 0 {
        let from = end.saturating_sub(chunk.len() as u64);
        let part = &mut chunk[..(end - from) as usize];
        file.read_exact_at(part, from)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            file.seek(SeekFrom::Start(0))?;
            return Ok(from + i as u64 + 1);
        }
        end = from;
    }
    file.seek(SeekFrom::Start(0))?;
    Ok(0)
}

/// Parses the rows of the file at `path` from `reader`, first checking the header when `header`
/// (without it, rows of a file written before `repetition` existed are told by their fields;
/// `growth` and `children_per_expansion`, derived from the counts, are not read);
/// a row's offsets are counted from the reader's start.
fn parse(
    path: &Path,
    reader: impl Read,
    header: bool,
    mut f: impl FnMut(RowKey<'_>, Row, u64, u64, u64) -> Result<(), String>,
) -> Result<(), String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(reader);
    let mut record = csv::ByteRecord::new();
    let error = |e: csv::Error| {
        let line = e.position().map_or(0, csv::Position::line);
        match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!(
                "{}:{line}: expected {expected_len} fields like the header, found {len}",
                path.display(),
            ),
            _ => format!("{}:{line}: {e}", path.display()),
        }
    };
    if header {
        if !reader.read_byte_record(&mut record).map_err(error)? {
            return Ok(());
        }
        let names = HEADER.iter().map(|h| h.as_bytes());
        let known = [
            FIRST_COLUMNS,
            REPETITION_COLUMNS,
            GROWTH_COLUMNS,
            HEADER.len(),
        ];
        if !known
            .iter()
            .any(|&n| record.iter().eq(names.clone().take(n)))
        {
            return Err(format!(
                "{}:1: expected the header {}",
                path.display(),
                HEADER.join(",")
            ));
        }
    }
    let mut start = reader.position().byte();
    while reader.read_byte_record(&mut record).map_err(error)? {
        let end = reader.position().byte();
        let line = record.position().map_or(0, csv::Position::line);
        let text = |i: usize| {
            std::str::from_utf8(&record[i]).map_err(|_| {
                format!(
                    "{}:{line}: column `{}`: not UTF-8 text",
                    path.display(),
                    HEADER[i]
                )
            })
        };
        let number = |i: usize| -> Result<u64, String> {
            let t = text(i)?;
            t.parse::<u64>().map_err(|_| {
                format!(
                    "{}:{line}: column `{}`: expected a whole number of at least 0, found `{}`",
                    path.display(),
                    HEADER[i],
                    crate::util::text::shorten(t)
                )
            })
        };
        let small = |i: usize| -> Result<u32, String> {
            let n = number(i)?;
            u32::try_from(n).map_err(|_| {
                format!(
                    "{}:{line}: column `{}`: {n} is larger than {}",
                    path.display(),
                    HEADER[i],
                    u32::MAX
                )
            })
        };
        let row = Row {
            iteration: small(3)?,
            bound: small(4)?,
            nodes_generated: number(5)?,
            nodes_expanded: number(6)?,
            budget: match record.get(GROWTH_COLUMNS) {
                None | Some(b"") => None,
                Some(_) => Some(number(GROWTH_COLUMNS)?),
            },
        };
        let repetition = match record.len() {
            FIRST_COLUMNS => 1,
            _ => small(FIRST_COLUMNS)?,
        };
        let key = RowKey {
            dataset: text(0)?,
            instance: text(1)?,
            variant: text(2)?,
            repetition,
        };
        f(key, row, start, end, line)?;
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iterations(counts: &[(u32, u64, u64)]) -> Vec<Iteration> {
        counts
            .iter()
            .map(|&(bound, generated, expanded)| Iteration {
                bound,
                generated,
                expanded,
                budget: None,
            })
            .collect()
    }

    #[test]
    fn rows_are_numbered_from_1_and_quoted_like_runs_csv() {
        let mut out = Vec::new();
        let key = RowKey {
            dataset: "d",
            instance: "a,b",
            variant: "manhattan/step2/prune",
            repetition: 3,
        };
        let mut its = iterations(&[(4, 5, 1), (6, 40, 17)]);
        its[1].budget = Some(48);
        write_rows(&mut out, key, &its);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "d,\"a,b\",manhattan/step2/prune,1,4,5,1,3,,5.0,\n\
             d,\"a,b\",manhattan/step2/prune,2,6,40,17,3,8.0,2.3529411764705883,48\n"
        );
    }

    #[test]
    fn appended_rows_are_rewritten_in_job_order_and_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let mut spans = Spans::new(path.clone(), 3);
        write_in_order(&path, &mut spans).unwrap();
        let record = |instance: &str| Record {
            instance: instance.into(),
            variant: "v".into(),
            ..crate::results::fixtures::record()
        };
        let (a, b, c) = (record("a"), record("b"), record("c"));
        let two = iterations(&[(4, 5, 1), (6, 40, 17)]);
        let mut one = iterations(&[(3, 9, 4)]);
        one[0].budget = Some(16);
        let mut w = Appender::append_to(&path).unwrap();
        let mut append = |jobs: &[(usize, &Record, &[Iteration])], spans: &mut Spans| {
            let rows = Formatted::of(&path, jobs.iter().copied()).unwrap();
            w.append_formatted(&rows, spans).unwrap();
        };
        append(&[(2, &c, &one[..])], &mut spans);
        append(&[(0, &a, &two[..]), (1, &b, &[][..])], &mut spans);
        drop(w);
        assert_eq!(spans.jobs[1], Span::default());
        write_in_order(&path, &mut spans).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], HEADER.join(","));
        assert!(
            lines[1].contains(",a,") && lines[3].contains(",c,"),
            "{text}"
        );
        let rows = read_spans(&spans.sources, &spans.jobs).unwrap();
        assert_eq!(rows[0].len(), 2);
        assert_eq!(
            rows[2],
            [Row {
                iteration: 1,
                bound: 3,
                nodes_generated: 9,
                nodes_expanded: 4,
                budget: Some(16),
            }]
        );
        let index = |k: RowKey| match (k.instance, k.repetition) {
            ("a", 1) => Some(0),
            ("b", 1) => Some(1),
            ("c", 1) => Some(2),
            _ => None,
        };
        let found = scan(&path, 0, 3, index).unwrap();
        assert_eq!(
            found[0],
            Some(Found {
                span: spans.jobs[0],
                rows: 2,
                whole: true
            })
        );
        assert_eq!(found[1], None);
        // A line cut short is left out; a job's rows out of order are not whole.
        std::fs::write(&path, format!("{text}d,c,v,2,3,9")).unwrap();
        assert_eq!(scan(&path, 0, 3, index).unwrap()[2].unwrap().rows, 1);
        let swapped = text.replace(",1,4,5,1,", ",2,4,5,1,");
        std::fs::write(&path, swapped).unwrap();
        assert!(!scan(&path, 0, 3, index).unwrap()[0].unwrap().whole);
        // An unknown job, or another repetition of a known one, and a bad number are errors
        // naming the line.
        std::fs::write(&path, format!("{text}d,z,v,1,3,9,4,1,,2.25,\n")).unwrap();
        let e = scan(&path, 0, 3, index).unwrap_err();
        assert!(
            e.ends_with(
                ":5: job (dataset 'd', instance 'z', variant 'v') is not one of the run's jobs"
            ),
            "{e}"
        );
        std::fs::write(&path, format!("{text}d,c,v,1,3,9,4,2,,2.25,\n")).unwrap();
        let e = scan(&path, 0, 3, index).unwrap_err();
        assert!(
            e.ends_with(":5: job (dataset 'd', instance 'c', variant 'v', repetition 2) is not one of the run's jobs"),
            "{e}"
        );
        std::fs::write(&path, format!("{text}d,c,v,1,3,-9,4,1,,,\n")).unwrap();
        let e = scan(&path, 0, 3, index).unwrap_err();
        assert!(
            e.ends_with(
                ":5: column `nodes_generated`: expected a whole number of at least 0, found `-9`"
            ),
            "{e}"
        );
        std::fs::write(&path, "dataset,instance\n").unwrap();
        let e = scan(&path, 0, 3, index).unwrap_err();
        assert!(e.ends_with(":1: expected the header dataset,instance,variant,iteration,bound,nodes_generated,nodes_expanded,repetition,growth,children_per_expansion,budget"), "{e}");
        // Files written before the last columns existed: before `repetition` (its rows are of
        // repetition 1) and before `growth`. Their rows are found as the new ones are, a row of
        // another length does not belong in them, and rewritten they get every column.
        let cut = |columns: usize| -> String {
            text.lines()
                .map(|l| {
                    format!(
                        "{}\n",
                        l.split(',').take(columns).collect::<Vec<_>>().join(",")
                    )
                })
                .collect()
        };
        let rows_found = |found: &[Option<Found>]| -> Vec<Option<(u32, bool)>> {
            found.iter().map(|f| f.map(|f| (f.rows, f.whole))).collect()
        };
        let wanted = [RowKey {
            dataset: "d",
            instance: "c",
            variant: "v",
            repetition: 1,
        }];
        // Their rows have no budget.
        let no_budget = Row {
            budget: None,
            ..rows[2][0]
        };
        let text = text.replace(",16\n", ",\n");
        for columns in [FIRST_COLUMNS, REPETITION_COLUMNS, GROWTH_COLUMNS] {
            let old = cut(columns);
            std::fs::write(&path, &old).unwrap();
            let old_found = scan(&path, 0, 3, index).unwrap();
            assert_eq!(rows_found(&old_found), rows_found(&found));
            assert_eq!(select(&path, &wanted).unwrap(), [(0, no_budget)]);
            let mut old_spans = Spans {
                sources: vec![path.clone()],
                jobs: old_found
                    .iter()
                    .map(|f| f.map_or_else(Span::default, |f| f.span))
                    .collect(),
            };
            let whole = dir.path().join("whole.csv");
            write_in_order(&whole, &mut old_spans).unwrap();
            assert_eq!(std::fs::read_to_string(&whole).unwrap(), text, "{columns}");
            std::fs::write(&path, format!("{old}d,c,v,2,3,9,4,1,\n")).unwrap();
            let e = scan(&path, 0, 3, index).unwrap_err();
            assert!(
                e.ends_with(&format!(
                    ":5: expected {columns} fields like the header, found 9"
                )),
                "{e}"
            );
        }
        // No file: no rows.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(scan(&path, 0, 3, index).unwrap(), vec![None; 3]);
    }
}
