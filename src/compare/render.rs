//! Writing a comparison out: an aligned text table, Markdown for pull requests, or CSV.

use super::join::{changed, timed};
use super::stats::{TimeStats, Verdict};
use super::{
    Comparison, JobKey, Keys, Pairing, RenderFormat, SavedJob, SavedRun, VariantComparison,
};
use crate::error::{Done, Error, EXIT_INTERRUPTED, EXIT_REGRESSED, EXIT_WRONG};
use crate::results::record::StatusCounts;
use crate::util::text::{markdown_code, visible};
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

impl Comparison {
    /// The variants whose time regressed.
    fn regressed_variants(&self) -> Vec<&str> {
        self.variants
            .iter()
            .filter(|s| s.time.verdict == Verdict::Regressed)
            .map(|s| s.variant.as_str())
            .collect()
    }

    /// Pass or fail and why, then the overall figures; the variants it names shown by `quote`.
    pub fn headline(&self, quote: impl Fn(&str) -> String) -> (String, String) {
        let o = &self.overall;
        let regressed = self.regressed_variants();
        let mut status = match (self.incomplete, self.found()) {
            (None, Done::Wrong) => format!("FAIL (exit {EXIT_WRONG}): results changed"),
            (None, Done::Regressed) => {
                format!("FAIL (exit {EXIT_REGRESSED}): overall time regressed")
            }
            (None, _) => "OK".to_owned(),
            // What the pairs measured show is told, but does not decide the exit code.
            (Some(i), found) => format!(
                "{}: {} of {} pairs measured; in them, {}",
                if i.interrupted {
                    format!("INTERRUPTED (exit {EXIT_INTERRUPTED})")
                } else {
                    "STOPPED by an error".to_owned()
                },
                i.measured,
                i.planned,
                match found {
                    Done::Wrong => "results changed",
                    Done::Regressed => "overall time regressed",
                    _ => "nothing wrong",
                }
            ),
        };
        if !regressed.is_empty() {
            status += &format!(
                "; time regressed in {} of {} variants ({}), reported but not gating",
                regressed.len(),
                self.variants.len(),
                regressed
                    .iter()
                    .map(|v| quote(v))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        // Every verdict line of two runs taken apart says what their interval leaves out.
        let caveat = match self.pairing {
            Pairing::Unpaired => " (unpaired runs: a drift of the machine's speed between them is not in the interval)",
            Pairing::Paired { .. } => "",
        };
        let details = format!(
            "overall time {}: {}, threshold {:.2}{caveat}; {} of {} changed, {} missing in current, {} new",
            o.time.verdict,
            ratio_and_interval(&o.time),
            self.threshold,
            o.changed,
            jobs(o.jobs_compared),
            o.missing_in_current,
            o.missing_in_baseline,
        );
        (status, details)
    }

    /// What the time figures are, and how many jobs gave none.
    pub fn time_note(&self) -> String {
        let mut note = match self.pairing {
            Pairing::Unpaired => {
                "Time is CPU time, current / baseline: per variant, the geometric mean over \
                 its jobs and a 95% bootstrap interval over them; overall, the geometric mean \
                 over instances (each instance's geometric mean across variants) and a 95% \
                 bootstrap interval over instances. The runs are unpaired: a drift of the \
                 machine's speed between them moves every job alike, so it is not in the \
                 interval and can pass for a change (10% or more on a busy machine); \
                 `idabench ab` pairs the two builds' measurements in time and removes it."
                    .to_owned()
            }
            Pairing::Paired { rounds } => format!(
                "Time is CPU time, current / baseline, of each job's two measurements taken \
                 back to back, in {rounds} round{}: per variant, the geometric mean over its \
                 jobs and rounds and a 95% bootstrap interval resampling rounds and jobs \
                 (crossed); overall, the same over instances (each instance's geometric mean \
                 across variants in a round) and rounds. `timed` counts pairs.",
                if rounds == 1 { "" } else { "s" }
            ),
        };
        if let Some(said) = self.repetitions_note() {
            note.push(' ');
            note += &said;
        }
        let untimed = self.overall.time.untimed;
        if untimed > 0 {
            let why = if self.min_time_s > 0.0 {
                format!(
                    "under {} of CPU time in either run",
                    duration(self.min_time_s)
                )
            } else {
                "no CPU time measured in either run".to_owned()
            };
            let of = match self.pairing {
                Pairing::Unpaired => jobs(self.overall.jobs_compared),
                Pairing::Paired { .. } => {
                    format!("{} pairs", self.overall.time.timed + untimed)
                }
            };
            note += &format!(" {untimed} of {of} not timed ({why}).");
        }
        note
    }

    /// How runs made with `--repeat` were read: each job as the median of its repetitions, and
    /// the spread of their CPU times; `None` when neither run has repetitions.
    fn repetitions_note(&self) -> Option<String> {
        if self.repetitions == [1, 1] {
            return None;
        }
        let runs = self.repetitions.map(|n| match n {
            1 => "once".to_owned(),
            n => format!("up to {n} times"),
        });
        let spread = self
            .overall
            .cpu_spread
            .map(|s| s.map_or_else(|| "-".to_owned(), |s| format!("{:.1}%", 100.0 * s)));
        Some(format!(
            "A job run several times (--repeat) counts once, with the median of its CPU times \
             (baseline: each job run {}, current: {}); the median spread of a job's CPU times, \
             (max - min) / median over jobs of at least 1 ms: baseline {}, current {} (per \
             variant: baseline_cpu_spread and current_cpu_spread in --format csv).",
            runs[0], runs[1], spread[0], spread[1]
        ))
    }

    fn summaries(&self) -> impl Iterator<Item = &VariantComparison> {
        self.variants.iter().chain(std::iter::once(&self.overall))
    }

    /// The per-variant table, its header and a row per variant then `overall`, as the text
    /// report shows it.
    pub fn table(&self) -> ([&'static str; 9], Vec<Vec<String>>) {
        let rows = self
            .summaries()
            .map(|s| summary_cells(s, |v| v.to_owned(), self.pairing));
        (TABLE_HEADER, rows.collect())
    }

    /// The report in `format`, whole: for a file. `print` writes it to stdout as it is made.
    pub fn render(&self, format: RenderFormat) -> String {
        let mut bytes = Vec::new();
        self.write(format, &mut bytes)
            .expect("writing to memory cannot fail");
        String::from_utf8(bytes).expect("the report is written from strings")
    }

    /// Writes the report in `format` to stdout (`out`), buffered; a failed write is stdout's.
    /// `runs` are the two runs compared, whose jobs' own figures `CsvLong` lists.
    pub fn print(
        &self,
        format: RenderFormat,
        runs: Runs,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let mut out = BufWriter::with_capacity(1 << 16, out);
        self.write_with(format, Some(runs), &mut out)
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("stdout", e))
    }

    /// Writes the report in `format`, line by line as it is made: the lists of jobs are as long
    /// as the runs, too long to hold as text when every job changed. `CsvLong` without the runs
    /// has only the variant and overall rows.
    pub fn write(&self, format: RenderFormat, out: &mut dyn Write) -> io::Result<()> {
        self.write_with(format, None, out)
    }

    fn write_with(
        &self,
        format: RenderFormat,
        runs: Option<Runs>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match format {
            RenderFormat::Text => self.text(out),
            RenderFormat::Markdown => self.markdown(out),
            RenderFormat::Csv => self.csv(out),
            RenderFormat::CsvLong => self.csv_long(runs, out),
        }
    }

    /// For a terminal: every value from the runs' files `visible`.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let shown = |v: &str| visible(v).into_owned();
        write!(
            out,
            "baseline: {}\ncurrent:  {}\n{}\n\n",
            visible(&self.baseline),
            visible(&self.current),
            self.time_note(),
        )?;
        let summaries: Vec<&VariantComparison> = self.summaries().collect();
        write_aligned(
            out,
            "",
            &[false, true, true, true, true, true, true, false, false],
            summaries.len() + 1,
            |i, cells| {
                let row = match i.checked_sub(1) {
                    None => TABLE_HEADER.map(str::to_owned).to_vec(),
                    Some(s) => summary_cells(summaries[s], shown, self.pairing),
                };
                for (cell, value) in cells.iter_mut().zip(row) {
                    *cell = value;
                }
            },
        )?;
        if !self.changes.is_empty() {
            write!(out, "\nchanged results ({}):\n", jobs(self.overall.changed))?;
            write_aligned(out, "  ", &[false; 7], self.changes.len(), |i, cells| {
                let c = self.changes.get(i);
                job_cells(c.job, cells);
                cells[3].push_str(c.field.name());
                let _ = write!(cells[4], "{}", c.baseline);
                cells[5].push_str("->");
                let _ = write!(cells[6], "{}", c.current);
            })?;
        }
        for (title, list) in self.missing_lists() {
            write!(out, "\n{title} ({}):\n", jobs(list.len()))?;
            write_aligned(out, "  ", &[false; 3], list.len(), |i, cells| {
                job_cells(list.get(i), cells);
            })?;
        }
        let (status, details) = self.headline(shown);
        write!(out, "\n{status}; {details}\n")
    }

    fn missing_lists(&self) -> impl Iterator<Item = (&'static str, &Keys)> {
        [
            ("missing in current", &self.missing_in_current),
            (
                "new in current (not in baseline)",
                &self.missing_in_baseline,
            ),
        ]
        .into_iter()
        .filter(|(_, jobs)| !jobs.is_empty())
    }

    /// For a pull request: every value from the runs' files in a `markdown_code` span.
    fn markdown(&self, out: &mut dyn Write) -> io::Result<()> {
        let (status, details) = self.headline(markdown_code);
        let command = match self.pairing {
            Pairing::Unpaired => "compare",
            Pairing::Paired { .. } => "ab",
        };
        write!(
            out,
            "**idabench {command}: {status}**: {details}\n\nBaseline {}, current {}. {}\n\n",
            markdown_code(&self.baseline),
            markdown_code(&self.current),
            self.time_note()
        )?;
        for warning in &self.warnings {
            write!(out, "> warning: {}\n\n", warning.render(markdown_code))?;
        }
        md_header(out, &TABLE_HEADER, "|---|--:|--:|--:|--:|--:|--:|---|---|")?;
        for s in &self.variants {
            md_row(out, &summary_cells(s, markdown_code, self.pairing))?;
        }
        md_row(
            out,
            &summary_cells(&self.overall, |_| "**overall**".to_owned(), self.pairing),
        )?;
        if !self.changes.is_empty() {
            write!(
                out,
                "\n#### Changed results ({})\n\n",
                jobs(self.overall.changed)
            )?;
            md_header(
                out,
                &[
                    "dataset", "instance", "variant", "field", "baseline", "current",
                ],
                "|---|---|---|---|--:|--:|",
            )?;
            for c in self.changes.iter() {
                let j = c.job;
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    markdown_code(j.dataset),
                    markdown_code(j.instance),
                    markdown_code(j.variant),
                    c.field.name(),
                    c.baseline,
                    c.current
                )?;
            }
        }
        for (title, list) in self.missing_lists() {
            write!(out, "\n#### {title} ({})\n\n", jobs(list.len()))?;
            md_header(out, &["dataset", "instance", "variant"], "|---|---|---|")?;
            for j in list.iter() {
                writeln!(
                    out,
                    "| {} | {} | {} |",
                    markdown_code(j.dataset),
                    markdown_code(j.instance),
                    markdown_code(j.variant)
                )?;
            }
        }
        Ok(())
    }

    /// A CSV writer's error is its I/O error, which `?` keeps as the message: its rows are all
    /// of one length, so no other can occur.
    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut writer = csv::Writer::from_writer(out);
        let float = |x: Option<f64>| x.map_or_else(String::new, |x| format!("{x:.4}"));
        let pairing = match self.pairing {
            Pairing::Unpaired => "unpaired",
            Pairing::Paired { .. } => "paired",
        };
        let summary = |s: &VariantComparison, kind: &str| {
            let mut row = vec![
                s.variant.clone(),
                s.jobs_compared.to_string(),
                s.changed.to_string(),
                s.missing_in_current.to_string(),
                s.missing_in_baseline.to_string(),
                s.time.timed.to_string(),
                s.time.untimed.to_string(),
                float(s.time.geomean),
                float(s.time.interval.map(|i| i.0)),
                float(s.time.interval.map(|i| i.1)),
                s.time.verdict.to_string(),
                kind.to_owned(),
            ];
            row.resize(CSV_HEADER.len() - 3, String::new());
            row.push(pairing.to_owned());
            row.extend(s.cpu_spread.map(float));
            row
        };
        writer.write_record(CSV_HEADER)?;
        for s in &self.variants {
            writer.write_record(summary(s, "variant"))?;
        }
        writer.write_record(summary(&self.overall, "overall"))?;
        let (mut baseline, mut current) = (String::new(), String::new());
        for c in self.changes.iter() {
            baseline.clear();
            current.clear();
            let _ = write!(baseline, "{}", c.baseline);
            let _ = write!(current, "{}", c.current);
            writer.write_record(csv_job(
                "changed",
                c.job,
                c.field.name(),
                &baseline,
                &current,
            ))?;
        }
        for (kind, list) in [
            ("missing_in_current", &self.missing_in_current),
            ("missing_in_baseline", &self.missing_in_baseline),
        ] {
            for j in list.iter() {
                writer.write_record(csv_job(kind, j, "", "", ""))?;
            }
        }
        writer.flush()
    }
}

/// The two runs of a comparison: (baseline, current).
pub type Runs<'a> = (&'a SavedRun, &'a SavedRun);

/// The columns of `--format csv-long`.
const LONG_HEADER: [&str; 7] = [
    "scope", "dataset", "instance", "variant", "measure", "side", "value",
];

/// What a scope that is not one job has in the job columns: all of them.
const ALL: &str = "*";

impl Comparison {
    /// Tidy CSV: a row per (variant or job, measure, side) and its value, never an empty cell.
    /// Variants, then `overall`: the comparison's figures (side `comparison`), each run's median
    /// and largest spread of a job's CPU times when it was made with --repeat, and each run's
    /// status counts (side `baseline`, `current`). Then, given the runs, each job's figures in
    /// each run that holds it, and for a job of both runs whether its results changed and, when
    /// timed, its time ratio (side `comparison`). A value a job lacks (a length when unsolved,
    /// a ratio when untimed) has no row.
    fn csv_long(&self, runs: Option<Runs>, out: &mut dyn Write) -> io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(LONG_HEADER)?;
        let float = |x: f64| x.to_string();
        let counts = runs.map(|(b, c)| [b.statuses(&self.variants), c.statuses(&self.variants)]);
        let pairing = match self.pairing {
            Pairing::Unpaired => "unpaired",
            Pairing::Paired { .. } => "paired",
        };
        for (k, s) in self.summaries().enumerate() {
            let (scope, variant) = if k < self.variants.len() {
                ("variant", s.variant.as_str())
            } else {
                ("overall", ALL)
            };
            let mut row = |measure: &str, side: &str, value: String| {
                w.write_record([scope, ALL, ALL, variant, measure, side, &value])
            };
            let t = &s.time;
            let figures = [
                ("jobs_compared", Some(s.jobs_compared.to_string())),
                ("changed", Some(s.changed.to_string())),
                ("missing_in_current", Some(s.missing_in_current.to_string())),
                (
                    "missing_in_baseline",
                    Some(s.missing_in_baseline.to_string()),
                ),
                ("timed", Some(t.timed.to_string())),
                ("untimed", Some(t.untimed.to_string())),
                ("time_ratio_geomean", t.geomean.map(float)),
                ("ci_low", t.interval.map(|i| float(i.0))),
                ("ci_high", t.interval.map(|i| float(i.1))),
                ("verdict", Some(t.verdict.to_string())),
                ("pairing", Some(pairing.to_owned())),
            ];
            for (measure, value) in figures {
                if let Some(value) = value {
                    row(measure, "comparison", value)?;
                }
            }
            // Of runs made with --repeat, as summary.csv names them.
            for (k, side) in ["baseline", "current"].into_iter().enumerate() {
                for (measure, value) in [
                    ("time_cpu_spread_p50", s.cpu_spread[k]),
                    ("time_cpu_spread_max", s.cpu_spread_max[k]),
                ] {
                    if let Some(value) = value {
                        row(measure, side, float(value))?;
                    }
                }
            }
            for (side, (each, all)) in ["baseline", "current"].iter().zip(counts.iter().flatten()) {
                let c = each.get(k).unwrap_or(all);
                row("jobs", side, c.jobs.to_string())?;
                for (measure, n) in StatusCounts::NAMES.iter().zip(c.values()) {
                    row(measure, side, n.to_string())?;
                }
            }
        }
        let Some((base, cur)) = runs else {
            return w.flush();
        };
        let mut job_rows = |j: &SavedJob, side: &str| -> io::Result<()> {
            let length = j.length.map(|l| l.to_string());
            let figures = [
                ("status", Some(j.status.name().to_owned())),
                ("length", length),
                ("nodes_generated", Some(j.nodes_generated.to_string())),
                ("nodes_expanded", Some(j.nodes_expanded.to_string())),
                ("time_cpu_s", Some(float(j.time_cpu_s))),
            ];
            for (measure, value) in figures {
                if let Some(value) = value {
                    w.write_record([
                        "job", j.dataset, j.instance, j.variant, measure, side, &value,
                    ])?;
                }
            }
            Ok(())
        };
        let partners = base.jobs.partners(&cur.jobs);
        let mut in_base = vec![false; cur.jobs.len()];
        let mut joined = Vec::new();
        for (b, partner) in base.jobs.iter().zip(partners) {
            job_rows(&b, "baseline")?;
            if let Some(k) = partner {
                in_base[k] = true;
                let c = cur.jobs.get(k);
                job_rows(&c, "current")?;
                joined.push((b, c));
            }
        }
        for (c, _) in cur.jobs.iter().zip(&in_base).filter(|(_, seen)| !**seen) {
            job_rows(&c, "current")?;
        }
        // The comparison's own figures of each job of both runs, after the jobs' figures: the
        // job rows above borrow the writer.
        for (b, c) in joined {
            let key = [b.dataset, b.instance, b.variant];
            let changed = if changed(&b, &c) { "true" } else { "false" };
            w.write_record([
                "job",
                key[0],
                key[1],
                key[2],
                "changed",
                "comparison",
                changed,
            ])?;
            if timed(b.time_cpu_s, self.min_time_s) && timed(c.time_cpu_s, self.min_time_s) {
                let ratio = float(c.time_cpu_s / b.time_cpu_s);
                w.write_record([
                    "job",
                    key[0],
                    key[1],
                    key[2],
                    "time_ratio",
                    "comparison",
                    &ratio,
                ])?;
            }
        }
        w.flush()
    }
}

/// A CSV row of a job. It fills `variant` and the job columns only, so that each column holds one
/// kind of value and a reader can select rows by `kind`.
fn csv_job<'a>(
    kind: &'a str,
    job: JobKey<'a>,
    field: &'a str,
    baseline: &'a str,
    current: &'a str,
) -> [&'a str; CSV_HEADER.len()] {
    let mut row = [""; CSV_HEADER.len()];
    row[0] = job.variant;
    row[CSV_SUMMARY_COLUMNS..CSV_HEADER.len() - 3].copy_from_slice(&[
        kind,
        job.dataset,
        job.instance,
        field,
        baseline,
        current,
    ]);
    row
}

/// The summary columns come first, as they were before the job columns existed, then `pairing`
/// (whether the interval rests on paired measurements), then each run's spread of CPU times
/// over repetitions (summary rows only): each added after those before it, so that scripts
/// reading columns by position keep working.
const CSV_HEADER: [&str; 20] = [
    "variant",
    "jobs_compared",
    "changed",
    "missing_in_current",
    "missing_in_baseline",
    "timed",
    "untimed",
    "time_ratio_geomean",
    "ci_low",
    "ci_high",
    "verdict",
    "kind",
    "dataset",
    "instance",
    "field",
    "baseline",
    "current",
    "pairing",
    "baseline_cpu_spread",
    "current_cpu_spread",
];

/// `variant` up to `verdict`.
const CSV_SUMMARY_COLUMNS: usize = 11;

const TABLE_HEADER: [&str; 9] = [
    "variant",
    "jobs",
    "changed",
    "missing",
    "new",
    "timed",
    "time ratio",
    "95% interval",
    "verdict",
];

/// A row of the table. Unpaired, each verdict says so: a reader of one line must not take its
/// interval for one that holds the drift between the runs.
fn summary_cells(
    s: &VariantComparison,
    variant: impl Fn(&str) -> String,
    pairing: Pairing,
) -> Vec<String> {
    let mark = match pairing {
        Pairing::Unpaired => " (unpaired)",
        Pairing::Paired { .. } => "",
    };
    vec![
        variant(&s.variant),
        s.jobs_compared.to_string(),
        s.changed.to_string(),
        s.missing_in_current.to_string(),
        s.missing_in_baseline.to_string(),
        s.time.timed.to_string(),
        s.time
            .geomean
            .map_or_else(|| "-".to_owned(), |g| format!("{g:.3}")),
        s.time
            .interval
            .map_or_else(|| "-".to_owned(), |(l, h)| format!("[{l:.3}, {h:.3}]")),
        format!("{}{mark}", s.time.verdict),
    ]
}

/// The overall ratio, its interval and how many instances it rests on.
fn ratio_and_interval(time: &TimeStats) -> String {
    match (time.geomean, time.interval) {
        (Some(g), Some((l, h))) => {
            format!(
                "ratio {g:.3} [{l:.3}, {h:.3}] over {} instances",
                time.units
            )
        }
        (Some(g), None) => format!("ratio {g:.3} from a single instance"),
        _ => "no timed jobs".to_owned(),
    }
}

/// Seconds in the largest unit that keeps a whole part: `0.001` is `1 ms`.
fn duration(seconds: f64) -> String {
    let (value, unit) = if seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else {
        (seconds * 1e6, "µs")
    };
    let digits = format!("{value:.3}");
    let digits = digits.trim_end_matches('0').trim_end_matches('.');
    format!("{digits} {unit}")
}

fn jobs(n: usize) -> String {
    if n == 1 {
        "1 job".to_owned()
    } else {
        format!("{n} jobs")
    }
}

/// A job's dataset, instance and variant, each `visible`, into the first three cells.
fn job_cells(job: JobKey<'_>, cells: &mut [String]) {
    for (cell, name) in cells
        .iter_mut()
        .zip([job.dataset, job.instance, job.variant])
    {
        cell.push_str(&visible(name));
    }
}

/// Writes `rows` rows of `right.len()` cells, after `indent`, each column padded to its widest
/// cell (`right[i]` right-aligns column `i`) and each line's trailing space trimmed.
/// `fill(i, cells)` writes row `i` into `cells`, emptied: twice, once to measure the columns and
/// once to write them, so that no more than a row is held as text.
fn write_aligned(
    out: &mut dyn Write,
    indent: &str,
    right: &[bool],
    rows: usize,
    mut fill: impl FnMut(usize, &mut [String]),
) -> io::Result<()> {
    let mut cells = vec![String::new(); right.len()];
    let mut make = |i: usize, cells: &mut [String]| {
        cells.iter_mut().for_each(String::clear);
        fill(i, cells);
    };
    let mut widths = vec![0; right.len()];
    for i in 0..rows {
        make(i, &mut cells);
        for (w, cell) in widths.iter_mut().zip(&cells) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut line = String::new();
    for i in 0..rows {
        make(i, &mut cells);
        line.clear();
        for (k, (cell, (&w, &right))) in cells.iter().zip(widths.iter().zip(right)).enumerate() {
            if k > 0 {
                line.push_str("  ");
            }
            let pad = w - cell.chars().count();
            if right {
                line.extend(std::iter::repeat_n(' ', pad));
            }
            line.push_str(cell);
            if !right {
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        writeln!(out, "{indent}{}", line.trim_end())?;
    }
    Ok(())
}

fn md_header(out: &mut dyn Write, header: &[&str], rule: &str) -> io::Result<()> {
    write!(out, "| {} |\n{rule}\n", header.join(" | "))
}

fn md_row(out: &mut dyn Write, cells: &[String]) -> io::Result<()> {
    writeln!(out, "| {} |", cells.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::fixtures::*;
    use crate::compare::{compare, CompareOptions, Warning};
    use crate::results::record::Status;

    #[test]
    fn columns_are_padded_to_their_widest_cell_in_characters() {
        let rows = [["界界", "1", "a "], ["x", "100", "\u{3000}"]];
        let mut out = Vec::new();
        write_aligned(
            &mut out,
            "> ",
            &[false, true, false],
            rows.len(),
            |i, cells| {
                for (cell, value) in cells.iter_mut().zip(rows[i]) {
                    cell.push_str(value);
                }
            },
        )
        .unwrap();
        // Trailing space is trimmed, a cell's own too, as a terminal would not show it.
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "> 界界    1  a\n> x   100\n"
        );
    }

    #[test]
    fn durations_are_shown_in_a_readable_unit() {
        assert_eq!(duration(0.001), "1 ms");
        assert_eq!(duration(0.0025), "2.5 ms");
        assert_eq!(duration(0.00005), "50 µs");
        assert_eq!(duration(2.0), "2 s");
    }

    #[test]
    fn csv_output_is_one_row_per_variant_and_overall() {
        let c = compare(&baseline(), &scaled(|_| 1.5), &CompareOptions::default());
        let csv = c.render(RenderFormat::Csv);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "variant,jobs_compared,changed,missing_in_current,missing_in_baseline,timed,untimed,\
             time_ratio_geomean,ci_low,ci_high,verdict,kind,dataset,instance,field,baseline,current,\
             pairing,baseline_cpu_spread,current_cpu_spread"
        );
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[3],
            "overall,40,0,0,0,40,0,1.5000,1.5000,1.5000,regressed,overall,,,,,,unpaired,,"
        );
    }

    #[test]
    fn every_verdict_of_unpaired_runs_is_marked_and_paired_ones_are_not() {
        let mut c = compare(&baseline(), &scaled(|_| 1.5), &CompareOptions::default());
        let text = c.render(RenderFormat::Text);
        let verdicts: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("manhattan/") || l.starts_with("overall "))
            .collect();
        assert_eq!(verdicts.len(), 3, "{text}");
        assert!(
            verdicts.iter().all(|l| l.ends_with("regressed (unpaired)")),
            "{text}"
        );
        let md = c.render(RenderFormat::Markdown);
        let rows: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with("| `manhattan/"))
            .collect();
        assert_eq!(rows.len(), 2, "{md}");
        assert!(md.contains("| **overall** |"), "{md}");
        assert!(
            md.lines()
                .filter(|l| l.starts_with("| `manhattan/") || l.starts_with("| **overall**"))
                .all(|l| l.ends_with("| regressed (unpaired) |")),
            "{md}"
        );
        let csv = c.render(RenderFormat::Csv);
        assert!(
            csv.lines().skip(1).all(|l| l.ends_with(",unpaired,,")),
            "{csv}"
        );

        c.pairing = Pairing::Paired { rounds: 3 };
        let text = c.render(RenderFormat::Text);
        assert!(!text.contains("(unpaired)"), "{text}");
        let csv = c.render(RenderFormat::Csv);
        assert!(
            csv.lines().skip(1).all(|l| l.ends_with(",paired,,")),
            "{csv}"
        );
    }

    /// A variant regressed, a warning and a job in one run only, each naming values that would
    /// break out of Markdown or command a terminal.
    #[test]
    fn values_from_the_runs_are_quoted_for_each_format() {
        let hostile = "v`1\n# heading|\x1b]0;t\x07\u{202e}";
        let mut records = baseline_records();
        for r in &mut records {
            r.time_cpu_s *= 1.5;
        }
        records.remove(0);
        let cur = run_of(records, "cur");
        let mut c = compare(&baseline(), &cur, &CompareOptions::default());
        c.variants[0].variant = hostile.to_owned();
        // The job missing in the current run, its instance renamed.
        c.missing_in_current = Keys::default();
        c.missing_in_current.push(JobKey {
            dataset: "korf100",
            instance: hostile,
            variant: VARIANTS[0],
        });
        c.warnings = vec![Warning::Differs {
            field: "cpu_model",
            baseline: hostile.to_owned(),
            current: "cpu".to_owned(),
        }];
        c.baseline = hostile.to_owned();
        let shown = "v`1\\n# heading|\\x1b]0;t\\x07\\u{202e}";
        let code = "``v`1\\n# heading\\|\\x1b]0;t\\x07\\u{202e}``";
        assert_eq!(markdown_code(hostile), code);

        let md = c.render(RenderFormat::Markdown);
        let raw = ['\n', '\x1b', '\x07', '\u{202e}'];
        for line in md.lines() {
            assert!(!line.contains(&raw[1..]), "{md}");
            assert!(!line.starts_with("# "), "{md}");
        }
        assert!(md.starts_with("**idabench compare: FAIL"), "{md}");
        assert!(md.lines().next().unwrap().contains(code), "{md}");
        assert!(
            md.contains(&format!("\n\nBaseline {code}, current `")),
            "{md}"
        );
        assert!(
            md.contains(&format!(
                "\n> warning: cpu_model differs: baseline {code}, current `cpu`\n"
            )),
            "{md}"
        );
        assert!(md.contains(&format!("\n| {code} | 19 |")), "{md}");
        assert!(md.contains(&format!("| `korf100` | {code} | `")), "{md}");

        let text = c.render(RenderFormat::Text);
        assert!(!text.contains(&raw[1..]), "{text}");
        assert!(text.starts_with(&format!("baseline: {shown}\n")), "{text}");
        assert!(text.contains(&format!("\n{shown}  ")), "{text}");
        assert!(text.contains(&format!("  korf100  {shown}  ")), "{text}");
        assert!(
            text.contains(&format!("({shown}, manhattan/next/prune), reported")),
            "{text}"
        );
        assert_eq!(
            c.warnings[0].to_string(),
            format!("cpu_model differs: baseline `{shown}`, current `cpu`")
        );

        // CSV is data: the values as they are.
        let csv = c.render(RenderFormat::Csv);
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        assert!(reader
            .records()
            .any(|r| r.unwrap().iter().filter(|v| *v == hostile).count() == 1));
    }

    #[test]
    fn csv_output_lists_changed_fields_and_jobs_in_one_run_only() {
        let base = baseline();
        let mut records = baseline_records();
        records[0].status = Status::NodeLimit;
        records[0].length = None;
        records[23].nodes_generated = 12345;
        records.remove(3);
        records.push(record(21, VARIANTS[0], 1.0));
        let cur = run_of(records, "cur");
        let c = compare(&base, &cur, &CompareOptions::default());
        let csv = c.render(RenderFormat::Csv);
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header = reader.headers().unwrap().clone();
        let column = |name: &str| header.iter().position(|h| h == name).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let kinds: Vec<&str> = rows.iter().map(|r| &r[column("kind")]).collect();
        assert_eq!(
            kinds,
            [
                "variant",
                "variant",
                "overall",
                "changed",
                "changed",
                "changed",
                "missing_in_current",
                "missing_in_baseline"
            ]
        );
        let jobs: Vec<Vec<&str>> = rows[3..]
            .iter()
            .map(|r| {
                [
                    "dataset", "instance", "variant", "field", "baseline", "current",
                ]
                .map(|name| &r[column(name)])
                .to_vec()
            })
            .collect();
        assert_eq!(
            jobs,
            [
                [
                    "korf100",
                    "1",
                    VARIANTS[0],
                    "status",
                    "solved",
                    "node_limit"
                ],
                ["korf100", "1", VARIANTS[0], "length", "51", "-"],
                [
                    "korf100",
                    "4",
                    VARIANTS[1],
                    "nodes_generated",
                    "1148",
                    "12345"
                ],
                ["korf100", "4", VARIANTS[0], "", "", ""],
                ["korf100", "21", VARIANTS[0], "", "", ""],
            ]
        );
        // Job rows leave the summary figures empty.
        assert!(rows[3..]
            .iter()
            .all(|r| (column("jobs_compared")..=column("verdict")).all(|i| r[i].is_empty())));
        assert_eq!(&rows[2][column("changed")], "2");
    }
}
