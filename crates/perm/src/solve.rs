//! One door to the solvers: the width of a packed state is chosen here, from the model.

use frontier_search::{Algorithm, Config, Exploration, Outcome};

use crate::coord::{CoordSpace, Coords};
use crate::prune::Tables;
use crate::puzzle::Turn;
use crate::space::{Model, PermSpace};

/// Runs `$body` with `$w` a constant number of words at least `$words`.
macro_rules! with_words {
    ($words:expr, |$w:ident| $body:expr) => {
        match $words {
            0..=1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            3..=4 => {
                const $w: usize = 4;
                $body
            }
            5..=8 => {
                const $w: usize = 8;
                $body
            }
            9..=16 => {
                const $w: usize = 16;
                $body
            }
            _ => {
                const $w: usize = 32;
                $body
            }
        }
    };
}

/// What to do with a puzzle's space, whatever the width of its states: the caller's solver
/// (the command line's, with its own flags and budgets) for [`with_space`].
pub trait WithSpace {
    /// What it returns.
    type Output;
    /// Runs on `space` (whose states [`PermSpace::colours`] reads back).
    fn run<const W: usize>(self, space: &PermSpace<'_, W>) -> Self::Output;
}

/// Runs `visitor` on the space of the position whose colours at the compact positions are
/// `start`, with the heuristic of `tables` if given.
pub fn with_space<V: WithSpace>(
    model: &Model,
    tables: Option<&Tables>,
    start: &[u8],
    visitor: V,
) -> V::Output {
    with_words!(model.words(), |W| visitor
        .run(&PermSpace::<W>::new(model, tables, start)))
}

/// Solves the position whose colours at the compact positions are `start`
/// ([`Model::colours_of`]) with `algorithm`, the heuristic from `tables` if given (for
/// `astar` and `idastar`). The moves are the model's metric's, in canonical order for the
/// tree searches; the outcome's states are left out.
///
/// ```
/// use frontier_perm::{preset, solve, Metric, Model};
/// use frontier_search::{Algorithm, Config};
///
/// let cube = preset("cube3").unwrap().puzzle();
/// let model = Model::new(&cube, Metric::Qtm);
/// let scrambled = cube.apply(&cube.parse_moves("R U'").unwrap());
/// let outcome = solve(&model, None, &model.colours_of(&scrambled), Algorithm::Bidirectional, &Config::default());
/// let moves: Vec<String> = outcome.into_solution().unwrap().moves.iter().map(|&t| cube.turn_name(t)).collect();
/// assert_eq!(moves, ["U", "R'"]);
/// ```
pub fn solve(
    model: &Model,
    tables: Option<&Tables>,
    start: &[u8],
    algorithm: Algorithm,
    config: &Config,
) -> Outcome<(), Turn> {
    with_words!(model.words(), |W| {
        let space = PermSpace::<W>::new(model, tables, start);
        frontier_search::solve(&space, algorithm, config).map(|_| (), |t| t)
    })
}

/// The number of states at each distance from the solved state (in the model's metric),
/// by the engine's `explore`: over the states' [coordinates](Coords) where the puzzle has
/// them (densely, when two bits a rank fit the state budget), else over packed states.
pub fn explore(model: &Model, config: &Config) -> Exploration {
    if let Some(coords) = Coords::new(model) {
        if let Some(space) = CoordSpace::new(model, &coords, &model.goal) {
            return frontier_search::explore(&space, config);
        }
    }
    explore_packed(model, config)
}

/// [`explore`] over packed states (colours at the compact positions), in a hash table, even
/// where the puzzle has coordinates.
pub fn explore_packed(model: &Model, config: &Config) -> Exploration {
    with_words!(model.words(), |W| {
        let space = PermSpace::<W>::new(model, None, &model.goal);
        frontier_search::explore(&space, config)
    })
}
