//! Node throughput of the search: Korf instances solved with each heuristic, every solution's
//! length asserted (criterion's elements/s are nodes generated per second); and the harness's own
//! overhead on many tiny 8-puzzle jobs, each at its asserted optimal length (elements/s are jobs
//! per second).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use idabench::batch::{self, Job};
use idabench::dataset;
use idabench::domains::tiles::{
    default_goal, parse_permutation, LinearConflict, Manhattan, Misplaced, TileState, Tiles,
};
use idabench::domains::HeuristicKind;
use idabench::generate::{self, Mode, TilesSpec};
use idabench::record::Status;
use idabench::search::{ida_star, Heuristic, Limits, Outcome, Step, Variant};
use idabench::solve::Spec;
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Korf's instances #79, 12, 42, 55, 97 and 2 (goal: blank first), with their optimal lengths.
const KORF: [(&str, usize); 6] = [
    ("0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15", 42),
    ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
    ("4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10", 42),
    ("13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", 41),
    ("9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3", 44),
    ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 55),
];

const VARIANT: Variant = Variant {
    step: Step::Next,
    reverse_pruning: true,
};

/// Solves every instance, asserts the lengths, and returns the nodes generated in total.
fn solve_all<H: Heuristic<Tiles>>(d: &Tiles, h: &H, starts: &[(TileState, usize)]) -> u64 {
    let mut nodes = 0;
    for (s, optimal) in starts {
        let r = ida_star(d, h, s, VARIANT, Limits::default());
        match &r.outcome {
            Outcome::Solved(p) => assert_eq!(p.len(), *optimal),
            other => panic!("not solved: {other:?}"),
        }
        nodes += r.stats.generated;
    }
    nodes
}

fn heuristics(c: &mut Criterion) {
    let goal: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &goal).unwrap();
    let manhattan = Manhattan::new(&d);
    let linear_conflict = LinearConflict::new(&d);
    let starts: Vec<(TileState, usize)> = KORF
        .iter()
        .map(|(s, len)| (d.state(&parse_permutation(s, 16).unwrap()).unwrap(), *len))
        .collect();
    let mut group = c.benchmark_group("korf6");
    group.sample_size(10);
    let nodes = solve_all(&d, &manhattan, &starts);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("manhattan", |b| {
        b.iter(|| black_box(solve_all(&d, &manhattan, &starts)))
    });
    let nodes = solve_all(&d, &linear_conflict, &starts);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("linear-conflict", |b| {
        b.iter(|| black_box(solve_all(&d, &linear_conflict, &starts)))
    });
    group.finish();

    // Misplaced tiles is too weak for these; the 8-puzzle's hardest states show its throughput.
    let goal = default_goal(9);
    let d = Tiles::new(3, 3, &goal).unwrap();
    let hardest: Vec<(TileState, usize)> = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"]
        .iter()
        .map(|s| (d.state(&parse_permutation(s, 9).unwrap()).unwrap(), 31))
        .collect();
    let mut group = c.benchmark_group("eight31");
    group.sample_size(10);
    let nodes = solve_all(&d, &Misplaced, &hardest);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("misplaced", |b| {
        b.iter(|| black_box(solve_all(&d, &Misplaced, &hardest)))
    });
    group.finish();
}

/// Every 90th of all 181,440 8-puzzle states (2,016 jobs over the distances 0 to 30, each with
/// its BFS distance as the reference length) through the batch runner on one worker: dataset
/// generation and parsing are outside the loop; job dispatch, search, timing, judging and record
/// building are inside. Every record must be solved at exactly its reference length.
fn harness_overhead(c: &mut Criterion) {
    let spec = TilesSpec {
        width: 3,
        height: 3,
        goal: default_goal(9),
    };
    let mut csv = Vec::new();
    generate::tiles(&spec, &Mode::All, &mut csv).unwrap();
    let data = dataset::parse(Path::new("all8.csv"), &csv).unwrap();
    let variant = Spec {
        heuristic: HeuristicKind::parse("manhattan").expect("a tiles heuristic"),
        step: Step::Next,
        reverse_pruning: true,
    };
    let name = variant.name();
    let jobs: Vec<Job> = data
        .instances
        .iter()
        .step_by(90)
        .enumerate()
        .map(|(index, instance)| Job {
            index,
            dataset: &data,
            instance,
            spec: variant,
            variant: &name,
        })
        .collect();
    let cancel = AtomicBool::new(false);
    let opts = batch::BatchOptions {
        jobs: 1,
        max_nodes: None,
        time_limit: None,
        quiet: true,
        cancel: &cancel,
    };
    let mut group = c.benchmark_group("harness");
    group.sample_size(10);
    group.throughput(Throughput::Elements(jobs.len() as u64));
    group.bench_function("all8_every90th_jobs", |b| {
        b.iter(|| {
            // The runner judges each length against `optimal`: a different one is not `solved`.
            let mut good = 0;
            let mut bad = None;
            batch::run(&jobs, &opts, |records| {
                for (_, r) in &records {
                    if r.status == Status::Solved && r.optimal.is_some() && r.length == r.optimal {
                        good += 1;
                    } else if bad.is_none() {
                        bad = Some(format!(
                            "{}: status {} length {:?} optimal {:?} {}",
                            r.instance, r.status, r.length, r.optimal, r.message
                        ));
                    }
                }
                Ok(())
            })
            .unwrap();
            assert_eq!(bad, None);
            assert_eq!(good, jobs.len());
        })
    });
    group.finish();
}

criterion_group!(benches, heuristics, harness_overhead);
criterion_main!(benches);
