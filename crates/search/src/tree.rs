//! The tree searches: depth-first dives under a growing bound, memory linear in the depth.
//!
//! They store no seen-set, so they revisit states reached by different paths; a space cuts that
//! waste down by skipping moves that are redundant after the last one (see
//! [`Space::successors`]), and the solvers themselves never step straight back to the state they
//! came from. They prove a space unsolvable only when an iteration meets no cut-off, which needs
//! a finite search tree; on spaces with longer cycles, bound them with `max_depth` or `timeout`.

use crate::config::{Config, Meter};
use crate::outcome::{Limit, Outcome, Solution, Status};
use crate::space::{Cost, Space};

/// Iterative deepening depth-first search: a solution with the fewest moves, in memory linear
/// in its length (the seed cube's method). Each iteration searches one move deeper.
pub fn iddfs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    dive_iteratively(space, config, false)
}

/// IDA*: a cheapest solution in memory linear in its length; iterations are bounded by
/// `g + heuristic` instead of depth. Optimal when the heuristic is admissible.
pub fn idastar<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    dive_iteratively(space, config, true)
}

/// How one iteration ended.
enum Dive {
    /// Reached a goal; the path is in the diver's `states` and `moves`.
    Found,
    /// Nothing within the bound.
    Within,
    /// A limit stopped the search.
    Stopped(Limit),
}

/// One iteration's depth-first walk, kept on explicit stacks so no recursion depth can overflow
/// the thread's stack, and with one children buffer per depth, reused across iterations, so the
/// walk allocates nothing once it has been as deep once.
struct Diver<S, M> {
    /// The path from the start: `states[d]` is at depth `d`; `moves[d]` leads into `states[d+1]`.
    states: Vec<S>,
    moves: Vec<M>,
    /// The path cost to `states[d]`.
    costs: Vec<Cost>,
    /// `pending[d]`: the children of `states[d]` within the bound still to visit, last one
    /// next, each with its path cost.
    pending: Vec<Vec<(M, S, Cost)>>,
}

/// The bounds of one iteration.
struct Bounds {
    /// A depth for IDDFS, an `f = g + h` cost for IDA*.
    bound: Cost,
    /// The smallest value beyond `bound` seen: the next iteration's bound.
    next_bound: Cost,
    /// Whether `max_depth` kept some node from being expanded.
    depth_cut: bool,
}

fn dive_iteratively<P>(space: &P, config: &Config, informed: bool) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    let mut meter = Meter::new(config);
    let start = space.start();
    let mut diver = Diver {
        states: Vec::new(),
        moves: Vec::new(),
        costs: Vec::new(),
        pending: Vec::new(),
    };
    let mut bound = if informed { space.heuristic(&start) } else { 0 };
    loop {
        let mut bounds = Bounds {
            bound,
            next_bound: Cost::MAX,
            depth_cut: false,
        };
        match diver.iterate(space, &mut meter, &start, &mut bounds, informed) {
            Dive::Found => {
                let cost = diver.costs.last().copied().unwrap_or(0);
                let solution = Solution {
                    moves: diver.moves,
                    states: diver.states,
                    cost,
                };
                return Outcome::solved(solution, meter.finish());
            }
            Dive::Stopped(limit) => {
                return Outcome::stopped(Status::Limit(limit), meter.finish());
            }
            Dive::Within if bounds.next_bound == Cost::MAX => {
                let status = if bounds.depth_cut {
                    Status::Limit(Limit::Depth)
                } else {
                    Status::Exhausted
                };
                return Outcome::stopped(status, meter.finish());
            }
            Dive::Within => {
                bound = bounds.next_bound;
                if let Err(limit) = meter.check(bound) {
                    return Outcome::stopped(Status::Limit(limit), meter.finish());
                }
            }
        }
    }
}

impl<S: Clone + Eq, M: Clone> Diver<S, M> {
    /// Walks every path whose bound value stays within `bounds.bound`.
    fn iterate<P>(
        &mut self,
        space: &P,
        meter: &mut Meter,
        start: &S,
        bounds: &mut Bounds,
        informed: bool,
    ) -> Dive
    where
        P: Space<State = S, Move = M>,
    {
        self.states.clear();
        self.moves.clear();
        self.costs.clear();
        // The start is within the first bound by construction; children are checked against
        // the bound as they are generated, so only the ones within it are ever visited.
        let mut next: Option<(Option<M>, S, Cost)> = Some((None, start.clone(), 0));
        loop {
            if let Some((mv, state, g)) = next.take() {
                let depth = self.states.len();
                let goal = space.is_goal(&state);
                if goal || meter.may_deepen(depth as u32) {
                    if let Some(mv) = mv {
                        self.moves.push(mv);
                    }
                    self.states.push(state);
                    self.costs.push(g);
                    if goal {
                        return Dive::Found;
                    }
                    if let Err(limit) = meter.expand(bounds.bound) {
                        return Dive::Stopped(limit);
                    }
                    meter.frontier(depth + 1);
                    self.expand(space, meter, depth, bounds, informed);
                } else {
                    bounds.depth_cut = true;
                }
            }
            // Take the next child of the deepest node that has one left, backtracking past the
            // nodes whose children are all done.
            loop {
                let Some(depth) = self.states.len().checked_sub(1) else {
                    return Dive::Within;
                };
                if let Some((mv, state, g)) = self.pending[depth].pop() {
                    next = Some((Some(mv), state, g));
                    break;
                }
                self.states.pop();
                self.costs.pop();
                self.moves.pop();
            }
        }
    }

    /// Generates the children of `states[depth]` that lie within the bound into
    /// `pending[depth]`, first child last, leaving out the state it came from; the smallest
    /// bound value beyond goes to `bounds.next_bound`.
    fn expand<P>(
        &mut self,
        space: &P,
        meter: &mut Meter,
        depth: usize,
        bounds: &mut Bounds,
        informed: bool,
    ) where
        P: Space<State = S, Move = M>,
    {
        if self.pending.len() <= depth {
            self.pending.resize_with(depth + 1, Vec::new);
        }
        let children = &mut self.pending[depth];
        children.clear();
        let child_depth = depth as Cost + 1;
        if !informed && child_depth > bounds.bound && bounds.next_bound == child_depth {
            // Iterative deepening at the bound: every child lies beyond it, and the next bound
            // is already known to be one deeper, so generating them would change nothing.
            return;
        }
        let state = &self.states[depth];
        let g = self.costs[depth];
        let parent = depth.checked_sub(1).map(|d| &self.states[d]);
        let mut generated = 0;
        space.successors(state, self.moves.last(), |mv, child| {
            generated += 1;
            if parent == Some(&child) {
                return;
            }
            let child_g = g + space.step_cost(state, &mv);
            let f = if informed {
                child_g.saturating_add(space.heuristic(&child))
            } else {
                child_depth
            };
            if f > bounds.bound {
                bounds.next_bound = bounds.next_bound.min(f);
            } else {
                children.push((mv, child, child_g));
            }
        });
        meter.stats.generated += generated;
        children.reverse();
    }
}
