//! The piece-subset solver: as short as breadth-first search, every answer replayed by the
//! tests' own multiplier, its tables the published ones on the 3x3x3.

mod common;

use std::time::Duration;

use common::{replay, scrambled, turns_of};
use frontier_perm::{preset, solve, Metric, Model, Optimal, Puzzle, Turn};
use frontier_search::{Algorithm, Config, Limit, Outcome, Status};
use frontier_tables::{Builder, Cache};
use proptest::prelude::*;

fn solver(model: &Model, entries: usize) -> Optimal {
    Optimal::build(model, entries, None, &Builder::new())
        .unwrap()
        .expect("pieces told apart")
}

/// Solves `turns` with `solver` on `threads` threads, checks the answer by replaying it and
/// returns it.
fn solved(
    puzzle: &Puzzle,
    model: &Model,
    solver: &Optimal,
    turns: &[Turn],
    threads: usize,
) -> Vec<Turn> {
    let position = puzzle.apply(turns);
    let outcome = solver.solve(
        &model.colours_of(&position),
        &Config::default().threads(threads),
    );
    assert_eq!(outcome.status(), Status::Solved, "{turns:?}");
    let moves = outcome.into_solution().unwrap().moves;
    let end = replay(puzzle, &scrambled(puzzle, turns), &moves);
    assert_eq!(
        end,
        puzzle.colours(),
        "{turns:?}: {moves:?} does not solve it"
    );
    moves
}

/// The length of a shortest answer by bidirectional breadth-first search, replayed.
fn bidirectional(puzzle: &Puzzle, model: &Model, turns: &[Turn]) -> usize {
    let position = puzzle.apply(turns);
    let outcome = solve(
        model,
        None,
        &model.colours_of(&position),
        Algorithm::Bidirectional,
        &Config::default(),
    );
    let moves = outcome.into_solution().unwrap().moves;
    assert_eq!(
        replay(puzzle, &scrambled(puzzle, turns), &moves),
        puzzle.colours()
    );
    moves.len()
}

#[test]
fn the_cube_gets_korfs_tables_from_its_orbits() {
    // Korf, "Finding optimal solutions to Rubik's Cube using pattern databases" (AAAI 1997):
    // the corners whole (8! x 3^7 = 88,179,840) and two sets of six edges (12!/6! x 2^6 =
    // 42,577,920 each), here found from the 48 facets' orbits and pieces alone.
    let model = Model::new(&preset("cube3").unwrap().puzzle(), Metric::Htm);
    let bytes = Optimal::bytes_for(&model, 1 << 27).unwrap();
    let tables = (88_179_840u64 + 2 * 42_577_920).div_ceil(2);
    // The tables at 4 bits an entry, the move tables over places (4 bytes a row) and the
    // corners' twists (3^7 values, 4 bytes a row).
    let rows = (40_320 + 665_280 + 2187) * 18 * 4;
    assert_eq!(bytes, tables + rows);
}

#[test]
fn identical_pieces_are_left_to_the_coloured_tables() {
    let two = format!(
        "{}colours: {{1,2,3,4,5}} {{6,7}}\n",
        preset("topspin10").unwrap().text
    );
    let model = Model::new(&Puzzle::parse("two", &two).unwrap(), Metric::Htm);
    assert!(Optimal::bytes_for(&model, 1 << 16).is_none());
    assert!(Optimal::build(&model, 1 << 16, None, &Builder::new())
        .unwrap()
        .is_none());
}

#[test]
fn the_seeds_scramble_takes_five_quarter_turns() {
    let cube = preset("cube3").unwrap().puzzle();
    let model = Model::new(&cube, Metric::Qtm);
    let solver = solver(&model, 1 << 14);
    let moves = solved(
        &cube,
        &model,
        &solver,
        &cube.parse_moves("B L' U L B").unwrap(),
        2,
    );
    let names: Vec<String> = moves.iter().map(|&t| cube.turn_name(t)).collect();
    assert_eq!(names, ["B'", "L'", "U'", "L", "B'"]);
}

#[test]
fn limits_end_the_search() {
    let cube = preset("cube3").unwrap().puzzle();
    let model = Model::new(&cube, Metric::Htm);
    let solver = solver(&model, 1 << 12);
    let position = cube.apply(&cube.parse_moves("R U F D L B R2 U'").unwrap());
    let colours = model.colours_of(&position);
    let stopped = |o: Outcome<(), Turn>| match o {
        Outcome::Stopped { limit, .. } => Some(limit),
        _ => None,
    };
    let at_once = Config::default().timeout(Duration::ZERO);
    assert_eq!(stopped(solver.solve(&colours, &at_once)), Some(Limit::Time));
    let shallow = Config::default().max_depth(3);
    assert_eq!(
        stopped(solver.solve(&colours, &shallow)),
        Some(Limit::Depth)
    );
    // The solved state takes no move.
    let none = solver.solve(&model.colours_of(&cube.apply(&[])), &Config::default());
    assert_eq!(none.into_solution().unwrap().moves, []);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// As short as bidirectional search, in both metrics, on one thread or two, with tables
    /// small enough for a debug build.
    #[test]
    fn as_short_as_bidirectional_search(
        which in 0usize..4,
        qtm in any::<bool>(),
        threads in 1usize..3,
        picks in prop::collection::vec((0usize..16, 0u8..8), 0..6),
    ) {
        let name = ["cube3", "cube2", "pyraminx", "skewb"][which];
        let puzzle = preset(name).unwrap().puzzle();
        let metric = if qtm { Metric::Qtm } else { Metric::Htm };
        let model = Model::new(&puzzle, metric);
        let solver = solver(&model, 1 << 14);
        let turns = turns_of(&puzzle, &picks);
        let moves = solved(&puzzle, &model, &solver, &turns, threads);
        prop_assert_eq!(moves.len(), bidirectional(&puzzle, &model, &turns), "{} {}: {:?}", name, metric, turns);
    }
}

#[test]
fn tables_come_back_from_the_cache() {
    let dir = std::env::temp_dir().join(format!("frontier-perm-optimal-{}", std::process::id()));
    let cache = Cache::at(&dir);
    let cube = preset("cube2").unwrap().puzzle();
    let model = Model::new(&cube, Metric::Htm);
    let built = Optimal::build(&model, 1 << 12, Some(&cache), &Builder::new())
        .unwrap()
        .unwrap();
    let loaded = Optimal::build(&model, 1 << 12, Some(&cache), &Builder::new())
        .unwrap()
        .unwrap();
    let turns = cube.parse_moves("R U F' R2 U'").unwrap();
    assert_eq!(
        solved(&cube, &model, &built, &turns, 1),
        solved(&cube, &model, &loaded, &turns, 1)
    );
    assert!(loaded
        .reports()
        .iter()
        .all(|r| r.origin == frontier_tables::Origin::Cache));
    assert_eq!(loaded.reports().len(), loaded.len());
    std::fs::remove_dir_all(&dir).unwrap();
}
