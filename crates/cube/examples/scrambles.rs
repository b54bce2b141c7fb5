//! Prints seeded random HTM scrambles, one per line, for benchmarks:
//! `cargo run --release -p frontier-cube --example scrambles -- LENGTH COUNT [FIRST_SEED]`.
//! Each scramble never turns a face twice in a row (see `random_scramble`).

use frontier_cube::{random_scramble, write_moves, Metric, Notation};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: LENGTH COUNT [FIRST_SEED]"))
        .collect();
    let (length, count) = (
        args.first().copied().unwrap_or(14),
        args.get(1).copied().unwrap_or(10),
    );
    let first = args.get(2).copied().unwrap_or(1);
    for seed in first..first + count {
        let moves = random_scramble(seed, length as usize, Metric::Htm);
        println!("{}", write_moves(&moves, Notation::Wca));
    }
}
