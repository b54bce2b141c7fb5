//! `frontier river` and `frontier explore river` through the real binary.

use frontier_river::{Puzzle, RiverSpace};
use frontier_search::{explore, Config};
use serde_json::Value;

use crate::support::{frontier, json, run, stderr, stdout, TempFile};

/// Writes `text` to a fresh file named after the test.
fn puzzle_file(test: &str, text: &str) -> TempFile {
    TempFile::new(&format!("{test}.toml"), text)
}

/// Runs the puzzle `text`, which must be refused with every one of `needles` in the message;
/// returns the message.
fn rejects(test: &str, text: &str, needles: &[&str]) -> String {
    let path = puzzle_file(test, text);
    let out = run(&["river", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{test}: {}", stderr(&out));
    let message = stderr(&out);
    assert!(message.starts_with("error: "), "{test}: {message}");
    for needle in needles {
        assert!(
            message.contains(needle),
            "{test}: `{needle}` not in {message}"
        );
    }
    assert!(stdout(&out).is_empty());
    assert!(!message.contains("panicked"));
    message
}

const GOOD: &str = r#"
rules = ["wolf and goat -> farmer", "goat and cabbage -> farmer"]
[roles]
farmer = 1
wolf = 1
goat = 1
cabbage = 1
[boat]
capacity = 2
rowers = ["farmer"]
"#;

#[test]
fn family_human_output_has_one_line_per_trip_and_the_banks() {
    let out = run(&["river", "family"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Family, police and prisoner: 17 crossings (bfs)"),
        "{text}"
    );
    let trips: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("-->") || l.contains("<--"))
        .collect();
    assert_eq!(trips.len(), 17);
    for (i, line) in trips.iter().enumerate() {
        let arrow = if i % 2 == 0 { "-->" } else { "<--" };
        assert!(line.contains(arrow), "{line}");
        assert!(
            line.contains("near: ") && line.contains(" | far: "),
            "{line}"
        );
    }
    assert!(trips[16].contains("near: nobody"));
    // --quiet: the trips alone, one a line.
    let quiet = stdout(&run(&["river", "family", "--quiet"]));
    let lines: Vec<&str> = quiet.lines().collect();
    assert_eq!(lines.len(), 17, "{quiet}");
    assert_eq!(lines[0], "--> police, prisoner");
    assert!(lines
        .iter()
        .all(|l| l.starts_with("--> ") || l.starts_with("<-- ")));
}

#[test]
fn json_moves_are_arrays_of_role_names_with_repeats() {
    let out = run(&["river", "missionaries", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["domain"], "river");
    assert_eq!(v["algorithm"], "bfs");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["length"], 11);
    assert_eq!(v["cost"], 11);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 11);
    // Replay the counts: missionaries never outnumbered where present.
    let (mut m, mut c, mut near) = (3i64, 3i64, true);
    let mut repeated = false;
    for mv in moves {
        let names: Vec<&str> = mv
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert!((1..=2).contains(&names.len()));
        repeated |= names.len() == 2 && names[0] == names[1];
        let dm = names.iter().filter(|&&n| n == "missionary").count() as i64;
        let dc = names.iter().filter(|&&n| n == "cannibal").count() as i64;
        assert_eq!(dm + dc, names.len() as i64);
        let sign = if near { -1 } else { 1 };
        m += sign * dm;
        c += sign * dc;
        near = !near;
        assert!((0..=3).contains(&m) && (0..=3).contains(&c));
        assert!(m == 0 || m >= c, "near bank outnumbered");
        assert!(3 - m == 0 || 3 - m >= 3 - c, "far bank outnumbered");
    }
    assert_eq!((m, c), (0, 0));
    assert!(
        repeated,
        "two of a role crossing together appear twice: [\"cannibal\", \"cannibal\"]"
    );
}

#[test]
fn bridge_torch_is_timed_and_solved_by_astar_in_17() {
    let out = run(&["river", "bridge-torch", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["algorithm"], "astar");
    assert_eq!(v["cost"], 17);
    assert_eq!(v["length"], 5);
    let ucs = json(&run(&["river", "bridge-torch", "--json", "--algo", "ucs"]));
    assert_eq!(ucs["cost"], 17);
    // Fewest crossings is not quickest: bfs may take longer.
    let bfs = json(&run(&["river", "bridge-torch", "--json", "--algo", "bfs"]));
    assert_eq!(bfs["length"], 5);
    assert!(bfs["cost"].as_u64().unwrap() >= 17);
}

#[test]
fn every_preset_is_listed_and_solves() {
    let out = run(&["river", "--list"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for (preset, length) in [
        ("family", 17),
        ("wolf-goat-cabbage", 7),
        ("missionaries", 11),
        ("jealous-husbands", 11),
        ("bridge-torch", 5),
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(preset)),
            "{preset} in {text}"
        );
        let v = json(&run(&["river", preset, "--json"]));
        assert_eq!(v["length"], length, "{preset}");
    }
    // With --json, the list is one JSON object too.
    let listed = json(&run(&["river", "--list", "--json"]));
    let presets = listed["presets"].as_array().expect("a list of presets");
    assert_eq!(presets.len(), 5);
    assert_eq!(presets[0]["name"], "family");
    assert_eq!(presets[0]["people"], 8);
    assert_eq!(presets[4]["timed"], true);
}

#[test]
fn show_prints_a_preset_that_reads_back_the_same() {
    let out = run(&["river", "--show", "jealous-husbands"]);
    assert_eq!(out.status.code(), Some(0));
    let path = puzzle_file("show", &stdout(&out));
    let v = json(&run(&["river", path.to_str().unwrap(), "--json"]));
    assert_eq!(v["length"], 11);
    let shown = json(&run(&["river", "--show", "jealous-husbands", "--json"]));
    assert_eq!(shown["name"], "jealous-husbands");
    assert_eq!(shown["toml"].as_str(), Some(stdout(&out).as_str()));
    // A search option does nothing to --show: refused, as with --list (it was ignored).
    for (flag, value) in [("--algo", "dfs"), ("--max-depth", "3")] {
        let out = run(&["river", "--show", "family", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(
            stderr(&out).contains("cannot be used with"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn show_checks_a_file_before_printing_it() {
    // A file was printed as it was, exit 0, even when solving it failed with exit 2.
    let good = puzzle_file("show-good", GOOD);
    let out = run(&["river", "--show", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), GOOD);
    let bad = puzzle_file("show-bad", "name = 5\n");
    let out = run(&["river", "--show", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    let message = stderr(&out);
    assert!(message.contains("show-bad.toml:1:"), "{message}");
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read() {
    use std::os::unix::ffi::OsStrExt;
    // Any bytes make a file name; clap refused this one ("invalid UTF-8 was detected in one or
    // more arguments") without saying which.
    let file = puzzle_file("utf8-name", GOOD);
    let dir = file.dir();
    let path = dir.join(std::ffi::OsStr::from_bytes(b"n\xffme.toml"));
    std::fs::write(&path, GOOD).unwrap();
    let out = frontier(["river"]).arg(&path).arg("--json").output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["length"], 7);
    // Messages show the bytes that are not UTF-8 as U+FFFD.
    let missing = dir.join(std::ffi::OsStr::from_bytes(b"gone\xff.toml"));
    let out = frontier(["river"]).arg(&missing).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("gone\u{fffd}.toml"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn dfs_gives_a_first_found_plan() {
    let path = puzzle_file("dfs", GOOD);
    let out = run(&["river", path.to_str().unwrap(), "--algo", "dfs", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["algorithm"], "dfs");
    assert!(v["length"].as_u64().unwrap() >= 7);
    let out = run(&["river", "family", "--algo", "dfs"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("(dfs)"));
}

#[test]
fn four_missionaries_are_unsolvable_with_the_reachable_count() {
    let text = r#"
rules = ["missionary -> missionary >= cannibal"]
[roles]
missionary = 4
cannibal = 4
[boat]
capacity = 2
"#;
    let reachable = explore(
        &RiverSpace::new(Puzzle::from_toml(text).unwrap()),
        &Config::default(),
    )
    .states();
    let path = puzzle_file("four", text);
    let out = run(&["river", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let expected = format!("unsolvable: all {reachable} reachable states");
    assert!(stdout(&out).contains(&expected), "{}", stdout(&out));
    let v = json(&run(&["river", path.to_str().unwrap(), "--json"]));
    assert_eq!(v["status"], "unsolvable");
    assert_eq!(v["stats"]["stored"], reachable);
    assert!(v.get("moves").is_none());
    // The tree searches prove it too: they crossed back and forth forever.
    for algo in ["iddfs", "idastar"] {
        let out = run(&[
            "river",
            path.to_str().unwrap(),
            "--algo",
            algo,
            "--timeout",
            "20",
        ]);
        assert_eq!(out.status.code(), Some(1), "{algo}: {}", stdout(&out));
    }
    // Under a depth limit deeper than the reachable set, every solver with a seen-set proves
    // it; ucs, astar and dfs used to blame the limit.
    for algo in ["bfs", "dfs", "ucs", "astar", "bidirectional"] {
        let args = ["river", path.to_str().unwrap(), "--algo", algo];
        let out = run(&[&args[..], &["--max-depth", "30"]].concat());
        assert_eq!(out.status.code(), Some(1), "{algo}: {}", stdout(&out));
        assert!(
            stdout(&out).starts_with("unsolvable:"),
            "{algo}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn a_file_that_is_not_utf8_is_refused_with_its_place() {
    let path = puzzle_file("not-utf8", "");
    std::fs::write(&path, b"name = \"x\"\nrules = [\"\xc3\xa9\xff\"]\n").unwrap();
    let out = run(&["river", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // Line 2, column 12: the column counts characters (the \u{e9} is two bytes).
    let expected = format!("{}:2:12: not UTF-8 text", path.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
}

#[test]
fn explore_counts_the_reachable_positions() {
    let out = run(&["explore", "river", "wolf-goat-cabbage", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["domain"], "river");
    assert_eq!(v["complete"], true);
    let expected = explore(
        &RiverSpace::new(Puzzle::preset("wolf-goat-cabbage").unwrap()),
        &Config::default(),
    );
    assert_eq!(v["states"], expected.states());
    assert_eq!(v["layers"][0], 1);
    let out = run(&["explore", "river", "family"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("the whole reachable set"));
}

#[test]
fn bad_toml_points_at_the_line() {
    rejects("bad_toml", "[roles]\nfarmer = \n", &["bad_toml.toml:2:"]);
    rejects(
        "unknown_key",
        "[roles]\na = 1\n[boat]\ncapacity = 1\ncolour = 3\n",
        &[":5:1:", "colour"],
    );
    rejects("no_boat", "[roles]\na = 1\n", &["boat"]);
    rejects(
        "count_type",
        "[roles]\na = \"two\"\n[boat]\ncapacity = 1\n",
        &[":2:5:", "count"],
    );
    // The toml crate's "duplicate key" names no key; the message takes it from the file.
    rejects(
        "duplicate_role",
        "[roles]\na = 1\na = 2\n[boat]\ncapacity = 1\n",
        &[":3:1: duplicate key `a`"],
    );
    rejects(
        "duplicate_table",
        "[roles]\na = 1\n[boat]\ncapacity = 1\n[boat]\n",
        &[":5:2: duplicate key `boat`"],
    );
}

#[test]
fn unknown_roles_in_rules_and_rowers_are_named_with_their_place() {
    rejects(
        "unknown_rule_role",
        "rules = [\"wolf and gaot -> farmer\"]\n[roles]\nfarmer = 1\nwolf = 1\ngoat = 1\n[boat]\ncapacity = 2\n",
        &[":1:20:", "rule 1", "unknown role `gaot`", "column 10"],
    );
    rejects(
        "unknown_rower",
        "[roles]\nfarmer = 1\n[boat]\ncapacity = 2\nrowers = [\"farmer\", \"fermer\"]\n",
        &[":5:21:", "unknown role `fermer` in rowers"],
    );
    rejects(
        "unknown_boat_rule_role",
        "[roles]\na = 1\n[boat]\ncapacity = 2\nrules = [\"b > 0\"]\n",
        &[":5:11:", "boat rule 1", "unknown role `b`"],
    );
}

#[test]
fn capacity_zero_and_overflowing_counts_are_refused() {
    rejects(
        "capacity0",
        "[roles]\na = 1\n[boat]\ncapacity = 0\n",
        &[":4:12:", "capacity must be at least 1"],
    );
    rejects(
        "negative",
        "[roles]\na = -1\n[boat]\ncapacity = 1\n",
        &[":2:5:", "between 0 and"],
    );
    rejects(
        "huge_count",
        "[roles]\na = 2000000\n[boat]\ncapacity = 1\n",
        &[":2:5:", "between 0 and"],
    );
    rejects(
        "i64_overflow",
        "[roles]\na = 99999999999999999999\n[boat]\ncapacity = 1\n",
        &[":2:5:"],
    );
    let many: String = (0..30).map(|i| format!("r{i} = 1000\n")).collect();
    rejects(
        "state_overflow",
        &format!("[roles]\n{many}[boat]\ncapacity = 2\n"),
        &[
            ":1:1:",
            "overflow the state",
            "and the boat's bank one more",
        ],
    );
    rejects(
        "too_many_loads",
        &format!(
            "[roles]\n{}[boat]\ncapacity = 30\n",
            (0..30).map(|i| format!("r{i} = 1\n")).collect::<String>()
        ),
        &[":33:12:", "different groups"],
    );
    rejects(
        "bad_time",
        "[roles]\na = { count = 1, time = 0 }\n[boat]\ncapacity = 1\n",
        &[":2:25:", "time of `a`"],
    );
}

#[test]
fn rule_syntax_errors_say_where_and_why() {
    let cases: [(&str, &str, &[&str]); 4] = [
        (
            "dangling",
            "a and -> b",
            &[":1:17:", "dangling operator", "column 7"],
        ),
        (
            "unclosed",
            "(a and b -> b",
            &[":1:11:", "unbalanced parenthesis", "column 1"],
        ),
        (
            "unmatched",
            "a and b) -> b",
            &[":1:18:", "unbalanced parenthesis", "column 8"],
        ),
        ("single_eq", "a = b", &[":1:13:", "did you mean `==`"]),
    ];
    for (test, rule, needles) in cases {
        let text = format!("rules = [\"{rule}\"]\n[roles]\na = 1\nb = 1\n[boat]\ncapacity = 2\n");
        rejects(test, &text, needles);
    }
    // A rule over several lines: the place is in the file and in the rule, which is quoted on
    // one line (it was quoted over three, and placed at its opening quote).
    let message = rejects(
        "multi_line",
        "rules = [\"\"\"\na and\nc\"\"\"]\n[roles]\na = 1\n[boat]\ncapacity = 1\n",
        &[
            ":3:1:",
            "rule 1 \"a and\\nc\", line 2, column 1",
            "unknown role `c`",
        ],
    );
    assert_eq!(message.lines().count(), 1, "{message}");
}

#[test]
fn an_unsafe_start_names_the_rule_and_the_bank() {
    rejects(
        "unsafe_start",
        "rules = [\"wolf and goat -> farmer\"]\n[roles]\nfarmer = 1\nwolf = 1\ngoat = 1\n[start]\nfarmer = \"far\"\n[boat]\ncapacity = 2\n",
        &[":1:10:", "the start is not safe", "rule 1", "\"wolf and goat -> farmer\"", "near bank"],
    );
    // A long rule is quoted in part: the message stays one line of readable length.
    let long = format!("wolf and goat -> farmer{}", " + 0".repeat(10_000));
    let text = format!("rules = [\"{long}\"]\n[roles]\nfarmer = 1\nwolf = 1\ngoat = 1\n[start]\nfarmer = \"far\"\n[boat]\ncapacity = 2\n");
    let message = rejects("unsafe_long", &text, &["the start is not safe", "..."]);
    assert!(message.len() < 300, "{message}");
}

#[test]
fn unknown_presets_and_missing_files_are_usage_errors() {
    let out = run(&["river", "familly"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("neither a preset"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("family"));
    let out = run(&["river", "/nonexistent/puzzle.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["river"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn limits_stop_cleanly_with_exit_3() {
    let out = run(&["river", "family", "--max-states", "10"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    // ucs counts its open list against the budget: the message says so (it said "storing 15
    // states" where ucs stores 15 in all without a limit).
    let out = run(&[
        "river",
        "missionaries",
        "--algo",
        "ucs",
        "--max-states",
        "16",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stdout(&out).contains("states and the entries of its open list (--max-states)"),
        "{}",
        stdout(&out)
    );
    let out = run(&["river", "family", "--max-depth", "5", "--json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(json(&out)["status"], "limit");
}

#[test]
fn a_goal_that_breaks_a_rule_is_unsolvable_and_explained() {
    let path = puzzle_file(
        "bad_goal",
        "rules = [\"a < 2\"]\n[roles]\na = 2\n[start]\na = 1\n[boat]\ncapacity = 1\n",
    );
    let out = run(&["river", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    // The explanation follows the verdict on stdout; stderr, not a terminal here, stays empty.
    let text = stdout(&out);
    let verdict = text.find("unsolvable").expect("a verdict");
    let note = (text.find("the goal itself breaks rule 1 \"a < 2\" on the far bank"))
        .expect("an explanation");
    assert!(verdict < note, "{text}");
    assert_eq!(stderr(&out), "");
    // JSON output is the one object; --quiet leaves the verdict alone.
    let out = run(&["river", path.to_str().unwrap(), "--json"]);
    assert_eq!(json(&out)["status"], "unsolvable");
    assert_eq!(stderr(&out), "");
    let out = run(&["river", path.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stdout(&out).contains("breaks"), "{}", stdout(&out));
}

#[test]
fn a_puzzle_is_read_from_standard_input_with_dash() {
    let toml = "[roles]\nwolf = 1\ngoat = 1\ncabbage = 1\nfarmer = 1\n[boat]\ncapacity = 2\n\
                rowers = [\"farmer\"]\n";
    let output = frontier(["river", "-", "--json"]).stdin(toml).output();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    // No rules: the farmer ferries the three over, one at a time (5 crossings).
    assert_eq!(json["length"], 5);
}

#[test]
fn the_timeout_counts_the_reading_of_the_file() {
    // 10,000 rules (the most a list may hold) of 21 comparisons each (2 MB): reading them
    // takes a good part of a second, the search a few milliseconds. The timeout counts from
    // the start of the command, so it is spent first.
    let rule = format!("\"a >= 0{}\"", " and a >= 0".repeat(20));
    let rules = vec![rule.as_str(); 10_000].join(", ");
    let text = format!("rules = [{rules}]\n[roles]\na = 1\n[boat]\ncapacity = 1\n");
    let file = puzzle_file("many-rules", &text);
    let path = file.to_str().unwrap();
    let unhurried = run(&["river", path, "--json"]);
    assert_eq!(unhurried.status.code(), Some(0), "{}", stderr(&unhurried));
    let hurried = run(&["river", path, "--timeout", "0.05", "--json"]);
    assert_eq!(hurried.status.code(), Some(3), "{}", stdout(&hurried));
    assert_eq!(json(&hurried)["limit"], "time");
    // The seconds reported are the command's too: at least the timeout it ran to.
    let seconds = json(&hurried)["stats"]["seconds"].as_f64().unwrap();
    assert!(seconds >= 0.05, "{seconds}");
}
