//! `frontier cube` and `frontier explore cube` through the real binary.

use std::process::{Command, Output};

use frontier_cube::{parse_moves, Cube, Facelets, Notation};
use serde_json::Value;

use crate::support::{self, shared_cache, stderr, temp_dir, BIN};

/// Runs `frontier` with a table cache of its own under the target directory: built by the
/// first test that needs a table, then shared by the others and by later runs, and never the
/// user's cache.
fn frontier(args: &[&str]) -> Output {
    support::frontier(args)
        .cache(shared_cache("cube-cache"))
        .output()
}

fn json(args: &[&str]) -> (Value, i32) {
    let out = frontier(args);
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (value, out.status.code().expect("an exit code"))
}

/// The JSON moves, replayed on the facelet model from `start`: must reach solved.
fn assert_solves(start: Facelets, value: &Value, notation: Notation) -> usize {
    let moves: Vec<&str> = value["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move is a string"))
        .collect();
    let moves = parse_moves(&moves.join(" "), notation).expect("moves in the notation");
    let mut facelets = start;
    for &mv in &moves {
        facelets.apply(mv);
    }
    assert_eq!(facelets, Facelets::SOLVED, "{value}");
    moves.len()
}

#[test]
fn the_seeds_example_in_seed_notation_takes_five_quarter_turns() {
    let (value, code) = json(&["cube", "B l U L B", "--notation", "seed", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(value["domain"], "cube");
    assert_eq!(value["algorithm"], "optimal");
    assert_eq!(value["status"], "solved");
    assert_eq!(value["length"], 5);
    let start = Cube::from_scramble("B l U L B", Notation::Seed)
        .unwrap()
        .to_facelets();
    assert_eq!(assert_solves(start, &value, Notation::Seed), 5);
    // In seed notation every move is one letter: a quarter turn.
    assert!(value["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m.as_str().unwrap().len() == 1));
}

#[test]
fn the_default_optimal_solver_is_as_short_as_bidirectional_search() {
    // Scrambles of 9 moves (seeded): the default (optimal) solver and the generic
    // bidirectional search, an independent shortest-path method, must agree on every length.
    for (seed, metric) in [(1, "htm"), (2, "htm"), (3, "qtm")] {
        let moves = frontier_cube::random_scramble(
            seed,
            9,
            if metric == "htm" {
                frontier_cube::Metric::Htm
            } else {
                frontier_cube::Metric::Qtm
            },
        );
        let cube = Cube::SOLVED.apply_all(&moves);
        let facelets = cube.to_string();
        let (optimal, code) = json(&[
            "cube",
            "--facelets",
            &facelets,
            "--metric",
            metric,
            "--json",
        ]);
        assert_eq!(code, 0);
        assert_eq!(optimal["algorithm"], "optimal");
        let length = assert_solves(cube.to_facelets(), &optimal, Notation::Wca);
        let (search, code) = json(&[
            "cube",
            "--facelets",
            &facelets,
            "--metric",
            metric,
            "--solver",
            "search",
            "--json",
        ]);
        assert_eq!(code, 0);
        assert_eq!(search["algorithm"], "bidirectional");
        assert_eq!(optimal["cost"], search["cost"], "seed {seed}, {metric}");
        assert!(length <= 9 * if metric == "qtm" { 2 } else { 1 });
    }
}

/// A scramble too long for the search that runs before any table is needed.
const EIGHT_MOVES: &str = "R U F D L B R' U2";

#[test]
fn the_default_budget_keeps_within_an_address_space_limit() {
    // Under `ulimit -v` (250 MB) the optimal solver's table (176 MB to build) does not fit:
    // the budget, read from the machine's memory alone, let the build start and the
    // allocation abort the program (exit 134).
    let dir = temp_dir();
    let out = Command::new("sh")
        .args(["-c", "ulimit -v 250000 && exec \"$0\" \"$@\""])
        .arg(BIN)
        .args(["cube", EIGHT_MOVES, "--json"])
        .env("FRONTIER_CACHE_DIR", dir.path())
        .output()
        .expect("sh runs");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(value["limit"], "states");
}

#[test]
fn short_answers_need_no_table() {
    // Within six moves, bidirectional search answers before a table is loaded or built: the
    // first run used to build the optimal solver's table for seconds to solve `R U`.
    for solver in ["optimal", "twophase"] {
        let dir = temp_dir();
        let out = support::frontier(["cube", "R U F2 D' L B", "--solver", solver, "--json"])
            .cache(dir.path())
            .output();
        assert_eq!(out.status.code(), Some(0), "{solver}: {}", stderr(&out));
        let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(value["algorithm"], solver);
        assert_eq!(value["length"], 6, "{solver}");
        let start = Cube::from_scramble("R U F2 D' L B", Notation::Wca).unwrap();
        assert_solves(start.to_facelets(), &value, Notation::Wca);
        assert!(
            !dir.path().join("cube").exists(),
            "{solver}: a table was cached"
        );
    }
}

#[test]
fn tables_count_against_the_state_budget() {
    // A byte of a table counts as a stored state, as for the tiles' pattern databases: the
    // table solvers used to ignore --max-states altogether.
    for (solver, algo, way_out) in [
        ("optimal", "optimal", "--solver search"),
        ("twophase", "twophase", "--solver search"),
        // The generic solvers' heuristic: 6.6 MB of tables.
        ("search --algo astar", "astar", "--algo bidirectional"),
        ("search --algo idastar", "idastar", "--algo bidirectional"),
    ] {
        let mut args = vec!["cube", EIGHT_MOVES, "--max-states", "1000000", "--solver"];
        args.extend(solver.split(' '));
        let out = frontier(&args);
        assert_eq!(out.status.code(), Some(3), "{solver}: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("more than --max-states 1,000,000 allows"),
            "{text}"
        );
        assert!(text.contains(way_out), "{solver}: {text}");
        let (value, code) = json(&[&args[..], &["--json"]].concat());
        assert_eq!(code, 3);
        assert_eq!(
            (value["algorithm"].as_str(), value["limit"].as_str()),
            (Some(algo), Some("states"))
        );
    }
    // Two-phase's tables (the phase-1 table's build is the most) fit in 250 million.
    let args = [
        "cube",
        EIGHT_MOVES,
        "--solver",
        "twophase",
        "--max-states",
        "250000000",
    ];
    assert_eq!(frontier(&args).status.code(), Some(0));
}

#[test]
fn a_table_build_stops_at_the_timeout_and_writes_nothing() {
    let dir = temp_dir();
    let out = support::frontier(["cube", EIGHT_MOVES, "--timeout", "0.3", "--json"])
        .cache(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(value["status"], "limit");
    assert!(!dir.path().join("cube/phase1-htm.table").exists());
}

#[test]
fn twophase_counts_its_tables_against_the_timeout() {
    // Building two-phase's tables takes a good part of a second; the timeout counts from the
    // start of the command, so 10 ms run out before the search (it solved, reporting 13 µs).
    for timeout in ["0.01", "0"] {
        let out = support::frontier([
            "cube",
            EIGHT_MOVES,
            "--solver",
            "twophase",
            "--json",
            "--timeout",
            timeout,
        ])
        .output();
        assert_eq!(out.status.code(), Some(3), "{timeout}: {}", stderr(&out));
        let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(value["limit"], "time", "{timeout}");
        let seconds = value["stats"]["seconds"].as_f64().unwrap();
        let timeout: f64 = timeout.parse().unwrap();
        assert!(seconds >= timeout, "{seconds} s reported for {timeout}");
    }
}

#[test]
fn metrics_count_differently() {
    let scramble = "R2 U2";
    let start = Cube::from_scramble(scramble, Notation::Wca)
        .unwrap()
        .to_facelets();
    let (htm, code) = json(&["cube", scramble, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(htm["length"], 2);
    assert_solves(start, &htm, Notation::Wca);
    let (qtm, code) = json(&["cube", scramble, "--metric", "qtm", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(qtm["length"], 4);
    assert_solves(start, &qtm, Notation::Wca);
}

#[test]
fn facelets_input_is_solved() {
    let start = Cube::from_scramble("F R' U2 L", Notation::Wca)
        .unwrap()
        .to_facelets();
    let text = start.to_string();
    for algo in ["bidirectional", "idastar", "bfs", "iddfs"] {
        let (value, code) = json(&["cube", "--facelets", &text, "--algo", algo, "--json"]);
        assert_eq!(code, 0, "{algo}");
        assert_eq!(value["algorithm"], algo);
        assert_eq!(assert_solves(start, &value, Notation::Wca), 4, "{algo}");
    }
}

#[test]
fn a_solved_cube_answers_with_an_empty_solution() {
    for args in [
        vec!["cube", ""],
        vec!["cube", "x y z"],
        vec!["cube", "R R'"],
        vec![
            "cube",
            "--facelets",
            "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB",
        ],
    ] {
        let mut with_json = args.clone();
        with_json.push("--json");
        let (value, code) = json(&with_json);
        assert_eq!(code, 0, "{args:?}");
        assert_eq!(value["status"], "solved");
        assert_eq!(value["length"], 0);
        assert_eq!(value["moves"], Value::Array(vec![]));
        let out = frontier(&args);
        assert_eq!(out.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&out.stdout).contains("the cube is solved"));
    }
}

#[test]
fn impossible_cubes_exit_2_with_the_reason() {
    let solved: Vec<char> = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
        .chars()
        .collect();
    let edit = |edits: &[(usize, char)]| -> String {
        let mut chars = solved.clone();
        for &(i, c) in edits {
            chars[i] = c;
        }
        chars.into_iter().collect()
    };
    let cases = [
        (edit(&[(8, 'R'), (9, 'F'), (20, 'U')]), "twisted"),
        (edit(&[(5, 'R'), (10, 'U')]), "flipped"),
        (edit(&[(10, 'D'), (32, 'R')]), "no edge"),
        (edit(&[(4, 'R'), (13, 'U')]), "centre"),
        (edit(&[(0, 'D')]), "appears on 8 facelets"),
        (edit(&[(9, 'F'), (20, 'R')]), "no corner"),
        ("UUU".to_owned(), "54"),
        (edit(&[(3, 'x')]), "column 4"),
    ];
    for (facelets, reason) in &cases {
        let out = frontier(&["cube", "--facelets", facelets]);
        assert_eq!(out.status.code(), Some(2), "{facelets}");
        assert!(stderr(&out).contains(reason), "{reason}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // Odd parity: swap the UR and UF edges completely (both facelets of each).
    let swapped = edit(&[(5, 'U'), (7, 'U'), (10, 'F'), (19, 'R')]);
    let out = frontier(&["cube", "--facelets", &swapped]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("parity"), "{}", stderr(&out));
}

#[test]
fn facelets_may_be_written_a_face_a_group_and_errors_say_what_is_wrong() {
    let solved = Facelets::SOLVED.to_string();
    let faces: Vec<&str> = (0..6).map(|f| &solved[f * 9..f * 9 + 9]).collect();
    // Six groups of nine, spaced or on lines: the cube R U' F2 was scrambled from.
    let start = Cube::from_scramble("R U' F2", Notation::Wca)
        .unwrap()
        .to_facelets();
    let text = start.to_string();
    let grouped: Vec<&str> = (0..6).map(|f| &text[f * 9..f * 9 + 9]).collect();
    for separator in [" ", "\n", "  \t"] {
        let (value, code) = json(&["cube", "--facelets", &grouped.join(separator), "--json"]);
        assert_eq!(code, 0, "{separator:?}");
        assert_eq!(assert_solves(start, &value, Notation::Wca), 3);
    }
    // A string that cannot be read is not called an unsolvable cube.
    let mut short = faces.clone();
    short[2] = "FFFFFFFF";
    for (facelets, expected) in [
        (
            "UUU".to_owned(),
            "cannot read --facelets: the facelet string has 3 letters",
        ),
        (
            short.join(" "),
            "cannot read --facelets: facelet string, column 21: the group of face F has 8 letters",
        ),
        (
            solved.replacen('U', "'", 1),
            "cannot read --facelets: facelet string, column 1: \"'\" is not a face letter",
        ),
        (
            solved.replacen('R', "U", 1),
            "--facelets is not a solvable cube: colour U appears on 10 facelets",
        ),
    ] {
        let out = frontier(&["cube", "--facelets", &facelets]);
        assert_eq!(out.status.code(), Some(2), "{facelets}");
        assert!(stderr(&out).contains(expected), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    }
}

#[test]
fn malformed_notation_exits_2_with_the_place() {
    for (args, expected) in [
        (vec!["cube", "R U Q"], "column 5"),
        (vec!["cube", "R'2"], "R2"),
        (vec!["cube", "R3"], "R'"),
        (vec!["cube", "R U'", "--notation", "seed"], "column 4"),
        (
            vec!["cube", "R", "--solver", "optimal", "--algo", "idastar"],
            "--algo idastar",
        ),
        (vec!["cube", "R", "--solver", "fast"], "unknown solver"),
        (
            vec!["cube", "R", "--solver", "twophase", "--algo", "bfs"],
            "--algo bfs",
        ),
        (
            vec!["cube", "R", "--solver", "twophase", "--metric", "qtm"],
            "htm",
        ),
        (
            vec!["cube", "R", "--notation", "seed", "--metric", "htm"],
            "quarter turns only",
        ),
        // Two-phase bounds face turns; seed notation counts quarter turns.
        (
            vec![
                "cube",
                "R",
                "--notation",
                "seed",
                "--solver",
                "twophase",
                "--max-depth",
                "20",
            ],
            "bounds face turns (htm), but --notation seed counts quarter turns",
        ),
        (vec!["cube"], "give a scramble"),
        (vec!["cube", "R", "--metric", "ftm"], "ftm"),
    ] {
        let out = frontier(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // An apostrophe is quoted plainly, not escaped ('\'').
    let out = frontier(&["cube", "R U'", "--notation", "seed"]);
    assert!(
        stderr(&out).contains("column 4: \"'\" is not a move"),
        "{}",
        stderr(&out)
    );
    // WCA allows R2' (a half turn counter-clockwise).
    let (value, code) = json(&["cube", "R2'", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(value["moves"], serde_json::json!(["R2"]));
}

#[test]
fn human_output_draws_the_net_in_letters_when_not_a_terminal() {
    let out = frontier(&["cube", "R U", "--show"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b'), "no colours into a pipe");
    assert!(text.contains("solution: U' R'"), "{text}");
    assert!(text.contains("length: 2 htm"), "{text}");
    assert_eq!(text.matches("after ").count(), 2, "{text}");
    // The last drawing is the solved cube.
    let solved_net = Facelets::SOLVED.net(false);
    assert!(text.contains(&solved_net), "{text}");
    let quiet = frontier(&["cube", "R U", "--quiet"]);
    assert_eq!(String::from_utf8(quiet.stdout).unwrap(), "U' R'\n");
}

#[test]
fn a_limit_exits_3() {
    let hard = Cube::random(3).to_string();
    // The state budget stops a storing solver...
    let out = frontier(&[
        "cube",
        "--facelets",
        &hard,
        "--algo",
        "bidirectional",
        "--max-states",
        "1000",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    // ...and the clock stops the default search (a random cube lies about 18 moves away: far
    // more than a fifth of a second of search), even a clock run out before it starts.
    for timeout in ["0.2", "0"] {
        let out = frontier(&["cube", "--facelets", &hard, "--timeout", timeout]);
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("stopped by --timeout"), "{stdout}");
        // The hint towards two-phase is a diagnostic: only on a terminal, and stderr is not one
        // here.
        assert!(!stderr(&out).contains("hint"), "{}", stderr(&out));
    }
}

#[test]
fn twophase_solves_a_random_cube_in_at_most_20_moves() {
    for seed in [11, 12] {
        let cube = Cube::random(seed);
        let facelets = cube.to_string();
        let (value, code) = json(&[
            "cube",
            "--facelets",
            &facelets,
            "--solver",
            "twophase",
            "--json",
        ]);
        assert_eq!(code, 0, "{value}");
        assert_eq!(value["algorithm"], "twophase");
        assert_eq!(value["status"], "solved");
        let length = assert_solves(cube.to_facelets(), &value, Notation::Wca);
        assert!(length <= 20, "{length} moves");
        assert_eq!(value["length"], length);
        assert_eq!(value["cost"], length);
    }
    // With --max-depth, no solution is longer, and none too short is a limit (exit 3).
    let (value, code) = json(&[
        "cube",
        "R U F",
        "--solver",
        "twophase",
        "--max-depth",
        "3",
        "--json",
    ]);
    assert_eq!((code, value["length"].as_u64()), (0, Some(3)), "{value}");
    let out = frontier(&["cube", "R U F", "--solver", "twophase", "--max-depth", "2"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    // In the seed's notation every move is one quarter-turn letter, half turns included.
    let scramble = "B l U L B R R U U";
    let (value, code) = json(&[
        "cube",
        scramble,
        "--notation",
        "seed",
        "--solver",
        "twophase",
        "--json",
    ]);
    assert_eq!(code, 0, "{value}");
    let start = Cube::from_scramble(scramble, Notation::Seed)
        .unwrap()
        .to_facelets();
    let quarters = assert_solves(start, &value, Notation::Seed);
    assert_eq!(value["length"], quarters);
    assert!(
        value["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.as_str().unwrap().len() == 1),
        "{value}"
    );
}

#[test]
fn explore_reproduces_the_published_counts() {
    // OEIS A080601 (HTM) and A080602 (QTM): positions at each distance from solved. The
    // search runs on classes under the 48 symmetries, counted with their sizes: 2,101,575
    // classes at 7 face turns (Rokicki's cubepos tests list the class counts too).
    let (htm, code) = json(&["explore", "cube", "--max-depth", "7", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        htm["layers"],
        serde_json::json!([1, 18, 243, 3240, 43239, 574908, 7618438, 100803036])
    );
    assert_eq!(htm["complete"], false);
    let (qtm, code) = json(&[
        "explore",
        "cube",
        "--metric",
        "qtm",
        "--max-depth",
        "8",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        qtm["layers"],
        serde_json::json!([1, 12, 114, 1068, 10011, 93840, 878880, 8221632, 76843595])
    );
}

/// The `warning:` lines of a run's stderr.
fn warnings(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn damaged_and_unwritable_caches_are_warned_of_once_per_table_even_off_a_terminal() {
    let temp = temp_dir();
    let dir = temp.path().to_path_buf();
    let run =
        |cache: &std::path::Path, args: &[&str]| support::frontier(args).cache(cache).output();
    let twophase = ["cube", EIGHT_MOVES, "--solver", "twophase", "--json"];
    let first = run(&dir, &twophase);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(warnings(&first), Vec::<String>::new());
    // A truncated phase-2 table, and the temporary file of a writer killed meanwhile (a child
    // that has exited: its process id names no process).
    let edges = dir.join("cube/g1-edges-htm.table");
    let bytes = std::fs::read(&edges).unwrap();
    std::fs::write(&edges, &bytes[..bytes.len() / 2]).unwrap();
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let left = dir.join(format!("cube/.g1-edges-htm.table.{dead}.0.tmp"));
    std::fs::write(&left, b"partial").unwrap();
    let second = run(&dir, &twophase);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let said = warnings(&second);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("g1-edges") && said[0].contains("rebuilt"),
        "{said:?}"
    );
    if cfg!(target_os = "linux") {
        assert!(!left.exists(), "the killed writer's file is removed");
    }
    assert_eq!(
        std::fs::read(&edges).unwrap(),
        bytes,
        "the table is rewritten whole"
    );
    // A damaged heuristic table, read by --algo idastar (built by its first run).
    let idastar = ["cube", "R U", "--algo", "idastar", "--json"];
    let built = run(&dir, &idastar);
    assert_eq!(warnings(&built), Vec::<String>::new());
    let twist_flip = dir.join("cube/twist-flip-htm.table");
    let mut bytes = std::fs::read(&twist_flip).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&twist_flip, &bytes).unwrap();
    let idastar = run(&dir, &idastar);
    assert_eq!(idastar.status.code(), Some(0), "{}", stderr(&idastar));
    let said = warnings(&idastar);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("twist-flip") && said[0].contains("checksum"),
        "{said:?}"
    );
    // A cache that cannot be written: said once, for the first table that failed.
    std::fs::write(dir.join("file"), b"").unwrap();
    let blocked = run(
        &dir.join("file"),
        &["cube", "R U", "--algo", "idastar", "--json"],
    );
    assert_eq!(blocked.status.code(), Some(0), "{}", stderr(&blocked));
    let said = warnings(&blocked);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("not cached"), "{said:?}");
}

/// The lines of a run's standard output, parsed as JSON.
fn json_lines(out: &Output) -> Vec<Value> {
    (String::from_utf8_lossy(&out.stdout).lines())
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[test]
fn scrambles_replay_to_their_facelets_and_follow_their_seed() {
    let out = frontier(&["cube", "--scramble", "5", "--seed", "9", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5);
    for line in &lines {
        let scramble = line["scramble"].as_str().expect("a scramble");
        let cube = Cube::from_scramble(scramble, Notation::Wca).expect("WCA moves");
        assert_eq!(cube.to_facelets().to_string(), line["facelets"], "{line}");
        let moves = scramble.split_whitespace().count();
        assert!((2..=20).contains(&moves), "{line}");
    }
    // The same seed, the same scrambles, in text as in JSON.
    let text = frontier(&["cube", "--scramble", "5", "--seed", "9"]);
    let scrambles: Vec<String> = String::from_utf8_lossy(&text.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let from_json: Vec<&str> = lines
        .iter()
        .map(|l| l["scramble"].as_str().unwrap())
        .collect();
    assert_eq!(scrambles, from_json);
    let refused = frontier(&["cube", "R U", "--scramble", "2"]);
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn batch_answers_equal_one_cube_answers_in_input_order() {
    let cubes: Vec<String> = (0..12)
        .map(|k| {
            let moves =
                frontier_cube::random_scramble(k, 8 + k as usize, frontier_cube::Metric::Htm);
            frontier_cube::write_moves(&moves, Notation::Wca)
        })
        .collect();
    let mut input = cubes.join("\n");
    input.push_str("\nR U X\n");
    for threads in ["1", "2"] {
        let out = support::frontier([
            "cube",
            "--batch",
            "-",
            "--solver",
            "twophase",
            "--json",
            "--threads",
            threads,
        ])
        .cache(shared_cache("cube-cache"))
        .stdin(input.clone())
        .output();
        // The bad last line is named on stderr; the others are answered, and the exit is 2.
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("line 13:"), "{}", stderr(&out));
        let lines = json_lines(&out);
        assert_eq!(lines.len(), cubes.len());
        for (k, (line, scramble)) in lines.iter().zip(&cubes).enumerate() {
            assert_eq!(line["line"], k + 1);
            assert_eq!(line["status"], "solved");
            let start = Cube::from_scramble(scramble, Notation::Wca).unwrap();
            assert_solves(start.to_facelets(), line, Notation::Wca);
            // The one-cube answer of the same solver is the same (two-phase is deterministic
            // on one thread, and a batch solves each cube on one).
            let (one, code) = json(&["cube", scramble, "--solver", "twophase", "--json"]);
            assert_eq!(code, 0);
            if one["length"].as_u64() > Some(6) {
                assert_eq!(one["moves"], line["moves"], "{scramble}");
            }
        }
    }
}

#[test]
fn batch_reads_facelet_lines_and_targets_reach_their_pattern() {
    let start = Cube::from_scramble("R U F' D2", Notation::Wca).unwrap();
    let target = Cube::from_scramble("L2 B U'", Notation::Wca).unwrap();
    let facelets = format!("{}\n", start.to_facelets());
    let file = support::TempFile::new("cubes.txt", facelets);
    let target_text = target.to_facelets().to_string();
    let out = frontier(&[
        "cube",
        "--batch",
        file.to_str().unwrap(),
        "--facelets",
        "--target",
        &target_text,
        "--solver",
        "twophase",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    let moves: Vec<&str> = lines[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let moves = parse_moves(&moves.join(" "), Notation::Wca).unwrap();
    assert_eq!(start.apply_all(&moves), target);
    // One cube to a target, the optimal solver: the moves take it there, and no fewer do.
    let (value, code) = json(&["cube", "R U F' D2", "--target", &target_text, "--json"]);
    assert_eq!(code, 0);
    let moves: Vec<&str> = value["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let moves = parse_moves(&moves.join(" "), Notation::Wca).unwrap();
    assert_eq!(start.apply_all(&moves), target);
    assert!(moves.len() <= 7);
}

#[test]
fn effort_finds_shorter_answers_and_belongs_to_twophase() {
    // Past the short search's six moves, so two-phase answers; its first solution within 20
    // moves is no shorter than what an effort finds.
    let scramble = "R U R' U' F2 D B' L2";
    let (first, code) = json(&["cube", scramble, "--solver", "twophase", "--json"]);
    assert_eq!(code, 0);
    let (searched, code) = json(&[
        "cube", scramble, "--solver", "twophase", "--effort", "2000000", "--json",
    ]);
    assert_eq!(code, 0);
    assert!(searched["length"].as_u64() <= first["length"].as_u64());
    let start = Cube::from_scramble(scramble, Notation::Wca).unwrap();
    assert_solves(start.to_facelets(), &searched, Notation::Wca);
    let refused = frontier(&["cube", scramble, "--effort", "5"]);
    assert_eq!(refused.status.code(), Some(2));
}

/// Every canonical sequence of `length` moves that solves `cube` in `metric`, by trying them
/// all: the count `--all` must give.
fn solving_sequences(cube: Cube, length: usize, metric: frontier_cube::Metric) -> usize {
    if length == 0 {
        return usize::from(cube.is_solved());
    }
    fn count(
        cube: Cube,
        last: Option<frontier_cube::Move>,
        left: usize,
        metric: frontier_cube::Metric,
    ) -> usize {
        if left == 0 {
            return usize::from(cube.is_solved());
        }
        (metric.moves().iter())
            .filter(|&&mv| last.is_none_or(|l| metric.may_follow(l, mv)))
            .map(|&mv| count(cube.apply(mv), Some(mv), left - 1, metric))
            .sum()
    }
    count(cube, None, length, metric)
}

#[test]
fn all_lists_every_shortest_solution_once() {
    for (scramble, metric, m) in [
        ("U2 D2 F", "htm", frontier_cube::Metric::Htm),
        ("R L U2 F'", "htm", frontier_cube::Metric::Htm),
        ("R U2 L'", "qtm", frontier_cube::Metric::Qtm),
    ] {
        let (value, code) = json(&["cube", scramble, "--metric", metric, "--all", "--json"]);
        assert_eq!(code, 0, "{value}");
        let start = Cube::from_scramble(scramble, Notation::Wca).unwrap();
        let length = assert_solves(start.to_facelets(), &value, Notation::Wca);
        let solutions = value["solutions"].as_array().expect("solutions");
        assert_eq!(value["count"].as_u64(), Some(solutions.len() as u64));
        assert_eq!(
            solutions.len(),
            solving_sequences(start, length, m),
            "{scramble}"
        );
        let mut distinct = std::collections::HashSet::new();
        for solution in solutions {
            let one = serde_json::json!({ "moves": solution });
            assert_eq!(
                assert_solves(start.to_facelets(), &one, Notation::Wca),
                length
            );
            assert!(distinct.insert(solution.to_string()), "{solution} twice");
        }
    }
    // For people: the count, then one solution a line.
    let out = frontier(&["cube", "R L", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    let text = support::stdout(&out);
    assert!(text.contains("1 shortest solution:\nR' L'\n"), "{text}");
}

#[test]
fn table_sizes_are_checked_and_belong_to_the_optimal_solver() {
    for (args, reason) in [
        (
            vec!["cube", "R U", "--table", "huge"],
            "--table \"huge\": unknown table size; available: small",
        ),
        (
            vec!["cube", "--build-tables", "tiny"],
            "--build-tables \"tiny\": unknown table size",
        ),
        (
            vec!["cube", "R U", "--table", "medium", "--solver", "twophase"],
            "--table goes with the optimal solver",
        ),
        (
            vec!["cube", "R U", "--all", "--solver", "search"],
            "--all goes with the optimal solver",
        ),
        (
            vec!["cube", "R U", "--build-tables", "small"],
            "--build-tables builds a table and solves nothing",
        ),
    ] {
        let out = frontier(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(reason), "{reason}: {}", stderr(&out));
    }
}

#[test]
fn build_tables_builds_ahead_refuses_past_the_budget_and_stops_at_the_timeout() {
    let dir = temp_dir();
    let build = |args: &[&str]| support::frontier(args).cache(dir.path()).output();
    let out = build(&["cube", "--build-tables", "small", "--metric", "qtm"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(support::stdout(&out).starts_with("small table (qtm): built in"));
    let file = dir.path().join("cube").join("phase1-qtm.table");
    assert!(file.is_file());
    let again = build(&["cube", "--build-tables", "small", "--metric", "qtm"]);
    assert!(support::stdout(&again).starts_with("small table (qtm): already built"));
    // The medium table needs more than a small budget allows: refused before any work.
    let refused = build(&[
        "cube",
        "--build-tables",
        "medium",
        "--max-states",
        "100000000",
    ]);
    assert_eq!(refused.status.code(), Some(3));
    assert!(support::stdout(&refused).contains("building the optimal solver's medium table takes"));
    // Stopped by the timeout while the symmetry classes are sorted out: nothing is cached.
    let stopped = build(&[
        "cube",
        "--build-tables",
        "medium",
        "--timeout",
        "0.5",
        "--json",
    ]);
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr(&stopped));
    assert_eq!(support::json(&stopped)["limit"], "time");
    let files: Vec<_> = std::fs::read_dir(dir.path().join("cube"))
        .unwrap()
        .collect();
    assert!(
        files.iter().all(|f| !f
            .as_ref()
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("medium")),
        "{files:?}"
    );
}
