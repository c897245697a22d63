//! The layering of src/ into wings, checked: every `crate::` and `super::` path of every file
//! (in `use` lines and inline), resolved to the wing it names, must be one its wing may use.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Each wing (a folder of src/, or a file at its top) and the wings it may use. The order is
/// the layering, leaves first: a wing may use only wings listed before it, which rules out
/// cycles. `error` is the exception: every wing returns its errors, and its aggregate type's
/// `#[from]` conversions name the error types of the wings below `cmd`.
const WINGS: [(&str, &[&str]); 13] = [
    ("util", &[]),
    (
        "error",
        &[
            "util", "tables", "domains", "dataset", "results", "compare", "runner",
        ],
    ),
    ("search", &["util"]),
    ("tables", &["util"]),
    ("domains", &["util", "error", "search", "tables"]),
    ("dataset", &["util", "error", "search", "domains"]),
    ("results", &["util", "error", "search", "tables", "domains"]),
    ("compare", &["util", "error", "results"]),
    ("plot", &["util", "error", "results", "compare"]),
    ("report", &["util", "error", "results", "compare", "plot"]),
    (
        "runner",
        &[
            "util", "error", "search", "tables", "domains", "dataset", "results",
        ],
    ),
    (
        "ab",
        &[
            "util", "error", "search", "tables", "domains", "dataset", "results", "compare",
            "runner",
        ],
    ),
    (
        "cmd",
        &[
            "util", "error", "search", "tables", "domains", "dataset", "results", "compare",
            "plot", "report", "runner", "ab",
        ],
    ),
];

/// The command files that every command may use: the arguments, and the folder's module.
const CMD_SHARED: [&str; 2] = ["args", "mod"];

/// `text` with its comments, string literals and character literals blanked out (each
/// character becomes a space, lines are kept), so that what remains is code.
fn code_only(text: &str) -> Vec<char> {
    let c: Vec<char> = text.chars().collect();
    let mut out = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in &mut out[from..to.min(c.len())] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let next = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        if c[i] == '/' && next(1) == '/' {
            let end = c[i..]
                .iter()
                .position(|&ch| ch == '\n')
                .map_or(c.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next(1) == '*' {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 1;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 1;
                }
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
        } else if c[i] == 'r' && (next(1) == '"' || next(1) == '#') && (i == 0 || !ident(c[i - 1]))
        {
            let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let body = i + 2 + hashes;
            let end = (body..c.len())
                .find(|&j| c[j..].starts_with(&close))
                .map_or(c.len(), |j| j + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let end = if next(1) == '\\' {
                c[i + 2..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map(|p| i + 2 + p + 1)
            } else if next(2) == '\'' {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Every path a file names from `crate::` or `super::`, as the module path it resolves to
/// from the crate root, e.g. `["runner", "plan", "Loaded"]`. `module` is the file's own module
/// path (`["runner", "plan"]`; a folder's mod.rs is the folder's module); a `super::` inside an
/// inline module (`mod tests { .. }`) starts from that module. `use crate::{a, b::c}` groups
/// count each member.
fn paths_in(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = code_only(text);
    let at = |i: usize, word: &str| code[i..].iter().take(word.len()).copied().eq(word.chars());
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    // The inline modules open around the current place: (name, depth inside its braces).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let word_start = i == 0 || !(ident(code[i - 1]) || code[i - 1] == ':');
        match code[i] {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        if word_start && at(i, "mod ") {
            let name: String = code[i + 4..].iter().take_while(|&&ch| ident(ch)).collect();
            let after = i + 4 + name.len();
            let brace = code[after..]
                .iter()
                .position(|&ch| !ch.is_whitespace())
                .map(|p| after + p);
            if brace.is_some_and(|b| code[b] == '{') {
                inline.push((name, depth + 1));
            }
        }
        let here = || -> Vec<String> {
            let mut m = module.to_vec();
            m.extend(inline.iter().map(|(n, _)| n.clone()));
            m
        };
        let root = if !word_start {
            None
        } else if at(i, "crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if at(i, "super::") {
            let mut base = here();
            let mut len = 0;
            while at(i + len, "super::") {
                base.pop();
                len += "super::".len();
            }
            Some((base, len))
        } else {
            None
        };
        let Some((base, len)) = root else {
            i += 1;
            continue;
        };
        let rest: String = code[i + len..].iter().collect();
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for member in group[..end].split(',') {
                let first = member.trim().split("::").next().unwrap_or("").trim();
                if !first.is_empty() && first != "self" {
                    let mut p = base.clone();
                    p.push(first.to_string());
                    found.push(p);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|&ch| ident(ch) || ch == ':')
                .collect();
            let mut p = base;
            p.extend(
                name.split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            found.push(p);
        }
        i += len;
    }
    found
}

/// The module path of a file under src/: `runner/plan.rs` is `["runner", "plan"]`,
/// `runner/mod.rs` is `["runner"]`, `error.rs` is `["error"]`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every way the files under `src` break the layering, one line each.
fn violations(src: &Path) -> Vec<String> {
    let wings: BTreeMap<&str, BTreeSet<&str>> = WINGS
        .iter()
        .map(|(w, allowed)| (*w, allowed.iter().copied().collect()))
        .collect();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        let module = module_of(relative);
        let Some(wing) = module.first().map(String::as_str) else {
            continue; // lib.rs: the crate root declares the wings
        };
        let Some(allowed) = wings.get(wing) else {
            found.push(format!("{}: not in a known wing", relative.display()));
            continue;
        };
        let text = fs::read_to_string(&file).unwrap();
        for path in paths_in(&text, &module) {
            let Some(target) = path.first().map(String::as_str) else {
                found.push(format!("{}: a path to the crate root", relative.display()));
                continue;
            };
            let shown = format!("crate::{}", path.join("::"));
            if target != wing && !allowed.contains(target) {
                found.push(format!(
                    "{}: {wing} may not use {shown}",
                    relative.display()
                ));
            }
            // A command file uses the arguments and the folder's shared module, not another
            // command's file.
            if wing == "cmd" && target == "cmd" && module.len() == 2 {
                if let Some(other) = path.get(1) {
                    let is_module = path.len() > 1
                        && other.chars().next().is_some_and(|c| c.is_ascii_lowercase());
                    let shared = CMD_SHARED.contains(&other.as_str()) || *other == module[1];
                    if is_module && !shared && is_cmd_file(src, other) {
                        found.push(format!(
                            "{}: a command file may not use another command's file: {shown}",
                            relative.display()
                        ));
                    }
                }
            }
        }
    }
    found
}

fn is_cmd_file(src: &Path, name: &str) -> bool {
    src.join("cmd").join(format!("{name}.rs")).is_file()
}

#[test]
fn the_wings_are_layered_leaves_first() {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (wing, allowed) in WINGS {
        // error's #[from] conversions name wings above it: the one cycle allowed.
        for a in allowed.iter().filter(|_| wing != "error") {
            assert!(
                seen.contains(a),
                "{wing} may use {a}, which is not below it"
            );
        }
        seen.insert(wing);
    }
}

#[test]
fn every_path_in_src_respects_the_layering() {
    let src = super::common::root().join("src");
    let found = violations(&src);
    assert!(found.is_empty(), "layering broken:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_inline_paths_groups_and_supers() {
    let module: Vec<String> = vec!["results".into(), "runs".into()];
    let text = "use crate::{util::text, runner::plan};\n\
                fn f() { crate::cmd::run::x(); super::super::runner::y(); }\n\
                // crate::plot is in a comment\n";
    let targets: Vec<String> = paths_in(text, &module)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        targets,
        ["util", "runner", "cmd::run::x", "runner::y"],
        "{targets:?}"
    );
}
