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
//! - [`cache`]: the heuristic's tables on disk (`frontier/cube/` in the user's cache
//!   directory, or `$FRONTIER_CACHE_DIR/cube/`), checked when loaded (header, size, FNV-1a
//!   checksum) and rebuilt when missing or damaged; an unwritable cache only costs the build.
//!
//! ```
//! use frontier_cube::{write_moves, Cube, CubeSpace, Facelets, Metric, Notation};
//! use frontier_search::{bidirectional, Config};
//!
//! // The seed's example, in its own notation: B l U L B, solved in 5 quarter turns.
//! let cube = Cube::from_scramble("B l U L B", Notation::Seed).unwrap();
//! let outcome = bidirectional(&CubeSpace::new(cube, Metric::Qtm), &Config::default());
//! let solution = outcome.solution.unwrap();
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
//! Solvers: the command line defaults to `idastar` with the [`Heuristic`] (fewest moves, memory
//! linear in the depth); `bidirectional` keeps both seen-sets in memory; `iddfs` has no
//! heuristic; `bfs` stores the whole ball around the scramble and suits only short ones. The dedicated cube solvers (optimal, two-phase) are not
//! built yet.
//!
//! ## Measured: `bidirectional`, HTM, release build
//!
//! Ten seeded random scrambles of each length (`crates/cube/benches/bidirectional.sh`, one
//! process per scramble, `/usr/bin/time`; 2-core machine shared with other jobs, load 3-7, so
//! wall time is inflated and CPU time is the steadier figure). Every optimal solution was as
//! long as its scramble.
//!
//! | scramble | states stored (median) | wall s (min / median / max) | CPU s (median) | peak RSS (median / max) |
//! |---|---|---|---|---|
//! | 10 moves | 0.8 M | 0.13 / 0.15 / 0.26 | 0.08 | 28 MiB / 40 MiB |
//! | 12 moves | 11.2 M | 3.2 / 5.1 / 10.2 | 2.9 | 0.33 GiB / 0.43 GiB |
//! | 14 moves | 148 M | 91 / 121 / 172 | 59 | 3.9 GiB / 5.0 GiB |
//!
//! A 14-move scramble needs one side's whole ball of radius 7 (109,043,123 positions, OEIS
//! A080583) plus part of the other side's layer 7; profiling shows the engine's hash-set insertions and table
//! growth take about two thirds of the time, the cube's moves under a tenth.
//!
//! For comparison, `--algo idastar` with the built-in [`Heuristic`] (mean estimate 7.5 HTM on
//! a random cube) stores nothing (13 MiB peak RSS, tables included): the first 12-move
//! scramble above took 0.7 s, the first three 14-move ones 65-130 s wall (53-96 s CPU). Both
//! are far from "14 moves within seconds", which needs the dedicated solvers of a later issue.

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
mod moves;
mod notation;
mod space;
mod symmetry;
mod twophase;

pub use cube::{random_scramble, scramble_facelets, Cube};
pub use cubie::CubieCube;
pub use error::{CubeError, NotationError};
pub use facelet::Facelets;
pub use geometry::Face;
pub use heuristic::Heuristic;
pub use moves::{Metric, Move};
pub use notation::{parse, parse_moves, write_moves, Notation, Turn, TurnKind};
pub use space::CubeSpace;
pub use symmetry::{canonical, symmetries, unfold, view, SymmetricCubeSpace, SYMMETRIES};
pub use twophase::TwoPhase;
