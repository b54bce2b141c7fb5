//! Two-phase on seeded uniformly random cubes, one thread, tables loaded: the time of each
//! solve (median, 95th percentile, slowest) and the average length, at bounds 20 and 21; the
//! tables' first build and load. Each solve is timed by the wall clock and by this thread's
//! CPU time (steadier when other work shares the machine).
//!
//! `cargo bench -p frontier-cube --bench twophase -- [CUBES] [SEED] [ROUNDS] [--fresh]
//! [--write FILE] [--effort NODES]`
//!
//! Defaults: 100 cubes, seed 1, one round. The tables live in a cache directory of the bench's
//! own under the system's temporary directory; `--fresh` empties it first, so that the first
//! build is timed. `--write FILE` writes the cubes' facelet strings, one a line, for another
//! solver to time the same cubes. Every solution is replayed on the facelet model.

use std::time::Instant;

use frontier_cube::{Cube, Facelets, TwoPhase};
use frontier_search::Config;
use frontier_tables::Cache;

/// The CPU time this thread has used, in milliseconds: on a machine shared with other work,
/// steadier than the wall clock for comparing two versions.
fn cpu_ms() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 * 1e3 + now.tv_nsec as f64 / 1e6
}

/// The value at quantile `q` of sorted `values`.
fn quantile(values: &[f64], q: f64) -> f64 {
    values[((values.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let fresh = args.iter().any(|a| a == "--fresh");
    args.retain(|a| a != "--fresh");
    let mut take_value = |name: &str| {
        let at = args.iter().position(|a| a == name)?;
        args.remove(at);
        assert!(at < args.len(), "{name} needs a value");
        Some(args.remove(at))
    };
    let write = take_value("--write");
    let effort: Option<u64> = take_value("--effort").map(|n| n.parse().expect("a node count"));
    let number = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (cubes, seed, rounds) = (number(0, 100), number(1, 1), number(2, 1));
    let cubes: Vec<Cube> = (0..cubes)
        .map(|k| Cube::random(seed.wrapping_mul(1_000_003).wrapping_add(k)))
        .collect();
    if let Some(path) = write {
        let text: String = cubes.iter().map(|c| format!("{c}\n")).collect();
        std::fs::write(&path, text).expect("the facelets file is written");
    }
    let dir = std::env::temp_dir().join("frontier-twophase-bench");
    if fresh {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let cache = Cache::at(&dir);
    let started = Instant::now();
    let first = TwoPhase::load_or_build(&cache);
    let origins: Vec<_> = first.cache_report().map(|r| r.origin).collect();
    println!(
        "tables {:?}: {:.1} ms",
        origins,
        started.elapsed().as_secs_f64() * 1e3
    );
    drop(first);
    let started = Instant::now();
    let solver = TwoPhase::load_or_build(&cache);
    println!(
        "tables loaded: {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    let config = Config::default();
    // Warm-up: caches and branch predictors see a few solves first.
    for &cube in cubes.iter().take(20) {
        let _ = solver.solve(cube, 21, &config);
    }
    for round in 0..rounds {
        for bound in [21, 20] {
            let mut times = Vec::with_capacity(cubes.len());
            let mut cpu_times = Vec::with_capacity(cubes.len());
            let (mut moves, mut nodes) = (0, 0);
            let cpu = cpu_ms();
            for &cube in &cubes {
                let (started, cpu_started) = (Instant::now(), cpu_ms());
                let outcome = match effort {
                    Some(n) => solver.solve_with_effort(cube, bound, n, &config),
                    None => solver.solve(cube, bound, &config),
                };
                times.push(started.elapsed().as_secs_f64() * 1e3);
                cpu_times.push(cpu_ms() - cpu_started);
                let solution = outcome.solution().expect("two-phase solves every cube");
                assert!(solution.len() <= bound, "{} moves", solution.len());
                let mut facelets = cube.to_facelets();
                for &mv in &solution.moves {
                    facelets.apply(mv);
                }
                assert_eq!(facelets, Facelets::SOLVED, "{cube}: the solution fails");
                moves += solution.len();
                nodes += outcome.stats().expanded;
            }
            let cpu = cpu_ms() - cpu;
            times.sort_by(f64::total_cmp);
            cpu_times.sort_by(f64::total_cmp);
            println!(
                "round {round} bound {bound}: median {:.3} ms, p95 {:.3} ms, max {:.3} ms, mean {:.3} ms, average length {:.2}, {:.0} nodes a cube, CPU {:.1} ms in all",
                quantile(&times, 0.5),
                quantile(&times, 0.95),
                quantile(&times, 1.0),
                times.iter().sum::<f64>() / times.len() as f64,
                moves as f64 / cubes.len() as f64,
                nodes as f64 / cubes.len() as f64,
                cpu,
            );
            println!(
                "round {round} bound {bound} CPU time: median {:.3} ms, p95 {:.3} ms, max {:.3} ms",
                quantile(&cpu_times, 0.5),
                quantile(&cpu_times, 0.95),
                quantile(&cpu_times, 1.0),
            );
        }
    }
}
