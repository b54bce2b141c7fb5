//! A breadth-first build that keeps two bits a rank throughout: for spaces whose byte-a-rank
//! table would not fit in memory.
//!
//! Each entry holds the distance modulo 3, or 3 while unreached ([`Width::Two`]'s encoding).
//! That is all a layer needs: when layer `d + 1` is filled, an entry holding `d % 3` is at
//! distance `d` or `d - 3`, and a rank at `d - 3` has no unreached neighbour (its neighbours
//! are within `d - 2`), so expanding it too marks nothing wrong, it only costs the look. And
//! looking backwards, an unreached rank's neighbours are at `d` or further, so a neighbour
//! holding `d % 3` is at `d` exactly.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicU8, Ordering};

use frontier_search::sweep::Entries;
use frontier_search::Limit;

use crate::build::{Builder, Width};
use crate::space::Coordinates;

/// Two-bit entries read and written in place by several workers, for the ranks below a
/// bound (the last byte may hold fewer than four).
struct Packed<'t>(&'t [AtomicU8], u64);

impl Packed<'_> {
    #[inline(always)]
    fn get(&self, rank: u64) -> u8 {
        (self.0[(rank >> 2) as usize].load(Ordering::Relaxed) >> ((rank & 3) << 1)) & 3
    }
}

impl Entries for Packed<'_> {
    fn ranks(&self) -> u64 {
        self.1
    }

    /// A byte's four entries at once: one with none of interest is skipped whole (the
    /// entries past the bound are never handed out: the sweep's ranks stop at it). Forwards,
    /// an entry holding `depth % 3` is at distance `depth` or `depth - 3`, and the ranks of
    /// the earlier layer are handed out too (their successors are all reached).
    #[inline]
    fn scan(
        &self,
        ranks: Range<u64>,
        depth: u32,
        backward: bool,
        mut take: impl FnMut(u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let wanted = if backward { 3 } else { (depth % 3) as u8 };
        let mut rank = ranks.start;
        while rank < ranks.end {
            if holds(self.0[(rank >> 2) as usize].load(Ordering::Relaxed), wanted) {
                for r in rank..(rank + 4).min(ranks.end) {
                    if self.get(r) == wanted {
                        take(r)?;
                    }
                }
            }
            rank += 4;
        }
        ControlFlow::Continue(())
    }

    /// Sets an unreached entry to `depth % 3`. Every writer of one layer writes the same
    /// value, and clearing bits can only turn 3 into it, so two writers racing on one entry
    /// agree, and exactly one of them sees it unreached.
    #[inline(always)]
    fn claim(&self, rank: u64, depth: u32) -> bool {
        let value = (depth % 3) as u8;
        let shift = (rank & 3) << 1;
        let byte = &self.0[(rank >> 2) as usize];
        if (byte.load(Ordering::Relaxed) >> shift) & 3 != 3 {
            return false;
        }
        let old = byte.fetch_and(!((3 & !value) << shift), Ordering::Relaxed);
        (old >> shift) & 3 == 3
    }

    /// Looking backwards, an unreached rank's neighbours are at `depth` or further, so a
    /// neighbour holding `depth % 3` is at `depth` exactly.
    #[inline(always)]
    fn in_layer(&self, rank: u64, depth: u32) -> bool {
        self.get(rank) == (depth % 3) as u8
    }

    #[inline(always)]
    fn reached(&self, rank: u64) -> bool {
        self.get(rank) != 3
    }

    #[inline(always)]
    fn prefetch(&self, rank: u64) {
        frontier_search::prefetch(self.0.as_ptr().wrapping_add((rank >> 2) as usize));
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
        table.fill(0xFF);
        let len = space.len();
        let packed = Packed(atomic(table), len as u64);
        let swept = self.sweep(&packed, packed.0.len() as u64, space, starts);
        // The bits past the last entry are zeros, as [`crate::Table::pack`] leaves them.
        if let (Some(byte), true) = (packed.0.last(), !len.is_multiple_of(4)) {
            byte.fetch_and((1u8 << (2 * (len % 4))) - 1, Ordering::Relaxed);
        }
        swept
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::build::BuildProgress;
    use crate::space::Visit;

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
            let packed = crate::Table::pack(&distances, Width::Two);
            // Gathering each rank's successors first, as for a table past the caches, and
            // not.
            for gather_past in [None, Some(0)] {
                let builder = Builder {
                    gather_past,
                    ..builder
                };
                let gathered = builder.threads(2).build(&space, &starts).unwrap();
                assert!(
                    gathered == distances,
                    "bytes, gathered past {gather_past:?}"
                );
                for threads in [1, 2] {
                    let mut table = vec![0u8; Width::Two.bytes(space.len() as u64) as usize];
                    builder
                        .threads(threads)
                        .build_mod3(&space, &starts, &mut table)
                        .unwrap();
                    assert_eq!(
                        table,
                        packed.bytes(),
                        "backwards {backwards}, {threads} threads, gathered past {gather_past:?}"
                    );
                }
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
