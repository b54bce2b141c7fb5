//! What a search returns: a status, perhaps a solution, and statistics.

use std::fmt;

use crate::space::{Cost, Space};

/// The limit that stopped a search before it could answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// `max_depth`: no solution within that many moves, and states lie beyond the limit. The
    /// solvers with a seen-set look at the neighbours of the states the limit kept them from
    /// expanding: when none is new they report [`Outcome::Exhausted`] instead (`dfs` may still
    /// say `Depth` when it reached a state by a longer path first and left it at the limit).
    /// The tree searches (`iddfs`, `idastar`) report `Exhausted` when the limit kept no path
    /// that visits each state once from going on to a state it has not visited.
    Depth,
    /// `max_states`: the store of seen states reached its budget, or the successors of one
    /// batch of expansions, waiting to be stored, would have passed it well.
    States,
    /// `timeout`: the wall-clock limit passed.
    Time,
    /// The cancel flag was set.
    Cancelled,
}

impl Limit {
    /// A short lowercase name: `depth`, `states`, `time`, `cancelled`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Depth => "depth",
            Limit::States => "states",
            Limit::Time => "time",
            Limit::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Depth => "the depth limit was reached",
            Limit::States => "the limit on stored states was reached",
            Limit::Time => "the time limit was reached",
            Limit::Cancelled => "the search was cancelled",
        })
    }
}

/// Why a search stopped: the three outcomes, never two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A solution was found.
    Solved,
    /// Every reachable state was examined and none is a goal: proven unsolvable.
    Exhausted,
    /// A limit stopped the search before it could answer either way.
    Limit(Limit),
}

/// What a status says in a sentence: "solved", "proven unsolvable", or the limit's own words.
///
/// ```
/// use frontier_search::{Limit, Status};
///
/// assert_eq!(Status::Exhausted.to_string(), "proven unsolvable");
/// assert_eq!(Status::Limit(Limit::Time).to_string(), "the time limit was reached");
/// ```
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Solved => f.write_str("solved"),
            Status::Exhausted => f.write_str("proven unsolvable"),
            Status::Limit(limit) => limit.fmt(f),
        }
    }
}

/// A path from the start to a goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<S, M> {
    /// The moves, in the order to play them.
    pub moves: Vec<M>,
    /// The states, start first and goal last: one more than `moves`.
    pub states: Vec<S>,
    /// The sum of the step costs (the number of moves where every step costs 1).
    pub cost: Cost,
}

impl<S, M> Solution<S, M> {
    /// The solution along `states` by `moves`, priced with the space's step costs.
    pub(crate) fn priced<P>(space: &P, moves: Vec<M>, states: Vec<S>) -> Self
    where
        P: Space<State = S, Move = M>,
    {
        let cost = states
            .iter()
            .zip(&moves)
            .map(|(s, m)| space.step_cost(s, m))
            .fold(0, Cost::saturating_add);
        Solution {
            moves,
            states,
            cost,
        }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the start already is a goal.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// Counters kept by every solver.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// The most states held at once in the seen-set or arena: all seen states for the graph
    /// searches, the widest three layers for frontier search (0 for the tree searches, whose
    /// memory is linear in depth).
    pub stored: u64,
    /// The largest frontier (open list, layer or recursion depth) held at once.
    pub peak_frontier: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The result of a solver: a solution, a proof that there is none, or the limit that stopped
/// the search first; statistics in every case. A solved outcome always holds its solution.
#[derive(Clone, Debug)]
pub enum Outcome<S, M> {
    /// A solution was found.
    Solved {
        /// The path from the start to a goal.
        solution: Solution<S, M>,
        /// What the search did.
        stats: Stats,
    },
    /// Every reachable state was examined and none is a goal: proven unsolvable.
    Exhausted {
        /// What the search did.
        stats: Stats,
    },
    /// A limit stopped the search before it could answer either way.
    Stopped {
        /// The limit that was hit.
        limit: Limit,
        /// What the search did.
        stats: Stats,
    },
}

impl<S, M> Outcome<S, M> {
    /// Whether the search found a solution (then [`Outcome::solution`] holds it).
    ///
    /// ```
    /// use frontier_search::{bfs, Config, Space};
    ///
    /// /// Counting up from 0 to 3.
    /// struct Up;
    /// impl Space for Up {
    ///     type State = u8;
    ///     type Move = ();
    ///     fn start(&self) -> u8 { 0 }
    ///     fn is_goal(&self, n: &u8) -> bool { *n == 3 }
    ///     fn successors(&self, n: &u8, _: Option<&()>, mut out: impl FnMut((), u8)) {
    ///         if *n < 3 { out((), n + 1); }
    ///     }
    /// }
    ///
    /// let outcome = bfs(&Up, &Config::default());
    /// assert!(outcome.is_solved());
    /// assert_eq!(outcome.solution().map(|s| s.len()), Some(3));
    /// assert!(!bfs(&Up, &Config::default().max_depth(2)).is_solved());
    /// ```
    pub fn is_solved(&self) -> bool {
        matches!(self, Outcome::Solved { .. })
    }

    /// The three outcomes in a word, without the solution: for callers that print or compare it.
    pub fn status(&self) -> Status {
        match self {
            Outcome::Solved { .. } => Status::Solved,
            Outcome::Exhausted { .. } => Status::Exhausted,
            Outcome::Stopped { limit, .. } => Status::Limit(*limit),
        }
    }

    /// The limit that stopped the search, if one did.
    pub fn limit(&self) -> Option<Limit> {
        match self {
            Outcome::Stopped { limit, .. } => Some(*limit),
            _ => None,
        }
    }

    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Solution<S, M>> {
        match self {
            Outcome::Solved { solution, .. } => Some(solution),
            _ => None,
        }
    }

    /// The solution, if one was found, taken out of the outcome.
    pub fn into_solution(self) -> Option<Solution<S, M>> {
        match self {
            Outcome::Solved { solution, .. } => Some(solution),
            _ => None,
        }
    }

    /// What the search did.
    pub fn stats(&self) -> &Stats {
        match self {
            Outcome::Solved { stats, .. }
            | Outcome::Exhausted { stats }
            | Outcome::Stopped { stats, .. } => stats,
        }
    }

    /// The statistics, to amend (a caller that times the whole command sets `seconds`, say).
    pub fn stats_mut(&mut self) -> &mut Stats {
        match self {
            Outcome::Solved { stats, .. }
            | Outcome::Exhausted { stats }
            | Outcome::Stopped { stats, .. } => stats,
        }
    }

    /// The outcome that ended without a solution: exhausted if `limit` is `None`, else stopped
    /// by it.
    ///
    /// ```
    /// use frontier_search::{Limit, Outcome, Stats, Status};
    ///
    /// let stopped: Outcome<u8, ()> = Outcome::unsolved(Some(Limit::Time), Stats::default());
    /// assert_eq!(stopped.status(), Status::Limit(Limit::Time));
    /// let none: Outcome<u8, ()> = Outcome::unsolved(None, Stats::default());
    /// assert_eq!(none.status(), Status::Exhausted);
    /// ```
    pub fn unsolved(limit: Option<Limit>, stats: Stats) -> Self {
        match limit {
            Some(limit) => Outcome::Stopped { limit, stats },
            None => Outcome::Exhausted { stats },
        }
    }

    /// The same outcome with each move and state of its solution converted.
    ///
    /// ```
    /// use frontier_search::{bfs, Config, Space};
    ///
    /// struct Up;
    /// impl Space for Up {
    ///     type State = u8;
    ///     type Move = ();
    ///     fn start(&self) -> u8 { 0 }
    ///     fn is_goal(&self, n: &u8) -> bool { *n == 2 }
    ///     fn successors(&self, n: &u8, _: Option<&()>, mut out: impl FnMut((), u8)) {
    ///         out((), n + 1);
    ///     }
    /// }
    ///
    /// let named = bfs(&Up, &Config::default()).map(|n| u32::from(n) * 10, |()| "up");
    /// assert_eq!(named.solution().unwrap().states, [0, 10, 20]);
    /// assert_eq!(named.solution().unwrap().moves, ["up", "up"]);
    /// ```
    pub fn map<T, N>(self, state: impl FnMut(S) -> T, mv: impl FnMut(M) -> N) -> Outcome<T, N> {
        match self {
            Outcome::Solved { solution, stats } => Outcome::Solved {
                solution: Solution {
                    moves: solution.moves.into_iter().map(mv).collect(),
                    states: solution.states.into_iter().map(state).collect(),
                    cost: solution.cost,
                },
                stats,
            },
            Outcome::Exhausted { stats } => Outcome::Exhausted { stats },
            Outcome::Stopped { limit, stats } => Outcome::Stopped { limit, stats },
        }
    }
}

/// The result of [`crate::explore`]: how many states lie at each distance from the start.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// `layers[d]` is the number of states at distance `d` (in moves) from the start.
    pub layers: Vec<u64>,
    /// `None` when the whole reachable set was counted, else the limit that stopped it (the
    /// last layer may then be partial).
    pub limit: Option<Limit>,
    /// What the exploration did.
    pub stats: Stats,
}

impl Exploration {
    /// The number of states counted.
    pub fn states(&self) -> u64 {
        self.layers.iter().sum()
    }

    /// Whether the whole reachable set was counted.
    pub fn is_complete(&self) -> bool {
        self.limit.is_none()
    }

    /// [`Status::Exhausted`] when the whole reachable set was counted, else the limit's
    /// status: an exploration is never "solved".
    pub fn status(&self) -> Status {
        self.limit.map_or(Status::Exhausted, Status::Limit)
    }
}
