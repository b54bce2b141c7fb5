//! The breadth-first table builder and the packed tables it makes.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use frontier_search::sweep::{sweep, Control, Entries, Expand, Marker, Sweep, Tally};
use frontier_search::Limit;

use crate::space::{Coordinates, Visit};

/// The distance of a rank the build has not reached (or could not: the space is not
/// connected).
pub const UNREACHED: u8 = u8::MAX;

/// Chunks of the sweep between two progress reports of a worker.
const REPORT_EVERY: u64 = 32;

/// Where a build stands: the layer being filled and the ranks reached so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The distance of the layer being filled.
    pub depth: u8,
    /// Ranks whose distance is known (a concurrent build may count a rank twice; never more
    /// than `total`).
    pub reached: u64,
    /// Ranks in the space.
    pub total: u64,
}

/// A breadth-first search over a [`Coordinates`] space that gives each rank its distance
/// from the start ranks, one byte a rank ([`UNREACHED`] if none).
///
/// The engine's [sweep](frontier_search::sweep) fills the table: each layer is found by
/// scanning the chunks of ranks where the last layer has some for its distance, shared out
/// among the workers; a new rank is written with a relaxed atomic store (every writer of a
/// rank in one layer writes the same distance), so no lock is taken. With
/// [`backwards`](Builder::backwards), once the ranks left are fewer than a third of what a
/// forward layer would look at, each rank left looks for a neighbour in the last layer
/// instead.
///
/// ```
/// use std::ops::ControlFlow;
/// use frontier_search::Limit;
/// use frontier_tables::{Builder, Coordinates, Visit};
///
/// /// The numbers below 1000, a move adding 1 or doubling.
/// struct Steps;
///
/// impl Coordinates for Steps {
///     type Cursor = ();
///     fn len(&self) -> usize {
///         1000
///     }
///     fn branching(&self) -> usize {
///         2
///     }
///     fn cursor(&self) {}
///     fn each_successor(
///         &self,
///         rank: usize,
///         _: &mut (),
///         visit: &mut impl Visit,
///     ) -> ControlFlow<()> {
///         for next in [rank + 1, rank * 2] {
///             if next < 1000 {
///                 visit.visit(next)?;
///             }
///         }
///         ControlFlow::Continue(())
///     }
/// }
///
/// let distances = Builder::new().threads(2).build(&Steps, &[1]).unwrap();
/// assert_eq!(distances[512], 9);
/// assert_eq!(distances[0], frontier_tables::UNREACHED);
/// // A limit check that says stop ends the build with that limit.
/// let stop = || Some(Limit::Cancelled);
/// assert_eq!(Builder::new().stop(&stop).build(&Steps, &[1]), Err(Limit::Cancelled));
/// ```
#[derive(Clone, Copy, Default)]
pub struct Builder<'a> {
    pub(crate) threads: usize,
    pub(crate) backwards: bool,
    pub(crate) stop: Option<&'a (dyn Fn() -> Option<Limit> + Sync)>,
    pub(crate) progress: Option<&'a (dyn Fn(BuildProgress) + Sync)>,
    /// The bytes of a table past which a forward layer gathers successors, if not
    /// [`GATHERED_BYTES`] (tests gather on small tables).
    pub(crate) gather_past: Option<u64>,
}

impl std::fmt::Debug for Builder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("threads", &self.threads)
            .field("backwards", &self.backwards)
            .finish_non_exhaustive()
    }
}

impl<'a> Builder<'a> {
    /// A builder on rayon's current pool, forwards only, never stopped, reporting nothing.
    pub fn new() -> Builder<'a> {
        Builder::default()
    }

    /// Builds on `threads` workers: 1 on the calling thread alone, 0 (the default) on
    /// rayon's current pool.
    pub fn threads(self, threads: usize) -> Builder<'a> {
        Builder { threads, ..self }
    }

    /// Whether late layers may be found backwards, from the ranks left. The space's moves
    /// must then be undone by its moves (see [`Coordinates`]).
    pub fn backwards(self, backwards: bool) -> Builder<'a> {
        Builder { backwards, ..self }
    }

    /// The limit check, asked before each layer, at every chunk of ranks and every 16,384
    /// successors: the build ends with the limit it returns (for a [`frontier_search::Config`], `|| config.limit_hit(started)`).
    pub fn stop(self, stop: &'a (dyn Fn() -> Option<Limit> + Sync)) -> Builder<'a> {
        Builder {
            stop: Some(stop),
            ..self
        }
    }

    /// The limit the check says the build must stop on now, if any (`None` without a check):
    /// for builds of tables of their own that stop where this builder's would.
    pub fn limit(&self) -> Option<Limit> {
        self.stop.and_then(|stop| stop())
    }

    /// The progress callback, called from the workers as ranks are reached, and once at the
    /// end of each layer that reached some.
    pub fn progress(self, progress: &'a (dyn Fn(BuildProgress) + Sync)) -> Builder<'a> {
        Builder {
            progress: Some(progress),
            ..self
        }
    }

    /// The distance of every rank of `space` from the nearest of `starts` (ranks outside
    /// the space are ignored), or the limit that stopped the build.
    pub fn build<C: Coordinates>(&self, space: &C, starts: &[usize]) -> Result<Vec<u8>, Limit> {
        let dist: Vec<AtomicU8> = (0..space.len()).map(|_| AtomicU8::new(UNREACHED)).collect();
        self.sweep(&Distances(&dist), dist.len() as u64, space, starts)?;
        Ok(dist.into_iter().map(AtomicU8::into_inner).collect())
    }

    /// Fills `entries` (`bytes` of memory) by the engine's sweep over `space`'s successors
    /// from `starts`, on the builder's workers, under its limit check, with its progress and
    /// direction.
    pub(crate) fn sweep<E: Entries, C: Coordinates>(
        &self,
        entries: &E,
        bytes: u64,
        space: &C,
        starts: &[usize],
    ) -> Result<(), Limit> {
        let control = Reports {
            builder: self,
            reached: AtomicU64::new(0),
            total: space.len() as u64,
        };
        let expander = Expander {
            space,
            backwards: self.backwards,
            gathered: bytes > self.gather_past.unwrap_or(GATHERED_BYTES),
        };
        let starts = starts.iter().map(|&start| (start as u64, 1));
        let run = |parallel| {
            let how = Sweep {
                parallel,
                // Distances up to 254: 255 is UNREACHED.
                max_depth: Some(u32::from(UNREACHED) - 1),
                look_past: false,
                control: &control,
            };
            sweep(entries, &expander, starts, &how)
        };
        let swept = match self.threads {
            1 => run(false),
            0 => run(true),
            threads => match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| run(true)),
                // No pool to be had (threads refused by the system): one worker still builds.
                Err(_) => run(false),
            },
        };
        swept.limit.map_or(Ok(()), Err)
    }
}

/// A distance a byte, [`UNREACHED`] for a rank not reached: the byte builder's entries.
struct Distances<'d>(&'d [AtomicU8]);

impl Entries for Distances<'_> {
    fn ranks(&self) -> u64 {
        self.0.len() as u64
    }

    #[inline]
    fn scan(
        &self,
        ranks: Range<u64>,
        depth: u32,
        backward: bool,
        mut take: impl FnMut(u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let wanted = if backward { UNREACHED } else { depth as u8 };
        let first = ranks.start;
        let entries = &self.0[ranks.start as usize..ranks.end as usize];
        for (rank, entry) in (first..).zip(entries) {
            if entry.load(Ordering::Relaxed) == wanted {
                take(rank)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// A relaxed load and store, no lock: every writer of a rank in one layer writes the
    /// same distance, but two writing at once may both count it (the sweep keeps its counts
    /// below the bound).
    #[inline]
    fn claim(&self, rank: u64, depth: u32) -> bool {
        let entry = &self.0[rank as usize];
        if entry.load(Ordering::Relaxed) != UNREACHED {
            return false;
        }
        entry.store(depth as u8, Ordering::Relaxed);
        true
    }

    #[inline]
    fn in_layer(&self, rank: u64, depth: u32) -> bool {
        self.0[rank as usize].load(Ordering::Relaxed) == depth as u8
    }

    #[inline]
    fn reached(&self, rank: u64) -> bool {
        self.0[rank as usize].load(Ordering::Relaxed) != UNREACHED
    }

    #[inline]
    fn prefetch(&self, rank: u64) {
        frontier_search::prefetch(self.0.as_ptr().wrapping_add(rank as usize));
    }
}

/// A builder's limit check and progress, as the sweep's control.
struct Reports<'b, 'a> {
    builder: &'b Builder<'a>,
    /// Ranks reached: at the last whole layer, and since then by the chunks done.
    reached: AtomicU64,
    total: u64,
}

impl Control for Reports<'_, '_> {
    fn limit(&self) -> Option<Limit> {
        self.builder.stop.and_then(|stop| stop())
    }

    fn chunk_done(&self, chunk: u64, depth: u32, tally: &Tally) -> Option<Limit> {
        if tally.found > 0 {
            let reached = self.reached.fetch_add(tally.found, Ordering::Relaxed) + tally.found;
            if let (Some(progress), true) =
                (self.builder.progress, chunk.is_multiple_of(REPORT_EVERY))
            {
                progress(BuildProgress {
                    depth: (depth + 1) as u8,
                    reached: reached.min(self.total),
                    total: self.total,
                });
            }
        }
        None
    }

    fn layer_done(&self, depth: u32, _found: u64, reached: u64) {
        self.reached.store(reached, Ordering::Relaxed);
        if let Some(progress) = self.builder.progress {
            progress(BuildProgress {
                depth: depth as u8,
                reached,
                total: self.total,
            });
        }
    }
}

/// The bytes of a table past which a forward layer gathers each rank's successors and
/// prefetches their entries before claiming any: beyond the caches' reach every claim waits
/// on memory, and those waits then overlap; within it, gathering only costs. (A backward
/// layer looks at a rank's neighbours one by one: it mostly stops at one of the first few,
/// and making the others costs more than the waits it would overlap.)
const GATHERED_BYTES: u64 = 64 << 20;

/// A coordinate space's successors, for the sweep.
struct Expander<'c, C> {
    space: &'c C,
    backwards: bool,
    /// Whether a forward layer gathers each rank's successors first ([`GATHERED_BYTES`]).
    gathered: bool,
}

impl<C: Coordinates> Expand for Expander<'_, C> {
    /// The space's cursor, and the successors gathered of the rank at hand.
    type Worker = (C::Cursor, Vec<u64>);

    fn worker(&self) -> Self::Worker {
        (self.space.cursor(), Vec::new())
    }

    #[inline]
    fn expand<E: Entries>(
        &self,
        (cursor, successors): &mut Self::Worker,
        rank: u64,
        marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()> {
        if !self.gathered {
            return (self.space).each_successor(rank as usize, cursor, &mut Forward(marker));
        }
        successors.clear();
        let mut gather = Gather(marker, successors);
        // Gathering never stops early: its `Continue` says nothing.
        let _ = (self.space).each_successor(rank as usize, cursor, &mut gather);
        marker.visit_batch(successors, |&rank| rank, |_| 1)
    }

    /// Once the ranks left are fewer than a third of what a forward layer would look at.
    fn backwards(&self, left: u64, layer: u64, _branching: f64) -> bool {
        self.backwards && u128::from(left) * 3 < u128::from(layer) * self.space.branching() as u128
    }

    #[inline]
    fn parent<E: Entries>(
        &self,
        (cursor, _): &mut Self::Worker,
        rank: u64,
        marker: &mut Marker<'_, E>,
    ) -> Option<u64> {
        let near = (self.space).each_successor(rank as usize, cursor, &mut Backward(marker));
        near.is_break().then_some(1)
    }
}

/// A forward layer's visitor for a large table: gathers a rank's successors, starting to
/// load their entries.
struct Gather<'m, 'a, 's, E>(&'m Marker<'a, E>, &'s mut Vec<u64>);

impl<E: Entries> Visit for Gather<'_, '_, '_, E> {
    #[inline]
    fn visit(&mut self, rank: usize) -> ControlFlow<()> {
        self.0.prefetch(rank as u64);
        self.1.push(rank as u64);
        ControlFlow::Continue(())
    }

    #[inline]
    fn reached(&self, rank: usize) -> bool {
        self.0.reached(rank as u64)
    }
}

/// A forward layer's visitor: marks each successor not reached yet for the next layer.
struct Forward<'m, 'a, E>(&'m mut Marker<'a, E>);

impl<E: Entries> Visit for Forward<'_, '_, E> {
    #[inline]
    fn visit(&mut self, rank: usize) -> ControlFlow<()> {
        self.0.visit(rank as u64, || 1)
    }

    #[inline]
    fn reached(&self, rank: usize) -> bool {
        self.0.reached(rank as u64)
    }
}

/// A backward layer's visitor: stops at the first neighbour in the last layer.
struct Backward<'m, 'a, E>(&'m Marker<'a, E>);

impl<E: Entries> Visit for Backward<'_, '_, E> {
    #[inline]
    fn visit(&mut self, rank: usize) -> ControlFlow<()> {
        if self.0.in_layer(rank as u64) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    #[inline]
    fn reached(&self, rank: usize) -> bool {
        self.0.reached(rank as u64)
    }
}

/// How many bits a table keeps of each distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// Two bits: the distance modulo 3 (3 for [`UNREACHED`]); enough for a search that knows
    /// a parent's distance, since a move changes the distance by at most one.
    Two,
    /// Four bits: the distance up to 14, 15 for anything farther or unreached (a lower bound).
    Four,
    /// A byte: the distance as built.
    Byte,
    /// The distance modulo 3 as a digit in base 3, five entries a byte (3^5 = 243 values
    /// fit in one): 1.6 bits an entry, for a table whose every entry is reached, a fifth
    /// smaller than [`Width::Two`]. Made from a two-bit table by [`Width::two_to_ternary`].
    Ternary,
}

/// `TERNARY_DIGITS[byte][k]`: digit `k` (lowest first) of a byte of five base-3 digits.
static TERNARY_DIGITS: [[u8; 5]; 256] = {
    let mut table = [[0u8; 5]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut rest = byte;
        let mut k = 0;
        while k < 5 {
            table[byte][k] = (rest % 3) as u8;
            rest /= 3;
            k += 1;
        }
        byte += 1;
    }
    table
};

/// `3^k` for the five digits of a [`Width::Ternary`] byte.
const POWERS_OF_3: [u8; 5] = [1, 3, 9, 27, 81];

impl Width {
    /// The bits of an entry, 2, 4 or 8; 3 stands for [`Width::Ternary`]'s 1.6 (the width's
    /// code in a table file's header).
    pub fn bits(self) -> u8 {
        match self {
            Width::Two => 2,
            Width::Ternary => 3,
            Width::Four => 4,
            Width::Byte => 8,
        }
    }

    /// The width of code `bits` ([`Width::bits`]), if it is one.
    pub fn from_bits(bits: u8) -> Option<Width> {
        match bits {
            2 => Some(Width::Two),
            3 => Some(Width::Ternary),
            4 => Some(Width::Four),
            8 => Some(Width::Byte),
            _ => None,
        }
    }

    /// The bytes of a table of `entries` entries.
    pub fn bytes(self, entries: u64) -> u64 {
        match self {
            Width::Ternary => entries.div_ceil(5),
            _ => (entries * u64::from(self.bits())).div_ceil(8),
        }
    }

    /// What a distance becomes in an entry of this width ([`UNREACHED`] is 0 in a ternary
    /// table, which has no value to spare for it).
    #[inline]
    pub fn entry(self, distance: u8) -> u8 {
        match (self, distance) {
            (Width::Two, UNREACHED) => 3,
            (Width::Two, d) => d % 3,
            (Width::Ternary, UNREACHED) => 0,
            (Width::Ternary, d) => d % 3,
            (Width::Four, d) => d.min(15),
            (Width::Byte, d) => d,
        }
    }

    /// Entry `i` of a [`Width::Ternary`] table's bytes.
    ///
    /// ```
    /// use frontier_tables::{Table, Width};
    ///
    /// let table = Table::pack(&[0, 1, 2, 3, 4, 5, 6], Width::Ternary);
    /// assert_eq!(table.bytes(), [3 + 2 * 9 + 81, 2]); // 0 1 2 0 1 and 2 0, lowest first
    /// assert_eq!(Width::ternary(table.bytes(), 5), 2);
    /// ```
    #[inline(always)]
    pub fn ternary(bytes: &[u8], i: usize) -> u8 {
        TERNARY_DIGITS[usize::from(bytes[i / 5])][i % 5]
    }

    /// Turns the first [`Width::Two`] bytes of `len` entries of `table` into the
    /// [`Width::Ternary`] bytes of the same entries, in place (each byte written lies at or
    /// before the bytes it is read from); returns how many bytes those take. An entry of 3
    /// (unreached) becomes 0.
    ///
    /// ```
    /// use frontier_tables::{Table, Width};
    ///
    /// let distances = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    /// let mut bytes = Table::pack(&distances, Width::Two).bytes().to_vec();
    /// let used = Width::two_to_ternary(&mut bytes, distances.len());
    /// assert_eq!(&bytes[..used], Table::pack(&distances, Width::Ternary).bytes());
    /// ```
    pub fn two_to_ternary(table: &mut [u8], len: usize) -> usize {
        let two = |table: &[u8], i: usize| (table[i / 4] >> (2 * (i % 4))) & 3;
        let used = Width::Ternary.bytes(len as u64) as usize;
        for at in 0..used {
            let mut byte = 0;
            for (k, power) in POWERS_OF_3.iter().enumerate().take(len - 5 * at) {
                byte += (two(table, 5 * at + k) % 3) * power;
            }
            // Entry 5 * at lies in byte 5 * at / 4 >= at: nothing still to read is overwritten.
            table[at] = byte;
        }
        used
    }
}

/// A table of distances packed at a [`Width`]: entry `i` in the bits `i * width` on of its
/// bytes, low bits first.
///
/// ```
/// use frontier_tables::{Table, Width};
///
/// let table = Table::pack(&[0, 1, 2, 3, 4, 20], Width::Four);
/// assert_eq!(table.bytes(), [0x10, 0x32, 0xf4]);
/// assert_eq!(table.get(5), 15);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    width: Width,
    len: usize,
    bytes: Vec<u8>,
}

impl Table {
    /// The `distances` packed at `width`.
    pub fn pack(distances: &[u8], width: Width) -> Table {
        let mut bytes = vec![0u8; width.bytes(distances.len() as u64) as usize];
        Table::pack_into(distances, width, &mut bytes);
        Table {
            width,
            len: distances.len(),
            bytes,
        }
    }

    /// The `distances` packed at `width` into `out`, which holds [`Width::bytes`] of them.
    ///
    /// # Panics
    ///
    /// If `out` has another size (a bug of the caller).
    pub fn pack_into(distances: &[u8], width: Width, out: &mut [u8]) {
        assert_eq!(out.len() as u64, width.bytes(distances.len() as u64));
        // One loop for each width, so that each entry's conversion is known at compile time.
        match width {
            Width::Two => pack_at::<2>(distances, out, |d| Width::Two.entry(d)),
            Width::Four => pack_at::<4>(distances, out, |d| Width::Four.entry(d)),
            Width::Byte => out.copy_from_slice(distances),
            Width::Ternary => {
                for (byte, entries) in out.iter_mut().zip(distances.chunks(5)) {
                    *byte = (entries.iter().zip(POWERS_OF_3))
                        .map(|(&d, power)| Width::Ternary.entry(d) * power)
                        .sum();
                }
            }
        }
    }

    /// A table of `len` entries of `width` from its packed bytes; `None` if their number is
    /// not [`Width::bytes`].
    pub fn from_bytes(width: Width, len: usize, bytes: Vec<u8>) -> Option<Table> {
        (bytes.len() as u64 == width.bytes(len as u64)).then_some(Table { width, len, bytes })
    }

    /// Entry `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        if self.width == Width::Ternary {
            return Width::ternary(&self.bytes, i);
        }
        let bits = usize::from(self.width.bits());
        let at = i * bits;
        (self.bytes[at / 8] >> (at % 8)) & ((1u16 << bits) - 1) as u8
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The width of its entries.
    pub fn width(&self) -> Width {
        self.width
    }

    /// The packed bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Packs `distances` at `BITS` bits an entry into `out`, each converted by `entry`.
fn pack_at<const BITS: usize>(distances: &[u8], out: &mut [u8], entry: impl Fn(u8) -> u8) {
    for (byte, entries) in out.iter_mut().zip(distances.chunks(8 / BITS)) {
        *byte = (entries.iter().enumerate()).fold(0u8, |b, (i, &d)| b | entry(d) << (i * BITS));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Mutex;

    use super::*;

    /// Permutations of 0..6 (720 ranks, by Lehmer code), moves: swap positions 0 and 1, and
    /// rotate left or right by one. Every move is undone by a move.
    struct Perms;

    fn unrank(mut rank: usize) -> [u8; 6] {
        let mut left: Vec<u8> = (0..6).collect();
        let mut out = [0u8; 6];
        for (i, slot) in out.iter_mut().enumerate() {
            let f = (1..6 - i).product::<usize>();
            *slot = left.remove(rank / f);
            rank %= f;
        }
        out
    }

    fn rank(p: &[u8; 6]) -> usize {
        (0..6).fold(0, |r, i| {
            r * (6 - i) + p[i + 1..].iter().filter(|&&x| x < p[i]).count()
        })
    }

    fn moves(p: [u8; 6]) -> [[u8; 6]; 3] {
        let mut swap = p;
        swap.swap(0, 1);
        let (mut left, mut right) = (p, p);
        left.rotate_left(1);
        right.rotate_right(1);
        [swap, left, right]
    }

    impl Coordinates for Perms {
        type Cursor = ();
        fn len(&self) -> usize {
            720
        }
        fn branching(&self) -> usize {
            3
        }
        fn cursor(&self) {}
        fn each_successor(&self, r: usize, _: &mut (), visit: &mut impl Visit) -> ControlFlow<()> {
            for next in moves(unrank(r)) {
                visit.visit(rank(&next))?;
            }
            ControlFlow::Continue(())
        }
    }

    /// A big sparse space for the parallel builds: rank r goes to r+1 and 3r mod len.
    struct Big;

    impl Coordinates for Big {
        type Cursor = ();
        fn len(&self) -> usize {
            300_007
        }
        fn branching(&self) -> usize {
            4
        }
        fn cursor(&self) {}
        fn each_successor(&self, r: usize, _: &mut (), visit: &mut impl Visit) -> ControlFlow<()> {
            let n = self.len();
            visit.visit((r + 1) % n)?;
            visit.visit((r + n - 1) % n)?;
            visit.visit(r * 3 % n)?;
            // 200,005 is the inverse of 3 modulo 300,007: every move is undone by a move.
            visit.visit(r * 200_005 % n)
        }
    }

    fn plain_bfs<C: Coordinates>(space: &C, start: usize) -> Vec<u8> {
        let mut dist = vec![UNREACHED; space.len()];
        let mut queue = VecDeque::from([start]);
        dist[start] = 0;
        let mut cursor = space.cursor();
        while let Some(r) = queue.pop_front() {
            let _ = space.each_successor(r, &mut cursor, &mut |n| {
                if dist[n] == UNREACHED {
                    dist[n] = dist[r] + 1;
                    queue.push_back(n);
                }
                ControlFlow::Continue(())
            });
        }
        dist
    }

    #[test]
    fn the_builder_agrees_with_a_plain_bfs() {
        let expected = plain_bfs(&Perms, 0);
        assert!(expected.iter().all(|&d| d != UNREACHED));
        assert!(expected.iter().any(|&d| d > 5));
        for threads in [1, 2, 0] {
            let built = Builder::new().threads(threads).build(&Perms, &[0]).unwrap();
            assert_eq!(built, expected, "{threads} threads");
        }
    }

    #[test]
    fn backwards_gives_the_same_table() {
        let layers = Mutex::new(Vec::new());
        let record = |p: BuildProgress| layers.lock().unwrap().push(p);
        for (space_table, built) in [
            (
                plain_bfs(&Perms, 0),
                Builder::new().backwards(true).build(&Perms, &[0]).unwrap(),
            ),
            (
                plain_bfs(&Big, 5),
                Builder::new()
                    .backwards(true)
                    .progress(&record)
                    .threads(2)
                    .build(&Big, &[5])
                    .unwrap(),
            ),
        ] {
            assert_eq!(built, space_table);
        }
        // The last layer's report counts every rank: the backward layers count exactly.
        let layers = layers.into_inner().unwrap();
        assert_eq!(layers.last().unwrap().reached, Big.len() as u64);
    }

    /// [`Perms`], counting the ranks whose successors are asked for.
    struct Counted(AtomicUsize);

    impl Coordinates for Counted {
        type Cursor = ();
        fn len(&self) -> usize {
            Perms.len()
        }
        fn branching(&self) -> usize {
            Perms.branching()
        }
        fn cursor(&self) {}
        fn each_successor(
            &self,
            r: usize,
            cursor: &mut (),
            visit: &mut impl Visit,
        ) -> ControlFlow<()> {
            self.0.fetch_add(1, Ordering::Relaxed);
            Perms.each_successor(r, cursor, visit)
        }
    }

    #[test]
    fn backwards_layers_look_from_the_ranks_left() {
        // Forwards, each rank is expanded once; backwards, the ranks left ask instead.
        let forwards = Counted(AtomicUsize::new(0));
        let table = Builder::new().threads(1).build(&forwards, &[0]).unwrap();
        assert_eq!(forwards.0.into_inner(), 720);
        let backwards = Counted(AtomicUsize::new(0));
        let same = Builder::new()
            .threads(1)
            .backwards(true)
            .build(&backwards, &[0])
            .unwrap();
        assert_eq!(same, table);
        assert_ne!(backwards.0.into_inner(), 720);
    }

    #[test]
    fn parallel_builds_equal_serial_ones() {
        let serial = Builder::new().threads(1).build(&Big, &[0, 77]).unwrap();
        let parallel = Builder::new().threads(2).build(&Big, &[0, 77]).unwrap();
        assert_eq!(serial, parallel);
        assert_eq!(serial, {
            // Two starts: the lesser of the distances from each.
            let (a, b) = (plain_bfs(&Big, 0), plain_bfs(&Big, 77));
            a.iter()
                .zip(&b)
                .map(|(&x, &y)| x.min(y))
                .collect::<Vec<_>>()
        });
    }

    #[test]
    fn a_limit_stops_the_build_with_its_name() {
        let asked = AtomicUsize::new(0);
        let stop = || (asked.fetch_add(1, Ordering::Relaxed) >= 3).then_some(Limit::Time);
        let built = Builder::new().stop(&stop).threads(2).build(&Big, &[0]);
        assert_eq!(built, Err(Limit::Time));
        assert!(asked.load(Ordering::Relaxed) >= 4);
        let never = || None;
        assert!(Builder::new().stop(&never).build(&Perms, &[0]).is_ok());
    }

    #[test]
    fn progress_ends_with_the_reached_count_at_each_depth() {
        let reports = Mutex::new(Vec::new());
        let record = |p: BuildProgress| reports.lock().unwrap().push(p);
        let built = Builder::new()
            .threads(1)
            .progress(&record)
            .build(&Perms, &[0])
            .unwrap();
        let reports = reports.into_inner().unwrap();
        let depth = *built.iter().max().unwrap();
        let last = reports.last().unwrap();
        assert_eq!((last.depth, last.reached, last.total), (depth, 720, 720));
        assert!(reports.windows(2).all(|w| w[0].reached <= w[1].reached));
    }

    #[test]
    fn entries_pack_at_two_four_and_eight_bits_and_in_base_3() {
        let distances: Vec<u8> = (0..=255).chain([UNREACHED, 3, 0]).collect();
        for width in [Width::Two, Width::Ternary, Width::Four, Width::Byte] {
            let table = Table::pack(&distances, width);
            assert_eq!(table.len(), distances.len());
            assert_eq!(table.bytes().len() as u64, width.bytes(259));
            for (i, &d) in distances.iter().enumerate() {
                assert_eq!(table.get(i), width.entry(d), "{width:?} entry {i}");
            }
            let again = Table::from_bytes(width, table.len(), table.bytes().to_vec());
            assert_eq!(again.as_ref(), Some(&table));
        }
        assert_eq!(Width::Two.entry(UNREACHED), 3);
        assert_eq!(Width::Two.entry(7), 1);
        assert_eq!(Width::Four.entry(UNREACHED), 15);
        assert_eq!(Width::Four.entry(9), 9);
        assert_eq!(Width::Byte.bytes(5), 5);
        assert_eq!(Width::Two.bytes(5), 2);
        assert_eq!(Width::Four.bytes(5), 3);
        assert_eq!(Width::Ternary.bytes(5), 1);
        assert_eq!(Width::Ternary.bytes(6), 2);
        assert!(Table::from_bytes(Width::Two, 5, vec![0; 3]).is_none());
        for width in [Width::Two, Width::Ternary, Width::Four, Width::Byte] {
            assert_eq!(Width::from_bits(width.bits()), Some(width));
        }
        assert_eq!(Width::from_bits(5), None);
    }

    #[test]
    fn a_two_bit_table_turns_ternary_in_place() {
        // Every length up to a few bytes of each, with every remainder of 4 and 5.
        for len in 0..60 {
            let distances: Vec<u8> = (0..len).map(|i| (i * 7 + i / 3) as u8 % 11).collect();
            let mut bytes = Table::pack(&distances, Width::Two).bytes().to_vec();
            let used = Width::two_to_ternary(&mut bytes, distances.len());
            let ternary = Table::pack(&distances, Width::Ternary);
            assert_eq!(&bytes[..used], ternary.bytes(), "{len} entries");
            for (i, &d) in distances.iter().enumerate() {
                assert_eq!(Width::ternary(&bytes, i), d % 3);
            }
        }
    }
}
