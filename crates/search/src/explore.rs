//! Counting the reachable set layer by layer, in a seen-set split into shards by hash.
//!
//! A layer is expanded in slices; each slice's successors are sorted into one bucket per shard,
//! and then every shard takes its own buckets. The shards are small, so the inserts of one
//! shard stay in cache (on a cube, one thread counts twice as fast as with one big table), and
//! with `threads > 1` the shards take their states in parallel. The order in which a shard
//! receives states is fixed, so the counts never depend on the number of threads.

use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::Range;

use rayon::prelude::*;

use crate::arena::{hash_of, Insert, StateSet, AHEAD};
use crate::bits::{bits_budget, BitSet, Bits};
use crate::config::{Config, Intake, Meter};
use crate::dense;
use crate::layers::{Layer, LayerSet};
use crate::outcome::{Exploration, Limit};
use crate::parallel::{count_expansions, next_slices, regroup, CHUNK};
use crate::space::Space;

/// How many shards the seen-set is split into once it is large.
const SHARDS: usize = 64;
/// The parent of a state that has none: the start.
const NO_PARENT: u32 = u32::MAX;
/// States held before the seen-set is split into shards: below it, one table is faster than
/// many (measured on the 8-puzzle's 181,440 states).
pub(crate) const SHARD_FROM: usize = 1 << 18;
/// Successors generated on one thread before they are inserted together.
const PENDING: usize = 1 << 9;
/// Slices expanded per thread between two insertions (bounds the buckets' memory).
const SLICES_PER_THREAD: usize = 4;
/// Layers of at most this many states over sharded stores are expanded without buckets.
const FEW: usize = 64;

/// The shard of a hash: bits the hash table itself does not use (it takes its bucket from the
/// low bits and a filter byte from the top seven).
#[inline]
fn shard_of(hash: u64, shards: usize) -> usize {
    (hash >> 32) as usize % shards
}

/// Counts the whole reachable set by distance from the start: `layers[d]` states lie exactly `d`
/// moves away, each counted with its [weight](Space::weight). With `max_depth`, stops after
/// that layer (complete all the same if nothing lies deeper).
///
/// Memory: every seen state once; or, when the space is [undirected](Space::undirected), only
/// the layers `d - 1`, `d` and `d + 1` (frontier search), since every successor of layer `d`
/// lies in one of them. The three layers share one index, so each successor is looked up once,
/// and a layer's states leave the index when it falls behind.
///
/// How the layers are counted is chosen once, when the exploration starts:
/// - for a space with a perfect [index](Space::index_bound) and its inverse
///   ([`Space::state_at`]) whose two bits an index fit the state budget (and are no more than
///   2^35), no state is stored: each index seen is two bits of an array, which say whether it
///   lies in the layer being expanded, in the next one, or behind. Each layer is expanded by
///   unranking its indexes, in chunks of the array shared out among
///   [`Config::worker_threads`], and its successors are marked in the array with atomic
///   bit operations, without locks;
/// - else for a space with a perfect [index](Space::index_bound) whose bits fit the state budget
///   (and are no more than 2^33), each state seen is one bit of an array of `index_bound`
///   bits, and only the previous, current and next layers' states are kept, whatever the
///   space's moves. A look-up reads one bit and the array never grows. It runs on the calling
///   thread;
/// - else with [`Config::worker_threads`] above one, a wide layer's states are expanded in
///   parallel, and once the seen-set is split into shards, the shards store their states in
///   parallel (layers narrower than [`Config::parallel_from`] stay on one thread);
/// - else on the calling thread over one seen-set, split into shards once it is large.
///
/// The counts are the same whichever is taken, for any number of threads.
///
/// ```
/// use frontier_search::{explore, Config, Space};
///
/// /// A ring of 10 states; each step goes one way or the other.
/// struct Ring;
/// impl Space for Ring {
///     type State = u8;
///     type Move = i8;
///     fn start(&self) -> u8 { 0 }
///     fn is_goal(&self, _: &u8) -> bool { false }
///     fn successors(&self, s: &u8, _: Option<&i8>, mut out: impl FnMut(i8, u8)) {
///         out(1, (s + 1) % 10);
///         out(-1, (s + 9) % 10);
///     }
/// }
///
/// let exploration = explore(&Ring, &Config::default());
/// assert_eq!(exploration.layers, [1, 2, 2, 2, 2, 1]);
/// assert!(exploration.is_complete());
/// assert_eq!(explore(&Ring, &Config::default().threads(2)).layers, exploration.layers);
/// ```
pub fn explore<P>(space: &P, config: &Config) -> Exploration
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
{
    if let Some(exploration) = dense::explore_dense(space, config) {
        return exploration;
    }
    if let Some(exploration) = explore_bits(space, config) {
        return exploration;
    }
    let hashed = || {
        with_layers(config, |meter, layers| {
            run_explore(space, meter, layers, &Pool, &hash_of)
        })
    };
    if config.worker_threads() > 1 {
        return in_pool(config, hashed);
    }
    with_layers(config, |meter, layers| {
        run_explore(space, meter, layers, &Serial, &hash_of)
    })
}

/// Explores on the calling thread with a bit per index as the record of the states seen;
/// `None` if the space has no index or the bits would not do (see [`explore`]).
fn explore_bits<P>(space: &P, config: &Config) -> Option<Exploration>
where
    P: Space,
    P::State: Hash + Eq,
{
    let seen = BitSet::new(space.index_bound()?, bits_budget::<P::State>(config))?;
    let key = |state: &P::State| space.index(state);
    Some(with_layers(config, |meter, layers| {
        explore_in(space, meter, layers, Bits::new(seen), &key, &Serial)
    }))
}

/// Runs `run` on a pool of [`Config::worker_threads`] workers, the caller's thread one of them.
fn in_pool<R: Send>(config: &Config, run: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(config.worker_threads())
        .use_current_thread()
        .build()
    {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// Runs an exploration's body over a fresh meter and layer counts.
fn with_layers(
    config: &Config,
    body: impl FnOnce(&mut Meter, &mut Vec<u64>) -> Option<Limit>,
) -> Exploration {
    let mut meter = Meter::new(config);
    let mut layers = Vec::new();
    let limit = body(&mut meter, &mut layers);
    Exploration {
        layers,
        limit,
        stats: meter.finish(),
    }
}

/// What a shard keeps of the states seen, layer by layer: every state ([`AllStates`]), or in
/// frontier mode only the previous, current and next layers ([`LayerSet`]). The explorer is
/// compiled once for each, so its inner loops never ask which.
pub(crate) trait Store<S>: Sized {
    /// States held (checked at each new layer) before every shard's index moves to the large
    /// kind, whose slots the insertions prefetch and which grows without re-hashing.
    const LARGE_FROM: usize;

    /// An empty store of the same kind, for a split into shards; `None` if this kind cannot
    /// be split (a bit store's bits cover every index).
    fn fresh() -> Option<Self>;
    /// The current layer's states, in the order found.
    fn layer(&self) -> &[S];
    /// The previous layer's states, in the order found.
    fn previous(&self) -> &[S];
    /// Whether `state` was seen (in frontier mode: lies in the three layers).
    fn seen(&self, hash: u64, state: &S) -> bool;
    /// Adds `state` to the next layer unless it was seen; returns whether it was new.
    fn insert_next(&mut self, hash: u64, state: S) -> bool;
    /// Adds a state that is not held yet to `layer`, the previous or the current one, after
    /// the states there (for a split, which hands the older layers over first).
    fn place(&mut self, layer: Layer, hash: u64, state: S);
    /// The states held, with their layers, older layers first.
    fn into_layers(self) -> Vec<(Layer, Vec<S>)>;
    /// The states of the next layer found so far.
    fn found(&self) -> &[S];
    /// Makes the next layer the current one.
    fn advance(&mut self);
    /// States held in memory.
    fn held(&self) -> usize;
    /// Makes room for `additional` more states without the index growing in between.
    fn reserve(&mut self, additional: usize);
    /// Starts loading the slot a state of this hash would be looked up in.
    fn prefetch(&self, hash: u64);
    /// Moves the index to the large kind.
    fn make_large(&mut self);
    /// Whether a state was refused for want of room (a layer's positions ran out): the
    /// exploration must stop at its state limit.
    fn refused(&self) -> bool {
        false
    }

    /// Takes the previous and current layers out, for a caller that expands the current layer
    /// while inserting straight into the next one; `None` if looking states up needs them in
    /// place (a hash index compares states there).
    fn lend(&mut self) -> Option<Lent<S>> {
        None
    }

    /// Puts back the layers [`Store::lend`] took.
    fn restore(&mut self, _lent: Lent<S>) {}
}

/// The previous and current layers, lent by a [`Store`].
pub(crate) struct Lent<S> {
    pub previous: Vec<S>,
    pub current: Vec<S>,
}

/// Every state seen, in the order found, so that each layer is a range of ids.
struct AllStates<S> {
    set: StateSet<S>,
    previous: Range<usize>,
    layer: Range<usize>,
}

impl<S: Hash + Eq> AllStates<S> {
    fn new() -> Self {
        AllStates {
            set: StateSet::new(),
            previous: 0..0,
            layer: 0..0,
        }
    }
}

impl<S: Hash + Eq> Store<S> for AllStates<S> {
    /// Measured on the cube's positions (in frontier mode, three sets a shard, before the single
    /// index) with two threads: to depth 7 (109 M states) 15.4 s -> 12.2 s for a sixth more memory (2.9 -> 3.4 GiB); to depth 6
    /// (8 M states, which switches only for the last check) 0.81 -> 0.88 s. From the split
    /// instead, a 2100 x 2100 grid (4.4 M states in 4,200 layers) took 2.95 s against 2.55 s.
    const LARGE_FROM: usize = 1 << 22;

    fn fresh() -> Option<Self> {
        Some(AllStates::new())
    }

    #[inline]
    fn layer(&self) -> &[S] {
        &self.set.states[self.layer.clone()]
    }

    #[inline]
    fn previous(&self) -> &[S] {
        &self.set.states[self.previous.clone()]
    }

    fn seen(&self, hash: u64, state: &S) -> bool {
        self.set.find_hashed(hash, state).is_some()
    }

    #[inline]
    fn insert_next(&mut self, hash: u64, state: S) -> bool {
        matches!(self.set.insert_hashed(hash, state), Insert::New(_))
    }

    fn place(&mut self, layer: Layer, hash: u64, state: S) {
        self.set.insert_hashed(hash, state);
        let end = self.set.len();
        match layer {
            Layer::Current => self.layer.end = end,
            Layer::Previous | Layer::Next => self.layer = end..end,
        }
    }

    fn into_layers(mut self) -> Vec<(Layer, Vec<S>)> {
        let current = self.set.states.split_off(self.layer.start);
        vec![
            (Layer::Previous, self.set.states),
            (Layer::Current, current),
        ]
    }

    fn found(&self) -> &[S] {
        &self.set.states[self.layer.end..]
    }

    fn advance(&mut self) {
        self.previous = self.layer.clone();
        self.layer = self.layer.end..self.set.len();
    }

    fn held(&self) -> usize {
        self.set.len()
    }

    fn reserve(&mut self, additional: usize) {
        self.set.reserve(additional);
    }

    #[inline]
    fn prefetch(&self, hash: u64) {
        self.set.prefetch(hash);
    }

    fn make_large(&mut self) {
        self.set.make_large();
    }
}

/// One shard of the seen-set, with the parents of its current layer.
struct Shard<S, T> {
    store: T,
    /// While the seen-set is this one shard: for each state of the current layer, the position
    /// in the previous layer of the state it was first reached from, or [`NO_PARENT`].
    /// Expanding a state skips the successor equal to its parent with one comparison instead of
    /// a lookup. In a space whose moves can be undone that successor comes up at every
    /// expansion: on the 8-puzzle (2.7 successors a state), a third of all lookups. Sharded
    /// sets keep no parents: a parent then lies in another shard, a cache miss away, and costs
    /// more than it saves (measured on the cube, 18 successors a state).
    parents: Vec<u32>,
    /// The parents of the next layer's states found so far.
    next_parents: Vec<u32>,
    /// The weight of the next layer's states found so far: each is weighed as it is stored, so
    /// that a search stopped by a limit has none left to weigh (the cube's classes, weighed
    /// all at the stop, overshot a timeout by 0.6 s).
    weight: u64,
    _states: PhantomData<S>,
}

impl<S: Hash + Eq, T: Store<S>> Shard<S, T> {
    fn new(store: T) -> Self {
        Shard {
            store,
            parents: Vec::new(),
            next_parents: Vec::new(),
            weight: 0,
            _states: PhantomData,
        }
    }

    /// A shard of `store` whose current layer is the start alone (whose key is `key`).
    fn planted(store: T, start: S, key: u64) -> Self {
        let mut shard = Shard::new(store);
        shard.admit(key, start, Some(NO_PARENT), &|_| 0);
        shard.advance();
        shard
    }

    /// Takes a successor of the current layer, reached from `parent` if parents are kept:
    /// stores it in the next layer if it was not seen, and adds its weight.
    #[inline]
    fn admit(&mut self, hash: u64, state: S, parent: Option<u32>, weigh: &impl Fn(&S) -> u64) {
        if self.store.insert_next(hash, state) {
            let weight = weigh(self.store.found().last().expect("just stored"));
            self.weight = self.weight.saturating_add(weight);
            if let Some(parent) = parent {
                self.next_parents.push(parent);
            }
        }
    }

    /// Takes a batch of successors in order, prefetching the slots of those a few places ahead
    /// so that their cache misses overlap; leaves the batch empty.
    fn admit_all(&mut self, batch: &mut Batch<S>, weigh: &impl Fn(&S) -> u64) {
        self.store.reserve(batch.states.len());
        for &hash in batch.hashes.iter().take(AHEAD) {
            self.store.prefetch(hash);
        }
        for (k, state) in batch.states.drain(..).enumerate() {
            if let Some(&ahead) = batch.hashes.get(k + AHEAD) {
                self.store.prefetch(ahead);
            }
            let parent = batch.parents.get(k).copied();
            self.admit(batch.hashes[k], state, parent, weigh);
        }
        batch.hashes.clear();
        batch.parents.clear();
    }

    /// Takes each of `buckets` in order, every state weighed by `space`.
    fn admit_buckets<P: Space<State = S>>(&mut self, buckets: Vec<Batch<S>>, space: &P) {
        for mut bucket in buckets {
            self.admit_all(&mut bucket, &|state| space.weight(state));
        }
    }

    /// Makes the next layer the current one.
    fn advance(&mut self) {
        std::mem::swap(&mut self.parents, &mut self.next_parents);
        self.next_parents.clear();
        self.store.advance();
        self.weight = 0;
    }

    /// How an expansion reads this shard's current layer.
    fn reading(&self) -> Reading<'_, S> {
        Reading {
            layer: self.store.layer(),
            parents: &self.parents,
            previous: self.store.previous(),
        }
    }

    /// Expands the current layer's `slices` on this thread and stores their new
    /// successors; each slice's expansions are counted (and the limits checked) before it runs. A store that [lends](Store::lend) its layers takes each successor straight
    /// from the space's callback; any other takes them through `pending`, in batches whose
    /// look-ups are prefetched.
    fn expand_alone<P>(
        &mut self,
        space: &P,
        meter: &mut Meter,
        depth: u32,
        slices: &[(usize, Range<usize>)],
        key: &impl Fn(&S) -> u64,
        pending: &mut Batch<S>,
    ) -> Result<(), Limit>
    where
        P: Space<State = S>,
    {
        let mut intake = meter.intake(1);
        let result = if let Some(lent) = self.store.lend() {
            let reading = Reading {
                layer: &lent.current,
                parents: &self.parents,
                previous: &lent.previous,
            };
            let (store, next_parents, weight) =
                (&mut self.store, &mut self.next_parents, &mut self.weight);
            let mut result = Ok(());
            for (_, slice) in slices {
                if let Err(limit) = meter.expand_many(u64::from(depth), slice.len() as u64) {
                    result = Err(limit);
                    break;
                }
                for position in slice.clone() {
                    // Shard::admit, on the parts of the shard not lent to `reading` (it borrows
                    // `self.parents`). A shared function for both cost 5.7% more instructions
                    // on the 8-puzzle's explore (callgrind): it changed how the space's
                    // successor code was compiled around it.
                    let admit = |key, next, parent| {
                        if store.insert_next(key, next) {
                            let stored = store.found().last().expect("just stored");
                            *weight = weight.saturating_add(space.weight(stored));
                            if let Some(parent) = parent {
                                next_parents.push(parent);
                            }
                        }
                    };
                    expand_state(space, &reading, position, key, &mut intake, admit);
                }
                if intake.stopped().is_some() {
                    break;
                }
            }
            self.store.restore(lent);
            result
        } else {
            let weigh = |state: &S| space.weight(state);
            let mut result = Ok(());
            'slices: for (_, slice) in slices {
                if let Err(limit) = meter.expand_many(u64::from(depth), slice.len() as u64) {
                    result = Err(limit);
                    break;
                }
                let mut position = slice.start;
                while position < slice.end {
                    let reading = self.reading();
                    while position < slice.end && pending.states.len() < PENDING {
                        let push = |hash, next, parent| pending.push(hash, next, parent);
                        expand_state(space, &reading, position, key, &mut intake, push);
                        position += 1;
                    }
                    if intake.stopped().is_some() {
                        pending.clear();
                        break 'slices;
                    }
                    self.admit_all(pending, &weigh);
                }
            }
            self.admit_all(pending, &weigh);
            result
        };
        meter.stats.generated += intake.offered();
        intake.stopped().map_or(result, Err)
    }
}

/// Successors on their way into a shard, in the order generated, with their hashes and, while
/// the seen-set is one shard, the ids of the states they were generated from.
struct Batch<S> {
    hashes: Vec<u64>,
    states: Vec<S>,
    parents: Vec<u32>,
}

impl<S> Batch<S> {
    fn new() -> Self {
        Batch {
            hashes: Vec::new(),
            states: Vec::new(),
            parents: Vec::new(),
        }
    }

    /// Drops the successors waiting.
    fn clear(&mut self) {
        self.hashes.clear();
        self.states.clear();
        self.parents.clear();
    }

    fn push(&mut self, hash: u64, state: S, parent: Option<u32>) {
        self.hashes.push(hash);
        self.states.push(state);
        if let Some(parent) = parent {
            self.parents.push(parent);
        }
    }
}

/// A shard's current layer as an expansion reads it: its states, their parents' positions
/// (empty if the shard keeps none) and the previous layer they point into.
struct Reading<'a, S> {
    layer: &'a [S],
    parents: &'a [u32],
    previous: &'a [S],
}

/// Calls `out(key, next, parent)` for each successor `next` of the state at `position` in the
/// current layer that `intake` takes, with `parent` that position if the shard keeps parents;
/// skips the successor equal to the state's own parent.
#[inline]
fn expand_state<P>(
    space: &P,
    reading: &Reading<'_, P::State>,
    position: usize,
    key: &impl Fn(&P::State) -> u64,
    intake: &mut Intake,
    mut out: impl FnMut(u64, P::State, Option<u32>),
) where
    P: Space,
    P::State: Hash + Eq,
{
    let own = reading.parents.get(position).copied();
    let parent = (own.filter(|&p| p != NO_PARENT)).map(|p| &reading.previous[p as usize]);
    let me = own.map(|_| position as u32);
    space.successors(&reading.layer[position], None, |_, next| {
        if intake.take() && parent != Some(&next) {
            out(key(&next), next, me);
        }
    });
}

/// Successors on their way to their shards: one batch per shard.
type Buckets<S> = Vec<Batch<S>>;

/// Explores with every state kept, or in frontier mode only three layers, on `workers`,
/// keying each state by `hash` ([`hash_of`]: a function item, which the inner loops inline,
/// where a function pointer would be called for every successor).
fn run_explore<P, W, K>(
    space: &P,
    meter: &mut Meter,
    layers: &mut Vec<u64>,
    workers: &W,
    hash: &K,
) -> Option<Limit>
where
    P: Space,
    P::State: Hash + Eq,
    K: Fn(&P::State) -> u64,
    W: Workers<P, LayerSet<P::State>, K> + Workers<P, AllStates<P::State>, K>,
{
    if space.undirected() {
        explore_in(space, meter, layers, LayerSet::new(), hash, workers)
    } else {
        explore_in(space, meter, layers, AllStates::new(), hash, workers)
    }
}

/// Who does a layer's work: the calling thread alone ([`Serial`]) or the workers of the
/// current rayon pool ([`Pool`]). The explorer is written once over both; only the parallel
/// kind asks for a space and states that can be shared between threads.
trait Workers<P: Space, T, K> {
    /// Threads that may expand slices at once.
    fn threads(&self) -> usize;
    /// Expands each of the current layer's `slices` into one bucket per shard; returns each
    /// slice's intake (what it generated, and whether a limit stopped it) and buckets.
    fn expand_slices<'a>(
        &self,
        space: &P,
        shards: &[Shard<P::State, T>],
        slices: &[(usize, Range<usize>)],
        key: &K,
        intake: &Intake<'a>,
    ) -> Vec<(Intake<'a>, Buckets<P::State>)>;
    /// Whether any bucketed successor is one its shard has not seen.
    fn any_unseen(
        &self,
        shards: &[Shard<P::State, T>],
        expanded: &[(Intake<'_>, Buckets<P::State>)],
    ) -> bool;
    /// Each shard takes its buckets, in order.
    fn admit(&self, space: &P, shards: &mut [Shard<P::State, T>], by_shard: Vec<Buckets<P::State>>);
    /// Moves every shard's index to the large kind.
    fn make_large(&self, shards: &mut [Shard<P::State, T>]);
}

/// The calling thread alone.
struct Serial;

impl<P, T, K> Workers<P, T, K> for Serial
where
    P: Space,
    P::State: Hash + Eq,
    T: Store<P::State>,
    K: Fn(&P::State) -> u64,
{
    fn threads(&self) -> usize {
        1
    }

    fn expand_slices<'a>(
        &self,
        space: &P,
        shards: &[Shard<P::State, T>],
        slices: &[(usize, Range<usize>)],
        key: &K,
        intake: &Intake<'a>,
    ) -> Vec<(Intake<'a>, Buckets<P::State>)> {
        let expand = |(k, slice): &(usize, Range<usize>)| {
            expand_slice(space, shards, *k, slice.clone(), key, intake.clone())
        };
        slices.iter().map(expand).collect()
    }

    fn any_unseen(
        &self,
        shards: &[Shard<P::State, T>],
        expanded: &[(Intake<'_>, Buckets<P::State>)],
    ) -> bool {
        expanded
            .iter()
            .any(|(_, buckets)| any_unseen(shards, buckets))
    }

    fn admit(
        &self,
        space: &P,
        shards: &mut [Shard<P::State, T>],
        by_shard: Vec<Buckets<P::State>>,
    ) {
        for (shard, buckets) in shards.iter_mut().zip(by_shard) {
            shard.admit_buckets(buckets, space);
        }
    }

    fn make_large(&self, shards: &mut [Shard<P::State, T>]) {
        shards.iter_mut().for_each(|shard| shard.store.make_large());
    }
}

/// The workers of the current rayon pool.
struct Pool;

impl<P, T, K> Workers<P, T, K> for Pool
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
    T: Store<P::State> + Send + Sync,
    K: Fn(&P::State) -> u64 + Sync,
{
    fn threads(&self) -> usize {
        rayon::current_num_threads()
    }

    fn expand_slices<'a>(
        &self,
        space: &P,
        shards: &[Shard<P::State, T>],
        slices: &[(usize, Range<usize>)],
        key: &K,
        intake: &Intake<'a>,
    ) -> Vec<(Intake<'a>, Buckets<P::State>)> {
        let expand = |(k, slice): &(usize, Range<usize>)| {
            expand_slice(space, shards, *k, slice.clone(), key, intake.clone())
        };
        slices.par_iter().map(expand).collect()
    }

    fn any_unseen(
        &self,
        shards: &[Shard<P::State, T>],
        expanded: &[(Intake<'_>, Buckets<P::State>)],
    ) -> bool {
        expanded
            .par_iter()
            .any(|(_, buckets)| any_unseen(shards, buckets))
    }

    fn admit(
        &self,
        space: &P,
        shards: &mut [Shard<P::State, T>],
        by_shard: Vec<Buckets<P::State>>,
    ) {
        (shards.par_iter_mut().zip(by_shard.into_par_iter()))
            .for_each(|(shard, buckets)| shard.admit_buckets(buckets, space));
    }

    fn make_large(&self, shards: &mut [Shard<P::State, T>]) {
        (shards.par_iter_mut()).for_each(|shard| shard.store.make_large());
    }
}

/// Whether a successor in `buckets` (one per shard) is one its shard has not seen.
fn any_unseen<S: Hash + Eq, T: Store<S>>(shards: &[Shard<S, T>], buckets: &Buckets<S>) -> bool {
    buckets.iter().enumerate().any(|(k, bucket)| {
        (bucket.hashes.iter().zip(&bucket.states))
            .any(|(hash, state)| !shards[k].store.seen(*hash, state))
    })
}

/// Explores from `store`, empty, keying each state by `key`: its hash, or for a [`Bits`] store
/// its index.
fn explore_in<P, T, K, W>(
    space: &P,
    meter: &mut Meter,
    layers: &mut Vec<u64>,
    store: T,
    key: &K,
    workers: &W,
) -> Option<Limit>
where
    P: Space,
    P::State: Hash + Eq,
    T: Store<P::State>,
    K: Fn(&P::State) -> u64,
    W: Workers<P, T, K>,
{
    let start = space.start();
    layers.push(space.weight(&start));
    let start_key = key(&start);
    let mut shards: Vec<Shard<P::State, T>> = vec![Shard::planted(store, start, start_key)];
    if let Err(limit) = meter.store(1) {
        return Some(limit);
    }
    // The states found for the next layer, each counted with its weight.
    let found = |shards: &[Shard<P::State, T>]| -> u64 { shards.iter().map(|s| s.weight).sum() };
    let alone = workers.threads() == 1;
    let splittable = T::fresh().is_some();
    let mut pending = Batch::new();
    let mut depth = 0u32;
    loop {
        let width: usize = shards.iter().map(|s| s.store.layer().len()).sum();
        meter.frontier(width);
        // One thread and one table: successors go from the callback through a small buffer
        // into the table, or straight into bits. So does a narrow layer with more threads
        // (`Config::parallel_from`; on the 8-puzzle, two threads took 20 ms where one takes
        // 16 ms), and every layer of a store that cannot be split (a 3x4 board's bits: 2.5-2.9 s
        // on two threads where one takes 2.1 s, its states all stored by one).
        let narrow = alone || width < meter.config().parallel_width() || !splittable;
        let direct = narrow && shards.len() == 1;
        // A layer of a few states over many shards: handing out a bucket per shard cost more
        // than the layer (a chain of 2 million states: 6.7 s, against 0.2 s for its first
        // 250,000 states in one shard).
        let few = narrow && shards.len() > 1 && width <= FEW;
        let last = !meter.may_deepen(depth);
        let per_batch = SLICES_PER_THREAD * workers.threads();
        // The layer is walked shard by shard; `cursor` is the next state to expand.
        let mut cursor = (0, 0);
        let mut ramp = Meter::FIRST_BATCH;
        loop {
            // Near the state budget, batches shrink so that their successors fit in what is
            // left of it: the budget is passed by at most one expansion's successors.
            let part = |k: usize| 0..shards[k].store.layer().len();
            let states = if last {
                meter.ramped_untimed_batch(&mut ramp, per_batch * CHUNK)
            } else {
                meter.ramped_batch(&mut ramp, per_batch * CHUNK)
            };
            let batch = next_slices(&mut cursor, shards.len(), part, states, per_batch);
            if batch.is_empty() {
                break;
            }
            let batch = &batch[..];
            if few && !last {
                let expanded =
                    expand_across(space, meter, depth, &mut shards, batch, key, &mut pending);
                if let Err(limit) = expanded.and_then(|()| check_room(meter, &shards)) {
                    layers.push(found(&shards));
                    return Some(limit);
                }
                continue;
            }
            if direct && !last {
                let expanded =
                    shards[0].expand_alone(space, meter, depth, batch, key, &mut pending);
                if let Err(limit) = expanded.and_then(|()| check_room(meter, &shards)) {
                    layers.push(found(&shards));
                    return Some(limit);
                }
                continue;
            }
            // Counted before they run, so that a limit stops the batch before its work; in the
            // last layer too, whose successors are generated to see if anything lies deeper.
            if let Err(limit) = count_expansions(meter, u64::from(depth), batch) {
                if !last {
                    layers.push(found(&shards));
                }
                return Some(limit);
            }
            let intake = meter.intake(batch.len());
            let expanded = workers.expand_slices(space, &shards, batch, key, &intake);
            if last {
                meter.stats.generated += expanded.iter().map(|(i, _)| i.offered()).sum::<u64>();
                if let Some(limit) = expanded.iter().find_map(|(intake, _)| intake.stopped()) {
                    return Some(limit);
                }
                // At the depth limit: complete only if nothing lies beyond the last layer.
                if workers.any_unseen(&shards, &expanded) {
                    return Some(Limit::Depth);
                }
                continue;
            }
            // Each shard takes its buckets in slice order, the order they were generated in.
            let by_shard = match regroup(meter, expanded, shards.len()) {
                Ok(by_shard) => by_shard,
                Err(limit) => {
                    layers.push(found(&shards));
                    return Some(limit);
                }
            };
            workers.admit(space, &mut shards, by_shard);
            if let Err(limit) = check_room(meter, &shards) {
                layers.push(found(&shards));
                return Some(limit);
            }
        }
        if last || shards.iter().all(|s| s.store.found().is_empty()) {
            return None;
        }
        layers.push(found(&shards));
        for shard in &mut shards {
            shard.advance();
        }
        if shards.len() == 1 && shards[0].store.held() >= SHARD_FROM {
            shards = match split(shards.swap_remove(0)) {
                Ok(split) => split,
                Err(whole) => vec![whole],
            };
        }
        if held(&shards) >= T::LARGE_FROM {
            workers.make_large(&mut shards);
        }
        depth += 1;
    }
}

/// Expands the current layer's `slices` on this thread, over sharded stores: each state's
/// successors go straight to their shards. For narrow layers ([`FEW`] states at most), where
/// buckets cost more than they save.
fn expand_across<P, T>(
    space: &P,
    meter: &mut Meter,
    depth: u32,
    shards: &mut [Shard<P::State, T>],
    slices: &[(usize, Range<usize>)],
    key: &impl Fn(&P::State) -> u64,
    pending: &mut Batch<P::State>,
) -> Result<(), Limit>
where
    P: Space,
    P::State: Hash + Eq,
    T: Store<P::State>,
{
    let (count, weigh) = (shards.len(), |state: &P::State| space.weight(state));
    for (k, slice) in slices {
        meter.expand_many(u64::from(depth), slice.len() as u64)?;
        let mut intake = meter.intake(1);
        for position in slice.clone() {
            let state = &shards[*k].store.layer()[position];
            space.successors(state, None, |_, next| {
                if intake.take() {
                    pending.push(key(&next), next, None);
                }
            });
        }
        meter.stats.generated += intake.offered();
        if let Some(limit) = intake.stopped() {
            pending.clear();
            return Err(limit);
        }
        for (hash, next) in pending.hashes.drain(..).zip(pending.states.drain(..)) {
            shards[shard_of(hash, count)].admit(hash, next, None, &weigh);
        }
    }
    Ok(())
}

/// The states the shards hold.
fn held<S, T: Store<S>>(shards: &[Shard<S, T>]) -> usize {
    shards.iter().map(|s| s.store.held()).sum()
}

/// Records the states the shards hold; stops at the state budget, or when a shard refused a
/// state for want of room.
fn check_room<S, T: Store<S>>(meter: &mut Meter, shards: &[Shard<S, T>]) -> Result<(), Limit> {
    meter.store(held(shards))?;
    if shards.iter().any(|s| s.store.refused()) {
        return Err(Limit::States);
    }
    Ok(())
}

/// Splits one shard into [`SHARDS`], keeping each state's layer and the order in which the
/// states of a layer were found; the new shards keep no parents. Gives the shard back if its
/// kind of store cannot be split, or while its current layer is narrow.
fn split<S: Hash + Eq, T: Store<S>>(whole: Shard<S, T>) -> Result<Vec<Shard<S, T>>, Shard<S, T>> {
    // Not while its current layer is narrow: a narrow layer over many shards pays for every
    // shard at every layer (a chain of 2 million states: 1.0 s, against 0.23 s for bfs).
    if whole.store.layer().len() <= FEW {
        return Err(whole);
    }
    let Some(mut shards) = (0..SHARDS)
        .map(|_| T::fresh().map(Shard::new))
        .collect::<Option<Vec<_>>>()
    else {
        return Err(whole);
    };
    for (layer, states) in whole.store.into_layers() {
        for state in states {
            let hash = hash_of(&state);
            shards[shard_of(hash, SHARDS)]
                .store
                .place(layer, hash, state);
        }
    }
    Ok(shards)
}

/// Expands one slice of shard `k`'s current layer into one bucket per shard; returns the
/// slice's intake and buckets.
fn expand_slice<'a, P, T>(
    space: &P,
    shards: &[Shard<P::State, T>],
    k: usize,
    slice: Range<usize>,
    key: &impl Fn(&P::State) -> u64,
    mut intake: Intake<'a>,
) -> (Intake<'a>, Buckets<P::State>)
where
    P: Space,
    P::State: Hash + Eq,
    T: Store<P::State>,
{
    let mut buckets: Buckets<P::State> = (0..shards.len()).map(|_| Batch::new()).collect();
    let reading = shards[k].reading();
    for position in slice {
        if intake.stopped().is_some() {
            break;
        }
        let to_bucket = |hash, next, parent| {
            buckets[shard_of(hash, shards.len())].push(hash, next, parent);
        };
        expand_state(space, &reading, position, key, &mut intake, to_bucket);
    }
    (intake, buckets)
}
