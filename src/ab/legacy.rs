//! The old-build fallback: a baseline without the worker mode and the current build run as
//! alternating `idabench run` invocations over small groups of instances.

use super::children::{output, Patience, HANDSHAKE_TIMEOUT, STALL};
use super::schedule::{baseline_first, stopped, Pair};
use super::{failed, refused};
use super::{AbOptions, BuildInfo, Measured, Role, CANCEL};
use crate::error::Error;
use crate::results::record::{self, Record};
use crate::runner::job::Job;
use crate::util::term::note;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;

/// Instances per `idabench run` invocation when the baseline has no worker mode: small enough
/// that the two builds' runs of one group stay close in time, large enough that the process
/// start of each invocation is small beside its jobs.
pub(super) const GROUP: usize = 4;

/// Every job in every round by `idabench run` invocations: groups of up to `GROUP` instances of
/// one dataset, each written as a dataset file of its own (the same name, so the rows name the
/// original dataset), run by both builds back to back. Fills in each build's commit and profile
/// from its first run's manifest. A signal or a failure stops it; the groups finished are kept.
pub(super) fn by_runs(
    opts: &AbOptions,
    jobs: &[Job<'_>],
    paths: &[PathBuf; 2],
    words: [Vec<OsString>; 2],
    rounds: usize,
    builds: &mut [BuildInfo; 2],
) -> Measured {
    let tmp = match tempfile::tempdir() {
        Ok(tmp) => tmp,
        Err(e) => return stopped(Vec::new(), Error::io(std::env::temp_dir(), e)),
    };
    let groups = match group_files(jobs, tmp.path()) {
        Ok(groups) => groups,
        Err(e) => return stopped(Vec::new(), e),
    };
    let index: HashMap<(&str, &str, &str), usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            (
                (j.dataset.name.as_str(), j.instance.id.as_str(), j.variant),
                i,
            )
        })
        .collect();
    // The plots of these small runs would be thrown away, and drawing them is time spent
    // between the two builds' runs of a group; but only a build that knows `--no-plots` may be
    // given it (a build from before the plots would refuse the flag), so each build is asked.
    let mut words = words;
    for (bin, words) in paths.iter().zip(&mut words) {
        if takes_no_plots(bin) {
            words.push("--no-plots".into());
        }
    }
    let total = rounds * groups.len();
    let mut pairs = Vec::new();
    let mut read_manifest = [true, true];
    for k in 0..total {
        if CANCEL.load(Ordering::SeqCst) {
            break;
        }
        let (round, g) = (k / groups.len(), k % groups.len());
        let first = baseline_first(round, g);
        let mut got: [Vec<Record>; 2] = [Vec::new(), Vec::new()];
        for side in if first { [0, 1] } else { [1, 0] } {
            let out = tmp.path().join(format!("r{round}-g{g}-{side}"));
            let (records, manifest) =
                match run_group(&paths[side], &groups[g], &words[side], &out, side) {
                    Ok(got) => got,
                    Err(e) => return stopped(pairs, e),
                };
            if std::mem::take(&mut read_manifest[side]) {
                if let Some(m) = manifest {
                    builds[side].commit = m.git_commit.unwrap_or_else(|| "-".to_owned());
                    builds[side].build = m.build_profile;
                }
            }
            got[side] = records;
            let _ = fs::remove_dir_all(&out);
        }
        let [base, cur] = got;
        let mut current: HashMap<usize, Record> = HashMap::new();
        for r in cur {
            if let Some(&i) = index.get(&r.job()) {
                current.insert(i, r);
            }
        }
        for b in base {
            let Some(&job) = index.get(&b.job()) else {
                continue;
            };
            if let Some(c) = current.remove(&job) {
                pairs.push(Pair::new(round, job, k * jobs.len() + job, first, [b, c]));
            }
        }
        if !opts.quiet && k + 1 < total && (k + 1) % groups.len() == 0 {
            note(format_args!("round {} of {rounds} done", round + 1));
        }
    }
    Measured { pairs, error: None }
}

/// The dataset file of each group of instances, in the plan's order.
fn group_files(jobs: &[Job<'_>], tmp: &Path) -> Result<Vec<PathBuf>, Error> {
    // Instances in plan order, each once, grouped by dataset.
    let mut instances: Vec<(&crate::dataset::Dataset, Vec<&str>)> = Vec::new();
    for job in jobs {
        let id = job.instance.id.as_str();
        match instances.last_mut() {
            Some((d, ids)) if std::ptr::eq(*d, job.dataset) => {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            _ => instances.push((job.dataset, vec![id])),
        }
    }
    let mut files = Vec::new();
    for (dataset, ids) in instances {
        let bytes = fs::read(&dataset.path).map_err(|e| Error::io(&dataset.path, e))?;
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
        let header = reader
            .headers()
            .map_err(|e| refused(format!("{}: {e}", dataset.path.display())))?
            .clone();
        let id_column = header.iter().position(|h| h.trim() == "id").unwrap_or(0);
        let rows: Vec<csv::StringRecord> = reader
            .records()
            .collect::<Result<_, _>>()
            .map_err(|e| refused(format!("{}: {e}", dataset.path.display())))?;
        for group in ids.chunks(GROUP) {
            let dir = tmp.join(format!("g{}", files.len()));
            fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let path = dir.join(format!("{}.csv", dataset.name));
            let mut writer = csv::Writer::from_writer(Vec::new());
            let mut write =
                |r: &csv::StringRecord| writer.write_record(r).map_err(|e| failed(e.to_string()));
            write(&header)?;
            for row in &rows {
                if row
                    .get(id_column)
                    .is_some_and(|id| group.contains(&id.trim()))
                {
                    write(row)?;
                }
            }
            let bytes = writer.into_inner().map_err(|e| failed(e.to_string()))?;
            fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
            files.push(path);
        }
    }
    Ok(files)
}

/// Whether `bin run` takes `--no-plots`, as its `run --help` tells.
fn takes_no_plots(bin: &Path) -> bool {
    output(
        Command::new(bin).args(["run", "--help"]),
        Patience::Deadline(HANDSHAKE_TIMEOUT),
    )
    .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("--no-plots"))
}

/// `BIN run DATASET WORDS --jobs 1 --quiet --out DIR --name runs`: its rows and manifest.
fn run_group(
    bin: &Path,
    dataset: &Path,
    words: &[OsString],
    out: &Path,
    side: usize,
) -> Result<(Vec<Record>, Option<record::Manifest>), Error> {
    let role = [Role::Baseline, Role::Current][side].name();
    let output = output(
        Command::new(bin)
            .arg("run")
            .arg(dataset)
            .args(words)
            .args(["--jobs", "1", "--quiet", "--name", "runs", "--out"])
            .arg(out),
        // Its tables may take minutes to build, its jobs their time limits each: it is given
        // as long as it works.
        Patience::Progress(STALL),
    )
    .map_err(|e| match e.kind() {
        io::ErrorKind::TimedOut => failed(format!(
            "--{role} {}: `run` of {} gave {e}: killed",
            bin.display(),
            dataset.display()
        )),
        _ => refused(format!("--{role} {}: cannot run it: {e}", bin.display())),
    })?;
    let runs = out.join("runs").join("runs.csv");
    match record::read_runs(&runs) {
        Ok(records) if !records.is_empty() => {
            let manifest = record::read_manifest(&out.join("runs").join("manifest.json")).ok();
            Ok((records, manifest))
        }
        // Rows that `compare` would refuse (a NaN time) are refused here, not reported.
        Err(e) if runs.is_file() => Err(refused(format!(
            "--{role} {}: `run` of {}: {e}",
            bin.display(),
            dataset.display()
        ))),
        _ => Err(failed(format!(
            "--{role} {}: `run` of {} gave no rows ({}): {}",
            bin.display(),
            dataset.display(),
            output.status,
            crate::util::text::shorten(String::from_utf8_lossy(&output.stderr).trim())
        ))),
    }
}
