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

    /// The engine's view of the variant.
    pub fn variant(&self) -> Variant {
        Variant {
            step: self.step,
            reverse_pruning: self.reverse_pruning,
        }
    }
}
