//! Which instances of a run's datasets it keeps: `--domain`, `--size`, `--instances` and
//! `--instances-file`. The entries of one flag are alternatives and every flag given applies;
//! each entry must match some instance of the datasets, so that a typo is an error rather than
//! a smaller run.

use crate::dataset::Dataset;
use crate::domains::DomainKind;
use crate::error::Error;
use crate::results::record::{IdsFile, Selection};
use crate::runner::plan::sha256_hex;
use crate::util::glob::Glob;
use crate::util::text::{self, shorten};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How many unmatched entries an error lists before it only counts the rest.
const LISTED: usize = 5;

/// The selection as the command line gives it; empty: every instance.
#[derive(Clone, Debug, Default)]
pub struct SelectOptions {
    pub domains: Vec<DomainKind>,
    /// As the datasets' `size` column (and runs.csv's) spells them.
    pub sizes: Vec<String>,
    /// `--instances` entries: ids, `DATASET:ID`, with `*` and `?`.
    pub instances: Vec<String>,
    /// One entry a line.
    pub instances_file: Option<PathBuf>,
    /// The SHA-256 (lowercase hex) that `instances_file` must have: a Slurm script's shards
    /// must not read a file changed since the script was written.
    pub instances_sha256: Option<String>,
}

impl SelectOptions {
    pub fn is_empty(&self) -> bool {
        self.domains.is_empty()
            && self.sizes.is_empty()
            && self.instances.is_empty()
            && self.instances_file.is_none()
    }

    /// The flags that give this selection again, each one word (`--flag=VALUE`), so that a value
    /// starting with '-' is not taken for a flag. An entry never holds a comma: the flags split
    /// at them.
    pub fn words(&self) -> Vec<OsString> {
        let mut words: Vec<OsString> = Vec::new();
        let mut list = |flag: &str, values: Vec<&str>| {
            if !values.is_empty() {
                words.push(format!("--{flag}={}", values.join(",")).into());
            }
        };
        list("domain", self.domains.iter().map(|d| d.name()).collect());
        list("size", self.sizes.iter().map(String::as_str).collect());
        list(
            "instances",
            self.instances.iter().map(String::as_str).collect(),
        );
        if let Some(path) = &self.instances_file {
            let mut word = OsString::from("--instances-file=");
            word.push(path);
            words.push(word);
        }
        if let Some(sha) = &self.instances_sha256 {
            words.push(format!("--instances-sha256={sha}").into());
        }
        words
    }
}

/// What a selection keeps of the datasets.
pub struct Chosen {
    /// Of each instance, in the datasets' order, whether it is kept; `None`: every one.
    pub keep: Option<Vec<bool>>,
    /// The domains of the kept instances, in the registry's order.
    pub domains: Vec<DomainKind>,
    /// What the manifest records.
    pub selection: Selection,
}

/// Applies `opts` to `datasets`: an error (exit 2) for an entry that matches no instance, an
/// ids file that cannot be read or is not the one pinned, or a selection that keeps nothing.
pub fn choose(opts: &SelectOptions, datasets: &[Dataset]) -> Result<Chosen, Error> {
    let domains_of = |kept: &dyn Fn(DomainKind) -> bool| -> Vec<DomainKind> {
        DomainKind::ALL.into_iter().filter(|&k| kept(k)).collect()
    };
    if opts.is_empty() {
        return Ok(Chosen {
            keep: None,
            domains: domains_of(&|k| datasets.iter().any(|d| d.domains.contains(&k))),
            selection: Selection::default(),
        });
    }
    let names: Vec<&str> = datasets.iter().map(|d| d.name.as_str()).collect();
    let mut entries: Vec<Entry> = opts
        .instances
        .iter()
        .map(|e| Entry::new(e, format!("--instances '{}'", shorten(e)), &names))
        .collect();
    let instances_file = match &opts.instances_file {
        Some(path) => {
            let (lines, sha256) = read_ids(path, opts.instances_sha256.as_deref())?;
            if lines.is_empty() {
                return Err(Error::input(format!(
                    "--instances-file {}: holds no id (only blank lines, or nothing)",
                    path.display()
                )));
            }
            entries.extend(lines.into_iter().map(|(line, id)| {
                let origin = format!("{}:{line}: '{}'", path.display(), shorten(&id));
                Entry::new(&id, origin, &names)
            }));
            Some(IdsFile {
                path: path.display().to_string(),
                sha256,
            })
        }
        None => None,
    };
    let ids = Matcher::new(&entries);
    let mut domain_hit = vec![false; opts.domains.len()];
    let mut size_hit = vec![false; opts.sizes.len()];
    let mut entry_hit = vec![false; entries.len()];
    let mut keep = Vec::with_capacity(datasets.iter().map(|d| d.instances.len()).sum());
    let mut kept_domains = Vec::new();
    for d in datasets {
        for i in &d.instances {
            let by_domain = mark(&opts.domains, &mut domain_hit, |&k| k == i.domain);
            let by_size = mark(&opts.sizes, &mut size_hit, |s| **s == *i.size);
            let by_id = entries.is_empty() || ids.mark(&d.name, &i.id, &mut entry_hit);
            let kept = by_domain && by_size && by_id;
            if kept && !kept_domains.contains(&i.domain) {
                kept_domains.push(i.domain);
            }
            keep.push(kept);
        }
    }
    let mut unmatched: Vec<String> = Vec::new();
    let present = domains_of(&|k| datasets.iter().any(|d| d.domains.contains(&k)));
    for (k, _) in domain_hit.iter().enumerate().filter(|(_, &hit)| !hit) {
        unmatched.push(format!("--domain {}", opts.domains[k].name()));
    }
    for (k, _) in size_hit.iter().enumerate().filter(|(_, &hit)| !hit) {
        unmatched.push(format!("--size '{}'", shorten(&opts.sizes[k])));
    }
    for (k, _) in entry_hit.iter().enumerate().filter(|(_, &hit)| !hit) {
        unmatched.push(entries[k].origin.clone());
    }
    let selection = Selection {
        domains: opts.domains.iter().map(|d| d.name().to_owned()).collect(),
        sizes: opts.sizes.clone(),
        instances: opts.instances.clone(),
        instances_file,
    };
    if !unmatched.is_empty() {
        let n = unmatched.len();
        let more = match n.saturating_sub(LISTED) {
            0 => String::new(),
            more => format!(" and {more} more"),
        };
        unmatched.truncate(LISTED);
        return Err(Error::input(format!(
            "{}{more}: match{} no instance of the datasets ({}; their domains: {}; their sizes: {})",
            unmatched.join(", "),
            if n == 1 { "es" } else { "" },
            names.iter().map(|n| shorten(n)).collect::<Vec<_>>().join(", "),
            present.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "),
            sizes_text(datasets),
        )));
    }
    if kept_domains.is_empty() {
        return Err(Error::input(format!(
            "the selection {} leaves no instance: each entry matches some, but no instance passes every flag given",
            selection.text()
        )));
    }
    Ok(Chosen {
        keep: Some(keep),
        domains: domains_of(&|k| kept_domains.contains(&k)),
        selection,
    })
}

/// Whether `value` passes a flag's `entries` (any of them; every value when there are none),
/// marking each entry that it matches.
fn mark<T>(entries: &[T], hit: &mut [bool], matches: impl Fn(&T) -> bool) -> bool {
    let mut any = entries.is_empty();
    for (entry, hit) in entries.iter().zip(hit) {
        if matches(entry) {
            *hit = true;
            any = true;
        }
    }
    any
}

/// The sizes of the datasets' instances, each once, for a message (`-` for a fixed size).
fn sizes_text(datasets: &[Dataset]) -> String {
    let mut sizes: Vec<&str> = Vec::new();
    for i in datasets.iter().flat_map(|d| &d.instances) {
        if !sizes.contains(&&*i.size) {
            sizes.push(&i.size);
        }
    }
    let shown: Vec<String> = sizes
        .iter()
        .map(|s| if s.is_empty() { "-".into() } else { shorten(s) })
        .collect();
    shown.join(", ")
}

/// One `--instances` entry or line of the ids file.
struct Entry {
    /// Where it was given, quoting it: `--instances 'x'` or `ids.txt:3: 'x'`.
    origin: String,
    /// The datasets it is limited to (`DATASET:ID`), if any.
    dataset: Option<Glob>,
    id: Glob,
}

impl Entry {
    /// The entry `text`: `DATASET:ID` when what comes before its first ':' matches the name of
    /// one of the run's datasets (`names`), else an id as a whole, colons included.
    fn new(text: &str, origin: String, names: &[&str]) -> Entry {
        let split = text.split_once(':').and_then(|(head, id)| {
            let dataset = Glob::new(head);
            names
                .iter()
                .any(|n| dataset.matches(n))
                .then_some((dataset, id))
        });
        let (dataset, id) = match split {
            Some((dataset, id)) => (Some(dataset), id),
            None => (None, text),
        };
        Entry {
            origin,
            dataset,
            id: Glob::new(id),
        }
    }
}

/// The entries of ids, indexed: those without a wildcard in their id by that id (a file of
/// thousands of ids is a lookup per instance, not a scan), the others scanned.
struct Matcher<'e> {
    entries: &'e [Entry],
    exact: HashMap<String, Vec<usize>>,
    patterns: Vec<usize>,
}

impl<'e> Matcher<'e> {
    fn new(entries: &'e [Entry]) -> Matcher<'e> {
        let mut exact: HashMap<String, Vec<usize>> = HashMap::new();
        let mut patterns = Vec::new();
        for (k, e) in entries.iter().enumerate() {
            match e.id.literal() {
                Some(id) => exact.entry(id).or_default().push(k),
                None => patterns.push(k),
            }
        }
        Matcher {
            entries,
            exact,
            patterns,
        }
    }

    /// Whether instance `id` of dataset `dataset` matches an entry, marking each that it matches.
    fn mark(&self, dataset: &str, id: &str, hit: &mut [bool]) -> bool {
        let mut any = false;
        let candidates = self.exact.get(id).into_iter().flatten();
        for &k in candidates.chain(&self.patterns) {
            let e = &self.entries[k];
            if e.dataset.as_ref().is_none_or(|g| g.matches(dataset)) && e.id.matches(id) {
                hit[k] = true;
                any = true;
            }
        }
        any
    }
}

/// The entries of the ids file at `path`, each with its line, and the file's SHA-256, which must
/// be `pin` when one is given. A line is one entry, trimmed of white space at its ends as a
/// dataset's id is; blank lines are skipped; lines end with LF or CRLF, the last one with or
/// without; a UTF-8 byte-order mark at the start is skipped.
fn read_ids(path: &Path, pin: Option<&str>) -> Result<(Vec<(u64, String)>, String), Error> {
    let bytes = text::read_file(path).map_err(|e| Error::input(format!("--instances-file {e}")))?;
    let sha256 = sha256_hex(&bytes);
    if let Some(pin) = pin.filter(|&p| p != sha256) {
        return Err(Error::input(format!(
            "--instances-file {}: its SHA-256 is {sha256}, not {pin} as --instances-sha256 says: the file changed since the selection was made (a Slurm script pins the file it was written with)",
            path.display()
        )));
    }
    let body = text::without_bom(&bytes);
    let body = std::str::from_utf8(body).map_err(|e| {
        let line = 1 + body[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        Error::input(format!(
            "{}:{line}: not valid UTF-8: save the file as UTF-8",
            path.display()
        ))
    })?;
    let lines = body
        .split('\n')
        .zip(1u64..)
        .map(|(line, n)| (n, line.trim()))
        .filter(|(_, line)| !line.is_empty())
        .map(|(n, line)| (n, line.to_owned()))
        .collect();
    Ok((lines, sha256))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> Entry {
        Entry::new(text, String::new(), &["smoke", "korf100"])
    }

    #[test]
    fn an_entry_names_a_dataset_only_when_its_head_is_one() {
        let e = entry("smoke:8p-d08");
        assert!(e.dataset.is_some() && e.id.matches("8p-d08"));
        let e = entry("korf*:1?");
        assert!(e.dataset.as_ref().unwrap().matches("korf100") && e.id.matches("12"));
        // No dataset of that name: the whole entry is an id, its colon included.
        let e = entry("run:7");
        assert!(e.dataset.is_none() && e.id.matches("run:7"));
        // An id that starts like a dataset's name is given with its dataset (or any: `*:`).
        let e = entry("*:smoke:1");
        assert!(e.dataset.is_some() && e.id.matches("smoke:1"));
    }

    #[test]
    fn the_words_give_the_selection_again() {
        let opts = SelectOptions {
            domains: vec![DomainKind::Tiles],
            sizes: vec!["4x4".into()],
            instances: vec!["-a".into(), "smoke:b*".into()],
            instances_file: Some(PathBuf::from("-ids.txt")),
            instances_sha256: Some("ab".into()),
        };
        let words: Vec<String> = opts
            .words()
            .into_iter()
            .map(|w| w.into_string().unwrap())
            .collect();
        assert_eq!(
            words,
            [
                "--domain=tiles",
                "--size=4x4",
                "--instances=-a,smoke:b*",
                "--instances-file=-ids.txt",
                "--instances-sha256=ab"
            ]
        );
        assert!(SelectOptions::default().words().is_empty());
    }
}
