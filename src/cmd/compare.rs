//! `idabench compare`: two runs joined job by job, their report on stdout and, with `--out`, its
//! pictures and report.html.

use crate::cmd::args::CompareArgs;
use crate::compare;
use crate::error::{Done, Error};
use crate::report;

/// Runs `idabench compare`.
pub(super) fn compare(args: CompareArgs) -> Result<Done, Error> {
    let opts = compare::CompareOptions {
        time_threshold: args.time_threshold,
        allow_node_changes: args.allow_node_changes,
        format: args.format.render(),
        pairs: args.pair.clone(),
        ..compare::CompareOptions::default()
    };
    if let Some(dir) = &args.out {
        report::check_pages_dir(dir, None)?;
    }
    let compared = compare::compared(&args.baseline, &args.current, &opts)?;
    let done = compared.write(opts.format, &mut std::io::stdout().lock())?;
    if let Some(dir) = &args.out {
        let size = args.pictures.plot_size.unwrap_or_default();
        report::after_compare(
            dir,
            &compared,
            !args.no_plots,
            &report::html::Sides::Runs,
            size,
        );
    }
    Ok(done)
}
