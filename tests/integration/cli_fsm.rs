//! Duplicate-pruning automata through the binary: kept in the cache directory and read back by a
//! second run with the same counts, rebuilt when damaged, shown by `pdb list` and `pdb verify`,
//! refused before building when too deep or over `--memory-limit`, and `--pruning fsm` on every
//! domain at its own default depth.

use crate::common::{assert_exit, command, dataset, rows_without_times, show, text, within, Tmp};
use std::path::{Path, PathBuf};
use std::process::Output;

/// `idabench ARGS...` in the scratch directory, expecting exit `code`.
fn expect(tmp: &Tmp, args: &[&str], code: i32) -> Output {
    let out = within(command(tmp.path(), args), 600);
    assert_exit(&out, code);
    out
}

fn stderr_has(out: &Output, want: &str) {
    assert!(
        text(&out.stderr).contains(want),
        "wanted {want:?}:\n{}",
        show(out)
    );
}

/// The automata files in `dir`, sorted.
fn automata_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "fsm"));
    v.sort();
    v
}

/// A file's header, up to its blank line, and its table after it: a rebuild writes the same
/// table (its header says how long building took).
fn header_of(file: &[u8]) -> &[u8] {
    let end = file.windows(2).position(|w| w == b"\n\n").unwrap();
    &file[..end]
}

fn table_of(file: &[u8]) -> &[u8] {
    &file[header_of(file).len() + 2..]
}

/// The manifest's automata of run `name`.
fn manifest_automata(tmp: &Tmp, name: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(tmp.run_dir(name).join("manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    m["automata"].as_array().cloned().unwrap_or_default()
}

#[test]
fn a_second_run_reads_the_cached_automaton_and_counts_the_same() {
    let tmp = Tmp::new("fsm-cache");
    let cache = tmp.at("cache");
    let smoke = dataset("smoke.csv");
    let run = |name: &str| {
        expect(
            &tmp,
            &[
                "run",
                &smoke,
                "--size",
                "3x3",
                "--pruning",
                "fsm",
                "--pdb-dir",
                &cache,
                "--jobs",
                "2",
                "--quiet",
                "--out",
                "reports",
                "--name",
                name,
            ],
            0,
        )
    };
    run("first");
    run("second");
    let (first, second) = (
        manifest_automata(&tmp, "first"),
        manifest_automata(&tmp, "second"),
    );
    assert_eq!((first.len(), second.len()), (1, 1));
    let file = automata_in(Path::new(&cache));
    assert_eq!(file.len(), 1);
    assert_eq!(first[0]["source"], "built");
    assert_eq!(second[0]["source"], "read");
    assert!(second[0]["read_s"].as_f64().is_some());
    for m in [&first[0], &second[0]] {
        assert_eq!(m["depth"], 14);
        assert_eq!(m["window"], serde_json::json!([3, 3]));
        assert_eq!(m["file"].as_str(), file[0].to_str());
    }
    assert_eq!(first[0]["states"], second[0]["states"]);
    let rows = rows_without_times(&tmp.run_dir("first"));
    assert_eq!(rows.len(), 7);
    assert!(rows.iter().all(|r| r.contains("manhattan/stepnext/fsm14")));
    assert_eq!(rows, rows_without_times(&tmp.run_dir("second")));
}

/// A file with a flipped byte, or cut short, is found by `pdb verify` (exit 1), and rebuilt by
/// the next command that needs it, saying why, to the same table and the same search.
#[test]
fn a_damaged_automaton_is_found_by_verify_and_rebuilt() {
    let tmp = Tmp::new("fsm-damage");
    let cache = tmp.at("cache");
    let solve = [
        "solve",
        "--domain",
        "tiles",
        "--size",
        "3x3",
        "--start",
        "0 1 2 3 4 7 6 8 5",
        "--pruning",
        "fsm10",
        "--pdb-dir",
        &cache,
    ];
    let sound_out = expect(&tmp, &solve, 0);
    let file = automata_in(Path::new(&cache));
    assert_eq!(file.len(), 1, "{}", show(&sound_out));
    let file = &file[0];
    let name = file.file_stem().unwrap().to_str().unwrap();
    let list = expect(&tmp, &["pdb", "list", "--pdb-dir", &cache], 0);
    assert!(
        text(&list.stdout).contains(&format!("{name}\tautomaton: ")),
        "{}",
        show(&list)
    );
    let verify = expect(&tmp, &["pdb", "verify", "--pdb-dir", &cache], 0);
    assert!(text(&verify.stdout).contains("1 automaton file(s) in"));
    let sound = std::fs::read(file).unwrap();
    let mut flipped = sound.clone();
    *flipped.last_mut().unwrap() ^= 0x10;
    let cases: [(&str, Vec<u8>, &str); 2] = [
        ("flipped", flipped, "corrupt: the entries' CRC-32 is"),
        (
            "cut short",
            sound[..sound.len() - 5].to_vec(),
            "truncated or padded",
        ),
    ];
    for (what, bad, says) in cases {
        std::fs::write(file, &bad).unwrap();
        let verify = expect(&tmp, &["pdb", "verify", "--pdb-dir", &cache], 1);
        assert!(
            text(&verify.stdout).contains(says),
            "{what}: {}",
            show(&verify)
        );
        stderr_has(&verify, "1 of 1 automaton file(s) in");
        let again = expect(&tmp, &solve, 0);
        stderr_has(&again, says);
        stderr_has(&again, "building it again");
        let rebuilt = std::fs::read(file).unwrap();
        assert!(
            table_of(&rebuilt) == table_of(&sound),
            "{what}: another table"
        );
        let untimed = |out: &Output| -> Vec<String> {
            text(&out.stdout)
                .lines()
                .filter(|l| !l.starts_with("time_s:"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(untimed(&again), untimed(&sound_out), "{what}");
    }
}

/// Depths the builder cannot take are refused from the growth of the first lengths, naming the
/// largest that fits, with nothing written: at once, not after minutes of building.
#[test]
fn an_automaton_too_deep_is_refused_before_it_is_built() {
    let tmp = Tmp::new("fsm-deep");
    let cache = tmp.at("cache");
    let goal: Vec<String> = (0..25).map(|t| t.to_string()).collect();
    let goal = goal.join(" ");
    let out = expect(
        &tmp,
        &[
            "solve",
            "--domain",
            "tiles",
            "--size",
            "5x5",
            "--start",
            &goal,
            "--pruning",
            "fsm24",
            "--pdb-dir",
            &cache,
        ],
        2,
    );
    stderr_has(&out, "pruning fsm24 on tiles: ");
    stderr_has(&out, "choose a depth of at most 17");
    let knights = dataset("knights.csv");
    let out = expect(
        &tmp,
        &[
            "run",
            &knights,
            "--pruning",
            "fsm14",
            "--pdb-dir",
            &cache,
            "--out",
            "reports",
            "--name",
            "never",
        ],
        2,
    );
    stderr_has(&out, "pruning fsm14 on knights: ");
    stderr_has(&out, "choose a depth of at most 12");
    // `tree` refuses it as a usage error too.
    let out = expect(
        &tmp,
        &[
            "tree",
            "--size",
            "5x5",
            "--pruning",
            "fsm18",
            "--depth",
            "4",
            "--pdb-dir",
            &cache,
        ],
        2,
    );
    stderr_has(&out, "--pruning fsm18: ");
    stderr_has(&out, "choose a depth of at most 17");
    assert!(automata_in(Path::new(&cache)).is_empty());
    assert!(!tmp.run_dir("never").exists());
}

/// `--memory-limit` counts the automata a run needs: the peak of building one not in the
/// cache, or the table of one read.
#[test]
fn a_memory_limit_below_the_automata_refuses_the_run() {
    let tmp = Tmp::new("fsm-memory");
    let cache = tmp.at("cache");
    let smoke = dataset("smoke.csv");
    let run = |limit: &str, code: i32| {
        expect(
            &tmp,
            &[
                "run",
                &smoke,
                "--size",
                "3x3",
                "--pruning",
                "fsm14",
                "--pdb-dir",
                &cache,
                "--memory-limit",
                limit,
                "--quiet",
                "--out",
                "reports",
                "--name",
                limit,
            ],
            code,
        )
    };
    let out = run("20K", 2);
    stderr_has(
        &out,
        "--memory-limit 20 KiB (20480 bytes): the 1 automaton(s) of duplicate pruning take",
    );
    stderr_has(&out, "building the 1 not yet in the cache");
    assert!(automata_in(Path::new(&cache)).is_empty());
    run("64M", 0);
    // Read from the cache: its 2,530 states of 4 moves, 40,480 bytes, are counted.
    let out = run("30K", 2);
    stderr_has(
        &out,
        "the 1 automaton(s) of duplicate pruning take 39.5 KiB in memory, 39.5 KiB at the peak",
    );
}

/// `--pruning fsm` over every domain at once: each runs, at its own default depth, under a
/// variant that names it.
#[test]
fn fsm_runs_every_domain_at_its_own_depth() {
    let tmp = Tmp::new("fsm-domains");
    let mut args = vec!["run".to_string()];
    for d in ["smoke.csv", "rotation.csv", "knights.csv", "booksort.csv"] {
        args.push(dataset(d));
    }
    // The small boards and shelves: the automata built are those of 3x3, the knight, the
    // Rotation Game and the shelves of 6 and 8 books.
    for a in [
        "--instances",
        "smoke:8p-*,rotation:*,knights:*,booksort:?6-*,booksort:?8-*",
        "--pruning",
        "fsm",
        "--max-nodes",
        "3000",
        "--quiet",
        "--out",
        "reports",
        "--name",
        "all",
    ] {
        args.push(a.to_string());
    }
    let out = within(command(tmp.path(), &args), 600);
    assert_exit(&out, 0);
    let rows = crate::common::csv_rows(&tmp.run_dir("all").join("runs.csv"));
    let mut seen: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["domain"].clone(), r["variant"].clone()))
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        [
            ("booksort", "breaks/stepnext/fsm2"),
            ("knights", "misplaced/stepnext/fsm10"),
            ("rotation", "center/stepnext/fsm8"),
            ("tiles", "manhattan/stepnext/fsm14"),
        ]
        .map(|(d, v)| (d.to_string(), v.to_string()))
    );
    assert!(rows.iter().all(|r| r["pruning"] == "fsm"));
}

/// Two processes building one automaton at once each write under a temporary name and rename:
/// the cache is left with one sound file and no half-written one.
#[test]
fn two_builders_at_once_leave_one_sound_file() {
    let tmp = Tmp::new("fsm-two");
    let cache = tmp.at("cache");
    let args = [
        "tree",
        "--size",
        "4x4",
        "--pruning",
        "fsm13",
        "--depth",
        "3",
        "--pdb-dir",
        &cache,
        "--quiet",
    ];
    let children: Vec<std::process::Child> = (0..2)
        .map(|_| {
            let mut c = command(tmp.path(), &args);
            c.stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            c.spawn().unwrap()
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    // Each says whether it built the automaton or read the other's: the counts are the same.
    let counts = |out: &Output| -> Vec<String> {
        text(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("automaton: "))
            .map(str::to_string)
            .collect()
    };
    for out in &outs {
        assert_exit(out, 0);
    }
    assert_eq!(counts(&outs[0]), counts(&outs[1]));
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].starts_with("fsm13-tiles-4x4-") && names[0].ends_with(".fsm"));
    let verify = expect(&tmp, &["pdb", "verify", "--pdb-dir", &cache], 0);
    assert!(text(&verify.stdout).contains("1 automaton file(s) in"));
}
