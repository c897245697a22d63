//! Shards, `merge` and `slurm` as a user runs them: N shard processes and their merge give the
//! rows of one run; a killed shard resumes and merges to the same; shards that do not belong
//! together are refused; the Slurm script is valid bash and its parts run here. Nothing here
//! asserts on a time.

use crate::common::{assert_exit, command, idabench, show, text, Tmp};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// 8-puzzle states at several depths, in two datasets, under four variants: 40 jobs.
fn two_datasets(tmp: &Tmp) -> Vec<String> {
    let header = "id,domain,size,start,goal,optimal\n";
    let a = tmp.write(
        "alpha.csv",
        &format!(
            "{header}goal,tiles,3x3,1 2 3 4 5 6 7 8 0,,0\none,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n\
             six,tiles,3x3,4 1 3 7 2 6 0 5 8,,6\ne8,tiles,3x3,2 3 5 1 0 4 7 8 6,,8\n\
             e12,tiles,3x3,2 8 3 4 0 5 7 1 6,,12\nbad,tiles,3x3,1 2 3 4 5 6 8 7 0,,\n"
        ),
    );
    let b = tmp.write(
        "beta.csv",
        &format!(
            "{header}e16a,tiles,3x3,7 4 2 1 0 6 8 3 5,,16\ne16b,tiles,3x3,3 5 4 7 2 1 0 8 6,,16\n\
             e18a,tiles,3x3,5 2 1 4 0 3 8 6 7,,18\ne18b,tiles,3x3,2 8 5 3 0 1 4 7 6,,18\n"
        ),
    );
    vec![a, b]
}

const VARIANTS: &[&str] = &["--heuristic", "manhattan,misplaced", "--step", "1,next"];

/// `run` with `datasets`, `extra` and `--out reports --name NAME --quiet`; checks the exit code.
fn run(tmp: &Tmp, name: &str, datasets: &[String], extra: &[&str], code: i32) -> Output {
    let mut args = vec!["run"];
    args.extend(datasets.iter().map(String::as_str));
    args.extend(extra);
    args.extend(["--out", "reports", "--name", name, "--quiet"]);
    let out = idabench(tmp.path(), &args);
    assert_exit(&out, code);
    out
}

fn merge(tmp: &Tmp, dirs: &[String], extra: &[&str]) -> Output {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(String::as_str));
    args.extend(extra);
    idabench(tmp.path(), &args)
}

fn shard_dirs(name: &str, n: u32) -> Vec<String> {
    (1..=n).map(|k| format!("reports/{name}-{k}")).collect()
}

/// A CSV file's header and rows, without the columns whose name says they are measured times
/// (or rates from them), and without the run's name.
fn untimed(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let keep: Vec<usize> = headers
        .iter()
        .enumerate()
        .filter(|(_, h)| {
            !(h.starts_with("time_")
                || h.contains("per_s")
                || ["par2_s", "speedup", "speedup_instances", "run"].contains(h))
        })
        .map(|(i, _)| i)
        .collect();
    let pick = |r: &csv::StringRecord| keep.iter().map(|&i| r[i].to_string()).collect();
    let mut rows = vec![pick(&headers)];
    rows.extend(reader.records().map(|r| pick(&r.unwrap())));
    rows
}

/// runs.csv and summary.csv of two report directories are equal but for times, and their
/// iterations.csv (which holds no time) byte for byte.
fn assert_same_report(a: &Path, b: &Path) {
    for file in ["runs.csv", "summary.csv"] {
        let (x, y) = (untimed(&a.join(file)), untimed(&b.join(file)));
        assert!(x.len() > 1, "{}: no rows", a.join(file).display());
        assert_eq!(x, y, "{file} of {} and {}", a.display(), b.display());
    }
    let iterations = |dir: &Path| fs::read_to_string(dir.join("iterations.csv")).unwrap();
    let x = iterations(a);
    assert!(x.lines().count() > 1, "{}: no iterations", a.display());
    assert!(
        x == iterations(b),
        "iterations.csv of {} and {}",
        a.display(),
        b.display()
    );
}

/// Every row of a report's iterations.csv belongs to a job of its runs.csv, which has as many
/// rows as its `iterations` column counts.
fn assert_iterations_of_runs(dir: &Path) {
    let mut counts: std::collections::HashMap<Vec<String>, u64> = Default::default();
    let mut reader = csv::Reader::from_path(dir.join("iterations.csv")).unwrap();
    for r in reader.records() {
        let r = r.unwrap();
        *counts
            .entry(vec![r[0].into(), r[1].into(), r[2].into()])
            .or_default() += 1;
    }
    let mut reader = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (d, i, v, n) = (
        column("dataset"),
        column("instance"),
        column("variant"),
        column("iterations"),
    );
    for r in reader.records() {
        let r = r.unwrap();
        let key = vec![r[d].to_string(), r[i].to_string(), r[v].to_string()];
        let want: u64 = r[n].parse().unwrap();
        assert_eq!(counts.remove(&key).unwrap_or(0), want, "{key:?}");
    }
    assert!(
        counts.is_empty(),
        "rows of jobs without a runs.csv row: {counts:?}"
    );
}

/// Copies the files of directory `from` into a new directory `to`.
fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for f in fs::read_dir(from).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
    }
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The (dataset, instance, variant) of each line of a shard's shard_jobs.csv.
fn shard_keys(dir: &Path) -> BTreeSet<(String, String, String)> {
    let mut reader = csv::Reader::from_path(dir.join("shard_jobs.csv")).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[1].to_string(), r[2].to_string(), r[3].to_string())
        })
        .collect()
}

#[test]
fn shards_1_2_3_and_7_merge_to_the_rows_of_one_run() {
    let tmp = Tmp::new("merge");
    let datasets = two_datasets(&tmp);
    run(&tmp, "whole", &datasets, VARIANTS, 0);
    let whole = tmp.path().join("reports/whole");
    let total = manifest(&whole)["jobs_total"].as_u64().unwrap();
    assert_eq!(total, 40);
    for n in [1u32, 2, 3, 7] {
        let name = format!("n{n}");
        let mut sizes = Vec::new();
        for k in 1..=n {
            let spec = format!("{k}/{n}");
            let mut extra = VARIANTS.to_vec();
            extra.extend(["--shard", &spec, "--jobs", "1"]);
            run(&tmp, &format!("{name}-{k}"), &datasets, &extra, 0);
            let m = manifest(&tmp.path().join(format!("reports/{name}-{k}")));
            assert_eq!(m["shard"]["index"], k);
            assert_eq!(m["shard"]["count"], n);
            assert_eq!(m["shard"]["all_jobs"], total);
            sizes.push(m["jobs_total"].as_u64().unwrap());
        }
        // Balanced by job count: sizes differ by at most one and add up to the run's.
        assert_eq!(sizes.iter().sum::<u64>(), total, "{sizes:?}");
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        let out_dir = format!("reports/{name}");
        let out = merge(&tmp, &shard_dirs(&name, n), &["--out", &out_dir]);
        assert_exit(&out, 0);
        let merged = tmp.path().join(&out_dir);
        assert_same_report(&whole, &merged);
        // The merged rows are the merged run's, whichever shard made them.
        for file in ["runs.csv", "summary.csv"] {
            let mut reader = csv::Reader::from_path(merged.join(file)).unwrap();
            let run = reader.headers().unwrap().iter().position(|h| h == "run");
            let names: BTreeSet<String> = reader
                .records()
                .map(|r| r.unwrap()[run.expect("a `run` column")].to_owned())
                .collect();
            assert_eq!(names, BTreeSet::from([name.clone()]), "{file}");
        }
        let m = manifest(&merged);
        assert_eq!(m["complete"], true);
        assert_eq!(m["jobs_total"], total);
        assert_eq!(m["jobs_missing"], 0);
        assert!(m.get("shard").is_none());
        let shards = m["shards"].as_array().unwrap();
        assert_eq!(shards.len(), n as usize);
        for (k, s) in shards.iter().enumerate() {
            assert_eq!(s["shard"]["index"], k + 1);
            assert_eq!(s["dir"], format!("reports/{name}-{}", k + 1));
            assert!(!s["cpu_model"].as_str().unwrap().is_empty());
            assert!(!s["end_time"].as_str().unwrap().is_empty());
        }
        assert!(!merged.join("missing.csv").exists());
        let md = fs::read_to_string(merged.join("summary.md")).unwrap();
        assert!(
            md.contains(&format!("Merged from {n} shard(s) of {n}")),
            "{md}"
        );
    }
    // A job's shard depends on the jobs alone, not on the order of the datasets.
    let reversed: Vec<String> = datasets.iter().rev().cloned().collect();
    let mut extra = VARIANTS.to_vec();
    extra.extend(["--shard", "2/3"]);
    run(&tmp, "rev-2", &reversed, &extra, 0);
    assert_eq!(
        shard_keys(&tmp.path().join("reports/rev-2")),
        shard_keys(&tmp.path().join("reports/n3-2"))
    );
    // Merging again into the same directory replaces the earlier merge.
    let out = merge(&tmp, &shard_dirs("n2", 2), &["--out", "reports/n2"]);
    assert_exit(&out, 0);
    // But never a run that is not a merge, nor a shard.
    let out = merge(&tmp, &shard_dirs("n2", 2), &["--out", "reports/whole"]);
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("already holds a run that is not a merge"));
    let out = merge(&tmp, &shard_dirs("n2", 2), &["--out", "reports/n2-1"]);
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("is one of the shards"));
}

/// 15-puzzle random walks that misplaced tiles takes tens of milliseconds each to give up on:
/// long enough to kill a shard between two of its jobs.
fn slow_dataset(tmp: &Tmp) -> String {
    let out = idabench(
        tmp.path(),
        &[
            "generate", "--domain", "tiles", "--size", "4x4", "--count", "24", "--seed", "5",
            "--walk", "60", "--out", "slow.csv",
        ],
    );
    assert_exit(&out, 0);
    "slow.csv".to_string()
}

const SLOW: &[&str] = &[
    "--heuristic",
    "misplaced",
    "--max-nodes",
    "10000000",
    "--jobs",
    "1",
];

#[test]
fn a_killed_shard_resumes_and_still_merges_to_the_same_rows() {
    let tmp = Tmp::new("kill");
    let data = vec![slow_dataset(&tmp)];
    run(&tmp, "whole", &data, SLOW, 0);
    let mut extra = SLOW.to_vec();
    extra.extend(["--shard", "2/2"]);
    run(&tmp, "k-2", &data, &extra, 0);

    // Shard 1 is killed (SIGKILL: no report written) once it has a row or two.
    let last = extra.len() - 1;
    extra[last] = "1/2";
    let mut args = vec!["run", "slow.csv"];
    args.extend(&extra);
    args.extend(["--out", "reports", "--name", "k-1", "--quiet"]);
    let mut child = command(tmp.path(), &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let runs = tmp.path().join("reports/k-1/runs.csv");
    // Ends: the shard either writes its rows or exits.
    while fs::read_to_string(&runs).map_or(0, |t| t.lines().count()) < 2 {
        let exited = child.try_wait().unwrap();
        assert!(
            exited.is_none(),
            "the shard ended ({exited:?}) before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let m = manifest(&tmp.path().join("reports/k-1"));
    assert_eq!(m["end_time"], "", "the shard ended before it was killed");

    // Unfinished: refused, naming the shard and its missing jobs.
    let dirs = shard_dirs("k", 2);
    let out = merge(&tmp, &dirs, &["--out", "reports/k"]);
    assert_exit(&out, 2);
    let e = text(&out.stderr);
    assert!(e.contains("reports/k-1 (shard 1/2) is unfinished"), "{e}");
    assert!(e.contains("(slow, "), "{e}");
    // With --allow-missing: a report that says what is missing.
    let out = merge(&tmp, &dirs, &["--out", "reports/k", "--allow-missing"]);
    assert_exit(&out, 0);
    let merged = tmp.path().join("reports/k");
    let m = manifest(&merged);
    assert_eq!(m["complete"], false);
    let missing = m["jobs_missing"].as_u64().unwrap();
    assert!(missing > 0);
    assert_iterations_of_runs(&merged);
    let listed = fs::read_to_string(merged.join("missing.csv")).unwrap();
    assert_eq!(listed.lines().count() as u64, missing + 1, "{listed}");
    assert!(listed.starts_with("dataset,instance,variant,shard,repetition\n"));
    assert!(fs::read_to_string(merged.join("summary.md"))
        .unwrap()
        .contains(&format!(
            "**Incomplete merge: {missing} of 24 jobs are missing"
        )));

    // The merged report is not a run to resume.
    let mut again = SLOW.to_vec();
    again.push("--resume");
    let out = run(&tmp, "k", &data, &again, 2);
    assert!(
        text(&out.stderr).contains("is a merge of shards"),
        "{}",
        show(&out)
    );
    // Resumed, it merges to the whole run's rows, and the merge replaces the incomplete one.
    let mut resume = extra.clone();
    resume.push("--resume");
    run(&tmp, "k-1", &data, &resume, 0);
    let out = merge(&tmp, &dirs, &["--out", "reports/k"]);
    assert_exit(&out, 0);
    assert_same_report(&tmp.path().join("reports/whole"), &merged);
    assert!(!merged.join("missing.csv").exists());
    assert_eq!(manifest(&merged)["complete"], true);

    // --resume must name the same shard.
    let mut other = SLOW.to_vec();
    other.extend(["--shard", "2/2", "--resume"]);
    let out = run(&tmp, "k-1", &data, &other, 2);
    assert!(
        text(&out.stderr).contains("is shard 1/2 of a run of 24 jobs, not shard 2/2"),
        "{}",
        show(&out)
    );
    let out = run(&tmp, "whole", &data, &other, 2);
    assert!(text(&out.stderr).contains("is a whole run (no --shard)"));
}

#[test]
fn shards_that_do_not_belong_together_are_refused() {
    let tmp = Tmp::new("refuse");
    let datasets = two_datasets(&tmp);
    for k in 1..=3 {
        let spec = format!("{k}/3");
        let mut extra = VARIANTS.to_vec();
        extra.extend(["--shard", spec.as_str()]);
        run(&tmp, &format!("s-{k}"), &datasets, &extra, 0);
    }
    // Shard 3 of the same names but another alpha.csv.
    fs::create_dir_all(tmp.path().join("other")).unwrap();
    let changed = fs::read_to_string(tmp.path().join("alpha.csv")).unwrap()
        + "extra,tiles,3x3,1 2 3 4 5 6 7 8 0,,0\n";
    fs::write(tmp.path().join("other/alpha.csv"), changed).unwrap();
    let mut extra = VARIANTS.to_vec();
    extra.extend(["--shard", "3/3"]);
    run(
        &tmp,
        "x-3",
        &["other/alpha.csv".into(), datasets[1].clone()],
        &extra,
        0,
    );
    // A merge into m of the shards `names` under reports/: refused (exit 2), saying each of `says`.
    let refused = |names: &[&str], says: &[&str]| {
        let dirs: Vec<String> = names.iter().map(|n| format!("reports/{n}")).collect();
        let out = merge(&tmp, &dirs, &["--out", "m"]);
        assert_exit(&out, 2);
        let stderr = text(&out.stderr);
        assert!(
            says.iter().all(|s| stderr.contains(s)),
            "{names:?}: {}",
            show(&out)
        );
    };
    refused(
        &["s-1", "s-2", "x-3"],
        &["reports/s-1 (shard 1/3) and reports/x-3 (shard 3/3) are not shards of one run (different datasets)"],
    );
    // Other variants or limits.
    let mut extra = vec!["--heuristic", "manhattan", "--shard", "3/3"];
    run(&tmp, "v-3", &datasets, &extra, 0);
    refused(&["s-1", "s-2", "v-3"], &["(different variants)"]);
    extra = VARIANTS.to_vec();
    extra.extend(["--max-nodes", "1000000", "--shard", "3/3"]);
    run(&tmp, "l-3", &datasets, &extra, 0);
    refused(&["s-1", "s-2", "l-3"], &["(different limits)"]);
    // A shard given twice; a shard absent; a directory that is no shard.
    refused(&["s-1", "s-2", "s-2"], &["are the same shard"]);
    refused(
        &["s-1", "s-3"],
        &["shard(s) 2 of 3 are not among the directories given"],
    );
    run(&tmp, "plain", &datasets, VARIANTS, 0);
    refused(&["s-1", "plain"], &["not a shard"]);
    // A shard whose iterations.csv lacks a row of one of its jobs.
    let lost = tmp.path().join("reports/lost-3");
    copy_dir(&tmp.path().join("reports/s-3"), &lost);
    let rows = fs::read_to_string(lost.join("iterations.csv")).unwrap();
    let second = rows.lines().nth(1).unwrap().to_string();
    fs::write(
        lost.join("iterations.csv"),
        rows.replacen(&format!("{second}\n"), "", 1),
    )
    .unwrap();
    refused(
        &["s-1", "s-2", "lost-3"],
        &[
            "reports/lost-3 (shard 3/3): iterations.csv holds",
            "resume the shard",
        ],
    );
    // A job that two shards hold (a shard_jobs.csv edited by hand).
    let two = tmp.path().join("reports/s-2/shard_jobs.csv");
    let first_line = fs::read_to_string(tmp.path().join("reports/s-1/shard_jobs.csv"))
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let mut jobs = fs::read_to_string(&two).unwrap();
    let at = jobs.find('\n').unwrap() + 1;
    let end = at + jobs[at..].find('\n').unwrap() + 1;
    jobs.replace_range(at..end, &format!("{first_line}\n"));
    fs::write(&two, jobs).unwrap();
    refused(
        &["s-1", "s-2", "s-3"],
        &["reports/s-1 (shard 1/3) and reports/s-2 (shard 2/3) both hold 1 job(s): ("],
    );
    // A refused merge leaves no directory behind.
    assert!(!tmp.path().join("m").exists());
    // A shard of another build; a manifest whose shard cannot be one (it must not size the merge).
    let copy = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let to = tmp.path().join("reports").join(name);
        copy_dir(&tmp.path().join("reports/s-3"), &to);
        let mut m = manifest(&to);
        edit(&mut m);
        fs::write(to.join("manifest.json"), m.to_string()).unwrap();
    };
    copy("debug-3", &|m| m["build_profile"] = "debug".into());
    refused(&["s-1", "s-2", "debug-3"], &["(different build)"]);
    for (name, field, value) in [
        (
            "huge-3",
            "all_jobs",
            serde_json::json!(100_000_000_000_000_000u64),
        ),
        ("many-3", "count", serde_json::json!(4_000_000_000u32)),
        ("zero-3", "index", serde_json::json!(0)),
    ] {
        copy(name, &|m| m["shard"][field] = value.clone());
        refused(&["s-1", "s-2", name], &["cannot hold"]);
    }
    // Bad shard specs are usage errors.
    for bad in ["0/3", "4/3", "3", "1/0"] {
        let out = idabench(tmp.path(), &["run", &datasets[0], "--shard", bad]);
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains("expected K/N with 1 <= K <= N"),
            "{}",
            show(&out)
        );
    }
}

/// A shard without iterations.csv (removed, or from an idabench before the file): refused
/// (exit 2) naming it; with --allow-missing, the merged iterations.csv keeps every other
/// shard's rows, and the note says whose are missing.
#[test]
fn a_shard_without_iterations_is_refused_unless_allowed_and_the_others_are_kept() {
    let tmp = Tmp::new("no-iterations");
    let datasets = two_datasets(&tmp);
    run(&tmp, "whole", &datasets, VARIANTS, 0);
    for k in 1..=3 {
        let spec = format!("{k}/3");
        let mut extra = VARIANTS.to_vec();
        extra.extend(["--shard", spec.as_str()]);
        run(&tmp, &format!("s-{k}"), &datasets, &extra, 0);
    }
    fs::remove_file(tmp.path().join("reports/s-2/iterations.csv")).unwrap();
    let dirs = shard_dirs("s", 3);
    let out = merge(&tmp, &dirs, &["--out", "m"]);
    assert_exit(&out, 2);
    let e = text(&out.stderr);
    assert!(
        e.contains("reports/s-2 (shard 2/3) has no iterations.csv")
            && e.contains("--allow-missing"),
        "{}",
        show(&out)
    );
    assert!(!tmp.path().join("m").exists());

    let out = merge(&tmp, &dirs, &["--out", "m", "--allow-missing"]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("reports/s-2 (shard 2/3) has no iterations.csv"),
        "{}",
        show(&out)
    );
    let merged = tmp.path().join("m");
    assert_eq!(
        untimed(&merged.join("runs.csv")),
        untimed(&tmp.path().join("reports/whole/runs.csv"))
    );
    // The whole run's iteration rows, but those of shard 2's jobs, in the same order.
    let without = shard_keys(&tmp.path().join("reports/s-2"));
    let whole = fs::read_to_string(tmp.path().join("reports/whole/iterations.csv")).unwrap();
    let kept: String = whole
        .lines()
        .filter(|line| {
            let f: Vec<&str> = line.split(',').collect();
            !without.contains(&(f[0].into(), f[1].into(), f[2].into()))
        })
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(kept.lines().count() > 1 && kept.len() < whole.len());
    assert_eq!(
        fs::read_to_string(merged.join("iterations.csv")).unwrap(),
        kept
    );
}

fn bash(cwd: &Path, script: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(script).args(args).current_dir(cwd);
    for (k, v) in env {
        c.env(k, v);
    }
    c.env_remove("SLURM_JOB_ID");
    c.output().expect("run bash")
}

#[test]
fn the_slurm_script_is_valid_bash_and_its_tasks_and_merge_run_here() {
    let tmp = Tmp::new("slurm");
    let datasets = two_datasets(&tmp);
    let limited: Vec<&str> = VARIANTS
        .iter()
        .copied()
        .chain(["--max-nodes", "300000"])
        .collect();
    run(&tmp, "whole", &datasets, &limited, 0);
    let mut args = vec!["slurm"];
    args.extend(datasets.iter().map(String::as_str));
    args.extend(&limited);
    args.extend([
        "--jobs",
        "2",
        "--split",
        "3",
        "--out",
        "reports",
        "--name",
        "study",
        "--shards",
        "3",
        "--partition",
        "short",
        "--time",
        "00:10:00",
        "--script",
        "study.sbatch",
    ]);
    let out = idabench(tmp.path(), &args);
    assert_exit(&out, 0);
    let script = fs::read_to_string(tmp.path().join("study.sbatch")).unwrap();
    for line in [
        "#SBATCH --array=1-3\n",
        "#SBATCH --cpus-per-task=2\n",
        "#SBATCH --partition=short\n",
        "#SBATCH --time=00:10:00\n",
    ] {
        assert!(script.contains(line), "{line}{script}");
    }
    let check = Command::new("bash")
        .args(["-n", "study.sbatch"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_exit(&check, 0);
    // Printed, it is the same script.
    args.truncate(args.len() - 2);
    let printed = idabench(tmp.path(), &args);
    assert_exit(&printed, 0);
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), script);

    // Each array task, as Slurm starts it, then the merge, from another directory.
    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    for k in ["1", "2", "3"] {
        let out = bash(
            &elsewhere,
            "../study.sbatch",
            &[],
            &[("SLURM_ARRAY_TASK_ID", k)],
        );
        assert_exit(&out, 0);
    }
    // A task submitted again resumes its finished shard.
    let out = bash(&elsewhere, "../study.sbatch", &["shard", "2"], &[]);
    assert_exit(&out, 0);
    assert!(text(&out.stderr).contains("resuming"), "{}", show(&out));
    let out = bash(&elsewhere, "../study.sbatch", &["merge"], &[]);
    assert_exit(&out, 0);
    assert_same_report(
        &tmp.path().join("reports/whole"),
        &tmp.path().join("reports/study"),
    );
    let shard = manifest(&tmp.path().join("reports/study-shard-2"));
    assert_eq!(shard["jobs"], 2);
    assert_eq!(shard["split"], "3");
    assert_eq!(shard["max_nodes"], 300000);

    // Submitting: the array, then a merge that waits for it (an sbatch that only logs).
    let bin = tmp.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    let log = tmp.path().join("sbatch.log");
    fs::write(
        bin.join("sbatch"),
        format!(
            "#!/bin/bash\necho \"$*\" >> '{}'\necho '4242;cluster'\n",
            log.display()
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(bin.join("sbatch"))
        .status()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = bash(&elsewhere, "../study.sbatch", &[], &[("PATH", &path)]);
    assert_exit(&out, 0);
    let script_path = tmp.path().join("study.sbatch").canonicalize().unwrap();
    let script_path = script_path.display();
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        format!(
            "--parsable {script_path}\n--parsable --dependency=afterany:4242 --array=0 --cpus-per-task=1 --job-name=idabench-study-merge {script_path} merge\n"
        )
    );

    // What the script cannot carry, or decides itself, is refused.
    for (extra, says) in [
        (vec!["--shards", "2"], "give --jobs N"),
        (
            vec!["--shards", "2", "--jobs", "1", "--partition", "a b"],
            "--partition 'a b'",
        ),
        (
            vec!["--shards", "2", "--jobs", "1", "--time", "10 min"],
            "--time '10 min'",
        ),
        (
            vec!["--shards", "2", "--jobs", "1", "--shard", "1/2"],
            "--shard and --resume",
        ),
        (
            vec!["--shards", "2", "--jobs", "1", "--name", "a b"],
            "--name 'a b'",
        ),
    ] {
        let mut args = vec!["slurm", datasets[0].as_str()];
        args.extend(extra);
        let out = idabench(tmp.path(), &args);
        assert_exit(&out, 2);
        assert!(text(&out.stderr).contains(says), "{says}: {}", show(&out));
    }
}

/// The limits and the cluster's own settings in the script: each task's `run` gets the time,
/// wall and memory limits, and #SBATCH asks for the memory (always with its unit: Slurm reads a
/// plain number as megabytes), the account, the QOS and any other line; a value that would break
/// out of its line, or is no Slurm name, is refused and no script written.
#[test]
fn the_slurm_script_asks_for_memory_account_qos_and_other_lines() {
    let tmp = Tmp::new("slurm-lines");
    let datasets = two_datasets(&tmp);
    let script = |extra: &[&str]| {
        let mut args = vec![
            "slurm",
            datasets[0].as_str(),
            "--jobs",
            "2",
            "--shards",
            "2",
        ];
        args.extend(extra);
        idabench(tmp.path(), &args)
    };
    let out = script(&[
        "--time-limit",
        "2.5",
        "--wall-limit",
        "9",
        "--memory-limit",
        "1536M",
        "--account",
        "proj-7",
        "--qos",
        "long",
        "--sbatch-arg",
        "--mail-type=END",
        "--sbatch-arg=--exclusive",
    ]);
    assert_exit(&out, 0);
    let text_out = text(&out.stdout);
    for line in [
        "#SBATCH --mem=1536M\n",
        "#SBATCH --account=proj-7\n",
        "#SBATCH --qos=long\n",
        "#SBATCH --mail-type=END\n",
        "#SBATCH --exclusive\n",
        " --time-limit 2.5 --wall-limit 9 --memory-limit 1610612736 ",
    ] {
        assert!(text_out.contains(line), "{line}{text_out}");
    }
    let out = script(&["--memory-limit", "1000"]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("#SBATCH --mem=1K\n"),
        "{}",
        show(&out)
    );
    for (extra, says) in [
        (
            ["--sbatch-arg", "--a\n#SBATCH --b"],
            "--sbatch-arg '--a\\n#SBATCH --b'",
        ),
        (
            ["--sbatch-arg", "--a\rb"],
            "without a line break or another control character",
        ),
        (["--account", "a b"], "--account 'a b'"),
        (["--qos", "x\ny"], "--qos 'x\\ny'"),
        (["--memory-limit", "4GB"], "'4GB' is not a size"),
    ] {
        let out = script(&extra);
        assert_exit(&out, 2);
        assert!(text(&out.stderr).contains(says), "{says}: {}", show(&out));
        assert!(out.stdout.is_empty());
    }
}

/// A dataset path or a --pdb-dir that starts with '-' reaches every array task's `run` as it was
/// given; a dataset or variant that `run` refuses is refused by `slurm` (exit 2, with run's
/// message), and no script is written.
#[test]
fn the_slurm_script_passes_any_path_on_and_refuses_what_run_would() {
    let tmp = Tmp::new("slurm-args");
    let datasets = two_datasets(&tmp);
    fs::copy(&datasets[0], tmp.path().join("-x.csv")).unwrap();
    let args = |heuristic: &str, dataset: &str, script: &str| -> Vec<String> {
        [
            "slurm",
            "--jobs",
            "1",
            "--shards",
            "2",
            "--name",
            "dash",
            "--out",
            "reports",
            "--heuristic",
            heuristic,
            "--pdb-dir=-cache",
            "--quiet",
            "--script",
            script,
            "--",
            dataset,
        ]
        .map(String::from)
        .to_vec()
    };
    let out = idabench(tmp.path(), &args("manhattan", "-x.csv", "dash.sbatch"));
    assert_exit(&out, 0);
    for k in ["1", "2"] {
        let out = bash(tmp.path(), "dash.sbatch", &["shard", k], &[]);
        assert_exit(&out, 0);
    }
    let out = bash(tmp.path(), "dash.sbatch", &["merge"], &[]);
    assert_exit(&out, 0);
    assert_eq!(manifest(&tmp.path().join("reports/dash"))["jobs_total"], 6);

    // A dataset that does not exist; a heuristic of no domain of the dataset; a heuristic whose
    // tables are for another board.
    for (heuristic, dataset) in [
        ("manhattan", "-missing.csv"),
        ("breaks", "-x.csv"),
        ("pdb-663", "-x.csv"),
    ] {
        let out = idabench(tmp.path(), &args(heuristic, dataset, "bad.sbatch"));
        assert_exit(&out, 2);
        assert!(!tmp.path().join("bad.sbatch").exists());
        let run = [
            "run",
            "--out",
            "reports",
            "--name",
            "never",
            "--heuristic",
            heuristic,
            "--",
            dataset,
        ];
        let refused = idabench(tmp.path(), &run);
        assert_exit(&refused, 2);
        assert_eq!(text(&out.stderr), text(&refused.stderr), "{}", show(&out));
    }
}

/// Opt-in (IDABENCH_SLURM_TEST=1, with a Slurm that `sbatch` reaches, e.g. the single-node one
/// that scripts/slurm-local.sh starts): the script submitted for real, its merge awaited.
#[test]
fn real_slurm_runs_the_array_and_the_merge() {
    if std::env::var_os("IDABENCH_SLURM_TEST").is_none() {
        eprintln!("skipped: set IDABENCH_SLURM_TEST=1 to submit to a real Slurm (see docs/shards-and-slurm.md)");
        return;
    }
    let tmp = Tmp::new("real-slurm");
    let datasets = two_datasets(&tmp);
    run(&tmp, "whole", &datasets, VARIANTS, 0);
    let mut args = vec!["slurm"];
    args.extend(datasets.iter().map(String::as_str));
    args.extend(VARIANTS);
    args.extend(["--jobs", "1", "--out", "reports", "--name", "real"]);
    args.extend([
        "--shards",
        "3",
        "--time",
        "00:05:00",
        "--script",
        "real.sbatch",
    ]);
    assert_exit(&idabench(tmp.path(), &args), 0);
    let out = bash(tmp.path(), "real.sbatch", &[], &[]);
    assert_exit(&out, 0);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let merge_job = said.trim().rsplit(' ').next().unwrap().to_string();
    let start = Instant::now();
    loop {
        let queue = Command::new("squeue")
            .arg("-h")
            .arg(format!("--jobs={merge_job}"))
            .output()
            .unwrap();
        if String::from_utf8_lossy(&queue.stdout).trim().is_empty() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "merge job {merge_job} still queued"
        );
        std::thread::sleep(Duration::from_secs(1));
    }
    assert_same_report(
        &tmp.path().join("reports/whole"),
        &tmp.path().join("reports/real"),
    );
    // A shard submitted again resumes.
    let again = Command::new("sbatch")
        .args(["--parsable", "--wait", "--array=2", "real.sbatch"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_exit(&again, 0);
    let id = String::from_utf8_lossy(&again.stdout).trim().to_string();
    let id = id.split(';').next().unwrap();
    let log = fs::read_to_string(tmp.path().join(format!("slurm-{id}_2.out"))).unwrap();
    assert!(log.contains("resuming reports/real-shard-2"), "{log}");
}
