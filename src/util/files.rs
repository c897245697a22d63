//! Opening files without being held up or led astray: a FIFO, socket or device is refused
//! instead of waited on, a file appended to in idabench's own folders is never reached through
//! a symbolic link, and what a folder holds besides files and folders is found; and the path
//! of a file as seen from a folder.

use std::fs::{self, File, FileType, OpenOptions};
use std::io;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// What a file that is not a regular file or a directory is, for a message.
pub fn kind(t: FileType) -> &'static str {
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_dir() {
        "a directory"
    } else {
        "a regular file"
    }
}

/// The error for a path that is not a regular file, saying what it is.
fn not_regular(t: FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("not a regular file but {}", kind(t)),
    )
}

/// Opens `path` for reading, following links; anything but a regular file is refused. Opened
/// without blocking, so a FIFO with no writer is refused at once rather than waited on for ever.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let t = file.metadata()?.file_type();
    if !t.is_file() {
        return Err(not_regular(t));
    }
    Ok(file)
}

/// Opens `path`, a file in one of idabench's own directories, for appending, creating it if
/// missing. A link there is refused, not followed, and so is anything but a regular file.
pub fn append_own(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            // What O_NOFOLLOW answers for a link.
            Some(libc::ELOOP) => io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file but a symbolic link",
            ),
            _ => e,
        })?;
    let t = file.metadata()?.file_type();
    if !t.is_file() {
        return Err(not_regular(t));
    }
    Ok(file)
}

/// The first entry of `dir` that is neither a regular file nor a directory (a link, a FIFO, a
/// device), with what it is; `None` when there is none, or when `dir` does not exist yet.
pub fn stranger_in(dir: &Path) -> io::Result<Option<(PathBuf, &'static str)>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let t = entry.file_type()?;
        if !t.is_file() && !t.is_dir() {
            return Ok(Some((entry.path(), kind(t))));
        }
    }
    Ok(None)
}

/// What `path` is when it exists and is neither a regular file nor a directory (a link is not
/// followed): in place of a file of idabench's own, something it must not replace or write
/// through. (A directory there makes the write fail, saying so.)
pub fn stranger_at(path: &Path) -> Option<&'static str> {
    fs::symlink_metadata(path)
        .ok()
        .map(|m| m.file_type())
        .filter(|t| !t.is_file() && !t.is_dir())
        .map(kind)
}

/// The path of `target` seen from the directory `from`: relative when both resolve, else
/// `target` made absolute.
pub fn relative(from: &Path, target: &Path) -> PathBuf {
    let (Ok(from), Ok(to)) = (from.canonicalize(), target.canonicalize()) else {
        return std::path::absolute(target).unwrap_or_else(|_| target.to_path_buf());
    };
    let (a, b): (Vec<std::path::Component>, Vec<std::path::Component>) =
        (from.components().collect(), to.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn fifo(path: &Path) {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_a_file_read_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe");
        fifo(&pipe);
        let e = open_regular(&pipe).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file but a FIFO (named pipe)");
        let file = dir.path().join("f");
        fs::write(&file, "text").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let mut read = String::new();
        open_regular(&link)
            .unwrap()
            .read_to_string(&mut read)
            .unwrap();
        assert_eq!(read, "text");
    }

    #[test]
    fn appending_refuses_links_and_fifos_and_creates_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "keep").unwrap();
        let link = dir.path().join("runs.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = append_own(&link).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file but a symbolic link");
        let dangling = dir.path().join("iterations.csv");
        std::os::unix::fs::symlink(dir.path().join("nothing"), &dangling).unwrap();
        assert!(append_own(&dangling).is_err());
        assert!(!dir.path().join("nothing").exists());
        let pipe = dir.path().join("pipe");
        fifo(&pipe);
        assert!(append_own(&pipe).is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        let new = dir.path().join("new");
        append_own(&new).unwrap().write_all(b"row").unwrap();
        assert_eq!(fs::read_to_string(&new).unwrap(), "row");
    }

    #[test]
    fn a_stranger_in_a_directory_is_found_and_files_and_folders_are_not() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(stranger_in(&dir.path().join("none")).unwrap(), None);
        fs::write(dir.path().join("runs.csv"), "").unwrap();
        fs::create_dir(dir.path().join("plots")).unwrap();
        assert_eq!(stranger_in(dir.path()).unwrap(), None);
        assert_eq!(stranger_at(&dir.path().join("runs.csv")), None);
        assert_eq!(stranger_at(&dir.path().join("missing")), None);
        assert_eq!(stranger_at(dir.path()), None);
        let link = dir.path().join("summary.md");
        std::os::unix::fs::symlink("/nowhere", &link).unwrap();
        assert_eq!(
            stranger_in(dir.path()).unwrap(),
            Some((link.clone(), "a symbolic link"))
        );
        assert_eq!(stranger_at(&link), Some("a symbolic link"));
    }
}
