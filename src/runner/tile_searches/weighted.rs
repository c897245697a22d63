//! Weighted moves searched as `run` and `solve` search them: every threshold policy on the
//! 8-puzzle against the cheapest costs Dijkstra finds under heavy and inverse-heavy moves, the
//! overshooting policies split against their sequential searches on weighted 15-puzzles, and the
//! bundled weighted datasets' costs against the solver.

use crate::dataset::{self, Instance};
use crate::domains::cost::CostModel;
use crate::domains::tiles::weighted_heuristics::{state_3x3, weighted_distances_3x3, STATES_3X3};
use crate::domains::{DomainKind, HeuristicKind, Puzzle, Spec};
use crate::results::record::Status;
use crate::runner::job::solve_shared;
use crate::runner::solve::{search, Answer};
use crate::search::{Factor, Limits, Pruning, SplitDepth, Step};
use crate::util::rng::Rng;
use rayon::prelude::*;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The 8-puzzle against Dijkstra

/// Which of the 8-puzzle's states a part of the oracle searches.
#[derive(Clone, Copy)]
enum Pick {
    Every,
    /// One state in this many, drawn with a seed of the part's own.
    OneIn(u64),
    /// Every state at most this many moves from the goal (misplaced and blind search grow too
    /// fast with depth for more).
    Within(u32),
}

/// One part of the oracle: a cost model, a heuristic, the policies searched and the states.
struct Part {
    model: CostModel,
    heuristic: &'static str,
    steps: &'static [Step],
    pick: Pick,
}

const HEAVY: CostModel = CostModel::Heavy;
const INVERSE: CostModel = CostModel::InverseHeavy;
const ALL: &[Step] = &Step::ALL;
/// The policies that step by the f-values found: under inverse-heavy moves 1 and 2 step by an
/// 840th of the dearest move, thousands of iterations a state.
const BY_F: &[Step] = &[
    Step::Next,
    Step::Cr(Factor::TWO),
    Step::Eda(Factor::TWO),
    Step::Bts,
];
const ONE_TWO: &[Step] = &[Step::One, Step::Two];
const OVERSHOOTING: &[Step] = &[Step::Cr(Factor::TWO), Step::Eda(Factor::TWO), Step::Bts];
const NOT_OVERSHOOTING: &[Step] = &[Step::One, Step::Two, Step::Next];

const fn part(
    model: CostModel,
    heuristic: &'static str,
    steps: &'static [Step],
    pick: Pick,
) -> Part {
    Part {
        model,
        heuristic,
        steps,
        pick,
    }
}

/// The whole oracle, for `.ci/run`: every state under heavy moves with Manhattan, every policy;
/// the rest sampled, to keep the run to about two and a half minutes on two cores. All of it
/// would take hours: misplaced tiles cost 8 to 17 ms a state and policy 24 moves or more from
/// the goal under heavy moves (over a second with next under inverse-heavy ones), and
/// inverse-heavy moves make steps 1 and 2 search thousands of iterations (docs/weighted-tiles.md).
const EVERY_STATE: &[Part] = &[
    part(HEAVY, "manhattan", ALL, Pick::Every),
    part(HEAVY, "linear-conflict", ALL, Pick::OneIn(4)),
    part(HEAVY, "misplaced", ALL, Pick::Within(16)),
    part(HEAVY, "zero", ALL, Pick::Within(10)),
    part(INVERSE, "manhattan", BY_F, Pick::OneIn(8)),
    part(INVERSE, "manhattan", ONE_TWO, Pick::OneIn(128)),
    part(INVERSE, "linear-conflict", BY_F, Pick::OneIn(16)),
    part(INVERSE, "linear-conflict", ONE_TWO, Pick::OneIn(256)),
    part(INVERSE, "misplaced", OVERSHOOTING, Pick::Within(14)),
    part(INVERSE, "misplaced", NOT_OVERSHOOTING, Pick::Within(10)),
    part(INVERSE, "zero", ALL, Pick::Within(8)),
];

/// The sample `cargo test` searches, a few seconds in all; besides, under each model and
/// heuristic sampled, the states that model makes costliest.
const SAMPLE: &[Part] = &[
    part(HEAVY, "manhattan", ALL, Pick::OneIn(512)),
    part(HEAVY, "linear-conflict", ALL, Pick::OneIn(512)),
    part(HEAVY, "misplaced", ALL, Pick::Within(12)),
    part(HEAVY, "zero", ALL, Pick::Within(7)),
    part(INVERSE, "manhattan", BY_F, Pick::OneIn(512)),
    part(INVERSE, "manhattan", ONE_TWO, Pick::OneIn(4096)),
    part(INVERSE, "linear-conflict", BY_F, Pick::OneIn(512)),
    part(INVERSE, "linear-conflict", ONE_TWO, Pick::OneIn(4096)),
    part(INVERSE, "misplaced", ALL, Pick::Within(8)),
    part(INVERSE, "zero", ALL, Pick::Within(6)),
];

#[test]
#[ignore = "the weighted 8-puzzle's oracle on every state: run by .ci/run"]
fn weighted_eight_puzzle_every_state_every_policy_finds_the_dijkstra_cost() {
    oracle(EVERY_STATE, false);
}

#[test]
fn weighted_eight_puzzle_every_policy_finds_the_dijkstra_cost_on_a_sample() {
    oracle(SAMPLE, true);
}

/// Searches the parts' states through the runner's entry and checks each answer against the
/// Dijkstra costs: solved, its cost in the model's units, equal to the cheapest where the policy
/// guarantees a cheapest path and never below it otherwise. Every policy but step 2 must
/// guarantee it; step 2 does where the domain knows the parity of every solution's cost, as the
/// weighted tiles do, and the costs check that claim.
fn oracle(parts: &[Part], costliest: bool) {
    let moves = weighted_distances_3x3(CostModel::Unit);
    let tables = [HEAVY, INVERSE].map(|m| (m, weighted_distances_3x3(m)));
    let threads = pool(rayon::current_num_threads());
    let mut searched = 0;
    for (seed, p) in parts.iter().enumerate() {
        let costs = &tables
            .iter()
            .find(|(m, _)| *m == p.model)
            .expect("a model")
            .1;
        let mut states: Vec<usize> = match p.pick {
            Pick::Every => (0..STATES_3X3).collect(),
            Pick::OneIn(n) => {
                let mut rng = Rng::new(0x3_3000 + seed as u64);
                (0..STATES_3X3).filter(|_| rng.below(n) == 0).collect()
            }
            Pick::Within(d) => (0..STATES_3X3).filter(|&i| moves[i] <= d).collect(),
        };
        if costliest && matches!(p.pick, Pick::OneIn(_)) {
            let top = *costs.iter().max().expect("states");
            states.extend((0..STATES_3X3).filter(|&i| costs[i] == top));
        }
        let heuristic = HeuristicKind::parse(p.heuristic).expect("a tiles heuristic");
        threads.install(|| {
            states
                .par_iter()
                .for_each(|&i| agrees(p.model, heuristic, p.steps, i, costs[i]))
        });
        searched += states.len() * p.steps.len();
    }
    assert!(searched > 10_000, "{searched} searches");
}

/// Searches the 8-puzzle state of index `i`, whose cheapest solution costs `cheapest`, under each
/// of `steps`.
fn agrees(model: CostModel, heuristic: HeuristicKind, steps: &[Step], i: usize, cheapest: u32) {
    let cells = state_3x3(i);
    let tokens: Vec<String> = cells.iter().map(u8::to_string).collect();
    let puzzle = Puzzle::fixed(DomainKind::Tiles, "3x3", &tokens.join(" "), None).unwrap();
    for &step in steps {
        let spec = spec(heuristic, step, model);
        let a = search(&puzzle, &spec, Limits::default()).unwrap();
        let what = format!("{} on {cells:?}", spec.name());
        assert_eq!(a.status, Status::Solved, "{what}");
        let (units, scale) = a.cost.expect("a solved search has a cost");
        assert_eq!(scale, model.scale(8).unwrap(), "{what}");
        // Every step guarantees a cheapest path here, step 2 too: the tiles know the parity
        // of every solution's cost.
        assert!(a.optimal_guaranteed, "{what}");
        assert_eq!(units, u64::from(cheapest), "{what}");
    }
}

/// A pool of the test's own, so that its parallel searches do not take the global pool's
/// threads from the other tests.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn spec(heuristic: HeuristicKind, step: Step, cost: CostModel) -> Spec {
    Spec {
        heuristic,
        step,
        pruning: Pruning::Reverse,
        cost,
    }
}

// ---------------------------------------------------------------------------------------------
// The weighted 15-puzzles

/// A bundled dataset's rows.
fn bundled(file: &str) -> Vec<Instance> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("datasets")
        .join(file);
    dataset::load(&path).unwrap().instances
}

/// Rows of the weighted datasets small enough to search many times in a test (at most a few
/// million nodes under every policy with Manhattan), by id; bts probes with a budget on
/// each.
const SMALL: [(&str, &[&str]); 2] = [
    ("heavy15.csv", &["19", "26", "36"]),
    ("inverse15.csv", &["23", "33", "67"]),
];

fn small() -> Vec<Instance> {
    SMALL
        .iter()
        .flat_map(|(file, ids)| {
            bundled(file)
                .into_iter()
                .filter(|i| ids.contains(&i.id.as_str()))
        })
        .collect()
}

/// What a split search must give as the sequential one does.
fn summary(a: &Answer) -> String {
    format!(
        "{} {:?} {:?} {:?} {:?} optimal_guaranteed {}",
        a.status, a.length, a.cost, a.path, a.stats, a.optimal_guaranteed
    )
}

/// The overshooting policies end by branch and bound below a solution found past the bound, and
/// bts gives its probes a node budget: cut into subtrees for two threads at any depth, each
/// search is still the sequential one, path, nodes and iterations. Every iteration without a
/// budget is cut (no solution lies within the cut's depth of these starts, so none is searched
/// again on one thread); a budgeted one never is, since the threads could not stop where the
/// sequential probe stops.
#[test]
fn overshooting_policies_search_alike_split_on_two_threads() {
    let pool = pool(2);
    let instances = small();
    assert_eq!(instances.len(), 6);
    let manhattan = HeuristicKind::parse("manhattan").unwrap();
    let mut helped = 0;
    for i in &instances {
        let model = i.optimal_cost.expect("a weighted row").0;
        for &step in OVERSHOOTING {
            let spec = spec(manhattan, step, model);
            let what = format!("{} {}", i.id, spec.name());
            let alone = search(&i.puzzle, &spec, Limits::default()).unwrap();
            assert_eq!(alone.status, Status::Solved, "{what}");
            let probes = alone
                .stats
                .iterations
                .iter()
                .filter(|it| it.budget.is_some())
                .count();
            assert_eq!(probes > 0, step == Step::Bts, "{what}: {probes} probes");
            let whole = alone.stats.iterations.len() - probes;
            for cut in [
                SplitDepth::Depth(1),
                SplitDepth::Depth(4),
                SplitDepth::Depth(8),
            ] {
                let got = pool
                    .install(|| solve_shared(&i.puzzle, &spec, Limits::default(), Some(cut)))
                    .unwrap();
                assert_eq!(summary(&got), summary(&alone), "{what} split {cut:?}");
                assert_eq!(got.split.iterations as usize, whole, "{what} split {cut:?}");
                assert_eq!(got.split.repeated, 0, "{what} split {cut:?}");
                helped += got.split.helped;
            }
        }
    }
    // The second thread searched subtrees.
    assert!(helped > 0);
}

/// The weighted datasets' small rows: the cost each gives is the one next with Manhattan and bts
/// with pdb-555 find, and the length the unit optimum.
#[test]
fn weighted_datasets_hold_the_costs_two_policies_and_two_heuristics_find() {
    // pdb-555's tables are built here, on a pool of this test's own (see `pool`).
    pool(1).install(datasets_agree);
}

fn datasets_agree() {
    let [manhattan, pdb] = ["manhattan", "pdb-555"].map(|h| HeuristicKind::parse(h).unwrap());
    for i in small() {
        let (model, want) = i.optimal_cost.expect("a weighted row");
        let scale = model.scale(15).unwrap();
        for spec in [
            spec(manhattan, Step::Next, model),
            spec(pdb, Step::Bts, model),
        ] {
            let a = search(&i.puzzle, &spec, Limits::default()).unwrap();
            let (units, got_scale) = a.cost.expect("solved");
            assert_eq!(got_scale, scale);
            assert_eq!(
                units,
                (want * f64::from(scale)).round() as u64,
                "{} {}",
                i.id,
                spec.name()
            );
        }
        let unit = search(
            &i.puzzle,
            &spec(pdb, Step::Next, CostModel::Unit),
            Limits::default(),
        );
        assert_eq!(unit.unwrap().length, i.optimal, "{}", i.id);
    }
}
