//! The search flags shared by every command (`SearchArgs`, `--algo`) and their value parsers.

use std::hash::Hash;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use frontier_search::{
    bytes_per_state, explore, Algorithm, Config, Exploration, Limit, Outcome, Reversible, Space,
    Status, MAX_WEIGHT,
};

use super::*;
use crate::pictures::Scale;

/// The shared flags as `frontier explore` shows them (`Command::mut_args`): the solver and the
/// weight hidden (an exploration visits every state; they are refused), and the limits worded
/// for a count instead of a search.
pub fn for_exploring(arg: clap::Arg) -> clap::Arg {
    match arg.get_id().as_str() {
        "algo" | "weight" | "tree" | "compare" => arg.hide(true),
        "svg" => arg.help("Also write a bar chart of the states at each distance as SVG to FILE"),
        "png" => arg.help("Also write the bar chart as a PNG image to FILE"),
        "scale" => arg.hide(false),
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
    /// Instead of solving, draw the first DEPTH levels of the search tree from the start, as
    /// the board seed's drawForest does: each move with a short name of its state, repeated
    /// states marked (at most 500 nodes drawn)
    #[arg(long, value_name = "DEPTH", value_parser = parse_tree_depth)]
    pub tree: Option<u32>,
    /// Instead of one answer, solve with each listed solver in turn (default: all of them,
    /// and tree-bfs, breadth-first search without a seen-set) under the same limits, each
    /// --timeout counted from its own start, and print one table of what each did
    #[arg(
        long,
        value_name = "ALGO,...",
        num_args = 0..=1,
        default_missing_value = "",
        require_equals = false
    )]
    pub compare: Option<String>,
    /// Also write a picture of the answer as SVG to FILE (cube and tiles: the start and the
    /// end, or every move with --show; board: the route; river: the plan, a row a crossing;
    /// perm: the positions), the path checked before solving
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tree", "compare"])]
    pub svg: Option<PathBuf>,
    /// Also write the picture as a PNG image to FILE
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tree", "compare"])]
    pub png: Option<PathBuf>,
    /// The chart's vertical scale: log (every layer shows, from the start's single state to
    /// the widest) or linear (heights in proportion to the counts) [default: log]
    // Shown by `explore` only (`for_exploring`); the solving commands refuse it.
    #[arg(long, value_enum, hide = true)]
    pub scale: Option<Scale>,
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
    /// Breadth-first without a seen-set, every path queued (the board seed's first program):
    /// fewest moves, slowly; a baseline for --compare
    #[value(name = "tree-bfs")]
    TreeBfs,
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
            Algo::TreeBfs => Algorithm::TreeBfs,
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

/// Reads `--tree`: 1 to 64 levels (the drawing holds at most a few hundred nodes anyway).
pub(super) fn parse_tree_depth(text: &str) -> Result<u32, String> {
    parse_whole(text, "levels", 1, 64).map(|n| n as u32)
}

/// Reads `--weight`: from 1 to the engine's [`MAX_WEIGHT`].
pub(super) fn parse_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(w) if (1.0..=MAX_WEIGHT).contains(&w) => Ok(w),
        _ => Err(format!(
            "'{text}' is not a weight: a number from 1 (exact) to {MAX_WEIGHT}"
        )),
    }
}

/// A whole number of `what` from `least` to `most`, or a message that says what it should be.
pub fn parse_whole(text: &str, what: &str, least: u64, most: u64) -> Result<u64, String> {
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

pub(super) fn parse_moves(text: &str) -> Result<u32, String> {
    parse_whole(text, "moves", 0, u32::MAX.into()).map(|n| n as u32)
}

pub(super) fn parse_states(text: &str) -> Result<u64, String> {
    parse_whole(text, "states", 0, u64::MAX)
}

pub(super) fn parse_threads(text: &str) -> Result<u16, String> {
    parse_whole(text, "threads", 1, u16::MAX.into()).map(|n| n as u16)
}

pub(super) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if seconds.is_nan() || seconds < 0.0 {
        return Err(format!("'{text}' is not a number of seconds, 0 or more"));
    }
    // Longer than a Duration holds (about 585 billion years): as good as no limit.
    Ok(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
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
    /// More never helps, and thousands of them (the flag takes up to 65,535) swamp the
    /// machine: a search that takes a fraction of a second on two ran for minutes, far past
    /// `--timeout`.
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
        if self.tree.is_some() || self.compare.is_some() {
            anyhow::bail!(
                "explore counts every reachable state; --tree and --compare show how a solver searches, so they do not apply"
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
