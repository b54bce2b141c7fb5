//! The two-phase solver on random cubes: how long it takes and how long its solutions are.
//!
//! `cargo run --release -p frontier-cube --example twophase -- [CUBES] [TARGET] [SEED] [THREADS]`
//! (defaults: 100 cubes, target 20 moves, seed 1, one thread). Each cube is uniformly random (all
//! 43,252,003,274,489,856,000 positions equally likely); every solution is replayed on the
//! facelet model. Prints the tables' load time, then per-cube times (median, 90th percentile,
//! max) and the distribution of solution lengths.

use std::time::Instant;

use frontier_cube::{Cube, Facelets, TwoPhase};
use frontier_search::Config;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (cubes, target, seed) = (arg(1, 100), arg(2, 20) as usize, arg(3, 1));
    let config = Config::default().threads(arg(4, 1) as usize);
    let started = Instant::now();
    let solver = TwoPhase::get();
    println!(
        "tables: {:.3} s ({:?})",
        started.elapsed().as_secs_f64(),
        solver.cache_report().map(|r| r.origin).collect::<Vec<_>>()
    );
    let mut times = Vec::new();
    let mut lengths = [0usize; 31];
    let mut nodes = 0;
    for k in 0..cubes {
        let cube = Cube::random(seed.wrapping_mul(1_000_003).wrapping_add(k));
        let started = Instant::now();
        let outcome = solver.solve(cube, target, &config);
        times.push(started.elapsed().as_secs_f64());
        let solution = outcome.solution().expect("two-phase solves every cube");
        let mut facelets = cube.to_facelets();
        for &mv in &solution.moves {
            facelets.apply(mv);
        }
        assert_eq!(facelets, Facelets::SOLVED, "cube {k}: the solution fails");
        lengths[solution.len()] += 1;
        nodes += outcome.stats().expanded;
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize] * 1e3;
    println!(
        "{cubes} random cubes, target {target}, {} thread(s): median {:.1} ms, 90% {:.1} ms, max {:.1} ms, total {:.2} s, {:.1} M nodes/s",
        config.threads,
        at(0.5),
        at(0.9),
        at(1.0),
        times.iter().sum::<f64>(),
        nodes as f64 / times.iter().sum::<f64>() / 1e6
    );
    let spread: Vec<String> = (0..lengths.len())
        .filter(|&l| lengths[l] > 0)
        .map(|l| format!("{l}: {}", lengths[l]))
        .collect();
    println!("lengths: {}", spread.join(", "));
}
