//! The layer-parallel strategies of [`crate::bfs`] and [`crate::bidirectional`], which they
//! take when [`Config::worker_threads`] is above one.
//!
//! Each side of a search is split into shards by hash. Worker threads expand slices of a layer
//! into one bucket per shard, then the shards take their buckets in parallel, in a fixed
//! order. ([`crate::explore`] does the same for an exploration.)

use std::hash::Hash;

use rayon::prelude::*;

use crate::arena::{hash_of, Arena, Insert, ARENA_START, LARGE_FROM};
use crate::config::{Config, Intake, Meter};
use crate::graph::{
    concluded, goals_of, lies_beyond, plant_start, Backward, Ends, Expand, Forward, Hit, Layers,
    Successors, BATCH,
};
use crate::outcome::{Limit, Outcome, Solution, Stats};
use crate::space::{Reversible, Space};

/// States held at which [`par_bfs`] moves its states to shards, whatever its layers' width:
/// moving costs a clone, a hash and an insert a state, on one thread, and holds the states
/// twice while it lasts, so it is kept small (not measured on its own).
const HANDOVER_FROM: usize = 1 << 18;

/// States a worker expands in one slice.
pub(crate) const CHUNK: usize = 1 << 12;

/// A pool of [`Config::worker_threads`] threads; `None` for one (the serial solver is then the
/// same search without the pool, and far cheaper to start on a small space) or if the threads
/// cannot be started.
pub(crate) fn pool(config: &Config) -> Option<rayon::ThreadPool> {
    let threads = config.worker_threads();
    if threads == 1 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()
}

/// [`crate::bfs`] with each layer expanded, and its states stored, by the threads of `pool`.
/// Returns a solution with the
/// fewest moves, though not always the same one as the serial solver (which of several
/// shortest paths is found depends on the thread count).
///
/// Layers narrower than [`Config::parallel_from`] grow on one thread in one arena, as `bfs`
/// grows them; at the first layer as wide (or once 2^18 states are held, so that moving them
/// stays cheap), the states move to shards that the workers can share, and the search goes on
/// from there, so that a space of narrow layers costs the threads nothing.
pub(crate) fn par_bfs<P>(
    space: &P,
    config: &Config,
    pool: &rayon::ThreadPool,
) -> Outcome<P::State, P::Move>
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    pool.install(|| {
        let mut meter = Meter::new(config);
        let mut arena = Arena::new();
        let mut cut = false;
        let mut layers = Layers::new();
        let opened = plant_start(space, &mut meter, &mut arena).or_else(|| loop {
            let wide = layers.layer.len() >= config.parallel_width();
            if !layers.layer.is_empty() && (wide || arena.len() >= HANDOVER_FROM) {
                break None;
            }
            if let Some(end) = layers.grow(space, &mut meter, &mut arena, &mut cut) {
                break Some(end);
            }
        });
        if let Some(end) = opened {
            return concluded(end, cut, &arena, meter.finish());
        }
        let mut side = Side::from_arena(&arena, layers.layer);
        drop(arena);
        let end = run_par_bfs(space, &mut meter, &mut side, layers.depth);
        let path = end.map(|hit| hit.map(|id| side.path_to(id)));
        outcome(space, meter.finish(), path)
    })
}

/// Grows the side layer by layer from `depth` until a new state is a goal: `Ok(Some(its
/// id))`, or `Ok(None)` once no new state turns up.
fn run_par_bfs<P>(
    space: &P,
    meter: &mut Meter,
    side: &mut Side<P::State, P::Move>,
    mut depth: u32,
) -> Result<Option<u32>, Limit>
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    meter.store(side.len())?;
    let is_goal = |state: &P::State| space.is_goal(state);
    while side.layer_len() > 0 {
        meter.frontier(side.layer_len());
        if !meter.may_deepen(depth) {
            let seen = |state: &P::State| side.find(state).is_some();
            return match lies_beyond(Forward(space), meter, depth, side.layer_states(), seen)? {
                true => Err(Limit::Depth),
                false => Ok(None),
            };
        }
        let goal = |_| Ends::Goal(is_goal);
        if let Some(Hit::Goal(id)) = grow_side(meter, depth.into(), side, goal, 0, Forward(space))?
        {
            return Ok(Some(id));
        }
        side.advance();
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
        // The shards share the room one arena starts with.
        let room = ARENA_START / SHARDS;
        let mut shards: Vec<Arena<S, M>> =
            (0..SHARDS).map(|_| Arena::with_capacity(room)).collect();
        for root in roots {
            let hash = hash_of(&root);
            shards[shard_of(hash)].insert_root(root);
        }
        let layer = shards.iter().map(|a| 0..a.len()).collect();
        Side { shards, layer }
    }

    /// The states of `arena`, with their parents and moves, spread over the shards; `layer`, a
    /// range of the arena's ids, becomes the current layer.
    fn from_arena(arena: &Arena<S, M>, layer: std::ops::Range<usize>) -> Self {
        let mut side = Side::new(Vec::new());
        // Each state's global id, by arena id; a parent comes before its children.
        let mut ids = Vec::with_capacity(arena.len());
        let lengths = |side: &Side<S, M>| side.shards.iter().map(Arena::len).collect::<Vec<_>>();
        let mut starts = None;
        for id in 0..arena.len() as u32 {
            if id as usize == layer.start {
                starts = Some(lengths(&side));
            }
            let state = arena.state(id).clone();
            let hash = hash_of(&state);
            let k = shard_of(hash);
            let shard = &mut side.shards[k];
            let local = shard.len() as u32;
            match arena.parent(id) {
                Some((parent, mv)) => {
                    shard.insert_hashed(hash, state, ids[parent as usize], mv.clone());
                }
                None => {
                    shard.insert_root(state);
                }
            }
            ids.push(global(k, local));
        }
        let starts = starts.unwrap_or_else(|| lengths(&side));
        side.layer = (side.shards.iter().zip(starts))
            .map(|(shard, start)| start..shard.len())
            .collect();
        side
    }

    fn len(&self) -> usize {
        self.shards.iter().map(Arena::len).sum()
    }

    /// The states of the current layer, shard by shard.
    fn layer_states(&self) -> impl Iterator<Item = &S> {
        (self.layer.iter().enumerate())
            .flat_map(|(k, ids)| ids.clone().map(move |local| global(k, local as u32)))
            .map(|id| self.state(id))
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

    /// The moves from a root to `id` and the states along the way, in the order played.
    fn path_to(&self, id: u32) -> (Vec<M>, Vec<S>) {
        let (mut moves, mut states) = self.path_back(id);
        moves.reverse();
        states.reverse();
        (moves, states)
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

/// Counts the expansions of a batch of slices before they run, so that a limit stops the
/// batch as a whole.
pub(crate) fn count_expansions(
    meter: &mut Meter,
    depth: u64,
    slices: &[(usize, std::ops::Range<usize>)],
) -> Result<(), Limit> {
    let states = slices.iter().map(|(_, slice)| slice.len() as u64).sum();
    meter.expand_many(depth, states)
}

/// Turns each slice's `(intake, one bucket per shard)` into each shard's buckets, in slice
/// order (the order the successors were generated in), and counts the successors; fails with
/// the limit of an intake that stopped.
pub(crate) fn regroup<B>(
    meter: &mut Meter,
    expanded: Vec<(Intake, Vec<B>)>,
    shards: usize,
) -> Result<Vec<Vec<B>>, Limit> {
    meter.stats.generated += expanded.iter().map(|(i, _)| i.offered()).sum::<u64>();
    if let Some(limit) = expanded.iter().find_map(|(intake, _)| intake.stopped()) {
        return Err(limit);
    }
    let mut by_shard: Vec<Vec<B>> = (0..shards)
        .map(|_| Vec::with_capacity(expanded.len()))
        .collect();
    for (_, buckets) in expanded {
        for (k, bucket) in buckets.into_iter().enumerate() {
            by_shard[k].push(bucket);
        }
    }
    Ok(by_shard)
}

/// How a parallel search ended: with a path (its moves and its states, from the start, in the
/// order played), with nothing, or at a limit.
type Ended<S, M> = Result<Option<(Vec<M>, Vec<S>)>, Limit>;

/// The outcome of a parallel search that ended as `end` says.
fn outcome<P: Space>(
    space: &P,
    stats: Stats,
    end: Ended<P::State, P::Move>,
) -> Outcome<P::State, P::Move> {
    match end {
        Ok(Some((moves, states))) => Outcome::Solved {
            solution: Solution::priced(space, moves, states),
            stats,
        },
        Ok(None) => Outcome::Exhausted { stats },
        Err(limit) => Outcome::Stopped { limit, stats },
    }
}

/// [`crate::bidirectional`] on the threads of `pool`: each side's store is split into shards by hash; workers expand slices of a
/// layer into one bucket per shard, then every shard takes its buckets (and looks for the same
/// state in the other side's shard of the same number) in parallel. Returns a shortest
/// solution, though not always the same one as the serial solver (which of several shortest
/// paths is found depends on the thread count).
pub(crate) fn par_bidirectional<P>(
    space: &P,
    config: &Config,
    pool: &rayon::ThreadPool,
) -> Outcome<P::State, P::Move>
where
    P: Reversible + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    pool.install(|| {
        let mut meter = Meter::new(config);
        let mut forward = Side::new(vec![space.start()]);
        let mut backward = Side::new(goals_of(space).collect());
        let end = run_par_bidirectional(space, &mut meter, &mut forward, &mut backward);
        let path = end.map(|hit| {
            hit.map(|(f, b)| {
                let (mut moves, mut states) = forward.path_to(f);
                let (back_moves, back_states) = backward.path_back(b);
                moves.extend(back_moves);
                states.extend(back_states.into_iter().skip(1));
                (moves, states)
            })
        });
        outcome(space, meter.finish(), path)
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
                meter.hold(forward.len() + backward.len());
                return Ok(Some((f, b)));
            }
        }
    }
    meter.store(forward.len() + backward.len())?;
    let (mut depth_ahead, mut depth_behind) = (0u32, 0u32);
    while forward.layer_len() > 0 && backward.layer_len() > 0 {
        if !meter.may_deepen(depth_ahead + depth_behind) {
            // Proven unsolvable if either side has nothing new beyond its last layer.
            let depth = depth_ahead + depth_behind;
            let seen_ahead = |state: &P::State| forward.find(state).is_some();
            let states = forward.layer_states();
            if !lies_beyond(Forward(space), meter, depth, states, seen_ahead)? {
                return Ok(None);
            }
            let seen_behind = |state: &P::State| backward.find(state).is_some();
            let states = backward.layer_states();
            if !lies_beyond(Backward(space), meter, depth, states, seen_behind)? {
                return Ok(None);
            }
            return Err(Limit::Depth);
        }
        meter.frontier(forward.layer_len() + backward.layer_len());
        let depth = u64::from(depth_ahead + depth_behind);
        if forward.layer_len() <= backward.layer_len() {
            let meeting = |k: usize| meet(&backward.shards[k]);
            let others = backward.len();
            if let Some(Hit::Meet(f, b)) =
                grow_side(meter, depth, forward, meeting, others, Forward(space))?
            {
                return Ok(Some((f, b)));
            }
            forward.advance();
            depth_ahead += 1;
        } else {
            let meeting = |k: usize| meet(&forward.shards[k]);
            let others = forward.len();
            if let Some(Hit::Meet(b, f)) =
                grow_side(meter, depth, backward, meeting, others, Backward(space))?
            {
                return Ok(Some((f, b)));
            }
            backward.advance();
            depth_behind += 1;
        }
    }
    Ok(None)
}

/// The end of a bidirectional layer in one shard: meeting the other side's shard of the same
/// number.
fn meet<S, M>(other: &Arena<S, M>) -> Ends<'_, S, M, fn(&S) -> bool> {
    Ends::Meeting(other)
}

/// Expands `own`'s current layer in parallel, checking each new state in shard `k` by
/// `ends(k)`: the first hit (in the lowest shard of the first batch that has one) ends the
/// layer, with global ids. `others` states are held elsewhere (by the other side).
fn grow_side<'a, S, M, G>(
    meter: &mut Meter,
    depth: u64,
    own: &mut Side<S, M>,
    ends: impl Fn(usize) -> Ends<'a, S, M, G> + Sync,
    others: usize,
    grow: impl Expand<S, M> + Sync,
) -> Result<Option<Hit>, Limit>
where
    S: Hash + Eq + Clone + Send + Sync + 'a,
    M: Clone + Send + Sync + 'a,
    G: Fn(&S) -> bool,
{
    if own.layer_len() < meter.config().parallel_width() {
        return grow_side_alone(meter, depth, own, ends, others, grow);
    }
    let threads = rayon::current_num_threads();
    let mut cursor = (0, own.layer[0].start);
    let mut ramp = Meter::FIRST_BATCH;
    loop {
        // Near the state budget, fewer states are expanded at once (see `Meter::batch`).
        let part = |k: usize| own.layer[k].clone();
        let states = meter.ramped_batch(&mut ramp, 4 * threads * CHUNK);
        let slices = next_slices(&mut cursor, SHARDS, part, states, 4 * threads);
        if slices.is_empty() {
            return Ok(None);
        }
        count_expansions(meter, depth, &slices)?;
        let shared: &Side<S, M> = own;
        let intake = meter.intake(slices.len());
        let expanded: Vec<(Intake, Vec<Successors<S, M>>)> = slices
            .par_iter()
            .map(|(k, slice)| {
                let arena = &shared.shards[*k];
                let mut buckets: Vec<Successors<S, M>> =
                    (0..SHARDS).map(|_| Successors::new()).collect();
                let mut intake = intake.clone();
                for local in slice.clone() {
                    if intake.stopped().is_some() {
                        break;
                    }
                    let local = local as u32;
                    let id = global(*k, local);
                    let parent = arena.parent(local).map(|(p, _)| shared.state(p));
                    grow.expand(arena.state(local), |mv, next| {
                        if intake.take() && parent != Some(&next) {
                            let hash = hash_of(&next);
                            buckets[shard_of(hash)].push(hash, id, mv, next);
                        }
                    });
                }
                (intake, buckets)
            })
            .collect();
        let by_shard = regroup(meter, expanded, SHARDS)?;
        let hits: Vec<Option<Hit>> = own
            .shards
            .par_iter_mut()
            .zip(by_shard)
            .enumerate()
            .map(|(k, (arena, buckets))| {
                let end = ends(k);
                for mut bucket in buckets {
                    if let Some(hit) = bucket.insert_into(arena, &end) {
                        return Some(globalize(k, hit));
                    }
                }
                None
            })
            .collect();
        if let Some(hit) = hits.into_iter().flatten().next() {
            meter.hold(own.len() + others);
            return Ok(Some(hit));
        }
        check_room(meter, own, others)?;
    }
}

/// A hit in shard `k`, with local ids, as global ids.
fn globalize(k: usize, hit: Hit) -> Hit {
    match hit {
        Hit::Goal(id) => Hit::Goal(global(k, id)),
        Hit::Meet(mine, met) => Hit::Meet(global(k, mine), global(k, met)),
    }
}

/// Records the states held after a batch (`others` by the other side): stops at the state
/// budget or when a shard is full; moves the shards to the large index once the side is large.
fn check_room<S: Hash + Eq + Clone + Send, M: Clone + Send>(
    meter: &mut Meter,
    own: &mut Side<S, M>,
    others: usize,
) -> Result<(), Limit> {
    meter.store(own.len() + others)?;
    if own.len() >= LARGE_FROM {
        own.shards.par_iter_mut().for_each(|a| a.set.make_large());
    }
    if own.shards.iter().any(|a| a.len() > SHARD_CAPACITY) {
        return Err(Limit::States);
    }
    Ok(())
}

/// [`grow_side`] for a layer narrower than [`Config::parallel_from`], on this thread alone:
/// states are expanded in small batches, as by the serial solvers, and each successor goes
/// straight into its shard.
fn grow_side_alone<'a, S, M, G>(
    meter: &mut Meter,
    depth: u64,
    own: &mut Side<S, M>,
    ends: impl Fn(usize) -> Ends<'a, S, M, G>,
    others: usize,
    grow: impl Expand<S, M>,
) -> Result<Option<Hit>, Limit>
where
    S: Hash + Eq + Clone + Send + Sync + 'a,
    M: Clone + Send + Sync + 'a,
    G: Fn(&S) -> bool,
{
    let mut pending: Successors<S, M> = Successors::new();
    let mut cursor = (0, own.layer[0].start);
    loop {
        let part = |k: usize| own.layer[k].clone();
        let slices = next_slices(&mut cursor, SHARDS, part, meter.batch(BATCH), 1);
        if slices.is_empty() {
            return Ok(None);
        }
        let mut intake = meter.intake(1);
        'slices: for (k, slice) in slices {
            let arena = &own.shards[k];
            for local in slice {
                if intake.stopped().is_some() {
                    break 'slices;
                }
                meter.expand(depth)?;
                let local = local as u32;
                let id = global(k, local);
                let parent = arena.parent(local).map(|(p, _)| own.state(p));
                grow.expand(arena.state(local), |mv, next| {
                    if intake.take() && parent != Some(&next) {
                        pending.push(hash_of(&next), id, mv, next);
                    }
                });
            }
        }
        meter.stats.generated += intake.offered();
        if let Some(limit) = intake.stopped() {
            return Err(limit);
        }
        for ((parent, mv, next), hash) in pending.items.drain(..).zip(pending.hashes.drain(..)) {
            let k = shard_of(hash);
            let arena = &mut own.shards[k];
            if let Insert::New(id) = arena.insert_hashed(hash, next, parent, mv) {
                if let Some(hit) = ends(k).hit(arena, id, hash) {
                    meter.hold(own.len() + others);
                    return Ok(Some(globalize(k, hit)));
                }
            }
        }
        check_room(meter, own, others)?;
    }
}
