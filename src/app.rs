//! Subcommand glue: the only module that touches paths, stdout and exit codes.

use crate::atomic::{self, Failure};
use crate::batch::{self, Job};
use crate::cli::{
    Cli, Command, CompareArgs, CompareFormat, Format, GenerateArgs, LimitArgs, OnOff, RunArgs,
    SolveArgs,
};
use crate::clock;
use crate::compare;
use crate::dataset::{self, Dataset};
use crate::domains::tiles;
use crate::error::{Done, Error, EXIT_INTERRUPTED};
use crate::generate::{self, GenerateError};
use crate::judge;
use crate::record::{self, DatasetInfo, Manifest, Record, Status};
use crate::report::{self, RunsWriter};
use crate::search::Limits;
use crate::solve::{self, DomainKind, Puzzle, Spec};
use crate::text::{self, shorten};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Runs a parsed command line; the exit code on success.
pub fn run(cli: Cli) -> Result<Done, Error> {
    match cli.command {
        Command::Run(args) => run_batch(args),
        Command::Solve(args) => solve_one(args),
        Command::Compare(args) => compare_runs(args),
        Command::Generate(args) => generate_dataset(args),
    }
}

fn limits(args: &LimitArgs) -> Limits<'static> {
    Limits {
        max_nodes: args.max_nodes,
        max_time: args.time_limit.map(Duration::from_secs_f64),
        ..Limits::default()
    }
}

fn solve_one(args: SolveArgs) -> Result<Done, Error> {
    if args.format == Format::Judge || args.problem.is_some() {
        let problem = args
            .problem
            .ok_or_else(|| Error::input("--format judge needs --problem"))?;
        if args.format != Format::Judge {
            return Err(Error::input("--problem goes with --format judge"));
        }
        let input = read_judge_input()?;
        let out = judge::answer(problem, &input)
            .map_err(|e| Error::input(format!("{}: {e}", problem.name())))?;
        print!("{out}");
        return Ok(Done::Ok);
    }
    let Some(start) = &args.start else {
        return Err(Error::input("--start is required"));
    };
    let kind = domain_kind(&args.domain)?;
    if kind == DomainKind::Tiles && args.size.is_none() {
        return Err(Error::input(
            "--size: domain tiles needs WIDTHxHEIGHT, e.g. --size 4x4",
        ));
    }
    let size = args.size.as_deref().unwrap_or("");
    let puzzle = Puzzle::fixed(kind, size, start, args.goal.as_deref())
        .map_err(|(field, e)| Error::input(format!("--{field}: {e}")))?;
    let spec = Spec {
        heuristic: args.variant.heuristic.unwrap_or(kind.heuristics()[0]),
        step: args.variant.step,
        reverse_pruning: args.variant.reverse_pruning == OnOff::On,
    };
    let a = solve::solve(&puzzle, &spec, limits(&args.limits)).map_err(Error::input)?;
    let st = &a.stats;
    match args.format {
        Format::Text => {
            let opt = |v: Option<String>| v.unwrap_or_default();
            println!("status: {}", a.status);
            println!("length: {}", opt(a.length.map(|l| l.to_string())));
            println!("path: {}", opt(a.path.clone()));
            println!("nodes_generated: {}", st.generated);
            println!("nodes_expanded: {}", st.expanded);
            println!("iterations: {}", st.iterations.len());
            println!("final_bound: {}", st.final_bound);
            println!("time_s: {:.6}", a.wall.as_secs_f64());
            println!("optimal_guaranteed: {}", a.optimal_guaranteed);
        }
        Format::Judge => unreachable!("handled above"),
        Format::Json => {
            let iterations: Vec<_> = st
                .iterations
                .iter()
                .map(|i| json!({"bound": i.bound, "nodes_generated": i.generated, "nodes_expanded": i.expanded}))
                .collect();
            let out = json!({
                "status": a.status.name(),
                "length": a.length,
                "path": a.path,
                "variant": spec.name(),
                "nodes_generated": st.generated,
                "nodes_expanded": st.expanded,
                "iterations": st.iterations.len(),
                "final_bound": st.final_bound,
                "initial_h": st.initial_h,
                "time_s": a.wall.as_secs_f64(),
                "time_cpu_s": a.cpu.as_secs_f64(),
                "optimal_guaranteed": a.optimal_guaranteed,
                "per_iteration": iterations,
            });
            println!("{out:#}");
        }
    }
    Ok(Done::Ok)
}

/// Judge input on stdin, within the bounds datasets have (`text::BOUNDS`).
fn read_judge_input() -> Result<String, Error> {
    let bytes = text::read_bounded(std::io::stdin().lock(), text::BOUNDS).map_err(|e| {
        Error::input(match e.line() {
            Some(line) => format!("stdin:{line}: {e}"),
            None => format!("stdin: {e}"),
        })
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "stdin: not UTF-8 text (byte {} is not valid UTF-8)",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

fn generate_dataset(args: GenerateArgs) -> Result<Done, Error> {
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

fn domain_kind(name: &str) -> Result<DomainKind, Error> {
    DomainKind::parse(name).ok_or_else(|| {
        let known: Vec<&str> = DomainKind::ALL.iter().map(|d| d.name()).collect();
        Error::usage(format!(
            "--domain: unknown domain '{}': expected one of {}",
            shorten(name),
            known.join(", ")
        ))
    })
}

fn compare_runs(args: CompareArgs) -> Result<Done, Error> {
    let opts = compare::CompareOptions {
        time_threshold: args.time_threshold,
        allow_node_changes: args.allow_node_changes,
        format: match args.format {
            CompareFormat::Text => compare::RenderFormat::Text,
            CompareFormat::Markdown => compare::RenderFormat::Markdown,
            CompareFormat::Csv => compare::RenderFormat::Csv,
        },
        ..compare::CompareOptions::default()
    };
    compare::run(
        &args.baseline,
        &args.current,
        &opts,
        &mut std::io::stdout().lock(),
    )
}

/// Set by Ctrl-C; searches poll it.
static CANCEL: AtomicBool = AtomicBool::new(false);

fn install_ctrl_c() {
    // A second Ctrl-C leaves at once; the first lets running jobs stop and reports be written.
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        eprintln!("\ninterrupted: stopping; finished jobs are kept (rerun with --resume)");
    });
}

fn run_batch(args: RunArgs) -> Result<Done, Error> {
    let start_time = clock::rfc3339_now();
    let mut datasets: Vec<Dataset> = Vec::new();
    let mut infos = Vec::new();
    for path in &args.datasets {
        let bytes = dataset::read(path)?;
        let d = dataset::parse(path, &bytes)?;
        if let Some(other) = datasets.iter().find(|o| o.name == d.name) {
            return Err(Error::input(format!(
                "{} and {} have the same name '{}': reports key jobs by dataset name",
                other.path.display(),
                path.display(),
                d.name
            )));
        }
        infos.push(DatasetInfo {
            path: path.display().to_string(),
            name: d.name.clone(),
            sha256: hex(&Sha256::digest(&bytes)),
            instances: d.instances.len(),
        });
        datasets.push(d);
    }
    let specs = variants(&args, &datasets);
    let names: Vec<String> = specs.iter().map(Spec::name).collect();
    let mut jobs = Vec::new();
    let mut skipped = 0u64;
    for d in &datasets {
        for instance in &d.instances {
            for (spec, variant) in specs.iter().zip(&names) {
                if instance.domain.heuristics().contains(&spec.heuristic) {
                    jobs.push(Job {
                        index: jobs.len(),
                        dataset: d,
                        instance,
                        spec: *spec,
                        variant,
                    });
                } else {
                    skipped += 1;
                }
            }
        }
    }
    if jobs.is_empty() {
        return Err(Error::input(
            "no job to run: no requested heuristic applies to the datasets' domains",
        ));
    }
    if skipped > 0 && !args.quiet && !args.heuristic.is_empty() {
        eprintln!("note: {skipped} instance x variant pair(s) skipped: the heuristic does not apply to the instance's domain");
    }
    let dir = run_dir(&args)?;
    let runs_path = dir.join("runs.csv");
    let manifest_path = dir.join("manifest.json");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut manifest = Manifest {
        idabench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: git_commit(),
        rustc_version: env!("IDABENCH_RUSTC_VERSION").to_string(),
        build_profile: env!("IDABENCH_PROFILE").to_string(),
        cpu_model: cpu_model(),
        cores,
        jobs: args.jobs.map_or(cores, usize::from),
        command_line: std::env::args().collect(),
        datasets: infos,
        variants: names.clone(),
        max_nodes: args.limits.max_nodes,
        time_limit_s: args.limits.time_limit,
        start_time,
        end_time: String::new(),
    };
    let mut done: Vec<Record> = Vec::new();
    if args.resume {
        done = resume_records(&dir, &manifest)?;
        if let Ok(old) = record::read_manifest(&manifest_path) {
            manifest.start_time = old.start_time;
        }
    } else {
        fs::create_dir_all(&dir)
            .map_err(|e| Error::runtime(format!("{}: cannot create: {e}", dir.display())))?;
    }
    report::write_atomic(&manifest_path, &report::manifest_json(&manifest))
        .map_err(Error::runtime)?;
    // Every job's record, in job order; a resumed run fills in what it finished before.
    let mut slots: Vec<Option<Record>> = vec![None; jobs.len()];
    if !done.is_empty() {
        let order: HashMap<(&str, &str, &str), usize> = jobs
            .iter()
            .map(|j| {
                (
                    (j.dataset.name.as_str(), j.instance.id.as_str(), j.variant),
                    j.index,
                )
            })
            .collect();
        for r in &done {
            if let Some(&i) = order.get(&r.key()) {
                slots[i] = Some(r.clone());
            }
        }
    }
    let done: Vec<Record> = slots.iter().flatten().cloned().collect();
    let todo: Vec<Job> = jobs
        .iter()
        .filter(|j| slots[j.index].is_none())
        .copied()
        .collect();
    if args.resume && !args.quiet {
        eprintln!(
            "resuming {}: {} job(s) done, {} to run",
            dir.display(),
            done.len(),
            todo.len()
        );
    }
    // The rewritten file holds exactly the kept rows; new rows are appended to it.
    report::write_atomic(
        &runs_path,
        &report::runs_csv(&done).map_err(Error::runtime)?,
    )
    .map_err(Error::runtime)?;
    let mut writer = RunsWriter::append_to(&runs_path)
        .map_err(|e| Error::runtime(format!("{}: cannot open: {e}", runs_path.display())))?;
    install_ctrl_c();
    let opts = batch::Options {
        jobs: manifest.jobs,
        max_nodes: args.limits.max_nodes,
        time_limit: args.limits.time_limit.map(Duration::from_secs_f64),
        quiet: args.quiet,
        cancel: &CANCEL,
    };
    batch::run(&todo, &opts, |records| {
        writer.append(records.iter().map(|(_, r)| r))?;
        for (i, r) in records {
            slots[i] = Some(r);
        }
        Ok::<(), String>(())
    })
    .map_err(Error::runtime)?;
    drop(writer);
    let interrupted = CANCEL.load(Ordering::SeqCst);
    let all: Vec<Record> = slots.into_iter().flatten().collect();
    manifest.end_time = clock::rfc3339_now();
    let summary = report::summarize(&all, &names, args.limits.time_limit);
    let write = |name: &str, bytes: &[u8]| report::write_atomic(&dir.join(name), bytes);
    write("runs.csv", &report::runs_csv(&all).map_err(Error::runtime)?)
        .and_then(|_| write("summary.csv", &report::summary_csv(&summary)?))
        .and_then(|_| {
            write(
                "summary.md",
                report::summary_md(&summary, &manifest).as_bytes(),
            )
        })
        .and_then(|_| write("manifest.json", &report::manifest_json(&manifest)))
        .map_err(Error::runtime)?;
    println!("{}", report::summary_md(&summary, &manifest));
    println!("reports: {}", dir.display());
    let wrong = all.iter().filter(|r| r.status == Status::Wrong).count();
    if interrupted {
        eprintln!(
            "interrupted: {} of {} jobs done; finish with: --resume --out {} --name {}",
            all.len(),
            jobs.len(),
            args.out.display(),
            dir.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        );
        return Ok(Done::Interrupted);
    }
    if wrong > 0 {
        eprintln!("{wrong} job(s) are wrong: see the status and message columns of runs.csv");
        return Ok(Done::Wrong);
    }
    Ok(Done::Ok)
}

/// Every combination of the requested heuristics (default: the first of each domain in the
/// datasets), steps and pruning settings, in that nesting.
fn variants(args: &RunArgs, datasets: &[Dataset]) -> Vec<Spec> {
    let mut heuristics = args.heuristic.clone();
    if heuristics.is_empty() {
        for kind in DomainKind::ALL {
            let first = kind.heuristics()[0];
            let present = datasets
                .iter()
                .any(|d| d.instances.iter().any(|i| i.domain == kind));
            if present && !heuristics.contains(&first) {
                heuristics.push(first);
            }
        }
    }
    let mut specs = Vec::new();
    for &heuristic in &heuristics {
        for &step in &args.step {
            for &p in &args.reverse_pruning {
                let spec = Spec {
                    heuristic,
                    step,
                    reverse_pruning: p == OnOff::On,
                };
                if !specs.contains(&spec) {
                    specs.push(spec);
                }
            }
        }
    }
    specs
}

/// OUT/NAME; with --resume and no --name, the newest run in OUT.
fn run_dir(args: &RunArgs) -> Result<PathBuf, Error> {
    if let Some(name) = &args.name {
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return Err(Error::input(format!(
                "--name '{name}': expected a plain directory name"
            )));
        }
        let dir = args.out.join(name);
        if !args.resume && dir.join("runs.csv").exists() {
            return Err(Error::input(format!(
                "{} already holds a run: pass --resume to finish it, or choose another --name",
                dir.display()
            )));
        }
        return Ok(dir);
    }
    if !args.resume {
        // Two runs started in the same second must not share (and clobber) one directory: the
        // first free one of STAMP, STAMP-2, STAMP-3, ... is claimed by creating it.
        let fail = |dir: &Path, e: std::io::Error| {
            Error::runtime(format!("{}: cannot create: {e}", dir.display()))
        };
        fs::create_dir_all(&args.out).map_err(|e| fail(&args.out, e))?;
        let stamp = clock::compact_now();
        let mut k = 1u32;
        loop {
            let dir = match k {
                1 => args.out.join(&stamp),
                _ => args.out.join(format!("{stamp}-{k}")),
            };
            match fs::create_dir(&dir) {
                Ok(()) => return Ok(dir),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => k += 1,
                Err(e) => return Err(fail(&dir, e)),
            }
        }
    }
    newest_run(&args.out).ok_or_else(|| {
        Error::input(format!(
            "--resume: no unfinished run to resume in {}: finished runs are only resumed by name (give --name)",
            args.out.display()
        ))
    })
}

/// The newest unfinished run in `out`: one whose manifest has no end time yet (a run writes it
/// with an empty `end_time` at the start and fills it in at the end), or that has no manifest.
/// A finished run, such as a committed baseline, is never picked.
fn newest_run(out: &Path) -> Option<PathBuf> {
    let unfinished = |dir: &Path| {
        let path = dir.join("manifest.json");
        match record::read_manifest(&path) {
            Ok(m) => m.end_time.is_empty(),
            Err(_) => !path.exists(),
        }
    };
    fs::read_dir(out)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("runs.csv").is_file() && unfinished(p))
        .max_by_key(|p| {
            fs::metadata(p.join("runs.csv"))
                .and_then(|m| m.modified())
                .ok()
        })
}

/// The rows an interrupted run finished, after checking it was made with the same datasets and
/// variants. A last line cut short by a hard kill is dropped.
fn resume_records(dir: &Path, manifest: &Manifest) -> Result<Vec<Record>, Error> {
    let runs_path = dir.join("runs.csv");
    if !runs_path.is_file() {
        return Err(Error::input(format!(
            "--resume: {} does not exist: there is no run to resume there",
            runs_path.display()
        )));
    }
    if let Ok(old) = record::read_manifest(&dir.join("manifest.json")) {
        if old
            .datasets
            .iter()
            .map(|d| (&d.name, &d.sha256))
            .ne(manifest.datasets.iter().map(|d| (&d.name, &d.sha256)))
        {
            return Err(Error::input(format!(
                "--resume: {} was made from other dataset files (names or SHA-256 differ); start a new run instead",
                dir.display()
            )));
        }
        if (old.max_nodes, old.time_limit_s) != (manifest.max_nodes, manifest.time_limit_s) {
            return Err(Error::input(format!(
                "--resume: {} was made with limits {}, not {}: give the same --max-nodes and --time-limit",
                dir.display(),
                limits_text(old.max_nodes, old.time_limit_s),
                limits_text(manifest.max_nodes, manifest.time_limit_s)
            )));
        }
        if old.variants != manifest.variants {
            return Err(Error::input(format!(
                "--resume: {} was made with variants {}, not {}",
                dir.display(),
                old.variants.join(" "),
                manifest.variants.join(" ")
            )));
        }
    }
    let mut bytes = fs::read(&runs_path)
        .map_err(|e| Error::runtime(format!("{}: cannot read: {e}", runs_path.display())))?;
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        bytes.truncate(keep);
        report::write_atomic(&runs_path, &bytes).map_err(Error::runtime)?;
    }
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    record::read_runs(&runs_path).map_err(Error::input)
}

fn limits_text(max_nodes: Option<u64>, time_limit_s: Option<f64>) -> String {
    let nodes = max_nodes.map_or_else(|| "none".into(), |n| n.to_string());
    let time = time_limit_s.map_or_else(|| "none".into(), |t| t.to_string());
    format!("--max-nodes {nodes} --time-limit {time}")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The commit of the source this binary was built from (`-dirty` with uncommitted changes), as
/// recorded by build.rs; `None` when it was built outside a git checkout.
fn git_commit() -> Option<String> {
    Some(env!("IDABENCH_GIT_COMMIT"))
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}

fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
