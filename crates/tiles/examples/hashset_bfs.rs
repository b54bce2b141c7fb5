//! A plain breadth-first count of a board's reachable arrangements over an `FxHashSet`: the
//! baseline that `frontier explore tiles` is measured against (see `benches/RESULTS.md`).
//!
//! `cargo run --release -p frontier-tiles --example hashset_bfs -- [ROWSxCOLS]`
//!
//! Prints the layer counts, their sum and the seconds taken; run it under `/usr/bin/time -v`
//! for its peak memory.

use std::time::Instant;

use frontier_search::Space;
use frontier_tiles::{Puzzle, Shape, TilesSpace};
use rustc_hash::FxHashSet;

fn main() {
    let size = std::env::args().nth(1).unwrap_or_else(|| "3x3".to_string());
    let shape = Shape::parse(&size).expect("a size such as 4x3");
    let goal = shape.default_goal();
    let puzzle = Puzzle::new(shape, &goal, &goal).expect("the goal layout");
    let space = TilesSpace::<u64>::new(&puzzle);
    let started = Instant::now();
    let mut seen = FxHashSet::default();
    seen.insert(space.start());
    let (mut layer, mut next) = (vec![space.start()], Vec::new());
    let mut layers = Vec::new();
    while !layer.is_empty() {
        layers.push(layer.len() as u64);
        for state in &layer {
            space.successors(state, None, |_, s| {
                if seen.insert(s) {
                    next.push(s);
                }
            });
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("layers {layers:?}");
    println!("states {} in {seconds:.2} s", layers.iter().sum::<u64>());
}
