//! # frontier-tables
//!
//! The distance tables of frontier's domains (the cube's pruning tables, the tiles' pattern
//! databases), made once for all of them:
//!
//! - [`Coordinates`]: a coordinate space, the projection of a puzzle onto numbers
//!   `0..len`, given by its size and the successors of a rank;
//! - [`Builder`]: a breadth-first search over such a space that fills a table of distances
//!   (the engine's [sweep](frontier_search::sweep) over the table's entries),
//!   in parallel, forwards or (once the entries left are fewer) backwards, stopping on a
//!   caller's limit check and reporting its progress; [`Table`] packs the distances in 2, 4
//!   or 8 bits an entry ([`Width`]); [`Builder::build_mod3`] builds a two-bit table in
//!   place, for spaces whose byte a rank would not fit in memory;
//! - [`file`](mod@file): one on-disk format (a header with a key, the entry width and count, and an
//!   xxh3 checksum), written to a temporary file and renamed, and checked when read;
//! - [`Cache`]: one cache directory (`$FRONTIER_CACHE_DIR`, or `frontier/` in the user's cache
//!   directory, or any directory a caller names), where a table is loaded, or built and
//!   saved, and what happened to it is returned as a [`TableReport`] rather than printed.
//!
//! ```
//! use std::ops::ControlFlow;
//! use frontier_tables::{Builder, Coordinates, Visit, Width};
//!
//! /// A ring of 10 positions, one step either way.
//! struct Ring;
//!
//! impl Coordinates for Ring {
//!     type Cursor = ();
//!     fn len(&self) -> usize {
//!         10
//!     }
//!     fn branching(&self) -> usize {
//!         2
//!     }
//!     fn cursor(&self) {}
//!     fn each_successor(
//!         &self,
//!         rank: usize,
//!         _: &mut (),
//!         visit: &mut impl Visit,
//!     ) -> ControlFlow<()> {
//!         visit.visit((rank + 1) % 10)?;
//!         visit.visit((rank + 9) % 10)
//!     }
//! }
//!
//! let distances = Builder::new().build(&Ring, &[0]).unwrap();
//! assert_eq!(distances, [0, 1, 2, 3, 4, 5, 4, 3, 2, 1]);
//! let packed = frontier_tables::Table::pack(&distances, Width::Two);
//! assert_eq!(packed.get(5), 5 % 3);
//! ```

mod build;
mod cache;
pub mod file;
mod packed;
mod space;

pub use build::{BuildProgress, Builder, Table, Width, UNREACHED};
pub use cache::{Cache, Origin, TableBytes, TableReport};
pub use file::{TableError, TableSpec};
pub use space::{Coordinates, Visit};
