//! Numbers for people: SI prefixes (`1.5 M`, `2 ms`), digit groups (`181,440`) and sizes in
//! powers of 1024 (`1.5 MiB`); digests in hex.

/// `bytes` in lowercase hex, two digits a byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `value` with an SI prefix and up to 3 significant digits: `1 ms`, `20 k`, `1.5 M`.
pub fn si(value: f64, unit: &str) -> String {
    const PREFIXES: [(f64, &str); 9] = [
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "k"),
        (1.0, ""),
        (1e-3, "m"),
        (1e-6, "µ"),
        (1e-9, "n"),
        (1e-12, "p"),
    ];
    if value == 0.0 {
        return format!("0 {unit}").trim_end().to_string();
    }
    let (scale, prefix) = PREFIXES
        .iter()
        .copied()
        .find(|&(scale, _)| value.abs() >= scale * 0.9995)
        .unwrap_or(PREFIXES[PREFIXES.len() - 1]);
    let scaled = value / scale;
    let decimals = (2 - scaled.abs().log10().floor() as i32).clamp(0, 2) as usize;
    let digits = format!("{scaled:.decimals$}");
    let digits = if digits.contains('.') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        &digits
    };
    let text = format!("{digits} {prefix}{unit}");
    text.trim_end().to_string()
}

/// `n` bytes in the largest power of 1024 that keeps a whole part, to 3 significant digits:
/// `512 B`, `1.5 MiB`, `3.63 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    let digits = format!("{value:.decimals$}");
    let digits = if digits.contains('.') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        &digits
    };
    format!("{digits} {}", UNITS[unit])
}

/// `n` with a comma between groups of three digits: `181,440`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_labels() {
        assert_eq!(si(1e-6, "s"), "1 µs");
        assert_eq!(si(0.002, "s"), "2 ms");
        assert_eq!(si(1.0, "s"), "1 s");
        assert_eq!(si(20000.0, ""), "20 k");
        assert_eq!(si(1.5e6, ""), "1.5 M");
        assert_eq!(si(100.0, ""), "100");
        // Three significant digits, not three decimals.
        assert_eq!(si(98.657, ""), "98.7");
        assert_eq!(si(2.523e-6, "s"), "2.52 µs");
        assert_eq!(si(797.948, ""), "798");
        assert_eq!(si(0.0123, "s"), "12.3 ms");
    }

    #[test]
    fn sizes_in_powers_of_1024() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1024), "1 KiB");
        assert_eq!(bytes(3 * 524_160), "1.5 MiB");
        // pdb-78's build: 518,918,400 entries, 7 bytes each.
        assert_eq!(bytes(7 * 518_918_400), "3.38 GiB");
        assert_eq!(bytes(150 << 20), "150 MiB");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(181440), "181,440");
        assert_eq!(thousands(12345678), "12,345,678");
    }
}
