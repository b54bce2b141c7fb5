//! # frontier-perm
//!
//! Permutation puzzles defined by their generators, in GAP's cycle notation.
//!
//! - [`Puzzle`] reads a `.perm` file (named generators, `#` comments, an optional `colours:`
//!   line of points carrying identical pieces; the README gives the format), scrambles
//!   ([`Puzzle::parse_moves`]) and positions ([`Puzzle::parse_position`]), with errors that
//!   name the line and column; [`PRESETS`] holds the 3x3x3 of the seed (GAP's 48 facets),
//!   the 2x2x2, Pyraminx, Skewb, Megaminx and TopSpin.
//! - [`Group`] is the generators' stabiliser chain (Schreier-Sims): the exact order,
//!   membership, and the elements that keep the colouring; [`Analysis`] adds the orbits and
//!   parity, and says why a position is [`Unreachable`].
//! - [`Model`] is the puzzle in a [`Metric`] (`htm`: every power of a generator one move;
//!   `qtm`: the generators and their inverses), with canonical move sequences; [`Tables`]
//!   are its pruning tables over orbit projections, built and cached through
//!   `frontier-tables`; [`solve`] and [`explore`] run the engine's solvers over it.
//! - [`Puzzle::read_tws`] reads twsearch and KSolve definition files (`Set`, `Solved`, `Move`
//!   blocks) into the same puzzle, each orientation of a piece a point of its own
//!   ([`Format::detect`] tells the two formats apart).
//! - [`Chain`] answers any position at once, not in the fewest moves: a stabiliser chain of
//!   words in the moves, shortened by Minkwitz's method.
//!
//! ```
//! use frontier_perm::{preset, solve, Analysis, Metric, Model, Tables};
//! use frontier_search::{Algorithm, Config};
//!
//! let cube = preset("cube3").unwrap().puzzle();
//! assert_eq!(Analysis::of(&cube).order.to_string(), "43252003274489856000");
//! // The seed's scramble, B applied first, and its five quarter turns back.
//! let position = cube.apply(&cube.parse_moves("B L' U L B")?);
//! let model = Model::new(&cube, Metric::Qtm);
//! let tables = Tables::build(&model, 1 << 12, None, &Default::default()).unwrap();
//! let outcome = solve(&model, Some(&tables), &model.colours_of(&position), Algorithm::Idastar, &Config::default());
//! let moves: Vec<String> = outcome.into_solution().unwrap().moves.iter().map(|&t| cube.turn_name(t)).collect();
//! assert_eq!(moves, ["B'", "L'", "U'", "L", "B'"]);
//! # Ok::<(), frontier_perm::ParseError>(())
//! ```

mod analysis;
mod chain;
mod group;
mod perm;
mod preset;
mod prune;
mod puzzle;
mod solve;
mod space;
mod tws;

pub use analysis::{Analysis, Unreachable};
pub use chain::{Chain, ChainBudget};
pub use group::{orbits, Group};
pub use perm::{Perm, MAX_POINTS};
pub use preset::{preset, Preset, PRESETS};
pub use prune::{Projection, Scratch, Tables};
pub use puzzle::{
    Generator, ParseError, Problem, Puzzle, Turn, COLOURS, MAX_FILE, MAX_GENERATORS, MAX_LINE,
    MAX_SCRAMBLE,
};
pub use solve::{explore, solve, with_space, WithSpace};
pub use space::{Metric, Model, Packed, PermSpace, UnknownMetric};
pub use tws::{Format, MAX_ORIENTATIONS};
