//! `frontier tiles`: solve a sliding-tile puzzle optimally, and `frontier explore tiles`: the
//! distance distribution of a board's reachable layouts.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context as _};
use frontier_search::{Exploration, Limit, Outcome, Stats, Status};
use frontier_tiles::pdb::{build_bytes, default_groups, groups_by_sizes, placements};
use frontier_tiles::{
    solve_in_stages, BuildProgress, Dir, Encoding, Estimate, HeuristicKind, PatternDb, PdbError,
    Puzzle, Shape, Solver, Tables, TilesSpace, Wide,
};
use serde_json::json;

use crate::common::{
    count, emit, plural, report, report_exploration, stats_line, to_stderr, warn_tables, Algo,
    BuildBar, Context, SearchArgs, Stopwatch, TableNeed,
};

/// The arguments of `frontier tiles`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tiles row by row, 0 for the blank, e.g. "8 6 7 2 5 4 3 0 1" (spaces or commas)
    #[arg(value_name = "TILES")]
    pub tiles: String,
    /// The board as ROWSxCOLS, e.g. 3x4 [default: the square the number of tiles makes]
    #[arg(long, value_name = "RxC")]
    pub size: Option<String>,
    /// The goal layout, same format [default: 1 2 ... n-1 with the blank last]
    #[arg(long, value_name = "TILES")]
    pub goal: Option<String>,
    /// The heuristic guiding IDA* and A* [default: pdb up to 16 cells, else conflict]
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    /// The pattern-database split: group sizes in goal reading order, e.g. 6-6-3 or 7-8
    /// [default: 6-6-3 on the 15-puzzle, 6-6-6-6 on the 24-puzzle]
    #[arg(long, value_name = "SIZES")]
    pub pdb: Option<String>,
    /// Draw the board after each move of the solution
    #[arg(long)]
    pub show: bool,
    /// The solver: optimal (the tiles' own IDA*: shortest answers) or stages (line by line,
    /// each step searched: any board in milliseconds, answers not shortest) [default: optimal]
    #[arg(long, value_enum)]
    pub solver: Option<SolverArg>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// A tiles solver on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverArg {
    /// The tiles' own IDA* (or the generic solver --algo names): shortest answers
    Optimal,
    /// Line by line, each step an exact search, the last 3x3 optimal: fast, not shortest
    Stages,
}

/// A heuristic on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicArg {
    /// Sum of Manhattan distances
    Manhattan,
    /// Manhattan distance plus linear conflicts
    Conflict,
    /// Additive disjoint pattern databases (built once, cached on disk)
    Pdb,
}

/// The name of a heuristic on the command line: `manhattan`.
fn heuristic_name(heuristic: HeuristicArg) -> String {
    clap::ValueEnum::to_possible_value(&heuristic)
        .map_or_else(String::new, |v| v.get_name().to_owned())
}

impl From<HeuristicArg> for HeuristicKind {
    fn from(h: HeuristicArg) -> HeuristicKind {
        match h {
            HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            HeuristicArg::Conflict => HeuristicKind::Conflict,
            HeuristicArg::Pdb => HeuristicKind::Pdb,
        }
    }
}

/// The arguments of `frontier explore tiles`.
#[derive(clap::Args, Debug)]
#[command(mut_args(crate::common::for_exploring))]
pub struct ExploreArgs {
    /// The layout to explore from [default: the goal]
    #[arg(value_name = "TILES")]
    pub tiles: Option<String>,
    /// The board as ROWSxCOLS [default: the square the tiles, or the goal, make; else 3x3]
    #[arg(long, value_name = "RxC")]
    pub size: Option<String>,
    /// The goal layout, explored from when TILES is not given (the reachable set of a layout
    /// does not depend on the goal) [default: 1 2 ... n-1 with the blank last]
    #[arg(long, value_name = "TILES", conflicts_with = "tiles")]
    pub goal: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
}

fn read_puzzle(tiles: &str, size: Option<&str>, goal: Option<&str>) -> anyhow::Result<Puzzle> {
    let shape = size.map(Shape::parse).transpose().context("bad --size")?;
    Puzzle::parse(tiles, shape, goal).context("cannot read the puzzle")
}

/// The largest pattern table `--pdb` may ask for (one byte an entry: 2 GiB).
const MAX_TABLE_ENTRIES: u64 = 1 << 31;

/// The tiles of each pattern database for `puzzle`: the groups `--pdb` sizes (`sizes`) or the
/// default ones; refused when the board is too large or a table would be.
fn pdb_groups(puzzle: &Puzzle, sizes: Option<&str>) -> anyhow::Result<Vec<Vec<u8>>> {
    let shape = puzzle.shape();
    if shape.cells() > frontier_tiles::pdb::MAX_CELLS {
        bail!(
            "--heuristic pdb: pattern databases are built for boards of up to {} cells, and this {shape} board has {}; use --heuristic conflict",
            frontier_tiles::pdb::MAX_CELLS,
            shape.cells()
        );
    }
    let groups = match sizes {
        Some(text) => {
            let sizes: Vec<usize> = text
                .split(['-', ',', '+'])
                .map(|s| s.trim().parse::<usize>())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    anyhow::anyhow!("--pdb `{text}`: expected group sizes such as 6-6-3")
                })?;
            match groups_by_sizes(shape, puzzle.goal(), &sizes) {
                Some(g) => g,
                None => bail!(
                    "--pdb `{text}`: the group sizes must be positive and add up to {} (the number of tiles)",
                    shape.cells() - 1
                ),
            }
        }
        None => default_groups(shape, puzzle.goal()).context("no default pattern groups")?,
    };
    for group in &groups {
        let entries = placements(shape.cells(), group.len());
        if entries > MAX_TABLE_ENTRIES {
            // `placements` saturates: 63 tiles on 64 cells make 64!, past any u64.
            let entries = match entries {
                u64::MAX => format!("more than {}", count(u64::MAX)),
                _ => count(entries),
            };
            bail!(
                "--pdb: a group of {} tiles on {} cells needs {entries} table entries (at most {} allowed); use smaller groups",
                group.len(),
                shape.cells(),
                count(MAX_TABLE_ENTRIES)
            );
        }
    }
    Ok(groups)
}

/// Refuses pattern databases that the memory budget does not allow ([`TableNeed`]): a byte an
/// entry, cached or not. `None` when they fit.
fn refuse_large_tables(
    ctx: &Context,
    search: &SearchArgs,
    puzzle: &Puzzle,
    groups: &[Vec<u8>],
) -> anyhow::Result<Option<ExitCode>> {
    let sizes: Vec<String> = groups.iter().map(|g| g.len().to_string()).collect();
    let need = TableNeed {
        domain: "tiles",
        algorithm: algorithm_of(search),
        what: format!("building the pattern databases (split {})", sizes.join("-")),
        bytes: build_bytes(puzzle.shape().cells(), groups),
        instead: "use smaller groups (--pdb), another --heuristic",
    };
    need.refuse_beyond(ctx, search)
}

/// Loads (or builds, with a progress bar, and caches) the pattern databases of `groups` for
/// `puzzle`. `Ok(None)` when `stop` ended a build first.
fn pattern_db(
    puzzle: &Puzzle,
    groups: &[Vec<u8>],
    ctx: &Context,
    quiet: bool,
    stop: &(dyn Fn() -> Option<Limit> + Sync),
) -> Result<Option<Arc<PatternDb>>, PdbError> {
    let tables = Tables::new(puzzle);
    let cache = frontier_tiles::default_cache();
    let bar = BuildBar::new(ctx, quiet);
    let progress = |table: usize, p: BuildProgress| {
        if let Some(bar) = &bar {
            let message = format!("building pattern database {}/{}", table + 1, groups.len());
            bar.update(p.reached, p.total, message);
        }
    };
    let db = PatternDb::load_or_build(&cache, &tables, groups, &progress, stop);
    if let Some(bar) = bar {
        bar.finish();
    }
    let db = db?;
    if let Some(db) = &db {
        warn_tables(db.cache_report());
    }
    Ok(db.map(Arc::new))
}

/// The solver `--algo` names, or the tiles' own IDA*.
fn algorithm_of(search: &SearchArgs) -> &'static str {
    search.algo.map_or("idastar", Algo::name)
}

/// Reports an outcome that has no solution to draw (decided by parity, or stopped before the
/// search began), under `algorithm`, the solver that would have searched.
fn report_unanswered(
    ctx: &Context,
    search: &SearchArgs,
    algorithm: &str,
    outcome: &Outcome<Vec<u8>, Dir>,
) -> anyhow::Result<ExitCode> {
    report(
        ctx,
        search,
        "tiles",
        algorithm,
        outcome,
        |m| json!(m.name()),
        |_, _| Ok(()),
    )
}

/// Draws a layout as a grid, the blank as `.`.
fn draw(out: &mut dyn Write, shape: Shape, board: &[u8]) -> std::io::Result<()> {
    let width = (shape.cells() - 1).to_string().len();
    for row in board.chunks(shape.cols()) {
        let cells: Vec<String> = row
            .iter()
            .map(|&t| {
                if t == 0 {
                    format!("{:>width$}", ".")
                } else {
                    format!("{t:>width$}")
                }
            })
            .collect();
        writeln!(out, "{}", cells.join(" "))?;
    }
    Ok(())
}

/// Solves the puzzle.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    let puzzle = read_puzzle(&args.tiles, args.size.as_deref(), args.goal.as_deref())?;
    let stages = args.solver == Some(SolverArg::Stages);
    if stages {
        let other = [
            (args.search.algo.is_some(), "--algo"),
            (args.heuristic.is_some(), "--heuristic"),
            (args.pdb.is_some(), "--pdb"),
            (args.search.weight.is_some(), "--weight"),
        ];
        if let Some((_, flag)) = other.iter().find(|(given, _)| *given) {
            bail!("--solver stages searches each step exactly and needs no {flag}; drop it, or use --solver optimal");
        }
    }
    // The default solver is the tiles' own IDA*, which weighs its heuristic too.
    let algo = args.search.algo.unwrap_or(Algo::Idastar);
    args.search.check_weight(algo.name(), algo.is_informed())?;
    // A heuristic no search would use, and a bad or useless --pdb, are refused before
    // anything is decided, parity included.
    if let (Some(heuristic), false) = (args.heuristic, algo.is_informed()) {
        bail!(
            "--heuristic {} guides astar and idastar; --algo {} uses no heuristic",
            heuristic_name(heuristic),
            algo.name()
        );
    }
    if let Some(sizes) = &args.pdb {
        if let Some(other) = args.heuristic.filter(|h| *h != HeuristicArg::Pdb) {
            bail!(
                "--pdb sizes the groups of --heuristic pdb; it does nothing for --heuristic {}",
                heuristic_name(other)
            );
        }
        if !algo.is_informed() {
            bail!(
                "--pdb sizes the groups of a heuristic, which --algo {} does not use",
                algo.name()
            );
        }
        pdb_groups(&puzzle, Some(sizes))?;
    }
    let shape = puzzle.shape();
    let quiet = args.search.quiet;
    if !puzzle.is_solvable() {
        // Parity decides it: no search.
        let outcome: Outcome<Vec<u8>, Dir> = Outcome::Exhausted {
            stats: Stats::default(),
        };
        if !args.search.json {
            let why = if shape.rows() == 1 || shape.cols() == 1 {
                "on a single line the tiles cannot pass each other, and their order differs from the goal's"
            } else {
                "the parity of the tiles' permutation differs from the parity of the blank's distance to its goal cell"
            };
            ctx.clear_progress();
            emit(|out| {
                writeln!(out, "unsolvable: {why} (decided without searching)")?;
                if args.search.stats {
                    writeln!(out, "{}", stats_line(outcome.stats()))?;
                }
                Ok(())
            })?;
            return Ok(ExitCode::from(1));
        }
        let algorithm = if stages {
            "stages"
        } else {
            algorithm_of(&args.search)
        };
        return report_unanswered(ctx, &args.search, algorithm, &outcome);
    }
    if stages {
        let config = args.search.config::<u64, Dir>(ctx);
        let mut outcome = solve_in_stages(&puzzle, &config);
        ctx.clear_progress();
        outcome.stats_mut().seconds = ctx.seconds();
        return report_solution(ctx, &args, &puzzle, "stages", &outcome);
    }
    let informed = algo.is_informed();
    let kind = args
        .heuristic
        .map(HeuristicKind::from)
        .unwrap_or(if shape.cells() <= 16 {
            HeuristicKind::Pdb
        } else {
            HeuristicKind::Conflict
        });
    // --timeout and Ctrl-C count from the start: building a pattern database (minutes for a
    // 5x5 board) stops at them like the search does, which then has what time is left.
    let clock = Stopwatch::new(&args.search, ctx);
    let stop = || clock.limit();
    let estimate = match (informed, kind) {
        (false, _) => Estimate::Zero,
        (true, HeuristicKind::Manhattan) => Estimate::Manhattan,
        (true, HeuristicKind::Conflict) => Estimate::Conflict,
        (true, HeuristicKind::Pdb) => {
            let groups = pdb_groups(&puzzle, args.pdb.as_deref())?;
            // A short answer needs no pattern database: the first run would otherwise build
            // one for seconds (the 15-puzzle's: 8 s) to slide a tile or two.
            if let Some(outcome) = short_solution(&args.search, ctx, &puzzle) {
                return report_solution(ctx, &args, &puzzle, algorithm_of(&args.search), &outcome);
            }
            if let Some(code) = refuse_large_tables(ctx, &args.search, &puzzle, &groups)? {
                return Ok(code);
            }
            match pattern_db(&puzzle, &groups, ctx, quiet, &stop)? {
                Some(db) => Estimate::Pdb(db),
                None => {
                    let algorithm = algorithm_of(&args.search);
                    return report_unanswered(ctx, &args.search, algorithm, &clock.stopped());
                }
            }
        }
    };
    let search = &args.search;
    let (algorithm, mut outcome): (&str, Outcome<Vec<u8>, Dir>) = match search.algo {
        None => {
            let config = search.config::<u64, Dir>(ctx);
            let solver = Solver::new(&puzzle, estimate)?;
            let outcome = solver.solve(puzzle.start(), &config);
            ctx.clear_progress();
            ("idastar", outcome)
        }
        Some(_) => generic(ctx, search, &puzzle, estimate)?,
    };
    // The time the command took, pattern databases included, as --timeout counts it.
    outcome.stats_mut().seconds = ctx.seconds();
    let code = report_solution(ctx, &args, &puzzle, algorithm, &outcome)?;
    // A random board past 5 x 5 is out of reach of any exact search: when one was stopped,
    // point to the answers that come at once. A diagnostic: on a terminal only, and not with
    // --json or --quiet.
    let stopped = matches!(
        outcome.status(),
        Status::Limit(Limit::Time | Limit::States | Limit::Cancelled)
    );
    if stopped && !quiet && !args.search.json && ctx.stderr_is_terminal {
        to_stderr("hint: --solver stages answers any board at once (not the shortest); --weight 2 finds an answer at most twice the shortest");
    }
    Ok(code)
}

/// Prints a search's answer: the start drawn, the moves (and with `--show` every layout), or
/// the JSON object.
fn report_solution(
    ctx: &Context,
    args: &Args,
    puzzle: &Puzzle,
    algorithm: &str,
    outcome: &Outcome<Vec<u8>, Dir>,
) -> anyhow::Result<ExitCode> {
    let (shape, quiet, show) = (puzzle.shape(), args.search.quiet, args.show);
    report(
        ctx,
        &args.search,
        "tiles",
        algorithm,
        outcome,
        |m| json!(m.name()),
        |out: &mut dyn Write, solution| {
            let names: Vec<&str> = solution.moves.iter().map(|m| m.name()).collect();
            if quiet {
                return writeln!(out, "{}", names.join(" "));
            }
            draw(out, shape, puzzle.start())?;
            if show {
                for (i, state) in solution.states.iter().enumerate().skip(1) {
                    writeln!(out, "\nafter {} ({i}):", names[i - 1])?;
                    draw(out, shape, state)?;
                }
            }
            let moves = if names.is_empty() {
                "(none: the tiles are already in place)".to_owned()
            } else {
                names.join(" ")
            };
            writeln!(out, "\nsolution: {moves}")?;
            writeln!(
                out,
                "length: {} (the blank moves U, D, L, R){}",
                plural(solution.len() as u64, "move"),
                if algorithm == "stages" {
                    "; found in stages, not proven shortest"
                } else {
                    ""
                }
            )
        },
    )
}

/// Answers within this many moves are found by bidirectional search before a pattern database
/// is loaded or built: about a millisecond (some thousands of layouts a side).
const SHORT: u32 = 16;

/// A shortest solution of at most [`SHORT`] moves (or `--max-depth`, if less), or the limit
/// that stopped the search for it; `None` when the layout lies further away or the state budget
/// is too small for the search.
fn short_solution(
    search: &SearchArgs,
    ctx: &Context,
    puzzle: &Puzzle,
) -> Option<Outcome<Vec<u8>, Dir>> {
    // No pattern database, so no error.
    let (_, outcome) = generic(ctx, &search.short(SHORT), puzzle, Estimate::Zero).ok()?;
    let further = search.past_short(outcome.status(), SHORT);
    (!further).then_some(outcome)
}

/// Runs the generic solver `search.algo` names over the smallest encoding that holds the
/// board; states come back as layouts.
fn generic(
    ctx: &Context,
    search: &SearchArgs,
    puzzle: &Puzzle,
    estimate: Estimate,
) -> Result<(&'static str, Outcome<Vec<u8>, Dir>), PdbError> {
    let n = puzzle.shape().cells();
    // `--algo` is given here; the default only completes the call.
    let default = Algo::Idastar;
    /// Solves over the narrowest encoding.
    struct Solve<'a> {
        ctx: &'a Context,
        search: &'a SearchArgs,
        puzzle: &'a Puzzle,
        estimate: Estimate,
        default: Algo,
    }
    impl OverEncoding for Solve<'_> {
        type Output = Result<(&'static str, Outcome<Vec<u8>, Dir>), PdbError>;
        fn run<E: Encoding>(self) -> Self::Output {
            let Solve {
                ctx,
                search,
                puzzle,
                estimate,
                default,
            } = self;
            encoded::<E>(puzzle, estimate, |s| search.solve(ctx, s, default))
        }
    }
    over_narrowest(
        n,
        Solve {
            ctx,
            search,
            puzzle,
            estimate,
            default,
        },
    )
}

/// Work generic over the encoding of a board's layouts.
trait OverEncoding {
    type Output;
    fn run<E: Encoding>(self) -> Self::Output;
}

/// Runs `work` over the narrowest encoding that holds `cells` cells: the
/// smaller a state, the less it costs to hash, compare and store (a 6x6 board by weighted A*:
/// 73 MB as `Wide<36>`, 101 MB as `Wide<64>`).
fn over_narrowest<W: OverEncoding>(cells: usize, work: W) -> W::Output {
    if cells <= u64::MAX_CELLS {
        work.run::<u64>()
    } else if cells <= u128::MAX_CELLS {
        work.run::<u128>()
    } else if cells <= Wide::<36>::MAX_CELLS {
        work.run::<Wide<36>>()
    } else if cells <= Wide::<64>::MAX_CELLS {
        work.run::<Wide<64>>()
    } else if cells <= Wide::<100>::MAX_CELLS {
        work.run::<Wide<100>>()
    } else {
        work.run::<Wide<256>>()
    }
}

/// Runs a generic solver (`solve`) over the encoding `E`; states come back as layouts.
fn encoded<E: Encoding>(
    puzzle: &Puzzle,
    estimate: Estimate,
    solve: impl FnOnce(&TilesSpace<E>) -> (Algo, Outcome<E, Dir>),
) -> Result<(&'static str, Outcome<Vec<u8>, Dir>), PdbError> {
    let space = TilesSpace::<E>::new(puzzle).with_estimate(estimate)?;
    let (algo, outcome) = solve(&space);
    let n = puzzle.shape().cells();
    let outcome = outcome.map(|e| e.decode(n), |mv| mv);
    Ok((algo.name(), outcome))
}

/// Explores the puzzle.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let goal = args.goal.as_deref();
    let puzzle = match &args.tiles {
        Some(tiles) => read_puzzle(tiles, args.size.as_deref(), None)?,
        None => {
            // From the goal: the size is --size, else the square the goal makes, else 3x3.
            let shape = args.size.as_deref().map(Shape::parse).transpose();
            let shape = shape.context("bad --size")?;
            match goal {
                Some(goal) => Puzzle::at_goal(shape, goal).context("cannot read the puzzle")?,
                None => {
                    let shape = shape.map_or_else(|| Shape::new(3, 3), Ok)?;
                    let layout = shape.default_goal();
                    Puzzle::new(shape, &layout, &layout)?
                }
            }
        }
    };
    let n = puzzle.shape().cells();
    /// Explores over the narrowest encoding.
    struct Explore<'a> {
        ctx: &'a Context,
        search: &'a SearchArgs,
        puzzle: &'a Puzzle,
    }
    impl OverEncoding for Explore<'_> {
        type Output = Exploration;
        fn run<E: Encoding>(self) -> Exploration {
            (self.search).explore(self.ctx, &TilesSpace::<E>::new(self.puzzle))
        }
    }
    let search = &args.search;
    let explore = Explore {
        ctx,
        search,
        puzzle: &puzzle,
    };
    let exploration = over_narrowest(n, explore);
    report_exploration(ctx, &args.search, "tiles", &exploration)
}
