//! `idabench ab`: its arguments as the `ab` wing's options.

use crate::ab::{self, AbOptions};
use crate::cmd::args::AbArgs;
use crate::error::{Done, Error};
use std::io::Write;

/// Runs `idabench ab`.
pub(super) fn ab(args: &AbArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    let opts = AbOptions {
        baseline: args.baseline.clone(),
        current: args.current.clone(),
        plan: args.plan.options(),
        rounds: args.rounds,
        threshold: args.threshold,
        lanes: args.jobs,
        format: args.format.render(),
        allow_node_changes: args.allow_node_changes,
        out: args.out.clone(),
        name: args.name.clone(),
        quiet: args.quiet,
        plot_size: args.pictures.plot_size.unwrap_or_default(),
    };
    ab::ab(&opts, stdout)
}
