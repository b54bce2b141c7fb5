//! Solves Korf's 100 15-puzzle instances and prints time and nodes per instance and in total.
//!
//! ```text
//! cargo run --release -p frontier-tiles --example korf100 -- [pdb|pdb78|conflict|manhattan] [FIRST_N] [THREADS]
//! ```
//!
//! Every length is checked against the published optimum and every solution replayed; a
//! mismatch exits with status 1. `pdb` loads (or builds once and caches) the default 6-6-3 tables, `pdb78` a 7-8 split
//! (its 8-tile table built without the blank: see `frontier_tiles::pdb`).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use frontier_search::{Config, Status};
use frontier_tiles::pdb::{default_groups, groups_by_sizes};
use frontier_tiles::{Estimate, PatternDb, Puzzle, Shape, Solver, Tables};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let heuristic = args.first().map_or("pdb", |s| s.as_str());
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let goal: Vec<u8> = (0..16).collect();
    let shape = Shape::new(4, 4).expect("4x4");
    let tables = Tables::new(&Puzzle::new(shape, &goal, &goal).expect("a layout"));
    let estimate = match heuristic {
        "manhattan" => Estimate::Manhattan,
        "conflict" => Estimate::Conflict,
        "pdb" | "pdb78" => {
            let sizes: &[usize] = if heuristic == "pdb78" {
                &[7, 8]
            } else {
                &[6, 6, 3]
            };
            let groups = if heuristic == "pdb" {
                default_groups(shape, &goal).expect("a goal")
            } else {
                groups_by_sizes(shape, &goal, sizes).expect("sizes add up")
            };
            let t = Instant::now();
            let db = PatternDb::cached(&frontier_tiles::default_cache(), &tables, &groups).unwrap();
            println!(
                "pattern databases {:?}: {:?}, {} bytes, {:.2} s to load or build",
                groups,
                db.origins(),
                db.bytes(),
                t.elapsed().as_secs_f64()
            );
            Estimate::Pdb(Arc::new(db))
        }
        other => {
            eprintln!("unknown heuristic {other}");
            return ExitCode::from(2);
        }
    };
    let data = include_str!("../data/korf100.txt");
    let mut times = Vec::new();
    let mut nodes = 0u64;
    let mut ok = true;
    for line in data.lines().filter(|l| !l.starts_with('#')).take(count) {
        let mut it = line.split_whitespace();
        let id: usize = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let len: usize = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let tiles: Vec<&str> = it.collect();
        let puzzle = Puzzle::parse(
            &tiles.join(" "),
            None,
            Some("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"),
        )
        .expect("valid instance");
        let solver = Solver::new(&puzzle, estimate.clone()).unwrap();
        let t = Instant::now();
        let outcome = solver.solve(puzzle.start(), &Config::default().threads(threads));
        let secs = t.elapsed().as_secs_f64();
        let found = outcome.solution().map(|s| s.moves.len());
        let replayed = outcome
            .solution()
            .as_ref()
            .and_then(|s| puzzle.replay(&s.moves))
            .is_some_and(|b| b == puzzle.goal());
        let good = outcome.status() == Status::Solved && found == Some(len) && replayed;
        ok &= good;
        nodes += outcome.stats().expanded;
        times.push(secs);
        println!(
            "{id:3} {len:2} moves  {:>12} expanded  {secs:8.3} s{}",
            outcome.stats().expanded,
            if good { "" } else { "  MISMATCH" }
        );
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    let median = if times.is_empty() {
        0.0
    } else {
        times[times.len() / 2]
    };
    println!(
        "{heuristic}, {} instances, {threads} thread(s): total {total:.3} s, median {median:.4} s, {nodes} nodes expanded ({:.1} M/s); process CPU time {}",
        times.len(),
        nodes as f64 / total.max(1e-9) / 1e6,
        cpu_seconds().map_or("unknown".to_owned(), |s| format!("{s:.2} s")),
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`, 100 ticks a
/// second), to tell work from waiting on a shared machine.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
