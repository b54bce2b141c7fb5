//! # frontier-board
//!
//! The robot on a board of letters, from the seed tutorial `002`: a robot enters a rectangle of
//! letters from below, turns `Left` and `Right` in place, steps `Forward` onto a cell with the
//! same letter and `Jump`s onto the next letter up; it must reach a target letter in the fewest
//! moves.
//!
//! - [`Board`] reads the board file format (rows of letters, an optional `*` line, an optional
//!   `X Y D` start line) with errors that give the line and column ([`ParseError`]).
//! - [`Puzzle`] is the search space: a board, [`Rules`] (`seed` or `lightbot`) and a target. It
//!   implements [`frontier_search::Space`] and [`frontier_search::Reversible`], so every solver of
//!   the engine runs on it: `bfs`, `iddfs` and `bidirectional` return a shortest solution, and
//!   `astar`/`idastar` too, with an admissible heuristic (the larger of the letters still to
//!   climb and the Manhattan distance to the nearest target cell). The tree searches (`iddfs`,
//!   `idastar`) keep no seen-set, so on a board with no way to the target they prove nothing
//!   until their bound passes the longest path without repeats, which grows exponentially:
//!   give them a `max_depth` or a timeout, or prove unsolvability with `bfs`.
//! - [`Puzzle::fast_bfs`] and [`Puzzle::fast_explore`] are the board's own breadth-first
//!   searches: one byte per possible state in a flat table instead of a hash set, the same
//!   answers as the engine's `bfs`/`explore` about ten times faster on large boards.
//! - A [`State`] is four bytes: a cell of the board padded with a ring of empty cells (the cell
//!   below column c is "off the board, below column c", where the `*` start waits) and a heading.
//!
//! ```
//! use frontier_board::{Board, Move, Puzzle, Rules};
//! use frontier_search::{bfs, Config};
//!
//! let board = Board::parse("AB\nAC\n*\n")?;
//! let puzzle = Puzzle::new(board, Rules::Seed, Some('C'))?;
//! let solution = bfs(&puzzle, &Config::default()).into_solution().unwrap();
//! assert_eq!(solution.len(), 6); // as the seed prints
//! assert_eq!(solution.moves[0], Move::Forward); // enter the board first
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Rules
//!
//! Under both rules the robot turns only on the board, and never steps off it; off the board
//! (before entering) it counts as standing on `A`. `seed`: Forward onto the same letter, Jump onto
//! the next letter (B from A). `lightbot`: Jump may also go down onto any lower letter.

#![warn(missing_docs)]

mod board;
mod fast;
mod space;

pub use board::{
    Board, Heading, ParseError, ParseErrorKind, ParseHeadingError, Place, Start, MAX_PADDED_CELLS,
};
pub use space::{Move, ParseRulesError, Puzzle, Rules, State, TargetError};
