//! Checkpoints through the binary: a run killed (SIGKILL, no chance to save) at random moments
//! and resumed each time ends with the rows of a run never killed, and leaves no checkpoint; a
//! checkpoint file of another puzzle is refused by `solve`.

use crate::common::{command, dataset, idabench, Tmp};
use idabench::util::rng::Rng;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The columns of runs.csv and iterations.csv a kill must not change (not the times).
fn counted(dir: &std::path::Path) -> (Vec<String>, Vec<String>) {
    let runs = fs::read_to_string(dir.join("runs.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(runs.as_bytes());
    let header = rows.headers().unwrap().clone();
    let want = [
        "instance",
        "status",
        "length",
        "nodes_generated",
        "nodes_expanded",
        "iterations",
        "final_bound",
        "path",
    ];
    let runs = rows
        .records()
        .map(|r| {
            let r = r.unwrap();
            want.iter()
                .map(|c| r[header.iter().position(|h| h == *c).unwrap()].to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let iterations = fs::read_to_string(dir.join("iterations.csv"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (runs, iterations)
}

/// The checkpoint files in `dir` and their contents.
fn saved(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| {
                let path = e.ok()?.path();
                let bytes = fs::read(&path).ok()?;
                Some((path, bytes))
            })
            .collect()
        })
        .unwrap_or_default()
}

/// Korf's #22 under Manhattan distance (750 million nodes, a few seconds), saving every 50 ms:
/// five times an attempt is killed (SIGKILL, no chance to save) a seeded random moment after
/// it wrote a checkpoint of its own, and the next attempt must say it resumed from it. The
/// last resume ends with the rows of a run never killed, and leaves no checkpoint.
#[test]
fn a_run_killed_five_times_and_resumed_counts_as_one_never_killed() {
    let tmp = Tmp::new("checkpoint-kill");
    let korf = dataset("korf100.csv");
    let args = |name: &str| {
        vec![
            "run".to_string(),
            korf.clone(),
            "--instances".into(),
            "22".into(),
            "--jobs".into(),
            "1".into(),
            "--split".into(),
            "off".into(),
            "--checkpoint".into(),
            "0.05".into(),
            "--out".into(),
            tmp.out(),
            "--name".into(),
            name.into(),
            "--quiet".into(),
            "--no-plots".into(),
        ]
    };
    let clean = idabench(tmp.path(), &args("clean"));
    assert!(clean.status.success(), "{clean:?}");
    let folder = tmp.run_dir("killed").join("checkpoints");
    let mut rng = Rng::new(22);
    for attempt in 0..5 {
        let mut a = args("killed");
        if attempt > 0 {
            a.push("--resume".into());
        }
        let before = saved(&folder);
        let log = tmp.at(&format!("attempt{attempt}.err"));
        let mut child = command(tmp.path(), &a)
            .stderr(fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        // Until this attempt has saved: a kill before would test nothing. A search that never
        // saves ends by itself, which fails below.
        loop {
            let now = saved(&folder);
            if !now.is_empty() && now != before {
                break;
            }
            let exited = child.try_wait().unwrap();
            assert!(
                exited.is_none(),
                "attempt {attempt} ended ({exited:?}) before it saved: {}",
                fs::read_to_string(&log).unwrap()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(rng.below(200)));
        let _ = child.kill();
        let status = child.wait().unwrap();
        assert!(
            !status.success(),
            "attempt {attempt} finished before it was killed: the instance is too short"
        );
        let err = fs::read_to_string(&log).unwrap();
        assert_eq!(
            err.contains("resuming from checkpoint"),
            attempt > 0,
            "attempt {attempt}: {err}"
        );
    }
    let mut a = args("killed");
    a.push("--resume".into());
    let last = idabench(tmp.path(), &a);
    assert!(last.status.success(), "{last:?}");
    let err = String::from_utf8_lossy(&last.stderr);
    assert!(err.contains("resuming from checkpoint"), "{err}");
    assert_eq!(
        counted(&tmp.run_dir("killed")),
        counted(&tmp.run_dir("clean"))
    );
    assert!(!folder.exists());
}

/// `solve --checkpoint-file`: SIGTERM stops the search cleanly (exit 130) with its progress
/// saved, and the next solve goes on from it to the answer and counts of a solve never
/// stopped, removing the file; a valid checkpoint of another puzzle is refused on what it is
/// of (exit 2, naming it) and left as it is; `--checkpoint 0` with a file is refused.
#[test]
fn solve_saves_on_sigterm_resumes_and_refuses_another_puzzles_checkpoint() {
    let tmp = Tmp::new("checkpoint-solve");
    let file = tmp.at("c.ckpt");
    // Korf's #26 (227 million nodes), to his goal.
    let korf26 = "5 7 3 12 15 13 14 8 0 10 9 6 1 4 2 11";
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let solve = |start: &str, size: &str, more: &[&str]| {
        let mut a = vec![
            "solve", "--size", size, "--start", start, "--jobs", "1", "--split", "off", "--format",
            "json",
        ];
        if size == "4x4" {
            a.extend_from_slice(&["--goal", goal]);
        }
        a.extend_from_slice(more);
        command(tmp.path(), &a)
    };
    let with_file = ["--checkpoint", "0.05", "--checkpoint-file", file.as_str()];
    let mut child = solve(korf26, "4x4", &with_file).spawn().unwrap();
    while !Path::new(&file).exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the solve ended before it saved"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let term = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let stopped = child.wait_with_output().unwrap();
    assert_eq!(stopped.status.code(), Some(130), "{stopped:?}");
    let saved = fs::read_to_string(&file).unwrap();

    let other = tmp.at("other.ckpt");
    fs::write(&other, &saved).unwrap();
    let refused = solve(
        "1 2 3 4 5 6 7 0 8",
        "3x3",
        &["--checkpoint", "0", "--checkpoint-file", &other],
    )
    .output()
    .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("needs --checkpoint above 0"), "{err}");
    let refused = solve(
        "1 2 3 4 5 6 7 0 8",
        "3x3",
        &["--checkpoint", "1", "--checkpoint-file", &other],
    )
    .output()
    .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("other.ckpt: refused: it is of another job"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&other).unwrap(), saved);

    let json = |out: &std::process::Output| {
        assert!(out.status.success(), "{out:?}");
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for k in ["time_s", "time_cpu_s"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let resumed = solve(korf26, "4x4", &with_file).output().unwrap();
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(err.contains("resuming from checkpoint"), "{err}");
    let clean = solve(korf26, "4x4", &["--checkpoint", "0"])
        .output()
        .unwrap();
    assert_eq!(json(&resumed), json(&clean));
    assert!(!Path::new(&file).exists());
}
