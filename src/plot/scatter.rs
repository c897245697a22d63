//! Scatter plots of nodes generated per instance, one variant against another.

use super::cactus::Measure;
use super::style::*;
use super::Job;
use crate::results::record::Status;
use plotters::prelude::*;
use std::collections::HashMap;

/// A scatter plot of nodes generated per instance, variant `a` on x against `b` on y, both
/// log scale over the same range. Instances a variant did not solve are drawn at a border just
/// beyond every solved value (x for `a`, y for `b`), labelled `unsolved` on its axis, in a mark
/// of their own. Instances a variant proved unsolvable are left out and counted in the legend:
/// neither variant can solve them.
pub(super) fn scatter(jobs: &[Job], a: &str, b: &str, size: PlotSize) -> Result<String, String> {
    let mut by_instance: HashMap<(&str, &str), [Option<&Job>; 2]> = HashMap::new();
    let mut order = Vec::new();
    for r in jobs {
        let side = if r.variant == a {
            0
        } else if r.variant == b {
            1
        } else {
            continue;
        };
        let key = (r.dataset, r.instance);
        let slot = by_instance.entry(key).or_insert_with(|| {
            order.push(key);
            [None, None]
        });
        slot[side] = Some(r);
    }
    // Instances both variants ran, in runs.csv's order.
    let joined: Vec<[&Job; 2]> = order
        .iter()
        .filter_map(|k| match by_instance[k] {
            [Some(x), Some(y)] => Some([x, y]),
            _ => None,
        })
        .collect();
    if joined.is_empty() {
        return Err(format!("{a} and {b} ran no instance in common"));
    }
    let (unsolvable, joined): (Vec<[&Job; 2]>, Vec<[&Job; 2]>) = joined
        .into_iter()
        .partition(|pair| pair.iter().any(|r| r.status == Status::Unsolvable));
    let solved_values: Vec<f64> = joined
        .iter()
        .flatten()
        .filter(|r| r.status.solved())
        .map(|r| Measure::Nodes.of(r))
        .collect();
    if solved_values.is_empty() {
        return Err(format!("neither {a} nor {b} solved an instance"));
    }
    let lo = solved_values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = solved_values.iter().copied().fold(0.0, f64::max);
    let any_unsolved = solved_values.len() < 2 * joined.len();
    let axis = Axis::new(lo, hi, any_unsolved);
    let border = axis.border;

    let mut both = Vec::new();
    let mut a_failed = Vec::new();
    let mut b_failed = Vec::new();
    let mut none = Vec::new();
    let (mut above, mut below, mut on) = (0, 0, 0);
    for [x, y] in &joined {
        let px = if x.status.solved() {
            Measure::Nodes.of(x)
        } else {
            border
        };
        let py = if y.status.solved() {
            Measure::Nodes.of(y)
        } else {
            border
        };
        // An instance neither solved says nothing about which variant is better: it is counted
        // apart. One solved by a single variant counts for that variant (it lies beyond every
        // value the other solved).
        if x.status.solved() || y.status.solved() {
            match py.total_cmp(&px) {
                std::cmp::Ordering::Greater => above += 1,
                std::cmp::Ordering::Less => below += 1,
                std::cmp::Ordering::Equal => on += 1,
            }
        }
        match (x.status.solved(), y.status.solved()) {
            (true, true) => both.push((px, py)),
            (false, true) => a_failed.push((px, py)),
            (true, false) => b_failed.push((px, py)),
            (false, false) => none.push((px, py)),
        }
    }

    // Each kind of point has a shape of its own, so that colour is never the only difference.
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
                colour: PALETTE[4],
                shape: Shape::Plus,
                filled: false,
            },
            format!("unsolved by {b}: top border"),
        ),
        (
            &none,
            Look {
                colour: BLACK,
                shape: Shape::Square,
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
            text: if points.len() > SCATTER_MARKERS {
                let n = thousands(points.len());
                format!("{text} ({n}; overlapping markers merged)")
            } else {
                format!("{text} ({})", points.len())
            },
        })
        .collect();
    entries.push(Entry {
        colour: GREY,
        line: true,
        marker: None,
        text: format!("diagonal: equal nodes; above it {b} generated more"),
    });
    if !unsolvable.is_empty() {
        entries.push(Entry {
            colour: GREY,
            line: false,
            marker: None,
            text: format!(
                "left out: {} proved unsolvable (no variant can solve it)",
                instances_text(unsolvable.len())
            ),
        });
    }

    // Instances neither variant solved are counted in the legend only. The title names both
    // variants, on lines of their own above the counts.
    let mut frame = size.frame(&entries)?;
    let title = title(a, b, frame.width);
    if title.shortened {
        let full = title.full.clone();
        let shown = title.lines.iter().map(|l| (l.clone(), full.clone()));
        // Drawn before the legend: first, in the order of the SVG.
        frame.titles.splice(0..0, shown);
    }
    let subtitle = format!(
        "{} above the diagonal, {} below, {} on it",
        thousands(above),
        thousands(below),
        thousands(on)
    );
    picture(&frame, |_, top, bottom| {
        let mut top = top;
        for line in &title.lines {
            top = top.titled(line, (FONT, 21)).map_err(drawing)?;
        }
        let top = top.titled(&subtitle, (FONT, 19)).map_err(drawing)?;
        let mut chart = ChartBuilder::on(&top)
            .margin(16)
            .margin_top(6)
            // Room for the last tick label, centred on the right end of the x axis.
            .margin_right(36)
            .x_label_area_size(50)
            // Room for the `unsolved` tick label clear of the rotated y description.
            .y_label_area_size(100)
            .build_cartesian_2d(
                axis.coord(frame.x_pixels(), X_GAP),
                axis.coord(frame.y_pixels(), Y_GAP),
            )
            .map_err(drawing)?;
        // The border's tick is labelled `unsolved`: it is not a number of nodes.
        let label = |v: &f64| {
            if any_unsolved && *v == border {
                "unsolved".to_string()
            } else {
                si(*v, "")
            }
        };
        house_mesh(&mut chart.configure_mesh())
            // The title names the variants: the descriptions say only which is which, so that
            // no name runs off the picture.
            .x_desc("nodes generated, x variant (log scale)")
            .y_desc("nodes, y variant (log)")
            .x_label_formatter(&label)
            .y_label_formatter(&label)
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series(LineSeries::new(
                [(axis.lo, axis.lo), (axis.hi, axis.hi)],
                GREY.stroke_width(1),
            ))
            .map_err(drawing)?;
        for (points, look, _) in &kinds {
            if !points.is_empty() {
                let shown = uncrowded(&chart, points);
                markers(&mut chart, &shown, *look)?;
            }
        }
        draw_legend(&bottom, &entries)?;
        Ok(())
    })
}

/// The title of a scatter plot, in lines.
struct Title {
    full: String,
    lines: Vec<String>,
    shortened: bool,
}

/// The title naming both variants on a picture `width` pixels wide: on one line (88 characters
/// at its font on 800 px), or wrapped on two, or, for names longer than that, shortened by
/// `wrap`'s rule, its full text in the SVG's `<title>`.
fn title(a: &str, b: &str, width: u32) -> Title {
    let full = format!("Nodes generated: {a} (x) vs {b} (y)");
    let most = (width.saturating_sub(50) as usize * 88 / 750).max(20);
    let (lines, shortened) = wrap(&full, most, 2);
    Title {
        full,
        lines,
        shortened,
    }
}

/// Both axes of a scatter plot: from a little below the least solved value `lo` to a little
/// above the most, `hi`, and, when some instance is unsolved, a border a little beyond that,
/// where its points sit. The margins are fractions of the data's span (at least a decade), so
/// the border stays close to the data whatever its range.
struct Axis {
    lo: f64,
    top: f64,
    border: f64,
    hi: f64,
}

impl Axis {
    fn new(lo: f64, hi: f64, unsolved: bool) -> Axis {
        let span = (hi / lo).log10().max(1.0);
        let step = |k: f64| 10f64.powf(span * k);
        let top = hi * step(0.03);
        let border = hi * step(0.07);
        Axis {
            lo: lo / step(0.03),
            top,
            border,
            hi: if unsolved { border * step(0.03) } else { top },
        }
    }

    /// The axis on `pixels` whose tick labels are `gap` apart: numbers on the solved values, and
    /// the border's tick, labelled `unsolved` by the formatter, with no number near it.
    fn coord(&self, pixels: f64, gap: f64) -> LogAxis {
        if self.hi == self.top {
            return LogAxis::new(self.lo, self.hi, pixels, gap);
        }
        let per_decade = pixels / (self.hi / self.lo).log10();
        let data_pixels = (self.top / self.lo).log10() * per_decade;
        let mut ticks: Vec<f64> = log_ticks(self.lo, self.top, data_pixels, gap)
            .into_iter()
            .filter(|t| (self.border / t).log10() * per_decade >= gap)
            .collect();
        ticks.push(self.border);
        LogAxis::with_ticks(self.lo, self.hi, ticks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, Ranged};

    #[test]
    fn the_border_is_just_beyond_the_data_and_has_no_number_near_it() {
        let axis = Axis::new(13.0, 180_000.0, true);
        const X_PIXELS: f64 = 620.0;
        let per_decade = X_PIXELS / (axis.hi / axis.lo).log10();
        let pixels = |from: f64, to: f64| (to / from).log10() * per_decade;
        // A few pixels of room at either end, the border some 40 px beyond the data.
        assert!((5.0..20.0).contains(&pixels(axis.lo, 13.0)));
        assert!((25.0..50.0).contains(&pixels(180_000.0, axis.border)));
        assert!((5.0..20.0).contains(&pixels(axis.border, axis.hi)));
        let coord = axis.coord(X_PIXELS, X_GAP);
        let ticks = coord.key_points(BoldPoints(100));
        assert_eq!(ticks.last(), Some(&axis.border));
        let before = ticks[ticks.len() - 2];
        assert!((axis.border / before).log10() * per_decade >= X_GAP);
        assert!(ticks.iter().all(|&t| t >= axis.lo && t <= axis.hi));
        // Nothing unsolved: no border.
        let axis = Axis::new(13.0, 180_000.0, false);
        assert_eq!(axis.hi, axis.top);
    }

    #[test]
    fn titles_name_both_variants_whole_or_say_them_in_full_aside() {
        assert_eq!(
            title("a", "b", 800).lines,
            ["Nodes generated: a (x) vs b (y)"]
        );
        let (a, b) = (
            "linear-conflict/stepnext/prune",
            "walking-distance/step2/noprune",
        );
        let t = title(&format!("{a}+{a}"), b, 800);
        assert!(!t.shortened && t.lines.len() == 2, "{:?}", t.lines);
        // Broken at a separator or a space, which the lines leave out.
        assert_eq!(
            t.lines.join(" ").replace("vs ", "vs"),
            t.full.replace("vs ", "vs")
        );
        assert!(t.lines.iter().all(|l| l.chars().count() <= 88));
        let t = title(&"a/".repeat(100), b, 800);
        assert!(t.shortened && t.lines.len() == 2, "{:?}", t.lines);
        assert!(
            t.lines[1].ends_with(&format!(" vs {b} (y)")),
            "{:?}",
            t.lines
        );
    }
}
