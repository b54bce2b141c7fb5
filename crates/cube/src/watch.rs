//! What the cube's own solvers ([`Optimal`](crate::Optimal), [`TwoPhase`](crate::TwoPhase))
//! share to watch their limits and report progress from several workers.

use std::sync::atomic::Ordering;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use frontier_search::{Config, Limit, Progress};

/// The value behind a mutex, even if another worker panicked while holding it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The limit a search started at `started` has hit, if any: the cancel flag, then the clock.
pub(crate) fn limit_hit(config: &Config, started: Instant) -> Option<Limit> {
    let cancelled = (config.cancel.as_ref()).is_some_and(|flag| flag.load(Ordering::Relaxed));
    if cancelled {
        return Some(Limit::Cancelled);
    }
    (config.timeout)
        .is_some_and(|t| started.elapsed() >= t)
        .then_some(Limit::Time)
}

/// Passes progress to the configuration's observer at most ten times a second, whichever
/// worker has it to give.
pub(crate) struct Reporter {
    /// When progress was last passed on, in seconds since the search started.
    last: Mutex<f64>,
}

impl Reporter {
    pub fn new() -> Reporter {
        Reporter {
            last: Mutex::new(0.0),
        }
    }

    /// Passes on `expanded` nodes at `depth` (a bound or a phase-1 length) after `seconds`,
    /// unless progress was passed on less than 0.1 s ago.
    pub fn report(&self, config: &Config, seconds: f64, expanded: u64, depth: usize) {
        let Some(observer) = &config.progress else {
            return;
        };
        let mut last = lock(&self.last);
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
    }
}
