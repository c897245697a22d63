//! Files written whole or not at all: into a temporary file beside the target (`NAME.tmp`, same
//! directory so the rename cannot cross file systems), renamed over the target at the end. When
//! anything fails the temporary file is removed, so a failure leaves the target as it was and
//! nothing else behind.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// Why `write_with` failed: `fill`'s own error, or one of creating, flushing, syncing or
/// renaming the file.
#[derive(Debug)]
pub enum Failure<E> {
    Fill(E),
    Io(io::Error),
}

impl<E: fmt::Display> fmt::Display for Failure<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Fill(e) => e.fmt(f),
            Failure::Io(e) => e.fmt(f),
        }
    }
}

/// Writes `path` with what `fill` writes to a buffered temporary file, then renames it over
/// `path`.
pub fn write_with<E>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> Result<(), E>,
) -> Result<(), Failure<E>> {
    let tmp = temporary(path);
    let mut out = BufWriter::new(File::create(&tmp).map_err(Failure::Io)?);
    let result = fill(&mut out)
        .map_err(Failure::Fill)
        .and_then(|()| finish(out, &tmp, path).map_err(Failure::Io));
    if result.is_err() {
        // The original error is the one to report; a failed removal changes nothing about it.
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn finish(out: BufWriter<File>, tmp: &Path, path: &Path) -> io::Result<()> {
    let file = out.into_inner().map_err(|e| e.into_error())?;
    // On disk before the rename, so that a crash cannot leave a renamed but empty file.
    file.sync_all()?;
    drop(file);
    fs::rename(tmp, path)
}

fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A fresh empty directory for one test, removed when dropped.
    struct Dir(PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            let dir =
                std::env::temp_dir().join(format!("idabench-atomic-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Dir(dir)
        }

        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = fs::read_dir(&self.0)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn write(path: &Path, text: &str) -> Result<(), Failure<io::Error>> {
        write_with(path, |out| out.write_all(text.as_bytes()))
    }

    #[test]
    fn writes_and_replaces_whole_files() {
        let dir = Dir::new("ok");
        let path = dir.0.join("a.csv");
        write(&path, "one\n").unwrap();
        write(&path, "two\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two\n");
        assert_eq!(dir.names(), ["a.csv"]);
    }

    #[test]
    fn a_failed_fill_leaves_the_old_file_and_no_temporary() {
        let dir = Dir::new("fill");
        let path = dir.0.join("a.csv");
        write(&path, "old\n").unwrap();
        let e = write_with(&path, |out| {
            out.write_all(b"half a file")?;
            Err::<(), _>(io::Error::other("refused"))
        })
        .unwrap_err();
        assert!(matches!(e, Failure::Fill(_)), "{e:?}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(dir.names(), ["a.csv"]);
    }

    #[test]
    fn a_failed_rename_leaves_no_temporary() {
        // A directory cannot be replaced by a file: everything succeeds but the rename.
        let dir = Dir::new("rename");
        let target = dir.0.join("taken");
        fs::create_dir(&target).unwrap();
        let e = write(&target, "rows\n").unwrap_err();
        assert!(matches!(e, Failure::Io(_)), "{e:?}");
        assert!(target.is_dir());
        assert_eq!(dir.names(), ["taken"]);
    }

    #[test]
    fn a_missing_directory_is_an_error() {
        let dir = Dir::new("missing");
        let e = write(&dir.0.join("no/such/dir/a.csv"), "rows\n").unwrap_err();
        assert!(matches!(e, Failure::Io(ref io) if io.kind() == io::ErrorKind::NotFound));
        assert!(dir.names().is_empty());
    }
}
