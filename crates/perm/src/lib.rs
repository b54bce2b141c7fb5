//! # frontier-perm
//!
//! Permutation puzzles defined by their generators.
//!
//! A [`Puzzle`] is read from a `.perm` file (see the crate README for the format) or taken
//! from the [presets](preset); [`Group`] computes its exact order by Schreier-Sims, decides
//! whether a position can be reached, and counts the states its colouring tells apart.

mod analysis;
mod group;
mod perm;
mod preset;
mod prune;
mod puzzle;
mod solve;
mod space;

pub use analysis::{Analysis, Unreachable};
pub use group::{orbits, Group};
pub use perm::{Perm, MAX_POINTS};
pub use preset::{preset, Preset, PRESETS};
pub use prune::{Projection, Scratch, Tables};
pub use puzzle::{
    Generator, ParseError, Problem, Puzzle, Turn, COLOURS, MAX_FILE, MAX_GENERATORS, MAX_LINE,
    MAX_SCRAMBLE,
};
pub use solve::{explore, solve};
pub use space::{Metric, Model, Packed, PermSpace, UnknownMetric};
