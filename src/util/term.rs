//! Lines for the person at the terminal, on stderr.

use crate::util::text::visible_lines;
use std::io::Write;

/// Writes `text` and a line break to stderr: a full or closed stderr must not stop the command.
/// Notes name ids and files, whose characters a terminal would obey: they are shown
/// `visible_lines`.
pub fn note(text: std::fmt::Arguments<'_>) {
    let text = text.to_string();
    let _ = writeln!(std::io::stderr(), "{}", visible_lines(&text));
}
