//! Limits, cancellation and progress reporting shared by every solver.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::arena::MAX_NODES;
use crate::outcome::{Limit, Stats};
use crate::space::Cost;

/// A snapshot of a running search, handed to the progress callback.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// States expanded so far.
    pub expanded: u64,
    /// States held now (seen-set or arena size; in frontier search, the layers kept; 0 for the
    /// tree searches).
    pub stored: u64,
    /// The depth (or cost bound, for the cost-driven solvers) being searched.
    pub depth: u64,
    /// Seconds since the search started.
    pub seconds: f64,
    /// The `max_states` budget, if any, so a progress bar can show how full it is.
    pub max_states: Option<u64>,
}

/// The largest weight [`Config::weight`] takes. `idastar` dives as deep as its bound, `w` times
/// the heuristic, and keeps every level on its stack; and `w·h` must stay far from the integer
/// limits, or every bound and `f` would be the same and nothing would be pruned. Past 100 the
/// answers are no better than greedy ones anyway.
pub const MAX_WEIGHT: f64 = 100.0;

/// The default of [`Config::parallel_from`]: layers narrower than this many states are expanded
/// on one thread. Handing a layer out to workers and their successors back to the store costs
/// more than the workers save on narrow layers of cheap successors (such as all the 8-puzzle's).
pub(crate) const PARALLEL_FROM: usize = 1 << 15;

/// `h` times an [effective](Config::effective_weight) weight, rounded down; `h` without one.
/// For solvers of their own that hold the weight apart from the [`Config`] in a hot loop.
///
/// ```
/// use frontier_search::{weigh, Config};
///
/// let weight = Config::default().weight(1.5).effective_weight();
/// assert_eq!(weigh(weight, 7), 10);
/// assert_eq!(weigh(None, 7), 7);
/// ```
#[inline(always)]
pub fn weigh(weight: Option<f64>, h: Cost) -> Cost {
    match weight {
        None => h,
        Some(w) => (h as f64 * w) as Cost,
    }
}

/// A progress observer: called from the search thread about ten times a second.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// How a search may run: its limits, a cancel flag, a progress observer, and parallelism.
///
/// Every limit ends the search cleanly with [`crate::Outcome::Stopped`] naming it; none panics.
///
/// ```
/// use std::time::Duration;
/// use frontier_search::Config;
///
/// let config = Config::default()
///     .max_depth(20)
///     .max_states(1_000_000)
///     .timeout(Duration::from_secs(5));
/// assert_eq!(config.max_depth, Some(20));
/// ```
#[derive(Clone, Default)]
pub struct Config {
    /// The longest path (in moves) a solver may consider.
    pub max_depth: Option<u32>,
    /// The most states a solver may store; bounds memory. The graph searches count their
    /// seen-set or arena, and `ucs` and `astar` their open list too (which `stored` in the
    /// statistics leaves out). A search checks as it stores, so it may pass the budget by the
    /// successors of its last expansion. Successors waiting to be stored count as well: a
    /// batch of expansions takes no more of them than the budget has room for plus half the
    /// budget again (at least 65,536), so a state with millions of successors stops the search
    /// with `Limit::States` instead of filling memory. The tree searches (`iddfs`, `idastar`)
    /// store no states: for them it bounds the length of the path they hold, and `stored`
    /// stays 0. `None` (the default) bounds nothing: a search of a large space then stores
    /// until memory runs out. To budget bytes instead, divide them by
    /// [`bytes_per_state`](crate::bytes_per_state) (the `frontier` command gives a search
    /// half the memory available to it this way).
    pub max_states: Option<u64>,
    /// Wall-clock time after which the search stops. Solvers look at the clock (and the
    /// cancel flag) every few milliseconds between expansions, and every 16,384 successors
    /// within one; a space that takes long to hand over a single successor delays the look.
    pub timeout: Option<Duration>,
    /// A flag another thread may set to stop the search (e.g. on Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called about ten times a second while the search runs.
    pub progress: Option<ProgressFn>,
    /// Worker threads for `bfs`, `bidirectional` and `explore`; 0 or 1 means one, and
    /// no more start than the machine has logical CPUs (see [`Config::worker_threads`]).
    pub threads: usize,
    /// With several threads, layers narrower than this many states are still expanded on one
    /// thread; `None` means 2^15 (32,768). Lower it for spaces whose successors are costly
    /// to generate (0 hands every layer out), raise it for cheaper ones.
    pub parallel_from: Option<usize>,
    /// Weighted search: [`crate::astar`] and [`crate::idastar`] rank a state by `g + w·h`
    /// instead of `g + h`. With an admissible heuristic and `w >= 1`, the solution found costs
    /// at most `w` times the cheapest, usually after far fewer expansions; `None` (or 1) keeps
    /// them exact. A weight below 0, or NaN, is ignored, and one above [`MAX_WEIGHT`]
    /// (infinity included) counts as that.
    pub weight: Option<f64>,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("max_depth", &self.max_depth)
            .field("max_states", &self.max_states)
            .field("timeout", &self.timeout)
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .field("threads", &self.threads)
            .field("parallel_from", &self.parallel_from)
            .field("weight", &self.weight)
            .finish()
    }
}

impl Config {
    /// Sets the longest path, in moves.
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = Some(depth);
        self
    }

    /// Sets the most states a search may store ([`Config::max_states`]).
    pub fn max_states(mut self, states: u64) -> Self {
        self.max_states = Some(states);
        self
    }

    /// Sets the wall-clock limit.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets the flag that cancels the search when it becomes true.
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Sets the heuristic's weight `w`: solutions then cost at most `w` times the cheapest.
    ///
    /// ```
    /// use frontier_search::{astar, Config, Space};
    ///
    /// /// Steps of +1 or +3 from 0 to 20, with an admissible heuristic.
    /// struct Line;
    /// impl Space for Line {
    ///     type State = u32;
    ///     type Move = u32;
    ///     fn start(&self) -> u32 { 0 }
    ///     fn is_goal(&self, s: &u32) -> bool { *s == 20 }
    ///     fn successors(&self, s: &u32, _: Option<&u32>, mut out: impl FnMut(u32, u32)) {
    ///         for step in [1, 3] {
    ///             if s + step <= 20 { out(step, s + step) }
    ///         }
    ///     }
    ///     fn heuristic(&self, s: &u32) -> u64 { u64::from(20 - s).div_ceil(3) }
    /// }
    ///
    /// let exact = astar(&Line, &Config::default());
    /// let weighted = astar(&Line, &Config::default().weight(2.0));
    /// let (best, found) = (exact.into_solution().unwrap().cost, weighted.into_solution().unwrap().cost);
    /// assert_eq!(best, 8);
    /// assert!(found <= 2 * best);
    /// ```
    pub fn weight(mut self, w: f64) -> Self {
        self.weight = Some(w);
        self
    }

    /// A heuristic value as the informed solvers rank it: `h` times the [weight](Config::weight),
    /// rounded down (so that a weight of 1 changes nothing).
    #[inline]
    pub fn weigh(&self, h: Cost) -> Cost {
        weigh(self.effective_weight(), h)
    }

    /// The weight that changes the ranking, if any: [`Config::weight`] if it is a number at
    /// least 0 and not 1, at most [`MAX_WEIGHT`] (a larger one, infinity included, counts as
    /// that).
    pub fn effective_weight(&self) -> Option<f64> {
        self.weight
            .filter(|&w| w >= 0.0 && w != 1.0)
            .map(|w| w.min(MAX_WEIGHT))
    }

    /// Sets the progress observer.
    pub fn progress(mut self, observer: impl Fn(&Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(observer));
        self
    }

    /// Sets the number of worker threads for `bfs`, `bidirectional` and `explore`.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The worker threads `bfs`, `bidirectional` and `explore` start: [`Config::threads`], at least one and at
    /// most the machine's logical CPUs. More never helps, and starting them is not timed (thousands
    /// of threads would take seconds before the search's clock starts).
    ///
    /// ```
    /// use frontier_search::Config;
    ///
    /// let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    /// assert_eq!(Config::default().worker_threads(), 1);
    /// assert_eq!(Config::default().threads(100_000).worker_threads(), cpus);
    /// ```
    pub fn worker_threads(&self) -> usize {
        // Asking for the CPUs reads the cgroup's files: skip it where one thread is asked for,
        // so that a small search on one thread pays nothing for the choice.
        if self.threads <= 1 {
            return 1;
        }
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        self.threads.clamp(1, cpus)
    }

    /// Sets the narrowest layer that `bfs`, `bidirectional` and `explore` hand out to their
    /// worker threads.
    ///
    /// ```
    /// use frontier_search::Config;
    ///
    /// let config = Config::default().threads(8);
    /// assert_eq!(config.parallel_width(), 1 << 15);
    /// assert_eq!(config.parallel_from(0).parallel_width(), 0);
    /// ```
    pub fn parallel_from(mut self, states: usize) -> Self {
        self.parallel_from = Some(states);
        self
    }

    /// The narrowest layer handed out to worker threads: [`Config::parallel_from`], or by
    /// default 2^15 (32,768).
    pub fn parallel_width(&self) -> usize {
        self.parallel_from.unwrap_or(PARALLEL_FROM)
    }
}

/// The most expansions that pass between two looks at the clock and the cancel flag.
const CHECK_EVERY: u64 = 1 << 10;
/// About how long passes between two looks, on a space slow enough that [`CHECK_EVERY`]
/// expansions take longer: the number of expansions between looks follows the space's speed,
/// so that a limit or a progress report comes on time even if each expansion takes
/// milliseconds.
const CHECK_PERIOD: Duration = Duration::from_millis(5);
/// The shortest time over which the speed of expansion is measured.
const SPEED_SAMPLE: Duration = Duration::from_millis(1);
/// About how long a batch of expansions that runs without a look may take: see
/// [`Meter::batch`].
const BATCH_PERIOD: Duration = Duration::from_millis(50);
/// How often the progress observer is called.
pub(crate) const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// A depth limit with the most a step may cost: what tells, from a state's heuristic, that no
/// goal lies within the moves left (see [`Reach::beyond`]).
#[derive(Clone, Copy)]
pub(crate) struct Reach {
    max_depth: u32,
    most: Cost,
}

impl Reach {
    /// `max_depth` with the space's [most costly step](crate::Space::max_step_cost), when both
    /// are known.
    pub fn of<P: crate::Space>(config: &Config, space: &P) -> Option<Reach> {
        let (max_depth, most) = config.max_depth.zip(space.max_step_cost())?;
        Some(Reach { max_depth, most })
    }

    /// Whether a state `depth` moves deep, with an admissible heuristic `h`, lies out of the
    /// limit's reach: every goal costs at least `h`, more than the moves left could at the
    /// most a step costs. Leaving such a state out loses no path within the limit.
    #[inline]
    pub fn beyond(self, depth: u64, h: Cost) -> bool {
        let moves_left = Cost::from(self.max_depth).saturating_sub(depth);
        h > moves_left.saturating_mul(self.most)
    }
}

/// Successors taken between two looks at the clock and the cancel flag by an [`Intake`].
const INTAKE_LOOK_EVERY: u64 = 1 << 14;
/// The fewest successors waiting to be stored that an [`Intake`] allows past the state budget:
/// small budgets keep their meaning of "stored states", with room for any usual expansion.
const INTAKE_SLACK_FLOOR: u64 = 1 << 16;

/// The successors of a batch of expansions on their way to the store: counted as they are
/// taken from the space, so that the batch stops taking them once they would hold memory well
/// past the state budget, or once the clock or the cancel flag says stop. A state with millions
/// of successors is thus one expansion the limits still watch; without it, a start with 20
/// million successors held them all under `max_states(1000)` (1.3 GB), and kept a 10 ms timeout
/// waiting for seconds.
///
/// The successors a stopped intake refuses are dropped; the solver must then end with
/// [`Intake::stopped`]'s limit.
#[derive(Clone)]
pub(crate) struct Intake<'a> {
    taken: u64,
    /// The count at which the next look is due.
    next_look: u64,
    /// The most successors this intake takes.
    cap: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    stop: Option<Limit>,
}

impl Intake<'_> {
    /// Counts one successor; `false` once the intake has stopped taking them.
    #[inline]
    pub fn take(&mut self) -> bool {
        self.taken += 1;
        self.taken < self.next_look || self.look()
    }

    #[cold]
    fn look(&mut self) -> bool {
        if self.stop.is_none() {
            if self.taken > self.cap {
                self.stop = Some(Limit::States);
            } else if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                self.stop = Some(Limit::Cancelled);
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stop = Some(Limit::Time);
            }
        }
        // Once stopped, every successor comes here to be refused.
        self.next_look = match self.stop {
            Some(_) => 0,
            None => (self.taken + INTAKE_LOOK_EVERY).min(self.cap.saturating_add(1)),
        };
        self.stop.is_none()
    }

    /// How many successors were offered, taken or not: the space's `generated` count.
    pub fn offered(&self) -> u64 {
        self.taken
    }

    /// The limit that stopped the intake, if one did.
    pub fn stopped(&self) -> Option<Limit> {
        self.stop
    }
}

/// The solvers' bookkeeping: statistics, and the periodic check of time, cancel flag and progress.
pub(crate) struct Meter<'a> {
    config: &'a Config,
    started: Instant,
    deadline: Option<Instant>,
    /// The expansion count at which the clock is next looked at.
    next_check: u64,
    /// Expansions between two looks, following the speed of expansion.
    check_every: u64,
    /// When the speed was last measured, and the expansion count then.
    sampled: (Instant, u64),
    /// Expansions per second, once measured.
    speed: Option<f64>,
    last_progress: Instant,
    /// States held now; `stats.stored` keeps the most held at once.
    held: u64,
    pub stats: Stats,
}

impl<'a> Meter<'a> {
    pub fn new(config: &'a Config) -> Self {
        let started = Instant::now();
        Meter {
            config,
            started,
            // A timeout too long for the clock to reach is no limit at all.
            deadline: config.timeout.and_then(|t| started.checked_add(t)),
            // The first expansion looks at the clock, so that a zero timeout stops every search.
            next_check: 1,
            check_every: 1,
            sampled: (started, 0),
            speed: None,
            last_progress: started,
            held: 0,
            stats: Stats::default(),
        }
    }

    /// The configuration this meter checks, borrowed for as long as the meter's own borrow.
    pub fn config(&self) -> &'a Config {
        self.config
    }

    /// Counts one expansion about to be made, after looking at the clock and the cancel flag
    /// when a look is due (see [`CHECK_PERIOD`]); a limit stops it uncounted.
    #[inline]
    pub fn expand(&mut self, depth: u64) -> Result<(), Limit> {
        self.expand_many(depth, 1)
    }

    /// [`Meter::expand`] for `n` expansions about to be made together.
    #[inline]
    pub fn expand_many(&mut self, depth: u64, n: u64) -> Result<(), Limit> {
        let expanded = self.stats.expanded + n;
        if expanded >= self.next_check {
            self.check(depth)?;
        }
        self.stats.expanded = expanded;
        Ok(())
    }

    /// Checks the clock and the cancel flag now, and reports progress when it is due.
    #[cold]
    pub fn check(&mut self, depth: u64) -> Result<(), Limit> {
        if let Some(flag) = &self.config.cancel {
            if flag.load(Ordering::Relaxed) {
                return Err(Limit::Cancelled);
            }
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            return Err(Limit::Time);
        }
        self.pace(now);
        if let Some(observer) = &self.config.progress {
            if now.duration_since(self.last_progress) >= PROGRESS_EVERY {
                self.last_progress = now;
                observer(&Progress {
                    expanded: self.stats.expanded,
                    stored: self.held,
                    depth,
                    seconds: now.duration_since(self.started).as_secs_f64(),
                    max_states: self.config.max_states,
                });
            }
        }
        Ok(())
    }

    /// Measures the speed of expansion since the last sample, once it spans [`SPEED_SAMPLE`],
    /// and sets the next look at the clock [`CHECK_PERIOD`] ahead at that speed (at most
    /// [`CHECK_EVERY`] expansions ahead); before the first sample, the gap doubles at each look.
    fn pace(&mut self, now: Instant) {
        let (then, count) = self.sampled;
        let elapsed = now.duration_since(then);
        let done = self.stats.expanded - count;
        if elapsed >= SPEED_SAMPLE && done > 0 {
            let speed = done as f64 / elapsed.as_secs_f64();
            self.speed = Some(speed);
            self.sampled = (now, self.stats.expanded);
            let period = (speed * CHECK_PERIOD.as_secs_f64()) as u64;
            self.check_every = period.clamp(1, CHECK_EVERY);
        } else {
            self.check_every = (self.check_every * 2).min(CHECK_EVERY);
        }
        self.next_check = self.stats.expanded + self.check_every;
    }

    /// The first batch of a layer, at most: states of one layer may take far longer to expand
    /// than those before them (a river puzzle's went from 2.6 µs to 110 µs), so a layer's
    /// batches start small and double, each timed before the next (see [`Meter::batch`]).
    pub const FIRST_BATCH: usize = 1 << 9;

    /// The next batch of a layer: [`Meter::batch`] of `most`, and no more than `ramp`, which
    /// starts each layer at [`Meter::FIRST_BATCH`] and doubles at each batch.
    pub fn ramped_batch(&self, ramp: &mut usize, most: usize) -> usize {
        let states = self.batch(most).min(*ramp);
        *ramp = ramp.saturating_mul(2);
        states
    }

    /// [`Meter::ramped_batch`] over [`Meter::untimed_batch`].
    pub fn ramped_untimed_batch(&self, ramp: &mut usize, most: usize) -> usize {
        let states = self.untimed_batch(most).min(*ramp);
        *ramp = ramp.saturating_mul(2);
        states
    }

    /// Records that the store now holds `stored` states; fails once past `max_states`.
    #[inline]
    pub fn store(&mut self, stored: usize) -> Result<(), Limit> {
        self.store_with_queue(stored, 0)
    }

    /// Records that the store holds `stored` states without checking the budget: for a search
    /// that has just found its answer, so that `stored` counts the states taken in its last
    /// batch.
    #[inline]
    pub fn hold(&mut self, stored: usize) {
        self.held = stored as u64;
        self.stats.stored = self.stats.stored.max(self.held);
    }

    /// [`Meter::store`] for a solver that also keeps `queued` entries in an open list: they
    /// count against `max_states` (they take memory) but not as stored states.
    #[inline]
    pub fn store_with_queue(&mut self, stored: usize, queued: usize) -> Result<(), Limit> {
        self.held = stored as u64;
        self.stats.stored = self.stats.stored.max(self.held);
        let held = (stored + queued) as u64;
        let max = self.config.max_states.unwrap_or(u64::MAX);
        if stored > MAX_NODES || held > max {
            return Err(Limit::States);
        }
        Ok(())
    }

    /// How many more states may be stored before `max_states` is passed.
    pub fn room(&self) -> u64 {
        self.config
            .max_states
            .unwrap_or(u64::MAX)
            .saturating_sub(self.held)
    }

    /// How many states to expand before the store is next checked: `most`, or fewer near the
    /// state budget, so that at the branching factor seen so far the budget is passed by at
    /// most one expansion's successors (as when the store is checked after every expansion);
    /// and no more than the speed of expansion gets through in [`BATCH_PERIOD`], so that a
    /// batch of slow expansions does not keep a limit waiting.
    pub fn batch(&self, most: usize) -> usize {
        let timely = self.speed.map_or(usize::MAX, |speed| {
            (speed * BATCH_PERIOD.as_secs_f64()) as usize
        });
        self.untimed_batch(most).min(timely).max(1)
    }

    /// [`Meter::batch`] without its bound by the clock: for batches whose size decides what a
    /// search counts (the last layer under a depth limit, looked past until one batch finds a
    /// deeper state), so that the counts do not depend on the machine's load. Such batches
    /// stay on time through their [`Intake`], which looks at the deadline and the cancel flag.
    pub fn untimed_batch(&self, most: usize) -> usize {
        let branching = (self.stats.generated / self.stats.expanded.max(1)).max(1) + 1;
        ((self.room() / branching) as usize).clamp(1, most.max(1))
    }

    /// An [`Intake`] for the successors of the next batch of expansions, split among `parts`
    /// buffers filled at once (each its own intake): together they take at most what the
    /// budget has room for, plus half the budget again (or 65,536, if more).
    pub fn intake(&self, parts: usize) -> Intake<'a> {
        let cap = self.config.max_states.map_or(u64::MAX, |max| {
            let slack = (max / 2).max(INTAKE_SLACK_FLOOR);
            self.room().saturating_add(slack) / parts.max(1) as u64
        });
        Intake {
            taken: 0,
            next_look: INTAKE_LOOK_EVERY.min(cap.saturating_add(1)),
            cap,
            deadline: self.deadline,
            cancel: self.config.cancel.as_deref(),
            stop: None,
        }
    }

    /// Whether a path of `depth` moves may be extended by one more move.
    #[inline]
    pub fn may_deepen(&self, depth: u32) -> bool {
        self.config.max_depth.is_none_or(|max| depth < max)
    }

    /// Records the current frontier size for the peak statistic.
    #[inline]
    pub fn frontier(&mut self, size: usize) {
        self.stats.peak_frontier = self.stats.peak_frontier.max(size as u64);
    }

    /// Stops the clock and returns the statistics.
    pub fn finish(mut self) -> Stats {
        self.stats.seconds = self.started.elapsed().as_secs_f64();
        self.stats
    }
}
