//! The public API refuses what would give wrong answers: pattern databases for another board or
//! goal, groups that do not split the tiles, layouts that are not layouts.

use std::sync::Arc;

use frontier_search::{astar, Config, Status};
use frontier_tiles::pdb::{check_groups, default_groups, placements};
use frontier_tiles::{
    is_solvable, Estimate, PatternDb, PdbError, Puzzle, Shape, Solver, Tables, TilesSpace,
};

/// The exact database of the 8-puzzle with the default goal (blank last).
fn default_goal_db() -> Arc<PatternDb> {
    let puzzle = Puzzle::parse("1 2 3 4 5 6 7 8 0", None, None).unwrap();
    let groups = default_groups(puzzle.shape(), puzzle.goal()).unwrap();
    Arc::new(PatternDb::build(&Tables::new(&puzzle), &groups, &|_, _| {}).unwrap())
}

#[test]
fn a_database_for_another_goal_or_board_is_refused() {
    let db = default_goal_db();
    // Blank first: the database's distances are to another layout.
    let blank_first = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, Some("0 1 2 3 4 5 6 7 8")).unwrap();
    let err = Solver::new(&blank_first, Estimate::Pdb(db.clone())).unwrap_err();
    assert!(matches!(err, PdbError::OtherGoal { .. }), "{err}");
    let space = TilesSpace::<u64>::new(&blank_first).with_estimate(Estimate::Pdb(db.clone()));
    assert!(matches!(space, Err(PdbError::OtherGoal { .. })));

    let wider = Puzzle::parse("1 2 3 4 5 6 7 8 9 10 11 0", Shape::new(3, 4).ok(), None).unwrap();
    let err = Solver::new(&wider, Estimate::Pdb(db.clone())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the pattern database is for a 3x3 board, not 3x4"
    );

    // The board and goal it was built for: optimal (31 moves, Reinefeld 1993).
    let hardest = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None).unwrap();
    let solver = Solver::new(&hardest, Estimate::Pdb(db.clone())).unwrap();
    let outcome = solver.solve(hardest.start(), &Config::default());
    assert_eq!(outcome.solution().unwrap().moves.len(), 31);
    let space = TilesSpace::<u64>::new(&hardest)
        .with_estimate(Estimate::Pdb(db))
        .unwrap();
    assert_eq!(
        astar(&space, &Config::default()).solution().unwrap().len(),
        31
    );
}

#[test]
fn groups_must_split_the_tiles() {
    let puzzle = Puzzle::parse("1 2 3 4 5 6 7 8 0", None, None).unwrap();
    let tables = Tables::new(&puzzle);
    let refused = |groups: &[Vec<u8>]| {
        PatternDb::build(&tables, groups, &|_, _| {})
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refused(&[vec![1, 2, 3, 4, 5], vec![4, 5, 6, 7, 8]]),
        "tile 4 is in groups 0 and 1: groups must not share tiles"
    );
    assert_eq!(
        refused(&[vec![1, 2, 3, 3], vec![4, 5, 6, 7, 8]]),
        "tile 3 is in groups 0 and 0: groups must not share tiles"
    );
    assert_eq!(
        refused(&[vec![0, 1, 2], vec![3, 4, 5, 6, 7, 8]]),
        "group 0: 0 is not a tile of a board of 9 cells (tiles are 1 to 8)"
    );
    assert_eq!(
        refused(&[vec![1, 2, 3, 4, 5, 6, 7, 8], vec![42]]),
        "group 1: 42 is not a tile of a board of 9 cells (tiles are 1 to 8)"
    );
    assert_eq!(refused(&[vec![1, 2], vec![]]), "group 1 holds no tile");
    assert_eq!(
        refused(&[vec![1, 2, 3], vec![5, 6, 7, 8]]),
        "tile 4 is in no group: the groups must hold every tile"
    );
    // The same check, before any table is read or built, and on a board too large.
    let cache = std::env::temp_dir().join(format!("frontier-tiles-api-{}", std::process::id()));
    let loaded = PatternDb::load_or_build(
        &frontier_tiles::Cache::at(&cache),
        &tables,
        &[vec![1, 2]],
        &|_, _| {},
        &|| None,
    );
    assert!(matches!(loaded, Err(PdbError::Uncovered { tile: 3 })));
    assert!(!cache.exists(), "nothing is written for refused groups");
    assert_eq!(
        check_groups(1, &[vec![1]]).unwrap_err().to_string(),
        "group 0: 1 is not a tile of a board of 1 cells (it has none)"
    );
    let tiles: Vec<u8> = (1..81).collect();
    assert_eq!(
        check_groups(81, &[tiles]),
        Err(PdbError::TooManyCells { cells: 81 })
    );
}

#[test]
fn solvability_needs_two_layouts_of_the_board() {
    let shape = Shape::new(3, 3).unwrap();
    let goal = shape.default_goal();
    assert!(is_solvable(shape, &goal, &goal));
    assert!(!is_solvable(shape, &[1, 2, 3], &goal));
    assert!(!is_solvable(shape, &[9; 9], &goal));
    assert!(!is_solvable(shape, &[1, 1, 3, 4, 5, 6, 7, 8, 0], &goal));
    assert!(!is_solvable(shape, &goal, &[0; 9]));
}

#[test]
#[should_panic(expected = "is not a layout of a 3x3 board")]
fn solving_from_a_start_that_is_no_layout_panics_rather_than_claim_unsolvable() {
    let puzzle = Puzzle::parse("1 2 3 4 5 6 7 8 0", None, None).unwrap();
    let solver = Solver::new(&puzzle, Estimate::Conflict).unwrap();
    let outcome = solver.solve(&[1, 2, 3], &Config::default());
    // Not reached: an answer here would be a claim about a board that does not exist.
    assert_ne!(outcome.status(), Status::Exhausted);
}

#[test]
fn there_are_no_placements_of_more_tiles_than_cells() {
    // n!/(n-k)!: 9 * 8 * 7 placements of 3 tiles on 9 cells.
    assert_eq!(placements(9, 3), 504);
    assert_eq!(placements(3, 5), 0);
}
