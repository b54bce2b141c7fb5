//! Timings of the perm domain: full distance tables, optimal solves of random positions, the
//! 3x3x3 from its facets on scrambles of a given length, and the chain solver on random
//! positions.
//!
//! `cargo run --release -p frontier-perm --example timings -- [tables|random|cube LENGTH COUNT|optimal LENGTH COUNT [entries=N] [threads=N] [metric=htm|qtm] [cache=DIR]|chain [SHORT PRODUCTS]|explore PUZZLE hash|dense THREADS [qtm]|staged [phase=LOG2] [last=LOG2] [entries=N] [nodes=N] PUZZLE...|answers PUZZLE [pieces=LOG2]]`
//!
//! `answers` reads scrambles from standard input, one a line, and answers each by the
//! subgroup chain (`Staged`), else the stabiliser chain (`--solver chain`'s), one line each: the length, the
//! thread's CPU seconds and the moves; the chains are built once, first (their CPU time on the
//! first line). For a run interleaved with another solver that feeds it one line at a time.
//! `pieces=LOG2` caps each table of a chain of pieces placed at 2^LOG2 entries.
//!
//! `explore` counts one preset's full distance table (or a `.perm`, `.tws` or `.def` file's) one
//! way, for a side-by-side run under `/usr/bin/time`: `hash` over packed states in a hash
//! table, `dense` over the coordinates.

use std::time::{Duration, Instant};

use frontier_perm::{
    explore, explore_packed, preset, solve, Chain, ChainBudget, Metric, Model, Optimal, Puzzle,
    Staged, StagedBudget, Tables, Turn,
};
use frontier_search::{Algorithm, Config};
use frontier_tables::{Builder, Cache};

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
        ("pyraminx", Metric::Htm),
        ("skewb", Metric::Htm),
        ("topspin10", Metric::Htm),
    ] {
        for way in ["hash", "dense"] {
            one_table(name, metric, way, 1);
        }
    }
}

/// One full distance table of preset `name`, `hash` or `dense`, on `threads` threads.
fn one_table(name: &str, metric: Metric, way: &str, threads: usize) {
    let puzzle = match preset(name) {
        Some(preset) => preset.puzzle(),
        None => {
            let text = std::fs::read_to_string(name).expect("a preset or a readable file");
            if name.ends_with(".tws") || name.ends_with(".def") {
                Puzzle::parse_tws(name, &text).expect("a twsearch definition")
            } else {
                Puzzle::parse(name, &text).expect("a .perm definition")
            }
        }
    };
    let model = Model::new(&puzzle, metric);
    let config = Config::default().threads(threads);
    let started = Instant::now();
    let e = match way {
        "hash" => explore_packed(&model, &config),
        _ => explore(&model, &config),
    };
    println!(
        "explore {name} {metric} {way} {threads} threads: {} states, {} layers {:?}, {:.3} s",
        e.states(),
        e.layers.len(),
        e.layers,
        started.elapsed().as_secs_f64()
    );
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

/// The process's CPU seconds so far (user and system, from `/proc/self/stat`; 0 where there
/// is none).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command name (which is in parentheses): utime and stime are the
    // 12th and 13th, in clock ticks of 1/100 s.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// The piece-subset solver ([`Optimal`]) on the 3x3x3 from its facets: `count` seeded
/// scrambles of `len` moves, with tables of at most `entries` entries, on `threads` threads;
/// the tables' build time and sizes (loaded from `cache` if given and there), each answer's
/// length, wall and CPU time.
fn optimal(
    len: usize,
    count: usize,
    entries: usize,
    threads: usize,
    metric: Metric,
    cache: Option<&Cache>,
) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ len as u64);
    let puzzle = preset("cube3").unwrap().puzzle();
    let model = Model::new(&puzzle, metric);
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let solver = Optimal::build(&model, entries, cache, &Builder::new().threads(threads))
        .unwrap()
        .expect("the cube's pieces are told apart");
    println!(
        "optimal cube3 {metric}: tables {:?} entries ({} MB with the move tables), built in \
         {:.1} s wall, {:.1} s CPU on {threads} threads",
        solver.entries(),
        Optimal::bytes_for(&model, entries).unwrap_or(0) >> 20,
        wall.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
    for _ in 0..count {
        let turns = scramble(&model, &mut rng, len);
        let position = puzzle.apply(&turns);
        let config = Config::default()
            .threads(threads)
            .timeout(Duration::from_secs(600));
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let outcome = solver.solve(&model.colours_of(&position), &config);
        let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        let expanded = outcome.stats().expanded;
        let length = outcome.solution().map(|s| {
            let moves: Vec<Turn> = s.moves.clone();
            assert!(position.then(&puzzle.apply(&moves)).is_identity());
            moves.len()
        });
        println!(
            "optimal cube3 {metric} {len}-move scramble: {length:?} moves in {wall:.3} s wall, \
             {cpu:.2} s CPU, {expanded} expanded"
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

/// The staged solver against the chain, interleaved, on 20 random positions of each puzzle.
fn staged(budget: StagedBudget, names: &[String]) {
    let mut rng = Rng(0x51ed_2701_a3b5_c7d9);
    for name in names {
        let puzzle = preset(name).unwrap().puzzle();
        let model = Model::new(&puzzle, Metric::Htm);
        let started = Instant::now();
        let staged = match Staged::build(&puzzle, &budget, &Builder::new()) {
            Ok(staged) => Some(staged),
            Err(e) => {
                println!("staged {name}: not built ({e})");
                None
            }
        };
        let built = started.elapsed().as_secs_f64();
        if let Some(s) = &staged {
            println!(
                "staged {name}: built in {built:.3} s, phases {:?}",
                s.phase_moves()
            );
        }
        let started = Instant::now();
        let chain = Chain::build(&puzzle, Metric::Htm, &ChainBudget::default());
        let chain_built = started.elapsed().as_secs_f64();
        let (mut times, mut lengths, mut ctimes, mut clengths) = (vec![], vec![], vec![], vec![]);
        let mut unsolved = 0;
        for _ in 0..20 {
            let position = puzzle.apply(&scramble(&model, &mut rng, 100));
            let started = Instant::now();
            let answer = chain.solve(&position).expect("a position of the group");
            ctimes.push(started.elapsed().as_secs_f64());
            clengths.push(answer.len());
            let Some(staged) = &staged else { continue };
            let started = Instant::now();
            // A phase that finds nothing within the time leaves the position to the chain.
            match staged.solve(&position, Duration::from_secs(30)) {
                Some(answer) => {
                    assert!(position.then(&puzzle.apply(&answer)).is_identity());
                    lengths.push(answer.len());
                }
                None => unsolved += 1,
            }
            times.push(started.elapsed().as_secs_f64());
        }
        for v in [&mut times, &mut ctimes] {
            v.sort_by(f64::total_cmp);
        }
        lengths.sort_unstable();
        clengths.sort_unstable();
        let median = lengths.get(lengths.len() / 2).copied().unwrap_or(0);
        if !times.is_empty() {
            println!(
            "staged {name}: answers {:.4} s median, {:.4} s max; length {median} median, {} max \
             ({unsolved} not answered in 30 s); all {lengths:?}",
            times[10],
            times[19],
            lengths.last().copied().unwrap_or(0)
        );
        }
        println!(
            "chain {name}: built in {chain_built:.3} s; answers {:.4} s median, {:.4} s max; length {} median, {} max",
            ctimes[10], ctimes[19], clengths[10], clengths[19]
        );
    }
}

/// The CPU seconds the calling thread has run (Linux's schedstat; 0 elsewhere).
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// `--solver chain`'s answers to scrambles read line by line (see the module's doc).
fn answers(name: &str, budget: &StagedBudget) {
    use std::io::{BufRead, Write};
    let puzzle = preset(name).unwrap().puzzle();
    let started = thread_cpu();
    let staged = Staged::build(&puzzle, budget, &Builder::new()).ok();
    let chain = Chain::build(&puzzle, Metric::Htm, &ChainBudget::default());
    println!("built in {:.3} s CPU", thread_cpu() - started);
    let mut out = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let position = puzzle.apply(&puzzle.parse_moves(&line.unwrap()).unwrap());
        let started = thread_cpu();
        let answer = staged
            .as_ref()
            .and_then(|s| s.solve(&position, Duration::from_secs(600)))
            .or_else(|| chain.solve(&position))
            .unwrap();
        let seconds = thread_cpu() - started;
        assert!(position.then(&puzzle.apply(&answer)).is_identity());
        let moves: Vec<String> = answer.iter().map(|&t| puzzle.turn_name(t)).collect();
        writeln!(out, "{} {seconds:.4} {}", answer.len(), moves.join(" ")).unwrap();
        out.flush().unwrap();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("tables") => tables(),
        Some("random") => random(),
        Some("explore") => one_table(
            args.get(1).map_or("cube2", String::as_str),
            match args.get(4).map(String::as_str) {
                Some("qtm") => Metric::Qtm,
                _ => Metric::Htm,
            },
            args.get(2).map_or("dense", String::as_str),
            args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1),
        ),
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
        Some("answers") => {
            let mut budget = StagedBudget::default();
            if let Some(v) = args.get(2).and_then(|a| a.strip_prefix("pieces=")) {
                budget.piece_entries = 1 << v.parse::<u32>().unwrap();
            }
            answers(args.get(1).map_or("cube3", String::as_str), &budget)
        }
        Some("staged") => {
            let mut budget = StagedBudget::default();
            let mut names = Vec::new();
            for a in &args[1..] {
                match a.split_once('=') {
                    Some(("phase", v)) => budget.phase_log2 = v.parse().unwrap(),
                    Some(("last", v)) => budget.last_log2 = v.parse().unwrap(),
                    Some(("entries", v)) => budget.entries = v.parse().unwrap(),
                    Some(("nodes", v)) => budget.nodes = v.parse().unwrap(),
                    _ => names.push(a.clone()),
                }
            }
            staged(budget, &names)
        }
        Some("optimal") => {
            let mut numbers = Vec::new();
            let (mut entries, mut threads, mut metric) = (1usize << 27, 2usize, Metric::Htm);
            let mut cache = None;
            for a in &args[1..] {
                match a.split_once('=') {
                    Some(("entries", v)) => entries = v.parse().unwrap(),
                    Some(("threads", v)) => threads = v.parse().unwrap(),
                    Some(("metric", v)) => metric = v.parse().unwrap(),
                    Some(("cache", v)) => cache = Some(Cache::at(v)),
                    _ => numbers.push(a.parse::<usize>().unwrap()),
                }
            }
            optimal(
                numbers.first().copied().unwrap_or(14),
                numbers.get(1).copied().unwrap_or(3),
                entries,
                threads,
                metric,
                cache.as_ref(),
            )
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
