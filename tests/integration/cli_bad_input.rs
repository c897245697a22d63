//! Bad input through the binary, as a user would give it: every file of tests/data/bad through
//! `run`, bad values of every subcommand's flags, judge input that is not what the judge sends,
//! files that never end, values too long to echo, and outputs that cannot be written.
//!
//! Each case checks the documented exit code (2 for usage and input, 1 for a failed write), that
//! the message names the flag, file or field at fault, that it stays short, and that nothing
//! panicked.

use crate::common::{
    assert_exit, command, dataset, idabench, limit_memory, names, root, show, text, with_stdin,
    with_stdin_within, within, Tmp,
};
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// What a case must print on stderr, beyond the common checks.
struct Case<'a> {
    args: Vec<&'a str>,
    stdin: &'a [u8],
    code: i32,
    needles: Vec<&'a str>,
}

fn case<'a>(args: &[&'a str], code: i32, needles: &[&'a str]) -> Case<'a> {
    Case {
        args: args.to_vec(),
        stdin: b"",
        code,
        needles: needles.to_vec(),
    }
}

fn judge<'a>(problem: &'a str, stdin: &'a [u8], needles: &[&'a str]) -> Case<'a> {
    Case {
        args: vec!["solve", "--format", "judge", "--problem", problem],
        stdin,
        code: 2,
        needles: needles.to_vec(),
    }
}

/// Runs every case, each within `HANG`, and lists all the failures at once.
fn check_all(dir: &Path, cases: &[Case]) -> usize {
    let mut failures = Vec::new();
    for c in cases {
        let out = with_stdin_within(command(dir, &c.args), c.stdin);
        if let Some(why) = fault(&out, c.code, &c.needles) {
            failures.push(format!("idabench {}: {why}", shown(&c.args.join(" "))));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    cases.len()
}

/// Why `out` is not a clean refusal with `code` whose message holds every needle.
fn fault(out: &Output, code: i32, needles: &[&str]) -> Option<String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut why = Vec::new();
    if out.status.code() != Some(code) {
        why.push(format!("exit {:?}, wanted {code}", out.status.code()));
    }
    if stderr.contains("panicked") {
        why.push("panicked".into());
    }
    if stderr.trim().is_empty() {
        why.push("no message".into());
    }
    // Long enough for clap's usage lines, short enough that no long value was echoed whole.
    if stderr.len() > 1000 {
        why.push(format!("a message of {} bytes", stderr.len()));
    }
    for n in needles {
        if !stderr.contains(n) {
            why.push(format!("no '{n}'"));
        }
    }
    (!why.is_empty()).then(|| format!("{}\nstderr: {}", why.join(", "), shown(&stderr)))
}

fn shown(s: &str) -> String {
    match s.char_indices().nth(600) {
        Some((at, _)) => format!("{}... ({} bytes)", &s[..at], s.len()),
        None => s.to_owned(),
    }
}

fn bad_dir() -> PathBuf {
    root().join("tests/data/bad")
}

/// Every file of tests/data/bad through `run`: exit 2 with the message its `.expect` file holds,
/// naming the file, and no report or run directory; a dataset that does not exist, likewise.
#[test]
fn every_bad_dataset_stops_run_with_its_message() {
    let tmp = Tmp::new("datasets");
    let mut csvs: Vec<PathBuf> = fs::read_dir(bad_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    csvs.sort();
    assert!(csvs.len() >= 40, "only {} bad files", csvs.len());
    let reports = tmp.at("reports");
    let mut failures = Vec::new();
    for csv in &csvs {
        let expect = fs::read_to_string(csv.with_extension("expect")).unwrap();
        let expect = expect.trim_end_matches(['\n', '\r']);
        let name = csv.file_name().unwrap().to_str().unwrap();
        let args = [
            "run",
            csv.to_str().unwrap(),
            "--out",
            &reports,
            "--name",
            "bad",
            "--quiet",
        ];
        let out = with_stdin_within(command(tmp.path(), &args), b"");
        if let Some(why) = fault(&out, 2, &[name, expect]) {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    assert!(
        !tmp.run_dir("bad").exists(),
        "no run directory for bad input"
    );
    assert!(
        names(tmp.path()).is_empty(),
        "a refused run wrote {:?}",
        names(tmp.path())
    );

    // A missing dataset file.
    let missing = tmp.at("no_such_dataset.csv");
    let args = ["run", &missing, "--out", &reports, "--name", "missing"];
    let out = idabench(tmp.path(), &args);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("no_such_dataset.csv"),
        "{}",
        show(&out)
    );
}

const ROTATION: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3";
const KNIGHTS: &str = "10110 01*11 10111 01001 00000";
const EIGHT: &str = "1 2 3 4 5 6 7 8 0";

#[test]
fn bad_solve_values_name_the_flag() {
    let tmp = Tmp::new("solve");
    let long = "9".repeat(100_000);
    let long_start = format!("1 2 {long} 4 5 6 7 8 0");
    let cut = format!("'{}...'", &long[..40]);
    let cut_token = format!("token 3 {cut}");
    let cut_size = format!("invalid size {cut}");
    let bad_digit = ROTATION.replacen('2', "4", 1);
    let base = ["solve", "--size", "3x3", "--start", EIGHT];
    let solve = |extra: &[&'static str]| [&base[..], extra].concat();
    let cases = [
        case(
            &["solve", "--size", "4by4", "--start", "1 2 3"],
            2,
            &["--size", "invalid size '4by4'", "WIDTHxHEIGHT"],
        ),
        case(
            &["solve", "--size", "3x3", "--start", "1 2 x 4 5 6 7 8 0"],
            2,
            &["--start", "token 3 'x' is not a tile number"],
        ),
        case(
            &["solve", "--size", "3x3", "--start", "1 2 3"],
            2,
            &["--start", "expected 9 tiles (0 to 8), found 3"],
        ),
        case(&["solve", "--start", EIGHT], 2, &["--size", "WIDTHxHEIGHT"]),
        case(
            &["solve", "--size", "3x3", "--start", &long_start],
            2,
            &["--start", &cut_token],
        ),
        case(
            &["solve", "--size", &long, "--start", EIGHT],
            2,
            &["--size", &cut_size],
        ),
        case(
            &solve(&["--goal", "1 1 2 3 4 5 6 7 0"]),
            2,
            &["goal", "tile 1 appears twice"],
        ),
        case(
            &["solve", "--domain", "cube", "--start", "1"],
            2,
            &["--domain", "unknown domain 'cube'", "tiles, rotation"],
        ),
        case(
            &["solve", "--domain", &long, "--start", "1"],
            2,
            &["--domain", &cut],
        ),
        case(
            &solve(&["--heuristic", "fast"]),
            2,
            &["--heuristic", "unknown heuristic 'fast'", "manhattan"],
        ),
        case(
            &[&base[..], &["--heuristic", &long]].concat(),
            2,
            &["--heuristic", &cut],
        ),
        case(
            &solve(&["--heuristic", "center"]),
            2,
            &["heuristic 'center' does not apply to tiles"],
        ),
        case(&solve(&["--step", "3"]), 2, &["--step", "unknown step '3'"]),
        case(
            &solve(&["--reverse-pruning", "maybe"]),
            2,
            &["--reverse-pruning", "'maybe'"],
        ),
        case(
            &solve(&["--time-limit=-1"]),
            2,
            &["--time-limit", "'-1' is not a positive number of seconds"],
        ),
        case(&solve(&["--max-nodes", "lots"]), 2, &["--max-nodes"]),
        case(&solve(&["--format", "pdf"]), 2, &["--format", "'pdf'"]),
        case(
            &[
                "solve", "--domain", "rotation", "--size", "9x9", "--start", ROTATION,
            ],
            2,
            &["--size", "'9x9': the board is fixed"],
        ),
        case(
            &["solve", "--domain", "rotation", "--start", &bad_digit],
            2,
            &["--start", "digit 4 at position 6: expected 1, 2 or 3"],
        ),
        case(
            &[
                "solve", "--domain", "rotation", "--start", ROTATION, "--goal", ROTATION,
            ],
            2,
            &["--goal", "fixed goal"],
        ),
        case(
            &[
                "solve", "--domain", "knights", "--size", "6x6", "--start", KNIGHTS,
            ],
            2,
            &["--size", "the board is 5x5"],
        ),
        case(
            &[
                "solve",
                "--domain",
                "knights",
                "--start",
                "11111 01x11 00*11 00001 00000",
            ],
            2,
            &["--start", "character 'x' at position 8"],
        ),
        case(
            &[
                "solve",
                "--domain",
                "knights",
                "--start",
                "11111 0111 100*11 00001 00000",
            ],
            2,
            &[
                "--start",
                "row 2 has 4 cells: rows have the board's width, 5",
            ],
        ),
        case(
            &["solve", "--domain", "booksort", "--start", "1 2 2"],
            2,
            &["--start", "book 2 appears twice (positions 2 and 3)"],
        ),
        case(
            &["solve", "--domain", "booksort", "--start", "1 2 x"],
            2,
            &["--start", "token 3 'x' is not a book number"],
        ),
        case(
            &["solve", "--format", "judge", "--start", EIGHT],
            2,
            &["--format judge needs --problem"],
        ),
        case(
            &["solve", "--format", "judge"],
            2,
            &["--format judge needs --problem"],
        ),
        case(
            &["solve", "--problem", "p1379"],
            2,
            &["--problem goes with --format judge"],
        ),
        // The judge's input says the puzzle: flags that would say another are refused, not
        // ignored.
        case(
            &[
                "solve",
                "--format",
                "judge",
                "--problem",
                "p1379",
                "--size",
                "3x3",
                "--start",
                EIGHT,
            ],
            2,
            &[
                "'--problem <PROBLEM>' cannot be used with",
                "--size",
                "--start",
            ],
        ),
        case(
            &[
                "solve",
                "--format",
                "judge",
                "--problem",
                "p1379",
                "--heuristic",
                "manhattan",
            ],
            2,
            &["'--problem <PROBLEM>' cannot be used with", "--heuristic"],
        ),
        case(
            &["solve", "--format", "judge", "--problem", "p9999"],
            2,
            &["--problem", "unknown problem 'p9999'"],
        ),
        case(&["solve"], 2, &["--start"]),
        case(&["frobnicate"], 2, &["frobnicate"]),
    ];
    assert!(check_all(tmp.path(), &cases) >= 25);
}

#[test]
fn judge_input_that_is_not_the_judges_is_refused_by_line_or_case() {
    let tmp = Tmp::new("judge");
    let bad_digit = format!("{}\n0\n", ROTATION.replacen('2', "4", 1));
    let long_line = "7".repeat(2 << 20);
    let cases = [
        judge(
            "p1379",
            b"hello\n",
            &["p1379", "'hello': expected 9 digits"],
        ),
        judge("p1379", b"", &["p1379", "empty input"]),
        judge(
            "uva10181",
            b"2\n1 2 3\n",
            &["uva10181", "board 1: expected 16 numbers, found 3"],
        ),
        judge(
            "uva10181",
            b"many\n",
            &["uva10181", "'many': expected the number of boards"],
        ),
        judge(
            "poj2286",
            ROTATION.as_bytes(),
            &["poj2286", "must end with a line holding 0"],
        ),
        judge(
            "poj2286",
            bad_digit.as_bytes(),
            &["poj2286", "line 1: digit 4 at position 6"],
        ),
        judge(
            "poj3460",
            b"1\n3\n1 x 2\n",
            &["poj3460", "case 1: 'x': expected a book number"],
        ),
        judge(
            "p2324",
            b"1\n11111 01x11 00*11 00001 00000\n",
            &["p2324", "case 1: character 'x' at position 8"],
        ),
        // 25 cells, in rows of 6, 4, 5, 5 and 5.
        judge(
            "p2324",
            b"1\n111110\n1111\n00*11\n00001\n00000\n",
            &[
                "p2324",
                "case 1: row 1 has 6 cells: rows have the board's width, 5",
            ],
        ),
        judge(
            "tioj1573",
            b"1 2 3\n",
            &["tioj1573", "expected 16 numbers, found 3"],
        ),
        judge("p1379", b"\xff\xfe12345678\n", &["stdin", "UTF-8"]),
        judge(
            "p1379",
            long_line.as_bytes(),
            &["stdin:1: line longer than the limit of 1048576 bytes"],
        ),
    ];
    assert!(check_all(tmp.path(), &cases) >= 10);
}

#[test]
fn judge_input_from_an_endless_stream_stops_at_the_bound() {
    let tmp = Tmp::new("judge-zero");
    let zero = fs::File::open("/dev/zero").unwrap();
    let out = command(
        tmp.path(),
        &["solve", "--format", "judge", "--problem", "p1379"],
    )
    .stdin(zero)
    .output()
    .unwrap();
    assert_eq!(
        fault(&out, 2, &["stdin:1: line longer than the limit"]),
        None
    );
}

#[test]
fn bad_generate_values_name_the_flag_and_write_nothing() {
    let tmp = Tmp::new("generate");
    let out = tmp.at("out.csv");
    let generate = |extra: &[&'static str]| {
        let mut args = vec!["generate"];
        args.extend_from_slice(extra);
        args.extend(["--out", out.as_str()]);
        args
    };
    let cases = [
        case(
            &generate(&["--size", "3x3", "--count", "0"]),
            2,
            &["--count", "1 or more"],
        ),
        case(&generate(&["--size", "3x3", "--count=-3"]), 2, &["--count"]),
        case(
            &generate(&["--size", "3x3", "--count", "many"]),
            2,
            &["--count", "'many' is not a count"],
        ),
        case(
            &generate(&["--domain", "rotation", "--size", "9x9", "--count", "2"]),
            2,
            &["--size: '9x9'", "board is fixed"],
        ),
        case(
            &generate(&["--domain", "knights", "--size", "6x6", "--count", "2"]),
            2,
            &["--size: '6x6'", "5x5"],
        ),
        case(
            &generate(&["--domain", "booksort", "--count", "2"]),
            2,
            &["--size", "number of books"],
        ),
        case(
            &generate(&["--domain", "booksort", "--size", "16", "--count", "2"]),
            2,
            &["--size: '16'", "1 to 15"],
        ),
        case(
            &generate(&["--domain", "booksort", "--size", "many", "--count", "2"]),
            2,
            &["--size: 'many'", "number of books"],
        ),
        case(
            &generate(&["--domain", "tiles", "--count", "2"]),
            2,
            &["--size", "WIDTHxHEIGHT"],
        ),
        case(
            &generate(&["--size", "3y3", "--count", "2"]),
            2,
            &["--size", "invalid size '3y3'"],
        ),
        case(
            &generate(&["--size", "3x3", "--goal", "1 2 3", "--count", "2"]),
            2,
            &["--goal", "expected 9 tiles (0 to 8), found 3"],
        ),
        case(
            &generate(&["--domain", "knights", "--goal", "x", "--count", "1"]),
            2,
            &["--goal", "fixed goal"],
        ),
        case(
            &generate(&["--domain", "cube", "--count", "1"]),
            2,
            &["--domain", "unknown domain 'cube'"],
        ),
        case(
            &generate(&["--size", "4x4", "--all"]),
            2,
            &["--all", "at most 10 cells", "4x4"],
        ),
        case(
            &generate(&["--domain", "rotation", "--all"]),
            2,
            &["--all is for tiles and --puzzle only"],
        ),
        case(&generate(&["--size", "3x3"]), 2, &["--count"]),
        case(
            &generate(&["--size", "3x3", "--all", "--count", "3"]),
            2,
            &["--all", "--count"],
        ),
        case(
            &generate(&["--size", "3x3", "--count", "2", "--walk", "far"]),
            2,
            &["--walk", "'far'"],
        ),
    ];
    assert!(check_all(tmp.path(), &cases) >= 15);
    assert!(names(tmp.path()).is_empty(), "left {:?}", names(tmp.path()));
}

#[test]
fn outputs_that_cannot_be_written_exit_1_and_leave_nothing_behind() {
    let tmp = Tmp::new("unwritable");
    let missing = tmp.at("no/such/dir/out.csv");
    let is_dir = tmp.at("taken");
    fs::create_dir(&is_dir).unwrap();
    let cases = [
        case(
            &[
                "generate", "--size", "3x3", "--count", "2", "--out", &missing,
            ],
            1,
            &[&missing],
        ),
        case(
            &[
                "generate", "--size", "3x3", "--count", "2", "--out", &is_dir,
            ],
            1,
            &[&is_dir],
        ),
    ];
    check_all(tmp.path(), &cases);
    assert_eq!(names(tmp.path()), ["taken"]);

    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = command(tmp.path(), &["generate", "--size", "3x3", "--count", "5"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(fault(&out, 1, &["stdout", "No space left"]), None);
}

#[test]
fn a_write_that_fails_halfway_removes_the_temporary_file() {
    let tmp = Tmp::new("halfway");
    let path = tmp.at("big.csv");
    let mut c = command(
        tmp.path(),
        &[
            "generate", "--size", "4x4", "--count", "100000", "--out", &path,
        ],
    );
    // SAFETY: only async-signal-safe calls between fork and exec. Files may not grow past
    // 64 KiB, and the signal that would kill the process at the limit is ignored, so the write
    // fails with EFBIG halfway through the dataset.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 64 << 10,
                rlim_max: 64 << 10,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = c.output().unwrap();
    assert_eq!(fault(&out, 1, &[&path, "too large"]), None);
    assert!(names(tmp.path()).is_empty(), "left {:?}", names(tmp.path()));
}

#[test]
fn generate_streams_rows_instead_of_holding_them() {
    // Two billion rows would need about 100 GB held in memory; with 256 MiB of address space
    // the first rows can only arrive if they are written as they are made.
    let tmp = Tmp::new("stream");
    let mut c = command(
        tmp.path(),
        &["generate", "--size", "3x3", "--count", "2000000000"],
    );
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 256 << 20,
                rlim_max: 256 << 20,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let header = lines.next().and_then(Result::ok);
    let first = lines.next().and_then(Result::ok);
    // Closing the pipe ends the program (SIGPIPE), as `| head` would.
    drop(lines);
    child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(header.as_deref(), Some("id,domain,size,start,goal,optimal"));
    assert!(first.is_some_and(|l| l.starts_with("1,tiles,3x3,")));
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_dataset_files_and_run_values_name_the_file_or_flag() {
    let tmp = Tmp::new("run");
    let reports = tmp.at("reports");
    let good = tmp.at("good.csv");
    fs::write(
        &good,
        format!("id,domain,size,start\n1,tiles,3x3,{EIGHT}\n"),
    )
    .unwrap();
    let huge_token = tmp.at("huge_token.csv");
    let row = format!(
        "id,domain,size,start\n1,tiles,3x3,1 2 {}\n",
        "7".repeat(10 << 20)
    );
    fs::write(&huge_token, row).unwrap();
    let long_token = tmp.at("long_token.csv");
    let token = "7".repeat(1_000_000);
    let row = format!("id,domain,size,start\n1,tiles,3x3,1 2 {token} 4 5 6 7 8 0\n");
    fs::write(&long_token, row).unwrap();
    let long_id = tmp.at("long_id.csv");
    let id = "i".repeat(500_000);
    let rows = format!("id,domain,size,start\n{id},tiles,3x3,{EIGHT}\n{id},tiles,3x3,{EIGHT}\n");
    fs::write(&long_id, rows).unwrap();
    let missing = tmp.at("missing.csv");
    let run = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = vec!["run".into(), "--quiet".into(), "--out".into()];
        args.push(reports.clone());
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let cases: Vec<(Vec<String>, Vec<String>)> = vec![
        (
            run(&[&missing]),
            vec![missing.clone(), "cannot read the dataset".into()],
        ),
        (
            run(&["/dev/zero"]),
            vec!["/dev/zero:1: line longer than the limit of 1048576 bytes (1 MiB)".into()],
        ),
        (
            run(&[tmp.path().to_str().unwrap()]),
            vec![
                format!("{}: cannot read the dataset", tmp.path().display()),
                "directory".into(),
            ],
        ),
        (
            run(&[&huge_token]),
            vec![format!("{huge_token}:2: line longer than the limit")],
        ),
        (
            run(&[&long_token]),
            vec![format!(
                "{long_token}:2: column 'start': token 3 '{}...' is not a tile number",
                &token[..40]
            )],
        ),
        (
            run(&[&long_id]),
            vec![format!(
                "{long_id}:3: column 'id': duplicate id '{}...'",
                &id[..40]
            )],
        ),
        (
            run(&[&good, "--heuristic", "fast"]),
            vec!["--heuristic".into(), "unknown heuristic 'fast'".into()],
        ),
        (
            run(&[&good, "--step", "3"]),
            vec!["--step".into(), "unknown step '3'".into()],
        ),
        (run(&[&good, "--jobs", "0"]), vec!["--jobs".into()]),
        (
            run(&[&good, "--reverse-pruning", "sometimes"]),
            vec!["--reverse-pruning".into()],
        ),
        (
            run(&[&good, "--time-limit", "0"]),
            vec!["--time-limit".into(), "positive number of seconds".into()],
        ),
        // A negative value is the flag's value, judged as one, not taken for another flag.
        (
            run(&[&good, "--time-limit", "-1"]),
            vec!["'-1' is not a positive number of seconds".into()],
        ),
        (
            run(&[&good, "--max-nodes", "0"]),
            vec!["'0' is not a node count: expected a whole number, 1 or more".into()],
        ),
        (
            run(&[&good, "--max-nodes", "-5"]),
            vec!["'-5' is not a node count".into()],
        ),
        (
            run(&[&good, "--name", "../x"]),
            vec!["--name '../x'".into(), "plain directory name".into()],
        ),
        (
            run(&[&good, "--name", &"n".repeat(300)]),
            vec![
                "300 bytes, longer than a directory name may be (255)".into(),
                "--name 'nnn".into(),
            ],
        ),
        (run(&[]), vec!["DATASET".into()]),
    ];
    let mut failures = Vec::new();
    for (args, needles) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
        let out = with_stdin(command(tmp.path(), &args), b"");
        if let Some(why) = fault(&out, 2, &needles) {
            failures.push(format!("idabench {}: {why}", shown(&args.join(" "))));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    assert!(!Path::new(&reports).exists(), "a refused run wrote reports");
}

#[test]
fn bad_compare_inputs_name_the_file() {
    let tmp = Tmp::new("compare");
    let garbage = tmp.at("garbage");
    fs::create_dir(&garbage).unwrap();
    fs::write(tmp.path().join("garbage/runs.csv"), "not,a\nreport\n").unwrap();
    let missing = tmp.at("missing");
    let cases = [
        case(&["compare", &missing, &missing], 2, &[&missing]),
        case(&["compare", &garbage, &garbage], 2, &["runs.csv"]),
        case(
            &["compare", &garbage, &garbage, "--time-threshold", "fast"],
            2,
            &["--time-threshold", "'fast'"],
        ),
        case(
            &["compare", &garbage, &garbage, "--format", "pdf"],
            2,
            &["--format", "'pdf'"],
        ),
        case(&["compare", &garbage], 2, &["CURRENT"]),
        case(
            &["compare", "/dev/zero", "/dev/zero"],
            2,
            &["/dev/zero:1", "line longer than the limit"],
        ),
        case(
            &["compare", &garbage, &garbage, "--time-threshold", "0.5"],
            2,
            &["time threshold must be a number of at least 1"],
        ),
    ];
    check_all(tmp.path(), &cases);
}

/// `n` in base 36, lowercase: short distinct column names.
fn base36(mut n: usize) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

/// A header of 200,000 distinct columns (a line just under the 1 MiB bound), as a dataset and as
/// a runs.csv: checked in one pass, not each name against every other (minutes), and refused
/// with a message that quotes a few names and counts the others instead of all of them.
#[test]
fn a_header_of_many_columns_is_refused_in_one_pass_and_briefly() {
    let tmp = Tmp::new("wide");
    // None of them a dataset's column.
    let names: Vec<String> = (0..)
        .map(base36)
        .filter(|n| n != "id")
        .take(200_000)
        .collect();
    let header = names.join(",");
    assert!(header.len() < 1 << 20, "{} bytes", header.len());
    let wide = tmp.write("wide.csv", &format!("{header}\n1\n"));
    // The one name given twice is the last: a pair check meets it only after all the others.
    let last = names.last().unwrap();
    let twice = tmp.write("twice.csv", &format!("id,domain,start,{header},{last}\n"));
    fs::create_dir(tmp.path().join("run")).unwrap();
    let runs = tmp.write("run/runs.csv", &format!("{header}\n"));
    let out = tmp.out();
    let twice_fields = format!("twice (fields {} and {})", names.len() + 3, names.len() + 4);
    let cases = [
        case(
            &["run", &wide, "--out", &out],
            2,
            &[
                "wide.csv:1: missing header",
                "'0', '1', '2'",
                "and 199992 more",
            ],
        ),
        case(
            &["run", &twice, "--out", &out],
            2,
            &["twice.csv:1: the header names column", &twice_fields],
        ),
        case(
            &["compare", &runs, &runs],
            2,
            &["runs.csv:1: not a runs.csv of idabench"],
        ),
        case(
            &["plot", &runs, "--out", &out],
            2,
            &["runs.csv:1: not a runs.csv of idabench"],
        ),
    ];
    check_all(tmp.path(), &cases);
    assert!(!tmp.path().join("reports").exists());
}

/// A CPU time no run measures (beyond 10^9 s, or not finite) in a runs.csv is refused where it is
/// read, naming the file, line and column and the range: before, 1.7e308 made the pictures'
/// log axes step through 2^31 decades and abort on a failed allocation (exit 134).
#[test]
fn absurd_times_in_a_runs_csv_are_refused_by_plot_and_compare() {
    let tmp = Tmp::new("absurd");
    let base = root().join("reports/baseline");
    let text = fs::read_to_string(base.join("runs.csv")).unwrap();
    let column = text
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "time_cpu_s")
        .unwrap();
    let mut cases_dirs = Vec::new();
    for (k, value) in ["1e308", "1.7e308", "1e30", "1000000001", "inf"]
        .iter()
        .enumerate()
    {
        let dir = tmp.path().join(format!("run{k}"));
        fs::create_dir(&dir).unwrap();
        fs::copy(base.join("manifest.json"), dir.join("manifest.json")).unwrap();
        let edited: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let mut cells: Vec<&str> = line.split(',').collect();
                if i == 1 {
                    cells[column] = value;
                }
                cells.join(",") + "\n"
            })
            .collect();
        fs::write(dir.join("runs.csv"), edited.concat()).unwrap();
        cases_dirs.push(dir.to_str().unwrap().to_owned());
    }
    let baseline = base.to_str().unwrap();
    let out = tmp.out();
    let needles = ["runs.csv:2: column `time_cpu_s`: expected a number of seconds from 0 to 1e9"];
    let mut cases = Vec::new();
    for dir in &cases_dirs {
        cases.push(case(&["plot", dir, "--out", &out], 2, &needles));
        cases.push(case(
            &["compare", dir, baseline, "--out", &out],
            2,
            &needles,
        ));
        cases.push(case(
            &["compare", baseline, dir, "--out", &out],
            2,
            &needles,
        ));
    }
    check_all(tmp.path(), &cases);
    assert!(!tmp.path().join("reports").exists());
}

/// Threads that cannot be started are a runtime error, exit 1, for `solve` as for `run`, saying
/// how many were asked for. Each thread asks for a 1 GiB stack in 512 MiB of address space, so the
/// first one already fails and the heap keeps its room (a thousand 2 MiB stacks filled the address
/// space until an allocation elsewhere aborted the process, about one run in forty).
#[test]
fn threads_that_cannot_start_are_exit_1_for_solve_and_run() {
    let tmp = Tmp::new("threads");
    let data = dataset("smoke.csv");
    let out = tmp.at("o");
    let cases: [Vec<&str>; 2] = [
        vec![
            "solve",
            "--size",
            "3x3",
            "--start",
            "1 2 3 4 5 6 7 0 8",
            "--jobs",
            "1000",
        ],
        vec!["run", &data, "--jobs", "1000", "--out", &out, "--quiet"],
    ];
    for args in cases {
        let mut cmd = command(tmp.path(), &args);
        cmd.env("RUST_MIN_STACK", (1u64 << 30).to_string());
        limit_memory(&mut cmd);
        let out = within(cmd, 600);
        assert_exit(&out, 1);
        let err = text(&out.stderr);
        assert!(err.contains("cannot start 1000"), "{args:?}: {err}");
    }
}
