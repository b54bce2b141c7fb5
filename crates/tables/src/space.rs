//! Coordinate spaces: a puzzle projected onto the numbers `0..len`.

use std::ops::ControlFlow;

/// A coordinate space: the ranks `0..len()` of a projection of a puzzle (a corner twist, a
/// placement of some tiles, a pair of such coordinates) and the ranks one move away from
/// each. The [`Builder`](crate::Builder) fills a table of distances over it.
///
/// A table built backwards (see [`Builder::backwards`](crate::Builder::backwards)) looks
/// for an unreached rank's predecessors among its successors: that needs every move to be
/// undone by a move, which holds for the cube's and the tiles' moves.
pub trait Coordinates: Sync {
    /// What a worker keeps between successive ranks to find their successors faster (the
    /// unranked placement of the previous rank, say); `()` if nothing.
    type Cursor: Send;

    /// The number of ranks.
    fn len(&self) -> usize;

    /// Whether the space has no rank.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most successors a rank has: with the size of a layer, what a forward layer costs,
    /// which decides when the builder turns backwards.
    fn branching(&self) -> usize;

    /// A fresh cursor for one worker.
    fn cursor(&self) -> Self::Cursor;

    /// Calls `visit` on the ranks one move away from `rank`, stopping early (and returning
    /// `Break`) when `visit` does. The builder asks for ranks in increasing order within each
    /// worker's chunk, so a cursor may keep what consecutive ranks share.
    fn each_successor(
        &self,
        rank: usize,
        cursor: &mut Self::Cursor,
        visit: &mut impl Visit,
    ) -> ControlFlow<()>;
}

/// What [`Coordinates::each_successor`] hands its ranks to: the builder's, or any closure
/// `FnMut(usize) -> ControlFlow<()>` (which knows of no rank as reached).
pub trait Visit {
    /// Takes a successor; `Break` to stop.
    fn visit(&mut self, rank: usize) -> ControlFlow<()>;

    /// Whether `rank` is already known to the build (reached in an earlier layer or this
    /// one): a space may test one rank before working out others that share its fate (the
    /// whole region of a puzzle's free cells, say), and skip them all. Never required for a
    /// correct table.
    fn reached(&self, rank: usize) -> bool;
}

impl<F: FnMut(usize) -> ControlFlow<()>> Visit for F {
    fn visit(&mut self, rank: usize) -> ControlFlow<()> {
        self(rank)
    }

    fn reached(&self, _: usize) -> bool {
        false
    }
}
