//! `frontier perm`: permutation puzzles from their generators (the `frontier-perm` crate).

use std::ffi::{OsStr, OsString};
use std::process::ExitCode;

use frontier_perm::{
    preset, with_space, Analysis, Metric, Model, Perm, Puzzle, Tables, Turn, WithSpace, MAX_FILE,
    PRESETS,
};
use frontier_search::{Outcome, Reversible, Stats};
use frontier_tables::{BuildProgress, Builder, Cache};
use serde_json::{json, Value};

use crate::common::{
    emit, input_name, plural, read_input, report, report_exploration, stats_line, warn_tables,
    Algo, BuildBar, Context, SearchArgs, Stopwatch, TableNeed,
};

/// The arguments of `frontier perm`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A preset (see --list), a .perm file, or - for standard input. A preset's name is read
    /// as the preset even if a file has that name: write ./NAME for the file
    #[arg(value_name = "PUZZLE", required_unless_present = "list")]
    pub input: Option<OsString>,
    /// The scramble, applied from the solved state: generator names, each with an optional
    /// power and ' ("U R2 F'"); without one (or --position), the solved state
    #[arg(value_name = "SCRAMBLE", conflicts_with = "position")]
    pub scramble: Option<String>,
    /// The position as a permutation of the points: cycle notation ("(1,3,8,6)(2,5,7,4)") or
    /// the image list of 1, 2, ..., n
    #[arg(long, value_name = "PERM")]
    pub position: Option<String>,
    /// How moves are counted: htm, every power of a generator one move; qtm, only the
    /// generators and their inverses
    #[arg(long, value_enum, default_value_t = MetricArg::Htm)]
    pub metric: MetricArg,
    /// The solver: optimal, IDA* over pruning tables of the puzzle's orbits (with --algo, the
    /// engine's solver instead)
    #[arg(long, value_enum, default_value_t = SolverArg::Optimal)]
    pub solver: SolverArg,
    /// Print the group's order and the states the colouring tells apart, its orbits and
    /// parity, instead of solving
    #[arg(long, conflicts_with_all = ["scramble", "position", "show", "algo", "weight"])]
    pub order: bool,
    /// List the presets and exit
    #[arg(long, conflicts_with_all = [
        "input", "scramble", "position", "show", "order", "algo", "max_depth", "max_states",
        "timeout", "threads", "weight", "stats",
    ])]
    pub list: bool,
    /// Print the puzzle's .perm text (a preset's source, to copy and change) instead of
    /// solving it
    #[arg(long, conflicts_with_all = [
        "scramble", "position", "algo", "max_depth", "max_states", "timeout", "threads",
        "weight", "stats",
    ])]
    pub show: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The arguments of `frontier explore perm`.
#[derive(clap::Args, Debug)]
#[command(mut_args(crate::common::for_exploring))]
pub struct ExploreArgs {
    /// A preset (see `frontier perm --list`), a .perm file, or - for standard input
    #[arg(value_name = "PUZZLE")]
    pub input: OsString,
    /// How moves are counted: htm or qtm
    #[arg(long, value_enum, default_value_t = MetricArg::Htm)]
    pub metric: MetricArg,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// `--metric`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricArg {
    /// Every power of a generator counts 1
    Htm,
    /// Only the generators and their inverses count 1 each
    Qtm,
}

impl From<MetricArg> for Metric {
    fn from(m: MetricArg) -> Metric {
        match m {
            MetricArg::Htm => Metric::Htm,
            MetricArg::Qtm => Metric::Qtm,
        }
    }
}

/// `--solver`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverArg {
    /// Shortest solutions: IDA* over pruning tables
    Optimal,
}

/// The most entries of one pruning table: 4 bits each, so 8 MiB a table.
const TABLE_ENTRIES: usize = 1 << 24;

/// Answers within this many moves are found by bidirectional search before any pruning table
/// is loaded or built.
const SHORT: u32 = 8;

/// The puzzle named on the command line: a preset, else a file. Returns the puzzle and its
/// `.perm` text.
fn load(input: &OsStr, search: &SearchArgs, ctx: &Context) -> anyhow::Result<(Puzzle, String)> {
    if let Some(p) = input.to_str().and_then(preset) {
        return Ok((p.puzzle(), p.text.to_string()));
    }
    let name = input_name(input);
    let path = std::path::Path::new(input);
    if input != "-" && !path.exists() && !name.contains(['/', '\\', '.']) {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        anyhow::bail!(
            "`{name}` is neither a preset ({}) nor a file",
            known.join(", ")
        );
    }
    let bytes = read_input(input, "a permutation puzzle", MAX_FILE as u64, search, ctx)?;
    let puzzle = Puzzle::read(&name, bytes.as_slice())
        .map_err(|e| anyhow::anyhow!("{name}:{}:{}: {}", e.line, e.column, e.problem))?;
    // Read, so its lines are UTF-8 and within the limits.
    Ok((puzzle, String::from_utf8_lossy(&bytes).into_owned()))
}

/// Lists the presets: a line each, or with `--json` one object `{"presets": [...]}`.
fn list(json: bool) -> anyhow::Result<ExitCode> {
    if json {
        let entries: Vec<Value> = PRESETS
            .iter()
            .map(|p| {
                let puzzle = p.puzzle();
                json!({
                    "name": p.name,
                    "title": p.about,
                    "points": puzzle.points(),
                    "generators": puzzle.generators().len(),
                })
            })
            .collect();
        emit(|out| writeln!(out, "{}", json!({ "presets": entries })))?;
        return Ok(ExitCode::SUCCESS);
    }
    let wide = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
    emit(|out| {
        for p in PRESETS {
            let puzzle = p.puzzle();
            writeln!(
                out,
                "{:<wide$}  {} ({} points, {})",
                p.name,
                p.about,
                puzzle.points(),
                plural(puzzle.generators().len() as u64, "generator"),
            )?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A big number for JSON: an integer while it fits in 64 bits, else its decimal digits as a
/// string (JSON readers lose precision past 2^53 or 2^64).
fn big_json(n: &impl ToString) -> Value {
    let digits = n.to_string();
    match digits.parse::<u64>() {
        Ok(v) => json!(v),
        Err(_) => json!(digits),
    }
}

/// `--order`: the group's order, the states, the orbits and the parity.
fn order(puzzle: &Puzzle, search: &SearchArgs) -> anyhow::Result<ExitCode> {
    let analysis = Analysis::of(puzzle);
    let orbits: Vec<usize> = analysis.orbits.iter().map(Vec::len).collect();
    let moved: usize = orbits.iter().sum();
    if search.json {
        let states = analysis.states.as_ref().map_or(Value::Null, big_json);
        let object = json!({
            "puzzle": puzzle.name(),
            "order": big_json(&analysis.order),
            "states": states,
            "points": puzzle.points(),
            "moved": moved,
            "orbits": orbits,
            "generators": puzzle.generators().len(),
            "even": analysis.even,
            "base": analysis.group.base().len(),
        });
        emit(|out| writeln!(out, "{object}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    emit(|out| {
        writeln!(
            out,
            "{}: {}",
            puzzle.name(),
            plural(puzzle.generators().len() as u64, "generator")
        )?;
        writeln!(out, "order: {}", grouped(&analysis.order.to_string()))?;
        match &analysis.states {
            Some(states) if puzzle.is_coloured() => writeln!(
                out,
                "states: {} (told apart by the colouring)",
                grouped(&states.to_string())
            )?,
            Some(states) => writeln!(
                out,
                "states: {} (every point distinct)",
                grouped(&states.to_string())
            )?,
            None => writeln!(out, "states: unknown (the colouring's search was too long)")?,
        }
        let sizes: Vec<String> = orbits.iter().map(|o| o.to_string()).collect();
        writeln!(
            out,
            "points: {} moved of {}, in {} of {}",
            moved,
            puzzle.points(),
            plural(orbits.len() as u64, "orbit"),
            sizes.join(", ")
        )?;
        let parity = if analysis.even {
            "every generator is even: so is every position"
        } else {
            "some generator is odd"
        };
        writeln!(out, "parity: {parity}")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A number's digits in groups of three: `43,252,003,274,489,856,000`.
fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The command line's solver for [`with_space`]: `--algo` or `default` through the shared
/// flags (budgets, limits, progress), its states dropped.
struct Generic<'a> {
    search: &'a SearchArgs,
    ctx: &'a Context,
    default: Algo,
}

impl WithSpace for Generic<'_> {
    type Output = (Algo, Outcome<(), Turn>);

    fn run<P>(self, space: &P) -> Self::Output
    where
        P: Reversible<Move = Turn> + Sync,
        P::State: std::hash::Hash + Eq + Copy + Send + Sync,
    {
        let (algo, outcome) = self.search.solve(self.ctx, space, self.default);
        (algo, outcome.map(|_| (), |t| t))
    }
}

/// Counts the states at each distance.
struct Counting<'a> {
    search: &'a SearchArgs,
    ctx: &'a Context,
}

impl WithSpace for Counting<'_> {
    type Output = frontier_search::Exploration;

    fn run<P>(self, space: &P) -> Self::Output
    where
        P: Reversible<Move = Turn> + Sync,
        P::State: std::hash::Hash + Eq + Copy + Send + Sync,
    {
        self.search.explore(self.ctx, space)
    }
}

/// The position to solve: the scramble's, `--position`, or the solved state.
fn position(puzzle: &Puzzle, args: &Args) -> anyhow::Result<Perm> {
    if let Some(text) = &args.position {
        return puzzle
            .parse_position(text)
            .map_err(|e| anyhow::anyhow!("--position, column {}: {}", e.column, e.problem));
    }
    let scramble = args.scramble.as_deref().unwrap_or("");
    let turns = puzzle
        .parse_moves(scramble)
        .map_err(|e| anyhow::anyhow!("the scramble, column {}: {}", e.column, e.problem))?;
    Ok(puzzle.apply(&turns))
}

/// Solves the puzzle, or prints its order, its presets or its text.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    if args.list {
        return list(args.search.json);
    }
    let input = args.input.as_deref().unwrap_or_default();
    let (puzzle, text) = load(input, &args.search, ctx)?;
    if args.show {
        if args.search.json {
            emit(|out| writeln!(out, "{}", json!({ "name": puzzle.name(), "perm": text })))?;
        } else {
            emit(|out| write!(out, "{text}"))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.order {
        return order(&puzzle, &args.search);
    }
    let search = &args.search;
    let algorithm = search.algo.map_or("optimal", Algo::name);
    search.check_weight(algorithm, search.algo.is_none_or(Algo::is_informed))?;
    let position = position(&puzzle, &args)?;
    let metric = Metric::from(args.metric);
    if let Some(why) = Analysis::of(&puzzle).unreachable(&position) {
        return unreachable(ctx, search, algorithm, &why.to_string());
    }
    let model = Model::new(&puzzle, metric);
    let start = model.colours_of(&position);
    let outcome = match search.algo {
        Some(algo) if !algo.is_informed() => {
            let generic = Generic {
                search,
                ctx,
                default: algo,
            };
            with_space(&model, None, &start, generic).1
        }
        _ => {
            // A short answer needs no table: bidirectional search within a few moves.
            let short = search.short(SHORT);
            let generic = Generic {
                search: &short,
                ctx,
                default: Algo::Bidirectional,
            };
            let (_, outcome) = with_space(&model, None, &start, generic);
            if search.past_short(outcome.status(), SHORT) {
                match tables(ctx, search, algorithm, &model)? {
                    Ok(tables) => {
                        let generic = Generic {
                            search,
                            ctx,
                            default: Algo::Idastar,
                        };
                        with_space(&model, Some(&tables), &start, generic).1
                    }
                    Err(code) => return Ok(code),
                }
            } else {
                outcome
            }
        }
    };
    report(
        ctx,
        search,
        "perm",
        algorithm,
        &outcome,
        |t| json!(puzzle.turn_name(*t)),
        |out, solution| {
            let names: Vec<String> = solution
                .moves
                .iter()
                .map(|&t| puzzle.turn_name(t))
                .collect();
            if search.quiet {
                return writeln!(out, "{}", names.join(" "));
            }
            if names.is_empty() {
                writeln!(out, "solution: (none: the puzzle is solved)")?;
            } else {
                writeln!(out, "solution: {}", names.join(" "))?;
            }
            writeln!(out, "length: {} {metric}", names.len())
        },
    )
}

/// The pruning tables of `model`, loaded or built (with a progress bar) in the cache; or the
/// exit code of an answer already given: tables past the memory budget, or a limit that
/// stopped their build.
fn tables(
    ctx: &Context,
    search: &SearchArgs,
    algorithm: &'static str,
    model: &Model,
) -> anyhow::Result<Result<Tables, ExitCode>> {
    let need = TableNeed {
        what: "building the pruning tables".to_string(),
        bytes: Tables::bytes_for(model, TABLE_ENTRIES),
        instead: "use --algo bfs or bidirectional for a short position",
    };
    if let Some(code) = need.refuse_beyond(ctx, search, "perm", algorithm)? {
        return Ok(Err(code));
    }
    let clock = Stopwatch::new(search, ctx);
    let stop = || clock.limit();
    let bar = BuildBar::new(ctx, search.quiet);
    let table = std::sync::atomic::AtomicUsize::new(0);
    let tables = std::sync::atomic::AtomicUsize::new(0);
    let progress = |p: BuildProgress| {
        if let Some(bar) = &bar {
            let (i, n) = (
                table.load(std::sync::atomic::Ordering::Relaxed),
                tables.load(std::sync::atomic::Ordering::Relaxed),
            );
            bar.update(
                p.reached,
                p.total,
                format!("building pruning table {}/{n}", i + 1),
            );
        }
    };
    let starting = |i: usize, n: usize| {
        table.store(i, std::sync::atomic::Ordering::Relaxed);
        tables.store(n, std::sync::atomic::Ordering::Relaxed);
    };
    let builder = Builder::new()
        .threads(search.worker_threads())
        .stop(&stop)
        .progress(&progress);
    let cache = Cache::from_env().join("perm");
    let built = Tables::build_each(model, TABLE_ENTRIES, Some(&cache), &builder, &starting);
    if let Some(bar) = bar {
        bar.finish();
    }
    match built {
        Ok(tables) => {
            warn_tables(tables.reports());
            Ok(Ok(tables))
        }
        Err(_) => {
            let outcome = clock.stopped::<(), Turn>();
            let code = report(
                ctx,
                search,
                "perm",
                algorithm,
                &outcome,
                |_| Value::Null,
                |_, _| Ok(()),
            )?;
            Ok(Err(code))
        }
    }
}

/// A position outside the group: unsolvable, decided without searching.
fn unreachable(
    ctx: &Context,
    search: &SearchArgs,
    algorithm: &str,
    why: &str,
) -> anyhow::Result<ExitCode> {
    let outcome: Outcome<(), Turn> = Outcome::Exhausted {
        stats: Stats::default(),
    };
    if search.json {
        return report(
            ctx,
            search,
            "perm",
            algorithm,
            &outcome,
            |_| Value::Null,
            |_, _| Ok(()),
        );
    }
    emit(|out| {
        writeln!(
            out,
            "unsolvable: the position cannot be reached: {why} (decided without searching)"
        )?;
        if search.stats {
            writeln!(out, "{}", stats_line(outcome.stats()))?;
        }
        Ok(())
    })?;
    Ok(ExitCode::from(1))
}

/// Counts the puzzle's states by distance from the solved state.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let (puzzle, _) = load(&args.input, &args.search, ctx)?;
    let model = Model::new(&puzzle, Metric::from(args.metric));
    let solved = model.colours_of(&Perm::identity(puzzle.points()));
    let counting = Counting {
        search: &args.search,
        ctx,
    };
    let exploration = with_space(&model, None, &solved, counting);
    report_exploration(ctx, &args.search, "perm", &exploration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_numbers_are_integers_while_they_fit() {
        assert_eq!(big_json(&3_674_160u64), json!(3_674_160u64));
        assert_eq!(
            big_json(&"43252003274489856000"),
            json!("43252003274489856000")
        );
        assert_eq!(
            grouped("43252003274489856000"),
            "43,252,003,274,489,856,000"
        );
        assert_eq!(grouped("100"), "100");
    }
}
