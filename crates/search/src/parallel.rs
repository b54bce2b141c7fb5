//! Layer-parallel versions of [`crate::bfs`] and [`crate::bidirectional`].
//!
//! [`par_bfs`]: worker threads expand slices of a layer and hash the children; one thread then
//! inserts them into the arena in a fixed order, so the answer is the same as the serial
//! solver's for any number of threads. [`par_bidirectional`]: each side is split into shards by
//! hash, and the shards take their successors in parallel. ([`crate::explore`] is parallel by
//! itself, with `config.threads`.)

use std::hash::Hash;

use rayon::prelude::*;

use crate::arena::{hash_of, Arena, LARGE_FROM};
use crate::config::{Config, Meter};
use crate::graph::{path_cost, plant_start, Backward, End, Ends, Expand, Forward, Hit, Successors};
use crate::outcome::{Limit, Outcome, Solution, Status};
use crate::space::{Reversible, Space};

/// States a worker expands in one slice.
pub(crate) const CHUNK: usize = 1 << 12;

fn pool(config: &Config) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .ok()
}

/// [`crate::bfs`] with each layer expanded by `config.threads` worker threads.
/// Returns the same solution as the serial solver.
pub fn par_bfs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    let Some(pool) = pool(config) else {
        return crate::bfs(space, config);
    };
    pool.install(|| {
        let mut meter = Meter::new(config);
        let mut arena = Arena::new();
        let end = run_par_bfs(space, &mut meter, &mut arena);
        let stats = meter.finish();
        match end {
            Ok(Some(id)) => {
                let cost = path_cost(space, &arena, id);
                Outcome::solved(arena.solution(id, cost), stats)
            }
            Ok(None) => Outcome::stopped(Status::Exhausted, stats),
            Err(limit) => Outcome::stopped(Status::Limit(limit), stats),
        }
    })
}

fn run_par_bfs<P>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
) -> Result<Option<u32>, Limit>
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    match plant_start(space, meter, arena) {
        Some(End::Found(id, _)) => return Ok(Some(id)),
        Some(End::Stopped(limit)) => return Err(limit),
        Some(End::Exhausted) | None => {}
    }
    let mut layer = 0..1usize;
    let mut depth = 0u32;
    while !layer.is_empty() {
        meter.frontier(layer.len());
        if !meter.may_deepen(depth) {
            return Err(Limit::Depth);
        }
        let mut from = layer.start;
        while from < layer.end {
            let to = layer
                .end
                .min(from + meter.batch(CHUNK * rayon::current_num_threads()));
            let buckets: Vec<Successors<P::State, P::Move>> = arena.set.states[from..to]
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(chunk, states)| {
                    let mut bucket = Successors::new();
                    for (i, state) in states.iter().enumerate() {
                        let parent = (from + chunk * CHUNK + i) as u32;
                        space.successors(state, None, |mv, next| {
                            bucket.push(arena.set.hash(&next), parent, mv, next);
                        });
                    }
                    bucket
                })
                .collect();
            for _ in from..to {
                meter.expand(u64::from(depth))?;
            }
            let generated: usize = buckets.iter().map(|b| b.items.len()).sum();
            meter.stats.generated += generated as u64;
            arena.set.reserve(generated);
            let goal = Ends::Goal(|state: &P::State| space.is_goal(state));
            for mut bucket in buckets {
                if let Some(Hit::Goal(child)) = bucket.insert_into(arena, &goal) {
                    return Ok(Some(child));
                }
            }
            meter.store(arena.len())?;
            from = to;
        }
        layer = layer.end..arena.len();
        depth += 1;
    }
    Ok(None)
}

/// Shards a parallel bidirectional search splits each side's store into, by hash.
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;
/// States one shard may hold: a global id is a shard's local id shifted left by
/// [`SHARD_BITS`], with the shard in the low bits, and must fit a `u32`. Checked after each
/// batch, with room to spare for one batch.
const SHARD_CAPACITY: usize = (1 << (32 - SHARD_BITS)) - (1 << 20);

/// The shard of a hash: bits that neither the table's slot nor its key filter depend on much.
#[inline]
fn shard_of(hash: u64) -> usize {
    (hash >> 40) as usize & (SHARDS - 1)
}

/// One side of a parallel bidirectional search: an arena per shard, parents as global ids.
struct Side<S, M> {
    shards: Vec<Arena<S, M>>,
    /// Each shard's current layer, as a range of its local ids.
    layer: Vec<std::ops::Range<usize>>,
}

/// The global id of local id `local` in shard `shard`.
#[inline]
fn global(shard: usize, local: u32) -> u32 {
    (local << SHARD_BITS) | shard as u32
}

/// The shard and local id of a global id.
#[inline]
fn local(id: u32) -> (usize, u32) {
    (id as usize & (SHARDS - 1), id >> SHARD_BITS)
}

impl<S: Hash + Eq + Clone, M: Clone> Side<S, M> {
    fn new(roots: Vec<S>) -> Self {
        let mut shards: Vec<Arena<S, M>> = (0..SHARDS).map(|_| Arena::new()).collect();
        for root in roots {
            let hash = hash_of(&root);
            shards[shard_of(hash)].insert_root(root);
        }
        let layer = shards.iter().map(|a| 0..a.len()).collect();
        Side { shards, layer }
    }

    fn len(&self) -> usize {
        self.shards.iter().map(Arena::len).sum()
    }

    fn layer_len(&self) -> usize {
        self.layer.iter().map(|l| l.len()).sum()
    }

    fn state(&self, id: u32) -> &S {
        let (shard, local) = local(id);
        self.shards[shard].state(local)
    }

    fn find(&self, state: &S) -> Option<u32> {
        let hash = hash_of(state);
        let shard = shard_of(hash);
        let local = self.shards[shard].set.find_hashed(hash, state)?;
        Some(global(shard, local))
    }

    /// The moves from a root to `id` and the states along the way, from `id` back to the root.
    fn path_back(&self, mut id: u32) -> (Vec<M>, Vec<S>) {
        let mut moves = Vec::new();
        let mut states = vec![self.state(id).clone()];
        loop {
            let (shard, local) = local(id);
            let Some((parent, mv)) = self.shards[shard].parent(local) else {
                return (moves, states);
            };
            moves.push(mv.clone());
            states.push(self.state(parent).clone());
            id = parent;
        }
    }

    /// Makes the states found since the current layer began the current layer.
    fn advance(&mut self) {
        for (layer, arena) in self.layer.iter_mut().zip(&self.shards) {
            *layer = layer.end..arena.len();
        }
    }
}

/// The next batch of a layer spread over `shards` shards (`layer(k)` is shard `k`'s part, a
/// range of its ids), walked shard by shard from `cursor`: `states` states in all, cut into
/// about `slices` slices of at most [`CHUNK`] states, as `(shard, ids)`. Empty at the end.
pub(crate) fn next_slices(
    cursor: &mut (usize, usize),
    shards: usize,
    layer: impl Fn(usize) -> std::ops::Range<usize>,
    mut states: usize,
    slices: usize,
) -> Vec<(usize, std::ops::Range<usize>)> {
    let slice = (states / slices.max(1)).clamp(1, CHUNK);
    let mut batch = Vec::with_capacity(slices);
    while states > 0 && cursor.0 < shards {
        let (k, from) = *cursor;
        let end = layer(k).end;
        if from >= end {
            *cursor = (
                k + 1,
                if k + 1 < shards {
                    layer(k + 1).start
                } else {
                    0
                },
            );
            continue;
        }
        let to = end.min(from + slice.min(states));
        states -= to - from;
        batch.push((k, from..to));
        *cursor = (k, to);
    }
    batch
}

/// [`crate::bidirectional`] with `config.threads` worker threads: each side's store is split
/// into shards by hash; workers expand slices of a layer into one bucket per shard, then every
/// shard takes its buckets (and looks for the same state in the other side's shard of the
/// same number) in parallel. Returns a shortest solution, though not always the same one as
/// the serial solver (which of several shortest paths is found depends on the thread count).
pub fn par_bidirectional<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Reversible + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    let Some(pool) = pool(config) else {
        return crate::bidirectional(space, config);
    };
    pool.install(|| {
        let mut meter = Meter::new(config);
        let mut forward = Side::new(vec![space.start()]);
        let mut backward = Side::new(space.goals());
        let end = run_par_bidirectional(space, &mut meter, &mut forward, &mut backward);
        let stats = meter.finish();
        match end {
            Ok(Some((f, b))) => {
                let (mut moves, mut states) = forward.path_back(f);
                moves.reverse();
                states.reverse();
                let (back_moves, back_states) = backward.path_back(b);
                moves.extend(back_moves);
                states.extend(back_states.into_iter().skip(1));
                Outcome::solved(Solution::priced(space, moves, states), stats)
            }
            Ok(None) => Outcome::stopped(Status::Exhausted, stats),
            Err(limit) => Outcome::stopped(Status::Limit(limit), stats),
        }
    })
}

/// Runs the two searches until they meet: `Ok(Some((forward id, backward id)))` of the state
/// they share, `Ok(None)` when one side runs out of states.
fn run_par_bidirectional<P>(
    space: &P,
    meter: &mut Meter,
    forward: &mut Side<P::State, P::Move>,
    backward: &mut Side<P::State, P::Move>,
) -> Result<Option<(u32, u32)>, Limit>
where
    P: Reversible + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    for shard in 0..SHARDS {
        for b in backward.layer[shard].clone() {
            let b = global(shard, b as u32);
            if let Some(f) = forward.find(backward.state(b)) {
                return Ok(Some((f, b)));
            }
        }
    }
    meter.store(forward.len() + backward.len())?;
    let (mut depth_ahead, mut depth_behind) = (0u32, 0u32);
    while forward.layer_len() > 0 && backward.layer_len() > 0 {
        if !meter.may_deepen(depth_ahead + depth_behind) {
            return Err(Limit::Depth);
        }
        meter.frontier(forward.layer_len() + backward.layer_len());
        let depth = u64::from(depth_ahead + depth_behind);
        if forward.layer_len() <= backward.layer_len() {
            if let Some(hit) = grow_side(meter, depth, forward, backward, Forward(space))? {
                return Ok(Some(hit));
            }
            forward.advance();
            depth_ahead += 1;
        } else {
            if let Some((b, f)) = grow_side(meter, depth, backward, forward, Backward(space))? {
                return Ok(Some((f, b)));
            }
            backward.advance();
            depth_behind += 1;
        }
    }
    Ok(None)
}

/// Expands `own`'s current layer in parallel, checking each new state against `other`: the
/// first state both hold (in the lowest shard of the first batch that has one) ends the
/// layer, as `(own id, other id)`.
fn grow_side<S, M>(
    meter: &mut Meter,
    depth: u64,
    own: &mut Side<S, M>,
    other: &Side<S, M>,
    grow: impl Expand<S, M> + Sync,
) -> Result<Option<(u32, u32)>, Limit>
where
    S: Hash + Eq + Clone + Send + Sync,
    M: Clone + Send + Sync,
{
    let threads = rayon::current_num_threads();
    let mut cursor = (0, own.layer[0].start);
    loop {
        // Near the state budget, fewer states are expanded at once (see `Meter::batch`).
        let part = |k: usize| own.layer[k].clone();
        let states = meter.batch(4 * threads * CHUNK);
        let slices = next_slices(&mut cursor, SHARDS, part, states, 4 * threads);
        if slices.is_empty() {
            return Ok(None);
        }
        for (_, slice) in &slices {
            for _ in slice.clone() {
                meter.expand(depth)?;
            }
        }
        let shared: &Side<S, M> = own;
        let expanded: Vec<(u64, Vec<Successors<S, M>>)> = slices
            .par_iter()
            .map(|(k, slice)| {
                let arena = &shared.shards[*k];
                let mut buckets: Vec<Successors<S, M>> =
                    (0..SHARDS).map(|_| Successors::new()).collect();
                let mut generated = 0;
                for local in slice.clone() {
                    let local = local as u32;
                    let id = global(*k, local);
                    let parent = arena.parent(local).map(|(p, _)| shared.state(p));
                    grow.expand(arena.state(local), |mv, next| {
                        generated += 1;
                        if parent != Some(&next) {
                            let hash = hash_of(&next);
                            buckets[shard_of(hash)].push(hash, id, mv, next);
                        }
                    });
                }
                (generated, buckets)
            })
            .collect();
        let mut by_shard: Vec<Vec<Successors<S, M>>> = (0..SHARDS)
            .map(|_| Vec::with_capacity(slices.len()))
            .collect();
        for (generated, buckets) in expanded {
            meter.stats.generated += generated;
            for (k, bucket) in buckets.into_iter().enumerate() {
                by_shard[k].push(bucket);
            }
        }
        let hits: Vec<Option<(u32, u32)>> = own
            .shards
            .par_iter_mut()
            .zip(by_shard)
            .enumerate()
            .map(|(k, (arena, buckets))| {
                let meeting: Ends<'_, S, M, fn(&S) -> bool> = Ends::Meeting(&other.shards[k]);
                for mut bucket in buckets {
                    if let Some(Hit::Meet(mine, met)) = bucket.insert_into(arena, &meeting) {
                        return Some((global(k, mine), global(k, met)));
                    }
                }
                None
            })
            .collect();
        if let Some(hit) = hits.into_iter().flatten().next() {
            return Ok(Some(hit));
        }
        meter.store(own.len() + other.len())?;
        if own.len() >= LARGE_FROM {
            own.shards.par_iter_mut().for_each(|a| a.set.make_large());
        }
        if own.shards.iter().any(|a| a.len() > SHARD_CAPACITY) {
            return Err(Limit::States);
        }
    }
}
