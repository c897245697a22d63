//! Report files read back through a memory map, to be rewritten in job order: a run's rows lie
//! in the order its jobs finished (mostly the order of their start, longest first), so the
//! rewrite reads all over the file. Mapped, it reads the page cache's own pages, where reading
//! the 8-puzzle run's 31 MB of iterations.csv into a buffer first cost 60 ms.

use crate::util::files;
use memmap2::Mmap;
use std::io;
use std::path::{Path, PathBuf};

/// A file mapped into memory at its first read.
pub struct Mapped {
    path: PathBuf,
    /// Mapped at the first read: a run that has no rows yet may have no file yet either.
    map: Option<Mmap>,
}

impl Mapped {
    pub fn new(path: &Path) -> Mapped {
        Mapped {
            path: path.to_path_buf(),
            map: None,
        }
    }

    /// `len` bytes from `start`.
    pub fn read(&mut self, start: u64, len: usize) -> Result<&[u8], String> {
        let cannot = |e: io::Error| format!("{}: cannot read: {e}", self.path.display());
        if self.map.is_none() {
            let file = files::open_regular(&self.path).map_err(cannot)?;
            // SAFETY: the map is only read, while the file is one of idabench's reports: a run
            // holds it open, and nothing else is meant to change it in the meantime.
            let map = unsafe { Mmap::map(&file) }.map_err(cannot)?;
            self.map = Some(map);
        }
        let map = self.map.as_ref().expect("mapped above");
        usize::try_from(start)
            .ok()
            .and_then(|start| map.get(start..start.checked_add(len)?))
            .ok_or_else(|| {
                format!(
                    "{}: cannot read: the file is shorter than the rows the run wrote to it",
                    self.path.display()
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_shorter_than_asked_or_missing_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("iterations.csv");
        std::fs::write(&path, "0123456789").unwrap();
        let mut file = Mapped::new(&path);
        assert_eq!(file.read(2, 3).unwrap(), b"234");
        assert_eq!(file.read(7, 3).unwrap(), b"789");
        let short = file.read(8, 3).unwrap_err();
        assert!(
            short.contains("iterations.csv") && short.contains("shorter"),
            "{short}"
        );
        let empty = dir.path().join("empty.csv");
        std::fs::write(&empty, "").unwrap();
        assert!(Mapped::new(&empty)
            .read(0, 1)
            .unwrap_err()
            .contains("shorter"));
        let missing = Mapped::new(&dir.path().join("gone.csv"))
            .read(0, 1)
            .unwrap_err();
        assert!(
            missing.contains("gone.csv") && missing.contains("cannot read"),
            "{missing}"
        );
    }
}
