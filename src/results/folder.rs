//! Where a report folder goes: a name given with `--name`, or the first free one of a UTC
//! timestamp, claimed by creating it, or the folder of a report joined from others (`merge`,
//! `combine`); and what may be in one. A report folder holds idabench's
//! own files: a link, FIFO or device planted in it is refused, never followed, written through
//! or waited on.

use crate::error::Error;
use crate::results::record::{self, Manifest};
use crate::results::ReportError;
use crate::util::clock;
use crate::util::files;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The longest file name the usual file systems take, in bytes.
const NAME_MAX: usize = 255;

/// Checks `name`, given with `--name`, as a report folder's name: a plain directory name, short
/// enough for a file system to take.
pub fn check_name(name: &str) -> Result<(), ReportError> {
    if name.len() > NAME_MAX {
        return Err(ReportError::Refused(format!(
            "--name '{}': {} bytes, longer than a directory name may be ({NAME_MAX})",
            crate::util::text::shorten(name),
            name.len()
        )));
    }
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(ReportError::Refused(format!(
            "--name '{name}': expected a plain directory name"
        )));
    }
    Ok(())
}

/// Checks `out`, the folder given with `--out`, before report folders are made in it: a link to
/// nothing or a file there would otherwise give a bare "File exists".
pub fn check_out(out: &Path) -> Result<(), ReportError> {
    let Ok(meta) = fs::symlink_metadata(out) else {
        return Ok(());
    };
    if meta.is_symlink() && fs::metadata(out).is_err() {
        let target = fs::read_link(out).unwrap_or_default();
        return Err(ReportError::Refused(format!(
            "--out {}: a symbolic link to {}, which does not exist: create it, or choose another --out",
            out.display(),
            target.display()
        )));
    }
    if !out.is_dir() {
        return Err(ReportError::Refused(format!(
            "--out {}: not a directory (--out names the folder reports go in)",
            out.display()
        )));
    }
    Ok(())
}

/// The folder `OUT/NAME`, created if missing (and `out` with it): a link there, or a file, is
/// refused, as is a link or special file in it (see `check_own`).
pub fn named(out: &Path, name: &str) -> Result<PathBuf, Error> {
    check_name(name)?;
    check_out(out)?;
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let dir = out.join(name);
    match fs::symlink_metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(m) => return Err(not_a_folder(name, &dir, m.file_type()).into()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e)
                if e.kind() == io::ErrorKind::AlreadyExists
                    && fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) => {}
            Err(e) => return Err(Error::io(&dir, e)),
        },
        Err(e) => return Err(Error::io(&dir, e)),
    }
    check_own(&dir)?;
    Ok(dir)
}

/// The folder `OUT/NAME` of a run to resume, which must be a folder itself, not a link to one
/// (see `named`); one that does not exist is left for the caller to say so.
pub fn existing(out: &Path, name: &str) -> Result<PathBuf, ReportError> {
    check_name(name)?;
    let dir = out.join(name);
    match fs::symlink_metadata(&dir) {
        Ok(m) if !m.is_dir() => Err(not_a_folder(name, &dir, m.file_type())),
        _ => Ok(dir),
    }
}

/// The refusal of `dir`, given with `--name`, which is a file, a link or another thing of
/// `kind` where a report folder would go.
fn not_a_folder(name: &str, dir: &Path, kind: fs::FileType) -> ReportError {
    let what = if kind.is_file() {
        "a file, not a report folder".to_string()
    } else {
        format!(
            "{}, where a report folder (idabench's own, never reached through a link) would go",
            files::kind(kind)
        )
    };
    ReportError::Refused(format!(
        "--name {name}: {} is {what}; choose another --name",
        dir.display()
    ))
}

/// Refuses a report folder holding anything but files and folders: a link there would lead a
/// report elsewhere (over a file outside the folder), a FIFO would hold the command for ever.
pub fn check_own(dir: &Path) -> Result<(), ReportError> {
    match files::stranger_in(dir) {
        Ok(None) => Ok(()),
        Ok(Some((path, kind))) => Err(planted(&path, kind)),
        Err(e) => Err(ReportError::Read(format!(
            "{}: cannot list: {e}",
            dir.display()
        ))),
    }
}

/// Checks `path`, one of the files of a report folder, before it is replaced or appended to
/// (see `check_own`).
pub fn check_own_file(path: &Path) -> Result<(), ReportError> {
    match files::stranger_at(path) {
        None => Ok(()),
        Some(kind) => Err(planted(path, kind)),
    }
}

/// The refusal of `path`, `kind` (a link, a FIFO, ...), found in a report folder.
fn planted(path: &Path, kind: &str) -> ReportError {
    ReportError::Refused(format!(
        "{}: {kind} in a report folder, which holds only idabench's own files: it is not followed, written through or read; remove it",
        path.display()
    ))
}

/// A new folder `OUT/PREFIX<UTC timestamp>` (with `out` created if missing): two reports started
/// in the same second must not share (and clobber) one, so the first free one of STAMP,
/// STAMP-2, STAMP-3, ... is claimed by creating it.
pub fn new_stamped(out: &Path, prefix: &str) -> Result<PathBuf, Error> {
    check_out(out)?;
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let stamp = format!("{prefix}{}", clock::compact_now());
    for k in 1u32.. {
        let dir = match k {
            1 => out.join(&stamp),
            _ => out.join(format!("{stamp}-{k}")),
        };
        match fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(&dir, e)),
        }
    }
    unreachable!("some STAMP-K is free")
}

/// A run's name, as runs.csv's and summary.csv's `run` column give it: its folder's name.
pub fn run_name(dir: &Path) -> String {
    let name = |d: &Path| d.file_name().map(|n| n.to_string_lossy().into_owned());
    // `.` and `..` name no folder by themselves: the folder they stand for does.
    name(dir)
        .or_else(|| dir.canonicalize().ok().as_deref().and_then(name))
        .unwrap_or_default()
}

/// Refuses `dir` (named `shown` in messages) as the folder of a report joined from `sources`
/// (`sources_are`, e.g. `the shards`) when it holds a link or special file, is one of them, or
/// holds a run that `earlier` does not take for an earlier report of the same `kind` (`a
/// merge`), which alone it may replace.
pub fn check_joined(
    dir: &Path,
    shown: &str,
    sources: &[&Path],
    sources_are: &str,
    kind: &str,
    earlier: impl Fn(&Manifest) -> bool,
) -> Result<(), Error> {
    check_own(dir)?;
    let here = fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
    if sources
        .iter()
        .any(|s| fs::canonicalize(s).is_ok_and(|d| d == here))
    {
        return Err(Error::usage(format!(
            "{shown} is one of {sources_are}: give a directory of its own"
        )));
    }
    let holds_run = dir.join("runs.csv").exists();
    if holds_run && !record::read_manifest(&dir.join("manifest.json")).is_ok_and(|m| earlier(&m)) {
        return Err(Error::input(format!(
            "{shown} already holds a run that is not {kind}: choose another directory"
        )));
    }
    Ok(())
}
