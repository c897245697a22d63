//! User text: read within documented bounds, and cut short when a message echoes it.
//!
//! Input is read whole before it is checked, so without a bound a stray `/dev/zero` or a runaway
//! file would be read until the kernel ends the process. The bounds are far above any real
//! dataset (the largest the generators make, every state of a 2x5 board, is about 110 MB with
//! lines under 100 bytes; a 16x15 board's row, start and goal written out, is under 2 KB).

use crate::util::files;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes a dataset file (or judge input on stdin) may hold: 1 GiB.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;
/// The most bytes one line may hold, its line ending excluded: 1 MiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The size limits of `read_bounded`.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub bytes: u64,
    pub line: usize,
}

/// The documented limits.
pub const BOUNDS: Bounds = Bounds {
    bytes: MAX_INPUT_BYTES,
    line: MAX_LINE_BYTES,
};

/// Why `read_bounded` stopped.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    /// More than `Bounds::bytes` bytes.
    TooLarge(u64),
    /// Line `line` (1-based, counted as the dataset reader counts: LF, CRLF or a lone CR) holds
    /// more than `max` bytes.
    LongLine {
        line: u64,
        max: usize,
    },
}

impl ReadError {
    /// The line at fault, for the `file:line:` of a message.
    pub fn line(&self) -> Option<u64> {
        match self {
            ReadError::LongLine { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// Without the line, which the caller places (see `line`).
impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read: {e}"),
            ReadError::TooLarge(max) => {
                write!(f, "larger than the limit of {}", size_text(*max))
            }
            ReadError::LongLine { max, .. } => write!(
                f,
                "line longer than the limit of {}; is it a text file?",
                size_text(*max as u64)
            ),
        }
    }
}

/// `1073741824 bytes (1 GiB)`: the exact figure, and the round one a reader remembers.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{b} bytes ({} GiB)", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{b} bytes ({} MiB)", b >> 20),
        b => format!("{b} bytes"),
    }
}

/// Everything `reader` holds, or an error as soon as it holds more than `bounds` allow: at most
/// `bounds.bytes + 1` bytes are read, and reading stops at the first line that is too long, so
/// an endless stream without line breaks costs one line's worth.
pub fn read_bounded(reader: impl Read, bounds: Bounds) -> Result<Vec<u8>, ReadError> {
    let mut reader = reader.take(bounds.bytes.saturating_add(1));
    let mut bytes = Vec::new();
    // The length of the last line read so far, whose end is not read yet.
    let mut length = 0;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        if bytes.len() as u64 + n as u64 > bounds.bytes {
            return Err(ReadError::TooLarge(bounds.bytes));
        }
        bytes.extend_from_slice(&chunk[..n]);
        if too_long(&mut length, &chunk[..n], bounds.line) {
            return Err(ReadError::LongLine {
                line: first_long_line(&bytes, bounds.line),
                max: bounds.line,
            });
        }
    }
}

/// Whether `chunk` makes a line longer than `max`, given `length`, the length of the line it
/// continues (updated to the length of its own last line). Lines are only measured here: they
/// are counted (`first_long_line`) only when one is too long.
fn too_long(length: &mut usize, chunk: &[u8], max: usize) -> bool {
    let is_end = |b: &u8| *b == b'\n' || *b == b'\r';
    if chunk.len() <= max {
        // The lines inside the chunk are shorter than it: only its first and last line, which
        // it shares with the chunks around it, need measuring.
        return match chunk.iter().position(is_end) {
            None => {
                *length += chunk.len();
                *length > max
            }
            Some(first) => {
                let last = chunk.iter().rposition(is_end).unwrap_or(first);
                let too_long = *length + first > max;
                *length = chunk.len() - last - 1;
                too_long
            }
        };
    }
    let mut lines = chunk.split(is_end);
    *length += lines.next().map_or(0, <[u8]>::len);
    if *length > max {
        return true;
    }
    for line in lines {
        if line.len() > max {
            return true;
        }
        *length = line.len();
    }
    false
}

/// The number of the first line of `bytes` longer than `max`, counted as the dataset reader
/// counts lines: LF, CRLF or a lone CR ends one.
fn first_long_line(bytes: &[u8], max: usize) -> u64 {
    let mut line = 1;
    let mut length = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\n' => {
                if i == 0 || bytes[i - 1] != b'\r' {
                    line += 1;
                }
                length = 0;
            }
            b'\r' => {
                line += 1;
                length = 0;
            }
            _ => {
                length += 1;
                if length > max {
                    return line;
                }
            }
        }
    }
    line
}

/// `s` cut to its first 40 characters (then `...`): a message quoting a value must stay
/// readable when the value is a stray data row or a 10 MB token.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_owned(),
    }
}

/// `message` with every value it quotes ('...') shortened: for messages that echo a value
/// verbatim and are not ours to change (clap's).
pub fn shorten_quoted(message: &str) -> String {
    message
        .split('\'')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                shorten(part)
            } else {
                part.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("'")
}

/// The bytes of a file the user named (a runs.csv given to `compare`), read within `BOUNDS`
/// like a dataset: a device or a runaway file stops with an error instead of filling the
/// memory. A pipe is read as the user asked (`compare /dev/stdin ...`).
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
    read_opened(path, file)
}

/// The bytes of a file in one of idabench's own folders (a run's runs.csv or manifest), as
/// `read_file` reads them; a FIFO or device planted there is refused at once, not waited on.
pub fn read_own_file(path: &Path) -> Result<Vec<u8>, String> {
    let file =
        files::open_regular(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
    read_opened(path, file)
}

fn read_opened(path: &Path, file: File) -> Result<Vec<u8>, String> {
    read_bounded(file, BOUNDS).map_err(|e| match e.line() {
        Some(line) => format!("{}:{line}: {e}", path.display()),
        None => format!("{}: {e}", path.display()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Bounds = Bounds { bytes: 20, line: 4 };

    fn read(bytes: &[u8]) -> Result<Vec<u8>, ReadError> {
        read_bounded(bytes, SMALL)
    }

    #[test]
    fn reads_everything_within_the_bounds() {
        for text in [
            &b""[..],
            b"abcd\nabcd\r\nabcd\rab",
            b"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
        ] {
            assert_eq!(read(text).unwrap(), text);
        }
    }

    #[test]
    fn stops_past_the_file_bound() {
        let e = read(b"abc\nabc\nabc\nabc\nabc\nab").unwrap_err();
        assert!(matches!(e, ReadError::TooLarge(20)), "{e:?}");
        assert_eq!(e.to_string(), "larger than the limit of 20 bytes");
        assert_eq!(e.line(), None);
    }

    #[test]
    fn stops_at_the_first_long_line_and_counts_lines_like_the_dataset_reader() {
        let line = |text: &[u8]| match read(text) {
            Err(ReadError::LongLine { line, max: 4 }) => line,
            other => panic!("{other:?}"),
        };
        assert_eq!(line(b"abcde"), 1);
        assert_eq!(line(b"ab\ncd\r\nef\rgh\n\nabcde\n"), 6);
        assert_eq!(line(b"\r\n\r\n\r\n12345"), 4);
    }

    /// Gives its bytes `step` at a time: chunks no longer than a line may be.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(self.bytes.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn chunks_shorter_than_a_line_are_measured_alike() {
        let texts: [&[u8]; 6] = [
            b"abcd\nabcd\r\nabcd\rab",
            b"abcde",
            b"ab\ncd\r\nef\rgh\n\nabcde\n",
            b"\r\n\r\n\r\n12345",
            b"abc\rde\nabcd\r\nab\ncde",
            b"abcd\r\n\r\nabcd",
        ];
        for text in texts {
            let whole = format!("{:?}", read(text));
            for step in 1..=4 {
                let trickle = Trickle { bytes: text, step };
                assert_eq!(
                    format!("{:?}", read_bounded(trickle, SMALL)),
                    whole,
                    "{text:?}, {step}"
                );
            }
        }
    }

    #[test]
    fn an_endless_stream_costs_one_line() {
        let e = read_bounded(io::repeat(0), BOUNDS).unwrap_err();
        assert!(
            matches!(e, ReadError::LongLine { line: 1, max }  if max == MAX_LINE_BYTES),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "line longer than the limit of 1048576 bytes (1 MiB); is it a text file?"
        );
        let lines = io::repeat(b'\n').take(MAX_INPUT_BYTES + 1);
        let e = read_bounded(
            lines,
            Bounds {
                bytes: 1000,
                line: 1,
            },
        )
        .unwrap_err();
        assert!(matches!(e, ReadError::TooLarge(1000)), "{e:?}");
    }

    #[test]
    fn a_chunk_boundary_between_cr_and_lf_ends_one_line() {
        // 64 KiB chunks: put the CR last in the first one.
        let mut text = vec![b'\n'; 64 * 1024 - 1];
        text.push(b'\r');
        text.extend_from_slice(b"\nabcde");
        let bounds = Bounds {
            bytes: 1 << 20,
            line: 4,
        };
        match read_bounded(&text[..], bounds) {
            Err(ReadError::LongLine { line, .. }) => assert_eq!(line, 64 * 1024 + 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shorten_keeps_short_text_and_cuts_long_text_on_a_character() {
        assert_eq!(shorten("4by4"), "4by4");
        let forty = "x".repeat(40);
        assert_eq!(shorten(&forty), forty);
        assert_eq!(
            shorten(&"y".repeat(10_000_000)),
            format!("{}...", "y".repeat(40))
        );
        assert_eq!(shorten(&"é".repeat(41)), format!("{}...", "é".repeat(40)));
        let long = "h".repeat(1000);
        let cut = format!("{}...", "h".repeat(40));
        assert_eq!(
            shorten_quoted(&format!(
                "invalid value '{long}' for '--x <X>': unknown '{long}'\n"
            )),
            format!("invalid value '{cut}' for '--x <X>': unknown '{cut}'\n")
        );
        assert_eq!(shorten_quoted("no quotes"), "no quotes");
    }
}
