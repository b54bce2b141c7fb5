//! Breadth-first search without a seen-set: the board seed's first program, kept as a lesson
//! and a baseline (`frontier ... --compare`), reached through [`crate::solve`].

use std::hash::Hash;

use crate::arena::Arena;
use crate::config::Config;
use crate::graph::{path_cost, plant_start, with_this_arena, End};
use crate::outcome::Outcome;
use crate::space::Space;

/// Searches level by level and queues every successor, whether its state was met before or
/// not: a shortest solution in moves, found after unfolding every path shorter than it. On a
/// space with cycles the tree has no end, so without a goal it stops only at a limit; memory
/// grows with the number of paths, not of states (`max_states` counts the queued nodes).
pub(crate) fn tree_bfs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Hash + Eq,
{
    with_this_arena(config, Arena::unindexed(), |meter, arena, cut| {
        if let Some(end) = plant_start(space, meter, arena) {
            return end;
        }
        let max_depth = meter.config().max_depth;
        // Nodes are expanded in the order queued; `level_end` is where the next level starts.
        let (mut next, mut level_end, mut depth) = (0u32, 1usize, 0u32);
        while (next as usize) < arena.len() {
            if next as usize == level_end {
                depth += 1;
                level_end = arena.len();
            }
            if max_depth.is_some_and(|most| depth >= most) {
                *cut = true;
                return End::Exhausted;
            }
            if let Err(limit) = meter.expand(u64::from(depth)) {
                return End::Stopped(limit);
            }
            let state = arena.state(next).clone();
            let last = arena.parent(next).map(|(_, mv)| mv.clone());
            let (mut found, mut generated) = (None, 0);
            space.successors(&state, last.as_ref(), |mv, child| {
                generated += 1;
                if found.is_none() {
                    let goal = space.is_goal(&child);
                    let id = arena.push(child, Some((next, mv)));
                    if goal {
                        found = Some(id);
                    }
                }
            });
            meter.stats.generated += generated;
            if let Some(id) = found {
                meter.hold(arena.len());
                return End::Found(id, path_cost(space, arena, id));
            }
            if let Err(limit) = meter.store(arena.len()) {
                return End::Stopped(limit);
            }
            next += 1;
        }
        End::Exhausted
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{bfs, Limit, Status};

    /// A ring of `n` states; the goal is the far side.
    struct Ring(u32);
    impl Space for Ring {
        type State = u32;
        type Move = i8;
        fn start(&self) -> u32 {
            0
        }
        fn is_goal(&self, s: &u32) -> bool {
            *s == self.0 / 2
        }
        fn successors(&self, s: &u32, _: Option<&i8>, mut out: impl FnMut(i8, u32)) {
            out(1, (s + 1) % self.0);
            out(-1, (s + self.0 - 1) % self.0);
        }
    }

    #[test]
    fn finds_what_bfs_finds_after_unfolding_every_path() {
        let ring = Ring(12);
        let tree = tree_bfs(&ring, &Config::default());
        let graph = bfs(&ring, &Config::default());
        assert_eq!(
            tree.solution().unwrap().moves,
            graph.solution().unwrap().moves
        );
        // The goal lies 6 steps away: every path of up to 4 steps is expanded (2^5 - 1 nodes),
        // then the first of 5 steps reaches it; a seen-set expands each other state once at most.
        assert_eq!(tree.stats().expanded, (1 << 5) - 1 + 1);
        assert!(graph.stats().expanded <= 11);
    }

    #[test]
    fn without_a_goal_within_reach_it_stops_at_a_limit() {
        let ring = Ring(1000);
        let budget = tree_bfs(&ring, &Config::default().max_states(1000));
        assert_eq!(budget.status(), Status::Limit(Limit::States));
        let depth = tree_bfs(&ring, &Config::default().max_depth(4));
        assert_eq!(depth.status(), Status::Limit(Limit::Depth));
        assert_eq!(depth.stats().expanded, (1 << 4) - 1);
    }
}
