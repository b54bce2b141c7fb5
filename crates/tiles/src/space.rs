//! The tiles as a [`frontier_search::Space`], so every generic solver works on them.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use frontier_search::{Cost, Reversible, Space};

use crate::board::{Dir, Puzzle, Shape, MAX_CELLS};
use crate::heuristic::{HeuristicKind, Tables, NONE};
use crate::pdb::{PatternDb, PdbError};

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

    /// A layout's rank among the n! arrangements of its n tiles (its Lehmer code) is a perfect
    /// index, so [`frontier_search::bfs`] and [`frontier_search::explore`] can keep one bit per
    /// arrangement: 45 KiB for the 8-puzzle, 57 MiB for a 3 x 4 board. Past 13 cells the bits
    /// would take more than the engine's bit sets hold, and the space offers no index (the
    /// engine then uses a hash table).
    ///
    /// ```
    /// use frontier_search::{explore, Config, Space};
    /// use frontier_tiles::{Puzzle, Shape, TilesSpace};
    ///
    /// let puzzle = Puzzle::parse("1 2 3 4 5 0", Some(Shape::parse("2x3").unwrap()), None).unwrap();
    /// let space = TilesSpace::<u64>::new(&puzzle);
    /// assert_eq!(space.index_bound(), Some(720));
    /// let exploration = explore(&space, &Config::default());
    /// assert_eq!(exploration.states(), 360); // 6! / 2: half the arrangements can be reached
    /// ```
    fn index_bound(&self) -> Option<u64> {
        let cells = self.tables.cells();
        (cells <= RANKED_CELLS).then(|| (1..=cells as u64).product())
    }

    #[inline]
    fn index(&self, layout: &E) -> u64 {
        // Cell c's digit: how many tiles after it are smaller than its own (its own number,
        // less the smaller tiles before it), weighted by the arrangements of the cells after
        // it, (n - 1 - c)!. The weights come from a table, so that no chain of multiplications
        // holds the sum up.
        let n = self.tables.cells();
        let (mut before, mut rank) = (0u32, 0);
        for (cell, weight) in FACTORIALS[..n].iter().rev().enumerate() {
            let tile = u32::from(layout.get(cell));
            let digit = tile - u32::from(ONES[(before & ((1 << tile) - 1)) as usize]);
            rank += u64::from(digit) * weight;
            before |= 1 << tile;
        }
        rank
    }
}

/// The most cells a board may have for [`TilesSpace`] to offer a perfect index: 13! bits are
/// within the 2^33 the engine's bit sets take, 14! are not.
const RANKED_CELLS: usize = 13;

/// `FACTORIALS[k]` is k!, for k up to 15.
const FACTORIALS: [u64; 16] = {
    let mut table = [1u64; 16];
    let mut k = 1;
    while k < 16 {
        table[k] = table[k - 1] * k as u64;
        k += 1;
    }
    table
};

/// `ONES[mask]`: how many bits `mask` sets, for the rank's masks of the tiles below a tile
/// (at most 15 of them). A table, because the baseline x86-64 target has no popcount
/// instruction, and its emulation took a large share of an exploration's time.
static ONES: [u8; 1 << 15] = {
    let mut table = [0u8; 1 << 15];
    let mut mask = 1;
    while mask < 1 << 15 {
        table[mask] = table[mask >> 1] + (mask & 1) as u8;
        mask += 1;
    }
    table
};

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
    use frontier_search::{bfs, bidirectional, explore, Config, Status};

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
    fn ranks_number_the_arrangements_from_0_to_n_factorial() {
        // Every arrangement of a 2x4 board's tiles (all 8!, reachable or not), in an order that
        // is not the ranks' own: each rank below 8! and none twice; the identity ranks 0 and the
        // reversed order 8! - 1, as a Lehmer code does.
        let shape = Shape::new(2, 4).unwrap();
        let goal = shape.default_goal();
        let space = TilesSpace::<u64>::new(&Puzzle::new(shape, &goal, &goal).unwrap());
        assert_eq!(space.index_bound(), Some(40_320));
        let mut seen = vec![false; 40_320];
        let mut tiles: Vec<u8> = (0..8).collect();
        assert_eq!(space.index(&u64::encode(&tiles)), 0);
        // Heap's algorithm: every permutation once.
        let mut counters = [0usize; 8];
        let mut visit = |tiles: &[u8]| {
            let rank = space.index(&u64::encode(tiles)) as usize;
            assert!(rank < 40_320, "{tiles:?}");
            assert!(!seen[rank], "{tiles:?} shares rank {rank}");
            seen[rank] = true;
        };
        visit(&tiles);
        let mut i = 1;
        while i < 8 {
            if counters[i] < i {
                let j = if i % 2 == 0 { 0 } else { counters[i] };
                tiles.swap(j, i);
                visit(&tiles);
                counters[i] += 1;
                i = 1;
            } else {
                counters[i] = 0;
                i += 1;
            }
        }
        assert!(seen.iter().all(|&s| s));
        let reversed: Vec<u8> = (0..8).rev().collect();
        assert_eq!(space.index(&u64::encode(&reversed)), 40_319);
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
