//! Cactus plots: for each variant, how many instances it solved within each CPU time or number
//! of nodes.

use super::style::*;
use super::Job;
use plotters::prelude::*;
use std::collections::HashMap;

/// What a cactus plot counts along its x axis.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Measure {
    Time,
    Nodes,
}

impl Measure {
    pub(super) fn of(self, r: &Job) -> f64 {
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

/// A cactus plot: for each variant, the number of instances it solved within each amount of
/// the measure, out of the run's `instances`; the title of an `unfinished` run says so in place
/// of the count. "Solved" is a job that found a checked solution (`solved` or `suboptimal`).
pub(super) fn cactus(
    jobs: &[Job],
    instances: usize,
    unfinished: Option<&str>,
    variants: &[String],
    measure: Measure,
) -> Result<String, String> {
    let mut solved: HashMap<&str, Vec<f64>> = HashMap::new();
    for r in jobs {
        if r.status.solved() {
            solved.entry(r.variant).or_default().push(measure.of(r));
        }
    }
    let all: Vec<f64> = solved.values().flatten().copied().collect();
    if all.is_empty() {
        return Err("no job of the run found a solution".into());
    }
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(0.0, f64::max);
    let (x_lo, x_hi) = decades(lo, hi);
    let n = instances;

    let entries: Vec<Entry> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| Entry {
            colour: look(i).colour,
            line: true,
            marker: Some(look(i)),
            text: format!(
                "{v} ({})",
                thousands(solved.get(v.as_str()).map_or(0, Vec::len))
            ),
        })
        .collect();
    // An unfinished run's count of instances is not the dataset's: its title says how many
    // jobs it has instead.
    let scope = unfinished.map_or_else(|| instances_text(n), str::to_owned);
    let (title, x_desc) = match measure {
        Measure::Time => (
            format!("Instances solved within a CPU time ({scope})"),
            "CPU time per job (seconds, log scale)",
        ),
        Measure::Nodes => (
            format!("Instances solved within a number of nodes ({scope})"),
            "nodes generated per job (log scale)",
        ),
    };
    let height = CHART_HEIGHT + legend_height(&entries);
    picture(height, |_, top, bottom| {
        // Room on the right for the last tick label, centred on the right end of the x axis.
        let mut chart = house_chart(&top, &title, 36, 75)
            // Headroom above the top count, so that a marker there is not cut in half.
            .build_cartesian_2d(
                LogAxis::new(x_lo, x_hi, X_PIXELS, X_GAP),
                0.0..(n as f64 * 1.04 + 0.1),
            )
            .map_err(drawing)?;
        house_mesh(&mut chart.configure_mesh())
            .x_desc(x_desc)
            .y_desc("instances solved (count)")
            .x_label_formatter(&|v| measure.label(*v))
            // Counts are whole: a tick between them (plotters may choose one) is left blank.
            // From 10,000 on they are written `20 k`, short enough for the label area.
            .y_label_formatter(&|v| match v.fract() == 0.0 {
                true if *v >= 1e4 => si(*v, ""),
                true => format!("{v:.0}"),
                false => String::new(),
            })
            .y_labels(n.min(10) + 1)
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
            let points = visible(&chart, &points);
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    look.colour.stroke_width(2),
                ))
                .map_err(drawing)?;
            grown_markers(
                &mut chart,
                &spread(&points),
                look,
                growth(i, variants.len()),
            )?;
        }
        draw_legend(&bottom, &entries)?;
        Ok(())
    })
}
