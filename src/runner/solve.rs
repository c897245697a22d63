//! One instance under one variant: the puzzle's family and the variant's heuristic become types
//! (through `Puzzle::with` and `Family::with_heuristic`) and meet in a monomorphic search
//! (`Domain::search`); the answer comes back domain-free (path as text, figures, times).

use crate::domains::max::{self, Choice};
use crate::domains::Spec;
use crate::domains::{DomainKind, Family, FieldError, Puzzle, UsePuzzle, UseSearch};
use crate::results::record::Status;
use crate::search::fsm::Automaton;
use crate::search::{self, Domain, Heuristic, Limits, Outcome, Prune, Pruning, Variant};
use crate::tables::automata;
use crate::util::clock::thread_cpu_time;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The answer to one job, with no search types left in it.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: Status,
    pub path: Option<String>,
    pub length: Option<u32>,
    /// What the path costs, in units of 1/`cost.1` (`CostModel::scale`).
    pub cost: Option<(u64, u32)>,
    pub stats: search::Stats,
    /// False when the variant cannot promise a shortest path (step 2 without a known parity).
    pub optimal_guaranteed: bool,
    /// The domain's depth cap: `OverCap` means no solution of this length or less.
    pub depth_cap: Option<u32>,
    /// The bound the search passed, past the puzzle's proven diameter (status `Error`), as
    /// `cost` gives a cost: whole units, and the scale they are units of.
    pub past_diameter: Option<(u64, u32)>,
    /// The clock whose limit stopped the search (status `TimeLimit`).
    pub limit_clock: Option<search::Clock>,
    pub wall: Duration,
    /// CPU time of the search, on every thread that worked on it.
    pub cpu: Duration,
    /// How the search was shared between threads.
    pub split: search::SplitStats,
}

/// Solves `puzzle` under `spec` and times it on this thread's clocks; an error names a heuristic
/// the domain does not have, or one that does not fit this puzzle (`Family::prepare`).
pub fn solve(puzzle: &Puzzle, spec: &Spec, limits: Limits<'_>) -> Result<Answer, String> {
    let wall = Instant::now();
    let cpu = thread_cpu_time();
    let mut answer = search(puzzle, spec, limits)?;
    answer.wall = wall.elapsed();
    answer.cpu = thread_cpu_time().saturating_sub(cpu);
    Ok(answer)
}

/// `solve` without the timing: the answer's `wall` and `cpu` are zero, for a caller that reads
/// the clocks itself.
pub(crate) fn search(puzzle: &Puzzle, spec: &Spec, limits: Limits<'_>) -> Result<Answer, String> {
    puzzle.with(Solve { spec, limits })
}

/// The shared automaton of `depth` for `d`'s moves, or why there is none.
fn automaton<F: Family>(d: &F, depth: u32) -> Result<&'static Automaton, String> {
    automata::shared(&d.fsm_moves(), d.fsm_window(), depth)
        .map_err(|e| format!("pruning fsm{depth} on {}: {e}", F::NAME))
}

/// `solve` once the family is known.
struct Solve<'a, 'l> {
    spec: &'a Spec,
    limits: Limits<'l>,
}

impl UsePuzzle for Solve<'_, '_> {
    type Output = Result<Answer, String>;

    fn with<F: Family>(self, d: &Arc<F>, start: &F::State) -> Result<Answer, String> {
        let choice = max::choose::<F>(self.spec.heuristic.name())?;
        let cost = self.spec.cost;
        max::prepare(d, &choice, cost, None).map_err(|e| e.to_string())?;
        if !cost.is_unit() && self.spec.pruning.is_fsm() {
            return Err(format!(
                "--pruning {} needs --cost unit: an automaton prunes a move sequence for an \
                 equally long one, which under --cost {} may cost more",
                self.spec.pruning.name(),
                cost.name()
            ));
        }
        let prune = match self.spec.pruning {
            Pruning::None => Prune::None,
            Pruning::Reverse => Prune::Reverse,
            Pruning::Fsm(depth) => Prune::Fsm(automaton(&**d, depth)?),
            Pruning::FsmDefault => Prune::Fsm(automaton(&**d, F::FSM_DEPTH)?),
        };
        if !d.solvable(start) {
            return Ok(unsolvable(d.solution_parity(start).is_some()));
        }
        let search = Search {
            variant: Variant {
                step: self.spec.step,
                prune,
            },
            limits: self.limits,
        };
        let scale = d.cost_scale(cost);
        let mut answer = match choice {
            Choice::One(h) if !cost.is_unit() => F::with_weighted(d, start, h, cost, search)?,
            Choice::One(h) => F::with_heuristic(d, start, h, search),
            Choice::Max(_) if !cost.is_unit() => {
                return Err(format!(
                    "a max of heuristics is searched with unit costs only, not under --cost {}",
                    cost.name()
                ))
            }
            Choice::Max(parts) => F::with_max(d, start, &parts, search),
        };
        answer.cost = answer.cost.map(|(units, _)| (units, scale));
        answer.past_diameter = answer.past_diameter.map(|(units, _)| (units, scale));
        Ok(answer)
    }
}

/// `solve` once the domain type and the heuristic are known too.
struct Search<'l> {
    variant: Variant,
    limits: Limits<'l>,
}

impl UseSearch for Search<'_> {
    type Output = Answer;

    fn with<D: Domain, H: Heuristic<D>>(self, d: &D, start: &D::State, h: &H) -> Answer {
        let r = d.search(h, start, self.variant, self.limits);
        let (status, path) = match &r.outcome {
            Outcome::Solved(p) => (Status::Solved, Some(p)),
            Outcome::Wrong(p) => (Status::Wrong, Some(p)),
            Outcome::Unsolvable => (Status::Unsolvable, None),
            Outcome::OverCap => (Status::OverCap, None),
            Outcome::PastDiameter(_) => (Status::Error, None),
            // The best solution found before the limit, if any: not proven the cheapest.
            Outcome::NodeLimit => (Status::NodeLimit, r.incumbent.as_ref()),
            Outcome::TimeLimit(_) => (Status::TimeLimit, r.incumbent.as_ref()),
            Outcome::Cancelled => (Status::Cancelled, None),
        };
        Answer {
            status,
            length: path.map(|p| p.len() as u32),
            cost: path.map(|p| (search::path_cost(d, start, p), 1)),
            path: path.map(|p| d.path_string(start, p)),
            stats: r.stats,
            optimal_guaranteed: r.optimal_guaranteed,
            depth_cap: d.depth_cap(),
            past_diameter: match r.outcome {
                Outcome::PastDiameter(diameter) => Some((u64::from(diameter), 1)),
                _ => None,
            },
            limit_clock: match r.outcome {
                Outcome::TimeLimit(clock) => Some(clock),
                _ => None,
            },
            wall: Duration::ZERO,
            cpu: Duration::ZERO,
            split: r.split,
        }
    }
}

fn unsolvable(optimal_guaranteed: bool) -> Answer {
    Answer {
        status: Status::Unsolvable,
        path: None,
        length: None,
        cost: None,
        stats: search::Stats::default(),
        optimal_guaranteed,
        depth_cap: None,
        past_diameter: None,
        limit_clock: None,
        wall: Duration::ZERO,
        cpu: Duration::ZERO,
        split: search::SplitStats::default(),
    }
}

impl Puzzle {
    /// A puzzle of any family from its fields (see `DomainKind::instance`). An error names the
    /// field at fault.
    pub fn fixed(
        kind: DomainKind,
        size: &str,
        start: &str,
        goal: Option<&str>,
    ) -> Result<Puzzle, FieldError> {
        kind.instance(None, Some(size), start, goal)
    }

    /// The size written in reports: `WxH` for tiles, the number of books, `5x5` for knights.
    pub fn size(&self) -> String {
        struct Size;
        impl UsePuzzle for Size {
            type Output = String;
            fn with<F: Family>(self, d: &Arc<F>, _: &F::State) -> String {
                d.size()
            }
        }
        self.with(Size)
    }

    /// The start state as the dataset's tokens.
    pub fn start_tokens(&self) -> String {
        struct Tokens;
        impl UsePuzzle for Tokens {
            type Output = String;
            fn with<F: Family>(self, d: &Arc<F>, start: &F::State) -> String {
                d.tokens(start)
            }
        }
        self.with(Tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset;
    use crate::domains::{HeuristicKind, HeuristicSet};
    use crate::search::fsm::{Automaton, Moves};
    use crate::search::Step;
    use std::path::Path;

    fn bundled(name: &str) -> dataset::Dataset {
        dataset::load(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("datasets")
                .join(name),
        )
        .expect("bundled dataset")
    }

    fn spec(heuristic: HeuristicKind) -> Spec {
        Spec {
            heuristic,
            step: Step::Next,
            pruning: Pruning::Reverse,
            cost: crate::domains::cost::CostModel::Unit,
        }
    }

    /// Every heuristic a family lists is the one that runs: on the bundled instances each gives
    /// the start an estimate of its own (only `zero` gives 0 everywhere), so no name falls back
    /// to blind search, and each that solves within its node limit finds the dataset's optimal
    /// length.
    #[test]
    fn every_listed_heuristic_runs_under_its_own_name() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "csv"))
            .collect();
        files.sort();
        let instances: Vec<dataset::Instance> = files
            .iter()
            .flat_map(|f| dataset::load(f).expect("bundled dataset").instances)
            .collect();
        for kind in DomainKind::ALL {
            let mine: Vec<_> = instances
                .iter()
                .filter(|i| i.domain == kind)
                .take(3)
                .collect();
            assert!(
                !mine.is_empty(),
                "datasets/ has no {} instance: every family ships a dataset",
                kind.name()
            );
            for h in kind.heuristics() {
                // The 7-8 databases take minutes and gigabytes to build: not in a unit test
                // (`runner::tile_searches::pdb` checks the code that builds them on small patterns).
                if h.name().starts_with("pdb-78") {
                    continue;
                }
                let mut estimates = Vec::new();
                for i in mine.iter().filter(|i| i.puzzle.prepare(h, None).is_ok()) {
                    let limits = Limits {
                        max_nodes: Some(300_000),
                        ..Limits::default()
                    };
                    let a = solve(&i.puzzle, &spec(h), limits).unwrap();
                    estimates.push(a.stats.initial_h);
                    if a.status == Status::Solved {
                        assert_eq!(a.length, i.optimal, "{} {} {}", kind.name(), h.name(), i.id);
                    }
                }
                // A heuristic for other boards (pdb-6666 on these 4x4 starts) has no estimates.
                if !estimates.is_empty() {
                    let blind = estimates.iter().all(|&e| e == 0);
                    assert_eq!(blind, h.name() == "zero", "{} {}", kind.name(), h.name());
                }
            }
        }
    }

    #[test]
    fn names_parse_back_and_defaults_come_first() {
        for kind in DomainKind::ALL {
            assert_eq!(DomainKind::parse(kind.name()), Some(kind));
            let names = kind.heuristics();
            assert_eq!(kind.default_heuristic(), names[0]);
            for (i, h) in names.iter().enumerate() {
                assert_eq!(HeuristicKind::parse(h.name()), Some(*h));
                assert!(kind.accepts(*h));
                assert!(
                    !names[..i].contains(h),
                    "{} twice in {}",
                    h.name(),
                    kind.name()
                );
                assert!(crate::domains::heuristic_long_help("").contains(h.name()));
            }
        }
        assert_eq!(
            HeuristicKind::parse("center").map(|h| h.name()),
            Some("center")
        );
        assert!(!DomainKind::Tiles.accepts(HeuristicKind::parse("center").unwrap()));
        assert_eq!(HeuristicKind::parse("manhatan"), None);
    }

    #[test]
    fn a_heuristic_of_another_family_is_an_error_naming_the_ones_that_apply() {
        let puzzle = &bundled("rotation.csv").instances[0].puzzle;
        let h = HeuristicKind::parse("manhattan").unwrap();
        let e = solve(puzzle, &spec(h), Limits::default()).unwrap_err();
        assert_eq!(
            e,
            "heuristic 'manhattan' does not apply to rotation: expected one of center, zero"
        );
    }

    /// The label of the move that undoes each label's move, from the moves themselves.
    fn inverse_labels(moves: &Moves) -> Vec<usize> {
        match moves {
            Moves::Walk(steps) => steps
                .iter()
                .map(|&(x, y)| steps.iter().position(|&s| s == (-x, -y)).unwrap())
                .collect(),
            Moves::Permutations(perms) => perms
                .iter()
                .map(|p| {
                    let undo: Vec<u16> = (0..p.len() as u16)
                        .map(|i| p.iter().position(|&to| to == i).unwrap() as u16)
                        .collect();
                    perms.iter().position(|q| *q == undo).unwrap()
                })
                .collect(),
        }
    }

    /// On every family, the depth-2 automaton over the labels it gives its moves (the inverses
    /// found from `Family::fsm_moves`) searches exactly as reverse-move pruning, on the type and
    /// in the kernel its runs use: labels, moves and `fsm_moves` agree.
    #[test]
    fn the_depth_2_automaton_is_reverse_move_pruning_on_every_family() {
        struct Family2;
        impl UsePuzzle for Family2 {
            type Output = (u64, Option<String>);
            fn with<F: Family>(self, d: &Arc<F>, start: &F::State) -> (u64, Option<String>) {
                let inverse = inverse_labels(&d.fsm_moves());
                let a = Box::leak(Box::new(Automaton::reverse_only(&inverse)));
                F::with_heuristic(d, start, F::Heuristics::ALL[0], Compare(a))
            }
        }
        struct Compare(&'static Automaton);
        impl UseSearch for Compare {
            type Output = (u64, Option<String>);
            fn with<D: Domain, H: Heuristic<D>>(
                self,
                d: &D,
                s: &D::State,
                h: &H,
            ) -> (u64, Option<String>) {
                let limits = Limits {
                    max_nodes: Some(3_000_000),
                    ..Limits::default()
                };
                let answer = |prune| {
                    let v = Variant {
                        step: search::Step::Next,
                        prune,
                    };
                    let r = d.search(h, s, v, limits);
                    // Within the node limit or not, the same counts to where it stopped.
                    let path = match &r.outcome {
                        Outcome::Solved(p) => Some(d.path_string(s, p)),
                        _ => None,
                    };
                    (r.stats, path)
                };
                let want = answer(Prune::Reverse);
                assert_eq!(answer(Prune::Fsm(self.0)), want);
                (want.0.generated, want.1)
            }
        }
        for (file, take) in [
            ("smoke.csv", 11),
            ("rotation.csv", 3),
            ("booksort.csv", 3),
            ("knights.csv", 3),
            ("pancake.csv", 3),
            ("burnt-pancake.csv", 3),
            ("cube2.csv", 3),
        ] {
            let mut instances = bundled(file).instances;
            instances.sort_by_key(|i| std::cmp::Reverse(i.optimal));
            let mut generated = 0;
            for i in instances.iter().take(take) {
                let (nodes, path) = i.puzzle.with(Family2);
                if let (Some(path), Some(optimal)) = (path, i.optimal) {
                    assert_eq!(path.is_empty(), optimal == 0, "{file} {}", i.id);
                }
                generated += nodes;
            }
            // Deep enough that pruning had moves to skip.
            assert!(generated > 1000, "{file}: {generated}");
        }
    }
}
