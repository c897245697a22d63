//! The `slurm` command: a bash script for Slurm that runs a study as a job array of shards
//! (`run --shard K/N`, resumed when resubmitted) and a merge job that waits for them.

use crate::cmd::args::{RunArgs, SlurmArgs};
use crate::error::{Done, Error};
use crate::runner::plan::{Loaded, PlanOptions};
use crate::runner::prepare;
use crate::util::atomic::{self, Failure};
use crate::util::clock;
use crate::util::term::note;
use crate::util::text::shorten;
use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Runs `idabench slurm`: the script goes to `--script FILE` or to `stdout`.
pub fn slurm(args: &SlurmArgs, stdout: &mut dyn Write) -> Result<Done, Error> {
    let script = script(args)?;
    match &args.script {
        None => stdout
            .write_all(script.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(|e| Error::io("stdout", e))?,
        Some(path) => {
            atomic::write_with(path, |out| out.write_all(script.as_bytes())).map_err(
                |e| match e {
                    Failure::Fill(e) | Failure::Io(e) => Error::io(path, e),
                },
            )?;
            fs::set_permissions(path, fs::Permissions::from_mode(0o755))
                .map_err(|e| Error::io(path, e))?;
            let shown = path.display();
            note(format_args!(
                "wrote {shown}: `bash {shown}` submits the {} shard(s) and the merge",
                args.shards
            ));
        }
    }
    Ok(Done::Ok)
}

/// The script's text.
fn script(args: &SlurmArgs) -> Result<String, Error> {
    let run = &args.run;
    if run.shard.is_some() || run.resume {
        return Err(Error::usage(
            "slurm: --shard and --resume are the script's own: each array task runs its shard and resumes it when resubmitted",
        ));
    }
    let jobs = run.jobs.ok_or_else(|| {
        Error::usage(
            "slurm: give --jobs N: each array task gets N CPUs (--cpus-per-task) and runs N workers",
        )
    })?;
    let name = match &run.name {
        Some(name) => name.clone(),
        None => format!("study-{}", clock::compact_now()),
    };
    if !plain(&name) {
        return Err(Error::usage(format!(
            "--name '{name}': expected letters, digits, '.', '_' and '-' only (it names Slurm jobs and directories)"
        )));
    }
    let mut directives = vec![
        format!("--job-name=idabench-{name}"),
        format!("--array=1-{}", args.shards),
        format!("--cpus-per-task={jobs}"),
        "--ntasks=1".to_string(),
    ];
    if let Some(p) = &args.partition {
        if !plain(p) && !p.split(',').all(plain) {
            return Err(Error::usage(format!(
                "--partition '{p}': expected a partition name (letters, digits, '.', '_', '-'; a comma list)"
            )));
        }
        directives.push(format!("--partition={p}"));
    }
    if let Some(t) = &args.time {
        if !slurm_time(t) {
            return Err(Error::usage(format!(
                "--time '{t}': expected HH:MM:SS (or Slurm's MM, MM:SS, D-HH, D-HH:MM, D-HH:MM:SS)"
            )));
        }
        directives.push(format!("--time={t}"));
    }
    if let Some(bytes) = run.plan.tables.memory_limit {
        directives.push(format!("--mem={}", slurm_size(bytes)));
    }
    for (flag, value) in [("account", &args.account), ("qos", &args.qos)] {
        if let Some(v) = value {
            if !plain(v) {
                return Err(Error::usage(format!(
                    "--{flag} '{}': expected a Slurm {flag} name (letters, digits, '.', '_', '-')",
                    shorten(v)
                )));
            }
            directives.push(format!("--{flag}={v}"));
        }
    }
    for arg in &args.sbatch_arg {
        if arg.trim().is_empty() || arg.chars().any(char::is_control) {
            return Err(Error::usage(format!(
                "--sbatch-arg '{}': expected one #SBATCH line's options, without a line break or \
                 another control character",
                shorten(arg)
            )));
        }
        directives.push(arg.clone());
    }
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or_else(|| "idabench".to_string());
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    // The datasets, selection and variants as each shard's `run` will read them: what it would
    // refuse before its first job (but a table it cannot have) is refused here, with its
    // message, rather than by every array task.
    let mut options = run.options();
    let loaded = Loaded::read(&options)?;
    let plan = loaded.plan(run.quiet)?;
    // Every task's `run` would refuse tables that do not fit its --mem, and automata too
    // large to build: refused here once.
    prepare::check(
        plan.jobs.iter().map(|j| (&j.instance.puzzle, j.spec)),
        |_| None,
        &options.tables,
    )?;
    // Each shard reads the ids file this plan read, or stops.
    options.select.instances_sha256 = loaded
        .selection
        .instances_file
        .as_ref()
        .map(|f| f.sha256.clone());
    let words = run_words(&options, run, jobs)?;
    let datasets = options
        .datasets
        .iter()
        .map(|d| utf8(d, "a dataset path").map(quote))
        .collect::<Result<Vec<_>, _>>()?;
    let n = args.shards;
    let sbatch: String = directives
        .iter()
        .map(|d| format!("#SBATCH {d}\n"))
        .collect();
    Ok(format!(
        r#"#!/bin/bash
# idabench study '{name}' as a Slurm job array: {n} shard(s) of `idabench run` into
# $out/{name}-shard-K, then `idabench merge` into $out/{name}. Written by `idabench slurm`
# (idabench {version}).
#
#   bash THIS                submit the array and the merge job that waits for it
#   sbatch THIS              submit the array only; merge later with `bash THIS merge`
#   sbatch --array=K THIS    run shard K again: it resumes, running only its missing jobs
#   bash THIS shard K        run shard K here (what array task K does)
#   bash THIS merge          merge the shards here
#
# IDABENCH=/path/to/idabench overrides the binary below.
{sbatch}
set -euo pipefail

idabench=${{IDABENCH:-{exe}}}
# Before the cd: $0 may be relative to where the script was started.
self=$(cd -- "$(dirname -- "$0")" && pwd)/$(basename -- "$0")
cd -- {cwd}
shards={n}
out={out_q}
name={name}

run_shard() {{
    local k=$1
    set --
    # A shard that started before (killed, timed out, requeued) is resumed, not restarted.
    if [ -e "$out/$name-shard-$k/runs.csv" ]; then set -- --resume; fi
    exec "$idabench" run {words} --name "$name-shard-$k" --shard "$k/$shards" "$@" -- {datasets}
}}

merge() {{
    local dirs=() k
    for ((k = 1; k <= shards; k++)); do dirs+=("$out/$name-shard-$k"); done
    exec "$idabench" merge "${{dirs[@]}}" --out "$out/$name"{merge_words}
}}

submit() {{
    local array merge_job
    array=$(sbatch --parsable "$self")
    array=${{array%%;*}}
    # afterany, not afterok: a shard with a wrong row exits 4 but its rows belong in the report,
    # and merge itself refuses unfinished shards, naming them. --array=0 makes the merge a single
    # task (the command line's --array replaces the one above).
    merge_job=$(sbatch --parsable --dependency="afterany:$array" --array=0 --cpus-per-task=1 \
        --job-name="idabench-$name-merge" "$self" merge)
    echo "submitted array job $array ($shards shards) and merge job ${{merge_job%%;*}}"
}}

case "${{1:-}}" in
    shard) run_shard "${{2:?usage: $0 shard K}}" ;;
    merge) merge ;;
    submit) submit ;;
    "")
        if [ -n "${{SLURM_ARRAY_TASK_ID:-}}" ]; then
            run_shard "$SLURM_ARRAY_TASK_ID"
        elif [ -n "${{SLURM_JOB_ID:-}}" ]; then
            echo "$0: not an array task: submit with 'bash $0' or 'sbatch $0'" >&2
            exit 2
        else
            submit
        fi
        ;;
    *)
        echo "usage: $0 [submit | shard K | merge]" >&2
        exit 2
        ;;
esac
"#,
        out_q = quote(utf8(&run.out, "--out")?),
        version = env!("CARGO_PKG_VERSION"),
        exe = quote(&exe),
        cwd = quote(utf8(&cwd, "the working directory")?),
        words = words.join(" "),
        datasets = datasets.join(" "),
        merge_words = picture_words(run).concat(),
    ))
}

/// The flags of each shard's `idabench run`, quoted for bash: the plan's `options`, then the
/// rest of `run`'s but for --name, --shard and --resume, which the script adds, and the
/// datasets, which it gives after `--` (a path may start with '-'). Every flag of `run` is
/// handled here (a test keeps it so).
fn run_words(options: &PlanOptions, run: &RunArgs, jobs: u16) -> Result<Vec<String>, Error> {
    let mut words = Vec::new();
    for word in options.words() {
        // Only the paths of --pdb-dir and --instances-file can be other than UTF-8.
        let word = word.into_string().map_err(|w| {
            Error::usage(format!(
                "{}: not UTF-8, so it cannot be written into a script",
                Path::new(&w).display()
            ))
        })?;
        words.push(quote(&word));
    }
    words.push(format!("--jobs {jobs}"));
    words.push(format!("--split {}", run.split.split.name()));
    // Seconds as a decimal that reads back to the same duration (0: never).
    let every = run.checkpoint.checkpoint.0.map_or(0.0, |t| t.as_secs_f64());
    words.push(format!("--checkpoint {every}"));
    if run.quiet {
        words.push("--quiet".into());
    }
    words.extend(
        picture_words(run)
            .into_iter()
            .map(|w| w.trim_start().to_owned()),
    );
    words.push("--out \"$out\"".into());
    Ok(words)
}

/// The flags of the pictures, which the shards and the merge both take, each with a space
/// before it.
fn picture_words(run: &RunArgs) -> Vec<String> {
    let mut words = Vec::new();
    if run.no_plots {
        words.push(" --no-plots".to_owned());
    }
    if let Some(size) = run.pictures.plot_size {
        words.push(format!(" --plot-size {size}"));
    }
    words
}

/// A path as text: the script is text, and a path that is not UTF-8 cannot be written into it
/// faithfully.
fn utf8<'p>(path: &'p Path, what: &str) -> Result<&'p str, Error> {
    path.to_str().ok_or_else(|| {
        Error::usage(format!(
            "{what} {}: not UTF-8, so it cannot be written into a script",
            path.display()
        ))
    })
}

/// `s` as one bash word: as it is when it holds nothing bash reads specially, else in single
/// quotes (a quote inside as '\'').
fn quote(s: &str) -> String {
    let safe = |b: u8| b.is_ascii_alphanumeric() || b"_-./:=,+@%".contains(&b);
    if !s.is_empty() && s.bytes().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A name that can go into an #SBATCH line and a directory name as it is.
fn plain(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(['-', '.'])
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// `bytes` as `--mem` reads it, always with a unit (a plain number is megabytes there): the
/// largest of T, G, M that divides it, else kibibytes rounded up.
fn slurm_size(bytes: u64) -> String {
    for (shift, unit) in [(40, 'T'), (30, 'G'), (20, 'M')] {
        if bytes.trailing_zeros() >= shift {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    format!("{}K", bytes.div_ceil(1024))
}

/// Slurm's time formats: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
fn slurm_time(t: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.len() <= 6 && s.bytes().all(|b| b.is_ascii_digit());
    let (days, clock) = match t.split_once('-') {
        Some((d, c)) => (Some(d), c),
        None => (None, t),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    days.is_none_or(digits) && parts.len() <= 3 && parts.iter().all(|p| digits(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::args::{Cli, Command};
    use clap::{CommandFactory, Parser};

    #[test]
    fn every_run_flag_reaches_the_shards() {
        // The flags run_words writes, and those the script sets itself. A flag added to `run`
        // fails here until the script passes it on.
        let handled = [
            "datasets",
            "heuristic",
            "step",
            "cost",
            "reverse_pruning",
            "pruning",
            "jobs",
            "max_nodes",
            "time_limit",
            "wall_limit",
            "memory_limit",
            "pdb_dir",
            "no_build",
            "domain",
            "size",
            "instances",
            "instances_file",
            "instances_sha256",
            "quiet",
            "no_plots",
            "plot_size",
            "split",
            "checkpoint",
            "out",
            "name",
            "shard",
            "resume",
            "repeat",
        ];
        let cli = Cli::command();
        let run = cli.find_subcommand("run").unwrap();
        for arg in run.get_arguments() {
            let id = arg.get_id().as_str();
            assert!(
                id == "help" || handled.contains(&id),
                "`run --{id}` is not passed on by the slurm script"
            );
        }
        // And each one's value: a `run` parsed back from the words the script gives every task
        // (bash's quoting undone) plans what the `run` options given to `slurm` plan, with the
        // same workers, pictures, split and repetitions.
        let sha = "ab".repeat(32);
        let given = [
            "idabench",
            "slurm",
            "--shards",
            "2",
            "--heuristic",
            "manhattan,misplaced",
            "--step",
            "1,next,cr4,eda1.5",
            "--cost",
            "unit,heavy",
            "--reverse-pruning",
            "off,on",
            "--jobs",
            "3",
            "--max-nodes",
            "12345",
            "--time-limit",
            "2.5",
            "--wall-limit",
            "9",
            "--memory-limit",
            "3M",
            "--pdb-dir",
            "/tmp/pdbs",
            "--no-build",
            "--domain",
            "tiles",
            "--size",
            "3x3,4x4",
            "--instances",
            "a?,d:b*",
            "--instances-file",
            "ids.txt",
            "--instances-sha256",
            &sha,
            "--quiet",
            "--no-plots",
            "--plot-size",
            "640x480",
            "--split",
            "7",
            "--checkpoint",
            "2.5",
            "--repeat",
            "3",
            "d1.csv",
            "d2.csv",
        ];
        let Command::Slurm(args) = Cli::try_parse_from(given).unwrap().command else {
            unreachable!("a slurm command")
        };
        let run = &args.run;
        let words = run_words(&run.options(), run, run.jobs.unwrap()).unwrap();
        let mut again: Vec<String> = vec!["idabench".into(), "run".into()];
        for word in &words {
            if word == "--out \"$out\"" {
                again.extend(["--out".into(), "o".into()]);
            } else if let Some(quoted) = word.strip_prefix('\'') {
                again.push(quoted.strip_suffix('\'').unwrap().to_owned());
            } else {
                again.extend(word.split_whitespace().map(str::to_owned));
            }
        }
        again.extend(["--".into(), "d1.csv".into(), "d2.csv".into()]);
        let Command::Run(back) = Cli::try_parse_from(&again).unwrap().command else {
            unreachable!("a run command")
        };
        assert_eq!(
            format!("{:?}", back.options()),
            format!("{:?}", run.options()),
            "{again:?}"
        );
        let each = |r: &RunArgs| {
            format!(
                "{:?} {:?} {:?} {} {} {:?}",
                r.jobs, r.split, r.checkpoint, r.quiet, r.no_plots, r.pictures.plot_size
            )
        };
        assert_eq!(each(&back), each(run));
    }

    #[test]
    fn words_are_quoted_for_bash_and_times_are_slurms() {
        assert_eq!(quote("datasets/smoke.csv"), "datasets/smoke.csv");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's $HOME"), r"'it'\''s $HOME'");
        assert_eq!(quote(""), "''");
        for ok in ["30", "30:00", "01:30:00", "2-00", "2-12:00", "2-12:00:00"] {
            assert!(slurm_time(ok), "{ok}");
        }
        for bad in ["", "1:2:3:4", "a", "1-", "-1", "01:30:00\n#SBATCH", "1 2"] {
            assert!(!slurm_time(bad), "{bad}");
        }
        assert!(plain("study-1.a_b") && !plain("a b") && !plain("-x") && !plain(""));
    }

    #[test]
    fn memory_is_written_with_its_unit() {
        assert_eq!(slurm_size(4 << 30), "4G");
        assert_eq!(slurm_size(1536 << 20), "1536M");
        assert_eq!(slurm_size(2 << 40), "2T");
        assert_eq!(slurm_size(1000), "1K");
        assert_eq!(slurm_size(1025), "2K");
    }
}
