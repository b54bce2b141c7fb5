//! `frontier board` and `frontier explore board` through the real binary.

use std::process::Output;

use crate::support::{frontier, json, stderr, stdout, temp_dir, TempFile};

/// Runs `frontier` with `args`, feeding `stdin`.
fn with_input(args: &[&str], stdin: &str) -> Output {
    frontier(args).stdin(stdin).output()
}

const SEED: &str = "AAAA\nACCB\nADEF\n*\n0 0 N\n";

/// Replays moves on rows (top first) from below column 0 heading north under the seed's rules
/// and returns the letter reached (an independent simulator; `None` for an illegal move).
fn replay(rows: &[&str], moves: &[String]) -> Option<char> {
    let at = |x: i64, y: i64| -> Option<char> {
        let h = rows.len() as i64;
        if x < 0 || y < 0 || y >= h || x >= rows[0].len() as i64 {
            return None;
        }
        rows[(h - 1 - y) as usize].chars().nth(x as usize)
    };
    let (mut x, mut y, mut d) = (0i64, -1i64, 0usize);
    for mv in moves {
        let here = at(x, y);
        match mv.as_str() {
            "Left" | "Right" => {
                here?;
                d = (d + if mv == "Left" { 3 } else { 1 }) % 4;
            }
            "Forward" | "Jump" => {
                let (dx, dy) = [(0, 1), (1, 0), (0, -1), (-1, 0)][d];
                let to = at(x + dx, y + dy)? as u32;
                let from = here.unwrap_or('A') as u32;
                let ok = if mv == "Forward" {
                    to == from
                } else {
                    to == from + 1
                };
                if !ok {
                    return None;
                }
                x += dx;
                y += dy;
            }
            _ => return None,
        }
    }
    at(x, y)
}

fn json_moves(v: &serde_json::Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn seed_board_answers_17_moves_with_every_shortest_solver() {
    let file = TempFile::new("seed.board", SEED);
    let path = file.to_str().unwrap();
    for algo in ["bfs", "iddfs", "bidirectional", "astar", "idastar", "ucs"] {
        let o = with_input(&["board", path, "--algo", algo, "--json"], "");
        assert_eq!(o.status.code(), Some(0), "{algo}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["domain"], "board");
        assert_eq!(v["algorithm"], algo);
        assert_eq!(v["status"], "solved");
        assert_eq!(v["length"], 17, "{algo}");
        assert_eq!(v["cost"], 17);
        let moves = json_moves(&v);
        assert_eq!(replay(&["AAAA", "ACCB", "ADEF"], &moves), Some('F'));
    }
    // dfs finds some solution, not necessarily a shortest one.
    let o = with_input(&["board", path, "--algo", "dfs", "--json"], "");
    assert_eq!(o.status.code(), Some(0));
    let moves = json_moves(&json(&o));
    assert_eq!(replay(&["AAAA", "ACCB", "ADEF"], &moves), Some('F'));
}

#[test]
fn ab_ac_from_stdin_with_target_c_answers_6() {
    let o = with_input(&["board", "-", "--target", "C", "--json"], "AB\nAC\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["algorithm"], "bfs", "the default solver");
    assert_eq!(v["length"], 6);
    assert_eq!(replay(&["AB", "AC"], &json_moves(&v)), Some('C'));
}

#[test]
fn human_output_numbers_the_moves_and_draws_the_route() {
    let o = with_input(&["board", "-"], SEED);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.starts_with("17 moves to F (bfs, rules seed)\n"),
        "{text}"
    );
    assert!(text.contains("\n 1. Forward\n"), "{text}");
    assert!(text.contains("\n17. "), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let board = lines.iter().position(|l| l.starts_with("board")).unwrap();
    // The board and the route side by side; the goal F at the bottom right is G.
    assert!(lines[board + 1].starts_with("AAAA"));
    assert!(lines[board + 3].starts_with("ADEF"));
    assert!(lines[board + 3].ends_with('G'), "{text}");
    assert!(lines[board + 4].starts_with('*'), "{text}");
    assert!(lines[board + 4].ends_with('S'), "{text}");
    // --quiet prints the moves alone, on one line, as the other domains do.
    let o = with_input(&["board", "-", "--quiet"], SEED);
    let text = stdout(&o);
    let moves: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(moves.len(), 17);
    assert!(moves
        .iter()
        .all(|m| ["Forward", "Jump", "Left", "Right"].contains(m)));
}

#[test]
fn lightbot_rules_and_unsolvable_boards() {
    let down = "A\nB\n0 0 N\n";
    let o = with_input(&["board", "-", "--target", "A", "--json"], down);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(json(&o)["status"], "unsolvable");
    let o = with_input(&["board", "-", "--target", "A"], down);
    assert!(stdout(&o).contains("unsolvable"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("all 4 reachable states"),
        "{}",
        stdout(&o)
    );
    // A robot that starts off the board (where it may not turn) and that no move takes
    // anywhere: the messages count one state as one.
    let stuck = "A\n*\n0 0 E\n";
    let o = with_input(&["board", "-"], stuck);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("the start is the only reachable state, and it is not a goal"),
        "{}",
        stdout(&o)
    );
    let o = with_input(&["board", "-", "--algo", "iddfs"], stuck);
    assert!(stdout(&o).contains("(1 state expanded)"), "{}", stdout(&o));
    let o = with_input(
        &[
            "board", "-", "--target", "a", "--rules", "lightbot", "--json",
        ],
        down,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json_moves(&json(&o)), ["Jump"]);
}

#[test]
fn a_depth_limit_does_not_store_a_state_once_per_depth() {
    // Under --max-depth, ucs and astar keep (cell, depth) pairs apart. Where every move costs
    // 1 a cell reached again as deep or deeper is skipped, so the limit stores no more than
    // the search without it; ucs stored each cell once per depth (a 300x300 board within 5000
    // moves: 54 M pairs, 1.9 GB, 31 s).
    let mut board = vec![format!("{}B", "A".repeat(59))];
    board.extend(std::iter::repeat_n("A".repeat(60), 59));
    let board = board.join("\n") + "\n";
    for algo in ["ucs", "astar"] {
        let args = ["board", "-", "--algo", algo, "--json"];
        let free = json(&with_input(&args, &board));
        let limited = json(&with_input(
            &[&args[..], &["--max-depth", "1000"]].concat(),
            &board,
        ));
        assert_eq!(limited["length"], free["length"], "{algo}");
        let stored = |v: &serde_json::Value| v["stats"]["stored"].as_u64().unwrap();
        let (limited, free) = (stored(&limited), stored(&free));
        assert!(
            limited <= free + 100,
            "{algo}: {limited} stored against {free}"
        );
    }
}

#[test]
fn limits_exit_3() {
    let o = with_input(&["board", "-", "--max-depth", "5", "--json"], SEED);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json(&o)["status"], "limit");
}

#[test]
fn malformed_files_exit_2_naming_the_line() {
    let cases = [
        ("", "line 1"),
        ("AB\nABC\n", "line 2, column 3"),
        ("AB\nAb\n", "line 2, column 2"),
        ("AB\nAB\n**\n", "line 3, column 2"),
        ("AB\nAB\n*\n *\n", "line 4, column 2"),
        ("AB\nAB\n   *\n", "line 3, column 4"),
        ("AB\nAB\n5 0 N\n", "line 3, column 1"),
        ("AB\nAB\n0 0 Q\n", "line 3, column 5"),
        ("AB\nAB\n0 0\n", "line 3"),
        ("AB\n\nAB\n", "line 3"),
    ];
    for (text, place) in cases {
        let o = with_input(&["board", "-"], text);
        assert_eq!(o.status.code(), Some(2), "{text:?}");
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(place), "{text:?}: {err}");
        assert!(stdout(&o).is_empty());
    }
    let o = with_input(&["board", "-", "--target", "Z"], "AB\nAC\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'Z'"), "{}", stderr(&o));
    let o = with_input(&["board", "-", "--target", "7"], "AB\nAC\n");
    assert_eq!(o.status.code(), Some(2));
    let o = with_input(&["board", "-", "--rules", "chess"], "AB\nAC\n");
    assert_eq!(o.status.code(), Some(2));
    let dir = temp_dir();
    let missing = dir.path().join("nothing-here.board");
    let o = with_input(&["board", missing.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing-here.board"));
}

#[test]
fn explore_counts_the_reachable_states() {
    let o = with_input(&["explore", "board", "-", "--json"], "AB\nAC\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["domain"], "board");
    assert_eq!(v["complete"], true);
    // Below column 0, then the two A cells and the B and C cells, each in four headings.
    assert_eq!(v["states"], 17);
    let layers: u64 = v["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap())
        .sum();
    assert_eq!(layers, 17);
    assert_eq!(v["layers"][0], 1);
    let o = with_input(&["explore", "board", "-"], "AB\nAx\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2, column 2"));
}

#[test]
fn a_stopped_exploration_counts_its_last_layer_as_far_as_it_got() {
    // Stopped before the start's first successor: layer 1 is begun, with nothing found yet. The
    // board's own explorer said `[1]` (marking the complete layer 0 partial) where the engine's,
    // behind the other domains, says `[1, 0]`.
    for (args, stdin) in [
        (&["explore", "board", "-"][..], "AB\nAC\n"),
        (&["explore", "tiles", "--size", "2x2"][..], ""),
        (&["explore", "river", "family"][..], ""),
    ] {
        let o = with_input(&[args, &["--timeout", "0", "--json"]].concat(), stdin);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["layers"], serde_json::json!([1, 0]), "{args:?}");
        assert_eq!(v["complete"], false);
        assert_eq!(v["limit"], "time", "{args:?}");
        assert_eq!(v["last_layer_partial"], true, "{args:?}");
    }
    // Stopped within layer 2 by the state budget: the states found there so far are counted.
    let o = with_input(
        &["explore", "board", "-", "--max-states", "2", "--json"],
        "AB\nAC\n",
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json(&o)["layers"], serde_json::json!([1, 1, 3]));
    assert_eq!(json(&o)["limit"], "states");
    assert_eq!(json(&o)["last_layer_partial"], true);
    // A depth limit stops between layers: the last one counted is whole.
    let o = with_input(
        &["explore", "board", "-", "--max-depth", "1", "--json"],
        "AB\nAC\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["layers"], serde_json::json!([1, 1]));
    assert_eq!(json(&o)["limit"], "depth");
    assert_eq!(json(&o)["last_layer_partial"], false);
}

#[test]
fn tree_searches_prove_a_small_board_unsolvable() {
    // Nine states, C out of reach (no B to jump from), and the robot can turn in circles:
    // iddfs and idastar deepened forever, or at --max-depth blamed the depth.
    for algo in ["iddfs", "idastar"] {
        for limit in [&[][..], &["--max-depth", "12"][..]] {
            let args = [
                &["board", "-", "--algo", algo, "--timeout", "20"][..],
                limit,
            ]
            .concat();
            let o = with_input(&args, "AAC\n");
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stdout(&o));
            assert!(
                stdout(&o).contains("came back to a state"),
                "{}",
                stdout(&o)
            );
        }
    }
}

#[test]
fn a_large_board_is_drawn_cropped_to_the_route() {
    // A row of 301 cells, the B at column 50: the route's box, one cell of margin, is drawn.
    let board = format!("{}B{}\n", "A".repeat(50), "A".repeat(250));
    let o = with_input(&["board", "-"], &board);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("columns 0-51, rows 0-0 (from the bottom) of the 301 x 1 board:"),
        "{text}"
    );
    let drawn = format!("{}BA ", "A".repeat(50));
    assert!(text.contains(&drawn), "{text}");
}

#[test]
fn max_states_bounds_the_path_of_the_tree_searches_and_says_so() {
    // The seed's answer is 17 moves: a path of 18 states, which 10 cannot hold.
    for algo in ["iddfs", "idastar"] {
        let out = with_input(&["board", "-", "--algo", algo, "--max-states", "10"], SEED);
        assert_eq!(out.status.code(), Some(3), "{algo}: {}", stdout(&out));
        assert_eq!(
            stdout(&out).trim(),
            format!(
                "no answer: stopped where the path would pass 10 states (--max-states bounds the \
                 path of {algo}, which stores no states); raise it to search deeper"
            )
        );
        let out = with_input(&["board", "-", "--algo", algo, "--max-states", "18"], SEED);
        assert_eq!(out.status.code(), Some(0), "{algo}: {}", stdout(&out));
    }
}

#[test]
fn the_heuristic_map_counts_against_the_budget_and_the_clock() {
    // 1,100 x 1,000 cells: within a budget of 2,000,000, while the informed solvers' distance
    // map takes four bytes a padded cell (1,102 x 1,002 x 4 bytes).
    let mut board = String::from("B");
    board.push_str(&"A".repeat(1099));
    board.push('\n');
    for _ in 1..1000 {
        board.push_str(&"A".repeat(1100));
        board.push('\n');
    }
    let budget = ["--max-states", "2000000"];
    for algo in ["astar", "idastar"] {
        let args = ["board", "-", "--algo", algo];
        let refused = with_input(&[&args[..], &budget].concat(), &board);
        assert_eq!(refused.status.code(), Some(3), "{}", stderr(&refused));
        let said = stdout(&refused);
        assert!(
            said.contains("distance map takes 4,416,816 bytes"),
            "{said}"
        );
        let late = with_input(&[&args[..], &["--timeout", "0"]].concat(), &board);
        assert_eq!(late.status.code(), Some(3), "{}", stderr(&late));
        // Stopped while the board is parsed (stderr) or while the map is built (stdout).
        let said = format!("{}{}", stdout(&late), stderr(&late));
        assert!(said.contains("--timeout"), "{said}");
    }
    let bfs = with_input(&["board", "-", "--max-states", "2000000", "--json"], &board);
    assert_eq!(json(&bfs)["status"], "solved", "{}", stderr(&bfs));
}

#[test]
fn the_seed_boards_tree_has_the_shape_of_the_seeds_drawing() {
    // The seed's drawForest of three levels: Forward; under it Right, Left and Forward; under
    // those Right and Left, Right and Left, and Right, Left and Forward.
    let out = with_input(&["board", "-", "--tree", "3", "--json"], SEED);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = json(&out);
    let moves = |nodes: &serde_json::Value| -> Vec<String> {
        let mut names: Vec<String> = nodes
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["move"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    let roots = &tree["tree"];
    assert_eq!(moves(roots), ["Forward"]);
    let level2 = &roots[0]["children"];
    assert_eq!(moves(level2), ["Forward", "Left", "Right"]);
    for child in level2.as_array().unwrap() {
        let expected: &[&str] = match child["move"].as_str().unwrap() {
            "Forward" => &["Forward", "Left", "Right"],
            _ => &["Left", "Right"],
        };
        assert_eq!(
            moves(&child["children"]),
            expected,
            "under {}",
            child["move"]
        );
    }
    // Turning back the way it came returns to a state seen one level up.
    let seen: usize = level2
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let grandchildren = c["children"].as_array().unwrap();
            grandchildren
                .iter()
                .filter(|g| g["seen_before"] == true)
                .count()
        })
        .sum();
    assert!(seen >= 2, "{tree}");
}

#[test]
fn compare_runs_every_solver_and_each_finds_the_seeds_17_moves() {
    let out = with_input(&["board", "-", "--compare", "--json"], SEED);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = json(&out)["compare"].as_array().unwrap().clone();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "bfs",
            "dfs",
            "iddfs",
            "ucs",
            "astar",
            "idastar",
            "bidirectional",
            "tree-bfs"
        ]
    );
    for row in &rows {
        assert_eq!(row["status"], "solved", "{row}");
        if row["algorithm"] != "dfs" {
            assert_eq!(row["length"], 17, "{row}");
        }
    }
    // The seed's lesson: without a seen-set, far more nodes than with one.
    let expanded = |name: &str| {
        rows.iter().find(|r| r["algorithm"] == name).unwrap()["stats"]["expanded"]
            .as_u64()
            .unwrap()
    };
    assert!(expanded("tree-bfs") > 1000 * expanded("bfs"));
    // A solver that hits a limit says which.
    let out = with_input(
        &[
            "board",
            "-",
            "--compare",
            "bfs,tree-bfs",
            "--max-states",
            "1000",
        ],
        SEED,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("limit: states"), "{}", stdout(&out));
}
