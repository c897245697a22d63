//! Dataset CSV files to validated instances; every error names the file, line, column and what was expected.
//!
//! One schema for every puzzle: a header row, then one instance per row. Columns are matched by
//! header name, in any order; columns this module does not know are tolerated and ignored.
//!
//! | column    | needed                        | value                                                 |
//! |-----------|-------------------------------|-------------------------------------------------------|
//! | `id`      | required, unique in the file  | any text                                              |
//! | `domain`  | required                      | a `DomainKind` name, e.g. `tiles`                     |
//! | `size`    | required for `tiles`          | `WIDTHxHEIGHT`, e.g. `4x4`; empty where fixed         |
//! | `start`   | required                      | whitespace-separated tokens, row-major, 0 = blank     |
//! | `goal`    | optional column and value     | as `start`; empty = the domain's default goal         |
//! | `optimal` | optional column and value     | the reference solution length, a non-negative integer |
//! | `optimal_cost` | optional column and value | the reference solution cost, a number >= 0 |
//! | `cost_model` | with `optimal_cost`      | its cost model: unit, heavy or inverse-heavy |
//! | `puzzle`  | for `ksolve`                  | its definition file, a path relative to the dataset  |
//! | `metric`  | optional, `ksolve` only       | `half` (every power one move; empty means it) or `quarter` |
//!
//! Everything is checked here, before any job starts, so a bad row stops a run at once instead of
//! surfacing hours later as an `error` row. Unsolvable starts are not errors: they are legitimate
//! jobs whose status is `unsolvable`.
//!
//! Tolerated without complaint: a UTF-8 byte-order mark, CRLF line endings, whitespace around
//! values, a trailing comma on every line (an extra unnamed column), blank lines (and rows of
//! empty fields, as spreadsheets export them). Bytes that are not UTF-8 are an error only in the
//! columns above: ignored columns stay ignored.
//!
//! A large file (from 1 MiB) is read in parts on up to four threads, cut at line feeds where no
//! quoted value can hold one; the dataset, or the first error in the file, is the one a single
//! reading gives.
//!
//! A file is read within `text::BOUNDS` (at most 1 GiB, lines of at most 1 MiB): past either, the
//! read stops with an error, so a device without an end cannot exhaust the memory.

pub mod generate;

use crate::domains::cost::CostModel;
use crate::domains::ksolve::{Metric, PuzzleFile};
use crate::domains::{DomainKind, Puzzle};
use crate::util::text::{self, shorten, ReadError, UTF8_BOM};
use csv::ByteRecord;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Said in every header complaint, so the fix needs no trip to the documentation.
const COLUMNS_HELP: &str =
    "required: id, domain, start (and size for tiles); optional: goal, optimal, optimal_cost and cost_model";

/// One row of a dataset, validated and ready to search.
#[derive(Clone)]
pub struct Instance {
    pub id: String,
    /// The physical line of the row in the file, 1-based (the header is line 1).
    pub line: u64,
    pub domain: DomainKind,
    /// `WIDTHxHEIGHT` as parsed (e.g. `4x4`), empty where the domain fixes the size; shared by
    /// the instances of one family.
    pub size: Arc<str>,
    pub optimal: Option<u32>,
    /// The reference cost of a cheapest solution, and the cost model it is for.
    pub optimal_cost: Option<(CostModel, f64)>,
    pub puzzle: Puzzle,
}

// By hand because the domain tables are neither `Debug` nor worth printing: the start is.
impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Instance");
        s.field("id", &self.id)
            .field("line", &self.line)
            .field("domain", &self.domain)
            .field("size", &self.size)
            .field("optimal", &self.optimal)
            .field("optimal_cost", &self.optimal_cost);
        s.field("start", &self.puzzle.start_tokens());
        s.finish()
    }
}

/// A whole dataset file.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub path: PathBuf,
    /// The file stem, e.g. `korf100` for `datasets/korf100.csv`.
    pub name: String,
    /// In file order.
    pub instances: Vec<Instance>,
    /// The domains of the instances, each once, in the order they first appear: known without
    /// a pass over every instance.
    pub domains: Vec<DomainKind>,
    /// The definition files its rows name (`puzzle`), each once, in the order they first
    /// appear: the path as written and the file's SHA-256.
    pub puzzles: Vec<(String, String)>,
}

/// Why a dataset was refused, located as precisely as the fault allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetError {
    pub path: PathBuf,
    pub line: Option<u64>,
    pub column: Option<String>,
    pub message: String,
}

/// `datasets/x.csv:12: column 'start': expected 16 tiles (0 to 15), found 15`, without the parts
/// that are `None`: the `file:line:` shape lets editors and terminals jump to the spot.
impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(column) = &self.column {
            write!(f, ": column '{column}'")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for DatasetError {}

/// Reads and validates the dataset at `path`.
pub fn load(path: &Path) -> Result<Dataset, DatasetError> {
    parse(path, &read(path)?)
}

/// The bytes of the dataset file at `path`, refused past `text::MAX_INPUT_BYTES` (1 GiB) or at
/// a line longer than `text::MAX_LINE_BYTES` (1 MiB), so that `/dev/zero` or a runaway file
/// stops with a message instead of filling the memory.
pub fn read(path: &Path) -> Result<Vec<u8>, DatasetError> {
    let fail = |line: Option<u64>, message: String| DatasetError {
        path: path.to_path_buf(),
        line,
        column: None,
        message,
    };
    let cannot_read = |e: std::io::Error| fail(None, format!("cannot read the dataset: {e}"));
    let too_large = |e: ReadError| {
        let hint = match e {
            ReadError::TooLarge(_) => " for a dataset: split it into several files",
            _ => "",
        };
        fail(e.line(), format!("{e}{hint}"))
    };
    let file = File::open(path).map_err(cannot_read)?;
    // A regular file's size is known: one too large is refused before a byte is read.
    if let Ok(m) = file.metadata() {
        if m.is_file() && m.len() > text::MAX_INPUT_BYTES {
            return Err(too_large(ReadError::TooLarge(text::MAX_INPUT_BYTES)));
        }
    }
    text::read_bounded(file, text::BOUNDS).map_err(|e| match e {
        ReadError::Io(e) => cannot_read(e),
        e => too_large(e),
    })
}

/// Validates dataset `bytes` as if read from `path` (which only names the file in errors and
/// gives the dataset its name).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Dataset, DatasetError> {
    let pieces = if bytes.len() < SPLIT_BYTES {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_PIECES))
    };
    parse_in(path, bytes, pieces)
}

/// Below this, a dataset is read on one thread: the threads would cost more than they save.
const SPLIT_BYTES: usize = 1 << 20;
/// The most threads one dataset is read on: each part's ids are looked up among those of every
/// part before it, one thread after the others, so that work grows with the parts.
const MAX_PIECES: usize = 4;

/// `parse`, with the rows read in up to `pieces` parts, each on a thread of its own, where the
/// file can be cut (see `cuts`).
fn parse_in(path: &Path, bytes: &[u8], pieces: usize) -> Result<Dataset, DatasetError> {
    let fail = |line: Option<u64>, fault: Fault| DatasetError {
        path: path.to_path_buf(),
        line,
        column: fault.column.map(str::to_owned),
        message: fault.message,
    };
    if bytes.is_empty() {
        return Err(fail(
            None,
            Fault::plain(empty_file_message("empty file (0 bytes)")),
        ));
    }
    let bytes = text::without_bom(bytes);
    let mut reader = csv_reader(bytes);
    let mut record = ByteRecord::new();
    let mut lines = Lines::new(bytes, 1);

    let header_line = loop {
        if !next(&mut reader, &mut record, &mut lines).map_err(|(line, f)| fail(line, f))? {
            return Err(fail(
                None,
                Fault::plain(empty_file_message(
                    "no header: the file holds only blank lines",
                )),
            ));
        }
        if !is_blank(&record) {
            break lines.of(&record);
        }
    };
    let mut columns = Columns::from_header(&record).map_err(|f| fail(Some(header_line), f))?;
    columns.dir = path.parent().map(Path::to_path_buf).unwrap_or_default();

    // One hasher for every part, so that a part's ids can be looked up among another's.
    let hasher = RandomState::new();
    let parts = match cuts(bytes, lines.done, header_line, pieces) {
        Some(cuts) => std::thread::scope(|scope| {
            let threads: Vec<_> = cuts
                .windows(2)
                .map(|c| {
                    let ((from, line), (to, next_line)) = (c[0], c[1]);
                    let text = &bytes[from..to];
                    let (columns, hasher) = (&columns, &hasher);
                    scope.spawn(move || {
                        let rows = (next_line - line) as usize;
                        let mut lines = Lines::new(text, line);
                        read_rows(columns, hasher, &mut csv_reader(text), &mut lines, rows)
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        }),
        None => {
            // Sized up front: growing a vector of 300-byte instances one doubling at a time
            // costs more than the parsing does.
            let rows = line_feeds(bytes) + 1;
            vec![read_rows(&columns, &hasher, &mut reader, &mut lines, rows)]
        }
    };

    let mut parts = parts.into_iter();
    let first = parts.next().expect("one part at least");
    let rest: usize = parts.as_slice().iter().map(|p| p.instances.len()).sum();
    let mut instances = first.instances;
    instances.reserve_exact(rest);
    let mut domains = first.domains;
    let mut puzzles = first.files.listed();
    let mut fault = first.fault;
    // Each part's ids, with where its instances went.
    let mut earlier = vec![(0..instances.len(), first.ids)];
    for mut part in parts {
        if fault.is_some() {
            break;
        }
        // A part's ids are unique in it, up to its fault; one of them used in an earlier part
        // is a fault before any of its own.
        for instance in &part.instances {
            let hash = hasher.hash_one(&instance.id);
            for (range, ids) in &earlier {
                if let Some(used) = ids.line_of(hash, &instance.id, &instances[range.clone()]) {
                    let fault = duplicate(&instance.id, used);
                    return Err(fail(Some(instance.line), fault));
                }
            }
        }
        if let Some(last) = instances.last() {
            continue_run(last, &mut part.instances);
        }
        earlier.push((
            instances.len()..instances.len() + part.instances.len(),
            part.ids,
        ));
        instances.append(&mut part.instances);
        for d in part.domains {
            if !domains.contains(&d) {
                domains.push(d);
            }
        }
        for f in part.files.listed() {
            if !puzzles.contains(&f) {
                puzzles.push(f);
            }
        }
        fault = part.fault;
    }
    if let Some((line, fault)) = fault {
        return Err(fail(line, fault));
    }
    if instances.is_empty() {
        return Err(fail(
            None,
            Fault::plain(format!(
                "no instances: the header (line {header_line}) is not followed by any rows"
            )),
        ));
    }
    Ok(Dataset {
        path: path.to_path_buf(),
        name: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        instances,
        domains,
        puzzles,
    })
}

fn csv_reader(bytes: &[u8]) -> csv::Reader<&[u8]> {
    // Headers are read by hand (not `has_headers`) to report a missing one our way, and
    // `flexible` so that a short row gets our message with its line instead of csv's.
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes)
}

/// The rows after the header of `bytes`, which starts at byte `header` on line `header_line`, cut
/// in up to `pieces` parts of about one size, as (the byte each part starts at, its line), then
/// the end of the file and the line after the last; None where one reading is needed.
///
/// Each cut follows a line feed, which ends a record only where no quoted value can hold it: the
/// text from the header on must have no quote. Nor may it have a carriage return outside a CRLF,
/// which csv takes for a line ending and which a cut would have to follow as well; such files
/// are rare enough to be read in one piece. So is a part that would start with a byte-order
/// mark: csv drops one at the start of what it reads, where one reading keeps it in the row.
fn cuts(bytes: &[u8], header: usize, header_line: u64, pieces: usize) -> Option<Vec<(usize, u64)>> {
    if pieces < 2 {
        return None;
    }
    let text = &bytes[header..];
    // A fold, not `any`: the compiler runs it over many bytes at once, `any` one at a time.
    let quote_or_lone_cr = text
        .iter()
        .zip(&text[1..])
        .fold(false, |seen, (&b, &after)| {
            seen | (b == b'"') | ((b == b'\r') & (after != b'\n'))
        });
    if quote_or_lone_cr || text.last().is_some_and(|&b| b == b'"' || b == b'\r') {
        return None;
    }
    let after_line_feed = |at: usize| {
        bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| at + i + 1)
    };
    let body = after_line_feed(header);
    let mut cuts = vec![(body, header_line + 1)];
    for k in 1..=pieces {
        let (last, line) = *cuts.last().expect("the body's start");
        let cut = match k {
            k if k == pieces => bytes.len(),
            k => after_line_feed(body + (bytes.len() - body) * k / pieces),
        };
        if cut > last {
            cuts.push((cut, line + line_feeds(&bytes[last..cut]) as u64));
        }
    }
    let parts = &cuts[..cuts.len() - 1];
    if parts
        .iter()
        .any(|&(at, _)| bytes[at..].starts_with(UTF8_BOM))
    {
        return None;
    }
    (cuts.len() > 2).then_some(cuts)
}

/// The line feeds in `bytes`, counted 255 bytes at a time in a byte: the compiler then keeps the
/// counts in vector lanes, eight times as fast as `filter().count()`, which widens every byte.
fn line_feeds(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|c| c.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n')) as usize)
        .sum()
}

/// The rows of a file, or of a part of one, read on their own.
struct Part {
    /// In file order, up to the fault.
    instances: Vec<Instance>,
    ids: Ids,
    /// As `Dataset::domains`.
    domains: Vec<DomainKind>,
    /// The definition files read for its rows.
    files: Files,
    /// The first fault (a bad row or a duplicate id in the part), with its line.
    fault: Option<(Option<u64>, Fault)>,
}

/// The rows `reader` has left, up to the first fault; `rows` is about how many lines are left, to
/// size the vectors once.
fn read_rows(
    columns: &Columns,
    hasher: &RandomState,
    reader: &mut csv::Reader<&[u8]>,
    lines: &mut Lines<'_>,
    rows: usize,
) -> Part {
    // Capped: a file of blank lines must not reserve room for millions of instances.
    let rows = rows.min(1 << 20);
    let mut part = Part {
        instances: Vec::with_capacity(rows),
        ids: Ids::with_capacity(rows),
        domains: Vec::new(),
        files: Files::default(),
        fault: None,
    };
    let mut record = ByteRecord::new();
    let mut sizes = Sizes::default();
    loop {
        match next(reader, &mut record, lines) {
            Ok(true) => {}
            Ok(false) => return part,
            Err(fault) => {
                part.fault = Some(fault);
                return part;
            }
        }
        if is_blank(&record) {
            continue;
        }
        let line = lines.of(&record);
        let instance = match columns.instance(&record, line, &mut sizes, &mut part.files) {
            Ok(instance) => instance,
            Err(fault) => {
                part.fault = Some((Some(line), fault));
                return part;
            }
        };
        // Last, so that a row is first judged on its own.
        let hash = hasher.hash_one(&instance.id);
        if let Some(first) = part.ids.first_line(hash, &instance.id, &part.instances) {
            part.fault = Some((Some(line), duplicate(&instance.id, first)));
            return part;
        }
        if !part.domains.contains(&instance.domain) {
            part.domains.push(instance.domain);
        }
        part.instances.push(instance);
    }
}

fn duplicate(id: &str, first: u64) -> Fault {
    Fault::at(
        "id",
        format!(
            "duplicate id '{}': already used on line {first}; ids must be unique in the file",
            shorten(id)
        ),
    )
}

/// Gives the rows at the start of `part` that continue `last`'s run of one family the run's
/// size, as one reading would have: the part began a run of its own.
fn continue_run(last: &Instance, part: &mut [Instance]) {
    let Some(first) = part.first() else { return };
    if first.puzzle.family_id() != last.puzzle.family_id() {
        return;
    }
    let own = Arc::clone(&first.size);
    for instance in part.iter_mut().take_while(|i| Arc::ptr_eq(&i.size, &own)) {
        instance.size = Arc::clone(&last.size);
    }
}

/// The most names of a header a message quotes: a header of thousands of columns is a stray data
/// row, and the first few tell which.
const QUOTED_NAMES: usize = 8;

/// `names` quoted for a message, each shortened, the first `QUOTED_NAMES` of them and a count of
/// the others: `'a', 'b', ... and 195000 more`.
fn quoted_names(names: &[String]) -> String {
    let mut found = names
        .iter()
        .take(QUOTED_NAMES)
        .map(|n| format!("'{}'", shorten(n)))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > QUOTED_NAMES {
        found += &format!(" and {} more", names.len() - QUOTED_NAMES);
    }
    found
}

fn empty_file_message(what: &str) -> String {
    format!("{what}: expected a header line such as 'id,domain,size,start,goal,optimal' and one row per instance")
}

/// A fault before it is given its file and line.
struct Fault {
    column: Option<&'static str>,
    message: String,
}

impl Fault {
    fn plain(message: impl Into<String>) -> Fault {
        Fault {
            column: None,
            message: message.into(),
        }
    }

    fn at(column: &'static str, message: impl Into<String>) -> Fault {
        Fault {
            column: Some(column),
            message: message.into(),
        }
    }
}

/// Reads the next record; false at the end of the file.
fn next(
    reader: &mut csv::Reader<&[u8]>,
    record: &mut ByteRecord,
    lines: &mut Lines<'_>,
) -> Result<bool, (Option<u64>, Fault)> {
    // Reading bytes from memory with `flexible`, csv has almost nothing left to fail on; whatever
    // it is, it still gets a line.
    reader.read_byte_record(record).map_err(|e| {
        let line = e.position().map(|p| lines.at(p.byte()));
        (line, Fault::plain(format!("unreadable CSV: {e}")))
    })
}

/// Physical line numbers, counted here because csv's `Position::line` drifts: it lags by one
/// after every CRLF and after every blank line. Its byte offsets are right, except that a
/// record's may point at the line ending before it.
struct Lines<'a> {
    bytes: &'a [u8],
    /// Bytes before `done` are counted; `line` is the line `done` is on.
    done: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    /// Lines of `bytes`, the first of which is line `line` of the file.
    fn new(bytes: &'a [u8], line: u64) -> Lines<'a> {
        Lines {
            bytes,
            done: 0,
            line,
        }
    }

    fn of(&mut self, record: &ByteRecord) -> u64 {
        record.position().map_or(self.line, |p| self.at(p.byte()))
    }

    /// The line of the record starting at byte `offset`; offsets must not go backwards.
    fn at(&mut self, offset: u64) -> u64 {
        let b = self.bytes;
        // No record starts with a line ending (a quoted one starts with its quote), so these
        // belong to the line before.
        let mut start = (offset as usize).min(b.len());
        while start < b.len() && (b[start] == b'\n' || b[start] == b'\r') {
            start += 1;
        }
        if start > self.done {
            for i in self.done..start {
                // A lone CR ends a line as well (old Mac files): csv splits records on it.
                if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                    self.line += 1;
                }
            }
            self.done = start;
        }
        self.line
    }
}

/// A line of whitespace, or of empty fields only (`,,,,`): spreadsheets pad files with these.
fn is_blank(record: &ByteRecord) -> bool {
    record
        .iter()
        .all(|f| f.iter().all(|b| b.is_ascii_whitespace()))
}

/// The ids seen so far, as hashes (of one `RandomState`) pointing into the instances: a set of
/// owned strings would double the allocations of a large load.
struct Ids {
    by_hash: HashMap<u64, usize>,
}

impl Ids {
    fn with_capacity(rows: usize) -> Ids {
        Ids {
            by_hash: HashMap::with_capacity(rows),
        }
    }

    /// The line where `id` (of hash `hash`) was first used, or None after recording it as the id
    /// of the instance about to be pushed.
    fn first_line(&mut self, hash: u64, id: &str, instances: &[Instance]) -> Option<u64> {
        match self.by_hash.entry(hash) {
            Entry::Vacant(e) => {
                e.insert(instances.len());
                None
            }
            Entry::Occupied(e) if instances[*e.get()].id == id => Some(instances[*e.get()].line),
            // Two ids with one 64-bit hash: rare enough that a scan costs nothing overall.
            Entry::Occupied(_) => instances.iter().find(|i| i.id == id).map(|i| i.line),
        }
    }

    /// The line where `id` (of hash `hash`) is used among `instances`, those these ids were
    /// recorded from.
    fn line_of(&self, hash: u64, id: &str, instances: &[Instance]) -> Option<u64> {
        match self.by_hash.get(&hash) {
            None => None,
            Some(&k) if instances[k].id == id => Some(instances[k].line),
            Some(_) => instances.iter().find(|i| i.id == id).map(|i| i.line),
        }
    }
}

/// The `size` of each instance, made once per family rather than formatted for every row:
/// instances of one size share their family (its tables), so rows in a run of one family get the
/// last row's text.
#[derive(Default)]
struct Sizes {
    /// The last family, by address (alive as long as the instance that holds it), and its size.
    last: Option<(usize, Arc<str>)>,
}

impl Sizes {
    fn of(&mut self, puzzle: &Puzzle) -> Arc<str> {
        let family = puzzle.family_id();
        match &self.last {
            Some((last, size)) if *last == family => Arc::clone(size),
            _ => {
                let size: Arc<str> = puzzle.size().into();
                self.last = Some((family, Arc::clone(&size)));
                size
            }
        }
    }
}

/// The definition files read for a part's rows, by the path as written and the metric, each
/// read once.
#[derive(Default)]
struct Files {
    read: Vec<((String, Metric), PuzzleFile)>,
}

impl Files {
    /// The file `shown` (relative to `dir`) under `metric`, read on first use.
    fn get(&mut self, dir: &Path, shown: &str, metric: Metric) -> Result<&PuzzleFile, Fault> {
        let key = (shown.to_string(), metric);
        let at = match self.read.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let file = PuzzleFile::read(&dir.join(shown), shown, metric)
                    .map_err(|e| Fault::at("puzzle", e))?;
                self.read.push((key, file));
                self.read.len() - 1
            }
        };
        Ok(&self.read[at].1)
    }

    /// Each file once: the path as written and its SHA-256.
    fn listed(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for (_, f) in &self.read {
            let entry = (f.shown.clone(), f.sha256.clone());
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
        out
    }
}

/// Where each known column sits in the header.
struct Columns {
    fields: usize,
    id: usize,
    domain: usize,
    size: Option<usize>,
    start: usize,
    goal: Option<usize>,
    optimal: Option<usize>,
    optimal_cost: Option<usize>,
    cost_model: Option<usize>,
    puzzle: Option<usize>,
    metric: Option<usize>,
    /// The dataset's directory, that `puzzle` paths are relative to.
    dir: PathBuf,
}

impl Columns {
    fn from_header(header: &ByteRecord) -> Result<Columns, Fault> {
        // Lossy: a name that is not UTF-8 cannot be one of ours, so it is just another extra column.
        let names: Vec<String> = header
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
            .collect();
        // One pass with a map of the names seen: a header of many columns (a stray data row of
        // a wide file) is checked in time linear in its length.
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if name.is_empty() {
                continue;
            }
            if let Some(first) = seen.insert(name, i) {
                return Err(Fault::plain(format!(
                    "the header names column '{}' twice (fields {} and {}): each column once",
                    shorten(name),
                    first + 1,
                    i + 1
                )));
            }
        }
        let find = |want: &str| seen.get(want).copied();
        let missing: Vec<&str> = ["id", "domain", "start"]
            .into_iter()
            .filter(|c| find(c).is_none())
            .collect();
        if !missing.is_empty() {
            let found = quoted_names(&names);
            let known = ["id", "domain", "size", "start", "goal", "optimal"];
            let message = if !known.iter().any(|k| seen.contains_key(k)) {
                let separator = match names.as_slice() {
                    [one] if one.contains('\t') => " (columns are separated by commas, not tabs)",
                    [one] if one.contains(';') => {
                        " (columns are separated by commas, not semicolons)"
                    }
                    _ => "",
                };
                format!(
                    "missing header: the first line must name the columns ({COLUMNS_HELP}), found {found}{separator}"
                )
            } else {
                let missing = missing
                    .iter()
                    .map(|c| format!("'{c}'"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "the header lacks required column {missing} ({COLUMNS_HELP}), found {found}"
                )
            };
            return Err(Fault::plain(message));
        }
        Ok(Columns {
            fields: names.len(),
            id: find("id").expect("checked"),
            domain: find("domain").expect("checked"),
            size: find("size"),
            start: find("start").expect("checked"),
            goal: find("goal"),
            optimal: find("optimal"),
            optimal_cost: find("optimal_cost"),
            cost_model: find("cost_model"),
            puzzle: find("puzzle"),
            metric: find("metric"),
            dir: PathBuf::new(),
        })
    }

    fn instance(
        &self,
        record: &ByteRecord,
        line: u64,
        sizes: &mut Sizes,
        files: &mut Files,
    ) -> Result<Instance, Fault> {
        if record.len() != self.fields {
            // Only a quoted value holds a comma or a line break: one that swallowed the row's
            // separators is a quote left open.
            let swallowed = record
                .iter()
                .any(|f| f.contains(&b',') || f.contains(&b'\n'));
            let hint = if record.len() < self.fields && swallowed {
                "a quote (\") opened and not closed, which takes the commas after it into one value?"
            } else if record.len() < self.fields {
                "a missing comma or a missing trailing comma?"
            } else {
                "an unquoted comma inside a value?"
            };
            return Err(Fault::plain(format!(
                "expected {} fields as in the header, found {} ({hint})",
                self.fields,
                record.len()
            )));
        }
        let fields = Fields::new(record);
        let id = fields.text(self.id, "id")?;
        if id.is_empty() {
            return Err(Fault::at(
                "id",
                "empty: every row needs an id, unique in the file",
            ));
        }
        let domain_name = fields.text(self.domain, "domain")?;
        let domain = DomainKind::parse(domain_name).ok_or_else(|| {
            let known = DomainKind::names();
            if domain_name.is_empty() {
                Fault::at("domain", format!("empty: expected one of {known}"))
            } else {
                Fault::at(
                    "domain",
                    format!(
                        "unknown domain '{}': expected one of {known}",
                        shorten(domain_name)
                    ),
                )
            }
        })?;
        let size = match self.size {
            Some(i) => Some(fields.text(i, "size")?),
            None => None,
        };
        let start = fields.text(self.start, "start")?;
        let goal = match self.goal {
            Some(i) => Some(fields.text(i, "goal")?).filter(|g| !g.is_empty()),
            None => None,
        };
        let metric = match self.metric {
            Some(i) => Some(fields.text(i, "metric")?).filter(|m| !m.is_empty()),
            None => None,
        };
        let metric = match metric {
            None => None,
            Some(_) if domain != DomainKind::Ksolve => {
                return Err(Fault::at(
                    "metric",
                    format!(
                        "domain '{}' has one metric: leave metric empty (it is for ksolve)",
                        domain.name()
                    ),
                ))
            }
            Some(m) => Some(Metric::parse(m).ok_or_else(|| {
                Fault::at(
                    "metric",
                    format!("unknown metric '{}': expected half or quarter", shorten(m)),
                )
            })?),
        };
        let file = match self.puzzle {
            Some(i) => Some(fields.text(i, "puzzle")?).filter(|p| !p.is_empty()),
            None => None,
        };
        let file = match file {
            Some(shown) => Some(files.get(&self.dir, shown, metric.unwrap_or(Metric::Half))?),
            None => None,
        };
        let puzzle = domain
            .instance(file, size, start, goal)
            .map_err(|(column, message)| Fault::at(column, message))?;
        let size = sizes.of(&puzzle);
        let optimal = match self.optimal {
            Some(i) => optimal(fields.text(i, "optimal")?)?,
            None => None,
        };
        let optimal_cost = match self.optimal_cost {
            Some(i) => optimal_cost(fields.text(i, "optimal_cost")?)?,
            None => None,
        };
        let model = match self.cost_model {
            Some(i) => Some(fields.text(i, "cost_model")?).filter(|m| !m.is_empty()),
            None => None,
        };
        let model = match model {
            None => None,
            Some(m) => Some(CostModel::parse(m).ok_or_else(|| {
                Fault::at(
                    "cost_model",
                    format!(
                        "unknown cost model '{}': expected unit, heavy or inverse-heavy",
                        shorten(m)
                    ),
                )
            })?),
        };
        let optimal_cost = match (optimal_cost, model) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(Fault::at(
                    "cost_model",
                    "empty or absent: an optimal_cost needs the cost model it is for: unit, heavy or inverse-heavy",
                ))
            }
            (Some(c), Some(model)) => Some((model, c)),
        };
        Ok(Instance {
            id: id.to_owned(),
            line,
            domain,
            size,
            optimal,
            optimal_cost,
            puzzle,
        })
    }
}

/// The fields of a row, read as text.
struct Fields<'r> {
    record: &'r ByteRecord,
    /// The row's fields as one text, when it is UTF-8 as a whole (nearly always): one check for
    /// the row, after which a field is a slice of it.
    whole: Option<&'r str>,
}

impl<'r> Fields<'r> {
    fn new(record: &'r ByteRecord) -> Fields<'r> {
        Fields {
            record,
            whole: std::str::from_utf8(record.as_slice()).ok(),
        }
    }

    /// Field `i` as trimmed UTF-8.
    fn text(&self, i: usize, column: &'static str) -> Result<&'r str, Fault> {
        let raw = self.record.get(i).unwrap_or_default();
        // Most values have nothing to trim: their ends are printable ASCII.
        let trimmed = |t: &'r str| match (raw.first(), raw.last()) {
            (Some(a), Some(z)) if a.is_ascii_graphic() && z.is_ascii_graphic() => t,
            _ => t.trim(),
        };
        // A slice of the whole that does not fall on character boundaries is checked alone.
        let sliced = self
            .whole
            .zip(self.record.range(i))
            .and_then(|(w, r)| w.get(r));
        if let Some(t) = sliced {
            return Ok(trimmed(t));
        }
        std::str::from_utf8(raw).map(trimmed).map_err(|e| {
            let at = e.valid_up_to();
            Fault::at(
                column,
                format!(
                    "not valid UTF-8 (byte 0x{:02X} at byte {} of the value): save the file as UTF-8",
                    raw[at],
                    at + 1
                ),
            )
        })
    }
}

fn optimal(value: &str) -> Result<Option<u32>, Fault> {
    if value.is_empty() {
        return Ok(None);
    }
    // Not `parse::<u32>` alone: it takes a leading '+', which no writer of this column means.
    match value.parse::<u32>() {
        Ok(n) if value.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err(Fault::at(
            "optimal",
            format!(
                "'{}' is not a solution length: expected a non-negative integer, or nothing when unknown",
                shorten(value)
            ),
        )),
    }
}

/// A reference cost: a finite number, at least 0, or nothing when unknown.
fn optimal_cost(value: &str) -> Result<Option<f64>, Fault> {
    if value.is_empty() {
        return Ok(None);
    }
    match value.parse::<f64>() {
        Ok(c) if c.is_finite() && c >= 0.0 && !value.starts_with('+') => Ok(Some(c)),
        _ => Err(Fault::at(
            "optimal_cost",
            format!(
                "'{}' is not a solution cost: expected a number of at least 0, or nothing when unknown",
                shorten(value)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::tiles::Tiles;
    use crate::domains::Family;

    fn data_dir(kind: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(kind)
    }

    /// The files of `dir` ending in `.ext`, sorted.
    fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        out.sort();
        out
    }

    fn start_of(instance: &Instance) -> Vec<u8> {
        match &instance.puzzle {
            Puzzle::Tiles { start, .. } => start.to_vec(),
            _ => panic!("not a tiles instance"),
        }
    }

    fn tiles_of(instance: &Instance) -> &Arc<Tiles> {
        match &instance.puzzle {
            Puzzle::Tiles { domain, .. } => domain,
            _ => panic!("not a tiles instance"),
        }
    }

    #[test]
    fn every_bad_file_fails_with_its_expected_message() {
        let dir = data_dir("bad");
        let csvs = files(&dir, "csv");
        assert!(csvs.len() >= 22, "only {} bad files", csvs.len());
        for expect in files(&dir, "expect") {
            assert!(
                expect.with_extension("csv").exists(),
                "{} has no .csv",
                expect.display()
            );
        }
        let mut failures = Vec::new();
        for csv in &csvs {
            let expect_path = csv.with_extension("expect");
            let expect = std::fs::read_to_string(&expect_path)
                .unwrap_or_else(|e| panic!("{}: {e}", expect_path.display()));
            let expect = expect.trim_end_matches(['\n', '\r']);
            assert!(!expect.is_empty(), "{} is empty", expect_path.display());
            let name = csv.file_name().unwrap().to_string_lossy().into_owned();
            match load(csv) {
                Ok(d) => failures.push(format!("{name}: loaded {} instances", d.instances.len())),
                Err(e) => {
                    let message = e.to_string();
                    if !message.contains(&name) || !message.contains(expect) {
                        failures.push(format!("{name}: wanted '{expect}' in: {message}"));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    }

    /// (file, ids, lines, optimal lengths) of every good file.
    type Expected = (
        &'static str,
        &'static [&'static str],
        &'static [u64],
        &'static [Option<u32>],
    );

    const GOOD: &[Expected] = &[
        (
            "bom.csv",
            &["a", "b", "c"],
            &[2, 3, 4],
            &[Some(1), Some(2), None],
        ),
        (
            "crlf.csv",
            &["1", "2", "3"],
            &[2, 3, 4],
            &[Some(1), Some(2), Some(3)],
        ),
        (
            "trailing_comma.csv",
            &["t1", "t2"],
            &[2, 3],
            &[Some(1), None],
        ),
        (
            "extra_columns.csv",
            &["x1", "x2", "x3"],
            &[2, 3, 4],
            &[Some(2), Some(1), None],
        ),
        (
            "unsolvable.csv",
            &["solvable", "swapped"],
            &[2, 3],
            &[Some(1), None],
        ),
        (
            "blank_lines.csv",
            &["b1", "b2", "b3"],
            &[2, 4, 7],
            &[Some(1), Some(1), None],
        ),
        (
            "mixed_sizes.csv",
            &["2x2", "2x3", "3x2", "4x4", "16x15", "16x2"],
            &[2, 3, 4, 5, 6, 7],
            &[Some(1), Some(1), None, Some(57), Some(1), None],
        ),
        (
            "no_optional_columns.csv",
            &["only1", "only2"],
            &[2, 3],
            &[None, None],
        ),
        (
            "quoted_multiline.csv",
            &["q1", "q2", "q3"],
            &[2, 5, 6],
            &[Some(1), Some(2), None],
        ),
    ];

    #[test]
    fn every_good_file_loads_with_its_ids_lines_and_lengths() {
        let dir = data_dir("good");
        let on_disk: Vec<String> = files(&dir, "csv")
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let listed: Vec<String> = GOOD.iter().map(|g| g.0.to_owned()).collect();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(on_disk, sorted, "every good file needs an entry in GOOD");
        for &(file, ids, lines, optimal) in GOOD {
            let d = load(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(d.name, file.trim_end_matches(".csv"));
            let got_ids: Vec<&str> = d.instances.iter().map(|i| i.id.as_str()).collect();
            let got_lines: Vec<u64> = d.instances.iter().map(|i| i.line).collect();
            let got_optimal: Vec<Option<u32>> = d.instances.iter().map(|i| i.optimal).collect();
            assert_eq!(got_ids, ids, "{file}: ids");
            assert_eq!(got_lines, lines, "{file}: lines");
            assert_eq!(got_optimal, optimal, "{file}: optimal");
            for i in &d.instances {
                assert_eq!(i.domain, DomainKind::Tiles, "{file}");
            }
        }
    }

    #[test]
    fn a_dataset_knows_its_domains_and_shares_a_familys_size() {
        let csv = "id,domain,size,start\na,tiles,3x3,1 2 3 4 5 6 7 0 8\nb,tiles,3x3,1 2 3 4 5 6 0 7 8\nc,booksort,,2 1 3\nd,tiles,2x2,1 2 0 3\n";
        let d = parse(Path::new("m.csv"), csv.as_bytes()).unwrap();
        assert_eq!(d.domains, [DomainKind::Tiles, DomainKind::Booksort]);
        let sizes: Vec<&str> = d.instances.iter().map(|i| &*i.size).collect();
        assert_eq!(sizes, ["3x3", "3x3", "3", "2x2"]);
        let (a, c) = (&d.instances[0], &d.instances[1]);
        assert!(Arc::ptr_eq(tiles_of(a), tiles_of(c)));
        assert!(Arc::ptr_eq(&a.size, &c.size));
    }

    #[test]
    fn good_files_keep_sizes_goals_and_unsolvable_starts() {
        let dir = data_dir("good");
        let mixed = load(&dir.join("mixed_sizes.csv")).unwrap();
        let sizes: Vec<&str> = mixed.instances.iter().map(|i| &*i.size).collect();
        assert_eq!(sizes, ["2x2", "2x3", "3x2", "4x4", "16x15", "16x2"]);
        let t = tiles_of(&mixed.instances[2]);
        assert_eq!((t.width(), t.height()), (3, 2));
        assert_eq!(t.tiles(t.goal()), [0, 1, 2, 3, 4, 5], "custom goal");

        let u = load(&dir.join("unsolvable.csv")).unwrap();
        let solvable: Vec<bool> = u
            .instances
            .iter()
            .map(|i| match &i.puzzle {
                Puzzle::Tiles { domain, start } => domain.is_solvable(&domain.unpack(start)),
                _ => panic!("not a tiles instance"),
            })
            .collect();
        assert_eq!(solvable, [true, false]);

        let x = load(&dir.join("extra_columns.csv")).unwrap();
        assert_eq!(start_of(&x.instances[0]), [1, 2, 3, 4, 0, 5, 7, 8, 6]);
        // An explicit default goal and an empty one are the same table.
        assert!(Arc::ptr_eq(
            tiles_of(&x.instances[0]),
            tiles_of(&x.instances[1])
        ));
    }

    #[test]
    fn korf100_loads_with_lengths_and_blank_first_goal() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/korf100.csv");
        let d = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.name, "korf100");
        assert_eq!(d.instances.len(), 100);
        let blank_first: Vec<u8> = (0..16).collect();
        for (k, i) in d.instances.iter().enumerate() {
            assert_eq!(i.id, (k + 1).to_string());
            assert_eq!(i.line, k as u64 + 2);
            assert_eq!(&*i.size, "4x4");
            assert!(i.optimal.is_some(), "instance {} has no optimal", i.id);
            let t = tiles_of(i);
            assert_eq!(t.tiles(t.goal()), blank_first.as_slice());
            assert!(Arc::ptr_eq(t, tiles_of(&d.instances[0])));
        }
        assert_eq!(d.instances[0].optimal, Some(57));
        assert_eq!(
            start_of(&d.instances[0]),
            [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]
        );
    }

    /// Korf & Felner's 50 24-puzzle instances: every start solvable for the blank-first goal, and
    /// every published length has the parity of the solutions and is at least Manhattan's estimate.
    #[test]
    fn korf24_loads_solvable_with_consistent_lengths() {
        use crate::domains::tiles::Manhattan;
        use crate::search::{Domain, Heuristic};
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/korf24.csv");
        let d = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.instances.len(), 50);
        let blank_first: Vec<u8> = (0..25).collect();
        let t = tiles_of(&d.instances[0]);
        let manhattan = Manhattan::new(&**t);
        for i in &d.instances {
            assert_eq!(&*i.size, "5x5");
            assert!(Arc::ptr_eq(t, tiles_of(i)));
            assert_eq!(t.tiles(t.goal()), blank_first.as_slice());
            let Puzzle::Tiles { start, .. } = &i.puzzle else {
                panic!("not a tiles instance")
            };
            let start = &t.unpack(start);
            assert!(t.is_solvable(start), "#{}", i.id);
            let optimal = i
                .optimal
                .unwrap_or_else(|| panic!("#{} has no length", i.id));
            assert_eq!(Some(optimal % 2), t.solution_parity(start), "#{}", i.id);
            let h = Heuristic::<Tiles>::estimate(&manhattan, manhattan.init(&**t, start));
            assert!(h <= optimal, "#{}: Manhattan {h} above {optimal}", i.id);
        }
        assert_eq!(d.instances[0].optimal, Some(95));
    }

    #[test]
    fn missing_file_and_directory_are_errors_naming_the_path() {
        let missing = data_dir("no_such_file.csv");
        let e = load(&missing).unwrap_err();
        assert_eq!(e.line, None);
        let shown = e.to_string();
        assert!(shown.contains("no_such_file.csv"), "{shown}");
        assert!(shown.contains("cannot read"), "{shown}");
        assert!(load(&data_dir("good")).is_err());
    }

    #[test]
    fn display_omits_missing_parts() {
        let mut e = DatasetError {
            path: PathBuf::from("datasets/x.csv"),
            line: Some(12),
            column: Some("start".into()),
            message: "expected 16 tiles (0 to 15), found 15".into(),
        };
        assert_eq!(
            e.to_string(),
            "datasets/x.csv:12: column 'start': expected 16 tiles (0 to 15), found 15"
        );
        e.column = None;
        assert_eq!(
            e.to_string(),
            "datasets/x.csv:12: expected 16 tiles (0 to 15), found 15"
        );
        e.line = None;
        assert_eq!(
            e.to_string(),
            "datasets/x.csv: expected 16 tiles (0 to 15), found 15"
        );
    }

    #[test]
    fn in_memory_errors_are_located() {
        let p = Path::new("mem.csv");
        let cases: &[(&str, &str)] = &[
            (
                "id,domain,size,start\n1,tiles,3x3,1 2 3 4 5 6 7 8 0\n2,tiles,3x3,1 2 3\n",
                "mem.csv:3: column 'start': expected 9 tiles (0 to 8), found 3",
            ),
            (
                "id,domain,size,start\n1,tiles,3x3,1 2 3 4 5 6 7 8 0\n1,tiles,3x3,1 2 3 4 5 6 7 0 8\n",
                "mem.csv:3: column 'id': duplicate id '1': already used on line 2",
            ),
            (
                "id,domain,size,start\n1,tiles,17x17,1\n",
                "mem.csv:2: column 'size': invalid size '17x17'",
            ),
            (
                "id,domain,size,start,optimal\n1,tiles,3x3,1 2 3 4 5 6 7 8 0,+3\n",
                "mem.csv:2: column 'optimal': '+3' is not a solution length",
            ),
            (
                "id,domain,size,start,optimal_cost,cost_model\n1,tiles,3x3,1 2 3 4 5 6 7 8 0,-1,heavy\n",
                "mem.csv:2: column 'optimal_cost': '-1' is not a solution cost",
            ),
            (
                "id,domain,size,start,optimal_cost,cost_model\n1,tiles,3x3,1 2 3 4 5 6 7 8 0,NaN,heavy\n",
                "mem.csv:2: column 'optimal_cost': 'NaN' is not a solution cost",
            ),
            (
                "id,domain,size,start,optimal_cost\n1,tiles,3x3,1 2 3 4 5 6 7 8 0,3\n",
                "mem.csv:2: column 'cost_model': empty or absent",
            ),
            (
                "id,domain,size,start,cost_model\n1,tiles,3x3,1 2 3 4 5 6 7 8 0,weighty\n",
                "mem.csv:2: column 'cost_model': unknown cost model 'weighty'",
            ),
            (
                "id,domain,size,start\n1,tiles,3x3\n",
                "mem.csv:2: expected 4 fields as in the header, found 3",
            ),
            (
                "id,domain,size,start\r\n\r\n1,tiles,3x3,\"1 2 3\r\n4 5 6\r\n7 0 8\"\r\n\r\n2,tiles,3x3,x\r\n",
                "mem.csv:7: column 'start'",
            ),
            (
                "id,domain,size,start\r1,tiles,3x3,1 2 3 4 5 6 7 0 8\r2,tiles,3x3,x\r",
                "mem.csv:3: column 'start'",
            ),
            (
                "\n\n id , domain,size,start\n1,tiles,3x3,1 2 3 4 5 6 7 0 8\n 1 ,tiles,3x3,1 2 3 4 5 6 7 0 8\n",
                "mem.csv:5: column 'id': duplicate id '1': already used on line 4",
            ),
            ("id,domain,size,start\n", "mem.csv: no instances"),
            ("\n\n  \n", "mem.csv: no header"),
        ];
        for (text, want) in cases {
            let e = parse(p, text.as_bytes()).unwrap_err().to_string();
            assert!(e.starts_with(want), "wanted '{want}', got '{e}'");
        }
    }

    #[test]
    fn a_character_split_between_two_fields_is_refused_in_the_first() {
        // The row's bytes are UTF-8 as a whole ("1é..."), but neither field is alone.
        let text = b"id,domain,size,start\n1\xC3,\xA9tiles,3x3,1 2 3 4 5 6 7 0 8\n";
        let e = parse(Path::new("mem.csv"), text).unwrap_err().to_string();
        assert_eq!(
            e,
            "mem.csv:2: column 'id': not valid UTF-8 (byte 0xC3 at byte 2 of the value): save the file as UTF-8"
        );
    }

    #[test]
    fn long_lines_and_files_stop_the_read_with_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("idabench-dataset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("long.csv");
        let mut text = String::from("id,domain,size,start\n1,tiles,3x3,1 2 3 4 5 6 7 8 0\n");
        text.push_str(&"x".repeat(text::MAX_LINE_BYTES + 1));
        std::fs::write(&path, &text).unwrap();
        let e = load(&path).map(|_| ()).unwrap_err();
        // A sparse file just over the limit: its size is refused before it is read.
        let huge = dir.join("huge.csv");
        std::fs::File::create(&huge)
            .and_then(|f| f.set_len(text::MAX_INPUT_BYTES + 1))
            .unwrap();
        let too_large = load(&huge).map(|_| ()).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(e.line, Some(3));
        assert!(
            e.to_string().ends_with(
                "long.csv:3: line longer than the limit of 1048576 bytes (1 MiB); is it a text file?"
            ),
            "{e}"
        );
        assert_eq!(
            too_large.message,
            "larger than the limit of 1073741824 bytes (1 GiB) for a dataset: split it into several files"
        );
    }

    #[test]
    fn devices_without_an_end_are_read_up_to_the_bound() {
        let e = load(Path::new("/dev/zero")).map(|_| ()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero:1: line longer than the limit of 1048576 bytes (1 MiB); is it a text file?"
        );
    }

    #[test]
    fn echoed_values_are_cut() {
        let long = "7".repeat(10_000_000);
        let p = Path::new("mem.csv");
        for text in [
            format!("id,domain,size,start\n1,tiles,{long},1 2 3\n"),
            format!("id,domain,size,start\n1,tiles,3x3,1 2 3 {long} 5 6 7 8 0\n"),
            format!("id,domain,size,start\n1,{long},3x3,1 2 3 4 5 6 7 8 0\n"),
            format!("id,domain,size,start\n{long},tiles,3x3,1 2 3 4 5 6 7 8 0\n{long},tiles,3x3,1 2 3 4 5 6 7 8 0\n"),
            format!("id,domain,size,start,{long},{long}\n"),
            format!("id,domain,size,start,optimal\n1,tiles,3x3,1 2 3 4 5 6 7 8 0,{long}x\n"),
            format!("id,domain,size,start\n1,rotation,{long},1 2 3\n"),
            format!("id,domain,size,start\n1,booksort,,1 2 {long}\n"),
        ] {
            let e = parse(p, text.as_bytes()).unwrap_err().to_string();
            assert!(e.len() < 400 && e.contains("7777777..."), "{}", &e[..e.len().min(400)]);
        }
    }

    /// Every permutation of 0..9 in lexicographic order, `count` of them.
    fn permutations(count: usize) -> Vec<[u8; 9]> {
        let mut p: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            out.push(p);
            let Some(i) = (0..8).rev().find(|&i| p[i] < p[i + 1]) else {
                break;
            };
            let j = (i + 1..9).rev().find(|&j| p[j] > p[i]).expect("exists");
            p.swap(i, j);
            p[i + 1..].reverse();
        }
        out
    }

    /// `parse_in` in `pieces` parts gives what one reading gives: the same instances, sharing
    /// sizes and tables alike, or the same error.
    fn same_in_parts(text: &str) {
        let p = Path::new("parts.csv");
        let one = parse_in(p, text.as_bytes(), 1);
        for pieces in 2..=7 {
            let cut = cuts(text.as_bytes(), 0, 1, pieces).expect("a text that can be cut");
            assert_eq!(cut.len(), pieces + 1, "{pieces} pieces of {text:?}");
            let parts = parse_in(p, text.as_bytes(), pieces);
            let (one, parts) = match (&one, parts) {
                (Ok(one), Ok(parts)) => (one, parts),
                (one, parts) => {
                    assert_eq!(
                        parts.err(),
                        one.as_ref().err().cloned(),
                        "{pieces} pieces of {text:?}"
                    );
                    continue;
                }
            };
            let show = |d: &Dataset| {
                let rows: Vec<_> = d
                    .instances
                    .iter()
                    .map(|i| {
                        (
                            i.id.clone(),
                            i.line,
                            i.puzzle.start_tokens(),
                            i.size.clone(),
                        )
                    })
                    .collect();
                (rows, d.domains.clone())
            };
            assert_eq!(show(&parts), show(one), "{pieces} pieces of {text:?}");
            // Which neighbours share a size and a table.
            let shared = |d: &Dataset| {
                let pairs = d.instances.windows(2);
                let shares = |w: &[Instance]| {
                    let same_family = w[0].puzzle.family_id() == w[1].puzzle.family_id();
                    (Arc::ptr_eq(&w[0].size, &w[1].size), same_family)
                };
                pairs.map(shares).collect::<Vec<_>>()
            };
            assert_eq!(shared(&parts), shared(one), "{pieces} pieces of {text:?}");
        }
    }

    /// A header and `rows` rows: ids `r0`, `r1`..., 8-puzzle starts but for every third row.
    fn rows(rows: usize) -> Vec<String> {
        let mut lines = vec!["id,domain,size,start,optimal".to_string()];
        for k in 0..rows {
            lines.push(match k % 3 {
                2 => format!("r{k},booksort,,2 1 3 4,"),
                _ => format!("r{k},tiles,3x3,1 2 3 4 5 6 7 0 8,{k}"),
            });
        }
        lines
    }

    #[test]
    fn parts_read_as_one_reading() {
        let good = rows(14);
        same_in_parts(&(good.join("\n") + "\n"));
        // No line feed at the end.
        same_in_parts(&good.join("\n"));
        // CRLF endings, blank lines and rows of empty fields, wherever the cuts fall.
        let mut spaced = Vec::new();
        for (k, line) in good.iter().enumerate() {
            spaced.push(line.clone());
            match k % 4 {
                1 => spaced.push(String::new()),
                2 => spaced.extend(["  ".to_string(), ",,,,".to_string()]),
                _ => {}
            }
        }
        same_in_parts(&(spaced.join("\r\n") + "\r\n"));
        same_in_parts(&spaced.join("\r\n"));
        // Blank lines before the header.
        same_in_parts(&format!("\n \n{}", spaced.join("\n")));
    }

    #[test]
    fn parts_fail_at_the_first_fault_in_the_file() {
        let good = rows(10);
        let faults = [
            "r1,tiles,3x3,1 2 3,",
            "r1,tiles,9x9x9,1 2 3,",
            "r1,tiles,3x3",
            "r1,tiles,3x3,1 2 3 4 5 6 7 0 8,+1",
            "x,tiles,3x3,1 2 3 4 5 6 7 0 8,1",
        ];
        for (a, fault) in faults.iter().enumerate() {
            // A bad row anywhere, a duplicate id (of row 0 or row 4) anywhere, and both.
            for k in 1..good.len() {
                let mut one = good.clone();
                one[k] = fault.to_string();
                same_in_parts(&one.join("\n"));
                let mut dup = good.clone();
                dup[k] =
                    dup[k].replacen(&format!("r{}", k - 1), if k > 5 { "r4" } else { "r0" }, 1);
                same_in_parts(&dup.join("\n"));
                // The second fault first, on or beside the duplicated row (row 4's line is
                // 5), just before, on and just after the first fault, and last: where it stands
                // against the others is what a reading in parts can get wrong.
                let mut second = vec![1, 2, 5, 6, k - 1, k, k + 1, good.len() - 1];
                second.retain(|&j| (1..good.len()).contains(&j));
                second.sort();
                second.dedup();
                for j in second {
                    let mut two = good.clone();
                    two[k] = fault.to_string();
                    two[j] = faults[(a + 1) % faults.len()].to_string();
                    if j != k {
                        same_in_parts(&two.join("\r\n"));
                    }
                    let mut both = dup.clone();
                    both[j] = fault.to_string();
                    same_in_parts(&both.join("\n"));
                }
            }
        }
    }

    #[test]
    fn quotes_and_lone_carriage_returns_are_read_in_one_piece() {
        let body = "a,tiles,2x2,1 2 3 0\nb,tiles,2x2,1 2 0 3\nc,tiles,2x2,1 0 2 3\n";
        let header = "id,domain,size,start\n";
        assert!(cuts(format!("{header}{body}").as_bytes(), 0, 1, 3).is_some());
        for text in [
            format!("{header}{body}d,tiles,2x2,\"0 1 2 3\"\n"),
            format!("\"id\",domain,size,start\n{body}"),
            format!("{header}{body}d,tiles,2x2,0 1 2 3\r"),
            format!("{header}{}", body.replacen('\n', "\r", 1)),
            format!(
                "{header}{}",
                body.replace("\nb,", "\n\u{feff}b,")
                    .replace("\nc,", "\n\u{feff}c,")
            ),
            format!("{header}\u{feff}{body}"),
        ] {
            assert!(cuts(text.as_bytes(), 0, 1, 3).is_none(), "{text:?}");
        }
    }

    #[test]
    fn line_feeds_are_counted_past_a_chunk_of_255() {
        let text: Vec<u8> = (0..2000u32)
            .map(|k| if k % 7 == 0 { b'\n' } else { b'x' })
            .collect();
        assert_eq!(
            line_feeds(&text),
            text.iter().filter(|&&b| b == b'\n').count()
        );
    }

    #[test]
    fn a_large_dataset_shares_one_table() {
        const ROWS: usize = 181_440;
        let mut text = String::from("id,domain,size,start,goal,optimal\n");
        for (k, p) in permutations(ROWS).iter().enumerate() {
            let start: Vec<String> = p.iter().map(|t| t.to_string()).collect();
            text.push_str(&format!(
                "{k},tiles,3x3,{},1 2 3 4 5 6 7 8 0,\n",
                start.join(" ")
            ));
        }
        let d = parse(Path::new("all.csv"), text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.instances.len(), ROWS);
        assert_eq!(d.instances[ROWS - 1].line, ROWS as u64 + 1);
        let first = tiles_of(&d.instances[0]);
        assert!(d.instances.iter().all(|i| Arc::ptr_eq(tiles_of(i), first)));
    }

    #[test]
    fn datasets_of_one_board_share_its_tables_and_others_do_not() {
        let load = |goal: &str| {
            let text = format!("id,domain,size,start,goal\n1,tiles,3x5,{goal},{goal}\n");
            parse(Path::new("one.csv"), text.as_bytes()).unwrap()
        };
        let default = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0";
        let (a, b) = (load(default), load(default));
        assert!(Arc::ptr_eq(
            tiles_of(&a.instances[0]),
            tiles_of(&b.instances[0])
        ));
        let other = load("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14");
        assert!(!Arc::ptr_eq(
            tiles_of(&a.instances[0]),
            tiles_of(&other.instances[0])
        ));
    }
}
