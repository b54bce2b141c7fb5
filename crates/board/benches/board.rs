//! Criterion benchmarks: the engine's `bfs` against the board's `fast_bfs`, and `explore`
//! against `fast_explore`, on the seed's board and on a seeded random board.
//!
//! Run with `cargo bench -p frontier-board --bench board`. For 1000 x 1000 boards (a few seconds
//! per solver) see the `big_boards` example instead.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use frontier_board::{Board, Heading, Place, Puzzle, Rules, Start};
use frontier_search::{bfs, explore, Config};

/// Random A/B letters (xorshift64*, seeded), a C in the top-right corner.
fn random_board(size: usize, mut seed: u64) -> Board {
    let mut next = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut rows: Vec<String> = (0..size)
        .map(|_| {
            (0..size)
                .map(|_| if next() % 2 == 0 { 'A' } else { 'B' })
                .collect()
        })
        .collect();
    rows[0].replace_range(size - 1.., "C");
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let start = Start {
        place: Place::Below { column: 0 },
        heading: Heading::N,
    };
    Board::from_rows(&refs, start).expect("a valid board")
}

fn solvers(c: &mut Criterion) {
    let config = Config::default();
    let seed = Board::parse("AAAA\nACCB\nADEF\n*\n0 0 N\n").expect("the seed's board");
    let seed = Puzzle::new(seed, Rules::Seed, None).expect("F is on the board");
    c.bench_function("bfs/board/seed", |b| {
        b.iter(|| bfs(black_box(&seed), &config))
    });
    c.bench_function("fast_bfs/board/seed", |b| {
        b.iter(|| black_box(&seed).fast_bfs(&config))
    });
    let big = Puzzle::new(random_board(200, 2026), Rules::Lightbot, None).expect("C is there");
    let mut group = c.benchmark_group("lightbot-ab-200");
    group.sample_size(10);
    group.bench_function("bfs/board/200x200", |b| {
        b.iter(|| bfs(black_box(&big), &config))
    });
    group.bench_function("fast_bfs/board/200x200", |b| {
        b.iter(|| black_box(&big).fast_bfs(&config))
    });
    group.bench_function("explore/board/200x200", |b| {
        b.iter(|| explore(black_box(&big), &config))
    });
    group.bench_function("fast_explore/board/200x200", |b| {
        b.iter(|| black_box(&big).fast_explore(&config))
    });
    group.finish();
}

criterion_group!(benches, solvers);
criterion_main!(benches);
