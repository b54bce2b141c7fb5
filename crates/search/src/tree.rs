//! The tree searches: depth-first dives under a growing bound, memory linear in the depth.
//!
//! They store no seen-set, so they revisit states reached by different paths; a space cuts that
//! waste down by skipping moves that are redundant after the last one (see
//! [`Space::successors`]), and the solvers themselves never step straight back to the state they
//! came from.
//!
//! They prove a space unsolvable when an iteration cuts off no path that is simple (visits no
//! state twice): a shortest path to a goal is simple, and the bound would cut off its first part.
//! So on a finite space they end once the bound passes the longest simple path, cycles or not.
//! To know it, each level of the dive keeps its state and a link to its parent's level on the
//! stack (nothing is allocated), and an iteration looks its cut-off paths over for a repeated
//! state only until it finds a simple one, which on most spaces is the first.

use std::cell::Cell;

use crate::config::{weigh, Config, Meter, Reach};
use crate::outcome::{Limit, Outcome, Solution};
use crate::space::{Cost, Space};

/// Iterative deepening depth-first search: a solution with the fewest moves, in memory linear
/// in its length (the seed cube's method). Each iteration searches one move deeper.
///
/// Without a solution it still ends on a finite space, cycles or not: once an iteration cuts off
/// no path that visits each state once, no goal is reachable ([`Outcome::Exhausted`]). Its tree
/// grows exponentially with the depth, so that proof comes in reach on small spaces only.
/// It stores no states: `max_states` bounds the length of the path it holds.
pub fn iddfs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    dive_iteratively(space, config, false)
}

/// IDA*: a cheapest solution in memory linear in its length; iterations are bounded by
/// `g + heuristic` instead of depth. Optimal when the heuristic is admissible; with a
/// [weight](Config::weight) `w`, the bound applies to `g + w·heuristic` and the solution costs at
/// most `w` times the cheapest (weighted IDA*). Like [`iddfs`], it proves a small space
/// unsolvable once an iteration cuts off no path that visits each state once, and
/// `max_states` bounds the length of its path.
///
/// Weighted and within `max_depth`, it leaves out every state whose heuristic puts the goals
/// farther than the moves left can go, at [the most a step costs](Space::max_step_cost), when
/// the space says it.
///
/// With `max_depth` `d`, a space that says what a step costs at most
/// ([`Space::max_step_cost`], `u`) ends with `Limit(Depth)` once an iteration's bound reaches
/// `d·u` (times the weight, if over 1): with an admissible heuristic, every path within the
/// depth has then been searched. A space that does not say so gets iterations while the bound
/// cuts off some path within the depth, each searching the whole tree within the depth up to
/// its bound: on a large space that takes practically forever (the 8-puzzle's 31-move
/// position within 30 moves: 39 M expansions in 5 s, far from finished).
pub fn idastar<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    dive_iteratively(space, config, true)
}

/// The bounds of one iteration.
struct Bounds {
    /// A depth for IDDFS, an `f = g + h` cost for IDA*.
    bound: Cost,
    /// The smallest value beyond `bound` seen: the next iteration's bound; `None` if none was.
    next_bound: Option<Cost>,
    /// Whether `max_depth` kept a simple path from going on to a state it has not visited.
    depth_cut: bool,
    /// Whether the bound cut off some simple path: only then may a deeper iteration find a
    /// goal (the iteration is open).
    open: bool,
}

/// How many levels the dive descends between two checks of the remaining thread stack.
const STACK_CHECK_EVERY: u32 = 32;
/// The stack that must remain for `STACK_CHECK_EVERY` more levels; below it, the dive
/// continues on a fresh segment of `STACK_SEGMENT` bytes.
const STACK_RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 4 << 20;

fn dive_iteratively<P>(space: &P, config: &Config, informed: bool) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Eq,
{
    let mut meter = Meter::new(config);
    let start = space.start();
    let last_bound = informed.then(|| covering_bound(space, config)).flatten();
    let mut bound = if informed {
        config.weigh(space.heuristic(&start))
    } else {
        0
    };
    loop {
        let mut diver = Diver {
            meter: &mut meter,
            bounds: Bounds {
                bound,
                next_bound: None,
                depth_cut: false,
                open: false,
            },
            informed,
            weight: config.effective_weight(),
            reach: Reach::of(config, space),
            max_path: config.max_states.unwrap_or(u64::MAX),
            moves: Vec::new(),
            states: Vec::new(),
            stop: None,
        };
        // Weighted or not, the dive is compiled apart, so the exact search pays nothing.
        let found = match diver.weight {
            None => diver.dive::<P, false>(space, &Trail::root(&start), None, None, 0, 0),
            Some(_) => diver.dive::<P, true>(space, &Trail::root(&start), None, None, 0, 0),
        };
        let Diver {
            bounds,
            stop,
            mut moves,
            mut states,
            ..
        } = diver;
        if found {
            states.push(start);
            moves.reverse();
            states.reverse();
            let solution = Solution::priced(space, moves, states);
            return Outcome::Solved {
                solution,
                stats: meter.finish(),
            };
        }
        if let Some(limit) = stop {
            return Outcome::unsolved(Some(limit), meter.finish());
        }
        let next_bound = bounds.next_bound.filter(|_| bounds.open);
        let Some(next_bound) = next_bound else {
            let limit = bounds.depth_cut.then_some(Limit::Depth);
            return Outcome::unsolved(limit, meter.finish());
        };
        if last_bound.is_some_and(|last| bound >= last) {
            return Outcome::unsolved(Some(Limit::Depth), meter.finish());
        }
        bound = next_bound;
        if let Err(limit) = meter.check(bound) {
            return Outcome::unsolved(Some(limit), meter.finish());
        }
    }
}

/// The IDA* bound that takes in every path within `max_depth`, when the space bounds its step
/// costs: a path of at most `d` steps of at most `u` each costs at most `c = d·u`, and with an
/// admissible heuristic every state on it has `g + h <= c` (`g + w·h <= w·c` with a weight `w`
/// over 1; truncating `w·h`, as [`weigh`] does, only lowers it).
fn covering_bound<P: Space>(space: &P, config: &Config) -> Option<Cost> {
    let most = Cost::from(config.max_depth?).saturating_mul(space.max_step_cost()?);
    let weight = config.effective_weight().unwrap_or(1.0);
    Some(if weight > 1.0 {
        (most as f64 * weight).ceil() as Cost
    } else {
        most
    })
}

/// A level of the dive: its state and the level above, kept on the stack, so that a cut-off
/// path can be looked over for a repeated state.
struct Trail<'a, S> {
    state: &'a S,
    up: Option<&'a Trail<'a, S>>,
    /// Whether the path from the start to here visits no state twice, once asked.
    simple: Cell<Option<bool>>,
}

impl<'a, S: Eq> Trail<'a, S> {
    fn root(state: &'a S) -> Self {
        Trail {
            state,
            up: None,
            simple: Cell::new(Some(true)),
        }
    }

    fn below(&'a self, state: &'a S) -> Self {
        Trail {
            state,
            up: Some(self),
            simple: Cell::new(None),
        }
    }

    /// Whether `state` lies on the path from the start to here.
    fn holds(&self, state: &S) -> bool {
        let mut level = Some(self);
        while let Some(trail) = level {
            if trail.state == state {
                return true;
            }
            level = trail.up;
        }
        false
    }

    /// Whether the path from the start to here visits no state twice. Each level works it out
    /// once, from the level above: a level below a repeat knows at once, one on a simple path
    /// looks the path over.
    #[cold]
    fn is_simple(&self) -> bool {
        if let Some(simple) = self.simple.get() {
            return simple;
        }
        let simple = (self.up).is_none_or(|up| up.is_simple() && !up.holds(self.state));
        self.simple.set(Some(simple));
        simple
    }
}

/// One iteration's depth-first dive. It recurses through the space's successor callback, so
/// a node's children are visited as they are generated and nothing is buffered or allocated
/// per node; every few levels it checks the thread's stack and, when it runs low, continues
/// on a new stack segment (the `stacker` crate), so no bound is too deep.
struct Diver<'m, 'c, S, M> {
    meter: &'m mut Meter<'c>,
    bounds: Bounds,
    informed: bool,
    /// The heuristic's [weight](Config::weight), when it changes anything.
    weight: Option<f64>,
    /// `max_depth` and the space's [most costly step](Space::max_step_cost), when both are
    /// known: a weighted dive then leaves out every child whose heuristic puts the goals past
    /// the depth limit (see [`Diver::out_of_reach`]).
    reach: Option<Reach>,
    /// The most states a path may hold: `max_states`.
    max_path: u64,
    /// The solution's moves and states, collected goal first while the dive unwinds.
    moves: Vec<M>,
    states: Vec<S>,
    /// The limit that stopped the dive, if one did.
    stop: Option<Limit>,
}

impl<S: Clone + Eq, M: Clone> Diver<'_, '_, S, M> {
    /// At a simple path that the depth limit stops: the limit cut it off only if it could go
    /// on to a state it has not visited. Looking is expanding: counted, and the limits apply.
    #[cold]
    fn look_past_the_limit<P>(&mut self, space: &P, trail: &Trail<'_, S>, last: Option<&M>)
    where
        P: Space<State = S, Move = M>,
    {
        if let Err(limit) = self.meter.expand(self.bounds.bound) {
            self.stop = Some(limit);
            return;
        }
        let mut generated = 0;
        space.successors(trail.state, last, |_, child| {
            generated += 1;
            self.bounds.depth_cut = self.bounds.depth_cut || !trail.holds(&child);
        });
        self.meter.stats.generated += generated;
    }

    /// Whether a state `depth` moves deep with heuristic `h` lies out of the depth limit's
    /// reach: every goal at least `h` away costs more than the moves left could, at the most a
    /// step costs. An exact dive needs no such cut (its bound keeps `g + h` low), but a weighted
    /// bound lets far deeper paths through: Korf's 15-puzzle #9 (linear conflicts, weight 3,
    /// within 50 moves) ran 126 M expansions into a 20 s timeout without it, and takes 0.5 M.
    #[inline]
    fn out_of_reach(&self, depth: Cost, h: Cost) -> bool {
        self.reach.is_some_and(|reach| reach.beyond(depth, h))
    }

    /// Searches below the state at the end of `trail`, reached at `depth` moves and cost `g` by
    /// `last`; returns whether it reached a goal. `parent` is the state of the trail's level
    /// above, passed apart: reading it through the trail took 2.6% more instructions on the
    /// IDA* bench (callgrind, 7.80 G against 7.61 G).
    fn dive<P, const WEIGHTED: bool>(
        &mut self,
        space: &P,
        trail: &Trail<'_, S>,
        parent: Option<&S>,
        last: Option<&M>,
        depth: u32,
        g: Cost,
    ) -> bool
    where
        P: Space<State = S, Move = M>,
    {
        let state = trail.state;
        if space.is_goal(state) {
            return true;
        }
        if !self.meter.may_deepen(depth) {
            if !self.bounds.depth_cut && trail.is_simple() {
                self.look_past_the_limit(space, trail, last);
            }
            return false;
        }
        let child_depth = Cost::from(depth) + 1;
        if !self.informed
            && child_depth > self.bounds.bound
            && self.bounds.next_bound == Some(child_depth)
            && self.bounds.open
        {
            // Iterative deepening at the bound: every child lies beyond it, the next bound is
            // already known to be one deeper, and the iteration is known to be open, so
            // generating them would change nothing (and the state is not counted expanded).
            return false;
        }
        // The path's states are what a dive holds: `max_states` bounds its depth, so that a
        // dive that never ends (zero-cost moves on an endless space) stops before memory does.
        if Cost::from(depth) >= self.max_path {
            self.stop = Some(Limit::States);
            return false;
        }
        if let Err(limit) = self.meter.expand(self.bounds.bound) {
            self.stop = Some(limit);
            return false;
        }
        self.meter.frontier(depth as usize + 1);
        let mut found = false;
        space.successors(state, last, |mv, child| {
            if found || self.stop.is_some() {
                return;
            }
            self.meter.stats.generated += 1;
            if parent == Some(&child) {
                return; // never straight back to where this state came from
            }
            let step = space.step_cost(state, &mv);
            // A free move, or a bound that takes in every cost, no longer makes each step
            // cost some of the bound, and a cycle could be followed forever within it: there,
            // a path that comes back to a state it passed is dropped (no cheapest path needs
            // one).
            if (step == 0 || self.bounds.bound == Cost::MAX) && trail.holds(&child) {
                return;
            }
            let child_g = g.saturating_add(step);
            let f = if self.informed {
                let h = space.heuristic(&child);
                if h == Cost::MAX && !space.is_goal(&child) {
                    // A dead end: no goal lies beyond it. Counted as a cut-off, it would raise
                    // the bound one step at a time through every cycle elsewhere, for ever.
                    return;
                }
                if WEIGHTED && self.out_of_reach(child_depth, h) {
                    if !self.bounds.depth_cut && trail.is_simple() && !trail.holds(&child) {
                        self.bounds.depth_cut = true;
                    }
                    return;
                }
                child_g.saturating_add(if WEIGHTED { weigh(self.weight, h) } else { h })
            } else {
                child_depth
            };
            if f > self.bounds.bound {
                self.bounds.next_bound = Some(self.bounds.next_bound.map_or(f, |b| b.min(f)));
                if !self.bounds.open && trail.is_simple() && !trail.holds(&child) {
                    self.bounds.open = true;
                }
                return;
            }
            let below = trail.below(&child);
            let mut descend = || {
                self.dive::<P, WEIGHTED>(space, &below, Some(state), Some(&mv), depth + 1, child_g)
            };
            let reached = if depth % STACK_CHECK_EVERY == STACK_CHECK_EVERY - 1 {
                stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, descend)
            } else {
                descend()
            };
            if reached {
                found = true;
                self.moves.push(mv);
                self.states.push(child);
            }
        });
        found
    }
}
