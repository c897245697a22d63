//! Duplicate-pruning automata, each made ready once per (moves, window, depth) in the process
//! (read from the cache directory the pattern databases live in, or built by
//! `fsm::build_with` and written there) and shared read-only by every search, with what having
//! it took.
//!
//! A file is a text header, then the table: `states x labels` entries, each a little-endian
//! u32. The header names the format version, the domain, the window, the moves (a walk's steps,
//! or a digest of the permutations), the depth, the number of labels and states, and the
//! table's CRC-32; a file is used only when every line matches what is asked for, the size and
//! checksum are right and every entry is a state or `FORBIDDEN`. Files are written under a
//! temporary name and renamed, as the databases are (`store`), so that a reader or a second
//! builder never sees half a file.

use super::fsm::{self, Progress};
use super::store::{self, Fields, Footprint, Unusable};
use crate::search::fsm::{Automaton, Moves};
use crate::util::format::bytes;
use crate::util::term::note;
use sha2::{Digest, Sha256};
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Bumped whenever the file's layout or the builder's answer changes: older files are rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &str = "idabench duplicate-pruning automaton";
pub const EXTENSION: &str = "fsm";

/// An automaton made ready (or refused) for one (moves, window, depth).
struct Entry {
    moves: Moves,
    window: Option<(usize, usize)>,
    depth: u32,
    built: Result<&'static Automaton, String>,
    /// Seconds building took, when it was built here or (from its header) when read.
    build_s: f64,
    /// Seconds reading its file took, when read.
    read_s: Option<f64>,
    file: Option<PathBuf>,
}

/// What a run's manifest says of an automaton it used.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AutomatonInfo {
    /// The domain it was built for (its `NAME`).
    pub domain: String,
    /// The board (width, height) a walk's automaton was built within; none for moves that are
    /// played everywhere, and in manifests from before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<(usize, usize)>,
    /// The depth asked for (the variant's `fsmN`).
    pub depth: u32,
    /// The depth of the automaton built: the longest move sequences compared.
    pub built_depth: u32,
    pub states: usize,
    pub labels: usize,
    pub bytes: usize,
    /// Seconds its building took: here, or when its file was written.
    pub build_s: f64,
    /// `built` (here) or `read` (from its file); manifests from before files were kept say
    /// nothing, and were built.
    #[serde(default = "built")]
    pub source: String,
    /// Seconds reading its file took, when read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_s: Option<f64>,
    /// The file it was read from or written to; none when it was built in memory only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
}

fn built() -> String {
    "built".into()
}

impl AutomatonInfo {
    /// The automata of several runs' manifests, each once: a merge's or a combination's. One
    /// automaton is one (domain, window, depth, labels) and, where it was kept in a file, one
    /// file name (whose digest tells move orders and shelves apart; shards on other machines
    /// keep it in other folders).
    pub fn union<'a>(runs: impl IntoIterator<Item = &'a Vec<AutomatonInfo>>) -> Vec<AutomatonInfo> {
        let key = |a: &AutomatonInfo| {
            let file = a
                .file
                .as_ref()
                .and_then(|f| f.file_name())
                .map(|n| n.to_owned());
            (a.domain.clone(), a.window, a.depth, a.labels, file)
        };
        let mut all: Vec<AutomatonInfo> = Vec::new();
        for a in runs.into_iter().flatten() {
            if !all.iter().any(|k| key(k) == key(a)) {
                all.push(a.clone());
            }
        }
        all
    }
}

static READY: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn lock() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    // Nothing is left half-made by a panic while the lock is held: the poison carries no meaning.
    READY.lock().unwrap_or_else(|p| p.into_inner())
}

fn find<'a>(
    ready: &'a [Entry],
    moves: &Moves,
    window: Option<(usize, usize)>,
    depth: u32,
) -> Option<&'a Entry> {
    ready
        .iter()
        .find(|e| e.depth == depth && e.window == window && e.moves == *moves)
}

/// The automaton of depth `depth` over `moves`, as `prepare` made it ready or, when nothing
/// prepared it (library use, tests), built in memory now. An Err (why none can be had, from the
/// builder) is kept too, and given again.
///
/// Building holds the lock: two searches never build one automaton twice, and a run makes the
/// ones it needs ready before its first job (`runner::prepare`), so no job's time counts it.
///
/// A walk's automaton is built within `window`, the board's width and height, where it prunes as
/// the unbounded one does: smaller, and faster to build (`fsm::build_with`).
pub fn shared(
    moves: &Moves,
    window: Option<(usize, usize)>,
    depth: u32,
) -> Result<&'static Automaton, String> {
    let mut ready = lock();
    if let Some(e) = find(&ready, moves, window, depth) {
        return e.built.clone();
    }
    let start = Instant::now();
    let result =
        fsm::build_with(moves, depth, window, &mut |_| {}).map(|a| &*Box::leak(Box::new(a)));
    ready.push(Entry {
        moves: moves.clone(),
        window,
        depth,
        built: result.clone(),
        build_s: start.elapsed().as_secs_f64(),
        read_s: None,
        file: None,
    });
    result
}

/// What having the automaton of (`moves`, `window`, `depth`) took, once it is ready.
pub fn info(
    domain: &str,
    moves: &Moves,
    window: Option<(usize, usize)>,
    depth: u32,
) -> Option<AutomatonInfo> {
    let ready = lock();
    let e = find(&ready, moves, window, depth)?;
    let a = e.built.as_ref().ok()?;
    Some(AutomatonInfo {
        domain: domain.to_string(),
        window,
        depth,
        built_depth: a.depth(),
        states: a.states(),
        labels: a.labels(),
        bytes: a.bytes(),
        build_s: e.build_s,
        source: if e.read_s.is_some() { "read" } else { "built" }.into(),
        read_s: e.read_s,
        file: e.file.clone(),
    })
}

/// What an automaton is: the header's lines that name it, and the file's name.
pub struct Key<'a> {
    pub domain: &'a str,
    pub moves: &'a Moves,
    pub window: Option<(usize, usize)>,
    pub depth: u32,
}

impl Key<'_> {
    fn window_text(&self) -> String {
        self.window
            .map_or("none".into(), |(w, h)| format!("{w}x{h}"))
    }

    /// The moves, whole for a walk; a long list of permutations by its SHA-256.
    fn moves_text(&self) -> String {
        match self.moves {
            Moves::Walk(steps) => {
                let steps: Vec<String> = steps.iter().map(|(x, y)| format!("{x},{y}")).collect();
                format!("walk {}", steps.join(" "))
            }
            Moves::Permutations(perms) => {
                let mut digest = Sha256::new();
                for p in perms {
                    for &to in p {
                        digest.update(to.to_le_bytes());
                    }
                }
                let hex = crate::util::format::hex(&digest.finalize());
                format!(
                    "permutations {} of {} positions, sha256 {hex}",
                    perms.len(),
                    perms.first().map_or(0, Vec::len)
                )
            }
        }
    }

    /// The file's name without its extension: `fsm14-tiles-5x5-` (a walk's window, else the
    /// number of moves: `fsm8-rotation-8-moves-`) and the moves' digest, so that two move
    /// orders have two files.
    pub fn name(&self) -> String {
        let digest = Sha256::digest(self.moves_text().as_bytes());
        let short = crate::util::format::hex(&digest[..4]);
        let window = self.window.map_or_else(
            || format!("{}-moves", labels(self.moves)),
            |(w, h)| format!("{w}x{h}"),
        );
        format!("fsm{}-{}-{window}-{short}", self.depth, self.domain)
    }

    /// The header lines that must match, in order.
    fn identity(&self) -> Vec<(&'static str, String)> {
        vec![
            ("format", FORMAT_VERSION.to_string()),
            ("domain", self.domain.to_string()),
            ("window", self.window_text()),
            ("moves", self.moves_text()),
            ("depth", self.depth.to_string()),
            ("labels", labels(self.moves).to_string()),
        ]
    }

    fn path(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.{EXTENSION}", self.name()))
    }
}

fn labels(moves: &Moves) -> usize {
    match moves {
        Moves::Walk(steps) => steps.len(),
        Moves::Permutations(perms) => perms.len(),
    }
}

/// Makes the automaton of `key` ready for `shared`: already in memory, read from its file in
/// `options.dir`, or built (with a progress bar unless quiet) and written there when the file is
/// missing or wrong, saying why on stderr unless quiet. Err: the builder's refusal. A cache that
/// cannot be written is noted, and the automaton kept in memory.
pub fn prepare(key: &Key, options: &store::Options) -> Result<AutomatonInfo, String> {
    let mut ready = lock();
    if find(&ready, key.moves, key.window, key.depth).is_none() {
        ready.push(obtain(key, options));
    }
    let e = find(&ready, key.moves, key.window, key.depth).expect("made ready above");
    let refused = e.built.clone().err();
    drop(ready);
    match refused {
        Some(why) => Err(why),
        None => Ok(info(key.domain, key.moves, key.window, key.depth).expect("ready")),
    }
}

fn obtain(key: &Key, options: &store::Options) -> Entry {
    let path = key.path(&options.dir);
    let entry = |built, build_s, read_s, file| Entry {
        moves: key.moves.clone(),
        window: key.window,
        depth: key.depth,
        built,
        build_s,
        read_s,
        file,
    };
    let started = Instant::now();
    let why = if options.rebuild {
        Unusable::Missing
    } else {
        match read(key, &path) {
            Ok((a, build_s)) => {
                let read_s = started.elapsed().as_secs_f64();
                let a: &'static Automaton = Box::leak(Box::new(a));
                return entry(Ok(a), build_s, Some(read_s), Some(path));
            }
            Err(why) => why,
        }
    };
    // A depth the builder would refuse is refused before a bar or a note says it is built.
    if let Err(e) = fsm::estimate(key.moves, key.depth, key.window) {
        return entry(Err(e), 0.0, None, None);
    }
    if !options.quiet && !matches!(why, Unusable::Missing) {
        note(format_args!("{}: {why}: building it again", path.display()));
    }
    let started = Instant::now();
    let built = build_with_progress(key, options.quiet);
    let build_s = started.elapsed().as_secs_f64();
    let built = match built {
        Ok(a) => a,
        Err(e) => return entry(Err(e), build_s, None, None),
    };
    let file = match write(key, &built, build_s, &options.dir, &path) {
        Ok(()) => Some(path),
        Err(e) => {
            if !options.quiet {
                note(format_args!(
                    "{e}; the automaton is kept in memory for this run only"
                ));
            }
            None
        }
    };
    entry(Ok(&*Box::leak(Box::new(built))), build_s, None, file)
}

/// What making the automaton of `key` ready would cost in memory: its table (from its file's
/// header, or a bound) and, when it would be built, the peak of building it (`fsm::estimate`).
/// Err: the builder would refuse it.
pub fn footprint(key: &Key, options: &store::Options) -> Result<Footprint, String> {
    let name = key.name();
    if let Some(e) = find(&lock(), key.moves, key.window, key.depth) {
        let a = e.built.clone()?;
        return Ok(Footprint {
            name,
            table: a.bytes() as u64,
            build: None,
        });
    }
    if !options.rebuild {
        let path = key.path(&options.dir);
        if let Ok((fields, _)) = store::read_header_of(&path, MAGIC) {
            if let Ok(h) = check_header(key, &fields) {
                let table = h.entries.saturating_mul(4);
                // A file too short for the table its header announces is damaged, and rebuilt:
                // counted as a build below.
                if std::fs::metadata(&path).is_ok_and(|m| m.len() >= table) {
                    return Ok(Footprint {
                        name,
                        table,
                        build: None,
                    });
                }
            }
        }
    }
    let e = fsm::estimate(key.moves, key.depth, key.window)?;
    Ok(Footprint {
        name,
        table: e.table,
        build: Some(e.building.saturating_add(e.table)),
    })
}

/// What a header says beyond what must match.
struct Header {
    entries: u64,
    built_depth: u32,
    build_s: f64,
    crc32: String,
}

fn field<'a>(fields: &'a Fields, k: &str) -> Result<&'a str, Unusable> {
    fields
        .iter()
        .find(|(fk, _)| fk == k)
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| Unusable::Header(format!("its header lacks '{k}'")))
}

fn check_header(key: &Key, fields: &Fields) -> Result<Header, Unusable> {
    for (k, want) in key.identity() {
        let v = field(fields, k)?;
        if v != want {
            return Err(Unusable::Header(format!(
                "made for another automaton or version: {k} is '{v}', expected '{want}'"
            )));
        }
    }
    let number = |k: &str| -> Result<u64, Unusable> {
        let v = field(fields, k)?;
        v.parse()
            .map_err(|_| Unusable::Header(format!("its {k} '{v}' is not a number")))
    };
    let states = number("states")?;
    let built_depth = number("built_depth")?;
    let build_s: f64 = field(fields, "build_s")?
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| Unusable::Header("its build_s is not a number of seconds".into()))?;
    Ok(Header {
        entries: states.saturating_mul(labels(key.moves) as u64),
        built_depth: u32::try_from(built_depth)
            .map_err(|_| Unusable::Header("its built_depth is too large".into()))?,
        build_s,
        crc32: field(fields, "crc32")?.to_string(),
    })
}

/// The automaton of `key` from `path`, with the seconds its building took, if the file is
/// entirely right.
fn read(key: &Key, path: &Path) -> Result<(Automaton, f64), Unusable> {
    let (fields, mut reader) = store::read_header_of(path, MAGIC)?;
    let header = check_header(key, &fields)?;
    let next = table(&mut reader, header.entries, &header.crc32)?;
    let a = Automaton::checked(labels(key.moves), next, header.built_depth)
        .map_err(Unusable::Entries)?;
    Ok((a, header.build_s))
}

/// The `entries` entries that follow a file's header in `reader`, if there are exactly that
/// many and their CRC-32 is `crc32`.
fn table(
    reader: &mut io::BufReader<std::fs::File>,
    entries: u64,
    crc32: &str,
) -> Result<Box<[u32]>, Unusable> {
    let size = entries.saturating_mul(4);
    let on_disk = reader.get_ref().metadata().map_or(0, |m| m.len());
    // Not more than the file holds: a header cannot make this ask for gigabytes.
    let mut raw = Vec::with_capacity(size.min(on_disk) as usize);
    reader
        .take(size.saturating_add(1))
        .read_to_end(&mut raw)
        .map_err(Unusable::Unreadable)?;
    if raw.len() as u64 != size {
        return Err(Unusable::Truncated {
            expected: size,
            found: raw.len() as u64,
        });
    }
    let crc = store::crc_text(crc32fast::hash(&raw));
    if crc != crc32 {
        return Err(Unusable::Checksum {
            expected: crc32.to_string(),
            found: crc,
        });
    }
    Ok(raw
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

fn write(key: &Key, a: &Automaton, build_s: f64, dir: &Path, path: &Path) -> Result<(), String> {
    let cannot = |what: &str, e: io::Error| {
        format!(
            "cannot {what} {}: {e} (choose another directory with --pdb-dir)",
            dir.display()
        )
    };
    let mut file = store::temporary(dir).map_err(|e| e.to_string())?;
    let raw: Vec<u8> = a.table().iter().flat_map(|s| s.to_le_bytes()).collect();
    let mut text = format!("{MAGIC}\n");
    for (k, v) in key.identity() {
        text.push_str(&format!("{k}: {v}\n"));
    }
    text.push_str(&format!(
        "states: {}\nbuilt_depth: {}\nbuild_s: {build_s:.3}\ncrc32: {}\n\n",
        a.states(),
        a.depth(),
        store::crc_text(crc32fast::hash(&raw))
    ));
    file.write_all(text.as_bytes())
        .and_then(|()| file.write_all(&raw))
        .and_then(|()| file.as_file().sync_all())
        .map_err(|e| cannot("write an automaton into", e))?;
    file.persist(path)
        .map_err(|e| cannot("rename a finished automaton in", e.error))?;
    Ok(())
}

/// The builder's progress as the databases' is shown: a bar of lengths on a terminal, a line
/// every few seconds elsewhere, nothing when quiet; then a line saying what was built.
fn build_with_progress(key: &Key, quiet: bool) -> Result<Automaton, String> {
    let name = key.name();
    if quiet {
        return fsm::build_with(key.moves, key.depth, key.window, &mut |_| {});
    }
    let started = Instant::now();
    let built = if io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(u64::from(key.depth));
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "building {prefix} {bar:30} length {pos}/{len}: {msg} | {elapsed_precise}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_prefix(name.clone());
        bar.enable_steady_tick(Duration::from_millis(200));
        let built = fsm::build_with(key.moves, key.depth, key.window, &mut |p: &Progress| {
            bar.set_position(u64::from(p.length));
            bar.set_message(format!(
                "{} sequences, {} forbidden",
                p.sequences, p.forbidden
            ));
        });
        bar.finish_and_clear();
        built
    } else {
        let mut last = started;
        note(format_args!(
            "building {name}: move sequences of up to {} moves",
            key.depth
        ));
        fsm::build_with(key.moves, key.depth, key.window, &mut |p: &Progress| {
            if last.elapsed() >= Duration::from_secs(5) {
                last = Instant::now();
                note(format_args!(
                    "[{:>6.0}s] {name}: length {}/{}, {} sequences, {} forbidden",
                    started.elapsed().as_secs_f64(),
                    p.length,
                    p.depth,
                    p.sequences,
                    p.forbidden
                ));
            }
        })
    };
    let a = built?;
    note(format_args!(
        "built {name} ({} states, {}) in {:.1} s",
        a.states(),
        bytes(a.bytes() as u64),
        started.elapsed().as_secs_f64()
    ));
    Ok(a)
}

/// What `pdb list` and `pdb verify` say of an automaton's file: its name, states and size, or
/// why it is not one.
pub struct Listed {
    pub name: String,
    pub states: u64,
    pub labels: u64,
}

/// The file at `path` read as an automaton's, from its header: what it is.
pub fn describe(path: &Path) -> Result<Listed, Unusable> {
    let (fields, _) = store::read_header_of(path, MAGIC)?;
    let get = |k: &str| field(&fields, k).map(str::to_string);
    let number = |k: &str| -> Result<u64, Unusable> {
        get(k)?
            .parse()
            .map_err(|_| Unusable::Header(format!("its {k} is not a number")))
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Listed {
        name,
        states: number("states")?,
        labels: number("labels")?,
    })
}

/// Reads the file at `path` whole and checks it against its own header: its size, checksum and
/// entries. (Its moves are named by a digest, so no key is rebuilt from it: what is checked is
/// that the file is whole.)
pub fn verify(path: &Path) -> Result<String, Unusable> {
    let (fields, mut reader) = store::read_header_of(path, MAGIC)?;
    let labels = field(&fields, "labels")?
        .parse::<usize>()
        .map_err(|_| Unusable::Header("its labels is not a number".into()))?;
    let states = field(&fields, "states")?
        .parse::<u64>()
        .map_err(|_| Unusable::Header("its states is not a number".into()))?;
    let expected = field(&fields, "crc32")?.to_string();
    let next = table(&mut reader, states.saturating_mul(labels as u64), &expected)?;
    Automaton::checked(labels, next, 0).map_err(Unusable::Entries)?;
    Ok(expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles() -> Moves {
        Moves::Walk(vec![(0, -1), (-1, 0), (1, 0), (0, 1)])
    }

    fn options(dir: &Path) -> store::Options {
        store::Options {
            dir: dir.to_path_buf(),
            build: true,
            rebuild: false,
            quiet: true,
            stop: None,
        }
    }

    #[test]
    fn an_automaton_is_built_once_per_moves_and_depth() {
        let walk = tiles();
        let a = shared(&walk, None, 5).unwrap();
        assert!(std::ptr::eq(a, shared(&walk, None, 5).unwrap()));
        let other = Moves::Walk(vec![(0, 1), (-1, 0), (1, 0), (0, -1)]);
        assert!(!std::ptr::eq(a, shared(&other, None, 5).unwrap()));
        let info = info("tiles", &walk, None, 5).unwrap();
        assert_eq!((info.depth, info.states, info.labels), (5, a.states(), 4));
        assert_eq!(info.bytes, a.bytes());
        assert_eq!((info.source.as_str(), info.file), ("built", None));
        assert!(info.built_depth >= 2);
        assert_eq!(super::info("tiles", &walk, None, 6), None);
    }

    /// The builder's output, pinned: a cached file names its automaton by (domain, moves,
    /// window, depth) and format, not by the builder that made it, so a builder that prunes
    /// differently must change `FORMAT_VERSION` for older files to be rebuilt. When this fails,
    /// the builder changed what it builds: raise `FORMAT_VERSION`, then the figures here.
    #[test]
    fn the_builders_automata_are_pinned_against_stale_caches() {
        let walk = tiles();
        for (window, depth, states, crc) in [
            (Some((4, 4)), 12, 7_435, "a89f31e7"),
            (Some((5, 5)), 12, 9_732, "f46a9499"),
            (None, 10, 1_384, "8d99c50b"),
        ] {
            let a = fsm::build_with(&walk, depth, window, &mut |_| {}).unwrap();
            let raw: Vec<u8> = a.table().iter().flat_map(|s| s.to_le_bytes()).collect();
            let got = (a.states(), store::crc_text(crc32fast::hash(&raw)));
            assert_eq!(got, (states, crc.to_string()), "{window:?}, depth {depth}");
        }
        assert_eq!(FORMAT_VERSION, 1);
    }

    /// A merge keeps one automaton per (domain, board, depth): boards of one run have theirs.
    #[test]
    fn a_union_keeps_each_board_once() {
        let walk = tiles();
        shared(&walk, Some((3, 3)), 8).unwrap();
        shared(&walk, Some((4, 4)), 8).unwrap();
        let three = info("tiles", &walk, Some((3, 3)), 8).unwrap();
        let four = info("tiles", &walk, Some((4, 4)), 8).unwrap();
        assert_eq!((three.window, four.window), (Some((3, 3)), Some((4, 4))));
        let runs = [vec![three.clone(), four.clone()], vec![four.clone()]];
        assert_eq!(AutomatonInfo::union(&runs), [three, four]);
    }

    /// A file written by one build reads back as the same table, and each kind of damage is
    /// told from a sound file. (The registry is the process's, so the file is read directly.)
    #[test]
    fn a_written_automaton_reads_back_and_damage_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let walk = tiles();
        let key = Key {
            domain: "tiles",
            moves: &walk,
            window: Some((3, 4)),
            depth: 9,
        };
        let a = fsm::build_with(&walk, 9, Some((3, 4)), &mut |_| {}).unwrap();
        let path = key.path(dir.path());
        write(&key, &a, 0.5, dir.path(), &path).unwrap();
        let (back, build_s) = read(&key, &path).unwrap();
        assert_eq!((back, build_s), (a.clone(), 0.5));
        assert!(verify(&path).is_ok());
        let listed = describe(&path).unwrap();
        assert_eq!((listed.states, listed.labels), (a.states() as u64, 4));
        let sound = std::fs::read(&path).unwrap();
        // The last entry's byte flipped: the checksum tells.
        let mut flipped = sound.clone();
        *flipped.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(matches!(read(&key, &path), Err(Unusable::Checksum { .. })));
        assert!(matches!(verify(&path), Err(Unusable::Checksum { .. })));
        std::fs::write(&path, &sound[..sound.len() - 3]).unwrap();
        assert!(matches!(read(&key, &path), Err(Unusable::Truncated { .. })));
        // Another depth's key does not take this file.
        std::fs::write(&path, &sound).unwrap();
        let deeper = Key { depth: 10, ..key };
        assert!(matches!(read(&deeper, &path), Err(Unusable::Header(_))));
    }

    /// `prepare` writes the file the first time and reads it the next (a second process is
    /// played by a fresh key of another window, so this process's registry does not answer).
    #[test]
    fn prepare_writes_the_file_it_builds() {
        let dir = tempfile::tempdir().unwrap();
        let walk = tiles();
        let key = Key {
            domain: "tiles",
            moves: &walk,
            window: Some((2, 5)),
            depth: 7,
        };
        let info = prepare(&key, &options(dir.path())).unwrap();
        assert_eq!(info.source, "built");
        let path = key.path(dir.path());
        assert_eq!(info.file.as_deref(), Some(path.as_path()));
        let (a, _) = read(&key, &path).unwrap();
        assert_eq!(a.states(), info.states);
        let footprint = footprint(&key, &options(dir.path())).unwrap();
        assert_eq!((footprint.table, footprint.build), (a.bytes() as u64, None));
    }
}
