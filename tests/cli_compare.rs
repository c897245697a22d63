//! `idabench compare` as CI uses it, on the committed baseline and edited copies of it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn idabench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_idabench"))
        .args(args)
        .output()
        .expect("run idabench")
}

const BASELINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reports/baseline");

/// A copy of the baseline whose runs.csv went through `edit(column name, value, row) -> value`.
fn edited_copy(name: &str, edit: impl Fn(&str, &str, usize) -> String) -> PathBuf {
    edited_copy_of(Path::new(BASELINE), name, edit)
}

/// A copy of the report directory `source` whose runs.csv went through `edit`.
fn edited_copy_of(
    source: &Path,
    name: &str,
    edit: impl Fn(&str, &str, usize) -> String,
) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "idabench-cli-compare-{}-{name}",
        std::process::id()
    ));
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

fn code(out: &Output) -> i32 {
    out.status.code().expect("exit code")
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
fn timed_baseline(name: &str) -> PathBuf {
    edited_copy(&format!("{name}-base"), |h, v, _| {
        if h == "time_cpu_s" {
            (v.parse::<f64>().unwrap() + 0.01).to_string()
        } else {
            v.to_string()
        }
    })
}

#[test]
fn the_baseline_against_itself_is_ok() {
    let out = idabench(&["compare", BASELINE, BASELINE]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
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
    let dir = edited_copy("nodes", |h, v, i| {
        if h == "nodes_generated" && i == 7 {
            (v.parse::<u64>().unwrap() + 1).to_string()
        } else {
            v.to_string()
        }
    });
    let out = idabench(&["compare", BASELINE, dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code(&out), 4, "{text}");
    assert!(text.contains("nodes_generated"), "{text}");
    let allowed = idabench(&[
        "compare",
        BASELINE,
        dir.to_str().unwrap(),
        "--allow-node-changes",
    ]);
    assert_eq!(code(&allowed), 0);
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_time_one_and_a_half_times_slower_exits_3() {
    let base = timed_baseline("slow");
    let dir = edited_copy_of(&base, "slow", times(1.5));
    let out = idabench(&[
        "compare",
        base.to_str().unwrap(),
        dir.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code(&out), 3, "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("overall,198,0,0,0,198,0,")
                && l.ends_with(",regressed,overall,,,,,")),
        "{text}"
    );
    fs::remove_dir_all(dir).unwrap();
    fs::remove_dir_all(base).unwrap();
}

#[test]
fn a_noisy_mix_straddling_the_threshold_is_inconclusive_and_exits_0() {
    // Rows run variant by variant within an instance: alternate by instance, so that every
    // variant sees a mix.
    let variants = 18;
    let base = timed_baseline("noisy");
    let dir = edited_copy_of(&base, "noisy", |h, v, i| {
        if h == "time_cpu_s" {
            let factor = if (i / variants) % 2 == 0 { 0.8 } else { 1.5 };
            (v.parse::<f64>().unwrap() * factor).to_string()
        } else {
            v.to_string()
        }
    });
    let out = idabench(&[
        "compare",
        base.to_str().unwrap(),
        dir.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code(&out), 0, "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("overall,198,0,0,0,198,0,")
                && l.ends_with(",inconclusive,overall,,,,,")),
        "{text}"
    );
    fs::remove_dir_all(dir).unwrap();
    fs::remove_dir_all(base).unwrap();
}

#[test]
fn missing_jobs_are_listed_without_failing_and_bad_inputs_exit_2() {
    let dir = edited_copy("missing", |_, v, _| v.to_string());
    let runs = fs::read_to_string(dir.join("runs.csv")).unwrap();
    let kept: Vec<&str> = runs.lines().take(runs.lines().count() - 3).collect();
    fs::write(dir.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    let out = idabench(&["compare", BASELINE, dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    // Missing jobs are listed, but only changed results (status, length, node counts) exit 4.
    assert_eq!(code(&out), 0, "{text}");
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

    let out = idabench(&["compare", BASELINE, "/nonexistent/run"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/run"));
    fs::write(dir.join("runs.csv"), "dataset,instance\nnot,a,run\n").unwrap();
    let out = idabench(&["compare", BASELINE, dir.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("runs.csv:2"));
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn other_limits_are_a_warning_not_a_failure() {
    let dir = edited_copy("limits", |_, v, _| v.to_string());
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"max_nodes\": 5000000,"));
    let manifest = manifest.replace("\"max_nodes\": 5000000,", "\"max_nodes\": null,");
    fs::write(dir.join("manifest.json"), manifest).unwrap();
    let out = idabench(&["compare", BASELINE, dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 0, "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l == "warning: max_nodes differs: baseline `5000000`, current `none`"),
        "{stderr}"
    );
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn csv_output_lists_the_changed_jobs_under_the_summary() {
    let dir = edited_copy("csv-changed", |h, v, i| {
        if h == "nodes_expanded" && i == 7 {
            (v.parse::<u64>().unwrap() + 1).to_string()
        } else {
            v.to_string()
        }
    });
    let out = idabench(&[
        "compare",
        BASELINE,
        dir.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code(&out), 4, "{text}");
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
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_negative_time_is_an_input_error_naming_line_and_column() {
    let dir = edited_copy("negative", |h, v, i| {
        if h == "time_cpu_s" && i == 7 {
            "-0.001".to_string()
        } else {
            v.to_string()
        }
    });
    let out = idabench(&["compare", BASELINE, dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 2, "{stderr}");
    assert!(
        stderr.contains(
            "runs.csv:9: column `time_cpu_s`: expected a finite number of at least 0, found -0.001"
        ),
        "{stderr}"
    );
    fs::remove_dir_all(dir).unwrap();
}
