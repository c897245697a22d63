//! `idabench compare` as CI uses it, on the committed baseline and edited copies of it, and the
//! pictures it writes with --out.

use crate::common::svg::*;
use crate::common::{assert_exit, baseline, csv_rows, idabench, run_tiny, text, Tmp, TINY};
use std::fs;
use std::path::{Path, PathBuf};

/// A copy of the baseline in `tmp/name` whose runs.csv went through `edit(column name, value,
/// row) -> value`.
fn edited_copy(tmp: &Tmp, name: &str, edit: impl Fn(&str, &str, usize) -> String) -> PathBuf {
    edited_copy_of(tmp, Path::new(&baseline()), name, edit)
}

/// A copy of the report directory `source` in `tmp/name` whose runs.csv went through `edit`.
fn edited_copy_of(
    tmp: &Tmp,
    source: &Path,
    name: &str,
    edit: impl Fn(&str, &str, usize) -> String,
) -> PathBuf {
    let dir = tmp.path().join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::copy(source.join("manifest.json"), dir.join("manifest.json")).unwrap();
    let mut reader = csv::Reader::from_path(source.join("runs.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let mut writer = csv::Writer::from_path(dir.join("runs.csv")).unwrap();
    writer.write_record(&headers).unwrap();
    for (i, row) in reader.records().enumerate() {
        let row = row.unwrap();
        let cells: Vec<String> = headers
            .iter()
            .zip(row.iter())
            .map(|(h, v)| edit(h, v, i))
            .collect();
        writer.write_record(&cells).unwrap();
    }
    writer.flush().unwrap();
    dir
}

/// Adds 1 to the count in `column` of the eighth job.
fn one_more(column: &'static str) -> impl Fn(&str, &str, usize) -> String {
    move |h, v, i| {
        if h == column && i == 7 {
            (v.parse::<u64>().unwrap() + 1).to_string()
        } else {
            v.to_string()
        }
    }
}

/// Multiplies every `time_cpu_s` by `factor`.
fn times(factor: f64) -> impl Fn(&str, &str, usize) -> String {
    move |h, v, _| {
        if h == "time_cpu_s" {
            (v.parse::<f64>().unwrap() * factor).to_string()
        } else {
            v.to_string()
        }
    }
}

/// A copy of the baseline with 10 ms added to every CPU time. Many committed jobs take
/// microseconds, under the 1 ms timing floor, and are not timed; with the offset every job is
/// timed, whatever machine made the baseline, so the tests below judge all 198 ratios.
fn timed_baseline(tmp: &Tmp) -> PathBuf {
    edited_copy(tmp, "base", |h, v, _| {
        if h == "time_cpu_s" {
            (v.parse::<f64>().unwrap() + 0.01).to_string()
        } else {
            v.to_string()
        }
    })
}

/// `compare BASE CURRENT --format csv` exits `code`, with an overall row that judges all 198
/// jobs timed (none changed or missing) `verdict`, unpaired.
fn assert_overall(tmp: &Tmp, base: &Path, current: &Path, code: i32, verdict: &str) {
    let out = idabench(
        tmp.path(),
        &[
            "compare",
            base.to_str().unwrap(),
            current.to_str().unwrap(),
            "--format",
            "csv",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(code), "{text}");
    let end = format!(",{verdict},overall,,,,,,unpaired,,");
    assert!(
        text.lines()
            .any(|l| l.starts_with("overall,198,0,0,0,198,0,") && l.ends_with(&end)),
        "{text}"
    );
}

#[test]
fn the_baseline_against_itself_is_ok() {
    let tmp = Tmp::new("compare");
    let out = idabench(tmp.path(), &["compare", &baseline(), &baseline()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("unchanged"), "{text}");
    // The 8-puzzle jobs of a few nodes take microseconds: too fast to time, and said so.
    assert!(
        text.contains("not timed (under 1 ms of CPU time in either run)"),
        "{text}"
    );
}

#[test]
fn an_edited_node_count_exits_4_and_names_the_job() {
    let tmp = Tmp::new("compare");
    let dir = edited_copy(&tmp, "nodes", one_more("nodes_generated"));
    let out = idabench(tmp.path(), &["compare", &baseline(), dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(text.contains("nodes_generated"), "{text}");
    let allowed = idabench(
        tmp.path(),
        &[
            "compare",
            &baseline(),
            dir.to_str().unwrap(),
            "--allow-node-changes",
        ],
    );
    assert_eq!(allowed.status.code(), Some(0));
}

#[test]
fn every_time_one_and_a_half_times_slower_exits_3() {
    let tmp = Tmp::new("compare");
    let base = timed_baseline(&tmp);
    let dir = edited_copy_of(&tmp, &base, "slow", times(1.5));
    assert_overall(&tmp, &base, &dir, 3, "regressed");
}

#[test]
fn a_noisy_mix_straddling_the_threshold_is_inconclusive_and_exits_0() {
    let tmp = Tmp::new("compare");
    // Rows run variant by variant within an instance: alternate by instance, so that every
    // variant sees a mix.
    let variants = 18;
    let base = timed_baseline(&tmp);
    let dir = edited_copy_of(&tmp, &base, "noisy", |h, v, i| {
        if h == "time_cpu_s" {
            let factor = if (i / variants) % 2 == 0 { 0.8 } else { 1.5 };
            (v.parse::<f64>().unwrap() * factor).to_string()
        } else {
            v.to_string()
        }
    });
    assert_overall(&tmp, &base, &dir, 0, "inconclusive");
}

#[test]
fn missing_jobs_are_listed_without_failing_and_bad_inputs_exit_2() {
    let tmp = Tmp::new("compare");
    let dir = edited_copy(&tmp, "missing", |_, v, _| v.to_string());
    let runs = fs::read_to_string(dir.join("runs.csv")).unwrap();
    let kept: Vec<&str> = runs.lines().take(runs.lines().count() - 3).collect();
    fs::write(dir.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    let out = idabench(tmp.path(), &["compare", &baseline(), dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    // Missing jobs are listed, but only changed results (status, length, node counts) exit 4.
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("missing in current (3 jobs):\n"), "{text}");
    let last = runs.lines().last().unwrap();
    let (dataset, rest) = last.split_once(',').unwrap();
    let (instance, rest) = rest.split_once(',').unwrap();
    let variant = rest.split(',').nth(2).unwrap();
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().eq([dataset, instance, variant])),
        "{text}"
    );
    assert!(text.contains("3 missing in current"), "{text}");

    let out = idabench(tmp.path(), &["compare", &baseline(), "/nonexistent/run"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/run"));
    fs::write(dir.join("runs.csv"), "dataset,instance\nnot,a,run\n").unwrap();
    let out = idabench(tmp.path(), &["compare", &baseline(), dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // The header is what is wrong, on line 1.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("runs.csv:1: not a runs.csv of idabench: the header lacks `domain`"),
        "{stderr}"
    );
}

#[test]
fn other_limits_are_a_warning_not_a_failure() {
    let tmp = Tmp::new("compare");
    let dir = edited_copy(&tmp, "limits", |_, v, _| v.to_string());
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"max_nodes\": 5000000,"));
    let manifest = manifest.replace("\"max_nodes\": 5000000,", "\"max_nodes\": null,");
    fs::write(dir.join("manifest.json"), manifest).unwrap();
    let out = idabench(tmp.path(), &["compare", &baseline(), dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l == "warning: max_nodes differs: baseline `5000000`, current `none`"),
        "{stderr}"
    );
}

#[test]
fn csv_output_lists_the_changed_jobs_under_the_summary() {
    let tmp = Tmp::new("compare");
    let dir = edited_copy(&tmp, "csv-changed", one_more("nodes_expanded"));
    let out = idabench(
        tmp.path(),
        &[
            "compare",
            &baseline(),
            dir.to_str().unwrap(),
            "--format",
            "csv",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{text}");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let header = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let cell = |row: &csv::StringRecord, name: &str| {
        row[header.iter().position(|h| h == name).unwrap()].to_string()
    };
    let changed: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| cell(r, "kind") == "changed")
        .collect();
    assert_eq!(changed.len(), 1, "{text}");
    assert_eq!(cell(changed[0], "field"), "nodes_expanded");
    let before: u64 = cell(changed[0], "baseline").parse().unwrap();
    assert_eq!(cell(changed[0], "current"), (before + 1).to_string());
    let overall = rows.iter().find(|r| cell(r, "kind") == "overall").unwrap();
    assert_eq!(cell(overall, "changed"), "1");
}

#[test]
fn a_negative_time_is_an_input_error_naming_line_and_column() {
    let tmp = Tmp::new("compare");
    let dir = edited_copy(&tmp, "negative", |h, v, i| {
        if h == "time_cpu_s" && i == 7 {
            "-0.001".to_string()
        } else {
            v.to_string()
        }
    });
    let out = idabench(tmp.path(), &["compare", &baseline(), dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "runs.csv:9: column `time_cpu_s`: expected a number of seconds from 0 to 1e9 (about 32 years), found -0.001"
        ),
        "{stderr}"
    );
}

/// The jobs of a report's runs.csv: (dataset, instance, variant) -> (CPU time, nodes generated).
fn jobs(dir: &Path) -> std::collections::HashMap<Vec<String>, (f64, f64)> {
    let mut reader = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (d, i, v, t, n) = (
        at("dataset"),
        at("instance"),
        at("variant"),
        at("time_cpu_s"),
        at("nodes_generated"),
    );
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let key = vec![r[d].to_string(), r[i].to_string(), r[v].to_string()];
            (key, (r[t].parse().unwrap(), r[n].parse().unwrap()))
        })
        .collect()
}

#[test]
fn out_writes_the_pictures_of_the_comparison() {
    let tmp = Tmp::new("compare");
    let base = timed_baseline(&tmp);
    // Every third job 1.5 times slower; two node counts changed.
    let cur = edited_copy_of(&tmp, &base, "current", |h, v, i| match h {
        "time_cpu_s" if i % 3 == 0 => (v.parse::<f64>().unwrap() * 1.5).to_string(),
        "nodes_generated" if i == 7 || i == 40 => (v.parse::<u64>().unwrap() * 3).to_string(),
        _ => v.to_string(),
    });
    // A folder of its own: a run's folder is refused (see cli_hostile).
    let pictures = tmp.path().join("pictures");
    let args = |extra: &[&str]| {
        let mut a = vec!["compare", base.to_str().unwrap(), cur.to_str().unwrap()];
        a.extend(["--format", "csv"]);
        a.extend(extra);
        idabench(tmp.path(), &a)
    };
    let plain = args(&[]);
    let with = args(&["--out", pictures.to_str().unwrap()]);
    // The report and the exit code do not depend on --out.
    assert_eq!(with.status.code(), Some(4));
    assert_eq!(plain.status.code(), with.status.code());
    assert_eq!(plain.stdout, with.stdout);
    let text = String::from_utf8(with.stdout).unwrap();
    let overall = text.lines().find(|l| l.starts_with("overall,")).unwrap();
    let verdict = overall.split(',').nth(10).unwrap();

    let (b, c) = (jobs(&base), jobs(&cur));
    // compare-time.svg: a marker per job timed in both runs, the overall verdict, axes that
    // cover every baseline time and every ratio.
    let svg = read_svg(&pictures.join("compare-time.svg"));
    let timed: Vec<(f64, f64)> = b
        .iter()
        .filter(|(k, (t, _))| *t >= 0.001 && c[*k].0 >= 0.001)
        .map(|(k, (t, _))| (*t, c[k].0 / t))
        .collect();
    assert_eq!(timed.len(), 198);
    assert!(svg.texts().iter().any(|t| t.content
        == format!("CPU time, current / baseline: 198 jobs timed, overall {verdict} (unpaired)")));
    assert!(svg.texts().iter().any(|t| t
        .content
        .starts_with(&format!("overall {verdict} (unpaired runs): "))));
    // Both ends of the interval, whole, as the CSV gives them (to 3 decimals there).
    let cell = |k: usize| overall.split(',').nth(k).unwrap().parse::<f64>().unwrap();
    let shaded = format!(
        "shaded: its 95% interval, {} to {}, over ",
        (cell(8) * 1000.0).round() / 1000.0,
        (cell(9) * 1000.0).round() / 1000.0
    );
    assert!(
        svg.texts()
            .iter()
            .any(|t| t.content.starts_with(&shaded) && t.content.ends_with(" instances")),
        "{shaded}"
    );
    let variants = 18;
    let markers = svg.markers();
    // The jobs timed in both runs whose node count changed are ringed, and the legend shows a
    // ring.
    let changed = b
        .iter()
        .filter(|(k, (t, n))| *t >= 0.001 && c[*k].0 >= 0.001 && c[*k].1 != *n)
        .count();
    assert_eq!(changed, 2);
    assert_eq!(svg.count_with("r", "9"), changed + 1);
    // Less the background and the interval's band: a marker per job, per variant in the legend
    // and per variant's ratio beside the chart, and the rings.
    assert_eq!(markers - 2, timed.len() + 2 * variants + changed + 1);
    let times: Vec<f64> = timed.iter().map(|p| p.0).collect();
    let (lo, hi) = min_max(&times);
    let (x_lo, x_hi) = min_max(&svg.tick_values("middle", "s"));
    assert!(
        x_lo <= lo && x_hi >= hi,
        "x ticks {x_lo}..{x_hi} miss {lo}..{hi}"
    );
    let ratios: Vec<f64> = timed.iter().map(|p| p.1).collect();
    let (lo, hi) = min_max(&ratios);
    let (_, _, top, bottom) = svg.plot_area();
    let y = svg.y_axis_log();
    assert!(
        y(hi) >= top && y(lo) <= bottom,
        "ratios {lo}..{hi} at {}..{} outside {top}..{bottom}",
        y(hi),
        y(lo)
    );

    // compare-nodes.svg: each job's ratio of nodes against its baseline nodes, the changed
    // jobs apart (diamonds), the others as circles.
    let svg = read_svg(&pictures.join("compare-nodes.svg"));
    assert!(svg
        .texts()
        .iter()
        .any(|t| t.content == "Nodes per job, current / baseline: 2 of 198 changed"));
    assert_eq!(svg.count("polygon"), 2 + 1);
    assert_eq!(svg.count("circle"), 196 + 1);
    let nodes: Vec<f64> = b.values().map(|(_, n)| n.max(1.0)).collect();
    let (lo, hi) = min_max(&nodes);
    let (t_lo, t_hi) = min_max(&svg.tick_values("middle", ""));
    assert!(
        t_lo <= lo && t_hi >= hi,
        "ticks {t_lo}..{t_hi} miss {lo}..{hi}"
    );
    let (_, _, top, bottom) = svg.plot_area();
    let y = svg.y_axis_log();
    assert!(
        y(3.0) >= top && y(1.0) <= bottom,
        "the ratio 3 is off the axis"
    );

    // --no-plots: no pictures.
    let none = tmp.path().join("none");
    let quiet = args(&["--out", none.to_str().unwrap(), "--no-plots"]);
    assert_eq!(quiet.status.code(), Some(4));
    assert!(!none.join("compare-time.svg").exists());
}

#[test]
fn without_a_timed_job_the_time_picture_is_skipped_with_a_note() {
    let tmp = Tmp::new("compare");
    let fast = edited_copy(&tmp, "fast", |h, v, _| {
        if h == "time_cpu_s" {
            "0.0001".to_string()
        } else {
            v.to_string()
        }
    });
    let out = tmp.path().join("pictures");
    let o = idabench(
        tmp.path(),
        &[
            "compare",
            fast.to_str().unwrap(),
            fast.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "note: skipped compare-time.svg: no job took at least 1 ms of CPU time in both runs"
        ),
        "{stderr}"
    );
    assert!(!out.join("compare-time.svg").exists());
    let svg = read_svg(&out.join("compare-nodes.svg"));
    assert!(svg
        .texts()
        .iter()
        .any(|t| t.content == "Nodes per job, current / baseline: 0 of 198 changed"));
}

/// 1,000 more nodes on 100,000 stand off the line of equal nodes in compare-nodes.svg: the
/// picture shows each job's ratio, on an axis as narrow as the ratios allow.
#[test]
fn a_change_of_one_percent_in_nodes_is_seen() {
    let tmp = Tmp::new("compare");
    let rows = csv_rows(&Path::new(&baseline()).join("runs.csv"));
    let big = rows
        .iter()
        .position(|r| r["nodes_generated"].parse::<u64>().unwrap() >= 100_000)
        .unwrap();
    let more = edited_copy(&tmp, "more", |h, v, i| {
        if h == "nodes_generated" && i == big {
            let n: u64 = v.parse().unwrap();
            (n + n / 100).to_string()
        } else {
            v.to_string()
        }
    });
    let pictures = tmp.path().join("pictures");
    let out = idabench(
        tmp.path(),
        &[
            "compare",
            &baseline(),
            more.to_str().unwrap(),
            "--out",
            pictures.to_str().unwrap(),
        ],
    );
    assert_exit(&out, 4);
    let svg = read_svg(&pictures.join("compare-nodes.svg"));
    let y = svg.y_axis_log();
    // The changed job's diamond, and the legend's below the chart.
    let diamonds: Vec<(f64, f64)> = svg
        .polygon_centres()
        .into_iter()
        .filter(|p| p.1 < CHART_HEIGHT)
        .collect();
    assert_eq!(diamonds.len(), 1, "{diamonds:?}");
    let off = y(1.0) - diamonds[0].1;
    assert!(
        off >= 10.0,
        "1% more nodes drawn {off} px above the line of equal nodes"
    );
    assert!((diamonds[0].1 - y(1.01)).abs() < 1.5, "{diamonds:?}");
}

/// Runs of one dataset under other variants: no job in common, which compare says with the
/// way out; `--pair` joins two of their variants as one, in every format, csv-long tidy.
#[test]
fn other_variants_are_compared_through_pair_and_said_so_without_it() {
    let tmp = Tmp::new("compare-pair");
    let data = tmp.write("d.csv", TINY);
    let a = run_tiny(&tmp, &data, "manhattan", "a");
    let b = run_tiny(&tmp, &data, "misplaced,linear-conflict", "b");
    let out = idabench(tmp.path(), &["compare", &a, &b]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "no job in common between {a} and {b}: they share 3 instance(s), under other variants \
             (baseline: manhattan/stepnext/prune; current: misplaced/stepnext/prune, \
             linear-conflict/stepnext/prune); to compare a variant of each, give --pair \
             BASELINE_VARIANT=CURRENT_VARIANT, or join the runs into one report with `idabench combine`"
        )),
        "{err}"
    );
    let bad = idabench(
        tmp.path(),
        &["compare", &a, &b, "--pair", "manhattan/stepnext/prune=x"],
    );
    assert_exit(&bad, 2);
    assert!(text(&bad.stderr).contains("expected BASELINE_VARIANT=CURRENT_VARIANT"));

    let pair = "manhattan/stepnext/prune=linear-conflict/stepnext/prune";
    let compare = |format: &str| {
        idabench(
            tmp.path(),
            &["compare", &a, &b, "--pair", pair, "--format", format],
        )
    };
    let csv = compare("csv");
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(&csv.stdout[..])
        .records()
        .map(Result::unwrap)
        .collect();
    let paired = rows
        .iter()
        .find(|r| &r[0] == pair)
        .expect("a row of the pair");
    assert_eq!(&paired[1], "3");
    let changed: usize = paired[2].parse().unwrap();
    let exit = if changed > 0 { 4 } else { 0 };
    assert_exit(&csv, exit);
    let alone = rows
        .iter()
        .find(|r| &r[0] == "misplaced/stepnext/prune")
        .unwrap();
    assert_eq!((&alone[1], &alone[4]), ("0", "3"));

    // csv-long: seven columns, every cell filled, one row per (scope, job, measure, side).
    let long = compare("csv-long");
    assert_exit(&long, exit);
    let mut reader = csv::Reader::from_reader(&long.stdout[..]);
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        ["scope", "dataset", "instance", "variant", "measure", "side", "value"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(rows
        .iter()
        .all(|r| r.len() == 7 && r.iter().all(|c| !c.is_empty())));
    let mut keys = std::collections::HashSet::new();
    for r in &rows {
        assert!(
            keys.insert(r.iter().take(6).collect::<Vec<_>>().join("\u{0}")),
            "{r:?}"
        );
    }
    let value = |scope: &str, instance: &str, variant: &str, measure: &str, side: &str| {
        rows.iter()
            .find(|r| {
                (&r[0], &r[2], &r[3], &r[4], &r[5]) == (scope, instance, variant, measure, side)
            })
            .map(|r| r[6].to_owned())
    };
    assert_eq!(
        value("variant", "*", pair, "jobs_compared", "comparison").as_deref(),
        Some("3")
    );
    assert_eq!(
        value("variant", "*", pair, "changed", "comparison"),
        Some(changed.to_string())
    );
    assert_eq!(
        value("variant", "*", pair, "solved", "baseline").as_deref(),
        Some("3")
    );
    assert_eq!(
        value("overall", "*", "*", "jobs", "current").as_deref(),
        Some("6")
    );
    let manhattan = csv_rows(&Path::new(&a).join("runs.csv"));
    for instance in ["a", "b", "c"] {
        let nodes = value("job", instance, pair, "nodes_generated", "baseline").unwrap();
        let own = manhattan
            .iter()
            .find(|r| r["instance"] == instance)
            .unwrap();
        assert_eq!(nodes, own["nodes_generated"]);
        for side in ["baseline", "current"] {
            assert!(value("job", instance, pair, "status", side).is_some());
        }
        assert!(value("job", instance, pair, "changed", "comparison").is_some());
        // A job of the current run only: its figures there, none in the baseline.
        let v = "misplaced/stepnext/prune";
        assert!(value("job", instance, v, "status", "current").is_some());
        assert!(value("job", instance, v, "status", "baseline").is_none());
    }
}

/// A wrong answer in either run is the first thing compare's page says, in red, and its status
/// table and node picture count it by name.
#[test]
fn a_wrong_answer_is_said_first_on_the_comparisons_page() {
    let tmp = Tmp::new("compare-wrong");
    let data = tmp.write("d.csv", TINY);
    let a = run_tiny(&tmp, &data, "manhattan", "a");
    let wrong = edited_copy_of(&tmp, Path::new(&a), "wrong", |h, v, i| {
        if h == "status" && i == 2 {
            "wrong".to_string()
        } else {
            v.to_string()
        }
    });
    let page_dir = tmp.path().join("page");
    let out = idabench(
        tmp.path(),
        &[
            "compare",
            &a,
            wrong.to_str().unwrap(),
            "--out",
            page_dir.to_str().unwrap(),
        ],
    );
    assert_exit(&out, 4);
    let page = fs::read_to_string(page_dir.join("report.html")).unwrap();
    let body = &page[page.find("<body>").unwrap()..];
    assert!(
        body.starts_with(
            "<body>\n<h1>idabench compare</h1>\n<p class=\"alarm\"><strong>current: 1 wrong answer</strong>"
        ),
        "{body}"
    );
    assert!(
        page.contains(
            "<tr><td><code>overall</code></td><td>current</td><td>3</td><td>2</td><td>0</td><td><strong class=\"bad\">1</strong></td><td>0</td>"
        ),
        "{page}"
    );
    let svg = read_svg(&page_dir.join("compare-nodes.svg"));
    let legend: Vec<&str> = svg
        .texts()
        .iter()
        .filter(|t| t.number("y") > CHART_HEIGHT)
        .map(|t| t.content.as_str())
        .collect();
    assert_eq!(legend[0], "wrong or error in either run (1)", "{legend:?}");
}
