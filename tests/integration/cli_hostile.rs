//! Files planted where idabench keeps its own: links, FIFOs and files in a run's folder, an
//! `--out` that is a link to nothing, and another run's folder as the place for pages; and a
//! signal during a database build. Each case runs under a timeout and checks the exit code, the
//! message naming the path, and that nothing outside the run's folder changed.

use crate::common::korf::KORF_GOAL;
use crate::common::{assert_exit, command, text, within, Tmp};
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DATASET: &str = "id,domain,size,start,goal,optimal\n\
                       a,tiles,3x3,0 1 2 4 8 3 7 6 5,,8\n\
                       b,tiles,3x3,0 1 2 3 6 8 4 7 5,,14\n";

/// `idabench ARGS...` in `tmp`, under a timeout, expecting exit `code` and no panic.
fn expect(tmp: &Tmp, args: &[&str], code: i32) -> String {
    let out = within(command(tmp.path(), args), 120);
    assert_exit(&out, code);
    text(&out.stderr)
}

fn has(stderr: &str, needles: &[&str]) {
    for n in needles {
        assert!(stderr.contains(n), "wanted {n:?} in:\n{stderr}");
    }
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A link in a run's folder, in place of each file a run writes (or a dangling one in place of
/// runs.csv), is refused with exit 2 naming it, and the file it points to is neither written nor
/// created; so are a FIFO there (which would hold the run for ever), a folder that is a link, a
/// `--name` that names a file and an `--out` that is a link to nothing.
#[test]
fn links_and_special_files_in_a_run_folder_are_refused_never_followed() {
    let tmp = Tmp::new("planted");
    let data = tmp.write("ok.csv", DATASET);
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    let victim = tmp.path().join("victim.txt");
    fs::write(&victim, "keep").unwrap();
    fn run<'a>(data: &'a str, o: &'a str, name: &'a str) -> Vec<&'a str> {
        vec!["run", data, "--out", o, "--name", name, "--quiet"]
    }

    let planted = [
        "summary.md",
        "report.html",
        "manifest.json",
        "iterations.csv",
        "summary.csv",
    ];
    for (k, file) in planted.iter().enumerate() {
        let name = format!("n{k}");
        fs::create_dir_all(out.join(&name)).unwrap();
        let link = out.join(&name).join(file);
        symlink(&victim, &link).unwrap();
        let err = expect(&tmp, &run(&data, o, &name), 2);
        has(&err, &[link.to_str().unwrap(), "a symbolic link"]);
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep", "{file}");
    }

    let nowhere = tmp.path().join("created.csv");
    fs::create_dir_all(out.join("dangling")).unwrap();
    symlink(&nowhere, out.join("dangling/runs.csv")).unwrap();
    let err = expect(&tmp, &run(&data, o, "dangling"), 2);
    has(&err, &["dangling/runs.csv", "a symbolic link"]);
    let err = expect(
        &tmp,
        &[run(&data, o, "dangling"), vec!["--resume"]].concat(),
        2,
    );
    has(&err, &["dangling/runs.csv", "a symbolic link"]);
    assert!(!nowhere.exists());

    fs::create_dir_all(out.join("piped")).unwrap();
    mkfifo(&out.join("piped/iterations.csv"));
    let err = expect(&tmp, &run(&data, o, "piped"), 2);
    has(&err, &["piped/iterations.csv", "a FIFO"]);
    fs::create_dir_all(out.join("resumed")).unwrap();
    mkfifo(&out.join("resumed/runs.csv"));
    let err = expect(
        &tmp,
        &[run(&data, o, "resumed"), vec!["--resume"]].concat(),
        2,
    );
    has(&err, &["resumed/runs.csv", "a FIFO"]);

    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    symlink(&elsewhere, out.join("linked")).unwrap();
    let err = expect(&tmp, &run(&data, o, "linked"), 2);
    has(&err, &["--name linked", "a symbolic link"]);
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
    // Nor is a run elsewhere resumed through a link, by name or as the newest unfinished run.
    let other = tmp.path().join("other");
    expect(
        &tmp,
        &[
            "run",
            &data,
            "--out",
            other.to_str().unwrap(),
            "--name",
            "r",
            "-q",
        ],
        0,
    );
    let manifest = other.join("r/manifest.json");
    let unfinished = fs::read_to_string(&manifest)
        .unwrap()
        .replace("\"complete\": true", "\"complete\": false");
    fs::write(&manifest, &unfinished).unwrap();
    let before = fs::read(other.join("r/runs.csv")).unwrap();
    let resumed = tmp.path().join("resumed-out");
    fs::create_dir(&resumed).unwrap();
    symlink(other.join("r"), resumed.join("r")).unwrap();
    let r = resumed.to_str().unwrap();
    let err = expect(
        &tmp,
        &["run", &data, "--out", r, "--name", "r", "--resume"],
        2,
    );
    has(&err, &["--name r", "a symbolic link"]);
    let err = expect(&tmp, &["run", &data, "--out", r, "--resume"], 2);
    has(&err, &["no unfinished run"]);
    assert!(fs::read(other.join("r/runs.csv")).unwrap() == before);
    assert_eq!(fs::read_to_string(&manifest).unwrap(), unfinished);

    fs::write(out.join("a-file"), "mine").unwrap();
    let err = expect(&tmp, &run(&data, o, "a-file"), 2);
    has(&err, &["--name a-file", "is a file"]);
    assert!(!err.contains("os error"), "{err}");

    let dangling_out = tmp.path().join("gone-out");
    symlink(tmp.path().join("no-such-dir"), &dangling_out).unwrap();
    for args in [
        vec!["run", &data, "--out", dangling_out.to_str().unwrap()],
        vec![
            "run",
            &data,
            "--out",
            dangling_out.to_str().unwrap(),
            "--name",
            "n",
        ],
    ] {
        let err = expect(&tmp, &args, 2);
        has(&err, &["--out", "no-such-dir, which does not exist"]);
        assert!(!err.contains("os error"), "{err}");
    }
    assert!(!tmp.path().join("no-such-dir").exists());

    // The same run with nothing planted is fine, and --resume of it too.
    expect(&tmp, &run(&data, o, "clean"), 0);
    expect(
        &tmp,
        &[run(&data, o, "clean"), vec!["--resume"]].concat(),
        0,
    );
}

/// `compare A B --out A` and `plot A --out B` would replace another run's report.html and
/// pictures: exit 2, the run's files unchanged. A run's own folder, a fresh folder and an
/// earlier comparison's folder stay fine; a link in a comparison's folder is refused too.
#[test]
fn pages_never_replace_another_runs() {
    let tmp = Tmp::new("pages");
    let data = tmp.write("ok.csv", DATASET);
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    for name in ["a", "b"] {
        expect(
            &tmp,
            &["run", &data, "--out", o, "--name", name, "--quiet"],
            0,
        );
    }
    let (a, b) = (out.join("a"), out.join("b"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let pages = |dir: &str| fs::read(Path::new(dir).join("report.html")).unwrap();
    let (page_a, page_b) = (pages(a), pages(b));

    let err = expect(&tmp, &["compare", a, b, "--out", a], 2);
    has(&err, &[&format!("--out {a}"), "holds a run"]);
    let err = expect(&tmp, &["plot", a, "--out", b], 2);
    has(&err, &[&format!("--out {b}"), "holds a run"]);
    assert!(
        pages(a) == page_a && pages(b) == page_b,
        "a run's page was replaced"
    );

    expect(&tmp, &["plot", a, "--out", a], 0);
    expect(&tmp, &["plot", a], 0);
    let pictures = tmp.at("pictures");
    expect(&tmp, &["plot", a, "--out", &pictures], 0);
    let compared = tmp.at("compared");
    expect(&tmp, &["compare", a, b, "--out", &compared], 0);
    expect(&tmp, &["compare", a, b, "--out", &compared], 0);
    // A link that is none of the pages is no concern of theirs.
    symlink("/nowhere", Path::new(&compared).join("notes.txt")).unwrap();
    expect(&tmp, &["compare", a, b, "--out", &compared], 0);
    expect(&tmp, &["plot", a, "--out", &compared], 0);

    let victim = tmp.path().join("victim.html");
    fs::write(&victim, "keep").unwrap();
    fs::remove_file(Path::new(&compared).join("report.html")).unwrap();
    symlink(&victim, Path::new(&compared).join("report.html")).unwrap();
    let err = expect(&tmp, &["compare", a, b, "--out", &compared], 2);
    has(&err, &["compared/report.html", "a symbolic link"]);
    let err = expect(&tmp, &["plot", a, "--out", &compared], 2);
    has(&err, &["compared/report.html", "a symbolic link"]);
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
}

/// SIGTERM while a database is being built (pdb-78: minutes of work) ends `run` and `pdb build`
/// at once with exit 130, saying so; the unfinished database leaves no file behind, and no
/// other database is built after it.
#[test]
fn a_signal_stops_a_database_build_at_once() {
    let tmp = Tmp::new("build-stop");
    let cache = tmp.path().join("cache");
    let c = cache.to_str().unwrap();
    let korf97 = format!(
        "id,domain,size,start,goal,optimal\n\
         k97,tiles,4x4,9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3,{KORF_GOAL},44\n"
    );
    let data = tmp.write("korf97.csv", &korf97);
    let out = tmp.at("o");
    let runs: [Vec<&str>; 2] = [
        vec![
            "run",
            &data,
            "--heuristic",
            "pdb-78",
            "--pdb-dir",
            c,
            "--out",
            &out,
        ],
        vec!["pdb", "build", "pdb-78", "--pdb-dir", c],
    ];
    for args in runs {
        let mut child = command(tmp.path(), &args)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        while !said.lines().any(|l| l.starts_with("building ")) {
            let read = stderr.read_line(&mut said).unwrap();
            assert!(read > 0, "{args:?}: no 'building' line:\n{said}");
        }
        // SAFETY: a plain kill(2) of the child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
        let ended = std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
            rest
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{args:?}: still building 60 s after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        said.push_str(&ended.join().unwrap());
        assert_eq!(status.code(), Some(130), "{args:?}:\n{said}");
        assert!(said.contains("interrupted"), "{args:?}:\n{said}");
        assert!(
            !said.contains("built "),
            "{args:?}: a database was finished:\n{said}"
        );
        let left: Vec<String> = fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(left.is_empty(), "{args:?}: left {left:?}");
    }
    assert!(!Path::new(&out).exists());
}

/// `--resume` without `--name` takes the newest unfinished run that these options can finish,
/// not the newest unfinished run of any datasets (which it would then refuse, advising a new
/// run).
#[test]
fn resume_without_a_name_takes_only_a_run_it_can_finish() {
    let tmp = Tmp::new("resume-pick");
    let mine = tmp.write("mine.csv", DATASET);
    let theirs = tmp.write("theirs.csv", &DATASET.replace("a,tiles", "c,tiles"));
    let out = tmp.at("o");
    // Two runs made unfinished by hand: the last row dropped, the manifest saying so.
    let unfinish = |name: &str| {
        let dir = Path::new(&out).join(name);
        let runs = fs::read_to_string(dir.join("runs.csv")).unwrap();
        let kept: Vec<&str> = runs.lines().collect();
        fs::write(
            dir.join("runs.csv"),
            kept[..kept.len() - 1].join("\n") + "\n",
        )
        .unwrap();
        let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
        let manifest = manifest
            .replace("\"complete\": true", "\"complete\": false")
            .replace("\"jobs_missing\": 0", "\"jobs_missing\": 1");
        assert!(manifest.contains("\"complete\": false"), "{manifest}");
        fs::write(dir.join("manifest.json"), manifest).unwrap();
    };
    expect(
        &tmp,
        &["run", &mine, "--out", &out, "--name", "mine", "-q"],
        0,
    );
    unfinish("mine");
    std::thread::sleep(Duration::from_millis(20));
    expect(
        &tmp,
        &["run", &theirs, "--out", &out, "--name", "theirs", "-q"],
        0,
    );
    unfinish("theirs");

    let err = expect(&tmp, &["run", &mine, "--out", &out, "--resume"], 0);
    has(&err, &["resuming", "o/mine: 1 job(s) done, 1 to run"]);
    let rows = fs::read_to_string(Path::new(&out).join("mine/runs.csv")).unwrap();
    assert_eq!(rows.lines().count(), 3, "{rows}");
}

/// `merge --out DIR` with a link planted in DIR (in place of summary.md), or a FIFO planted in a
/// shard, is refused, exit 2, the link's target unchanged; the same merge into a clean folder
/// works.
#[test]
fn a_merge_never_writes_through_a_link() {
    let tmp = Tmp::new("merge-link");
    let data = tmp.write("ok.csv", DATASET);
    let out = tmp.at("o");
    for k in ["1", "2"] {
        let shard = format!("{k}/2");
        let name = format!("s{k}");
        let args = [
            "run", &data, "--shard", &shard, "--out", &out, "--name", &name, "-q",
        ];
        expect(&tmp, &args, 0);
    }
    let (s1, s2) = (format!("{out}/s1"), format!("{out}/s2"));
    let merged = tmp.path().join("merged");
    fs::create_dir(&merged).unwrap();
    let victim = tmp.path().join("victim.md");
    fs::write(&victim, "keep").unwrap();
    symlink(&victim, merged.join("summary.md")).unwrap();
    let m = merged.to_str().unwrap();
    let err = expect(&tmp, &["merge", &s1, &s2, "--out", m], 2);
    has(&err, &["merged/summary.md", "a symbolic link"]);
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
    fs::remove_file(merged.join("summary.md")).unwrap();
    // A shard is a run's folder too: a FIFO planted there is refused, not read.
    mkfifo(&Path::new(&s2).join("planted"));
    let err = expect(&tmp, &["merge", &s1, &s2, "--out", m], 2);
    has(&err, &["s2/planted", "a FIFO"]);
    fs::remove_file(Path::new(&s2).join("planted")).unwrap();
    expect(&tmp, &["merge", &s1, &s2, "--out", m], 0);
    assert!(merged.join("summary.md").is_file());
}
