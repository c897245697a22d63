//! Judging paired measurements (`ab`): in each round every job was run by both builds back to
//! back, so each job's ratio in a round compares two times taken under the same conditions.
//!
//! A drift of the machine's speed (another process, frequency, heat) is shared by the two
//! measurements of a pair and cancels in their ratio; what is left is the noise between two
//! adjacent measurements. The interval resamples rounds and jobs, crossed (`crossed_interval`):
//! whatever one round shares (a slow spell that hit A and B unequally) counts once, not once per
//! job. Exact checks are `compare`'s, made in every round.

use super::join::{compare, field_changes, timed};
use super::stats::{paired_time_stats, Cells};
use super::{CompareOptions, Comparison, Field, JobKey, Jobs, Pairing, SavedRun};
use std::collections::{HashMap, HashSet};

/// How far an `ab` that stopped early got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Incomplete {
    /// Pairs measured.
    pub measured: usize,
    /// Pairs planned: rounds x jobs.
    pub planned: usize,
    /// Stopped by a signal; otherwise by an error.
    pub interrupted: bool,
}

/// Joins the rounds' pairs of runs, one `(baseline, current)` per round, each holding the same
/// jobs. Jobs, variants, missing jobs and the listing of changed results follow the first
/// round; a field that differs in any round is listed once (as it first differed). Time is
/// judged over every round. An empty `rounds` has nothing to judge: it gives an inconclusive
/// comparison of nothing.
pub fn paired(rounds: &[(SavedRun, SavedRun)], opts: &CompareOptions) -> Comparison {
    let empty = SavedRun {
        jobs: Jobs::default(),
        manifest: None,
        source: String::new(),
    };
    let (first_base, first_cur) = rounds.first().map_or((&empty, &empty), |(b, c)| (b, c));
    let mut c = compare(first_base, first_cur, opts);
    // The runs have no manifests of their own: `ab` checks the builds itself.
    c.warnings.clear();
    c.pairing = Pairing::Paired {
        rounds: rounds.len(),
    };

    // Every round's changes, each (job, field) once: those of the first round are `c`'s already.
    let mut seen: HashSet<(JobKey, Field)> = HashSet::new();
    for (round, (base, cur)) in rounds.iter().enumerate() {
        let partners = base.jobs.partners(&cur.jobs);
        for (b, partner) in base.jobs.iter().zip(partners) {
            if let Some(k) = partner {
                for (field, baseline, current) in field_changes(&b, &cur.jobs.get(k)) {
                    let job = JobKey::of(&b);
                    if seen.insert((job, field)) && round > 0 {
                        c.changes.push(job, field, baseline, current);
                    }
                }
            }
        }
    }
    let changed: HashSet<JobKey> = seen.iter().map(|&(job, _)| job).collect();
    for v in &mut c.variants {
        v.changed = changed.iter().filter(|j| j.variant == v.variant).count();
    }
    c.overall.changed = changed.len();

    // Time: per variant, a unit per instance; overall, a unit per instance whose cell in a round
    // is the mean of its variants' log-ratios in that round.
    let n = rounds.len();
    let mut per_variant: Vec<Tally> = c.variants.iter().map(|_| Tally::default()).collect();
    let variant_index: HashMap<&str, usize> = c
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| (v.variant.as_str(), i))
        .collect();
    let mut overall = Tally::default();
    // Sums and counts of each (instance, round) cell across variants.
    let mut instance_sums: Vec<Vec<(f64, usize)>> = Vec::new();
    let mut instances: HashMap<(String, String), usize> = HashMap::new();
    for (round, (base, cur)) in rounds.iter().enumerate() {
        let partners = base.jobs.partners(&cur.jobs);
        for (b, partner) in base.jobs.iter().zip(partners) {
            let Some(r) = partner.map(|k| cur.jobs.get(k)) else {
                continue;
            };
            let Some(&v) = variant_index.get(b.variant) else {
                continue;
            };
            let tally = &mut per_variant[v];
            let instance = (b.dataset.to_owned(), b.instance.to_owned());
            let unit = tally.unit(&instance, n);
            if !(timed(b.time_cpu_s, opts.min_time_s) && timed(r.time_cpu_s, opts.min_time_s)) {
                tally.untimed += 1;
                overall.untimed += 1;
                continue;
            }
            let log_ratio = (r.time_cpu_s / b.time_cpu_s).ln();
            tally.cells[unit][round] = Some(log_ratio);
            tally.timed += 1;
            overall.timed += 1;
            let next = instance_sums.len();
            let i = *instances.entry(instance).or_insert(next);
            if i == next {
                instance_sums.push(vec![(0.0, 0); n]);
            }
            instance_sums[i][round].0 += log_ratio;
            instance_sums[i][round].1 += 1;
        }
    }
    let (threshold, seed) = (opts.time_threshold, opts.seed);
    for (v, tally) in c.variants.iter_mut().zip(per_variant) {
        v.time = paired_time_stats(&tally.cells, tally.timed, tally.untimed, threshold, seed);
    }
    overall.cells = instance_sums
        .iter()
        .map(|unit| {
            unit.iter()
                .map(|&(sum, k)| (k > 0).then(|| sum / k as f64))
                .collect()
        })
        .collect();
    c.overall.time = paired_time_stats(
        &overall.cells,
        overall.timed,
        overall.untimed,
        threshold,
        seed,
    );
    c
}

/// One group's cells while joining: a unit per instance, in the order first met.
#[derive(Default)]
struct Tally {
    cells: Cells,
    units: HashMap<(String, String), usize>,
    timed: usize,
    untimed: usize,
}

impl Tally {
    /// The unit of `instance`, added (with `rounds` empty cells) when new.
    fn unit(&mut self, instance: &(String, String), rounds: usize) -> usize {
        if let Some(&u) = self.units.get(instance) {
            return u;
        }
        self.cells.push(vec![None; rounds]);
        self.units.insert(instance.clone(), self.cells.len() - 1);
        self.cells.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::fixtures::*;
    use crate::compare::{RenderFormat, Verdict};
    use crate::error::Done;
    use crate::util::rng::Rng;

    /// A normal draw (Box-Muller) from the test's generator.
    fn normal(rng: &mut Rng) -> f64 {
        let u = (rng.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
        let v = (rng.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// `rounds` rounds of the 20 x 2 fixture jobs in which the current build is `effect` times
    /// slower. The machine's speed drifts: every measurement of round `r` is scaled by a factor
    /// of its own (as much as 1.3x between rounds), slowly changing within the round, and each
    /// measurement has a noise of its own (log-sd `noise`). Measurements of a pair are adjacent,
    /// so they share the drift of their moment.
    fn drifting(rounds: usize, effect: f64, noise: f64, seed: u64) -> Vec<(SavedRun, SavedRun)> {
        let mut rng = Rng::new(seed);
        (0..rounds)
            .map(|r| {
                let round_speed = 1.0 + 0.3 * ((r * 7 % 5) as f64 / 4.0);
                let mut base = baseline();
                let mut cur = baseline();
                let jobs = base.jobs.len();
                let pairs = base.jobs.figures_mut().zip(cur.jobs.figures_mut());
                for (k, (b, c)) in pairs.enumerate() {
                    let now = round_speed * (1.0 + 0.1 * k as f64 / jobs as f64);
                    b.time_cpu_s *= now * (noise * normal(&mut rng)).exp();
                    c.time_cpu_s *= now * effect * (noise * normal(&mut rng)).exp();
                }
                cur.source = "cur".to_owned();
                (base, cur)
            })
            .collect()
    }

    #[test]
    fn the_paired_interval_covers_the_true_effect_despite_drift() {
        for (effect, seed) in [(1.0, 1), (1.03, 2), (1.10, 3), (0.95, 4)] {
            let rounds = drifting(8, effect, 0.05, seed);
            let c = paired(&rounds, &CompareOptions::default());
            let (low, high) = c.overall.time.interval.unwrap();
            assert!(low < effect && effect < high, "{effect}: [{low}, {high}]");
            assert!(high / low < 1.05, "{effect}: [{low}, {high}] is too wide");
            assert_eq!(c.overall.time.timed, 8 * 40);
            assert_eq!(c.overall.time.units, 20);
            assert_eq!(c.pairing, Pairing::Paired { rounds: 8 });
        }
    }

    #[test]
    fn unpaired_runs_taken_apart_are_flagged_and_their_interval_misses_the_truth() {
        // The same builds, same speed; the current run was taken in a slower spell (round 2's
        // drift against round 0's): compare's interval is narrow and wrong, and says so.
        let rounds = drifting(3, 1.0, 0.05, 5);
        let c = compare(&rounds[0].0, &rounds[2].1, &CompareOptions::default());
        let (low, _) = c.overall.time.interval.unwrap();
        assert!(low > 1.1, "{low}");
        assert_eq!(c.overall.time.verdict, Verdict::Regressed);
        assert_eq!(c.pairing, Pairing::Unpaired);
        for format in [RenderFormat::Text, RenderFormat::Markdown] {
            let out = c.render(format);
            assert!(out.contains("unpaired"), "{out}");
            assert!(out.contains("drift"), "{out}");
        }
        // Paired, the same drift is gone.
        let c = paired(&rounds, &CompareOptions::default());
        assert_eq!(c.overall.time.verdict, Verdict::Unchanged);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(RenderFormat::Text);
        assert!(!text.contains("unpaired"), "{text}");
        assert!(text.contains("3 rounds"), "{text}");
    }

    #[test]
    fn a_round_that_went_wrong_counts_once() {
        // Eight quiet rounds, and one where every pair came out 1.5x (a disturbance that hit the
        // current build's half of each pair): pooled as 360 independent pairs this would look
        // like a sure regression of about 5%; as one round of nine it is not.
        let mut rounds = drifting(9, 1.0, 0.01, 6);
        for r in rounds[4].1.jobs.figures_mut() {
            r.time_cpu_s *= 1.5;
        }
        let opts = CompareOptions {
            time_threshold: 1.02,
            ..CompareOptions::default()
        };
        let c = paired(&rounds, &opts);
        let (low, high) = c.overall.time.interval.unwrap();
        assert!(low < 1.02 && high > 1.02, "[{low}, {high}]");
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn changes_in_any_round_are_listed_once() {
        let mut rounds = drifting(3, 1.0, 0.0, 7);
        rounds[1].1.jobs[5].nodes_generated += 1;
        rounds[2].1.jobs[5].nodes_generated += 2;
        rounds[2].1.jobs[7].length = None;
        let c = paired(&rounds, &CompareOptions::default());
        let listed: Vec<(&str, &str)> = c
            .changes
            .iter()
            .map(|ch| (ch.job.instance, ch.field.name()))
            .collect();
        assert_eq!(listed, [("6", "nodes_generated"), ("8", "length")]);
        assert_eq!(c.overall.changed, 2);
        assert_eq!(c.variants[0].changed, 2);
        assert_eq!(c.done(), Done::Wrong);
    }

    #[test]
    fn untimed_pairs_are_counted_and_a_single_pair_is_inconclusive() {
        let mut rounds = drifting(2, 2.0, 0.0, 8);
        for (b, _) in &mut rounds {
            for r in b.jobs.figures_mut().skip(1) {
                r.time_cpu_s = 0.0;
            }
        }
        rounds[1].0.jobs[0].time_cpu_s = 0.0;
        let c = paired(&rounds, &CompareOptions::default());
        assert_eq!(c.overall.time.timed, 1);
        assert_eq!(c.overall.time.untimed, 79);
        assert_eq!(c.overall.time.interval, None);
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
    }
}
