//! Rows and manifests for the tests of the results' files.

use crate::results::record::{Manifest, Record, Status};

/// A solved 3x3 job's row.
pub(crate) fn record() -> Record {
    Record {
        dataset: "d".into(),
        instance: "1".into(),
        domain: "tiles".into(),
        size: "3x3".into(),
        variant: "manhattan/stepnext/prune".into(),
        heuristic: "manhattan".into(),
        step: "next".into(),
        reverse_pruning: "on".into(),
        pruning: "reverse".into(),
        status: Status::Solved,
        length: Some(4),
        optimal: Some(4),
        nodes_generated: 5,
        nodes_expanded: 4,
        iterations: 1,
        final_bound: 4,
        time_wall_s: 0.5,
        time_cpu_s: 0.25,
        nodes_per_s: 20.0,
        initial_h: 4,
        optimal_guaranteed: true,
        message: String::new(),
        path: "ULDR".into(),
        limit_clock: String::new(),
        repetition: 1,
        run: "smoke".into(),
        branching_factor: Some(1.0),
        bpmx_raises: 0,
        cost_model: "unit".into(),
        cost: Some(4.0),
    }
}

/// A finished run's manifest with no dataset.
pub(crate) fn manifest() -> Manifest {
    Manifest {
        idabench_version: "0.1.0".into(),
        git_commit: None,
        rustc_version: "rustc 1.95.0".into(),
        build_profile: "release".into(),
        cpu_model: "cpu".into(),
        cores: 2,
        jobs: 2,
        command_line: vec!["idabench".into(), "run".into()],
        datasets: Vec::new(),
        variants: Vec::new(),
        max_nodes: None,
        time_limit_s: None,
        time_limit_clock: Some(crate::search::Clock::Cpu),
        wall_limit_s: None,
        start_time: "2026-01-01T00:00:00Z".into(),
        end_time: "2026-01-01T00:01:00Z".into(),
        complete: Some(true),
        jobs_total: Some(2),
        jobs_missing: Some(0),
        pattern_databases: Vec::new(),
        automata: Vec::new(),
        host: None,
        shard: None,
        shards: Vec::new(),
        split: None,
        selection: Default::default(),
        peak_resident_bytes: None,
        combined: Vec::new(),
        repeat: 1,
        random_lookup_seed: None,
    }
}
