//! A fuzzer for every input format of frontier, on stable Rust: board files, river TOML, river
//! rules, cube scrambles (WCA and seed notation), facelet strings and tile lists.
//!
//! cargo-fuzz needs a nightly toolchain and AFL++ a toolchain of its own, neither of which can
//! be installed here, so this is a self-contained mutation fuzzer: each execution takes an
//! input from the target's seed corpus (`fuzz/corpus/TARGET/`), or one built from the format's
//! grammar, and mutates it (bytes flipped or replaced, the format's tokens inserted, ranges cut,
//! repeated or spliced from another input), then runs the target on it. It counts as a finding:
//! a panic, an execution that allocates more than [`MEMORY_BASE`] plus [`MEMORY_PER_BYTE`]
//! bytes per byte of input at its peak (a parser that amplifies), or one that takes longer than
//! [`SLOW`]. Findings are written to `fuzz/findings/TARGET-N` and become regression tests in the
//! crate that owns the format.
//!
//! ```text
//! cargo run --release --manifest-path fuzz/Cargo.toml -- TARGET [--runs N] [--seconds S] [--seed X]
//! cargo run --release --manifest-path fuzz/Cargo.toml -- all --seconds 120
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use frontier_search::{bfs, Config};

/// Counts the bytes allocated now and at the peak since the last reset.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a pointer this allocator returned, with its layout.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for alloc and dealloc.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let now = CURRENT.fetch_add(grown, Ordering::Relaxed) + grown;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What any execution may allocate at its peak, whatever its input.
const MEMORY_BASE: usize = 64 << 20;
/// What an execution may allocate for each byte of its input, on top of [`MEMORY_BASE`].
const MEMORY_PER_BYTE: usize = 64;
/// The longest an execution may take.
const SLOW: Duration = Duration::from_secs(2);
/// The longest input made.
const MAX_INPUT: usize = 1 << 20;
/// The states a target's search may store: enough to walk a space, few enough to be quick.
const SEARCH_STATES: u64 = 2_000;

/// A fuzz target: its name, the format's tokens, and what it runs on an input.
struct Target {
    name: &'static str,
    tokens: &'static [&'static str],
    run: fn(&[u8]),
}

const TARGETS: [Target; 7] = [
    Target {
        name: "board",
        tokens: &[
            "A",
            "B",
            "Z",
            "AB",
            "\n",
            "*",
            " ",
            "0",
            "1",
            "-1",
            "N",
            "E",
            "S",
            "W",
            "\r\n",
            "\u{feff}",
            "99999999999999999999",
        ],
        run: board,
    },
    Target {
        name: "river_toml",
        tokens: &[
            "rules = [",
            "]",
            "[roles]",
            "[boat]",
            "[start]",
            "capacity = ",
            "rowers = [",
            "\"a\"",
            "a = ",
            "{ count = 2, time = 5 }",
            "\"far\"",
            "\n",
            ",",
            "\"a and b -> c\"",
            "'''",
            "\"\"\"",
            "#",
            "=",
            "1",
            "1000000",
            "-1",
            "name = \"x\"",
        ],
        run: river_toml,
    },
    Target {
        name: "river_rule",
        tokens: &[
            "a",
            "b",
            "c",
            "d",
            "(",
            ")",
            "and",
            "or",
            "not",
            "->",
            "+",
            "-",
            "*",
            "<",
            "<=",
            "==",
            "!=",
            ">=",
            ">",
            "=",
            " ",
            "9223372036854775807",
            "0",
            "1",
        ],
        run: river_rule,
    },
    Target {
        name: "cube_wca",
        tokens: &[
            "R", "U", "F", "D", "L", "B", "'", "2", "w", "M", "E", "S", "x", "y", "z", "r", "u",
            " ", "(", ")", "R2'", "Uw",
        ],
        run: cube_wca,
    },
    Target {
        name: "cube_seed",
        tokens: &[
            "R", "U", "F", "D", "L", "B", "r", "u", "f", "d", "l", "b", " ", "'", "2",
        ],
        run: cube_seed,
    },
    Target {
        name: "facelets",
        tokens: &[
            "U",
            "R",
            "F",
            "D",
            "L",
            "B",
            "UUUUUUUUU",
            "RRRRRRRRR",
            " ",
            "\n",
            "x",
        ],
        run: facelets,
    },
    Target {
        name: "tiles",
        tokens: &[
            "0",
            "1",
            "2",
            "3",
            "8",
            "15",
            "24",
            " ",
            ",",
            "\n",
            "3x3",
            "4x4",
            "1x9",
            "-1",
            "99999999999999999999",
            "x",
        ],
        run: tiles,
    },
];

fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok()
}

/// A quick search of `space`: it must stop cleanly, whatever the puzzle.
fn walk<P: frontier_search::Space + Sync>(space: &P)
where
    P::State: std::hash::Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    let config = Config::default().max_states(SEARCH_STATES);
    let _ = bfs(space, &config);
}

fn board(bytes: &[u8]) {
    use frontier_board::{Board, Puzzle, Rules};
    let Ok(board) = Board::from_bytes(bytes) else {
        return;
    };
    // What the board writes, it reads back as the same board.
    let again = Board::parse(&board.to_string()).expect("a board's own text parses");
    assert_eq!(again, board, "a board read back differs");
    for rules in [Rules::Seed, Rules::Lightbot] {
        if let Ok(puzzle) = Puzzle::new(board.clone(), rules, None) {
            walk(&puzzle);
        }
    }
}

fn river_toml(bytes: &[u8]) {
    let Some(source) = text(bytes) else { return };
    if let Ok(puzzle) = frontier_river::Puzzle::from_toml(source) {
        walk(&frontier_river::RiverSpace::new(puzzle));
    }
}

fn river_rule(bytes: &[u8]) {
    let Some(source) = text(bytes) else { return };
    let roles = ["a", "b", "c", "d"];
    if let Ok(rule) = frontier_river::Rule::parse(source, &roles) {
        for counts in [[0i64; 4], [1, 2, 3, 4], [i64::MAX, i64::MIN, -1, 1]] {
            let _ = rule.value(|r| counts[r]);
        }
        assert_eq!(rule.source(), source);
    }
}

fn cube(bytes: &[u8], notation: frontier_cube::Notation) {
    let Some(source) = text(bytes) else { return };
    if let Ok(moves) = frontier_cube::parse_moves(source, notation) {
        // What is written reads back as the same moves.
        let written = frontier_cube::write_moves(&moves, notation);
        let again = frontier_cube::parse_moves(&written, notation).expect("written moves parse");
        assert_eq!(again, moves, "moves read back differ");
    }
    let _ = frontier_cube::Cube::from_scramble(source, notation);
}

fn cube_wca(bytes: &[u8]) {
    cube(bytes, frontier_cube::Notation::Wca);
}

fn cube_seed(bytes: &[u8]) {
    cube(bytes, frontier_cube::Notation::Seed);
}

fn facelets(bytes: &[u8]) {
    let Some(source) = text(bytes) else { return };
    if let Ok(facelets) = source.parse::<frontier_cube::Facelets>() {
        let _ = frontier_cube::Cube::from_facelets(&facelets);
    }
}

/// Tiles, then optionally a size and a goal, one a line.
fn tiles(bytes: &[u8]) {
    use frontier_tiles::{Puzzle, Shape};
    let Some(source) = text(bytes) else { return };
    let mut lines = source.splitn(3, '\n');
    let tiles = lines.next().unwrap_or("");
    let shape = match lines.next().map(Shape::parse) {
        Some(Ok(shape)) => Some(shape),
        Some(Err(_)) => return,
        None => None,
    };
    if let Ok(puzzle) = Puzzle::parse(tiles, shape, lines.next()) {
        let _ = puzzle.is_solvable();
    }
}

/// A small generator of pseudo-random numbers (xorshift64*): reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Changes `input` by one to eight mutations.
fn mutate(input: &mut Vec<u8>, rng: &mut Rng, tokens: &[&str], corpus: &[Vec<u8>]) {
    for _ in 0..1 + rng.below(8) {
        let len = input.len();
        match rng.below(9) {
            0 if len > 0 => {
                let at = rng.below(len);
                input[at] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let at = rng.below(len);
                input[at] = rng.next() as u8;
            }
            2 | 3 => {
                let token = tokens[rng.below(tokens.len())].as_bytes();
                let at = rng.below(len + 1);
                input.splice(at..at, token.iter().copied());
            }
            4 if len > 0 => {
                let from = rng.below(len);
                let to = from + rng.below(len - from + 1);
                input.drain(from..to);
            }
            // Repeated ranges: many rows, many rules, long tokens.
            5 if len > 0 => {
                let from = rng.below(len);
                let to = (from + 1 + rng.below(16)).min(len);
                // Mostly a few copies, now and then thousands: long inputs are slow to run,
                // and a handful of them a second is enough to catch a parser that amplifies.
                let times = if rng.below(16) == 0 {
                    1 << rng.below(14)
                } else {
                    1 << rng.below(4)
                };
                let piece = input[from..to].to_vec();
                let at = rng.below(len + 1);
                let extra: Vec<u8> = piece
                    .iter()
                    .copied()
                    .cycle()
                    .take(piece.len() * times)
                    .collect();
                input.splice(at..at, extra);
            }
            6 if !corpus.is_empty() => {
                let other = &corpus[rng.below(corpus.len())];
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let to = from + rng.below(other.len() - from + 1);
                    let at = rng.below(len + 1);
                    input.splice(at..at, other[from..to].iter().copied());
                }
            }
            7 if len > 0 => input.truncate(rng.below(len)),
            _ => {
                let at = rng.below(len + 1);
                input.insert(at, b"\n \t\r\"'#=,[]{}()0123456789-"[rng.below(26)]);
            }
        }
        input.truncate(MAX_INPUT);
    }
}

/// An input built from the format's tokens alone.
fn generate(rng: &mut Rng, tokens: &[&str]) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.below(64) {
        out.extend_from_slice(tokens[rng.below(tokens.len())].as_bytes());
    }
    out
}

fn load_corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut corpus = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if let Ok(bytes) = std::fs::read(&path) {
                corpus.push(bytes);
            }
        }
    }
    corpus
}

/// What one target's run found.
struct Report {
    runs: u64,
    findings: u64,
    seconds: f64,
}

fn fuzz(target: &Target, runs: u64, seconds: f64, seed: u64, root: &Path) -> Report {
    let corpus = load_corpus(&root.join("corpus").join(target.name));
    let findings_dir = root.join("findings");
    let mut rng = Rng(seed | 1);
    let started = Instant::now();
    let (mut done, mut findings) = (0u64, 0u64);
    while done < runs && started.elapsed().as_secs_f64() < seconds {
        let mut input = if corpus.is_empty() || rng.below(4) == 0 {
            generate(&mut rng, target.tokens)
        } else {
            corpus[rng.below(corpus.len())].clone()
        };
        if rng.below(8) != 0 {
            mutate(&mut input, &mut rng, target.tokens, &corpus);
        }
        let base = CURRENT.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let at = Instant::now();
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        let took = at.elapsed();
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
        let allowed = MEMORY_BASE + MEMORY_PER_BYTE * input.len();
        let finding = match result {
            Err(_) => Some("panic".to_owned()),
            Ok(()) if peak > allowed => Some(format!(
                "{peak} bytes at the peak for {} of input",
                input.len()
            )),
            Ok(()) if took > SLOW => Some(format!("{:.1} s", took.as_secs_f64())),
            Ok(()) => None,
        };
        if let Some(what) = finding {
            findings += 1;
            let _ = std::fs::create_dir_all(&findings_dir);
            let path = findings_dir.join(format!("{}-{findings}", target.name));
            let _ = std::fs::write(&path, &input);
            eprintln!("{}: {what}: input saved to {}", target.name, path.display());
        }
        done += 1;
    }
    Report {
        runs: done,
        findings,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: frontier-fuzz TARGET|all [--runs N] [--seconds S] [--seed X]";
    let Some(which) = args.first() else {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        eprintln!("{usage}\ntargets: {}", names.join(", "));
        std::process::exit(2);
    };
    let option = |name: &str, default: f64| -> f64 {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("{name}: not a number: {v}"))
            })
    };
    let runs = option("--runs", f64::INFINITY);
    let runs = if runs.is_finite() {
        runs as u64
    } else {
        u64::MAX
    };
    let seconds = option("--seconds", f64::INFINITY);
    let seed = option("--seed", 1.0) as u64;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Findings are reported one line each, not with a panic's message and backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let mut total_findings = 0;
    for target in TARGETS.iter().filter(|t| which == "all" || t.name == which) {
        let report = fuzz(target, runs, seconds, seed, root);
        total_findings += report.findings;
        println!(
            "{}: {} executions in {:.0} s ({:.0}/s), {} findings",
            target.name,
            report.runs,
            report.seconds,
            report.runs as f64 / report.seconds.max(1e-9),
            report.findings
        );
    }
    if total_findings > 0 {
        std::process::exit(1);
    }
}
