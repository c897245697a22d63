//! Hostile text in ids and file names, through every writer that shows them: Markdown keeps each
//! value in its code span on one line, terminals, SVG and HTML get no control, bidirectional or
//! invisible format character raw, and the data files (runs.csv) keep the values as they are.
//! And text saved with a byte-order mark, read as without one.

use crate::common::{assert_exit, command, csv_rows, show, text, with_stdin_within, Tmp};
use std::fs;
use std::path::Path;
use std::process::Output;

fn idabench_in(dir: &Path, args: &[&str]) -> Output {
    with_stdin_within(command(dir, args), b"")
}

/// The characters of `s` that a terminal would obey or a reader would not see: the controls but
/// line feed and tab, and the bidirectional and invisible format characters.
fn raw_hidden(s: &str) -> Vec<char> {
    s.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
        })
        .collect()
}

fn assert_nothing_hidden(what: &str, s: &str) {
    let raw = raw_hidden(s);
    assert!(raw.is_empty(), "{what} holds {raw:?} raw:\n{s}");
}

/// Ids that would leave a code span, start a heading, break a table row, set the terminal's
/// title or turn the text around; each with a start 3 moves from the goal, out of reach of
/// `--max-nodes 1`.
const HOSTILE: [(&str, &str); 4] = [
    ("tick`tock", "1 2 3 4 8 5 7 0 6"),
    ("line\n# heading", "1 0 2 4 5 3 7 8 6"),
    ("\x1b]0;PWNED\x07", "1 2 3 0 5 6 4 7 8"),
    ("rtl\u{202e}txt|pipe", "1 2 3 0 4 5 7 8 6"),
];

/// How each id of `HOSTILE` shows in Markdown: one code span, on one line.
const IN_MARKDOWN: [&str; 4] = [
    "``tick`tock``",
    "`line\\n# heading`",
    "`\\x1b]0;PWNED\\x07`",
    "`rtl\\u{202e}txt\\|pipe`",
];

/// The dataset of `HOSTILE`, in a file whose name holds a backtick: its path.
fn hostile_dataset(tmp: &Tmp) -> String {
    let mut csv = String::from("id,domain,size,start\n");
    for (id, start) in HOSTILE {
        let id = if id.contains('\n') {
            format!("\"{id}\"")
        } else {
            id.to_owned()
        };
        csv += &format!("{id},tiles,3x3,{start}\n");
    }
    tmp.write("we`ird.csv", &csv)
}

/// The pipes of a table row that end a cell (not escaped).
fn cell_ends(row: &str) -> usize {
    let bytes = row.as_bytes();
    (0..bytes.len())
        .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
        .count()
}

/// Every table of `md` has rows of one length, every heading is one of ours, and no character
/// is hidden.
fn assert_markdown_holds(what: &str, md: &str) {
    assert_nothing_hidden(what, md);
    for line in md.lines().filter(|l| l.starts_with('#')) {
        assert!(
            line.starts_with("## idabench") || line.starts_with("#### "),
            "{what}: a heading not ours: {line:?}\n{md}"
        );
    }
    let mut width = None;
    for line in md.lines() {
        if line.starts_with('|') {
            let cells = cell_ends(line);
            assert_eq!(
                *width.get_or_insert(cells),
                cells,
                "{what}: a row of another width: {line:?}\n{md}"
            );
        } else {
            width = None;
        }
    }
}

/// Every report file but the data files (CSV, JSON) of `dir`, with nothing hidden in it.
fn assert_reports_show_nothing_hidden(dir: &Path) {
    let mut seen = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .extension()
            .is_some_and(|x| x == "md" || x == "html" || x == "svg")
        {
            seen += 1;
            let content = fs::read_to_string(&path).unwrap();
            assert_nothing_hidden(&path.display().to_string(), &content);
        }
    }
    assert!(seen > 0, "no report in {}", dir.display());
}

#[test]
fn hostile_ids_and_file_names_stay_in_their_code_spans_and_command_no_terminal() {
    let tmp = Tmp::new("hostile-text");
    let dataset = hostile_dataset(&tmp);
    let out = tmp.out();
    let run = |name: &str, extra: &[&str]| {
        let mut args = vec![
            "run",
            dataset.as_str(),
            "--out",
            &out,
            "--name",
            name,
            "--quiet",
        ];
        args.extend_from_slice(extra);
        idabench_in(tmp.path(), &args)
    };
    let base = run("base", &[]);
    assert_exit(&base, 0);
    let cur = run("cur", &["--max-nodes", "1"]);
    assert_exit(&cur, 0);
    for (name, out) in [("base", &base), ("cur", &cur)] {
        assert_markdown_holds("run's stdout", &text(&out.stdout));
        assert_nothing_hidden("run's stderr", &text(&out.stderr));
        let md = fs::read_to_string(tmp.run_dir(name).join("summary.md")).unwrap();
        assert_markdown_holds("summary.md", &md);
        assert!(md.contains("``we`ird`` (4 instances)"), "{md}");
        assert_reports_show_nothing_hidden(&tmp.run_dir(name));
        // report.html's table of jobs: each id as text in its cell.
        let html = fs::read_to_string(tmp.run_dir(name).join("report.html")).unwrap();
        for id in ["tick`tock", "\\x1b]0;PWNED\\x07", "rtl\\u{202e}txt|pipe"] {
            let cell = format!("<td>we`ird</td><td>{id}</td>");
            assert!(html.contains(&cell), "no {cell} in {html}");
        }
    }

    // runs.csv is data: the ids as they are.
    let runs = fs::read(tmp.run_dir("base").join("runs.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(&runs[..]);
    let column = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "instance")
        .unwrap();
    let ids: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[column].to_owned())
        .collect();
    assert_eq!(ids, HOSTILE.map(|(id, _)| id));

    let [base_dir, cur_dir] = ["base", "cur"].map(|n| tmp.run_dir(n).display().to_string());
    let compared = tmp.at("compared");
    let compare = |format: &str| {
        idabench_in(
            tmp.path(),
            &[
                "compare", &base_dir, &cur_dir, "--format", format, "--out", &compared,
            ],
        )
    };
    let md = compare("markdown");
    assert_exit(&md, 4);
    let stdout = text(&md.stdout);
    assert_markdown_holds("compare --format markdown", &stdout);
    for id in IN_MARKDOWN {
        assert!(
            stdout.lines().any(|l| l.starts_with('|') && l.contains(id)),
            "no row with {id}:\n{stdout}"
        );
    }
    assert!(stdout.contains("``we`ird``"), "{stdout}");
    assert_nothing_hidden("compare's stderr", &text(&md.stderr));
    assert_reports_show_nothing_hidden(Path::new(&compared));

    let plain = compare("text");
    assert_exit(&plain, 4);
    let stdout = text(&plain.stdout);
    assert_nothing_hidden("compare's text", &stdout);
    assert_nothing_hidden("compare's stderr", &text(&plain.stderr));
    for shown in [
        "\\x1b]0;PWNED\\x07",
        "line\\n# heading",
        "rtl\\u{202e}txt|pipe",
    ] {
        assert!(stdout.contains(shown), "no {shown}:\n{stdout}");
    }
    assert!(!stdout.lines().any(|l| l.starts_with('#')), "{stdout}");

    // combine, its variant renamed to a hostile name, its runs' limits mixed: the new pages.
    let variant = csv_rows(&tmp.run_dir("base").join("runs.csv"))[0]["variant"].clone();
    let hostile = "v`1\n# heading|\x1b]0;t\x07\u{202e}<b>";
    let rename = format!("{base_dir}:{variant}={hostile}");
    let combined = idabench_in(
        tmp.path(),
        &[
            "combine",
            &base_dir,
            &cur_dir,
            "--out",
            &out,
            "--name",
            "both",
            "--rename",
            &rename,
            "--allow-mixed",
        ],
    );
    assert_exit(&combined, 0);
    assert_markdown_holds("combine's stdout", &text(&combined.stdout));
    assert_nothing_hidden("combine's stderr", &text(&combined.stderr));
    let both = tmp.run_dir("both");
    let md = fs::read_to_string(both.join("summary.md")).unwrap();
    assert_markdown_holds("combined summary.md", &md);
    assert!(
        md.contains("``v`1\\n# heading\\|\\x1b]0;t\\x07\\u{202e}<b>``"),
        "{md}"
    );
    assert_reports_show_nothing_hidden(&both);
    let page = fs::read_to_string(both.join("report.html")).unwrap();
    assert!(!page.contains("<b>"), "{page}");

    // compare --pair of that variant, and ab: their pages.
    let pair = format!("{hostile}={variant}");
    let both_dir = both.display().to_string();
    let paired = tmp.at("paired");
    let compared = idabench_in(
        tmp.path(),
        &[
            "compare", &both_dir, &cur_dir, "--pair", &pair, "--out", &paired,
        ],
    );
    assert_exit(&compared, 4);
    assert_nothing_hidden("compare's text", &text(&compared.stdout));
    assert_reports_show_nothing_hidden(Path::new(&paired));
    let ab = idabench_in(
        tmp.path(),
        &[
            "ab",
            "--baseline",
            crate::common::BIN,
            &dataset,
            "--rounds",
            "1",
            "--out",
            &out,
            "--name",
            "ab",
            "--quiet",
        ],
    );
    assert_exit(&ab, 0);
    assert_reports_show_nothing_hidden(&tmp.run_dir("ab"));
}

#[test]
fn refusals_quoting_hostile_ids_show_them_escaped_on_one_line() {
    let tmp = Tmp::new("hostile-refusals");
    let dup = tmp.write(
        "dup.csv",
        "id,domain,size,start\n\
         \x1b]0;PWNED\x07,tiles,3x3,1 2 3 4 5 6 7 0 8\n\
         \"a\nb\u{202e}\",tiles,3x3,1 2 3 4 5 6 0 7 8\n\
         \x1b]0;PWNED\x07,tiles,3x3,1 2 3 4 5 6 0 7 8\n",
    );
    let out = tmp.out();
    let refused = idabench_in(tmp.path(), &["run", &dup, "--out", &out, "--quiet"]);
    assert_exit(&refused, 2);
    let stderr = text(&refused.stderr);
    assert_nothing_hidden("the refusal", &stderr);
    assert!(
        stderr.contains(
            "dup.csv:5: column 'id': duplicate id '\\x1b]0;PWNED\\x07': already used on line 2"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    // A job twice in a runs.csv: compare refuses it quoting the job.
    let good = tmp.write(
        "good.csv",
        "id,domain,size,start\n\
         \"a\nb\u{202e}\",tiles,3x3,1 2 3 4 5 6 0 7 8\n\
         \x1b]0;PWNED\x07,tiles,3x3,1 2 3 4 5 6 7 0 8\n",
    );
    let ran = idabench_in(
        tmp.path(),
        &["run", &good, "--out", &out, "--name", "good", "--quiet"],
    );
    assert_exit(&ran, 0);
    let runs = fs::read_to_string(tmp.run_dir("good").join("runs.csv")).unwrap();
    let row = runs.lines().find(|l| l.contains('\x1b')).unwrap();
    let twice = tmp.write("twice.csv", &format!("{runs}{row}\n"));
    let good_dir = tmp.run_dir("good").display().to_string();
    let refused = idabench_in(tmp.path(), &["compare", &good_dir, &twice]);
    assert_exit(&refused, 2);
    let stderr = text(&refused.stderr);
    assert_nothing_hidden("the refusal", &stderr);
    assert!(stderr.contains("appears again"), "{stderr}");
    assert!(stderr.contains("\\x1b]0;PWNED\\x07"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A runs.csv of two hostile domains, sizes and ids, plotted: the cactus plots' panels name
/// them as text (well-formed SVG, nothing hidden), and report.html's table shows them escaped.
#[test]
fn hostile_domains_and_sizes_stay_text_in_panels_and_tables() {
    let tmp = Tmp::new("hostile-panels");
    let dir = tmp.path().join("run");
    fs::create_dir(&dir).unwrap();
    let mut w = csv::Writer::from_path(dir.join("runs.csv")).unwrap();
    w.write_record([
        "dataset",
        "instance",
        "domain",
        "size",
        "variant",
        "heuristic",
        "step",
        "reverse_pruning",
        "status",
        "length",
        "optimal",
        "nodes_generated",
        "nodes_expanded",
        "iterations",
        "final_bound",
        "time_wall_s",
        "time_cpu_s",
        "nodes_per_s",
        "initial_h",
        "optimal_guaranteed",
        "message",
        "path",
    ])
    .unwrap();
    let rows = [
        (
            "<script>alert(1)</script>",
            "3x3\x1b[2J",
            "<img src=x onerror=alert(2)>",
        ),
        ("tiles\u{202e}", "4x4\n# heading", "id\x07"),
    ];
    for (domain, size, id) in rows {
        w.write_record([
            "d",
            id,
            domain,
            size,
            "v",
            "manhattan",
            "1",
            "on",
            "solved",
            "2",
            "2",
            "10",
            "5",
            "1",
            "2",
            "0.01",
            "0.01",
            "1000.0",
            "2",
            "true",
            "",
            "RR",
        ])
        .unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let dir_s = dir.display().to_string();
    let plotted = idabench_in(tmp.path(), &["plot", &dir_s]);
    assert_exit(&plotted, 0);
    assert_nothing_hidden("plot's stderr", &text(&plotted.stderr));
    assert_reports_show_nothing_hidden(&dir);
    let cactus = fs::read_to_string(dir.join("cactus.svg")).unwrap();
    crate::common::svg::check_well_formed(&cactus).unwrap();
    for caption in [
        "&lt;script&gt;alert(1)&lt;/script&gt; 3x3\\x1b[2J: 1 instance",
        "tiles\\u{202e} 4x4\n# heading: 1 instance",
    ] {
        assert!(cactus.contains(caption), "no panel {caption}: {cactus}");
    }
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(
        !html.contains("<img src=x") && !html.contains("<script>alert"),
        "{html}"
    );
    assert!(
        html.contains("<td>&lt;img src=x onerror=alert(2)&gt;</td>"),
        "{html}"
    );
}

/// `solve --format judge --problem PROBLEM` on `input`.
fn judge(tmp: &Tmp, problem: &str, input: &[u8]) -> Output {
    with_stdin_within(
        command(
            tmp.path(),
            &["solve", "--format", "judge", "--problem", problem],
        ),
        input,
    )
}

#[test]
fn judge_input_saved_with_a_byte_order_mark_is_read_as_without() {
    let tmp = Tmp::new("judge-bom");
    let inputs: [(&str, &str); 4] = [
        ("p1379", "283104765\n"),
        ("uva10181", "1\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n"),
        (
            "poj2286",
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n",
        ),
        ("poj3460", "1\n3\n2 1 3\n"),
    ];
    for (problem, input) in inputs {
        let plain = judge(&tmp, problem, input.as_bytes());
        assert_exit(&plain, 0);
        let marked = judge(&tmp, problem, format!("\u{feff}{input}").as_bytes());
        assert_exit(&marked, 0);
        assert_eq!(text(&marked.stdout), text(&plain.stdout), "{problem}");
    }
    // Only a leading one is skipped: another is refused, and shown.
    let twice = judge(&tmp, "p1379", "\u{feff}\u{feff}283104765\n".as_bytes());
    assert_exit(&twice, 2);
    let stderr = text(&twice.stderr);
    assert_nothing_hidden("the refusal", &stderr);
    assert!(
        stderr.contains("'\\u{feff}283104765': expected 9 digits"),
        "{stderr}"
    );
    // A byte that is not UTF-8 is counted from the start of the input, the mark included.
    let bad = judge(&tmp, "p1379", b"\xEF\xBB\xBF12\xff");
    assert_exit(&bad, 2);
    assert!(
        text(&bad.stderr).contains("stdin: not UTF-8 text (byte 6 is not valid UTF-8)"),
        "{}",
        show(&bad)
    );
}
