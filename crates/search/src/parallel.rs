//! Layer-parallel versions of [`crate::bfs`] and [`crate::explore`].
//!
//! Worker threads expand slices of a layer and hash the children; one thread then inserts them
//! into the seen-set in a fixed order, so the answers are the same as the serial solvers' for any
//! number of threads.

use std::hash::Hash;

use rayon::prelude::*;

use crate::arena::{Arena, Insert, StateSet};
use crate::config::{Config, Meter};
use crate::graph::{path_cost, plant_start, with_layers, End};
use crate::outcome::{Exploration, Limit, Outcome, Status};
use crate::space::Space;

/// States a worker expands in one batch.
const CHUNK: usize = 1 << 12;

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
            let to = layer.end.min(from + CHUNK * rayon::current_num_threads());
            let batches: Vec<Vec<_>> = arena.set.states[from..to]
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(chunk, states)| {
                    let mut out = Vec::new();
                    for (i, state) in states.iter().enumerate() {
                        let parent = (from + chunk * CHUNK + i) as u32;
                        space.successors(state, None, |mv, next| {
                            let hash = arena.set.hash(&next);
                            out.push((hash, parent, mv, next));
                        });
                    }
                    out
                })
                .collect();
            for _ in from..to {
                meter.expand(u64::from(depth))?;
            }
            for (hash, parent, mv, next) in batches.into_iter().flatten() {
                meter.stats.generated += 1;
                if let Insert::New(child) = arena.insert_hashed(hash, next, parent, mv) {
                    if space.is_goal(arena.state(child)) {
                        return Ok(Some(child));
                    }
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

/// [`crate::explore`] with each layer expanded by `config.threads` worker threads; an
/// [undirected](Space::undirected) space gets the serial frontier search instead.
pub fn par_explore<P>(space: &P, config: &Config) -> Exploration
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
{
    // Frontier search keeps three layers instead of every state: better than more threads.
    if space.undirected() {
        return crate::explore(space, config);
    }
    let Some(pool) = pool(config) else {
        return crate::explore(space, config);
    };
    pool.install(|| {
        with_layers(config, |meter, layers| {
            run_par_explore(space, meter, layers)
        })
    })
}

fn run_par_explore<P>(space: &P, meter: &mut Meter, layers: &mut Vec<u64>) -> Status
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
{
    let mut seen = StateSet::new();
    seen.insert(space.start());
    layers.push(1);
    if let Err(limit) = meter.store(1) {
        return Status::Limit(limit);
    }
    let mut layer = 0..1usize;
    let mut depth = 0u32;
    loop {
        meter.frontier(layer.len());
        let last = !meter.may_deepen(depth);
        let mut from = layer.start;
        while from < layer.end {
            let to = layer.end.min(from + CHUNK * rayon::current_num_threads());
            // Workers generate and hash the successors not seen before this batch.
            let seen_now = &seen;
            let batches: Vec<(u64, Vec<_>)> = seen.states[from..to]
                .par_chunks(CHUNK)
                .map(|states| {
                    let mut generated = 0;
                    let mut fresh = Vec::new();
                    for state in states {
                        space.successors(state, None, |_, next| {
                            generated += 1;
                            let hash = seen_now.hash(&next);
                            if seen_now.find_hashed(hash, &next).is_none() {
                                fresh.push((hash, next));
                            }
                        });
                    }
                    (generated, fresh)
                })
                .collect();
            if last {
                // At the depth limit: complete only if nothing lies beyond the last layer.
                if batches.iter().any(|(_, fresh)| !fresh.is_empty()) {
                    return Status::Limit(Limit::Depth);
                }
                from = to;
                continue;
            }
            for _ in from..to {
                if let Err(limit) = meter.expand(u64::from(depth)) {
                    layers.push((seen.len() - layer.end) as u64);
                    return Status::Limit(limit);
                }
            }
            for (generated, fresh) in batches {
                meter.stats.generated += generated;
                for (hash, next) in fresh {
                    seen.insert_hashed(hash, next);
                }
            }
            if let Err(limit) = meter.store(seen.len()) {
                layers.push((seen.len() - layer.end) as u64);
                return Status::Limit(limit);
            }
            from = to;
        }
        if last {
            return Status::Exhausted;
        }
        layer = layer.end..seen.len();
        if layer.is_empty() {
            return Status::Exhausted;
        }
        layers.push(layer.len() as u64);
        depth += 1;
    }
}
