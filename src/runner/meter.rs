//! A worker's CPU clock, read sparingly: the jobs that end between two readings share the CPU
//! time measured over them.

use crate::runner::batch::{Finished, HAND_OVER_RECORDS};
use crate::runner::job::{set_times, Shared};
use crate::util::clock::thread_cpu_time;
use std::time::{Duration, Instant};

/// A worker's CPU clock, read at most every `CPU_READ_EVERY` of wall time instead of around each
/// job: reading a thread's CPU clock is a system call (0.6 µs here), more than a tiny job's whole
/// search. The jobs that ended between two readings share the CPU time measured over them in
/// proportion to their wall times; a job longer than `CPU_READ_EVERY` is read alone, so its CPU
/// time is its own up to the few microseconds of harness work since the last reading.
pub(super) struct Meter {
    /// The last reading: the thread's CPU time, and when it was read.
    cpu: Duration,
    pub(super) read_at: Instant,
    /// Wall time and sharing of the jobs since the last reading, whose records end `done`, and
    /// the CPU and wall time of their earlier attempts.
    pending: Vec<(Duration, Shared, (Duration, Duration))>,
}

/// The longest a worker goes without reading its CPU clock while jobs end.
pub(super) const CPU_READ_EVERY: Duration = Duration::from_micros(100);

impl Meter {
    pub(super) fn start() -> Meter {
        Meter {
            cpu: thread_cpu_time(),
            read_at: Instant::now(),
            pending: Vec::with_capacity(HAND_OVER_RECORDS),
        }
    }

    /// A job with a record (now the last of `done`) ended after `wall`, after earlier attempts
    /// that spent `prior` (CPU, wall).
    pub(super) fn ended(&mut self, wall: Duration, shared: Shared, prior: (Duration, Duration)) {
        self.pending.push((wall, shared, prior));
    }

    /// Reads the clocks and sets the times of the pending jobs, the last records of `done`. The
    /// thread ran `cpu / wall` of the time since the last reading (less when the machine took
    /// it away); each job is given that share of its own wall time.
    pub(super) fn read(&mut self, done: &mut Finished<'_>) {
        let (cpu, now) = (thread_cpu_time(), Instant::now());
        let share = running_share(cpu.saturating_sub(self.cpu), now - self.read_at);
        let first = done.jobs.len() - self.pending.len();
        for ((_, record, _), &(wall, shared, (cpu, before))) in
            done.jobs[first..].iter_mut().zip(&self.pending)
        {
            set_times(record, before + wall, cpu + shared.cpu(wall.mul_f64(share)));
        }
        self.pending.clear();
        (self.cpu, self.read_at) = (cpu, now);
    }
}

/// The part of `wall` a thread ran, given its CPU time over it: at most all of it (the two clocks
/// are read one after the other), and all of it when no time passed.
fn running_share(cpu: Duration, wall: Duration) -> f64 {
    if wall.is_zero() {
        return 1.0;
    }
    (cpu.as_secs_f64() / wall.as_secs_f64()).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_between_two_clock_readings_share_the_cpu_time_by_their_wall_times() {
        let ms = Duration::from_millis;
        assert_eq!(running_share(ms(10), ms(10)), 1.0);
        // The machine took half the time away: each job ran half its wall time.
        assert_eq!(running_share(ms(5), ms(10)), 0.5);
        assert_eq!(ms(8).mul_f64(running_share(ms(5), ms(10))), ms(4));
        // The CPU clock read a little after the wall clock does not make a job run longer.
        assert_eq!(running_share(ms(11), ms(10)), 1.0);
        assert_eq!(running_share(ms(1), Duration::ZERO), 1.0);
    }
}
