//! Times the engine's `bfs`, `bidirectional`, `astar` and `explore`, and the board's own
//! `fast_bfs` and `fast_explore`, on random 1000 x 1000 boards.
//!
//! ```text
//! cargo run --release -p frontier-board --example big_boards [SIZE] [SEED]
//! ```
//!
//! Boards (seeded, so every run sees the same ones):
//! - `lightbot-ab`: random A/B letters, one C in the top-right corner, lightbot rules. Every cell
//!   connects to its neighbours, so a search from below the bottom-left corner reaches nearly all
//!   `4 * SIZE * SIZE` states before the C.
//! - `seed-ab`: the same letters under the seed's rules (A climbs to B, never back down).
//! - `seed-az`: uniform random letters A-Z under the seed's rules, target Z.
//! - `seed-plain`: all A but a B in the top-right corner, the seed's rules: every state reached.

use std::time::Instant;

use frontier_board::{Board, Heading, Place, Puzzle, Rules, Start};
use frontier_search::{astar, bfs, bidirectional, explore, Config, Exploration, Outcome};

/// A small seeded generator (xorshift64*), so the example needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn board(size: usize, seed: u64, letters: u8, corner: u8) -> Board {
    let mut rng = Rng(seed | 1);
    let mut rows: Vec<Vec<u8>> = (0..size)
        .map(|_| {
            (0..size)
                .map(|_| b'A' + (rng.next() % u64::from(letters)) as u8)
                .collect()
        })
        .collect();
    rows[0][size - 1] = corner;
    let rows: Vec<String> = rows
        .into_iter()
        .map(|r| String::from_utf8(r).expect("ASCII"))
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let start = Start {
        place: Place::Below { column: 0 },
        heading: Heading::N,
    };
    Board::from_rows(&refs, start).expect("a valid board")
}

fn line<S, M>(name: &str, algo: &str, outcome: &Outcome<S, M>) {
    let s = &outcome.stats();
    let length = outcome
        .solution()
        .map_or("-".to_string(), |x| x.len().to_string());
    println!(
        "{name:<12} {algo:<14} {:<10} len {length:>5}  stored {:>8}  expanded {:>8}  {:>7.3} s  {:>6.1} M expanded/s",
        format!("{:?}", outcome.status()),
        s.stored,
        s.expanded,
        s.seconds,
        s.expanded as f64 / s.seconds.max(1e-9) / 1e6,
    );
}

fn exploration(name: &str, algo: &str, e: &Exploration) {
    let s = &e.stats;
    println!(
        "{name:<12} {algo:<14} {:<10} depth {:>3}  states {:>8}  {:>7.3} s  {:>6.1} M states/s",
        if e.is_complete() {
            "complete"
        } else {
            "incomplete"
        },
        e.layers.len() - 1,
        e.states(),
        s.seconds,
        e.states() as f64 / s.seconds.max(1e-9) / 1e6,
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().map_or(1000, |a| a.parse().expect("SIZE"));
    let seed: u64 = args.next().map_or(2026, |a| a.parse().expect("SEED"));
    println!("random {size} x {size} boards, seed {seed}");
    let cases = [
        ("lightbot-ab", board(size, seed, 2, b'C'), Rules::Lightbot),
        ("seed-ab", board(size, seed, 2, b'C'), Rules::Seed),
        ("seed-az", board(size, seed, 26, b'Z'), Rules::Seed),
        ("seed-plain", board(size, seed, 1, b'B'), Rules::Seed),
    ];
    let config = Config::default();
    for (name, board, rules) in cases {
        let made = Instant::now();
        let puzzle = Puzzle::new(board, rules, None).expect("target on the board");
        println!(
            "{name}: puzzle built in {:.3} s",
            made.elapsed().as_secs_f64()
        );
        let slow = bfs(&puzzle, &config);
        line(name, "bfs (engine)", &slow);
        let fast = puzzle.fast_bfs(&config);
        line(name, "fast_bfs", &fast);
        assert_eq!(slow.status(), fast.status());
        assert_eq!(
            slow.solution().map(|s| s.len()),
            fast.solution().map(|s| s.len())
        );
        if slow.stats().seconds > 1e-3 {
            println!(
                "{name:<12} fast_bfs takes 1/{:.1} of the engine's bfs time",
                slow.stats().seconds / fast.stats().seconds.max(1e-9)
            );
        }
        line(name, "bidirectional", &bidirectional(&puzzle, &config));
        line(name, "astar", &astar(&puzzle, &config));
        let slow = explore(&puzzle, &config);
        exploration(name, "explore", &slow);
        let fast = puzzle.fast_explore(&config);
        exploration(name, "fast_explore", &fast);
        assert_eq!(slow.layers, fast.layers);
        if slow.stats.seconds > 1e-3 {
            println!(
                "{name:<12} fast_explore takes 1/{:.1} of the engine's explore time",
                slow.stats.seconds / fast.stats.seconds.max(1e-9)
            );
        }
    }
}
