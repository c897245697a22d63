//! Cactus plots: for each variant, how many instances it solved within each CPU time or number
//! of nodes.

use super::style::*;
use super::Job;
use plotters::prelude::*;
use std::collections::{HashMap, HashSet};

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

/// At most this many panels of a domain and size each; beyond, a panel per domain.
const MOST_PANELS: usize = 6;
/// A panel's height by default, and its least when `--plot-size` is given.
const PANEL_HEIGHT: u32 = 330;
const LEAST_PANEL: u32 = 150;

/// One panel of a cactus plot: the jobs of one domain (and size), counted against its own
/// instances.
struct Panel<'a> {
    /// What its caption names: the domain, and the size when panels go by size.
    domain: &'a str,
    size: Option<&'a str>,
    instances: usize,
}

/// The panels of `jobs`, in the order their first job comes, and each job's panel: one per
/// (domain, size) when the run has several and at most `MOST_PANELS`, else one per domain. The
/// instances of a lone panel are not counted: its chart counts the run's.
fn panels<'a>(jobs: &[Job<'a>]) -> (Vec<Panel<'a>>, Vec<usize>) {
    let mut kinds: Vec<(&str, &str)> = Vec::new();
    for j in jobs {
        if kinds.len() > MOST_PANELS {
            break;
        }
        if !kinds.contains(&(j.domain, j.size)) {
            kinds.push((j.domain, j.size));
        }
    }
    let by_size = kinds.len() <= MOST_PANELS;
    let mut panels: Vec<Panel> = Vec::new();
    let mut of_job = Vec::with_capacity(jobs.len());
    for j in jobs {
        let size = by_size.then_some(j.size);
        let known = panels
            .iter()
            .position(|p| p.domain == j.domain && p.size == size);
        of_job.push(known.unwrap_or_else(|| {
            panels.push(Panel {
                domain: j.domain,
                size,
                instances: 0,
            });
            panels.len() - 1
        }));
    }
    if panels.len() > 1 {
        let mut seen = HashSet::new();
        for (j, &p) in jobs.iter().zip(&of_job) {
            if seen.insert((p, j.dataset, j.instance)) {
                panels[p].instances += 1;
            }
        }
    }
    (panels, of_job)
}

/// A cactus plot: for each variant, the number of instances it solved within each amount of
/// the measure, out of the run's `instances`; the title of an `unfinished` run says so in place
/// of the count. "Solved" is `Status::solved`, as in every report. A run of several domains, or
/// sizes, gets a panel for each, each counted against its own instances (see `panels`).
pub(super) fn cactus(
    jobs: &[Job],
    instances: usize,
    unfinished: Option<&str>,
    variants: &[String],
    measure: Measure,
    size: PlotSize,
) -> Result<String, String> {
    let (panels, of_job) = panels(jobs);
    // Each panel's solved values per variant.
    let mut solved: Vec<HashMap<&str, Vec<f64>>> = vec![HashMap::new(); panels.len()];
    for (r, &p) in jobs.iter().zip(&of_job) {
        if r.status.solved() {
            solved[p].entry(r.variant).or_default().push(measure.of(r));
        }
    }
    let all: Vec<f64> = solved
        .iter()
        .flat_map(|s| s.values().flatten())
        .copied()
        .collect();
    if all.is_empty() {
        return Err("no job of the run found a solution".into());
    }
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(0.0, f64::max);
    let (x_lo, x_hi) = decades(lo, hi);

    let entries: Vec<Entry> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| Entry {
            colour: look(i).colour,
            line: true,
            marker: Some(look(i)),
            text: format!(
                "{v} ({})",
                thousands(
                    solved
                        .iter()
                        .map(|s| s.get(v.as_str()).map_or(0, Vec::len))
                        .sum()
                )
            ),
        })
        .collect();
    // An unfinished run's count of instances is not the dataset's: its title says how many
    // jobs it has instead.
    let scope = unfinished.map_or_else(|| instances_text(instances), str::to_owned);
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
    let frame = match panels.len() {
        1 => size.frame(&entries)?,
        n => size.frame_of(&entries, n as u32 * PANEL_HEIGHT, n as u32 * LEAST_PANEL)?,
    };
    let axes = Axes {
        x: (x_lo, x_hi),
        x_pixels: frame.x_pixels(),
        x_desc,
        measure,
        variants,
    };
    picture(&frame, |_, top, bottom| {
        if panels.len() == 1 {
            axes.draw(&top, &title, instances, &mut solved[0])?;
        } else {
            let top = top.titled(&title, (FONT, 24)).map_err(drawing)?;
            let areas = top.split_evenly((panels.len(), 1));
            for ((area, panel), solved) in areas.iter().zip(&panels).zip(&mut solved) {
                let caption = match panel.size {
                    Some(size) if !size.is_empty() => format!("{} {size}", panel.domain),
                    _ => panel.domain.to_string(),
                };
                let caption = format!("{caption}: {}", instances_text(panel.instances));
                axes.draw(area, &caption, panel.instances, solved)?;
            }
        }
        draw_legend(&bottom, &entries)?;
        Ok(())
    })
}

/// What every panel of a cactus plot shares: its x axis and the variants.
struct Axes<'a> {
    x: (f64, f64),
    x_pixels: f64,
    x_desc: &'a str,
    measure: Measure,
    variants: &'a [String],
}

impl Axes<'_> {
    /// One chart on `area` under `title`: a line per variant of its `solved` values, on a y axis
    /// of `n` instances.
    fn draw(
        &self,
        area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
        title: &str,
        n: usize,
        solved: &mut HashMap<&str, Vec<f64>>,
    ) -> Result<(), String> {
        let (x_lo, x_hi) = self.x;
        let measure = self.measure;
        // Room on the right for the last tick label, centred on the right end of the x axis.
        let mut chart = house_chart(area, title, 36, 75)
            // Headroom above the top count, so that a marker there is not cut in half.
            .build_cartesian_2d(
                LogAxis::new(x_lo, x_hi, self.x_pixels, X_GAP),
                0.0..(n as f64 * 1.04 + 0.1),
            )
            .map_err(drawing)?;
        house_mesh(&mut chart.configure_mesh())
            .x_desc(self.x_desc)
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
        for (i, v) in self.variants.iter().enumerate() {
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
                growth(i, self.variants.len()),
            )?;
        }
        Ok(())
    }
}
