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
                optimal: f[5].parse().unwrap(),
                korf1985_nodes: f[6].parse().unwrap(),
            }
        })
        .collect()
}

/// `run` of `heuristics` on four of Korf's easiest instances (79, 12, 42 and 55), databases in
/// `tmp`: on one thread, on two, and with every iteration split at depth 3 (`--split 3`).
/// Checks that the three write the same rows (instance, variant, heuristic, status, length,
/// optimal and the counts), and returns them, sorted; the first run is `tmp.run_dir("one")`.
pub fn counts_alike_on_one_thread_two_and_split(tmp: &super::Tmp, heuristics: &str) -> Vec<String> {
    let mut rows = String::from("id,domain,size,start,goal,optimal\n");
    for k in korf100()
        .iter()
        .filter(|k| [79, 12, 42, 55].contains(&k.id))
    {
        let row = format!(
            "{},tiles,4x4,{},{KORF_GOAL},{}\n",
            k.id, k.tokens, k.optimal
        );
        rows.push_str(&row);
    }
    let data = tmp.write("korf4.csv", &rows);
    let (pdb, out) = (tmp.at("pdb"), tmp.out());
    let run = |name: &str, extra: &[&str]| {
        let mut args = vec![
            "run",
            &data,
            "--heuristic",
            heuristics,
            "--pdb-dir",
            &pdb,
            "--out",
            &out,
            "--name",
            name,
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let out = super::idabench(tmp.path(), &args);
        assert_eq!(out.status.code(), Some(0), "{}", super::show(&out));
        let runs = tmp.run_dir(name).join("runs.csv");
        let mut rows: Vec<String> = super::csv_rows(&runs)
            .into_iter()
            .map(|r| {
                let col = |c: &str| r.get(c).cloned().unwrap_or_default();
                [
                    "instance",
                    "variant",
                    "heuristic",
                    "status",
                    "length",
                    "optimal",
                    "nodes_generated",
                    "nodes_expanded",
                    "iterations",
                ]
                .map(col)
                .join(" ")
            })
            .collect();
        rows.sort();
        rows
    };
    let one = run("one", &["--jobs", "1"]);
    assert_eq!(run("two", &["--jobs", "2"]), one);
    assert_eq!(run("split", &["--jobs", "2", "--split", "3"]), one);
    one
}
