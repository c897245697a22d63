//! `idabench plot`: SVG pictures of one run's report (cactus plots by CPU time and by nodes, and
//! per-instance scatter plots of nodes between two variants), drawn with plotters' SVG backend.
//!
//! The run is read with `compare::load`, the loader `compare` uses, so a report means the same
//! thing to both. plotters is built without a font library: its SVG backend writes text as
//! `<text>` elements that the viewer lays out, and estimates text sizes itself for the layout.

use crate::atomic::{self, Failure};
use crate::compare::{self, SavedRun};
use crate::error::{Done, Error};
use crate::record::Record;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Okabe and Ito's palette, safe for the common colour-vision deficiencies; yellow last, as it
/// is the faintest on white. Beyond 8 variants the colours repeat with hollow markers.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];
const GREY: RGBColor = RGBColor(0x80, 0x80, 0x80);

/// Every picture is this wide: readable on a laptop screen and in a pull request.
const WIDTH: u32 = 800;
/// The height of the chart itself; the legend below it grows with the number of entries.
const CHART_HEIGHT: u32 = 540;
const LEGEND_ROW: i32 = 24;
const FONT: &str = "sans-serif";
// Font sizes below are in plotters' units: its SVG backend writes them divided by 1.24, so 19
// becomes a 15 px legend, 18 a 14.5 px tick label, 26 a 21 px title.

/// Times under a microsecond (a thread's CPU clock can read 0 for the smallest jobs) are drawn
/// at a microsecond: a log axis has no place for 0.
const TIME_FLOOR_S: f64 = 1e-6;

/// What `idabench plot` is asked to draw.
#[derive(Clone, Debug, Default)]
pub struct PlotOptions {
    /// Where the SVG files go; default: the report directory.
    pub out: Option<PathBuf>,
    /// Scatter plots to draw, as (x variant, y variant); empty: the first variant against each
    /// other one.
    pub pairs: Vec<(String, String)>,
}

/// Reads the run at `report` (a report directory or its runs.csv), writes the SVG files and
/// names each written file on `out`. A plot that cannot be drawn (nothing solved, one variant)
/// is skipped with a note on stderr. Bad input (no runs.csv, an unknown variant in a pair) is
/// exit 2, like `compare`.
pub fn plot(report: &Path, opts: &PlotOptions, out: &mut dyn Write) -> Result<Done, Error> {
    let run = compare::load(report)?;
    let variants = variants(&run);
    let pairs = pairs(&variants, &opts.pairs)?;
    let dir = match &opts.out {
        Some(dir) => dir.clone(),
        None if report.is_dir() => report.to_path_buf(),
        None => report
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    if let Some(m) = &run.manifest {
        if !m.finished() {
            eprintln!(
                "note: {} is an unfinished run ({} jobs missing): plotting the rows it has",
                run.source,
                m.jobs_missing.map_or("some".into(), |n| n.to_string())
            );
        }
    }

    let mut pictures: Vec<(String, Result<String, String>)> = Vec::new();
    pictures.push(("cactus.svg".into(), cactus(&run, &variants, Measure::Time)));
    pictures.push((
        "cactus-nodes.svg".into(),
        cactus(&run, &variants, Measure::Nodes),
    ));
    if pairs.is_empty() {
        eprintln!("note: no scatter plot: the run has one variant");
    }
    let mut names = HashSet::new();
    for (a, b) in &pairs {
        let name = format!("scatter-{}-vs-{}.svg", safe_name(a), safe_name(b));
        if !names.insert(name.clone()) {
            eprintln!("note: skipped {a} vs {b}: its file name {name} is taken by another pair");
            continue;
        }
        pictures.push((name, scatter(&run, a, b)));
    }

    for (name, picture) in pictures {
        match picture {
            Ok(svg) => {
                let path = dir.join(&name);
                atomic::write_with(&path, |file| file.write_all(svg.as_bytes())).map_err(|e| {
                    match e {
                        Failure::Fill(e) | Failure::Io(e) => Error::io(&path, e),
                    }
                })?;
                writeln!(out, "{}", path.display()).map_err(|e| Error::io("stdout", e))?;
            }
            Err(why) => eprintln!("note: skipped {name}: {why}"),
        }
    }
    out.flush().map_err(|e| Error::io("stdout", e))?;
    Ok(Done::Ok)
}

/// A file name made of a variant name: every character other than an ASCII letter, a digit,
/// `.`, `-` or `_` becomes `_` (so `manhattan/step2/prune` becomes `manhattan_step2_prune`).
pub fn safe_name(variant: &str) -> String {
    variant
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The run's variants: in the manifest's order when it has one (the order of `--heuristic`,
/// `--step`, `--reverse-pruning`), then any others in the order runs.csv first names them.
fn variants(run: &SavedRun) -> Vec<String> {
    let present: HashSet<&str> = run.records.iter().map(|r| r.variant.as_str()).collect();
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let listed = run.manifest.iter().flat_map(|m| m.variants.iter());
    for v in listed.chain(run.records.iter().map(|r| &r.variant)) {
        if present.contains(v.as_str()) && seen.insert(v.clone()) {
            out.push(v.clone());
        }
    }
    out
}

/// The scatter plots to draw: `asked`, checked against the run's variants, or the first variant
/// against each other one.
fn pairs(variants: &[String], asked: &[(String, String)]) -> Result<Vec<(String, String)>, Error> {
    if asked.is_empty() {
        return Ok(variants
            .iter()
            .skip(1)
            .map(|b| (variants[0].clone(), b.clone()))
            .collect());
    }
    for (a, b) in asked {
        for v in [a, b] {
            if !variants.contains(v) {
                return Err(Error::usage(format!(
                    "--pair {a},{b}: the run has no variant `{v}`; it has {}",
                    variants.join(", ")
                )));
            }
        }
        if a == b {
            return Err(Error::usage(format!(
                "--pair {a},{b}: expected two different variants"
            )));
        }
    }
    Ok(asked.to_vec())
}

/// What a cactus plot counts along its x axis.
#[derive(Clone, Copy, PartialEq)]
enum Measure {
    Time,
    Nodes,
}

impl Measure {
    fn of(self, r: &Record) -> f64 {
        match self {
            Measure::Time => r.time_cpu_s.max(TIME_FLOOR_S),
            Measure::Nodes => (r.nodes_generated as f64).max(1.0),
        }
    }

    fn label(self, value: f64) -> String {
        match self {
            Measure::Time => si(value, "s"),
            Measure::Nodes => si(value, ""),
        }
    }
}

/// How one variant is drawn: its colour, and a marker that tells apart variants sharing a colour.
#[derive(Clone, Copy)]
struct Look {
    colour: RGBColor,
    shape: Shape,
    filled: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
}

/// Variant `i`'s look: 8 colours with filled markers of 4 shapes, then the same colours with
/// hollow circles and squares; from the 17th variant on the rounds repeat with the shapes moved
/// on by one, so no two of the first 32 looks are alike. Hollow markers are only circles and
/// squares: plotters draws a hollow triangle as a polyline, which the SVG would not tell from a
/// series' line, and fills every polygon.
fn look(i: usize) -> Look {
    const FILLED: [Shape; 4] = [
        Shape::Circle,
        Shape::Triangle,
        Shape::Square,
        Shape::Diamond,
    ];
    const HOLLOW: [Shape; 2] = [Shape::Circle, Shape::Square];
    let round = i / PALETTE.len();
    let filled = round.is_multiple_of(2);
    let shape = i + round / 2;
    Look {
        colour: PALETTE[i % PALETTE.len()],
        shape: if filled {
            FILLED[shape % FILLED.len()]
        } else {
            HOLLOW[shape % HOLLOW.len()]
        },
        filled,
    }
}

/// Draws `look`'s marker at each point of `points`.
fn markers<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<DB, CT>,
    points: &[(f64, f64)],
    look: Look,
) -> Result<(), String> {
    let style = if look.filled {
        look.colour.filled()
    } else {
        look.colour.stroke_width(2)
    };
    let done = match look.shape {
        Shape::Circle => chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, style))),
        Shape::Triangle => {
            chart.draw_series(points.iter().map(|&p| TriangleMarker::new(p, 5, style)))
        }
        Shape::Square => chart.draw_series(
            points
                .iter()
                .map(|&p| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], style)),
        ),
        Shape::Diamond => chart.draw_series(points.iter().map(|&p| {
            EmptyElement::at(p) + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], style)
        })),
        Shape::Cross => chart.draw_series(
            points
                .iter()
                .map(|&p| Cross::new(p, 5, look.colour.stroke_width(2))),
        ),
    };
    done.map(|_| ()).map_err(drawing)
}

fn drawing<E: std::fmt::Display>(e: E) -> String {
    format!("drawing failed: {e}")
}

/// One legend entry: a line sample in `colour` (or none), a marker (or none), and its text.
struct Entry {
    colour: RGBColor,
    line: bool,
    marker: Option<Look>,
    text: String,
}

/// The legend under the chart: two columns when every text fits in half the width, else one.
fn legend_height(entries: &[Entry]) -> u32 {
    let rows = entries.len().div_ceil(columns(entries));
    (rows as u32) * LEGEND_ROW as u32 + 16
}

fn columns(entries: &[Entry]) -> usize {
    // About 8 px a character at the legend's 15 px font.
    if entries.iter().all(|e| e.text.chars().count() <= 40) {
        2
    } else {
        1
    }
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
) -> Result<(), String> {
    let columns = columns(entries);
    let column_width = (WIDTH as i32 - 40) / columns as i32;
    let text_style =
        TextStyle::from((FONT, 19).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, entry) in entries.iter().enumerate() {
        let x = 30 + (i % columns) as i32 * column_width;
        let y = 10 + (i / columns) as i32 * LEGEND_ROW + LEGEND_ROW / 2;
        if entry.line {
            area.draw(&PathElement::new(
                vec![(x, y), (x + 36, y)],
                entry.colour.stroke_width(2),
            ))
            .map_err(drawing)?;
        }
        if let Some(look) = entry.marker {
            legend_marker(area, (x + 18, y), look)?;
        }
        area.draw(&Text::new(
            entry.text.clone(),
            (x + 46, y),
            text_style.clone(),
        ))
        .map_err(drawing)?;
    }
    Ok(())
}

/// `look`'s marker at a pixel of the legend, as `markers` draws it in the chart.
fn legend_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    look: Look,
) -> Result<(), String> {
    let style = if look.filled {
        look.colour.filled()
    } else {
        look.colour.stroke_width(2)
    };
    match look.shape {
        Shape::Circle => area.draw(&Circle::new(at, 4, style)),
        Shape::Triangle => area.draw(&TriangleMarker::new(at, 5, style)),
        Shape::Square => area.draw(&Rectangle::new(
            [(at.0 - 4, at.1 - 4), (at.0 + 4, at.1 + 4)],
            style,
        )),
        Shape::Diamond => area.draw(&Polygon::new(
            vec![
                (at.0, at.1 - 5),
                (at.0 + 5, at.1),
                (at.0, at.1 + 5),
                (at.0 - 5, at.1),
            ],
            style,
        )),
        Shape::Cross => area.draw(&Cross::new(at, 5, look.colour.stroke_width(2))),
    }
    .map_err(drawing)
}

/// A log axis from the decade at or below `lo` to the decade at or above `hi`, at least one
/// decade wide: its ends are tick marks, so the labels show that it covers the data.
fn decades(lo: f64, hi: f64) -> (f64, f64) {
    let lo = 10f64.powf(lo.log10().floor());
    let mut hi = 10f64.powf(hi.log10().ceil());
    if hi <= lo {
        hi = lo * 10.0;
    }
    (lo, hi)
}

/// The axis range for the decades `lo..hi`, widened by a hair: plotters puts a tick at each
/// power of ten inside the range, found by floating-point logarithms that may land just beside
/// an end and so drop its label.
fn log_range(lo: f64, hi: f64) -> std::ops::Range<f64> {
    lo * (1.0 - 1e-9)..hi * (1.0 + 1e-9)
}

/// `value` with an SI prefix and up to 3 significant digits: `1 ms`, `20 k`, `1.5 M`.
pub fn si(value: f64, unit: &str) -> String {
    const PREFIXES: [(f64, &str); 9] = [
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "k"),
        (1.0, ""),
        (1e-3, "m"),
        (1e-6, "µ"),
        (1e-9, "n"),
        (1e-12, "p"),
    ];
    if value == 0.0 {
        return format!("0 {unit}").trim_end().to_string();
    }
    let (scale, prefix) = PREFIXES
        .iter()
        .copied()
        .find(|&(scale, _)| value.abs() >= scale * 0.9995)
        .unwrap_or(PREFIXES[PREFIXES.len() - 1]);
    let scaled = value / scale;
    let digits = format!("{:.3}", scaled);
    let digits = if digits.contains('.') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        &digits
    };
    let text = format!("{digits} {prefix}{unit}");
    text.trim_end().to_string()
}

fn instances_text(n: usize) -> String {
    if n == 1 {
        "1 instance".into()
    } else {
        format!("{n} instances")
    }
}

/// A cactus plot: for each variant, the number of instances it solved within each amount of
/// the measure. "Solved" is a job that found a checked solution (`solved` or `suboptimal`).
fn cactus(run: &SavedRun, variants: &[String], measure: Measure) -> Result<String, String> {
    let instances: HashSet<(&str, &str)> = run
        .records
        .iter()
        .map(|r| (r.dataset.as_str(), r.instance.as_str()))
        .collect();
    let mut solved: HashMap<&str, Vec<f64>> = HashMap::new();
    for r in &run.records {
        if r.status.has_solution() {
            solved
                .entry(r.variant.as_str())
                .or_default()
                .push(measure.of(r));
        }
    }
    let all: Vec<f64> = solved.values().flatten().copied().collect();
    if all.is_empty() {
        return Err("no job of the run found a solution".into());
    }
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(0.0, f64::max);
    let (x_lo, x_hi) = decades(lo, hi);
    let n = instances.len();

    let entries: Vec<Entry> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| Entry {
            colour: look(i).colour,
            line: true,
            marker: Some(look(i)),
            text: format!("{v} ({})", solved.get(v.as_str()).map_or(0, Vec::len)),
        })
        .collect();
    let (title, x_desc) = match measure {
        Measure::Time => (
            format!("Instances solved within a CPU time ({})", instances_text(n)),
            "CPU time per job (seconds, log scale)",
        ),
        Measure::Nodes => (
            format!(
                "Instances solved within a number of nodes ({})",
                instances_text(n)
            ),
            "nodes generated per job (log scale)",
        ),
    };
    let height = CHART_HEIGHT + legend_height(&entries);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(CHART_HEIGHT);
        let mut chart = ChartBuilder::on(&top)
            .caption(title, (FONT, 26))
            .margin(16)
            // Room for the last tick label, centred on the right end of the x axis.
            .margin_right(36)
            .x_label_area_size(50)
            .y_label_area_size(60)
            // Headroom above the top count, so that a marker there is not cut in half.
            .build_cartesian_2d(
                log_range(x_lo, x_hi).log_scale(),
                0.0..(n as f64 * 1.04 + 0.1),
            )
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("instances solved (count)")
            .x_label_formatter(&|v| measure.label(*v))
            // Counts are whole: a tick between them (plotters may choose one) is left blank.
            .y_label_formatter(&|v| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .y_labels(n.min(10) + 1)
            .axis_desc_style((FONT, 20))
            .label_style((FONT, 18))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.12))
            .draw()
            .map_err(drawing)?;
        for (i, v) in variants.iter().enumerate() {
            let Some(values) = solved.get_mut(v.as_str()) else {
                continue;
            };
            values.sort_by(f64::total_cmp);
            let points: Vec<(f64, f64)> = values
                .iter()
                .enumerate()
                .map(|(k, &x)| (x, (k + 1) as f64))
                .collect();
            let look = look(i);
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    look.colour.stroke_width(2),
                ))
                .map_err(drawing)?;
            markers(&mut chart, &points, look)?;
        }
        draw_legend(&bottom, &entries)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// A scatter plot of nodes generated per instance, variant `a` on x against `b` on y, both
/// log scale over the same range. Instances a variant did not solve are drawn at a border beyond
/// every solved value (x for `a`, y for `b`), with a cross.
fn scatter(run: &SavedRun, a: &str, b: &str) -> Result<String, String> {
    let mut by_instance: HashMap<(&str, &str), [Option<&Record>; 2]> = HashMap::new();
    let mut order = Vec::new();
    for r in &run.records {
        let side = if r.variant == a {
            0
        } else if r.variant == b {
            1
        } else {
            continue;
        };
        let key = (r.dataset.as_str(), r.instance.as_str());
        let slot = by_instance.entry(key).or_insert_with(|| {
            order.push(key);
            [None, None]
        });
        slot[side] = Some(r);
    }
    // Instances both variants ran, in runs.csv's order.
    let joined: Vec<[&Record; 2]> = order
        .iter()
        .filter_map(|k| match by_instance[k] {
            [Some(x), Some(y)] => Some([x, y]),
            _ => None,
        })
        .collect();
    if joined.is_empty() {
        return Err(format!("{a} and {b} ran no instance in common"));
    }
    let solved_values: Vec<f64> = joined
        .iter()
        .flatten()
        .filter(|r| r.status.has_solution())
        .map(|r| Measure::Nodes.of(r))
        .collect();
    if solved_values.is_empty() {
        return Err(format!("neither {a} nor {b} solved an instance"));
    }
    let lo = solved_values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = solved_values.iter().copied().fold(0.0, f64::max);
    let (axis_lo, solved_hi) = decades(lo, hi);
    // Unsolved instances sit at twice the top decade: clear of every solved point, inside the
    // axis, which ends at the next decade.
    let border = solved_hi * 2.0;
    let axis_hi = solved_hi * 10.0;

    let mut both = Vec::new();
    let mut a_failed = Vec::new();
    let mut b_failed = Vec::new();
    let mut none = Vec::new();
    let (mut above, mut below, mut on) = (0, 0, 0);
    for [x, y] in &joined {
        let px = if x.status.has_solution() {
            Measure::Nodes.of(x)
        } else {
            border
        };
        let py = if y.status.has_solution() {
            Measure::Nodes.of(y)
        } else {
            border
        };
        // An instance neither solved says nothing about which variant is better: it is counted
        // apart. One solved by a single variant counts for that variant (it lies beyond every
        // value the other solved).
        if x.status.has_solution() || y.status.has_solution() {
            match py.total_cmp(&px) {
                std::cmp::Ordering::Greater => above += 1,
                std::cmp::Ordering::Less => below += 1,
                std::cmp::Ordering::Equal => on += 1,
            }
        }
        match (x.status.has_solution(), y.status.has_solution()) {
            (true, true) => both.push((px, py)),
            (false, true) => a_failed.push((px, py)),
            (true, false) => b_failed.push((px, py)),
            (false, false) => none.push((px, py)),
        }
    }

    let kinds = [
        (
            &both,
            Look {
                colour: PALETTE[0],
                shape: Shape::Circle,
                filled: true,
            },
            "solved by both".to_string(),
        ),
        (
            &a_failed,
            Look {
                colour: PALETTE[3],
                shape: Shape::Cross,
                filled: false,
            },
            format!("unsolved by {a}: right border"),
        ),
        (
            &b_failed,
            Look {
                colour: PALETTE[1],
                shape: Shape::Cross,
                filled: false,
            },
            format!("unsolved by {b}: top border"),
        ),
        (
            &none,
            Look {
                colour: PALETTE[6],
                shape: Shape::Cross,
                filled: false,
            },
            "unsolved by both: top right corner".to_string(),
        ),
    ];
    let mut entries: Vec<Entry> = kinds
        .iter()
        .map(|(points, look, text)| Entry {
            colour: look.colour,
            line: false,
            marker: Some(*look),
            text: format!("{text} ({})", points.len()),
        })
        .collect();
    entries.push(Entry {
        colour: GREY,
        line: true,
        marker: None,
        text: format!("diagonal: equal nodes; above it {b} generated more"),
    });

    // Instances neither variant solved are counted in the legend only: the title stays short
    // enough for 800 px.
    let title =
        format!("Nodes per instance: {above} above the diagonal, {below} below, {on} on it");
    let height = CHART_HEIGHT + legend_height(&entries);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(CHART_HEIGHT);
        let mut chart = ChartBuilder::on(&top)
            .caption(title, (FONT, 24))
            .margin(16)
            // Room for the last tick label, centred on the right end of the x axis.
            .margin_right(36)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(
                log_range(axis_lo, axis_hi).log_scale(),
                log_range(axis_lo, axis_hi).log_scale(),
            )
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc(format!("nodes generated by {a} (log scale)"))
            // Rotated, the y description has only the chart's height: kept short so that
            // the longest variant names fit.
            .y_desc(format!("nodes by {b} (log)"))
            .x_label_formatter(&|v| si(*v, ""))
            .y_label_formatter(&|v| si(*v, ""))
            .axis_desc_style((FONT, 20))
            .label_style((FONT, 18))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.12))
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series(LineSeries::new(
                [(axis_lo, axis_lo), (axis_hi, axis_hi)],
                GREY.stroke_width(1),
            ))
            .map_err(drawing)?;
        // The border where unsolved instances sit, drawn only when some do, so that a cross
        // there reads as "not solved" rather than as a count.
        if solved_values.len() < 2 * joined.len() {
            let faint = GREY.mix(0.5).stroke_width(1);
            chart
                .draw_series([
                    PathElement::new(vec![(border, axis_lo), (border, axis_hi)], faint),
                    PathElement::new(vec![(axis_lo, border), (axis_hi, border)], faint),
                ])
                .map_err(drawing)?;
            chart
                .draw_series([Text::new(
                    "unsolved",
                    (border, axis_lo),
                    TextStyle::from((FONT, 16).into_font())
                        .color(&GREY)
                        .transform(FontTransform::Rotate270)
                        .pos(Pos::new(HPos::Left, VPos::Bottom)),
                )])
                .map_err(drawing)?;
        }
        for (points, look, _) in &kinds {
            if !points.is_empty() {
                markers(&mut chart, points, *look)?;
            }
        }
        draw_legend(&bottom, &entries)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_replace_slashes() {
        assert_eq!(safe_name("manhattan/step2/prune"), "manhattan_step2_prune");
        assert_eq!(safe_name("a b/../c"), "a_b_.._c");
    }

    #[test]
    fn si_labels() {
        assert_eq!(si(1e-6, "s"), "1 µs");
        assert_eq!(si(0.002, "s"), "2 ms");
        assert_eq!(si(1.0, "s"), "1 s");
        assert_eq!(si(20000.0, ""), "20 k");
        assert_eq!(si(1.5e6, ""), "1.5 M");
        assert_eq!(si(100.0, ""), "100");
    }

    #[test]
    fn decades_cover_their_values() {
        assert_eq!(decades(3.0, 3.0), (1.0, 10.0));
        assert_eq!(decades(10.0, 10.0), (10.0, 100.0));
        let (lo, hi) = decades(2e-5, 0.3);
        assert!((lo - 1e-5).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12);
    }

    #[test]
    fn looks_differ_for_up_to_32_variants() {
        let keys: HashSet<_> = (0..32)
            .map(|i| {
                let l = look(i);
                (l.colour.0, l.colour.1, l.colour.2, l.shape as u8, l.filled)
            })
            .collect();
        assert_eq!(keys.len(), 32);
    }
}
