//! Times the two-phase solver's tables: phase 1's (the HTM heuristic's four tables) built in
//! memory, and all of them (phase 1's and phase 2's) built and written into a fresh cache
//! directory, the best of a few rounds.
//!
//! `cargo run --release -p frontier-cube --example twophase_build -- [ROUNDS]`

use std::time::Instant;

use frontier_cube::{Heuristic, Metric, TwoPhase};
use frontier_tables::Cache;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let root = std::env::temp_dir().join(format!("frontier-twophase-build-{}", std::process::id()));
    let (mut phase1, mut all) = (f64::INFINITY, f64::INFINITY);
    for round in 0..rounds {
        let started = Instant::now();
        let heuristic = Heuristic::build(Metric::Htm);
        phase1 = phase1.min(started.elapsed().as_secs_f64());
        assert_eq!(heuristic.depths().len(), 4);
        let cache = Cache::at(root.join(round.to_string()));
        let started = Instant::now();
        let solver = TwoPhase::load_or_build(&cache);
        all = all.min(started.elapsed().as_secs_f64());
        let origins: Vec<_> = solver.cache_report().map(|r| r.origin).collect();
        println!("round {round}: {origins:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
    println!("best of {rounds}: phase 1 tables in memory {phase1:.3} s; all tables built and written {all:.3} s");
}
