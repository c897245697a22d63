//! Reading the SVG that plotters writes, for the tests of the pictures: parsed by roxmltree, which
//! checks that it is well-formed XML (one root, `svg`), then its elements in document order, the
//! text elements, the 2 px polylines that draw series, tick labels read as numbers, the plotting
//! area and its axes.

use std::collections::HashMap;
use std::path::Path;

/// The chart's height in pixels: legend samples are drawn below it.
pub const CHART_HEIGHT: f64 = 540.0;

/// Reads the SVG at `path`, checking that it is well-formed.
pub fn read_svg(path: &Path) -> Svg {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Svg::parse(&text).unwrap_or_else(|e| panic!("{}: not XML: {e}", path.display()))
}

/// The names of the SVG files in `dir`, sorted.
pub fn svgs(dir: &Path) -> Vec<String> {
    super::names(dir)
        .into_iter()
        .filter(|n| n.ends_with(".svg"))
        .collect()
}

pub fn min_max(values: &[f64]) -> (f64, f64) {
    assert!(!values.is_empty());
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        })
}

/// Checks that `text` is well-formed XML whose one root element is `svg`.
pub fn check_well_formed(text: &str) -> Result<(), String> {
    Svg::parse(text).map(|_| ())
}

/// An element: its name, its attributes (values unescaped) and its text, trimmed.
pub struct Element {
    pub name: String,
    pub attributes: HashMap<String, String>,
    pub content: String,
}

/// A `<text>` element.
pub type TextElement = Element;

pub struct Svg {
    /// Every element, in document order.
    elements: Vec<Element>,
    /// The `text` elements, in document order.
    texts: Vec<TextElement>,
}

impl Svg {
    /// Parses `text`: well-formed XML (no DTD) whose root element is `svg`.
    pub fn parse(text: &str) -> Result<Svg, String> {
        let doc = roxmltree::Document::parse(text).map_err(|e| e.to_string())?;
        let root = doc.root_element();
        if root.tag_name().name() != "svg" {
            return Err(format!("root <{}>", root.tag_name().name()));
        }
        let element = |n: roxmltree::Node| Element {
            name: n.tag_name().name().to_owned(),
            attributes: n
                .attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect(),
            content: n
                .descendants()
                .filter_map(|d| d.is_text().then(|| d.text()).flatten())
                .collect::<String>()
                .trim()
                .to_owned(),
        };
        let elements: Vec<Element> = root
            .descendants()
            .filter(|n| n.is_element())
            .map(element)
            .collect();
        let texts = root
            .descendants()
            .filter(|n| n.is_element() && n.tag_name().name() == "text")
            .map(element)
            .collect();
        Ok(Svg { elements, texts })
    }

    /// How many elements are named `name`.
    pub fn count(&self, name: &str) -> usize {
        self.elements.iter().filter(|e| e.name == name).count()
    }

    /// The centre of each polygon (a diamond or triangle marker): the mean of its points.
    pub fn polygon_centres(&self) -> Vec<(f64, f64)> {
        self.elements
            .iter()
            .filter(|e| e.name == "polygon")
            .map(|e| {
                let points: Vec<(f64, f64)> = e.attributes["points"]
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                let n = points.len() as f64;
                let sum = points
                    .iter()
                    .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
                (sum.0 / n, sum.1 / n)
            })
            .collect()
    }

    /// How many markers are drawn: circles, polygons and rectangles (the white background is
    /// one of them).
    pub fn markers(&self) -> usize {
        self.count("circle") + self.count("polygon") + self.count("rect")
    }

    /// How many elements have `attribute` set to `value`.
    pub fn count_with(&self, attribute: &str, value: &str) -> usize {
        self.elements
            .iter()
            .filter(|e| e.attributes.get(attribute).is_some_and(|v| v == value))
            .count()
    }

    pub fn texts(&self) -> &[TextElement] {
        &self.texts
    }

    /// The points of each 2 px polyline: series lines and their legend samples (axes, ticks and
    /// the diagonal are 1 px).
    pub fn series_lines(&self) -> Vec<Vec<(f64, f64)>> {
        self.elements
            .iter()
            .filter(|e| e.name == "polyline" && e.attr("stroke-width") == Some("2"))
            .map(|e| {
                e.attributes["points"]
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    /// Each 2 px polyline's stroke colour and points, in document order: the series lines of
    /// every panel, then the legend's samples.
    pub fn coloured_lines(&self) -> Vec<(String, Vec<(f64, f64)>)> {
        let colours = self
            .elements
            .iter()
            .filter(|e| e.name == "polyline" && e.attr("stroke-width") == Some("2"))
            .map(|e| e.attributes["stroke"].clone());
        colours.zip(self.series_lines()).collect()
    }

    /// The series lines inside the chart, without the legend samples drawn below it.
    pub fn chart_lines(&self) -> Vec<Vec<(f64, f64)>> {
        self.series_lines()
            .into_iter()
            .filter(|p| p.iter().all(|&(_, y)| y < CHART_HEIGHT))
            .collect()
    }

    /// Each legend sample's (line colour, the marker element after it and its fill or stroke).
    pub fn legend_looks(&self) -> Vec<(String, String)> {
        let elements = &self.elements;
        let mut out = Vec::new();
        for (i, e) in elements.iter().enumerate() {
            let below = e.attr("points").is_some_and(|p| {
                p.split_whitespace().all(|xy| {
                    xy.split_once(',')
                        .is_some_and(|(_, y)| y.parse::<f64>().unwrap() >= CHART_HEIGHT)
                })
            });
            if e.name == "polyline" && below && e.attr("stroke-width") == Some("2") {
                let m = &elements[i + 1];
                out.push((
                    e.attributes["stroke"].clone(),
                    format!(
                        "{} fill={} stroke={}",
                        m.name,
                        m.attr("fill").unwrap_or(""),
                        m.attr("stroke").unwrap_or("")
                    ),
                ));
            }
        }
        out
    }

    /// The chart's plotting area from left to right, in pixels: the extent of the mesh's
    /// horizontal lines.
    pub fn plot_area_x(&self) -> (f64, f64) {
        let spans: Vec<(f64, f64)> = self
            .elements
            .iter()
            .filter(|e| e.name == "line" && e.attributes["y1"] == e.attributes["y2"])
            .map(|e| (e.number("x1"), e.number("x2")))
            .collect();
        assert!(!spans.is_empty(), "no mesh lines");
        spans[0]
    }

    /// The x axis as a function from values to pixels, fitted to its first and last numeric
    /// tick labels (a linear axis).
    pub fn x_axis(&self) -> impl Fn(f64) -> f64 {
        let ticks: Vec<(f64, f64)> = self
            .texts
            .iter()
            .filter(|t| t.attr("text-anchor") == Some("middle"))
            .filter_map(|t| Some((t.content.parse().ok()?, t.attributes["x"].parse().ok()?)))
            .collect();
        assert!(ticks.len() >= 2, "{ticks:?}");
        let ((v0, x0), (v1, x1)) = (ticks[0], ticks[ticks.len() - 1]);
        let scale = (x1 - x0) / (v1 - v0);
        move |v| x0 + (v - v0) * scale
    }

    /// A log x axis as a function from values to pixels, fitted to its lowest and highest
    /// numeric tick labels (centred under the chart).
    pub fn x_axis_log(&self) -> impl Fn(f64) -> f64 {
        let (_, _, _, bottom) = self.plot_area();
        let ticks: Vec<(f64, f64)> = self
            .texts
            .iter()
            .filter(|t| t.attr("text-anchor") == Some("middle"))
            .filter(|t| {
                let y = t.number("y");
                y > bottom && y < bottom + 30.0
            })
            .filter_map(|t| Some((si_value(&t.content, "")?, t.attributes["x"].parse().ok()?)))
            .collect();
        assert!(ticks.len() >= 2, "{ticks:?}");
        let (lo, hi) = (ticks[0], ticks[ticks.len() - 1]);
        let scale = (hi.1 - lo.1) / (hi.0.ln() - lo.0.ln());
        move |v: f64| lo.1 + (v.ln() - lo.0.ln()) * scale
    }

    /// The chart's plotting area in pixels, (left, right, top, bottom): the extent of the mesh's
    /// horizontal and vertical lines.
    pub fn plot_area(&self) -> (f64, f64, f64, f64) {
        let lines: Vec<&Element> = self.elements.iter().filter(|e| e.name == "line").collect();
        let across = lines
            .iter()
            .find(|e| e.attributes["y1"] == e.attributes["y2"])
            .expect("a horizontal line");
        let down = lines
            .iter()
            .find(|e| e.attributes["x1"] == e.attributes["x2"])
            .expect("a vertical line");
        (
            across.number("x1"),
            across.number("x2"),
            down.number("y2"),
            down.number("y1"),
        )
    }

    /// A log y axis as a function from values to pixels, fitted to its lowest and highest
    /// numeric tick labels (anchored at their end).
    pub fn y_axis_log(&self) -> impl Fn(f64) -> f64 {
        let ticks: Vec<(f64, f64)> = self
            .texts
            .iter()
            .filter(|t| t.attr("text-anchor") == Some("end"))
            .filter_map(|t| {
                Some((
                    t.content.parse::<f64>().ok()?,
                    t.attributes["y"].parse().ok()?,
                ))
            })
            .collect();
        assert!(ticks.len() >= 2, "{ticks:?}");
        let lo = ticks
            .iter()
            .copied()
            .fold(ticks[0], |a, b| if b.0 < a.0 { b } else { a });
        let hi = ticks
            .iter()
            .copied()
            .fold(ticks[0], |a, b| if b.0 > a.0 { b } else { a });
        let scale = (hi.1 - lo.1) / (hi.0.ln() - lo.0.ln());
        move |v: f64| lo.1 + (v.ln() - lo.0.ln()) * scale
    }

    /// Checks that the axes' tick labels neither repeat nor overlap: x labels (centred under
    /// the chart) at most about 8 px a character wide, y labels (right-aligned left of it) a
    /// line high.
    pub fn assert_ticks_apart(&self) {
        let (_, _, _, bottom) = self.plot_area();
        let anchored = |anchor: &str| -> Vec<(f64, f64, String)> {
            self.texts
                .iter()
                .filter(|t| t.attr("text-anchor") == Some(anchor))
                .filter(|t| !t.content.is_empty())
                .map(|t| (t.number("x"), t.number("y"), t.content.clone()))
                .collect()
        };
        let mut x: Vec<_> = anchored("middle")
            .into_iter()
            .filter(|t| t.1 > bottom && t.1 < bottom + 30.0)
            .collect();
        x.sort_by(|a, b| a.0.total_cmp(&b.0));
        for w in x.windows(2) {
            assert_ne!(w[0].2, w[1].2, "x tick label repeated: {x:?}");
            let room = (w[0].2.chars().count() + w[1].2.chars().count()) as f64 * 4.0;
            assert!(w[1].0 - w[0].0 >= room, "x tick labels overlap: {x:?}");
        }
        let mut y = anchored("end");
        y.sort_by(|a, b| a.1.total_cmp(&b.1));
        for w in y.windows(2) {
            assert_ne!(w[0].2, w[1].2, "y tick label repeated: {y:?}");
            assert!(w[1].1 - w[0].1 >= 16.0, "y tick labels overlap: {y:?}");
        }
    }

    /// The values of the tick labels anchored `anchor` (`middle`: x axis, `end`: y axis, empty:
    /// both) that read as a number with an SI prefix and `unit`, e.g. `10 µs`, `20 k`, `100`.
    pub fn tick_values(&self, anchor: &str, unit: &str) -> Vec<f64> {
        self.texts
            .iter()
            .filter(|t| anchor.is_empty() || t.attr("text-anchor") == Some(anchor))
            .filter_map(|t| si_value(&t.content, unit))
            .collect()
    }
}

impl Element {
    /// The value of `attribute`, if the element has it.
    pub fn attr(&self, attribute: &str) -> Option<&str> {
        self.attributes.get(attribute).map(String::as_str)
    }

    /// The value of `attribute`, which must be there and be a number.
    pub fn number(&self, attribute: &str) -> f64 {
        self.attributes[attribute].parse().unwrap()
    }
}

/// `10 µs` with unit `s` is 1e-5; `20 k` with no unit is 20000; anything else is `None`.
pub fn si_value(label: &str, unit: &str) -> Option<f64> {
    let (number, suffix) = match label.split_once(' ') {
        Some((n, s)) => (n, s),
        None => (label, ""),
    };
    let value: f64 = number.parse().ok()?;
    let prefix = suffix.strip_suffix(unit)?;
    let scale = match prefix {
        "" => 1.0,
        "p" => 1e-12,
        "n" => 1e-9,
        "µ" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => return None,
    };
    if unit.is_empty() && label.ends_with('s') {
        return None;
    }
    Some(value * scale)
}
