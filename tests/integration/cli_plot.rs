//! `idabench plot`, and the plots `run` draws at its end, as a user gets them: every SVG is
//! well-formed XML, has one series and one legend entry per variant, and axes whose tick labels
//! cover the data read back from runs.csv and iterations.csv; a run with one instance, a run
//! where nothing is solved, a run of 12 variants and one of 3,000 instances; bad input exits 2.
//!
//! Runs are small (the smoke set under --max-nodes 20000). The SVG is read with roxmltree
//! (common/svg.rs), which checks that it is well-formed. Nothing here asserts on a time beyond
//! reading it back from runs.csv.

use crate::common::svg::*;
use crate::common::{assert_exit, baseline, dataset, idabench, Tmp};
use idabench::results::record::{read_runs, Record, Status};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Runs `dataset` with `extra` flags into `out/name` (from `out`), without its own plots, and
/// returns the report directory.
fn run(out: &Path, name: &str, dataset: &str, extra: &[&str]) -> PathBuf {
    let out_s = out.display().to_string();
    let mut args = vec![
        "run",
        dataset,
        "--out",
        &out_s,
        "--name",
        name,
        "--quiet",
        "--no-plots",
    ];
    args.extend_from_slice(extra);
    let o = idabench(out, &args);
    assert!(
        o.status.success(),
        "run failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out.join(name)
}

/// The smoke set under `--max-nodes 20000` and `extra` into `tmp/name`, without its own plots;
/// the report directory.
fn smoke_run(tmp: &Tmp, name: &str, extra: &[&str]) -> PathBuf {
    let limit = ["--max-nodes", "20000"];
    run(
        tmp.path(),
        name,
        &dataset("smoke.csv"),
        &[&limit, extra].concat(),
    )
}

/// `plot DIR`, which must succeed: its output, and the records of the run in `dir`.
fn plot_ok(tmp: &Tmp, dir: &Path) -> (Output, Vec<Record>) {
    let o = plot(tmp.path(), &[dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (o, records(dir))
}

/// `plot ARGS...`, run from `cwd`.
fn plot(cwd: &Path, args: &[&str]) -> Output {
    let mut all = vec!["plot"];
    all.extend_from_slice(args);
    idabench(cwd, &all)
}

fn records(dir: &Path) -> Vec<Record> {
    read_runs(&dir.join("runs.csv")).unwrap()
}

/// Variants in runs.csv's order of first appearance (the manifest's order for these runs).
fn variants(records: &[Record]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in records {
        if !out.contains(&r.variant) {
            out.push(r.variant.clone());
        }
    }
    out
}

fn solved<'a>(records: &'a [Record], variant: &str) -> Vec<&'a Record> {
    records
        .iter()
        .filter(|r| r.variant == variant && r.status.has_solution())
        .collect()
}

/// Checks a cactus plot against the run: a legend entry `variant (solved)` per variant, a line
/// per variant that solved something with one point per solved instance, a marker per point,
/// and tick labels spanning the data.
fn check_cactus(svg: &Svg, records: &[Record], measure: fn(&Record) -> f64, unit: &str) {
    svg.assert_ticks_apart();
    let variants = variants(records);
    let mut lines = Vec::new();
    let mut points = 0;
    for v in &variants {
        let n = solved(records, v).len();
        let entry = format!("{v} ({n})");
        assert!(
            svg.texts().iter().any(|t| t.content == entry),
            "no legend entry {entry}"
        );
        if n > 0 {
            lines.push(n);
        }
        points += n;
    }
    // Series lines are the 2 px polylines inside the chart; those below it are legend samples.
    let mut drawn: Vec<usize> = svg.chart_lines().iter().map(Vec::len).collect();
    let legend_samples = svg.series_lines().len() - drawn.len();
    assert_eq!(legend_samples, variants.len());
    drawn.sort_unstable();
    lines.sort_unstable();
    assert_eq!(drawn, lines, "points per series");
    // A marker per point and one per legend entry; the white background is the only other rect.
    let markers = svg.markers() - 1;
    assert_eq!(markers, points + variants.len());

    let values: Vec<f64> = records
        .iter()
        .filter(|r| r.status.has_solution())
        .map(measure)
        .collect();
    let (lo, hi) = min_max(&values);
    let x = svg.tick_values("middle", unit);
    let (x_lo, x_hi) = min_max(&x);
    assert!(x_lo <= lo * (1.0 + 1e-9), "x axis from {x_lo} misses {lo}");
    assert!(x_hi >= hi * (1.0 - 1e-9), "x axis to {x_hi} misses {hi}");
    let most = variants
        .iter()
        .map(|v| solved(records, v).len())
        .max()
        .unwrap();
    let y = svg.tick_values("end", "");
    let (y_lo, y_hi) = min_max(&y);
    assert_eq!(y_lo, 0.0);
    // Ticks come every 1 or 2 instances: the top tick is within one step of the top count.
    assert!(
        y_hi + 2.0 > most as f64,
        "y axis to {y_hi} for {most} solved"
    );
}

/// A line of iterations.svg: variant, instance, (iteration, nodes generated) per iteration.
type IterationLine = (String, String, Vec<(f64, f64)>);

/// The jobs iterations.svg draws and their rows: each variant's hardest jobs (most nodes) among
/// the solved ones with iterations, 3 each or fewer so that at most 12 are drawn.
fn iteration_lines(dir: &Path, records: &[Record]) -> Vec<IterationLine> {
    let variants = variants(records);
    let hardest: Vec<Vec<&Record>> = variants
        .iter()
        .map(|v| {
            let mut mine: Vec<&Record> = records
                .iter()
                .filter(|r| &r.variant == v && r.iterations > 0 && r.status.has_solution())
                .collect();
            // Stable: ties keep the order of runs.csv.
            mine.sort_by_key(|r| std::cmp::Reverse(r.nodes_generated));
            mine
        })
        .collect();
    let present = hardest.iter().filter(|h| !h.is_empty()).count();
    let k = (12 / present).clamp(1, 3);
    let mut rows: HashMap<(String, String, String), Vec<(f64, f64)>> = HashMap::new();
    let mut reader = csv::Reader::from_path(dir.join("iterations.csv")).unwrap();
    for r in reader.records() {
        let r = r.unwrap();
        let point = (r[3].parse().unwrap(), r[5].parse::<f64>().unwrap().max(1.0));
        rows.entry((r[0].into(), r[1].into(), r[2].into()))
            .or_default()
            .push(point);
    }
    hardest
        .iter()
        .flat_map(|h| h.iter().take(k))
        .map(|r| {
            let key = (r.dataset.clone(), r.instance.clone(), r.variant.clone());
            (r.variant.clone(), r.instance.clone(), rows[&key].clone())
        })
        .collect()
}

/// Checks iterations.svg against the run: a legend entry `variant: instances` per variant, a
/// line per job of more than one iteration with a point per iteration, a marker per point,
/// and axes that cover the iterations and node counts.
fn check_iterations(svg: &Svg, dir: &Path, records: &[Record]) {
    svg.assert_ticks_apart();
    let lines = iteration_lines(dir, records);
    // The title counts the lines of the variant with the most.
    let most = variants(records)
        .iter()
        .map(|v| lines.iter().filter(|l| &l.0 == v).count())
        .max()
        .unwrap();
    let noun = if most == 1 { "instance" } else { "instances" };
    let title = format!("hardest solved {noun}");
    assert!(
        svg.texts()
            .iter()
            .any(|t| t.content.contains(&format!("{most} {title}"))),
        "no title with {most} {title}"
    );
    let mut legend = 0;
    for v in variants(records) {
        let mine: Vec<&str> = lines
            .iter()
            .filter(|l| l.0 == v)
            .map(|l| l.1.as_str())
            .collect();
        if mine.is_empty() {
            continue;
        }
        legend += 1;
        let entry = format!("{v}: {}", mine.join(", "));
        assert!(
            svg.texts().iter().any(|t| t.content == entry),
            "no legend entry {entry}"
        );
    }
    let mut drawn: Vec<usize> = svg.chart_lines().iter().map(Vec::len).collect();
    let mut want: Vec<usize> = lines.iter().map(|l| l.2.len()).filter(|&n| n > 1).collect();
    drawn.sort_unstable();
    want.sort_unstable();
    assert_eq!(drawn, want, "points per line");
    let points: usize = lines.iter().map(|l| l.2.len()).sum();
    let markers = svg.markers() - 1;
    assert_eq!(markers, points + legend);

    let all: Vec<(f64, f64)> = lines.iter().flat_map(|l| l.2.iter().copied()).collect();
    let bounds: Vec<f64> = all.iter().map(|p| p.0).collect();
    let nodes: Vec<f64> = all.iter().map(|p| p.1).collect();
    let (lo, hi) = min_max(&nodes);
    let (y_lo, y_hi) = min_max(&svg.tick_values("end", ""));
    assert!(
        y_lo <= lo && y_hi >= hi,
        "y ticks {y_lo}..{y_hi} miss {lo}..{hi}"
    );
    let (lo, hi) = min_max(&bounds);
    let (left, right) = svg.plot_area_x();
    let x = svg.x_axis();
    assert!(
        x(lo) >= left && x(hi) <= right,
        "iterations {lo}..{hi} at {}..{} outside {left}..{right}",
        x(lo),
        x(hi)
    );
}

fn cpu(r: &Record) -> f64 {
    r.time_cpu_s.max(1e-6)
}

fn nodes(r: &Record) -> f64 {
    (r.nodes_generated as f64).max(1.0)
}

/// What the scatter plot of `a` (x) against `b` (y) must show: (both solved, only b solved, only
/// a solved, neither), and (above, below, on) the diagonal.
fn scatter_counts(records: &[Record], a: &str, b: &str) -> ([usize; 4], [usize; 3]) {
    let mut jobs: BTreeMap<(&str, &str), [Option<&Record>; 2]> = BTreeMap::new();
    for r in records {
        let side = if r.variant == a {
            0
        } else if r.variant == b {
            1
        } else {
            continue;
        };
        jobs.entry((r.dataset.as_str(), r.instance.as_str()))
            .or_default()[side] = Some(r);
    }
    let mut kinds = [0; 4];
    let (mut above, mut below, mut on) = (0, 0, 0);
    for pair in jobs.values() {
        let [Some(x), Some(y)] = pair else { continue };
        // Proved unsolvable: left out, and counted in the legend.
        if [x, y].iter().any(|r| r.status == Status::Unsolvable) {
            continue;
        }
        match (x.status.has_solution(), y.status.has_solution()) {
            (true, true) => {
                kinds[0] += 1;
                match y.nodes_generated.cmp(&x.nodes_generated) {
                    std::cmp::Ordering::Greater => above += 1,
                    std::cmp::Ordering::Less => below += 1,
                    std::cmp::Ordering::Equal => on += 1,
                }
            }
            // Only b solved: a sits at the right border, beyond every solved value.
            (false, true) => {
                kinds[1] += 1;
                below += 1;
            }
            (true, false) => {
                kinds[2] += 1;
                above += 1;
            }
            // Neither: counted in the legend, not against the diagonal.
            (false, false) => kinds[3] += 1,
        }
    }
    (kinds, [above, below, on])
}

fn check_scatter(svg: &Svg, records: &[Record], a: &str, b: &str) {
    svg.assert_ticks_apart();
    let (kinds, [above, below, on]) = scatter_counts(records, a, b);
    let texts = svg.texts();
    let title = format!("Nodes generated: {a} (x) vs {b} (y)");
    assert!(texts.iter().any(|t| t.content == title), "no title {title}");
    let counts = format!("{above} above the diagonal, {below} below, {on} on it");
    assert!(
        texts.iter().any(|t| t.content == counts),
        "no title with {counts}"
    );
    for entry in [
        format!("solved by both ({})", kinds[0]),
        format!("unsolved by {a}: right border ({})", kinds[1]),
        format!("unsolved by {b}: top border ({})", kinds[2]),
        format!("unsolved by both: top right corner ({})", kinds[3]),
    ] {
        assert!(
            texts.iter().any(|t| t.content == entry),
            "no legend entry {entry}"
        );
    }
    // Only "solved by both" is drawn with circles, and "unsolved by both" with squares: one per
    // instance and the legend's (the white background is the other rect).
    assert_eq!(svg.count("circle"), kinds[0] + 1);
    assert_eq!(svg.count("rect"), kinds[3] + 2);
    // The solved values lie inside the chart; the border, labelled `unsolved` on both axes and
    // by no number, beyond them.
    let values: Vec<f64> = records
        .iter()
        .filter(|r| (r.variant == a || r.variant == b) && r.status.has_solution())
        .map(nodes)
        .collect();
    let (lo, hi) = min_max(&values);
    let (left, right, _, _) = svg.plot_area();
    let x = svg.x_axis_log();
    assert!(
        x(lo) >= left - 0.5 && x(hi) <= right + 0.5,
        "{lo}..{hi} at {}..{} outside {left}..{right}",
        x(lo),
        x(hi)
    );
    let unsolved: Vec<&TextElement> = texts.iter().filter(|t| t.content == "unsolved").collect();
    if kinds[1] + kinds[2] + kinds[3] > 0 {
        assert_eq!(unsolved.len(), 2, "an `unsolved` label on each axis");
        let border = unsolved
            .iter()
            .find(|t| t.attributes["text-anchor"] == "middle")
            .expect("the x axis's")
            .attributes["x"]
            .parse::<f64>()
            .unwrap();
        assert!(
            border > x(hi) && border <= right + 0.5,
            "border at {border}"
        );
        let beyond = svg.tick_values("middle", "");
        assert!(beyond.iter().all(|&v| x(v) < border), "{beyond:?}");
    } else {
        assert!(unsolved.is_empty());
    }
    let unsolvable = records
        .iter()
        .filter(|r| r.variant == a && r.status == Status::Unsolvable)
        .count();
    let left_out = texts
        .iter()
        .find(|t| t.content.starts_with("left out: "))
        .map(|t| t.content.clone());
    if unsolvable > 0 {
        let noun = if unsolvable == 1 {
            "instance"
        } else {
            "instances"
        };
        let want = format!("left out: {unsolvable} {noun} proved unsolvable");
        assert!(
            left_out.as_ref().is_some_and(|t| t.starts_with(&want)),
            "{left_out:?}, want {want}"
        );
    } else {
        assert_eq!(left_out, None);
    }
}

#[test]
fn plots_of_a_run_cover_its_data() {
    let tmp = Tmp::new("plot");
    let dir = smoke_run(
        &tmp,
        "r",
        &["--heuristic", "manhattan,misplaced", "--step", "2,next"],
    );
    let (o, records) = plot_ok(&tmp, &dir);
    let vs = variants(&records);
    assert_eq!(vs.len(), 4);
    let written: Vec<String> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    // The 3 plots of every run, 3 scatter plots, report.html.
    assert_eq!(written.len(), 3 + 3 + 1, "{written:?}");
    check_cactus(&read_svg(&dir.join("cactus.svg")), &records, cpu, "s");
    check_iterations(&read_svg(&dir.join("iterations.svg")), &dir, &records);
    check_cactus(
        &read_svg(&dir.join("cactus-nodes.svg")),
        &records,
        nodes,
        "",
    );
    for b in &vs[1..] {
        let name = format!(
            "scatter-{}-vs-{}.svg",
            vs[0].replace('/', "_"),
            b.replace('/', "_")
        );
        assert!(written.contains(&dir.join(&name).display().to_string()));
        check_scatter(&read_svg(&dir.join(&name)), &records, &vs[0], b);
    }
    // Misplaced tiles leave instances unsolved within 20,000 nodes: the border is in use.
    let (kinds, _) = scatter_counts(&records, &vs[0], "misplaced/step2/prune");
    assert!(kinds[2] + kinds[3] > 0, "{kinds:?}");
    // The run has jobs stopped by the limit, and check_iterations found only solved ones drawn.
    let limited = records.iter().filter(|r| r.status.limited()).count();
    assert!(limited > 0);
}

#[test]
fn pair_and_out_choose_the_scatter_and_the_directory() {
    let tmp = Tmp::new("plot");
    let dir = smoke_run(
        &tmp,
        "r",
        &["--heuristic", "manhattan,linear-conflict,misplaced"],
    );
    let out = tmp.path().join("pictures");
    let o = plot(
        tmp.path(),
        &[
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--pair",
            "misplaced/stepnext/prune,linear-conflict/stepnext/prune",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "cactus-nodes.svg",
            "cactus.svg",
            "iterations.svg",
            "report.html",
            "scatter-misplaced_stepnext_prune-vs-linear-conflict_stepnext_prune.svg"
        ]
    );
    assert!(!dir.join("cactus.svg").exists());
    check_scatter(
        &read_svg(&out.join(&files[4])),
        &records(&dir),
        "misplaced/stepnext/prune",
        "linear-conflict/stepnext/prune",
    );
}

#[test]
fn twelve_variants_each_have_a_series_and_a_look_of_their_own() {
    let tmp = Tmp::new("plot");
    let dir = smoke_run(
        &tmp,
        "r",
        &[
            "--heuristic",
            "manhattan,linear-conflict,misplaced",
            "--step",
            "1,2",
            "--reverse-pruning",
            "on,off",
        ],
    );
    let (o, records) = plot_ok(&tmp, &dir);
    let vs = variants(&records);
    assert_eq!(vs.len(), 12);
    let svg = read_svg(&dir.join("cactus.svg"));
    check_cactus(&svg, &records, cpu, "s");
    check_cactus(
        &read_svg(&dir.join("cactus-nodes.svg")),
        &records,
        nodes,
        "",
    );
    // Each legend sample is a line and a marker: no two alike (colour, marker element, fill).
    let looks: Vec<(String, String)> = svg
        .legend_looks()
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(looks.len(), 12, "{looks:?}");
    let scatters = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.contains("/scatter-"))
        .count();
    assert_eq!(scatters, 11);
    // One line per variant, each told apart by its look.
    let svg = read_svg(&dir.join("iterations.svg"));
    check_iterations(&svg, &dir, &records);
    assert_eq!(iteration_lines(&dir, &records).len(), 12);
    let looks: std::collections::BTreeSet<_> = svg.legend_looks().into_iter().collect();
    assert_eq!(looks.len(), 12, "{looks:?}");
}

#[test]
fn a_run_of_one_instance_plots() {
    let tmp = Tmp::new("plot");
    let dataset = tmp.path().join("one.csv");
    let smoke = std::fs::read_to_string(crate::common::dataset("smoke.csv")).unwrap();
    let two_lines: Vec<&str> = smoke.lines().take(2).collect();
    std::fs::write(&dataset, two_lines.join("\n") + "\n").unwrap();
    let dir = run(
        tmp.path(),
        "one",
        dataset.to_str().unwrap(),
        &["--heuristic", "manhattan,misplaced"],
    );
    let (_, records) = plot_ok(&tmp, &dir);
    assert_eq!(records.len(), 2);
    check_cactus(&read_svg(&dir.join("cactus.svg")), &records, cpu, "s");
    check_cactus(
        &read_svg(&dir.join("cactus-nodes.svg")),
        &records,
        nodes,
        "",
    );
    let vs = variants(&records);
    let name = format!(
        "scatter-{}-vs-{}.svg",
        vs[0].replace('/', "_"),
        vs[1].replace('/', "_")
    );
    check_scatter(&read_svg(&dir.join(name)), &records, &vs[0], &vs[1]);
    check_iterations(&read_svg(&dir.join("iterations.svg")), &dir, &records);

    // One variant: the cactus plots, and a note that there is no pair to scatter.
    let single = run(tmp.path(), "single", dataset.to_str().unwrap(), &[]);
    let o = plot(tmp.path(), &[single.to_str().unwrap()]);
    assert!(o.status.success());
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(
        stderr.contains("no scatter plot: the run has one variant"),
        "{stderr}"
    );
    assert!(single.join("cactus.svg").exists());
}

#[test]
fn a_run_that_solved_nothing_says_why_there_is_no_plot() {
    let tmp = Tmp::new("plot");
    let dir = run(
        tmp.path(),
        "none",
        &dataset("smoke.csv"),
        &["--max-nodes", "1", "--heuristic", "manhattan,misplaced"],
    );
    assert!(records(&dir).iter().all(|r| !r.status.has_solution()));
    let o = plot(tmp.path(), &[dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    // No plot, only report.html: every job stopped in an unfinished iteration.
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{}\n", dir.join("report.html").display())
    );
    let stderr = String::from_utf8(o.stderr).unwrap();
    for name in ["cactus.svg", "cactus-nodes.svg"] {
        assert!(
            stderr.contains(&format!(
                "skipped {name}: no job of the run found a solution"
            )),
            "{stderr}"
        );
        assert!(!dir.join(name).exists());
    }
    assert!(stderr.contains("solved an instance"), "{stderr}");
    assert!(
        stderr.contains("skipped iterations.svg: no job was solved (")
            && stderr.contains("stopped by a limit)"),
        "{stderr}"
    );
    assert!(!dir.join("iterations.svg").exists());
}

/// A run of 3,000 instances under two variants that search alike draws its own pictures at its
/// end: cactus lines keep a point per pixel they pass and 50 markers, the scatter plot merges
/// overlapping markers; each picture stays small. `--no-plots` draws none.
#[test]
fn a_large_run_draws_pictures_of_a_bounded_size() {
    let tmp = Tmp::new("plot");
    let dataset = tmp.path().join("many.csv");
    let o = idabench(
        tmp.path(),
        &[
            "generate",
            "--domain",
            "tiles",
            "--size",
            "3x3",
            "--count",
            "3000",
            "--seed",
            "3",
            "--out",
            dataset.to_str().unwrap(),
        ],
    );
    assert!(o.status.success());
    let out = tmp.path().display().to_string();
    let args = |name: &'static str, extra: &'static str| {
        let mut a = vec![
            "run",
            dataset.to_str().unwrap(),
            "--out",
            &out,
            "--name",
            name,
        ];
        a.extend(["--step", "2,next", "--quiet", extra]);
        idabench(tmp.path(), &a)
    };
    let o = args("big", "--jobs=2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let dir = tmp.path().join("big");
    let records = records(&dir);
    assert_eq!(records.len(), 6000);
    let scatter = "scatter-manhattan_step2_prune-vs-manhattan_stepnext_prune.svg";
    for name in ["cactus.svg", "cactus-nodes.svg", "iterations.svg", scatter] {
        let size = std::fs::metadata(dir.join(name)).unwrap().len();
        assert!(size < 300_000, "{name}: {size} bytes");
    }
    for name in ["cactus.svg", "cactus-nodes.svg"] {
        let svg = read_svg(&dir.join(name));
        for v in variants(&records) {
            let entry = format!("{v} (3,000)");
            assert!(svg.texts().iter().any(|t| t.content == entry), "{entry}");
        }
        let lines = svg.chart_lines();
        assert_eq!(lines.len(), 2);
        for line in &lines {
            // Fewer points than instances, at most one per pixel passed, rising to the right.
            assert!(line.len() > 50 && line.len() < 1400, "{}", line.len());
            assert!(line
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 >= w[1].1));
        }
        let markers = svg.markers() - 1;
        assert_eq!(markers, 2 * 50 + 2);
        // The top of each line is at the count of instances solved: the 3,000 tick or above.
        let ticks = svg.tick_values("end", "");
        assert!(min_max(&ticks).1 >= 3000.0, "{ticks:?}");
    }
    let svg = read_svg(&dir.join(scatter));
    assert!(svg
        .texts()
        .iter()
        .any(|t| t.content == "solved by both (3,000; overlapping markers merged)"));
    let circles = svg.count("circle");
    assert!(circles > 10 && circles < 2000, "{circles} markers");
    assert!(svg.texts().iter().any(|t| t
        .content
        .ends_with("0 above the diagonal, 0 below, 3,000 on it")));

    let o = args("quiet", "--no-plots");
    assert!(o.status.success());
    let svgs = std::fs::read_dir(tmp.path().join("quiet"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("svg".as_ref()))
        .count();
    assert_eq!(svgs, 0);
}

/// A plot the run cannot write (a directory holds its name) is a warning: the run's reports,
/// its other plots and its exit code are as without it.
#[test]
fn a_plot_that_cannot_be_written_only_warns() {
    let tmp = Tmp::new("plot");
    let dir = tmp.path().join("r");
    std::fs::create_dir_all(dir.join("cactus.svg")).unwrap();
    let out = tmp.path().display().to_string();
    let o = idabench(
        tmp.path(),
        &[
            "run",
            &dataset("smoke.csv"),
            "--out",
            &out,
            "--name",
            "r",
            "--quiet",
            "--max-nodes",
            "20000",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(
        stderr.starts_with("warning: ")
            && stderr.contains("cactus.svg")
            && stderr.contains("the reports are whole"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(String::from_utf8(o.stdout).unwrap().contains("reports: "));
    for name in [
        "runs.csv",
        "manifest.json",
        "cactus-nodes.svg",
        "iterations.svg",
    ] {
        assert!(dir.join(name).is_file(), "{name}");
    }
}

#[test]
fn bad_input_exits_2() {
    let tmp = Tmp::new("plot");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = plot(tmp.path(), &[empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("runs.csv"));

    let o = plot(tmp.path(), &[tmp.path().join("nowhere").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));

    // A dataset given for a run: its header is what is wrong, on line 1.
    let o = plot(tmp.path(), &[&dataset("smoke.csv")]);
    assert_eq!(o.status.code(), Some(2));
    let want = format!(
        "{}:1: not a runs.csv of idabench: the header lacks `dataset`, `instance`, `variant`, \
         16 more of its 22 columns (found 'id,domain,size,start,goal,optimal')",
        dataset("smoke.csv")
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains(&want), "{stderr}");

    let dir = run(
        tmp.path(),
        "r",
        &dataset("smoke.csv"),
        &["--max-nodes", "2000", "--heuristic", "manhattan,misplaced"],
    );
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let o = plot(
        tmp.path(),
        &[dir.to_str().unwrap(), "--out", file.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("a-file: not a directory"), "{stderr}");
    for pair in [
        "manhattan/stepnext/prune,nothing",
        "manhattan/stepnext/prune,manhattan/stepnext/prune",
        "manhattan/stepnext/prune",
    ] {
        let o = plot(tmp.path(), &[dir.to_str().unwrap(), "--pair", pair]);
        assert_eq!(o.status.code(), Some(2), "--pair {pair}");
        assert!(!dir.join("cactus.svg").exists());
    }
}

#[test]
fn the_test_parsers_read_what_they_should() {
    assert!(check_well_formed("<svg a=\"1\"><text>x &amp; y</text><rect/></svg>").is_ok());
    assert!(check_well_formed("<svg><text>x</svg>").is_err());
    assert!(check_well_formed("<svg a=1/>").is_err());
    assert!(check_well_formed("<svg>&nbsp;</svg>").is_err());
    assert!(check_well_formed("<svg/><svg/>").is_err());
    assert!(check_well_formed("<html/>").is_err());
    let svg = Svg::parse("<svg><text x=\"1 &lt; 2\"> x &amp; y </text><rect/></svg>").unwrap();
    assert_eq!(svg.texts()[0].content, "x & y");
    assert_eq!(svg.texts()[0].attr("x"), Some("1 < 2"));
    assert_eq!((svg.count("rect"), svg.markers()), (1, 1));
    assert!((si_value("10 µs", "s").unwrap() - 1e-5).abs() < 1e-18);
    assert_eq!(si_value("20 k", ""), Some(2e4));
    assert_eq!(si_value("100", ""), Some(100.0));
    assert_eq!(si_value("1 ms", ""), None);
    assert_eq!(si_value("manhattan (3)", ""), None);
}

/// An interrupted run's cactus plots say so, and how many of its planned jobs have a row, in
/// place of a count of instances that is not the dataset's.
#[test]
fn an_interrupted_run_says_so_in_its_cactus_titles() {
    let tmp = Tmp::new("plot");
    let dir = smoke_run(&tmp, "cut", &["--heuristic", "manhattan,misplaced"]);
    // As an interrupt leaves it: rows for some jobs, a manifest saying the rest are missing.
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let kept: Vec<&str> = runs.lines().take(5).collect();
    std::fs::write(dir.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    let path = dir.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let total = manifest["jobs_total"].as_u64().unwrap();
    manifest["complete"] = false.into();
    manifest["jobs_missing"] = (total - 4).into();
    std::fs::write(&path, manifest.to_string()).unwrap();
    plot_ok(&tmp, &dir);
    for name in ["cactus.svg", "cactus-nodes.svg"] {
        let svg = read_svg(&dir.join(name));
        let want = format!("(interrupted: 4 of {total} jobs)");
        assert!(
            svg.texts().iter().any(|t| t.content.ends_with(&want)),
            "{name}: no title ending {want}"
        );
    }
}

/// A runs.csv of 2,000 variants, one job each (as many variants as jobs): at most 120 scatter
/// plots are drawn, a note says how many were skipped, and the other pictures are drawn.
/// Before, `plot` drew a scatter plot of the first variant against each other one: one file,
/// and one pass over every job, per job.
#[test]
fn a_run_of_as_many_variants_as_jobs_draws_a_bounded_number_of_pictures() {
    let tmp = Tmp::new("plot-variants");
    let dir = tmp.path().join("run");
    std::fs::create_dir(&dir).unwrap();
    let n = 2000;
    let mut runs = String::from("dataset,instance,domain,size,variant,heuristic,step,reverse_pruning,status,length,optimal,nodes_generated,nodes_expanded,iterations,final_bound,time_wall_s,time_cpu_s,nodes_per_s,initial_h,optimal_guaranteed,message,path\n");
    let mut iterations =
        String::from("dataset,instance,variant,iteration,bound,nodes_generated,nodes_expanded\n");
    for v in 0..n {
        runs += &format!(
            "d,1,tiles,3x3,v{v},manhattan,1,on,solved,2,2,{},5,1,2,0.01,0.01,1000.0,2,true,,RR\n",
            10 + v
        );
        iterations += &format!("d,1,v{v},1,2,{},5\n", 10 + v);
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("iterations.csv"), iterations).unwrap();
    let out = tmp.path().join("pictures");
    let args = [
        "plot",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let output = crate::common::with_stdin_within(crate::common::command(tmp.path(), &args), b"");
    crate::common::assert_exit(&output, 0);
    let stderr = crate::common::text(&output.stderr);
    assert!(
        stderr.contains("skipped 1879 scatter plots: at most 120 are drawn"),
        "{stderr}"
    );
    let names = crate::common::names(&out);
    let scatters = names.iter().filter(|n| n.starts_with("scatter-")).count();
    assert_eq!(scatters, 120, "{names:?}");
    for picture in [
        "cactus.svg",
        "cactus-nodes.svg",
        "iterations.svg",
        "report.html",
    ] {
        assert!(names.iter().any(|n| n == picture), "{names:?}");
    }
}

/// A suboptimal answer is not solved in any picture: step 2 on the Rotation Game (no known
/// parity) gives some, and the cactus plots count for each variant the solved jobs of its
/// summary.csv row, not every job that found a path.
#[test]
fn pictures_count_as_solved_what_the_summary_counts() {
    let tmp = Tmp::new("suboptimal");
    let out = tmp.out();
    let args = [
        "run",
        &dataset("rotation.csv"),
        "--step",
        "2,next",
        "--out",
        &out,
        "--name",
        "r",
        "-q",
    ];
    assert_exit(&idabench(tmp.path(), &args), 0);
    let dir = Path::new(&out).join("r");
    let summary = fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut suboptimal_seen = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let (variant, solved) = (f[col("variant")], f[col("solved")]);
        suboptimal_seen += f[col("suboptimal")].parse::<u32>().unwrap();
        for picture in ["cactus.svg", "cactus-nodes.svg"] {
            let svg = fs::read_to_string(dir.join(picture)).unwrap();
            assert!(
                svg.contains(&format!("{variant} ({solved})")),
                "{picture}: no '{variant} ({solved})'"
            );
        }
    }
    assert!(
        suboptimal_seen > 0,
        "no suboptimal answer to tell apart:\n{summary}"
    );
}

/// The `width` and `height` of the `<svg>` element of the picture at `path`.
fn svg_size(path: &Path) -> (u32, u32) {
    let text = fs::read_to_string(path).unwrap();
    let head = &text[..text.find('>').unwrap()];
    let attribute = |name: &str| -> u32 {
        let at = head.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        head[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attribute("width"), attribute("height"))
}

/// `--plot-size WxH` is the size of every picture of `plot` and of `compare --out`, and of
/// their images in report.html; a size out of bounds is a usage error naming the flag.
#[test]
fn plot_size_is_every_pictures_size() {
    let tmp = Tmp::new("plot-size");
    let dir = smoke_run(&tmp, "s", &["--heuristic", "manhattan,misplaced"]);
    let out = tmp.path().join("pictures");
    let o = plot(
        tmp.path(),
        &[
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--plot-size",
            "640x480",
        ],
    );
    assert_exit(&o, 0);
    let pictures = svgs(&out);
    assert_eq!(pictures.len(), 4, "{pictures:?}");
    for name in &pictures {
        assert_eq!(svg_size(&out.join(name)), (640, 480), "{name}");
    }
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(
        html.matches(" width=\"640\" height=\"480\" alt=").count(),
        4
    );

    // The committed baseline has jobs timed at 1 ms or more: both pictures are drawn.
    let compared = tmp.path().join("compared");
    let args = [
        "compare",
        &baseline(),
        &baseline(),
        "--out",
        compared.to_str().unwrap(),
        "--plot-size",
        "1000x700",
    ];
    assert_exit(&idabench(tmp.path(), &args), 0);
    for name in ["compare-nodes.svg", "compare-time.svg"] {
        assert_eq!(svg_size(&compared.join(name)), (1000, 700), "{name}");
    }

    for bad in ["640", "10x10", "640x480x2"] {
        let o = plot(tmp.path(), &[dir.to_str().unwrap(), "--plot-size", bad]);
        assert_exit(&o, 2);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--plot-size"), "{bad}: {err}");
    }
}

/// Variant names longer than a legend row are wrapped at their separators, whole; a name longer
/// than three rows keeps its start and end, and its full text is the SVG `<title>` of its
/// lines. The scatter plot's title names both, and its file name stays within a file system's
/// 255 bytes.
#[test]
fn long_variant_names_are_wrapped_or_given_whole_in_a_title() {
    let tmp = Tmp::new("plot-names");
    let dir = tmp.path().join("run");
    fs::create_dir(&dir).unwrap();
    let long = "linear-conflict/stepnext/prune+walking-distance/step2/noprune+pdb-663+reflect/stepnext/prune";
    let absurd = "segment/".repeat(40);
    let mut runs = String::from("dataset,instance,domain,size,variant,heuristic,step,reverse_pruning,status,length,optimal,nodes_generated,nodes_expanded,iterations,final_bound,time_wall_s,time_cpu_s,nodes_per_s,initial_h,optimal_guaranteed,message,path\n");
    for (variant, nodes) in [(long, 10), (absurd.as_str(), 20)] {
        runs += &format!(
            "d,1,tiles,3x3,{variant},manhattan,1,on,solved,2,2,{nodes},5,1,2,0.01,0.01,1000.0,2,true,,RR\n"
        );
    }
    fs::write(dir.join("runs.csv"), runs).unwrap();
    let o = plot(tmp.path(), &[dir.to_str().unwrap()]);
    assert_exit(&o, 0);
    let cactus = fs::read_to_string(dir.join("cactus-nodes.svg")).unwrap();
    let svg = Svg::parse(&cactus).unwrap();
    let lines: Vec<&str> = svg.texts().iter().map(|t| t.content.as_str()).collect();
    // The long name on two lines, each ending at a separator.
    let at = lines
        .iter()
        .position(|l| long.starts_with(l) && l.len() > 20)
        .unwrap();
    assert_eq!(
        format!("{}{}", lines[at], lines[at + 1]),
        format!("{long} (1)")
    );
    assert!(lines[at].ends_with(['/', '+', '-']), "{lines:?}");
    // The absurd one: three lines, each titled with the whole name.
    let titled = format!("<g><title>{absurd} (1)</title><text");
    assert_eq!(cactus.matches(&titled).count(), 3, "{cactus}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with('…') && absurd.ends_with(&l[3..l.len() - 4])));

    let names = svgs(&dir);
    let scatter = names.iter().find(|n| n.starts_with("scatter-")).unwrap();
    assert!(scatter.len() <= 255, "{scatter}");
    let text = fs::read_to_string(dir.join(scatter)).unwrap();
    assert!(
        text.contains(&format!(
            "<title>Nodes generated: {long} (x) vs {absurd} (y)</title>"
        )),
        "{text}"
    );
}
