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
    }
}

pub(super) const VARIANTS: [&str; 2] = ["manhattan/step2/prune", "manhattan/next/prune"];

/// 20 instances x 2 variants, with times spread over two orders of magnitude, all above the
/// default timing floor.
pub(super) fn baseline() -> SavedRun {
    let records = VARIANTS
        .iter()
        .flat_map(|v| (1..=20).map(move |i| record(i, v, 0.01 * (i * i) as f64)))
        .collect();
    SavedRun {
        records,
        manifest: None,
        source: "base".to_owned(),
    }
}

/// The baseline with every time multiplied by `factor(job index)`.
pub(super) fn scaled(factor: impl Fn(usize) -> f64) -> SavedRun {
    let mut run = baseline();
    for (i, r) in run.records.iter_mut().enumerate() {
        r.time_cpu_s *= factor(i);
    }
    run.source = "cur".to_owned();
    run
}

pub(super) fn manifest(cpu_model: &str, sha256: &str) -> Manifest {
    Manifest {
        cpu_model: cpu_model.to_owned(),
        datasets: vec![DatasetInfo {
            path: "datasets/korf100.csv".to_owned(),
            name: "korf100".to_owned(),
            sha256: sha256.to_owned(),
            instances: 20,
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

pub(super) fn write_report(dir: &Path, run: &SavedRun) {
    let mut writer = csv::Writer::from_path(dir.join("runs.csv")).unwrap();
    for r in &run.records {
        writer.serialize(r).unwrap();
    }
    writer.flush().unwrap();
    if let Some(m) = &run.manifest {
        std::fs::write(
            dir.join("manifest.json"),
            serde_json::to_string_pretty(m).unwrap(),
        )
        .unwrap();
    }
}

/// `n` instances x `variants` variants, each job 10 ms in the baseline.
pub(super) fn grid(
    n: usize,
    variants: usize,
    factor: impl Fn(usize) -> f64,
) -> (SavedRun, SavedRun) {
    let names: Vec<String> = (0..variants).map(|v| format!("v{v}")).collect();
    let run = |factor: &dyn Fn(usize) -> f64| SavedRun {
        records: (1..=n)
            .flat_map(|i| names.iter().map(move |v| record(i, v, 0.01 * factor(i))))
            .collect(),
        manifest: None,
        source: "grid".to_owned(),
    };
    (run(&|_| 1.0), run(&factor))
}
