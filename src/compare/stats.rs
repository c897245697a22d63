//! Judging CPU times: geometric means of the ratios, a percentile bootstrap of their interval
//! (over jobs for two runs; over jobs and rounds, crossed, for paired measurements), and the
//! verdict it gives against the threshold.

use crate::util::rng::Rng;
use std::fmt;

/// The time verdict, from where the 95% interval of the geometric-mean ratio lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval is below 1 / threshold.
    Improved,
    /// The whole interval is within [1 / threshold, threshold].
    Unchanged,
    /// The interval straddles a threshold, or there are fewer than 2 ratios.
    Inconclusive,
    /// The whole interval is above the threshold.
    Regressed,
}

impl Verdict {
    /// The verdict of a ratio's interval; inconclusive without one.
    fn of(interval: Option<(f64, f64)>, threshold: f64) -> Verdict {
        let Some((low, high)) = interval else {
            return Verdict::Inconclusive;
        };
        if high < 1.0 / threshold {
            Verdict::Improved
        } else if low > threshold {
            Verdict::Regressed
        } else if low >= 1.0 / threshold && high <= threshold {
            Verdict::Unchanged
        } else {
            Verdict::Inconclusive
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.pad(match self {
            Verdict::Improved => "improved",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Regressed => "regressed",
        })
    }
}

/// CPU time of the jobs where both runs measured at least `CompareOptions::min_time_s`, whether or
/// not their results changed: a job that now hits the time limit is slower, and dropping it would
/// hide that.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeStats {
    /// Jobs that gave a ratio current / baseline.
    pub timed: usize,
    /// Jobs in both runs that gave none: under the timing floor (or unmeasured) in either run.
    pub untimed: usize,
    /// What the bootstrap resamples: a variant's timed jobs, or overall the instances (dataset,
    /// instance) with at least one timed job, each standing for the geometric mean of its jobs'
    /// ratios across variants.
    pub units: usize,
    /// Geometric mean of the units' ratios; `None` without any.
    pub geomean: Option<f64>,
    /// 95% bootstrap interval of the geometric mean; `None` with fewer than 2 units.
    pub interval: Option<(f64, f64)>,
    pub verdict: Verdict,
}

/// How many bootstrap resamples: enough that the 2.5% tails hold 50 resamples each.
const RESAMPLES: usize = 2000;

/// Judges the log-ratios `units` (a variant's jobs, or the instances' means);
/// `timed` and `untimed` count jobs, for the report.
pub(super) fn time_stats(
    units: &[f64],
    timed: usize,
    untimed: usize,
    threshold: f64,
    seed: u64,
) -> TimeStats {
    let n = units.len();
    let geomean = (n > 0).then(|| mean(units).exp());
    let interval = (n >= 2).then(|| bootstrap_interval(units, seed));
    let verdict = Verdict::of(interval, threshold);
    TimeStats {
        timed,
        untimed,
        units: n,
        geomean,
        interval,
        verdict,
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// Percentile interval of the geometric mean: resample the log-ratios with replacement, take
/// each resample's mean, and read the 2.5% and 97.5% points.
pub(super) fn bootstrap_interval(log_ratios: &[f64], seed: u64) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let n = log_ratios.len();
    let mut sample = vec![0.0; n];
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for x in &mut sample {
                *x = log_ratios[rng.below(n as u64) as usize];
            }
            mean(&sample)
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let tail = RESAMPLES / 40;
    (means[tail].exp(), means[RESAMPLES - 1 - tail].exp())
}

/// Log-ratios of paired measurements: `cells[unit][round]`, `None` where that unit gave no ratio
/// in that round (under the timing floor, or missing).
pub(super) type Cells = Vec<Vec<Option<f64>>>;

/// Judges paired log-ratios: the geometric mean over every cell, and an interval by
/// `crossed_interval`. `timed` and `untimed` count measured pairs, for the report.
pub(super) fn paired_time_stats(
    cells: &Cells,
    timed: usize,
    untimed: usize,
    threshold: f64,
    seed: u64,
) -> TimeStats {
    let present: Vec<f64> = cells.iter().flatten().flatten().copied().collect();
    let units = cells
        .iter()
        .filter(|unit| unit.iter().any(Option::is_some))
        .count();
    let rounds = (0..cells.first().map_or(0, Vec::len))
        .filter(|&r| cells.iter().any(|unit| unit[r].is_some()))
        .count();
    let geomean = (!present.is_empty()).then(|| mean(&present).exp());
    // Two cells in one unit and one round would be the same pair counted twice: there is no
    // spread to resample.
    let interval =
        (present.len() >= 2 && (units >= 2 || rounds >= 2)).then(|| crossed_interval(cells, seed));
    let verdict = Verdict::of(interval, threshold);
    TimeStats {
        timed,
        untimed,
        units,
        geomean,
        interval,
        verdict,
    }
}

/// Percentile interval of the mean log-ratio by a crossed bootstrap: each resample draws the
/// rounds with replacement and, independently, the units with replacement, and averages the
/// cells where a drawn unit meets a drawn round (each as often as both were drawn). A disturbance
/// shared by one round (the machine slower for a while) moves that round's cells together and is
/// drawn as one piece, as is a unit that is slow in every round: neither is counted as many
/// independent observations. Resamples that meet no present cell are skipped.
pub(super) fn crossed_interval(cells: &Cells, seed: u64) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let units = cells.len();
    let rounds = cells.first().map_or(0, Vec::len);
    let mut unit_weight = vec![0u32; units];
    let mut round_weight = vec![0u32; rounds];
    let mut means = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        unit_weight.fill(0);
        round_weight.fill(0);
        for _ in 0..units {
            unit_weight[rng.below(units as u64) as usize] += 1;
        }
        for _ in 0..rounds {
            round_weight[rng.below(rounds as u64) as usize] += 1;
        }
        let (mut sum, mut weight) = (0.0, 0.0);
        for (unit, &u) in cells.iter().zip(&unit_weight) {
            if u == 0 {
                continue;
            }
            for (cell, &r) in unit.iter().zip(&round_weight) {
                if let (Some(x), true) = (cell, r > 0) {
                    let w = f64::from(u * r);
                    sum += w * x;
                    weight += w;
                }
            }
        }
        if weight > 0.0 {
            means.push(sum / weight);
        }
    }
    if means.is_empty() {
        // Only when the present cells are too few to meet by chance: nothing is known.
        return (0.0, f64::INFINITY);
    }
    means.sort_by(f64::total_cmp);
    let tail = means.len() / 40;
    let high = means.len().saturating_sub(1 + tail);
    (means[tail].exp(), means[high].exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::fixtures::*;
    use crate::compare::{compare, CompareOptions, RenderFormat};
    use crate::error::Done;

    #[test]
    fn a_uniform_slowdown_beyond_the_threshold_regresses() {
        let c = compare(&baseline(), &scaled(|_| 1.5), &CompareOptions::default());
        assert_eq!(c.overall.time.verdict, Verdict::Regressed);
        assert!(c
            .variants
            .iter()
            .all(|s| s.time.verdict == Verdict::Regressed));
        assert!((c.overall.time.geomean.unwrap() - 1.5).abs() < 1e-9);
        assert_eq!(c.done(), Done::Regressed);
        assert!(c.render(RenderFormat::Text).contains(
            "\nFAIL (exit 3): overall time regressed; time regressed in 2 of 2 variants"
        ));
    }

    #[test]
    fn a_regression_in_one_variant_is_reported_but_only_the_overall_verdict_fails() {
        let c = compare(
            &baseline(),
            &scaled(|i| if i < 20 { 1.0 } else { 1.15 }),
            &CompareOptions::default(),
        );
        assert_eq!(c.variants[0].time.verdict, Verdict::Unchanged);
        assert_eq!(c.variants[1].time.verdict, Verdict::Regressed);
        // Every instance: sqrt(1.15), within the threshold.
        assert_eq!(c.overall.time.verdict, Verdict::Unchanged);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(RenderFormat::Text);
        assert!(
            text.contains(
                "OK; time regressed in 1 of 2 variants (manhattan/next/prune), reported but not gating;"
            ),
            "{text}"
        );
        let row: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("manhattan/next/prune "))
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(
            row,
            [
                "manhattan/next/prune",
                "20",
                "0",
                "0",
                "0",
                "20",
                "1.150",
                "[1.150,",
                "1.150]",
                "regressed",
                "(unpaired)"
            ]
        );
    }

    #[test]
    fn a_uniform_speedup_improves() {
        let c = compare(&baseline(), &scaled(|_| 0.6), &CompareOptions::default());
        assert_eq!(c.overall.time.verdict, Verdict::Improved);
        assert_eq!(c.done(), Done::Ok);
    }

    #[test]
    fn noise_straddling_the_threshold_is_inconclusive() {
        let c = compare(
            &baseline(),
            &scaled(|i| if i % 2 == 0 { 0.8 } else { 1.5 }),
            &CompareOptions::default(),
        );
        let (low, high) = c.overall.time.interval.unwrap();
        assert!(low < 1.1 && 1.1 < high, "{low} {high}");
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
        assert!(c
            .variants
            .iter()
            .all(|s| s.time.verdict == Verdict::Inconclusive));
        assert_eq!(c.done(), Done::Ok);
    }

    #[test]
    fn untimed_jobs_and_single_ratios_are_inconclusive() {
        let base = baseline();
        let mut cur = scaled(|_| 2.0);
        for r in cur.jobs.figures_mut().skip(1) {
            r.time_cpu_s = 0.0;
        }
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(c.variants[0].time.timed, 1);
        assert_eq!(c.variants[0].time.untimed, 19);
        assert_eq!(c.variants[0].time.interval, None);
        assert_eq!(c.variants[0].time.verdict, Verdict::Inconclusive);
        assert_eq!(c.variants[1].time.geomean, None);
        assert_eq!(c.overall.time.units, 1);
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(RenderFormat::Text);
        assert!(
            text.contains("ratio 2.000 from a single instance"),
            "{text}"
        );
    }

    #[test]
    fn the_bootstrap_is_fixed_by_the_seed() {
        let cur = scaled(|i| 1.0 + (i % 5) as f64 / 10.0);
        let once = compare(&baseline(), &cur, &CompareOptions::default());
        let again = compare(&baseline(), &cur, &CompareOptions::default());
        assert_eq!(once.overall.time, again.overall.time);
    }
}
