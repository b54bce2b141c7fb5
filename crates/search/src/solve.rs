//! The solvers as a value: [`Algorithm`], and [`solve`], which runs the one it names.

use std::fmt;
use std::hash::Hash;

use crate::config::Config;
use crate::outcome::Outcome;
use crate::space::Reversible;

/// A solver that returns a path, named as a value: for a caller that lets its user choose
/// (the `frontier` command's `--algo`). [`crate::explore`], which counts instead of solving,
/// is not one of them.
///
/// ```
/// use frontier_search::Algorithm;
///
/// assert_eq!(Algorithm::Astar.to_string(), "astar");
/// assert!(Algorithm::Astar.is_informed());
/// assert!(Algorithm::Iddfs.is_tree_search());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// [`crate::dfs`]
    Dfs,
    /// [`crate::bfs`]
    Bfs,
    /// [`crate::iddfs`]
    Iddfs,
    /// [`crate::ucs`]
    Ucs,
    /// [`crate::astar`]
    Astar,
    /// [`crate::idastar`]
    Idastar,
    /// [`crate::bidirectional`]
    Bidirectional,
    /// Breadth-first search without a seen-set, over the search tree itself: every path is
    /// queued, repeated states and all (the board seed's first program). A shortest solution
    /// in moves, at a cost that grows with the number of paths; a baseline to compare with, not
    /// a solver to use, so it has no function of its own.
    TreeBfs,
}

impl Algorithm {
    /// The solver's function name: `dfs`, `bfs`, `iddfs`, `ucs`, `astar`, `idastar`,
    /// `bidirectional`; `tree-bfs` for [`Algorithm::TreeBfs`].
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dfs => "dfs",
            Algorithm::Bfs => "bfs",
            Algorithm::Iddfs => "iddfs",
            Algorithm::Ucs => "ucs",
            Algorithm::Astar => "astar",
            Algorithm::Idastar => "idastar",
            Algorithm::Bidirectional => "bidirectional",
            Algorithm::TreeBfs => "tree-bfs",
        }
    }

    /// Whether it ranks states by the space's heuristic (and so heeds [`Config::weight`]).
    pub fn is_informed(self) -> bool {
        matches!(self, Algorithm::Astar | Algorithm::Idastar)
    }

    /// Whether it searches a tree, holding one path instead of a store of seen states (so that
    /// [`Config::max_states`] bounds the length of that path).
    pub fn is_tree_search(self) -> bool {
        matches!(self, Algorithm::Iddfs | Algorithm::Idastar)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `algorithm` on `space`: the same as calling its function ([`crate::bfs`] for
/// [`Algorithm::Bfs`], and so on). The space must offer what every one of them needs: a way
/// back from the goals for `bidirectional`, states that hash, and a space that may be shared
/// between threads for the solvers that run on [`Config::threads`].
///
/// ```
/// use frontier_search::{solve, Algorithm, Config, Reversible, Space};
///
/// /// Steps of one or two along 0..=6, either way.
/// struct Line;
/// impl Space for Line {
///     type State = i8;
///     type Move = i8;
///     fn start(&self) -> i8 { 0 }
///     fn is_goal(&self, n: &i8) -> bool { *n == 6 }
///     fn successors(&self, n: &i8, _: Option<&i8>, mut out: impl FnMut(i8, i8)) {
///         for step in [-2, -1, 1, 2] {
///             if (0..=6).contains(&(n + step)) { out(step, n + step) }
///         }
///     }
///     fn heuristic(&self, n: &i8) -> u64 { (6 - n).unsigned_abs().div_ceil(2).into() }
/// }
/// impl Reversible for Line {
///     fn goals(&self) -> Vec<i8> { vec![6] }
///     fn predecessors(&self, n: &i8, out: impl FnMut(i8, i8)) { self.successors(n, None, out) }
/// }
///
/// use Algorithm::*;
/// for algorithm in [Dfs, Bfs, Iddfs, Ucs, Astar, Idastar, Bidirectional, TreeBfs] {
///     let outcome = solve(&Line, algorithm, &Config::default());
///     let moves = outcome.into_solution().unwrap().moves;
///     if algorithm != Algorithm::Dfs {
///         assert_eq!(moves.len(), 3, "{algorithm}");
///     }
/// }
/// ```
pub fn solve<P>(space: &P, algorithm: Algorithm, config: &Config) -> Outcome<P::State, P::Move>
where
    P: Reversible + Sync,
    P::State: Hash + Eq + Send + Sync,
    P::Move: Send + Sync,
{
    match algorithm {
        Algorithm::Dfs => crate::dfs(space, config),
        Algorithm::Bfs => crate::bfs(space, config),
        Algorithm::Iddfs => crate::iddfs(space, config),
        Algorithm::Ucs => crate::ucs(space, config),
        Algorithm::Astar => crate::astar(space, config),
        Algorithm::Idastar => crate::idastar(space, config),
        Algorithm::Bidirectional => crate::bidirectional(space, config),
        Algorithm::TreeBfs => crate::tree_bfs::tree_bfs(space, config),
    }
}
