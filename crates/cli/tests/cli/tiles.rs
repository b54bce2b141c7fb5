//! `frontier tiles` and `frontier explore tiles` through the real binary.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::{self, json, shared_cache, stderr, temp_dir};

/// Runs `frontier` with `args` and the pattern-database cache `cache_dir`.
fn frontier_in(cache_dir: impl AsRef<Path>, args: &[&str]) -> Output {
    support::frontier(args).cache(cache_dir).output()
}

/// Runs `frontier` with a cache shared by the tests (created, never wiped, so tests running
/// in parallel do not pull it from under each other).
fn frontier(args: &[&str]) -> Output {
    frontier_in(shared_cache("tiles-cache"), args)
}

/// An independent replay: plays blank moves on a plain list and returns the final layout.
fn replay(start: &str, cols: usize, moves: &Value) -> Vec<u32> {
    let mut b: Vec<u32> = start
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let rows = b.len() / cols;
    let mut blank = b.iter().position(|&t| t == 0).unwrap();
    for m in moves.as_array().unwrap() {
        let (r, c) = (blank / cols, blank % cols);
        let next = match m.as_str().unwrap() {
            "U" if r > 0 => blank - cols,
            "D" if r + 1 < rows => blank + cols,
            "L" if c > 0 => blank - 1,
            "R" if c + 1 < cols => blank + 1,
            other => panic!("illegal move {other}"),
        };
        b.swap(blank, next);
        blank = next;
    }
    b
}

const HARDEST_8: &str = "8 6 7 2 5 4 3 0 1";

#[test]
fn the_design_example_takes_31_moves() {
    // One of the two 8-puzzle layouts farthest from the goal: 31 moves (Reinefeld 1993).
    let o = frontier(&["tiles", HARDEST_8, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["domain"], "tiles");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["length"], 31);
    assert_eq!(v["cost"], 31);
    assert_eq!(
        replay(HARDEST_8, 3, &v["moves"]),
        vec![1, 2, 3, 4, 5, 6, 7, 8, 0]
    );
}

#[test]
fn every_heuristic_and_generic_solver_agrees() {
    let start = "4 1 3 7 2 6 0 5 8";
    let mut lengths = Vec::new();
    for extra in [
        &["--heuristic", "manhattan"][..],
        &["--heuristic", "conflict"],
        &["--heuristic", "pdb"],
        &["--threads", "2"],
        &["--algo", "bfs"],
        &["--algo", "astar"],
        &["--algo", "idastar", "--heuristic", "conflict"],
        &["--algo", "bidirectional"],
        &["--algo", "iddfs"],
    ] {
        let mut args = vec!["tiles", start, "--json"];
        args.extend_from_slice(extra);
        let o = frontier(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(
            replay(start, 3, &v["moves"]),
            vec![1, 2, 3, 4, 5, 6, 7, 8, 0],
            "{extra:?}"
        );
        lengths.push(v["length"].as_u64().unwrap());
    }
    assert!(lengths.iter().all(|&l| l == lengths[0]), "{lengths:?}");
    assert_eq!(lengths[0], 6);
}

#[test]
fn human_output_draws_the_board_and_names_the_moves() {
    let o = frontier(&["tiles", "1 2 3 4 5 6 7 0 8"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("7 . 8"), "{text}");
    assert!(text.contains("solution: R"), "{text}");
    assert!(text.contains("length: 1 move"), "{text}");
    let o = frontier(&["tiles", "1 2 3 4 5 6 7 0 8", "--quiet"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "R");
}

#[test]
fn unsolvable_parity_exits_1_without_searching() {
    // Sam Loyd's 14-15 puzzle.
    let loyd = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0";
    let o = frontier(&["tiles", loyd, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["status"], "unsolvable");
    assert_eq!(v["stats"]["expanded"], 0);
    let o = frontier(&["tiles", loyd]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("without searching"));
    // Under --solver stages, the JSON names stages (it said idastar).
    let o = frontier(&["tiles", loyd, "--solver", "stages", "--json"]);
    assert_eq!(json(&o)["algorithm"], "stages");
    // --stats shows the nothing it did, as every other outcome shows its statistics.
    let o = frontier(&["tiles", loyd, "--stats"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("stats: 0 expanded"));
}

#[test]
fn bad_input_exits_2_with_the_reason() {
    for (args, reason) in [
        (&["tiles", "1 2 3 3 0 5 6 7 8"][..], "appears twice"),
        (&["tiles", "1 2 3 4 5 0"], "--size"),
        // One short of a square board: the blank was most likely left out.
        (&["tiles", "1 2 3 4 5 6 7 8"], "tile 0 (the blank) is missing"),
        (&["tiles", "1 2 3 5 6 7 8 0"], "tile 4 is missing"),
        (&["tiles", "1 2 x 4"], "not a tile number"),
        (&["tiles", "1 2 3 4 5 6 7 8 9"], "too large"),
        (&["tiles", ""], "no tiles"),
        (&["tiles", "1 2 3 0", "--size", "3by3"], "size"),
        (&["tiles", "1 2 3 0", "--size", "3x3"], "9 cells"),
        (&["tiles", "1 2 3 0", "--goal", "1 1 2 3"], "goal"),
        (
            &["tiles", "1 2 3 0", "--heuristic", "pdb", "--pdb", "2-2"],
            "add up",
        ),
        (&["explore", "tiles", "--size", "0x3"], "size"),
        (&["tiles", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 0", "--heuristic", "pdb", "--pdb", "9-9-9-8"], "table entries"),
    ] {
        let o = frontier(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
    }
    // The message counts every number given, not just those read before giving up.
    let many: Vec<String> = (0..300).map(|t| t.to_string()).collect();
    let o = frontier(&["tiles", &many.join(" ")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("300 tiles given"), "{}", stderr(&o));
    // A goal as long names the goal, and the board it does not fit.
    let o = frontier(&[
        "tiles",
        "1 2 3 4 5 6 7 8 0",
        "--size",
        "3x3",
        "--goal",
        &many.join(" "),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("goal: 300 tiles given, but a 3x3 board has 9 cells"),
        "{}",
        stderr(&o)
    );
    // A number too large is quoted as typed.
    let o = frontier(&["tiles", "1 2 3 4 5 6 7 8 99999999999999999999999"]);
    assert!(
        stderr(&o).contains("tile 99999999999999999999999 is too large"),
        "{}",
        stderr(&o)
    );
    // The blank alone is a board of one cell, "any n x m" (DESIGN): solved as it stands. It
    // was refused as too few tiles.
    let o = frontier(&["tiles", "0", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["length"], 0);
    let o = frontier(&["explore", "tiles", "--size", "1x1", "--json"]);
    assert_eq!(json(&o)["layers"], serde_json::json!([1]));
    // Several lines: the place is a line and a column within it.
    let o = frontier(&["tiles", "1 2 3\n4 5 6\n7 x 0"]);
    assert!(stderr(&o).contains("line 3, column 3"), "{}", stderr(&o));
    let o = frontier(&["explore", "tiles", "--size", "17x17"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at most 256"), "{}", stderr(&o));
    // Pattern databases stop at 64 cells; the message names the way out.
    let o = frontier(&["tiles", &scramble(9, 9, 4).0, "--heuristic", "pdb"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("up to 64 cells") && stderr(&o).contains("--heuristic conflict"),
        "{}",
        stderr(&o)
    );
}

/// A `rows x cols` layout `steps` blank moves from the default goal, none undoing the one
/// before (a fixed pseudo-random walk), with the goal as a list.
fn scramble(rows: usize, cols: usize, steps: usize) -> (String, Vec<u32>) {
    let n = rows * cols;
    let goal: Vec<u32> = (1..n as u32).chain([0]).collect();
    let mut b = goal.clone();
    let (mut blank, mut back) = (n - 1, usize::MAX);
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..steps {
        let (r, c) = (blank / cols, blank % cols);
        let options: Vec<usize> = [
            (r > 0).then(|| blank - cols),
            (r + 1 < rows).then(|| blank + cols),
            (c > 0).then(|| blank - 1),
            (c + 1 < cols).then(|| blank + 1),
        ]
        .into_iter()
        .flatten()
        .filter(|&to| to != back)
        .collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let to = options[seed as usize % options.len()];
        b.swap(blank, to);
        (back, blank) = (blank, to);
    }
    let text: Vec<String> = b.iter().map(u32::to_string).collect();
    (text.join(" "), goal)
}

#[test]
fn boards_up_to_16x16_are_solved() {
    // One board for each width of state past 25 cells (36, 64, 100 and 256 bytes); the tiles'
    // own IDA* and the generic A* and bidirectional search must agree on the length, and every
    // answer must replay to the goal.
    let boards = [
        (6, 6, 30),
        (8, 8, 26),
        (9, 9, 30),
        (12, 12, 24),
        (16, 16, 20),
        (2, 100, 18),
    ];
    for (rows, cols, steps) in boards {
        let (start, goal) = scramble(rows, cols, steps);
        let size = format!("{rows}x{cols}");
        let mut lengths = Vec::new();
        for extra in [&[][..], &["--algo", "astar"], &["--algo", "bidirectional"]] {
            let mut args = vec!["tiles", &start, "--size", &size, "--json"];
            args.extend_from_slice(extra);
            let o = frontier(&args);
            assert_eq!(o.status.code(), Some(0), "{size} {extra:?}: {}", stderr(&o));
            let v = json(&o);
            assert_eq!(replay(&start, cols, &v["moves"]), goal, "{size} {extra:?}");
            lengths.push(v["length"].as_u64().unwrap());
        }
        assert!(
            lengths.iter().all(|&l| l == lengths[0]),
            "{size}: {lengths:?}"
        );
        assert!(lengths[0] <= steps as u64, "{size}: {lengths:?}");
    }
}

#[test]
fn rectangles_and_other_goals() {
    // 2x4 board, given size.
    let o = frontier(&["tiles", "1 2 3 4 5 6 0 7", "--size", "2x4", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["length"], 1);
    // Korf's goal (blank first) on instance 79 of Korf (1985): 42 moves.
    let korf79 = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15";
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let o = frontier(&[
        "tiles",
        korf79,
        "--goal",
        goal,
        "--heuristic",
        "conflict",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["length"], 42);
    let want: Vec<u32> = (0..16).collect();
    assert_eq!(replay(korf79, 4, &v["moves"]), want);
}

#[test]
fn timeouts_exit_3() {
    // Korf's instance 3 (59 moves) with Manhattan alone takes seconds: stop it after 50 ms.
    let korf3 = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15";
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let o = frontier(&[
        "tiles",
        korf3,
        "--goal",
        goal,
        "--heuristic",
        "manhattan",
        "--timeout",
        "0.05",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "limit");
    assert_eq!(v["limit"], "time");
}

/// Korf's instance 9 (Korf 1985), 46 moves from its goal, [`KORF9_GOAL`] (the blank first).
const KORF9: &str = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";
const KORF9_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

/// Runs `frontier tiles` on Korf's #9 with `args` and `--json`, and returns the exit code and
/// the JSON.
fn korf9(args: &[&str]) -> (Option<i32>, Value) {
    let o = frontier(&[&["tiles", KORF9, "--goal", KORF9_GOAL, "--json"][..], args].concat());
    (o.status.code(), json(&o))
}

/// Korf's #9 solved with `args`: checks that the answer replays to the goal and returns its
/// length and the JSON.
fn korf9_solved(args: &[&str]) -> (u64, Value) {
    let (code, v) = korf9(args);
    assert_eq!(code, Some(0), "{args:?}: {v}");
    let want: Vec<u32> = (0..16).collect();
    assert_eq!(replay(KORF9, 4, &v["moves"]), want, "{args:?}");
    (v["length"].as_u64().unwrap(), v)
}

#[test]
fn weighted_searches_answer_within_their_weight() {
    // Korf's instance 9 takes 46 moves: weighted by 1.5, at most 69.
    for extra in [
        &["--heuristic", "manhattan"][..],
        &["--algo", "astar", "--heuristic", "conflict"],
        &["--threads", "2", "--heuristic", "conflict"],
    ] {
        let (length, v) = korf9_solved(&[&["--weight", "1.5"][..], extra].concat());
        assert!((46..=69).contains(&length), "{extra:?}: {length}");
        assert_eq!(v["weight"], 1.5);
    }
    // A random 24-puzzle, out of reach of an exact search without pattern databases, is
    // answered at once with a weight of 2.
    let random24 = "1 18 12 23 4 20 19 9 10 0 7 15 6 13 8 5 3 16 14 2 24 21 22 17 11";
    let o = frontier(&["tiles", random24, "--weight", "2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want: Vec<u32> = (1..25).chain([0]).collect();
    assert_eq!(replay(random24, 5, &json(&o)["moves"]), want);
}

#[test]
fn weighted_searches_within_a_depth_limit_answer_at_once() {
    // Weighted, the bound let through paths far past the limit: every solver below ran into a
    // 20 s timeout (the fast IDA*: 914 M expansions in 100 s). Each now leaves out the states
    // its heuristic puts out of the limit's reach; the timeout only keeps a regression from
    // hanging the suite.
    let limits = ["--weight", "3", "--max-depth", "50", "--timeout", "60"];
    for extra in [
        &["--heuristic", "manhattan"][..],
        &["--algo", "idastar", "--heuristic", "conflict"],
        &["--algo", "astar", "--heuristic", "conflict"],
    ] {
        let (length, v) = korf9_solved(&[&limits[..], extra].concat());
        assert!((46..=50).contains(&length), "{extra:?}: {length}");
        assert!(
            v["stats"]["expanded"].as_u64().unwrap() < 20_000_000,
            "{extra:?}"
        );
    }
}

#[test]
fn astar_within_a_limit_short_of_the_answer_stops_at_once() {
    // Korf's instance 9 takes 46 moves. Within 45, A* stored every (board, depth) pair in
    // reach, 2.1 GB in 30 s; it now leaves out the boards whose heuristic puts the goal past
    // the limit. (The timeout only keeps a regression from hanging the suite.)
    let astar = [
        "--algo",
        "astar",
        "--heuristic",
        "conflict",
        "--timeout",
        "60",
    ];
    let (code, v) = korf9(&[&astar[..], &["--max-depth", "45"]].concat());
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(
        (v["status"].as_str(), v["limit"].as_str()),
        (Some("limit"), Some("depth"))
    );
    assert!(v["stats"]["stored"].as_u64().unwrap() < 1_000_000, "{v}");
    let (_, v) = korf9(&[&astar[..], &["--max-depth", "46"]].concat());
    assert_eq!(v["length"], 46, "{v}");
}

#[test]
fn stages_answer_any_board_at_once() {
    // 600 random moves from the goal of a 16 x 16 board, and a 3 x 9 rectangle: out of reach
    // of exact search, answered by --solver stages; each answer replays to the goal.
    for (rows, cols, steps) in [(16, 16, 600), (3, 9, 300)] {
        let (start, goal) = scramble(rows, cols, steps);
        let size = format!("{rows}x{cols}");
        let o = frontier(&[
            "tiles", &start, "--size", &size, "--solver", "stages", "--json",
        ]);
        assert_eq!(o.status.code(), Some(0), "{size}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["algorithm"], "stages");
        assert_eq!(replay(&start, cols, &v["moves"]), goal, "{size}");
    }
    // An answer longer than --max-depth is not given: a depth limit instead (exit 3).
    let (start, _) = scramble(16, 16, 600);
    let args = [
        "tiles",
        &start,
        "--solver",
        "stages",
        "--max-depth",
        "5",
        "--json",
    ];
    let o = frontier(&args);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(json(&o)["limit"], "depth");
    let o = frontier(&["tiles", HARDEST_8, "--solver", "stages"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("not proven shortest"));
    for flag in [
        &["--algo", "bfs"][..],
        &["--heuristic", "pdb"],
        &["--weight", "2"],
        &["--pdb", "4-4"],
    ] {
        let mut args = vec!["tiles", HARDEST_8, "--solver", "stages"];
        args.extend_from_slice(flag);
        let o = frontier(&args);
        assert_eq!(o.status.code(), Some(2), "{flag:?}");
        assert!(stderr(&o).contains(flag[0]), "{flag:?}: {}", stderr(&o));
    }
}

#[test]
fn limits_exit_3() {
    let o = frontier(&[
        "tiles",
        HARDEST_8,
        "--heuristic",
        "manhattan",
        "--max-depth",
        "20",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json(&o)["status"], "limit");
    // The generic IDA* one move short of the answer: the tiles tell the engine that a slide
    // costs 1, so it stops once its bound covers 30 moves. It used to search on, bound after
    // bound, until the timeout.
    let o = frontier(&[
        "tiles",
        HARDEST_8,
        "--algo",
        "idastar",
        "--heuristic",
        "manhattan",
        "--max-depth",
        "30",
        "--timeout",
        "60",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(json(&o)["limit"], "depth");
}

#[test]
fn short_answers_need_no_pattern_database() {
    // Within 16 moves, bidirectional search answers before a pattern database is loaded or
    // built: the first run used to build the 15-puzzle's for 8 s to slide one tile, and a
    // solved board with a small --max-states was refused for the tables it would need.
    let dir = temp_dir();
    let solved = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    let nine = "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12";
    let goal: Vec<u32> = (1..16).chain([0]).collect();
    for (start, length, extra) in [
        (solved, 0, &[][..]),
        (solved, 0, &["--max-states", "10"][..]),
        (nine, 9, &[][..]),
        (nine, 9, &["--algo", "astar"][..]),
    ] {
        let args = [&["tiles", start, "--json"][..], extra].concat();
        let o = frontier_in(&dir, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["length"], length, "{args:?}");
        assert_eq!(replay(start, 4, &v["moves"]), goal, "{args:?}");
    }
    let cached = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(cached, 0, "a pattern database was cached");
}

#[test]
fn pattern_databases_are_cached_and_rebuilt_when_damaged() {
    let dir = temp_dir();
    let run = || frontier_in(&dir, &["tiles", HARDEST_8, "--heuristic", "pdb", "--json"]);
    let o = run();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["length"], 31);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    // Damage the table: the next run detects it, rebuilds it and still answers 31.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&files[0], &bytes).unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["length"], 31);
    assert_ne!(std::fs::read(&files[0]).unwrap(), bytes);
    // Said on stderr, in one line, though stderr is no terminal here.
    let warnings: Vec<&str> = std::str::from_utf8(&o.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("rebuilt"), "{warnings:?}");
    let o = run();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("warning"));
}

#[test]
fn explore_3x3_has_181440_states_31_moves_deep() {
    // The 8-puzzle: 9!/2 = 181,440 layouts reachable from the goal, the farthest 31 moves away.
    let o = frontier(&["explore", "tiles", "--size", "3x3", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["states"], 181_440);
    assert_eq!(v["complete"], true);
    let layers = v["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 32);
    assert_eq!(layers[31], 2);
    // The same in parallel.
    let o = frontier(&[
        "explore",
        "tiles",
        "--size",
        "3x3",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(json(&o)["states"], 181_440);
}

#[test]
fn dfs_at_its_depth_limit_does_not_claim_there_is_no_solution() {
    // The 31-move position has a 31-move solution, which dfs (each state entered once) misses:
    // it said "no solution found within 31 moves".
    let o = frontier(&[
        "tiles",
        "8 6 7 2 5 4 3 0 1",
        "--algo",
        "dfs",
        "--max-depth",
        "31",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("so one may exist"), "{out}");
}

#[test]
fn explore_from_a_goal_takes_the_board_size_from_it() {
    // Sixteen tiles make the 15-puzzle: 1, 2, 4, 10, 24 layouts at distances 0 to 4 from its
    // goal with the blank in a corner (OEIS A089473). It was read against a 3x3 board.
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    let o = frontier(&[
        "explore",
        "tiles",
        "--goal",
        goal,
        "--max-depth",
        "4",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["layers"], serde_json::json!([1, 2, 4, 10, 24]));
    assert_eq!(json(&o)["limit"], "depth");
    // A goal that makes no square names the goal.
    let o = frontier(&["explore", "tiles", "--goal", "1 2 3 0 5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("goal: 5 tiles"), "{}", stderr(&o));
    // A layout to explore from and a goal: the goal would change nothing, and is refused
    // (it was ignored, even when out of the layout's reach).
    let o = frontier(&["explore", "tiles", "1 2 3 0", "--goal", "2 1 3 0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

#[test]
fn a_timeout_stops_a_pattern_database_build_and_leaves_no_table() {
    // The 15-puzzle's tables take seconds to build; --timeout counts from the start and stops
    // the build too (it used to run to the end and then solve, exit 0).
    let dir = temp_dir();
    // Far past the reach of the short search that needs no table.
    let puzzle = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
    let o = frontier_in(&dir, &["tiles", puzzle, "--timeout", "0.2", "--json"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let value = json(&o);
    assert_eq!(
        (value["status"].as_str(), value["limit"].as_str()),
        (Some("limit"), Some("time"))
    );
    // Three tables make the 15-puzzle's database: not all were written, and no partial one.
    let tables = walk(dir.path());
    assert!(tables.len() < 3, "{tables:?}");
    assert!(tables.iter().all(|f| f.ends_with(".bin")), "{tables:?}");
}

/// Every file below `dir`, as text.
fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path.display().to_string());
        }
    }
    out
}

#[test]
fn a_bad_or_idle_pdb_is_refused_before_anything_else() {
    for args in [
        // Sizes that do not add up, on a board parity already rules out.
        &["tiles", "2 1 3 0", "--pdb", "9-9"][..],
        &["tiles", "1 2 3 0", "--heuristic", "manhattan", "--pdb", "3"][..],
        &["tiles", "1 2 3 0", "--algo", "bfs", "--pdb", "3"][..],
    ] {
        let output = support::run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("--pdb"));
    }
}

#[test]
fn a_heuristic_for_a_solver_without_one_is_refused() {
    // It was silently ignored, where --pdb and --weight were refused.
    for algo in ["dfs", "bfs", "iddfs", "ucs", "bidirectional"] {
        for heuristic in ["manhattan", "conflict", "pdb"] {
            let args = ["tiles", "1 2 3 4 5 6 7 0 8", "--algo", algo];
            let o = frontier(&[&args[..], &["--heuristic", heuristic]].concat());
            assert_eq!(o.status.code(), Some(2), "{algo} {heuristic}");
            let text = stderr(&o);
            assert!(
                text.contains(&format!("--heuristic {heuristic}"))
                    && text.contains(&format!("--algo {algo}")),
                "{text}"
            );
            assert!(text.lines().count() <= 2, "{text}");
        }
    }
    // Parity is decided after the refusal, as for --pdb.
    let o = frontier(&[
        "tiles",
        "2 1 3 0",
        "--algo",
        "bfs",
        "--heuristic",
        "manhattan",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    for algo in ["astar", "idastar"] {
        let args = ["tiles", "1 2 3 4 5 6 7 0 8", "--heuristic", "manhattan"];
        let o = frontier(&[&args[..], &["--algo", algo]].concat());
        assert_eq!(o.status.code(), Some(0), "{algo}: {}", stderr(&o));
    }
}

#[test]
fn pattern_databases_larger_than_the_memory_budget_are_a_limit() {
    // The 8-puzzle's one table takes 725,760 bytes to build (9! entries, as many again while
    // building): --max-states counts an entry as a state. It used to build any tables at all,
    // 11 GB of them against a 1 GB budget.
    let dir = temp_dir();
    let o = frontier_in(&dir, &["tiles", HARDEST_8, "--max-states", "1000"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("725,760 bytes"), "{text}");
    assert!(text.contains("--max-states 1,000"), "{text}");
    assert!(text.contains("--pdb"), "{text}");
    assert!(
        walk(dir.path()).is_empty(),
        "nothing built: {:?}",
        walk(dir.path())
    );
    let o = frontier_in(
        &dir,
        &["tiles", HARDEST_8, "--max-states", "1000", "--json"],
    );
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(
        (v["status"].as_str(), v["limit"].as_str()),
        (Some("limit"), Some("states"))
    );
    // Exactly enough is enough.
    let o = frontier_in(
        &dir,
        &["tiles", HARDEST_8, "--max-states", "725760", "--json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["length"], 31);
}
