//! Property tests: no input panics; heuristics never overestimate; the fast solver agrees with
//! BFS and its solutions replay to the goal.

use std::sync::{Arc, OnceLock};

use frontier_search::{bfs, Config, Limit, Status};
use frontier_tiles::pdb::{default_sizes, groups_by_sizes};
use frontier_tiles::{
    solve_in_stages, Estimate, PatternDb, Puzzle, Shape, Solver, Tables, TilesSpace,
};
use proptest::prelude::*;

mod common;

/// The pattern database of groups of `sizes` on a `rows` x `cols` board with the default goal.
fn pdb(rows: usize, cols: usize, sizes: &[usize]) -> Arc<PatternDb> {
    let shape = Shape::new(rows, cols).unwrap();
    let goal = shape.default_goal();
    let groups = groups_by_sizes(shape, &goal, sizes).unwrap();
    let tables = Tables::new(&Puzzle::new(shape, &goal, &goal).unwrap());
    Arc::new(PatternDb::build(&tables, &groups, &|_, _| {}).unwrap())
}

/// The 8-puzzle's exact pattern database (all 8 tiles, blank tracked), built once.
fn pdb_3x3() -> Arc<PatternDb> {
    static DB: OnceLock<Arc<PatternDb>> = OnceLock::new();
    let shape = Shape::new(3, 3).unwrap();
    DB.get_or_init(|| pdb(3, 3, &default_sizes(shape))).clone()
}

/// A 2x3 board's split into 3 + 2 tiles (so the sum of two tables is exercised).
fn pdb_2x3() -> Arc<PatternDb> {
    static DB: OnceLock<Arc<PatternDb>> = OnceLock::new();
    DB.get_or_init(|| pdb(2, 3, &[3, 2])).clone()
}

fn layout(cells: usize) -> impl Strategy<Value = Vec<u8>> {
    Just((0..cells as u8).collect::<Vec<u8>>()).prop_shuffle()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_text_panics(text in ".{0,80}", size in proptest::option::of("[0-9x ]{0,6}"), goal in proptest::option::of("[0-9 ,a]{0,40}")) {
        let shape = size.as_deref().map(Shape::parse);
        if let Some(Ok(shape)) = shape {
            let _ = Puzzle::parse(&text, Some(shape), goal.as_deref());
        }
        let _ = Puzzle::parse(&text, None, goal.as_deref());
    }

    #[test]
    fn number_lists_parse_or_fail_cleanly(tiles in proptest::collection::vec(0u64..40, 0..40), sep in "[ ,\n]{1,2}") {
        let text: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        if let Ok(p) = Puzzle::parse(&text.join(&sep), None, None) {
            let mut sorted = p.start().to_vec();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..p.shape().cells() as u8).collect::<Vec<_>>());
            // Whether it is solvable: parity_agrees_with_the_generic_engine_on_small_boards.
        }
    }

    #[test]
    fn the_fast_solver_is_optimal_on_the_8_puzzle(start in layout(9)) {
        let shape = Shape::new(3, 3).unwrap();
        let puzzle = Puzzle::new(shape, &start, &shape.default_goal()).unwrap();
        let truth = bfs(&TilesSpace::<u64>::new(&puzzle), &Config::default());
        let tables = Tables::new(&puzzle);
        for estimate in [Estimate::Manhattan, Estimate::Conflict, Estimate::Pdb(pdb_3x3())] {
            let solver = Solver::new(&puzzle, estimate.clone()).unwrap();
            let threads = if matches!(estimate, Estimate::Conflict) { 2 } else { 1 };
            let outcome = solver.solve(&start, &Config::default().threads(threads));
            prop_assert_eq!(outcome.status(), truth.status());
            if let (Some(fast), Some(exact)) = (&outcome.solution(), &truth.solution()) {
                prop_assert_eq!(fast.moves.len(), exact.moves.len());
                prop_assert_eq!(common::play(&start, 3, &fast.moves), Some(puzzle.goal().to_vec()));
                // Admissible: no estimate above the true distance.
                prop_assert!(solver.estimate(&start) as usize <= exact.moves.len());
                prop_assert!(tables.manhattan(&start) <= tables.conflict(&start));
            } else {
                prop_assert!(!puzzle.is_solvable());
                prop_assert_eq!(truth.status(), Status::Exhausted);
            }
        }
    }

    #[test]
    fn the_weighted_solver_stays_within_its_weight(start in layout(9), weight in 1.0f64..3.0) {
        // Weighted IDA* (Korf 1993): with an admissible heuristic, at most `weight` times the
        // shortest, and never shorter.
        let shape = Shape::new(3, 3).unwrap();
        let puzzle = Puzzle::new(shape, &start, &shape.default_goal()).unwrap();
        let truth = bfs(&TilesSpace::<u64>::new(&puzzle), &Config::default());
        for estimate in [Estimate::Manhattan, Estimate::Conflict, Estimate::Pdb(pdb_3x3())] {
            let solver = Solver::new(&puzzle, estimate.clone()).unwrap();
            let threads = if matches!(estimate, Estimate::Conflict) { 2 } else { 1 };
            let config = Config::default().threads(threads).weight(weight);
            let outcome = solver.solve(&start, &config);
            prop_assert_eq!(outcome.status(), truth.status());
            let (Some(found), Some(exact)) = (&outcome.solution(), &truth.solution()) else {
                continue;
            };
            let (found, best) = (found.moves.len(), exact.moves.len());
            prop_assert!(found >= best && found as f64 <= weight * best as f64, "{found} vs {best}");
            prop_assert_eq!(
                common::play(&start, 3, &outcome.solution().unwrap().moves),
                Some(puzzle.goal().to_vec())
            );
        }
    }

    #[test]
    fn the_weighted_solver_keeps_to_the_depth_limit(start in layout(6), weight in 1.0f64..3.0) {
        // Below the shortest length it stops at the limit; at it, it finds an answer no longer.
        let shape = Shape::new(2, 3).unwrap();
        let puzzle = Puzzle::new(shape, &start, &shape.default_goal()).unwrap();
        let truth = bfs(&TilesSpace::<u64>::new(&puzzle), &Config::default());
        let Some(best) = truth.solution().map(|s| s.moves.len() as u32) else {
            return Ok(());
        };
        let solver = Solver::new(&puzzle, Estimate::Conflict).unwrap();
        let config = Config::default().weight(weight);
        if best > 0 {
            let stopped = solver.solve(&start, &config.clone().max_depth(best - 1));
            prop_assert_eq!(stopped.status(), Status::Limit(Limit::Depth));
        }
        let solved = solver.solve(&start, &config.max_depth(best));
        prop_assert_eq!(solved.status(), Status::Solved);
        prop_assert_eq!(solved.solution().unwrap().moves.len() as u32, best);
    }

    #[test]
    fn rectangles_solve_optimally(start in layout(6)) {
        let shape = Shape::new(2, 3).unwrap();
        let puzzle = Puzzle::new(shape, &start, &shape.default_goal()).unwrap();
        let truth = bfs(&TilesSpace::<u64>::new(&puzzle), &Config::default());
        prop_assert_eq!(truth.status() == Status::Solved, puzzle.is_solvable());
        for estimate in [Estimate::Conflict, Estimate::Pdb(pdb_2x3())] {
            let outcome = Solver::new(&puzzle, estimate).unwrap().solve(&start, &Config::default());
            prop_assert_eq!(outcome.status(), truth.status());
            if let (Some(fast), Some(exact)) = (&outcome.solution(), &truth.solution()) {
                prop_assert_eq!(fast.moves.len(), exact.moves.len());
                prop_assert_eq!(common::play(&start, 3, &fast.moves), Some(puzzle.goal().to_vec()));
            }
        }
    }
}

/// Every arrangement of the tiles `0..n`, in lexicographic order.
fn permutations(n: u8) -> Vec<Vec<u8>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for first in 0..n {
        for rest in permutations(n - 1) {
            let mut layout = vec![first];
            layout.extend(rest.into_iter().map(|t| if t >= first { t + 1 } else { t }));
            all.push(layout);
        }
    }
    all
}

#[test]
fn parity_agrees_with_the_generic_engine_on_small_boards() {
    // Every start on each small board, against goals with the blank in different cells: the
    // parity rule must say "solvable" exactly where breadth-first search reaches the goal.
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (1, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let layouts = permutations(shape.cells() as u8);
        let goals: Vec<&Vec<u8>> = if layouts.len() <= 24 {
            layouts.iter().collect()
        } else {
            layouts.iter().step_by(97).collect()
        };
        for goal in goals {
            let mut solvable = 0;
            for start in &layouts {
                let puzzle = Puzzle::new(shape, start, goal).unwrap();
                let truth = bfs(&TilesSpace::<u64>::new(&puzzle), &Config::default());
                let reached = truth.is_solved();
                assert_eq!(
                    puzzle.is_solvable(),
                    reached,
                    "{rows}x{cols}: {start:?} to {goal:?}"
                );
                solvable += usize::from(reached);
            }
            // Half of the layouts on a board of two rows or more, one in 4!/4 on a line (the
            // blank anywhere, the tiles in their order).
            let expected = if rows == 1 { 4 } else { layouts.len() / 2 };
            assert_eq!(solvable, expected, "{rows}x{cols} to {goal:?}");
        }
    }
}

/// A board of 2 to 9 rows and columns with a random start and a random goal layout.
fn any_board() -> impl Strategy<Value = (Shape, Vec<u8>, Vec<u8>)> {
    (2usize..10, 2usize..10).prop_flat_map(|(rows, cols)| {
        let shape = Shape::new(rows, cols).unwrap();
        (Just(shape), layout(rows * cols), layout(rows * cols))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn stages_solve_every_solvable_board_and_only_those((shape, start, goal) in any_board()) {
        let puzzle = Puzzle::new(shape, &start, &goal).unwrap();
        let outcome = solve_in_stages(&puzzle, &Config::default());
        if puzzle.is_solvable() {
            prop_assert_eq!(outcome.status(), Status::Solved);
            let moves = outcome.into_solution().unwrap().moves;
            prop_assert_eq!(common::play(&start, shape.cols(), &moves), Some(goal));
        } else {
            prop_assert_eq!(outcome.status(), Status::Exhausted);
        }
    }
}

#[test]
fn stages_stop_at_the_timeout_and_the_cancel_flag() {
    let shape = Shape::new(9, 9).unwrap();
    let mut start = shape.default_goal();
    start.reverse();
    let goal = shape.default_goal();
    // Reversed on a 9 x 9 board: the blank moves from cell 0 to cell 80, an even distance, and
    // reversing 81 cells is 40 transpositions: solvable.
    let puzzle = Puzzle::new(shape, &start, &goal).unwrap();
    assert!(puzzle.is_solvable());
    let timed = Config::default().timeout(std::time::Duration::ZERO);
    let outcome = solve_in_stages(&puzzle, &timed);
    assert_eq!(outcome.status(), Status::Limit(Limit::Time));
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let outcome = solve_in_stages(&puzzle, &Config::default().cancel(flag));
    assert_eq!(outcome.status(), Status::Limit(Limit::Cancelled));
    let outcome = solve_in_stages(&puzzle, &Config::default());
    assert_eq!(outcome.status(), Status::Solved);
    let moves = outcome.into_solution().unwrap().moves;
    assert_eq!(common::play(&start, 9, &moves), Some(goal));
}
