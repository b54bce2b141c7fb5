//! `frontier perm`: permutation puzzles from their generators (the `frontier-perm` crate).

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use frontier_perm::{
    preset, with_space, Analysis, Chain, ChainBudget, CoordSpace, Coords, Format, Invariant,
    Metric, Model, NotStaged, Optimal, Perm, PermSpace, Puzzle, Staged, StagedBudget, Tables, Turn,
    WithSpace, MAX_FILE, PRESETS,
};
use frontier_search::{search_tree, Limit, Outcome, SearchTree, Solution, Stats, Status};
use frontier_tables::{BuildProgress, Builder, Cache};
use serde_json::{json, Value};

use crate::commands::explore::{self as explore_cmd, Plan};
use crate::common::{
    emit, input_name, plural, read_input, report_exploration, warn_tables, Algo, BuildBar, Context,
    SearchArgs, Stopwatch, TableNeed,
};
use crate::driver::{self, short_answer, Domain};
use crate::pictures::{self, Pictures, Subject};

/// The arguments of `frontier perm`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A preset (see --list), a .perm or twsearch (.tws, .def) file, or - for standard input.
    /// A preset's name is read as the preset even if a file has that name: write ./NAME for
    /// the file
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
    /// engine's solver instead); chain, an answer for any position at once, not the shortest
    #[arg(long, value_enum, default_value_t = SolverArg::Optimal)]
    pub solver: SolverArg,
    /// Print the group's order and the states the colouring tells apart, its orbits and
    /// parity, instead of solving
    #[arg(long, conflicts_with_all = ["scramble", "position", "show", "algo", "weight", "svg", "png"])]
    pub order: bool,
    /// List the presets and exit
    #[arg(long, conflicts_with_all = [
        "input", "scramble", "position", "show", "order", "algo", "max_depth", "max_states",
        "timeout", "threads", "weight", "stats", "svg", "png",
    ])]
    pub list: bool,
    /// Print the puzzle's .perm text (a preset's source, to copy and change; a twsearch file
    /// converted) instead of solving it
    #[arg(long, conflicts_with_all = [
        "scramble", "position", "algo", "max_depth", "max_states", "timeout", "threads",
        "weight", "stats", "svg", "png",
    ])]
    pub show: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The arguments of `frontier explore perm`.
#[derive(clap::Args, Debug)]
#[command(mut_args(crate::common::for_exploring))]
pub struct ExploreArgs {
    /// A preset (see `frontier perm --list`), a .perm or twsearch (.tws, .def) file, or - for
    /// standard input
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
    /// An answer for any position at once, not the shortest: a chain of subgroups generated
    /// by some of the moves, each descended by a search over cached tables, where the puzzle
    /// has one; else a stabiliser chain of words shortened by Minkwitz's method
    Chain,
}

/// The most entries of one pruning table: 4 bits each, so 8 MiB a table.
const TABLE_ENTRIES: usize = 1 << 24;

/// The most entries of one table of the piece-subset solver ([`Optimal`]): the 3x3x3's
/// corners whole (88,179,840 entries, 42 MiB), its edges in sets of six. Fewer where the
/// table budget (`--max-states`) asks for less.
const PIECE_ENTRIES: usize = 1 << 27;
/// The fewest entries of one table of the piece-subset solver the budget may bring it to.
const LEAST_PIECE_ENTRIES: usize = 1 << 12;

/// Answers within this many moves are found by bidirectional search before any pruning table
/// is loaded or built.
const SHORT: u32 = 8;

/// `--solver chain` first looks for an answer within this many moves, by bidirectional
/// search (a few thousand states on the Megaminx): a chain places the pieces in its own
/// order, which can take a hundred moves for a position one turn away.
const CHAIN_SHORT: u32 = 4;

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
    let format = Format::detect(&name, &bytes);
    let read = match format {
        Format::Perm => Puzzle::read(&name, bytes.as_slice()),
        Format::Tws => Puzzle::read_tws(&name, bytes.as_slice()),
    };
    let puzzle =
        read.map_err(|e| anyhow::anyhow!("{name}:{}:{}: {}", e.line, e.column, e.problem))?;
    let text = match format {
        // Read, so its lines are UTF-8 and within the limits.
        Format::Perm => String::from_utf8_lossy(&bytes).into_owned(),
        Format::Tws => puzzle.to_perm_text(),
    };
    Ok((puzzle, text))
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
    let pieces: Vec<usize> = analysis.invariants.pieces().map(<[_]>::len).collect();
    let invariants = invariant_lines(&analysis.invariants.rules());
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
            "pieces": pieces,
            "invariants": invariants,
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
        for (i, (orbit, pieces)) in analysis
            .orbits
            .iter()
            .zip(analysis.invariants.pieces())
            .enumerate()
        {
            let from = orbit[0] + 1;
            match pieces[0].len() {
                1 => writeln!(
                    out,
                    "orbit {}: {} points from point {from}",
                    i + 1,
                    orbit.len()
                )?,
                size => writeln!(
                    out,
                    "orbit {}: {} points from point {from}, in {} pieces of {size}",
                    i + 1,
                    orbit.len(),
                    pieces.len()
                )?,
            }
        }
        let parity = if analysis.even {
            "every generator is even: so is every position"
        } else {
            "some generator is odd"
        };
        writeln!(out, "parity: {parity}")?;
        for rule in &invariants {
            writeln!(out, "invariant: {rule}")?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The rules every position keeps, in words, one a line; the parts that are always even
/// said in one line (a Pyraminx has eight tips and centres of three points each).
fn invariant_lines(rules: &[Invariant]) -> Vec<String> {
    let even: Vec<String> = (rules.iter())
        .filter_map(|rule| match rule {
            Invariant::Parity(parts) if parts.len() == 1 => Some(parts[0].to_string()),
            _ => None,
        })
        .collect();
    let mut lines = Vec::new();
    match even.as_slice() {
        [] => {}
        [one] => lines.push(format!("{one} are always permuted evenly")),
        all => lines.push(format!("always permuted evenly: {}", all.join(", "))),
    }
    let others = rules
        .iter()
        .filter(|rule| !matches!(rule, Invariant::Parity(parts) if parts.len() == 1));
    lines.extend(others.map(ToString::to_string));
    lines
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
/// flags (budgets, limits, progress), its states read back as colours.
struct Generic<'a> {
    search: &'a SearchArgs,
    ctx: &'a Context,
    default: Algo,
}

impl WithSpace for Generic<'_> {
    type Output = Outcome<Vec<u8>, Turn>;

    fn run<const W: usize>(self, space: &PermSpace<'_, W>) -> Self::Output {
        let (_, outcome) = self.search.solve(self.ctx, space, self.default);
        outcome.map(|s| space.colours(&s), |t| t)
    }
}

/// Counts the states at each distance.
struct Counting<'a> {
    search: &'a SearchArgs,
    ctx: &'a Context,
}

impl WithSpace for Counting<'_> {
    type Output = frontier_search::Exploration;

    fn run<const W: usize>(self, space: &PermSpace<'_, W>) -> Self::Output {
        self.search.explore(self.ctx, space)
    }
}

/// The first levels of the search tree, its states read back as colours.
struct Tree {
    depth: u32,
    max_nodes: usize,
}

impl WithSpace for Tree {
    type Output = SearchTree<Vec<u8>, Turn>;

    fn run<const W: usize>(self, space: &PermSpace<'_, W>) -> Self::Output {
        let tree = search_tree(space, self.depth, self.max_nodes);
        tree.map_states(|s| space.colours(&s))
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
    let chain = args.solver == SolverArg::Chain;
    if chain && search.algo.is_some() {
        anyhow::bail!("--solver chain takes no --algo (it is a solver of its own)");
    }
    let algorithm = search.algo.map_or("optimal", Algo::name);
    search.check_weight(algorithm, search.algo.is_none_or(Algo::is_informed))?;
    let position = position(&puzzle, &args)?;
    let metric = Metric::from(args.metric);
    let unreachable = Analysis::of(&puzzle)
        .unreachable(&position)
        .map(|why| format!("the position cannot be reached: {why}"));
    let model = Model::new(&puzzle, metric);
    let start = model.colours_of(&position);
    // Shortest answers by default over piece subsets, where the pieces can be told apart.
    let pieces = piece_entries(&model, search.table_budget());
    let domain = PermRun {
        puzzle,
        model,
        start,
        position,
        metric,
        algo: search.algo,
        chain,
        unreachable,
        tables: None,
        pieces,
        optimal: None,
        staged: None,
    };
    driver::run(domain, search, ctx)
}

/// One run of `frontier perm`: the puzzle, the position and the solver.
struct PermRun {
    puzzle: Puzzle,
    model: Model,
    /// The position's colours at the compact positions ([`Model::colours_of`]).
    start: Vec<u8>,
    /// The position, a permutation of the puzzle's points.
    position: Perm,
    metric: Metric,
    /// `--algo`: an engine's solver instead of IDA* over the pruning tables.
    algo: Option<Algo>,
    /// `--solver chain`: the stabiliser chain's answer instead of a shortest one.
    chain: bool,
    /// Why the position is outside the group, when it is.
    unreachable: Option<String>,
    /// The pruning tables, once they are loaded or built.
    tables: Option<Tables>,
    /// The entries a table of the piece-subset solver takes, where the pieces can be told
    /// apart.
    pieces: Option<usize>,
    /// The piece-subset solver, once its tables are loaded or built.
    optimal: Option<Optimal>,
    /// `--solver chain`'s chain of subgroups, once its tables are loaded or built, where the
    /// puzzle has one.
    staged: Option<Staged>,
}

impl PermRun {
    /// Runs the generic solver `search.algo` names (else `default`), with the pruning tables
    /// once they are built.
    fn generic(&self, ctx: &Context, search: &SearchArgs, default: Algo) -> Outcome<Vec<u8>, Turn> {
        let generic = Generic {
            search,
            ctx,
            default,
        };
        with_space(&self.model, self.tables.as_ref(), &self.start, generic)
    }

    /// Whether the solver ranks by a heuristic, and so needs the pruning tables.
    fn needs_tables(&self) -> bool {
        !self.chain && self.algo.is_none_or(Algo::is_informed)
    }

    /// The entries of the piece-subset solver's tables, when it is this run's solver: the
    /// default one (no `--algo`, no chain) on pieces that can be told apart.
    fn piece_solver(&self) -> Option<usize> {
        self.pieces.filter(|_| !self.chain && self.algo.is_none())
    }

    /// The states `moves` pass through from the position, as colours.
    fn path(&self, moves: &[Turn]) -> Vec<Vec<u8>> {
        let mut current = self.position.clone();
        let mut states = vec![self.model.colours_of(&current)];
        for &t in moves {
            current = current.then(&self.puzzle.turn_perm(t));
            states.push(self.model.colours_of(&current));
        }
        states
    }

    /// The piece-subset solver's answer, with the states it passes through.
    fn solve_by_pieces(
        &self,
        optimal: &Optimal,
        ctx: &Context,
        search: &SearchArgs,
    ) -> Outcome<Vec<u8>, Turn> {
        let config = search.config::<Vec<u8>, Turn>(ctx);
        let mut outcome = optimal.solve(&self.start, &config);
        ctx.clear_progress();
        outcome.stats_mut().seconds = ctx.seconds();
        match outcome {
            Outcome::Solved { solution, stats } => Outcome::Solved {
                solution: Solution {
                    states: self.path(&solution.moves),
                    moves: solution.moves,
                    cost: solution.cost,
                },
                stats,
            },
            other => other.map(|()| Vec::new(), |t| t),
        }
    }

    /// The chain solver's answer, with the states it passes through: a shortest one if the
    /// position lies within [`CHAIN_SHORT`] moves, else the subgroup chain's where the puzzle
    /// has one and it answers within the time left, else the stabiliser chain's, built for
    /// this run (it takes well under a second for the presets, so it is not cached).
    fn solve_by_chain(&self, ctx: &Context, search: &SearchArgs) -> Outcome<Vec<u8>, Turn> {
        let short = self.generic(ctx, &search.short(CHAIN_SHORT), Algo::Bidirectional);
        match short.status() {
            Status::Solved | Status::Limit(Limit::Time | Limit::Cancelled) => return short,
            _ => {}
        }
        let left = search
            .timeout
            .map_or(Duration::MAX, |t| t.saturating_sub(ctx.started.elapsed()));
        let staged = self
            .staged
            .as_ref()
            .and_then(|s| s.solve(&self.position, left))
            .map(|moves| self.in_metric(&moves));
        let moves = match staged {
            Some(moves) => moves,
            None => {
                let clock = Stopwatch::new(search, ctx);
                if clock.limit().is_some() {
                    return clock.stopped();
                }
                let chain = Chain::build(&self.puzzle, self.metric, &ChainBudget::default());
                let Some(moves) = chain.solve(&self.position) else {
                    // Not reached: a position outside the group is refused before any
                    // solver runs.
                    return Outcome::Exhausted {
                        stats: Stats::default(),
                    };
                };
                moves
            }
        };
        let states = self.path(&moves);
        let cost = moves.len() as u64;
        Outcome::Solved {
            solution: Solution {
                moves,
                states,
                cost,
            },
            stats: Stats::default(),
        }
    }
}

impl PermRun {
    /// `--solver chain`'s subgroup chain, its tables loaded from the cache or built there;
    /// none where the puzzle has no such chain (the stabiliser chain answers instead).
    /// Whether the build finished before a limit.
    fn build_staged(&mut self, ctx: &Context, search: &SearchArgs, clock: &Stopwatch) -> bool {
        if self.staged.is_some() {
            return true;
        }
        let built = build_tables(
            ctx,
            search,
            clock,
            |builder, cache, _| match Staged::load_or_build(
                &self.puzzle,
                &StagedBudget::default().within(search.table_budget()),
                Some(cache),
                builder,
            ) {
                Ok(staged) => Ok(Some(staged)),
                // Tables past the state budget: the stabiliser chain, which needs little
                // memory, answers instead.
                Err(NotStaged::Limit(Limit::States)) => Ok(None),
                Err(NotStaged::Limit(limit)) => Err(limit),
                Err(_) => Ok(None),
            },
        );
        self.staged = built.flatten();
        self.staged.is_some() || clock.limit().is_none()
    }

    /// `moves` (each power of a generator one move) in the run's metric: in the quarter-turn
    /// metric, each power as that many turns of the generator or of its inverse, whichever
    /// are fewer.
    fn in_metric(&self, moves: &[Turn]) -> Vec<Turn> {
        if self.metric == Metric::Htm {
            return moves.to_vec();
        }
        let mut out = Vec::new();
        for &t in moves {
            let order = self.puzzle.generator_order(usize::from(t.generator));
            let (power, times) = match t.power <= order / 2 {
                true => (1, t.power),
                false => (order - 1, order - t.power),
            };
            let turn = Turn {
                generator: t.generator,
                power,
            };
            out.extend(std::iter::repeat_n(turn, usize::from(times)));
        }
        out
    }
}

impl Domain for PermRun {
    type State = Vec<u8>;
    type Move = Turn;

    const NAME: &'static str = "perm";

    fn algorithm(&self) -> &'static str {
        match self.chain {
            true => "chain",
            false => self.algo.map_or("optimal", Algo::name),
        }
    }

    fn unsolvable(&self) -> Option<&str> {
        self.unreachable.as_deref()
    }

    fn tables(&self) -> anyhow::Result<Option<TableNeed>> {
        let bytes = match self.piece_solver() {
            Some(entries) => Optimal::bytes_for(&self.model, entries).unwrap_or(0),
            None => Tables::bytes_for(&self.model, TABLE_ENTRIES),
        };
        Ok(self.needs_tables().then(|| TableNeed {
            what: "building the pruning tables".to_string(),
            bytes,
            instead: "use --algo bfs or bidirectional for a short position",
        }))
    }

    // A short answer needs no table: bidirectional search within a few moves.
    fn short(
        &self,
        ctx: &Context,
        search: &SearchArgs,
    ) -> anyhow::Result<Option<Outcome<Vec<u8>, Turn>>> {
        short_answer(search, SHORT, |short| {
            Ok(self.generic(ctx, short, Algo::Bidirectional))
        })
    }

    // --timeout and Ctrl-C count from the command's start and stop a build like a search.
    fn build(
        &mut self,
        ctx: &Context,
        search: &SearchArgs,
        clock: &Stopwatch,
    ) -> anyhow::Result<bool> {
        if self.chain {
            return Ok(self.build_staged(ctx, search, clock));
        }
        let pieces = self.piece_solver();
        if !self.needs_tables()
            || (pieces.is_some() && self.optimal.is_some())
            || (pieces.is_none() && self.tables.is_some())
        {
            return Ok(true);
        }
        if let Some(entries) = pieces {
            let built = build_tables(ctx, search, clock, |builder, cache, starting| {
                Optimal::build_each(&self.model, entries, Some(cache), builder, starting)
            });
            self.optimal = built.flatten();
            if self.optimal.is_some() {
                return Ok(true);
            }
            // Stopped, or (not met: `pieces` says they are told apart) no pieces.
            self.pieces = None;
            if clock.limit().is_some() {
                return Ok(false);
            }
        }
        self.tables = build_tables(ctx, search, clock, |builder, cache, starting| {
            Tables::build_each(&self.model, TABLE_ENTRIES, Some(cache), builder, starting)
        });
        Ok(self.tables.is_some())
    }

    fn solve(&self, ctx: &Context, search: &SearchArgs) -> anyhow::Result<Outcome<Vec<u8>, Turn>> {
        if self.chain {
            return Ok(self.solve_by_chain(ctx, search));
        }
        if let (Some(optimal), None) = (&self.optimal, self.algo) {
            return Ok(self.solve_by_pieces(optimal, ctx, search));
        }
        Ok(self.generic(ctx, search, Algo::Idastar))
    }

    fn note(&self, outcome: &Outcome<Vec<u8>, Turn>) -> Option<String> {
        (self.chain && outcome.solution().is_some())
            .then(|| "(the chain solver's answer: not necessarily the shortest)".to_string())
    }

    fn move_name(&self, mv: &Turn) -> String {
        self.puzzle.turn_name(*mv)
    }

    fn draw(&self, out: &mut dyn Write, solution: &Solution<Vec<u8>, Turn>) -> io::Result<()> {
        if solution.moves.is_empty() {
            writeln!(out, "solution: (none: the puzzle is solved)")?;
        } else {
            let names: Vec<String> = solution.moves.iter().map(|m| self.move_name(m)).collect();
            writeln!(out, "solution: {}", names.join(" "))?;
        }
        writeln!(out, "length: {} {}", solution.moves.len(), self.metric)
    }

    fn picture(&self, solution: &Solution<Vec<u8>, Turn>) -> Result<svg::Document, String> {
        let names: Vec<String> = solution.moves.iter().map(|m| self.move_name(m)).collect();
        let moves = match names.is_empty() {
            true => "(none: the puzzle is solved)".to_owned(),
            false => pictures::shorten(&names.join(" ")),
        };
        let title = format!(
            "{}: {moves}  ({} {})",
            self.puzzle.name(),
            solution.moves.len(),
            self.metric
        );
        pictures::perm::draw(&solution.states, &title)
    }

    fn search_tree(&self, depth: u32, max_nodes: usize) -> SearchTree<Vec<u8>, Turn> {
        let tree = Tree { depth, max_nodes };
        with_space(&self.model, None, &self.start, tree)
    }

    /// The colours at the compact positions, a letter or digit each (`0`-`9`, `a`-`z`,
    /// `A`-`Z`), or the numbers joined by `.` when there are more colours than that.
    fn state_label(&self, colours: &Vec<u8>) -> String {
        const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        if colours.iter().all(|&c| usize::from(c) < DIGITS.len()) {
            colours
                .iter()
                .map(|&c| char::from(DIGITS[usize::from(c)]))
                .collect()
        } else {
            let numbers: Vec<String> = colours.iter().map(u8::to_string).collect();
            numbers.join(".")
        }
    }

    fn use_solver(&mut self, algo: Algo) {
        self.algo = Some(algo);
        self.chain = false;
    }
}

/// The entries a table of the piece-subset solver may take within `budget` bytes (the most
/// up to [`PIECE_ENTRIES`], halved until they fit, [`LEAST_PIECE_ENTRIES`] at the least);
/// `None` where the model's pieces cannot be told apart.
fn piece_entries(model: &Model, budget: u64) -> Option<usize> {
    let mut entries = PIECE_ENTRIES;
    loop {
        let bytes = Optimal::bytes_for(model, entries)?;
        if bytes <= budget || entries <= LEAST_PIECE_ENTRIES {
            return Some(entries);
        }
        entries /= 2;
    }
}

/// Pruning tables loaded or built by `build` (with a progress bar) in the cache; `None` when
/// `clock` (`--timeout`, Ctrl-C) stopped their build first.
fn build_tables<T: HasReports>(
    ctx: &Context,
    search: &SearchArgs,
    clock: &Stopwatch,
    build: impl FnOnce(&Builder, &Cache, &dyn Fn(usize, usize)) -> Result<T, frontier_search::Limit>,
) -> Option<T> {
    let stop = || clock.limit();
    let bar = BuildBar::new(ctx, search.quiet);
    let table = AtomicUsize::new(0);
    let tables = AtomicUsize::new(0);
    let progress = |p: BuildProgress| {
        if let Some(bar) = &bar {
            let (i, n) = (
                table.load(Ordering::Relaxed),
                tables.load(Ordering::Relaxed),
            );
            bar.update(
                p.reached,
                p.total,
                format!("building pruning table {}/{n}", i + 1),
            );
        }
    };
    let starting = |i: usize, n: usize| {
        table.store(i, Ordering::Relaxed);
        tables.store(n, Ordering::Relaxed);
    };
    let builder = Builder::new()
        .threads(search.worker_threads())
        .stop(&stop)
        .progress(&progress);
    let cache = Cache::from_env().join("perm");
    let built = build(&builder, &cache, &starting);
    if let Some(bar) = bar {
        bar.finish();
    }
    let tables = built.ok()?;
    warn_tables(tables.reports());
    Some(tables)
}

/// Tables that say what happened to each of their files in the cache.
trait HasReports {
    /// One report a table.
    fn reports(&self) -> &[frontier_tables::TableReport];
}

impl HasReports for Tables {
    fn reports(&self) -> &[frontier_tables::TableReport] {
        Tables::reports(self)
    }
}

impl HasReports for Option<Staged> {
    fn reports(&self) -> &[frontier_tables::TableReport] {
        self.as_ref().map_or(&[], Staged::reports)
    }
}

impl HasReports for Option<Optimal> {
    fn reports(&self) -> &[frontier_tables::TableReport] {
        self.as_ref().map_or(&[], Optimal::reports)
    }
}

/// Counts the puzzle's states by distance from the solved state.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let mut pictures = Pictures::open(&args.search, Subject::Chart)?;
    let (puzzle, _) = load(&args.input, &args.search, ctx)?;
    let model = Model::new(&puzzle, Metric::from(args.metric));
    let solved = model.colours_of(&Perm::identity(puzzle.points()));
    // Over the coordinates where the puzzle has them: densely, on every thread.
    let coords = Coords::new(&model);
    let exploration = match coords
        .as_ref()
        .and_then(|c| CoordSpace::new(&model, c, &solved))
    {
        Some(space) => args.search.explore(ctx, &space),
        None => {
            let counting = Counting {
                search: &args.search,
                ctx,
            };
            with_space(&model, None, &solved, counting)
        }
    };
    report_exploration(ctx, &args.search, "perm", &exploration, &mut pictures)
}

/// Counts the puzzle's states by distance from the solved state on the workers of `plan`:
/// over its coordinates, by ranges of ranks, where it has them; else over its packed states,
/// by their hashes.
pub fn explore_across(args: ExploreArgs, plan: &Plan, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let (puzzle, _) = load(&args.input, &args.search, ctx)?;
    let model = Model::new(&puzzle, Metric::from(args.metric));
    let solved = model.colours_of(&Perm::identity(puzzle.points()));
    // What a checkpoint and every process must agree on: the puzzle's moves and colours.
    let fingerprint = format!("perm {} ({})", model.fingerprint(), puzzle.name());
    let run = plan.run(fingerprint);
    let coords = Coords::new(&model);
    match coords
        .as_ref()
        .and_then(|c| CoordSpace::new(&model, c, &solved))
    {
        Some(space) => explore_cmd::across(&space, run, &args.search, ctx, "perm"),
        None => {
            let across = Across {
                run,
                search: &args.search,
                ctx,
            };
            with_space(&model, None, &solved, across)
        }
    }
}

/// Counts the states by distance on the workers of a run, over packed states.
struct Across<'a> {
    run: frontier_distributed::Run,
    search: &'a SearchArgs,
    ctx: &'a Context,
}

impl WithSpace for Across<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn run<const W: usize>(self, space: &PermSpace<'_, W>) -> Self::Output {
        explore_cmd::across(space, self.run, self.search, self.ctx, "perm")
    }
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
