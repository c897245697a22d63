//! The jobs of a run as `compare`, `ab` and `plot` hold them: the fields they read, a row of
//! fixed size each, with the names in one text shared by the rows, a repeated job's rows reduced
//! to one (`Jobs::reduced`, by `results::repetitions`), and the join of two runs on (dataset,
//! instance, variant).
//!
//! A runs.csv row read as a `Record` costs about 650 bytes (ten `String`s and the struct), several
//! times the row's own length, and a map of owned keys to join two runs as much again: two runs of
//! 171 MB took 2 GB. Here a job is 64 bytes, the names of a dataset and a variant are kept once
//! per run, an instance's id once per run of jobs that share it, and joins sort job numbers (4
//! bytes a job) instead of hashing keys.

use crate::results::record::{Record, RowKey, Status};
use crate::results::repetitions::{self, Measured};
use std::cmp::Ordering;
use std::collections::HashMap;
#[cfg(test)]
use std::ops::{Index, IndexMut};

/// A name: a stretch of `Names::text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Name {
    start: u32,
    len: u32,
}

/// Where a job's names are in `Names::text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KeyNames {
    dataset: Name,
    instance: Name,
    variant: Name,
}

/// The names of a list of jobs in one text: each dataset and variant name once, an instance's
/// id once per run of consecutive jobs that share it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Names {
    text: String,
    /// Where each dataset or variant name already is in `text`.
    known: HashMap<String, Name>,
}

impl Names {
    /// Adds the names of a job, listed after the job named by `last`.
    pub(super) fn add(
        &mut self,
        (dataset, instance, variant): (&str, &str, &str),
        last: Option<&KeyNames>,
    ) -> KeyNames {
        let dataset = self.known_name(dataset);
        let variant = self.known_name(variant);
        let instance = match last {
            Some(last) if self.name(last.instance) == instance => last.instance,
            _ => self.append(instance),
        };
        KeyNames {
            dataset,
            instance,
            variant,
        }
    }

    /// The (dataset, instance, variant) that `names` locates.
    pub(super) fn key(&self, names: &KeyNames) -> (&str, &str, &str) {
        (
            self.name(names.dataset),
            self.name(names.instance),
            self.name(names.variant),
        )
    }

    fn name(&self, name: Name) -> &str {
        &self.text[name.start as usize..(name.start + name.len) as usize]
    }

    /// Where `name` is in `text`, added the first time.
    fn known_name(&mut self, name: &str) -> Name {
        if let Some(&known) = self.known.get(name) {
            return known;
        }
        let at = self.append(name);
        self.known.insert(name.to_owned(), at);
        at
    }

    fn append(&mut self, name: &str) -> Name {
        // The text is at most the runs.csv it was read from (1 GiB) or the names of one plan.
        let start = u32::try_from(self.text.len()).expect("names of less than 4 GiB");
        let len = u32::try_from(name.len()).expect("names of less than 4 GiB");
        self.text.push_str(name);
        Name { start, len }
    }
}

/// One job's figures, and where its names are.
#[derive(Clone, Debug, PartialEq)]
pub struct JobFigures {
    names: KeyNames,
    /// The instance's domain and size, for the pictures and pages that break a run down.
    domain: Name,
    size: Name,
    pub status: Status,
    pub length: Option<u32>,
    pub nodes_generated: u64,
    pub nodes_expanded: u64,
    pub time_cpu_s: f64,
    pub iterations: u32,
}

/// One job of a run, its names borrowed from the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SavedJob<'a> {
    pub dataset: &'a str,
    pub instance: &'a str,
    pub variant: &'a str,
    pub domain: &'a str,
    pub size: &'a str,
    pub status: Status,
    pub length: Option<u32>,
    pub nodes_generated: u64,
    pub nodes_expanded: u64,
    pub time_cpu_s: f64,
    pub iterations: u32,
    /// The row's repetition (of a reduced job: its representative's).
    pub repetition: u32,
}

impl<'a> SavedJob<'a> {
    /// The key that identifies a job across runs, as `Record::key`.
    pub fn key(&self) -> (&'a str, &'a str, &'a str) {
        (self.dataset, self.instance, self.variant)
    }

    /// The key of its row: the job and the repetition, as `Record::key`.
    pub fn row_key(&self) -> RowKey<'a> {
        RowKey {
            dataset: self.dataset,
            instance: self.instance,
            variant: self.variant,
            repetition: self.repetition,
        }
    }
}

/// The jobs of a run, in its order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Jobs {
    names: Names,
    rows: Vec<JobFigures>,
    /// Each row's repetition; empty while every row is repetition 1 (a run without `--repeat`
    /// pays nothing for it).
    repetitions: Vec<u32>,
    /// Of jobs reduced from their repetitions (`reduced`): how many each had, and the spread
    /// of its CPU times (`Reduced::cpu_spread`); empty when every job had one.
    reduced: Vec<(u32, Option<f64>)>,
}

impl Jobs {
    /// No jobs yet, room for `n`.
    pub fn with_capacity(n: usize) -> Jobs {
        Jobs {
            rows: Vec::with_capacity(n),
            ..Jobs::default()
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds a job: `record`'s figures that the comparisons and pictures read.
    pub fn push<S: AsRef<str>>(&mut self, record: &Record<S>) {
        let key = (
            record.dataset.as_ref(),
            record.instance.as_ref(),
            record.variant.as_ref(),
        );
        // The jobs of an instance come together in a run's order: its id is kept once for them.
        let names = self
            .names
            .add(key, self.rows.last().map(|last| &last.names));
        self.rows.push(JobFigures {
            names,
            domain: self.names.known_name(record.domain.as_ref()),
            size: self.names.known_name(record.size.as_ref()),
            status: record.status,
            length: record.length,
            nodes_generated: record.nodes_generated,
            nodes_expanded: record.nodes_expanded,
            time_cpu_s: record.time_cpu_s,
            iterations: record.iterations,
        });
        if record.repetition != 1 && self.repetitions.is_empty() {
            self.repetitions = vec![1; self.rows.len() - 1];
        }
        if !self.repetitions.is_empty() {
            self.repetitions.push(record.repetition);
        }
    }

    /// Row `i`'s repetition.
    fn repetition(&self, i: usize) -> u32 {
        self.repetitions.get(i).copied().unwrap_or(1)
    }

    /// The spread of job `i`'s CPU times over its repetitions (see `Reduced::cpu_spread`).
    pub fn spread(&self, i: usize) -> Option<f64> {
        self.reduced.get(i).and_then(|r| r.1)
    }

    /// The most repetitions a job was reduced from: 1 for a run without repetitions.
    pub fn most_repetitions(&self) -> u32 {
        self.reduced.iter().map(|r| r.0).max().unwrap_or(1)
    }

    /// Each job's rows (its repetitions) reduced to one by `results::repetitions`, in the order
    /// of each job's first row: its representative's figures with the job's status and median
    /// CPU time. A run whose rows are each of repetition 1 is itself (its keys are unique:
    /// `first_repeat`).
    pub fn reduced(self) -> Jobs {
        if self.repetitions.is_empty() {
            return self;
        }
        let order = self.sorted();
        // Runs of one key in `order` are a job's rows; each job goes where its first row was.
        let mut groups: Vec<&[u32]> = order
            .chunk_by(|&a, &b| self.get(a as usize).key() == self.get(b as usize).key())
            .collect();
        groups.sort_by_key(|g| g.iter().min().copied());
        let mut jobs = Jobs {
            names: self.names.clone(),
            rows: Vec::with_capacity(groups.len()),
            repetitions: Vec::with_capacity(groups.len()),
            reduced: Vec::with_capacity(groups.len()),
        };
        for group in groups {
            let mut rows: Vec<usize> = group.iter().map(|&i| i as usize).collect();
            rows.sort_by_key(|&i| self.repetition(i));
            let measured: Vec<Measured> = rows
                .iter()
                .map(|&i| {
                    let r = &self.rows[i];
                    Measured {
                        repetition: self.repetition(i),
                        status: r.status,
                        nodes_generated: r.nodes_generated,
                        nodes_expanded: r.nodes_expanded,
                        time_cpu_s: r.time_cpu_s,
                        time_wall_s: 0.0,
                    }
                })
                .collect();
            let reduced = repetitions::reduce(&measured);
            let representative = rows[reduced.representative];
            jobs.rows.push(JobFigures {
                status: reduced.status,
                time_cpu_s: reduced.time_cpu_s,
                ..self.rows[representative].clone()
            });
            jobs.repetitions.push(self.repetition(representative));
            jobs.reduced
                .push((reduced.repetitions, reduced.cpu_spread()));
        }
        jobs
    }

    /// The same jobs, each variant that `rename` gives a name for under that name.
    pub fn renamed<'n>(&self, rename: impl Fn(&str) -> Option<&'n str>) -> Jobs {
        let mut out = Jobs {
            repetitions: self.repetitions.clone(),
            reduced: self.reduced.clone(),
            ..Jobs::with_capacity(self.len())
        };
        for r in &self.rows {
            let (dataset, instance, variant) = self.names.key(&r.names);
            let variant = rename(variant).unwrap_or(variant);
            let names = out.names.add(
                (dataset, instance, variant),
                out.rows.last().map(|l| &l.names),
            );
            // Every name is `out`'s own: its text is not this one's.
            let domain = out.names.known_name(self.names.name(r.domain));
            let size = out.names.known_name(self.names.name(r.size));
            out.rows.push(JobFigures {
                names,
                domain,
                size,
                ..r.clone()
            });
        }
        out
    }

    /// The variants of the jobs, in the order they first appear.
    pub fn variants(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.iter()
            .map(|j| j.variant)
            .filter(|v| seen.insert(*v))
            .collect()
    }

    /// Job `i`.
    pub fn get(&self, i: usize) -> SavedJob<'_> {
        let r = &self.rows[i];
        let (dataset, instance, variant) = self.names.key(&r.names);
        SavedJob {
            dataset,
            instance,
            variant,
            domain: self.names.name(r.domain),
            size: self.names.name(r.size),
            status: r.status,
            length: r.length,
            nodes_generated: r.nodes_generated,
            nodes_expanded: r.nodes_expanded,
            time_cpu_s: r.time_cpu_s,
            iterations: r.iterations,
            repetition: self.repetition(i),
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = SavedJob<'_>> + '_ {
        (0..self.rows.len()).map(|i| self.get(i))
    }

    /// Every job's figures, for tests that change them.
    #[cfg(test)]
    pub fn figures_mut(&mut self) -> impl Iterator<Item = &mut JobFigures> {
        self.rows.iter_mut()
    }

    /// The first row (in the run's order) whose key and repetition an earlier one has, as (the
    /// earlier one's index, its index).
    pub fn first_repeat(&self) -> Option<(usize, usize)> {
        let order = self.sorted();
        order
            .windows(2)
            .filter(|w| self.key_order(w[0], w[1]) == Ordering::Equal)
            .map(|w| (w[0] as usize, w[1] as usize))
            .min_by_key(|&(_, again)| again)
    }

    /// For each job, the index of the job of `other` with the same key (`None` where `other` has
    /// none); the keys of each run are unique.
    pub fn partners(&self, other: &Jobs) -> Vec<Option<usize>> {
        let (mine, theirs) = (self.sorted(), other.sorted());
        let mut partners = vec![None; self.len()];
        let mut k = 0;
        for &i in &mine {
            let key = self.get(i as usize).key();
            while k < theirs.len() && other.get(theirs[k] as usize).key() < key {
                k += 1;
            }
            if k < theirs.len() && other.get(theirs[k] as usize).key() == key {
                partners[i as usize] = Some(theirs[k] as usize);
            }
        }
        partners
    }

    /// The job indices sorted by key and repetition, equal ones in the run's order. Four bytes a
    /// job, where a map of borrowed keys would take about sixty.
    fn sorted(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.row_count()).collect();
        order.sort_unstable_by(|&a, &b| self.key_order(a, b).then(a.cmp(&b)));
        order
    }

    /// By key, then repetition.
    fn key_order(&self, a: u32, b: u32) -> Ordering {
        let (a, b) = (self.get(a as usize), self.get(b as usize));
        (a.key(), a.repetition).cmp(&(b.key(), b.repetition))
    }

    /// The number of jobs, as the indices `sorted` holds: at most 2^32, since a run's runs.csv
    /// is read within 1 GiB and `ab` runs the jobs of one such dataset.
    fn row_count(&self) -> u32 {
        u32::try_from(self.rows.len()).expect("fewer than 2^32 jobs")
    }
}

impl<S: AsRef<str>> FromIterator<Record<S>> for Jobs {
    fn from_iter<I: IntoIterator<Item = Record<S>>>(records: I) -> Jobs {
        let mut jobs = Jobs::default();
        for r in records {
            jobs.push(&r);
        }
        jobs
    }
}

/// Job `i`'s figures, which the tests change in place.
#[cfg(test)]
impl Index<usize> for Jobs {
    type Output = JobFigures;

    fn index(&self, i: usize) -> &JobFigures {
        &self.rows[i]
    }
}

#[cfg(test)]
impl IndexMut<usize> for Jobs {
    fn index_mut(&mut self, i: usize) -> &mut JobFigures {
        &mut self.rows[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixtures::record;

    fn job(instance: &str, variant: &str) -> Record {
        Record {
            instance: instance.into(),
            variant: variant.into(),
            ..record()
        }
    }

    #[test]
    fn names_are_kept_once_and_read_back_whole() {
        let jobs: Jobs = [
            job("1", "a"),
            job("1", "b"),
            job("2", "a"),
            job("2", "b"),
            job("1", "c"),
        ]
        .into_iter()
        .collect();
        let keys: Vec<(&str, &str, &str)> = jobs.iter().map(|j| j.key()).collect();
        let dataset = record().dataset;
        let d = dataset.as_str();
        assert_eq!(
            keys,
            [
                (d, "1", "a"),
                (d, "1", "b"),
                (d, "2", "a"),
                (d, "2", "b"),
                (d, "1", "c")
            ]
        );
        // The dataset, a, b, c, the domain and size once; 1 twice (it comes back after 2), 2
        // once.
        let kind = record().domain + &record().size;
        assert_eq!(jobs.names.text.len(), d.len() + 3 + 3 + kind.len());
        assert_eq!(jobs.first_repeat(), None);
        let r = record();
        let j = jobs.get(0);
        assert_eq!(
            (j.status, j.length, j.nodes_generated, j.nodes_expanded),
            (r.status, r.length, r.nodes_generated, r.nodes_expanded)
        );
        assert_eq!((j.time_cpu_s, j.iterations), (r.time_cpu_s, r.iterations));
    }

    #[test]
    fn the_first_repeat_is_the_first_job_whose_key_came_before() {
        let jobs: Jobs = ["x", "y", "z", "y", "x", "y"]
            .into_iter()
            .map(|i| job(i, "a"))
            .collect();
        assert_eq!(jobs.first_repeat(), Some((1, 3)));
    }

    #[test]
    fn renamed_jobs_keep_their_figures_under_the_new_name() {
        let jobs: Jobs = [job("1", "a"), job("1", "b"), job("2", "a")]
            .into_iter()
            .collect();
        let renamed = jobs.renamed(|v| (v == "a").then_some("a=c"));
        let keys: Vec<(&str, &str)> = renamed.iter().map(|j| (j.instance, j.variant)).collect();
        assert_eq!(keys, [("1", "a=c"), ("1", "b"), ("2", "a=c")]);
        assert_eq!(renamed.variants(), ["a=c", "b"]);
        assert_eq!(renamed.get(1).nodes_generated, jobs.get(1).nodes_generated);
        assert_eq!(
            (renamed.get(2).domain, renamed.get(2).size),
            (jobs.get(2).domain, jobs.get(2).size)
        );
    }

    #[test]
    fn partners_join_on_the_whole_key() {
        let a: Jobs = [job("1", "a"), job("2", "a"), job("1", "b"), job("3", "b")]
            .into_iter()
            .collect();
        let b: Jobs = [job("3", "b"), job("1", "a"), job("2", "b"), job("1", "b")]
            .into_iter()
            .collect();
        assert_eq!(a.partners(&b), [Some(1), None, Some(3), Some(0)]);
        assert_eq!(b.partners(&a), [Some(3), Some(0), None, Some(2)]);
        assert_eq!(a.partners(&Jobs::default()), [None; 4]);
    }
}
