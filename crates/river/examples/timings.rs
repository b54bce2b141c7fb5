//! Times the default solver on every preset and on large generated puzzles:
//! `cargo run --release -p frontier-river --example timings`.

use std::time::Instant;

use frontier_river::{couples_toml, Puzzle, RiverSpace, PRESETS};
use frontier_search::{astar, bfs, bidirectional, Config, Outcome, Status};

fn run(label: &str, puzzle: Puzzle, with_bidirectional: bool) {
    let timed = puzzle.is_timed();
    let started = Instant::now();
    let space = RiverSpace::new(puzzle);
    let built = started.elapsed();
    let started = Instant::now();
    let outcome = if timed {
        astar(&space, &Config::default())
    } else {
        bfs(&space, &Config::default())
    };
    let seconds = started.elapsed().as_secs_f64();
    print(
        label,
        if timed { "astar" } else { "bfs" },
        &outcome,
        seconds,
        space.loads().len(),
        built.as_secs_f64(),
    );
    if with_bidirectional {
        // A fresh space: its safety memo starts empty, as it did for the first solver.
        let started = Instant::now();
        let space = RiverSpace::new(space.puzzle().clone());
        let built = started.elapsed();
        let started = Instant::now();
        let outcome = bidirectional(&space, &Config::default());
        print(
            label,
            "bidirectional",
            &outcome,
            started.elapsed().as_secs_f64(),
            space.loads().len(),
            built.as_secs_f64(),
        );
    }
}

fn print<S, M>(
    label: &str,
    algo: &str,
    outcome: &Outcome<S, M>,
    seconds: f64,
    loads: usize,
    built: f64,
) {
    let answer = match (&outcome.status(), &outcome.solution()) {
        (Status::Solved, Some(s)) => format!("{} crossings, cost {}", s.len(), s.cost),
        (status, _) => format!("{status:?}"),
    };
    println!(
        "{label:<28} {algo:<13} {answer:<24} {:>9} stored {:>6} loads  setup {:>8.3} ms  search {:>10.3} ms",
        outcome.stats().stored,
        loads,
        built * 1e3,
        seconds * 1e3
    );
}

fn main() {
    for preset in PRESETS {
        run(preset.name, Puzzle::preset(preset.name).unwrap(), true);
    }
    for (couples, capacity) in [(5, 3), (8, 4), (10, 4), (12, 4)] {
        let label = format!("couples {couples}, boat {capacity}");
        run(
            &label,
            Puzzle::from_toml(&couples_toml(couples, capacity)).unwrap(),
            true,
        );
    }
    // The baseline: the same solver, rules evaluated on every check instead of remembered.
    for (couples, capacity) in [(8, 4), (10, 4)] {
        let puzzle = Puzzle::from_toml(&couples_toml(couples, capacity)).unwrap();
        let started = Instant::now();
        let space = RiverSpace::new(puzzle).without_memo();
        let built = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let outcome = bfs(&space, &Config::default());
        let label = format!("couples {couples}, boat {capacity}");
        print(
            &label,
            "bfs, no memo",
            &outcome,
            started.elapsed().as_secs_f64(),
            space.loads().len(),
            built,
        );
    }
    let text = "rules = [\"missionary -> missionary >= cannibal\"]\n[roles]\nmissionary = 1000\ncannibal = 1000\n[boat]\ncapacity = 6\n";
    run(
        "missionaries 1000+1000, boat 6",
        Puzzle::from_toml(text).unwrap(),
        true,
    );
}
