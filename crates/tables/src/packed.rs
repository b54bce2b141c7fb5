//! A breadth-first build that keeps two bits a rank throughout: for spaces whose byte-a-rank
//! table would not fit in memory.
//!
//! Each entry holds the distance modulo 3, or 3 while unreached ([`Width::Two`]'s encoding).
//! That is all a layer needs: when layer `d + 1` is filled, an entry holding `d % 3` is at
//! distance `d` or `d - 3`, and a rank at `d - 3` has no unreached neighbour (its neighbours
//! are within `d - 2`), so expanding it too marks nothing wrong, it only costs the look. And
//! looking backwards, an unreached rank's neighbours are at `d` or further, so a neighbour
//! holding `d % 3` is at `d` exactly.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

use frontier_search::Limit;
use rayon::prelude::*;

use crate::build::{BuildProgress, Builder, Width};
use crate::space::{Coordinates, Visit};

/// Ranks a worker takes at once (a multiple of 4, so that each chunk owns whole bytes).
const CHUNK: usize = 1 << 16;

/// Chunks between two progress reports of a worker.
const REPORT_EVERY: usize = 32;

/// Two-bit entries read and written in place by several workers.
struct Packed<'t>(&'t [AtomicU8]);

impl Packed<'_> {
    #[inline(always)]
    fn get(&self, rank: usize) -> u8 {
        (self.0[rank >> 2].load(Ordering::Relaxed) >> ((rank & 3) << 1)) & 3
    }

    /// Sets an unreached entry to `value` (below 3); returns whether it was unreached. Every
    /// writer of one layer writes the same value, and clearing bits can only turn 3 into it,
    /// so two writers racing on one entry agree, and exactly one of them sees it unreached.
    #[inline(always)]
    fn claim(&self, rank: usize, value: u8) -> bool {
        let shift = (rank & 3) << 1;
        let byte = &self.0[rank >> 2];
        if (byte.load(Ordering::Relaxed) >> shift) & 3 != 3 {
            return false;
        }
        let old = byte.fetch_and(!((3 & !value) << shift), Ordering::Relaxed);
        (old >> shift) & 3 == 3
    }
}

impl<'a> Builder<'a> {
    /// The distance of every rank of `space` from the nearest of `starts`, modulo 3, written
    /// into `table` at [`Width::Two`] (entry `i` in bits `2 * (i % 4)` of byte `i / 4`; 3 for
    /// a rank not reached), with no other memory in proportion to the space: for tables whose
    /// byte a rank ([`Builder::build`]) would not fit. Honours the builder's workers, limit
    /// check, progress and direction; returns the limit that stopped it (the table is then
    /// partly filled).
    ///
    /// # Panics
    ///
    /// If `table` does not hold `space.len()` entries of two bits (a bug of the caller).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use frontier_tables::{Builder, Coordinates, Visit};
    ///
    /// /// A ring of 10 positions, one step either way.
    /// struct Ring;
    ///
    /// impl Coordinates for Ring {
    ///     type Cursor = ();
    ///     fn len(&self) -> usize {
    ///         10
    ///     }
    ///     fn branching(&self) -> usize {
    ///         2
    ///     }
    ///     fn cursor(&self) {}
    ///     fn each_successor(&self, rank: usize, _: &mut (), visit: &mut impl Visit) -> ControlFlow<()> {
    ///         visit.visit((rank + 1) % 10)?;
    ///         visit.visit((rank + 9) % 10)
    ///     }
    /// }
    ///
    /// let mut table = [0u8; 3];
    /// Builder::new().build_mod3(&Ring, &[0], &mut table).unwrap();
    /// let entry = |i: usize| (table[i / 4] >> (2 * (i % 4))) & 3;
    /// assert_eq!((0..10).map(entry).collect::<Vec<_>>(), [0, 1, 2, 0, 1, 2, 1, 0, 2, 1]);
    /// ```
    pub fn build_mod3<C: Coordinates>(
        &self,
        space: &C,
        starts: &[usize],
        table: &mut [u8],
    ) -> Result<(), Limit> {
        assert_eq!(
            table.len() as u64,
            Width::Two.bytes(space.len() as u64),
            "a two-bit table of the space"
        );
        match self.threads {
            1 => self.run_mod3(space, starts, table, false),
            0 => self.run_mod3(space, starts, table, true),
            threads => match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| self.run_mod3(space, starts, table, true)),
                Err(_) => self.run_mod3(space, starts, table, false),
            },
        }
    }

    fn run_mod3<C: Coordinates>(
        &self,
        space: &C,
        starts: &[usize],
        table: &mut [u8],
        parallel: bool,
    ) -> Result<(), Limit> {
        let len = space.len();
        table.fill(0xFF);
        let packed = Packed(atomic(table));
        let mut reached = 0u64;
        for &start in starts.iter().filter(|&&s| s < len) {
            if packed.claim(start, 0) {
                reached += 1;
            }
        }
        let total = len as u64;
        let chunks = len.div_ceil(CHUNK);
        let mut layer = reached;
        let mut depth = 0u8;
        while layer > 0 && depth < u8::MAX - 1 {
            let left = total - reached;
            let backwards = self.backwards
                && u128::from(left) * 3 < u128::from(layer) * space.branching() as u128;
            let state = Layer {
                packed: &packed,
                len,
                depth,
                backwards,
                reached: AtomicU64::new(reached),
                total,
                halted: AtomicBool::new(false),
                limit: Mutex::new(None),
                builder: self,
            };
            let found: u64 = if parallel {
                (0..chunks)
                    .into_par_iter()
                    .map_init(
                        || space.cursor(),
                        |cursor, ci| state.chunk(space, ci, cursor),
                    )
                    .sum()
            } else {
                let mut cursor = space.cursor();
                (0..chunks)
                    .map(|ci| state.chunk(space, ci, &mut cursor))
                    .sum()
            };
            if let Some(limit) = state.limit.into_inner().unwrap_or_else(|p| p.into_inner()) {
                return Err(limit);
            }
            if found == 0 {
                break;
            }
            reached = (reached + found).min(total);
            layer = found;
            depth += 1;
            if let Some(progress) = self.progress {
                progress(BuildProgress {
                    depth,
                    reached,
                    total,
                });
            }
        }
        // The bits past the last entry are zeros, as [`crate::Table::pack`] leaves them.
        if let (Some(byte), true) = (packed.0.last(), !len.is_multiple_of(4)) {
            byte.fetch_and((1u8 << (2 * (len % 4))) - 1, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// What the workers of one layer share.
struct Layer<'b, 'a> {
    packed: &'b Packed<'b>,
    len: usize,
    depth: u8,
    backwards: bool,
    reached: AtomicU64,
    total: u64,
    halted: AtomicBool,
    limit: Mutex<Option<Limit>>,
    builder: &'b Builder<'a>,
}

impl Layer<'_, '_> {
    /// Fills the next layer from chunk `ci` of the ranks; returns the ranks it added.
    fn chunk<C: Coordinates>(&self, space: &C, ci: usize, cursor: &mut C::Cursor) -> u64 {
        if self.halted.load(Ordering::Relaxed) {
            return 0;
        }
        if let Some(limit) = self.builder.stop.and_then(|stop| stop()) {
            *self.limit.lock().unwrap_or_else(|p| p.into_inner()) = Some(limit);
            self.halted.store(true, Ordering::Relaxed);
            return 0;
        }
        let packed = self.packed;
        let (last, next) = (self.depth % 3, (self.depth + 1) % 3);
        let ranks = ci * CHUNK..((ci + 1) * CHUNK).min(self.len);
        let mut found = 0u64;
        // A byte's four entries at once: one with none of interest is skipped whole.
        let mut rank = ranks.start;
        while rank < ranks.end {
            let byte = packed.0[rank >> 2].load(Ordering::Relaxed);
            let wanted = if self.backwards { 3 } else { last };
            if !holds(byte, wanted) {
                rank += 4;
                continue;
            }
            for r in rank..(rank + 4).min(ranks.end) {
                if packed.get(r) != wanted {
                    continue;
                }
                if self.backwards {
                    let mut near = Backward { packed, last };
                    if space.each_successor(r, cursor, &mut near).is_break()
                        && packed.claim(r, next)
                    {
                        found += 1;
                    }
                } else {
                    let mut visit = Forward {
                        packed,
                        next,
                        found: 0,
                    };
                    let _ = space.each_successor(r, cursor, &mut visit);
                    found += visit.found;
                }
            }
            rank += 4;
        }
        if found > 0 {
            let reached = self.reached.fetch_add(found, Ordering::Relaxed) + found;
            if let (Some(progress), true) = (self.builder.progress, ci.is_multiple_of(REPORT_EVERY))
            {
                progress(BuildProgress {
                    depth: self.depth + 1,
                    reached: reached.min(self.total),
                    total: self.total,
                });
            }
        }
        found
    }
}

/// The bytes as atomics, for as long as they are borrowed.
fn atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`, and the result
    // keeps the exclusive borrow of `bytes` for as long as it lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// Whether one of the byte's four two-bit entries is `value`.
#[inline(always)]
fn holds(byte: u8, value: u8) -> bool {
    // Each entry xor `value` is zero where it matches; a zero pair of bits sets its flag.
    let x = byte ^ (value * 0x55);
    (!(x | (x >> 1))) & 0x55 != 0
}

/// A forward layer's visitor: claims each unreached successor for the next layer.
struct Forward<'b> {
    packed: &'b Packed<'b>,
    next: u8,
    found: u64,
}

impl Visit for Forward<'_> {
    #[inline]
    fn visit(&mut self, rank: usize) -> ControlFlow<()> {
        if self.packed.claim(rank, self.next) {
            self.found += 1;
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn reached(&self, rank: usize) -> bool {
        self.packed.get(rank) != 3
    }
}

/// A backward layer's visitor: stops at the first neighbour in the last layer.
struct Backward<'b> {
    packed: &'b Packed<'b>,
    last: u8,
}

impl Visit for Backward<'_> {
    #[inline]
    fn visit(&mut self, rank: usize) -> ControlFlow<()> {
        match self.packed.get(rank) == self.last {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        }
    }

    #[inline]
    fn reached(&self, rank: usize) -> bool {
        self.packed.get(rank) != 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers below `len`, a move adding 1, subtracting 1 or doubling (and halving an
    /// even number, so that every move is undone by one).
    struct Steps(usize);

    impl Coordinates for Steps {
        type Cursor = ();
        fn len(&self) -> usize {
            self.0
        }
        fn branching(&self) -> usize {
            4
        }
        fn cursor(&self) {}
        fn each_successor(
            &self,
            rank: usize,
            _: &mut (),
            visit: &mut impl Visit,
        ) -> ControlFlow<()> {
            let half = rank.is_multiple_of(2).then_some(rank / 2);
            for next in [Some(rank + 1), rank.checked_sub(1), Some(rank * 2), half]
                .into_iter()
                .flatten()
            {
                if next < self.0 {
                    visit.visit(next)?;
                }
            }
            ControlFlow::Continue(())
        }
    }

    #[test]
    fn the_packed_build_holds_the_byte_builds_distances_modulo_3() {
        let space = Steps(300_001);
        let starts = [1, 77_777];
        for backwards in [false, true] {
            let builder = Builder::new().backwards(backwards);
            let distances = builder.build(&space, &starts).unwrap();
            for threads in [1, 2] {
                let mut table = vec![0u8; Width::Two.bytes(space.len() as u64) as usize];
                builder
                    .threads(threads)
                    .build_mod3(&space, &starts, &mut table)
                    .unwrap();
                let packed = crate::Table::pack(&distances, Width::Two);
                assert_eq!(
                    table,
                    packed.bytes(),
                    "backwards {backwards}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn a_stopped_packed_build_returns_its_limit() {
        let space = Steps(100_000);
        let mut table = vec![0u8; Width::Two.bytes(space.len() as u64) as usize];
        let stop = || Some(Limit::Time);
        let reports = Mutex::new(0);
        let progress = |_: BuildProgress| *reports.lock().unwrap() += 1;
        let builder = Builder::new().stop(&stop).progress(&progress);
        assert_eq!(
            builder.build_mod3(&space, &[0], &mut table),
            Err(Limit::Time)
        );
        assert_eq!(*reports.lock().unwrap(), 0);
    }

    #[test]
    fn a_byte_holds_a_value_where_one_of_its_entries_is_it() {
        for byte in 0..=255u8 {
            for value in 0..4 {
                let any = (0..4).any(|i| (byte >> (2 * i)) & 3 == value);
                assert_eq!(holds(byte, value), any, "{byte:08b} {value}");
            }
        }
    }
}
