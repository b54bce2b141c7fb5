//! `frontier tiles`: solve a sliding-tile puzzle optimally, and `frontier explore tiles`: the
//! distance distribution of a board's reachable layouts.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context as _};
use frontier_search::{
    search_tree, Exploration, Limit, Outcome, SearchTree, Solution, Space, Status,
};
use frontier_tiles::pdb::{build_bytes, MAX_TABLE_ENTRIES};
use frontier_tiles::{
    choose_groups, over_narrowest, solve_in_stages, BuildProgress, Dir, Encoding, Estimate,
    GroupsError, HeuristicKind, OverEncoding, PatternDb, PdbError, Puzzle, Shape, Solver, Tables,
    TilesSpace,
};

use crate::commands::explore::{self as explore_cmd, Plan};
use crate::common::{
    count, plural, report_exploration, warn_tables, Algo, BuildBar, Context, SearchArgs, Stopwatch,
    TableNeed,
};
use crate::driver::{self, short_answer, walk_through, Domain};
use crate::pictures::{self, Pictures, Subject};

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
    /// Draw the board after each move of the solution (in the --svg and --png picture too)
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

/// The groups of `--heuristic pdb` (`sizes`: `--pdb`), refused in the words of the flags.
fn pdb_groups(puzzle: &Puzzle, sizes: Option<&str>) -> anyhow::Result<Vec<Vec<u8>>> {
    choose_groups(puzzle, sizes).map_err(|e| match e {
        GroupsError::BoardTooLarge { .. } => {
            anyhow::anyhow!("--heuristic pdb: {e}; use --heuristic conflict")
        }
        GroupsError::TableTooLarge {
            tiles,
            cells,
            entries,
        } => {
            // `placements` saturates: 63 tiles on 64 cells make 64!, past any u64.
            let entries = match entries {
                u64::MAX => format!("more than {}", count(u64::MAX)),
                _ => count(entries),
            };
            anyhow::anyhow!(
                "--pdb: a group of {tiles} tiles on {cells} cells needs {entries} table entries (at most {} allowed); use smaller groups",
                count(MAX_TABLE_ENTRIES)
            )
        }
        GroupsError::NotSizes { .. } | GroupsError::WrongSizes { .. } => {
            anyhow::anyhow!("--pdb {e}")
        }
        e => anyhow::Error::new(e),
    })
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

/// Draws a layout as a grid, the blank as `.`.
fn draw(out: &mut dyn Write, shape: Shape, board: &[u8]) -> io::Result<()> {
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
    let kind = args
        .heuristic
        .map(HeuristicKind::from)
        .unwrap_or(if puzzle.shape().cells() <= 16 {
            HeuristicKind::Pdb
        } else {
            HeuristicKind::Conflict
        });
    let domain = TilesRun {
        puzzle,
        stages,
        algo: args.search.algo,
        heuristic: algo.is_informed().then_some(kind),
        pdb: args.pdb,
        estimate: None,
        show: args.show,
    };
    driver::run(domain, &args.search, ctx)
}

/// One run of `frontier tiles`: the puzzle, the solver and its heuristic.
struct TilesRun {
    puzzle: Puzzle,
    /// `--solver stages`.
    stages: bool,
    /// `--algo`: a generic solver instead of the tiles' own IDA*.
    algo: Option<Algo>,
    /// The heuristic, for a solver that ranks by one.
    heuristic: Option<HeuristicKind>,
    /// `--pdb`: the group sizes of the pattern databases.
    pdb: Option<String>,
    /// The pattern databases' estimate, once they are loaded or built.
    estimate: Option<Estimate>,
    /// `--show`: the board after each move.
    show: bool,
}

impl TilesRun {
    /// Whether the solver needs pattern databases, which are tables to build.
    fn needs_pdb(&self) -> bool {
        !self.stages && self.heuristic == Some(HeuristicKind::Pdb)
    }
}

impl Domain for TilesRun {
    type State = Vec<u8>;
    type Move = Dir;

    const NAME: &'static str = "tiles";

    fn algorithm(&self) -> &'static str {
        match (self.stages, self.algo) {
            (true, _) => "stages",
            (false, algo) => algo.map_or("idastar", Algo::name),
        }
    }

    fn unsolvable(&self) -> Option<&'static str> {
        let shape = self.puzzle.shape();
        (!self.puzzle.is_solvable()).then_some(if shape.rows() == 1 || shape.cols() == 1 {
            "on a single line the tiles cannot pass each other, and their order differs from the goal's"
        } else {
            "the parity of the tiles' permutation differs from the parity of the blank's distance to its goal cell"
        })
    }

    // The pattern databases count against the memory budget, a byte an entry, cached or not.
    fn tables(&self) -> anyhow::Result<Option<TableNeed>> {
        if !self.needs_pdb() {
            return Ok(None);
        }
        let groups = pdb_groups(&self.puzzle, self.pdb.as_deref())?;
        let sizes: Vec<String> = groups.iter().map(|g| g.len().to_string()).collect();
        Ok(Some(TableNeed {
            what: format!("building the pattern databases (split {})", sizes.join("-")),
            bytes: build_bytes(self.puzzle.shape().cells(), &groups),
            instead: "use smaller groups (--pdb), another --heuristic",
        }))
    }

    // A short answer needs no pattern database: the first run would otherwise build one for
    // seconds (the 15-puzzle's) to slide a tile or two.
    fn short(
        &self,
        ctx: &Context,
        search: &SearchArgs,
    ) -> anyhow::Result<Option<Outcome<Vec<u8>, Dir>>> {
        short_answer(search, SHORT, |short| {
            // No pattern database, so no error.
            Ok(generic(ctx, short, &self.puzzle, Estimate::Zero)?)
        })
    }

    // --timeout and Ctrl-C count from the start: building a pattern database (minutes for a
    // 5x5 board) stops at them like the search does, which then has what time is left.
    fn build(
        &mut self,
        ctx: &Context,
        search: &SearchArgs,
        clock: &Stopwatch,
    ) -> anyhow::Result<bool> {
        if !self.needs_pdb() {
            return Ok(true);
        }
        let groups = pdb_groups(&self.puzzle, self.pdb.as_deref())?;
        let db = pattern_db(&self.puzzle, &groups, ctx, search.quiet, &|| clock.limit())?;
        self.estimate = db.map(Estimate::Pdb);
        Ok(self.estimate.is_some())
    }

    fn solve(&self, ctx: &Context, search: &SearchArgs) -> anyhow::Result<Outcome<Vec<u8>, Dir>> {
        let puzzle = &self.puzzle;
        if self.stages {
            return Ok(solve_in_stages(puzzle, &search.config::<u64, Dir>(ctx)));
        }
        let estimate = match (&self.estimate, self.heuristic) {
            (Some(pdb), _) => pdb.clone(),
            (None, None) => Estimate::Zero,
            (None, Some(HeuristicKind::Manhattan)) => Estimate::Manhattan,
            (None, Some(_)) => Estimate::Conflict,
        };
        Ok(match self.algo {
            None => {
                let config = search.config::<u64, Dir>(ctx);
                Solver::new(puzzle, estimate)?.solve(puzzle.start(), &config)
            }
            Some(_) => generic(ctx, search, puzzle, estimate)?,
        })
    }

    fn move_name(&self, mv: &Dir) -> String {
        mv.name().to_owned()
    }

    fn search_tree(&self, depth: u32, max_nodes: usize) -> SearchTree<Vec<u8>, Dir> {
        /// Unfolds the tree over the narrowest encoding.
        struct Tree<'a> {
            puzzle: &'a Puzzle,
            depth: u32,
            max_nodes: usize,
        }
        impl OverEncoding for Tree<'_> {
            type Output = SearchTree<Vec<u8>, Dir>;
            fn run<E: Encoding>(self) -> Self::Output {
                let space = TilesSpace::<E>::new(self.puzzle);
                let n = self.puzzle.shape().cells();
                search_tree(&space, self.depth, self.max_nodes).map_states(|e| e.decode(n))
            }
        }
        let tree = Tree {
            puzzle: &self.puzzle,
            depth,
            max_nodes,
        };
        over_narrowest(self.puzzle.shape().cells(), tree)
    }

    /// The tiles row by row, `_` for the blank: `1 2 3/4 _ 5/...`.
    fn state_label(&self, board: &Vec<u8>) -> String {
        let cols = self.puzzle.shape().cols();
        let rows: Vec<String> = board
            .chunks(cols)
            .map(|row| {
                let tiles: Vec<String> = row
                    .iter()
                    .map(|&t| {
                        if t == 0 {
                            "_".to_owned()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
                tiles.join(" ")
            })
            .collect();
        rows.join("/")
    }

    fn use_solver(&mut self, algo: Algo) {
        self.stages = false;
        self.algo = Some(algo);
        if !algo.is_informed() {
            self.heuristic = None;
        } else if self.heuristic.is_none() {
            self.heuristic = Some(HeuristicKind::Manhattan);
        }
    }

    fn draw(&self, out: &mut dyn Write, solution: &Solution<Vec<u8>, Dir>) -> io::Result<()> {
        let shape = self.puzzle.shape();
        let picture = |out: &mut dyn Write, board: &Vec<u8>| draw(out, shape, board);
        let none = "(none: the tiles are already in place)";
        walk_through(self, out, solution, self.show, picture, none)?;
        writeln!(
            out,
            "length: {} (the blank moves U, D, L, R){}",
            plural(solution.len() as u64, "move"),
            if self.stages {
                "; found in stages, not proven shortest"
            } else {
                ""
            }
        )
    }

    fn picture(&self, solution: &Solution<Vec<u8>, Dir>) -> Result<svg::Document, String> {
        let names: Vec<String> = solution.moves.iter().map(|m| self.move_name(m)).collect();
        pictures::tiles::draw(
            self.puzzle.shape(),
            self.puzzle.goal(),
            &solution.states,
            &names,
            self.show,
            &plural(solution.len() as u64, "move"),
        )
    }

    // A random board past 5 x 5 is out of reach of any exact search: when one was stopped,
    // point to the answers that come at once.
    fn hint(&self, outcome: &Outcome<Vec<u8>, Dir>, short: bool) -> Option<&'static str> {
        let stopped = matches!(
            outcome.status(),
            Status::Limit(Limit::Time | Limit::States | Limit::Cancelled)
        );
        (stopped && !short && !self.stages).then_some(
            "hint: --solver stages answers any board at once (not the shortest); --weight 2 finds an answer at most twice the shortest",
        )
    }
}

/// Answers within this many moves are found by bidirectional search before a pattern database
/// is loaded or built: some thousands of layouts a side.
const SHORT: u32 = 16;

/// Runs the generic solver `search.algo` names over the smallest encoding that holds the
/// board; states come back as layouts.
fn generic(
    ctx: &Context,
    search: &SearchArgs,
    puzzle: &Puzzle,
    estimate: Estimate,
) -> Result<Outcome<Vec<u8>, Dir>, PdbError> {
    /// Solves over the narrowest encoding.
    struct Solve<'a> {
        ctx: &'a Context,
        search: &'a SearchArgs,
        puzzle: &'a Puzzle,
        estimate: Estimate,
    }
    impl OverEncoding for Solve<'_> {
        type Output = Result<Outcome<Vec<u8>, Dir>, PdbError>;
        fn run<E: Encoding>(self) -> Self::Output {
            let space = TilesSpace::<E>::new(self.puzzle).with_estimate(self.estimate)?;
            // `--algo` is given here; the default only completes the call.
            let (_, outcome) = self.search.solve(self.ctx, &space, Algo::Idastar);
            let n = self.puzzle.shape().cells();
            Ok(outcome.map(|e| e.decode(n), |mv| mv))
        }
    }
    let solve = Solve {
        ctx,
        search,
        puzzle,
        estimate,
    };
    over_narrowest(puzzle.shape().cells(), solve)
}

/// Explores the puzzle.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let mut pictures = Pictures::open(&args.search, Subject::Chart)?;
    let puzzle = explore_puzzle(&args)?;
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
    report_exploration(ctx, &args.search, "tiles", &exploration, &mut pictures)
}

/// Explores the puzzle across workers and processes (`--processes`, `--workers`).
pub fn explore_across(args: ExploreArgs, plan: &Plan, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let puzzle = explore_puzzle(&args)?;
    let start: Vec<String> = puzzle.start().iter().map(u8::to_string).collect();
    // What a checkpoint and every process must agree on: the board and its start.
    let fingerprint = format!("tiles {} from {}", puzzle.shape(), start.join(" "));
    // Only boards that a u64 holds have a rank.
    if puzzle.shape().cells() > <u64 as Encoding>::MAX_CELLS {
        bail!("{}: {NO_RANK}", puzzle.shape());
    }
    let space = TilesSpace::<u64>::new(&puzzle);
    if space.index_bound().is_none() {
        bail!("{}: {NO_RANK}", puzzle.shape());
    }
    explore_cmd::across(&space, plan.run(fingerprint), &args.search, ctx, "tiles")
}

/// Why a board cannot be explored across workers.
const NO_RANK: &str =
    "a board of more than 13 cells has no rank to share out among workers (--workers, --processes)";

/// The puzzle `frontier explore tiles` explores: from TILES, else from the goal.
fn explore_puzzle(args: &ExploreArgs) -> anyhow::Result<Puzzle> {
    let goal = args.goal.as_deref();
    Ok(match &args.tiles {
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
    })
}
