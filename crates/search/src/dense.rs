//! Dense exploration: for a space that can [index](crate::Space::index) its states and
//! [unrank](crate::Space::state_at) them again, two bits an index and no state stored, each
//! layer found by the engine's [sweep](crate::sweep) on every worker.
//!
//! Entry `i` of the array says where index `i` stands: unseen, in the layer being expanded,
//! in the next one, or closed (expanded). The two layer codes alternate from layer to layer,
//! so a layer never needs converting: layer `d` is code [`layer_code`]`(d)`, the next is the
//! other one, and an expanded entry becomes [`CLOSED`]. A worker asks the space for the
//! successors of each entry of the layer with their indexes
//! ([`Space::indexed_successors_of_run`]) and marks the unseen ones with an atomic bit-or
//! (every writer in a layer writes the same code, so no lock is taken and exactly one of them
//! sees the entry unseen: the counts are exact for any number of threads). A single thread
//! marks with a plain load and store instead, no other thread being there to race it. The
//! successors by the moves that take a whole word's indexes to another word
//! ([`Space::index_shifts`]) are marked a word at a time.
//!
//! A space whose every index below the bound is a state and whose moves are all undone by
//! moves ([`Space::every_index_a_state`], [`Space::undirected`]) has its late layers found
//! backwards, once the indexes left are fewer than the layer: each unseen index looks for a
//! neighbour in the layer ([`Space::indexed_successor_where`]), and marks only itself.

use std::alloc::{alloc_zeroed, Layout};
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::arena::prefetch;
use crate::bits::bits_budget;
use crate::config::Config;
use crate::outcome::{Exploration, Limit, Stats};
use crate::space::{Space, SHIFT_BLOCK};
use crate::sweep::{self, Control, Entries, Expand, Marker, Sweep, Tally};
use crate::watch::Watch;

/// The most indexes a dense array takes: 2^35 entries, 8 GiB. A larger space is explored
/// another way.
const MAX_DENSE_BOUND: u64 = 1 << 35;
/// Entries a `u64` word holds.
const PER_WORD: u64 = 32;
/// Successors ranked before they are marked together: each one's word is prefetched when it
/// is ranked, so that the cache misses of a batch overlap.
const BATCH: usize = 256;
/// Entries of a layer expanded together through [`Space::indexed_successors_of_run`]: a
/// space whose neighbouring indexes share work shares it over this many.
const RUN: usize = 1024;
/// The even bits of a word: the low bit of every entry.
const LOW: u64 = 0x5555_5555_5555_5555;
/// The code of an expanded entry.
const CLOSED: u64 = 3;

// A chunk of the sweep is made of whole words, and a block the space shifts is one word.
const _: () = assert!(sweep::CHUNK.is_multiple_of(PER_WORD));
const _: () = assert!(PER_WORD == SHIFT_BLOCK);

/// The code of the entries of layer `depth`: 1 and 2 alternate (0 is unseen).
#[inline]
fn layer_code(depth: u32) -> u64 {
    1 + u64::from(depth & 1)
}

/// The entries of `word` whose code is `code` (1 or 2), as their low bits.
#[inline]
fn entries_of(word: u64, code: u64) -> u64 {
    let (low, high) = (word & LOW, (word >> 1) & LOW);
    if code == 1 {
        low & !high
    } else {
        high & !low
    }
}

#[cold]
#[inline(never)]
fn out_of_bound(index: u64, bound: u64) -> ! {
    panic!("Space::index gave {index}, which is not below Space::index_bound, {bound}")
}

/// Two bits for each index below a bound, shared by the workers.
struct Marks {
    words: Vec<AtomicU64>,
    bound: u64,
    /// Whether one worker alone reads and writes the words: it then marks with a plain
    /// store, as no other can write a word between its load and its store (an atomic
    /// read-modify-write costs a locked instruction, which stalls the prefetched loads).
    alone: bool,
}

impl Marks {
    /// Every index unseen; `None` if the array would pass [`MAX_DENSE_BOUND`] or `budget`
    /// bytes, or cannot be allocated.
    ///
    /// The words are allocated zeroed, so the system maps them lazily: a space that reaches few
    /// of its indexes touches few pages, and a large array costs no time before the search
    /// starts.
    ///
    /// With `alone`, the array is only ever used by one thread.
    fn new(bound: u64, budget: u64, alone: bool) -> Option<Marks> {
        if bound > MAX_DENSE_BOUND || bound.div_ceil(4) > budget {
            return None;
        }
        let len = bound.div_ceil(PER_WORD) as usize;
        let words = if len == 0 {
            Vec::new()
        } else {
            let layout = Layout::array::<AtomicU64>(len).ok()?;
            // SAFETY: the layout has a non-zero size; the allocator returns zeroed memory or null.
            let words = unsafe { alloc_zeroed(layout) }.cast::<AtomicU64>();
            if words.is_null() {
                return None;
            }
            // SAFETY: allocated by the global allocator with the layout of `len` AtomicU64s,
            // all zero (a valid AtomicU64, which has the layout of a u64), so a Vec of length and
            // capacity `len` may own it.
            unsafe { Vec::from_raw_parts(words, len, len) }
        };
        Some(Marks {
            words,
            bound,
            alone,
        })
    }

    /// The word of `index`'s entry, and the entry's shift in it.
    #[inline]
    fn place(&self, index: u64) -> (&AtomicU64, u32) {
        if index >= self.bound {
            out_of_bound(index, self.bound);
        }
        // SAFETY: `index < bound <= PER_WORD * words.len()`: the word exists.
        let word = unsafe { self.words.get_unchecked((index / PER_WORD) as usize) };
        (word, 2 * (index % PER_WORD) as u32)
    }

    /// The code of `index`'s entry.
    #[inline]
    fn code(&self, index: u64) -> u64 {
        let (word, shift) = self.place(index);
        (word.load(Ordering::Relaxed) >> shift) & 3
    }

    /// The words holding the entries of `ranks` (a chunk: from a whole word).
    #[inline]
    fn words_of(&self, ranks: &Range<u64>) -> Range<usize> {
        (ranks.start / PER_WORD) as usize..ranks.end.div_ceil(PER_WORD) as usize
    }

    /// The low bits of the entries of word `w` that stand for indexes below the bound.
    #[inline]
    fn valid(&self, w: usize) -> u64 {
        let left = self.bound - w as u64 * PER_WORD;
        if left >= PER_WORD {
            LOW
        } else {
            LOW & ((1 << (2 * left)) - 1)
        }
    }
}

impl Entries for Marks {
    fn ranks(&self) -> u64 {
        self.bound
    }

    /// Forwards, each entry of the layer becomes CLOSED, both its bits set, as it is handed
    /// out: a closed entry and an entry of the layer are alike to the workers marking
    /// successors (both seen), so a word is closed at once. Other workers may be marking
    /// entries of the word: the closing is atomic too (and touches no unseen entry, so a
    /// claim's bit still tells who set it). Backwards, the scan only looks (the layer's
    /// entries are closed after it, by [`Entries::close`]), and leaves out the entries past
    /// the bound (zero, like unseen ones).
    #[inline]
    fn scan(
        &self,
        ranks: Range<u64>,
        depth: u32,
        backward: bool,
        mut take: impl FnMut(u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let words = self.words_of(&ranks);
        let first = words.start;
        let code = layer_code(depth);
        for (w, word) in (first..).zip(&self.words[words]) {
            let value = word.load(Ordering::Relaxed);
            let mut take_of = if backward {
                !(value | value >> 1) & self.valid(w)
            } else {
                entries_of(value, code)
            };
            if take_of == 0 {
                continue;
            }
            if !backward {
                if self.alone {
                    word.store(value | (take_of * CLOSED), Ordering::Relaxed);
                } else {
                    word.fetch_or(take_of * CLOSED, Ordering::Relaxed);
                }
            }
            while take_of != 0 {
                take(w as u64 * PER_WORD + u64::from(take_of.trailing_zeros() / 2))?;
                take_of &= take_of - 1;
            }
        }
        ControlFlow::Continue(())
    }

    /// Gives an unseen `index` the code of layer `depth` (exactly one of several workers
    /// marking it at once is told so): while a layer is found, the only writes to an unseen
    /// entry are of its code, a single bit, so the bit alone tells who set it first.
    #[inline]
    fn claim(&self, index: u64, depth: u32) -> bool {
        let (word, shift) = self.place(index);
        // A plain load first: most successors were seen, and a load takes no lock.
        let value = word.load(Ordering::Relaxed);
        if (value >> shift) & 3 != 0 {
            return false;
        }
        let bit = layer_code(depth) << shift;
        if self.alone {
            word.store(value | bit, Ordering::Relaxed);
            return true;
        }
        word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// The block is one word's entries: the unseen ones among them take the layer's code
    /// at once, and as in [`Entries::claim`], the bits a worker set first are its own.
    #[inline]
    fn claim_block(&self, first: u64, mask: u64, depth: u32) -> u64 {
        let w = (first / PER_WORD) as usize;
        if first >= self.bound {
            out_of_bound(first, self.bound);
        }
        // SAFETY: `first < bound <= PER_WORD * words.len()`: the word exists.
        let word = unsafe { self.words.get_unchecked(w) };
        let value = word.load(Ordering::Relaxed);
        let wanted = sweep::spread_block(mask) & !(value | value >> 1) & self.valid(w);
        if wanted == 0 {
            return 0;
        }
        let shift = layer_code(depth) - 1;
        if self.alone {
            word.store(value | (wanted << shift), Ordering::Relaxed);
            return u64::from(wanted.count_ones());
        }
        let before = word.fetch_or(wanted << shift, Ordering::Relaxed);
        u64::from((wanted & !(before >> shift)).count_ones())
    }

    #[inline]
    fn in_layer(&self, index: u64, depth: u32) -> bool {
        self.code(index) == layer_code(depth)
    }

    #[inline]
    fn reached(&self, index: u64) -> bool {
        self.code(index) != 0
    }

    #[inline]
    fn prefetch(&self, index: u64) {
        prefetch(
            self.words
                .as_ptr()
                .wrapping_add((index / PER_WORD) as usize),
        );
    }

    /// After a backward layer `depth`, whose scan left its entries open (layer `depth + 2`
    /// takes their code): they become CLOSED, both bits set. No other worker writes
    /// meanwhile, so a plain store does.
    const CLOSES: bool = true;

    fn close(&self, ranks: Range<u64>, depth: u32) {
        let code = layer_code(depth);
        for word in &self.words[self.words_of(&ranks)] {
            let value = word.load(Ordering::Relaxed);
            let open = entries_of(value, code);
            if open != 0 {
                word.store(value | (open * CLOSED), Ordering::Relaxed);
            }
        }
    }
}

/// A worker's buffers: the run of layer entries it expands next, and their successors on
/// their way to the array.
struct Buffers<S> {
    run: Vec<u64>,
    batch: Vec<(u64, S)>,
    /// The block of [`SHIFT_BLOCK`] indexes the last entry lies in, and the entries of the
    /// layer in it (bit `j` for index `first + j`), for the space's
    /// [shifts](Space::index_shifts).
    first: u64,
    block: u64,
}

/// A space's successors, by index, for the sweep.
struct Expander<'a, P> {
    space: &'a P,
    /// Whether late layers may be found backwards.
    backwards: bool,
}

impl<P: Space> Expander<'_, P> {
    /// Marks the successors of the block the buffers hold by the space's shifts; empties
    /// it.
    #[inline]
    fn shift<E: Entries>(
        &self,
        buffers: &mut Buffers<P::State>,
        marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()> {
        let mask = std::mem::take(&mut buffers.block);
        let mut flow = ControlFlow::Continue(());
        if mask != 0 {
            self.space.index_shifts(buffers.first, |to| {
                if flow.is_continue() {
                    flow = marker.visit_block(to, mask);
                }
            });
        }
        flow
    }

    /// Marks the successors in `batch` for the next layer; empties it.
    #[inline]
    fn settle<E: Entries>(
        &self,
        batch: &mut Vec<(u64, P::State)>,
        marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()> {
        let flow = marker.visit_batch(
            batch,
            |&(index, _)| index,
            |(_, state)| self.space.weight(state),
        );
        batch.clear();
        flow
    }
}

impl<P> Expand for Expander<'_, P>
where
    P: Space + Sync,
    P::State: Send,
{
    type Worker = Buffers<P::State>;

    fn worker(&self) -> Buffers<P::State> {
        Buffers {
            run: Vec::with_capacity(RUN),
            batch: Vec::with_capacity(BATCH),
            first: 0,
            block: 0,
        }
    }

    #[inline]
    fn expand<E: Entries>(
        &self,
        buffers: &mut Buffers<P::State>,
        index: u64,
        marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()> {
        let first = index - index % SHIFT_BLOCK;
        if first != buffers.first {
            self.shift(buffers, marker)?;
            buffers.first = first;
        }
        buffers.block |= 1 << (index - first);
        buffers.run.push(index);
        if buffers.run.len() < RUN {
            return ControlFlow::Continue(());
        }
        self.flush(buffers, marker)
    }

    fn flush<E: Entries>(
        &self,
        buffers: &mut Buffers<P::State>,
        marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()> {
        self.shift(buffers, marker)?;
        let Buffers { run, batch, .. } = buffers;
        let mut flow = ControlFlow::Continue(());
        self.space
            .indexed_unshifted_successors_of_run(run, |index, next| {
                if flow.is_break() {
                    return;
                }
                marker.prefetch(index);
                batch.push((index, next));
                if batch.len() >= BATCH {
                    flow = self.settle(batch, marker);
                }
            });
        run.clear();
        if flow.is_break() {
            batch.clear();
            return flow;
        }
        self.settle(batch, marker)
    }

    /// Once the indexes left are fewer than the layer's: forwards, each of the layer's
    /// states marks all its successors; backwards, each index left looks at its neighbours
    /// only until one is in the layer.
    fn backwards(&self, left: u64, layer: u64, _branching: f64) -> bool {
        self.backwards && left < layer
    }

    fn parent<E: Entries>(
        &self,
        _: &mut Buffers<P::State>,
        index: u64,
        marker: &mut Marker<'_, E>,
    ) -> Option<u64> {
        let mut looked = 0;
        let found = self.space.indexed_successor_where(index, |next| {
            looked += 1;
            marker.in_layer(next)
        });
        marker.looked(looked);
        found.then(|| (self.space.state_at(index)).map_or(1, |state| self.space.weight(&state)))
    }
}

/// A [`Watch`] as the sweep's control: its limits, its progress reports at each chunk, and
/// the states held after each layer.
struct Watched<'a>(&'a Watch<'a>);

impl Control for Watched<'_> {
    fn limit(&self) -> Option<Limit> {
        self.0.limit()
    }

    fn chunk_done(&self, _chunk: u64, depth: u32, tally: &Tally) -> Option<Limit> {
        self.0.checkpoint(tally.expanded, u64::from(depth))
    }

    fn layer_done(&self, _depth: u32, _found: u64, reached: u64) {
        // The array fit the state budget before the search began: nothing more to check.
        self.0.hold(reached);
    }
}

/// Explores `space` densely (see the [module](self)) if it offers an index and its inverse
/// and two bits an index fit the state budget; `None` otherwise.
pub(crate) fn explore_dense<P>(space: &P, config: &Config) -> Option<Exploration>
where
    P: Space + Sync,
    P::State: Eq + Send,
{
    let bound = space.index_bound()?;
    let start = space.start();
    let start_index = space.index(&start);
    if space.state_at(start_index).as_ref() != Some(&start) {
        return None;
    }
    if start_index >= bound {
        out_of_bound(start_index, bound);
    }
    let threads = config.worker_threads();
    let marks = Marks::new(bound, bits_budget::<P::State>(config), threads <= 1)?;
    let weight = space.weight(&start);
    let run = || run(space, config, &marks, (start_index, weight), threads > 1);
    if threads > 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .use_current_thread()
            .build()
        {
            return Some(pool.install(run));
        }
    }
    Some(run())
}

/// The layers, on the current rayon pool if `parallel`, else on the calling thread.
fn run<P>(
    space: &P,
    config: &Config,
    marks: &Marks,
    start: (u64, u64),
    parallel: bool,
) -> Exploration
where
    P: Space + Sync,
    P::State: Send,
{
    let watch = Watch::new(config);
    let control = Watched(&watch);
    let expander = Expander {
        space,
        backwards: space.undirected() && space.every_index_a_state(),
    };
    let how = Sweep {
        parallel,
        max_depth: config.max_depth,
        look_past: true,
        control: &control,
    };
    let swept = sweep::sweep(marks, &expander, [start], &how);
    Exploration {
        layers: swept.layers.iter().map(|&(_, weight)| weight).collect(),
        limit: swept.limit,
        stats: Stats {
            expanded: swept.expanded,
            generated: swept.generated,
            stored: swept.reached,
            peak_frontier: swept.peak,
            seconds: watch.seconds(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::explore;

    /// The permutations of 0..8 by their Lehmer ranks, moved by swapping the first two and
    /// by rotating one place either way: every move is undone by a move, and every rank
    /// below 8! is a permutation. With `backwards`, the space says both.
    struct Perms {
        backwards: bool,
    }

    const N: usize = 8;

    fn unrank(mut rank: u64) -> [u8; N] {
        let mut left: Vec<u8> = (0..N as u8).collect();
        let mut out = [0u8; N];
        for (i, slot) in out.iter_mut().enumerate() {
            let f: u64 = (1..(N - i) as u64).product();
            *slot = left.remove((rank / f) as usize);
            rank %= f;
        }
        out
    }

    fn rank(p: &[u8; N]) -> u64 {
        (0..N).fold(0, |r, i| {
            r * (N - i) as u64 + p[i + 1..].iter().filter(|&&x| x < p[i]).count() as u64
        })
    }

    impl Space for Perms {
        type State = [u8; N];
        type Move = u8;
        fn start(&self) -> [u8; N] {
            [0, 1, 2, 3, 4, 5, 6, 7]
        }
        fn is_goal(&self, _: &[u8; N]) -> bool {
            false
        }
        fn successors(&self, p: &[u8; N], _: Option<&u8>, mut out: impl FnMut(u8, [u8; N])) {
            let (mut swap, mut left, mut right) = (*p, *p, *p);
            swap.swap(0, 1);
            left.rotate_left(1);
            right.rotate_right(1);
            out(0, swap);
            out(1, left);
            out(2, right);
        }
        fn undirected(&self) -> bool {
            self.backwards
        }
        fn index_bound(&self) -> Option<u64> {
            Some((1..=N as u64).product())
        }
        fn index(&self, p: &[u8; N]) -> u64 {
            rank(p)
        }
        fn state_at(&self, index: u64) -> Option<[u8; N]> {
            Some(unrank(index))
        }
        fn every_index_a_state(&self) -> bool {
            self.backwards
        }
    }

    #[test]
    fn backward_layers_count_as_forward_ones_on_any_threads() {
        // Forwards, each of the 8! states is expanded once; with the late layers found
        // backwards (the states left looking for a neighbour in the layer), the states of
        // those layers are not, and the counts are the same.
        let forward = explore(&Perms { backwards: false }, &Config::default());
        assert_eq!(forward.states(), 40_320);
        assert_eq!(forward.stats.expanded, 40_320);
        assert!(forward.is_complete());
        for threads in [1, 2] {
            let config = Config::default().threads(threads);
            let backward = explore(&Perms { backwards: true }, &config);
            assert_eq!(backward.layers, forward.layers, "{threads} threads");
            assert!(backward.is_complete());
            assert_ne!(backward.stats.expanded, 40_320, "no layer went backwards");
        }
    }

    /// A 64 x 64 torus, index `64 y + x`, from (0, 0): a step along `y` moves the whole
    /// block of 32 indexes holding an index by 64, which, with `shifts`, the space says.
    struct Torus {
        shifts: bool,
    }

    impl Space for Torus {
        type State = u64;
        type Move = ();
        fn start(&self) -> u64 {
            0
        }
        fn is_goal(&self, _: &u64) -> bool {
            false
        }
        fn successors(&self, i: &u64, _: Option<&()>, mut out: impl FnMut((), u64)) {
            let (x, y) = (i % 64, i / 64);
            for (x, y) in [(x + 1, y), (x + 63, y), (x, y + 1), (x, y + 63)] {
                out((), y % 64 * 64 + x % 64);
            }
        }
        fn index_bound(&self) -> Option<u64> {
            Some(64 * 64)
        }
        fn index(&self, i: &u64) -> u64 {
            *i
        }
        fn state_at(&self, index: u64) -> Option<u64> {
            Some(index)
        }
        fn index_shifts(&self, first: u64, mut out: impl FnMut(u64)) {
            if self.shifts {
                out((first + 64) % 4096);
                out((first + 4096 - 64) % 4096);
            }
        }
        fn indexed_unshifted_successors_of_run(&self, run: &[u64], mut out: impl FnMut(u64, u64)) {
            for &i in run {
                self.successors(&i, None, |_, next| {
                    if !self.shifts || next / 64 == i / 64 {
                        out(next, next);
                    }
                });
            }
        }
    }

    #[test]
    fn blocks_shifted_at_once_count_as_successors_one_by_one() {
        // The layers of a torus are diamonds: 4d states at distance d up to 32, then fewer.
        let plain = explore(&Torus { shifts: false }, &Config::default().threads(1));
        assert_eq!(plain.states(), 4096);
        assert_eq!(plain.layers[..4], [1, 4, 8, 12]);
        for threads in [1, 2] {
            let config = Config::default().threads(threads);
            let shifted = explore(&Torus { shifts: true }, &config);
            assert_eq!(shifted.layers, plain.layers, "{threads} threads");
            assert_eq!(shifted.stats.generated, plain.stats.generated);
            // A depth limit looks whether the shifted blocks hold states not reached.
            for (depth, limit) in [(10, Some(Limit::Depth)), (64, None)] {
                let cut = explore(&Torus { shifts: true }, &config.clone().max_depth(depth));
                assert_eq!(cut.limit, limit, "depth {depth}");
                assert_eq!(cut.layers[..], plain.layers[..cut.layers.len()]);
            }
        }
    }

    #[test]
    fn a_depth_limit_looks_forwards_past_the_last_layer() {
        let all = explore(&Perms { backwards: true }, &Config::default());
        let deep = all.layers.len() as u32 - 2;
        let cut = explore(
            &Perms { backwards: true },
            &Config::default().max_depth(deep),
        );
        assert_eq!(cut.limit, Some(Limit::Depth));
        assert_eq!(cut.layers, all.layers[..=deep as usize]);
        let whole = explore(
            &Perms { backwards: true },
            &Config::default().max_depth(deep + 1),
        );
        assert_eq!(whole.layers, all.layers);
        assert_eq!(whole.limit, None);
    }
}
