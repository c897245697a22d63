//! The `inject-slowdown` cargo feature: busy work added to every expansion, so that a build can be
//! made slower per node the way a real regression is, without changing a node count. It exists
//! to test that `ab` sees such a change; a build without the feature has none of it.
//!
//! `IDABENCH_SLOWDOWN` is the extra work in percent of one expansion's cost, read once when the
//! process starts (`init_from_env`); each search takes it as a plain number (`lump`).

#[cfg(feature = "inject-slowdown")]
use std::hint::black_box;
#[cfg(feature = "inject-slowdown")]
use std::sync::OnceLock;

/// `IDABENCH_SLOWDOWN` as read at start: percent of an expansion's cost.
#[cfg(feature = "inject-slowdown")]
static PERCENT: OnceLock<f64> = OnceLock::new();

/// Expansions between two lumps of busy work: one lump every so often rather than a sliver per
/// expansion keeps the work a whole number of spins even for a small percentage.
#[cfg(feature = "inject-slowdown")]
pub(super) const EVERY: u64 = 256;

/// The spins of `spin` that take as long as one expansion of
/// Korf's 15-puzzle instances on the fixed 4x4 board, measured on the 2-core machine
/// docs/speed.md's figures come from: about 35 with Manhattan distance (11 ns an expansion) and
/// 80 with linear conflict (28 ns); this is near their geometric mean. The percentage is of that
/// nominal cost, so the same setting slows a search with a cheaper heuristic by more and one
/// with a costlier heuristic by less (docs/compare-and-ab.md gives the measured factors).
#[cfg(feature = "inject-slowdown")]
const SPINS_PER_EXPANSION: f64 = 52.0;

/// Reads `IDABENCH_SLOWDOWN` (unset or empty: 0) once; an error for a value that is not a
/// percentage from 0 to 1000.
#[cfg(feature = "inject-slowdown")]
pub fn init_from_env() -> Result<f64, String> {
    let value = std::env::var("IDABENCH_SLOWDOWN").unwrap_or_default();
    let percent = parse(&value)?;
    Ok(*PERCENT.get_or_init(|| percent))
}

/// A value of `IDABENCH_SLOWDOWN`: empty is 0; an error names the variable and the value.
fn parse(value: &str) -> Result<f64, String> {
    if value.trim().is_empty() {
        return Ok(0.0);
    }
    match value.trim().parse::<f64>() {
        Ok(p) if (0.0..=1000.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "IDABENCH_SLOWDOWN: expected a percentage from 0 to 1000, got '{}'",
            crate::util::text::shorten(value)
        )),
    }
}

/// Spins of busy work per `EVERY` expansions (0 without `IDABENCH_SLOWDOWN`).
#[cfg(feature = "inject-slowdown")]
pub(super) fn lump() -> u64 {
    let percent = PERCENT.get().copied().unwrap_or(0.0);
    (percent / 100.0 * SPINS_PER_EXPANSION * EVERY as f64).round() as u64
}

/// `n` turns of a loop the compiler cannot remove or shorten.
#[cfg(feature = "inject-slowdown")]
#[cold]
#[inline(never)]
pub(super) fn spin(n: u64) {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_add(i));
    }
    black_box(x);
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn percentages_from_0_to_1000_are_read_and_others_refused() {
        assert_eq!(parse(""), Ok(0.0));
        assert_eq!(parse("  "), Ok(0.0));
        assert_eq!(parse("10"), Ok(10.0));
        assert_eq!(parse(" 2.5 "), Ok(2.5));
        assert_eq!(parse("1000"), Ok(1000.0));
        for bad in ["-1", "1001", "ten", "10%", "NaN", "inf"] {
            assert_eq!(
                parse(bad),
                Err(format!(
                    "IDABENCH_SLOWDOWN: expected a percentage from 0 to 1000, got '{bad}'"
                )),
                "{bad}"
            );
        }
    }
}
