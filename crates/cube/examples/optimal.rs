//! The optimal solver on scrambles of a given length or on random cubes: how long it takes.
//!
//! `cargo run --release -p frontier-cube --example optimal -- [CUBES] [LENGTH] [SEED] [THREADS]
//! [TABLE] [METRIC] [CAP] [DEPTH] [VIEWS] [SYMMETRY]` (defaults: 10 cubes, length 0 =
//! uniformly random cubes, seed 1, one thread, the small table, htm, no cap, 6 views, 1). With a length, each cube
//! is a random scramble of that many moves (no face turned twice in a row); length `superflip`
//! solves the superflip once. TABLE is `small`, `medium` or `large` (read from the cache,
//! `$FRONTIER_CACHE_DIR`, or built there); VIEWS is 6 (the cube's and its inverse's three
//! axes) or 3 (the cube's alone); SYMMETRY 0 searches a symmetric cube's every move sequence
//! (1: one of those its symmetries map onto each other);
//! CAP is a timeout in seconds for each cube (a cube stopped by it counts as CAP in the median
//! and maximum, marked `>`). DEPTH, if given, stops each search after its iteration of that
//! bound: the nodes of complete iterations, to compare tables on a machine too busy to time
//! whole solves. Every solution is replayed on the facelet model and checked to be
//! no longer than the scramble. Prints the table's load or build time, then each cube's time
//! (wall clock, and the process's CPU time, all threads), length and nodes.

use std::time::{Duration, Instant};

use frontier_cube::{
    random_scramble, Cube, CubieCube, Facelets, Metric, Notation, Optimal, TableSize,
};
use frontier_search::Config;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let text = |i: usize, default: &str| std::env::args().nth(i).unwrap_or(default.to_owned());
    let superflip = text(2, "0") == "superflip";
    let (cubes, length, seed) = match superflip {
        true => (1, 0, 0),
        false => (arg(1, 10), arg(2, 0) as usize, arg(3, 1)),
    };
    let mut config = Config::default().threads(arg(4, 1) as usize);
    let size = TableSize::from_name(&text(5, "small")).expect("small, medium or large");
    let metric: Metric = text(6, "htm").parse().expect("htm or qtm");
    let cap = arg(7, 0);
    if cap > 0 {
        config = config.timeout(Duration::from_secs(cap));
    }
    let depth = arg(8, 0);
    if depth > 0 {
        config = config.max_depth(depth as u32);
    }
    let started = Instant::now();
    let cache = frontier_tables::Cache::from_env().join("cube");
    let mut solver =
        Optimal::load_or_build_table(&cache, size, metric, &|_| {}, &|| None).expect("no limit");
    let views = arg(9, 6);
    solver.set_inverse_views(views == 6);
    solver.set_symmetric_pruning(arg(10, 1) == 1);
    let solver = &solver;
    println!(
        "table: {:.2} s ({:?}), {views} views",
        started.elapsed().as_secs_f64(),
        solver.cache_report().origin
    );
    let mut times = Vec::new();
    let mut cpu_times = Vec::new();
    let mut nodes = 0;
    for k in 0..cubes {
        let key = seed.wrapping_mul(1_000_003).wrapping_add(k);
        let cube = match length {
            _ if superflip => {
                let cube = Cube::from_scramble(SUPERFLIP, Notation::Wca).expect("a scramble");
                // Every edge home and flipped, every corner solved.
                let (c, solved) = (cube.to_cubie(), CubieCube::SOLVED);
                assert_eq!(c.edge_orientation(), [1; 12], "the superflip");
                assert_eq!(c.edge_permutation(), solved.edge_permutation());
                assert_eq!(c.corner_permutation(), solved.corner_permutation());
                assert_eq!(c.corner_orientation(), [0; 8]);
                cube
            }
            0 => Cube::random(key),
            n => Cube::SOLVED.apply_all(&random_scramble(key, n, metric)),
        };
        let (started, cpu_started) = (Instant::now(), cpu_seconds());
        let outcome = solver.solve(cube, &config);
        let seconds = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu_started;
        times.push(seconds);
        cpu_times.push(cpu);
        let Some(solution) = outcome.solution() else {
            println!(
                "cube {k}: unsolved, {seconds:.3} s, cpu {cpu:.3} s (stopped: {:?}; bound at the root {}), {} nodes",
                outcome.status(),
                solver.estimate(cube),
                outcome.stats().expanded
            );
            nodes += outcome.stats().expanded;
            continue;
        };
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
            "cube {k}: {} moves (bound at the root {}), {seconds:.3} s, cpu {cpu:.3} s, {} nodes",
            solution.cost,
            solver.estimate(cube),
            outcome.stats().expanded
        );
    }
    times.sort_by(f64::total_cmp);
    cpu_times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "{cubes} cubes, {} table, {views} views, {metric}, {} thread(s): median {:.3} s (cpu {:.3} s), max {:.3} s (cpu {:.3} s), total {:.2} s, {} nodes, {:.2} M nodes/s",
        size.name(),
        config.threads,
        times[times.len() / 2],
        cpu_times[cpu_times.len() / 2],
        times[times.len() - 1],
        cpu_times[cpu_times.len() - 1],
        total,
        nodes,
        nodes as f64 / total / 1e6
    );
}

/// The CPU time of the whole process so far (every thread), in seconds.
fn cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 + now.tv_nsec as f64 / 1e9
}

/// The superflip (every edge flipped in place): 20 face turns, 24 quarter turns (Reid 1995,
/// Rokicki), this sequence from Reid.
const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
