//! Dense exploration: for a space that can [index](crate::Space::index) its states and
//! [unrank](crate::Space::state_at) them again, two bits an index and no state stored.
//!
//! Entry `i` of the array says where index `i` stands: unseen, in the layer being expanded,
//! in the next one, or closed (expanded). The two layer codes alternate from layer to layer,
//! so a layer never needs converting: layer `d` is code [`layer_code`]`(d)`, the next is the
//! other one, and an expanded entry becomes [`CLOSED`]. Each layer is found by scanning the
//! array in chunks shared out among the workers; a worker asks the space for the successors of
//! each entry of the layer with their indexes ([`Space::indexed_successors`]) and marks the unseen ones with an atomic bit-or (every
//! writer in a layer writes the same code, so no lock is taken and exactly one of them sees the
//! entry unseen: the counts are exact for any number of threads).

use std::alloc::{alloc_zeroed, Layout};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::arena::prefetch;
use crate::bits::bits_budget;
use crate::config::Config;
use crate::outcome::{Exploration, Limit, Stats};
use crate::space::Space;
use crate::watch::Watch;

/// The most indexes a dense array takes: 2^35 entries, 8 GiB. A larger space is explored
/// another way.
const MAX_DENSE_BOUND: u64 = 1 << 35;
/// Entries a `u64` word holds.
const PER_WORD: u64 = 32;
/// Words a worker scans at once (65,536 entries): the limits are checked, and the work is
/// handed out, a chunk at a time.
const CHUNK_WORDS: usize = 1 << 11;
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

/// Two bits for each index below a bound, shared by the workers; and for each chunk and each
/// of the two layer codes, whether the chunk may hold an entry of it.
struct Marks {
    words: Vec<AtomicU64>,
    bound: u64,
    /// `active[code - 1][chunk]`: an entry of `code` may lie in `chunk`.
    active: [Vec<AtomicBool>; 2],
}

impl Marks {
    /// Every index unseen; `None` if the array would pass [`MAX_DENSE_BOUND`] or `budget`
    /// bytes, or cannot be allocated.
    ///
    /// The words are allocated zeroed, so the system maps them lazily: a space that reaches few
    /// of its indexes touches few pages, and a large array costs no time before the search
    /// starts.
    fn new(bound: u64, budget: u64) -> Option<Marks> {
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
        let chunks = len.div_ceil(CHUNK_WORDS);
        let flags = || (0..chunks).map(|_| AtomicBool::new(false)).collect();
        Some(Marks {
            words,
            bound,
            active: [flags(), flags()],
        })
    }

    fn chunks(&self) -> usize {
        self.active[0].len()
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

    /// Starts loading the word of `index`'s entry.
    #[inline]
    fn prefetch(&self, index: u64) {
        prefetch(
            self.words
                .as_ptr()
                .wrapping_add((index / PER_WORD) as usize),
        );
    }

    /// Whether `index` was never seen.
    #[inline]
    fn unseen(&self, index: u64) -> bool {
        let (word, shift) = self.place(index);
        (word.load(Ordering::Relaxed) >> shift) & 3 == 0
    }

    /// Gives an unseen `index` the code `code`; returns whether it was unseen (exactly one
    /// of several workers marking it at once is told so).
    #[inline]
    fn mark(&self, index: u64, code: u64) -> bool {
        let (word, shift) = self.place(index);
        // A plain load first: most successors were seen, and a load takes no lock.
        if (word.load(Ordering::Relaxed) >> shift) & 3 != 0 {
            return false;
        }
        let new = (word.fetch_or(code << shift, Ordering::Relaxed) >> shift) & 3 == 0;
        if new {
            let flag = &self.active[code as usize - 1][(index / PER_WORD) as usize / CHUNK_WORDS];
            if !flag.load(Ordering::Relaxed) {
                flag.store(true, Ordering::Relaxed);
            }
        }
        new
    }
}

/// What the expansion of some chunks did.
#[derive(Clone, Copy, Default)]
struct Tally {
    expanded: u64,
    generated: u64,
    /// States of the next layer marked.
    found: u64,
    /// Their weight.
    weight: u64,
    /// In the last layer: whether a successor was unseen (something lies deeper).
    deeper: bool,
}

impl Tally {
    fn add(self, other: Tally) -> Tally {
        Tally {
            expanded: self.expanded + other.expanded,
            generated: self.generated + other.generated,
            found: self.found + other.found,
            weight: self.weight.saturating_add(other.weight),
            deeper: self.deeper || other.deeper,
        }
    }
}

/// A worker's buffers: the run of layer entries it expands next, and their successors on
/// their way to the array.
struct Buffers<S> {
    run: Vec<u64>,
    batch: Vec<(u64, S)>,
}

impl<S> Buffers<S> {
    fn new() -> Buffers<S> {
        Buffers {
            run: Vec::with_capacity(RUN + PER_WORD as usize),
            batch: Vec::with_capacity(BATCH + 64),
        }
    }
}

/// One layer's expansion, shared by its workers.
struct Sweep<'a, P> {
    space: &'a P,
    marks: &'a Marks,
    watch: &'a Watch<'a>,
    depth: u32,
    /// The last layer the limits allow: its successors are only looked at.
    last: bool,
}

impl<P: Space> Sweep<'_, P> {
    /// Expands the layer's entries in chunk `chunk`, runs of them at a time, using `buffers`
    /// for each run and for the successors on their way to the array.
    fn chunk(&self, chunk: usize, buffers: &mut Buffers<P::State>) -> Tally {
        let mut tally = Tally::default();
        let code = layer_code(self.depth);
        let flag = &self.marks.active[code as usize - 1][chunk];
        if !flag.load(Ordering::Relaxed) || self.watch.limit().is_some() {
            return tally;
        }
        flag.store(false, Ordering::Relaxed);
        let first = chunk * CHUNK_WORDS;
        let end = (first + CHUNK_WORDS).min(self.marks.words.len());
        let Buffers { run, batch } = buffers;
        for (w, word) in (first..).zip(&self.marks.words[first..end]) {
            let mut layer = entries_of(word.load(Ordering::Relaxed), code);
            if layer == 0 {
                continue;
            }
            // Each entry of the layer becomes CLOSED, both its bits set: a closed entry and an
            // entry of the layer are alike to the workers marking successors (both seen), so
            // the word is closed as its entries join the run. Other workers may be marking
            // entries of this word: the closing is atomic too.
            word.fetch_or(layer * CLOSED, Ordering::Relaxed);
            while layer != 0 {
                run.push(w as u64 * PER_WORD + u64::from(layer.trailing_zeros() / 2));
                layer &= layer - 1;
            }
            if run.len() >= RUN && self.expand(run, batch, &mut tally) {
                return tally;
            }
        }
        if !run.is_empty() && self.expand(run, batch, &mut tally) {
            return tally;
        }
        self.settle(batch, &mut tally);
        if let Some(limit) = self.watch.checkpoint(tally.expanded, u64::from(self.depth)) {
            self.watch.stop(limit);
        }
        tally
    }

    /// Expands the entries of `run` and empties it; returns whether a limit stopped the
    /// search (`batch` is then emptied without marking).
    fn expand(
        &self,
        run: &mut Vec<u64>,
        batch: &mut Vec<(u64, P::State)>,
        tally: &mut Tally,
    ) -> bool {
        let mut stopped = false;
        let mut next_look = tally.generated + Watch::CHECK_EVERY;
        tally.expanded += run.len() as u64;
        self.space.indexed_successors_of_run(run, |index, next| {
            if stopped {
                return;
            }
            self.marks.prefetch(index);
            batch.push((index, next));
            if batch.len() >= BATCH {
                self.settle(batch, tally);
                // Within one expansion too: a state may have millions of successors.
                if tally.generated >= next_look {
                    next_look += Watch::CHECK_EVERY;
                    stopped = self.watch.limit().is_some();
                }
            }
        });
        run.clear();
        if stopped {
            batch.clear();
        }
        stopped
    }

    /// Marks the successors in `batch` for the next layer (in the last layer, only looks
    /// whether one is unseen); empties it.
    fn settle(&self, batch: &mut Vec<(u64, P::State)>, tally: &mut Tally) {
        tally.generated += batch.len() as u64;
        if self.last {
            tally.deeper |= batch.iter().any(|&(index, _)| self.marks.unseen(index));
        } else {
            let next = layer_code(self.depth + 1);
            for (index, state) in batch.iter() {
                if self.marks.mark(*index, next) {
                    tally.found += 1;
                    tally.weight = tally.weight.saturating_add(self.space.weight(state));
                }
            }
        }
        batch.clear();
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
    let marks = Marks::new(bound, bits_budget::<P::State>(config))?;
    let threads = config.worker_threads();
    let run = || run(space, config, &marks, start, start_index, threads > 1);
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
    start: P::State,
    start_index: u64,
    parallel: bool,
) -> Exploration
where
    P: Space + Sync,
    P::State: Send,
{
    let watch = Watch::new(config);
    let mut stats = Stats::default();
    let mut layers = vec![space.weight(&start)];
    marks.mark(start_index, layer_code(0));
    let (mut reached, mut width) = (1u64, 1u64);
    let mut depth = 0u32;
    let limit = loop {
        stats.peak_frontier = stats.peak_frontier.max(width);
        let last = config.max_depth.is_some_and(|max| depth >= max);
        if let Some(limit) = watch.limit() {
            // The next layer was begun, with nothing found yet: counted, as the other
            // strategies count it.
            if !last {
                layers.push(0);
            }
            break Some(limit);
        }
        let sweep = Sweep {
            space,
            marks,
            watch: &watch,
            depth,
            last,
        };
        let chunks = 0..marks.chunks();
        let tally = if parallel {
            (chunks.into_par_iter())
                .map_init(Buffers::new, |b, c| sweep.chunk(c, b))
                .reduce(Tally::default, Tally::add)
        } else {
            let mut buffers = Buffers::new();
            (chunks.map(|c| sweep.chunk(c, &mut buffers))).fold(Tally::default(), Tally::add)
        };
        stats.expanded += tally.expanded;
        stats.generated += tally.generated;
        if let Some(limit) = watch.stopped() {
            if !last {
                layers.push(tally.weight);
            }
            break Some(limit);
        }
        if last {
            break tally.deeper.then_some(Limit::Depth);
        }
        if tally.found == 0 {
            break None;
        }
        layers.push(tally.weight);
        reached += tally.found;
        width = tally.found;
        // The array fit the state budget before the search began: nothing more to check.
        watch.hold(reached);
        depth += 1;
    };
    stats.stored = reached;
    stats.seconds = watch.seconds();
    Exploration {
        layers,
        limit,
        stats,
    }
}
