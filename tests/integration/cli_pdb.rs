//! Pattern databases as a user meets them through the binary: `idabench pdb build|list|verify|path`,
//! files byte-identical to the in-memory build, damaged files found by `verify` and rebuilt by
//! `run` and `solve`, `--no-build`, read-only, full and not-a-directory caches, two builders at
//! once, boards and goals without databases, node counts equal at `--jobs 1` and `--jobs 2`, the
//! manifest's list of databases, and the weighted databases of `--cost heavy` built, listed,
//! verified and read by runs.
//!
//! Every command gets `--pdb-dir` under a scratch directory, and `XDG_CACHE_HOME` and `HOME`
//! point there too, so that nothing touches the user's cache. Only the 5-5-5 and 6-6-3 databases
//! are built (5-5-5 under heavy costs too). Nothing here asserts on a time.

use crate::common::korf::{korf100, KORF_GOAL};
use crate::common::{assert_exit, command, names, show, text, within, Tmp};

use idabench::domains::cost::CostModel;
use idabench::domains::tiles::pattern::{self, Pattern};
use idabench::domains::tiles::pdb::{Partition, PDB_555, PDB_663};
use idabench::domains::tiles::weighted_pdb::{build_until, weighted_patterns, WeightedPattern};
use idabench::domains::tiles::Tiles;
use idabench::tables::store::Spec;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

// ---------------------------------------------------------------------------------------------
// Running the binary

/// The cache directory tests name with `--pdb-dir` (not created here: commands make it).
fn cache(tmp: &Tmp) -> PathBuf {
    tmp.path().join("cache")
}

/// `idabench ARGS...` run in the scratch directory, with the default cache directories pointed
/// into it.
fn cached(tmp: &Tmp, args: &[&str]) -> Command {
    let mut c = command(tmp.path(), args);
    c.env("XDG_CACHE_HOME", tmp.path().join("xdg"))
        .env("HOME", tmp.path().join("home"));
    c
}

/// Runs `cmd`, expecting exit `code` and no panic, within a limit far above what any case
/// needs: a damaged database must not make a command hang.
fn expect(cmd: Command, code: i32) -> Output {
    let out = within(cmd, 600);
    assert_exit(&out, code);
    out
}

/// `idabench ARGS...` as `cached` runs it, expecting exit `code` and no panic.
fn expect_exit(tmp: &Tmp, args: &[&str], code: i32) -> Output {
    expect(cached(tmp, args), code)
}

fn stderr_has(out: &Output, want: &str) {
    assert!(
        text(&out.stderr).contains(want),
        "wanted {want:?}:\n{}",
        show(out)
    );
}

fn stdout_has(out: &Output, want: &str) {
    assert!(
        text(&out.stdout).contains(want),
        "wanted {want:?}:\n{}",
        show(out)
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Databases and instances

/// The patterns of `partition` for the goal with the blank first (`true`) or last.
fn patterns(partition: Partition, blank_first: bool) -> Vec<Pattern> {
    let goal: Vec<u8> = if blank_first {
        (0..16).collect()
    } else {
        (1..16).chain([0]).collect()
    };
    Tiles::new(4, 4, &goal)
        .unwrap()
        .patterns(partition)
        .unwrap()
}

fn file_of(dir: &Path, p: &Pattern) -> PathBuf {
    dir.join(format!("{}.pdb", p.key()))
}

/// The entries of a database file: what follows the header's blank line.
fn entries_of(path: &Path) -> Vec<u8> {
    let bytes = fs::read(path).unwrap();
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or_else(|| panic!("{}: no end of header", path.display()));
    bytes[end + 2..].to_vec()
}

/// A dataset of Korf's instances `ids`.
fn korf_csv(ids: &[u32]) -> String {
    let mut out = String::from("id,domain,size,start,goal,optimal\n");
    for k in korf100().iter().filter(|k| ids.contains(&k.id)) {
        let (id, start, optimal) = (k.id, k.tokens, k.optimal);
        out.push_str(&format!("k{id},tiles,4x4,{start},{KORF_GOAL},{optimal}\n"));
    }
    out
}

/// `solve` of Korf's #97 (optimal 44, a few thousand nodes) with `heuristic` and `extra` flags.
fn solve_97<'a>(heuristic: &'a str, cache: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "solve",
        "--size",
        "4x4",
        "--start",
        "9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3",
        "--goal",
        KORF_GOAL,
        "--heuristic",
        heuristic,
        "--pdb-dir",
        cache,
    ];
    args.extend_from_slice(extra);
    args
}

fn solved_97(out: &Output) {
    stdout_has(out, "status: solved\nlength: 44\n");
}

/// `pdb build` output lines: key -> (heuristic, entries, crc32, path).
fn build_lines(out: &Output) -> BTreeMap<String, (String, u64, String, String)> {
    text(&out.stdout)
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "{line}");
            let entries = f[2].strip_suffix(" entries").unwrap().parse().unwrap();
            let crc = f[3].strip_prefix("crc32 ").unwrap().to_string();
            (
                f[1].to_string(),
                (f[0].to_string(), entries, crc, f[4].to_string()),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// pdb build, list, verify, path

/// `pdb build` writes one file per pattern, named by its key, whose entries are byte for byte the
/// in-memory build and whose CRC-32 is the one printed; `list` and `verify` report them; a second
/// build reads them instead of building; `--force` builds again, to the same bytes.
#[test]
fn pdb_build_writes_the_files_that_list_and_verify_report() {
    let tmp = Tmp::new("build");
    let cache = cache(&tmp);
    let out = expect_exit(
        &tmp,
        &[
            "pdb",
            "build",
            "pdb-555+reflect",
            "--goal",
            "both",
            "--pdb-dir",
            s(&cache),
        ],
        0,
    );
    let lines = build_lines(&out);
    let all: Vec<Pattern> = [true, false]
        .into_iter()
        .flat_map(|first| patterns(PDB_555, first))
        .collect();
    assert_eq!(lines.len(), 6, "{}", show(&out));
    let mut expected_names = Vec::new();
    for p in &all {
        let (h, entries, crc, path) = &lines[&p.key()];
        let file = file_of(&cache, p);
        assert_eq!(h, "pdb-555+reflect");
        assert_eq!(*entries, 524_160);
        assert_eq!(path, s(&file));
        let built = pattern::build(p, &|_| {});
        assert!(entries_of(&file) == built, "{}: entries differ", p.key());
        assert_eq!(*crc, format!("{:08x}", crc32fast::hash(&built)));
        // Without --quiet, and not on a terminal: a line when each build starts.
        stderr_has(&out, &format!("building {}: 524160 entries", p.key()));
        expected_names.push(format!("{}.pdb", p.key()));
    }
    expected_names.sort();
    // No temporary file left behind.
    assert_eq!(names(&cache), expected_names);

    let list = expect_exit(&tmp, &["pdb", "list", "--pdb-dir", s(&cache)], 0);
    let list_text = text(&list.stdout);
    let listed: Vec<&str> = list_text.lines().collect();
    assert_eq!(listed.len(), 6, "{}", show(&list));
    for p in &all {
        assert!(
            listed.contains(&format!("{}\t524160 entries\t0.5 MB", p.key()).as_str()),
            "{}: {listed:?}",
            p.key()
        );
    }

    let verify = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", s(&cache)], 0);
    for p in &all {
        let crc = &lines[&p.key()].2;
        stdout_has(
            &verify,
            &format!("ok\t{}\tcrc32 {crc}\n", s(&file_of(&cache, p))),
        );
    }
    stdout_has(
        &verify,
        &format!("6 pattern database(s) in {} are sound", s(&cache)),
    );

    let before: Vec<Vec<u8>> = all
        .iter()
        .map(|p| fs::read(file_of(&cache, p)).unwrap())
        .collect();
    let again = expect_exit(
        &tmp,
        &[
            "pdb",
            "build",
            "pdb-555",
            "--goal",
            "both",
            "--pdb-dir",
            s(&cache),
        ],
        0,
    );
    assert!(
        !text(&again.stderr).contains("building"),
        "{}",
        show(&again)
    );
    let again_lines = build_lines(&again);
    for p in &all {
        assert_eq!(again_lines[&p.key()].2, lines[&p.key()].2);
    }
    let forced = expect_exit(
        &tmp,
        &["pdb", "build", "pdb-555", "--force", "--pdb-dir", s(&cache)],
        0,
    );
    for (p, bytes) in all.iter().zip(&before) {
        assert!(
            fs::read(file_of(&cache, p)).unwrap() == *bytes,
            "{}",
            p.key()
        );
        if p.blank == 0 {
            stderr_has(&forced, &format!("building {}", p.key()));
        }
    }
}

/// `pdb path` prints `--pdb-dir`, else `$XDG_CACHE_HOME/idabench`, else `$HOME/.cache/idabench`,
/// else refuses (exit 2) asking for `--pdb-dir`; `list` of a directory with no databases says so.
#[test]
fn pdb_path_and_an_empty_list() {
    let tmp = Tmp::new("path");
    let cache = cache(&tmp);
    let out = expect_exit(&tmp, &["pdb", "path", "--pdb-dir", s(&cache)], 0);
    assert_eq!(text(&out.stdout), format!("{}\n", s(&cache)));
    let out = expect_exit(&tmp, &["pdb", "path"], 0);
    assert_eq!(
        text(&out.stdout),
        format!("{}\n", s(&tmp.path().join("xdg").join("idabench")))
    );
    let mut c = cached(&tmp, &["pdb", "path"]);
    c.env("XDG_CACHE_HOME", "");
    let out = expect(c, 0);
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}\n",
            s(&tmp.path().join("home").join(".cache").join("idabench"))
        )
    );
    let mut c = cached(&tmp, &["pdb", "path"]);
    c.env_remove("XDG_CACHE_HOME").env_remove("HOME");
    let out = expect(c, 2);
    stderr_has(&out, "--pdb-dir");

    let out = expect_exit(&tmp, &["pdb", "list", "--pdb-dir", s(&cache)], 0);
    assert_eq!(
        text(&out.stdout),
        format!("no pattern databases in {}\n", s(&cache))
    );
    // A directory that is not there (a misspelt --pdb-dir) is not a sound cache.
    let out = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", s(&cache)], 2);
    stderr_has(&out, &format!("{}: no such directory", s(&cache)));
    assert!(out.stdout.is_empty(), "{}", show(&out));
    assert!(!cache.exists(), "list and verify created the directory");
    fs::create_dir_all(&cache).unwrap();
    let out = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", s(&cache)], 0);
    stdout_has(&out, "0 pattern database(s)");
}

// ---------------------------------------------------------------------------------------------
// Damaged files

/// Each kind of damage to one file of a good cache: `verify` exits 1 naming the file and what is
/// wrong; `run` or `solve` says so on stderr and builds it again; `verify` then passes and the file
/// is byte for byte the good one. With `--no-build` the damage is an error (exit 2) instead.
#[test]
fn damaged_databases_are_found_by_verify_and_rebuilt_by_run_and_solve() {
    let tmp = Tmp::new("damage");
    let cache = cache(&tmp);
    let c = s(&cache);
    expect_exit(&tmp, &["pdb", "build", "pdb-555", "-q", "--pdb-dir", c], 0);
    let ps = patterns(PDB_555, true);
    let (victim, other) = (file_of(&cache, &ps[0]), file_of(&cache, &ps[1]));
    let good = fs::read(&victim).unwrap();
    let header = good.len() - 524_160;
    let dataset = tmp.write("korf97.csv", &korf_csv(&[97]));

    type Damage = fn(&[u8], &Path) -> Vec<u8>;
    let cases: [(&str, Damage, &str, &str); 6] = [
        (
            "a flipped byte",
            |g, _| {
                let mut b = g.to_vec();
                let at = b.len() - 1000;
                b[at] ^= 0x04;
                b
            },
            "corrupt: the entries' CRC-32 is",
            "corrupt: the entries' CRC-32 is",
        ),
        (
            "a truncated file",
            |g, _| g[..g.len() - 4096].to_vec(),
            "truncated or padded: 520064 bytes of entries, expected 524160",
            "truncated or padded: 520064 bytes of entries, expected 524160",
        ),
        (
            "another pattern's file",
            |_, other| fs::read(other).unwrap(),
            "its header is for tiles-4x4-blank0-3.6.7.10.11, not the table its name says",
            "made for another table or version: pattern is 'tiles whose goal cells are 3 6 7 10 11'",
        ),
        (
            "another format version",
            |g, _| {
                let h = String::from_utf8(g[..g.len() - 524_160].to_vec()).unwrap();
                let h = h.replacen("\nformat: 1\n", "\nformat: 2\n", 1);
                [h.as_bytes(), &g[g.len() - 524_160..]].concat()
            },
            "made for another table or version: format is '2', expected '1'",
            "made for another table or version: format is '2', expected '1'",
        ),
        // Entries altered and the checksum made to match: a goal that is not 0 would make the
        // search iterate without end, since an estimate of 0 is its goal test.
        (
            "the goal's entry raised",
            |g, _| {
                with_entries(g, |e| {
                    let goal = e.iter().position(|&b| b == 0).unwrap();
                    e[goal] = 1;
                })
            },
            "damaged: the goal's entry (",
            "damaged: the goal's entry (",
        ),
        (
            "a second 0",
            |g, _| with_entries(g, |e| *e.last_mut().unwrap() = 0),
            "damaged: 2 entries are 0, where only the goal's (entry ",
            "damaged: 2 entries are 0, where only the goal's (entry ",
        ),
    ];
    assert!(good[..header].starts_with(b"idabench heuristic table\nformat: 1\n"));
    for (k, (what, damage, verify_says, rebuild_says)) in cases.into_iter().enumerate() {
        let bad = damage(&good, &other);
        assert!(bad != good, "{what}: nothing damaged");
        fs::write(&victim, &bad).unwrap();

        let out = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 1);
        stdout_has(&out, &format!("bad\t{}\t{verify_says}", s(&victim)));
        assert_eq!(text(&out.stdout).matches("ok\t").count(), 2, "{what}");
        stderr_has(
            &out,
            &format!("1 of 3 pattern database(s) in {c} are damaged"),
        );

        let out = expect_exit(&tmp, &solve_97("pdb-555", c, &["--no-build"]), 2);
        stderr_has(
            &out,
            &format!("pattern database {} in {c}: {rebuild_says}", ps[0].key()),
        );
        stderr_has(&out, "--no-build");
        assert!(
            fs::read(&victim).unwrap() == bad,
            "{what}: --no-build changed the file"
        );

        // Half the cases through `solve`, half through `run`.
        let out = if k % 2 == 0 {
            let out = expect_exit(&tmp, &solve_97("pdb-555", c, &[]), 0);
            solved_97(&out);
            out
        } else {
            let reports = tmp.path().join("reports");
            let name = format!("r{k}");
            let args = [
                "run",
                &dataset,
                "--heuristic",
                "pdb-555",
                "--pdb-dir",
                c,
                "--out",
                s(&reports),
                "--name",
                &name,
            ];
            expect_exit(&tmp, &args, 0)
        };
        // One line: the file, what is wrong with it, and what is done about it.
        let err = text(&out.stderr);
        let line = err
            .lines()
            .find(|l| l.starts_with(&format!("{}: ", s(&victim))))
            .unwrap_or_else(|| panic!("{what}: no line naming the file:\n{}", show(&out)));
        assert!(line.contains(rebuild_says), "{what}: {line}");
        assert!(line.ends_with(": building it again"), "{what}: {line}");
        expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 0);
        assert!(
            fs::read(&victim).unwrap() == good,
            "{what}: rebuilt differently"
        );
    }
}

/// A database file (header and entries) with its entries changed by `change` and its header's
/// CRC-32 made to match them.
fn with_entries(file: &[u8], change: impl Fn(&mut [u8])) -> Vec<u8> {
    let end = file.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let (header, entries) = file.split_at(end);
    let mut entries = entries.to_vec();
    let old = format!("crc32: {:08x}\n", crc32fast::hash(&entries));
    change(&mut entries);
    let new = format!("crc32: {:08x}\n", crc32fast::hash(&entries));
    let header = String::from_utf8(header.to_vec()).unwrap();
    assert!(header.contains(&old), "no {old:?} in {header}");
    [header.replacen(&old, &new, 1).as_bytes(), &entries].concat()
}

/// A FIFO named like a database, and a file padded far past its entries (sparse: a terabyte that
/// takes no room): `pdb list`, `pdb verify`, `solve --no-build`, `run --no-build` and `solve` end
/// at once, under a timeout, saying what the file is; `solve` builds the database again in its
/// place.
#[test]
fn a_fifo_or_a_huge_padded_file_in_the_cache_is_refused_at_once() {
    let tmp = Tmp::new("fifo-cache");
    let cache = cache(&tmp);
    let c = s(&cache);
    expect_exit(&tmp, &["pdb", "build", "pdb-555", "-q", "--pdb-dir", c], 0);
    let victim = file_of(&cache, &patterns(PDB_555, true)[0]);
    let good = fs::read(&victim).unwrap();

    fs::remove_file(&victim).unwrap();
    let made = Command::new("mkfifo").arg(&victim).status().unwrap();
    assert!(made.success());
    let fifo = "not a regular file but a FIFO (named pipe)";
    expect_exit(&tmp, &["pdb", "list", "--pdb-dir", c], 0);
    let out = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 1);
    stdout_has(&out, &format!("bad\t{}\tunreadable ({fifo})", s(&victim)));
    let out = expect_exit(&tmp, &solve_97("pdb-555", c, &["--no-build"]), 2);
    stderr_has(&out, fifo);
    let dataset = tmp.write("korf97.csv", &korf_csv(&[97]));
    let reports = tmp.path().join("reports");
    let run_args = [
        "run",
        &dataset,
        "--heuristic",
        "pdb-555",
        "--pdb-dir",
        c,
        "--out",
        s(&reports),
    ];
    let out = expect_exit(&tmp, &[&run_args[..], &["--no-build"]].concat(), 2);
    stderr_has(&out, fifo);
    let out = expect_exit(&tmp, &solve_97("pdb-555", c, &[]), 0);
    solved_97(&out);
    assert!(fs::read(&victim).unwrap() == good, "rebuilt differently");

    let padded = fs::OpenOptions::new().write(true).open(&victim).unwrap();
    padded.set_len(good.len() as u64 + (1 << 40)).unwrap();
    drop(padded);
    let out = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 1);
    stdout_has(
        &out,
        &format!(
            "truncated or padded: {} bytes of entries",
            524_160 + (1u64 << 40)
        ),
    );
}

/// `--no-build` and no database: exit 2, naming the database and the command that builds it;
/// nothing is written, and `run` leaves no run directory.
#[test]
fn no_build_with_an_empty_cache_is_a_usage_error() {
    let tmp = Tmp::new("nobuild");
    let cache = cache(&tmp);
    let c = s(&cache);
    let first = patterns(PDB_663, true)[0].key();
    let out = expect_exit(&tmp, &solve_97("pdb-663", c, &["--no-build"]), 2);
    for want in [
        &format!("pattern database {first} in {c}: not built yet"),
        "--no-build",
        &format!("`idabench pdb build pdb-663 --pdb-dir {c}` builds it"),
    ] {
        stderr_has(&out, want);
    }
    let dataset = tmp.write("korf97.csv", &korf_csv(&[97]));
    let reports = tmp.path().join("reports");
    let args = [
        "run",
        &dataset,
        "--heuristic",
        "pdb-663+reflect",
        "--pdb-dir",
        c,
        "--no-build",
        "--out",
        s(&reports),
    ];
    let out = expect_exit(&tmp, &args, 2);
    stderr_has(
        &out,
        &format!("pattern database {first} in {c}: not built yet"),
    );
    stderr_has(
        &out,
        &format!("`idabench pdb build pdb-663+reflect --pdb-dir {c}` builds it"),
    );
    assert!(names(&cache).is_empty());
    assert!(names(&reports).is_empty(), "{:?}", names(&reports));
}

// ---------------------------------------------------------------------------------------------
// Caches that cannot be written

/// A cache directory the user may not write: exit 1 with a message naming it, never a panic, and
/// nothing left in it. Root writes anyway, so the check is skipped there.
#[test]
fn a_read_only_cache_directory_is_a_runtime_error() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("skipped: root ignores directory permissions");
        return;
    }
    let tmp = Tmp::new("readonly");
    let cache = cache(&tmp);
    fs::create_dir(&cache).unwrap();
    fs::set_permissions(&cache, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    let c = s(&cache);
    let out = expect_exit(&tmp, &solve_97("pdb-555", c, &[]), 1);
    stderr_has(&out, &format!("cannot write a pattern database into {c}"));
    stderr_has(&out, "--pdb-dir");
    let out = expect_exit(&tmp, &["pdb", "build", "pdb-555", "-q", "--pdb-dir", c], 1);
    stderr_has(&out, &format!("cannot write a pattern database into {c}"));
    let sub = cache.join("sub");
    let out = expect_exit(
        &tmp,
        &["pdb", "build", "pdb-555", "-q", "--pdb-dir", s(&sub)],
        1,
    );
    stderr_has(
        &out,
        &format!("cannot create the pattern database directory {}", s(&sub)),
    );
    assert!(names(&cache).is_empty(), "{:?}", names(&cache));
}

/// A cache directory on a full disk, as a file-size limit makes it (the write fails with EFBIG
/// instead of ENOSPC, through the same path): exit 1 naming the directory, never a panic, and no
/// file left behind, half-written or temporary. Works for root too.
#[test]
fn a_full_cache_directory_is_a_runtime_error() {
    use std::os::unix::process::CommandExt;
    let tmp = Tmp::new("full");
    let cache = cache(&tmp);
    fs::create_dir(&cache).unwrap();
    let c = s(&cache);
    for args in [
        solve_97("pdb-555", c, &[]),
        vec!["pdb", "build", "pdb-555", "-q", "--pdb-dir", c],
    ] {
        let mut cmd = cached(&tmp, &args);
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 100_000,
                    rlim_max: 100_000,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Else the kernel kills the writer instead of failing the write.
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
        let out = expect(cmd, 1);
        stderr_has(&out, &format!("cannot write a pattern database into {c}"));
        stderr_has(&out, "File too large");
        assert!(names(&cache).is_empty(), "{:?}", names(&cache));
    }
}

/// `--pdb-dir` naming a regular file: every command that needs the directory exits 1 naming it.
#[test]
fn a_cache_path_that_is_a_file_is_a_runtime_error() {
    let tmp = Tmp::new("file");
    let file = tmp.path().join("not-a-dir");
    fs::write(&file, "x").unwrap();
    let f = s(&file);
    let out = expect_exit(&tmp, &solve_97("pdb-555", f, &[]), 1);
    stderr_has(
        &out,
        &format!("cannot create the pattern database directory {f}"),
    );
    let out = expect_exit(&tmp, &["pdb", "build", "pdb-555", "-q", "--pdb-dir", f], 1);
    stderr_has(
        &out,
        &format!("cannot create the pattern database directory {f}"),
    );
    for sub in ["list", "verify"] {
        let out = expect_exit(&tmp, &["pdb", sub, "--pdb-dir", f], 1);
        stderr_has(&out, &format!("{f}: Not a directory"));
    }
    assert_eq!(fs::read(&file).unwrap(), b"x");
}

/// Two `pdb build` processes writing the same databases at once both succeed and leave sound
/// files, the in-memory build's bytes, and no temporary file.
#[test]
fn two_builders_at_once_leave_sound_files() {
    let tmp = Tmp::new("race");
    let cache = cache(&tmp);
    let c = s(&cache);
    let args = ["pdb", "build", "pdb-555", "-q", "--pdb-dir", c];
    let children: Vec<_> = (0..2)
        .map(|_| {
            cached(&tmp, &args)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|child| child.wait_with_output().unwrap())
        .collect();
    for out in &outs {
        assert_eq!(out.status.code(), Some(0), "{}", show(out));
    }
    assert_eq!(build_lines(&outs[0]), build_lines(&outs[1]));
    let ps = patterns(PDB_555, true);
    let mut want: Vec<String> = ps.iter().map(|p| format!("{}.pdb", p.key())).collect();
    want.sort();
    assert_eq!(names(&cache), want);
    for p in &ps {
        assert!(entries_of(&file_of(&cache, p)) == pattern::build(p, &|_| {}));
    }
    expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 0);
}

// ---------------------------------------------------------------------------------------------
// Boards and goals without databases

/// A database heuristic on a board or goal it has no databases for is a usage error (exit 2) that
/// says which boards and goals work, before anything is built or any run directory made.
#[test]
fn unfit_boards_and_goals_are_usage_errors_naming_what_works() {
    let tmp = Tmp::new("unfit");
    let cache = cache(&tmp);
    let c = s(&cache);
    let reports = tmp.path().join("reports");
    let eight = tmp.write(
        "eight.csv",
        "id,domain,size,start,goal,optimal\ne,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n",
    );
    let run = |dataset: &str, h: &str| {
        let args = [
            "run",
            dataset,
            "--heuristic",
            h,
            "--pdb-dir",
            c,
            "--out",
            s(&reports),
        ];
        expect_exit(&tmp, &args, 2)
    };
    let out = run(&eight, "pdb-663");
    stderr_has(
        &out,
        &format!(
            "{eight}:2: instance 'e': pdb-663: the 6-6-3 pattern databases are for 4x4 boards, \
             not 3x3"
        ),
    );
    let middle = "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15";
    let fifteen = tmp.write(
        "middle.csv",
        &format!("id,domain,size,start,goal\nm,tiles,4x4,1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15,{middle}\n"),
    );
    let goals = "need a goal with the blank first (0 1 2 ... 15) or last (1 2 ... 15 0)";
    let out = run(&fifteen, "pdb-555+reflect");
    stderr_has(&out, goals);
    stderr_has(&out, "this goal has the blank on cell 5");
    let out = expect_exit(
        &tmp,
        &[
            "solve",
            "--size",
            "4x4",
            "--start",
            "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15",
            "--goal",
            middle,
            "--heuristic",
            "pdb-663",
            "--pdb-dir",
            c,
        ],
        2,
    );
    stderr_has(&out, goals);
    let out = expect_exit(&tmp, &solve_97("pdb-6666", c, &[]), 2);
    stderr_has(&out, "are for 5x5 boards, not 4x4");
    let out = expect_exit(&tmp, &["pdb", "build", "manhattan", "--pdb-dir", c], 2);
    stderr_has(
        &out,
        "'manhattan' is not a pattern-database heuristic: expected one of pdb-555",
    );
    assert!(!cache.exists(), "a cache was made: {:?}", names(&cache));
    assert!(names(&reports).is_empty(), "{:?}", names(&reports));
}

// ---------------------------------------------------------------------------------------------
// Weighted databases

/// Two 15-puzzles (goal with the blank first) a few moves from it, with their cheapest costs
/// under heavy moves, counted by hand: the blank left then up moves tiles 5 and 4 (9); left three
/// times moves 3, 2 and 1 (6).
const HEAVY_CSV: &str = "id,domain,size,start,goal,optimal_cost,cost_model
a,tiles,4x4,4 1 2 3 5 0 6 7 8 9 10 11 12 13 14 15,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15,9,heavy
b,tiles,4x4,1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15,6,heavy
";

/// pdb-555's tables under heavy costs, goal with the blank first.
fn heavy_555() -> Vec<WeightedPattern> {
    let goal: Vec<u8> = (0..16).collect();
    weighted_patterns(&Tiles::new(4, 4, &goal).unwrap(), PDB_555, CostModel::Heavy)
        .unwrap()
        .into_iter()
        .map(|(wp, _)| wp)
        .collect()
}

/// `pdb build --cost heavy` writes pdb-555's weighted tables (two bytes an entry, byte for byte
/// the in-memory build, the unit tables untouched); `list` names their cost model and `verify`
/// passes them; a `run --cost heavy` reads them, building nothing and leaving the files as they
/// were, and solves at the reference costs; an entry altered is `bad` in `verify` (exit 1) and
/// refused by `run --no-build`, naming the table.
#[test]
fn weighted_databases_are_built_listed_verified_and_read_by_a_run() {
    let tmp = Tmp::new("weighted");
    let cache = cache(&tmp);
    let c = s(&cache);
    let out = expect_exit(
        &tmp,
        &["pdb", "build", "pdb-555", "--cost", "heavy", "--pdb-dir", c],
        0,
    );
    let lines = build_lines(&out);
    let tables = heavy_555();
    assert_eq!(lines.len(), 3, "{}", show(&out));
    for wp in &tables {
        let key = wp.key();
        let (h, entries, crc, path) = &lines[&key];
        let file = cache.join(format!("{key}.pdb"));
        assert_eq!((h.as_str(), *entries), ("pdb-555/heavy", 524_160));
        assert_eq!(path, s(&file));
        let built = build_until(wp, &|_| {}, &AtomicBool::new(false)).unwrap();
        assert_eq!(built.len(), 2 * 524_160);
        assert!(entries_of(&file) == built, "{key}: entries differ");
        assert_eq!(*crc, format!("{:08x}", crc32fast::hash(&built)));
    }
    let mut expected: Vec<String> = tables
        .iter()
        .map(|wp| format!("{}.pdb", wp.key()))
        .collect();
    expected.sort();
    assert_eq!(names(&cache), expected, "only the weighted tables");

    let list = expect_exit(&tmp, &["pdb", "list", "--pdb-dir", c], 0);
    for wp in &tables {
        stdout_has(
            &list,
            &format!("{}\t524160 entries\t1.0 MB\tcost heavy\n", wp.key()),
        );
    }
    let verify = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 0);
    stdout_has(&verify, &format!("3 pattern database(s) in {c} are sound"));

    let dataset = tmp.write("heavy.csv", HEAVY_CSV);
    let reports = tmp.path().join("reports");
    let files: Vec<PathBuf> = tables
        .iter()
        .map(|wp| cache.join(format!("{}.pdb", wp.key())))
        .collect();
    let stamps = || -> Vec<_> {
        files
            .iter()
            .map(|f| fs::metadata(f).unwrap().modified().unwrap())
            .collect()
    };
    let before = stamps();
    let run = |name: &str, extra: &[&str], code: i32| {
        let mut args = vec![
            "run",
            &dataset,
            "--cost",
            "heavy",
            "--heuristic",
            "pdb-555",
            "--pdb-dir",
            c,
            "--out",
            s(&reports),
            "--name",
            name,
        ];
        args.extend_from_slice(extra);
        expect_exit(&tmp, &args, code)
    };
    let out = run("cached", &[], 0);
    assert!(!text(&out.stderr).contains("building"), "{}", show(&out));
    assert_eq!(stamps(), before);
    let dir = reports.join("cached");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let listed = manifest["pattern_databases"].as_array().unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    for db in listed {
        let name = db["name"].as_str().unwrap();
        let (_, entries, crc, path) = &lines[name];
        assert_eq!(db["crc32"].as_str(), Some(crc.as_str()), "{name}");
        assert_eq!(db["file"].as_str(), Some(path.as_str()), "{name}");
        assert_eq!(db["memory_bytes"].as_u64(), Some(2 * entries), "{name}");
    }
    let rows = rows(&dir, &["status", "cost", "length"]);
    let got: Vec<(&str, Vec<String>)> = rows
        .iter()
        .map(|((instance, _), r)| (instance.as_str(), r.clone()))
        .collect();
    let row = |status: &str, cost: &str, length: &str| {
        vec![status.to_string(), cost.to_string(), length.to_string()]
    };
    assert_eq!(
        got,
        [
            ("a", row("solved", "9.0", "2")),
            ("b", row("solved", "6.0", "3"))
        ]
    );

    // One bit of the first table's last entry flipped: its checksum no longer matches.
    let victim = &files[0];
    let good = fs::read(victim).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 2;
    bad[last] ^= 1;
    fs::write(victim, &bad).unwrap();
    let verify = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 1);
    stdout_has(&verify, &format!("bad\t{}\tcorrupt: ", s(victim)));
    stderr_has(
        &verify,
        &format!("1 of 3 pattern database(s) in {c} are damaged"),
    );
    let out = run("damaged", &["--no-build"], 2);
    stderr_has(
        &out,
        &format!("pattern database {} in {c}: corrupt: ", tables[0].key()),
    );
    stderr_has(&out, "--no-build forbids building it");
    assert!(!reports.join("damaged").exists());
}

/// Without their tables in the cache: `run --cost heavy --no-build` refuses (exit 2) naming the
/// first weighted table and the `pdb build` that makes it; `--memory-limit` counts the weighted
/// tables (two bytes an entry) and their builds (22 bytes an entry) and names the one at the
/// peak; a heuristic without a weighted form is refused before any table is built; a run then
/// builds each table once and writes only the weighted ones.
#[test]
fn weighted_runs_without_their_databases() {
    let tmp = Tmp::new("weighted-missing");
    let cache = cache(&tmp);
    let c = s(&cache);
    let dataset = tmp.write("heavy.csv", HEAVY_CSV);
    let tables = heavy_555();
    let run = |heuristic: &str, extra: &[&str], code: i32| {
        let mut args = vec![
            "run",
            &dataset,
            "--cost",
            "heavy",
            "--heuristic",
            heuristic,
            "--pdb-dir",
            c,
            "--out",
            "reports",
        ];
        args.extend_from_slice(extra);
        expect_exit(&tmp, &args, code)
    };
    let out = run("pdb-555", &["--no-build"], 2);
    stderr_has(
        &out,
        &format!(
            "pattern database {} in {c}: not built yet, and --no-build forbids building it; \
             `idabench pdb build pdb-555 --cost heavy --pdb-dir {c}` builds it",
            tables[0].key()
        ),
    );
    // Each table 524,160 x 2 bytes (1,048,320); built, 524,160 x 22 (11,531,520): the peak is
    // the third build beside the two tables before it, 13,628,160 bytes.
    let out = run("pdb-555", &["--memory-limit", "12M"], 2);
    stderr_has(
        &out,
        &format!(
            "--memory-limit 12 MiB (12582912 bytes): the 3 pattern database(s) take 3 MiB in \
             memory, building the 3 not yet in the cache (up to 11 MiB while one is built), \
             13 MiB at the peak (while {} is built)",
            tables[2].key()
        ),
    );
    let out = run("pdb-555", &["--memory-limit", "2M", "--no-build"], 2);
    stderr_has(
        &out,
        &format!(
            "the 3 pattern database(s) take 3 MiB in memory, 3 MiB at the peak (once {} is read)",
            tables[2].key()
        ),
    );
    let out = run("pdb-555+reflect", &[], 2);
    stderr_has(&out, "pdb-555+reflect has no weighted form");
    assert!(!cache.exists(), "nothing was built");

    let out = run("pdb-555", &["--memory-limit", "14M"], 0);
    let mut expected = Vec::new();
    for wp in &tables {
        let building = format!("building {}: 524160 entries", wp.key());
        assert_eq!(
            text(&out.stderr).matches(&building).count(),
            1,
            "{}",
            show(&out)
        );
        expected.push(format!("{}.pdb", wp.key()));
    }
    expected.sort();
    assert_eq!(names(&cache), expected);
}

// ---------------------------------------------------------------------------------------------
// Runs

/// runs.csv as (instance, variant) -> the named columns.
fn rows(dir: &Path, columns: &[&str]) -> BTreeMap<(String, String), Vec<String>> {
    let mut r = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let header = r.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                (
                    rec[col("instance")].to_string(),
                    rec[col("variant")].to_string(),
                ),
                columns.iter().map(|c| rec[col(c)].to_string()).collect(),
            )
        })
        .collect()
}

/// Eight of Korf's instances with pdb-663 and pdb-663+reflect, read from a cache `pdb build` made:
/// every job solved at the optimal length, with the same node counts, iterations and paths at
/// `--jobs 1` and `--jobs 2`; each run's manifest lists the three databases with the names,
/// sizes, checksums and files `pdb build` printed.
/// `--memory-limit` counts what is missing from the cache at the peak of its build (the table
/// twice, and the builder's tables: 1.12 MiB for a table of pdb-555), or
/// only the tables with `--no-build`; either way the run is refused before anything is built.
#[test]
fn a_memory_limit_counts_the_building_of_missing_databases() {
    let tmp = Tmp::new("memory");
    let cache = cache(&tmp);
    let c = s(&cache);
    let dataset = tmp.write("korf97.csv", &korf_csv(&[97]));
    let run = |extra: &[&str]| {
        let mut args = vec!["run", &dataset, "--heuristic", "pdb-555", "--pdb-dir", c];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", "reports", "--name", "never"]);
        expect_exit(&tmp, &args, 2)
    };
    let out = run(&["--memory-limit", "2M"]);
    stderr_has(
        &out,
        "--memory-limit 2 MiB (2097152 bytes): the 3 pattern database(s) take 1.5 MiB in memory, \
         building the 3 not yet in the cache (up to 1.12 MiB while one is built), 2.12 MiB at the peak",
    );
    let out = run(&["--memory-limit", "1M", "--no-build"]);
    stderr_has(
        &out,
        "--memory-limit 1 MiB (1048576 bytes): the 3 pattern database(s) take 1.5 MiB in memory, \
         1.5 MiB at the peak",
    );
    // `slurm` refuses what every task's `run` would, before it writes the script.
    let out = expect_exit(
        &tmp,
        &[
            "slurm",
            &dataset,
            "--heuristic",
            "pdb-555",
            "--pdb-dir",
            c,
            "--jobs",
            "1",
            "--shards",
            "2",
            "--memory-limit",
            "2M",
            "--script",
            "never.sbatch",
        ],
        2,
    );
    stderr_has(
        &out,
        "--memory-limit 2 MiB (2097152 bytes): the 3 pattern database(s)",
    );
    assert!(!tmp.path().join("never.sbatch").exists());
    assert!(!cache.exists(), "nothing was built");
    assert!(!tmp.path().join("reports/never").exists());
}

#[test]
fn database_runs_are_deterministic_and_their_manifest_names_the_databases() {
    let tmp = Tmp::new("runs");
    let cache = cache(&tmp);
    let c = s(&cache);
    let built = build_lines(&expect_exit(
        &tmp,
        &["pdb", "build", "pdb-663", "-q", "--pdb-dir", c],
        0,
    ));
    assert_eq!(built.len(), 3);
    let ids = [97, 42, 47, 93, 79, 9, 31, 74];
    let dataset = tmp.write("korf8.csv", &korf_csv(&ids));
    let reports = tmp.path().join("reports");
    let columns = [
        "status",
        "length",
        "optimal",
        "nodes_generated",
        "nodes_expanded",
        "iterations",
        "initial_h",
        "path",
    ];
    let mut results = Vec::new();
    let run = |name: &str, jobs: &str, memory: &str, code: i32| {
        let args = [
            "run",
            &dataset,
            "--heuristic",
            "pdb-663,pdb-663+reflect",
            "--jobs",
            jobs,
            "--pdb-dir",
            c,
            "--out",
            s(&reports),
            "--name",
            name,
            "--memory-limit",
            memory,
        ];
        expect_exit(&tmp, &args, code)
    };
    // The three tables take 11,534,880 bytes: 11M (11,534,336) is too little, refused before
    // any job, and the run directory is not made.
    let out = run("small", "1", "11M", 2);
    stderr_has(
        &out,
        "--memory-limit 11 MiB (11534336 bytes): the 3 pattern database(s) take 11 MiB in \
         memory, 11 MiB at the peak",
    );
    assert!(!reports.join("small").exists());
    for jobs in ["1", "2"] {
        let name = format!("jobs{jobs}");
        let out = run(&name, jobs, "12M", 0);
        // Read from the cache, not built again.
        assert!(!text(&out.stderr).contains("building"), "{}", show(&out));
        let dir = reports.join(&name);
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
        let listed = manifest["pattern_databases"].as_array().unwrap();
        assert_eq!(listed.len(), 3, "{listed:?}");
        for db in listed {
            let name = db["name"].as_str().unwrap();
            let (_, entries, crc, path) = &built[name];
            assert_eq!(db["entries"].as_u64(), Some(*entries), "{name}");
            assert_eq!(db["crc32"].as_str(), Some(crc.as_str()), "{name}");
            assert_eq!(db["file"].as_str(), Some(path.as_str()), "{name}");
            // One byte an entry.
            assert_eq!(db["memory_bytes"].as_u64(), Some(*entries), "{name}");
        }
        let peak = manifest["peak_resident_bytes"].as_u64().unwrap();
        assert!(peak > 11_534_880, "{peak}: the tables are resident");
        for file in ["summary.md", "report.html"] {
            let page = fs::read_to_string(dir.join(file)).unwrap();
            assert!(
                page.contains("at the peak (resident); pattern databases: 3 of 11 MiB in all"),
                "{file}: {page}"
            );
        }
        let rows = rows(&dir, &columns);
        assert_eq!(rows.len(), ids.len() * 2);
        for ((instance, variant), r) in &rows {
            assert_eq!(r[0], "solved", "{instance} {variant}");
            assert_eq!(r[1], r[2], "{instance} {variant}: length against optimal");
        }
        results.push(rows);
    }
    assert_eq!(results[0], results[1], "--jobs 1 against --jobs 2");
}

/// Zero-aware databases are built, listed under their own names and sizes, verified sound, and
/// read by a run whose lengths are the optimal ones; damage to one is found by `verify`.
#[test]
fn zero_aware_databases_are_built_listed_verified_and_read_by_a_run() {
    let tmp = Tmp::new("zero-aware");
    let cache = cache(&tmp);
    let c = s(&cache);
    let out = expect_exit(&tmp, &["pdb", "build", "pdb-555z", "--pdb-dir", c], 0);
    let lines = build_lines(&out);
    assert_eq!(lines.len(), 3, "{}", show(&out));
    for (key, (h, entries, _, _)) in &lines {
        assert!(key.contains("-zero-"), "{key}");
        assert_eq!((h.as_str(), *entries), ("pdb-555z", 524_160), "{key}");
    }
    let list = expect_exit(&tmp, &["pdb", "list", "--pdb-dir", c], 0);
    for key in lines.keys() {
        stdout_has(&list, &format!("{key}\t524160 entries\t"));
    }
    let verify = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 0);
    stdout_has(&verify, &format!("3 pattern database(s) in {c} are sound"));
    let solved = expect_exit(&tmp, &solve_97("pdb-555z+reflect", c, &["--no-build"]), 0);
    solved_97(&solved);
    // A changed entry (the checksum left as it was) is damage that verify names.
    let key = lines.keys().next().unwrap();
    let file = cache.join(format!("{key}.pdb"));
    let mut bytes = fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&file, bytes).unwrap();
    let verify = expect_exit(&tmp, &["pdb", "verify", "--pdb-dir", c], 1);
    stdout_has(&verify, key);
}
