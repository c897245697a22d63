//! Runs and reports for the tests of compare's parts: 20 instances under 2 variants, and grids.

use super::SavedRun;
use crate::results::record::{DatasetInfo, Manifest, Record, Status};
use std::path::{Path, PathBuf};

pub(super) fn record(instance: usize, variant: &str, time_cpu_s: f64) -> Record {
    Record {
        dataset: "korf100".to_owned(),
        instance: instance.to_string(),
        domain: "tiles".to_owned(),
        size: "4x4".to_owned(),
        variant: variant.to_owned(),
        heuristic: "manhattan".to_owned(),
        step: "2".to_owned(),
        reverse_pruning: "on".to_owned(),
        pruning: "reverse".to_owned(),
        status: Status::Solved,
        length: Some(50 + instance as u32 % 7),
        optimal: Some(50 + instance as u32 % 7),
        nodes_generated: 1000 + 37 * instance as u64,
        nodes_expanded: 400 + 11 * instance as u64,
        iterations: 5,
        final_bound: 50,
        time_wall_s: time_cpu_s,
        time_cpu_s,
        nodes_per_s: 0.0,
        initial_h: 40,
        optimal_guaranteed: true,
        message: String::new(),
        path: "UDLR".to_owned(),
        limit_clock: String::new(),
        repetition: 1,
        run: "a".to_owned(),
        branching_factor: None,
        bpmx_raises: 0,
        cost_model: "unit".to_owned(),
        cost: Some(4.0),
    }
}

pub(super) const VARIANTS: [&str; 2] = ["manhattan/step2/prune", "manhattan/next/prune"];

/// 20 instances x 2 variants, with times spread over two orders of magnitude, all above the
/// default timing floor.
pub(super) fn baseline_records() -> Vec<Record> {
    VARIANTS
        .iter()
        .flat_map(|v| (1..=20).map(move |i| record(i, v, 0.01 * (i * i) as f64)))
        .collect()
}

/// `baseline_records` as a run.
pub(super) fn baseline() -> SavedRun {
    run_of(baseline_records(), "base")
}

/// A run of `records`, without a manifest.
pub(super) fn run_of(records: Vec<Record>, source: &str) -> SavedRun {
    SavedRun {
        jobs: records.into_iter().collect(),
        manifest: None,
        source: source.to_owned(),
    }
}

/// The baseline with every time multiplied by `factor(job index)`.
pub(super) fn scaled(factor: impl Fn(usize) -> f64) -> SavedRun {
    let mut records = baseline_records();
    for (i, r) in records.iter_mut().enumerate() {
        r.time_cpu_s *= factor(i);
    }
    run_of(records, "cur")
}

pub(super) fn manifest(cpu_model: &str, sha256: &str) -> Manifest {
    Manifest {
        cpu_model: cpu_model.to_owned(),
        datasets: vec![DatasetInfo {
            path: "datasets/korf100.csv".to_owned(),
            name: "korf100".to_owned(),
            sha256: sha256.to_owned(),
            instances: 20,
            puzzles: Vec::new(),
        }],
        variants: VARIANTS.map(str::to_owned).to_vec(),
        jobs_total: Some(20 * VARIANTS.len()),
        ..crate::results::fixtures::manifest()
    }
}

/// A fresh directory under the system temp dir, unique to this process and test.
pub(super) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("idabench-compare-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `run` as a report in `dir`: its jobs' figures, and `record`'s in the columns the
/// jobs do not keep.
pub(super) fn write_report(dir: &Path, run: &SavedRun) {
    let records: Vec<Record> = run
        .jobs
        .iter()
        .map(|j| Record {
            dataset: j.dataset.to_owned(),
            instance: j.instance.to_owned(),
            variant: j.variant.to_owned(),
            status: j.status,
            length: j.length,
            nodes_generated: j.nodes_generated,
            nodes_expanded: j.nodes_expanded,
            time_cpu_s: j.time_cpu_s,
            iterations: j.iterations,
            ..record(0, "", 0.0)
        })
        .collect();
    write_runs(dir, &records);
    if let Some(m) = &run.manifest {
        std::fs::write(
            dir.join("manifest.json"),
            serde_json::to_string_pretty(m).unwrap(),
        )
        .unwrap();
    }
}

/// Writes `records` as the runs.csv of `dir`.
pub(super) fn write_runs(dir: &Path, records: &[Record]) {
    let mut writer = csv::Writer::from_path(dir.join("runs.csv")).unwrap();
    for r in records {
        writer.serialize(r).unwrap();
    }
    writer.flush().unwrap();
}

/// `n` instances x `variants` variants, each job 10 ms in the baseline.
pub(super) fn grid(
    n: usize,
    variants: usize,
    factor: impl Fn(usize) -> f64,
) -> (SavedRun, SavedRun) {
    let names: Vec<String> = (0..variants).map(|v| format!("v{v}")).collect();
    let run = |factor: &dyn Fn(usize) -> f64| {
        let records = (1..=n)
            .flat_map(|i| names.iter().map(move |v| record(i, v, 0.01 * factor(i))))
            .collect();
        run_of(records, "grid")
    };
    (run(&|_| 1.0), run(&factor))
}
