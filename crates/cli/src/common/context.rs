//! The state of one run: Ctrl-C, the clock, the progress bar, the table build bar.

use std::fmt::Write as _;
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use frontier_search::{Limit, Outcome, Progress, Stats};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::*;

/// How soon after a Ctrl-C another signal counts as the same press (see [`Context::new`]).
pub(super) const SAME_PRESS: Duration = Duration::from_millis(500);

/// Process-wide state of one run: the Ctrl-C flag, the terminals, the progress bar.
pub struct Context {
    /// Set by Ctrl-C; every search watches it.
    pub cancel: Arc<AtomicBool>,
    /// Whether stdout is a terminal (colours, drawings).
    pub stdout_is_terminal: bool,
    /// Whether stderr is a terminal (progress bars).
    pub stderr_is_terminal: bool,
    /// When the command started: `--timeout` counts from here, reading the input included, and
    /// so do the seconds reported.
    pub started: Instant,
    bar: Arc<Mutex<Option<ProgressBar>>>,
}

impl Context {
    /// Seconds since the command started: the time every answer reports.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Sets up the Ctrl-C handler: the first press cancels the search (which then reports what
    /// it did and exits 130); a second press exits at once. A second signal within
    /// [`SAME_PRESS`] of the first is the same press delivered twice: `timeout -s INT` signals
    /// the process and then its group, and the second would otherwise lose the statistics.
    pub fn new() -> Self {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let first: Mutex<Option<Instant>> = Mutex::new(None);
        // Without a handler (e.g. one is already installed) Ctrl-C simply kills the process.
        let _ = ctrlc::set_handler(move || {
            let mut first = first
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match *first {
                None => {
                    *first = Some(Instant::now());
                    flag.store(true, Ordering::SeqCst);
                }
                Some(at) if at.elapsed() >= SAME_PRESS => std::process::exit(130),
                Some(_) => {}
            }
        });
        Context {
            cancel,
            stdout_is_terminal: io::stdout().is_terminal(),
            stderr_is_terminal: io::stderr().is_terminal(),
            started: Instant::now(),
            bar: Arc::new(Mutex::new(None)),
        }
    }

    /// A progress observer that draws a spinner on stderr once a search has run for a second,
    /// or `None` where no bar should be drawn (stderr not a terminal, or `--quiet`).
    pub fn progress_observer(&self, quiet: bool) -> Option<impl Fn(&Progress) + Send + Sync> {
        if quiet || !self.stderr_is_terminal {
            return None;
        }
        let slot = Arc::clone(&self.bar);
        Some(move |progress: &Progress| {
            if progress.seconds < 1.0 {
                return;
            }
            let Ok(mut slot) = slot.lock() else { return };
            let bar = slot.get_or_insert_with(|| {
                // Its clock counts from the search's start, not from the bar's first drawing.
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                    .with_elapsed(Duration::from_secs_f64(progress.seconds));
                bar.set_style(
                    ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar.enable_steady_tick(Duration::from_millis(120));
                bar
            });
            bar.set_message(progress_message(progress));
        })
    }

    /// Removes the progress bar, if one is drawn, before the answer is printed.
    pub fn clear_progress(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

pub(super) fn progress_message(p: &Progress) -> String {
    let mut message = format!(
        "depth/bound {} · {} expanded ({}/s)",
        p.depth,
        count(p.expanded),
        count((p.expanded as f64 / p.seconds.max(1e-9)) as u64)
    );
    if p.stored > 0 {
        let _ = write!(message, " · {} stored", count(p.stored));
        if let Some(max) = p.max_states {
            let _ = write!(
                message,
                " ({:.0}% of budget)",
                100.0 * p.stored as f64 / max as f64
            );
        }
    }
    message
}

/// The clock and the Ctrl-C flag of a command that builds a table before it searches: the
/// build stops at `--timeout` (counted from the start of the command) and at Ctrl-C like the
/// search does, and the search gets the time that is left ([`SearchArgs::config`]).
pub struct Stopwatch<'a> {
    ctx: &'a Context,
    timeout: Option<Duration>,
}

impl<'a> Stopwatch<'a> {
    /// The clock of a command with these flags: the command's own.
    pub fn new(search: &SearchArgs, ctx: &'a Context) -> Stopwatch<'a> {
        Stopwatch {
            ctx,
            timeout: search.timeout,
        }
    }

    /// The limit a build must stop on now, if any: Ctrl-C, then the clock.
    pub fn limit(&self) -> Option<Limit> {
        if self.ctx.cancel.load(Ordering::Relaxed) {
            return Some(Limit::Cancelled);
        }
        let late = self
            .timeout
            .is_some_and(|t| self.ctx.started.elapsed() >= t);
        late.then_some(Limit::Time)
    }

    /// The outcome of a command stopped during its build: cancelled, or out of time.
    pub fn stopped<S, M>(&self) -> Outcome<S, M> {
        let limit = if self.ctx.cancel.load(Ordering::Relaxed) {
            Limit::Cancelled
        } else {
            Limit::Time
        };
        Outcome::Stopped {
            limit,
            stats: Stats {
                seconds: self.ctx.seconds(),
                ..Stats::default()
            },
        }
    }
}

/// A bar on stderr for building a table, drawn from its first update on.
pub struct BuildBar {
    bar: ProgressBar,
    ticking: AtomicBool,
}

impl BuildBar {
    /// A bar, or `None` where none should be drawn (stderr not a terminal, or `--quiet`).
    pub fn new(ctx: &Context, quiet: bool) -> Option<BuildBar> {
        (!quiet && ctx.stderr_is_terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:30}] {percent}% {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            BuildBar {
                bar,
                ticking: AtomicBool::new(false),
            }
        })
    }

    /// Shows `done` of `total` with `message`.
    pub fn update(&self, done: u64, total: u64, message: String) {
        if !self.ticking.swap(true, Ordering::Relaxed) {
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
        self.bar.set_length(total.max(1));
        self.bar.set_position(done);
        self.bar.set_message(message);
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
