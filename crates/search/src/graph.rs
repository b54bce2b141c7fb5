//! The graph searches: every seen state is stored once, so no state is expanded twice.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::arena::{hash_of, Arena, Insert, AHEAD};
use crate::bits::{bits_budget, BitSet};
use crate::config::{weigh, Config, Meter, Reach};
use crate::open::OpenList;
use crate::outcome::{Limit, Outcome, Solution, Stats};
use crate::space::{Cost, Reversible, Space};

/// How a solver's main loop ended.
pub(crate) enum End {
    /// Found a goal: the arena id of the goal state and the solution's cost.
    Found(u32, Cost),
    /// Examined everything reachable within the limits.
    Exhausted,
    /// Stopped by a limit.
    Stopped(Limit),
}

impl From<Limit> for End {
    fn from(limit: Limit) -> Self {
        End::Stopped(limit)
    }
}

/// Runs a solver's body over a fresh meter and arena and turns how it ended into an outcome.
/// The body sets its `bool` when `max_depth` kept some state from being expanded: then
/// "exhausted" only means "nothing within the depth".
fn with_arena<S: Clone + Hash + Eq, M: Clone>(
    config: &Config,
    body: impl FnOnce(&mut Meter, &mut Arena<S, M>, &mut bool) -> End,
) -> Outcome<S, M> {
    with_this_arena(config, Arena::new(), body)
}

/// [`with_arena`] over a given arena.
pub(crate) fn with_this_arena<S: Clone + Hash + Eq, M: Clone>(
    config: &Config,
    mut arena: Arena<S, M>,
    body: impl FnOnce(&mut Meter, &mut Arena<S, M>, &mut bool) -> End,
) -> Outcome<S, M> {
    let mut meter = Meter::new(config);
    let mut cut = false;
    let end = body(&mut meter, &mut arena, &mut cut);
    concluded(end, cut, &arena, meter.finish())
}

/// The outcome of a search over `arena` that ended as `end` says (`cut`: see [`with_arena`]).
pub(crate) fn concluded<S: Clone + Hash + Eq, M: Clone>(
    end: End,
    cut: bool,
    arena: &Arena<S, M>,
    stats: Stats,
) -> Outcome<S, M> {
    match end {
        End::Found(id, cost) => Outcome::Solved {
            solution: arena.solution(id, cost),
            stats,
        },
        End::Exhausted if cut => Outcome::Stopped {
            limit: Limit::Depth,
            stats,
        },
        End::Exhausted => Outcome::Exhausted { stats },
        End::Stopped(limit) => Outcome::Stopped { limit, stats },
    }
}

/// Stores the start as the arena's root; ends the search at once if it is a goal already.
pub(crate) fn plant_start<P>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
) -> Option<End>
where
    P: Space,
    P::State: Hash + Eq,
{
    let start = space.start();
    let start_is_goal = space.is_goal(&start);
    arena.insert_root(start);
    if start_is_goal {
        meter.hold(1);
        return Some(End::Found(0, 0));
    }
    meter.store(1).err().map(End::from)
}

/// Depth-first search with a seen-set: finds *a* solution, not a shortest one.
///
/// The seed's solver: it follows the first move first, and never enters a state it has seen
/// before, so it terminates on any finite space. Memory: every seen state.
/// With `max_depth`, a state first seen deep is not revisited by a shorter path, so an answer
/// within the depth may be missed; the outcome then says the depth limit was hit.
pub fn dfs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Hash + Eq,
{
    with_arena(config, |meter, arena, cut| {
        run_dfs(space, meter, arena, cut)
    })
}

fn run_dfs<P>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
    cut: &mut bool,
) -> End
where
    P: Space,
    P::State: Hash + Eq,
{
    if let Some(end) = plant_start(space, meter, arena) {
        return end;
    }
    // Each stack entry: (id, depth, cost so far).
    let mut stack: Vec<(u32, u32, Cost)> = vec![(0, 0, 0)];
    let mut children = Vec::new();
    let mut fresh = Vec::new();
    // The states the depth limit kept from being expanded: once the search is over, whether
    // anything lies beyond them says whether it saw the whole reachable set.
    let mut at_the_limit = Vec::new();
    while let Some((id, depth, cost)) = stack.pop() {
        if !meter.may_deepen(depth) {
            at_the_limit.push(id);
            continue;
        }
        if let Err(limit) = meter.expand(u64::from(depth)) {
            return limit.into();
        }
        if let Err(limit) = collect_successors(space, meter, arena.state(id), &mut children) {
            return limit.into();
        }
        fresh.clear();
        for (mv, next) in children.drain(..) {
            let step = space.step_cost(arena.state(id), &mv);
            if let Insert::New(child) = arena.insert(next, id, mv) {
                if space.is_goal(arena.state(child)) {
                    meter.hold(arena.len());
                    return End::Found(child, cost.saturating_add(step));
                }
                fresh.push((child, depth + 1, cost.saturating_add(step)));
            }
        }
        if let Err(limit) = meter.store(arena.len()) {
            return limit.into();
        }
        // Reversed, so the first successor is explored first.
        stack.extend(fresh.drain(..).rev());
        meter.frontier(stack.len());
    }
    if !at_the_limit.is_empty() {
        let depth = meter.config().max_depth.unwrap_or(0);
        let states = at_the_limit.iter().map(|&id| arena.state(id));
        let seen = |state: &_| arena.set.find(state).is_some();
        match lies_beyond(Forward(space), meter, depth, states, seen) {
            Ok(beyond) => *cut = beyond,
            Err(limit) => return limit.into(),
        }
    }
    End::Exhausted
}

/// Appends the successors of `state` to `children` (empty), as far as the meter's
/// [intake](Meter::intake) takes them; counts them generated.
fn collect_successors<P: Space>(
    space: &P,
    meter: &mut Meter,
    state: &P::State,
    children: &mut Vec<(P::Move, P::State)>,
) -> Result<(), Limit> {
    let mut intake = meter.intake(1);
    space.successors(state, None, |mv, next| {
        if intake.take() {
            children.push((mv, next));
        }
    });
    meter.stats.generated += intake.offered();
    intake.stopped().map_or(Ok(()), Err)
}

/// Breadth-first search with a seen-set (the seed's transposition table): a solution with the
/// fewest moves. Memory: every seen state, once, with a `u32` parent link.
///
/// Layers are expanded in order; since the arena stores states in the order they were found,
/// the frontier is a range of its ids and needs no queue of its own. How the layers grow is
/// chosen once, when the search starts:
/// - with [`Config::worker_threads`] above one, each layer at least
///   [`Config::parallel_from`] wide is expanded, and its states stored, by that many threads
///   (the seen-set then split into shards by hash). The answer has the fewest moves, though
///   which of several shortest paths is found may depend on the thread count;
/// - else, for a space with a perfect [index](Space::index_bound) whose bits fit the state
///   budget, which states were seen is one bit per index: a successor is looked up by reading
///   a bit instead of in a hash table (memory: the bits, and every seen state for the path);
/// - else one hash table of every seen state.
pub fn bfs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    if let Some(pool) = crate::parallel::pool(config) {
        return crate::parallel::par_bfs(space, config, &pool);
    }
    let budget = bits_budget::<P::State>(config);
    if let Some(seen) = space
        .index_bound()
        .and_then(|bound| BitSet::new(bound, budget))
    {
        return with_this_arena(config, Arena::unindexed(), |meter, arena, cut| {
            run_bfs_indexed(space, meter, arena, cut, seen)
        });
    }
    with_arena(config, |meter, arena, cut| {
        run_bfs(space, meter, arena, cut)
    })
}

fn run_bfs<P>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
    cut: &mut bool,
) -> End
where
    P: Space,
    P::State: Hash + Eq,
{
    if let Some(end) = plant_start(space, meter, arena) {
        return end;
    }
    let mut layers = Layers::new();
    loop {
        if let Some(end) = layers.grow(space, meter, arena, cut) {
            return end;
        }
    }
}

/// A breadth-first search over one arena whose start is planted, grown a layer at a time.
pub(crate) struct Layers<S, M> {
    /// The current layer: a range of the arena's ids.
    pub layer: std::ops::Range<usize>,
    /// Its distance from the start.
    pub depth: u32,
    batch: Successors<S, M>,
}

impl<S: Hash + Eq + Clone, M: Clone> Layers<S, M> {
    /// The search at its start, layer 0.
    pub fn new() -> Self {
        Layers {
            layer: 0..1,
            depth: 0,
            batch: Successors::new(),
        }
    }

    /// Expands the current layer into the next, which becomes current; `Some` when the search
    /// ends instead (`cut`: see [`with_arena`]).
    pub fn grow<P>(
        &mut self,
        space: &P,
        meter: &mut Meter,
        arena: &mut Arena<S, M>,
        cut: &mut bool,
    ) -> Option<End>
    where
        P: Space<State = S, Move = M>,
    {
        if self.layer.is_empty() {
            return Some(End::Exhausted);
        }
        meter.frontier(self.layer.len());
        if !meter.may_deepen(self.depth) {
            match lies_beyond_layer(Forward(space), meter, self.depth, arena, &self.layer) {
                Ok(beyond) => *cut = beyond,
                Err(limit) => return Some(limit.into()),
            }
            return Some(End::Exhausted);
        }
        let goal = |state: &S| space.is_goal(state);
        let (layer, depth) = (self.layer.clone(), self.depth.into());
        match (self.batch).grow_layer(meter, depth, layer, arena, Forward(space), Ends::Goal(goal))
        {
            Ok(Some(Hit::Goal(child))) => {
                return Some(End::Found(child, path_cost(space, arena, child)))
            }
            Ok(_) => {}
            Err(limit) => return Some(limit.into()),
        }
        self.layer = self.layer.end..arena.len();
        self.depth += 1;
        None
    }
}

/// [`bfs`] over a bit per index for the states seen; the arena keeps them for the path.
fn run_bfs_indexed<P>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
    cut: &mut bool,
    mut seen: BitSet,
) -> End
where
    P: Space,
    P::State: Hash + Eq,
{
    let start = space.start();
    seen.insert(space.index(&start));
    let start_is_goal = space.is_goal(&start);
    arena.push(start, None);
    if start_is_goal {
        meter.hold(1);
        return End::Found(0, 0);
    }
    if let Err(limit) = meter.store(1) {
        return limit.into();
    }
    let mut fresh = Vec::new();
    let mut layer = 0..1u32;
    let mut depth = 0u32;
    while !layer.is_empty() {
        meter.frontier(layer.len());
        if !meter.may_deepen(depth) {
            let states = layer.clone().map(|id| arena.state(id));
            let seen = |s: &P::State| seen.contains(space.index(s));
            match lies_beyond(Forward(space), meter, depth, states, seen) {
                Ok(beyond) => *cut = beyond,
                Err(limit) => return limit.into(),
            }
            break;
        }
        for id in layer.clone() {
            if let Err(limit) = meter.expand(depth.into()) {
                return limit.into();
            }
            // The successors not seen yet, marked. The state's own parent is skipped with one
            // comparison, without ranking it: on the 8-puzzle, a third of all successors.
            let parent = arena.parent(id).map(|(p, _)| arena.state(p));
            let mut intake = meter.intake(1);
            space.successors(arena.state(id), None, |mv, next| {
                if intake.take() && parent != Some(&next) && seen.insert(space.index(&next)) {
                    fresh.push((mv, next));
                }
            });
            meter.stats.generated += intake.offered();
            if let Some(limit) = intake.stopped() {
                return limit.into();
            }
            for (mv, next) in fresh.drain(..) {
                let is_goal = space.is_goal(&next);
                let child = arena.push(next, Some((id, mv)));
                if is_goal {
                    meter.hold(arena.len());
                    return End::Found(child, path_cost(space, arena, child));
                }
            }
            if let Err(limit) = meter.store(arena.len()) {
                return limit.into();
            }
        }
        layer = layer.end..arena.len() as u32;
        depth += 1;
    }
    End::Exhausted
}

/// Whether a neighbour (in the direction `grow`) of the last layer a depth limit allows
/// (`states`, at `depth`) was never seen: whether anything lies beyond the limit. If nothing
/// does, the search that stopped there has seen the whole reachable set and proved it has no
/// goal; else the limit cut it short. Each state is counted expanded, so the limits apply.
#[cold]
#[inline(never)]
pub(crate) fn lies_beyond<'a, S: 'a, M>(
    grow: impl Expand<S, M>,
    meter: &mut Meter,
    depth: u32,
    states: impl Iterator<Item = &'a S>,
    seen: impl Fn(&S) -> bool,
) -> Result<bool, Limit> {
    for state in states {
        meter.expand(depth.into())?;
        let (mut beyond, mut generated) = (false, 0);
        grow.expand(state, |_, next| {
            generated += 1;
            beyond = beyond || !seen(&next);
        });
        meter.stats.generated += generated;
        if beyond {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The goals a backward search starts from: those [`Reversible::goals`] lists that
/// [`Space::is_goal`] accepts.
pub(crate) fn goals_of<P: Reversible>(space: &P) -> impl Iterator<Item = P::State> + '_ {
    space.goals().into_iter().filter(|goal| space.is_goal(goal))
}

/// [`lies_beyond`] for a layer of `arena`, a range of its ids.
fn lies_beyond_layer<S: Hash + Eq, M: Clone>(
    grow: impl Expand<S, M>,
    meter: &mut Meter,
    depth: u32,
    arena: &Arena<S, M>,
    layer: &std::ops::Range<usize>,
) -> Result<bool, Limit> {
    let states = layer.clone().map(|id| arena.state(id as u32));
    lies_beyond(grow, meter, depth, states, |s| arena.set.find(s).is_some())
}

/// The summed step costs of the arena path to `id`.
pub(crate) fn path_cost<P: Space>(space: &P, arena: &Arena<P::State, P::Move>, id: u32) -> Cost
where
    P::State: Hash + Eq,
{
    let mut cost = 0;
    let mut at = id;
    while let Some((parent, mv)) = arena.parent(at) {
        cost = Cost::saturating_add(cost, space.step_cost(arena.state(parent), mv));
        at = parent;
    }
    cost
}

/// Uniform-cost search (Dijkstra): a cheapest solution under [`Space::step_cost`].
///
/// Memory: every seen state plus a heap of `(cost, id)` entries; stale entries are skipped.
/// With `max_depth`, the answer is the cheapest within that many moves, and a state may be
/// stored once for each depth it is reached at (a dearer path that reached a state in fewer
/// moves may be the one with moves left to go on). A state reached again no shallower and no
/// cheaper than where it was expanded is skipped, so where every step costs the same, each is
/// expanded once; with uneven costs, memory may grow up to `max_depth` times.
pub fn ucs<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Hash + Eq,
{
    best_first(space, config, false)
}

/// A*: a cheapest solution, expanding fewer states than [`ucs`] thanks to
/// [`Space::heuristic`]. Optimal when the heuristic is admissible (never overestimates); states
/// are re-opened when a cheaper path turns up, so an inconsistent heuristic is still exact.
/// With a [weight](crate::Config::weight) `w`, states are ranked by `g + w·heuristic` (weighted
/// A*, Pohl 1970): the solution costs at most `w` times the cheapest, usually after far fewer
/// expansions. With `max_depth`, states are stored by depth as in [`ucs`], and it leaves out
/// every state whose heuristic puts the goals farther than the moves left can go, at [the most
/// a step costs](Space::max_step_cost), when the space says it.
pub fn astar<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Hash + Eq,
{
    best_first(space, config, true)
}

/// The states a best-first search left out as out of the depth limit's reach, kept (up to
/// [`LEFT_OUT_KEPT`]) so that an exhausted search can tell whether any of them was never
/// searched at another depth.
struct LeftOut<S> {
    states: Vec<S>,
    /// Whether more were left out than kept.
    overflowed: bool,
}

/// The most left-out states [`LeftOut`] keeps: enough for a small space to be proved
/// unsolvable within a depth limit; past it, the search says the limit may hide an answer.
const LEFT_OUT_KEPT: usize = 1 << 16;

impl<S> LeftOut<S> {
    fn new() -> Self {
        LeftOut {
            states: Vec::new(),
            overflowed: false,
        }
    }

    fn push(&mut self, state: S) {
        if self.states.len() < LEFT_OUT_KEPT {
            self.states.push(state);
        } else {
            self.overflowed = true;
        }
    }
}

/// What a best-first search remembers of the states it expanded, to skip a state reached
/// again no better than before.
trait Expanded<S> {
    /// Whether `state`, reached at `cost`, is no better than one expanded already; when it is
    /// better and `expanding`, it is remembered as expanded.
    fn dominated(&mut self, state: &S, cost: Cost, expanding: bool) -> bool;

    /// How many states it remembers (they take memory as stored states do).
    fn held(&self) -> usize;
}

/// Nothing: without a depth limit each state is stored once, at its cheapest known cost.
struct NoneKept;

impl<S> Expanded<S> for NoneKept {
    fn dominated(&mut self, _: &S, _: Cost, _: bool) -> bool {
        false
    }

    fn held(&self) -> usize {
        0
    }
}

/// Under a depth limit, where each (state, depth) is a node of its own: for each state, the
/// shallowest depth it was expanded at and its cost then. A state reached at that depth or
/// deeper, at that cost or dearer, can go no farther within the limit for no less: it is
/// skipped. Where every step costs the same, a state is then expanded once, as without a
/// limit; before, it was stored once per depth (a 300x300 board within 5000 moves: 54 M
/// states, 1.9 GB and 27 s against 0.04 s without the limit).
struct Shallowest<S>(FxHashMap<S, (u32, Cost)>);

impl<S: Hash + Eq + Clone> Expanded<(S, u32)> for Shallowest<S> {
    fn dominated(&mut self, (state, depth): &(S, u32), cost: Cost, expanding: bool) -> bool {
        match self.0.get_mut(state) {
            Some(&mut (at, paid)) if at <= *depth && paid <= cost => true,
            Some(best) => {
                if expanding && *depth < best.0 {
                    *best = (*depth, cost);
                }
                false
            }
            None => {
                if expanding {
                    self.0.insert(state.clone(), (*depth, cost));
                }
                false
            }
        }
    }

    fn held(&self) -> usize {
        self.0.len()
    }
}

/// How a best-first search reached a state: the cost of its cheapest known path and that path's
/// depth in moves, in 12 bytes, so that the two are read with one cache miss (in separate
/// vectors, two; as a `(u64, u32)`, 16 bytes). Measured on a 15-puzzle A* of 13.8 M
/// expansions, the children's slots prefetched in each: 13.6-13.7 s with two vectors,
/// 11.8-11.9 s as a `(u64, u32)`, 11.4-11.7 s in 12 bytes (since, the open list in buckets:
/// 6.7 s).
#[derive(Clone, Copy)]
struct Reached([u32; 3]);

impl Reached {
    #[inline]
    fn new(cost: Cost, depth: u32) -> Self {
        Reached([cost as u32, (cost >> 32) as u32, depth])
    }

    /// The cost and the depth.
    #[inline]
    fn get(self) -> (Cost, u32) {
        let [low, high, depth] = self.0;
        ((u64::from(high) << 32) | u64::from(low), depth)
    }
}

fn best_first<P>(space: &P, config: &Config, informed: bool) -> Outcome<P::State, P::Move>
where
    P: Space,
    P::State: Hash + Eq,
{
    if config.max_depth.is_none() {
        return with_arena(config, |meter, arena, cut| {
            let (left_out, kept) = (&mut LeftOut::new(), &mut NoneKept);
            run_best_first(space, meter, arena, cut, informed, left_out, kept)
        });
    }
    // Within a depth limit, a dearer path that reached a state in fewer moves may be the one
    // that still has the moves to go on: each (state, depth) is a node of its own. Once the
    // search is over, a successor of a state at the limit lies beyond it if no depth within
    // the limit holds it.
    let layered = Layered(space);
    let outcome = with_arena(config, |meter, arena, cut| {
        let mut left_out = LeftOut::new();
        let mut shallowest = Shallowest(FxHashMap::default());
        let kept = &mut shallowest;
        let end = run_best_first(&layered, meter, arena, cut, informed, &mut left_out, kept);
        let limit = meter.config().max_depth.unwrap_or(0);
        // Stored at some depth within the limit: expanded (one look), else at any depth.
        let stored = |next: &P::State| {
            shallowest.0.contains_key(next)
                || (0..=limit).any(|d| arena.set.find(&(next.clone(), d)).is_some())
        };
        // A state left out at one depth but stored at another was searched from there: only
        // one stored at none may lead past the limit.
        let left_behind = left_out.overflowed || !left_out.states.iter().all(|(s, _)| stored(s));
        if matches!(end, End::Exhausted) && left_behind {
            return End::Stopped(Limit::Depth);
        }
        if !(*cut && matches!(end, End::Exhausted)) {
            return end;
        }
        let states = arena.set.states.iter();
        let at_the_limit = states.filter(|(_, d)| *d == limit).map(|(state, _)| state);
        match lies_beyond(Forward(space), meter, limit, at_the_limit, stored) {
            Ok(beyond) => *cut = beyond,
            Err(limit) => return limit.into(),
        }
        end
    });
    outcome.map(|(state, _)| state, |mv| mv)
}

/// A space whose states carry their depth, for the cost-driven searches under a depth limit.
struct Layered<'a, P>(&'a P);

impl<P: Space> Space for Layered<'_, P> {
    type State = (P::State, u32);
    type Move = P::Move;

    fn start(&self) -> Self::State {
        (self.0.start(), 0)
    }

    fn is_goal(&self, (state, _): &Self::State) -> bool {
        self.0.is_goal(state)
    }

    fn successors(
        &self,
        (state, depth): &Self::State,
        last: Option<&P::Move>,
        mut out: impl FnMut(P::Move, Self::State),
    ) {
        self.0
            .successors(state, last, |mv, next| out(mv, (next, depth + 1)));
    }

    fn step_cost(&self, (state, _): &Self::State, mv: &P::Move) -> Cost {
        self.0.step_cost(state, mv)
    }

    fn max_step_cost(&self) -> Option<Cost> {
        self.0.max_step_cost()
    }

    fn heuristic(&self, (state, _): &Self::State) -> Cost {
        self.0.heuristic(state)
    }
}

/// Best-first search from the start; `cut` says whether the depth limit kept some state from
/// being expanded.
fn run_best_first<P>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
    cut: &mut bool,
    informed: bool,
    left_out: &mut LeftOut<P::State>,
    expanded: &mut impl Expanded<P::State>,
) -> End
where
    P: Space,
    P::State: Hash + Eq,
{
    // Compiled apart, so that an unweighted search does no floating point: with the weight an
    // `Option`, the compiler multiplied every heuristic by the absent weight anyway (the
    // uninitialised bits, often a subnormal, cost a microcode assist each) and kept the
    // product only when there was a weight. Frontier's A* on the 8-puzzle took 2.71 ms to
    // pathfinding's 1.77 ms for about as many instructions; 1.76 ms once compiled apart.
    if meter.config().effective_weight().is_some() {
        best_first_ranked::<P, true>(space, meter, arena, cut, informed, left_out, expanded)
    } else {
        best_first_ranked::<P, false>(space, meter, arena, cut, informed, left_out, expanded)
    }
}

/// [`run_best_first`], with `f = g + w·h` if `WEIGHTED`, else `g + h`.
fn best_first_ranked<P, const WEIGHTED: bool>(
    space: &P,
    meter: &mut Meter,
    arena: &mut Arena<P::State, P::Move>,
    cut: &mut bool,
    informed: bool,
    left_out: &mut LeftOut<P::State>,
    expanded: &mut impl Expanded<P::State>,
) -> End
where
    P: Space,
    P::State: Hash + Eq,
{
    let weight = meter.config().effective_weight();
    let rank = |h: Cost| if WEIGHTED { weigh(weight, h) } else { h };
    let heuristic = |state: &P::State| if informed { space.heuristic(state) } else { 0 };
    // Under a depth limit, A* leaves out every state whose heuristic puts the goals farther
    // than the moves left can go, at the most a step costs: without the cut it stored every
    // (state, depth) pair within the limit (Korf's 15-puzzle #9 within 45 moves, one short of
    // its answer: 2.1 GB in 30 s; weighted by 3 within 50 moves, 27.5 M states in 20 s without
    // an answer). A state left out is kept in `left_out`: unless it was searched at another
    // depth, leaving it out cut a path at the depth limit.
    let reach = informed.then(|| Reach::of(meter.config(), space)).flatten();
    let out_of_reach = |depth: u32, h: Cost| reach.is_some_and(|r| r.beyond(depth.into(), h));
    if let Some(end) = plant_start(space, meter, arena) {
        return end;
    }
    let f0 = rank(heuristic(arena.state(0)));
    // Per id: the cheapest known cost from the start and the depth in moves of that path.
    let mut best = vec![Reached::new(0, 0)];
    let mut open = OpenList::new();
    open.push(f0, 0, 0);
    let (mut children, mut hashes) = (Vec::new(), Vec::new());
    while let Some((f, cost, id)) = open.pop() {
        let (paid, depth) = best[id as usize].get();
        if cost > paid {
            continue; // stale: a cheaper path to this state was found after it was queued
        }
        let state = arena.state(id);
        if expanded.dominated(state, cost, true) {
            continue;
        }
        if space.is_goal(state) {
            return End::Found(id, cost);
        }
        if !meter.may_deepen(depth) {
            *cut = true;
            continue;
        }
        if let Err(limit) = meter.expand(f) {
            return limit.into();
        }
        if let Err(limit) = collect_successors(space, meter, state, &mut children) {
            return limit.into();
        }
        // The children's slots are loaded together, so that in a table too large for the
        // cache their misses overlap.
        hashes.extend(children.iter().map(|(_, next)| hash_of(next)));
        arena.set.reserve(children.len());
        for &hash in &hashes {
            arena.set.prefetch(hash);
        }
        for ((mv, next), hash) in children.drain(..).zip(hashes.drain(..)) {
            let h = heuristic(&next);
            if out_of_reach(depth + 1, h) {
                left_out.push(next);
                continue;
            }
            let next_cost = cost.saturating_add(space.step_cost(arena.state(id), &mv));
            if expanded.dominated(&next, next_cost, false) {
                continue;
            }
            let next_f = next_cost.saturating_add(rank(h));
            match arena.insert_or_return_hashed(hash, next, id, mv) {
                Ok(child) => {
                    best.push(Reached::new(next_cost, depth + 1));
                    open.push(next_f, next_cost, child);
                }
                Err((child, mv)) if next_cost < best[child as usize].get().0 => {
                    arena.relink(child, id, mv);
                    best[child as usize] = Reached::new(next_cost, depth + 1);
                    open.push(next_f, next_cost, child);
                }
                Err(_) => {}
            }
        }
        meter.frontier(open.len());
        if let Err(limit) = meter.store_with_queue(arena.len(), open.len() + expanded.held()) {
            return limit.into();
        }
    }
    End::Exhausted
}

/// Bidirectional breadth-first search: a solution with the fewest moves, found by growing one
/// layer at a time from the start and from every goal, always the smaller side, until they meet.
///
/// The first meeting is a shortest path: before the layer that meets, the two balls (radii `a`
/// and `b`) were disjoint, so the answer is longer than `a + b`; the meeting layer finds one of
/// length `a + b + 1`. Memory: both seen-sets, typically far smaller than one [`bfs`] ball.
///
/// With [`Config::worker_threads`] above one, each side's store is split into shards by hash;
/// workers expand slices of a layer, then every shard takes its states (and looks for them in
/// the other side's shard of the same number) in parallel. Layers narrower than
/// [`Config::parallel_from`] still grow on one thread. Which of several shortest paths is
/// found may then depend on the thread count.
pub fn bidirectional<P>(space: &P, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Reversible + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    if let Some(pool) = crate::parallel::pool(config) {
        return crate::parallel::par_bidirectional(space, config, &pool);
    }
    let mut meter = Meter::new(config);
    let mut forward = Arena::new();
    let mut backward = Arena::new();
    let mut cut = false;
    let end = run_bidirectional(space, &mut meter, &mut forward, &mut backward, &mut cut);
    let stats = meter.finish();
    match end {
        Meet::Found(f, b) => {
            let (mut moves, mut states) = forward.path_to(f);
            let mut at = b;
            while let Some((next, mv)) = backward.parent(at) {
                moves.push(mv.clone());
                states.push(backward.state(next).clone());
                at = next;
            }
            let solution = Solution::priced(space, moves, states);
            Outcome::Solved { solution, stats }
        }
        Meet::Exhausted if cut => Outcome::Stopped {
            limit: Limit::Depth,
            stats,
        },
        Meet::Exhausted => Outcome::Exhausted { stats },
        Meet::Stopped(limit) => Outcome::Stopped { limit, stats },
    }
}

/// How the two searches of [`bidirectional`] ended.
enum Meet {
    /// Met: the forward id and the backward id of the same state.
    Found(u32, u32),
    Exhausted,
    Stopped(Limit),
}

impl From<Limit> for Meet {
    fn from(limit: Limit) -> Self {
        Meet::Stopped(limit)
    }
}

fn run_bidirectional<P>(
    space: &P,
    meter: &mut Meter,
    forward: &mut Arena<P::State, P::Move>,
    backward: &mut Arena<P::State, P::Move>,
    cut: &mut bool,
) -> Meet
where
    P: Reversible,
    P::State: Hash + Eq,
{
    forward.insert_root(space.start());
    for goal in goals_of(space) {
        backward.insert_root(goal);
    }
    // Every goal is stored before the start is looked for among them, as `par_bidirectional`
    // does, so that both report the same states stored when the start is a goal.
    if let Some(b) = backward.set.find(forward.state(0)) {
        meter.hold(forward.len() + backward.len());
        return Meet::Found(0, b);
    }
    if let Err(limit) = meter.store(forward.len() + backward.len()) {
        return limit.into();
    }
    let mut ahead = 0..forward.len();
    let mut behind = 0..backward.len();
    let (mut depth_ahead, mut depth_behind) = (0u32, 0u32);
    let mut batch = Successors::new();
    while !ahead.is_empty() && !behind.is_empty() {
        if !meter.may_deepen(depth_ahead + depth_behind) {
            // Proven unsolvable if either side has nothing new beyond its last layer: it
            // holds its whole ball, and no state of it met the other side.
            let depth = depth_ahead + depth_behind;
            let both_open = lies_beyond_layer(Forward(space), meter, depth, forward, &ahead)
                .and_then(|open| {
                    let behind = &behind;
                    Ok(open && lies_beyond_layer(Backward(space), meter, depth, backward, behind)?)
                });
            *cut = match both_open {
                Ok(open) => open,
                Err(limit) => return limit.into(),
            };
            return Meet::Exhausted;
        }
        meter.frontier(ahead.len() + behind.len());
        let depth = u64::from(depth_ahead + depth_behind);
        if ahead.len() <= behind.len() {
            let layer = ahead.clone();
            let grow = Forward(space);
            match batch.grow_layer(meter, depth, layer, forward, grow, meeting(backward)) {
                Ok(Some(Hit::Meet(f, b))) => return Meet::Found(f, b),
                Ok(_) => {}
                Err(limit) => return limit.into(),
            }
            ahead = ahead.end..forward.len();
            depth_ahead += 1;
        } else {
            let layer = behind.clone();
            let grow = Backward(space);
            match batch.grow_layer(meter, depth, layer, backward, grow, meeting(forward)) {
                Ok(Some(Hit::Meet(b, f))) => return Meet::Found(f, b),
                Ok(_) => {}
                Err(limit) => return limit.into(),
            }
            behind = behind.end..backward.len();
            depth_behind += 1;
        }
    }
    Meet::Exhausted
}

/// Successors on their way into an arena, in the order generated, with their hashes: the
/// buffer between expanding a batch of states and inserting its successors.
pub(crate) struct Successors<S, M> {
    pub hashes: Vec<u64>,
    /// `(parent id, move, state)`.
    pub items: Vec<(u32, M, S)>,
}

/// States expanded in one batch (fewer near the state budget: [`Meter::batch`]).
pub(crate) const BATCH: usize = 64;

impl<S: Hash + Eq, M: Clone> Successors<S, M> {
    pub fn new() -> Self {
        Successors {
            hashes: Vec::new(),
            items: Vec::new(),
        }
    }

    pub fn push(&mut self, hash: u64, parent: u32, mv: M, state: S) {
        self.hashes.push(hash);
        self.items.push((parent, mv, state));
    }

    /// Inserts the successors into `own` in order, each slot (and the other side's, when
    /// meeting) prefetched [`AHEAD`] entries in advance so that the cache misses of a large
    /// table overlap instead of following one another. Returns the first new state that ends
    /// the layer by `end`; leaves the buffer empty either way.
    pub fn insert_into(
        &mut self,
        own: &mut Arena<S, M>,
        end: &Ends<'_, S, M, impl Fn(&S) -> bool>,
    ) -> Option<Hit> {
        own.set.reserve(self.items.len());
        let prefetch = |own: &Arena<S, M>, hash| {
            own.set.prefetch(hash);
            if let Ends::Meeting(other) = end {
                other.set.prefetch(hash);
            }
        };
        for &hash in self.hashes.iter().take(AHEAD) {
            prefetch(own, hash);
        }
        let mut hit = None;
        for (k, (parent, mv, next)) in self.items.drain(..).enumerate() {
            if let Some(&ahead) = self.hashes.get(k + AHEAD) {
                prefetch(own, ahead);
            }
            let hash = self.hashes[k];
            if let Insert::New(id) = own.insert_hashed(hash, next, parent, mv) {
                hit = end.hit(own, id, hash);
                if hit.is_some() {
                    break;
                }
            }
        }
        self.items.clear();
        self.hashes.clear();
        hit
    }

    /// Expands the states of `layer` in `own` into `own`, in batches. Each new state is checked
    /// against the other side (bidirectional search) or with the goal test (BFS); the first hit
    /// ends the layer. A successor equal to the state's parent is skipped with one comparison:
    /// it is stored already, and in spaces whose moves can be undone it comes up at every
    /// expansion.
    fn grow_layer(
        &mut self,
        meter: &mut Meter,
        depth: u64,
        layer: std::ops::Range<usize>,
        own: &mut Arena<S, M>,
        grow: impl Expand<S, M>,
        end: Ends<'_, S, M, impl Fn(&S) -> bool>,
    ) -> Result<Option<Hit>, Limit> {
        let mut from = layer.start;
        while from < layer.end {
            let to = layer.end.min(from + meter.batch(BATCH));
            let mut intake = meter.intake(1);
            for id in from as u32..to as u32 {
                if intake.stopped().is_some() {
                    break;
                }
                meter.expand(depth)?;
                let parent = own.parent(id).map(|(p, _)| own.state(p));
                grow.expand(own.state(id), |mv, next| {
                    if intake.take() && parent != Some(&next) {
                        self.push(hash_of(&next), id, mv, next);
                    }
                });
            }
            meter.stats.generated += intake.offered();
            if let Some(limit) = intake.stopped() {
                return Err(limit);
            }
            let hit = self.insert_into(own, &end);
            let other = match end {
                Ends::Meeting(other) => other.len(),
                Ends::Goal(_) => 0,
            };
            if hit.is_some() {
                meter.hold(own.len() + other);
                return Ok(hit);
            }
            meter.store(own.len() + other)?;
            from = to;
        }
        Ok(None)
    }
}

/// One direction of a search: the moves out of a state, or into it.
pub(crate) trait Expand<S, M> {
    /// Calls `out(move, neighbour)` for every neighbour of `state` in this direction.
    fn expand(&self, state: &S, out: impl FnMut(M, S));
}

/// Successors: the forward direction.
pub(crate) struct Forward<'a, P>(pub &'a P);

impl<P: Space> Expand<P::State, P::Move> for Forward<'_, P> {
    #[inline]
    fn expand(&self, state: &P::State, out: impl FnMut(P::Move, P::State)) {
        self.0.successors(state, None, out);
    }
}

/// Predecessors: the backward direction, labelled with the moves that lead forward.
pub(crate) struct Backward<'a, P>(pub &'a P);

impl<P: Reversible> Expand<P::State, P::Move> for Backward<'_, P> {
    #[inline]
    fn expand(&self, state: &P::State, out: impl FnMut(P::Move, P::State)) {
        self.0.predecessors(state, out);
    }
}

/// What ends a search's layer early.
pub(crate) enum Ends<'a, S, M, G> {
    /// A new state that the other side of a bidirectional search holds.
    Meeting(&'a Arena<S, M>),
    /// A new state that passes this goal test.
    Goal(G),
}

impl<S: Hash + Eq, M: Clone, G: Fn(&S) -> bool> Ends<'_, S, M, G> {
    /// Whether the state just stored in `own` as `id`, of hash `hash`, ends the layer.
    #[inline]
    pub fn hit(&self, own: &Arena<S, M>, id: u32, hash: u64) -> Option<Hit> {
        let state = own.state(id);
        match self {
            Ends::Meeting(other) => other.set.find_hashed(hash, state).map(|o| Hit::Meet(id, o)),
            Ends::Goal(is_goal) => is_goal(state).then_some(Hit::Goal(id)),
        }
    }
}

/// A new state that ends a layer early.
pub(crate) enum Hit {
    /// A goal, reached by BFS.
    Goal(u32),
    /// A state both sides of a bidirectional search hold: its ids in the side that found it
    /// and in the other side.
    Meet(u32, u32),
}

/// The end of a bidirectional layer: meeting `other` (the goal test's type is a formality).
fn meeting<S, M>(other: &Arena<S, M>) -> Ends<'_, S, M, fn(&S) -> bool> {
    Ends::Meeting(other)
}
