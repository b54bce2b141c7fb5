//! A perfect rank of the arrangements reachable from one layout, and its inverse, each in time
//! linear in the cells.
//!
//! Half of a board's `n!` arrangements can be reached from a given one (for boards of at least
//! two rows and two columns; fewer on a single line). With the blank in a given cell, the
//! tiles read in cell order make a permutation of one parity only: a horizontal slide keeps
//! their order, and a vertical one moves a tile past the `cols - 1` tiles between its cell and
//! the blank's. So an arrangement is ranked as `blank * (n - 1)! / 2 + h`, where `h` is the
//! rank of the tiles' order among the `(n - 1)! / 2` orders of that parity: its Lehmer code
//! without the last two digits (the last is always 0, and the one before it follows from the
//! parity). The blank's cell comes first, so that a horizontal slide moves a rank by a whole
//! block of `(n - 1)! / 2`, the same for every rank of the block: the consecutive ranks of a
//! layer have consecutive successors, and a word of entries moves as one.

use frontier_search::SHIFT_BLOCK;

use crate::board::Shape;
use crate::space::Encoding;

/// The most cells a board may have to be ranked: `13! / 2` ranks (778 MB at two bits each)
/// are within what the engine's dense arrays take; and below it every `h` is under 2^32, which
/// the unrank's divisions need.
pub(crate) const RANKED_CELLS: usize = 13;

/// `HALF[k]` is `k! / 2` for `k >= 2`, the weight of the Lehmer digit with `k` places after
/// it in a half rank; 0 for the two last digits, which a half rank leaves out.
const HALF: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut factorial = 2u64;
    let mut k = 2;
    while k < 16 {
        table[k] = factorial / 2;
        factorial *= (k + 1) as u64;
        k += 1;
    }
    table
};

/// `RECIPROCAL[k]` is `2^64 / HALF[k]`, rounded up: for any `x` below 2^32, `x / HALF[k]` is
/// the high word of `x * RECIPROCAL[k]` (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019), a multiplication where a division takes several times longer. From
/// `k = 3`: `HALF[2]` is 1, and its digit is what is left.
const RECIPROCAL: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut k = 3;
    while k < 16 {
        table[k] = u64::MAX / HALF[k] + 1;
        k += 1;
    }
    table
};

// Every `h` lies below `HALF[RANKED_CELLS]`, and every rank below `RANKED_CELLS!/2`: for the
// reciprocals to divide exactly, below 2^32.
const _: () = assert!(HALF[RANKED_CELLS] < 1 << 32);
const _: () = assert!((RANKED_CELLS as u64) * HALF[RANKED_CELLS - 1] < 1 << 32);

/// `ONES[mask]`: how many bits `mask` sets, for the rank's masks of the tiles below a tile
/// (at most 15 of them). A table, because the baseline x86-64 target has no popcount
/// instruction, and its emulation took about a quarter of an exploration's time.
static ONES: [u8; 1 << 15] = {
    let mut table = [0u8; 1 << 15];
    let mut mask = 1;
    while mask < 1 << 15 {
        table[mask] = table[mask >> 1] + (mask & 1) as u8;
        mask += 1;
    }
    table
};

/// The rank of the arrangements reachable from one layout (see the [module](self)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranking {
    cells: usize,
    /// The ranks of one cell of the blank: `(n - 1)! / 2`, or 1 on a board of at most three
    /// cells.
    block: u64,
    /// `2^64 / block`, rounded up: a rank (below 2^32) divided by the block is the high word
    /// of its product with this (as for [`RECIPROCAL`]), a multiplication where a division
    /// takes several times longer. Used for blocks of more than one rank.
    per_block: u64,
    cols: usize,
    /// Bit `c` set: with the blank in cell `c`, the tiles read in cell order make an odd
    /// permutation.
    odd: u32,
}

impl Ranking {
    /// The ranking of the arrangements `start` reaches on `shape`; `None` past
    /// [`RANKED_CELLS`] cells.
    pub fn new(shape: Shape, start: &[u8]) -> Option<Ranking> {
        let cells = shape.cells();
        if cells > RANKED_CELLS {
            return None;
        }
        let tiles: Vec<u8> = start.iter().copied().filter(|&t| t != 0).collect();
        let inversions: usize = (0..tiles.len())
            .map(|i| tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count())
            .sum();
        let cols = shape.cols();
        let blank_row = start.iter().position(|&t| t == 0).unwrap_or(0) / cols;
        // A vertical slide moves a tile past `cols - 1` others: with an even number of columns
        // it changes the parity, once a row the blank moves.
        let odd = (0..cells)
            .filter(|c| (inversions + (cols - 1) * (c / cols).abs_diff(blank_row)) % 2 == 1)
            .fold(0, |odd, c| odd | 1 << c);
        let block = HALF[cells.saturating_sub(1)].max(1);
        let per_block = u64::MAX / block.max(2) + 1;
        Some(Ranking {
            cells,
            block,
            per_block,
            cols,
            odd,
        })
    }

    /// One more than the largest rank: `n! / 2`, or `n` on a board of at most two cells.
    pub fn bound(&self) -> u64 {
        self.cells as u64 * self.block
    }

    /// The rank of `layout`, an arrangement reachable from the start.
    #[inline]
    pub fn rank<E: Encoding>(&self, layout: &E) -> u64 {
        let n = self.cells;
        // The weight of the tile at position `i` among the tiles: HALF[tiles - 1 - i].
        let weights = &HALF[..n.saturating_sub(1)];
        let (mut before, mut blank, mut h) = (0u32, 0, 0u64);
        let mut weight = weights.iter().rev();
        for cell in 0..n {
            let tile = u32::from(layout.get(cell));
            if tile == 0 {
                blank = cell;
                continue;
            }
            // The Lehmer digit: the tiles after this one that are smaller, that is its own
            // number less the smaller tiles before it.
            let below = (1 << (tile - 1)) - 1;
            let digit = tile - 1 - u32::from(ONES[(before & below) as usize]);
            before |= 1 << (tile - 1);
            h += u64::from(digit) * weight.next().copied().unwrap_or(0);
        }
        blank as u64 * self.block + h
    }

    /// The arrangement of rank `index` (below [`Ranking::bound`]).
    #[inline]
    pub fn unrank<E: Encoding>(&self, index: u64) -> E {
        let n = self.cells;
        if n < 3 {
            // The blank alone, or it and one tile: the tile's order is all there is.
            let blank = index as usize;
            return E::from_nibbles(insert_blank(u64::from(n == 2), blank), n);
        }
        let tiles = self.unpack(index);
        E::from_nibbles(insert_blank(tiles.order, tiles.blank), n)
    }

    /// The tiles' order of the arrangement of rank `index`, on a board of at least 3 cells.
    #[inline]
    fn unpack(&self, index: u64) -> Unpacked {
        let mut cursor = Cursor::new();
        self.unpack_into(&mut cursor, index);
        cursor.tiles
    }

    /// Unpacks the arrangement of rank `index` into `cursor`, on a board of at least 3 cells:
    /// the Lehmer digits it shares with the rank unpacked there before (the leading ones, when
    /// the two ranks are close) are kept, and only the rest worked out.
    #[inline]
    fn unpack_into(&self, cursor: &mut Cursor, index: u64) {
        let n = self.cells;
        let m = n - 1;
        let blank = if self.block == 1 {
            index
        } else {
            ((u128::from(index) * u128::from(self.per_block)) >> 64) as u64
        };
        let h = index - blank * self.block;
        let blank = blank as usize;
        // The first level whose digit may differ: the digits before level `k` are the old
        // ones while `h` lies in the block of `HALF[m - k]` half ranks from `base[k]`.
        let mut k = 0;
        if cursor.filled {
            k = m - 2;
            while k > 0 && h.wrapping_sub(cursor.base[k]) >= HALF[m - k] {
                k -= 1;
            }
        }
        let tiles = &mut cursor.tiles;
        tiles.blank = blank;
        let mut rest = h - cursor.base[k];
        tiles.h = h;
        let mut left = cursor.left[k];
        let mut parity = cursor.parity[k];
        let mut before = tiles.before[k];
        tiles.order &= (1u64 << (4 * k)) - 1;
        let mut put = |i: usize, digit: u64, left: &mut u64| {
            let at = 4 * digit as u32;
            let value = *left >> at & 15;
            // Removes the nibble: the ones above it move down.
            *left = (*left & ((1 << at) - 1)) | ((*left >> at >> 4) << at);
            tiles.order |= (value + 1) << (4 * i);
            tiles.digits[i] = digit as u8;
            tiles.before[i] = before;
            before |= 1 << value;
        };
        for i in k..m - 2 {
            cursor.base[i] = h - rest;
            cursor.left[i] = left;
            cursor.parity[i] = parity;
            let places = m - 1 - i;
            let digit = if places == 2 {
                rest
            } else {
                ((u128::from(rest) * u128::from(RECIPROCAL[places])) >> 64) as u64
            };
            rest -= digit * HALF[places];
            parity ^= digit & 1;
            put(i, digit, &mut left);
        }
        cursor.base[m - 2] = h - rest;
        cursor.left[m - 2] = left;
        cursor.parity[m - 2] = parity;
        // The order of the last two sets the permutation's parity.
        let last = parity ^ u64::from(self.odd >> blank & 1);
        put(m - 2, last, &mut left);
        put(m - 1, 0, &mut left);
        cursor.filled = true;
    }

    /// Calls `out(rank, layout)` for each arrangement one slide from the one of rank `index`:
    /// a horizontal slide keeps the tiles' order, and a vertical one changes the Lehmer digits
    /// of the `cols` tiles from the blank's old cell to its new one only.
    #[inline]
    pub fn successors<E: Encoding>(&self, index: u64, out: impl FnMut(u64, E)) {
        self.successors_from(&mut Cursor::new(), index, true, out);
    }

    /// [`Ranking::successors`] of each rank of `run` in turn, the horizontal slides left out
    /// unless `across`: ranks close to each other share the leading digits of their tiles'
    /// order, which are worked out once.
    #[inline]
    pub fn successors_of_run<E: Encoding>(
        &self,
        run: &[u64],
        across: bool,
        mut out: impl FnMut(u64, E),
    ) {
        let mut cursor = Cursor::new();
        for &index in run {
            self.successors_from(&mut cursor, index, across, &mut out);
        }
    }

    /// Whether the horizontal slides move whole blocks of [`SHIFT_BLOCK`] ranks: when the
    /// blank's block of ranks is made of whole such blocks, every rank of one has the blank in
    /// the same cell.
    pub fn shifts(&self) -> bool {
        self.cells >= 3 && self.block.is_multiple_of(SHIFT_BLOCK)
    }

    /// With [`Ranking::shifts`], calls `out(to)` for each horizontal slide, `to` where it
    /// takes the block of ranks from `first` (a multiple of [`SHIFT_BLOCK`]).
    #[inline]
    pub fn shifts_of(&self, first: u64, mut out: impl FnMut(u64)) {
        let blank = (first / self.block) as usize;
        if !blank.is_multiple_of(self.cols) {
            out(first - self.block);
        }
        if blank % self.cols + 1 < self.cols {
            out(first + self.block);
        }
    }

    /// [`Ranking::successors`] (the horizontal slides only if `across`), unpacking `index`
    /// through `cursor`.
    #[inline]
    fn successors_from<E: Encoding>(
        &self,
        cursor: &mut Cursor,
        index: u64,
        across: bool,
        mut out: impl FnMut(u64, E),
    ) {
        let (n, cols) = (self.cells, self.cols);
        if n < 3 {
            // The blank and at most one tile: the blank swaps with it.
            if n == 2 {
                let to = 1 - index;
                out(to, self.unrank(to));
            }
            return;
        }
        self.unpack_into(cursor, index);
        let tiles = &cursor.tiles;
        let (blank, order, block) = (tiles.blank, tiles.order, self.block);
        let layout = |order, blank| E::from_nibbles(insert_blank(order, blank), n);
        if across && blank % cols > 0 {
            out(index - block, layout(order, blank - 1));
        }
        if across && blank % cols + 1 < cols {
            out(index + block, layout(order, blank + 1));
        }
        let window = (1u64 << (4 * cols)) - 1;
        // Up: the tile above the blank moves to the end of the window of `cols` tiles from
        // the blank's new cell; down: the tile below moves to its front.
        for (to, first) in [(blank.wrapping_sub(cols), true), (blank + cols, false)] {
            if to >= n {
                continue;
            }
            let lo = to.min(blank);
            let old = order >> (4 * lo) & window;
            let new = if first {
                (old >> 4) | (old & 15) << (4 * (cols - 1))
            } else {
                (old << 4 & window) | old >> (4 * (cols - 1))
            };
            let order = (order & !(window << (4 * lo))) | new << (4 * lo);
            let h = tiles.h_with(lo, cols, new, n - 1);
            out(to as u64 * block + h, layout(order, to));
        }
    }
}

/// An arrangement's tiles as [`Ranking::unpack`] finds them.
struct Unpacked {
    blank: usize,
    /// The half rank of the tiles' order.
    h: u64,
    /// The tiles in cell order, a nibble each.
    order: u64,
    /// The Lehmer digit of each position.
    digits: [u8; 16],
    /// For each position, the tiles before it (bit `tile - 1`).
    before: [u16; 16],
}

/// What [`Ranking::unpack_into`] keeps between ranks: the last arrangement unpacked, and at
/// each level of its Lehmer digits what the levels before it made (the part of the half rank
/// they weigh, the tiles not placed yet, the parity so far), so that a later rank sharing its
/// leading digits starts from the first level that differs.
struct Cursor {
    tiles: Unpacked,
    filled: bool,
    base: [u64; 16],
    left: [u64; 16],
    parity: [u64; 16],
}

impl Cursor {
    fn new() -> Cursor {
        let mut left = [0; 16];
        // Before the first level: every tile, in order, a nibble each (tile - 1, from 0).
        left[0] = 0xfedc_ba98_7654_3210;
        Cursor {
            tiles: Unpacked {
                blank: 0,
                h: 0,
                order: 0,
                digits: [0; 16],
                before: [0; 16],
            },
            filled: false,
            base: [0; 16],
            left,
            parity: [0; 16],
        }
    }
}

impl Unpacked {
    /// The half rank of the order whose positions `lo..lo + len` hold the tiles of `window`
    /// (a nibble each) instead: only their digits change.
    #[inline]
    fn h_with(&self, lo: usize, len: usize, window: u64, tiles: usize) -> u64 {
        let mut h = self.h;
        let mut before = self.before[lo];
        for i in lo..lo + len {
            let weight = HALF[tiles - 1 - i];
            let tile = (window >> (4 * (i - lo)) & 15) as u16 - 1;
            let digit = tile - u16::from(ONES[usize::from(before & ((1 << tile) - 1))]);
            before |= 1 << tile;
            h = h + u64::from(digit) * weight - u64::from(self.digits[i]) * weight;
        }
        h
    }
}

/// The layout of `order` (the tiles in cell order, a nibble each) with the blank in `blank`.
#[inline]
fn insert_blank(order: u64, blank: usize) -> u64 {
    let low = order & ((1 << (4 * blank)) - 1);
    low | (order >> (4 * blank)) << (4 * (blank + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::is_solvable;

    /// Every arrangement of `shape`'s cells, by Heap's algorithm.
    fn arrangements(cells: usize, mut visit: impl FnMut(&[u8])) {
        let mut tiles: Vec<u8> = (0..cells as u8).collect();
        let mut counters = vec![0usize; cells];
        visit(&tiles);
        let mut i = 1;
        while i < cells {
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
    }

    #[test]
    fn ranks_number_the_reachable_half_and_unrank_back() {
        // On each board, every arrangement reachable from the goal (all n!/2 of them: the
        // solvable ones) ranks below n!/2, no two alike, and unranks to itself.
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = shape.default_goal();
            let ranking = Ranking::new(shape, &goal).unwrap();
            let bound = ranking.bound();
            assert_eq!(bound, (1..=shape.cells() as u64).product::<u64>() / 2);
            let mut seen = vec![false; bound as usize];
            arrangements(shape.cells(), |tiles| {
                if !is_solvable(shape, tiles, &goal) {
                    return;
                }
                let layout = u64::encode(tiles);
                let rank = ranking.rank(&layout);
                assert!(rank < bound, "{rows}x{cols} {tiles:?}: {rank}");
                assert!(!seen[rank as usize], "{tiles:?} shares rank {rank}");
                seen[rank as usize] = true;
                assert_eq!(ranking.unrank::<u64>(rank), layout, "{tiles:?}");
            });
            assert!(seen.iter().all(|&s| s), "{rows}x{cols}");
        }
    }

    #[test]
    fn the_other_half_ranks_apart_from_its_own_start() {
        // From a layout of the other parity (two tiles swapped), its own half is numbered.
        let shape = Shape::new(3, 3).unwrap();
        let mut start = shape.default_goal();
        start.swap(0, 1);
        let ranking = Ranking::new(shape, &start).unwrap();
        let mut seen = vec![false; ranking.bound() as usize];
        arrangements(9, |tiles| {
            if is_solvable(shape, tiles, &start) {
                let rank = ranking.rank(&u64::encode(tiles));
                assert!(!std::mem::replace(&mut seen[rank as usize], true));
                assert_eq!(ranking.unrank::<u64>(rank).decode(9), tiles);
            }
        });
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn lines_and_tiny_boards_rank_within_their_bound() {
        for (rows, cols) in [(1, 1), (1, 2), (2, 1), (1, 3), (1, 5)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = shape.default_goal();
            let ranking = Ranking::new(shape, &goal).unwrap();
            // The blank slides along the line and the tiles keep their order.
            for blank in 0..shape.cells() {
                let mut tiles: Vec<u8> = goal.iter().copied().filter(|&t| t != 0).collect();
                tiles.insert(blank, 0);
                let layout = u64::encode(&tiles);
                let rank = ranking.rank(&layout);
                assert!(rank < ranking.bound(), "{rows}x{cols} {tiles:?}");
                assert_eq!(ranking.unrank::<u64>(rank), layout, "{tiles:?}");
            }
        }
    }

    #[test]
    fn wide_encodings_rank_alike() {
        let shape = Shape::new(3, 4).unwrap();
        let goal = shape.default_goal();
        let ranking = Ranking::new(shape, &goal).unwrap();
        let tiles = [5, 11, 2, 0, 7, 1, 9, 3, 10, 4, 8, 6];
        assert!(is_solvable(shape, &tiles, &goal));
        let rank = ranking.rank(&u64::encode(&tiles));
        assert_eq!(ranking.rank(&u128::encode(&tiles)), rank);
        let wide = crate::space::Wide::<36>::encode(&tiles);
        assert_eq!(ranking.rank(&wide), rank);
        assert_eq!(ranking.unrank::<crate::space::Wide<36>>(rank), wide);
        assert!(Ranking::new(Shape::new(2, 7).unwrap(), &[0; 14]).is_none());
    }
}
