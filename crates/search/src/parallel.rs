//! A layer-parallel version of [`crate::bfs`].
//!
//! Worker threads expand slices of a layer and hash the children; one thread then inserts them
//! into the arena in a fixed order, so the answer is the same as the serial solver's for any
//! number of threads. ([`crate::explore`] is parallel by itself, with `config.threads`.)

use std::hash::Hash;

use rayon::prelude::*;

use crate::arena::{Arena, Insert};
use crate::config::{Config, Meter};
use crate::graph::{path_cost, plant_start, End};
use crate::outcome::{Limit, Outcome, Status};
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
