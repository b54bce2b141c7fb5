//! # frontier-search
//!
//! A generic state-space search engine. Describe a problem by implementing [`Space`] (a start
//! state, a goal test, successors labelled with moves; optionally step costs and a heuristic),
//! then hand it to any solver:
//!
//! | solver | returns | memory | needs |
//! |---|---|---|---|
//! | [`dfs`] | a solution, not necessarily shortest | all seen states | `State: Hash + Eq` |
//! | [`bfs`] | fewest moves | all seen states (a bit per [index](Space::index_bound) instead of a hash table, where the space has one) | `State: Hash + Eq`; the space `Sync`, states and moves `Send + Sync` |
//! | [`iddfs`] | fewest moves | linear in depth | `State: Eq` |
//! | [`ucs`] | cheapest (Dijkstra) | all seen states | step costs, `State: Hash + Eq` |
//! | [`astar`] | cheapest | all seen states | an admissible heuristic, `State: Hash + Eq` |
//! | [`idastar`] | cheapest | linear in depth | an admissible heuristic |
//! | [`bidirectional`] | fewest moves | both seen-sets | [`Reversible`], and as `bfs` |
//! | [`explore`] | states at each distance (each counted with its [weight](Space::weight)) | all seen states, or three layers if [undirected](Space::undirected), or a bit per [index](Space::index_bound) and three layers, or two bits an index and no state (with [`Space::state_at`]) | as `bfs` |
//!
//! [`solve`] runs any of the first seven named by an [`Algorithm`], for a caller that lets its
//! user choose. Every solver takes a [`Config`] (max depth, max stored states, timeout, cancel
//! flag, progress observer, threads) and returns an [`Outcome`] of three kinds: solved with its
//! [`Solution`], proven unsolvable ([`Outcome::Exhausted`]), or stopped by a named [`Limit`] —
//! always with [`Stats`].
//!
//! `bfs`, `bidirectional` and `explore` choose how to grow their layers once, when they start:
//! on [`Config::threads`] workers for the layers at least [`Config::parallel_from`] wide, over
//! a bit per index when the space has a perfect [index](Space::index_bound) whose bits fit the
//! state budget (for `explore`, with the index's inverse [`Space::state_at`], two bits an index
//! and no state stored, every layer on every worker), or over one hash table. The answer's length and the counts are the same for
//! every choice. A solver of a domain's own (the cube's, the tiles') watches the same limits
//! through a [`Watch`].
//!
//! The dense strategy's layer sweep is public ([`sweep`]), for arrays of other encodings:
//! the table toolkit's builders fill their distance tables with it.
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
mod dense;
mod explore;
mod graph;
mod layers;
mod open;
mod outcome;
mod parallel;
mod search_tree;
mod solve;
mod space;
pub mod sweep;
mod tree;
mod tree_bfs;
mod watch;

pub use arena::prefetch;
pub use config::{weigh, Config, Progress, ProgressFn, MAX_WEIGHT};
pub use explore::explore;
pub use graph::{astar, bfs, bidirectional, dfs, ucs};
pub use outcome::{Exploration, Limit, Outcome, Solution, Stats, Status};
pub use search_tree::{search_tree, SearchTree, TreeNode};
pub use solve::{solve, Algorithm};
pub use space::{Cost, Reversible, Space, Words, SHIFT_BLOCK};
pub use tree::{idastar, iddfs};
pub use watch::Watch;

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
