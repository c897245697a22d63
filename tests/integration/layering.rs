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
            "util", "tables", "domains", "dataset", "results", "compare", "report", "runner", "ab",
        ],
    ),
    ("search", &["util"]),
    // The automata of duplicate pruning are the engine's type (`search::fsm`), built here.
    ("tables", &["util", "search"]),
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
            "report", "runner",
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

/// The command file that every command may use: the arguments.
const CMD_SHARED: [&str; 1] = ["args"];

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

/// What a file names: a path of the crate, resolved from its root (`["runner", "plan",
/// "Loaded"]`), or something of clap's.
#[derive(Debug, PartialEq)]
enum Named {
    Crate(Vec<String>),
    Clap,
}

/// The paths of a use tree or an inline path starting at `c[i]`, each prefixed with `prefix`:
/// `a::b`, `a::{b, c::{self, d}}`, `{a, b}`, `a::*`; where the tree ends.
fn tree(c: &[char], mut i: usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_' || ch == '*';
    let skip_space = |mut i: usize| {
        while i < c.len() && c[i].is_whitespace() {
            i += 1;
        }
        i
    };
    loop {
        i = skip_space(i);
        if c.get(i) == Some(&'{') {
            i += 1;
            loop {
                i = skip_space(i);
                match c.get(i) {
                    None => return i,
                    Some('}') => return i + 1,
                    Some(',') => i += 1,
                    Some(_) => {
                        let next = tree(c, i, path.clone(), out);
                        // Something a tree cannot hold (an `as` rename): step over it.
                        i = if next > i { next } else { i + 1 };
                    }
                }
            }
        }
        let name: String = c[i..].iter().take_while(|&&ch| ident(ch)).collect();
        i += name.chars().count();
        if !name.is_empty() && name != "self" {
            path.push(name);
        }
        if c[i..].starts_with(&[':', ':']) {
            i += 2;
            continue;
        }
        // A rename (`plan as p`) names the same path.
        let after = skip_space(i);
        if c[after..].starts_with(&['a', 's'])
            && c.get(after + 2).is_some_and(|ch| ch.is_whitespace())
        {
            let alias = skip_space(after + 2);
            i = alias + c[alias..].iter().take_while(|&&ch| ident(ch)).count();
        }
        out.push(path);
        return i;
    }
}

/// Everything a file names from `crate::`, `super::` and `clap::`. `module` is the file's own
/// module path (`["runner", "plan"]`; a folder's mod.rs is the folder's module); a `super::`
/// inside an inline module (`mod tests { .. }`) starts from that module. Groups count each
/// member, nested ones too.
fn paths_in(text: &str, module: &[String]) -> Vec<Named> {
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
        if word_start && at(i, "clap::") {
            found.push(Named::Clap);
            i += "clap::".len();
            continue;
        }
        let root = if !word_start {
            None
        } else if at(i, "crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if at(i, "super::") {
            let mut base = module.to_vec();
            base.extend(inline.iter().map(|(n, _)| n.clone()));
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
        let mut paths = Vec::new();
        tree(&code, i + len, base, &mut paths);
        found.extend(paths.into_iter().map(Named::Crate));
        // On past the root only: the tree's braces are counted as the scan goes.
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
        if module == ["cmd"] {
            found.extend(reexports(&text, src));
        }
        let at = relative.display();
        for named in paths_in(&text, &module) {
            let path = match named {
                Named::Clap if wing != "cmd" => {
                    found.push(format!("{at}: only cmd may use clap"));
                    continue;
                }
                Named::Clap => continue,
                Named::Crate(path) => path,
            };
            let Some(target) = path.first().map(String::as_str) else {
                found.push(format!("{at}: a path to the crate root"));
                continue;
            };
            let shown = format!("crate::{}", path.join("::"));
            if target != wing && !allowed.contains(target) {
                found.push(format!("{at}: {wing} may not use {shown}"));
            }
            // error's conversions name the error types of the wings above it, nothing else.
            let above = WINGS.iter().position(|(w, _)| *w == target)
                > WINGS.iter().position(|(w, _)| *w == "error");
            if wing == "error" && above && !path.last().is_some_and(|n| n.ends_with("Error")) {
                found.push(format!("{at}: error may use only error types, not {shown}"));
            }
            // A command file uses the arguments and the folder's shared module, not another
            // command's file, nor the folder whole (through which it could).
            if wing == "cmd" && module.len() == 2 && target == "cmd" {
                match path.get(1).map(String::as_str) {
                    None | Some("*") => found.push(format!(
                        "{at}: a command file may not use all of cmd: {shown}"
                    )),
                    Some(other)
                        if other != module[1]
                            && !CMD_SHARED.contains(&other)
                            && is_cmd_file(src, other) =>
                    {
                        found.push(format!(
                            "{at}: a command file may not use another command's file: {shown}"
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    found
}

/// What cmd/mod.rs takes out of command files with `use` (other than the arguments): through
/// it, a command file could reach another's items.
fn reexports(text: &str, src: &Path) -> Vec<String> {
    let code = code_only(text);
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut found = Vec::new();
    for (i, _) in code.iter().enumerate() {
        let word_start = i == 0 || !ident(code[i - 1]);
        if !(word_start && code[i..].starts_with(&['u', 's', 'e', ' '])) {
            continue;
        }
        let mut paths = Vec::new();
        tree(&code, i + 4, Vec::new(), &mut paths);
        for mut path in paths {
            if path.starts_with(&["crate".to_string(), "cmd".to_string()]) {
                path.drain(..2);
            }
            if let Some(first) = path.first() {
                if !CMD_SHARED.contains(&first.as_str()) && is_cmd_file(src, first) {
                    found.push(format!(
                        "cmd/mod.rs: may not take items out of a command file: {}",
                        path.join("::")
                    ));
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
fn the_check_sees_inline_paths_nested_groups_supers_and_clap() {
    let module: Vec<String> = vec!["results".into(), "runs".into()];
    let text = "use crate::{util::{self, text}, runner::plan as p};\n\
                fn f() { crate::cmd::run::x(); super::super::runner::y(); clap::Parser::parse(); }\n\
                // crate::plot is in a comment, \"crate::report\" in a string\n\
                mod tests { use super::*; }\n";
    let named: Vec<String> = paths_in(text, &module)
        .iter()
        .map(|n| match n {
            Named::Crate(p) => p.join("::"),
            Named::Clap => "clap".into(),
        })
        .collect();
    assert_eq!(
        named,
        [
            "util",
            "util::text",
            "runner::plan",
            "cmd::run::x",
            "runner::y",
            "clap",
            "results::runs::*"
        ],
        "{named:?}"
    );
}

#[test]
fn a_tree_that_breaks_each_rule_is_refused_for_each() {
    let tmp = super::common::Tmp::new("layering");
    let src = tmp.path().join("src");
    let files = [
        ("lib.rs", ""),
        ("util/mod.rs", "use crate::runner::plan;"),
        ("results/runs.rs", "fn f() { crate::cmd::run::x(); }"),
        (
            "plot/mod.rs",
            "use crate::{util::{self, text}, runner::plan};",
        ),
        ("domains/mod.rs", "use clap::Parser;"),
        (
            "error.rs",
            "pub use crate::runner::plan::Loaded;\nuse crate::runner::job::SolveError;",
        ),
        (
            "cmd/mod.rs",
            "mod args; mod run; mod merge; pub use run::x; use args::Cli;",
        ),
        (
            "cmd/run.rs",
            "use crate::cmd::merge::y; use crate::cmd::args::Cli;",
        ),
        ("cmd/merge.rs", "use super::*;"),
        ("cmd/args.rs", "use clap::Parser;"),
        ("newwing/mod.rs", ""),
    ];
    for (name, text) in files {
        let path = src.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let found = violations(&src);
    // In the order of the files' paths.
    let expected = [
        "cmd/merge.rs: a command file may not use all of cmd: crate::cmd::*",
        "cmd/mod.rs: may not take items out of a command file: run::x",
        "cmd/run.rs: a command file may not use another command's file: crate::cmd::merge::y",
        "domains/mod.rs: only cmd may use clap",
        "error.rs: error may use only error types, not crate::runner::plan::Loaded",
        "newwing/mod.rs: not in a known wing",
        "plot/mod.rs: plot may not use crate::runner::plan",
        "results/runs.rs: results may not use crate::cmd::run::x",
        "util/mod.rs: util may not use crate::runner::plan",
    ];
    assert_eq!(found, expected, "{found:#?}");
}
