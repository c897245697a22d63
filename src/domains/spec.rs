//! A variant as runs name it: a heuristic, a threshold step, a pruning (none, reverse moves, an
//! automaton of some depth) and a cost model.

use super::cost::CostModel;
use super::HeuristicKind;
use crate::search::{Pruning, Step};

/// One variant: heuristic, threshold step, pruning, move costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    pub heuristic: HeuristicKind,
    pub step: Step,
    pub pruning: Pruning,
    pub cost: CostModel,
}

impl Spec {
    /// The stable name used in reports, e.g. `manhattan/step2/prune`. Reverse-move pruning on
    /// and off keep the names they had before automata (`prune`, `noprune`); an automaton's
    /// names its depth (`fsm14`), so that a later default depth cannot change the counts under
    /// an unchanged name. Unit costs keep the names from before costs; others end in their
    /// model (`manhattan/stepnext/prune/heavy`).
    pub fn name(&self) -> String {
        let pruning = match self.pruning {
            Pruning::None => "noprune".to_string(),
            Pruning::Reverse => "prune".to_string(),
            fsm @ (Pruning::Fsm(_) | Pruning::FsmDefault) => fsm.name(),
        };
        let cost = match self.cost {
            CostModel::Unit => String::new(),
            weighted => format!("/{}", weighted.name()),
        };
        format!(
            "{}/step{}/{pruning}{cost}",
            self.heuristic.name(),
            self.step.name()
        )
    }

    /// The variant a name such as `manhattan/step2/noprune` or `pdb-78/stepnext/fsm14` stands
    /// for.
    pub fn parse(name: &str) -> Option<Spec> {
        let mut parts = name.split('/');
        let heuristic = parts.next()?;
        let step = parts.next()?.strip_prefix("step")?;
        let pruning = match parts.next()? {
            "prune" => Pruning::Reverse,
            "noprune" => Pruning::None,
            // A variant is named after its domain's depth: `fsm` alone names none.
            fsm if fsm.starts_with("fsm") => {
                Pruning::parse(fsm).filter(|p| *p != Pruning::FsmDefault)?
            }
            _ => return None,
        };
        let cost = match parts.next() {
            None => CostModel::Unit,
            Some(model) => CostModel::parse(model).filter(|c| !c.is_unit())?,
        };
        let spec = Spec {
            heuristic: HeuristicKind::parse(heuristic)?,
            step: Step::parse(step)?,
            pruning,
            cost,
        };
        (parts.next().is_none() && spec.name() == name).then_some(spec)
    }

    /// The variant of a runs.csv row, from its `heuristic`, `step`, `reverse_pruning`,
    /// `pruning` and `cost_model` columns: a row's variant may have been renamed (`combine
    /// --rename`), these never are. A row without `pruning` (written before the column) reads
    /// `reverse_pruning` alone: on is reverse, off none. The two must agree (fsm prunes reverse
    /// moves too). The column says `fsm` without the automaton's depth, which only the variant's
    /// name holds: such a row gives no variant here. A row without `cost_model` is of unit costs.
    pub fn of_columns(
        heuristic: &str,
        step: &str,
        reverse_pruning: &str,
        pruning: &str,
        cost_model: &str,
    ) -> Option<Spec> {
        let on = match reverse_pruning {
            "on" => true,
            "off" => false,
            _ => return None,
        };
        let pruning = match pruning {
            "" => {
                if on {
                    Pruning::Reverse
                } else {
                    Pruning::None
                }
            }
            "none" if !on => Pruning::None,
            "reverse" if on => Pruning::Reverse,
            _ => return None,
        };
        let cost = match cost_model {
            "" => CostModel::Unit,
            model => CostModel::parse(model)?,
        };
        Some(Spec {
            heuristic: HeuristicKind::parse(heuristic)?,
            step: Step::parse(step)?,
            pruning,
            cost,
        })
    }

    /// Whether the move that undoes the previous one is skipped: runs.csv's `reverse_pruning`.
    pub fn reverse_pruning(&self) -> bool {
        self.pruning.reverse_moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_read_back_as_their_specs() {
        for name in [
            "manhattan/step2/prune",
            "linear-conflict/stepnext/noprune",
            "zero/step1/prune",
        ] {
            assert_eq!(Spec::parse(name).map(|s| s.name()).as_deref(), Some(name));
        }
        for bad in [
            "manhattan/step3/prune",
            "manhattan/next/prune",
            "x/step1/prune",
            "manhattan/step1/prune/x",
            "manhattan/step1",
        ] {
            assert_eq!(Spec::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Spec::of_columns("manhattan", "2", "off", "", "").map(|s| s.name()),
            Some("manhattan/step2/noprune".into())
        );
        assert_eq!(Spec::of_columns("manhattan", "2", "no", "", ""), None);
    }

    /// Old names stay as they were; an automaton's depth is always in the name, and a row's
    /// columns must agree with each other.
    #[test]
    fn pruning_names_and_columns() {
        let spec = |pruning| Spec {
            heuristic: HeuristicKind::parse("manhattan").unwrap(),
            step: Step::Next,
            pruning,
            cost: CostModel::Unit,
        };
        assert_eq!(spec(Pruning::Reverse).name(), "manhattan/stepnext/prune");
        assert_eq!(spec(Pruning::None).name(), "manhattan/stepnext/noprune");
        assert_eq!(spec(Pruning::Fsm(14)).name(), "manhattan/stepnext/fsm14");
        assert_eq!(
            Spec::parse("manhattan/stepnext/fsm22"),
            Some(spec(Pruning::Fsm(22)))
        );
        for bad in [
            "manhattan/stepnext/fsm",
            "manhattan/stepnext/fsm1",
            "manhattan/stepnext/reverse",
        ] {
            assert_eq!(Spec::parse(bad), None, "{bad}");
        }
        let columns = |on, pruning| Spec::of_columns("manhattan", "next", on, pruning, "");
        assert_eq!(columns("on", ""), Some(spec(Pruning::Reverse)));
        assert_eq!(columns("off", ""), Some(spec(Pruning::None)));
        assert_eq!(columns("on", "reverse"), Some(spec(Pruning::Reverse)));
        assert_eq!(columns("off", "none"), Some(spec(Pruning::None)));
        for (on, pruning) in [
            ("off", "reverse"),
            ("on", "none"),
            ("on", "fsm"),
            ("on", "x"),
        ] {
            assert_eq!(columns(on, pruning), None, "{on} {pruning}");
        }
    }
}
