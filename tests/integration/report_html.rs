//! report.html as a reader gets it: one file that needs nothing else (no script, no style sheet,
//! font or picture from elsewhere: every image is a `data:` URI), one image per SVG the run
//! wrote, names from the user escaped, links to the report's files relative to the page; and,
//! where Chromium is installed, a headless Chromium that loads the page of a run and of a
//! comparison and finds every image loaded (skipped with a message otherwise).

use crate::common::svg::svgs;
use crate::common::{baseline, dataset, idabench, Tmp};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

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
        "<script", "<link", "http:", "https:", "<iframe", "@import", "url(",
    ] {
        assert!(!html.contains(banned), "report.html holds {banned}");
    }
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
    assert!(!html.contains("<i>") && !html.contains("<script>"));
    assert!(
        html.contains("<code>a&amp;b&lt;i&gt;&#39;&quot;</code> (1 instance)"),
        "{html}"
    );
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

/// Loads a copy of the page `page` in headless Chromium, with a script added that writes, once
/// the page has loaded, each image's `complete`, `naturalWidth` and `naturalHeight` into the
/// page; the values read back from the DOM Chromium dumps.
fn images_in_chromium(browser: &Path, page: &Path, scratch: &Path) -> Vec<(bool, u32, u32)> {
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
    let profile = scratch.join("profile");
    let o = Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", copy.display()))
        .output()
        .expect("starts chromium");
    let dom = String::from_utf8_lossy(&o.stdout);
    // The probe's output, not its script, which spells the marker too.
    let marker = "<pre id=\"probe\">IMAGES[";
    let at = dom.find(marker).unwrap_or_else(|| {
        panic!(
            "no probe in the DOM Chromium dumped:\n{dom}\n{}",
            String::from_utf8_lossy(&o.stderr)
        )
    }) + marker.len();
    let list = &dom[at..at + dom[at..].find(']').unwrap()];
    list.split_whitespace()
        .map(|item| {
            let parts: Vec<&str> = item.split(':').collect();
            (
                parts[0] == "true",
                parts[1].parse().unwrap(),
                parts[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_image_loads_in_headless_chromium() {
    let Some(browser) = chromium() else {
        eprintln!(
            "skipped: no Chromium found (install chromium, or set IDABENCH_CHROMIUM to its path)"
        );
        return;
    };
    let tmp = Tmp::new("html");
    let dir = run(tmp.path(), "r", &dataset("smoke.csv"));
    let compare = compare_baseline(&tmp);
    for (page, want) in [
        (dir.join("report.html"), 4),
        (compare.join("report.html"), 2),
    ] {
        let scratch = Tmp::new("html");
        let images = images_in_chromium(&browser, &page, scratch.path());
        assert_eq!(images.len(), want, "{}: {images:?}", page.display());
        for (complete, width, height) in images {
            assert!(
                complete && width == 800 && height > 500,
                "{}: an image did not load ({complete}, {width} x {height})",
                page.display()
            );
        }
    }
}
