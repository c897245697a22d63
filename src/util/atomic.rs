//! Files written whole or not at all: into a temporary file beside the target (`.NAME.XXXXXX.tmp`,
//! a fresh name each time, in the same directory so the rename cannot cross file systems), renamed
//! over the target at the end. When anything fails, or panics, the temporary file is removed, so
//! a failure leaves the target as it was and nothing else behind. For a path the user names
//! (`write_with`), a symbolic link is followed (the file it names is replaced); a target that is
//! not a regular file, a path into `/dev` or `/proc` such as `/dev/stdout`, or a link to nothing
//! yet is written in place (appended to), as a rename would replace the device, the shell's file
//! or the link itself. In idabench's own directories (`replace_with`) nothing is followed.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

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

/// The write buffer: runs.csv is written a row at a time, and a large buffer makes a large run's
/// tens of megabytes a few dozen writes rather than thousands.
const BUFFER: usize = 1 << 20;

/// Whether `path` is written where it is rather than replaced: a device, a pipe or anything
/// else that is not a regular file, a path into `/dev` or `/proc` (`/dev/stdout` names whatever the
/// shell opened, even a regular file that a rename must not replace), or a link to nothing yet.
fn in_place(path: &Path) -> bool {
    let special = path.starts_with("/dev") || path.starts_with("/proc");
    let not_a_file = fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    let dangling =
        fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) && fs::metadata(path).is_err();
    special || not_a_file || dangling
}

/// Writes `path` with what `fill` writes to a buffered temporary file, then renames it over
/// `path`.
pub fn write_with<E>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), Failure<E>> {
    if in_place(path) {
        // Appending keeps what a shell wrote before (`{ echo; idabench ... --out /dev/stdout; } >
        // f`) and is the same as writing for a device or a pipe.
        let file = File::options()
            .append(true)
            .create(true)
            .open(path)
            .map_err(Failure::Io)?;
        let mut out = BufWriter::with_capacity(BUFFER, file);
        fill(&mut out).map_err(Failure::Fill)?;
        return out.flush().map_err(Failure::Io);
    }
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    replace_with(&target, fill)
}

/// Writes `path` with what `fill` writes, into a temporary file renamed over `path`, without
/// following a link there: for the files in idabench's own directories, where a link planted
/// in place of one is replaced, never written through.
pub fn replace_with<E>(
    target: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), Failure<E>> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        // As `File::create` would: readable by all unless the umask says otherwise (tempfile's
        // own default, 0600, would hide reports from the group).
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|e| Failure::Io(without_temporary_name(e)))?;
    // The file apart from its path: tempfile names the temporary path in the errors of writes
    // through its own file type. The path is dropped on any early return or panic, which
    // removes the temporary file.
    let (file, tmp_path) = tmp.into_parts();
    let mut out = BufWriter::with_capacity(BUFFER, file);
    fill(&mut out).map_err(Failure::Fill)?;
    let file = out.into_inner().map_err(|e| Failure::Io(e.into_error()))?;
    // On disk before the rename, so that a crash cannot leave a renamed but empty file.
    file.sync_all().map_err(Failure::Io)?;
    tmp_path.persist(target).map_err(|e| Failure::Io(e.error))?;
    Ok(())
}

/// tempfile's error on creating a file ends in the temporary file's name (`... at path "dir/.x.csv.Ab12Cd.tmp"`),
/// which means nothing to a user: the caller names the file they asked for.
fn without_temporary_name(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((plain, _)) => io::Error::new(e.kind(), plain.to_owned()),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
        // The user's file is named by the caller; the temporary one is no concern of theirs.
        let Failure::Io(io) = e else { unreachable!() };
        assert!(!io.to_string().contains(".tmp"), "{io}");
        assert!(dir.names().is_empty());
    }

    #[test]
    fn a_panic_in_fill_leaves_no_temporary() {
        let dir = Dir::new("panic");
        let path = dir.0.join("a.csv");
        let caught = std::panic::catch_unwind(|| {
            let _ = write_with(&path, |out| -> io::Result<()> {
                out.write_all(b"half")?;
                panic!("a generator's defect");
            });
        });
        assert!(caught.is_err());
        assert!(dir.names().is_empty(), "{:?}", dir.names());
    }

    #[test]
    fn two_writes_at_once_use_their_own_temporary_files() {
        let dir = Dir::new("twice");
        let path = dir.0.join("a.csv");
        write_with(&path, |outer| {
            write(&path, "inner\n").unwrap();
            outer.write_all(b"outer\n")
        })
        .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "outer\n");
        assert_eq!(dir.names(), ["a.csv"]);
    }

    #[test]
    fn a_link_is_followed_and_a_device_is_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = Dir::new("link");
        let (file, link) = (dir.0.join("real.csv"), dir.0.join("link.csv"));
        write(&file, "old\n").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write(&link, "new\n").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&file).unwrap(), "new\n");
        assert_eq!(dir.names(), ["link.csv", "real.csv"]);
        write(Path::new("/dev/null"), "rows\n").unwrap();
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn files_get_the_mode_a_plain_create_gives_and_a_dangling_link_stays_a_link() {
        let dir = Dir::new("mode");
        let (plain, written) = (dir.0.join("plain"), dir.0.join("written"));
        File::create(&plain).unwrap();
        write(&written, "rows\n").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&written), mode(&plain));
        let (link, target) = (dir.0.join("link.csv"), dir.0.join("later.csv"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write(&link, "rows\n").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "rows\n");
    }
}
