//! # frontier-cube
//!
//! The 3x3x3 Rubik's cube as a first-class search domain: the seed's puzzle, with every move
//! derived from the cube's geometry and every convention the one cube software uses.
//!
//! - [`geometry`]: the 54 facelets as points in space; a turn of any set of layers is a
//!   rotation of those points, which gives every facelet permutation. Nothing is pasted in.
//! - [`Facelets`]: the facelet model (54 colours, the URFDLB string of Kociemba's format), for
//!   input, output, drawing, and as an independent checker of solutions.
//! - [`CubieCube`]: the cubie model with Kociemba's conventions (corners URF UFL ULB UBR DFR
//!   DLF DBL DRB, edges UR UF UL UB DR DF DL DB FR FL BL BR), whose face moves are read off
//!   the facelet model; conversions both ways refuse impossible cubes with the reason
//!   ([`CubeError`]).
//! - [`Cube`]: the cubie model packed in a `u128`, `Copy`, with table-driven face moves: the
//!   search state.
//! - [`parse`]: WCA notation (with wide, slice and rotation moves, normalised away so the
//!   centres stay fixed) and the seed's letters ([`Notation`]).
//! - [`CubeSpace`]: the engine's [`frontier_search::Space`] and
//!   [`frontier_search::Reversible`] in either [`Metric`], with move pruning and an
//!   admissible [`Heuristic`] for `astar`/`idastar`.
//! - [`cache`]: the tables on disk (`frontier/cube/` in the user's cache directory, or
//!   `$FRONTIER_CACHE_DIR/cube/`) in frontier's one table format ([`frontier_tables`]),
//!   checked when loaded and rebuilt when missing or damaged; an unwritable cache only costs
//!   the build. What happened to each table is returned as a [`frontier_tables::TableReport`].
//! - [`Optimal`]: a shortest solution of any cube, by IDA* bounded by the distance to G1
//!   along all three axes (a 35 MB table reduced by symmetry, cached the same way).
//! - [`TwoPhase`]: Kociemba's two-phase algorithm on the optimal solver's phase-1 table, its
//!   phase-2 tables cached the same way; random-state [`Scrambles`].
//!
//! ```
//! use frontier_cube::{write_moves, Cube, CubeSpace, Facelets, Metric, Notation};
//! use frontier_search::{bidirectional, Config};
//!
//! // The seed's example, in its own notation: B l U L B, solved in 5 quarter turns.
//! let cube = Cube::from_scramble("B l U L B", Notation::Seed).unwrap();
//! let outcome = bidirectional(&CubeSpace::new(cube, Metric::Qtm), &Config::default());
//! let solution = outcome.into_solution().unwrap();
//! assert_eq!(write_moves(&solution.moves, Notation::Seed), "b l u L b");
//!
//! // Replay it on the facelet model, which knows nothing of cubies.
//! let mut facelets = cube.to_facelets();
//! for &mv in &solution.moves {
//!     facelets.apply(mv);
//! }
//! assert_eq!(facelets, Facelets::SOLVED);
//! ```
//!
//! Solvers: the command line defaults to [`Optimal`] (a shortest solution; 14-move scrambles
//! in a fifth of a second, 16 moves in seconds); the generic solvers run too:
//! `bidirectional` search on [`SymmetricCubeSpace`] (classes of cubes under the 48
//! symmetries; 14-move scrambles in seconds), `idastar` with the [`Heuristic`] (little memory,
//! slowly); and [`TwoPhase`] (Kociemba's algorithm) solves any cube in at most 20 moves,
//! fast, not always the fewest, and makes random-state scrambles. `crates/cube/README.md` gives the measured
//! figures and how to reproduce them.

// Cubie arrays are indexed in parallel (position i of cp, co, and the facelet tables): index
// loops say that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod cache;
mod cube;
mod cubie;
mod error;
mod facelet;
pub mod geometry;
mod heuristic;
mod huge;
mod moves;
mod notation;
mod optimal;
mod space;
mod symmetry;
mod twophase;

pub use cube::{random_scramble, scramble_facelets, Cube};
pub use cubie::CubieCube;
pub use error::{CubeError, NotationError, ParseMetricError, ParseNotationError};
pub use facelet::Facelets;
pub use frontier_tables::BuildProgress;
pub use geometry::Face;
pub use heuristic::Heuristic;
pub use moves::{Metric, Move};
pub use notation::{parse, parse_moves, write_moves, Notation, Turn, TurnKind};
pub use optimal::{Optimal, TableSize, FLIPSLICE_CLASSES};
pub use space::CubeSpace;
pub use symmetry::{canonical, symmetries, unfold, view, SymmetricCubeSpace, SYMMETRIES};
pub use twophase::{Scramble, Scrambles, TwoPhase};

/// The value behind a mutex, even if another worker panicked while holding it.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
