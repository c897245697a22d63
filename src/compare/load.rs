//! Reading one run: a report directory, or a runs.csv file, with the manifest.json beside it; a
//! job run several times (`run --repeat`) is read as one (`Jobs::reduced`).

use super::{CompareError, Jobs, SavedRun};
use crate::results::{self, record, ReportError};
use std::path::Path;

/// Reads a run: `path` is a report directory holding runs.csv (and optionally manifest.json), or a
/// runs.csv file (with an optional manifest.json beside it).
pub fn load(path: &Path) -> Result<SavedRun, CompareError> {
    if !path.exists() {
        return Err(CompareError::NotFound {
            path: path.to_path_buf(),
        });
    }
    let jobs = if path.is_dir() {
        read_jobs(&path.join("runs.csv"), results::read_file)?
    } else {
        // The file the user named, read as given: a pipe too.
        read_jobs(path, results::read_named_file)?
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
        jobs,
        manifest,
        source: path.display().to_string(),
    })
}

/// The jobs of the runs.csv at `path`, whose bytes `read` gives, as `record::read_runs` checks
/// them (a row listed twice included), kept in `Jobs`' compact rows (only the file and one row's
/// fields are held besides), each job's repetitions reduced to one.
fn read_jobs(
    path: &Path,
    read: impl Fn(&Path) -> Result<Vec<u8>, ReportError>,
) -> Result<Jobs, CompareError> {
    let bad = |message: String| CompareError::BadRuns(message);
    let bytes = read(path).map_err(|e| bad(e.to_string()))?;
    let mut jobs = Jobs::default();
    // Each job's line, for the message of a job listed twice: 4 bytes a job while reading.
    let mut lines: Vec<u32> = Vec::new();
    let visited = record::visit_runs(path, &bytes, |line, r| {
        jobs.push(r);
        // Lines of a file of at most 1 GiB.
        lines.push(u32::try_from(line).unwrap_or(u32::MAX));
        Ok(())
    });
    drop(bytes);
    // A job listed twice before a bad row is the first fault of the file.
    if let Some((first, again)) = jobs.first_repeat() {
        let line = |i: usize| u64::from(lines[i]);
        return Err(bad(record::repeated(
            path,
            line(again),
            jobs.get(again).row_key(),
            line(first),
        )));
    }
    visited.map_err(bad)?;
    if jobs.is_empty() {
        return Err(CompareError::NoJobs {
            path: path.to_path_buf(),
        });
    }
    Ok(jobs.reduced())
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
        // Without the columns after `path`, in the header and the row (no field of the fixture
        // holds a comma): a runs.csv written before `repetition` existed, whose rows are of
        // repetition 1.
        let cut = |text: &str, keep: usize| -> String {
            text.lines()
                .map(|line| {
                    format!(
                        "{}\n",
                        line.split(',').take(keep).collect::<Vec<_>>().join(",")
                    )
                })
                .collect()
        };
        std::fs::write(&gone, cut(&full, 22)).unwrap();
        let old = load(&gone).unwrap();
        assert_eq!(old.jobs.get(0).repetition, 1);
        // Without `path` too: not a runs.csv.
        std::fs::write(&gone, cut(&full, 21)).unwrap();
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
        run.jobs.push(&record(2, VARIANTS[1], 3.0));
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
    fn the_first_fault_of_the_file_is_reported_a_repeated_job_or_a_bad_row() {
        let dir = temp_dir("first-fault");
        let runs = dir.join("runs.csv").display().to_string();
        let mut records = baseline_records();
        records.insert(10, record(2, VARIANTS[0], 3.0));
        let mut late = records.clone();
        late[30].time_cpu_s = -1.0;
        write_runs(&dir, &late);
        let err = load(&dir).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{runs}:12: job (dataset 'korf100', instance '2', "
            )),
            "{err}"
        );
        let mut early = records;
        early[5].time_cpu_s = -1.0;
        write_runs(&dir, &early);
        let err = load(&dir).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{runs}:7: column `time_cpu_s`")),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn times_that_are_not_finite_negative_or_absurd_are_errors_naming_line_and_column() {
        let dir = temp_dir("times");
        let runs = dir.join("runs.csv").display().to_string();
        let time = "a number of seconds from 0 to 1e9 (about 32 years)";
        let rate = "a finite number of at least 0";
        let cases = [
            ("time_cpu_s", f64::NAN, "NaN", time),
            ("time_wall_s", -0.5, "-0.5", time),
            ("nodes_per_s", f64::INFINITY, "inf", rate),
            ("nodes_per_s", -1.0, "-1.0", rate),
            ("time_cpu_s", f64::NEG_INFINITY, "-inf", time),
            // Finite, but no run measures them: they would make the axes of the pictures
            // infinite.
            ("time_cpu_s", 1.7e308, "1.7e308", time),
            ("time_wall_s", 1e10, "10000000000.0", time),
        ];
        for (column, value, shown, expected) in cases {
            let mut records = baseline_records();
            let r = &mut records[4];
            match column {
                "time_cpu_s" => r.time_cpu_s = value,
                "time_wall_s" => r.time_wall_s = value,
                _ => r.nodes_per_s = value,
            }
            write_runs(&dir, &records);
            let err = load(&dir).unwrap_err().to_string();
            assert_eq!(
                err,
                format!("{runs}:6: column `{column}`: expected {expected}, found {shown}")
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
