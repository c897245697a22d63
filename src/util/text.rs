//! User text: read within documented bounds, cut short when a message echoes it, and escaped
//! for each place it is shown.
//!
//! Input is read whole before it is checked, so without a bound a stray `/dev/zero` or a runaway
//! file would be read until the kernel ends the process. The bounds are far above any real
//! dataset (the largest the generators make, every state of a 2x5 board, is about 110 MB with
//! lines under 100 bytes; a 16x15 board's row, start and goal written out, is under 2 KB).
//!
//! Ids, file names and values come from files anyone may have written, and end up on terminals,
//! in pull requests and in browsers. A control character there is a command (ESC starts the
//! sequences that set a terminal's title or colours), and the bidirectional and invisible format
//! characters make text read otherwise than it is. Every writer shows such text through one
//! function of its format: `visible` (a value) and `visible_lines` (a text with its own layout)
//! for terminals, SVG and HTML (which add their markup's own escapes), `markdown_code` for
//! Markdown. Data files (CSV, JSON) keep values as they are.

use crate::util::files;
use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;
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

/// `s` cut to its first 40 characters (then `...`) and made `visible`: a message quoting a value
/// must stay readable, and on one line, when the value is a stray data row, a 10 MB token or
/// holds control characters.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", visible(&s[..at])),
        None => visible(s).into_owned(),
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

/// The UTF-8 byte-order mark, which editors on Windows put before the text they save: where users'
/// text is read (datasets, judge input), it is skipped, not taken for part of the first value.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading byte-order mark.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

/// Whether `c` commands a terminal or is not seen as itself: the C0 and C1 controls and DEL,
/// the line and paragraph separators, the bidirectional embeddings, overrides, isolates and
/// marks (which reorder the text around them), the zero-width and other invisible format
/// characters (soft hyphen, joiners, word joiner, byte-order mark, tags), and the
/// noncharacters U+FFFE and U+FFFF, which XML refuses.
fn hidden(c: char) -> bool {
    matches!(c,
        '\0'..='\x1f'
            | '\x7f'..='\u{9f}'
            | '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{fffe}'..='\u{ffff}'
            | '\u{e0000}'..='\u{e007f}')
}

/// Appends `c`, written as an escape when it is `hidden`: `\n`, `\t`, `\r`, `\x1b` below
/// U+0080, `\u{202e}` above.
fn push_visible(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if !hidden(c) => out.push(c),
        c if c.is_ascii() => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// `s` with every `hidden` character written as an escape, line breaks and tabs too: a value
/// (an id, a file name, a field) shown on one line, as itself, and commanding nothing. A
/// backslash is left alone, so that applying it again changes nothing.
pub fn visible(s: &str) -> Cow<'_, str> {
    escaped(s, |_| false)
}

/// `text` with its own line breaks and tabs kept and every other `hidden` character written as
/// `visible` writes it: for a whole message or page, whose values should have been made
/// `visible` already, as the last guard before a terminal, an SVG or an HTML page.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

fn escaped(s: &str, kept: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| hidden(c) && !kept(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if kept(c) {
            out.push(c);
        } else {
            push_visible(&mut out, c);
        }
    }
    Cow::Owned(out)
}

/// `s` as a Markdown inline code span that shows it whole and ends where it should, in a table
/// cell or in a paragraph: `visible`, so that no line break ends the row or starts a heading;
/// `|` escaped, which a GFM table cell reads as `|` (elsewhere the backslash shows); and fenced
/// with one backtick more than the longest run inside, padded with a space where it starts or
/// ends with a backtick or a space (CommonMark strips one from each side).
pub fn markdown_code(s: &str) -> String {
    let text = visible(s).replace('|', "\\|");
    // Two backticks with nothing between are no span: one space is the least that shows empty.
    if text.is_empty() {
        return "` `".to_owned();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ')
            && text.ends_with(' ')
            && !text.trim_start_matches(' ').is_empty())
    {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
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

/// Appends `value` and a comma, quoted as csv quotes by default: only a field holding the
/// delimiter, a quote, CR or LF is quoted, with its quotes doubled.
pub fn csv_field(out: &mut Vec<u8>, value: &[u8]) {
    if value
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        out.push(b'"');
        for &b in value {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(value);
    }
    out.push(b',');
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

    /// Every character the module's doc promises to escape, one of each kind.
    const HIDDEN: [char; 18] = [
        '\0',
        '\x07',
        '\x1b',
        '\x7f',
        '\u{9b}',
        '\u{ad}',
        '\u{61c}',
        '\u{200b}',
        '\u{200e}',
        '\u{2028}',
        '\u{2029}',
        '\u{202a}',
        '\u{202e}',
        '\u{2066}',
        '\u{2069}',
        '\u{feff}',
        '\u{ffff}',
        '\u{e0041}',
    ];

    #[test]
    fn visible_escapes_what_commands_a_terminal_or_hides_and_keeps_the_rest() {
        assert_eq!(
            visible("korf100/4by4 é ü 漢字 \\x"),
            "korf100/4by4 é ü 漢字 \\x"
        );
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
        assert_eq!(
            visible("\x1b]0;PWNED\x07 a\nb\tc\rd \u{202e}evil\u{2066}"),
            "\\x1b]0;PWNED\\x07 a\\nb\\tc\\rd \\u{202e}evil\\u{2066}"
        );
        for c in HIDDEN {
            let shown = visible(&c.to_string()).into_owned();
            assert!(
                shown.starts_with('\\') && shown.is_ascii(),
                "{c:?}: {shown}"
            );
            assert_eq!(visible(&shown), shown, "escaping twice changes nothing");
        }
        assert_eq!(visible("\u{9b}"), "\\u{9b}");
        assert_eq!(visible("\u{7f}"), "\\x7f");
    }

    #[test]
    fn visible_lines_keeps_the_layout_of_a_text() {
        assert_eq!(
            visible_lines("one\n\ttwo \x1b[2J\r\u{202e}\n"),
            "one\n\ttwo \\x1b[2J\\r\\u{202e}\n"
        );
        assert!(matches!(visible_lines("a\nb\tc"), Cow::Borrowed(_)));
    }

    #[test]
    fn shorten_makes_a_quoted_value_visible_and_one_line() {
        assert_eq!(shorten("a\nb\x1b"), "a\\nb\\x1b");
        assert_eq!(
            shorten(&format!("{}\u{202e}", "x".repeat(40))),
            format!("{}...", "x".repeat(40))
        );
        assert_eq!(
            shorten_quoted("unknown '\x1b]0;t\x07'"),
            "unknown '\\x1b]0;t\\x07'"
        );
    }

    #[test]
    fn markdown_code_is_one_span_on_one_line_that_no_value_leaves() {
        assert_eq!(markdown_code("korf100"), "`korf100`");
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("``x"), "``` ``x ```");
        assert_eq!(markdown_code("x`"), "`` x` ``");
        assert_eq!(markdown_code(" x "), "`  x  `");
        assert_eq!(markdown_code("  "), "`  `");
        assert_eq!(markdown_code(""), "` `");
        assert_eq!(markdown_code("a|b"), "`a\\|b`");
        assert_eq!(
            markdown_code("id\n# heading\x1b]0;PWNED\x07\u{202e}"),
            "`id\\n# heading\\x1b]0;PWNED\\x07\\u{202e}`"
        );
        for c in HIDDEN {
            assert!(!markdown_code(&format!("a{c}b")).contains(c), "{c:?}");
        }
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_no_other() {
        assert_eq!(without_bom(b"\xEF\xBB\xBFid,domain"), b"id,domain");
        assert_eq!(without_bom(b"id\xEF\xBB\xBF"), b"id\xEF\xBB\xBF");
        assert_eq!(without_bom(b"\xEF\xBB"), b"\xEF\xBB");
    }
}
