//! How the pictures look and the pieces they share: the colour-blind-safe palette, the marker of
//! each variant, the legend under a chart, log axes that cover their data, SI labels.

pub use crate::util::format::{si, thousands};
use crate::util::text::visible_lines;
use plotters::chart::MeshStyle;
use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, KeyPointWeight, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::borrow::Cow;

/// Okabe and Ito's palette, safe for the common colour-vision deficiencies, without its yellow,
/// which is barely seen on white. Beyond 7 variants the colours repeat with hollow markers.
pub(super) const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];
pub(super) const GREY: RGBColor = RGBColor(0x80, 0x80, 0x80);

/// A picture is this wide unless `--plot-size` says otherwise: readable on a laptop screen and
/// in a pull request.
const WIDTH: u32 = 800;
/// The height of the chart itself; the legend below it grows with the number of entries.
pub(super) const CHART_HEIGHT: u32 = 540;
/// The least height of a chart when `--plot-size` fixes the picture's: below it the axes and
/// their labels leave no room for the data.
const LEAST_CHART: u32 = 200;
const LEGEND_ROW: i32 = 24;
pub(super) const FONT: &str = "sans-serif";
// Font sizes below are in plotters' units: its SVG backend writes them divided by 1.24, so 19
// becomes a 15 px legend, 18 a 14.5 px tick label, 26 a 21 px title.

/// Times under a microsecond (a thread's CPU clock can read 0 for the smallest jobs) are drawn
/// at a microsecond: a log axis has no place for 0.
pub(super) const TIME_FLOOR_S: f64 = 1e-6;

/// How one variant is drawn: its colour, and a marker that tells apart variants sharing a colour.
#[derive(Clone, Copy)]
pub(super) struct Look {
    pub colour: RGBColor,
    pub shape: Shape,
    pub filled: bool,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Shape {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
    Plus,
    /// A hollow circle larger than the other markers, drawn around one.
    Ring,
}

/// Variant `i`'s look: 7 colours with filled markers of 4 shapes, then the same colours with
/// hollow circles and squares; from the 15th variant on the rounds repeat with the shapes moved
/// on by one, so no two of the first 32 looks are alike. Hollow markers are only circles and
/// squares: plotters draws a hollow triangle as a polyline, which the SVG would not tell from a
/// series' line, and fills every polygon.
pub(super) fn look(i: usize) -> Look {
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
pub(super) fn markers<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<DB, CT>,
    points: &[(f64, f64)],
    look: Look,
) -> Result<(), String> {
    grown_markers(chart, points, look, 0)
}

/// How many pixels the markers of series `i` of `n` grow: the first series' 5, the last's
/// none, each one less than the one before for up to 6 series. Drawn in order, series that coincide (variants that search alike) then show as
/// markers inside one another rather than the last hiding the others.
pub(super) fn growth(i: usize, n: usize) -> i32 {
    ((n.saturating_sub(1 + i)) * 5 / n.saturating_sub(1).max(1)) as i32
}

/// Draws `look`'s marker at each point of `points`, `grow` pixels larger than the legend's.
pub(super) fn grown_markers<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<DB, CT>,
    points: &[(f64, f64)],
    look: Look,
    grow: i32,
) -> Result<(), String> {
    let (r, d) = (4 + grow, 5 + grow);
    let style = if look.filled {
        look.colour.filled()
    } else {
        look.colour.stroke_width(2)
    };
    let done = match look.shape {
        Shape::Circle => chart.draw_series(points.iter().map(|&p| Circle::new(p, r, style))),
        Shape::Triangle => {
            chart.draw_series(points.iter().map(|&p| TriangleMarker::new(p, d, style)))
        }
        Shape::Square => chart.draw_series(
            points
                .iter()
                .map(|&p| EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], style)),
        ),
        Shape::Diamond => chart.draw_series(points.iter().map(|&p| {
            EmptyElement::at(p) + Polygon::new(vec![(0, -d), (d, 0), (0, d), (-d, 0)], style)
        })),
        Shape::Cross => chart.draw_series(
            points
                .iter()
                .map(|&p| Cross::new(p, 5, look.colour.stroke_width(2))),
        ),
        Shape::Ring => chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 9 + grow, look.colour.stroke_width(1))),
        ),
        Shape::Plus => chart.draw_series(points.iter().map(|&p| {
            EmptyElement::at(p)
                + PathElement::new(vec![(-6, 0), (6, 0)], look.colour.stroke_width(2))
                + PathElement::new(vec![(0, -6), (0, 6)], look.colour.stroke_width(2))
        })),
    };
    done.map(|_| ()).map_err(drawing)
}

/// The house chart on `area`: `title` above it, the margins and the label areas; `right` is the
/// right margin (room for what the chart puts there), `y_labels` the y label area's width.
pub(super) fn house_chart<'a, 'b>(
    area: &'a Area<'b>,
    title: &str,
    right: u32,
    y_labels: u32,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut chart = ChartBuilder::on(area);
    chart
        .caption(title, (FONT, 24))
        .margin(16)
        .margin_right(right)
        .x_label_area_size(50)
        .y_label_area_size(y_labels);
    chart
}

/// A picture's drawing area on the SVG it is drawn into.
type Area<'b> = DrawingArea<SVGBackend<'b>, Shift>;

/// The size of the pictures: `--plot-size WxH` in pixels, the whole SVG; by default 800 wide,
/// its chart 540 high and the legend below that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlotSize(Option<(u32, u32)>);

impl PlotSize {
    /// The least and most width and height `--plot-size` takes.
    const LEAST: (u32, u32) = (400, 300);
    const MOST: u32 = 20_000;

    /// `WxH`, e.g. `1200x800`.
    pub fn parse(text: &str) -> Result<PlotSize, String> {
        let number = |s: &str| s.trim().parse::<u32>().ok();
        let size = text
            .split_once(['x', 'X'])
            .and_then(|(w, h)| Some((number(w)?, number(h)?)));
        match size {
            Some((w, h))
                if (Self::LEAST.0..=Self::MOST).contains(&w)
                    && (Self::LEAST.1..=Self::MOST).contains(&h) =>
            {
                Ok(PlotSize(Some((w, h))))
            }
            Some(_) => Err(format!(
                "a width from {} and a height from {} to {} pixels",
                Self::LEAST.0,
                Self::LEAST.1,
                Self::MOST
            )),
            None => Err("WIDTHxHEIGHT in pixels, e.g. 1200x800".into()),
        }
    }

    /// The frame of a picture of one chart with `entries` in its legend.
    pub(super) fn frame(self, entries: &[Entry]) -> Result<Frame, String> {
        self.frame_of(entries, CHART_HEIGHT, LEAST_CHART)
    }

    /// The frame of a picture whose charts are `chart` pixels high by default, and at least
    /// `least` when the size is given: the legend below them takes what its entries need, and
    /// a given height that leaves the charts less is refused, saying so.
    pub(super) fn frame_of(
        self,
        entries: &[Entry],
        chart: u32,
        least: u32,
    ) -> Result<Frame, String> {
        let width = self.0.map_or(WIDTH, |(w, _)| w);
        let laid = layout(entries, width);
        let legend = legend_rows(&laid) as u32 * LEGEND_ROW as u32 + 16;
        let (height, chart_height) = match self.0 {
            None => (chart + legend, chart),
            Some((w, h)) => {
                if h < legend + least {
                    return Err(format!(
                        "--plot-size {w}x{h}: its legend takes {legend} of the {h} pixels, \
                         leaving less than the {least} its chart needs: give a larger height"
                    ));
                }
                (h, h - legend)
            }
        };
        let titles = laid
            .into_iter()
            .filter(|p| p.shortened)
            .flat_map(|p| {
                let full = &entries[p.entry].text;
                p.lines.into_iter().map(move |l| (l, full.clone()))
            })
            .collect();
        Ok(Frame {
            width,
            height,
            chart_height,
            titles,
        })
    }
}

/// As `--plot-size` takes it: `WxH` (`default` for the house size, which it cannot name).
impl std::fmt::Display for PlotSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some((w, h)) => write!(f, "{w}x{h}"),
            None => f.write_str("default"),
        }
    }
}

/// A picture's size and what its chart has of it.
#[derive(Debug)]
pub(super) struct Frame {
    pub width: u32,
    pub height: u32,
    /// The charts' height; the legend is below it.
    pub chart_height: u32,
    /// Labels shortened to fit, each with its full text, which the SVG gives as the label's
    /// `<title>` (a viewer shows it on hovering the label).
    pub titles: Vec<(String, String)>,
}

impl Frame {
    /// The pixels a log axis along x has at least, for choosing its ticks before the chart is
    /// laid out: the width less the label areas and margins (620 of the default 800).
    pub(super) fn x_pixels(&self) -> f64 {
        f64::from(self.width.saturating_sub(180).max(100))
    }

    /// The same along y: 400 of the default chart's 540.
    pub(super) fn y_pixels(&self) -> f64 {
        f64::from(self.chart_height.saturating_sub(140).max(60))
    }
}

/// A picture of `frame`'s size, as SVG on a white ground: `draw` gets the whole area, the
/// chart's (the top `frame.chart_height` pixels) and the legend's below it. Its texts (ids,
/// variant names) are made `visible_lines` as a whole: plotters escapes XML's markup but passes
/// control characters, which make the SVG no XML, and bidirectional ones, which turn its labels
/// around.
pub(super) fn picture(
    frame: &Frame,
    draw: impl FnOnce(&Area<'_>, Area<'_>, Area<'_>) -> Result<(), String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (frame.width, frame.height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(frame.chart_height);
        draw(&root, top, bottom)?;
        root.present().map_err(drawing)?;
    }
    let svg = with_titles(svg, &frame.titles);
    Ok(match visible_lines(&svg) {
        Cow::Borrowed(_) => svg,
        Cow::Owned(shown) => shown,
    })
}

/// `svg` with the text elements that show the first of each pair of `titles` (in the order they
/// were drawn) grouped with a `<title>` holding the second: plotters writes text elements
/// without one.
fn with_titles(mut svg: String, titles: &[(String, String)]) -> String {
    let mut from = 0;
    for (shown, full) in titles {
        // How plotters writes a text element's content.
        let content = format!(">\n{}\n</text>\n", xml(shown));
        let Some(end) = svg[from..]
            .find(&content)
            .map(|at| from + at + content.len())
        else {
            continue;
        };
        let Some(start) = svg[..end].rfind("<text") else {
            continue;
        };
        let titled = format!("<g><title>{}</title>{}</g>\n", xml(full), &svg[start..end]);
        svg.replace_range(start..end, &titled);
        from = start + titled.len();
    }
    svg
}

/// `text` escaped for XML as plotters escapes it.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

pub(super) fn drawing<E: std::fmt::Display>(e: E) -> String {
    format!("drawing failed: {e}")
}

/// One legend entry: a line sample in `colour` (or none), a marker (or none), and its text.
#[derive(Clone)]
pub(super) struct Entry {
    pub colour: RGBColor,
    pub line: bool,
    pub marker: Option<Look>,
    pub text: String,
}

/// The mesh every chart shares: the fonts of its descriptions and labels, and a faint grid
/// at the labelled ticks only.
pub(super) fn house_mesh<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.axis_desc_style((FONT, 20))
        .label_style((FONT, 18))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
}

/// How many characters of the legend's text fit in `pixels` across: about 8.35 px a character
/// at its 15 px font, after the sample's 46. Half of the default width holds 40, the whole 85.
fn legend_chars(pixels: i32) -> usize {
    (pixels - 46).max(100) as usize * 40 / 334
}

/// Most characters of an entry alone on the default width's row: longer ones are wrapped.
pub(super) const FULL_ROW: usize = 84;

/// The most lines an entry is wrapped into: a longer one keeps the start of its text and its
/// end around an ellipsis, its full text in the SVG's `<title>`.
const ENTRY_LINES: usize = 3;

/// `text` in at most `most` characters: whole, or its start and end around an ellipsis, `tail`
/// characters of the end kept.
fn middle(text: &str, most: usize, tail: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= most {
        return text.to_owned();
    }
    let tail = tail.min(most - 1);
    let head = most - 1 - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// `text` in lines of at most `most` characters, broken after a separator of a variant name or
/// an id (`/`, `-`, `_`, `+`, `,`, `:`, a space) in the line's second half, else at `most`; at most
/// `lines` of them: beyond, the last line shown is an ellipsis and the end of the text. Whether
/// it was so shortened comes second.
pub(super) fn wrap(text: &str, most: usize, lines: usize) -> (Vec<String>, bool) {
    let most = most.max(8);
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while chars.len() - start > most {
        let end = (start + most / 2..=start + most)
            .rev()
            .find(|&e| matches!(chars[e - 1], '/' | '-' | '_' | '+' | ',' | ':' | ' '))
            .unwrap_or(start + most);
        out.push(
            chars[start..end]
                .iter()
                .collect::<String>()
                .trim_end()
                .to_owned(),
        );
        start = end;
        while chars.get(start) == Some(&' ') {
            start += 1;
        }
    }
    out.push(chars[start..].iter().collect());
    if out.len() <= lines {
        return (out, false);
    }
    out.truncate(lines.max(1) - 1);
    let tail: String = chars[chars.len() - (most - 1)..].iter().collect();
    out.push(format!("…{tail}"));
    (out, true)
}

/// `ids` each in at most `most` characters, shortened in the middle: the end of an id (a seed,
/// a number) is what tells apart ids with a common start, so two thirds of the room keep the
/// end, or as much of it as keeps distinct ids apart.
pub(super) fn distinct_short(ids: &[&str], most: usize) -> Vec<String> {
    let most = most.max(2);
    let distinct = |names: &[String]| {
        let mut pairs: Vec<(&str, &String)> = ids.iter().copied().zip(names).collect();
        pairs.sort();
        pairs.dedup();
        pairs
            .windows(2)
            .all(|w| w[0].0 == w[1].0 || w[0].1 != w[1].1)
    };
    let first = most * 2 / 3;
    let tails = std::iter::once(first).chain((0..most).rev().filter(|&t| t != first));
    let mut fallback = None;
    for tail in tails {
        let names: Vec<String> = ids.iter().map(|id| middle(id, most, tail)).collect();
        if distinct(&names) {
            return names;
        }
        fallback.get_or_insert(names);
    }
    fallback.unwrap_or_default()
}

/// One legend entry as laid out: its row and column, and its text in lines.
struct Placed {
    entry: usize,
    row: usize,
    column: usize,
    lines: Vec<String>,
    shortened: bool,
}

/// Each entry's place and lines on a legend `width` pixels wide, in order: entries that fit in
/// half the width go two to a row, a longer one takes rows of its own, wrapped (see `wrap`).
fn layout(entries: &[Entry], width: u32) -> Vec<Placed> {
    let half = legend_chars(column_width(width));
    let full = legend_chars(width as i32 - 40);
    let mut out = Vec::with_capacity(entries.len());
    let (mut row, mut column) = (0, 0);
    for (entry, e) in entries.iter().enumerate() {
        if e.text.chars().count() <= half {
            out.push(Placed {
                entry,
                row,
                column,
                lines: vec![e.text.clone()],
                shortened: false,
            });
            column += 1;
            if column == 2 {
                row += 1;
                column = 0;
            }
        } else {
            if column > 0 {
                row += 1;
            }
            let (lines, shortened) = wrap(&e.text, full, ENTRY_LINES);
            let rows = lines.len();
            out.push(Placed {
                entry,
                row,
                column: 0,
                lines,
                shortened,
            });
            row += rows;
            column = 0;
        }
    }
    out
}

/// The rows a legend laid out as `laid` takes.
fn legend_rows(laid: &[Placed]) -> usize {
    laid.last().map_or(0, |p| p.row + p.lines.len())
}

/// The width of one of the legend's two columns.
fn column_width(width: u32) -> i32 {
    (width as i32 - 40) / 2
}

/// Draws the legend on `area`, laid out for its width as the picture's frame was.
pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
) -> Result<(), String> {
    let width = area.dim_in_pixel().0;
    let text_style =
        TextStyle::from((FONT, 19).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for placed in layout(entries, width) {
        let entry = &entries[placed.entry];
        let x = 30 + placed.column as i32 * column_width(width);
        let y = 10 + placed.row as i32 * LEGEND_ROW + LEGEND_ROW / 2;
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
        for (k, line) in placed.lines.into_iter().enumerate() {
            area.draw(&Text::new(
                line,
                (x + 46, y + k as i32 * LEGEND_ROW),
                text_style.clone(),
            ))
            .map_err(drawing)?;
        }
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
        Shape::Ring => area.draw(&Circle::new(at, 9, look.colour.stroke_width(1))),
        Shape::Plus => area
            .draw(&PathElement::new(
                vec![(at.0 - 6, at.1), (at.0 + 6, at.1)],
                look.colour.stroke_width(2),
            ))
            .and_then(|_| {
                area.draw(&PathElement::new(
                    vec![(at.0, at.1 - 6), (at.0, at.1 + 6)],
                    look.colour.stroke_width(2),
                ))
            }),
    }
    .map_err(drawing)
}

/// Markers along one line at most: more would run together into a thick band.
const LINE_MARKERS: usize = 50;
/// Markers of one kind of point drawn one per point at most; beyond, overlapping markers are
/// merged (one per `CELL`-pixel square), so that a run of 181,440 jobs draws a picture of a few
/// hundred kilobytes that looks the same.
pub(super) const SCATTER_MARKERS: usize = 2000;
const CELL: i32 = 4;

/// The points of a line that change its drawing on `chart`: a point in the same pixel as the
/// last one kept is left out, the line's last point kept. A cactus line rises by one instance at
/// each point, so it keeps at most a point per pixel of the chart's width and height.
pub(super) fn visible<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &ChartContext<DB, CT>,
    line: &[(f64, f64)],
) -> Vec<(f64, f64)> {
    let mut kept: Vec<(f64, f64)> = Vec::new();
    let mut last_pixel = None;
    for (i, p) in line.iter().enumerate() {
        let pixel = chart.as_coord_spec().translate(p);
        if last_pixel != Some(pixel) || i + 1 == line.len() {
            if last_pixel == Some(pixel) {
                kept.pop();
            }
            kept.push(*p);
            last_pixel = Some(pixel);
        }
    }
    kept
}

/// Where a line's markers go: on each point, or on `LINE_MARKERS` points spread evenly along it,
/// its first and last among them.
pub(super) fn spread(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    if points.len() <= LINE_MARKERS {
        return points.to_vec();
    }
    let last = points.len() - 1;
    (0..LINE_MARKERS)
        .map(|i| points[(i * last + (LINE_MARKERS - 1) / 2) / (LINE_MARKERS - 1)])
        .collect()
}

/// The markers to draw for `points` on `chart`: all of them up to `SCATTER_MARKERS`, else the
/// first of the points in each `CELL` x `CELL` pixel square.
pub(super) fn uncrowded<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &ChartContext<DB, CT>,
    points: &[(f64, f64)],
) -> Vec<(f64, f64)> {
    if points.len() <= SCATTER_MARKERS {
        return points.to_vec();
    }
    let mut taken = std::collections::HashSet::new();
    points
        .iter()
        .copied()
        .filter(|p| {
            let (x, y) = chart.as_coord_spec().translate(p);
            taken.insert((x.div_euclid(CELL), y.div_euclid(CELL)))
        })
        .collect()
}

/// A log axis from the decade at or below `lo` to the decade at or above `hi`, at least one
/// decade wide: its ends are tick marks, so the labels show that it covers the data. The decades
/// are those of finite numbers (see `decade`), so the axis has finite ends whatever the data.
pub(super) fn decades(lo: f64, hi: f64) -> (f64, f64) {
    let lo = decade(lo, f64::floor).min(DECADES.end() - 1);
    let hi = decade(hi, f64::ceil).max(lo + 1);
    (10f64.powi(lo), 10f64.powi(hi))
}

/// The least and the most decade of an axis: 10^-300 and 10^300 are finite, and so are their
/// products with the mantissas of the ticks and the hair `LogAxis` widens its range by.
const DECADES: std::ops::RangeInclusive<i32> = -300..=300;

/// The decade of `value` (its log rounded by `round`), within `DECADES`: a value beyond them
/// (one that cannot come from a run, or 0 and NaN) sits at an end of the axis instead of making
/// one infinite, and the ticks' loops over the decades stay a few hundred steps long.
fn decade(value: f64, round: fn(f64) -> f64) -> i32 {
    let log = round(value.log10());
    // NaN (of 0 or a negative value) compares false both ways: the least decade.
    if log >= f64::from(*DECADES.end()) {
        *DECADES.end()
    } else if log >= f64::from(*DECADES.start()) {
        log as i32
    } else {
        *DECADES.start()
    }
}

/// The least distance between two tick labels' centres: x labels such as `500 ms` are about
/// 50 px wide at the tick font, y labels one line (about 18 px) high.
pub(super) const X_GAP: f64 = 56.0;
pub(super) const Y_GAP: f64 = 26.0;

/// A log axis over `lo..hi` whose ticks (grid lines and labels) are the densest of 1-2-3-5,
/// 1-2-5, decades, or every 2nd, 3rd... decade (a stride that divides the axis's decades) that
/// keeps labels `gap` pixels apart on an axis of `pixels`: plotters' own log ticks put up to
/// nine labels in a decade, which overlap on an axis spanning one or two, and repeat the decade
/// that ends each.
pub(super) struct LogAxis {
    coord: LogCoord<f64>,
    ticks: Vec<f64>,
}

impl LogAxis {
    pub(super) fn new(lo: f64, hi: f64, pixels: f64, gap: f64) -> LogAxis {
        LogAxis::with_ticks(lo, hi, log_ticks(lo, hi, pixels, gap))
    }

    /// A log axis over `lo..hi` with the ticks given.
    pub(super) fn with_ticks(lo: f64, hi: f64, ticks: Vec<f64>) -> LogAxis {
        // Widened by a hair, so that an end that is a tick stays inside the range.
        LogAxis {
            coord: (lo * (1.0 - 1e-9)..hi * (1.0 + 1e-9)).log_scale().into(),
            ticks,
        }
    }
}

impl Ranged for LogAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.coord.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // The light grid is not drawn: every tick is a bold one.
        match hint.weight() {
            KeyPointWeight::Bold => self.ticks.clone(),
            KeyPointWeight::Any => Vec::new(),
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.coord.range()
    }
}

/// The ticks of a log axis over `lo..hi` (see `LogAxis`): the first of the candidate sets whose
/// neighbours are at least `gap` of `pixels` apart and that has two ticks in the range; when none
/// fits, the two ends.
pub(super) fn log_ticks(lo: f64, hi: f64, pixels: f64, gap: f64) -> Vec<f64> {
    let per_decade = pixels / (hi / lo).log10();
    let first = decade(lo, f64::floor);
    let last = decade(hi, f64::ceil);
    let inside = |v: f64| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9);
    let within_decades = |steps: &[f64], stride: i32| -> Vec<f64> {
        (first..=last)
            .filter(|k| (k - first).rem_euclid(stride) == 0)
            .flat_map(|k| steps.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|&v| inside(v))
            .collect()
    };
    let mantissas: [&[f64]; 3] = [&[1.0, 2.0, 3.0, 5.0], &[1.0, 2.0, 5.0], &[1.0]];
    let candidates = mantissas
        .iter()
        .map(|m| within_decades(m, 1))
        // A stride that divides the decades keeps both ends labelled.
        .chain(
            (2..=(last - first).max(2))
                .filter(|stride| (last - first) % stride == 0)
                .map(|stride| within_decades(&[1.0], stride)),
        );
    for ticks in candidates {
        let apart = ticks
            .windows(2)
            .all(|w| (w[1] / w[0]).log10() * per_decade >= gap);
        if ticks.len() >= 2 && apart {
            return ticks;
        }
    }
    vec![lo, hi]
}

pub(super) fn instances_text(n: usize) -> String {
    if n == 1 {
        "1 instance".into()
    } else {
        format!("{} instances", thousands(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The pixels along the default picture's axes (see `Frame`).
    const X_PIXELS: f64 = 620.0;
    const Y_PIXELS: f64 = 400.0;

    /// The labels of `ticks` as `si` writes them: distinct, and each gap between neighbours
    /// at least `gap` of `pixels`.
    fn check_ticks(lo: f64, hi: f64, pixels: f64, gap: f64) -> Vec<String> {
        let ticks = log_ticks(lo, hi, pixels, gap);
        let per_decade = pixels / (hi / lo).log10();
        for w in ticks.windows(2) {
            assert!(w[0] < w[1], "{ticks:?}");
            assert!((w[1] / w[0]).log10() * per_decade >= gap, "{ticks:?}");
        }
        let labels: Vec<String> = ticks.iter().map(|&v| si(v, "s")).collect();
        let distinct: HashSet<&String> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{labels:?}");
        labels
    }

    #[test]
    fn log_ticks_neither_overlap_nor_repeat() {
        // One decade across the width: 1-2-5, not the nine of plotters' own ticks.
        assert_eq!(
            check_ticks(1e-3, 1e-2, X_PIXELS, X_GAP),
            ["1 ms", "2 ms", "3 ms", "5 ms", "10 ms"]
        );
        assert_eq!(
            check_ticks(1e5, 1e6, Y_PIXELS, Y_GAP),
            ["100 ks", "200 ks", "300 ks", "500 ks", "1 Ms"]
        );
        // Two decades: fewer per decade.
        assert_eq!(check_ticks(1e5, 1e7, X_PIXELS, X_GAP).len(), 7);
        // Many decades: decades, then every third one.
        assert_eq!(check_ticks(1e-6, 1e2, X_PIXELS, X_GAP).len(), 9);
        assert_eq!(check_ticks(1e-6, 1e12, 500.0, X_GAP).len(), 7);
        // Less than a decade: still two ticks or more.
        assert!(check_ticks(1.5e5, 8e5, X_PIXELS, X_GAP).len() >= 2);
    }

    #[test]
    fn decades_cover_their_values() {
        assert_eq!(decades(3.0, 3.0), (1.0, 10.0));
        assert_eq!(decades(10.0, 10.0), (10.0, 100.0));
        let (lo, hi) = decades(2e-5, 0.3);
        assert!((lo - 1e-5).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12);
    }

    /// Values no run gives (the largest finite number, infinity, the least subnormal) make an
    /// axis with finite ends and ticks counted in tens, not one tick per decade up to
    /// `i32::MAX`.
    #[test]
    fn absurd_values_make_a_finite_axis_with_few_ticks() {
        for (lo, hi) in [
            (1e-3, f64::MAX),
            (1e-3, f64::INFINITY),
            (f64::MIN_POSITIVE / 1e10, 1.0),
            (0.0, f64::NAN),
            (f64::MAX, f64::MAX),
        ] {
            let (a, b) = decades(lo, hi);
            assert!(a > 0.0 && b.is_finite() && a < b, "{lo} {hi}: {a} {b}");
            let ticks = log_ticks(a, b, X_PIXELS, X_GAP);
            assert!((2..=12).contains(&ticks.len()), "{lo} {hi}: {ticks:?}");
            assert!(ticks.iter().all(|t| t.is_finite()), "{ticks:?}");
            // Bounds given as they are, not as `decades` makes them: at most the 1-2-3-5 ticks
            // of every decade.
            let ticks = log_ticks(lo.max(1e-300), hi, X_PIXELS, X_GAP);
            assert!(ticks.len() <= 4 * DECADES.count(), "{}", ticks.len());
        }
    }

    #[test]
    fn a_picture_shows_control_and_bidirectional_characters_as_escapes() {
        let entries = [Entry {
            colour: GREY,
            line: true,
            marker: None,
            text: "id \x1b]0;PWNED\x07 \u{202e}evil".into(),
        }];
        let frame = PlotSize::default().frame(&entries).unwrap();
        assert_eq!((frame.x_pixels(), frame.y_pixels()), (X_PIXELS, Y_PIXELS));
        let svg = picture(&frame, |_, top, bottom| {
            top.titled("title \x1b[2J", (FONT, 24)).map_err(drawing)?;
            draw_legend(&bottom, &entries)
        })
        .unwrap();
        assert!(
            !svg.contains(['\x1b', '\x07', '\u{202e}']),
            "raw control or bidi characters: {svg}"
        );
        for shown in ["id \\x1b]0;PWNED\\x07 \\u{202e}evil", "title \\x1b[2J"] {
            assert!(svg.contains(shown), "no {shown}: {svg}");
        }
    }

    fn entry(text: String) -> Entry {
        Entry {
            colour: GREY,
            line: true,
            marker: None,
            text,
        }
    }

    #[test]
    fn short_legend_entries_go_two_to_a_row_and_long_ones_alone() {
        let entries: Vec<Entry> = [10, 50, 10, 10, 10, 41]
            .map(|n| entry("x".repeat(n)))
            .into();
        let places: Vec<(usize, usize)> = layout(&entries, WIDTH)
            .iter()
            .map(|p| (p.row, p.column))
            .collect();
        assert_eq!(places, [(0, 0), (1, 0), (2, 0), (2, 1), (3, 0), (4, 0)]);
        let height = |entries: &[Entry]| {
            let frame = PlotSize::default().frame(entries).unwrap();
            assert_eq!(frame.chart_height, CHART_HEIGHT);
            frame.height
        };
        assert_eq!(height(&entries), CHART_HEIGHT + 5 * LEGEND_ROW as u32 + 16);
        assert_eq!(
            height(&entries[..4]),
            CHART_HEIGHT + 3 * LEGEND_ROW as u32 + 16
        );
    }

    #[test]
    fn long_names_wrap_at_their_separators_and_only_absurd_ones_are_shortened() {
        let name = "linear-conflict/stepnext/prune+walking-distance/step2/noprune (12)";
        let (lines, shortened) = wrap(name, 40, 3);
        assert_eq!(
            lines,
            [
                "linear-conflict/stepnext/prune+walking-",
                "distance/step2/noprune (12)"
            ]
        );
        assert!(!shortened);
        assert_eq!(lines.concat(), name);
        let long = "segment/".repeat(40);
        let (lines, shortened) = wrap(&long, 40, 3);
        assert!(shortened && lines.len() == 3, "{lines:?}");
        assert!(
            lines[2].starts_with('…') && long.ends_with(&lines[2][3..]),
            "{lines:?}"
        );
        // Drawn 85 characters a line: every line of a wrapped name, the shortened one under its
        // full name.
        let name = format!("pdb-663+reflect/step2/noprune+{name}");
        let entries = vec![entry(name.clone()), entry(long.clone())];
        let frame = PlotSize::default().frame(&entries).unwrap();
        let svg = picture(&frame, |_, _, bottom| draw_legend(&bottom, &entries)).unwrap();
        let (lines, _) = wrap(&name, 85, 3);
        assert_eq!(lines.len(), 2);
        for line in lines {
            assert!(
                svg.contains(&format!(">\n{line}\n</text>")),
                "{line}: {svg}"
            );
        }
        let titled = svg
            .matches(&format!("<g><title>{long}</title><text"))
            .count();
        assert_eq!(titled, 3, "{svg}");
    }

    #[test]
    fn a_given_size_is_the_whole_pictures_and_too_small_a_one_is_refused() {
        let size = PlotSize::parse("1200x700").unwrap();
        let entries = vec![entry("a".into()); 3];
        let frame = size.frame(&entries).unwrap();
        assert_eq!((frame.width, frame.height), (1200, 700));
        assert_eq!(frame.chart_height, 700 - 2 * LEGEND_ROW as u32 - 16);
        let svg = picture(&frame, |_, _, bottom| draw_legend(&bottom, &entries)).unwrap();
        assert!(
            svg.starts_with("<svg width=\"1200\" height=\"700\""),
            "{svg}"
        );
        let crowded = vec![entry("a".into()); 40];
        let e = PlotSize::parse("400x300")
            .unwrap()
            .frame(&crowded)
            .unwrap_err();
        assert!(
            e.starts_with("--plot-size 400x300: its legend takes 496 of the 300 pixels"),
            "{e}"
        );
        for bad in ["800", "800x", "x600", "0x600", "800x100000", "8OOx600"] {
            assert!(PlotSize::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(PlotSize::parse("640X480"), Ok(PlotSize(Some((640, 480)))));
    }

    #[test]
    fn ids_are_shortened_in_the_middle_and_kept_apart() {
        assert_eq!(middle("korf79", 10, 6), "korf79");
        assert_eq!(middle("abcdefghijkl", 10, 6), "abc…ghijkl");
        let ids = ["instance-8p-d08-seed-0", "instance-8p-d14-seed-1", "korf79"];
        let short = distinct_short(&ids, 12);
        assert_eq!(short, ["ins…8-seed-0", "ins…4-seed-1", "korf79"]);
        // Ends alike: more of the start is kept.
        let ids = ["run-a-0000000-x", "run-b-0000000-x"];
        let short = distinct_short(&ids, 10);
        assert!(short.iter().all(|s| s.chars().count() <= 10), "{short:?}");
        assert_ne!(short[0], short[1]);
    }

    #[test]
    fn earlier_series_have_larger_markers() {
        assert_eq!(
            (0..6).map(|i| growth(i, 6)).collect::<Vec<_>>(),
            [5, 4, 3, 2, 1, 0]
        );
        assert_eq!(growth(0, 1), 0);
        assert_eq!((growth(0, 2), growth(1, 2)), (5, 0));
    }

    #[test]
    fn markers_spread_along_a_line_from_its_first_point_to_its_last() {
        let line: Vec<(f64, f64)> = (0..1000).map(|i| (f64::from(i), 0.0)).collect();
        let marked = spread(&line);
        assert_eq!(marked.len(), LINE_MARKERS);
        assert_eq!((marked[0], marked[LINE_MARKERS - 1]), (line[0], line[999]));
        assert!(marked.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(spread(&line[..3]), &line[..3]);
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
