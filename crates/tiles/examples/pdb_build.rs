//! Times the build of the 15-puzzle's default 6-6-3 pattern databases in memory, the best of
//! a few rounds.
//!
//! `cargo run --release -p frontier-tiles --example pdb_build -- [ROUNDS]`

use std::time::Instant;

use frontier_tiles::pdb::default_groups;
use frontier_tiles::{PatternDb, Puzzle, Shape, Tables};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let shape = Shape::new(4, 4).expect("4x4");
    let tables = Tables::new(&Puzzle::new(shape, &goal, &goal).expect("a layout"));
    let groups = default_groups(shape, &goal).expect("a goal");
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let started = Instant::now();
        let db = PatternDb::build(&tables, &groups, &|_, _| {}).expect("the default groups");
        let seconds = started.elapsed().as_secs_f64();
        best = best.min(seconds);
        let max: Vec<u8> = db.patterns().iter().map(|p| p.max()).collect();
        println!("6-6-3 built in {seconds:.3} s; deepest entries {max:?}");
    }
    println!("best of {rounds}: {best:.3} s");
}
