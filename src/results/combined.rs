//! What a combined report (`idabench combine`) records of the runs it joins: each run's folder,
//! renamed variants and manifest; and how those runs differ: in datasets, limits or `--repeat`, which make
//! their figures unlike (refused unless `--allow-mixed`), or in machine, build or commit, which
//! the report says.

use crate::results::record::Manifest;
use serde::{Deserialize, Serialize};

/// One of the runs a combined report was made from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombinedRun {
    /// The run's report directory, as given to `combine`.
    pub dir: String,
    /// Its variants that the combined report names otherwise (`--rename`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<Renamed>,
    /// How many of the combined report's jobs come from it.
    pub jobs: usize,
    /// Its own manifest, whole.
    pub manifest: Manifest,
}

/// A variant of a run under a new name in the combined report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Renamed {
    pub from: String,
    pub to: String,
}

impl CombinedRun {
    /// The run's variants as the combined report names them, each with its name in the run
    /// when it was renamed.
    pub fn variants(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.manifest
            .variants
            .iter()
            .map(|v| match self.renamed.iter().find(|r| r.from == *v) {
                Some(r) => (r.to.as_str(), Some(v.as_str())),
                None => (v.as_str(), None),
            })
    }
}

/// A fact that the combined runs do not all share.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub what: &'static str,
    /// Whether it makes the runs' figures unlike (datasets, limits): `combine` refuses it
    /// without `--allow-mixed`.
    pub mixes: bool,
    /// Each run's directory and value, in the runs' order.
    pub values: Vec<(String, String)>,
}

impl Difference {
    /// `limits: a: 5 s; b: 10 s`, each directory and value shown by `quote`.
    pub fn render(&self, quote: impl Fn(&str) -> String) -> String {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|(dir, value)| format!("{}: {}", quote(dir), quote(value)))
            .collect();
        format!("{}: {}", self.what, values.join("; "))
    }
}

/// A fact of a run: its name, whether it mixes the runs' figures, its value in a manifest.
type Fact = (&'static str, bool, fn(&Manifest) -> String);

/// How the runs `(directory, manifest)` differ, those that mix their figures first.
pub fn differences<'a>(runs: impl IntoIterator<Item = (&'a str, &'a Manifest)>) -> Vec<Difference> {
    let runs: Vec<(&str, &Manifest)> = runs.into_iter().collect();
    let facts: [Fact; 8] = [
        ("datasets", true, datasets),
        ("limits", true, Manifest::limits_text),
        // Medians of other counts of repetitions spread otherwise.
        ("--repeat", true, |m| m.repeat.to_string()),
        ("machine", false, |m| match &m.host {
            Some(host) => format!("{} (host {host})", m.cpu_model),
            None => m.cpu_model.clone(),
        }),
        ("idabench version", false, |m| m.idabench_version.clone()),
        ("git commit", false, |m| {
            m.git_commit.clone().unwrap_or_else(|| "none".into())
        }),
        ("build", false, |m| {
            format!("{} ({})", m.build_profile, m.rustc_version)
        }),
        ("workers", false, |m| m.jobs.to_string()),
    ];
    facts
        .into_iter()
        .filter_map(|(what, mixes, value)| {
            let values: Vec<(String, String)> = runs
                .iter()
                .map(|(dir, m)| (dir.to_string(), value(m)))
                .collect();
            let differ = values.iter().any(|(_, v)| *v != values[0].1);
            differ.then_some(Difference {
                what,
                mixes,
                values,
            })
        })
        .collect()
}

/// How the runs a combined report was made from differ (none for any other report).
pub fn of_manifest(m: &Manifest) -> Vec<Difference> {
    differences(m.combined.iter().map(|r| (r.dir.as_str(), &r.manifest)))
}

/// A run's datasets as one value: each name and the start of its SHA-256 (and of its definition
/// files'), in name order, so that the same datasets listed in another order are the same.
fn datasets(m: &Manifest) -> String {
    let mut names: Vec<String> = m
        .datasets
        .iter()
        .map(|d| {
            let start: String = d.sha256.chars().take(12).collect();
            let puzzles: String = d
                .puzzles
                .iter()
                .map(|p| {
                    let start: String = p.sha256.chars().take(12).collect();
                    format!("; puzzle {} sha256 {start}", p.path)
                })
                .collect();
            format!("{} (sha256 {start}{puzzles})", d.name)
        })
        .collect();
    names.sort();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::manifest;
    use crate::results::record::DatasetInfo;

    fn with_dataset(sha256: &str) -> Manifest {
        let mut m = manifest();
        m.datasets.push(DatasetInfo {
            path: "d.csv".into(),
            name: "d".into(),
            sha256: sha256.into(),
            instances: 3,
            puzzles: Vec::new(),
        });
        m
    }

    #[test]
    fn datasets_and_limits_mix_runs_machines_and_builds_do_not() {
        let a = with_dataset("00112233445566778899");
        let mut b = a.clone();
        assert!(differences([("a", &a), ("b", &b)]).is_empty());
        b.cpu_model = "other".into();
        b.time_limit_s = Some(5.0);
        let d = differences([("a", &a), ("b", &b)]);
        let said: Vec<(String, bool)> = d
            .iter()
            .map(|d| (d.render(|v| format!("`{v}`")), d.mixes))
            .collect();
        assert_eq!(
            said,
            [
                ("limits: `a`: `none`; `b`: `5 s CPU`".to_string(), true),
                ("machine: `a`: `cpu`; `b`: `other`".to_string(), false),
            ]
        );
        let c = with_dataset("ffff");
        let d = differences([("a", &a), ("b", &a), ("c", &c)]);
        assert_eq!(
            d[0].render(|v| v.to_string()),
            "datasets: a: d (sha256 001122334455); b: d (sha256 001122334455); c: d (sha256 ffff)"
        );
    }

    #[test]
    fn a_combined_manifest_reads_back_and_one_without_the_field_has_no_runs() {
        let mut m = manifest();
        m.combined.push(CombinedRun {
            dir: "reports/a".into(),
            renamed: vec![Renamed {
                from: "x".into(),
                to: "y".into(),
            }],
            jobs: 2,
            manifest: manifest(),
        });
        let json = serde_json::to_string(&m).unwrap();
        let back: Manifest = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        let plain = serde_json::to_string(&manifest()).unwrap();
        assert!(!plain.contains("combined"), "{plain}");
        let old: Manifest = serde_json::from_str(&plain).unwrap();
        assert!(old.combined.is_empty() && of_manifest(&old).is_empty());
    }
}
