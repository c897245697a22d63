//! report.html's view of single jobs: the table of jobs (instance x variant: status, length,
//! nodes, CPU time), sortable and filterable by an inline script and capped for large runs, and
//! the count of every status per variant.

use crate::plot::Job;
use crate::report::html::{count, escape, flagged, grouped, headed_table, significant, table};
use crate::results::record::Status;
use std::collections::HashMap;
use std::fmt::Write;

/// The most jobs the table lists: beyond a few thousand rows a page is slow to open and no
/// one reads it; runs.csv has them all.
pub const SHOWN: usize = 5000;

/// The table's columns: (key, as `#sort=KEY` names it, heading).
const COLUMNS: [(&str, &str); 7] = [
    ("dataset", "dataset"),
    ("instance", "instance"),
    ("variant", "variant"),
    ("status", "status"),
    ("length", "length"),
    ("nodes", "nodes generated"),
    ("cpu", "CPU time"),
];

/// Each variant's count of every status a report may hold, from the jobs.
pub fn breakdown(jobs: &[Job], variants: &[String]) -> String {
    if jobs.is_empty() {
        return String::new();
    }
    // A job whose repetitions a time limit split is its own column, where there is one.
    let unstable = jobs.iter().any(|j| j.status == Status::Unstable);
    let statuses: Vec<Status> = Status::WRITTEN
        .into_iter()
        .chain(unstable.then_some(Status::Unstable))
        .collect();
    let column: HashMap<Status, usize> =
        statuses.iter().enumerate().map(|(k, &s)| (s, k)).collect();
    let row: HashMap<&str, usize> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    let mut counts = vec![vec![0u64; statuses.len()]; variants.len()];
    for j in jobs {
        if let (Some(&v), Some(&s)) = (row.get(j.variant), column.get(&j.status)) {
            counts[v][s] += 1;
        }
    }
    let mut header = vec!["variant"];
    header.extend(statuses.iter().map(|s| s.name()));
    let rows = variants.iter().zip(&counts).map(|(v, counts)| {
        let mut cells = vec![format!("<code>{}</code>", escape(v).replace('/', "/<wbr>"))];
        cells.extend(statuses.iter().zip(counts).map(|(&s, &n)| {
            if problem(s) {
                flagged(n)
            } else {
                n.to_string()
            }
        }));
        cells
    });
    format!(
        "<h2 id=\"statuses\">Statuses</h2>\n{}<p class=\"note\">Every job counted once, by its \
         status in runs.csv, or with --repeat by its repetitions' (see summary.md); node_limit \
         and time_limit are the summary's limited.</p>\n",
        table(&header, rows)
    )
}

/// A status that says something went wrong: shown in red when it is not 0.
fn problem(s: Status) -> bool {
    matches!(s, Status::Suboptimal | Status::Wrong | Status::Error)
}

/// How early a job is kept when the table cannot list them all: wrong answers, errors and
/// suboptimal ones first, then jobs stopped by a limit, then the others.
fn rank(s: Status) -> u8 {
    match s {
        Status::Wrong | Status::Error | Status::Suboptimal => 0,
        Status::TimeLimit | Status::NodeLimit => 1,
        _ => 2,
    }
}

/// The jobs the table lists, in the run's order: all of them up to `most`; else the `most`
/// hardest, by `rank` and then by CPU time, most first, so that no wrong answer is left out for
/// a slow right one.
pub fn shown(jobs: &[Job], most: usize) -> Vec<usize> {
    let mut chosen: Vec<usize> = (0..jobs.len()).collect();
    if jobs.len() > most {
        chosen.sort_by(|&a, &b| {
            let (x, y) = (&jobs[a], &jobs[b]);
            rank(x.status)
                .cmp(&rank(y.status))
                .then(y.time_cpu_s.total_cmp(&x.time_cpu_s))
                .then(a.cmp(&b))
        });
        chosen.truncate(most);
        chosen.sort_unstable();
    }
    chosen
}

/// The table of jobs with its script, and what it leaves out; `runs_csv` is the link to
/// runs.csv, when the report has one.
pub fn listing(jobs: &[Job], runs_csv: Option<&str>) -> String {
    if jobs.is_empty() {
        return String::new();
    }
    let chosen = shown(jobs, SHOWN);
    let mut out = String::from("<h2 id=\"jobs\">Jobs</h2>\n<p class=\"note\">");
    if chosen.len() < jobs.len() {
        let _ = write!(
            out,
            "<strong>The {} hardest of the run's {}:</strong> every wrong, error and suboptimal \
             one first, then those stopped by a limit, then the others by CPU time, most first; \
             {} has them all. ",
            grouped(chosen.len() as u64),
            count(jobs.len(), "job"),
            runs_csv.map_or_else(
                || "runs.csv".to_string(),
                |href| format!("<a href=\"{}\">runs.csv</a>", escape(href))
            )
        );
    }
    out += "One row per job, in the run's order. With scripts on, a click on a heading sorts by \
            it (again: the other way) and the box keeps the rows that hold its text; the page's \
            address then holds the view, to share: <code>report.html#sort=-nodes</code> (by \
            nodes, most first), <code>#sort=cpu&amp;filter=wrong</code>. Columns: ";
    out += &COLUMNS
        .iter()
        .map(|(key, _)| format!("<code>{key}</code>"))
        .collect::<Vec<_>>()
        .join(", ");
    out += ".</p>\n<p><input id=\"jobs-filter\" type=\"search\" placeholder=\"filter rows\" \
            aria-label=\"filter the jobs\" hidden></p>\n";
    let headings = COLUMNS
        .iter()
        .map(|(key, heading)| format!("<th data-key=\"{key}\">{heading}</th>"));
    let rows = chosen.iter().map(|&i| row(&jobs[i]));
    out + &headed_table(" id=\"jobs-table\"", headings, rows)
        + "<script>\n"
        + SCRIPT
        + "</script>\n"
}

/// A job's cells; numbers carry their value in `data-v` for sorting (`1.5e-5`: short, and read
/// by the script's `Number`).
fn row(j: &Job) -> Vec<String> {
    let number = |v: f64, shown: String| format!("<span data-v=\"{v:e}\">{shown}</span>");
    let status = if problem(j.status) {
        format!("<strong class=\"bad\">{}</strong>", j.status.name())
    } else {
        j.status.name().to_string()
    };
    vec![
        escape(j.dataset),
        escape(j.instance),
        format!("<code>{}</code>", escape(j.variant)),
        status,
        j.length
            .map_or_else(|| "-".into(), |n| number(n.into(), n.to_string())),
        number(j.nodes_generated as f64, grouped(j.nodes_generated)),
        number(j.time_cpu_s, significant(Some(j.time_cpu_s), "s")),
    ]
}

/// Sorts and filters the table of jobs, from a click or typing and from the page's address
/// (`#sort=KEY`, `#sort=-KEY`, `&filter=TEXT`), which it keeps up to date. Numbers sort by their
/// `data-v`; a cell without one (`-`) comes last either way.
const SCRIPT: &str = r#"(function () {
  var table = document.getElementById('jobs-table');
  var box = document.getElementById('jobs-filter');
  if (!table || !box) return;
  var heads = table.tHead.rows[0].cells, body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var state = {sort: '', filter: ''};
  function column(key) {
    for (var k = 0; k < heads.length; k++) if (heads[k].getAttribute('data-key') === key) return k;
    return -1;
  }
  function value(row, k) {
    var n = row.cells[k].querySelector('[data-v]');
    return n ? Number(n.getAttribute('data-v')) : row.cells[k].textContent === '-' ? null : row.cells[k].textContent;
  }
  function show() {
    var down = state.sort.charAt(0) === '-', k = column(state.sort.replace(/^-/, ''));
    var order = rows.map(function (row, i) { return [k < 0 ? null : value(row, k), i, row]; });
    if (k >= 0) order.sort(function (a, b) {
      if (a[0] === null || b[0] === null) return (a[0] === null) - (b[0] === null) || a[1] - b[1];
      var c = a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
      return (down ? -c : c) || a[1] - b[1];
    });
    var text = state.filter.toLowerCase();
    order.forEach(function (o) {
      o[2].hidden = text !== '' && o[2].textContent.toLowerCase().indexOf(text) < 0;
      body.appendChild(o[2]);
    });
    for (var h = 0; h < heads.length; h++)
      heads[h].setAttribute('aria-sort', h !== k ? 'none' : down ? 'descending' : 'ascending');
    box.value = state.filter;
  }
  function read() {
    state = {sort: '', filter: ''};
    location.hash.replace(/^#/, '').split('&').forEach(function (part) {
      var eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq) in state)
        try { state[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1)); } catch (e) {}
    });
    show();
  }
  function write() {
    var parts = [];
    if (state.sort) parts.push('sort=' + encodeURIComponent(state.sort));
    if (state.filter) parts.push('filter=' + encodeURIComponent(state.filter));
    history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search);
    show();
  }
  Array.prototype.forEach.call(heads, function (head) {
    head.tabIndex = 0;
    head.addEventListener('click', function () {
      var key = head.getAttribute('data-key');
      state.sort = state.sort === key ? '-' + key : key;
      write();
    });
  });
  box.hidden = false;
  box.addEventListener('input', function () { state.filter = box.value; write(); });
  window.addEventListener('hashchange', read);
  read();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn job(instance: &'static str, status: Status, time_cpu_s: f64) -> Job<'static> {
        Job {
            dataset: "d",
            instance,
            variant: "v",
            domain: "tiles",
            size: "3x3",
            status,
            length: status.has_solution().then_some(4),
            nodes_generated: 10,
            time_cpu_s,
            has_iterations: true,
        }
    }

    #[test]
    fn a_capped_table_keeps_every_problem_then_the_slowest_in_the_runs_order() {
        let jobs = [
            job("a", Status::Solved, 3.0),
            job("b", Status::Solved, 1.0),
            job("c", Status::Wrong, 0.0),
            job("d", Status::NodeLimit, 0.5),
            job("e", Status::Solved, 2.0),
            job("f", Status::Error, 0.0),
        ];
        assert_eq!(shown(&jobs, 10), [0, 1, 2, 3, 4, 5]);
        // The wrong and error jobs, the limited one, then the slowest solved one.
        assert_eq!(shown(&jobs, 4), [0, 2, 3, 5]);
        assert_eq!(shown(&jobs, 2), [2, 5]);
        let html = listing(&jobs, Some("../r/runs.csv"));
        assert_eq!(html.matches("<tr>").count(), 7, "{html}");
        assert!(!html.contains("hardest"), "{html}");
        // One job more than the table lists: the page says which it kept, and where all are.
        let many = vec![job("x", Status::Solved, 1.0); SHOWN + 1];
        let html = listing(&many, Some("../r/runs.csv"));
        assert_eq!(
            html.matches("<tr>").count(),
            SHOWN + 1,
            "the heading and 5,000 rows"
        );
        assert!(
            html.contains(
                "<strong>The 5,000 hardest of the run's 5,001 jobs:</strong> every wrong, \
                 error and suboptimal one first"
            ),
            "{}",
            &html[..600]
        );
        assert!(html.contains("<a href=\"../r/runs.csv\">runs.csv</a> has them all"));
    }

    #[test]
    fn the_table_escapes_names_and_sorts_numbers_by_value() {
        let mut j = job("<script>alert(1)</script>", Status::Suboptimal, 1.5e-5);
        j.variant = "v\"><img src=x onerror=alert(1)>";
        let html = listing(&[j], None);
        assert!(
            !html.contains("<script>alert") && !html.contains("<img"),
            "{html}"
        );
        assert!(
            html.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"),
            "{html}"
        );
        assert!(
            html.contains("<span data-v=\"1.5e-5\">15 µs</span>"),
            "{html}"
        );
        assert!(
            html.contains("<strong class=\"bad\">suboptimal</strong>"),
            "{html}"
        );
        assert!(
            html.contains("<th data-key=\"nodes\">nodes generated</th>"),
            "{html}"
        );
    }

    #[test]
    fn the_breakdown_counts_every_status_by_name() {
        let jobs = [
            job("a", Status::Solved, 0.0),
            job("b", Status::Wrong, 0.0),
            job("c", Status::TimeLimit, 0.0),
        ];
        let html = breakdown(&jobs, &["v".into()]);
        assert!(
            html.contains(
                "<tr><td><code>v</code></td><td>1</td><td>0</td><td>0</td><td>0</td><td>1</td>\
                 <td>0</td><td><strong class=\"bad\">1</strong></td><td>0</td></tr>"
            ),
            "{html}"
        );
    }
}
