use idabench::domains::tiles::*;
use idabench::search::*;
fn main() {
    let goal: Vec<u8> = (0..16).collect();
    let d = Tiles::new(4, 4, &goal).unwrap();
    let text = std::fs::read_to_string("/work/shared/reference/korf100.csv").unwrap();
    let want: Vec<String> = std::env::args().skip(1).collect();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if !want.iter().any(|w| w == f[0]) { continue; }
        let tiles = parse_permutation(f[1], 16).unwrap();
        let s = d.state(&tiles).unwrap();
        let t = std::time::Instant::now();
        let r = ida_star(&d, &Manhattan, &s, Variant { step: Step::Next, reverse_pruning: true }, Limits::default());
        let el = t.elapsed().as_secs_f64();
        let len = match &r.outcome { Outcome::Solved(p) => p.len(), _ => 0 };
        println!("#{} len {} (want {}) gen {} exp {} iters {} korf {} diff {} {:.3}s {:.1}M/s", f[0], len, f[2], r.stats.generated, r.stats.expanded, r.stats.iterations.len(), f[3], r.stats.generated as i64 - f[3].parse::<i64>().unwrap(), el, r.stats.generated as f64/el/1e6);
    }
}
