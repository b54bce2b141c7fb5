//! Timings of the perm domain: full distance tables, optimal solves of random positions, the
//! 3x3x3 from its facets on scrambles of a given length, and the chain solver on random
//! positions.
//!
//! `cargo run --release -p frontier-perm --example timings -- [tables|random|cube LENGTH COUNT|chain [SHORT PRODUCTS]]`

use std::time::{Duration, Instant};

use frontier_perm::{explore, preset, solve, Chain, ChainBudget, Metric, Model, Tables, Turn};
use frontier_search::{Algorithm, Config};
use frontier_tables::Builder;

/// A xorshift generator: reproducible scrambles without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A scramble of `len` moves, no generator twice in a row.
fn scramble(model: &Model, rng: &mut Rng, len: usize) -> Vec<Turn> {
    let turns: Vec<Turn> = model.turns().collect();
    let mut out: Vec<Turn> = Vec::new();
    while out.len() < len {
        let t = turns[rng.below(turns.len() as u64) as usize];
        if out.last().is_none_or(|l| l.generator != t.generator) {
            out.push(t);
        }
    }
    out
}

fn tables() {
    for (name, metric) in [
        ("cube2", Metric::Htm),
        ("cube2", Metric::Qtm),
        ("skewb", Metric::Htm),
        ("topspin10", Metric::Htm),
    ] {
        let model = Model::new(&preset(name).unwrap().puzzle(), metric);
        let started = Instant::now();
        let e = explore(&model, &Config::default().threads(1));
        println!(
            "explore {name} {metric}: {} states, {} layers, {:.3} s",
            e.states(),
            e.layers.len(),
            started.elapsed().as_secs_f64()
        );
    }
}

fn random() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for name in ["cube2", "pyraminx", "skewb"] {
        let puzzle = preset(name).unwrap().puzzle();
        let model = Model::new(&puzzle, Metric::Htm);
        let started = Instant::now();
        let tables = Tables::build(&model, 1 << 24, None, &Builder::new()).unwrap();
        println!(
            "{name}: {} tables, {} entries, built in {:.3} s",
            tables.len(),
            tables.entries(),
            started.elapsed().as_secs_f64()
        );
        let started = Instant::now();
        let mut lengths = Vec::new();
        for _ in 0..20 {
            let position = puzzle.apply(&scramble(&model, &mut rng, 60));
            let outcome = solve(
                &model,
                Some(&tables),
                &model.colours_of(&position),
                Algorithm::Idastar,
                &Config::default(),
            );
            lengths.push(outcome.into_solution().unwrap().len());
        }
        println!(
            "{name}: 20 random positions solved in {:.3} s, lengths {lengths:?}",
            started.elapsed().as_secs_f64()
        );
    }
}

fn cube(len: usize, count: usize, entries: usize) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let puzzle = preset("cube3").unwrap().puzzle();
    let model = Model::new(&puzzle, Metric::Htm);
    let started = Instant::now();
    let tables = Tables::build(&model, entries, None, &Builder::new()).unwrap();
    println!(
        "cube3: {} tables, {} entries, built in {:.3} s",
        tables.len(),
        tables.entries(),
        started.elapsed().as_secs_f64()
    );
    for _ in 0..count {
        let turns = scramble(&model, &mut rng, len);
        let position = puzzle.apply(&turns);
        let started = Instant::now();
        let config = Config::default().timeout(Duration::from_secs(120));
        let outcome = solve(
            &model,
            Some(&tables),
            &model.colours_of(&position),
            Algorithm::Idastar,
            &config,
        );
        println!(
            "cube3 {len}-move scramble: {:?} in {:.3} s ({} expanded)",
            outcome.solution().map(|s| s.len()),
            started.elapsed().as_secs_f64(),
            outcome.stats().expanded
        );
    }
}

/// The chain solver on 20 random positions (100-move scrambles) of each puzzle: its build
/// time, and the answers' time and length (median and largest).
fn chain(budget: ChainBudget) {
    let mut rng = Rng(0x51ed_2701_a3b5_c7d9);
    for (name, metric) in [
        ("cube3", Metric::Htm),
        ("cube3", Metric::Qtm),
        ("megaminx", Metric::Htm),
    ] {
        let puzzle = preset(name).unwrap().puzzle();
        let model = Model::new(&puzzle, metric);
        let started = Instant::now();
        let chain = Chain::build(&puzzle, metric, &budget);
        let built = started.elapsed().as_secs_f64();
        let mut times = Vec::new();
        let mut lengths = Vec::new();
        for _ in 0..20 {
            let position = puzzle.apply(&scramble(&model, &mut rng, 100));
            let started = Instant::now();
            let answer = chain.solve(&position).expect("a position of the group");
            times.push(started.elapsed().as_secs_f64());
            assert!(position.then(&puzzle.apply(&answer)).is_identity());
            lengths.push(answer.len());
        }
        times.sort_by(f64::total_cmp);
        lengths.sort_unstable();
        println!(
            "chain {name} {metric}: built in {built:.3} s ({} levels); 20 random positions: \
             {:.4} s median, {:.4} s max; length {} median, {} max; all {lengths:?}",
            chain.levels(),
            times[10],
            times[19],
            lengths[10],
            lengths[19],
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("tables") => tables(),
        Some("random") => random(),
        Some("chain") => {
            let mut budget = ChainBudget::default();
            if let Some(n) = args.get(1).and_then(|a| a.parse().ok()) {
                budget.short_words = n;
            }
            if let Some(n) = args.get(2).and_then(|a| a.parse().ok()) {
                budget.products = n;
            }
            chain(budget)
        }
        Some("cube") => cube(
            args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8),
            args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3),
            args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1 << 24),
        ),
        _ => {
            tables();
            random();
        }
    }
}
