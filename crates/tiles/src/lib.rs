//! # frontier-tiles
//!
//! Sliding-tile puzzles — the 8-, 15- and 24-puzzles and any `rows x cols` board up to 256
//! cells ([`MAX_CELLS`]: 16 x 16) — with the heuristics that made them the benchmark of heuristic search:
//!
//! - [`Puzzle`] reads the DESIGN input (`"8 6 7 2 5 4 3 0 1"`, the tiles row by row, `0` for the
//!   blank; the size inferred as a square or given as a [`Shape`]; an optional goal, by default
//!   `1 2 ... n-1 0`) with errors that name the line and column, and decides solvability by parity
//!   without searching.
//! - Moves ([`Dir`]) are named by the direction the blank moves: `U D L R`.
//! - Heuristics ([`HeuristicKind`]): Manhattan distance, Manhattan plus linear conflicts, and
//!   additive disjoint pattern databases ([`PatternDb`]: 6-6-3 on the 15-puzzle by default, 7-8
//!   on request, 6-6-6-6 on the 24-puzzle), built by backward BFS over (pattern placement,
//!   blank) and cached on disk with a version header and a checksum, for boards of up to
//!   64 cells ([`pdb::MAX_CELLS`]).
//! - [`Solver`]: IDA* specialised for tiles (in-place board, incremental heuristic, no
//!   allocation per node, the blank never steps back), optimal with every heuristic, in parallel
//!   with `threads > 1`. Memory: the board and the path, plus the pattern tables if used.
//! - [`TilesSpace`]: the same puzzle as a [`frontier_search::Space`] + `Reversible`, so every
//!   generic solver (BFS, A*, bidirectional, explore, ...) runs on it, over a compact `Copy`
//!   state: a `u64` (4 bits a cell) up to 16 cells, a `u128` up to 25, [`Wide`] beyond (a byte a cell).
//!
//! ```
//! use frontier_search::{Config, Status};
//! use frontier_tiles::{Estimate, Puzzle, Solver};
//!
//! // One of the two hardest 8-puzzle positions: 31 moves.
//! let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None)?;
//! assert!(puzzle.is_solvable());
//! let outcome = Solver::new(&puzzle, Estimate::Conflict)?.solve(puzzle.start(), &Config::default());
//! assert_eq!(outcome.status(), Status::Solved);
//! let moves = outcome.into_solution().unwrap().moves;
//! assert_eq!(moves.len(), 31);
//! assert_eq!(puzzle.replay(&moves).unwrap(), puzzle.goal());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod heuristic;
mod ida;
pub mod pdb;
mod space;
mod stages;

pub use board::{is_solvable, Dir, ParseError, Place, Puzzle, Shape, MAX_CELLS};
pub use frontier_tables::{BuildProgress, Cache, Origin, TableReport};
pub use heuristic::{HeuristicKind, ParseHeuristicError, Tables};
pub use ida::Solver;
pub use pdb::{choose_groups, GroupsError, PatternDb, PdbError};
pub use space::{over_narrowest, Encoding, Estimate, OverEncoding, TilesSpace, Wide};
pub use stages::solve_in_stages;

/// frontier's cache, where pattern databases are kept: `$FRONTIER_CACHE_DIR` if set and not
/// empty, else `frontier/` in the user's cache directory, else in the system's temporary
/// directory ([`Cache::default_root`]).
pub fn default_cache() -> Cache {
    Cache::from_env()
}
