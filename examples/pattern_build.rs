//! One pattern database built and timed, for patterns no `pdb-...` name offers (the 7-tile ones
//! of the 24-puzzle, whose build docs/pattern-databases.md reports):
//! `cargo build --release --example pattern_build`, then
//! `/usr/bin/time -v target/release/examples/pattern_build 5x5 1.2.5.6.7.10.11 [zero]`.
//! The board is WIDTHxHEIGHT with the blank's goal on cell 0, the cells are the pattern's tiles'
//! goal cells, `zero` builds the zero-aware table. Says the entries, the build's wall time and
//! the memory the builder says it holds at most; the table is checked and then dropped.

use idabench::domains::tiles::pattern::Pattern;
use idabench::domains::tiles::zero::ZeroAware;
use idabench::tables::store::{Spec, Unbuilt};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: pattern_build WIDTHxHEIGHT CELL.CELL... [zero]";
    let (Some(board), Some(cells)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let zero = match args.get(2).map(String::as_str) {
        None => false,
        Some("zero") => true,
        Some(other) => fail(&format!("{other:?}: expected `zero` or nothing; {usage}")),
    };
    let (width, height) = board
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .unwrap_or_else(|| fail(&format!("{board:?}: expected WIDTHxHEIGHT")));
    let cells: Vec<u8> = cells
        .split('.')
        .map(|c| {
            c.parse()
                .unwrap_or_else(|_| fail(&format!("{c:?}: not a cell")))
        })
        .collect();
    let pattern = Pattern::new(width, height, 0, &cells).unwrap_or_else(|e| fail(&e));
    let spec: Box<dyn Spec> = if zero {
        Box::new(ZeroAware::new(pattern))
    } else {
        Box::new(pattern)
    };
    println!(
        "{}: {} entries, the builder holds at most {:.2} GB",
        spec.key(),
        spec.entries(),
        spec.build_memory() as f64 / 1e9
    );
    let began = Instant::now();
    let table = spec
        .build(&|_| {}, &AtomicBool::new(false))
        .unwrap_or_else(|e| match e {
            Unbuilt::Refused(why) => fail(&why),
            Unbuilt::Stopped => fail("stopped"),
        });
    let took = began.elapsed();
    let zeros = table.iter().filter(|&&b| b == 0).count() as u64;
    spec.check(&table, zeros)
        .unwrap_or_else(|e| fail(&format!("the built table fails its check: {e}")));
    println!("built in {:.1} s wall", took.as_secs_f64());
}

fn fail(why: &str) -> ! {
    eprintln!("pattern_build: {why}");
    std::process::exit(2);
}
