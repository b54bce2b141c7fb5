//! Times the first use of the heuristic tables (their build) in each metric.
//!
//! `cargo run --release -p frontier-cube --example heuristic_build`

use std::time::Instant;

use frontier_cube::{Cube, Heuristic, Metric};

fn main() {
    for metric in [Metric::Htm, Metric::Qtm] {
        let started = Instant::now();
        let h = Heuristic::get(metric);
        let seconds = started.elapsed().as_secs_f64();
        let sample = (0..1000).map(|s| h.estimate(Cube::random(s))).sum::<u64>() as f64 / 1000.0;
        println!(
            "{metric}: built in {seconds:.3} s; table depths {:?}; mean estimate of a random cube {sample:.2}",
            h.depths()
        );
    }
}
