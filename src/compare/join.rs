//! Joining two runs on (dataset, instance, variant): changed results, jobs in one run only,
//! per-variant and overall tallies, and what the manifests say about how comparable the runs are.

use super::stats::{time_stats, TimeStats, Verdict};
use super::{
    Changes, CompareError, CompareOptions, Comparison, Field, JobKey, Keys, Pairing, SavedJob,
    SavedRun, Value, VariantComparison, Warning,
};
use crate::results::record::Status;
use crate::results::repetitions;
use std::collections::{HashMap, HashSet};

/// A dataset of the same name must be the same file in both runs: otherwise jobs would be joined
/// on instance ids that name different states.
pub(super) fn check_same_datasets(base: &SavedRun, cur: &SavedRun) -> Result<(), CompareError> {
    let (Some(bm), Some(cm)) = (&base.manifest, &cur.manifest) else {
        return Ok(());
    };
    for b in &bm.datasets {
        if let Some(c) = cm.datasets.iter().find(|c| c.name == b.name) {
            if c.content() != b.content() {
                return Err(CompareError::DifferentDatasets {
                    name: b.name.clone(),
                    baseline: base.source.clone(),
                    baseline_sha256: b.content(),
                    current: cur.source.clone(),
                    current_sha256: c.content(),
                });
            }
        }
    }
    Ok(())
}

/// Per-variant tallies while joining.
struct VariantTally {
    summary: VariantComparison,
    log_ratios: Vec<f64>,
    untimed: usize,
    /// The compared jobs' CPU spreads in each run (those run with repetitions).
    spreads: [Vec<f64>; 2],
}

impl VariantTally {
    fn new(variant: &str) -> VariantTally {
        VariantTally {
            summary: VariantComparison {
                variant: variant.to_owned(),
                jobs_compared: 0,
                changed: 0,
                missing_in_current: 0,
                missing_in_baseline: 0,
                time: TimeStats {
                    timed: 0,
                    untimed: 0,
                    units: 0,
                    geomean: None,
                    interval: None,
                    verdict: Verdict::Inconclusive,
                },
                cpu_spread: [None; 2],
                cpu_spread_max: [None; 2],
            },
            log_ratios: Vec::new(),
            untimed: 0,
            spreads: [Vec::new(), Vec::new()],
        }
    }

    /// The summary, with the time judged by a bootstrap over `units` (log-ratios); `None`
    /// stands for the tally's own jobs.
    fn finish(mut self, units: Option<&[f64]>, threshold: f64, seed: u64) -> VariantComparison {
        let units = units.unwrap_or(&self.log_ratios);
        self.summary.time = time_stats(units, self.log_ratios.len(), self.untimed, threshold, seed);
        self.summary.cpu_spread_max = self
            .spreads
            .each_ref()
            .map(|s| s.iter().copied().reduce(f64::max));
        self.summary.cpu_spread = self
            .spreads
            .map(|mut s| (!s.is_empty()).then(|| repetitions::median(&mut s)));
        self.summary
    }
}

/// The log-ratios of each instance (dataset, instance), across variants, in the order the
/// instances were first met.
#[derive(Default)]
struct ByInstance<'a> {
    /// Sum of the log-ratios and their count.
    sums: Vec<(f64, usize)>,
    index: HashMap<(&'a str, &'a str), usize>,
}

impl<'a> ByInstance<'a> {
    fn add(&mut self, job: &SavedJob<'a>, log_ratio: f64) {
        let next = self.sums.len();
        let i = *self
            .index
            .entry((job.dataset, job.instance))
            .or_insert(next);
        if i == next {
            self.sums.push((0.0, 0));
        }
        self.sums[i].0 += log_ratio;
        self.sums[i].1 += 1;
    }

    /// Each instance's mean log-ratio: the log of the geometric mean of its ratios.
    fn log_means(&self) -> Vec<f64> {
        self.sums.iter().map(|&(sum, n)| sum / n as f64).collect()
    }
}

/// The tallies in the order their variants were first met.
#[derive(Default)]
struct VariantTallies {
    list: Vec<VariantTally>,
    index: HashMap<String, usize>,
}

impl VariantTallies {
    fn of(&mut self, variant: &str) -> &mut VariantTally {
        let i = match self.index.get(variant) {
            Some(&i) => i,
            None => {
                self.list.push(VariantTally::new(variant));
                self.index.insert(variant.to_owned(), self.list.len() - 1);
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }
}

/// Joins the runs on `SavedJob::key()`. Pure: manifests only feed `warnings`; the input checks
/// that can fail are `run`'s.
pub fn compare(base: &SavedRun, cur: &SavedRun, opts: &CompareOptions) -> Comparison {
    let partners = base.jobs.partners(&cur.jobs);
    let mut tallies = VariantTallies::default();
    let mut instances = ByInstance::default();
    let mut changes = Changes::default();
    let mut missing_in_current = Keys::default();
    let mut in_base = vec![false; cur.jobs.len()];
    for ((i, b), partner) in base.jobs.iter().enumerate().zip(partners) {
        let t = tallies.of(b.variant);
        let Some(k) = partner else {
            t.summary.missing_in_current += 1;
            missing_in_current.push(JobKey::of(&b));
            continue;
        };
        in_base[k] = true;
        let c = cur.jobs.get(k);
        t.summary.jobs_compared += 1;
        for (spreads, spread) in t
            .spreads
            .iter_mut()
            .zip([base.jobs.spread(i), cur.jobs.spread(k)])
        {
            spreads.extend(spread);
        }
        let before = changes.len();
        for (field, baseline, current) in field_changes(&b, &c) {
            changes.push(JobKey::of(&b), field, baseline, current);
        }
        if changes.len() > before {
            t.summary.changed += 1;
        }
        let floor = opts.min_time_s;
        if timed(b.time_cpu_s, floor) && timed(c.time_cpu_s, floor) {
            let log_ratio = (c.time_cpu_s / b.time_cpu_s).ln();
            t.log_ratios.push(log_ratio);
            instances.add(&b, log_ratio);
        } else {
            t.untimed += 1;
        }
    }
    let mut missing_in_baseline = Keys::default();
    for (c, _) in cur.jobs.iter().zip(in_base).filter(|(_, seen)| !seen) {
        let t = tallies.of(c.variant);
        t.summary.missing_in_baseline += 1;
        missing_in_baseline.push(JobKey::of(&c));
    }

    let mut overall = VariantTally::new("overall");
    for t in &tallies.list {
        overall.log_ratios.extend(&t.log_ratios);
        overall.untimed += t.untimed;
        for (all, spreads) in overall.spreads.iter_mut().zip(&t.spreads) {
            all.extend(spreads);
        }
        let (o, s) = (&mut overall.summary, &t.summary);
        o.jobs_compared += s.jobs_compared;
        o.changed += s.changed;
        o.missing_in_current += s.missing_in_current;
        o.missing_in_baseline += s.missing_in_baseline;
    }
    // Each group is resampled from the same seed, so a variant's interval does not depend on
    // which other variants the runs hold.
    let variants = tallies
        .list
        .into_iter()
        .map(|t| t.finish(None, opts.time_threshold, opts.seed))
        .collect();
    Comparison {
        baseline: base.source.clone(),
        current: cur.source.clone(),
        threshold: opts.time_threshold,
        min_time_s: opts.min_time_s,
        allow_node_changes: opts.allow_node_changes,
        variants,
        overall: overall.finish(Some(&instances.log_means()), opts.time_threshold, opts.seed),
        changes,
        missing_in_current,
        missing_in_baseline,
        warnings: manifest_warnings(base, cur),
        pairing: Pairing::Unpaired,
        incomplete: None,
        repetitions: [base, cur].map(|run| run.jobs.most_repetitions()),
    }
}

/// A CPU time worth a ratio: measured, and at least the floor.
pub fn timed(time_s: f64, floor: f64) -> bool {
    time_s.is_finite() && time_s > 0.0 && time_s >= floor
}

/// The fields of a job that differ between two of its records, each with its value in `b` and
/// in `c`. A search stopped by `--time-limit` in either stops at a node that depends on the
/// machine's speed, not on the code: its node counts are not compared (its status is, so a job
/// solved in one and timed out in the other is still a change). Stopped by it in both, nor is
/// the length of the solution it may hold (the best one a policy that overshoots found before
/// the stop). A node limit stops at the same node every time, and its counts and solution are
/// compared exactly.
pub(super) fn field_changes(
    b: &SavedJob,
    c: &SavedJob,
) -> impl Iterator<Item = (Field, Value, Value)> {
    let timed_out = b.status == Status::TimeLimit || c.status == Status::TimeLimit;
    let both_timed_out = b.status == Status::TimeLimit && c.status == Status::TimeLimit;
    let fields = [
        (
            Field::Status,
            Value::Status(b.status),
            Value::Status(c.status),
        ),
        (
            Field::Length,
            Value::Length(b.length),
            Value::Length(c.length),
        ),
        (
            Field::NodesGenerated,
            Value::Count(b.nodes_generated),
            Value::Count(c.nodes_generated),
        ),
        (
            Field::NodesExpanded,
            Value::Count(b.nodes_expanded),
            Value::Count(c.nodes_expanded),
        ),
    ];
    fields
        .into_iter()
        .filter(move |(field, _, _)| match field {
            Field::NodesGenerated | Field::NodesExpanded => !timed_out,
            Field::Length => !both_timed_out,
            Field::Status => true,
        })
        .filter(|(_, before, after)| before != after)
}

/// Whether a job's results differ between two of its records: whether `compare` lists it.
pub fn changed(b: &SavedJob, c: &SavedJob) -> bool {
    field_changes(b, c).next().is_some()
}

fn manifest_warnings(base: &SavedRun, cur: &SavedRun) -> Vec<Warning> {
    let (bm, cm) = match (&base.manifest, &cur.manifest) {
        (Some(bm), Some(cm)) => (bm, cm),
        (b, c) => {
            // Without both manifests neither the datasets nor the machines can be checked.
            return [(b, &base.source), (c, &cur.source)]
                .into_iter()
                .filter(|(m, _)| m.is_none())
                .map(|(_, source)| Warning::NoManifest {
                    source: source.clone(),
                })
                .collect();
        }
    };
    // The limits decide which jobs run to their end: under other limits, statuses and times
    // differ for reasons that are not the code's.
    let mut warnings: Vec<Warning> = [
        ("cpu_model", bm.cpu_model.clone(), cm.cpu_model.clone()),
        (
            "build_profile",
            bm.build_profile.clone(),
            cm.build_profile.clone(),
        ),
        (
            "idabench_version",
            bm.idabench_version.clone(),
            cm.idabench_version.clone(),
        ),
        ("max_nodes", limit(bm.max_nodes), limit(cm.max_nodes)),
        // By clock: the same seconds of CPU and of wall time are other limits.
        (
            "time limit",
            bm.limits().time_text(),
            cm.limits().time_text(),
        ),
    ]
    .into_iter()
    .filter(|(_, b, c)| b != c)
    .map(|(field, baseline, current)| Warning::Differs {
        field,
        baseline,
        current,
    })
    .collect();
    // A dataset of one run only leaves its jobs unmatched, which the job lists alone do not
    // explain. (One name with two contents is an error: `check_same_datasets`.)
    let [b, c] = [bm, cm].map(|m| {
        m.datasets
            .iter()
            .map(|d| d.name.clone())
            .collect::<Vec<_>>()
    });
    if b.iter().collect::<HashSet<_>>() != c.iter().collect::<HashSet<_>>() {
        warnings.push(Warning::Datasets {
            baseline: b,
            current: c,
        });
    }
    warnings
}

/// A limit as manifests and `--resume` spell it: `none` when unset.
fn limit(value: Option<impl ToString>) -> String {
    value.map_or_else(|| "none".to_owned(), |v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::fixtures::*;
    use crate::compare::jobs::JobFigures;
    use crate::compare::stats::bootstrap_interval;
    use crate::compare::{FieldChange, RenderFormat};
    use crate::error::Done;

    #[test]
    fn a_run_compared_with_itself_is_clean() {
        let run = baseline();
        let c = compare(&run, &run, &CompareOptions::default());
        assert_eq!(c.done(), Done::Ok);
        assert_eq!(c.overall.jobs_compared, 40);
        assert_eq!(c.overall.time.verdict, Verdict::Unchanged);
        assert_eq!(c.overall.time.interval, Some((1.0, 1.0)));
        assert!(c
            .variants
            .iter()
            .all(|s| s.time.verdict == Verdict::Unchanged));
        assert!(c.changes.is_empty() && c.missing_in_current.is_empty());
        assert!(c.missing_in_baseline.is_empty());
        assert_eq!(
            c.variants
                .iter()
                .map(|s| s.variant.as_str())
                .collect::<Vec<_>>(),
            VARIANTS
        );
    }

    #[test]
    fn a_changed_node_count_fails_with_4_and_lists_the_job() {
        let base = baseline();
        let mut cur = baseline();
        cur.jobs[23].nodes_generated = 12345;
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(c.done(), Done::Wrong);
        assert_eq!(
            c.changes.iter().collect::<Vec<_>>(),
            [FieldChange {
                job: JobKey {
                    dataset: "korf100",
                    instance: "4",
                    variant: VARIANTS[1],
                },
                field: Field::NodesGenerated,
                baseline: Value::Count(1148),
                current: Value::Count(12345),
            }]
        );
        assert_eq!(c.variants[1].changed, 1);
        assert_eq!(c.overall.changed, 1);
        let text = c.render(RenderFormat::Text);
        assert!(text.contains("korf100  4  manhattan/next/prune  nodes_generated  1148  ->  12345"));
        assert!(text.contains("FAIL (exit 4)"));
        let md = c.render(RenderFormat::Markdown);
        assert!(md.contains(
            "| `korf100` | `4` | `manhattan/next/prune` | nodes_generated | 1148 | 12345 |"
        ));
    }

    #[test]
    fn every_changed_field_of_every_job_is_listed() {
        let base = baseline();
        let mut cur = baseline();
        cur.jobs[0].status = Status::NodeLimit;
        cur.jobs[0].length = None;
        cur.jobs[5].nodes_expanded += 1;
        let c = compare(&base, &cur, &CompareOptions::default());
        let listed: Vec<(&str, &str, String, String)> = c
            .changes
            .iter()
            .map(|ch| {
                (
                    ch.job.instance,
                    ch.field.name(),
                    ch.baseline.to_string(),
                    ch.current.to_string(),
                )
            })
            .collect();
        let shown = |i, f, b: &str, c: &str| (i, f, b.to_owned(), c.to_owned());
        assert_eq!(
            listed,
            [
                shown("1", "status", "solved", "node_limit"),
                shown("1", "length", "51", "-"),
                shown("6", "nodes_expanded", "466", "467"),
            ]
        );
        assert_eq!(c.overall.changed, 2);
    }

    #[test]
    fn node_counts_of_jobs_stopped_by_the_clock_are_not_compared() {
        let mut base = baseline();
        let mut cur = baseline();
        let stop = |r: &mut JobFigures, status: Status, nodes: u64| {
            r.status = status;
            r.length = None;
            r.nodes_generated = nodes;
            r.nodes_expanded = nodes - 1;
        };
        // Timed out in both builds, at different nodes and with different solutions found
        // before the stop: no change.
        stop(&mut base.jobs[0], Status::TimeLimit, 5000);
        stop(&mut cur.jobs[0], Status::TimeLimit, 7000);
        (base.jobs[0].length, cur.jobs[0].length) = (Some(60), Some(54));
        // Solved in one, timed out in the other: the status (and length) changed, as compare
        // lists it; the node counts at the stop are not listed.
        stop(&mut cur.jobs[1], Status::TimeLimit, 90);
        // A node limit stops at the same node every time: its counts are compared.
        stop(&mut base.jobs[2], Status::NodeLimit, 5000);
        stop(&mut cur.jobs[2], Status::NodeLimit, 5001);
        let c = compare(&base, &cur, &CompareOptions::default());
        let listed: Vec<(&str, &str)> = c
            .changes
            .iter()
            .map(|ch| (ch.job.instance, ch.field.name()))
            .collect();
        assert_eq!(
            listed,
            [
                ("2", "status"),
                ("2", "length"),
                ("3", "nodes_generated"),
                ("3", "nodes_expanded"),
            ]
        );
        assert_eq!(c.done(), Done::Wrong);
        // The same in ab's paired rounds: identical builds whose jobs time out at different
        // nodes in every round pass.
        let mut rounds = Vec::new();
        for nodes in [5000, 6000, 7000] {
            let (mut b, mut k) = (baseline(), baseline());
            stop(&mut b.jobs[0], Status::TimeLimit, nodes);
            stop(&mut k.jobs[0], Status::TimeLimit, nodes + 17);
            rounds.push((b, k));
        }
        let c = crate::compare::paired(&rounds, &CompareOptions::default());
        assert!(c.changes.is_empty(), "{:?}", c.changes);
        assert_eq!(c.done(), Done::Ok);
    }

    #[test]
    fn the_overall_interval_is_over_instances_not_over_pooled_jobs() {
        // Two instances as fast as before, two much slower, under every variant: the jobs of
        // one instance move together, so four instances are all the evidence there is.
        let factors = [1.0, 1.05, 1.6, 1.7];
        let (base, cur) = grid(4, 10, |i| factors[i - 1]);
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(c.overall.time.timed, 40);
        assert_eq!(c.overall.time.units, 4);
        let (low, high) = c.overall.time.interval.unwrap();
        assert!(low < 1.1 && high > 1.5, "{low} {high}");
        assert_eq!(c.overall.time.verdict, Verdict::Inconclusive);
        assert_eq!(c.done(), Done::Ok);
        // Resampling the 40 jobs as if independent would have called it a regression.
        let pooled: Vec<f64> = cur
            .jobs
            .iter()
            .map(|r| (r.time_cpu_s / 0.01).ln())
            .collect();
        let (low, _) = bootstrap_interval(&pooled, 1);
        assert!(low > 1.1, "{low}");
    }

    #[test]
    fn each_instance_weighs_the_same_however_many_variants_it_has_timed() {
        // Instance 1 twice as slow under both variants; instance 2 as fast as before, with one
        // job under the floor: the overall ratio is sqrt(2), not 2^(2/3).
        let (base, mut cur) = grid(2, 2, |i| if i == 1 { 2.0 } else { 1.0 });
        cur.jobs[3].time_cpu_s = 0.0005;
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(c.overall.time.timed, 3);
        assert_eq!(c.overall.time.untimed, 1);
        assert_eq!(c.overall.time.units, 2);
        assert!((c.overall.time.geomean.unwrap() - 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(c.variants[1].time.timed, 1);
        assert_eq!(c.variants[1].time.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn jobs_under_the_timing_floor_in_either_run_are_not_timed() {
        let mut base = baseline();
        let mut cur = scaled(|_| 2.0);
        // Variant 0: 19 jobs at 0.5 ms in the baseline, 1 ms now; only one ratio is left.
        for (b, c) in base.jobs.figures_mut().zip(cur.jobs.figures_mut()).take(19) {
            b.time_cpu_s = 0.0005;
            c.time_cpu_s = 0.001;
        }
        // Variant 1: one job under the floor in the current run only.
        cur.jobs[20].time_cpu_s = 0.0009;
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(
            (c.variants[0].time.timed, c.variants[0].time.untimed),
            (1, 19)
        );
        assert_eq!(c.variants[0].time.interval, None);
        assert_eq!(c.variants[0].time.verdict, Verdict::Inconclusive);
        assert_eq!(
            (c.variants[1].time.timed, c.variants[1].time.untimed),
            (19, 1)
        );
        assert_eq!(c.variants[1].time.verdict, Verdict::Regressed);
        assert_eq!((c.overall.time.timed, c.overall.time.untimed), (20, 20));
        // Instance 1 has no timed job left.
        assert_eq!(c.overall.time.units, 19);
        assert_eq!(c.overall.time.verdict, Verdict::Regressed);
        let text = c.render(RenderFormat::Text);
        assert!(
            text.contains("20 of 40 jobs not timed (under 1 ms of CPU time in either run)."),
            "{text}"
        );
        assert!(c
            .render(RenderFormat::Markdown)
            .contains("20 of 40 jobs not timed (under 1 ms"));
        assert!(c
            .render(RenderFormat::Csv)
            .contains("\noverall,40,0,0,0,20,20,"));

        let c = compare(
            &base,
            &cur,
            &CompareOptions {
                min_time_s: 0.0,
                ..CompareOptions::default()
            },
        );
        assert_eq!((c.overall.time.timed, c.overall.time.untimed), (40, 0));
        assert!(!c.render(RenderFormat::Text).contains("not timed"));
    }

    #[test]
    fn missing_jobs_are_listed_both_ways_and_do_not_fail() {
        let base = baseline();
        let mut records = baseline_records();
        let gone = JobKey::of(&base.jobs.get(3));
        records.remove(3);
        records.push(record(21, VARIANTS[0], 1.0));
        records.push(record(1, "zero/step1/none", 1.0));
        let cur = run_of(records, "cur");
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(c.missing_in_current.iter().collect::<Vec<_>>(), [gone]);
        assert_eq!(
            c.missing_in_baseline.iter().collect::<Vec<_>>(),
            [JobKey::of(&cur.jobs.get(39)), JobKey::of(&cur.jobs.get(40))]
        );
        assert_eq!(c.variants[0].missing_in_current, 1);
        assert_eq!(c.variants[0].missing_in_baseline, 1);
        assert_eq!(c.variants[2].variant, "zero/step1/none");
        assert_eq!(c.variants[2].missing_in_baseline, 1);
        assert_eq!(c.overall.missing_in_baseline, 2);
        assert_eq!(c.done(), Done::Ok);
        let text = c.render(RenderFormat::Text);
        assert!(text.contains("missing in current (1 job):\n  korf100  4  manhattan/step2/prune\n"));
        assert!(text.contains("new in current (not in baseline) (2 jobs):\n"));
        assert!(text.contains("\nOK; overall time unchanged"), "{text}");
        assert!(text.contains("1 missing in current, 2 new"), "{text}");
        let md = c.render(RenderFormat::Markdown);
        assert!(md.contains("#### missing in current (1 job)"));
    }

    #[test]
    fn new_jobs_alone_do_not_fail() {
        let base = baseline();
        let mut cur = baseline();
        cur.jobs.push(&record(21, VARIANTS[0], 1.0));
        assert_eq!(
            compare(&base, &cur, &CompareOptions::default()).done(),
            Done::Ok
        );
    }

    /// The warnings as a terminal shows them.
    fn shown(warnings: &[Warning]) -> Vec<String> {
        warnings.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn differing_manifests_give_warnings() {
        let mut base = baseline();
        let mut cur = baseline();
        base.manifest = Some(manifest("Intel Xeon", "aa"));
        cur.manifest = Some(manifest("AMD EPYC", "aa"));
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(
            shown(&c.warnings),
            ["cpu_model differs: baseline `Intel Xeon`, current `AMD EPYC`"]
        );
        assert!(c
            .render(RenderFormat::Markdown)
            .contains("> warning: cpu_model differs"));
        cur.manifest = None;
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(
            shown(&c.warnings),
            ["no manifest.json for `base`: datasets and machines not checked"]
        );
    }

    #[test]
    fn differing_limits_and_datasets_give_warnings() {
        let mut base = baseline();
        let mut cur = baseline();
        let mut bm = manifest("cpu", "aa");
        let mut cm = bm.clone();
        bm.time_limit_s = Some(10.0);
        cm.max_nodes = Some(1_000_000);
        cm.time_limit_s = Some(2.5);
        let mut eight = cm.datasets[0].clone();
        eight.name = "eight".to_owned();
        cm.datasets.push(eight);
        base.manifest = Some(bm);
        cur.manifest = Some(cm);
        let c = compare(&base, &cur, &CompareOptions::default());
        assert_eq!(
            shown(&c.warnings),
            [
                "max_nodes differs: baseline `none`, current `1000000`",
                "time limit differs: baseline `10 s CPU`, current `2.5 s CPU`",
                "datasets differ: baseline `korf100`, current `korf100, eight`",
            ]
        );
        // The same seconds on another clock: a run from before CPU limits limited wall time.
        let mut old = base.manifest.clone().unwrap();
        old.time_limit_clock = None;
        let mut wall = cur.manifest.clone().unwrap();
        wall.time_limit_s = Some(10.0);
        let limits = |b: &crate::results::record::Manifest,
                      c: &crate::results::record::Manifest| {
            let (mut b_run, mut c_run) = (baseline(), baseline());
            b_run.manifest = Some(b.clone());
            c_run.manifest = Some(c.clone());
            shown(&compare(&b_run, &c_run, &CompareOptions::default()).warnings)
                .into_iter()
                .filter(|w| w.starts_with("time limit"))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            limits(&old, &wall),
            ["time limit differs: baseline `10 s wall`, current `10 s CPU`"]
        );
        wall.time_limit_s = None;
        wall.wall_limit_s = Some(10.0);
        assert!(limits(&old, &wall).is_empty(), "10 s wall both");
        // The same datasets listed in another order are the same datasets.
        let mut swapped = cur.manifest.clone().unwrap();
        swapped.datasets.reverse();
        base.manifest = Some(swapped);
        let c = compare(&base, &cur, &CompareOptions::default());
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }
}
