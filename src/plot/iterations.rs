//! Nodes generated in each iteration of the hardest instances of each variant (most nodes
//! generated in all), from iterations.csv: how the work grows from one bound to the next.

use super::style::*;
use super::{IterationRows, Job};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

/// At most this many lines in all: beyond it no line can be followed from end to end.
const MOST_LINES: usize = 12;
/// At most this many instances of one variant.
const PER_VARIANT: usize = 3;
/// Labels at the lines' ends are at least this many pixels apart vertically.
const LABEL_GAP: i32 = 15;

/// One line: a job's iterations as (bound, nodes generated) points.
struct Line<'a> {
    variant: usize,
    instance: &'a str,
    points: Vec<(f64, f64)>,
}

/// The picture: for each variant, its jobs with the most nodes generated (3 each, fewer when
/// there are more than 4 variants, so that at most 12 lines are drawn), each a line of nodes
/// generated per iteration (y, log scale) against the iteration's bound (x), labelled with its
/// instance at its last point.
pub(super) fn iterations(
    jobs: &[Job],
    variants: &[String],
    rows: &mut IterationRows,
) -> Result<String, String> {
    let place: HashMap<&str, usize> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    // Each variant's hardest jobs so far, hardest first; ties keep the run's order.
    let mut hardest: Vec<Vec<usize>> = vec![Vec::new(); variants.len()];
    for (j, job) in jobs.iter().enumerate() {
        let Some(&v) = place.get(job.variant) else {
            continue;
        };
        if !job.has_iterations {
            continue;
        }
        let list = &mut hardest[v];
        let at = list.partition_point(|&k| jobs[k].nodes_generated >= job.nodes_generated);
        if at < PER_VARIANT {
            list.insert(at, j);
            list.truncate(PER_VARIANT);
        }
    }
    let present = hardest.iter().filter(|l| !l.is_empty()).count();
    if present == 0 {
        return Err("no job recorded an iteration".into());
    }
    let per_variant = (MOST_LINES / present).clamp(1, PER_VARIANT);
    let chosen: Vec<(usize, usize)> = hardest
        .iter()
        .enumerate()
        .flat_map(|(v, list)| list.iter().take(per_variant).map(move |&j| (v, j)))
        .collect();
    let indices: Vec<usize> = chosen.iter().map(|&(_, j)| j).collect();
    let lists = rows(&indices)?;
    let lines: Vec<Line> = chosen
        .iter()
        .zip(lists)
        .filter(|(_, rows)| !rows.is_empty())
        .map(|(&(variant, j), rows)| Line {
            variant,
            instance: jobs[j].instance,
            points: rows
                .iter()
                .map(|r| (f64::from(r.bound), (r.nodes_generated as f64).max(1.0)))
                .collect(),
        })
        .collect();
    if lines.is_empty() {
        return Err(format!(
            "{} holds no row of the jobs chosen",
            crate::iterations::FILE
        ));
    }
    draw(&lines, variants, per_variant)
}

fn draw(lines: &[Line], variants: &[String], per_variant: usize) -> Result<String, String> {
    let all = || lines.iter().flat_map(|l| l.points.iter().copied());
    let (x_lo, x_hi) = all().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| {
        (lo.min(x), hi.max(x))
    });
    let (y_lo, y_hi) = all().fold((f64::INFINITY, 0.0f64), |(lo, hi), (_, y)| {
        (lo.min(y), hi.max(y))
    });
    let (y_lo, y_hi) = decades(y_lo, y_hi);
    // Whole bounds, with half a step of room on each side for the markers.
    let x_range = (x_lo - 0.5)..(x_hi + 0.5);

    let mut entries = Vec::new();
    for (v, name) in variants.iter().enumerate() {
        let mine: Vec<&str> = lines
            .iter()
            .filter(|l| l.variant == v)
            .map(|l| l.instance)
            .collect();
        if !mine.is_empty() {
            entries.push(Entry {
                colour: look(v).colour,
                line: true,
                marker: Some(look(v)),
                text: format!("{name}: {}", mine.join(", ")),
            });
        }
    }
    let title = if per_variant == 1 {
        "Nodes per iteration of each variant's hardest instance".to_string()
    } else {
        format!("Nodes per iteration of each variant's {per_variant} hardest instances")
    };
    let height = CHART_HEIGHT + legend_height(&entries);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(CHART_HEIGHT);
        let mut chart = ChartBuilder::on(&top)
            .caption(title, (FONT, 24))
            .margin(16)
            // Room for the instance labels right of the lines' last points.
            .margin_right(90)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x_range, log_range(y_lo, y_hi).log_scale())
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("cost bound of the iteration")
            .y_desc("nodes generated in the iteration (log scale)")
            // Bounds are whole: a tick between two of them is left blank.
            .x_label_formatter(&|v| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| si(*v, ""))
            .axis_desc_style((FONT, 20))
            .label_style((FONT, 18))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.12))
            .draw()
            .map_err(drawing)?;
        let mut labels = Vec::new();
        for line in lines {
            let look = look(line.variant);
            // A single point is a marker alone.
            if line.points.len() > 1 {
                chart
                    .draw_series(LineSeries::new(
                        line.points.iter().copied(),
                        look.colour.stroke_width(2),
                    ))
                    .map_err(drawing)?;
            }
            markers(&mut chart, &line.points, look)?;
            if let Some(last) = line.points.last() {
                let (x, y) = chart.backend_coord(last);
                labels.push((x + 8, y, line.instance));
            }
        }
        // Lines that end on the same point with the same instance (variants that search alike)
        // share one label; the others are placed highest first.
        labels.sort_by_key(|&(x, y, instance)| (y, x, instance));
        labels.dedup();
        let (_, rows) = chart.plotting_area().get_pixel_range();
        let mut placed: Vec<(i32, i32)> = Vec::new();
        let style = TextStyle::from((FONT, 16).into_font())
            .color(&RGBColor(0x33, 0x33, 0x33))
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (x, y, instance) in labels {
            let y = free_place(x, y, &placed, rows.start + 8..rows.end - 8);
            placed.push((x, y));
            root.draw(&Text::new(short(instance), (x, y), style.clone()))
                .map_err(drawing)?;
        }
        draw_legend(&bottom, &entries)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// Where a label that belongs at pixel (x, y) goes: there, or the nearest height a step of
/// `LABEL_GAP` above or below that keeps clear of the labels `placed` near it and inside the
/// chart's rows `within`; where it belongs when there is none.
fn free_place(x: i32, y: i32, placed: &[(i32, i32)], within: std::ops::Range<i32>) -> i32 {
    let clear = |y: i32| {
        within.contains(&y)
            && placed
                .iter()
                .all(|&(px, py)| (px - x).abs() >= 80 || (py - y).abs() >= LABEL_GAP)
    };
    (0..20)
        .flat_map(|k| [y + k * LABEL_GAP, y - k * LABEL_GAP])
        .find(|&y| clear(y))
        .unwrap_or(y)
}

/// An instance id short enough for the room right of the chart.
fn short(id: &str) -> String {
    const MOST: usize = 10;
    if id.chars().count() <= MOST {
        id.to_owned()
    } else {
        let head: String = id.chars().take(MOST - 1).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_keep_clear_of_each_other_inside_the_chart() {
        let rows = 10..200;
        assert_eq!(free_place(100, 50, &[], rows.clone()), 50);
        // Taken at 50: the next free step below.
        assert_eq!(free_place(100, 50, &[(100, 50)], rows.clone()), 65);
        // At the bottom: above instead.
        assert_eq!(free_place(100, 195, &[(100, 195)], rows.clone()), 180);
        // Far enough to the side: no clash.
        assert_eq!(free_place(300, 50, &[(100, 50)], rows), 50);
    }
}
