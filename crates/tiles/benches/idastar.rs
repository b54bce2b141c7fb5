//! The tiles' own IDA* against the generic engine's `idastar` on the same puzzles, in the same run.
//!
//! `cargo bench -p frontier-tiles --bench idastar`. Benchmarks are named `solver/tiles/size`;
//! the generic engine with Manhattan distance is the baseline.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use frontier_search::{idastar, Config, Status};
use frontier_tiles::pdb::{default_sizes, groups_by_sizes};
use frontier_tiles::{Estimate, PatternDb, Puzzle, Shape, Solver, Tables, TilesSpace};

fn pdb(shape: Shape, goal: &[u8], sizes: &[usize]) -> Estimate {
    let groups = groups_by_sizes(shape, goal, sizes).expect("sizes add up");
    Estimate::Pdb(Arc::new(
        PatternDb::build(
            &Tables::new(&Puzzle::new(shape, goal, goal).expect("a goal is a layout")),
            &groups,
            &|_, _| {},
        )
        .expect("groups by sizes split the tiles"),
    ))
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();

    // The 8-puzzle's hardest layout (31 moves).
    let shape = Shape::new(3, 3).expect("3x3");
    let p8 = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None).expect("valid");
    let mut g = c.benchmark_group("idastar/tiles/3x3");
    g.bench_function("generic-manhattan (baseline)", |b| {
        let space = TilesSpace::<u64>::new(&p8);
        b.iter(|| {
            let o = idastar(black_box(&space), &Config::default());
            assert_eq!(o.status(), Status::Solved);
        })
    });
    let pdb8 = pdb(shape, p8.goal(), &default_sizes(shape));
    for (name, estimate) in [
        ("manhattan", Estimate::Manhattan),
        ("conflict", Estimate::Conflict),
        ("pdb", pdb8),
    ] {
        let solver = Solver::new(&p8, estimate).unwrap();
        g.bench_function(BenchmarkId::new("fast", name), |b| {
            b.iter(|| solver.solve(black_box(p8.start()), &Config::default()))
        });
    }
    g.finish();

    // Three of Korf's (1985) easy 15-puzzle instances: 9 (46 moves), 55 (41), 79 (42).
    let shape = Shape::new(4, 4).expect("4x4");
    let goal: Vec<u8> = (0..16).collect();
    let korf = [
        "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0",
        "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11",
        "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15",
    ];
    let puzzles: Vec<Puzzle> = korf
        .iter()
        .map(|t| {
            Puzzle::new(
                shape,
                &t.split(' ')
                    .map(|x| x.parse().expect("tile"))
                    .collect::<Vec<u8>>(),
                &goal,
            )
            .expect("valid")
        })
        .collect();
    let pdb15 = pdb(shape, &goal, &[5, 5, 5]);
    let mut g = c.benchmark_group("idastar/tiles/4x4-korf-easy");
    for (name, estimate) in [("conflict", Estimate::Conflict), ("pdb-5-5-5", pdb15)] {
        let solvers: Vec<Solver> = puzzles
            .iter()
            .map(|p| Solver::new(p, estimate.clone()).unwrap())
            .collect();
        g.bench_function(BenchmarkId::new("fast", name), |b| {
            b.iter(|| {
                for (s, p) in solvers.iter().zip(&puzzles) {
                    black_box(s.solve(p.start(), &Config::default()));
                }
            })
        });
    }
    g.finish();
    c.final_summary();
}
