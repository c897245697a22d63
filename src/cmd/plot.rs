//! `idabench plot`: a run's pictures and report.html, drawn again from its files.

use crate::cmd::args::PlotArgs;
use crate::error::{Done, Error};
use crate::report;

/// Runs `idabench plot`.
pub(super) fn plot(args: PlotArgs) -> Result<Done, Error> {
    let opts = report::PlotOptions {
        out: args.out,
        pairs: args.pair,
        size: args.pictures.plot_size.unwrap_or_default(),
    };
    report::plot(&args.report, &opts, &mut std::io::stdout().lock())
}
