//! Where a report folder goes: a name given with `--name`, or the first free one of a UTC
//! timestamp, claimed by creating it.

use crate::error::Error;
use crate::results::ReportError;
use crate::util::clock;
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

/// A new folder `OUT/PREFIX<UTC timestamp>` (with `out` created if missing): two reports started
/// in the same second must not share (and clobber) one, so the first free one of STAMP,
/// STAMP-2, STAMP-3, ... is claimed by creating it.
pub fn new_stamped(out: &Path, prefix: &str) -> Result<PathBuf, Error> {
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
