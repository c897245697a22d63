//! Checkpoints through the binary: a run killed (SIGKILL, no chance to save) at random moments
//! and resumed each time ends with the rows of a run never killed, and leaves no checkpoint; a
//! checkpoint file of another puzzle is refused by `solve`.

use crate::common::{command, dataset, idabench, Tmp};
use idabench::util::rng::Rng;
use std::fs;
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

/// Korf's #26 under Manhattan distance (227 million nodes, about a second), killed five times
/// after 0.3 to 1.2 s and resumed, saving every 50 ms.
#[test]
fn a_run_killed_five_times_and_resumed_counts_as_one_never_killed() {
    let tmp = Tmp::new("checkpoint-kill");
    let korf = dataset("korf100.csv");
    let args = |name: &str| {
        vec![
            "run".to_string(),
            korf.clone(),
            "--instances".into(),
            "26".into(),
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
    let mut rng = Rng::new(26);
    let mut saved = 0;
    for attempt in 0..5 {
        let mut a = args("killed");
        if attempt > 0 {
            a.push("--resume".into());
        }
        let mut child = command(tmp.path(), &a).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(300 + rng.below(900)));
        let _ = child.kill();
        child.wait().unwrap();
        saved += fs::read_dir(tmp.run_dir("killed").join("checkpoints")).map_or(0, |d| d.count());
    }
    assert!(saved > 0, "no kill left a checkpoint");
    let mut a = args("killed");
    a.push("--resume".into());
    let last = idabench(tmp.path(), &a);
    assert!(last.status.success(), "{last:?}");
    assert_eq!(
        counted(&tmp.run_dir("killed")),
        counted(&tmp.run_dir("clean"))
    );
    assert!(!tmp.run_dir("killed").join("checkpoints").exists());
}

/// `solve --checkpoint-file` refuses a file of another puzzle (exit 2, naming it) and leaves it.
#[test]
fn solve_refuses_a_checkpoint_of_another_puzzle() {
    let tmp = Tmp::new("checkpoint-solve");
    let file = tmp.at("c.ckpt");
    let solve = |start: &str| {
        idabench(
            tmp.path(),
            &[
                "solve",
                "--size",
                "3x3",
                "--start",
                start,
                "--checkpoint",
                "0.000001",
                "--checkpoint-file",
                &file,
            ],
        )
    };
    // A search of several iterations saves between them; the file is removed at its end.
    let done = solve("8 6 7 2 5 4 3 0 1");
    assert!(done.status.success(), "{done:?}");
    assert!(!std::path::Path::new(&file).exists());
    let text = "idabench-checkpoint 1\nbuild -\nend 00000000\n";
    fs::write(&file, text).unwrap();
    let refused = solve("1 2 3 4 5 6 7 0 8");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("c.ckpt: refused"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}
