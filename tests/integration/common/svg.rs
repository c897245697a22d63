//! Reading the SVG that plotters writes, for the tests of the pictures: a small well-formedness
//! parser (no XML crate is in the dependency tree), the text elements, the 2 px polylines that
//! draw series, tick labels read as numbers, the plotting area and its axes.

// Each test file that includes this module uses only part of it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;

/// The chart's height in pixels: legend samples are drawn below it.
pub const CHART_HEIGHT: f64 = 540.0;

/// Reads the SVG at `path`, checking that it is well-formed.
pub fn read_svg(path: &Path) -> Svg {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    check_well_formed(&text).unwrap_or_else(|e| panic!("{}: not XML: {e}", path.display()));
    Svg::new(text)
}

pub fn min_max(values: &[f64]) -> (f64, f64) {
    assert!(!values.is_empty());
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        })
}

/// Checks that `text` is well-formed XML as far as plotters' output goes: one root `svg`,
/// every element closed in order, attributes quoted, no stray `<` or `&` in text.
pub fn check_well_formed(text: &str) -> Result<(), String> {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = text;
    let mut roots = 0;
    while let Some(open) = rest.find('<') {
        check_text(&rest[..open])?;
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<?") {
            rest = &after[after.find("?>").ok_or("unclosed <?")? + 2..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = &after[after.find("-->").ok_or("unclosed comment")? + 3..];
            continue;
        }
        let end = tag_end(rest).ok_or("unclosed tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body.split_whitespace().next().ok_or("empty tag")?;
        check_attributes(&body[name.len()..])?;
        if stack.is_empty() {
            roots += 1;
            if name != "svg" {
                return Err(format!("root <{name}>"));
            }
        }
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest)?;
    match (roots, stack.is_empty()) {
        (1, true) => Ok(()),
        (n, _) => Err(format!("{n} roots, unclosed {stack:?}")),
    }
}

/// The index of the `>` ending the tag at the start of `s`, outside quoted values.
pub fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

pub fn check_attributes(mut s: &str) -> Result<(), String> {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(());
        }
        let eq = s
            .find('=')
            .ok_or_else(|| format!("attribute without value: {s}"))?;
        let name = s[..eq].trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("bad attribute name `{name}`"));
        }
        let value = s[eq + 1..].trim_start();
        let q = value.chars().next().ok_or("no value")?;
        if q != '"' && q != '\'' {
            return Err(format!("unquoted value of {name}"));
        }
        let close = value[1..].find(q).ok_or("unclosed value")? + 1;
        check_text(&value[1..close])?;
        s = &value[close + 1..];
    }
}

pub fn check_text(s: &str) -> Result<(), String> {
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        let after = &rest[amp + 1..];
        let semi = after.find(';').ok_or("bare &")?;
        let entity = &after[..semi];
        let known = ["lt", "gt", "amp", "quot", "apos"].contains(&entity)
            || entity.starts_with('#') && entity.len() > 1;
        if !known {
            return Err(format!("unknown entity &{entity};"));
        }
        rest = &after[semi + 1..];
    }
    if s.contains('>') && s.contains('<') {
        return Err("stray <".into());
    }
    Ok(())
}

pub struct Svg {
    pub text: String,
}

pub struct TextElement {
    pub attributes: HashMap<String, String>,
    pub content: String,
}

impl Svg {
    pub fn new(text: String) -> Svg {
        Svg { text }
    }

    pub fn count(&self, needle: &str) -> usize {
        self.text.matches(needle).count()
    }

    /// Every element as (name, attributes), in order.
    pub fn elements(&self) -> Vec<(String, HashMap<String, String>)> {
        let mut out = Vec::new();
        let mut rest = self.text.as_str();
        while let Some(open) = rest.find('<') {
            rest = &rest[open..];
            let end = tag_end(rest).unwrap();
            let tag = &rest[1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('/') || tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            let body = tag.trim_end_matches('/');
            let name = body.split_whitespace().next().unwrap().to_owned();
            out.push((name.clone(), attributes(&body[name.len()..])));
        }
        out
    }

    pub fn texts(&self) -> Vec<TextElement> {
        let mut out = Vec::new();
        let mut rest = self.text.as_str();
        while let Some(open) = rest.find("<text") {
            rest = &rest[open..];
            let end = tag_end(rest).unwrap();
            let attrs = attributes(&rest[5..end]);
            let close = rest.find("</text>").unwrap();
            out.push(TextElement {
                attributes: attrs,
                content: unescape(rest[end + 1..close].trim()),
            });
            rest = &rest[close..];
        }
        out
    }

    /// The points of each 2 px polyline: series lines and their legend samples (axes, ticks and
    /// the diagonal are 1 px).
    pub fn series_lines(&self) -> Vec<Vec<(f64, f64)>> {
        self.elements()
            .into_iter()
            .filter(|(name, a)| {
                name == "polyline" && a.get("stroke-width").map(String::as_str) == Some("2")
            })
            .map(|(_, a)| {
                a["points"]
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    /// Each legend sample's (line colour, the marker element after it and its fill or stroke).
    pub fn legend_looks(&self) -> Vec<(String, String)> {
        let elements = self.elements();
        let mut out = Vec::new();
        for (i, (name, a)) in elements.iter().enumerate() {
            let below = a.get("points").is_some_and(|p| {
                p.split_whitespace().all(|xy| {
                    xy.split_once(',')
                        .is_some_and(|(_, y)| y.parse::<f64>().unwrap() >= CHART_HEIGHT)
                })
            });
            if name == "polyline" && below && a.get("stroke-width").map(String::as_str) == Some("2")
            {
                let (marker, m) = &elements[i + 1];
                out.push((
                    a["stroke"].clone(),
                    format!(
                        "{marker} fill={} stroke={}",
                        m.get("fill").map_or("", String::as_str),
                        m.get("stroke").map_or("", String::as_str)
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
            .elements()
            .into_iter()
            .filter(|(name, a)| name == "line" && a["y1"] == a["y2"])
            .map(|(_, a)| (a["x1"].parse().unwrap(), a["x2"].parse().unwrap()))
            .collect();
        assert!(!spans.is_empty(), "no mesh lines");
        spans[0]
    }

    /// The x axis as a function from values to pixels, fitted to its first and last numeric
    /// tick labels (a linear axis).
    pub fn x_axis(&self) -> impl Fn(f64) -> f64 {
        let ticks: Vec<(f64, f64)> = self
            .texts()
            .iter()
            .filter(|t| t.attributes.get("text-anchor").map(String::as_str) == Some("middle"))
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
            .texts()
            .iter()
            .filter(|t| t.attributes.get("text-anchor").map(String::as_str) == Some("middle"))
            .filter(|t| {
                let y: f64 = t.attributes["y"].parse().unwrap();
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
        let lines: Vec<HashMap<String, String>> = self
            .elements()
            .into_iter()
            .filter(|(name, _)| name == "line")
            .map(|(_, a)| a)
            .collect();
        let number = |a: &HashMap<String, String>, k: &str| a[k].parse::<f64>().unwrap();
        let across = lines
            .iter()
            .find(|a| a["y1"] == a["y2"])
            .expect("a horizontal line");
        let down = lines
            .iter()
            .find(|a| a["x1"] == a["x2"])
            .expect("a vertical line");
        (
            number(across, "x1"),
            number(across, "x2"),
            number(down, "y2"),
            number(down, "y1"),
        )
    }

    /// A log y axis as a function from values to pixels, fitted to its lowest and highest
    /// numeric tick labels (anchored at their end).
    pub fn y_axis_log(&self) -> impl Fn(f64) -> f64 {
        let ticks: Vec<(f64, f64)> = self
            .texts()
            .iter()
            .filter(|t| t.attributes.get("text-anchor").map(String::as_str) == Some("end"))
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
        let texts = self.texts();
        let anchored = |anchor: &str| -> Vec<(f64, f64, String)> {
            texts
                .iter()
                .filter(|t| t.attributes.get("text-anchor").map(String::as_str) == Some(anchor))
                .filter(|t| !t.content.is_empty())
                .map(|t| {
                    let at = |k: &str| t.attributes[k].parse::<f64>().unwrap();
                    (at("x"), at("y"), t.content.clone())
                })
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
        self.texts()
            .iter()
            .filter(|t| {
                anchor.is_empty()
                    || t.attributes.get("text-anchor").map(String::as_str) == Some(anchor)
            })
            .filter_map(|t| si_value(&t.content, unit))
            .collect()
    }
}

pub fn attributes(s: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut rest = s;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].trim().to_owned();
        let value_end = rest[eq + 2..].find('"').unwrap();
        out.insert(name, unescape(&rest[eq + 2..eq + 2 + value_end]));
        rest = &rest[eq + 2 + value_end + 1..];
    }
    out
}

pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
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
