//! `idabench generate`: a dataset of every state, uniform random states or random walks.

use super::domain_kind;
use crate::cmd::args::GenerateArgs;
use crate::dataset::generate::{self, GenerateError};
use crate::domains::tiles;
use crate::domains::DomainKind;
use crate::error::{Done, Error};
use crate::util::atomic::{self, Failure};
use crate::util::files;
use std::io::Write;
use std::path::Path;

/// Runs `idabench generate`: every argument is checked before the first row is written.
pub(super) fn generate(args: GenerateArgs) -> Result<Done, Error> {
    let kind = domain_kind(args.defined.domain())?;
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
    if let Some(path) = &args.defined.puzzle {
        if kind != DomainKind::Ksolve {
            return Err(Error::usage(format!(
                "--puzzle is for domain ksolve, not {}",
                kind.name()
            )));
        }
        if args.size.is_some() || args.goal.is_some() {
            return Err(Error::usage(
                "--size and --goal: a defined puzzle's come from its file",
            ));
        }
        let file = args
            .defined
            .read()
            .map_err(Error::usage)?
            .expect("--puzzle was given");
        let written = written_path(path, args.out.as_deref());
        let generate = |out: &mut dyn Write| generate::defined(&file, &written, &mode, out);
        return write_out(args.out.as_deref(), generate);
    }
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
    write_out(args.out.as_deref(), generate)
}

/// Runs `generate` into `out` (written whole or not at all), or to stdout.
fn write_out(
    out: Option<&Path>,
    generate: impl Fn(&mut dyn Write) -> Result<(), GenerateError>,
) -> Result<Done, Error> {
    let fail = |target: &Path, e: GenerateError| match e {
        GenerateError::Refused(message) => Error::usage(message),
        GenerateError::Write(e) => Error::io(target, e),
    };
    match out {
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

/// The definition file `puzzle` as a dataset written to `out` names it: relative to `out`'s
/// directory (to the working directory for stdout), as `puzzle` columns are read.
fn written_path(puzzle: &Path, out: Option<&Path>) -> String {
    let dir = out
        .and_then(Path::parent)
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    files::relative(dir, puzzle).display().to_string()
}
