//! Hostile input through the real binary: inputs that cost more to parse than to read, inputs
//! that never come, long tokens, and searches held to their memory budget (issue 29).
//!
//! The long memory tests are ignored by default; run them with
//! `cargo test -p frontier --test hostile -- --ignored --test-threads 1` (one at a time, so
//! that each has the machine's memory to itself). Each run is measured by the shared helper
//! ([`Running::measure`](crate::support::Running::measure)): its own peak memory and time.

use std::io::Write;
use std::time::Duration;

use crate::support::{frontier, frontier_after, temp_dir, Measured};

/// `frontier ARGS` with `stdin` on its standard input (none: an empty one), measured.
fn measured(args: &[&str], stdin: Option<&[u8]>) -> Measured {
    let command = frontier(args);
    match stdin {
        Some(input) => command.stdin(input),
        None => command,
    }
    .spawn()
    .measure()
}

/// Expects a refusal as bad input: exit 2, one message on stderr holding every needle, soon.
fn refused(run: &Measured, needles: &[&str], within: f64) {
    assert_eq!(run.code(), Some(2), "{}", run.stderr);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    for needle in needles {
        assert!(
            run.stderr.contains(needle),
            "`{needle}` not in {}",
            run.stderr
        );
    }
    assert!(
        run.seconds < within,
        "took {:.2} s: {}",
        run.seconds,
        run.stderr
    );
}

#[test]
fn a_board_of_many_short_rows_is_refused_at_its_cell_limit_while_read() {
    // 1.5 million one-letter rows: with a small budget the limit is the least one, a million
    // cells, passed at row 349,524 ((1 + 2) x (rows + 2) cells).
    let rows = "A\n".repeat(1_500_000);
    let run = measured(
        &["board", "-", "--max-states", "1000"],
        Some(rows.as_bytes()),
    );
    refused(
        &run,
        &[
            "line 349524, column 1",
            "limit of 1048576 cells",
            "--max-states",
        ],
        5.0,
    );
    // What the parse took: about the board's cells and the text, not a vector a row (57
    // bytes a row made 85 MB of this file).
    assert!(run.peak < 80 << 20, "peak {} MB", run.peak >> 20);
}

#[test]
fn river_files_of_many_rules_or_one_long_rule_are_refused_before_toml_reads_them() {
    let dir = temp_dir();
    let dir = dir.path();
    let tail = "]\n[roles]\na = 1\n[boat]\ncapacity = 1\n";
    let many = dir.join("many.toml");
    std::fs::write(
        &many,
        format!("rules = [\n{}{tail}", "\"a\",\n".repeat(200_000)),
    )
    .unwrap();
    let run = measured(&["river", many.to_str().unwrap()], None);
    refused(&run, &["many.toml:50001:1: more than 100000 values"], 5.0);
    let long = dir.join("long.toml");
    std::fs::write(
        &long,
        format!("\nrules = [\"a{}\"{tail}", "+a".repeat(1_000_000)),
    )
    .unwrap();
    let run = measured(&["river", long.to_str().unwrap()], None);
    refused(
        &run,
        &["long.toml:2:10: this string is longer than 100000"],
        5.0,
    );
    // A rule within the length limit, past the node limit.
    let dense = dir.join("dense.toml");
    std::fs::write(
        &dense,
        format!("rules = [\"a{}\"{tail}", "+a".repeat(30_000)),
    )
    .unwrap();
    let run = measured(&["river", dense.to_str().unwrap()], None);
    refused(
        &run,
        &["rule 1", "more than 50000 numbers, roles and operators"],
        5.0,
    );
}

#[test]
fn a_pipe_that_never_writes_ends_at_the_timeout() {
    // Standard input held open and never written (`sleep 30 | frontier board -`).
    let mut running = frontier(["board", "-", "--timeout", "1"])
        .stdin_pipe()
        .spawn();
    let held = running.child.stdin.take();
    let run = running.measure();
    drop(held);
    assert_eq!(run.code(), Some(3), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("stopped by --timeout after 1.0 s while reading <stdin>"),
        "{}",
        run.stderr
    );
    assert!(run.seconds < 3.0, "{:.2} s", run.seconds);
}

#[test]
fn a_large_board_is_watched_by_the_clock_while_it_is_parsed() {
    // 40 million cells of one letter: tens of milliseconds of reading and parsing at the
    // least. Whichever stage the clock stops (the read or the
    // parse), the command ends at once with a limit, not after the whole board.
    let dir = temp_dir();
    let path = dir.path().join("large.board");
    // Written a row at a time: a 40 MB string in the test process would count in the peak
    // memory that other tests measure of their children (a forked child starts with it).
    let row = format!("{}\n", "A".repeat(5_000));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for _ in 0..8_000 {
        file.write_all(row.as_bytes()).unwrap();
    }
    file.flush().unwrap();
    drop(file);
    let path = path.to_str().unwrap();
    // A hundredth of a second: an optimised test build reads and parses the board in tens of
    // milliseconds, and the clock must stop it there, not in the search after it.
    let run = measured(&["explore", "board", path, "--timeout", "0.01"], None);
    assert_eq!(run.code(), Some(3), "{}", run.stderr);
    assert!(
        run.stderr.contains("stopped by --timeout after ") && run.stderr.contains("while reading"),
        "{}",
        run.stderr
    );
    assert!(run.seconds < 3.0, "{:.2} s: {}", run.seconds, run.stderr);
}

#[test]
fn a_named_pipe_without_a_writer_ends_at_the_timeout_or_at_ctrl_c() {
    let dir = temp_dir();
    let dir = dir.path();
    let fifo = dir.join("board");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let path = fifo.to_str().unwrap();
    for command in [
        &["board", path][..],
        &["river", path],
        &["explore", "board", path],
    ] {
        let mut args = command.to_vec();
        args.extend(["--timeout", "0.5"]);
        let run = measured(&args, None);
        assert_eq!(run.code(), Some(3), "{command:?}: {}", run.stderr);
        assert!(run.stderr.contains("while reading"), "{}", run.stderr);
        assert!(run.seconds < 2.5, "{command:?}: {:.2} s", run.seconds);
    }
    // Ctrl-C while it waits: 130, with a message (the first press was ignored).
    let running = frontier(["board", path]).spawn();
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: signalling our own child by its pid.
    unsafe { libc::kill(running.child.id() as libc::pid_t, libc::SIGINT) };
    let run = running.measure();
    assert_eq!(run.code(), Some(130), "{}", run.stderr);
    assert!(
        run.stderr.contains("interrupted while reading"),
        "{}",
        run.stderr
    );
    assert!(run.seconds < 2.5, "{:.2} s", run.seconds);
}

#[test]
fn a_long_scramble_is_shortened_in_the_message_and_its_place_kept() {
    let scramble = format!("R U R2{}", "'".repeat(100_001));
    let run = measured(&["cube", &scramble], None);
    refused(&run, &["column 5", "...(100,005 characters)"], 5.0);
    assert!(
        run.stderr.len() < 400,
        "{} bytes: {}",
        run.stderr.len(),
        run.stderr
    );
    let tiles = format!("1 2 3 {}", "9".repeat(100_001));
    let run = measured(&["tiles", &tiles], None);
    refused(&run, &["column 7"], 5.0);
    assert!(run.stderr.len() < 400, "{} bytes", run.stderr.len());
}

#[test]
fn the_timeout_message_reports_the_commands_seconds() {
    // The input arrives after a second; the search has half a second left.
    let board = unreachable_board(2000);
    let board_ucs = [
        "board",
        "-",
        "--target",
        "C",
        "--algo",
        "ucs",
        "--timeout",
        "1.5",
    ];
    let explore = ["explore", "river", "-", "--timeout", "1.5"];
    for command in [&board_ucs[..], &explore] {
        let mut running = frontier(command).stdin_pipe().spawn();
        let mut input = running.child.stdin.take().unwrap();
        let text = if command[0] == "explore" {
            CROWD.to_owned()
        } else {
            board.clone()
        };
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            let _ = input.write_all(text.as_bytes());
        });
        let run = running.measure();
        writer.join().unwrap();
        assert_eq!(
            run.code(),
            Some(3),
            "{command:?}: {} {}",
            run.stdout,
            run.stderr
        );
        let said = run
            .stdout
            .split("stopped by --timeout after ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{command:?}: {}", run.stdout));
        assert!(said >= 1.0, "{command:?} said {said} s: {}", run.stdout);
    }
}

/// A river crossing of 18 million states.
const CROWD: &str =
    "rules = [\"a <= b + 1000\"]\n[roles]\na = 3000\nb = 3000\n[boat]\ncapacity = 2\n";

/// The peak a search held to `states` states of `per_state` bytes may reach: 20% over what
/// the budget implies, plus a fixed base (the program, its input, its threads' arenas).
fn allowed_peak(states: u64, per_state: u64) -> u64 {
    const BASE: u64 = 48 << 20;
    BASE + states * per_state * 6 / 5
}

/// Runs `args` with `--max-states STATES` and expects a state limit (exit 3), within the
/// memory that budget implies for states of `per_state` bytes.
fn held_to_budget(args: &[&str], stdin: Option<&[u8]>, states: u64, per_state: u64) {
    let budget = states.to_string();
    let mut all = args.to_vec();
    all.extend(["--max-states", &budget]);
    let run = measured(&all, stdin);
    // An exploration over a perfect index keeps a bit a state, not the states: it may count
    // the whole set within the budget's memory.
    let counted_in_bits = args[0] == "explore" && run.code() == Some(0);
    assert!(
        run.code() == Some(3) || counted_in_bits,
        "{args:?}: {:?} {} {}",
        run.status,
        run.stdout,
        run.stderr
    );
    let allowed = allowed_peak(states, per_state);
    assert!(
        run.peak <= allowed,
        "{args:?}: peak {} MB, allowed {} MB",
        run.peak >> 20,
        allowed >> 20
    );
}

/// A board of `side` x `side` letters A with one C: the target C lies past a B that is not
/// there, so a search visits every state before it gives up.
fn unreachable_board(side: usize) -> String {
    let mut board = ("A".repeat(side) + "\n").repeat(side);
    board.replace_range(0..1, "C");
    board
}

#[test]
fn a_board_search_stops_at_a_small_budget_within_its_memory() {
    let board = unreachable_board(1000);
    let per_state =
        frontier_search::bytes_per_state::<frontier_board::State, frontier_board::Move>();
    held_to_budget(
        &["board", "-", "--target", "C"],
        Some(board.as_bytes()),
        200_000,
        per_state,
    );
}

#[test]
#[ignore = "minutes of searching: run with --ignored"]
fn every_command_stops_at_its_budget_within_its_memory() {
    let states = 3_000_000;
    // 1.44 million cells (within the budget's cell limit), 5.8 million states.
    let board = unreachable_board(1200);
    let board_state =
        frontier_search::bytes_per_state::<frontier_board::State, frontier_board::Move>();
    // Not bidirectional: from the goal, which nothing enters, it proves at once that no
    // path leads there.
    for algo in ["bfs", "astar", "ucs", "dfs"] {
        held_to_budget(
            &["board", "-", "--target", "C", "--algo", algo],
            Some(board.as_bytes()),
            states,
            board_state,
        );
    }
    held_to_budget(
        &["explore", "board", "-"],
        Some(board.as_bytes()),
        states,
        board_state,
    );
    let tiles_state = frontier_search::bytes_per_state::<u64, frontier_tiles::Dir>();
    let fifteen = "15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0";
    for algo in ["bfs", "astar", "bidirectional"] {
        held_to_budget(
            &["tiles", fifteen, "--algo", algo],
            None,
            states,
            tiles_state,
        );
    }
    held_to_budget(&["explore", "tiles", fifteen], None, states, tiles_state);
    let cube_state = frontier_search::bytes_per_state::<frontier_cube::Cube, frontier_cube::Move>();
    let scramble = "R U F' L2 D B' R2 U' F L' D2 B U2 R' F2";
    for algo in ["bfs", "bidirectional"] {
        held_to_budget(
            &["cube", scramble, "--algo", algo],
            None,
            states,
            cube_state,
        );
    }
    held_to_budget(&["explore", "cube"], None, states, cube_state);
    let dir = temp_dir();
    let dir = dir.path();
    let river = dir.join("crowd.toml");
    std::fs::write(&river, CROWD).unwrap();
    let river_state =
        frontier_search::bytes_per_state::<frontier_river::State, frontier_river::Trip>();
    let path = river.to_str().unwrap();
    held_to_budget(&["river", path, "--algo", "bfs"], None, states, river_state);
    held_to_budget(&["explore", "river", path], None, states, river_state);
}

#[test]
#[ignore = "minutes of searching: run with --ignored"]
fn under_an_address_space_limit_the_default_budget_stops_cleanly() {
    // 3 GB of address space: the default budget keeps within it, so the search ends (with an
    // answer, a proof or exit 3) instead of an aborted allocation (exit 134).
    let limit = "ulimit -v 3000000";
    let board = unreachable_board(3000);
    let fifteen = "15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0";
    let runs: [(&[&str], Option<&[u8]>); 4] = [
        (
            &["board", "-", "--target", "C", "--algo", "astar"],
            Some(board.as_bytes()),
        ),
        (&["tiles", fifteen, "--algo", "bfs"], None),
        (&["explore", "tiles", fifteen], None),
        (
            &[
                "cube",
                "R U F' L2 D B' R2 U' F L' D2 B U2 R' F2",
                "--algo",
                "bfs",
            ],
            None,
        ),
    ];
    for (args, stdin) in runs {
        let command = frontier_after(limit, args);
        let command = match stdin {
            Some(input) => command.stdin(input),
            None => command,
        };
        let run = command.spawn().measure();
        assert!(
            matches!(run.code(), Some(0 | 1 | 3)),
            "{args:?}: {:?} {} {}",
            run.status,
            run.stdout,
            run.stderr
        );
        assert!(
            run.peak < 3_000_000 * 1024,
            "{args:?}: peak {} MB",
            run.peak >> 20
        );
    }
    // The files, under the same limit: refused (exit 2), never aborted.
    let dir = temp_dir();
    let dir = dir.path();
    let rows = dir.join("rows.txt");
    std::fs::write(&rows, "A\n".repeat(60_000_000) + "B\n").unwrap();
    let rules = dir.join("rules.toml");
    let tail = "]\n[roles]\na = 1\n[boat]\ncapacity = 1\n";
    std::fs::write(
        &rules,
        format!("rules = [{}{tail}", "\"a\",".repeat(15_000_000)),
    )
    .unwrap();
    let long = dir.join("long.toml");
    std::fs::write(
        &long,
        format!("rules = [\"a{}\"{tail}", "+a".repeat(20_000_000)),
    )
    .unwrap();
    let board_run = frontier_after(limit, ["board", rows.to_str().unwrap()])
        .spawn()
        .measure();
    assert!(
        matches!(board_run.code(), Some(0 | 1 | 3)),
        "{}",
        board_run.stderr
    );
    for file in [&rules, &long] {
        let run = frontier_after(limit, ["river", file.to_str().unwrap()])
            .spawn()
            .measure();
        refused(&run, &[], 5.0);
        assert!(run.stderr.contains("100000"), "{}", run.stderr);
        assert!(run.peak < 1 << 30, "peak {} MB", run.peak >> 20);
    }
}
