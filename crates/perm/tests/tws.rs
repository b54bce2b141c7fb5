//! twsearch definitions against the `.perm` presets of the same puzzles: the same group, the
//! same shortest solutions, the same distance counts; identical pieces and wildcards against
//! counts known by hand; hostile files refused where they go wrong.

mod common;

use common::{solve_checked, tables};
use frontier_perm::{explore, preset, Analysis, Metric, Model, Problem, Puzzle, Turn};
use frontier_search::{Algorithm, Config};

const CUBE2: &str = include_str!("data/cube2.tws");
const CUBE3: &str = include_str!("data/cube3.tws");

fn order(puzzle: &Puzzle) -> String {
    Analysis::of(puzzle).order.to_string()
}

/// Scrambles of `moves` moves from a fixed seed (xorshift), written as the puzzle writes
/// moves; both definitions name their moves alike.
fn scrambles(puzzle: &Puzzle, count: usize, moves: usize) -> Vec<String> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    (0..count)
        .map(|_| {
            (0..moves)
                .map(|_| {
                    let g = next(puzzle.generators().len());
                    let order = puzzle.generator_order(g) as usize;
                    let power = 1 + next(order - 1) as u8;
                    puzzle.turn_name(Turn {
                        generator: g as u8,
                        power,
                    })
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn the_same_groups_as_the_presets() {
    let cube2 = Puzzle::parse_tws("cube2", CUBE2).unwrap();
    // 7! 3^6 = 3,674,160 (the sum of OEIS A079761).
    assert_eq!(order(&cube2), "3674160");
    assert_eq!(order(&cube2), order(&preset("cube2").unwrap().puzzle()));
    let cube3 = Puzzle::parse_tws("cube3", CUBE3).unwrap();
    // 8! 3^7 12! 2^11 / 2.
    assert_eq!(order(&cube3), "43252003274489856000");
    assert_eq!(cube3.points(), 48);
}

#[test]
fn the_same_shortest_solutions_as_the_presets() {
    for (name, text, count, length) in [("cube2", CUBE2, 6, 9), ("cube3", CUBE3, 4, 5)] {
        let perm = preset(name).unwrap().puzzle();
        let tws = Puzzle::parse_tws(name, text).unwrap();
        for metric in [Metric::Htm, Metric::Qtm] {
            let (a, b) = (Model::new(&perm, metric), Model::new(&tws, metric));
            let (ta, tb) = (tables(&a, 1 << 16), tables(&b, 1 << 16));
            for scramble in scrambles(&perm, count, length) {
                let x = solve_checked(&perm, &a, Some(&ta), &scramble, Algorithm::Idastar);
                let y = solve_checked(&tws, &b, Some(&tb), &scramble, Algorithm::Idastar);
                assert_eq!(x.len(), y.len(), "{name} {metric}: {scramble}");
            }
        }
    }
}

#[test]
fn the_same_distance_counts_as_the_presets() {
    for (name, text, depth) in [("cube2", CUBE2, 6), ("cube3", CUBE3, 4)] {
        let perm = preset(name).unwrap().puzzle();
        let tws = Puzzle::parse_tws(name, text).unwrap();
        for metric in [Metric::Htm, Metric::Qtm] {
            let config = Config::default().max_depth(depth);
            let a = explore(&Model::new(&perm, metric), &config).layers;
            let b = explore(&Model::new(&tws, metric), &config).layers;
            assert_eq!(a, b, "{name} {metric}");
        }
    }
    // OEIS A079761, the 2x2x2 in face turns, to depth 6.
    let tws = Puzzle::parse_tws("cube2", CUBE2).unwrap();
    let config = Config::default().max_depth(6);
    assert_eq!(
        explore(&Model::new(&tws, Metric::Htm), &config).layers,
        [1, 9, 54, 321, 1847, 9992, 50136]
    );
}

/// The 2x2x2 definition with another solved state.
fn cube2_solved(pieces: &str, orientations: &str) -> Puzzle {
    let solved = "CORNER\n1 2 3 4 5 6 7\n0 0 0 0 0 0 0\n";
    let text = CUBE2.replacen(solved, &format!("CORNER\n{pieces}\n{orientations}\n"), 1);
    assert_ne!(text, CUBE2);
    Puzzle::parse_tws("cube2", &text).unwrap()
}

#[test]
fn identical_pieces_and_wildcards_count_what_can_be_told_apart() {
    // Every corner alike: only the twists are seen, 3^6 of them (the seven twists sum to 0
    // modulo 3).
    let twists = cube2_solved("1 1 1 1 1 1 1", "0 0 0 0 0 0 0");
    // Every twist a wildcard: only where the corners are, 7! ways.
    let places = cube2_solved("1 2 3 4 5 6 7", "? ? ? ? ? ? ?");
    for (puzzle, states) in [(twists, 729u64), (places, 5040)] {
        assert_eq!(
            Analysis::of(&puzzle).states.unwrap().to_string(),
            states.to_string()
        );
        let counted = explore(&Model::new(&puzzle, Metric::Htm), &Config::default());
        assert_eq!(counted.states(), states);
        // The same puzzle through its .perm text: the colouring carries over.
        let again = Puzzle::parse("again", &puzzle.to_perm_text()).unwrap();
        assert_eq!(again.colours(), puzzle.colours());
        assert_eq!(again.generators(), puzzle.generators());
    }
}

#[test]
fn hostile_definitions_are_refused_where_they_go_wrong() {
    let at = |text: &str| {
        let e = Puzzle::parse_tws("x", text).unwrap_err();
        (e.line, e.column, e.problem)
    };
    // A move whose permutation repeats a slot, on its line and at its number.
    let bad = CUBE2.replacen("Move R\nCORNER\n1 4 3 6", "Move R\nCORNER\n1 4 3 4", 1);
    assert_ne!(bad, CUBE2);
    let line = bad.lines().position(|l| l.starts_with("1 4 3 4")).unwrap() + 1;
    assert_eq!(at(&bad), (line, 7, Problem::PieceTwice(4)));
    // A twist past the set's orientations.
    let bad = CUBE2.replacen("0 0 0 1 0 2 0", "0 0 0 1 0 3 0", 1);
    assert_ne!(bad, CUBE2);
    assert!(matches!(
        at(&bad).2,
        Problem::OutOfRange {
            what: "orientation",
            value: 3,
            ..
        }
    ));
    // The last End missing.
    let cut = CUBE2.trim_end().strip_suffix("End").unwrap();
    let start = cut.lines().position(|l| l == "Move F").unwrap() + 1;
    assert_eq!(at(cut), (start, 1, Problem::MissingEnd("Move F".into())));
    // An endless line and a huge file cost bounded memory and say so.
    let long = format!("Name {}\n", "x".repeat(frontier_perm::MAX_LINE));
    assert_eq!(at(&long).2, Problem::LineTooLong);
    let line = "# filler\n".repeat(frontier_perm::MAX_FILE / 9 + 1);
    assert_eq!(at(&line).2, Problem::FileTooLong);
}
