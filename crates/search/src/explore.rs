//! Counting the reachable set layer by layer, in a seen-set split into shards by hash.
//!
//! A layer is expanded in slices; each slice's successors are sorted into one bucket per shard,
//! and then every shard takes its own buckets. The shards are small, so the inserts of one
//! shard stay in cache (on a cube, one thread counts twice as fast as with one big table), and
//! with `threads > 1` the shards take their states in parallel. The order in which a shard
//! receives states is fixed, so the counts never depend on the number of threads.

use std::hash::Hash;
use std::ops::Range;

use rayon::prelude::*;

use crate::arena::{hash_of, Insert, StateSet, AHEAD};
use crate::config::{Config, Meter};
use crate::outcome::{Exploration, Limit, Status};
use crate::parallel::{next_slices, CHUNK};
use crate::space::Space;

/// How many shards the seen-set is split into once it is large.
const SHARDS: usize = 64;
/// The parent of a state that has none: the start.
const NO_PARENT: u32 = u32::MAX;
/// States held before the seen-set is split into shards: below it, one table is faster than
/// many (measured on the 8-puzzle's 181,440 states).
const SHARD_FROM: usize = 1 << 18;
/// States held (checked at each new layer) before every shard's sets move to the large index,
/// whose slots the insertions prefetch. Measured on the cube with two threads: to depth 7
/// (109 M states) 15.4 s -> 12.2 s for a sixth more memory (2.9 -> 3.4 GiB); to depth 6 (8 M
/// states, which switches only for the last check) 0.81 -> 0.88 s.
const SLOTS_FROM: usize = 1 << 22;
/// Successors generated on one thread before they are inserted together.
const PENDING: usize = 1 << 9;
/// Slices expanded per thread between two insertions (bounds the buckets' memory).
const SLICES_PER_THREAD: usize = 4;

/// The shard of a hash: bits the hash table itself does not use (it takes its bucket from the
/// low bits and a filter byte from the top seven).
#[inline]
fn shard_of(hash: u64, shards: usize) -> usize {
    (hash >> 32) as usize % shards
}

/// Counts the whole reachable set by distance from the start: `layers[d]` states lie exactly `d`
/// moves away. With `max_depth`, stops after that layer (complete all the same if nothing lies
/// deeper). `config.threads` workers expand and insert.
///
/// Memory: every seen state once; or, when the space is [undirected](Space::undirected), only
/// the layers `d - 1`, `d` and `d + 1` (frontier search), since every successor of layer `d`
/// lies in one of them.
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
/// ```
pub fn explore<P>(space: &P, config: &Config) -> Exploration
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
{
    let run = || with_layers(config, |meter, layers| run_explore(space, meter, layers));
    // The caller's thread is one of the workers: with one thread, no thread is started.
    match rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
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
    body: impl FnOnce(&mut Meter, &mut Vec<u64>) -> Status,
) -> Exploration {
    let mut meter = Meter::new(config);
    let mut layers = Vec::new();
    let status = body(&mut meter, &mut layers);
    Exploration {
        layers,
        status,
        stats: meter.finish(),
    }
}

/// One shard's states.
struct Shard<S> {
    /// Every state seen in this shard; in frontier mode, only the current layer.
    current: StateSet<S>,
    /// The current layer: a range of `current`'s ids.
    layer: Range<usize>,
    /// While the seen-set is this one shard: for each state of the current layer, the id of
    /// the state it was first reached from (in `current`, or in frontier mode in `previous`),
    /// or [`NO_PARENT`]. Expanding a state skips the successor equal to its parent with one
    /// comparison instead of a lookup. In a space whose moves can be undone that successor
    /// comes up at every expansion: on the 8-puzzle (2.7 successors a state), a third of all
    /// lookups. Sharded sets keep no parents: a parent then lies in another shard, a cache miss
    /// away, and costs more than it saves (measured on the cube, 18 successors a state).
    parents: Vec<u32>,
    /// The parents of the next layer's states found so far.
    next_parents: Vec<u32>,
    /// Frontier mode only: the layer before the current one, and the next one being built.
    previous: StateSet<S>,
    next: StateSet<S>,
}

impl<S: Hash + Eq> Shard<S> {
    fn new() -> Self {
        Shard {
            current: StateSet::new(),
            layer: 0..0,
            parents: Vec::new(),
            next_parents: Vec::new(),
            previous: StateSet::new(),
            next: StateSet::new(),
        }
    }

    /// Whether `state` was seen (in frontier mode: lies in the previous or current layer).
    fn seen(&self, hash: u64, state: &S) -> bool {
        self.current.find_hashed(hash, state).is_some()
            || self.previous.find_hashed(hash, state).is_some()
    }

    /// Takes a successor of the current layer, reached from `parent` if parents are kept:
    /// stores it if it was not seen.
    #[inline]
    fn admit(&mut self, frontier: bool, hash: u64, state: S, parent: Option<u32>) {
        let new = if !frontier {
            matches!(self.current.insert_hashed(hash, state), Insert::New(_))
        } else {
            !self.seen(hash, &state)
                && matches!(self.next.insert_hashed(hash, state), Insert::New(_))
        };
        if let (true, Some(parent)) = (new, parent) {
            self.next_parents.push(parent);
        }
    }

    /// Takes a batch of successors in order, prefetching the slots of those a few places ahead
    /// so that their cache misses overlap; leaves the batch empty.
    fn admit_all(&mut self, frontier: bool, batch: &mut Batch<S>) {
        let growing = if frontier {
            &mut self.next
        } else {
            &mut self.current
        };
        growing.reserve(batch.states.len());
        for &hash in batch.hashes.iter().take(AHEAD) {
            self.prefetch(frontier, hash);
        }
        for (k, state) in batch.states.drain(..).enumerate() {
            if let Some(&ahead) = batch.hashes.get(k + AHEAD) {
                self.prefetch(frontier, ahead);
            }
            let parent = batch.parents.get(k).copied();
            self.admit(frontier, batch.hashes[k], state, parent);
        }
        batch.hashes.clear();
        batch.parents.clear();
    }

    /// Starts loading the slots a state of this hash would be looked up in.
    #[inline]
    fn prefetch(&self, frontier: bool, hash: u64) {
        self.current.prefetch(hash);
        if frontier {
            self.previous.prefetch(hash);
            self.next.prefetch(hash);
        }
    }

    /// How many states of the next layer this shard holds so far.
    fn found(&self, frontier: bool) -> usize {
        if frontier {
            self.next.len()
        } else {
            self.current.len() - self.layer.end
        }
    }

    /// Makes the next layer the current one.
    fn advance(&mut self, frontier: bool) {
        std::mem::swap(&mut self.parents, &mut self.next_parents);
        self.next_parents.clear();
        if frontier {
            std::mem::swap(&mut self.previous, &mut self.current);
            std::mem::swap(&mut self.current, &mut self.next);
            self.next.clear();
            self.layer = 0..self.current.len();
        } else {
            self.layer = self.layer.end..self.current.len();
        }
    }

    /// States held in memory.
    fn held(&self) -> usize {
        self.previous.len() + self.current.len() + self.next.len()
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

    fn push(&mut self, hash: u64, state: S, parent: Option<u32>) {
        self.hashes.push(hash);
        self.states.push(state);
        if let Some(parent) = parent {
            self.parents.push(parent);
        }
    }
}

/// Calls `out(hash, next, parent)` for each successor `next` of state `id` of `shard`'s
/// current layer, with `parent` the state's id if the shard keeps parents; skips the successor
/// equal to the state's own parent. Returns how many successors the space generated.
#[inline]
fn expand_state<P>(
    space: &P,
    shard: &Shard<P::State>,
    frontier: bool,
    id: usize,
    mut out: impl FnMut(u64, P::State, Option<u32>),
) -> u64
where
    P: Space,
    P::State: Hash + Eq,
{
    let own = shard.parents.get(id - shard.layer.start).copied();
    let parent = own.filter(|&p| p != NO_PARENT).map(|p| {
        let set = if frontier {
            &shard.previous
        } else {
            &shard.current
        };
        &set.states[p as usize]
    });
    let me = own.map(|_| id as u32);
    let mut generated = 0;
    space.successors(&shard.current.states[id], None, |_, next| {
        generated += 1;
        if parent != Some(&next) {
            out(hash_of(&next), next, me);
        }
    });
    generated
}

/// Successors on their way to their shards: one batch per shard.
type Buckets<S> = Vec<Batch<S>>;

fn run_explore<P>(space: &P, meter: &mut Meter, layers: &mut Vec<u64>) -> Status
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
{
    let frontier = space.undirected();
    let mut shards: Vec<Shard<P::State>> = vec![Shard::new()];
    let start = space.start();
    let hash = hash_of(&start);
    shards[0].current.insert_hashed(hash, start);
    shards[0].layer = 0..1;
    shards[0].parents.push(NO_PARENT);
    layers.push(1);
    if let Err(limit) = meter.store(1) {
        return Status::Limit(limit);
    }
    let found = |shards: &[Shard<P::State>]| -> u64 {
        shards.iter().map(|s| s.found(frontier) as u64).sum()
    };
    let alone = rayon::current_num_threads() == 1;
    let mut pending = Batch::new();
    let mut depth = 0u32;
    loop {
        meter.frontier(shards.iter().map(|s| s.layer.len()).sum());
        let last = !meter.may_deepen(depth);
        let per_batch = SLICES_PER_THREAD * rayon::current_num_threads();
        // The layer is walked shard by shard; `cursor` is the next state to expand.
        let mut cursor = (0, shards[0].layer.start);
        loop {
            // Near the state budget, batches shrink so that their successors fit in what is
            // left of it: the budget is passed by at most one expansion's successors.
            let part = |k: usize| shards[k].layer.clone();
            let states = meter.batch(per_batch * CHUNK);
            let batch = next_slices(&mut cursor, shards.len(), part, states, per_batch);
            if batch.is_empty() {
                break;
            }
            let batch = &batch[..];
            if alone && shards.len() == 1 && !last {
                // One thread and one table: successors go straight from the callback into the
                // table, with no buckets in between.
                let mut generated = 0;
                for (_, slice) in batch {
                    for id in slice.clone() {
                        if let Err(limit) = meter.expand(u64::from(depth)) {
                            layers.push(found(&shards));
                            return Status::Limit(limit);
                        }
                        let push = |hash, next, parent| pending.push(hash, next, parent);
                        generated += expand_state(space, &shards[0], frontier, id, push);
                        if pending.states.len() >= PENDING {
                            shards[0].admit_all(frontier, &mut pending);
                        }
                    }
                }
                shards[0].admit_all(frontier, &mut pending);
                meter.stats.generated += generated;
                if let Err(limit) = meter.store(shards[0].held()) {
                    layers.push(found(&shards));
                    return Status::Limit(limit);
                }
                continue;
            }
            let expanded = expand_slices(space, &shards, frontier, batch);
            if last {
                // At the depth limit: complete only if nothing lies beyond the last layer.
                let beyond = expanded.par_iter().any(|(_, buckets)| {
                    buckets.iter().enumerate().any(|(k, bucket)| {
                        (bucket.hashes.iter().zip(&bucket.states))
                            .any(|(hash, state)| !shards[k].seen(*hash, state))
                    })
                });
                if beyond {
                    return Status::Limit(Limit::Depth);
                }
                continue;
            }
            for (_, slice) in batch {
                for _ in slice.clone() {
                    if let Err(limit) = meter.expand(u64::from(depth)) {
                        layers.push(found(&shards));
                        return Status::Limit(limit);
                    }
                }
            }
            // Each shard takes its buckets in slice order, the order they were generated in.
            let mut by_shard: Vec<Buckets<P::State>> = (0..shards.len())
                .map(|_| Vec::with_capacity(batch.len()))
                .collect();
            for (generated, buckets) in expanded {
                meter.stats.generated += generated;
                for (k, bucket) in buckets.into_iter().enumerate() {
                    by_shard[k].push(bucket);
                }
            }
            shards
                .par_iter_mut()
                .zip(by_shard.into_par_iter())
                .for_each(|(shard, buckets)| {
                    for mut bucket in buckets {
                        shard.admit_all(frontier, &mut bucket);
                    }
                });
            if let Err(limit) = meter.store(shards.iter().map(Shard::held).sum()) {
                layers.push(found(&shards));
                return Status::Limit(limit);
            }
        }
        if last {
            return Status::Exhausted;
        }
        let next = found(&shards);
        if next == 0 {
            return Status::Exhausted;
        }
        layers.push(next);
        for shard in &mut shards {
            shard.advance(frontier);
        }
        if shards.len() == 1 && shards[0].held() >= SHARD_FROM {
            shards = split(shards.pop().unwrap_or_else(Shard::new));
        }
        if shards.iter().map(Shard::held).sum::<usize>() >= SLOTS_FROM {
            shards.par_iter_mut().for_each(|shard| {
                for set in [&mut shard.previous, &mut shard.current, &mut shard.next] {
                    set.make_large();
                }
            });
        }
        depth += 1;
    }
}

/// Splits one shard into [`SHARDS`], keeping each state's layer: states move in id order, so
/// in every new shard the older layers still come before the current one.
fn split<S: Hash + Eq>(whole: Shard<S>) -> Vec<Shard<S>> {
    let mut shards: Vec<Shard<S>> = (0..SHARDS).map(|_| Shard::new()).collect();
    for state in whole.previous.states {
        let hash = hash_of(&state);
        shards[shard_of(hash, SHARDS)]
            .previous
            .insert_hashed(hash, state);
    }
    let older = whole.layer.start;
    for (id, state) in whole.current.states.into_iter().enumerate() {
        let hash = hash_of(&state);
        let shard = &mut shards[shard_of(hash, SHARDS)];
        shard.current.insert_hashed(hash, state);
        if id < older {
            shard.layer.start = shard.current.len();
        }
    }
    for shard in &mut shards {
        shard.layer.end = shard.current.len();
    }
    shards
}

/// Expands the slices in parallel, each into one bucket per shard; returns for each slice the
/// number of successors generated and the buckets.
fn expand_slices<P>(
    space: &P,
    shards: &[Shard<P::State>],
    frontier: bool,
    slices: &[(usize, Range<usize>)],
) -> Vec<(u64, Buckets<P::State>)>
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
{
    slices
        .par_iter()
        .map(|(k, slice)| {
            let mut buckets: Buckets<P::State> = (0..shards.len()).map(|_| Batch::new()).collect();
            let mut generated = 0;
            for id in slice.clone() {
                generated +=
                    expand_state(space, &shards[*k], frontier, id, |hash, next, parent| {
                        buckets[shard_of(hash, shards.len())].push(hash, next, parent);
                    });
            }
            (generated, buckets)
        })
        .collect()
}
