//! The pictures of a comparison of two runs: each job's CPU-time ratio with the overall ratio and
//! its bootstrap interval, and each variant's (compare-time.svg), and each job's ratio of nodes
//! with the changed ones marked (compare-nodes.svg). The figures are `compare`'s own: its
//! timing floor, its overall geometric mean and interval, its test of a changed job (`changed`).

use super::style::*;
use super::Pictures;
use crate::compare::{changed, timed, Compared, Pairing, SavedJob, Verdict};
use crate::results::record::Status;
use plotters::prelude::*;
use std::collections::HashMap;

/// The pictures of `compared`, each `size`.
pub fn pictures(compared: &Compared, size: PlotSize) -> Pictures {
    let c = &compared.comparison;
    // Each baseline job's partner, not the pairs of jobs themselves: 16 bytes a job, where a
    // pair of borrowed jobs takes 176.
    let partners = compared.baseline.jobs.partners(&compared.current.jobs);
    let jobs = Joined {
        compared,
        partners: &partners,
    };
    let variants: Vec<&str> = c.variants.iter().map(|v| v.variant.as_str()).collect();
    let mut pictures = Pictures::default();
    pictures.add("compare-time.svg", time(jobs, &variants, compared, size));
    pictures.add("compare-nodes.svg", nodes(jobs, size));
    pictures
}

/// The jobs both runs hold.
#[derive(Clone, Copy)]
struct Joined<'a> {
    compared: &'a Compared,
    /// `Jobs::partners` of the baseline's jobs in the current run's.
    partners: &'a [Option<usize>],
}

impl<'a> Joined<'a> {
    /// Each job of both runs, as (baseline, current), in the baseline's order.
    fn iter(self) -> impl Iterator<Item = (SavedJob<'a>, SavedJob<'a>)> {
        let (base, cur) = (&self.compared.baseline.jobs, &self.compared.current.jobs);
        base.iter()
            .zip(self.partners)
            .filter_map(|(b, &partner)| Some((b, cur.get(partner?))))
    }
}

/// Each timed job's ratio current / baseline of CPU time (y, log scale) against its baseline
/// time (x, log scale), a marker per job in its variant's look, ringed when its result changed;
/// the overall geometric mean (over instances, as `compare` judges it) as a line, its 95%
/// bootstrap interval as a band, and the lines of equal time and of the threshold and its
/// inverse. Beside the chart, on the same axis, each variant's own ratio and interval.
fn time(
    jobs: Joined,
    variants: &[&str],
    compared: &Compared,
    size: PlotSize,
) -> Result<String, String> {
    let c = &compared.comparison;
    let place: HashMap<&str, usize> = variants.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let mut points: Vec<Vec<(f64, f64)>> = vec![Vec::new(); variants.len()];
    let mut rings = Vec::new();
    for (b, cur) in jobs.iter() {
        if timed(b.time_cpu_s, c.min_time_s) && timed(cur.time_cpu_s, c.min_time_s) {
            if let Some(&v) = place.get(b.variant) {
                let point = (b.time_cpu_s, cur.time_cpu_s / b.time_cpu_s);
                points[v].push(point);
                if changed(&b, &cur) {
                    rings.push(point);
                }
            }
        }
    }
    // Each variant's geometric mean and interval, drawn beside the chart in its look.
    let per_variant: Vec<VariantRatio> = c
        .variants
        .iter()
        .filter_map(|vc| {
            let v = *place.get(vc.variant.as_str())?;
            Some((v, vc.time.geomean?, vc.time.interval))
        })
        .collect();
    let all: Vec<(f64, f64)> = points.iter().flatten().copied().collect();
    if all.is_empty() {
        return Err(format!(
            "no job took at least {} of CPU time in both runs",
            si(c.min_time_s, "s")
        ));
    }
    let overall = &c.overall.time;
    let (x_lo, x_hi) = all.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (x_lo, x_hi) = decades(x_lo, x_hi);
    // An axis even about 1, wide enough for every ratio, the interval and the thresholds.
    let reach = all
        .iter()
        .map(|p| p.1)
        .chain(overall.interval.iter().flat_map(|&(lo, hi)| [lo, hi]))
        .chain(per_variant.iter().flat_map(|&(_, g, i)| {
            [g].into_iter()
                .chain(i.into_iter().flat_map(|(lo, hi)| [lo, hi]))
        }))
        .chain([c.threshold])
        .map(|r| r.max(1.0 / r))
        .fold(1.5f64, f64::max)
        * 1.15;
    let ticks = ratio_ticks(1.0 / reach, reach);

    let mut entries: Vec<Entry> = variants
        .iter()
        .enumerate()
        .filter(|(v, _)| !points[*v].is_empty())
        .map(|(v, name)| Entry {
            colour: look(v).colour,
            line: false,
            marker: Some(look(v)),
            text: format!("{name} ({})", thousands(points[v].len())),
        })
        .collect();
    // As in compare's text: the interval of two runs taken apart leaves out the drift between
    // them. The interval has an entry of its own, so that no legend line is cut between its
    // two ends.
    let unpaired = match c.pairing {
        Pairing::Unpaired => " (unpaired runs)",
        Pairing::Paired { .. } => "",
    };
    let overall_text = match overall.geomean {
        Some(g) => format!("overall {}{unpaired}: {}", overall.verdict, ratio(g)),
        None => format!("overall {}{unpaired}: no ratio", overall.verdict),
    };
    entries.push(Entry {
        colour: BLACK,
        line: true,
        marker: None,
        text: overall_text,
    });
    entries.push(Entry {
        colour: GREY,
        line: false,
        marker: None,
        text: match (overall.geomean, overall.interval) {
            (_, Some((lo, hi))) => format!(
                "shaded: its 95% interval, {} to {}, over {} instances",
                ratio(lo),
                ratio(hi),
                thousands(overall.units)
            ),
            (Some(_), None) => "from a single instance: no interval".into(),
            (None, None) => "no interval".into(),
        },
    });
    if !rings.is_empty() {
        entries.push(Entry {
            colour: BLACK,
            line: false,
            marker: Some(RING),
            text: format!(
                "ringed: a job whose result changed ({})",
                thousands(rings.len())
            ),
        });
    }
    if !per_variant.is_empty() {
        entries.push(Entry {
            colour: BLACK,
            line: false,
            marker: None,
            text: "right: each variant's ratio and 95% interval, in its look".into(),
        });
    }
    entries.push(Entry {
        colour: GREY,
        line: true,
        marker: None,
        text: format!(
            "equal time (1) and the threshold {} and its inverse {}",
            ratio(c.threshold),
            ratio(1.0 / c.threshold)
        ),
    });
    let verdict = match overall.verdict {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        Verdict::Unchanged => "unchanged",
        Verdict::Inconclusive => "inconclusive",
    };
    let mark = match c.pairing {
        Pairing::Unpaired => " (unpaired)",
        Pairing::Paired { .. } => "",
    };
    let title = format!(
        "CPU time, current / baseline: {} jobs timed, overall {verdict}{mark}",
        thousands(all.len())
    );

    let frame = size.frame(&entries)?;
    picture(&frame, |_, top, bottom| {
        // The title over both panels, so that their y axes line up.
        let top = top.titled(&title, (FONT, 24)).map_err(drawing)?;
        let (left, right) = top.split_horizontally(frame.width - SIDE);
        let mut chart = ChartBuilder::on(&left)
            .margin(16)
            .margin_right(8)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(
                LogAxis::new(x_lo, x_hi, frame.x_pixels() - f64::from(SIDE), X_GAP),
                (1.0 / reach..reach)
                    .log_scale()
                    .with_key_points(ticks.clone()),
            )
            .map_err(drawing)?;
        house_mesh(&mut chart.configure_mesh())
            .x_desc("baseline CPU time per job (seconds, log scale)")
            .y_desc("CPU time ratio, current / baseline (log)")
            .x_label_formatter(&|v| si(*v, "s"))
            .y_label_formatter(&|v| ratio(*v))
            .draw()
            .map_err(drawing)?;
        let across = |y: f64| vec![(x_lo, y), (x_hi, y)];
        if let Some((lo, hi)) = overall.interval {
            chart
                .draw_series([Rectangle::new(
                    [(x_lo, lo), (x_hi, hi)],
                    GREY.mix(0.25).filled(),
                )])
                .map_err(drawing)?;
        }
        for y in [1.0, c.threshold, 1.0 / c.threshold] {
            chart
                .draw_series([PathElement::new(across(y), GREY.stroke_width(1))])
                .map_err(drawing)?;
        }
        if let Some(g) = overall.geomean {
            chart
                .draw_series([PathElement::new(across(g), BLACK.stroke_width(2))])
                .map_err(drawing)?;
        }
        for (v, mine) in points.iter().enumerate() {
            if !mine.is_empty() {
                let shown = uncrowded(&chart, mine);
                markers(&mut chart, &shown, look(v))?;
            }
        }
        if !rings.is_empty() {
            let shown = uncrowded(&chart, &rings);
            markers(&mut chart, &shown, RING)?;
        }
        side_panel(&right, &per_variant, reach, ticks, overall.geomean)?;
        draw_legend(&bottom, &entries)?;
        Ok(())
    })
}

/// The red of report.html's alarm: a job wrong or in error.
const ALARM: RGBColor = RGBColor(0xCC, 0x00, 0x00);

/// A variant's place in the run's order, its geometric mean ratio and its 95% interval.
type VariantRatio = (usize, f64, Option<(f64, f64)>);

/// The width of the panel right of compare-time.svg's chart: a column per variant.
const SIDE: u32 = 150;

/// The ring drawn around a job whose result changed.
const RING: Look = Look {
    colour: BLACK,
    shape: Shape::Ring,
    filled: false,
};

/// The panel right of the chart, on the same ratio axis: each variant's geometric mean as its
/// marker and its 95% interval as a bar in its colour, a column each in the run's order, and the
/// overall ratio as a line across.
fn side_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    per_variant: &[VariantRatio],
    reach: f64,
    ticks: Vec<f64>,
    overall: Option<f64>,
) -> Result<(), String> {
    if per_variant.is_empty() {
        return Ok(());
    }
    let n = per_variant.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .margin_left(0)
        .x_label_area_size(50)
        .y_label_area_size(0)
        .build_cartesian_2d(
            -0.5..n - 0.5,
            (1.0 / reach..reach).log_scale().with_key_points(ticks),
        )
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc("per variant")
        .axis_desc_style((FONT, 18))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()
        .map_err(drawing)?;
    if let Some(g) = overall {
        chart
            .draw_series([PathElement::new(
                vec![(-0.5, g), (n - 0.5, g)],
                BLACK.stroke_width(1),
            )])
            .map_err(drawing)?;
    }
    for (k, &(v, g, interval)) in per_variant.iter().enumerate() {
        let x = k as f64;
        let look = look(v);
        if let Some((lo, hi)) = interval {
            chart
                .draw_series([PathElement::new(
                    vec![(x, lo), (x, hi)],
                    look.colour.stroke_width(3),
                )])
                .map_err(drawing)?;
        }
        markers(&mut chart, &[(x, g)], look)?;
    }
    Ok(())
}

/// A ratio as the axis and legend write it: `1.5`, `0.667`, `12`.
fn ratio(r: f64) -> String {
    let digits = if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.3}")
    };
    let digits = if digits.contains('.') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        &digits
    };
    digits.to_string()
}

/// Tick values for a ratio axis from `lo` to `hi` (about 1): 1, 2 and 5 times the powers of ten,
/// with 1.1, 1.25, 1.5 and their inverses near 1 when the axis is narrow; at most about 12.
fn ratio_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let coarse: Vec<f64> = (-6..=6)
        .flat_map(|k| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(k)))
        .collect();
    let fine = [1.01, 1.02, 1.05, 1.1, 1.25, 1.5].map(|f: f64| [f, 1.0 / f]);
    let within = |v: &f64| *v >= lo && *v <= hi;
    let mut ticks: Vec<f64> = coarse.iter().copied().filter(within).collect();
    if ticks.len() < 6 {
        // Near 1 only what the axis leaves room for: an eighth of its half height at least.
        let room = hi.ln().max(-lo.ln()) / 8.0;
        let fine = fine.iter().flatten().copied();
        ticks.extend(fine.filter(|f| within(f) && f.ln().abs() >= room));
    }
    ticks.sort_by(f64::total_cmp);
    ticks.dedup();
    if ticks.len() > 12 {
        ticks.retain(|v| {
            let l = v.log10();
            (l - l.round()).abs() < 1e-9
        });
    }
    ticks
}

/// Each job's change in nodes generated: the ratio current / baseline (y, log scale, even about
/// 1, as narrow as the ratios allow, so that 1,000 more nodes on 100,000 stand off the line of
/// equal nodes) against its baseline nodes (x, log scale). Jobs whose results changed (status,
/// length or nodes) are drawn apart, on top, and jobs wrong or in error in either run apart
/// again, first in the legend.
fn nodes(jobs: Joined, size: PlotSize) -> Result<String, String> {
    let point = |b: &SavedJob, cur: &SavedJob| {
        let (x, y) = (
            (b.nodes_generated as f64).max(1.0),
            (cur.nodes_generated as f64).max(1.0),
        );
        (x, y / x)
    };
    let alarming = |j: &SavedJob| matches!(j.status, Status::Wrong | Status::Error);
    let (mut same, mut differ, mut bad) = (Vec::new(), Vec::new(), Vec::new());
    for (b, cur) in jobs.iter() {
        let p = point(&b, &cur);
        if alarming(&b) || alarming(&cur) {
            bad.push(p);
        } else if changed(&b, &cur) {
            differ.push(p);
        } else {
            same.push(p);
        }
    }
    let all = || same.iter().chain(&differ).chain(&bad);
    let (lo, hi) = all().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (lo, hi) = decades(lo, hi);
    let reach = all().map(|p| p.1.max(1.0 / p.1)).fold(1.05f64, f64::max) * 1.15;
    let ticks = ratio_ticks(1.0 / reach, reach);
    let unchanged_look = Look {
        colour: PALETTE[0],
        shape: Shape::Circle,
        filled: true,
    };
    let changed_look = Look {
        colour: PALETTE[3],
        shape: Shape::Diamond,
        filled: true,
    };
    let bad_look = Look {
        colour: ALARM,
        shape: Shape::Cross,
        filled: true,
    };
    let count = |n: usize| {
        if n > SCATTER_MARKERS {
            format!("{}; overlapping markers merged", thousands(n))
        } else {
            thousands(n)
        }
    };
    let mut entries = Vec::new();
    if !bad.is_empty() {
        entries.push(Entry {
            colour: ALARM,
            line: false,
            marker: Some(bad_look),
            text: format!("wrong or error in either run ({})", count(bad.len())),
        });
    }
    entries.extend([
        Entry {
            colour: unchanged_look.colour,
            line: false,
            marker: Some(unchanged_look),
            text: format!("same status, length and nodes ({})", count(same.len())),
        },
        Entry {
            colour: changed_look.colour,
            line: false,
            marker: Some(changed_look),
            text: format!("changed results ({})", count(differ.len())),
        },
        Entry {
            colour: GREY,
            line: true,
            marker: None,
            text: "1: equal nodes; above it the current run generated more".into(),
        },
    ]);
    let title = format!(
        "Nodes per job, current / baseline: {} of {} changed",
        thousands(differ.len() + bad.len()),
        thousands(same.len() + differ.len() + bad.len())
    );
    let frame = size.frame(&entries)?;
    picture(&frame, |_, top, bottom| {
        let mut chart = house_chart(&top, &title, 36, 70)
            .build_cartesian_2d(
                LogAxis::new(lo, hi, frame.x_pixels(), X_GAP),
                (1.0 / reach..reach).log_scale().with_key_points(ticks),
            )
            .map_err(drawing)?;
        house_mesh(&mut chart.configure_mesh())
            .x_desc("nodes generated in the baseline (log scale)")
            .y_desc("nodes ratio, current / baseline (log)")
            .x_label_formatter(&|v| si(*v, ""))
            .y_label_formatter(&|v| ratio(*v))
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series([PathElement::new(
                vec![(lo, 1.0), (hi, 1.0)],
                GREY.stroke_width(1),
            )])
            .map_err(drawing)?;
        for (points, look) in [
            (&same, unchanged_look),
            (&differ, changed_look),
            (&bad, bad_look),
        ] {
            if !points.is_empty() {
                let shown = uncrowded(&chart, points);
                markers(&mut chart, &shown, look)?;
            }
        }
        draw_legend(&bottom, &entries)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_their_ticks() {
        assert_eq!(ratio(1.5), "1.5");
        assert_eq!(ratio(1.0 / 1.5), "0.667");
        assert_eq!(ratio(1.0), "1");
        assert_eq!(ratio(12.34), "12");
        let close = |got: Vec<f64>, want: &[f64]| {
            got.len() == want.len() && got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9 * b)
        };
        let narrow = ratio_ticks(0.5, 2.0);
        assert!(
            close(
                narrow.clone(),
                &[0.5, 1.0 / 1.5, 0.8, 1.0 / 1.1, 1.0, 1.1, 1.25, 1.5, 2.0]
            ),
            "{narrow:?}"
        );
        let wide = ratio_ticks(0.009, 110.0);
        assert!(
            close(wide.clone(), &[0.01, 0.1, 1.0, 10.0, 100.0]),
            "{wide:?}"
        );
    }
}
