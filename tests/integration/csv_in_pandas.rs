//! The README's pandas snippet, run as written on a run made here: ids that look like numbers,
//! or like pandas' words for a missing value, read back as the text they are, and the files
//! join. Skipped, saying so, where Python has no pandas (`.ci/run` installs it).

use crate::common::*;
use std::process::Command;

/// The README's first `python` block.
fn snippet() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("```python\n")
        .expect("README has a python block")
        + 10;
    let len = readme[start..].find("```").unwrap();
    readme[start..start + len].to_owned()
}

#[test]
fn the_readmes_pandas_snippet_reads_every_id_as_text_and_joins() {
    let has_pandas = Command::new("python3")
        .args(["-c", "import pandas"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_pandas {
        eprintln!("skipped: no python3 with pandas here (pip install pandas)");
        return;
    }
    let tmp = Tmp::new("pandas");
    // Ids pandas would read as the integers 7 and 12, and as a missing value.
    let csv = "id,domain,size,start,goal,optimal\n\
               007,tiles,3x3,1 2 3 4 5 6 7 0 8,,1\n\
               12,tiles,3x3,1 2 3 4 5 6 0 7 8,,2\n\
               NA,tiles,3x3,1 2 3 4 5 0 7 8 6,,\n";
    let data = tmp.write("ids.csv", csv);
    let out = idabench(
        tmp.path(),
        &[
            "run",
            &data,
            "--heuristic",
            "manhattan",
            "--out",
            &tmp.out(),
            "--name",
            "p",
            "-q",
        ],
    );
    assert_exit(&out, 0);
    let code = snippet();
    let folder = "run = \"reports/smoke\"";
    assert!(
        code.contains(folder),
        "the snippet names its folder: {code}"
    );
    let dir = tmp.run_dir("p");
    let code = code.replace(folder, &format!("run = {:?}", dir.to_str().unwrap()));
    let checks = r#"
assert list(runs["instance"]) == ["007", "12", "NA"], list(runs["instance"])
assert list(runs["run"]) == ["p"] * 3
assert list(runs["optimal"].isna()) == [False, False, True]
assert runs["length"].dtype == "Int64" and list(runs["length"]) == [1, 2, 1]
assert runs["optimal_guaranteed"].dtype == bool
assert set(solved["instance"]) == {"007", "12", "NA"} and len(solved) == len(iterations)
assert list(summary["run"]) == ["p"] and summary["solved"].dtype == "int64"
assert list(groups["size"]) == ["3x3"] and list(groups["solved"]) == [3]
assert runs["branching_factor"].dtype == "float64" and runs["bpmx_raises"].dtype == "int64"
for c in ["growth", "children_per_expansion"]:
    assert iterations[c].dtype == "float64", (c, iterations[c].dtype)
assert iterations["growth"].isna().all()
print("ok")
"#;
    let out = Command::new("python3")
        .args(["-c", &(code + checks)])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(text(&out.stdout), "ok\n");
}
