//! Node throughput of the search: Korf instances solved with each heuristic, every solution's
//! length asserted (criterion's elements/s are nodes generated per second), on the fixed-size 4x4
//! board that runs use and on the general board; Manhattan beside md15, the C reference (see
//! `scripts/versus-md15.sh`); and the harness's own overhead on many tiny 8-puzzle jobs, each at
//! its asserted optimal length (elements/s are jobs per second).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use idabench::dataset;
use idabench::dataset::generate::{self, Mode, TilesSpec};
use idabench::domains::tiles::{
    default_goal, parse_permutation, LinearConflict, Manhattan, Misplaced, TileState, Tiles,
    Tiles4x4,
};
use idabench::domains::HeuristicKind;
use idabench::domains::Spec;
use idabench::results::record::Status;
use idabench::runner::batch;
use idabench::runner::checkpoint::Checkpointing;
use idabench::runner::job::Job;
use idabench::search::{Domain, Heuristic, Limits, Outcome, Prune, Pruning, Step, Variant};
use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Korf's instances #79, 12, 42, 55, 97 and 2 (goal: blank first), with their optimal lengths.
const KORF: [(&str, usize); 6] = [
    ("0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15", 42),
    ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
    ("4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10", 42),
    ("13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", 41),
    ("9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3", 44),
    ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 55),
];

/// Korf's #1, 2, 4, 5, 6 and 8: md15's tree with Manhattan and step 2.
const MD15_SIX: [(&str, usize); 6] = [
    ("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", 57),
    ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 55),
    ("5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6", 56),
    ("4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0", 56),
    ("14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13", 52),
    ("12 11 15 3 8 0 4 2 6 13 9 5 14 1 10 7", 50),
];

/// Nodes of `MD15_SIX` at step 2, the starts included (md15 counts 6 fewer).
const MD15_SIX_NODES: u64 = 436_646_476;

const NEXT: Variant = Variant {
    step: Step::Next,
    prune: Prune::Reverse,
};

const TWO: Variant = Variant {
    step: Step::Two,
    prune: Prune::Reverse,
};

/// Solves every instance by `d`'s own search, asserts the lengths, and returns the nodes
/// generated in total.
fn solve_all<D: Domain, H: Heuristic<D>>(
    d: &D,
    h: &H,
    starts: &[(D::State, usize)],
    variant: Variant,
) -> u64 {
    let mut nodes = 0;
    for (s, optimal) in starts {
        let r = d.search(h, s, variant, Limits::default());
        match &r.outcome {
            Outcome::Solved(p) => assert_eq!(p.len(), *optimal),
            _ => panic!("not solved"),
        }
        nodes += r.stats.generated;
    }
    nodes
}

/// The instances on the general 4x4 board and on the fixed-size one.
#[allow(clippy::type_complexity)]
fn fifteen(
    d: &Tiles,
    fixed: &Tiles4x4,
    instances: &[(&str, usize)],
) -> (
    Vec<(TileState, usize)>,
    Vec<(<Tiles4x4 as Domain>::State, usize)>,
) {
    let general: Vec<(TileState, usize)> = instances
        .iter()
        .map(|(s, len)| (d.state(&parse_permutation(s, 16).unwrap()).unwrap(), *len))
        .collect();
    let fixed = general
        .iter()
        .map(|(s, len)| (fixed.state(s), *len))
        .collect();
    (general, fixed)
}

fn heuristics(c: &mut Criterion) {
    let goal: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &goal).unwrap();
    let fixed = Tiles4x4::new(&d);
    let manhattan = Manhattan::new(&d);
    let linear_conflict = LinearConflict::new(&d);
    let (general_starts, fixed_starts) = fifteen(&d, &fixed, &KORF);
    let mut group = c.benchmark_group("korf6");
    group.sample_size(10);
    let nodes = solve_all(&fixed, &manhattan, &fixed_starts, NEXT);
    assert_eq!(solve_all(&d, &manhattan, &general_starts, NEXT), nodes);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("manhattan", |b| {
        b.iter(|| black_box(solve_all(&fixed, &manhattan, &fixed_starts, NEXT)))
    });
    group.bench_function("manhattan-general-board", |b| {
        b.iter(|| black_box(solve_all(&d, &manhattan, &general_starts, NEXT)))
    });
    let nodes = solve_all(&fixed, &linear_conflict, &fixed_starts, NEXT);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("linear-conflict", |b| {
        b.iter(|| black_box(solve_all(&fixed, &linear_conflict, &fixed_starts, NEXT)))
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
    let nodes = solve_all(&d, &Misplaced, &hardest, NEXT);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("misplaced", |b| {
        b.iter(|| black_box(solve_all(&d, &Misplaced, &hardest, NEXT)))
    });
    group.finish();
}

/// Manhattan with step 2 on md15's six instances, and md15 itself on them when `IDABENCH_MD15`
/// names its binary (`gcc -O3 -march=native -o md15 md15.c`): one criterion run, two times of
/// the same tree, whose ratio is the ratio of nodes per second.
fn versus_md15(c: &mut Criterion) {
    let goal: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &goal).unwrap();
    let fixed = Tiles4x4::new(&d);
    let manhattan = Manhattan::new(&d);
    let (_, starts) = fifteen(&d, &fixed, &MD15_SIX);
    let mut group = c.benchmark_group("md15-six");
    group.sample_size(10);
    group.throughput(Throughput::Elements(MD15_SIX_NODES));
    group.bench_function("idabench", |b| {
        b.iter(|| assert_eq!(solve_all(&fixed, &manhattan, &starts, TWO), MD15_SIX_NODES))
    });
    if let Ok(md15) = std::env::var("IDABENCH_MD15") {
        let input: String = MD15_SIX.iter().map(|(s, _)| format!("{s}\n")).collect();
        group.bench_function("md15", |b| {
            b.iter(|| {
                let mut child = Command::new(&md15)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("IDABENCH_MD15 names a program");
                child
                    .stdin
                    .take()
                    .expect("piped")
                    .write_all(input.as_bytes())
                    .unwrap();
                let out = child.wait_with_output().unwrap();
                let total = String::from_utf8_lossy(&out.stderr);
                assert_eq!(total.trim(), format!("total {}", MD15_SIX_NODES - 6));
            })
        });
    }
    group.finish();
}

/// Every 90th of all 181,440 8-puzzle states (2,016 jobs over the distances 0 to 30, each with
/// its BFS distance as the reference length) through the batch runner on one worker: dataset
/// generation and parsing are outside the loop; job dispatch, search, timing, judging and record
/// building are inside, with checkpoints as `run` has them by default (every 60 s, none there at
/// the start). Every record must be solved at exactly its reference length.
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
        pruning: Pruning::Reverse,
        cost: idabench::domains::cost::CostModel::Unit,
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
            run: "bench",
            repetition: 1,
        })
        .collect();
    let cancel = AtomicBool::new(false);
    // As `run` does by default: jobs that may save every 60 s, in an empty folder.
    let folder = std::env::temp_dir().join(format!("idabench-bench-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let opts = batch::BatchOptions {
        jobs: 1,
        limits: Default::default(),
        split: None,
        quiet: true,
        cancel: &cancel,
        checkpoints: Some(Checkpointing::new(folder.clone(), Duration::from_secs(60)).unwrap()),
    };
    let mut group = c.benchmark_group("harness");
    group.sample_size(10);
    group.throughput(Throughput::Elements(jobs.len() as u64));
    group.bench_function("all8_every90th_jobs", |b| {
        b.iter(|| {
            // The runner judges each length against `optimal`: a different one is not `solved`.
            let judge = |finished: &batch::Finished<'_>| {
                let mut good = 0;
                let mut bad = None;
                for (_, r, _) in finished.jobs() {
                    if r.status == Status::Solved && r.optimal.is_some() && r.length == r.optimal {
                        good += 1;
                    } else if bad.is_none() {
                        bad = Some(format!(
                            "{}: status {} length {:?} optimal {:?} {}",
                            r.instance, r.status, r.length, r.optimal, r.message
                        ));
                    }
                }
                (good, bad)
            };
            let mut good = 0;
            let mut bad = None;
            batch::run(&jobs, &opts, judge, |(g, b)| {
                good += g;
                bad = bad.take().or(b);
                Ok(())
            })
            .unwrap();
            assert_eq!(bad, None);
            assert_eq!(good, jobs.len());
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&folder);
}

criterion_group!(benches, heuristics, versus_md15, harness_overhead);
criterion_main!(benches);
