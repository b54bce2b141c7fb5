//! [`Watch`]: the limits and the progress reports of a [`Config`], for solvers of their own.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::config::{Config, Progress, PROGRESS_EVERY};
use crate::outcome::Limit;

/// The limits of one search, watched for every worker of it: the clock (started when the
/// watch is made), the deadline, the cancel flag, the state budget and the progress observer
/// of a [`Config`]. It is `Sync`, so a solver's threads share one by reference; each worker
/// counts its own nodes and passes a [`Watch::checkpoint`] whenever [`Watch::due`] says so,
/// which costs one increment and one comparison per node.
///
/// The first limit seen, by any worker, is kept: [`Watch::stopped`] then names it to every
/// other worker, and the later checkpoints all return it.
///
/// ```
/// use std::time::Duration;
/// use frontier_search::{Config, Limit, Watch};
///
/// // A search of its own: count down from a million, looking at the limits as it goes.
/// fn count_down(config: &Config) -> Result<u64, Limit> {
///     let watch = Watch::new(config);
///     let mut expanded = 0;
///     for _ in 0..1_000_000 {
///         expanded += 1;
///         if Watch::due(expanded) {
///             if let Some(limit) = watch.checkpoint(Watch::CHECK_EVERY, 0) {
///                 return Err(limit);
///             }
///         }
///     }
///     Ok(expanded)
/// }
///
/// assert_eq!(count_down(&Config::default()), Ok(1_000_000));
/// let no_time = Config::default().timeout(Duration::ZERO);
/// assert_eq!(count_down(&no_time), Err(Limit::Time));
/// ```
pub struct Watch<'a> {
    config: &'a Config,
    started: Instant,
    /// `None` for no timeout, or one too long for the clock to reach.
    deadline: Option<Instant>,
    /// Nodes the workers have counted at their checkpoints.
    expanded: AtomicU64,
    /// States held, as last told by [`Watch::store`].
    stored: AtomicU64,
    /// When progress was last reported, in milliseconds since the start.
    reported_ms: AtomicU64,
    /// The first limit seen: 0 for none, else [`Watch::code`].
    stopped: AtomicU8,
    /// Whether the observer is being called now, so that two workers never call it at once.
    reporting: AtomicBool,
}

impl<'a> Watch<'a> {
    /// Nodes a worker counts between two checkpoints: few enough that a limit or a progress
    /// report waits a few milliseconds at most on the domains' solvers (whose nodes take from
    /// nanoseconds to a fraction of a microsecond), many enough that the checkpoints, which
    /// read the clock and touch shared counters, cost nothing measurable.
    pub const CHECK_EVERY: u64 = 1 << 14;

    /// A watch over `config`'s limits; its clock starts now.
    pub fn new(config: &'a Config) -> Watch<'a> {
        let started = Instant::now();
        Watch {
            config,
            started,
            deadline: config.timeout.and_then(|t| started.checked_add(t)),
            expanded: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            reported_ms: AtomicU64::new(0),
            stopped: AtomicU8::new(0),
            reporting: AtomicBool::new(false),
        }
    }

    /// The configuration watched.
    pub fn config(&self) -> &'a Config {
        self.config
    }

    /// When the watch was made: the start of the search.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Seconds since the start, for [`Stats::seconds`](crate::Stats::seconds).
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Whether a worker that has now counted `count` nodes is due a checkpoint: every
    /// [`Watch::CHECK_EVERY`] nodes. Inlined, for the innermost loop.
    #[inline(always)]
    pub fn due(count: u64) -> bool {
        count.is_multiple_of(Self::CHECK_EVERY)
    }

    /// A worker's checkpoint: counts the `expanded` nodes it did since its last one, and
    /// returns the limit hit, if any (the first one kept, then the cancel flag, then the
    /// clock); otherwise reports progress at `depth` (a depth or a bound) to the observer,
    /// about ten times a second whichever worker passes.
    pub fn checkpoint(&self, expanded: u64, depth: u64) -> Option<Limit> {
        let total = self.expanded.fetch_add(expanded, Ordering::Relaxed) + expanded;
        if let Some(limit) = self.limit() {
            return Some(limit);
        }
        self.report(total, depth);
        None
    }

    /// The limit hit, if any: the one already kept, then the cancel flag, then the clock. One
    /// found is kept for every later look. For a look outside the count of nodes (before a
    /// search starts, between two iterations).
    pub fn limit(&self) -> Option<Limit> {
        if let Some(limit) = self.stopped() {
            return Some(limit);
        }
        let cancelled = (self.config.cancel.as_ref()).is_some_and(|f| f.load(Ordering::Relaxed));
        let limit = if cancelled {
            Limit::Cancelled
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Limit::Time
        } else {
            return None;
        };
        Some(self.stop(limit))
    }

    /// Records that the search holds `stored` states; fails with [`Limit::States`] (kept as
    /// the search's limit) once past `max_states`.
    ///
    /// ```
    /// use frontier_search::{Config, Limit, Watch};
    ///
    /// let config = Config::default().max_states(100);
    /// let watch = Watch::new(&config);
    /// assert_eq!(watch.store(100), Ok(()));
    /// assert_eq!(watch.store(101), Err(Limit::States));
    /// assert_eq!(watch.stopped(), Some(Limit::States));
    /// ```
    pub fn store(&self, stored: u64) -> Result<(), Limit> {
        self.stored.store(stored, Ordering::Relaxed);
        match self.config.max_states {
            Some(max) if stored > max => Err(self.stop(Limit::States)),
            _ => Ok(()),
        }
    }

    /// Records that the search holds `stored` states without checking the budget: for a
    /// store whose size was checked against it before the search began.
    pub(crate) fn hold(&self, stored: u64) {
        self.stored.store(stored, Ordering::Relaxed);
    }

    /// Ends the search at `limit`, unless another was seen first; returns the one kept.
    pub fn stop(&self, limit: Limit) -> Limit {
        match (self.stopped).compare_exchange(0, code(limit), Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => limit,
            Err(first) => decode(first).unwrap_or(limit),
        }
    }

    /// The limit that stopped the search, if one did: for a worker to end when another did.
    #[inline]
    pub fn stopped(&self) -> Option<Limit> {
        decode(self.stopped.load(Ordering::Relaxed))
    }

    /// Nodes counted at the checkpoints so far, by every worker.
    pub fn expanded(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }

    /// Calls the observer if a report is due: [`PROGRESS_EVERY`] after the last.
    fn report(&self, expanded: u64, depth: u64) {
        let Some(observer) = &self.config.progress else {
            return;
        };
        let elapsed = self.started.elapsed();
        let ms = elapsed.as_millis() as u64;
        let last = self.reported_ms.load(Ordering::Relaxed);
        let due = Duration::from_millis(ms.saturating_sub(last)) >= PROGRESS_EVERY;
        if !due || self.reporting.swap(true, Ordering::Acquire) {
            return;
        }
        self.reported_ms.store(ms, Ordering::Relaxed);
        observer(&Progress {
            expanded,
            stored: self.stored.load(Ordering::Relaxed),
            depth,
            seconds: elapsed.as_secs_f64(),
            max_states: self.config.max_states,
        });
        self.reporting.store(false, Ordering::Release);
    }
}

/// The non-zero code of a limit in [`Watch::stopped`].
fn code(limit: Limit) -> u8 {
    match limit {
        Limit::Depth => 1,
        Limit::States => 2,
        Limit::Time => 3,
        Limit::Cancelled => 4,
    }
}

/// The limit of a code, `None` for 0.
fn decode(code: u8) -> Option<Limit> {
    match code {
        1 => Some(Limit::Depth),
        2 => Some(Limit::States),
        3 => Some(Limit::Time),
        4 => Some(Limit::Cancelled),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_first_limit_seen_is_the_one_every_worker_gets() {
        let cancel = Arc::new(AtomicBool::new(false));
        let config = Config::default().max_states(10).cancel(Arc::clone(&cancel));
        let watch = Watch::new(&config);
        assert_eq!(watch.checkpoint(5, 0), None);
        assert_eq!(watch.store(11), Err(Limit::States));
        cancel.store(true, Ordering::Relaxed);
        // Two workers on their own threads see the budget, not the later cancel flag.
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| assert_eq!(watch.checkpoint(1, 0), Some(Limit::States)));
            }
        });
        assert_eq!(watch.stop(Limit::Time), Limit::States);
        assert_eq!(watch.expanded(), 7);
    }

    #[test]
    fn the_cancel_flag_comes_before_the_clock() {
        let cancel = Arc::new(AtomicBool::new(true));
        let config = Config::default().timeout(Duration::ZERO).cancel(cancel);
        assert_eq!(Watch::new(&config).limit(), Some(Limit::Cancelled));
        let config = Config::default().timeout(Duration::from_secs(3600));
        assert_eq!(Watch::new(&config).limit(), None);
    }

    #[test]
    fn progress_is_reported_at_a_steady_rate_with_the_count_of_every_worker() {
        let calls = Arc::new(AtomicU64::new(0));
        let last = Arc::new(AtomicU64::new(0));
        let (seen, counted) = (Arc::clone(&calls), Arc::clone(&last));
        let config = Config::default().progress(move |p| {
            seen.fetch_add(1, Ordering::Relaxed);
            counted.store(p.expanded, Ordering::Relaxed);
        });
        let watch = Watch::new(&config);
        // Checkpoints for 350 ms: about one report every 100 ms, never one a checkpoint.
        let mut checkpoints = 0;
        while watch.started().elapsed() < Duration::from_millis(350) {
            watch.checkpoint(Watch::CHECK_EVERY, 3);
            checkpoints += 1;
        }
        let reports = calls.load(Ordering::Relaxed);
        assert!((2..=4).contains(&reports), "{reports} reports");
        assert!(checkpoints > reports * 10, "{checkpoints} checkpoints");
        assert_eq!(last.load(Ordering::Relaxed) % Watch::CHECK_EVERY, 0);
        assert!(last.load(Ordering::Relaxed) <= watch.expanded());
    }

    #[test]
    fn due_comes_every_check_every_nodes() {
        let due: Vec<u64> = (1..=3 * Watch::CHECK_EVERY)
            .filter(|&n| Watch::due(n))
            .collect();
        assert_eq!(due, [1, 2, 3].map(|k| k * Watch::CHECK_EVERY));
    }
}
