//! Lines for the person at the terminal, on stderr.

use std::io::Write;

/// Writes `text` and a line break to stderr: a full or closed stderr must not stop the command.
pub fn note(text: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{text}");
}
