//! The jobs a comparison lists (its changed fields, its jobs in one run only), held as compactly
//! as the runs' jobs: names in one shared text, values as numbers, shown only when written out.
//!
//! When every job changed, the list of changes is as long as the runs: with a key of three
//! `String`s and each value as a `String`, a changed field took about 300 bytes. Here it takes
//! 40, and its job's key 24 (once for the job's consecutive fields) besides the names.

use super::jobs::{KeyNames, Names};
use super::{Field, FieldChange, JobKey, Value};

/// Job keys, in the order added.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Keys {
    names: Names,
    rows: Vec<KeyNames>,
}

impl Keys {
    pub fn push(&mut self, job: JobKey<'_>) {
        let names = self
            .names
            .add((job.dataset, job.instance, job.variant), self.rows.last());
        self.rows.push(names);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn get(&self, i: usize) -> JobKey<'_> {
        let (dataset, instance, variant) = self.names.key(&self.rows[i]);
        JobKey {
            dataset,
            instance,
            variant,
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = JobKey<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// One changed field: its job is `Changes::jobs[job]`.
#[derive(Clone, Copy, Debug)]
struct Change {
    job: u32,
    field: Field,
    baseline: Value,
    current: Value,
}

/// Changed fields, in the order added.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// Each job once for each run of consecutive changes of its fields.
    jobs: Keys,
    list: Vec<Change>,
}

impl Changes {
    pub fn push(&mut self, job: JobKey<'_>, field: Field, baseline: Value, current: Value) {
        if self.jobs.is_empty() || self.jobs.get(self.jobs.len() - 1) != job {
            self.jobs.push(job);
        }
        // At most one key for each change, and changes are fewer than the fields of the jobs
        // of a run, which `Jobs` counts in `u32`.
        let job = u32::try_from(self.jobs.len() - 1).expect("fewer than 2^32 changed jobs");
        self.list.push(Change {
            job,
            field,
            baseline,
            current,
        });
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn get(&self, i: usize) -> FieldChange<'_> {
        let c = self.list[i];
        FieldChange {
            job: self.jobs.get(c.job as usize),
            field: c.field,
            baseline: c.baseline,
            current: c.current,
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = FieldChange<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key<'a>(instance: &'a str, variant: &'a str) -> JobKey<'a> {
        JobKey {
            dataset: "d",
            instance,
            variant,
        }
    }

    #[test]
    fn keys_read_back_as_added() {
        let added = [key("1", "a"), key("1", "b"), key("2", "a"), key("1", "a")];
        let mut keys = Keys::default();
        for k in added {
            keys.push(k);
        }
        assert_eq!(keys.iter().collect::<Vec<_>>(), added);
    }

    #[test]
    fn changes_read_back_as_added() {
        let added = [
            (key("1", "a"), Field::Length, Value::Length(None)),
            (key("1", "a"), Field::NodesGenerated, Value::Count(3)),
            (key("1", "b"), Field::NodesExpanded, Value::Count(4)),
            (key("1", "a"), Field::NodesExpanded, Value::Count(5)),
        ];
        let mut changes = Changes::default();
        for (job, field, value) in added {
            changes.push(job, field, value, Value::Count(0));
        }
        let read: Vec<FieldChange> = changes.iter().collect();
        assert_eq!(read.len(), added.len());
        for (r, (job, field, value)) in read.iter().zip(added) {
            assert_eq!((r.job, r.field, r.baseline), (job, field, value));
        }
        // The first two share their job's key.
        assert_eq!(changes.jobs.len(), 3);
    }
}
