//! report.html as a reader gets it: one file that needs nothing else (no script, style sheet,
//! font or picture from elsewhere: every image is a `data:` URI, the one script inline), one
//! image per SVG the run wrote, names from the user escaped, in the table of jobs too, links to
//! the report's files relative to the page; and, where Chromium is installed, a headless
//! Chromium that loads the page of a run and of a comparison and finds every image loaded, the
//! run's table of jobs sorted and filtered as its address says, and takes a screenshot (skipped
//! with a message otherwise).

use crate::common::svg::svgs;
use crate::common::{baseline, dataset, idabench, output_within, Tmp};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A run of `dataset` under two variants into `out/name` (from `out`), with its plots and
/// report.html.
fn run(out: &Path, name: &str, dataset: &str) -> PathBuf {
    let o = idabench(
        out,
        &[
            "run",
            dataset,
            "--out",
            out.to_str().unwrap(),
            "--name",
            name,
            "--quiet",
            "--max-nodes",
            "20000",
            "--heuristic",
            "manhattan,misplaced",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.join(name)
}

/// `compare --out tmp/c` of the committed baseline with itself, which exits 0; its folder.
fn compare_baseline(tmp: &Tmp) -> PathBuf {
    let out = tmp.path().join("c");
    let o = idabench(
        tmp.path(),
        &[
            "compare",
            &baseline(),
            &baseline(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    out
}

/// Checks that `html` needs nothing from elsewhere and shows one image per name of `pictures`,
/// each a base64 SVG linked to its file.
fn check_self_contained(html: &str, pictures: &[String]) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    for banned in [
        "<script ", "<link", "http:", "https:", "<iframe", "@import", "url(",
    ] {
        assert!(!html.contains(banned), "report.html holds {banned}");
    }
    // At most the one inline script, which sorts the table of jobs.
    assert!(html.matches("<script").count() <= 1, "more than one script");
    let sources: Vec<&str> = html
        .split("src=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(sources.len(), pictures.len(), "{pictures:?}");
    assert_eq!(html.matches("<img ").count(), pictures.len());
    for s in sources {
        assert!(s.starts_with("data:image/svg+xml;base64,"), "{}", &s[..40]);
    }
    for name in pictures {
        assert!(
            html.contains(&format!("<a href=\"{name}\">{name}</a>")),
            "no link to {name}"
        );
    }
}

#[test]
fn a_run_writes_a_report_html_that_needs_nothing_else() {
    let tmp = Tmp::new("html");
    let dir = run(tmp.path(), "r", &dataset("smoke.csv"));
    let pictures = svgs(&dir);
    // cactus.svg, cactus-nodes.svg, iterations.svg and one scatter plot.
    assert_eq!(pictures.len(), 4, "{pictures:?}");
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    check_self_contained(&html, &pictures);
    for file in [
        "runs.csv",
        "iterations.csv",
        "summary.csv",
        "summary.md",
        "manifest.json",
    ] {
        assert!(
            html.contains(&format!("<a href=\"{file}\">{file}</a>")),
            "no link to {file}"
        );
    }
    // The summary table: a row per variant, times in 3 significant digits with their unit.
    for v in ["manhattan/stepnext/prune", "misplaced/stepnext/prune"] {
        let cell = format!("<td><code>{}</code></td>", v.replace('/', "/<wbr>"));
        assert!(html.contains(&cell), "{v}");
    }
    let table = &html[html.find("<tbody>").unwrap()..html.find("</tbody>").unwrap()];
    for cell in table.split("<td>").skip(1) {
        let cell = &cell[..cell.find("</td>").unwrap()];
        let digits = cell.chars().filter(char::is_ascii_digit).count();
        assert!(
            cell.contains("<code>") || digits <= 6,
            "a long number in the summary: {cell}"
        );
    }

    // `plot --out` elsewhere writes a page whose links lead back to the run's files.
    let pictures_dir = tmp.path().join("pictures");
    let o = idabench(
        tmp.path(),
        &[
            "plot",
            dir.to_str().unwrap(),
            "--out",
            pictures_dir.to_str().unwrap(),
        ],
    );
    assert!(o.status.success());
    let listed = String::from_utf8(o.stdout).unwrap();
    assert!(listed.ends_with(&format!("{}\n", pictures_dir.join("report.html").display())));
    let html = fs::read_to_string(pictures_dir.join("report.html")).unwrap();
    check_self_contained(&html, &svgs(&pictures_dir));
    assert!(
        html.contains("<a href=\"../r/runs.csv\">runs.csv</a>"),
        "{html}"
    );

    // --no-plots: the page, without pictures, saying why.
    let o = idabench(
        tmp.path(),
        &[
            "run",
            &dataset("smoke.csv"),
            "--out",
            tmp.path().to_str().unwrap(),
            "--name",
            "bare",
            "--quiet",
            "--no-plots",
        ],
    );
    assert!(o.status.success());
    let html = fs::read_to_string(tmp.path().join("bare/report.html")).unwrap();
    check_self_contained(&html, &[]);
    assert!(html.contains("no plots: the run was given --no-plots"));
}

#[test]
fn names_from_the_user_are_escaped() {
    let tmp = Tmp::new("html");
    let smoke = fs::read_to_string(dataset("smoke.csv")).unwrap();
    let mut lines = smoke.lines();
    let header = lines.next().unwrap();
    let row = lines.nth(2).unwrap();
    let (_, rest) = row.split_once(',').unwrap();
    let dataset = tmp.path().join("a&b<i>'\".csv");
    fs::write(&dataset, format!("{header}\n<script>x</script>,{rest}\n")).unwrap();
    let dir = run(tmp.path(), "odd", dataset.to_str().unwrap());
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(!html.contains("<i>") && !html.contains("<script>x"));
    assert!(
        html.contains("<code>a&amp;b&lt;i&gt;&#39;&quot;</code> (1 instance)"),
        "{html}"
    );
    // The table of jobs: a row per variant, the dataset and id as text.
    let row = "<tr><td>a&amp;b&lt;i&gt;&#39;&quot;</td><td>&lt;script&gt;x&lt;/script&gt;</td>";
    assert_eq!(html.matches(row).count(), 2, "{html}");
    assert!(html.contains("<h2 id=\"statuses\">Statuses</h2>"), "{html}");
}

#[test]
fn compare_out_writes_a_report_html_that_needs_nothing_else() {
    let tmp = Tmp::new("html");
    let out = compare_baseline(&tmp);
    let pictures = svgs(&out);
    assert_eq!(pictures, ["compare-nodes.svg", "compare-time.svg"]);
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    check_self_contained(&html, &pictures);
    assert!(html.contains("<strong>OK</strong>"), "{html}");
    assert!(html.contains("<td>overall</td>"));
    // Both runs' settings, and links to their files by a path relative to the page.
    for role in ["Baseline", "Current"] {
        assert!(html.contains(&format!("<h2>{role} run: <code>")), "{role}");
    }
    let baseline = Path::new(&baseline()).canonicalize().unwrap();
    let up = out.canonicalize().unwrap();
    let common = up.ancestors().find(|a| baseline.starts_with(a)).unwrap();
    let link = format!(
        "{}{}/runs.csv",
        "../".repeat(up.components().count() - common.components().count()),
        baseline.strip_prefix(common).unwrap().display()
    );
    assert_eq!(
        html.matches(&format!("<a href=\"{link}\">runs.csv</a>"))
            .count(),
        2,
        "no link {link} in {html}"
    );
    assert!(html.contains("<li>Datasets: "), "{html}");
}

// ---------------------------------------------------------------------------------------------
// In a browser

/// Headless Chromium, if one is installed: `IDABENCH_CHROMIUM`, else `chromium`,
/// `chromium-browser` or `google-chrome` on the PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("IDABENCH_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            ["chromium", "chromium-browser", "google-chrome"].map(|name| dir.join(name))
        })
        .find(|p| p.is_file())
}

/// How long one start of Chromium may take: far more than loading a page needs, so that only
/// a browser that hangs reaches it.
const BROWSER: Duration = Duration::from_secs(120);

/// Headless Chromium with the flags every start takes (`--no-sandbox`: the tests may run as
/// root), its profile in `scratch`.
fn browser_command(browser: &Path, scratch: &Path) -> Command {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--virtual-time-budget=5000",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ));
    command
}

/// Loads a copy of the page `page` in headless Chromium at `fragment` (`#sort=...`, or empty),
/// with a script added that writes, once the page has loaded, each image's `complete`,
/// `naturalWidth` and `naturalHeight` into the page; those values, and the DOM Chromium dumps.
fn page_in_chromium(
    browser: &Path,
    page: &Path,
    fragment: &str,
    scratch: &Path,
) -> (Vec<(bool, u32, u32)>, String) {
    let html = fs::read_to_string(page).unwrap();
    let probe = "<script>window.addEventListener('load', function () {\
        var seen = [];\
        for (var i = 0; i < document.images.length; i++) {\
            var img = document.images[i];\
            seen.push(img.complete + ':' + img.naturalWidth + ':' + img.naturalHeight);\
        }\
        var out = document.createElement('pre');\
        out.id = 'probe';\
        out.textContent = 'IMAGES[' + seen.join(' ') + ']';\
        document.body.appendChild(out);\
    });</script></body>";
    let copy = scratch.join("probe.html");
    fs::write(&copy, html.replace("</body>", probe)).unwrap();
    let mut command = browser_command(browser, scratch);
    command
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", copy.display()));
    let o = output_within(command, BROWSER);
    let dom = String::from_utf8_lossy(&o.stdout).into_owned();
    // The probe's output, not its script, which spells the marker too.
    let marker = "<pre id=\"probe\">IMAGES[";
    let at = dom.find(marker).unwrap_or_else(|| {
        panic!(
            "no probe in the DOM Chromium dumped:\n{dom}\n{}",
            String::from_utf8_lossy(&o.stderr)
        )
    }) + marker.len();
    let list = &dom[at..at + dom[at..].find(']').unwrap()];
    let images = list
        .split_whitespace()
        .map(|item| {
            let parts: Vec<&str> = item.split(':').collect();
            (
                parts[0] == "true",
                parts[1].parse().unwrap(),
                parts[2].parse().unwrap(),
            )
        })
        .collect();
    (images, dom)
}

/// The rows of the table of jobs in `html`, in its order: (hidden, variant, nodes generated).
fn job_rows(html: &str) -> Vec<(bool, String, f64)> {
    let start = html
        .find("<table id=\"jobs-table\">")
        .expect("a table of jobs");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            let hidden = row[..row.find('>').unwrap()].contains("hidden");
            let cells: Vec<&str> = row.split("<td>").skip(1).collect();
            let variant = cells[2].trim_start_matches("<code>");
            let variant = variant[..variant.find('<').unwrap()].to_owned();
            let nodes = cells[5].split('"').nth(1).unwrap().parse().unwrap();
            (hidden, variant, nodes)
        })
        .collect()
}

#[test]
fn every_image_loads_and_the_table_sorts_in_headless_chromium() {
    let Some(browser) = chromium() else {
        eprintln!(
            "skipped: no Chromium found (install chromium, e.g. `apt-get install chromium`, or \
             set IDABENCH_CHROMIUM to its path)"
        );
        return;
    };
    let tmp = Tmp::new("html");
    let dir = run(tmp.path(), "r", &dataset("smoke.csv"));
    let compare = compare_baseline(&tmp);
    // The run's page opened on a view given in its address: misplaced's jobs, most nodes first.
    let views = [
        (dir.join("report.html"), "#sort=-nodes&filter=misplaced", 4),
        (compare.join("report.html"), "", 2),
    ];
    for (page, fragment, want) in views {
        let scratch = Tmp::new("html");
        let (images, dom) = page_in_chromium(&browser, &page, fragment, scratch.path());
        assert_eq!(images.len(), want, "{}: {images:?}", page.display());
        for (complete, width, height) in images {
            assert!(
                complete && width == 800 && height > 500,
                "{}: an image did not load ({complete}, {width} x {height})",
                page.display()
            );
        }
        if fragment.is_empty() {
            continue;
        }
        let written = job_rows(&fs::read_to_string(&page).unwrap());
        let shown = job_rows(&dom);
        assert_eq!(shown.len(), written.len(), "every job has its row");
        let visible: Vec<&(bool, String, f64)> = shown.iter().filter(|r| !r.0).collect();
        assert!(
            visible.iter().all(|r| r.1.starts_with("misplaced/")),
            "{shown:?}"
        );
        assert_eq!(visible.len(), 11, "{shown:?}");
        assert!(visible.windows(2).all(|w| w[0].2 >= w[1].2), "{shown:?}");
        let as_written: Vec<f64> = written
            .iter()
            .filter(|r| r.1.starts_with("misplaced/"))
            .map(|r| r.2)
            .collect();
        let as_sorted: Vec<f64> = visible.iter().map(|r| r.2).collect();
        assert_ne!(as_written, as_sorted, "sorting changed nothing");
    }
    // A screenshot of the page as a reader first sees it.
    let scratch = Tmp::new("html");
    let png = scratch.path().join("report.png");
    let mut command = browser_command(&browser, scratch.path());
    command
        .arg(format!("--screenshot={}", png.display()))
        .arg("--window-size=1280,2400")
        .arg(format!("file://{}", dir.join("report.html").display()));
    let o = output_within(command, BROWSER);
    let bytes = fs::read(&png).unwrap_or_else(|e| {
        panic!(
            "no screenshot ({e}): {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "{}",
        bytes.len()
    );
}
