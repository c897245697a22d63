//! Korf's 100 15-puzzle instances as the tests read them from the bundled dataset.

use super::dataset;
use std::fs;
use std::sync::OnceLock;

/// The goal of Korf's instances: the blank first.
pub const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

/// One row of `datasets/korf100.csv`.
pub struct Korf {
    pub id: u32,
    /// The start as the dataset writes it: tiles separated by spaces, 0 for the blank.
    pub tokens: &'static str,
    pub start: Vec<u8>,
    pub optimal: u32,
    /// Nodes generated in Korf's 1985 table.
    pub korf1985_nodes: u64,
}

/// Every instance, in the dataset's order.
pub fn korf100() -> Vec<Korf> {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| fs::read_to_string(dataset("korf100.csv")).unwrap())
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&'static str> = line.split(',').collect();
            Korf {
                id: f[0].parse().unwrap(),
                tokens: f[3],
                start: f[3].split(' ').map(|t| t.parse().unwrap()).collect(),
                optimal: f[5].parse().unwrap(),
                korf1985_nodes: f[6].parse().unwrap(),
            }
        })
        .collect()
}
