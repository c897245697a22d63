//! Large heuristic tables (pattern databases) on disk and in memory: one file per table under a
//! cache directory, checked whole on load, built when missing and rebuilt when wrong, and held
//! once per process, read-only, by every worker.
//!
//! A file is a text header, then the entries. The header names the table's format version, what
//! the table is for (the puzzle, pattern and goal, as its `Spec` describes them), the number of
//! entries and their CRC-32; a file is used only when every line matches what is asked for and
//! the entries' checksum is right. Files are written under a temporary name and renamed, so
//! that a reader or a second builder never sees half a file.
//!
//! A table read from its file is its file mapped, not a copy: the pages are the page cache's
//! own, shared by every process using the table, and nothing is cleared or copied. Korf's 100
//! with pdb-78+reflect took 0.57 s reading its 576 MB into a buffer (0.3 s of it the system
//! clearing and copying pages), 0.37 s reading them into one in pieces on both cores, 0.22 s
//! mapped, the whole check included; the searches were as fast a node on the mapped pages as on
//! a buffer's (`ab` on the 24-puzzle's #38 and #40 with pdb-6666+reflect: 0.993 [0.988, 1.001]).
//! A file cut short while mapped ends the process with a message naming it (`sigbus`); one
//! rewritten in place would change the table under the searches, which no check at load can
//! see: idabench never does that (it renames a new file over the old one, and a mapping keeps
//! the old one).

use crate::util::files;
use crate::util::sigbus;
use crate::util::term::note;
use memmap2::{Mmap, MmapOptions};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Bumped whenever a table's layout or meaning changes: older files are then rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &str = "idabench heuristic table";
/// Headers are short; anything longer is not one of ours.
const MAX_HEADER: u64 = 4096;
pub const EXTENSION: &str = "pdb";

/// A table that can be built: what it is, how large, and how to fill it.
pub trait Spec: Sync {
    /// Unique among tables: the file's name without its extension.
    fn key(&self) -> String;
    /// Header lines saying what the table is for, besides its size (`puzzle`, `pattern`, ...).
    fn describe(&self) -> Vec<(&'static str, String)>;
    fn entries(&self) -> u64;
    /// Bytes per entry: an entry wider than one is stored little-endian.
    fn entry_bytes(&self) -> u64 {
        1
    }
    /// What an entry means, for the header.
    fn entry_format(&self) -> &'static str;
    /// The entry of the goal. In a table of one estimate per entry it is the one entry that is 0,
    /// since a search takes an estimate of 0 for the goal: a table with another 0, or a goal
    /// entry that is not 0, is damaged (a search with it would not end). See `check`.
    fn goal_entry(&self) -> u64;
    /// Whether the entries read from a file, `zeros` of them 0, look sound: by default the
    /// goal's entry is 0 and no other is. A table that holds its estimates otherwise (two in a
    /// byte) says what its goal must hold.
    fn check(&self, table: &[u8], zeros: u64) -> Result<(), String> {
        let goal = self.goal_entry();
        let at_goal = table
            .chunks_exact(self.entry_bytes() as usize)
            .nth(goal as usize)
            .map(|bytes| bytes.iter().rev().fold(0u64, |v, &b| v << 8 | b as u64));
        if at_goal != Some(0) {
            let found = at_goal.map_or("missing".to_string(), |v| v.to_string());
            return Err(format!("the goal's entry ({goal}) is {found}, not 0"));
        }
        if zeros != 1 {
            return Err(format!(
                "{zeros} entries are 0, where only the goal's (entry {goal}) may be"
            ));
        }
        Ok(())
    }
    /// Fills the table, `entry_bytes` per entry; `progress` gets, from any thread, how far the
    /// build has come as a count out of `entries`, growing with the work done (for an ETA).
    fn build(&self, progress: &(dyn Fn(u64) + Sync), stop: &AtomicBool)
        -> Result<Vec<u8>, Unbuilt>;
    /// The most memory `build` holds at once, in bytes, the table included.
    fn build_memory(&self) -> u64;
}

/// Why `Spec::build` gave no table.
#[derive(Debug, PartialEq, Eq)]
pub enum Unbuilt {
    /// `stop` was set before the table was done.
    Stopped,
    /// Its entries cannot be held as its format says: why.
    Refused(String),
}

/// Where tables live and what may be done to get one.
#[derive(Clone, Debug)]
pub struct Options {
    pub dir: PathBuf,
    /// Build a missing or wrong table; false: such a table is an error.
    pub build: bool,
    /// Build even a sound one (`pdb build --force`).
    pub rebuild: bool,
    pub quiet: bool,
    /// Set by a signal asking the command to end: a build under way stops, its file unwritten.
    pub stop: Option<&'static AtomicBool>,
}

/// The default cache directory: `$XDG_CACHE_HOME/idabench`, else `$HOME/.cache/idabench`.
pub(crate) fn default_dir() -> Option<PathBuf> {
    let nonempty = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    nonempty("XDG_CACHE_HOME")
        .or_else(|| nonempty("HOME").map(|h| h.join(".cache")))
        .map(|d| d.join("idabench"))
}

/// A table in memory, as a run's manifest records it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableInfo {
    pub name: String,
    pub entries: u64,
    pub crc32: String,
    /// The file it was read from or written to; absent for a table built in memory only.
    pub file: Option<PathBuf>,
    /// Its size in memory, in bytes. Absent in manifests written before it was recorded, whose
    /// tables held one byte per entry (`TableInfo::bytes`).
    #[serde(default)]
    pub memory_bytes: Option<u64>,
}

impl TableInfo {
    /// Its size in memory, in bytes.
    pub fn bytes(&self) -> u64 {
        self.memory_bytes.unwrap_or(self.entries)
    }
}

/// Why a table could not be had.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `--no-build` and no good file.
    #[error("{0}")]
    Missing(String),
    /// The cache cannot be written (read-only, full, not a directory).
    #[error("{0}")]
    Io(String),
    /// A build stopped by a signal.
    #[error("{0}")]
    Interrupted(String),
    /// A table whose entries its format cannot hold (what was asked cannot be done).
    #[error("{0}")]
    Refused(String),
}

struct Held {
    table: &'static [u8],
    info: TableInfo,
}

/// A table's entries: built here, or read from its file (mapped).
enum Entries {
    Built(Vec<u8>),
    Mapped {
        /// Declared before `map`, so dropped before it is unmapped.
        _watch: sigbus::Watch,
        map: Mmap,
        /// Where the entries start in the file, after its header.
        start: usize,
    },
}

impl std::ops::Deref for Entries {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Entries::Built(table) => table,
            Entries::Mapped { map, start, .. } => &map[*start..],
        }
    }
}

impl Entries {
    /// Held, and a mapped file watched, until the process ends.
    fn leak(self) -> &'static [u8] {
        let held: &'static Entries = Box::leak(Box::new(self));
        held
    }
}

fn held() -> &'static Mutex<HashMap<String, Held>> {
    static HELD: OnceLock<Mutex<HashMap<String, Held>>> = OnceLock::new();
    HELD.get_or_init(Default::default)
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<String, Held>> {
    // A panic while building leaves nothing behind, so the poison carries no meaning.
    held().lock().unwrap_or_else(|p| p.into_inner())
}

/// The threads that build tables for `try_table`, one per core, made on first use; `None` when
/// they cannot be started (the build then runs where it is asked for).
fn build_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("table-build-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// The table of `spec`, as `prepare` left it or, when nothing prepared it (library use, tests),
/// built in memory now without touching the disk. For tables whose build does not refuse (the
/// unit-cost patterns', and their zero-aware ones, whose costs fit on every partition offered;
/// `prepare` reports a refusal before any search): see `try_table`.
pub fn table(spec: &dyn Spec) -> &'static [u8] {
    try_table(spec).unwrap_or_else(|why| panic!("{why}"))
}

/// As `table`, or why the table's entries cannot be held (`Unbuilt::Refused`).
pub fn try_table(spec: &dyn Spec) -> Result<&'static [u8], String> {
    let key = spec.key();
    let mut held = lock();
    if let Some(h) = held.get(&key) {
        return Ok(h.table);
    }
    let never = AtomicBool::new(false);
    // The lock is held through the build, and searches on rayon's global pool may be waiting
    // for it (tables asked for from `solve` inside a parallel loop): so the build, parallel
    // itself, runs on threads of its own, never on the ones that wait. It is handed over from a
    // plain thread: a thread of one pool waiting on another runs its own pool's jobs meanwhile,
    // and one of those could ask for this lock again.
    let build = || spec.build(&|_| {}, &never);
    let built = match build_pool() {
        Some(pool) => std::thread::scope(|s| {
            let hop = std::thread::Builder::new().name("table-build".into());
            match hop.spawn_scoped(s, || pool.install(build)) {
                Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                Err(_) => build(),
            }
        }),
        None => build(),
    };
    let built = match built {
        Ok(built) => built,
        Err(Unbuilt::Refused(why)) => return Err(why),
        Err(Unbuilt::Stopped) => unreachable!("a build never stopped stopped"),
    };
    let table: &'static [u8] = Box::leak(built.into_boxed_slice());
    let info = TableInfo {
        name: key.clone(),
        entries: table.len() as u64 / spec.entry_bytes(),
        crc32: crc_text(crc32fast::hash(table)),
        file: None,
        memory_bytes: Some(table.len() as u64),
    };
    held.insert(key, Held { table, info });
    Ok(table)
}

/// Makes the table of `spec` ready for `table`: already in memory, read from its file, or built
/// (and written) when the file is missing or wrong, saying why on stderr unless quiet.
pub fn prepare(spec: &dyn Spec, options: &Options) -> Result<TableInfo, StoreError> {
    let key = spec.key();
    if let Some(h) = lock().get(&key) {
        return Ok(h.info.clone());
    }
    let (table, info) = obtain(spec, options)?;
    let table = table.leak();
    lock().insert(
        key,
        Held {
            table,
            info: info.clone(),
        },
    );
    Ok(info)
}

/// Makes sure the file of `spec` is there and sound, as `prepare` does, without keeping the
/// table in memory (`pdb build`: one table at a time).
pub(crate) fn ensure(spec: &dyn Spec, options: &Options) -> Result<TableInfo, StoreError> {
    obtain(spec, options).map(|(_, info)| info)
}

/// The table of `spec` from its file or, when that is missing or wrong (or `options.rebuild`),
/// built and written.
fn obtain(spec: &dyn Spec, options: &Options) -> Result<(Entries, TableInfo), StoreError> {
    let key = spec.key();
    let path = options.dir.join(format!("{key}.{EXTENSION}"));
    let found = if options.rebuild {
        Err(Unusable::Missing)
    } else {
        read(spec, &path)
    };
    match found {
        Ok((table, crc)) => {
            let info = info_of(spec, &table, crc, &path);
            Ok((table, info))
        }
        Err(why) => {
            if !options.build {
                return Err(StoreError::Missing(format!(
                    "pattern database {key} in {}: {why}, and --no-build forbids building it",
                    options.dir.display()
                )));
            }
            // Before minutes of building, not after: the result must be kept.
            let file = temporary(&options.dir)?;
            if !options.quiet && !matches!(why, Unusable::Missing) {
                note(format_args!("{}: {why}: building it again", path.display()));
            }
            let never = AtomicBool::new(false);
            let stop = options.stop.unwrap_or(&never);
            let table = build_with_progress(spec, options.quiet, stop).map_err(|e| match e {
                Unbuilt::Stopped => StoreError::Interrupted(format!(
                    "interrupted while building pattern database {key}; the databases finished before are kept in {}",
                    options.dir.display()
                )),
                Unbuilt::Refused(why) => StoreError::Refused(why),
            })?;
            let crc = crc32fast::hash(&table);
            // Renamed over the old file, if any: a failed rebuild leaves it in place.
            write(spec, &table, crc, file, &options.dir, &path)?;
            let info = info_of(spec, &table, crc, &path);
            Ok((Entries::Built(table), info))
        }
    }
}

fn info_of(spec: &dyn Spec, table: &[u8], crc: u32, path: &Path) -> TableInfo {
    TableInfo {
        name: spec.key(),
        entries: table.len() as u64 / spec.entry_bytes(),
        crc32: crc_text(crc),
        file: Some(path.to_path_buf()),
        memory_bytes: Some(table.len() as u64),
    }
}

/// What making the table of `spec` ready would cost in memory, as `prepare` would make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub name: String,
    /// The table, held once ready.
    pub table: u64,
    /// The peak of building it (`Spec::build_memory`), when it would be built: its file is
    /// missing or its header is not the table's (a file with the right header is taken to be
    /// sound; one found damaged when read whole is rebuilt, which this does not foresee).
    pub build: Option<u64>,
}

/// The footprint of `spec`'s table under `options`, from its file's header alone.
pub fn footprint(spec: &dyn Spec, options: &Options) -> Footprint {
    let name = spec.key();
    let path = options.dir.join(format!("{name}.{EXTENSION}"));
    let ready = lock().contains_key(&name)
        || (!options.rebuild
            && read_header(&path).is_ok_and(|(fields, _)| check_header(spec, fields).is_ok()));
    Footprint {
        table: spec.entries().saturating_mul(spec.entry_bytes()),
        build: (!ready && options.build).then(|| spec.build_memory()),
        name,
    }
}

pub(crate) fn crc_text(crc: u32) -> String {
    format!("{crc:08x}")
}

/// Why a file cannot be used.
#[derive(Debug)]
pub enum Unusable {
    Missing,
    Unreadable(io::Error),
    /// A header line that is not what the table needs: (field, expected, found).
    Header(String),
    Truncated {
        expected: u64,
        found: u64,
    },
    Checksum {
        expected: String,
        found: String,
    },
    /// Entries a build cannot give: the goal's not 0, or another 0.
    Entries(String),
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::Missing => write!(f, "not built yet"),
            Unusable::Unreadable(e) => write!(f, "unreadable ({e})"),
            Unusable::Header(what) => write!(f, "{what}"),
            Unusable::Truncated { expected, found } => write!(
                f,
                "truncated or padded: {found} bytes of entries, expected {expected}"
            ),
            Unusable::Checksum { expected, found } => write!(
                f,
                "corrupt: the entries' CRC-32 is {found}, the header says {expected}"
            ),
            Unusable::Entries(what) => write!(f, "damaged: {what}"),
        }
    }
}

/// The header of `spec`'s file, line by line, without the checksum.
fn header(spec: &dyn Spec) -> Vec<(&'static str, String)> {
    let mut lines = vec![("format", FORMAT_VERSION.to_string())];
    lines.extend(spec.describe());
    lines.push(("entries", spec.entries().to_string()));
    lines.push(("entry", spec.entry_format().to_string()));
    lines
}

/// A header's `key: value` lines, in order.
pub type Fields = Vec<(String, String)>;

/// The header fields of the file at `path` and the reader left at its entries.
pub fn read_header(path: &Path) -> Result<(Fields, BufReader<File>), Unusable> {
    read_header_of(path, MAGIC)
}

/// `read_header` for files whose first line is `magic` (the automata's).
pub(crate) fn read_header_of(
    path: &Path,
    magic: &str,
) -> Result<(Fields, BufReader<File>), Unusable> {
    // A FIFO or device named like a table is refused at once, not waited on.
    let file = files::open_regular(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Unusable::Missing,
        _ => Unusable::Unreadable(e),
    })?;
    let mut reader = BufReader::new(file);
    let mut text = Vec::new();
    let mut fields = Vec::new();
    let mut limited = (&mut reader).take(MAX_HEADER);
    let mut first = true;
    loop {
        text.clear();
        let read = limited
            .read_until(b'\n', &mut text)
            .map_err(Unusable::Unreadable)?;
        let line = std::str::from_utf8(&text)
            .ok()
            .filter(|l| read > 0 && l.ends_with('\n'))
            .ok_or_else(|| Unusable::Header("not a table file: no header".into()))?
            .trim_end();
        if first {
            if line != magic {
                return Err(Unusable::Header(
                    "not a table file: its first line is not the header's".into(),
                ));
            }
            first = false;
            continue;
        }
        if line.is_empty() {
            return Ok((fields, reader));
        }
        let (k, v) = line
            .split_once(": ")
            .ok_or_else(|| Unusable::Header(format!("header line '{line}' is not 'key: value'")))?;
        fields.push((k.to_string(), v.to_string()));
    }
}

/// The header `fields` of a file checked against what `spec`'s table needs: its `crc32`, or
/// why the file is not the table's.
fn check_header(spec: &dyn Spec, fields: Fields) -> Result<String, Unusable> {
    let expected = header(spec);
    let crc_field = fields
        .iter()
        .find(|(k, _)| k == "crc32")
        .map(|(_, v)| v.clone());
    let found: Vec<(String, String)> = fields.into_iter().filter(|(k, _)| k != "crc32").collect();
    for (k, want) in &expected {
        match found.iter().find(|(fk, _)| fk == k) {
            Some((_, v)) if v == want => {}
            Some((_, v)) => {
                return Err(Unusable::Header(format!(
                    "made for another table or version: {k} is '{v}', expected '{want}'"
                )))
            }
            None => return Err(Unusable::Header(format!("its header lacks '{k}'"))),
        }
    }
    if found.len() != expected.len() {
        return Err(Unusable::Header(
            "its header has lines this version does not write".into(),
        ));
    }
    crc_field.ok_or_else(|| Unusable::Header("its header lacks 'crc32'".into()))
}

/// `spec`'s table from `path`, mapped, with its checksum, if the file is entirely right.
fn read(spec: &dyn Spec, path: &Path) -> Result<(Entries, u32), Unusable> {
    let (fields, mut reader) = read_header(path)?;
    let crc = check_header(spec, fields)?;
    let width = spec.entry_bytes();
    let size = spec.entries().saturating_mul(width);
    let start = reader.stream_position().map_err(Unusable::Unreadable)?;
    let file = reader.into_inner();
    // From the file's size, not by reading on: a padded file may be any size.
    let on_disk = file.metadata().map_err(Unusable::Unreadable)?.len();
    let found = on_disk.saturating_sub(start);
    if found != size {
        return Err(Unusable::Truncated {
            expected: size,
            found,
        });
    }
    let (Ok(start), Ok(len)) = (usize::try_from(start), usize::try_from(on_disk)) else {
        return Err(Unusable::Unreadable(io::Error::other(
            "larger than this machine's memory can address",
        )));
    };
    // SAFETY: the map is only read. Should the file be cut short while mapped, the read of a
    // page past its end faults, and `_watch` turns the fault into a message; a file rewritten
    // in place would change the entries under their readers (see the module's comment).
    let map = unsafe { MmapOptions::new().len(len).map(&file) }.map_err(Unusable::Unreadable)?;
    let _watch = sigbus::watch(
        &map,
        path,
        "the pattern database's file was cut short while in use, its entries can no longer be \
         read (a table's file must not be rewritten in place; check the cache with `idabench pdb \
         verify`)",
    );
    let table = Entries::Mapped { _watch, map, start };
    let (actual, zeros) = checksum_and_zeros(&table, width as usize);
    if crc_text(actual) != crc {
        return Err(Unusable::Checksum {
            expected: crc,
            found: crc_text(actual),
        });
    }
    spec.check(&table, zeros).map_err(Unusable::Entries)?;
    Ok((table, actual))
}

/// The CRC-32 of `table` and how many of its entries (of `width` bytes) are 0, in one pass
/// over it, its pieces on every core.
fn checksum_and_zeros(table: &[u8], width: usize) -> (u32, u64) {
    // Pieces large enough that combining their checksums costs nothing beside hashing them.
    let pieces: Vec<(crc32fast::Hasher, u64)> = table
        .par_chunks(width << 24)
        .map(|piece| {
            let mut hasher = crc32fast::Hasher::new();
            let mut zeros = 0u64;
            // A chunk (a whole number of entries) is hashed and counted while it is in the cache.
            for chunk in piece.chunks(width << 16) {
                hasher.update(chunk);
                zeros += zeros_in(chunk, width);
            }
            (hasher, zeros)
        })
        .collect();
    let mut hasher = crc32fast::Hasher::new();
    let mut zeros = 0u64;
    for (piece, z) in &pieces {
        hasher.combine(piece);
        zeros += z;
    }
    (hasher.finalize(), zeros)
}

/// How many entries of `width` bytes in `chunk` are 0.
fn zeros_in(chunk: &[u8], width: usize) -> u64 {
    match width {
        // Counted in a byte per run of 255, which the compiler makes 32 bytes a step; counted
        // straight into a u64, they went five times as slowly (0.12 s for pdb-78's tables, 0.03
        // s for the checksum and the count now).
        1 => chunk
            .chunks(255)
            .map(|run| u64::from(run.iter().map(|&b| u8::from(b == 0)).sum::<u8>()))
            .sum(),
        _ => chunk
            .chunks_exact(width)
            .filter(|e| e.iter().all(|&b| b == 0))
            .count() as u64,
    }
}

/// Checks the file at `path` against `spec` without keeping it: what is wrong, if anything.
pub fn verify(spec: &dyn Spec, path: &Path) -> Result<u32, Unusable> {
    read(spec, path).map(|(_, crc)| crc)
}

/// Why `dir` cannot hold a new table.
fn cannot(what: &str, dir: &Path, e: io::Error) -> StoreError {
    StoreError::Io(format!(
        "cannot {what} {}: {e} (choose another directory with --pdb-dir)",
        dir.display()
    ))
}

/// A new file in `dir` (created if need be) for a table being built, under a temporary name.
pub(crate) fn temporary(dir: &Path) -> Result<tempfile::NamedTempFile, StoreError> {
    fs::create_dir_all(dir).map_err(|e| cannot("create the pattern database directory", dir, e))?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".building-").suffix(".tmp");
    // Readable by all, like any file the user writes: a cache may be shared (a cluster's).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    builder
        .tempfile_in(dir)
        .map_err(|e| cannot("write a pattern database into", dir, e))
}

fn write(
    spec: &dyn Spec,
    table: &[u8],
    crc: u32,
    mut file: tempfile::NamedTempFile,
    dir: &Path,
    path: &Path,
) -> Result<(), StoreError> {
    let fail = |what: &str, e: io::Error| cannot(what, dir, e);
    let mut text = format!("{MAGIC}\n");
    for (k, v) in header(spec) {
        text.push_str(&format!("{k}: {v}\n"));
    }
    text.push_str(&format!("crc32: {}\n\n", crc_text(crc)));
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.write_all(table))
        .and_then(|()| file.as_file().sync_all());
    written.map_err(|e| fail("write a pattern database into", e))?;
    file.persist(path)
        .map_err(|e| fail("rename a finished pattern database in", e.error))?;
    Ok(())
}

/// A progress bar on a terminal, a line every few seconds elsewhere, nothing when quiet.
fn build_with_progress(
    spec: &dyn Spec,
    quiet: bool,
    stop: &AtomicBool,
) -> Result<Vec<u8>, Unbuilt> {
    let total = spec.entries();
    let key = spec.key();
    if quiet {
        return spec.build(&|_| {}, stop);
    }
    if io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "building {msg} ({human_len} entries) {bar:30} {percent}% | {elapsed_precise} ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(key);
        bar.enable_steady_tick(Duration::from_millis(200));
        let table = spec.build(&|done| bar.set_position(done), stop);
        bar.finish_and_clear();
        let table = table?;
        note(format_args!(
            "built {} ({total} entries) in {:.1} s",
            spec.key(),
            bar.elapsed().as_secs_f64()
        ));
        Ok(table)
    } else {
        let started = Instant::now();
        let last = Mutex::new(started);
        note(format_args!("building {key}: {total} entries"));
        let table = spec.build(
            &|done| {
                let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
                if last.elapsed() >= Duration::from_secs(5) && done > 0 {
                    *last = Instant::now();
                    let elapsed = started.elapsed().as_secs_f64();
                    let share = done.min(total) as f64 / total as f64;
                    note(format_args!(
                        "[{elapsed:>6.0}s] {key}: {:.0}% built, about {:.0} s to go",
                        100.0 * share,
                        elapsed * (1.0 - share) / share
                    ));
                }
            },
            stop,
        )?;
        note(format_args!(
            "built {key} in {:.1} s",
            started.elapsed().as_secs_f64()
        ));
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A table built in parallel that says when its build has begun, then waits `pause` (for
    /// others to queue on the lock) before its parallel part.
    struct Parallel {
        name: &'static str,
        begun: Mutex<Option<mpsc::Sender<()>>>,
        pause: Duration,
    }

    impl Spec for Parallel {
        fn key(&self) -> String {
            format!("test-{}", self.name)
        }
        fn describe(&self) -> Vec<(&'static str, String)> {
            Vec::new()
        }
        fn entries(&self) -> u64 {
            1000
        }
        fn entry_format(&self) -> &'static str {
            "u8"
        }
        fn goal_entry(&self) -> u64 {
            0
        }
        fn build(&self, _: &(dyn Fn(u64) + Sync), _: &AtomicBool) -> Result<Vec<u8>, Unbuilt> {
            if let Some(begun) = self.begun.lock().unwrap().take() {
                begun.send(()).unwrap();
            }
            std::thread::sleep(self.pause);
            Ok((0..1000u32)
                .into_par_iter()
                .map(|i| (i % 7) as u8)
                .collect())
        }
        fn build_memory(&self) -> u64 {
            1000
        }
    }

    /// A table whose check passes: the goal's entry (0) is its one 0.
    struct Sound(u64);

    impl Spec for Sound {
        fn key(&self) -> String {
            format!("test-sound-{}", self.0)
        }
        fn describe(&self) -> Vec<(&'static str, String)> {
            Vec::new()
        }
        fn entries(&self) -> u64 {
            self.0
        }
        fn entry_format(&self) -> &'static str {
            "u8"
        }
        fn goal_entry(&self) -> u64 {
            0
        }
        fn build(&self, _: &(dyn Fn(u64) + Sync), _: &AtomicBool) -> Result<Vec<u8>, Unbuilt> {
            Ok((0..self.0)
                .map(|i| (i % 251) as u8 + u8::from(i > 0))
                .collect())
        }
        fn build_memory(&self) -> u64 {
            self.0
        }
    }

    /// A table of several pieces (checked on different threads) and of chunks within them reads
    /// back as built, with the checksum of the whole; a byte changed in any piece, or a second
    /// 0 in the last chunk, is found.
    #[test]
    fn a_table_of_many_pieces_reads_back_whole_and_damage_anywhere_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let options = Options {
            dir: dir.path().to_path_buf(),
            build: true,
            rebuild: false,
            quiet: true,
            stop: None,
        };
        // Two pieces, the second short, and its last chunk short too.
        let spec = Sound((1 << 24) + (3 << 16) + 5);
        let built = spec.build(&|_| {}, &AtomicBool::new(false)).unwrap();
        let path = ensure(&spec, &options).unwrap().file.unwrap();
        let (table, crc) = read(&spec, &path).unwrap();
        assert!(*table == built[..]);
        assert_eq!(crc, crc32fast::hash(&built));
        drop(table);
        let good = fs::read(&path).unwrap();
        let header = good.len() - built.len();
        for at in [1, (1 << 24) - 1, 1 << 24, built.len() - 1] {
            let mut bad = good.clone();
            bad[header + at] ^= 0x40;
            fs::write(&path, &bad).unwrap();
            let why = verify(&spec, &path).unwrap_err();
            assert!(matches!(why, Unusable::Checksum { .. }), "{at}: {why}");
        }
        let mut zero = built.clone();
        *zero.last_mut().unwrap() = 0;
        let text = String::from_utf8(good[..header].to_vec()).unwrap();
        let crcs = (
            crc_text(crc32fast::hash(&built)),
            crc_text(crc32fast::hash(&zero)),
        );
        let text = text.replacen(&crcs.0, &crcs.1, 1);
        fs::write(&path, [text.as_bytes(), &zero].concat()).unwrap();
        let why = verify(&spec, &path).unwrap_err().to_string();
        assert!(why.contains("2 entries are 0"), "{why}");
    }

    /// Run by the test below in a child process (the variable set): reads a table from its
    /// file, cuts the file short, and reads the table's last entry.
    #[test]
    #[ignore = "a child process of a_table_whose_file_is_cut_short_ends_the_process_with_a_message"]
    fn child_reading_a_table_whose_file_is_cut_short() {
        let Some(dir) = std::env::var_os("IDABENCH_CUT_SHORT_CHILD") else {
            return;
        };
        let options = Options {
            dir: PathBuf::from(dir),
            build: true,
            rebuild: false,
            quiet: true,
            stop: None,
        };
        let path = ensure(&Sound(20_000), &options).unwrap().file.unwrap();
        prepare(&Sound(20_000), &options).unwrap();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(0)
            .unwrap();
        let last = std::hint::black_box(table(&Sound(20_000))[19_999]);
        // Reached only if the read did not fault.
        std::process::exit(i32::from(last) + 100);
    }

    /// A table read from its file is mapped; a read of it after the file is cut short ends the
    /// process with exit code 2 and a line naming the file, not a bus error.
    #[test]
    fn a_table_whose_file_is_cut_short_ends_the_process_with_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tables::store::tests::child_reading_a_table_whose_file_is_cut_short",
                "--ignored",
                "--nocapture",
            ])
            .env("IDABENCH_CUT_SHORT_CHILD", dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        let file = dir.path().join(format!("test-sound-20000.{EXTENSION}"));
        let line = format!(
            "Error: {}: the pattern database's file was cut short while in use",
            file.display()
        );
        assert!(stderr.contains(&line), "{stderr}");
    }

    /// A table built from a thread outside rayon's global pool while every thread of that pool
    /// waits on the store's lock for another table (as the searches of a parallel loop over
    /// `solve` do): the build needs none of them, so every one gets its table. (Built on the
    /// global pool, this hung; the 60 s are a guard against that, not a measure.)
    #[test]
    fn a_build_never_needs_the_threads_that_wait_for_it() {
        let (begun, has_begun) = mpsc::channel();
        let first: &'static Parallel = Box::leak(Box::new(Parallel {
            name: "first",
            begun: Mutex::new(Some(begun)),
            pause: Duration::from_millis(300),
        }));
        let second: &'static Parallel = Box::leak(Box::new(Parallel {
            name: "second",
            begun: Mutex::new(None),
            pause: Duration::ZERO,
        }));
        let (done, all_done) = mpsc::channel();
        let builder = done.clone();
        std::thread::spawn(move || builder.send(vec![table(first).len()]).unwrap());
        has_begun.recv().unwrap();
        std::thread::spawn(move || {
            let waiting = 4 * rayon::current_num_threads();
            let lens = (0..waiting).into_par_iter().map(|_| table(second).len());
            done.send(lens.collect()).unwrap();
        });
        for _ in 0..2 {
            let lens = all_done.recv_timeout(Duration::from_secs(60));
            let lens = lens.expect("a table's build waits for the threads waiting for it");
            assert!(lens.iter().all(|&len| len == 1000), "{lens:?}");
        }
    }
}
