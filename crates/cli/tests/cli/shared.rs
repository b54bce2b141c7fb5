//! The behaviour every command shares, through the real binary: usage errors, limits, Ctrl-C.

use std::process::{Command, Output};
use std::thread::sleep;
use std::time::Duration;

use crate::support::{frontier, run, stderr, stdout};

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["no-such-command"]).status.code(), Some(2));
    let bad_timeout = run(&["explore", "cube", "--timeout", "soon"]);
    assert_eq!(bad_timeout.status.code(), Some(2));
    assert!(stderr(&bad_timeout).contains("not a number of seconds"));
    // A value starting with `-` reaches the parser (clap took `-inf` for a flag `-i`).
    let minus_infinity = run(&["river", "family", "--timeout", "-inf"]);
    assert_eq!(minus_infinity.status.code(), Some(2));
    let text = stderr(&minus_infinity);
    assert!(
        text.contains("'-inf' is not a number of seconds, 0 or more"),
        "{text}"
    );
    // Whole numbers say what they count and what is allowed (they gave Rust's own words:
    // "invalid digit found in string").
    for (flag, value, says) in [
        (
            "--threads",
            "0",
            "not a whole number of threads from 1 to 65535",
        ),
        (
            "--max-states",
            "-5",
            "not a whole number of states, 0 or more",
        ),
        ("--max-states", "1.5", "not a whole number of states"),
        (
            "--max-states",
            "18446744073709551616",
            "at most 18446744073709551615",
        ),
        (
            "--max-depth",
            "abc",
            "not a whole number of moves from 0 to 4294967295",
        ),
    ] {
        let o = run(&["river", "family", flag, value]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        assert!(stderr(&o).contains(says), "{flag} {value}: {}", stderr(&o));
    }
}

#[test]
fn any_timeout_is_taken_and_zero_stops_every_search() {
    // A timeout longer than the clock can reach is no limit (adding it to the start time
    // overflowed: a panic).
    for seconds in ["1e19", "1e30", "inf"] {
        let output = run(&["river", "family", "--timeout", seconds]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{seconds}: {}",
            stderr(&output)
        );
    }
    for bad in ["nan", "-1e9", "soon"] {
        let output = run(&["river", "family", &format!("--timeout={bad}")]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
    // A zero timeout stops even searches that end before their first regular look at the
    // clock (these answered before).
    for args in [
        &["river", "family"][..],
        &["tiles", "1 2 3 4 5 6 0 7 8"][..],
        &["tiles", "1 2 3 4 5 6 0 7 8", "--algo", "bfs"][..],
        &["explore", "tiles", "--size", "2x2"][..],
    ] {
        let output = run(&[args, &["--timeout", "0", "--json"]].concat());
        assert_eq!(output.status.code(), Some(3), "{args:?}");
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let stopped = json["status"] == "limit" || json["complete"] == false;
        assert!(stopped, "{args:?}: {json}");
    }
}

#[test]
fn usage_errors_take_one_or_two_lines() {
    // DESIGN: errors are printed "in one or two lines"; clap's own took four to seven.
    for (args, says) in [
        (
            &[][..],
            "a command is needed: board, river, cube, tiles, perm, explore",
        ),
        (
            &["explore"][..],
            "a command is needed: board, river, cube, tiles",
        ),
        (&["river", "--list", "family"][..], "--list"),
        (&["tyles"][..], "'tiles'"),
        (&["tiles"][..], "<TILES>"),
        (&["tiles", "1 2 3 0", "--bogus"][..], "--bogus"),
        (
            &["tiles", "1 2 3 0", "--threads", "1", "--threads", "2"][..],
            "--threads",
        ),
        (&["cube", "R", "--metric", "bad"][..], "htm, qtm"),
        (&["tiles", "1 2 3 0", "--weight", "x"][..], "not a weight"),
        // A line break inside a value is shown escaped (it was read as a break in the list).
        (
            &["tiles", "1 2 3 0", "--weight", "2\nx"][..],
            "'2\\nx' is not a weight",
        ),
        // A negative number is a bad value, not an unknown flag.
        (
            &["tiles", "1 2 3 0", "--max-depth", "-1"][..],
            "'-1' for '--max-depth",
        ),
        (
            &["tiles", "1 2 3 0", "--threads", "-2"][..],
            "'-2' for '--threads",
        ),
        (
            &["river", "family", "--list"][..],
            "usage: frontier river [OPTIONS]",
        ),
        (&["river", "--list", "--algo", "bfs"][..], "--list"),
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let text = stderr(&output);
        assert!(text.starts_with("error: "), "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: {text}");
        assert!(text.lines().count() <= 2, "{args:?}: {text}");
        assert!(text.lines().all(|line| !line.trim().is_empty()), "{text}");
    }
    // Help is still help: on stdout, exit 0.
    let help = run(&["tiles", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Usage: frontier tiles"));
}

#[test]
fn weights_and_solver_flags_are_refused_where_they_do_not_apply() {
    for (args, reason) in [
        (&["river", "family", "--weight", "0.5"][..], "not a weight"),
        (&["river", "family", "--weight", "NaN"], "not a weight"),
        (&["river", "family", "--weight", "inf"], "not a weight"),
        (
            &["river", "family", "--weight", "101"],
            "from 1 (exact) to 100",
        ),
        (&["river", "family", "--weight", "2"], "not to bfs"),
        (
            &["board", "-", "--algo", "dfs", "--weight", "2"],
            "not to dfs",
        ),
        (
            &["cube", "R U", "--weight", "2"],
            "not to the optimal solver",
        ),
        (
            &["cube", "R U", "--solver", "twophase", "--weight", "2"],
            "not to two-phase",
        ),
        (
            &[
                "tiles",
                "1 2 3 4 5 6 7 0 8",
                "--algo",
                "bfs",
                "--weight",
                "2",
            ],
            "not to bfs",
        ),
        (
            &["explore", "river", "family", "--algo", "dfs"],
            "do not apply",
        ),
        (&["explore", "tiles", "--weight", "2"], "do not apply"),
        (&["explore", "cube", "--algo", "bfs"], "do not apply"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_weighted_search_says_its_answer_is_within_the_weight() {
    // The seed's family crossing takes 17 trips (the seed's answer); weighted A* finds at
    // most 2 x 17, and says so in the text and in the JSON.
    let o = run(&[
        "river", "family", "--algo", "astar", "--weight", "2", "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["weight"], 2.0);
    let length = v["length"].as_u64().unwrap();
    assert!((17..=34).contains(&length), "{length}");
    let o = run(&["river", "family", "--algo", "astar", "--weight", "2"]);
    assert!(
        stdout(&o).contains("at most 2 times the cheapest"),
        "{}",
        stdout(&o)
    );
    // A weight of 1 is the exact search: no such note.
    let o = run(&["river", "family", "--algo", "astar", "--weight", "1"]);
    assert!(
        !stdout(&o).contains("not proven shortest"),
        "{}",
        stdout(&o)
    );
    let o = run(&["river", "family", "--algo", "astar", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.get("weight").is_none());
    assert_eq!(v["length"], 17);
}

#[test]
fn help_lists_every_domain_and_exits_0() {
    let help = run(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    for command in ["board", "river", "cube", "tiles", "explore"] {
        assert!(
            stdout(&help).contains(command),
            "{command} missing from --help"
        );
    }
}

#[test]
fn a_timeout_is_a_limit_with_exit_3_and_says_how_to_raise_it() {
    let output = run(&["explore", "cube", "--max-depth", "12", "--timeout", "0.3"]);
    assert_eq!(output.status.code(), Some(3));
    let text = stdout(&output);
    assert!(text.contains("incomplete"), "{text}");
    assert!(text.contains("--timeout"), "{text}");
}

#[test]
fn the_state_budget_is_a_limit_with_exit_3_in_json_too() {
    let output = run(&[
        "explore",
        "cube",
        "--max-depth",
        "12",
        "--max-states",
        "5000",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(json["complete"], false);
    let stored = json["stats"]["stored"].as_u64().unwrap();
    // Checked after each expansion: at most one expansion's 18 successors past the budget.
    assert!((5000..=5018).contains(&stored), "stored {stored}");
}

#[test]
fn a_state_budget_past_the_memory_is_kept_with_one_warning() {
    // 10^15 states take petabytes, more than any machine this runs on has.
    let huge = "1000000000000000";
    let output = run(&["river", "family", "--max-states", huge, "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(json["length"], 17);
    let text = stderr(&output);
    assert_eq!(
        text.matches("warning: --max-states 1,000,000,000,000,000")
            .count(),
        1,
        "{text}"
    );
    assert!(text.contains("may run out of memory"), "{text}");
    // A budget that fits says nothing.
    let output = run(&["river", "family", "--max-states", "100000"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stderr(&output), "");
}

#[test]
fn json_output_is_one_object_and_nothing_else() {
    let output = run(&["explore", "cube", "--max-depth", "2", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1, "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["domain"], "cube");
    // OEIS A080601: 1, 18, 243 positions at HTM distance 0, 1, 2.
    assert_eq!(json["layers"], serde_json::json!([1, 18, 243]));
    assert_eq!(json["states"], 262);
}

/// Runs `frontier` with `args`, sends it Ctrl-C (SIGINT) after 0.7 s, and returns its output.
#[cfg(unix)]
fn interrupted(args: &[&str]) -> Output {
    interrupted_by(args, 1)
}

/// [`interrupted`], with `signals` SIGINTs sent one straight after the other.
#[cfg(unix)]
fn interrupted_by(args: &[&str], signals: usize) -> Output {
    let running = frontier(args).spawn();
    sleep(Duration::from_millis(700));
    for _ in 0..signals {
        let signalled = Command::new("kill")
            .args(["-INT", &running.child.id().to_string()])
            .status()
            .unwrap();
        assert!(signalled.success());
    }
    running.wait()
}

#[test]
#[cfg(unix)]
fn one_ctrl_c_delivered_twice_still_prints_the_statistics() {
    // `timeout -s INT` signals the process and then its group: the second signal, a moment
    // after the first, was taken for a second press and the statistics were lost.
    let output = interrupted_by(&["explore", "cube", "--max-depth", "12", "--stats"], 2);
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("interrupted") && text.contains("stats:"),
        "{text}"
    );
}

#[test]
#[cfg(unix)]
fn ctrl_c_stops_cleanly_with_statistics_and_exit_130() {
    let output = interrupted(&["explore", "cube", "--max-depth", "12", "--stats"]);
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("interrupted"), "{text}");
    assert!(text.contains("stats:"), "{text}");
    assert!(
        text.contains("(partial"),
        "the last layer is marked: {text}"
    );
}

#[test]
#[cfg(unix)]
fn ctrl_c_prints_the_statistics_so_far_even_without_stats() {
    // DESIGN: exit 130 "after printing the statistics so far".
    let scramble = "R U F D L B R2 U2 F' D' L2 B' R U' F2";
    let output = interrupted(&["cube", scramble, "--algo", "idastar"]);
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("interrupted") && text.contains("stats:"),
        "{text}"
    );
}

#[test]
fn more_threads_than_cpus_are_not_started() {
    // 65,535 threads took minutes for this 0.04 s search and ran far past the timeout.
    let output = run(&[
        "tiles",
        "8 6 7 2 5 4 3 0 1",
        "--algo",
        "bfs",
        "--threads",
        "65535",
        "--timeout",
        "20",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("\"length\":31"),
        "{}",
        stdout(&output)
    );
}

#[test]
#[cfg(unix)]
fn endless_input_is_refused_not_read_into_memory() {
    // /dev/zero never ends: without a bound the reader grew until memory ran out.
    let commands: [&[&str]; 2] = [&["river", "/dev/zero"], &["explore", "river", "/dev/zero"]];
    for args in commands {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("more than 64 MiB"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn file_and_output_errors_say_what_failed_in_plain_words() {
    // They ended in the system's numbers: "No such file or directory (os error 2)", and a
    // full disk said only "No space left on device (os error 28)".
    let missing = run(&["river", "no-such-puzzle.toml"]);
    assert_eq!(missing.status.code(), Some(2));
    let text = stderr(&missing);
    assert!(text.contains("cannot read no-such-puzzle.toml"), "{text}");
    assert!(!text.contains("os error"), "{text}");
    // A solved answer, and one decided by parity before any search (whose failed write was
    // ignored: exit 1).
    for args in [&["river", "family"][..], &["tiles", "2 1 3 4 5 6 7 8 0"]] {
        let Ok(full) = std::fs::File::create("/dev/full") else {
            break;
        };
        let out = frontier(args).stdout(full).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let text = stderr(&out);
        assert!(text.contains("cannot write the answer"), "{text}");
        assert!(!text.contains("os error"), "{text}");
    }
}

/// Runs frontier with `input` on stdin and stderr going to `/dev/full`, where every write fails.
fn with_full_stderr(args: &[&str], input: &str) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("Linux has /dev/full");
    frontier(args).stdin(input).stderr(full).output()
}

#[test]
fn a_stderr_that_cannot_be_written_loses_the_message_not_the_exit_code() {
    // `eprintln!` panicked there (exit 101): an error and a usage error.
    assert_eq!(
        with_full_stderr(&["board", "-"], "A1\n").status.code(),
        Some(2)
    );
    assert_eq!(with_full_stderr(&["board"], "").status.code(), Some(2));
}

/// Runs `frontier` with `args`, its standard output a pipe closed before it writes.
fn into_closed_pipe(args: &[&str]) -> Output {
    let mut running = frontier(args).spawn();
    drop(running.child.stdout.take());
    running.wait()
}

#[test]
fn a_closed_output_pipe_keeps_the_exit_code_of_the_outcome() {
    // `frontier ... | head -c0` under `set -o pipefail`: the answer cannot be written, and the
    // exit code must still say limit (3) or unsolvable (1), not success.
    let limited = into_closed_pipe(&["tiles", "8 6 7 2 5 4 3 0 1", "--max-states", "100"]);
    assert_eq!(limited.status.code(), Some(3), "{}", stderr(&limited));
    let unsolvable = into_closed_pipe(&["tiles", "2 1 3 4 5 6 7 8 0"]);
    assert_eq!(unsolvable.status.code(), Some(1), "{}", stderr(&unsolvable));
    let solved = into_closed_pipe(&["tiles", "1 2 3 4 5 6 7 0 8", "--json"]);
    assert_eq!(solved.status.code(), Some(0), "{}", stderr(&solved));
    assert!(stderr(&solved).is_empty(), "{}", stderr(&solved));
}
