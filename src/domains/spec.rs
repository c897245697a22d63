//! A variant as runs name it: a heuristic, a threshold step and reverse-move pruning.

use super::HeuristicKind;
use crate::search::{Step, Variant};

/// One variant: heuristic, threshold step, reverse-move pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    pub heuristic: HeuristicKind,
    pub step: Step,
    pub reverse_pruning: bool,
}

impl Spec {
    /// The stable name used in reports, e.g. `manhattan/step2/prune`.
    pub fn name(&self) -> String {
        format!(
            "{}/step{}/{}",
            self.heuristic.name(),
            self.step.name(),
            if self.reverse_pruning {
                "prune"
            } else {
                "noprune"
            }
        )
    }

    /// The variant a name such as `manhattan/step2/noprune` stands for.
    pub fn parse(name: &str) -> Option<Spec> {
        let mut parts = name.split('/');
        let heuristic = parts.next()?;
        let step = parts.next()?.strip_prefix("step")?;
        let pruning = match parts.next()? {
            "prune" => "on",
            "noprune" => "off",
            _ => return None,
        };
        let spec = Spec::of_columns(heuristic, step, pruning)?;
        (parts.next().is_none() && spec.name() == name).then_some(spec)
    }

    /// The variant of a runs.csv row, from its `heuristic`, `step` and `reverse_pruning`
    /// columns: a row's variant may have been renamed (`combine --rename`), these never are.
    pub fn of_columns(heuristic: &str, step: &str, reverse_pruning: &str) -> Option<Spec> {
        Some(Spec {
            heuristic: HeuristicKind::parse(heuristic)?,
            step: Step::parse(step)?,
            reverse_pruning: match reverse_pruning {
                "on" => true,
                "off" => false,
                _ => return None,
            },
        })
    }

    /// The engine's view of the variant.
    pub fn variant(&self) -> Variant {
        Variant {
            step: self.step,
            reverse_pruning: self.reverse_pruning,
        }
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
            Spec::of_columns("manhattan", "2", "off").map(|s| s.name()),
            Some("manhattan/step2/noprune".into())
        );
        assert_eq!(Spec::of_columns("manhattan", "2", "no"), None);
    }
}
