//! The board's own breadth-first search: a flat table instead of a hash set.
//!
//! A state is a padded cell index and a heading, so all states fit in a table of
//! `4 * (width + 2) * (height + 2)` slots. Each slot holds one byte: 0 unseen, or the move that
//! first reached the state (whose unique inverse, [`Puzzle::undo`], gives the parent). No
//! hashing, no arena: one byte per possible state and two `u32` layer buffers.

use frontier_search::{Config, Exploration, Limit, Outcome, Solution, Space, Stats, Watch};

use crate::space::{Move, Puzzle, State};

/// The table byte of the start state.
const START: u8 = u8::MAX;

fn code(mv: Move) -> u8 {
    mv as u8 + 1
}

fn decode(byte: u8) -> Move {
    Move::ALL[usize::from(byte - 1)]
}

/// How a layered search ended.
enum End {
    Found(State),
    Exhausted,
    Stopped(Limit),
}

/// What a layered search over the table leaves behind.
struct Search {
    end: End,
    /// The table: 0 unseen, [`START`], or the code of the move that first reached the state.
    seen: Vec<u8>,
    /// The number of states at each distance (the last may be partial after a limit).
    layers: Vec<u64>,
    stats: Stats,
    /// Whether `max_depth` kept unseen states from being reached.
    cut: bool,
}

/// Breadth-first search over the table; stops at the first goal when `stop_at_goal`.
fn search(puzzle: &Puzzle, config: &Config, stop_at_goal: bool) -> Search {
    let watch = Watch::new(config);
    let mut stats = Stats::default();
    let mut seen = vec![0u8; puzzle.slots()];
    let start = puzzle.start();
    seen[start.bits() as usize] = START;
    let mut visited = 1u64;
    stats.stored = visited;
    let max_states = config.max_states.unwrap_or(u64::MAX);
    let mut layers = vec![1];
    let mut cut = false;
    let mut frontier = vec![start.bits()];
    let mut next = Vec::new();
    let mut depth = 0u32;
    // Whether a layer's expansion has begun and not finished: a stop then leaves that layer
    // partial, counted as far as it got (zero included), as the engine's `explore` counts it.
    let mut expanding = false;
    let end = if stop_at_goal && puzzle.is_goal(&start) {
        End::Found(start)
    } else if let Err(limit) = watch.store(visited) {
        End::Stopped(limit)
    } else {
        'search: loop {
            stats.peak_frontier = stats.peak_frontier.max(frontier.len() as u64);
            if config.max_depth.is_some_and(|max| depth >= max) {
                // Cut only if something unseen lies beyond the last layer.
                cut = frontier.iter().any(|&bits| {
                    let mut beyond = false;
                    puzzle.successors(&State::from_bits(bits), None, |_, child| {
                        beyond |= seen[child.bits() as usize] == 0;
                    });
                    beyond
                });
                break End::Exhausted;
            }
            expanding = true;
            for &bits in &frontier {
                stats.expanded += 1;
                // From the first expansion on, so that a zero timeout stops every search
                // within the layer it has begun (counted as far as it got).
                if Watch::due(stats.expanded - 1) {
                    // The budget is checked after every expansion below; this tells the
                    // progress reports how full the table is.
                    let _within_budget = watch.store(visited);
                    let done = Watch::CHECK_EVERY.min(stats.expanded);
                    if let Some(limit) = watch.checkpoint(done, u64::from(depth)) {
                        break 'search End::Stopped(limit);
                    }
                }
                let mut found = None;
                puzzle.successors(&State::from_bits(bits), None, |mv, child| {
                    stats.generated += 1;
                    let slot = &mut seen[child.bits() as usize];
                    if *slot == 0 {
                        *slot = code(mv);
                        visited += 1;
                        next.push(child.bits());
                        if stop_at_goal && found.is_none() && puzzle.is_goal(&child) {
                            found = Some(child);
                        }
                    }
                });
                stats.stored = visited;
                if let Some(goal) = found {
                    break 'search End::Found(goal);
                }
                if visited > max_states {
                    break 'search End::Stopped(Limit::States);
                }
            }
            expanding = false;
            if next.is_empty() {
                break End::Exhausted;
            }
            layers.push(next.len() as u64);
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
            depth += 1;
        }
    };
    if matches!(end, End::Stopped(_)) && expanding {
        layers.push(next.len() as u64);
    }
    stats.seconds = watch.seconds();
    Search {
        end,
        seen,
        layers,
        stats,
        cut,
    }
}

impl Puzzle {
    /// Whether the fast solvers' table (one byte per possible state) fits in the memory that
    /// `config.max_states` allows the engine's solvers; if not, use the engine's `bfs`.
    pub fn fast_fits(&self, config: &Config) -> bool {
        let budget = config.max_states.unwrap_or(u64::MAX);
        let per_state = frontier_search::bytes_per_state::<State, Move>();
        (self.slots() as u64) <= budget.saturating_mul(per_state)
    }

    /// A shortest solution by breadth-first search over a flat table of every state: the same
    /// answers as [`frontier_search::bfs`] with no hashing, several times faster.
    ///
    /// Honours every limit of `config` (depth, stored states, time, cancel flag) and calls its
    /// progress observer. Memory: one byte per possible state (`4 * (width + 2) * (height + 2)`)
    /// plus the two largest layers.
    ///
    /// ```
    /// use frontier_board::{Board, Puzzle, Rules};
    /// use frontier_search::Config;
    ///
    /// let puzzle = Puzzle::new(Board::parse("AAAA\nACCB\nADEF\n*\n")?, Rules::Seed, None)?;
    /// assert_eq!(puzzle.fast_bfs(&Config::default()).into_solution().unwrap().len(), 17);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fast_bfs(&self, config: &Config) -> Outcome<State, Move> {
        let Search {
            end,
            seen,
            stats,
            cut,
            ..
        } = search(self, config, true);
        let limit = match end {
            End::Found(goal) => {
                let mut moves = Vec::new();
                let mut states = vec![goal];
                let mut at = goal;
                while seen[at.bits() as usize] != START {
                    let mv = decode(seen[at.bits() as usize]);
                    at = self.undo(at, mv);
                    moves.push(mv);
                    states.push(at);
                }
                moves.reverse();
                states.reverse();
                let cost = moves.len() as u64;
                return Outcome::Solved {
                    solution: Solution {
                        moves,
                        states,
                        cost,
                    },
                    stats,
                };
            }
            End::Exhausted if cut => Some(Limit::Depth),
            End::Exhausted => None,
            End::Stopped(limit) => Some(limit),
        };
        Outcome::unsolved(limit, stats)
    }

    /// Counts the reachable states at each distance from the start, over the same flat table
    /// as [`Puzzle::fast_bfs`]: the answer of [`frontier_search::explore`], faster.
    pub fn fast_explore(&self, config: &Config) -> Exploration {
        let Search {
            end,
            layers,
            stats,
            cut,
            ..
        } = search(self, config, false);
        let limit = match end {
            End::Exhausted if cut => Some(Limit::Depth),
            End::Exhausted | End::Found(_) => None,
            End::Stopped(limit) => Some(limit),
        };
        Exploration {
            layers,
            limit,
            stats,
        }
    }
}
