//! Ctrl-C, SIGTERM and SIGHUP for the commands that stop cleanly (`run`, `ab`): the first
//! request sets a flag the command polls, a second one ends the process at once.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The exit code of a command that stopped on a signal: 128 + SIGINT, as shells report it.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Signals this soon after the first was handled are the first request again, not a second
/// one: `timeout` sends its SIGTERM to the process and then to the process's group, and a CI
/// runner that stops a job's process group does likewise, so one request arrives twice,
/// microseconds apart. A person who presses Ctrl-C twice that fast is asked to press it again.
pub const REPEAT: Duration = Duration::from_millis(500);

/// What a signal is, given when the first one was handled (`None`: this is the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The request to stop cleanly.
    First,
    /// The first request delivered again (see `REPEAT`).
    Repeat,
    /// A second request: leave at once.
    Second,
}

impl Signal {
    pub fn of(first: Option<Instant>, now: Instant) -> Signal {
        match first {
            None => Signal::First,
            Some(t) if now.saturating_duration_since(t) < REPEAT => Signal::Repeat,
            Some(_) => Signal::Second,
        }
    }
}

/// Installs the process's handler: the first signal sets `cancel`, then runs `each` and `first`;
/// a repeat runs `each`; a second request (see `Signal`) runs `each` and exits with 130.
/// `cancel` is set before `each` runs, so that what `each` stops cannot be started again
/// unseen. `unavailable` is said when signals cannot be caught, after the reason.
pub fn install(
    cancel: &'static AtomicBool,
    each: impl Fn() + Send + 'static,
    first: impl Fn() + Send + 'static,
    unavailable: &str,
) {
    let mut first_at = None;
    // ctrlc runs the handler on a thread of its own, one signal after another, so it may keep
    // state and read the clock.
    let installed = ctrlc::set_handler(move || match Signal::of(first_at, Instant::now()) {
        Signal::First => {
            cancel.store(true, Ordering::SeqCst);
            each();
            first();
            // From the end of the first's handling: a repeat waiting behind a slow stderr is
            // still a repeat.
            first_at = Some(Instant::now());
        }
        Signal::Repeat => each(),
        Signal::Second => {
            each();
            std::process::exit(i32::from(EXIT_INTERRUPTED))
        }
    });
    if let Err(e) = installed {
        // A full or closed stderr must not stop the command.
        let _ = writeln!(
            std::io::stderr(),
            "note: signals cannot be caught ({e}): {unavailable}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_soon_after_the_first_is_the_same_request_and_a_later_one_a_second() {
        let t = Instant::now();
        assert_eq!(Signal::of(None, t), Signal::First);
        assert_eq!(Signal::of(Some(t), t), Signal::Repeat);
        let soon = t + REPEAT - Duration::from_millis(1);
        assert_eq!(Signal::of(Some(t), soon), Signal::Repeat);
        assert_eq!(Signal::of(Some(t), t + REPEAT), Signal::Second);
        assert_eq!(Signal::of(Some(t), t + 10 * REPEAT), Signal::Second);
    }
}
