//! A search cut into subtrees for several threads (`--split`) gives the sequential answer: the
//! same status, path, length, node counts and iterations, for every domain and variant, at cut
//! depths 1 to 6 and `auto`, on 1, 2, 3 and 8 threads, and under node limits anywhere in a
//! search; `run` writes the same rows with `--split` as without. Nothing here asserts on a time.

use crate::common::{self, command, korf, rows_without_times, Tmp};
use idabench::dataset::{self, Instance};
use idabench::domains::Spec;
use idabench::domains::{DomainKind, HeuristicKind};
use idabench::runner::job::solve_shared;
use idabench::runner::solve::{solve, Answer};
use idabench::search::{Limits, Pruning, SplitDepth, SplitStats, Step};
use std::path::Path;

const THREADS: [usize; 4] = [1, 2, 3, 8];

fn pools() -> Vec<rayon::ThreadPool> {
    THREADS
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect()
}

/// Everything the two searches must agree on, as text for a readable failure.
fn summary(a: &Answer) -> String {
    format!(
        "{} {:?} {:?} {:?} optimal_guaranteed {}",
        a.status, a.length, a.path, a.stats, a.optimal_guaranteed
    )
}

fn limits(max_nodes: Option<u64>) -> Limits<'static> {
    Limits {
        max_nodes,
        ..Limits::default()
    }
}

/// How the searches were shared, added up.
#[derive(Default, Debug)]
struct Shared {
    searches: u64,
    split: SplitStats,
    /// Subtrees searched by a helper on a pool of more than one thread.
    helped: u64,
}

impl Shared {
    fn add(&mut self, s: SplitStats, threads: usize) {
        self.searches += 1;
        self.split.iterations += s.iterations;
        self.split.repeated += s.repeated;
        self.split.subtrees += s.subtrees;
        self.split.helped += s.helped;
        if threads == 1 {
            assert_eq!(s.helped, 0, "a pool of one thread has no helper");
        } else {
            self.helped += s.helped;
        }
    }
}

/// `instance` under `spec`, sequential and then split every way on every pool: the same answer.
fn check(
    instance: &Instance,
    spec: &Spec,
    max_nodes: Option<u64>,
    cuts: &[SplitDepth],
    pools: &[rayon::ThreadPool],
    shared: &mut Shared,
) {
    let alone = solve(&instance.puzzle, spec, limits(max_nodes)).unwrap();
    assert_eq!(alone.split, SplitStats::default());
    let want = summary(&alone);
    for pool in pools {
        for &cut in cuts {
            let got = pool
                .install(|| solve_shared(&instance.puzzle, spec, limits(max_nodes), Some(cut)))
                .unwrap();
            let threads = pool.current_num_threads();
            assert_eq!(
                summary(&got),
                want,
                "{} {} split {cut:?} on {threads} threads, max nodes {max_nodes:?}",
                instance.id,
                spec.name(),
            );
            shared.add(got.split, threads);
        }
    }
}

/// The deepest `take` instances of a bundled dataset.
fn deepest(file: &str, take: usize) -> Vec<Instance> {
    let path = common::dataset(&format!("{file}.csv"));
    let mut instances = dataset::load(Path::new(&path)).unwrap().instances;
    instances.sort_by_key(|i| std::cmp::Reverse(i.optimal));
    instances.truncate(take);
    instances
}

/// The heuristics of a domain that are cheap to have here: pattern databases other than 5-5-5
/// take minutes to build. Of pdb-555's, the regular and reflected lookups: the dual and random
/// ones are split in `lookups.rs` (`runs_count_alike_on_one_thread_two_and_split`).
fn heuristics(instance: &Instance) -> Vec<HeuristicKind> {
    instance
        .domain
        .heuristics()
        .into_iter()
        .filter(|h| {
            let name = h.name();
            !name.starts_with("pdb-")
                || (["pdb-555", "pdb-555+reflect"].contains(&name) && &*instance.size == "4x4")
        })
        .collect()
}

/// Every step with reverse-move pruning on and off, and Korf's step with an automaton of depth
/// `fsm` (whose state the subtrees carry).
fn variants(h: HeuristicKind, fsm: u32) -> impl Iterator<Item = Spec> {
    let fsm = Spec {
        heuristic: h,
        step: Step::Next,
        pruning: Pruning::Fsm(fsm),
        cost: idabench::domains::cost::CostModel::Unit,
    };
    Step::ALL
        .into_iter()
        .flat_map(move |step| {
            [true, false].map(|reverse_pruning| Spec {
                heuristic: h,
                step,
                pruning: Pruning::reverse(reverse_pruning),
                cost: idabench::domains::cost::CostModel::Unit,
            })
        })
        .chain([fsm])
}

#[test]
fn every_domain_and_variant_split_at_any_depth_on_any_threads_searches_as_one_thread() {
    let pools = pools();
    let cuts = [1, 2, 3, 4, 6].map(SplitDepth::Depth);
    let mut shared = Shared::default();
    for (file, take) in [
        ("smoke", 11),
        ("rotation", 4),
        ("booksort", 4),
        ("knights", 4),
        ("p1379", 4),
        ("pancake", 4),
        ("burnt-pancake", 4),
        ("cube2", 4),
    ] {
        for (i, instance) in deepest(file, take).iter().enumerate() {
            // The default depth on the tiles; the builder refuses it for domains with more moves
            // (docs/pruning.md), which get the deepest automaton it builds in about a second.
            let fsm = match instance.domain {
                DomainKind::Tiles => Pruning::DEFAULT_FSM_DEPTH,
                DomainKind::Knights => 9,
                DomainKind::Rotation => 8,
                DomainKind::Booksort => 2,
                DomainKind::Pancake | DomainKind::BurntPancake => 4,
                DomainKind::Ksolve => 4,
            };
            let specs = heuristics(instance)
                .into_iter()
                .flat_map(|h| variants(h, fsm));
            for (v, spec) in specs.enumerate() {
                // Each variant on every other instance (half the time, still each variant on
                // several instances of its domain), at two of the cuts, in turn, so that every
                // cut meets every domain.
                if (i + v) % 2 == 1 {
                    continue;
                }
                let cut = [cuts[(i + v) % cuts.len()], cuts[(i + v + 2) % cuts.len()]];
                // The limit keeps the weakest variants short, and is itself part of the check.
                check(instance, &spec, Some(100_000), &cut, &pools, &mut shared);
            }
        }
    }
    // Most cut iterations were searched in parallel, not again on one thread, and the helpers
    // took part.
    let s = shared.split;
    assert!(shared.searches > 2000, "{shared:?}");
    assert!(s.iterations > 5 * s.repeated, "{shared:?}");
    assert!(s.subtrees > 10 * shared.searches, "{shared:?}");
    assert!(shared.helped > 0, "{shared:?}");
}

/// `auto` cuts only after an iteration of a million nodes: 15-puzzle instances large enough for
/// several such iterations.
#[test]
fn auto_cuts_large_searches_and_keeps_their_answer() {
    let pools = pools();
    let d = dataset::load(Path::new(&common::dataset("korf100.csv"))).unwrap();
    let korf = korf::korf100();
    for id in [5, 2] {
        let instance = &d.instances[id - 1];
        assert!(korf[id - 1].korf1985_nodes > 1 << 20);
        let spec = Spec {
            heuristic: HeuristicKind::parse("manhattan").unwrap(),
            step: Step::Next,
            pruning: Pruning::Reverse,
            cost: idabench::domains::cost::CostModel::Unit,
        };
        let mut shared = Shared::default();
        check(
            instance,
            &spec,
            None,
            &[SplitDepth::Auto],
            &pools[1..3],
            &mut shared,
        );
        assert!(shared.split.iterations >= 2, "{shared:?}");
        assert_eq!(shared.split.repeated, 0, "{shared:?}");
        // Nor an iteration that may reach the node limit, which would be searched twice.
        let half = Some(korf[id - 1].korf1985_nodes / 2);
        let mut limited = Shared::default();
        check(
            instance,
            &spec,
            half,
            &[SplitDepth::Auto],
            &pools[1..3],
            &mut limited,
        );
        assert_eq!(limited.split.repeated, 0, "{limited:?}");
        // Alone, a thread does not cut.
        let mut alone = Shared::default();
        check(
            instance,
            &spec,
            None,
            &[SplitDepth::Auto],
            &pools[..1],
            &mut alone,
        );
        assert_eq!(alone.split, SplitStats::default());
        let answer = solve(&instance.puzzle, &spec, limits(None)).unwrap();
        assert_eq!(answer.stats.generated, korf[id - 1].korf1985_nodes);
    }
}

/// A node limit stops the split search where it stops the sequential one: the same status and
/// counts at limits before, inside and after each iteration, and at the last node.
#[test]
fn node_limits_stop_a_split_search_where_they_stop_the_sequential_one() {
    let pools = pools();
    let d = dataset::load(Path::new(&common::dataset("korf100.csv"))).unwrap();
    let instance = &d.instances[8];
    let spec = Spec {
        heuristic: HeuristicKind::parse("manhattan").unwrap(),
        step: Step::Next,
        pruning: Pruning::Reverse,
        cost: idabench::domains::cost::CostModel::Unit,
    };
    let full = solve(&instance.puzzle, &spec, limits(None)).unwrap();
    let total = full.stats.generated;
    let mut at = vec![
        1,
        2,
        3,
        17,
        1000,
        54_321,
        1 << 20,
        total - 1,
        total,
        total + 1,
    ];
    let mut sum = 0;
    for it in &full.stats.iterations {
        sum += it.generated;
        at.extend([sum - 1, sum, sum + 1]);
    }
    let cuts = [SplitDepth::Depth(2), SplitDepth::Depth(7)];
    let mut shared = Shared::default();
    for max_nodes in at {
        check(
            instance,
            &spec,
            Some(max_nodes),
            &cuts,
            &pools[1..3],
            &mut shared,
        );
    }
    assert!(shared.split.repeated > 0, "{shared:?}");
    assert!(
        shared.split.iterations > 2 * shared.split.repeated,
        "{shared:?}"
    );
}

#[test]
fn run_writes_the_same_rows_with_and_without_split() {
    let out = Tmp::new("split");
    let dataset = common::dataset("smoke.csv");
    let mut rows = Vec::new();
    for (name, split, jobs) in [
        ("off", "off", "2"),
        ("cut", "3", "3"),
        ("auto", "auto", "2"),
    ] {
        let status = command(
            out.path(),
            &[
                "run", "--quiet", "--split", split, "--jobs", jobs, "--name", name,
            ],
        )
        .args([
            "--heuristic",
            "manhattan,linear-conflict",
            "--step",
            "1,next",
        ])
        .arg("--out")
        .arg(out.path())
        .arg(&dataset)
        .output()
        .unwrap();
        assert!(status.status.success(), "{status:?}");
        rows.push(rows_without_times(&out.path().join(name)));
    }
    assert_eq!(rows[0], rows[1]);
    assert_eq!(rows[0], rows[2]);
    assert!(rows[0].len() > 10);
}

#[test]
fn a_split_that_is_not_auto_off_or_a_depth_is_a_usage_error() {
    let tmp = Tmp::new("split");
    for bad in ["0", "-1", "deep", ""] {
        let out = command(
            tmp.path(),
            &["solve", "--size", "3x3", "--start", "1 2 3 4 5 6 7 0 8"],
        )
        .arg(format!("--split={bad}"))
        .output()
        .unwrap();
        assert_eq!(out.status.code(), Some(2), "--split {bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("auto, off, or a depth"), "{err}");
    }
}
