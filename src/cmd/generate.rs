//! `idabench generate`: a dataset of every state, uniform random states or random walks.

use super::domain_kind;
use crate::cmd::args::GenerateArgs;
use crate::dataset::generate::{self, GenerateError};
use crate::domains::tiles;
use crate::domains::DomainKind;
use crate::error::{Done, Error};
use crate::util::atomic::{self, Failure};
use std::io::Write;
use std::path::Path;

/// Runs `idabench generate`: every argument is checked before the first row is written.
pub(super) fn generate(args: GenerateArgs) -> Result<Done, Error> {
    let kind = domain_kind(&args.domain)?;
    let mode = match (args.all, args.count, args.walk) {
        (true, _, _) => generate::Mode::All,
        (false, Some(count), None) => generate::Mode::Random {
            count,
            seed: args.seed,
        },
        (false, Some(count), Some(moves)) => generate::Mode::Walk {
            count,
            seed: args.seed,
            moves,
        },
        (false, None, _) => return Err(Error::usage("give --all or --count N")),
    };
    // Every argument is checked before the first row is written: the rows then go out as they
    // are made, so a refusal must not come after part of a dataset.
    let size = args
        .size
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if kind != DomainKind::Tiles && args.goal.is_some() {
        return Err(Error::usage(format!(
            "--goal: {} has a fixed goal",
            kind.name()
        )));
    }
    let (size_column, goal) = kind
        .generator_goal(size)
        .map_err(|(field, e)| Error::usage(format!("--{field}: {e}")))?;
    // Tiles have generators of their own: every state by BFS, uniform draws among the solvable.
    let tiles_spec = if kind == DomainKind::Tiles {
        let (width, height) = tiles::parse_size(&size_column).map_err(Error::usage)?;
        let goal = match &args.goal {
            Some(g) => tiles::parse_permutation(g, width * height)
                .map_err(|e| Error::usage(format!("--goal: {e}")))?,
            None => tiles::default_goal(width * height),
        };
        Some(generate::TilesSpec {
            width,
            height,
            goal,
        })
    } else {
        None
    };
    let generate = |out: &mut dyn Write| match &tiles_spec {
        Some(spec) => generate::tiles(spec, &mode, out),
        None => generate::fixed(kind, &size_column, &goal, &mode, out),
    };
    let fail = |target: &Path, e: GenerateError| match e {
        GenerateError::Refused(message) => Error::usage(message),
        GenerateError::Write(e) => Error::io(target, e),
    };
    match &args.out {
        None => {
            generate(&mut std::io::stdout().lock()).map_err(|e| fail(Path::new("stdout"), e))?
        }
        Some(path) => atomic::write_with(path, |file| generate(file).map_err(|e| fail(path, e)))
            .map_err(|e| match e {
                Failure::Fill(e) => e,
                Failure::Io(e) => Error::io(path, e),
            })?,
    }
    Ok(Done::Ok)
}
