//! Solving each preset and large generated puzzles with the default solver:
//! `cargo bench -p frontier-river`.

use criterion::{criterion_group, criterion_main, Criterion};
use frontier_river::{couples_toml, Puzzle, RiverSpace, PRESETS};
use frontier_search::{astar, bfs, bidirectional, Config};

fn solve(puzzle: &Puzzle) -> usize {
    // Build the space inside the measurement: a fresh safety memo each time.
    let space = RiverSpace::new(puzzle.clone());
    let outcome = if puzzle.is_timed() {
        astar(&space, &Config::default())
    } else {
        bfs(&space, &Config::default())
    };
    outcome.solution().map_or(0, |s| s.len())
}

fn presets(c: &mut Criterion) {
    let mut group = c.benchmark_group("default");
    for preset in PRESETS {
        let puzzle = Puzzle::preset(preset.name).unwrap();
        group.bench_function(format!("river/{}", preset.name), |b| {
            b.iter(|| solve(&puzzle))
        });
    }
    group.finish();
}

fn couples(c: &mut Criterion) {
    let mut group = c.benchmark_group("couples");
    group.sample_size(10);
    for (n, boat) in [(8, 4), (10, 4)] {
        let puzzle = Puzzle::from_toml(&couples_toml(n, boat)).unwrap();
        group.bench_function(format!("bfs/river/{n}-couples-boat-{boat}"), |b| {
            b.iter(|| solve(&puzzle))
        });
        group.bench_function(
            format!("bidirectional/river/{n}-couples-boat-{boat}"),
            |b| {
                b.iter(|| {
                    let space = RiverSpace::new(puzzle.clone());
                    bidirectional(&space, &Config::default()).stats().stored
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, presets, couples);
criterion_main!(benches);
