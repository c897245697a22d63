//! Reading one run: a report directory, or a runs.csv file, with the manifest.json beside it.

use super::{CompareError, SavedRun};
use crate::results::record::{self, Record};
use crate::results::{self, ReportError};
use std::path::Path;

/// Reads a run: `path` is a report directory holding runs.csv (and optionally manifest.json), or a
/// runs.csv file (with an optional manifest.json beside it).
pub fn load(path: &Path) -> Result<SavedRun, CompareError> {
    if !path.exists() {
        return Err(CompareError::NotFound {
            path: path.to_path_buf(),
        });
    }
    let records = if path.is_dir() {
        read_records(&path.join("runs.csv"), record::read_runs)?
    } else {
        // The file the user named, read as given: a pipe too.
        let named = |p: &Path| record::parse_runs(p, &results::read_named_file(p)?);
        read_records(path, named)?
    };
    let manifest_path = if path.is_dir() {
        path.join("manifest.json")
    } else {
        path.with_file_name("manifest.json")
    };
    let manifest = if manifest_path.is_file() {
        Some(
            record::read_manifest(&manifest_path)
                .map_err(|e| CompareError::BadManifest(e.to_string()))?,
        )
    } else {
        None
    };
    Ok(SavedRun {
        records,
        manifest,
        source: path.display().to_string(),
    })
}

fn read_records(
    path: &Path,
    read: impl Fn(&Path) -> Result<Vec<Record>, ReportError>,
) -> Result<Vec<Record>, CompareError> {
    let records = read(path).map_err(|e| CompareError::BadRuns(e.to_string()))?;
    if records.is_empty() {
        return Err(CompareError::NoJobs {
            path: path.to_path_buf(),
        });
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::fixtures::*;

    #[test]
    fn bad_inputs_are_errors_naming_the_file() {
        let dir = temp_dir("bad");
        let missing = dir.join("nowhere");
        let err = load(&missing).unwrap_err().to_string();
        assert!(err.starts_with(&missing.display().to_string()), "{err}");

        let empty_dir = dir.join("empty");
        std::fs::create_dir(&empty_dir).unwrap();
        let err = load(&empty_dir).unwrap_err().to_string();
        assert!(
            err.contains(&empty_dir.join("runs.csv").display().to_string()),
            "{err}"
        );

        let empty = dir.join("empty.csv");
        std::fs::write(&empty, "").unwrap();
        let err = load(&empty).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "{}: no jobs (expected a header row and one row per job)",
                empty.display()
            )
        );

        let garbage = dir.join("garbage.csv");
        std::fs::write(&garbage, "this is,not a run\nat all\n").unwrap();
        let err = load(&garbage).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "{}:1: not a runs.csv of idabench: the header lacks `dataset`, `instance`, \
                 `domain`, 19 more of its 22 columns (found 'this is,not a run')",
                garbage.display()
            )
        );

        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(record(1, VARIANTS[0], 1.0)).unwrap();
        let full = String::from_utf8(writer.into_inner().unwrap()).unwrap();

        let gone = dir.join("gone.csv");
        // Without the last column (path), in the header and the row.
        let text: String = full
            .lines()
            .map(|line| format!("{}\n", &line[..line.rfind(',').unwrap()]))
            .collect();
        std::fs::write(&gone, text).unwrap();
        let err = load(&gone).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{}:1: not a runs.csv of idabench: the header lacks `path` (found 'dataset,",
                gone.display()
            )),
            "{err}"
        );

        let bad_number = dir.join("bad_number.csv");
        std::fs::write(&bad_number, full.replace(",1037,", ",lots,")).unwrap();
        let err = load(&bad_number).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{}:2: column `nodes_generated`: ",
                bad_number.display()
            )),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_job_listed_twice_is_an_error() {
        let dir = temp_dir("twice");
        let mut run = baseline();
        run.records.push(record(2, VARIANTS[1], 3.0));
        write_report(&dir, &run);
        let err = load(&dir).unwrap_err().to_string();
        assert!(
            err.contains("runs.csv:42: job (dataset 'korf100', instance '2', variant '"),
            "{err}"
        );
        assert!(err.ends_with("first at line 23"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn times_that_are_not_finite_or_negative_are_errors_naming_line_and_column() {
        let dir = temp_dir("times");
        let runs = dir.join("runs.csv").display().to_string();
        let cases = [
            ("time_cpu_s", f64::NAN, "NaN"),
            ("time_wall_s", -0.5, "-0.5"),
            ("nodes_per_s", f64::INFINITY, "inf"),
            ("time_cpu_s", f64::NEG_INFINITY, "-inf"),
        ];
        for (column, value, shown) in cases {
            let mut run = baseline();
            let r = &mut run.records[4];
            match column {
                "time_cpu_s" => r.time_cpu_s = value,
                "time_wall_s" => r.time_wall_s = value,
                _ => r.nodes_per_s = value,
            }
            write_report(&dir, &run);
            let err = load(&dir).unwrap_err().to_string();
            assert_eq!(
                err,
                format!("{runs}:6: column `{column}`: expected a finite number of at least 0, found {shown}")
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
