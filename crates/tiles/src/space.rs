//! The tiles as a [`frontier_search::Space`], so every generic solver works on them.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use frontier_search::{Cost, Reversible, Space};

use crate::board::{Dir, Puzzle, Shape, MAX_CELLS};
use crate::heuristic::{HeuristicKind, Tables, NONE};
use crate::pdb::{PatternDb, PdbError};
use crate::rank::Ranking;

/// A compact `Copy` encoding of a layout, used as the engine's state.
///
/// Three encodings cover every board: [`u64`] (4 bits a cell, up to 16 cells: the 8- and
/// 15-puzzles), [`u128`] (5 bits a cell, up to 25 cells: the 24-puzzle) and [`Wide`] (a byte a
/// cell: `Wide<36>` up to a 6 x 6 board, `Wide<64>` up to 8 x 8, `Wide<100>` up to 10 x 10,
/// `Wide<256>` up to [`MAX_CELLS`]). The narrowest that holds a board is the fastest.
pub trait Encoding: Copy + Eq + Hash + Send + Sync + Debug + 'static {
    /// The most cells this encoding holds.
    const MAX_CELLS: usize;
    /// Encodes a layout of at most `MAX_CELLS` tiles.
    fn encode(tiles: &[u8]) -> Self;
    /// The tile in `cell`.
    fn get(&self, cell: usize) -> u8;
    /// Puts `tile` in `cell`.
    fn set(&mut self, cell: usize, tile: u8);
    /// A layout of at most 16 cells given a nibble a cell, cell 0 lowest: by default through
    /// [`Encoding::encode`]; the nibble encoding is the [`u64`] itself.
    #[inline]
    fn from_nibbles(nibbles: u64, cells: usize) -> Self {
        let mut tiles = [0u8; 16];
        for (c, tile) in tiles.iter_mut().enumerate() {
            *tile = (nibbles >> (4 * c) & 15) as u8;
        }
        Self::encode(&tiles[..cells.min(16)])
    }
    /// The layout of the first `cells` cells.
    fn decode(&self, cells: usize) -> Vec<u8> {
        (0..cells).map(|c| self.get(c)).collect()
    }
    /// Calls `f` with the layout of the first `cells` cells, a byte a cell, allocating nothing:
    /// by default a copy on the stack; an encoding that is already a byte a cell lends itself.
    #[inline]
    fn with_layout<R>(&self, cells: usize, f: impl FnOnce(&[u8]) -> R) -> R {
        let fill = |layout: &mut [u8]| {
            for (c, slot) in layout.iter_mut().enumerate() {
                *slot = self.get(c);
            }
        };
        // The packed encodings hold at most 25 cells: a small buffer is cheaper to clear.
        if cells <= 32 {
            let mut layout = [0u8; 32];
            fill(&mut layout[..cells]);
            f(&layout[..cells])
        } else {
            let mut layout = [0u8; MAX_CELLS];
            fill(&mut layout[..cells]);
            f(&layout[..cells])
        }
    }
}

/// Work generic over the encoding of a board's layouts, run by [`over_narrowest`].
pub trait OverEncoding {
    /// What the work gives back.
    type Output;
    /// Does the work over layouts encoded as `E`.
    fn run<E: Encoding>(self) -> Self::Output;
}

/// Runs `work` over the narrowest encoding that holds `cells` cells: the smaller a state, the
/// less it costs to hash, compare and store.
pub fn over_narrowest<W: OverEncoding>(cells: usize, work: W) -> W::Output {
    if cells <= u64::MAX_CELLS {
        work.run::<u64>()
    } else if cells <= u128::MAX_CELLS {
        work.run::<u128>()
    } else if cells <= Wide::<36>::MAX_CELLS {
        work.run::<Wide<36>>()
    } else if cells <= Wide::<64>::MAX_CELLS {
        work.run::<Wide<64>>()
    } else if cells <= Wide::<100>::MAX_CELLS {
        work.run::<Wide<100>>()
    } else {
        work.run::<Wide<256>>()
    }
}

impl Encoding for u64 {
    const MAX_CELLS: usize = 16;
    #[inline]
    fn from_nibbles(nibbles: u64, _cells: usize) -> Self {
        nibbles
    }
    fn encode(tiles: &[u8]) -> Self {
        tiles
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &t)| acc | (t as u64 & 15) << (4 * i))
    }
    #[inline]
    fn get(&self, cell: usize) -> u8 {
        (self >> (4 * cell) & 15) as u8
    }
    #[inline]
    fn set(&mut self, cell: usize, tile: u8) {
        *self = (*self & !(15 << (4 * cell))) | (tile as u64 & 15) << (4 * cell);
    }
}

impl Encoding for u128 {
    const MAX_CELLS: usize = 25;
    fn encode(tiles: &[u8]) -> Self {
        tiles
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &t)| acc | (t as u128 & 31) << (5 * i))
    }
    #[inline]
    fn get(&self, cell: usize) -> u8 {
        (self >> (5 * cell) & 31) as u8
    }
    #[inline]
    fn set(&mut self, cell: usize, tile: u8) {
        *self = (*self & !(31 << (5 * cell))) | (tile as u128 & 31) << (5 * cell);
    }
}

/// A byte per cell, for boards of up to `N` cells: `Wide<64>` up to an 8 x 8 board, `Wide<256>`
/// up to [`MAX_CELLS`] (a 16 x 16 board). The smaller, the less each state costs to hash,
/// compare and store.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Wide<const N: usize>(pub [u8; N]);

impl<const N: usize> Hash for Wide<N> {
    /// The bytes, as the array hashes them: equal layouts hash alike.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const N: usize> PartialEq for Wide<N> {
    /// Eight bytes at a time: the derived comparison called `memcmp`, 7% of weighted A* on a
    /// 6 x 6 board.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0.chunks_exact(8), other.0.chunks_exact(8));
        let word = |bytes: &[u8]| u64::from_ne_bytes(bytes.try_into().unwrap_or_default());
        a.remainder() == b.remainder() && a.zip(b).all(|(x, y)| word(x) == word(y))
    }
}

impl<const N: usize> Encoding for Wide<N> {
    const MAX_CELLS: usize = N;
    fn encode(tiles: &[u8]) -> Self {
        let mut w = [0u8; N];
        w[..tiles.len()].copy_from_slice(tiles);
        Wide(w)
    }
    #[inline]
    fn get(&self, cell: usize) -> u8 {
        self.0[cell]
    }
    #[inline]
    fn set(&mut self, cell: usize, tile: u8) {
        self.0[cell] = tile;
    }
    #[inline]
    fn with_layout<R>(&self, cells: usize, f: impl FnOnce(&[u8]) -> R) -> R {
        f(&self.0[..cells])
    }
}

/// A heuristic the generic solvers (`astar`, `idastar`) can call on a whole layout.
#[derive(Clone, Debug)]
pub enum Estimate {
    /// Always 0 (uninformed).
    Zero,
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    Conflict,
    /// Additive pattern databases.
    Pdb(Arc<PatternDb>),
}

impl Estimate {
    /// Whether this heuristic can guide a search on `tables`' board to its goal: always,
    /// except a pattern database built for another board or goal.
    pub(crate) fn check_fits(&self, tables: &Tables) -> Result<(), PdbError> {
        match self {
            Estimate::Pdb(db) => db.check_fits(tables),
            _ => Ok(()),
        }
    }

    /// The kind, if informed.
    pub fn kind(&self) -> Option<HeuristicKind> {
        match self {
            Estimate::Zero => None,
            Estimate::Manhattan => Some(HeuristicKind::Manhattan),
            Estimate::Conflict => Some(HeuristicKind::Conflict),
            Estimate::Pdb(_) => Some(HeuristicKind::Pdb),
        }
    }
}

/// A sliding-tile puzzle as a search space over the encoding `E`.
///
/// Moves are named by the direction the blank moves. Tree searches never undo the last move.
///
/// ```
/// use frontier_search::{bfs, Config, Status};
/// use frontier_tiles::{Puzzle, TilesSpace};
///
/// let puzzle = Puzzle::parse("1 2 3 4 5 6 0 7 8", None, None).unwrap();
/// let space = TilesSpace::<u64>::new(&puzzle);
/// let outcome = bfs(&space, &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// assert_eq!(outcome.into_solution().unwrap().moves.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct TilesSpace<E: Encoding> {
    tables: Arc<Tables>,
    start: E,
    goal: E,
    estimate: Estimate,
    /// The rank of the arrangements the start reaches, on boards small enough.
    ranking: Option<Ranking>,
}

impl<E: Encoding> TilesSpace<E> {
    /// The space of `puzzle`, guided by Manhattan distance. Panics if the board has more cells
    /// than `E` holds (check with [`Encoding::MAX_CELLS`]).
    pub fn new(puzzle: &Puzzle) -> Self {
        let n = puzzle.shape().cells();
        assert!(n <= E::MAX_CELLS, "{n} cells do not fit this encoding");
        TilesSpace {
            tables: Arc::new(Tables::new(puzzle)),
            start: E::encode(puzzle.start()),
            goal: E::encode(puzzle.goal()),
            estimate: Estimate::Manhattan,
            ranking: Ranking::new(puzzle.shape(), puzzle.start()),
        }
    }

    /// The same space with another heuristic; a pattern database must be for this board and
    /// goal.
    pub fn with_estimate(mut self, estimate: Estimate) -> Result<Self, PdbError> {
        estimate.check_fits(&self.tables)?;
        self.estimate = estimate;
        Ok(self)
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.tables.shape
    }

    /// The goal state.
    pub fn goal(&self) -> E {
        self.goal
    }

    fn blank(&self, state: &E) -> usize {
        (0..self.tables.cells())
            .find(|&c| state.get(c) == 0)
            .unwrap_or(0)
    }

    #[inline]
    fn slide(state: &E, blank: usize, to: usize) -> E {
        let mut next = *state;
        next.set(blank, state.get(to));
        next.set(to, 0);
        next
    }
}

impl<E: Encoding> Space for TilesSpace<E> {
    type State = E;
    type Move = Dir;

    fn start(&self) -> E {
        self.start
    }

    fn is_goal(&self, state: &E) -> bool {
        *state == self.goal
    }

    fn successors(&self, state: &E, last: Option<&Dir>, mut out: impl FnMut(Dir, E)) {
        let blank = self.blank(state);
        let back = last.map(|d| d.inverse());
        for d in Dir::ALL {
            let to = self.tables.neighbours[blank][d.index()];
            if to == NONE || Some(d) == back {
                continue;
            }
            out(d, Self::slide(state, blank, to as usize));
        }
    }

    /// Every slide is undone by sliding the same tile back.
    fn undirected(&self) -> bool {
        true
    }

    /// Every slide costs 1.
    fn max_step_cost(&self) -> Option<Cost> {
        Some(1)
    }

    fn heuristic(&self, state: &E) -> Cost {
        let h = state.with_layout(self.tables.cells(), |board| match &self.estimate {
            Estimate::Zero => 0,
            Estimate::Manhattan => self.tables.manhattan(board),
            Estimate::Conflict => self.tables.conflict(board),
            Estimate::Pdb(db) => db.estimate(board),
        });
        h as Cost
    }

    /// A layout's rank among the n!/2 arrangements its start reaches is a perfect index, and
    /// [`Space::state_at`] its inverse (both in time linear in the cells, see
    /// `crates/tiles/src/rank.rs`), so [`frontier_search::explore`] keeps two bits an
    /// arrangement and no layout: 45 KiB for the 8-puzzle, 57 MiB for a 3 x 4 board. Past 13
    /// cells the space offers no index (the engine then uses a hash table).
    ///
    /// ```
    /// use frontier_search::{explore, Config, Space};
    /// use frontier_tiles::{Puzzle, Shape, TilesSpace};
    ///
    /// let puzzle = Puzzle::parse("1 2 3 4 5 0", Some(Shape::parse("2x3").unwrap()), None).unwrap();
    /// let space = TilesSpace::<u64>::new(&puzzle);
    /// assert_eq!(space.index_bound(), Some(360)); // 6! / 2: half the arrangements can be reached
    /// let exploration = explore(&space, &Config::default());
    /// assert_eq!(exploration.states(), 360);
    /// ```
    fn index_bound(&self) -> Option<u64> {
        self.ranking.map(|r| r.bound())
    }

    /// Called only for the arrangements the start reaches (others may share their ranks).
    #[inline]
    fn index(&self, layout: &E) -> u64 {
        match &self.ranking {
            Some(ranking) => ranking.rank(layout),
            None => panic!("a board of more than 13 cells has no index"),
        }
    }

    #[inline]
    fn state_at(&self, index: u64) -> Option<E> {
        let ranking = self.ranking.as_ref()?;
        (index < ranking.bound()).then(|| ranking.unrank(index))
    }

    /// From the rank's digits: a horizontal slide keeps the tiles' order, and a vertical one
    /// changes as many of its digits as the board has columns.
    #[inline]
    fn indexed_successors(&self, index: u64, out: impl FnMut(u64, E)) {
        match &self.ranking {
            Some(ranking) => ranking.successors(index, out),
            None => panic!("a board of more than 13 cells has no index"),
        }
    }

    /// Neighbouring ranks share the leading digits of their tiles' order: they are unpacked
    /// once for the run.
    #[inline]
    fn indexed_successors_of_run(&self, run: &[u64], out: impl FnMut(u64, E)) {
        match &self.ranking {
            Some(ranking) => ranking.successors_of_run(run, true, out),
            None => panic!("a board of more than 13 cells has no index"),
        }
    }

    /// The blank's cell is a rank's leading digit, so a horizontal slide moves every rank of
    /// a block with the blank in one cell alike (on boards of at least 9 cells, whose blocks
    /// are whole words of the dense array).
    #[inline]
    fn index_shifts(&self, first: u64, out: impl FnMut(u64)) {
        if let Some(ranking) = self.ranking.filter(Ranking::shifts) {
            ranking.shifts_of(first, out);
        }
    }

    /// The vertical slides alone where [`Space::index_shifts`] gives the horizontal ones.
    #[inline]
    fn indexed_unshifted_successors_of_run(&self, run: &[u64], out: impl FnMut(u64, E)) {
        match &self.ranking {
            Some(ranking) => ranking.successors_of_run(run, !ranking.shifts(), out),
            None => panic!("a board of more than 13 cells has no index"),
        }
    }
}

impl<E: Encoding> Reversible for TilesSpace<E> {
    fn goals(&self) -> Vec<E> {
        vec![self.goal]
    }

    fn predecessors(&self, state: &E, mut out: impl FnMut(Dir, E)) {
        // `prev --d--> state` exactly when moving the blank of `state` by `d.inverse()` gives `prev`.
        let blank = self.blank(state);
        for d in Dir::ALL {
            let to = self.tables.neighbours[blank][d.index()];
            if to != NONE {
                out(d.inverse(), Self::slide(state, blank, to as usize));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontier_search::{bfs, bidirectional, explore, Config, Status, SHIFT_BLOCK};

    /// A space with its index hidden, so that the engine counts over a hash table.
    struct Hashed<'a>(&'a TilesSpace<u64>);

    impl Space for Hashed<'_> {
        type State = u64;
        type Move = Dir;
        fn start(&self) -> u64 {
            self.0.start()
        }
        fn is_goal(&self, state: &u64) -> bool {
            self.0.is_goal(state)
        }
        fn successors(&self, state: &u64, last: Option<&Dir>, out: impl FnMut(Dir, u64)) {
            self.0.successors(state, last, out)
        }
        fn undirected(&self) -> bool {
            self.0.undirected()
        }
    }

    #[test]
    fn encodings_round_trip() {
        let t: Vec<u8> = (0..16).rev().collect();
        assert_eq!(u64::encode(&t).decode(16), t);
        let t: Vec<u8> = (0..25).rev().collect();
        assert_eq!(u128::encode(&t).decode(25), t);
        let t: Vec<u8> = (0..64).rev().collect();
        assert_eq!(Wide::<64>::encode(&t).decode(64), t);
        let t: Vec<u8> = (0..=255).rev().collect();
        assert_eq!(Wide::<256>::encode(&t).decode(256), t);
    }

    #[test]
    fn every_encoding_lends_its_layout() {
        fn lent<E: Encoding>(cells: usize) {
            let t: Vec<u8> = (0..cells).rev().map(|c| c as u8).collect();
            E::encode(&t).with_layout(cells, |layout| assert_eq!(layout, &t[..], "{cells}"));
        }
        lent::<u64>(16);
        lent::<u64>(9);
        lent::<u128>(25);
        lent::<Wide<36>>(36);
        lent::<Wide<36>>(30);
        lent::<Wide<64>>(64);
        lent::<Wide<256>>(256);
    }

    #[test]
    fn wide_layouts_are_equal_only_in_every_byte() {
        // 36 bytes: four words of eight and a tail of four, compared apart.
        let t: Vec<u8> = (0..36).collect();
        let a = Wide::<36>::encode(&t);
        assert_eq!(a, Wide::<36>::encode(&t));
        for cell in [0, 7, 8, 31, 32, 35] {
            let mut b = a;
            b.set(cell, 99);
            assert_ne!(a, b, "cell {cell}");
        }
    }

    #[test]
    fn eight_puzzle_has_181440_states_and_diameter_31() {
        // Reinefeld (1993) and others: 9!/2 = 181,440 reachable layouts, the farthest 31 moves away.
        let shape = Shape::new(3, 3).unwrap();
        let goal = shape.default_goal();
        let puzzle = Puzzle::new(shape, &goal, &goal).unwrap();
        let space = TilesSpace::<u64>::new(&puzzle);
        for ex in [
            explore(&Hashed(&space), &Config::default()),
            explore(&space, &Config::default()),
        ] {
            assert!(ex.is_complete());
            assert_eq!(ex.states(), 181_440);
            assert_eq!(ex.layers.len() - 1, 31);
            assert_eq!(*ex.layers.last().unwrap(), 2);
        }
    }

    #[test]
    fn indexed_successors_are_the_successors_with_their_ranks() {
        // Every rank of each board: the successors worked out from the rank's digits are the
        // slides of its layout, each with its own rank.
        for (rows, cols) in [(1, 2), (1, 3), (2, 2), (3, 3), (2, 4), (4, 2), (2, 5)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = shape.default_goal();
            let space = TilesSpace::<u64>::new(&Puzzle::new(shape, &goal, &goal).unwrap());
            let bound = space.index_bound().unwrap();
            let reachable = if rows == 1 {
                shape.cells() as u64
            } else {
                bound
            };
            for index in 0..reachable {
                let index = if rows == 1 {
                    space.index(&line(&goal, index))
                } else {
                    index
                };
                let state = space.state_at(index).unwrap();
                assert_eq!(space.index(&state), index);
                let mut fast = Vec::new();
                space.indexed_successors(index, |i, next| fast.push((i, next)));
                let mut slow = Vec::new();
                space.successors(&state, None, |_, next| {
                    slow.push((space.index(&next), next))
                });
                fast.sort_unstable();
                slow.sort_unstable();
                assert_eq!(fast, slow, "{rows}x{cols} rank {index}");
            }
        }
    }

    #[test]
    fn successors_of_a_run_of_ranks_are_each_ranks_successors() {
        // Runs through every rank and through sparse ascending runs with gaps of every size
        // (the cursor keeps the leading digits only while they are shared), and runs that go
        // down: each rank's successors as if expanded alone.
        for (rows, cols) in [(2, 2), (3, 3), (2, 4), (4, 2), (2, 5), (3, 4)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = shape.default_goal();
            let space = TilesSpace::<u64>::new(&Puzzle::new(shape, &goal, &goal).unwrap());
            let bound = space.index_bound().unwrap();
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            let mut step = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let dense: Vec<u64> = (0..bound.min(200_000)).collect();
            let sparse: Vec<u64> = std::iter::successors(Some(0u64), |&r| {
                let gap = 1 + step() % (1 << (step() % 24));
                Some(r + gap).filter(|&r| r < bound)
            })
            .take(20_000)
            .collect();
            let down: Vec<u64> = sparse.iter().rev().copied().collect();
            for run in [&dense, &sparse, &down] {
                let mut together = Vec::new();
                space.indexed_successors_of_run(run, |i, next| together.push((i, next)));
                let mut alone = Vec::new();
                for &index in run.iter() {
                    space.indexed_successors(index, |i, next| alone.push((i, next)));
                }
                assert_eq!(together.len(), alone.len(), "{rows}x{cols}");
                if let Some(at) = (0..alone.len()).find(|&i| together[i] != alone[i]) {
                    panic!(
                        "{rows}x{cols}: successor {at} of the run differs: {:?}, alone {:?}",
                        together[at], alone[at]
                    );
                }
            }
        }
    }

    #[test]
    fn shifts_and_the_other_successors_make_all_of_them() {
        // Each word of ranks: the successors by the shifts of its block (the horizontal
        // slides, on boards whose block of one blank cell is whole words) and the others of
        // its ranks are its ranks' successors, each once. 2x4's blocks of 7!/2 = 2520 ranks
        // are not whole words: no shifts, every successor by rank.
        for (rows, cols, shifted) in [(3, 3, true), (2, 5, true), (2, 4, false), (3, 4, true)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = shape.default_goal();
            let space = TilesSpace::<u64>::new(&Puzzle::new(shape, &goal, &goal).unwrap());
            let bound = space.index_bound().unwrap();
            let mut any = false;
            for first in (0..bound.min(400_000)).step_by(SHIFT_BLOCK as usize) {
                let run: Vec<u64> = (first..(first + SHIFT_BLOCK).min(bound)).collect();
                let mut split = Vec::new();
                space.index_shifts(first, |to| {
                    any = true;
                    split.extend((0..run.len() as u64).map(|j| (first + j, to + j)));
                });
                for &r in &run {
                    space.indexed_unshifted_successors_of_run(&[r], |i, next| {
                        assert_eq!(space.index(&next), i);
                        split.push((r, i));
                    });
                }
                let mut all = Vec::new();
                for &r in &run {
                    space.indexed_successors(r, |i, _| all.push((r, i)));
                }
                split.sort_unstable();
                all.sort_unstable();
                assert_eq!(split, all, "{rows}x{cols} from {first}");
            }
            assert_eq!(any, shifted, "{rows}x{cols}");
        }
    }

    /// The goal of a line of tiles with its blank moved to cell `blank`.
    fn line(goal: &[u8], blank: u64) -> u64 {
        let mut tiles: Vec<u8> = goal.iter().copied().filter(|&t| t != 0).collect();
        tiles.insert(blank as usize, 0);
        u64::encode(&tiles)
    }

    #[test]
    fn dense_counts_equal_hashed_ones_on_any_threads() {
        // Every board of 8 to 10 cells, explored densely (over ranks) on one and two threads
        // and over a hash table: the same layers, n!/2 states in all.
        for (rows, cols) in [(2, 4), (4, 2), (3, 3), (2, 5)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = shape.default_goal();
            let space = TilesSpace::<u64>::new(&Puzzle::new(shape, &goal, &goal).unwrap());
            let hashed = explore(&Hashed(&space), &Config::default());
            let half: u64 = (1..=shape.cells() as u64).product::<u64>() / 2;
            assert_eq!(hashed.states(), half);
            for threads in [1, 2] {
                let config = Config::default().threads(threads);
                let dense = explore(&space, &config);
                assert_eq!(
                    dense.layers, hashed.layers,
                    "{rows}x{cols}, {threads} threads"
                );
                assert!(dense.is_complete());
                assert_eq!(dense.stats.expanded, half);
            }
        }
    }

    /// The 4x3 board's layers from the goal, as `frontier explore tiles --size 4x3` printed them
    /// at d3d4f9d (hash tables and bits): 239,500,800 states, the farthest 53 moves away.
    const LAYERS_4X3: [u64; 54] = [
        1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1_392, 2_494, 4_442, 7_854, 13_899, 24_215,
        41_802, 71_167, 119_888, 198_363, 323_206, 515_778, 811_000, 1_248_011, 1_885_279,
        2_782_396, 4_009_722, 5_621_354, 7_647_872, 10_065_800, 12_760_413, 15_570_786, 18_171_606,
        20_299_876, 21_587_248, 21_841_159, 20_906_905, 18_899_357, 16_058_335, 12_772_603,
        9_515_217, 6_583_181, 4_242_753, 2_503_873, 1_350_268, 643_245, 270_303, 92_311, 27_116,
        5_390, 1_115, 86, 18,
    ];

    #[test]
    #[ignore = "counts 239,500,800 states: half a minute of CPU in release, far more in debug"]
    fn the_4x3_board_has_239500800_states_in_the_layers_of_a_hashed_count() {
        // 12!/2 arrangements; the layers as main's explore (hash tables and bits) printed them
        // at d3d4f9d (`frontier explore tiles --size 4x3`).
        let shape = Shape::new(4, 3).unwrap();
        let goal = shape.default_goal();
        let space = TilesSpace::<u64>::new(&Puzzle::new(shape, &goal, &goal).unwrap());
        let exploration = explore(&space, &Config::default().threads(2));
        assert_eq!(exploration.layers, LAYERS_4X3);
        assert_eq!(exploration.states(), 239_500_800);
    }

    /// The layers within `depth` moves of the goal of a `side x side` board, over encoding `E`.
    fn layers_near_goal<E: Encoding>(side: usize, depth: u32) -> Vec<u64> {
        let shape = Shape::new(side, side).unwrap();
        let goal = shape.default_goal();
        let puzzle = Puzzle::new(shape, &goal, &goal).unwrap();
        let config = Config {
            max_depth: Some(depth),
            ..Config::default()
        };
        explore(&TilesSpace::<E>::new(&puzzle), &config).layers
    }

    #[test]
    fn every_encoding_counts_the_same_corner_layers() {
        // Within d moves of a corner, the blank never reaches row or column d, so every board
        // of more than d rows and columns has the same layers: the encodings must agree.
        let small = layers_near_goal::<u64>(4, 3);
        assert_eq!(small, [1, 2, 4, 10]);
        assert_eq!(layers_near_goal::<u128>(5, 3), small);
        assert_eq!(layers_near_goal::<Wide<36>>(6, 3), small);
        assert_eq!(layers_near_goal::<Wide<64>>(8, 3), small);
        assert_eq!(layers_near_goal::<Wide<100>>(10, 3), small);
        assert_eq!(layers_near_goal::<Wide<256>>(16, 3), small);
        let deep = layers_near_goal::<Wide<64>>(8, 7);
        assert_eq!(deep.len(), 8);
        assert_eq!(layers_near_goal::<Wide<100>>(10, 7), deep);
        assert_eq!(layers_near_goal::<Wide<256>>(9, 7), deep);
        assert_eq!(layers_near_goal::<Wide<256>>(16, 7), deep);
    }

    #[test]
    fn a_16x16_board_is_solved_by_the_generic_solvers() {
        // Six moves from the goal of the largest square board, solved over the widest state.
        let shape = Shape::new(16, 16).unwrap();
        let goal = shape.default_goal();
        let moves = [Dir::U, Dir::L, Dir::L, Dir::U, Dir::R, Dir::D];
        let start = Puzzle::new(shape, &goal, &goal)
            .unwrap()
            .replay(&moves)
            .unwrap();
        let puzzle = Puzzle::new(shape, &start, &goal).unwrap();
        let space = TilesSpace::<Wide<256>>::new(&puzzle);
        let a = bfs(&space, &Config::default());
        let b = bidirectional(&space, &Config::default());
        let (a, b) = (a.solution().unwrap(), b.solution().unwrap());
        assert_eq!(a.len(), 6);
        assert_eq!(b.len(), 6);
        assert_eq!(puzzle.replay(&b.moves).unwrap(), puzzle.goal());
    }

    #[test]
    fn bidirectional_agrees_with_bfs() {
        let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None).unwrap();
        let space = TilesSpace::<u64>::new(&puzzle);
        let a = bfs(&space, &Config::default());
        let b = bidirectional(&space, &Config::default());
        assert_eq!(a.status(), Status::Solved);
        assert_eq!(a.solution().as_ref().unwrap().len(), 31);
        assert_eq!(b.solution().as_ref().unwrap().len(), 31);
        let moves = &b.solution().unwrap().moves;
        assert_eq!(puzzle.replay(moves).unwrap(), puzzle.goal());
    }
}
