//! # frontier-search
//!
//! A generic state-space search engine. Describe a problem by implementing [`Space`] (a start
//! state, a goal test, successors labelled with moves; optionally step costs and a heuristic),
//! then hand it to any solver:
//!
//! | solver | returns | memory | needs |
//! |---|---|---|---|
//! | [`dfs`] | a solution, not necessarily shortest | all seen states | `State: Hash + Eq` |
//! | [`bfs`] / [`par_bfs`] | fewest moves | all seen states | `State: Hash + Eq` (and for `par_bfs`, the space `Sync`, states and moves `Send + Sync`) |
//! | [`iddfs`] | fewest moves | linear in depth | `State: Eq` |
//! | [`ucs`] | cheapest (Dijkstra) | all seen states | step costs, `State: Hash + Eq` |
//! | [`astar`] | cheapest | all seen states | an admissible heuristic, `State: Hash + Eq` |
//! | [`idastar`] | cheapest | linear in depth | an admissible heuristic |
//! | [`bidirectional`] / [`par_bidirectional`] | fewest moves | both seen-sets | [`Reversible`] (and as `par_bfs` for `par_bidirectional`) |
//! | [`explore`] / [`par_explore`] | states at each distance (each counted with its [weight](Space::weight)) | all seen states, or three layers if [undirected](Space::undirected) | `State: Hash + Eq` (and as `par_bfs` for `par_explore`) |
//! | [`bfs_indexed`] | fewest moves | a bit per index, and every seen state | [`Indexed`] |
//! | [`explore_indexed`] / [`par_explore_indexed`] | states at each distance | a bit per index, and three layers | [`Indexed`], and as `explore` / `par_explore` |
//!
//! Every solver takes a [`Config`] (max depth, max stored states, timeout, cancel flag, progress
//! observer) and returns an outcome with three possible statuses: solved, proven unsolvable
//! ([`Status::Exhausted`]), or stopped by a named [`Limit`] — always with [`Stats`].
//!
//! Seen states are stored once, in insertion order, indexed by an open-addressing table of `u32`
//! ids (with FxHash); parents are ids, so a path is rebuilt only for the final answer.
//! Successors are passed to a callback and collected in a reused buffer, then inserted in order
//! with their table slots prefetched: the hot loops allocate nothing per node.
//!
//! ```
//! use frontier_search::{astar, bfs, Config, Space, Status};
//!
//! /// A walk on the number line from 0 to 7; steps of +1 or +3, a step of 3 costs 2.
//! struct Walk;
//!
//! impl Space for Walk {
//!     type State = i32;
//!     type Move = i32;
//!     fn start(&self) -> i32 { 0 }
//!     fn is_goal(&self, x: &i32) -> bool { *x == 7 }
//!     fn successors(&self, x: &i32, _last: Option<&i32>, mut out: impl FnMut(i32, i32)) {
//!         if *x < 7 { out(1, x + 1); out(3, x + 3); }
//!     }
//!     fn step_cost(&self, _x: &i32, step: &i32) -> u64 { if *step == 3 { 2 } else { 1 } }
//!     fn heuristic(&self, x: &i32) -> u64 { ((7 - x).max(0) as u64 * 2).div_ceil(3) }
//! }
//!
//! let fewest = bfs(&Walk, &Config::default()).into_solution().unwrap();
//! assert_eq!(fewest.moves, [1, 3, 3]);
//! let cheapest = astar(&Walk, &Config::default());
//! assert_eq!(cheapest.status(), Status::Solved);
//! assert_eq!(cheapest.into_solution().unwrap().cost, 5);
//! ```

mod arena;
mod bits;
mod config;
mod explore;
mod graph;
mod layers;
mod open;
mod outcome;
mod parallel;
mod space;
mod tree;

pub use arena::prefetch;
pub use bits::MAX_INDEX_BOUND;
pub use config::{weigh, Config, Progress, ProgressFn, MAX_WEIGHT, PARALLEL_FROM};
pub use explore::{explore, explore_indexed, par_explore, par_explore_indexed};
pub use graph::{astar, bfs, bfs_indexed, bidirectional, dfs, ucs};
pub use outcome::{Exploration, Limit, Outcome, Solution, Stats, Status};
pub use parallel::{par_bfs, par_bidirectional};
pub use space::{Cost, Indexed, Reversible, Space};
pub use tree::{idastar, iddfs};

/// An estimate of the bytes one stored state costs a graph search (the state, its parent link
/// and move, and the hash table's share), for turning a memory budget into `max_states`.
///
/// It counts only the inline size of `S` and `M`: a state that owns heap memory costs more.
///
/// ```
/// let per_state = frontier_search::bytes_per_state::<u64, u8>();
/// assert!(per_state >= 8 + 4 + 1);
/// ```
pub fn bytes_per_state<S, M>() -> u64 {
    // The vectors and the table grow by doubling, so budget for a half-empty copy of each.
    let inline = std::mem::size_of::<S>() + std::mem::size_of::<M>() + 4 + 5;
    (inline as u64) * 2
}

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
