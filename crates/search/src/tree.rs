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

/// What one dive below a node ended with.
enum Dive {
    /// Reached a goal; the path is being collected on the way back up.
    Found,
    /// Nothing within the bound below this node.
    Within,
    /// A limit stopped the search.
    Stopped(Limit),
}

/// The state of one iteration, shared by every level of the recursion.
struct Diver<'m, 'c, S, M> {
    meter: &'m mut Meter<'c>,
    /// The bound: a depth for IDDFS, an `f = g + h` cost for IDA*.
    bound: Cost,
    /// The smallest value beyond `bound` seen (the next iteration's bound).
    next_bound: Cost,
    informed: bool,
    /// Whether `max_depth` kept some node from being expanded.
    depth_cut: bool,
    /// The solution's moves and states, collected goal first while the recursion unwinds.
    moves: Vec<M>,
    states: Vec<S>,
}

fn dive_iteratively<P>(space: &P, config: &Config, informed: bool) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    let mut meter = Meter::new(config);
    let start = space.start();
    let mut bound = if informed { space.heuristic(&start) } else { 0 };
    loop {
        let mut diver = Diver {
            meter: &mut meter,
            bound,
            next_bound: Cost::MAX,
            informed,
            depth_cut: false,
            moves: Vec::new(),
            states: Vec::new(),
        };
        let dive = diver.dive(space, &start, None, None, 0, 0);
        let (next_bound, depth_cut) = (diver.next_bound, diver.depth_cut);
        let (mut moves, mut states) = (diver.moves, diver.states);
        match dive {
            Dive::Found => {
                states.push(start);
                moves.reverse();
                states.reverse();
                let cost = states
                    .iter()
                    .zip(&moves)
                    .map(|(s, m)| space.step_cost(s, m))
                    .sum();
                let solution = Solution {
                    moves,
                    states,
                    cost,
                };
                return Outcome::solved(solution, meter.finish());
            }
            Dive::Stopped(limit) => {
                return Outcome::stopped(Status::Limit(limit), meter.finish());
            }
            Dive::Within if next_bound == Cost::MAX => {
                let status = if depth_cut {
                    Status::Limit(Limit::Depth)
                } else {
                    Status::Exhausted
                };
                return Outcome::stopped(status, meter.finish());
            }
            Dive::Within => {
                bound = next_bound;
                if let Err(limit) = meter.check(bound) {
                    return Outcome::stopped(Status::Limit(limit), meter.finish());
                }
            }
        }
    }
}

impl<S: Clone + Eq, M: Clone> Diver<'_, '_, S, M> {
    /// Searches below `state`, reached at `depth` moves and cost `g`, from `parent` by `last`.
    fn dive<P>(
        &mut self,
        space: &P,
        state: &S,
        parent: Option<&S>,
        last: Option<&M>,
        depth: u32,
        g: Cost,
    ) -> Dive
    where
        P: Space<State = S, Move = M>,
    {
        let f = if self.informed {
            g.saturating_add(space.heuristic(state))
        } else {
            Cost::from(depth)
        };
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return Dive::Within;
        }
        if space.is_goal(state) {
            return Dive::Found;
        }
        if !self.meter.may_deepen(depth) {
            self.depth_cut = true;
            return Dive::Within;
        }
        if let Err(limit) = self.meter.expand(self.bound) {
            return Dive::Stopped(limit);
        }
        self.meter.frontier(depth as usize + 1);
        let mut result = Dive::Within;
        space.successors(state, last, |mv, next| {
            if !matches!(result, Dive::Within) {
                return;
            }
            self.meter.stats.generated += 1;
            if parent == Some(&next) {
                return;
            }
            let step = space.step_cost(state, &mv);
            result = self.dive(space, &next, Some(state), Some(&mv), depth + 1, g + step);
            if let Dive::Found = result {
                self.moves.push(mv);
                self.states.push(next);
            }
        });
        result
    }
}
