//! What the test binaries share: a multiplier of image lists written here, apart from the
//! crate's, to replay every answer, and a checked solve.
// Each test binary uses some of these helpers, not all.
#![allow(dead_code)]

use frontier_perm::{solve, Model, Puzzle, Tables, Turn};
use frontier_search::{Algorithm, Config, Status};
use frontier_tables::Builder;

/// Image lists of the generators, 0-based, read from the puzzle's cycles.
pub fn images(puzzle: &Puzzle) -> Vec<Vec<usize>> {
    puzzle
        .generators()
        .iter()
        .map(|g| g.perm.images().iter().map(|&i| usize::from(i)).collect())
        .collect()
}

/// The colours at each point after `moves` (applied first to last) from `start`: the piece
/// at `p` moves to `g[p]` under each turn, `power` times.
pub fn replay(puzzle: &Puzzle, start: &[u8], moves: &[Turn]) -> Vec<u8> {
    let gens = images(puzzle);
    let mut state = start.to_vec();
    for t in moves {
        for _ in 0..t.power {
            let mut next = state.clone();
            for (p, &q) in gens[usize::from(t.generator)].iter().enumerate() {
                next[q] = state[p];
            }
            state = next;
        }
    }
    state
}

/// The colours at each point of the position `scramble` reaches.
pub fn scrambled(puzzle: &Puzzle, scramble: &[Turn]) -> Vec<u8> {
    replay(puzzle, puzzle.colours(), scramble)
}

/// Solves `scramble` with `algorithm` and checks the answer by replaying it.
pub fn solve_checked(
    puzzle: &Puzzle,
    model: &Model,
    tables: Option<&Tables>,
    scramble: &str,
    algorithm: Algorithm,
) -> Vec<Turn> {
    let turns = puzzle.parse_moves(scramble).unwrap();
    let position = puzzle.apply(&turns);
    let outcome = solve(
        model,
        tables,
        &model.colours_of(&position),
        algorithm,
        &Config::default(),
    );
    assert_eq!(outcome.status(), Status::Solved, "{scramble}");
    let moves = outcome.into_solution().unwrap().moves;
    let end = replay(puzzle, &scrambled(puzzle, &turns), &moves);
    assert_eq!(
        end,
        puzzle.colours(),
        "{scramble}: {moves:?} does not solve it"
    );
    moves
}

pub fn tables(model: &Model, entries: usize) -> Tables {
    Tables::build(model, entries, None, &Builder::new()).unwrap()
}

/// Every point labelled by itself: replaying a scramble and its answer from it must give it
/// back exactly.
pub fn labels(puzzle: &Puzzle) -> Vec<u8> {
    (0..puzzle.points()).map(|p| p as u8).collect()
}

/// Turns of the puzzle from arbitrary picks (a proptest's numbers): generator `g` modulo the
/// generators, a power from 1 to one below its order.
pub fn turns_of(puzzle: &Puzzle, picks: &[(usize, u8)]) -> Vec<Turn> {
    picks
        .iter()
        .map(|&(g, p)| {
            let g = g % puzzle.generators().len();
            let order = puzzle.generator_order(g);
            Turn {
                generator: g as u8,
                power: 1 + p % (order - 1),
            }
        })
        .collect()
}
