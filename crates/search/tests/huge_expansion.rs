//! A state with a million successors is one expansion, and the limits still hold it: the state
//! budget bounds the successors waiting to be stored, and the cancel flag (or the clock) stops
//! the expansion's intake. Every solver that buffers successors is run on the same fan.
//!
//! The states count themselves as they are made and dropped, so the test sees the most states
//! alive at once, wherever a solver keeps them. They are counted in globals: this file holds
//! one test, so nothing else runs beside it.

use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;

use frontier_search::{
    astar, bfs, bidirectional, dfs, explore, idastar, iddfs, ucs, Config, Limit, Reversible, Space,
    Status,
};

mod common;
use common::{Dense, Indexed, Rank};

static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

/// A state that counts how many of its kind are alive.
#[derive(PartialEq, Eq, Hash, Debug)]
struct Counted(u32);

impl Counted {
    fn new(n: u32) -> Self {
        let live = LIVE.fetch_add(1, Ordering::Relaxed) + 1;
        PEAK.fetch_max(live, Ordering::Relaxed);
        Counted(n)
    }
}

impl Clone for Counted {
    fn clone(&self) -> Self {
        Counted::new(self.0)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Successors of the hub, state 0.
const FAN: u32 = 1_000_000;

/// A hub with `FAN` spokes, each leading back to it; no goal is reachable. After `cancel_after`
/// successors it sets the cancel flag, as a Ctrl-C in the middle of the hub's expansion would.
struct Fan {
    undirected: bool,
    cancel: Option<(Arc<AtomicBool>, u32)>,
}

impl Space for Fan {
    type State = Counted;
    type Move = ();

    fn start(&self) -> Counted {
        Counted::new(0)
    }

    fn is_goal(&self, state: &Counted) -> bool {
        state.0 > FAN
    }

    fn successors(&self, state: &Counted, _: Option<&()>, mut out: impl FnMut((), Counted)) {
        if state.0 != 0 {
            return out((), Counted::new(0));
        }
        for spoke in 1..=FAN {
            if let Some((flag, after)) = &self.cancel {
                if spoke == *after {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            out((), Counted::new(spoke));
        }
    }

    fn undirected(&self) -> bool {
        self.undirected
    }
}

impl Reversible for Fan {
    /// A goal apart from the fan, with no way in.
    fn goals(&self) -> Vec<Counted> {
        vec![Counted::new(FAN + 1)]
    }

    fn predecessors(&self, state: &Counted, out: impl FnMut((), Counted)) {
        if state.0 <= FAN {
            self.successors(state, None, out);
        }
    }
}

impl Rank for Fan {
    fn bound(&self) -> u64 {
        u64::from(FAN) + 2
    }

    fn rank(&self, state: &Counted) -> u64 {
        u64::from(state.0)
    }

    fn unrank(&self, rank: u64) -> Option<Counted> {
        Some(Counted::new(u32::try_from(rank).ok()?))
    }
}

type Solver = fn(&Fan, &Config) -> Status;

fn solvers() -> Vec<(&'static str, Solver)> {
    vec![
        ("dfs", |s, c| dfs(s, c).status()),
        ("bfs", |s, c| bfs(s, c).status()),
        ("bfs_indexed", |s, c| bfs(&Indexed(s), c).status()),
        ("iddfs", |s, c| iddfs(s, c).status()),
        ("ucs", |s, c| ucs(s, c).status()),
        ("astar", |s, c| astar(s, c).status()),
        ("idastar", |s, c| idastar(s, c).status()),
        ("bidirectional", |s, c| bidirectional(s, c).status()),
        ("par_bfs", |s, c| bfs(s, c).status()),
        ("par_bidirectional", |s, c| bidirectional(s, c).status()),
        ("explore", |s, c| explore(s, c).status()),
        ("explore_indexed", |s, c| explore(&Indexed(s), c).status()),
        ("explore_dense", |s, c| explore(&Dense(s), c).status()),
    ]
}

/// Runs `solver` from no live states and returns its status and the most states alive at once.
fn peak_of(solver: Solver, space: &Fan, config: &Config) -> (Status, i64) {
    assert_eq!(LIVE.load(Ordering::Relaxed), 0, "states left alive");
    PEAK.store(0, Ordering::Relaxed);
    let status = solver(space, config);
    (status, PEAK.load(Ordering::Relaxed))
}

/// The most states alive at once that the limits allow: far below the fan's million.
const BOUND: i64 = 100_000;

#[test]
fn limits_hold_an_expansion_of_a_million_successors() {
    // The tree searches keep no successors, and say so: they are run to show that their dive
    // stays small too. Two threads with every layer handed out, and one.
    let threads = [
        Config::default().threads(2).parallel_from(0),
        Config::default(),
    ];
    for (name, solver) in solvers() {
        for undirected in [false, true] {
            for base in &threads {
                // The state budget: the hub's spokes would pass it a thousandfold.
                let space = Fan {
                    undirected,
                    cancel: None,
                };
                let config = base.clone().max_states(1_000);
                let (status, peak) = peak_of(solver, &space, &config);
                let tree = name == "iddfs" || name == "idastar";
                if tree {
                    // A dive holds a path of two states; the hub's spokes all lead back.
                    assert_eq!(status, Status::Exhausted, "{name}");
                } else {
                    assert_eq!(status, Status::Limit(Limit::States), "{name}");
                }
                assert!(
                    peak <= BOUND,
                    "{name} held {peak} states under max_states(1000)"
                );

                // Cancelled a tenth of the way through the hub's successors, with no budget.
                let flag = Arc::new(AtomicBool::new(false));
                let space = Fan {
                    undirected,
                    cancel: Some((flag.clone(), FAN / 10)),
                };
                let config = base.clone().cancel(flag);
                let (status, peak) = peak_of(solver, &space, &config);
                assert_eq!(status, Status::Limit(Limit::Cancelled), "{name}");
                assert!(
                    peak <= i64::from(FAN / 10) + BOUND,
                    "{name} held {peak} states after a cancel"
                );
            }
        }
    }
}
