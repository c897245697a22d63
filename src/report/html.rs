//! report.html: a run's or a comparison's report as one self-contained HTML file, to read in any
//! browser: the tables, the pictures inline (SVG as `data:` URIs), the manifest, links to the
//! report's files. No style sheet, script or font from elsewhere, nothing fetched; the one
//! script, inline, only sorts and filters the table of jobs (`jobs`), which reads as a plain
//! table without it.

use crate::compare::{Compared, Pairing, SavedRun};
use crate::plot::{Job, Pictures};
use crate::report::jobs;
use crate::results::combined;
use crate::results::record::{Manifest, StatusCounts};
use crate::results::summary::{self, Par2, Summaries, VariantSummary};
use crate::util::files;
use crate::util::text::{visible, visible_lines};
use std::fmt::Write;
use std::path::Path;

/// The file's name in a report directory.
pub const FILE: &str = "report.html";

/// What a run's report.html shows.
pub struct RunReport<'a> {
    /// The run's name: its report directory's.
    pub name: String,
    pub manifest: Option<&'a Manifest>,
    /// An error when summary.csv (or summary-groups.csv) could not be read, with the reason.
    pub summaries: Result<&'a Summaries, String>,
    pub pictures: &'a Pictures,
    /// The run's jobs, in its order, and its variants, for the table of jobs and the status
    /// breakdown.
    pub jobs: &'a [Job<'a>],
    pub variants: &'a [String],
    /// The report's files to link to: (name, href relative to report.html).
    pub files: Vec<(String, String)>,
}

/// The page of a run.
pub fn run_page(r: &RunReport) -> String {
    let title = format!("idabench run {}", r.name);
    let mut body = format!("<h1>idabench run <code>{}</code></h1>\n", escape(&r.name));
    // From the rows of runs.csv, not the summaries: a folder whose summary.csv cannot be read
    // still shows a wrong answer.
    let counts = StatusCounts::of(r.jobs.iter().map(|j| j.status));
    body += &alarm(
        &[("", counts.wrong, counts.error)],
        "see the columns wrong and error below, and runs.csv's message column",
    );
    if let Some(m) = r.manifest {
        let (mixed, runs) = combination(m);
        body += &mixed;
        body += &setting(m);
        body += &runs;
    }
    body += "<h2 id=\"summary\">Summary</h2>\n";
    match r.summaries {
        Ok(rows) => body += &summary_table(rows, r.manifest),
        Err(ref why) => {
            let _ = writeln!(body, "<p>No summary: {}</p>", escape(why));
        }
    }
    body += &jobs::breakdown(r.jobs, r.variants);
    body += &files(&r.files);
    body += &pictures(r.pictures);
    let runs_csv = r.files.iter().find(|(name, _)| name == "runs.csv");
    body += &jobs::listing(r.jobs, runs_csv.map(|(_, href)| href.as_str()));
    if let Some(m) = r.manifest {
        body += "<h2 id=\"manifest\">Manifest</h2>\n";
        let json = summary::manifest_json(m).unwrap_or_default();
        let _ = writeln!(
            body,
            "<pre>{}</pre>",
            escape(&String::from_utf8_lossy(&json))
        );
    }
    page(&title, &body)
}

/// A line in red before anything else when a job gave a wrong answer or ended in error: the
/// figures below it are not to be trusted as they stand (summary.md says so too). `said` holds
/// each side's (name, wrong answers, jobs in error), the name empty for a run's own page; `see`
/// says where to look.
fn alarm(said: &[(&str, u64, u64)], see: &str) -> String {
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let mut parts = Vec::new();
    for &(who, wrong, error) in said {
        let mut counts = Vec::new();
        if wrong > 0 {
            counts.push(format!("{wrong} wrong answer{}", plural(wrong)));
        }
        if error > 0 {
            counts.push(format!("{error} job{} ended in error", plural(error)));
        }
        if !counts.is_empty() {
            let who = if who.is_empty() {
                String::new()
            } else {
                format!("{}: ", escape(who))
            };
            parts.push(format!("{who}{}", counts.join(", ")));
        }
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "<p class=\"alarm\"><strong>{}</strong>: {}.</p>\n",
        parts.join("; "),
        escape(see)
    )
}

/// Of a combined report (`combine`): the differences between its runs that make their figures
/// unlike, for the top of the page, and the runs it was made from with their other differences,
/// for under the setting. Nothing for any other report.
fn combination(m: &Manifest) -> (String, String) {
    if m.combined.is_empty() {
        return (String::new(), String::new());
    }
    let code = |v: &str| format!("<code>{}</code>", escape(v));
    let differences = combined::of_manifest(m);
    let (mixed, noted): (Vec<_>, Vec<_>) = differences.iter().partition(|d| d.mixes);
    let mut top = String::new();
    if !mixed.is_empty() {
        let said: Vec<String> = mixed.iter().map(|d| d.render(code)).collect();
        let _ = writeln!(
            top,
            "<p class=\"warn\"><strong>Mixed runs (combined with --allow-mixed), whose figures \
             do not compare like with like:</strong> {}.</p>",
            said.join("; ")
        );
    }
    let mut runs = format!("<p>Combined from {} runs:</p>\n<ul>\n", m.combined.len());
    for r in &m.combined {
        let variants: Vec<String> = r
            .variants()
            .map(|(name, from)| match from {
                Some(from) => format!("{} (renamed from {})", code(name), code(from)),
                None => code(name),
            })
            .collect();
        let _ = writeln!(
            runs,
            "<li>{} ({}): {}</li>",
            code(&r.dir),
            count(r.jobs, "job"),
            variants.join(", ")
        );
    }
    runs += "</ul>\n";
    if !noted.is_empty() {
        let said: Vec<String> = noted.iter().map(|d| d.render(code)).collect();
        let _ = writeln!(runs, "<p>They differ in {}.</p>", said.join("; "));
    }
    (top, runs)
}

/// The run's datasets, machine, limits and times, and a warning when jobs are missing.
fn setting(m: &Manifest) -> String {
    let datasets: Vec<String> = m
        .datasets
        .iter()
        .map(|d| {
            format!(
                "<code>{}</code> ({})",
                escape(&d.name),
                count(d.instances, "instance")
            )
        })
        .collect();
    let mut out = String::new();
    if let (Some(missing @ 1..), Some(total)) = (m.jobs_missing, m.jobs_total) {
        let _ = writeln!(
            out,
            "<p class=\"warn\"><strong>Incomplete: {missing} of {total} jobs are missing.</strong> \
             The figures below are over the finished jobs only.</p>"
        );
    }
    let _ = writeln!(
        out,
        "<ul>\n<li>Datasets: {}</li>\n<li>Machine: {} ({} cores), {} worker{}</li>\n\
         <li>Limits: {}</li>\n{}<li>From {} to {}</li>\n<li>idabench {}{}</li>\n</ul>",
        datasets.join(", "),
        escape(&m.cpu_model),
        m.cores,
        m.jobs,
        if m.jobs == 1 { "" } else { "s" },
        escape(&m.limits_text()),
        m.memory_text().map_or_else(String::new, |t| format!(
            "<li>Memory: {}</li>\n",
            escape(&t)
        )),
        escape(&m.start_time),
        if m.end_time.is_empty() {
            "(not finished)".to_string()
        } else {
            escape(&m.end_time)
        },
        escape(&m.idabench_version),
        m.git_commit
            .as_deref()
            .map_or_else(String::new, |c| format!(
                ", commit <code>{}</code>",
                escape(c)
            )),
    );
    out
}

/// The summary table of summary.md: one row per variant, followed by its rows per group when
/// it ran in more than one; with its `unstable` column and note where summary.md has them (a
/// run with repetitions).
fn summary_table(summaries: &Summaries, manifest: Option<&Manifest>) -> String {
    let rows = &summaries.variants;
    let par2 = Par2::of(rows, manifest);
    let repeat = manifest.map_or(1, |m| m.repeat);
    let repeated = summary::repeated(rows, repeat);
    let mut header = vec![
        "variant",
        "jobs",
        "solved",
        "suboptimal",
        "wrong",
        "error",
        "limited",
        "unsolvable",
        "over cap",
        "nodes generated",
        "geomean nodes",
        "geomean CPU",
        "p50 CPU",
        "p90 CPU",
        "p99 CPU",
        "max CPU",
        "Mnodes/s",
        match par2 {
            Par2::Nodes => "PAR-2 nodes",
            _ => "PAR-2",
        },
        "speed-up",
    ];
    // After `limited`, as in summary.md.
    const UNSTABLE: usize = 7;
    if repeated {
        header.insert(UNSTABLE, "unstable");
    }
    let cells = |name: String, r: &VariantSummary| {
        let mut cells = vec![
            name,
            r.jobs.to_string(),
            r.solved.to_string(),
            r.suboptimal.to_string(),
            flagged(r.wrong),
            flagged(r.error),
            r.limited.to_string(),
            r.unsolvable.to_string(),
            r.over_cap.to_string(),
            grouped(r.nodes_generated_total),
            significant(r.nodes_generated_geomean, ""),
            significant(r.time_cpu_geomean_s, "s"),
            significant(r.time_cpu_p50_s, "s"),
            significant(r.time_cpu_p90_s, "s"),
            significant(r.time_cpu_p99_s, "s"),
            significant(r.time_cpu_max_s, "s"),
            summary::fmt(r.nodes_per_s.map(|v| v / 1e6), 1),
            significant(par2.value(r), if par2 == Par2::Time { "s" } else { "" }),
            summary::fmt(r.speedup, 2),
        ];
        if repeated {
            cells.insert(UNSTABLE, r.unstable.to_string());
        }
        cells
    };
    let mut body = Vec::new();
    for r in rows {
        // A long name may break after a slash rather than widen the table.
        body.push(cells(
            format!("<code>{}</code>", escape(&r.variant).replace('/', "/<wbr>")),
            r,
        ));
        for g in summaries.breakdown(&r.variant) {
            body.push(cells(
                format!("↳ <code>{}</code>", escape(&g.group.label())),
                &g.summary,
            ));
        }
    }
    let groups = if body.len() > rows.len() {
        " Rows marked ↳ give a variant's figures on each dataset, domain and size it ran \
         (summary-groups.csv); its speed-up there is over that group's instances."
    } else {
        ""
    };
    table(&header, body.into_iter())
        + &format!(
            "<p class=\"note\">{} {}{groups}</p>\n",
            escape(&summary::means_note(
                rows.first().map_or(0, |r| r.common_solved)
            )),
            escape(par2.note())
        )
        + &summary::repetitions_note(rows, repeat).map_or_else(String::new, |n| {
            format!("<p class=\"note\">{}</p>\n", escape(&n))
        })
}

/// A count that must not pass unseen: in red when it is not 0.
pub(super) fn flagged(n: u64) -> String {
    match n {
        0 => "0".into(),
        n => format!("<strong class=\"bad\">{n}</strong>"),
    }
}

/// `v` in 3 significant digits with an SI prefix and `unit` (`2.52 µs`, `99.5`), or `-`: a
/// table of 19 columns stays narrow enough to read.
pub(super) fn significant(v: Option<f64>, unit: &str) -> String {
    v.map_or_else(|| "-".into(), |v| escape(&crate::util::format::si(v, unit)))
}

/// `n` with its digits grouped by three: `127,700`.
pub(super) fn grouped(n: u64) -> String {
    crate::util::format::thousands(n as usize)
}

/// `n` and `noun`, plural unless `n` is 1: `1 instance`, `13 instances`.
pub(super) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", crate::util::format::thousands(n))
    }
}

/// A table of `header` and `rows`, whose cells are HTML already.
pub(super) fn table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let heads = header.iter().map(|h| format!("<th>{}</th>", escape(h)));
    headed_table("", heads, rows)
}

/// A table with the `attributes` given, its heading cells `heads` and its `rows` HTML already.
pub(super) fn headed_table(
    attributes: &str,
    heads: impl Iterator<Item = String>,
    rows: impl Iterator<Item = Vec<String>>,
) -> String {
    let mut out = format!("<div class=\"wide\"><table{attributes}>\n<thead><tr>");
    for h in heads {
        out += &h;
    }
    out += "</tr></thead>\n<tbody>\n";
    for row in rows {
        out += "<tr>";
        for cell in row {
            let _ = write!(out, "<td>{cell}</td>");
        }
        out += "</tr>\n";
    }
    out + "</tbody></table></div>\n"
}

/// The pictures inline, each linked to its file, and why any picture is missing.
fn pictures(p: &Pictures) -> String {
    let mut out = String::from("<h2 id=\"plots\">Plots</h2>\n");
    for (name, svg) in &p.drawn {
        let (width, height) = size(svg);
        let _ = writeln!(
            out,
            "<figure id=\"{}\"><img src=\"data:image/svg+xml;base64,{}\" width=\"{width}\" height=\"{height}\" alt=\"{}\">\
             <figcaption><a href=\"{}\">{}</a></figcaption></figure>",
            escape(name),
            base64(svg.as_bytes()),
            escape(&alt(name)),
            escape(&href(Path::new(name))),
            escape(name)
        );
    }
    if !p.notes.is_empty() {
        out += "<ul class=\"note\">\n";
        for note in &p.notes {
            let _ = writeln!(out, "<li>{}</li>", escape(note));
        }
        out += "</ul>\n";
    }
    out
}

/// What a picture shows, for readers who cannot see it.
fn alt(name: &str) -> String {
    match name {
        "cactus.svg" => "Cactus plot: instances solved within a CPU time, one line per variant".into(),
        "cactus-nodes.svg" => {
            "Cactus plot: instances solved within a number of nodes, one line per variant".into()
        }
        "iterations.svg" => {
            "Nodes generated per iteration of each variant's hardest solved instances".into()
        }
        "compare-time.svg" => {
            "CPU time ratio, current over baseline, per job, with the overall ratio and its interval"
                .into()
        }
        "compare-nodes.svg" => {
            "Nodes per job, current over baseline, against the baseline's nodes".into()
        }
        other => match other
            .strip_prefix("scatter-")
            .and_then(|s| s.strip_suffix(".svg"))
            .and_then(|s| s.split_once("-vs-"))
        {
            Some((a, b)) => format!("Nodes per instance, {a} against {b}"),
            None => other.to_string(),
        },
    }
}

/// The `width` and `height` of the `<svg>` element at the start of `svg`.
fn size(svg: &str) -> (u32, u32) {
    let head = &svg[..svg.find('>').unwrap_or(0)];
    let attribute = |name: &str| -> Option<u32> {
        let at = head.find(&format!(" {name}=\""))? + name.len() + 3;
        head[at..].split('"').next()?.parse().ok()
    };
    (
        attribute("width").unwrap_or(800),
        attribute("height").unwrap_or(600),
    )
}

/// Links to the report's files.
fn files(files: &[(String, String)]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2 id=\"files\">Files</h2>\n<ul>\n");
    for (name, href) in files {
        let _ = writeln!(
            out,
            "<li><a href=\"{}\">{}</a></li>",
            escape(href),
            escape(name)
        );
    }
    out + "</ul>\n"
}

/// The files of a run's report that report.html links to, when the report holds them.
pub const RUN_FILES: [&str; 8] = [
    "runs.csv",
    "iterations.csv",
    "summary.csv",
    "summary-groups.csv",
    "summary.md",
    "manifest.json",
    "shard_jobs.csv",
    "missing.csv",
];

/// The report files among `names` that `dir` holds, each with its link from `from`, where
/// report.html is.
pub fn report_files(dir: &Path, from: &Path, names: &[&str]) -> Vec<(String, String)> {
    names
        .iter()
        .filter(|n| dir.join(n).is_file())
        .map(|n| (n.to_string(), href(&files::relative(from, &dir.join(n)))))
        .collect()
}

/// A path as a link: its bytes percent-encoded but for letters, digits, `-._~` and `/`.
fn href(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::new();
    let absolute = text.starts_with('/');
    if absolute {
        out += "file://";
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// What a comparison's page says of its two sides.
pub enum Sides {
    /// Two runs read from their folders (`compare`): each one's setting and files.
    Runs,
    /// Two builds measured side by side (`ab`): what its report says of them (lines of text),
    /// and the report's own files, (name, href).
    Builds {
        facts: Vec<String>,
        files: Vec<(String, String)>,
    },
}

/// A comparison's report.html in `dir`, for `compare --out` and `ab`.
pub fn compare_page(
    compared: &Compared,
    pictures_drawn: &Pictures,
    dir: &Path,
    sides: &Sides,
) -> String {
    let c = &compared.comparison;
    let title = match c.pairing {
        Pairing::Unpaired => "idabench compare",
        Pairing::Paired { .. } => "idabench ab",
    };
    let (status, details) = c.headline(|v| visible(v).into_owned());
    let [(base_each, base_all), (cur_each, cur_all)] =
        [&compared.baseline, &compared.current].map(|run| run.statuses(&c.variants));
    let mut body = format!("<h1>{title}</h1>\n");
    body += &alarm(
        &[
            ("baseline", base_all.wrong, base_all.error),
            ("current", cur_all.wrong, cur_all.error),
        ],
        "see the statuses below, and the message column of the runs' rows",
    );
    let _ = write!(
        body,
        "<p><strong>{}</strong>: {}</p>\n<ul>\n<li>Baseline: <code>{}</code></li>\n<li>Current: <code>{}</code></li>\n</ul>\n",
        escape(&status),
        escape(&details),
        escape(&c.baseline),
        escape(&c.current)
    );
    for w in &c.warnings {
        let _ = writeln!(
            body,
            "<p class=\"warn\">warning: {}</p>",
            escape(&w.to_string())
        );
    }
    let _ = writeln!(body, "<p class=\"note\">{}</p>", escape(&c.time_note()));
    body += "<h2>Per variant</h2>\n";
    let (header, rows) = c.table();
    let rows = rows
        .into_iter()
        .map(|r| r.iter().map(|v| escape(v)).collect());
    body += &table(&header, rows);
    body += "<h2 id=\"statuses\">Statuses</h2>\n";
    let names = c
        .variants
        .iter()
        .map(|v| v.variant.as_str())
        .chain(["overall"]);
    let base = base_each.iter().chain([&base_all]);
    let cur = cur_each.iter().chain([&cur_all]);
    let rows = names.zip(base.zip(cur)).flat_map(|(name, (b, k))| {
        [("baseline", b), ("current", k)].map(|(side, counts)| {
            let mut cells = vec![
                format!("<code>{}</code>", escape(name).replace('/', "/<wbr>")),
                side.to_owned(),
                counts.jobs.to_string(),
            ];
            cells.extend(
                StatusCounts::NAMES
                    .iter()
                    .zip(counts.values())
                    .map(|(status, n)| match *status {
                        "wrong" | "error" => flagged(n),
                        _ => n.to_string(),
                    }),
            );
            cells
        })
    });
    let mut header = vec!["variant", "run", "jobs"];
    header.extend(StatusCounts::NAMES.map(|n| if n == "over_cap" { "over cap" } else { n }));
    body += &table(&header, rows);
    body += &pictures(pictures_drawn);
    body += &job_lists(compared);
    match sides {
        Sides::Runs => {
            for (role, run) in [
                ("Baseline", &compared.baseline),
                ("Current", &compared.current),
            ] {
                body += &run_setting(role, run, dir);
            }
        }
        Sides::Builds { facts, files: own } => {
            body += "<h2>Builds and setting</h2>\n<ul>\n";
            for fact in facts {
                let _ = writeln!(body, "<li>{}</li>", escape(fact));
            }
            body += "</ul>\n";
            body += &files(own);
        }
    }
    page(title, &body)
}

/// One run of a comparison: where it was read from, its manifest's key fields, and links to
/// its files from `dir`, where report.html is.
fn run_setting(role: &str, run: &SavedRun, dir: &Path) -> String {
    let mut out = format!(
        "<h2>{role} run: <code>{}</code></h2>\n",
        escape(&run.source)
    );
    match &run.manifest {
        Some(m) => out += &setting(m),
        None => out += "<p>No manifest.json beside its runs.csv.</p>\n",
    }
    let source = Path::new(&run.source);
    let run_dir = if source.is_dir() {
        source
    } else {
        source
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    };
    let links = report_files(run_dir, dir, &RUN_FILES);
    if !links.is_empty() {
        let items: Vec<String> = links
            .iter()
            .map(|(name, href)| format!("<a href=\"{}\">{}</a>", escape(href), escape(name)))
            .collect();
        let _ = writeln!(out, "<p>Files: {}</p>", items.join(", "));
    }
    out
}

/// How many jobs a list on the page shows before it only counts the rest.
const LISTED: usize = 200;

/// The changed jobs and those in one run only.
fn job_lists(compared: &Compared) -> String {
    let c = &compared.comparison;
    let mut out = String::new();
    if !c.changes.is_empty() {
        let _ = writeln!(out, "<h2>Changed results ({})</h2>", c.overall.changed);
        let rows = c.changes.iter().take(LISTED).map(|ch| {
            [
                ch.job.dataset,
                ch.job.instance,
                ch.job.variant,
                ch.field.name(),
                &ch.baseline.to_string(),
                &ch.current.to_string(),
            ]
            .iter()
            .map(|v| escape(v))
            .collect()
        });
        out += &table(
            &[
                "dataset", "instance", "variant", "field", "baseline", "current",
            ],
            rows,
        );
        out += &more(c.changes.len());
    }
    for (title, list) in [
        ("Missing in current", &c.missing_in_current),
        ("New in current", &c.missing_in_baseline),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h2>{title} ({})</h2>", list.len());
        let rows = list.iter().take(LISTED).map(|j| {
            [j.dataset, j.instance, j.variant]
                .iter()
                .map(|v| escape(v))
                .collect()
        });
        out += &table(&["dataset", "instance", "variant"], rows);
        out += &more(list.len());
    }
    out
}

fn more(n: usize) -> String {
    if n > LISTED {
        format!(
            "<p class=\"note\">and {} more (see the printed report)</p>\n",
            n - LISTED
        )
    } else {
        String::new()
    }
}

/// The whole page: `body` in a document with its own small style sheet.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

const STYLE: &str = "\
body { font-family: sans-serif; max-width: 1400px; margin: 1.5em auto; padding: 0 1em; color: #222; line-height: 1.45; }
p, ul, h1, h2, pre { max-width: 860px; }
h1 { font-size: 1.5em; }
h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.45em; text-align: right; }
td { white-space: nowrap; }
td:first-child { white-space: normal; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f2f2f2; }
figure { margin: 1.2em 0; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85em; }
pre { background: #f7f7f7; padding: 0.8em; overflow-x: auto; font-size: 0.8em; }
.warn { background: #fff3cd; border: 1px solid #e0c060; padding: 0.5em 0.8em; }
.alarm { background: #fde2e1; border: 1px solid #c0392b; color: #a00; padding: 0.5em 0.8em; }
.bad { color: #c00; }
.note { font-size: 0.9em; color: #444; }
#jobs-table th:nth-child(-n+4), #jobs-table td:nth-child(-n+4) { text-align: left; }
#jobs-table td:nth-child(-n+3) { white-space: normal; }
#jobs-table th[data-key] { cursor: pointer; }
#jobs-table th[aria-sort=ascending]::after { content: ' \\25B2'; }
#jobs-table th[aria-sort=descending]::after { content: ' \\25BC'; }
";

/// `s` with the characters HTML gives a meaning escaped, for text and attribute values; made
/// `visible_lines` first, so that no control or bidirectional character reaches the page (a
/// character reference to one would act alike).
pub(super) fn escape(s: &str) -> String {
    let s = visible_lines(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_rfc_4648_gives_it() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn text_and_links_are_escaped() {
        assert_eq!(
            escape("<b>\"a\" & 'b'</b>"),
            "&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;"
        );
        assert_eq!(
            escape("{\n\t\"id\": \"\x1b]0;t\x07\u{202e}<\"\n}"),
            "{\n\t&quot;id&quot;: &quot;\\x1b]0;t\\x07\\u{202e}&lt;&quot;\n}"
        );
        assert_eq!(href(Path::new("../r 1/runs.csv")), "../r%201/runs.csv");
        assert_eq!(href(Path::new("/tmp/a#b")), "file:///tmp/a%23b");
        assert_eq!(
            alt("scatter-a-vs-b_c.svg"),
            "Nodes per instance, a against b_c"
        );
        assert_eq!(
            size("<svg width=\"800\" height=\"654\" viewBox=\"0 0 800 654\">"),
            (800, 654)
        );
    }

    #[test]
    fn links_are_relative_to_the_page() {
        let dir = tempfile::tempdir().unwrap();
        let (run, out) = (dir.path().join("run"), dir.path().join("pictures"));
        std::fs::create_dir_all(&run).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(run.join("runs.csv"), "x").unwrap();
        assert_eq!(
            report_files(&run, &out, &["runs.csv", "summary.csv"]),
            [("runs.csv".to_string(), "../run/runs.csv".to_string())]
        );
        assert_eq!(
            report_files(&run, &run, &["runs.csv"]),
            [("runs.csv".to_string(), "runs.csv".to_string())]
        );
    }
}
