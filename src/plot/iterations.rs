//! Nodes generated in each iteration of the hardest solved instances of each variant (most
//! nodes generated in all), from iterations.csv: how the work grows from one iteration to the
//! next (IDA*'s flat layers under weighted moves, budgeted tree search's doubling).

use super::style::*;
use super::{IterationRows, Job};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;

/// At most this many lines in all: beyond it no line can be followed from end to end.
const MOST_LINES: usize = 12;
/// At most this many instances of one variant.
const PER_VARIANT: usize = 3;
/// Labels at the lines' ends are at least this many pixels apart vertically, or this far apart
/// horizontally (a label of `LABEL_CHARS` characters is about 85 px wide).
const LABEL_GAP: i32 = 15;
const LABEL_WIDTH: i32 = 90;
/// The most characters of a label: the room right of the chart.
const LABEL_CHARS: usize = 12;
const LABEL_GREY: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// One line: a job's iterations as (iteration number, nodes generated) points.
struct Line<'a> {
    variant: usize,
    instance: &'a str,
    points: Vec<(f64, f64)>,
}

/// The picture: for each variant, its solved jobs with the most nodes generated (3 each, fewer
/// when there are more than 4 variants, so that at most 12 lines are drawn), each a line of
/// nodes generated per iteration (y, log scale) against the iteration's number (x): bounds are
/// in each cost model's units, and go down again under branch and bound, so they would not
/// share an axis. Labelled
/// with its instance at its last point. Only solved jobs are chosen: a job stopped by a limit
/// ends in an iteration it did not finish, whose count would read as a drop in the work.
pub(super) fn iterations(
    jobs: &[Job],
    variants: &[String],
    rows: &mut IterationRows,
    size: PlotSize,
) -> Result<String, String> {
    let place: HashMap<&str, usize> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    // Each variant's solved jobs, hardest first; ties keep the run's order.
    let mut solved: Vec<Vec<usize>> = vec![Vec::new(); variants.len()];
    let mut limited = 0;
    for (j, job) in jobs.iter().enumerate() {
        let Some(&v) = place.get(job.variant) else {
            continue;
        };
        if job.status.limited() {
            limited += 1;
        }
        if job.has_iterations && job.status.solved() {
            solved[v].push(j);
        }
    }
    for list in &mut solved {
        list.sort_by_key(|&j| std::cmp::Reverse(jobs[j].nodes_generated));
    }
    let present = solved.iter().filter(|l| !l.is_empty()).count();
    if present == 0 {
        return Err(if limited > 0 {
            format!(
                "no job was solved ({limited} stopped by a limit): the last iteration of a \
                 stopped search is unfinished, so its counts would mislead"
            )
        } else {
            "no solved job recorded an iteration".into()
        });
    }
    let per_variant = (MOST_LINES / present).clamp(1, PER_VARIANT);
    let candidates: Vec<u64> = solved
        .iter()
        .flatten()
        .map(|&j| jobs[j].nodes_generated)
        .collect();
    let left_out = solved.iter().any(|l| l.len() > per_variant);
    if left_out && candidates.iter().all(|&n| n == candidates[0]) {
        return Err(format!(
            "all {} solved jobs generated the same number of nodes ({}): no instance is harder \
             than another",
            candidates.len(),
            candidates[0]
        ));
    }
    let chosen: Vec<(usize, usize)> = solved
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
                .map(|r| (f64::from(r.iteration), (r.nodes_generated as f64).max(1.0)))
                .collect(),
        })
        .collect();
    if lines.is_empty() {
        return Err(format!(
            "{} holds no row of the jobs chosen",
            crate::results::iterations::FILE
        ));
    }
    let mut counts = vec![0; variants.len()];
    for line in &lines {
        counts[line.variant] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(0);
    let fewer = counts.iter().any(|&n| n > 0 && n < most);
    draw(&lines, variants, &title(most, fewer), size)
}

/// The title: how many of each variant's hardest solved instances are drawn, `most` or, when
/// some variant solved `fewer`, up to `most`.
fn title(most: usize, fewer: bool) -> String {
    let up_to = if fewer { "up to " } else { "" };
    let noun = if most == 1 { "instance" } else { "instances" };
    format!("Nodes per iteration of each variant's {up_to}{most} hardest solved {noun}")
}

fn draw(
    lines: &[Line],
    variants: &[String],
    title: &str,
    size: PlotSize,
) -> Result<String, String> {
    let all = || lines.iter().flat_map(|l| l.points.iter().copied());
    let (x_lo, x_hi) = all().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| {
        (lo.min(x), hi.max(x))
    });
    let (y_lo, y_hi) = all().fold((f64::INFINITY, 0.0f64), |(lo, hi), (_, y)| {
        (lo.min(y), hi.max(y))
    });
    let (y_lo, y_hi) = decades(y_lo, y_hi);
    // Whole numbers, with half a step of room on each side for the markers.
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
                text: legend_text(name, &mine),
            });
        }
    }
    let frame = size.frame(&entries)?;
    picture(&frame, |root, top, bottom| {
        // Room on the right for the instance labels right of the lines' last points.
        let mut chart = house_chart(&top, title, 90, 70)
            .build_cartesian_2d(x_range, LogAxis::new(y_lo, y_hi, frame.y_pixels(), Y_GAP))
            .map_err(drawing)?;
        house_mesh(&mut chart.configure_mesh())
            .x_desc("iteration")
            .y_desc("nodes generated in the iteration (log scale)")
            // Iterations are whole: a tick between two of them is left blank.
            .x_label_formatter(&|v| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| si(*v, ""))
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
            let grow = growth(line.variant, variants.len());
            grown_markers(&mut chart, &line.points, look, grow)?;
            if let Some(last) = line.points.last() {
                let (x, y) = chart.backend_coord(last);
                labels.push((y, x + 8, line.instance, look.colour));
            }
        }
        // Lines that end on the same point with the same instance (variants that search alike)
        // share one label, in grey when their colours differ; the others are placed highest
        // first.
        labels.sort_by_key(|&(y, x, instance, _)| (y, x, instance));
        let mut shared: Vec<(i32, i32, &str, RGBColor)> = Vec::new();
        for label in labels {
            match shared.last_mut() {
                Some(last) if (last.0, last.1, last.2) == (label.0, label.1, label.2) => {
                    if last.3 != label.3 {
                        last.3 = LABEL_GREY;
                    }
                }
                _ => shared.push(label),
            }
        }
        let names = distinct_short(&shared.iter().map(|l| l.2).collect::<Vec<_>>(), LABEL_CHARS);
        let (_, rows) = chart.plotting_area().get_pixel_range();
        let mut placed: Vec<(i32, i32)> = Vec::new();
        for ((y, x, _, colour), name) in shared.into_iter().zip(names) {
            // A label that would sit away from its line could be read as another's: it is
            // left out, and the legend names the instance.
            let Some(y) = free_place(x, y, &placed, rows.start + 8..rows.end - 8) else {
                continue;
            };
            placed.push((x, y));
            let style = TextStyle::from((FONT, 16).into_font())
                .color(&colour)
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(name, (x, y), style))
                .map_err(drawing)?;
        }
        draw_legend(&bottom, &entries)?;
        Ok(())
    })
}

/// Where a label that belongs at pixel (x, y) goes: there, or a step of `LABEL_GAP` above or
/// below, whichever first keeps clear of the labels `placed` near it and inside the chart's rows
/// `within`; none when all three are taken.
fn free_place(x: i32, y: i32, placed: &[(i32, i32)], within: std::ops::Range<i32>) -> Option<i32> {
    let clear = |y: i32| {
        within.contains(&y)
            && placed
                .iter()
                .all(|&(px, py)| (px - x).abs() >= LABEL_WIDTH || (py - y).abs() >= LABEL_GAP)
    };
    [y, y + LABEL_GAP, y - LABEL_GAP]
        .into_iter()
        .find(|&y| clear(y))
}

/// A legend entry naming the instances of a variant: each id shortened (keeping its start and
/// end) so that the entry fits on its row.
fn legend_text(variant: &str, instances: &[&str]) -> String {
    let full = format!("{variant}: {}", instances.join(", "));
    if full.chars().count() <= FULL_ROW {
        return full;
    }
    let room = FULL_ROW.saturating_sub(variant.chars().count() + 2 + 2 * (instances.len() - 1));
    let each = (room / instances.len()).max(9);
    let ids = distinct_short(instances, each);
    format!("{variant}: {}", ids.join(", "))
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn labels_keep_clear_of_each_other_inside_the_chart_and_near_their_line() {
        let rows = 10..200;
        assert_eq!(free_place(100, 50, &[], rows.clone()), Some(50));
        // Taken at 50: a step below.
        assert_eq!(free_place(100, 50, &[(100, 50)], rows.clone()), Some(65));
        // At the bottom: above instead.
        assert_eq!(free_place(100, 195, &[(100, 195)], rows.clone()), Some(180));
        // Far enough to the side: no clash.
        assert_eq!(free_place(300, 50, &[(100, 50)], rows.clone()), Some(50));
        // Taken there and a step either way: left out rather than drawn away from its line.
        let taken = [(100, 35), (100, 50), (100, 65)];
        assert_eq!(free_place(100, 50, &taken, rows), None);
    }

    #[test]
    fn long_ids_in_the_legend_are_shortened_to_fit_and_stay_apart() {
        let ids = [
            "instance-8p-d08-from-generator-seed-0",
            "instance-8p-d14-from-generator-seed-1",
            "instance-8p-d22-from-generator-seed-11",
        ];
        let text = legend_text("linear-conflict/stepnext/prune", &ids);
        assert!(text.chars().count() <= FULL_ROW, "{text}");
        let shown: Vec<&str> = text.split(": ").nth(1).unwrap().split(", ").collect();
        assert_eq!(shown.len(), 3);
        assert_eq!(shown.iter().collect::<HashSet<_>>().len(), 3, "{text}");
        assert_eq!(legend_text("a", &["x", "y"]), "a: x, y");
    }
}
