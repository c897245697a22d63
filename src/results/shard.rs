//! Shards of a run: the `K/N` spec, which jobs belong to which shard, and shard_jobs.csv, the
//! file that tells `merge` where each of a shard's jobs stands in the whole run's order.

use crate::results::record::RowKey;
use crate::results::{read_file, ReportError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::Path;

/// Shard `index` of `count` (1 <= index <= count), as a manifest records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
    /// The jobs of all `count` shards together: the unsharded run's `jobs_total`.
    pub all_jobs: usize,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `--shard K/N`: (K, N) with 1 <= K <= N.
pub fn parse_spec(s: &str) -> Result<(u32, u32), String> {
    let expected = || "expected K/N with 1 <= K <= N, e.g. 2/8".to_string();
    let (k, n) = s.split_once('/').ok_or_else(expected)?;
    let number = |t: &str| t.trim().parse::<u32>().ok();
    match (number(k), number(n)) {
        (Some(k), Some(n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => Err(expected()),
    }
}

/// A job's hash for the assignment: 64-bit FNV-1a over the dataset name, the instance id and the
/// variant name (each followed by a 0 byte, so that no two keys run together), then SplitMix64's
/// finalizer, as FNV alone barely stirs its high bits for keys that differ in their last byte.
/// Written out here because std's hasher may change between Rust releases, and the assignment
/// must not.
pub fn job_hash(dataset: &str, instance: &str, variant: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [dataset, instance, variant] {
        for &b in part.as_bytes().iter().chain(&[0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The shard (1-based) of each job, given their keys (dataset, instance, variant; a job's
/// repetitions go with it, so the key has no repetition): the jobs
/// sorted by `job_hash` (ties by key) are dealt to shards 1, 2, ..., N, 1, 2, ... So shard sizes
/// differ by at most one, and a job's shard depends on the set of jobs alone: not on the order of
/// the datasets on the command line, nor on the thread count.
pub fn assign(keys: &[(&str, &str, &str)], count: u32) -> Vec<u32> {
    let mut order: Vec<(u64, usize)> = keys
        .iter()
        .enumerate()
        .map(|(i, &(d, n, v))| (job_hash(d, n, v), i))
        .collect();
    order.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| keys[a.1].cmp(&keys[b.1])));
    let mut shard = vec![0; keys.len()];
    for (dealt, &(_, i)) in order.iter().enumerate() {
        shard[i] = (dealt % count as usize) as u32 + 1;
    }
    shard
}

/// shard_jobs.csv's name in a shard's report directory.
pub const JOBS_FILE: &str = "shard_jobs.csv";

/// One line of shard_jobs.csv: a job's repetition of the shard (a shard holds every repetition
/// of its jobs) and its place in the whole run's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlannedJob {
    /// 0-based place among the rows of all shards, in the unsharded run's order.
    pub job: usize,
    pub dataset: String,
    pub instance: String,
    pub variant: String,
    /// From 1; 1 in a file written before the column existed.
    #[serde(default = "one")]
    pub repetition: u32,
}

fn one() -> u32 {
    1
}

impl PlannedJob {
    pub fn key(&self) -> RowKey<'_> {
        RowKey {
            dataset: &self.dataset,
            instance: &self.instance,
            variant: &self.variant,
            repetition: self.repetition,
        }
    }
}

/// shard_jobs.csv's bytes: a header, then `jobs` (place, and the row's key).
pub fn jobs_csv<'a>(jobs: impl IntoIterator<Item = (usize, RowKey<'a>)>) -> io::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["job", "dataset", "instance", "variant", "repetition"])?;
    for (job, key) in jobs {
        w.write_record([
            job.to_string().as_str(),
            key.dataset,
            key.instance,
            key.variant,
            key.repetition.to_string().as_str(),
        ])?;
    }
    w.flush()?;
    w.into_inner().map_err(|e| e.into_error())
}

/// Reads a shard's shard_jobs.csv; errors name the file and line.
pub fn read_jobs(path: &Path) -> Result<Vec<PlannedJob>, ReportError> {
    let bytes = read_file(path)?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let mut jobs = Vec::new();
    for row in reader.deserialize() {
        let job: PlannedJob = row.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            ReportError::Read(format!("{}:{line}: {e}", path.display()))
        })?;
        jobs.push(job);
    }
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_need_one_to_n() {
        assert_eq!(parse_spec("2/8"), Ok((2, 8)));
        assert_eq!(parse_spec("1/1"), Ok((1, 1)));
        for bad in ["0/3", "4/3", "3/0", "3", "a/b", "-1/3", "1/3/4", ""] {
            let e = parse_spec(bad).unwrap_err();
            assert!(e.contains("expected K/N with 1 <= K <= N"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_hash_is_fixed_forever() {
        // The assignment of jobs to shards must not change between releases: these values are
        // the contract (FNV-1a then SplitMix64's finalizer).
        assert_eq!(job_hash("", "", ""), 0xea84_b5f3_461f_8f55);
        assert_eq!(
            job_hash("smoke", "8p-d08", "manhattan/stepnext/prune"),
            0x5332_3fc6_dbff_8f12
        );
        assert_ne!(job_hash("ab", "", ""), job_hash("a", "b", ""));
    }

    #[test]
    fn shards_differ_by_at_most_one_job_and_ignore_the_key_order() {
        let names: Vec<String> = (0..100).map(|i| format!("i{i}")).collect();
        let keys: Vec<(&str, &str, &str)> = names
            .iter()
            .flat_map(|n| [("d", n.as_str(), "a"), ("d", n.as_str(), "b")])
            .collect();
        for count in [1, 2, 3, 7, 200, 300] {
            let shards = assign(&keys, count);
            let mut sizes = vec![0usize; count as usize];
            for &s in &shards {
                sizes[s as usize - 1] += 1;
            }
            let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(max - min <= 1, "{count}: {sizes:?}");
            let mut reversed = keys.clone();
            reversed.reverse();
            let mut again = assign(&reversed, count);
            again.reverse();
            assert_eq!(shards, again);
        }
    }
}
