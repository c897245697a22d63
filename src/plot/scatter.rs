//! Scatter plots of nodes generated per instance, one variant against another.

use super::cactus::Measure;
use super::style::*;
use super::Job;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

/// A scatter plot of nodes generated per instance, variant `a` on x against `b` on y, both
/// log scale over the same range. Instances a variant did not solve are drawn at a border beyond
/// every solved value (x for `a`, y for `b`), with a cross.
pub(super) fn scatter(jobs: &[Job], a: &str, b: &str) -> Result<String, String> {
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

    // Instances neither variant solved are counted in the legend only: the title stays short
    // enough for 800 px.
    let title = format!(
        "Nodes per instance: {} above the diagonal, {} below, {} on it",
        thousands(above),
        thousands(below),
        thousands(on)
    );
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
                LogAxis::new(axis_lo, axis_hi, X_PIXELS, X_GAP),
                LogAxis::new(axis_lo, axis_hi, Y_PIXELS, Y_GAP),
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
                let shown = uncrowded(&chart, points);
                markers(&mut chart, &shown, *look)?;
            }
        }
        draw_legend(&bottom, &entries)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}
