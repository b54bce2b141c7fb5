//! The optimal solver on scrambles of a given length or on random cubes: how long it takes.
//!
//! `cargo run --release -p frontier-cube --example optimal -- [CUBES] [LENGTH] [SEED] [THREADS]`
//! (defaults: 10 cubes, length 0 = uniformly random cubes, seed 1, one thread). With a length,
//! each cube is a random scramble of that many moves (HTM, no face turned twice in a row).
//! Every solution is replayed on the facelet model and checked to be no longer than the
//! scramble. Prints the table's load or build time, then each cube's time, length and nodes.

use std::time::Instant;

use frontier_cube::{random_scramble, Cube, Facelets, Metric, Optimal};
use frontier_search::Config;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (cubes, length, seed) = (arg(1, 10), arg(2, 0) as usize, arg(3, 1));
    let config = Config::default().threads(arg(4, 1) as usize);
    let started = Instant::now();
    let solver = Optimal::get(Metric::Htm);
    println!(
        "table: {:.2} s ({:?})",
        started.elapsed().as_secs_f64(),
        solver.cache_report().origin
    );
    let mut times = Vec::new();
    let mut nodes = 0;
    for k in 0..cubes {
        let key = seed.wrapping_mul(1_000_003).wrapping_add(k);
        let cube = match length {
            0 => Cube::random(key),
            n => Cube::SOLVED.apply_all(&random_scramble(key, n, Metric::Htm)),
        };
        let started = Instant::now();
        let outcome = solver.solve(cube, &config);
        let seconds = started.elapsed().as_secs_f64();
        times.push(seconds);
        let solution = outcome
            .solution()
            .expect("the optimal solver solves every cube");
        let mut facelets = cube.to_facelets();
        for &mv in &solution.moves {
            facelets.apply(mv);
        }
        assert_eq!(facelets, Facelets::SOLVED, "cube {k}: the solution fails");
        assert!(
            length == 0 || solution.len() <= length,
            "cube {k}: longer than its scramble"
        );
        nodes += outcome.stats().expanded;
        println!(
            "cube {k}: {} moves (bound at the root {}), {seconds:.3} s, {} nodes",
            solution.len(),
            solver.estimate(cube),
            outcome.stats().expanded
        );
    }
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "{cubes} cubes, {} thread(s): median {:.3} s, max {:.3} s, total {:.2} s, {:.1} M nodes/s",
        config.threads,
        times[times.len() / 2],
        times[times.len() - 1],
        total,
        nodes as f64 / total / 1e6
    );
}
