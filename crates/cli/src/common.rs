//! What every command shares: the search flags, running a solver with limits, progress and
//! Ctrl-C, and printing the answer as text or JSON with the right exit code.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::hash::Hash;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use frontier_search::{
    bytes_per_state, explore, Algorithm, Config, Exploration, Limit, Outcome, Progress, Reversible,
    Solution, Space, Stats, Status, MAX_WEIGHT,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};

/// The shared flags as `frontier explore` shows them (`Command::mut_args`): the solver and the
/// weight hidden (an exploration visits every state; they are refused), and the limits worded
/// for a count instead of a search.
pub fn for_exploring(arg: clap::Arg) -> clap::Arg {
    match arg.get_id().as_str() {
        "algo" | "weight" => arg.hide(true),
        "max_depth" => arg.help("Count the states at most N moves away"),
        "max_states" => arg.help(
            "Stop once more than N states are stored, at most one expansion's successors past N \
             [default: about half of the available memory]",
        ),
        _ => arg,
    }
}

/// The flags shared by every solving command.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SearchArgs {
    /// The solver [default: the domain's fastest solver that returns a shortest or cheapest solution]
    #[arg(long, value_enum)]
    pub algo: Option<Algo>,
    /// Consider no solution longer than N moves
    #[arg(long, value_name = "N", value_parser = parse_moves, allow_negative_numbers = true)]
    pub max_depth: Option<u32>,
    /// Stop once more than N states are stored, at most one expansion's successors past N (ucs
    /// and astar count their open list's entries too; iddfs and idastar store none, and it
    /// bounds their path) [default: about half of the available memory]
    #[arg(long, value_name = "N", value_parser = parse_states, allow_negative_numbers = true)]
    pub max_states: Option<u64>,
    /// Stop after SECONDS (fractions allowed), counted from the start of the command: reading
    /// the input and building tables count too
    // Hyphen values reach the parser, which explains them: clap took `-inf` for a flag.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Worker threads for the solvers that run in parallel [default: 1; more than the
    /// machine's logical CPUs are not started]
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_threads,
        allow_negative_numbers = true
    )]
    pub threads: Option<u16>,
    /// Weighted search for astar, idastar and the tiles' own IDA*: rank states by g + W x h,
    /// so that the answer comes sooner and costs at most W times the cheapest [default: 1,
    /// exact]
    #[arg(long, value_name = "W", value_parser = parse_weight, allow_negative_numbers = true)]
    pub weight: Option<f64>,
    /// Print search statistics
    #[arg(long)]
    pub stats: bool,
    /// Print one JSON object on stdout instead of text
    #[arg(long)]
    pub json: bool,
    /// Print only the answer (the moves, a river plan one trip a line; for explore, the count
    /// at each depth and the total, which says whether it is the whole reachable set): no
    /// titles, drawings or progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

/// How messages name an input: its path (any bytes that are not UTF-8 shown as `�`, line
/// breaks escaped like `\u{a}` so that the name stays on its line), or `<stdin>` for `-`.
pub fn input_name(input: &OsStr) -> String {
    if input == "-" {
        return "<stdin>".to_owned();
    }
    let mut name = String::new();
    for c in input.to_string_lossy().chars() {
        if matches!(c, '\n' | '\r') {
            name.extend(c.escape_unicode());
        } else {
            name.push(c);
        }
    }
    name
}

/// An I/O error as a person reads it: the system's words without their "(os error 2)".
fn plain(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_owned(),
        _ => text,
    }
}

/// Reading the input ended by a limit before the input came: `--timeout` or Ctrl-C. `main`
/// reports it as a limit, exit 3 (130 for Ctrl-C), not as bad input.
#[derive(Debug)]
pub struct InputStopped {
    /// [`Limit::Time`] or [`Limit::Cancelled`].
    pub limit: Limit,
    /// The input, as [`input_name`] gives it.
    pub name: String,
    /// The command's seconds when it stopped.
    pub seconds: f64,
}

impl std::fmt::Display for InputStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.limit {
            Limit::Cancelled => write!(f, "interrupted while reading {}", self.name),
            _ => write!(
                f,
                "stopped by --timeout after {:.1} s while reading {} (it was still waiting for \
                 input); raise it to wait longer",
                self.seconds, self.name
            ),
        }
    }
}

impl std::error::Error for InputStopped {}

impl InputStopped {
    /// The exit code: 130 for Ctrl-C, else 3.
    pub fn exit_code(&self) -> ExitCode {
        exit_code(Status::Limit(self.limit))
    }
}

/// How often a wait for input looks at the clock and the Ctrl-C flag.
const INPUT_TICK: Duration = Duration::from_millis(20);

/// Reads a puzzle file, or standard input for `-`, refusing more than `limit` bytes: no
/// input, however large (`/dev/zero`, `yes | frontier board -`), may take all the memory.
/// `what` names the content in the error: "a board file".
///
/// The file is opened and read on a thread of its own while this one watches `search`'s
/// `--timeout` (counted from the command's start) and Ctrl-C: a pipe that never writes, or a
/// named pipe that no one opens (opening it waits for a writer), ends the command with
/// [`InputStopped`] at the deadline. The reading thread, still blocked, ends with the process.
pub fn read_input(
    input: &OsStr,
    what: &str,
    limit: u64,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    use std::sync::mpsc;
    let name = input_name(input);
    let path = input.to_owned();
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("read-input".to_owned())
        .spawn(move || {
            let mut bytes = Vec::new();
            let read = if path == "-" {
                io::stdin().lock().take(limit + 1).read_to_end(&mut bytes)
            } else {
                std::fs::File::open(&path)
                    .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
            };
            // The receiver is gone only when the command stopped waiting.
            let _ = sender.send(read.map(|_| bytes));
        })
        .map_err(|e| anyhow::anyhow!("cannot read {name}: {}", plain(&e)))?;
    let read = loop {
        match receiver.recv_timeout(INPUT_TICK) {
            Ok(read) => break read,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("cannot read {name}: the reading thread stopped")
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let limit = if ctx.cancel.load(Ordering::Relaxed) {
            Limit::Cancelled
        } else if search.timeout.is_some_and(|t| ctx.started.elapsed() >= t) {
            Limit::Time
        } else {
            continue;
        };
        return Err(InputStopped {
            limit,
            name,
            seconds: ctx.seconds(),
        }
        .into());
    };
    let bytes = read.map_err(|e| anyhow::anyhow!("cannot read {name}: {}", plain(&e)))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{name}: more than {} MiB; {what} is never that large",
            limit >> 20
        );
    }
    Ok(bytes)
}

/// The generic solvers a user can pick with `--algo`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// Depth-first: a solution, not necessarily shortest
    Dfs,
    /// Breadth-first: fewest moves
    Bfs,
    /// Iterative deepening: fewest moves, little memory
    Iddfs,
    /// Uniform cost (Dijkstra): cheapest
    Ucs,
    /// A*: cheapest, guided by the domain's heuristic
    Astar,
    /// IDA*: cheapest, little memory
    Idastar,
    /// Breadth-first from both ends: fewest moves
    Bidirectional,
}

impl Algo {
    /// The engine's solver of that name.
    pub fn algorithm(self) -> Algorithm {
        match self {
            Algo::Dfs => Algorithm::Dfs,
            Algo::Bfs => Algorithm::Bfs,
            Algo::Iddfs => Algorithm::Iddfs,
            Algo::Ucs => Algorithm::Ucs,
            Algo::Astar => Algorithm::Astar,
            Algo::Idastar => Algorithm::Idastar,
            Algo::Bidirectional => Algorithm::Bidirectional,
        }
    }

    /// Whether it ranks states by a heuristic, and so takes `--weight`.
    pub fn is_informed(self) -> bool {
        self.algorithm().is_informed()
    }

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        self.algorithm().name()
    }
}

/// Reads `--weight`: from 1 to the engine's [`MAX_WEIGHT`].
fn parse_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(w) if (1.0..=MAX_WEIGHT).contains(&w) => Ok(w),
        _ => Err(format!(
            "'{text}' is not a weight: a number from 1 (exact) to {MAX_WEIGHT}"
        )),
    }
}

/// A whole number of `what` from `least` to `most`, or a message that says what it should be.
fn parse_whole(text: &str, what: &str, least: u64, most: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (least..=most).contains(&n) => Ok(n),
        _ if most == u64::MAX => Err(format!(
            "'{text}' is not a whole number of {what}, {least} or more (at most {most})"
        )),
        _ => Err(format!(
            "'{text}' is not a whole number of {what} from {least} to {most}"
        )),
    }
}

fn parse_moves(text: &str) -> Result<u32, String> {
    parse_whole(text, "moves", 0, u32::MAX.into()).map(|n| n as u32)
}

fn parse_states(text: &str) -> Result<u64, String> {
    parse_whole(text, "states", 0, u64::MAX)
}

fn parse_threads(text: &str) -> Result<u16, String> {
    parse_whole(text, "threads", 1, u16::MAX.into()).map(|n| n as u16)
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if seconds.is_nan() || seconds < 0.0 {
        return Err(format!("'{text}' is not a number of seconds, 0 or more"));
    }
    // Longer than a Duration holds (about 585 billion years): as good as no limit.
    Ok(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
}

/// The fraction of the available memory a search may fill by default.
const MEMORY_SHARE: f64 = 0.5;

/// What a level of a tree search's path (`iddfs`, `idastar`) is budgeted at: its frame on the
/// stack, the space's successor callback inlined in it. Measured: 345 bytes on a board
/// (`--algo idastar` on one row of 2 million cells peaked at 691 MB); budgeted at three times
/// that, since other spaces inline other code.
const PATH_LEVEL_BYTES: u64 = 1024;

/// Bytes of memory available to this process: the least of `MemAvailable` (from
/// `/proc/meminfo`), the room left under the memory limits of its cgroup (a container's) and
/// the room left under its address-space limit (`ulimit -v`), or 8 GiB where none can be read.
fn available_memory() -> u64 {
    let from_meminfo = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        });
    let from_cgroup = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|text| cgroup_room(std::path::Path::new("/sys/fs/cgroup"), &text));
    let from_ulimit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let cpus = std::thread::available_parallelism().map_or(1, usize::from);
            address_space_room(&limits, &status, cpus as u64)
        });
    [from_meminfo, from_cgroup, from_ulimit]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(8 << 30)
}

/// Address space a worker thread takes beyond what it stores: its malloc arena (glibc
/// reserves 64 MiB a thread) and its stack.
const THREAD_ADDRESS_SPACE: u64 = 72 << 20;

/// The room left under the soft limits that `limits` (the text of `/proc/self/limits`) puts
/// on the address space (`ulimit -v`) and on the data segment (`ulimit -d`, which covers
/// anonymous mappings too): each limit less what is in use, `VmSize` or `VmData` in `status`
/// (the text of `/proc/self/status`), less the address space that up to `cpus` worker threads
/// and one more arena being set up may take. `None` without a limit. Under `ulimit -v` a
/// search budgeted on the machine's memory alone aborted when an allocation failed (exit
/// 134); so did the cube's table build, its workers' arenas unaccounted for.
fn address_space_room(limits: &str, status: &str, cpus: u64) -> Option<u64> {
    let room = |limit: &str, used: &str| -> Option<u64> {
        let soft = limits
            .lines()
            .find_map(|line| line.strip_prefix(limit))?
            .split_whitespace()
            .next()?
            .parse::<u64>()
            .ok()?;
        let used_kib = status
            .lines()
            .find_map(|line| line.strip_prefix(used))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0);
        let threads = (cpus + 1).saturating_mul(THREAD_ADDRESS_SPACE);
        Some(
            soft.saturating_sub(used_kib.saturating_mul(1024))
                .saturating_sub(threads),
        )
    };
    match (
        room("Max address space", "VmSize:"),
        room("Max data size", "VmData:"),
    ) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The room left under the cgroup v2 memory limits (`memory.max`) of the group that
/// `proc_cgroup` (the text of `/proc/self/cgroup`) names and of its ancestors, in the hierarchy
/// mounted at `root`: the least of each limit less the group's anonymous memory (page cache
/// can be reclaimed). `None` without a v2 group or a limit.
fn cgroup_room(root: &std::path::Path, proc_cgroup: &str) -> Option<u64> {
    let read = |dir: &std::path::Path, file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let group = proc_cgroup
        .lines()
        .find_map(|line| line.strip_prefix("0::"))?;
    let mut dir = root.join(group.trim().trim_start_matches('/'));
    let mut least: Option<u64> = None;
    while dir.starts_with(root) {
        // "max" (no limit) does not parse.
        if let Some(max) = read(&dir, "memory.max").and_then(|t| t.trim().parse::<u64>().ok()) {
            let stat = read(&dir, "memory.stat").unwrap_or_default();
            let anon = stat.lines().find_map(|line| line.strip_prefix("anon "));
            let used = anon
                .or(read(&dir, "memory.current").as_deref())
                .and_then(|t| t.trim().parse::<u64>().ok())
                .unwrap_or(0);
            let room = max.saturating_sub(used);
            least = Some(least.map_or(room, |l| l.min(room)));
        }
        if !dir.pop() {
            break;
        }
    }
    least
}

/// How soon after a Ctrl-C another signal counts as the same press (see [`Context::new`]).
const SAME_PRESS: Duration = Duration::from_millis(500);

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
    /// the process and then its group, and the statistics were lost in 2 runs of 10.
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

fn progress_message(p: &Progress) -> String {
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

    /// Whether a build must stop now: Ctrl-C was pressed or the time is up.
    pub fn stop(&self) -> bool {
        self.limit().is_some()
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

/// A count with thousands separators: `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The warning for a `--max-states` of `max` states of `per_state` bytes each, more than the
/// `available` bytes of memory hold.
fn past_memory_warning(max: u64, per_state: u64, available: u64) -> String {
    format!(
        "warning: --max-states {}: that many states may take {} MiB, more than the {} MiB of \
         memory available; the search may run out of memory before it reaches the limit \
         (without --max-states, the budget is about half the available memory)",
        count(max),
        count(max.saturating_mul(per_state) >> 20),
        count(available >> 20)
    )
}

impl SearchArgs {
    /// The state budget: `--max-states`, or what fits in about half the available memory.
    /// A `--max-states` whose states would not fit in all of the available memory is kept, with
    /// a warning (once) that the search may run out of memory before it reaches the limit.
    pub fn state_budget<S, M>(&self) -> u64 {
        let per_state = bytes_per_state::<S, M>();
        match self.max_states {
            Some(max) => {
                let available = available_memory();
                if max.saturating_mul(per_state) > available {
                    static WARNED: std::sync::Once = std::sync::Once::new();
                    WARNED.call_once(|| to_stderr(past_memory_warning(max, per_state, available)));
                }
                max
            }
            None => Self::memory_budget() / per_state,
        }
    }

    /// The bytes a search may hold by default: about half the available memory.
    pub fn memory_budget() -> u64 {
        (available_memory() as f64 * MEMORY_SHARE) as u64
    }

    /// These flags turned into the search for a short answer that runs before a solver's
    /// tables are loaded or built: bidirectional, unweighted, within `most` moves (or
    /// `--max-depth`, if less).
    pub fn short(&self, most: u32) -> SearchArgs {
        SearchArgs {
            algo: Some(Algo::Bidirectional),
            max_depth: Some(self.max_depth.map_or(most, |depth| depth.min(most))),
            weight: None,
            ..self.clone()
        }
    }

    /// Whether a [short](SearchArgs::short) search within `most` moves that ended as `status`
    /// leaves the answer to the tables: nothing lies within `most` moves and `--max-depth`
    /// allows more, or the state budget is too small for the search (and so for the tables,
    /// which then say so).
    pub fn past_short(&self, status: Status, most: u32) -> bool {
        match status {
            Status::Limit(Limit::Depth) => self.max_depth.is_none_or(|depth| depth > most),
            Status::Limit(Limit::States) => true,
            _ => false,
        }
    }

    /// The bytes a solver's tables may take: a byte counts as a stored state, so that
    /// `--max-states N` allows N bytes (never more memory than N states of a search take), and
    /// the default allows what the default state budget allows a search: about half the
    /// available memory.
    pub fn table_budget(&self) -> u64 {
        self.max_states.unwrap_or_else(Self::memory_budget)
    }

    /// The worker threads to start: `--threads`, but no more than the machine's logical CPUs.
    /// More never helps, and thousands of them (the flag takes up to 65,535) swamped the
    /// machine: the 8-puzzle's BFS took 108 s on 4,000 threads against 0.04 s on 2, running
    /// far past `--timeout`.
    pub fn worker_threads(&self) -> usize {
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        usize::from(self.threads.unwrap_or(1)).min(cpus)
    }

    /// Refuses `--weight` for `solver` unless it `weighs` a heuristic (A*, IDA*).
    pub fn check_weight(&self, solver: &str, weighs: bool) -> anyhow::Result<()> {
        if self.weight.is_some() && !weighs {
            anyhow::bail!(
                "--weight applies to the heuristic solvers (--algo astar or idastar), not to {solver}"
            );
        }
        Ok(())
    }

    /// Refuses the flags that choose how to solve (`--algo`, `--weight`) where nothing is
    /// solved: an exploration visits every reachable state whatever the solver.
    pub fn refuse_solver_flags(&self) -> anyhow::Result<()> {
        if self.algo.is_some() || self.weight.is_some() {
            anyhow::bail!(
                "explore counts every reachable state; --algo and --weight choose how to solve, so they do not apply"
            );
        }
        Ok(())
    }

    /// The engine configuration these flags ask for, with the Ctrl-C flag and progress bar.
    pub fn config<S, M>(&self, ctx: &Context) -> Config {
        let mut config = Config::default()
            .max_states(self.state_budget::<S, M>())
            .cancel(Arc::clone(&ctx.cancel))
            .threads(self.worker_threads());
        config.max_depth = self.max_depth;
        // What is left of it: the clock started with the command, before the input was read
        // (a 27 MB river file takes seconds) and before any table was built.
        config.timeout = self
            .timeout
            .map(|t| t.saturating_sub(ctx.started.elapsed()));
        config.weight = self.weight;
        if let Some(observer) = ctx.progress_observer(self.quiet) {
            config = config.progress(observer);
        }
        config
    }

    /// Runs `--algo` (or `default`) on `space` and returns the algorithm used and its outcome.
    pub fn solve<P>(
        &self,
        ctx: &Context,
        space: &P,
        default: Algo,
    ) -> (Algo, Outcome<P::State, P::Move>)
    where
        P: Reversible + Sync,
        P::State: Hash + Eq + Send + Sync,
        P::Move: Send + Sync,
    {
        let algo = self.algo.unwrap_or(default);
        let mut config = self.config::<P::State, P::Move>(ctx);
        if algo.algorithm().is_tree_search() && self.max_states.is_none() {
            // The tree searches hold a path, not a store: budget its levels.
            config.max_states = Some(Self::memory_budget() / PATH_LEVEL_BYTES);
        }
        let mut outcome = frontier_search::solve(space, algo.algorithm(), &config);
        ctx.clear_progress();
        outcome.stats_mut().seconds = ctx.seconds();
        (algo, outcome)
    }

    /// Counts the states reachable from `space`'s start, layer by layer.
    pub fn explore<P>(&self, ctx: &Context, space: &P) -> Exploration
    where
        P: Space + Sync,
        P::State: Hash + Eq + Send + Sync,
    {
        let mut exploration = explore(space, &self.config::<P::State, ()>(ctx));
        ctx.clear_progress();
        exploration.stats.seconds = ctx.seconds();
        exploration
    }
}

/// The exit code for a search's status: 0 solved, 1 unsolvable, 3 a limit, 130 cancelled.
pub fn exit_code(status: Status) -> ExitCode {
    match status {
        Status::Solved => ExitCode::SUCCESS,
        Status::Exhausted => ExitCode::from(1),
        Status::Limit(Limit::Cancelled) => ExitCode::from(130),
        Status::Limit(_) => ExitCode::from(3),
    }
}

fn stats_json(stats: &Stats) -> Value {
    json!({
        "expanded": stats.expanded,
        "generated": stats.generated,
        "stored": stats.stored,
        "seconds": stats.seconds,
    })
}

/// A solution's moves as a JSON array, each turned into JSON (by the function) as it is
/// written.
struct JsonMoves<'a, M, F>(&'a [M], &'a F);

impl<M, F: Fn(&M) -> Value> serde::Serialize for JsonMoves<'_, M, F> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(self.1))
    }
}

/// The `--stats` line: `stats: 12 expanded, ... 0.001 s (12,000/s)`.
pub fn stats_line(stats: &Stats) -> String {
    format!(
        "stats: {} expanded, {} generated, {} stored, peak frontier {}, {:.3} s ({}/s)",
        count(stats.expanded),
        count(stats.generated),
        count(stats.stored),
        count(stats.peak_frontier),
        stats.seconds,
        count((stats.expanded as f64 / stats.seconds.max(1e-9)) as u64),
    )
}

/// `n` of `noun`, which takes an s in the plural: "1 move", "3 moves".
pub fn plural(n: impl Into<u64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// What to tell the user about a limit, with the flag that raises it; `algorithm` names the
/// solver that stopped, if a search did.
pub fn limit_message(
    limit: Limit,
    args: &SearchArgs,
    stats: &Stats,
    algorithm: Option<&str>,
) -> String {
    // ucs and astar count the entries of their open list against the budget too.
    let queued = [Algo::Ucs.name(), Algo::Astar.name()]
        .iter()
        .any(|&name| algorithm == Some(name));
    let tree = [Algo::Iddfs.name(), Algo::Idastar.name()]
        .iter()
        .any(|&name| algorithm == Some(name));
    let stored = if queued {
        format!("{} and the entries of its open list", states(stats.stored))
    } else {
        states(stats.stored)
    };
    match limit {
        // dfs never enters a state twice, so one first reached deep hides the shorter paths
        // through it: its depth limit proves nothing (entering states again to make it
        // complete took hundreds of expansions a state).
        Limit::Depth if algorithm == Some(Algo::Dfs.name()) => format!(
            "dfs found no solution within {} (--max-depth); it enters each state once, so one \
             may exist: bfs or iddfs search every path within the depth",
            plural(args.max_depth.unwrap_or(0), "move")
        ),
        Limit::Depth => format!(
            "no solution found within {} (--max-depth); raise it to search deeper",
            plural(args.max_depth.unwrap_or(0), "move")
        ),
        // The tree searches store no states: the budget bounds the path they hold.
        Limit::States if tree => match args.max_states {
            Some(max) => format!(
                "stopped where the path would pass {} (--max-states bounds the path of {}, which \
                 stores no states); raise it to search deeper",
                states(max),
                algorithm.unwrap_or("the search")
            ),
            None => format!(
                "stopped where the path would pass the default budget of a kilobyte a move \
                 ({}); raise it with --max-states N",
                states(stats.peak_frontier)
            ),
        },
        Limit::States if args.max_states.is_none() => format!(
            "stopped after storing {stored}, the default budget of about half the available \
             memory; raise it with --max-states N"
        ),
        Limit::States => {
            format!("stopped after storing {stored} (--max-states); raise it to search further")
        }
        Limit::Time => format!(
            "stopped by --timeout after {:.1} s; raise it to search longer",
            stats.seconds
        ),
        Limit::Cancelled => "interrupted".to_owned(),
    }
}

/// What to tell the user about a proof of unsolvability, which depends on how it was found.
fn unsolvable_message(algorithm: &str, args: &SearchArgs, stats: &Stats) -> String {
    let cost_driven = [Algo::Ucs.name(), Algo::Astar.name()].contains(&algorithm);
    if cost_driven && args.max_depth.is_some() {
        // Under a depth limit they may store a state once for each depth they reach it at.
        format!(
            "unsolvable: every reachable state was examined and none is a goal ({} stored, a \
             state again wherever a path within --max-depth reached it in fewer moves or for \
             less)",
            states(stats.stored)
        )
    } else if algorithm == Algo::Bidirectional.name() {
        format!(
            "unsolvable: the search from the start and the search back from the goals ran out \
             of states without meeting ({} stored)",
            states(stats.stored)
        )
    } else if stats.stored == 0 {
        format!(
            "unsolvable: every path was followed until it ended or came back to a state it had \
             passed, without reaching a goal ({} expanded)",
            states(stats.expanded)
        )
    } else if stats.stored == 1 {
        "unsolvable: the start is the only reachable state, and it is not a goal".to_owned()
    } else {
        format!(
            "unsolvable: all {} reachable states were examined and none is a goal",
            count(stats.stored)
        )
    }
}

/// `n` states, grouped as [`count`] does: "1 state", "1,000 states".
fn states(n: u64) -> String {
    match n {
        1 => "1 state".to_owned(),
        _ => format!("{} states", count(n)),
    }
}

/// The tables a solver needs before it can search (pattern databases, pruning tables), for
/// refusing those that the memory budget does not allow.
pub struct TableNeed {
    /// The domain and the solver, for the JSON answer.
    pub domain: &'static str,
    pub algorithm: &'static str,
    /// What takes the memory: "building the pattern databases (split 6-6-3)".
    pub what: String,
    /// The bytes they take.
    pub bytes: u64,
    /// The ways around them, which the message follows with "or raise --max-states".
    pub instead: &'static str,
}

impl TableNeed {
    /// Refuses tables past [`SearchArgs::table_budget`] as a limit (exit 3) that says what they
    /// need and how to proceed; `None` when they fit. The check is made whether or not the
    /// tables are cached, so that the answer does not depend on the cache.
    pub fn refuse_beyond(
        &self,
        ctx: &Context,
        search: &SearchArgs,
    ) -> anyhow::Result<Option<ExitCode>> {
        let budget = search.table_budget();
        if self.bytes <= budget {
            return Ok(None);
        }
        if search.json {
            let outcome: Outcome<(), ()> = Outcome::Stopped {
                limit: Limit::States,
                stats: Stats::default(),
            };
            let (domain, algorithm) = (self.domain, self.algorithm);
            let code = report(
                ctx,
                search,
                domain,
                algorithm,
                &outcome,
                |_| Value::Null,
                |_, _| Ok(()),
            );
            return code.map(Some);
        }
        let (limit, raise) = match search.max_states {
            Some(n) => (
                format!("more than --max-states {} allows", count(n)),
                "raise --max-states",
            ),
            None => (
                format!(
                    "more than the default budget of {} bytes (about half the available memory)",
                    count(budget)
                ),
                "raise the budget with --max-states N",
            ),
        };
        ctx.clear_progress();
        emit(|out| {
            writeln!(
                out,
                "no answer: {} takes {} bytes: {limit}",
                self.what,
                count(self.bytes)
            )?;
            writeln!(
                out,
                "{}, or {raise} (a byte of a table counts as a stored state)",
                self.instead
            )
        })?;
        Ok(Some(ExitCode::from(3)))
    }
}

/// Prints one warning line on stderr for each table whose cached file was damaged (and
/// rebuilt) or that could not be cached: always, since each costs a build, not only on a
/// terminal and not only without `--quiet`.
pub fn warn_tables<'a>(reports: impl IntoIterator<Item = &'a frontier_tables::TableReport>) {
    for warning in reports.into_iter().filter_map(|r| r.warning()) {
        to_stderr(format_args!("warning: {warning}"));
    }
}

/// Writes a line to stderr. A stderr that cannot take it (a full disk, a pipe whose reader
/// is gone) loses the line: `eprintln!` would panic there, turning an exit code of 1 or 2
/// into 101.
pub fn to_stderr(line: impl std::fmt::Display) {
    // Messages quote the user's input: its control and bidirectional-text characters are
    // written escaped, so that a puzzle file cannot send the terminal escape sequences, and
    // its long tokens are shortened, so that a 100,000-character scramble is not echoed whole.
    let text = printable(&shorten_tokens(&line.to_string()));
    // Nowhere is left to report the failure.
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// The longest token (a run of characters without whitespace) a message shows whole: a long
/// path still fits.
const MAX_TOKEN_CHARS: usize = 200;
/// How much of a longer token a message shows, before `...` and its length.
const TOKEN_KEPT_CHARS: usize = 80;

/// `text` with every token longer than [`MAX_TOKEN_CHARS`] characters cut to its first
/// [`TOKEN_KEPT_CHARS`], then `...` and the token's length: the one rule by which every
/// command's messages shorten what they quote (the place, a line and column, is said before
/// the token and stays).
pub fn shorten_tokens(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(1 << 12));
    let mut rest = text;
    while !rest.is_empty() {
        let blank = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        out.push_str(&rest[..blank]);
        rest = &rest[blank..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        let chars = token.chars().count();
        if chars > MAX_TOKEN_CHARS {
            out.extend(token.chars().take(TOKEN_KEPT_CHARS));
            let _ = write!(out, "...({} characters)", count(chars as u64));
        } else {
            out.push_str(token);
        }
    }
    out
}

/// `text` with every control character but the line break, every character that reorders
/// text on screen (bidirectional controls) and every one that shows nothing (a byte-order mark,
/// zero-width spaces and joiners), written as an escape like `\u{1b}`: a token quoted in an
/// error then shows what is wrong with it.
pub fn printable(text: &str) -> String {
    let hidden = |c: char| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
                | '\u{feff}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{00ad}')
    };
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes to stdout; a closed pipe (`frontier ... | head`) ends the output quietly, and the
/// exit code still tells the outcome (so that `set -o pipefail` sees a limit or a failure).
pub fn emit(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => anyhow::bail!("cannot write the answer to standard output: {}", plain(&e)),
        Ok(()) => Ok(()),
    }
}

/// Prints a search's answer — JSON with `--json`, else text through `human` — and returns the
/// exit code for its status.
///
/// `algorithm` names the solver in the output; `move_json` turns a move into its JSON form;
/// `human` renders a solution for people (it is called only for a solved search).
pub fn report<S, M>(
    ctx: &Context,
    args: &SearchArgs,
    domain: &str,
    algorithm: &str,
    outcome: &Outcome<S, M>,
    move_json: impl Fn(&M) -> Value,
    human: impl FnOnce(&mut dyn Write, &Solution<S, M>) -> io::Result<()>,
) -> anyhow::Result<ExitCode> {
    ctx.clear_progress();
    if args.json {
        // Written field by field, the moves one at a time: a long answer (ten million moves
        // on a board) is never held as JSON values, which took four times the search's memory.
        emit(|out| {
            use serde::ser::{SerializeMap, Serializer};
            let mut json = serde_json::Serializer::new(&mut *out);
            let mut object = json.serialize_map(None)?;
            object.serialize_entry("domain", domain)?;
            object.serialize_entry("algorithm", algorithm)?;
            let status = match outcome.status() {
                Status::Solved => "solved",
                Status::Exhausted => "unsolvable",
                Status::Limit(_) => "limit",
            };
            object.serialize_entry("status", status)?;
            if let Status::Limit(limit) = outcome.status() {
                object.serialize_entry("limit", limit.name())?;
            }
            if let Some(solution) = outcome.solution() {
                object.serialize_entry("length", &solution.len())?;
                object.serialize_entry("cost", &solution.cost)?;
                object.serialize_entry("moves", &JsonMoves(&solution.moves, &move_json))?;
            }
            if let Some(w) = args.weight {
                object.serialize_entry("weight", &w)?;
            }
            object.serialize_entry("stats", &stats_json(outcome.stats()))?;
            object.end()?;
            writeln!(out)
        })?;
    } else {
        emit(|out| {
            match outcome {
                Outcome::Solved { solution, .. } => {
                    human(out, solution)?;
                    if let (Some(w), false) = (args.weight.filter(|&w| w > 1.0), args.quiet) {
                        writeln!(
                            out,
                            "(weighted search, W = {w}: not proven shortest; at most {w} times the cheapest)"
                        )?;
                    }
                }
                Outcome::Exhausted { stats } => {
                    writeln!(out, "{}", unsolvable_message(algorithm, args, stats))?
                }
                Outcome::Stopped { limit, stats } => {
                    writeln!(
                        out,
                        "no answer: {}",
                        limit_message(*limit, args, stats, Some(algorithm))
                    )?;
                }
            }
            if args.stats || outcome.status() == Status::Limit(Limit::Cancelled) {
                writeln!(out, "{}", stats_line(outcome.stats()))?;
            }
            Ok(())
        })?;
    }
    Ok(exit_code(outcome.status()))
}

/// Prints an exploration: the number of states at each distance, as a table or as JSON.
pub fn report_exploration(
    ctx: &Context,
    args: &SearchArgs,
    domain: &str,
    exploration: &Exploration,
) -> anyhow::Result<ExitCode> {
    ctx.clear_progress();
    let complete = exploration.is_complete();
    // A limit other than the depth stops the search inside its last layer.
    let partial = matches!(exploration.status(), Status::Limit(l) if l != Limit::Depth);
    if args.json {
        let mut object = json!({
            "domain": domain,
            "layers": exploration.layers,
            "states": exploration.states(),
            "complete": complete,
            "stats": stats_json(&exploration.stats),
        });
        // Which limit left it incomplete, named as a search's JSON names it, and whether it
        // stopped inside the last layer (whose count is then a part of it).
        if let Status::Limit(limit) = exploration.status() {
            object["limit"] = json!(limit.name());
            object["last_layer_partial"] = json!(partial);
        }
        emit(|out| writeln!(out, "{object}"))?;
    } else {
        emit(|out| {
            if !args.quiet {
                writeln!(out, "{:>5}  {:>15}", "depth", "states")?;
            }
            let last = exploration.layers.len().saturating_sub(1);
            for (depth, states) in exploration.layers.iter().enumerate() {
                let note = if partial && depth == last {
                    "  (partial: the search stopped in this layer)"
                } else {
                    ""
                };
                writeln!(out, "{depth:>5}  {:>15}{note}", count(*states))?;
            }
            let total = match exploration.states() {
                1 => "1 state".to_owned(),
                n => format!("{} states", count(n)),
            };
            match exploration.status() {
                Status::Exhausted => writeln!(out, "total {total}: the whole reachable set")?,
                Status::Limit(Limit::Depth) => writeln!(
                    out,
                    "total {total} within {} moves (more lie deeper)",
                    exploration.layers.len().saturating_sub(1)
                )?,
                Status::Limit(limit) => writeln!(
                    out,
                    "total {total} counted, incomplete: {}",
                    limit_message(limit, args, &exploration.stats, None)
                )?,
                Status::Solved => {}
            }
            if args.stats || exploration.status() == Status::Limit(Limit::Cancelled) {
                writeln!(out, "{}", stats_line(&exploration.stats))?;
            }
            Ok(())
        })?;
    }
    // Counting everything, or everything up to the requested depth, is the job done.
    Ok(match exploration.status() {
        Status::Exhausted | Status::Limit(Limit::Depth) => ExitCode::SUCCESS,
        status => exit_code(status),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_is_named_on_one_line() {
        assert_eq!(input_name(OsStr::new("-")), "<stdin>");
        assert_eq!(input_name(OsStr::new("a\nb\r.txt")), "a\\u{a}b\\u{d}.txt");
        assert_eq!(input_name(OsStr::new("dir/é b.toml")), "dir/é b.toml");
    }

    #[test]
    fn long_tokens_are_shortened_and_the_rest_kept() {
        let long = format!("\"R2{}\"", "'".repeat(100_001));
        let message = format!("column 3: {long} is not a valid move;\n  write R");
        let short = shorten_tokens(&message);
        let kept: String = long.chars().take(TOKEN_KEPT_CHARS).collect();
        assert_eq!(
            short,
            format!("column 3: {kept}...(100,005 characters) is not a valid move;\n  write R")
        );
        // A token of the longest length shown whole is kept, and so is the spacing.
        let path = "p".repeat(MAX_TOKEN_CHARS);
        assert_eq!(
            shorten_tokens(&format!(" {path}\t x ")),
            format!(" {path}\t x ")
        );
        assert_eq!(shorten_tokens(""), "");
    }

    #[test]
    fn messages_escape_what_would_steer_the_terminal() {
        assert_eq!(
            printable("rule 1 \"a \u{1b}[31m b\"\nnext line"),
            "rule 1 \"a \\u{1b}[31m b\"\nnext line"
        );
        assert_eq!(printable("x\u{202e}y é"), "x\\u{202e}y é");
        assert_eq!(printable("\u{feff}8 is"), "\\u{feff}8 is");
    }

    #[test]
    fn the_memory_budget_keeps_within_the_address_space_limit() {
        // The layout of /proc/self/limits and /proc/self/status (abridged).
        let limits = |soft: &str| {
            format!(
                "Limit                     Soft Limit           Hard Limit           Units\n\
                 Max stack size            8388608              unlimited            bytes\n\
                 Max address space         {soft:<20} unlimited            bytes\n"
            )
        };
        let status = "Name:\tfrontier\nVmPeak:\t  300000 kB\nVmSize:\t  200000 kB\n";
        let limited = limits("1500000000");
        // Two CPUs: two workers and an arena being set up, 72 MiB each.
        let threads = 3 * THREAD_ADDRESS_SPACE;
        assert_eq!(
            address_space_room(&limited, status, 2),
            Some(1_500_000_000 - 200_000 * 1024 - threads)
        );
        assert_eq!(address_space_room(&limits("unlimited"), status, 2), None);
        // A limit below what is in use leaves no room; an unreadable status counts none used.
        assert_eq!(address_space_room(&limits("1000"), status, 2), Some(0));
        assert_eq!(
            address_space_room(&limited, "", 2),
            Some(1_500_000_000 - threads)
        );
        // The data limit (ulimit -d) counts against the data segment in use.
        let both = format!(
            "{limited}Max data size             900000000            unlimited            bytes\n"
        );
        let status = format!("{status}VmData:\t  100000 kB\n");
        assert_eq!(
            address_space_room(&both, &status, 2),
            Some(900_000_000 - 100_000 * 1024 - threads)
        );
    }

    #[test]
    fn the_memory_budget_keeps_within_the_cgroup_limits() {
        let root = std::env::temp_dir().join(format!("frontier-cgroup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (outer, inner) = (root.join("a"), root.join("a/b"));
        std::fs::create_dir_all(&inner).unwrap();
        let write = |dir: &std::path::Path, file: &str, text: &str| {
            std::fs::write(dir.join(file), text).unwrap();
        };
        // The outer group: 1,000,000 bytes, 200,000 of them taken by anonymous memory (the
        // page cache, reclaimable, does not count).
        write(&outer, "memory.max", "1000000\n");
        write(&outer, "memory.stat", "file 700000\nanon 200000\n");
        write(&inner, "memory.max", "max\n");
        let proc_cgroup = "0::/a/b\n";
        assert_eq!(cgroup_room(&root, proc_cgroup), Some(800_000));
        // A tighter inner limit wins; without memory.stat, memory.current counts.
        write(&inner, "memory.max", "500000\n");
        write(&inner, "memory.current", "150000\n");
        assert_eq!(cgroup_room(&root, proc_cgroup), Some(350_000));
        // No limit, or no v2 group: nothing to say.
        write(&outer, "memory.max", "max\n");
        write(&inner, "memory.max", "max\n");
        assert_eq!(cgroup_room(&root, proc_cgroup), None);
        assert_eq!(cgroup_room(&root, "1:memory:/a/b\n"), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn io_errors_lose_their_error_numbers() {
        let missing = io::Error::from_raw_os_error(2);
        assert!(missing.to_string().ends_with("(os error 2)"), "{missing}");
        assert_eq!(plain(&missing), "No such file or directory");
        let own = io::Error::other("a message (of ours)");
        assert_eq!(plain(&own), "a message (of ours)");
    }

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(181_440), "181,440");
        assert_eq!(count(1_234_567), "1,234,567");
    }

    #[test]
    fn seconds_must_be_positive_numbers() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("soon").is_err());
        assert!(parse_seconds("NaN").is_err());
    }

    #[test]
    fn default_budget_scales_with_state_size() {
        let args = SearchArgs::default();
        assert!(args.state_budget::<u8, ()>() > args.state_budget::<[u64; 8], ()>());
        let capped = SearchArgs {
            max_states: Some(10),
            ..SearchArgs::default()
        };
        assert_eq!(capped.state_budget::<u8, ()>(), 10);
    }
}
