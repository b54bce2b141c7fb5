//! What the cube's own solvers ([`Optimal`](crate::Optimal), [`TwoPhase`](crate::TwoPhase))
//! share to watch their limits and report progress from several workers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use frontier_search::{Config, Limit, Progress};

/// Nodes a worker expands between two checkpoints (about 10 ms of search).
const CHECK_EVERY: u64 = 1 << 14;

/// The value behind a mutex, even if another worker panicked while holding it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Counts one more node in a worker's `expanded`; true every [`CHECK_EVERY`] nodes, when the
/// worker should pass [`Watch::checkpoint`].
#[inline(always)]
pub(crate) fn due(expanded: &mut u64) -> bool {
    *expanded += 1;
    expanded.is_multiple_of(CHECK_EVERY)
}

/// The clock, the node count and the progress reports of one solve, shared by its workers.
pub(crate) struct Watch {
    /// When the solve started.
    pub started: Instant,
    /// Nodes expanded by all workers, as of their last checkpoints.
    expanded: AtomicU64,
    /// When progress was last passed on, in seconds since the start.
    last_report: Mutex<f64>,
}

impl Watch {
    pub fn new() -> Watch {
        Watch {
            started: Instant::now(),
            expanded: AtomicU64::new(0),
            last_report: Mutex::new(0.0),
        }
    }

    /// The limit hit, if any: the cancel flag, then the clock.
    pub fn limit_hit(&self, config: &Config) -> Option<Limit> {
        config.limit_hit(self.started)
    }

    /// A worker's checkpoint, every [`CHECK_EVERY`] nodes: counts them, and returns the limit
    /// hit, if any; otherwise passes progress at `depth` (a bound, a phase-1 length) to the
    /// observer, at most ten times a second.
    pub fn checkpoint(&self, config: &Config, depth: usize) -> Option<Limit> {
        let expanded = self.expanded.fetch_add(CHECK_EVERY, Ordering::Relaxed) + CHECK_EVERY;
        if let Some(limit) = self.limit_hit(config) {
            return Some(limit);
        }
        let Some(observer) = &config.progress else {
            return None;
        };
        let seconds = self.started.elapsed().as_secs_f64();
        let mut last = lock(&self.last_report);
        if seconds - *last >= 0.1 {
            *last = seconds;
            observer(&Progress {
                expanded,
                stored: 0,
                depth: depth as u64,
                seconds,
                max_states: None,
            });
        }
        None
    }
}
