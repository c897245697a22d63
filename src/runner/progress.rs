//! Progress of a batch on stderr: a bar on a terminal, a plain line every few seconds
//! elsewhere, nothing when quiet; a full or closed stderr loses it without stopping the run.

use crate::results::record::{Record, Status};
use crate::runner::batch::Finished;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Counts kept while a batch runs, for the progress line.
#[derive(Default)]
pub(super) struct ProgressCounts {
    done: u64,
    solved: u64,
    limited: u64,
    nodes: u64,
    cpu: f64,
}

impl ProgressCounts {
    fn add<S>(&mut self, r: &Record<S>) {
        self.done += 1;
        self.solved += u64::from(r.status == Status::Solved);
        self.limited += u64::from(r.status.limited());
        self.nodes += r.nodes_generated;
        self.cpu += r.time_cpu_s;
    }

    pub(super) fn of(finished: &Finished<'_>) -> ProgressCounts {
        let mut counts = ProgressCounts::default();
        for (_, r, _) in finished.jobs() {
            counts.add(r);
        }
        counts
    }

    pub(super) fn absorb(&mut self, other: &ProgressCounts) {
        self.done += other.done;
        self.solved += other.solved;
        self.limited += other.limited;
        self.nodes += other.nodes;
        self.cpu += other.cpu;
    }

    fn message(&self) -> String {
        let rate = if self.cpu > 0.0 {
            self.nodes as f64 / self.cpu
        } else {
            0.0
        };
        format!(
            "solved {} limited {} | {:.1} M nodes/s per worker",
            self.solved,
            self.limited,
            rate / 1e6
        )
    }
}

/// Progress on stderr: a bar on a terminal, a plain line every few seconds elsewhere.
pub(super) enum Progress {
    Quiet,
    Bar(ProgressBar, std::cell::Cell<Instant>),
    Lines {
        total: u64,
        started: Instant,
        last: std::cell::Cell<Instant>,
        /// The job count of the last line printed, so that `finish` does not repeat it.
        printed: std::cell::Cell<Option<u64>>,
    },
}

const LINE_EVERY: Duration = Duration::from_secs(5);
const BAR_MESSAGE_EVERY: Duration = Duration::from_millis(200);
const BAR_TICK: Duration = Duration::from_millis(200);

impl Progress {
    pub(super) fn new(total: u64, quiet: bool) -> Progress {
        if quiet {
            return Progress::Quiet;
        }
        let now = Instant::now();
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            // The template is a constant that parses; the plain bar is only a fallback.
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} jobs | {msg} | {elapsed_precise} ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            // Redrawn from its own thread, so that elapsed and ETA move during a long job.
            bar.enable_steady_tick(BAR_TICK);
            Progress::Bar(bar, std::cell::Cell::new(now))
        } else {
            Progress::Lines {
                total,
                started: now,
                last: std::cell::Cell::new(now),
                printed: std::cell::Cell::new(None),
            }
        }
    }

    /// Lines mode: prints the progress line and remembers its job count.
    fn line(
        total: u64,
        started: Instant,
        printed: &std::cell::Cell<Option<u64>>,
        tally: &ProgressCounts,
    ) {
        printed.set(Some(tally.done));
        // Progress is for people: a full or closed stderr must not stop the run.
        let _ = writeln!(
            std::io::stderr(),
            "[{:>6.0}s] {}/{} jobs | {}",
            started.elapsed().as_secs_f64(),
            tally.done,
            total,
            tally.message()
        );
    }

    pub(super) fn update(&self, tally: &ProgressCounts) {
        match self {
            Progress::Quiet => {}
            Progress::Bar(bar, last) => {
                bar.set_position(tally.done);
                if last.get().elapsed() >= BAR_MESSAGE_EVERY {
                    last.set(Instant::now());
                    bar.set_message(tally.message());
                }
            }
            Progress::Lines {
                total,
                started,
                last,
                printed,
            } => {
                if last.get().elapsed() >= LINE_EVERY {
                    last.set(Instant::now());
                    Progress::line(*total, *started, printed, tally);
                }
            }
        }
    }

    pub(super) fn finish(&self, tally: &ProgressCounts) {
        match self {
            Progress::Quiet => {}
            Progress::Bar(bar, _) => {
                bar.set_message(tally.message());
                bar.finish();
            }
            Progress::Lines {
                total,
                started,
                printed,
                ..
            } => {
                // The last update may already have printed this count.
                if printed.get() != Some(tally.done) {
                    Progress::line(*total, *started, printed, tally);
                }
            }
        }
    }
}
