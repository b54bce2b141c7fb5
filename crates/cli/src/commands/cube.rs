//! `frontier cube`: solve a Rubik's cube given as a scramble or as facelets, and
//! `frontier explore cube`: count cube positions by distance from solved.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{bail, Context as _};
use frontier_cube::{
    cache, scramble_facelets, unfold, write_moves, BuildProgress, Cube, CubeError, CubeSpace,
    Facelets, Heuristic, Metric, Move, Notation, Optimal, SymmetricCubeSpace, TableSize, TwoPhase,
};
use frontier_search::{search_tree, Limit, Outcome, SearchTree, Solution, Status};
use serde_json::json;

use crate::common::{
    emit, exit_code, json_answer, limit_message, report_exploration, to_stderr, warn_tables, Algo,
    BuildBar, Context, SearchArgs, Stopwatch, TableNeed,
};
use crate::driver::{self, short_answer, walk_through, Domain};
use crate::pictures::{self, Pictures, Subject};

/// The arguments of `frontier cube`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scramble, applied to the solved cube (or to --facelets): WCA notation such as
    /// "R U R' U' F2" (wide Rw/r, slices M E S and rotations x y z accepted), or the seed's
    /// letters with --notation seed. An empty scramble is the solved cube
    #[arg(value_name = "SCRAMBLE")]
    pub scramble: Option<String>,
    /// The cube as 54 facelet letters, faces in the order U R F D L B (Kociemba's format);
    /// with --batch and no STRING, the file's lines are facelet strings
    #[arg(long, value_name = "STRING", num_args = 0..=1, default_missing_value = "")]
    pub facelets: Option<String>,
    /// Print N random-state scrambles instead of solving: each a uniformly random cube, no
    /// closer than 2 moves to solved, written as the inverse of a two-phase solution of at
    /// most 20 moves (--json: {"scramble": ..., "facelets": ...} a line)
    #[arg(long = "scramble", value_name = "N")]
    pub scrambles: Option<u64>,
    /// The seed of --scramble's random cubes (the same seed, the same scrambles) [default:
    /// from the clock]
    #[arg(long, value_name = "S", requires = "scrambles")]
    pub seed: Option<u64>,
    /// Solve every cube of FILE (- for standard input), one a line (a scramble, or with
    /// --facelets a facelet string): one answer a line, in input order, the cubes spread over
    /// --threads; a line that cannot be read is reported on stderr with its number and the
    /// batch goes on (exit 2 at the end)
    #[arg(long, value_name = "FILE")]
    pub batch: Option<String>,
    /// Solve to this pattern (54 facelet letters) instead of to the solved cube: the moves
    /// take the cube to it
    #[arg(long, value_name = "FACELETS")]
    pub target: Option<String>,
    /// With --solver twophase: after the first solution within the bound, search NODES more
    /// nodes (each worker) for a shorter one [default: 0, the first solution]
    #[arg(long, value_name = "NODES")]
    pub effort: Option<u64>,
    /// How moves are counted: htm (18 face moves, each 1) or qtm (12 quarter turns)
    /// [default: htm; with --notation seed always qtm, whose letters are quarter turns]
    #[arg(long, value_enum)]
    pub metric: Option<MetricArg>,
    /// How moves are read and written: wca ("R U' F2") or seed ("R" clockwise, "r"
    /// counter-clockwise)
    #[arg(long, value_enum, default_value = "wca")]
    pub notation: NotationArg,
    /// The cube solver: "optimal" finds a shortest solution with the cube's own IDA* and a
    /// table of distances (--table; built once, then cached); "twophase" is
    /// Kociemba's two-phase algorithm, which solves any cube in at most 20 moves (HTM) in a
    /// fraction of a second, not always the fewest (--max-depth N takes the first solution of
    /// at most N moves instead); "search" runs the generic solver chosen by --algo (default
    /// bidirectional search on classes of cubes under the 48 symmetries) [default: optimal,
    /// or search with --algo]
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// The optimal solver's table: small (35 MB, built in seconds), medium (986 MB, built
    /// in minutes; random cubes several times faster) or large (3.9 GB, built in about
    /// twelve minutes; faster still) [default: the largest already built for the metric, else
    /// small]
    #[arg(long, value_name = "SIZE")]
    pub table: Option<String>,
    /// Build the optimal solver's table of SIZE (small, medium or large) for --metric into the
    /// cache ahead of time, and solve nothing; --timeout and Ctrl-C stop it
    #[arg(long, value_name = "SIZE")]
    pub build_tables: Option<String>,
    /// Every shortest solution, counted and listed (the optimal solver; each canonical move
    /// sequence once: of two opposite faces' turns side by side U before D, R before L, F
    /// before B)
    #[arg(long)]
    pub all: bool,
    /// Draw the cube after each move of the solution (in the --svg and --png picture too)
    #[arg(long)]
    pub show: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// A metric on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricArg {
    /// Half-turn metric: any face turn counts 1
    Htm,
    /// Quarter-turn metric: only quarter turns, each counts 1 (the seed's)
    Qtm,
}

impl From<MetricArg> for Metric {
    fn from(metric: MetricArg) -> Metric {
        match metric {
            MetricArg::Htm => Metric::Htm,
            MetricArg::Qtm => Metric::Qtm,
        }
    }
}

/// A notation on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotationArg {
    /// WCA notation: R U' F2
    Wca,
    /// The seed's letters: R clockwise, r counter-clockwise
    Seed,
}

impl From<NotationArg> for Notation {
    fn from(notation: NotationArg) -> Notation {
        match notation {
            NotationArg::Wca => Notation::Wca,
            NotationArg::Seed => Notation::Seed,
        }
    }
}

/// The cube solvers `--solver` accepts, with what each one is.
const SOLVERS: &str = "optimal (shortest solutions, the cube's own IDA*), \
    twophase (Kociemba's two-phase algorithm: at most 20 moves, fast), \
    search (the generic solver chosen by --algo, shortest solutions)";

/// The optimal solver's table sizes `--table` accepts.
const SIZES: &str = "small (35 MB), medium (986 MB), large (3.9 GB)";

/// The table size named by `--table` or `--build-tables` (`flag`).
fn table_size(name: &str, flag: &str) -> anyhow::Result<TableSize> {
    TableSize::from_name(name)
        .with_context(|| format!("{flag} {name:?}: unknown table size; available: {SIZES}"))
}

/// The cube solvers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Solver {
    Optimal,
    TwoPhase,
    Search,
}

/// What two-phase aims at without --max-depth: God's number, the most moves any cube needs in
/// HTM (Rokicki, Kociemba, Davidson, Dethridge 2010), which two-phase reaches quickly on a
/// random cube.
const TWOPHASE_TARGET: u32 = 20;

/// A facelet string read, its errors headed by `what` (`--facelets`): cannot be read, or not
/// a solvable cube.
fn read_facelets(text: &str, what: &str) -> anyhow::Result<Facelets> {
    // Whitespace between facelets is ignored (a face a group), and columns count it.
    text.parse::<Facelets>().map_err(|e| {
        let heading = match e {
            CubeError::Length(_) | CubeError::FaceLength { .. } | CubeError::Letter { .. } => {
                format!("cannot read {what}")
            }
            _ => format!("{what} is not a solvable cube"),
        };
        anyhow::Error::new(e).context(heading)
    })
}

/// The start cube: `--facelets` (or solved) with the scramble applied.
fn start_cube(args: &Args, notation: Notation) -> anyhow::Result<Facelets> {
    let start = match &args.facelets {
        Some(text) => read_facelets(text, "--facelets")?,
        None if args.scramble.is_none() => {
            bail!("give a scramble (e.g. frontier cube \"R U R' U'\") or --facelets STRING")
        }
        None => Facelets::SOLVED,
    };
    let scramble = args.scramble.as_deref().unwrap_or("");
    scramble_facelets(start, scramble, notation).context("cannot read the scramble")
}

/// Solves the cube.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    let solver = match args.solver.as_deref() {
        None if args.search.algo.is_some() => Solver::Search,
        None | Some("optimal") => Solver::Optimal,
        Some("twophase") => Solver::TwoPhase,
        Some("search") => Solver::Search,
        Some(other) => bail!("unknown solver {other:?}; available: {SOLVERS}"),
    };
    if let (Some(algo), Some(name)) = (args.search.algo, args.solver.as_deref()) {
        if solver != Solver::Search {
            bail!(
                "--algo {} picks a generic solver; it does not go with --solver {name}",
                algo.name()
            );
        }
    }
    let solver_name = match (solver, args.search.algo) {
        (Solver::Optimal, _) => "the optimal solver",
        (Solver::TwoPhase, _) => "two-phase",
        (Solver::Search, algo) => algo.map_or("bidirectional", Algo::name),
    };
    let weighs = solver == Solver::Search && args.search.algo.is_some_and(Algo::is_informed);
    args.search.check_weight(solver_name, weighs)?;
    let twophase = solver == Solver::TwoPhase;
    let notation = Notation::from(args.notation);
    if twophase && args.metric == Some(MetricArg::Qtm) && notation == Notation::Wca {
        bail!("--solver twophase counts moves in htm; drop --metric qtm, or use --solver optimal for the fewest quarter turns");
    }
    // The seed's letters are quarter turns: a half turn has no token of its own (DESIGN's JSON
    // moves in seed notation are "R" | "r"), so seed notation counts quarter turns.
    if notation == Notation::Seed && args.metric == Some(MetricArg::Htm) {
        bail!("--notation seed writes quarter turns only (R, r): it goes with --metric qtm; use --notation wca for htm");
    }
    let metric = args.metric.map(Metric::from).unwrap_or(match notation {
        Notation::Wca => Metric::Htm,
        Notation::Seed => Metric::Qtm,
    });
    // Two-phase bounds its answer in face turns, then writes each half turn as two quarter
    // turns: a bound of N would let through answers of up to 2N (a 29-move answer to
    // --max-depth 20 was reported solved).
    if twophase && metric == Metric::Qtm && args.search.max_depth.is_some() {
        bail!("--max-depth with --solver twophase bounds face turns (htm), but --notation seed counts quarter turns; use --solver optimal for at most N quarter turns, or drop --max-depth");
    }
    if args.effort.is_some() && !twophase {
        bail!("--effort counts two-phase's extra nodes; it goes with --solver twophase");
    }
    if solver != Solver::Optimal {
        if let Some(flag) = [
            (args.table.is_some(), "--table"),
            (args.all, "--all"),
            (args.build_tables.is_some(), "--build-tables"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
        {
            bail!("{flag} goes with the optimal solver, not {solver_name}");
        }
    }
    let cache = cache::default_cache();
    let table = match &args.table {
        Some(name) => table_size(name, "--table")?,
        // The largest table already built, else the small one (built in seconds).
        None => (TableSize::ALL.into_iter().rev())
            .find(|size| size.is_cached(&cache, metric))
            .unwrap_or(TableSize::Small),
    };
    let target = match &args.target {
        Some(text) => {
            let facelets = read_facelets(text, "--target")?;
            Some(Cube::from_facelets(&facelets).context("the --target cube is impossible")?)
        }
        None => None,
    };
    let mut domain = CubeRun {
        cube: Cube::SOLVED,
        start: Cube::SOLVED,
        metric,
        notation,
        solver,
        algo: args.search.algo,
        effort: args.effort.unwrap_or(0),
        table,
        optimal: None,
        twophase: None,
        show: args.show,
        ansi: ctx.stdout_is_terminal,
    };
    if (args.scrambles.is_some() || args.batch.is_some())
        && (args.search.svg.is_some() || args.search.png.is_some())
    {
        bail!("--svg and --png draw one answer; they do not go with --scramble N or --batch");
    }
    if let Some(name) = &args.build_tables {
        let solving = [
            args.scramble.is_some(),
            args.facelets.is_some(),
            args.batch.is_some(),
        ];
        if solving.contains(&true) || args.all || args.scrambles.is_some() {
            bail!("--build-tables builds a table and solves nothing; it takes no scramble, --facelets, --batch, --scramble or --all");
        }
        domain.table = table_size(name, "--build-tables")?;
        return build_tables(&mut domain, &args.search, ctx);
    }
    if args.all {
        if args.scrambles.is_some() || args.batch.is_some() {
            bail!("--all lists the shortest solutions of one cube; it does not go with --scramble or --batch");
        }
        if args.search.tree.is_some() || args.search.compare.is_some() {
            bail!("--all lists the optimal solver's solutions; it does not go with --tree or --compare");
        }
    }
    if let Some(count) = args.scrambles {
        if args.scramble.is_some() || args.facelets.is_some() || args.batch.is_some() {
            bail!("--scramble N makes cubes; it takes no scramble, --facelets or --batch");
        }
        let seed = args.seed.unwrap_or_else(clock_seed);
        return scrambles(&mut domain, count, seed, &args.search, ctx);
    }
    if let Some(file) = &args.batch {
        if args.scramble.is_some() || args.facelets.as_deref().is_some_and(|f| !f.is_empty()) {
            bail!("--batch reads its cubes from the file; give no scramble or --facelets STRING (--facelets alone reads facelet lines)");
        }
        return batch(
            domain,
            file,
            args.facelets.is_some(),
            target,
            &args.search,
            ctx,
        );
    }
    // The default is the optimal solver: from a dozen moves on, the fastest that finds a
    // shortest solution (crates/cube/README.md). Without --algo, --solver search is
    // bidirectional search.
    let facelets = start_cube(&args, notation)?;
    let cube = Cube::from_facelets(&facelets).context("the cube is impossible")?;
    domain.set_cube(cube, target);
    if args.all {
        return all_solutions(domain, &args.search, ctx);
    }
    driver::run(domain, &args.search, ctx)
}

/// `--build-tables`: the optimal solver's table of the run's size and metric, loaded or
/// built into the cache, with a bar; the budget is checked first.
fn build_tables(
    domain: &mut CubeRun,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<ExitCode> {
    if search.svg.is_some() || search.png.is_some() {
        bail!("--build-tables builds a table and draws nothing; it takes no --svg or --png");
    }
    if let Some(tables) = domain.tables()? {
        if let Some(code) = tables.refuse_beyond(ctx, search, "cube", domain.algorithm())? {
            return Ok(code);
        }
    }
    let clock = Stopwatch::new(search, ctx);
    if !domain.build(ctx, search, &clock)? {
        return driver::answer(&*domain, search, ctx, &clock.stopped());
    }
    let Some(optimal) = &domain.optimal else {
        bail!("internal error: the optimal solver has no table");
    };
    let report = optimal.cache_report();
    let done = match report.origin {
        frontier_tables::Origin::Cache => "already built",
        _ => "built",
    };
    let path = report.path.display().to_string();
    let line = format!(
        "{} table ({}): {done} in {:.1} s, {path}",
        domain.table.name(),
        domain.metric.name(),
        ctx.seconds()
    );
    emit(|out| match search.json {
        true => writeln!(
            out,
            "{}",
            json!({"table": domain.table.name(), "metric": domain.metric.name(), "status": done,
                   "path": path, "seconds": ctx.seconds()})
        ),
        false => writeln!(out, "{line}"),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `--all`: every shortest solution of the run's cube, by the optimal solver. The answer is
/// the first of them as usual, then their count and list (in JSON, `"count"` and
/// `"solutions"`).
fn all_solutions(
    mut domain: CubeRun,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<ExitCode> {
    // The picture, if one is asked for, is of the first solution.
    let mut pictures = Pictures::open(search, Subject::Answer)?;
    if let Some(tables) = domain.tables()? {
        if let Some(code) = tables.refuse_beyond(ctx, search, "cube", domain.algorithm())? {
            pictures.skip(NO_ANSWER);
            return Ok(code);
        }
    }
    let clock = Stopwatch::new(search, ctx);
    if !domain.build(ctx, search, &clock)? {
        pictures.skip(NO_ANSWER);
        return driver::answer(&domain, search, ctx, &clock.stopped());
    }
    let Some(optimal) = &domain.optimal else {
        bail!("internal error: the optimal solver has no table");
    };
    let (mut outcome, solutions) =
        optimal.solve_all(domain.cube, &search.config::<Cube, Move>(ctx));
    ctx.clear_progress();
    outcome.stats_mut().seconds = ctx.seconds();
    if let Outcome::Solved { solution, .. } = &mut outcome {
        solution.states = domain.start.path(&solution.moves);
    }
    let names =
        |moves: &[Move]| -> Vec<String> { moves.iter().map(|m| domain.move_name(m)).collect() };
    if search.json {
        let mut buffer = Vec::new();
        let name = |mv: &Move| json!(domain.move_name(mv));
        json_answer(
            &mut buffer,
            search,
            "cube",
            domain.algorithm(),
            &outcome,
            &name,
            None,
        )?;
        let mut answer: serde_json::Value =
            serde_json::from_slice(&buffer).context("internal error: the answer is not JSON")?;
        if outcome.status() == Status::Solved {
            answer["count"] = json!(solutions.len());
            answer["solutions"] = json!(solutions.iter().map(|m| names(m)).collect::<Vec<_>>());
        }
        emit(|out| writeln!(out, "{answer}"))?;
        draw_first(&domain, &mut pictures, &outcome)?;
        return Ok(exit_code(outcome.status()));
    }
    let code = driver::answer(&domain, search, ctx, &outcome)?;
    if outcome.status() == Status::Solved {
        emit(|out| {
            if !search.quiet {
                let s = if solutions.len() == 1 { "" } else { "s" };
                writeln!(out, "{} shortest solution{s}:", solutions.len())?;
            }
            for moves in &solutions {
                let line = write_moves(moves, domain.notation);
                writeln!(
                    out,
                    "{}",
                    if line.is_empty() {
                        "(none: the cube is solved)"
                    } else {
                        &line
                    }
                )?;
            }
            Ok(())
        })?;
    }
    draw_first(&domain, &mut pictures, &outcome)?;
    Ok(code)
}

/// Why `--all` writes no picture when it found no solution.
const NO_ANSWER: &str = "there is no answer to draw";

/// Writes the picture of `--all`'s first solution to the files asked for, or says why not.
fn draw_first(
    domain: &CubeRun,
    pictures: &mut Pictures,
    outcome: &Outcome<Cube, Move>,
) -> anyhow::Result<()> {
    match outcome.solution() {
        Some(solution) => pictures.write(|| domain.picture(solution)),
        None => {
            pictures.skip(NO_ANSWER);
            Ok(())
        }
    }
}

/// A seed for --scramble without --seed: the clock's nanoseconds.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64)
}

/// Prints `count` random-state scrambles from `seed`, one a line; the two-phase tables are
/// loaded or built first, under the command's clock.
fn scrambles(
    domain: &mut CubeRun,
    count: u64,
    seed: u64,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<ExitCode> {
    domain.solver = Solver::TwoPhase;
    let clock = Stopwatch::new(search, ctx);
    if !domain.build(ctx, search, &clock)? {
        return driver::answer(&*domain, search, ctx, &clock.stopped());
    }
    let Some(solver) = &domain.twophase else {
        bail!("internal error: two-phase has no tables");
    };
    let mut scrambles = solver.scrambles(seed);
    for _ in 0..count {
        let config = search.config::<Cube, Move>(ctx).threads(1);
        let scramble = match scrambles.next_within(&config) {
            Ok(scramble) => scramble,
            Err(limit) => {
                let outcome: Outcome<Cube, Move> = Outcome::Stopped {
                    limit,
                    stats: Default::default(),
                };
                return driver::answer(&*domain, search, ctx, &outcome);
            }
        };
        let moves = match domain.notation {
            Notation::Wca => scramble.moves,
            Notation::Seed => Move::in_quarter_turns(&scramble.moves),
        };
        let text = write_moves(&moves, domain.notation);
        emit(|out| match search.json {
            true => writeln!(
                out,
                "{}",
                json!({"scramble": text, "facelets": scramble.cube.to_facelets().to_string()})
            ),
            false => writeln!(out, "{text}"),
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A batch line's answer, or why the line could not be solved.
type Answer = anyhow::Result<Outcome<Cube, Move>>;

/// Solves every cube of `file` (`-`: standard input), one a line, with the command's solver:
/// the answers in input order, the cubes spread over `--threads` workers (each solve on one
/// thread). A line that cannot be read is reported on stderr with its number; the exit code is
/// then 2, else the worst of the answers'.
fn batch(
    mut domain: CubeRun,
    file: &str,
    facelets: bool,
    target: Option<Cube>,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<ExitCode> {
    let text = if file == "-" {
        io::read_to_string(io::stdin()).context("cannot read the cubes from standard input")?
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?
    };
    let clock = Stopwatch::new(search, ctx);
    if let Some(tables) = domain.tables()? {
        if let Some(code) = tables.refuse_beyond(ctx, search, "cube", domain.algorithm())? {
            return Ok(code);
        }
    }
    if !domain.build(ctx, search, &clock)? {
        return driver::answer(&domain, search, ctx, &clock.stopped());
    }
    let lines: Vec<(usize, &str)> = (text.lines().enumerate())
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty())
        .collect();
    let cube_of = |line: &str| -> anyhow::Result<Cube> {
        let start = match facelets {
            true => read_facelets(line, "the facelets")?,
            false => scramble_facelets(Facelets::SOLVED, line, domain.notation)
                .context("cannot read the scramble")?,
        };
        let cube = Cube::from_facelets(&start).context("the cube is impossible")?;
        Ok(target.map_or(cube, |t| cube.toward(t)))
    };
    let one = SearchArgs {
        threads: Some(1),
        ..search.clone()
    };
    let answers: Vec<std::sync::Mutex<Option<Answer>>> =
        lines.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = search.worker_threads().clamp(1, lines.len().max(1));
    let domain_ref = &domain;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(_, line)) = lines.get(i) else {
                    break;
                };
                let answer = cube_of(line).and_then(|cube| domain_ref.solve_cube(cube, ctx, &one));
                *answers[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(answer);
            });
        }
    });
    ctx.clear_progress();
    let mut code = ExitCode::SUCCESS;
    let mut worst = Status::Solved;
    let mut bad = false;
    for (&(number, _), answer) in lines.iter().zip(answers) {
        let answer = answer.into_inner().unwrap_or_else(|p| p.into_inner());
        match answer {
            Some(Ok(outcome)) => {
                if outcome.status() != Status::Solved {
                    worst = outcome.status();
                }
                emit(|out| domain.write_answer(out, search, number, &outcome))?;
            }
            Some(Err(e)) => {
                bad = true;
                to_stderr(format!("line {number}: {e:#}"));
            }
            None => bail!("internal error: line {number} has no answer"),
        }
    }
    if bad {
        code = ExitCode::from(2);
    } else if worst != Status::Solved {
        code = exit_code(worst);
    }
    Ok(code)
}

/// One run of `frontier cube`: the cube, how its moves are counted and written, and the
/// solver.
struct CubeRun {
    /// The cube the solver solves: the start cube, or with --target the cube whose
    /// solutions take the start cube to the target.
    cube: Cube,
    /// The start cube, whose path the answer shows.
    start: Cube,
    metric: Metric,
    notation: Notation,
    solver: Solver,
    /// `--algo`, for [`Solver::Search`].
    algo: Option<Algo>,
    /// `--effort`: two-phase's nodes after the first solution.
    effort: u64,
    /// The optimal solver's table.
    table: TableSize,
    /// The optimal solver, once its table is loaded or built.
    optimal: Option<Optimal>,
    /// Two-phase, once its tables are loaded or built.
    twophase: Option<TwoPhase>,
    /// `--show`: the cube after each move.
    show: bool,
    /// Whether the drawing may use colours.
    ansi: bool,
}

impl CubeRun {
    /// The cube to solve: `cube`, or with `target` the cube whose solutions take it there.
    fn set_cube(&mut self, cube: Cube, target: Option<Cube>) {
        self.start = cube;
        self.cube = target.map_or(cube, |t| cube.toward(t));
    }

    /// Runs the solver on `cube` (its tables built): the answer's states are the path from
    /// the start cube.
    fn solve_cube(
        &self,
        cube: Cube,
        ctx: &Context,
        search: &SearchArgs,
    ) -> anyhow::Result<Outcome<Cube, Move>> {
        let config = || search.config::<Cube, Move>(ctx);
        let graph = matches!(self.algo, None | Some(Algo::Bfs | Algo::Bidirectional));
        let mut outcome = match (self.solver, &self.optimal, &self.twophase) {
            (Solver::Optimal, Some(optimal), _) => optimal.solve(cube, &config()),
            (Solver::TwoPhase, _, Some(twophase)) => {
                let bound = search.max_depth.unwrap_or(TWOPHASE_TARGET) as usize;
                let mut outcome = twophase.solve_with_effort(cube, bound, self.effort, &config());
                if let (Metric::Qtm, Outcome::Solved { solution, .. }) = (self.metric, &mut outcome)
                {
                    // Two-phase counts in htm; written in quarter turns, a half turn is two
                    // of them.
                    let quarters = Move::in_quarter_turns(&solution.moves);
                    solution.cost = quarters.len() as u64;
                    solution.moves = quarters;
                }
                outcome
            }
            (Solver::Optimal | Solver::TwoPhase, _, _) => {
                bail!("internal error: the solver has no tables")
            }
            (Solver::Search, _, _) if graph => search_classes(search, ctx, cube, self.metric)?,
            (Solver::Search, _, _) => {
                let space = CubeSpace::new(cube, self.metric);
                search.solve(ctx, &space, Algo::Idastar).1
            }
        };
        if let Outcome::Solved { solution, .. } = &mut outcome {
            // With --target the solved cube is the relative one; the drawing shows the real
            // cube on its way to the target.
            let start = if cube == self.cube {
                self.start
            } else {
                self.start_of(cube)
            };
            solution.states = start.path(&solution.moves);
        }
        Ok(outcome)
    }

    /// The start cube of a batch line's cube: the cube itself (a batch with --target draws
    /// nothing, and its answers' states are not shown).
    fn start_of(&self, cube: Cube) -> Cube {
        cube
    }

    /// One batch answer: its JSON object with the line number, or the moves on one line (or
    /// why there are none).
    fn write_answer(
        &self,
        out: &mut dyn Write,
        search: &SearchArgs,
        line: usize,
        outcome: &Outcome<Cube, Move>,
    ) -> io::Result<()> {
        if search.json {
            let name = |mv: &Move| json!(self.move_name(mv));
            return json_answer(
                out,
                search,
                "cube",
                self.algorithm(),
                outcome,
                &name,
                Some(line),
            );
        }
        match outcome.solution() {
            Some(solution) => self.write_moves(out, solution),
            None => writeln!(
                out,
                "no answer: {}",
                limit_message(
                    outcome.limit().unwrap_or(Limit::Depth),
                    search,
                    outcome.stats(),
                    Some(self.algorithm())
                )
            ),
        }
    }
}

impl Domain for CubeRun {
    type State = Cube;
    type Move = Move;

    const NAME: &'static str = "cube";

    fn algorithm(&self) -> &'static str {
        match self.solver {
            Solver::Optimal => "optimal",
            Solver::TwoPhase => "twophase",
            // Without --algo, the search is bidirectional.
            Solver::Search => self.algo.map_or("bidirectional", Algo::name),
        }
    }

    // Like a search's states, the tables count against the memory budget, a byte a state.
    fn tables(&self) -> anyhow::Result<Option<TableNeed>> {
        Ok(match self.solver {
            Solver::Optimal => Some(TableNeed {
                what: match self.table {
                    TableSize::Small => "building the optimal solver's table".to_owned(),
                    size => format!("building the optimal solver's {} table", size.name()),
                },
                bytes: self.table.build_bytes(),
                instead: match self.table {
                    TableSize::Small => "use --solver search (it stores states instead)",
                    _ => "use --table small (35 MB)",
                },
            }),
            Solver::TwoPhase => Some(TableNeed {
                what: "building or loading two-phase's tables".to_owned(),
                bytes: TwoPhase::BYTES,
                instead: "use --solver search (it stores states instead)",
            }),
            Solver::Search => self.algo.filter(|a| a.is_informed()).map(|_| TableNeed {
                what: "building or loading the heuristic's tables".to_owned(),
                bytes: Heuristic::bytes(),
                instead: "use --algo bidirectional (it needs no heuristic)",
            }),
        })
    }

    // A short answer needs no table: the first run would otherwise build one for seconds
    // (the optimal solver's, once) or a fraction of a second (two-phase, each run) to solve
    // `R U`. The generic searches keep to the solver they were asked for.
    fn short(
        &self,
        ctx: &Context,
        search: &SearchArgs,
    ) -> anyhow::Result<Option<Outcome<Cube, Move>>> {
        if self.solver == Solver::Search {
            return Ok(None);
        }
        short_answer(search, SHORT, |short| {
            search_classes(short, ctx, self.cube, self.metric)
        })
    }

    fn build(
        &mut self,
        ctx: &Context,
        search: &SearchArgs,
        clock: &Stopwatch,
    ) -> anyhow::Result<bool> {
        match self.solver {
            // Building the table (once) stops at --timeout and Ctrl-C like the search does.
            Solver::Optimal => {
                self.optimal = optimal_solver(self.metric, self.table, ctx, search.quiet, &|| {
                    clock.limit()
                });
                Ok(self.optimal.is_some())
            }
            // Building the phase-1 table (once, shared with the optimal solver) stops at
            // --timeout and Ctrl-C like the search does.
            Solver::TwoPhase => {
                self.twophase = twophase_solver(ctx, search.quiet, &|| clock.limit());
                Ok(self.twophase.is_some())
            }
            // The heuristic's tables, loaded (or built) before the search that reads them, so
            // that a damaged or unwritable cache is told of.
            Solver::Search if self.algo.is_some_and(Algo::is_informed) => {
                warn_tables(Heuristic::get(self.metric).cache_report());
                Ok(true)
            }
            Solver::Search => Ok(true),
        }
    }

    fn solve(&self, ctx: &Context, search: &SearchArgs) -> anyhow::Result<Outcome<Cube, Move>> {
        self.solve_cube(self.cube, ctx, search)
    }

    fn move_name(&self, mv: &Move) -> String {
        mv.write(self.notation)
    }

    fn search_tree(&self, depth: u32, max_nodes: usize) -> SearchTree<Cube, Move> {
        search_tree(&CubeSpace::new(self.cube, self.metric), depth, max_nodes)
    }

    /// How many of the 54 facelets show their face's colour.
    fn state_label(&self, cube: &Cube) -> String {
        let solved = Facelets::SOLVED.to_string();
        let placed = (cube.to_facelets().to_string().chars())
            .zip(solved.chars())
            .filter(|(a, b)| a == b)
            .count();
        format!("{placed}/54 in place")
    }

    fn use_solver(&mut self, algo: Algo) {
        self.solver = Solver::Search;
        self.algo = Some(algo);
    }

    fn draw(&self, out: &mut dyn Write, solution: &Solution<Cube, Move>) -> io::Result<()> {
        let ansi = self.ansi;
        let picture =
            |out: &mut dyn Write, cube: &Cube| write!(out, "{}", cube.to_facelets().net(ansi));
        let none = "(none: the cube is solved)";
        walk_through(self, out, solution, self.show, picture, none)?;
        writeln!(out, "length: {} {}", solution.cost, self.metric.name())
    }

    fn picture(&self, solution: &Solution<Cube, Move>) -> Result<svg::Document, String> {
        let names: Vec<String> = solution.moves.iter().map(|m| self.move_name(m)).collect();
        let length = format!("{} {}", solution.cost, self.metric.name());
        pictures::cube::draw(&solution.states, &names, self.show, &length)
    }

    // A random cube lies 17-20 moves away: the optimal solver takes minutes there, the generic
    // searches run out of memory.
    fn hint(&self, outcome: &Outcome<Cube, Move>, _short: bool) -> Option<&'static str> {
        let stopped = matches!(outcome.status(), Status::Limit(Limit::States | Limit::Time));
        (self.solver != Solver::TwoPhase && stopped).then_some(
            "hint: --solver twophase solves any cube in at most 20 moves within a second, not always the fewest",
        )
    }
}

/// Answers within this many moves are found by bidirectional search before any table is
/// loaded or built: a few thousand positions a side in htm.
const SHORT: u32 = 6;

/// The graph searches store every state they see, so they run on classes of cubes under the
/// 48 symmetries (up to 48 times fewer states around the solved cube), and the path of classes
/// is unfolded into turns of the real cube.
fn search_classes(
    search: &SearchArgs,
    ctx: &Context,
    cube: Cube,
    metric: Metric,
) -> anyhow::Result<Outcome<Cube, Move>> {
    let classes = SymmetricCubeSpace::new(cube, metric);
    let (_, mut outcome) = search.solve(ctx, &classes, Algo::Bidirectional);
    if let Outcome::Solved { solution, .. } = &mut outcome {
        let moves = unfold(cube, &solution.states, metric)
            .context("internal error: the path of classes does not unfold into turns")?;
        solution.states = cube.path(&moves);
        solution.moves = moves;
    }
    Ok(outcome)
}

/// Two-phase, its tables loaded from the cache or built there (with a bar on stderr while the
/// phase-1 table is built); `None` if `stop` ended the build.
fn twophase_solver(
    ctx: &Context,
    quiet: bool,
    stop: &(dyn Fn() -> Option<Limit> + Sync),
) -> Option<TwoPhase> {
    let cache = cache::default_cache();
    let bar = BuildBar::new(ctx, quiet);
    let progress = |p: BuildProgress| {
        if let Some(bar) = &bar {
            let message = format!(
                "building two-phase's phase-1 table (once; cached in {}): distance {}",
                cache.dir().display(),
                p.depth
            );
            bar.update(p.reached, p.total, message);
        }
    };
    if stop().is_some() {
        return None;
    }
    let solver = TwoPhase::load_or_build_with(&cache, &progress, stop).ok();
    if let Some(bar) = bar {
        bar.finish();
    }
    // A damaged cache, or one that cannot be written (the tables are then built on every run).
    if let Some(solver) = &solver {
        warn_tables(solver.cache_report());
    }
    solver
}

/// The optimal solver for `metric`, its table loaded from the cache or built there (with a
/// bar on stderr); `None` if `stop` ended the build.
fn optimal_solver(
    metric: Metric,
    size: TableSize,
    ctx: &Context,
    quiet: bool,
    stop: &(dyn Fn() -> Option<Limit> + Sync),
) -> Option<Optimal> {
    let cache = cache::default_cache();
    let bar = BuildBar::new(ctx, quiet);
    let progress = |p: BuildProgress| {
        if let Some(bar) = &bar {
            let which = match size {
                TableSize::Small => String::new(),
                size => format!("{} ", size.name()),
            };
            let message = format!(
                "building the optimal solver's {which}{} table (once; cached in {}): distance {}",
                metric.name(),
                cache.dir().display(),
                p.depth
            );
            bar.update(p.reached, p.total, message);
        }
    };
    let solver = Optimal::load_or_build_table(&cache, size, metric, &progress, stop).ok();
    if let Some(bar) = bar {
        bar.finish();
    }
    // A damaged cache, or one that cannot be written (the table is then built on every run).
    if let Some(solver) = &solver {
        warn_tables(std::iter::once(solver.cache_report()).chain(solver.exact_report()));
    }
    solver
}

/// The arguments of `frontier explore cube`.
#[derive(clap::Args, Debug)]
#[command(mut_args(crate::common::for_exploring))]
pub struct ExploreArgs {
    /// The metric whose moves count one: htm (18) or qtm (12)
    #[arg(long, value_enum, default_value = "htm")]
    pub metric: MetricArg,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Counts the positions at each distance from solved, up to --max-depth. The search runs on
/// classes under the 48 symmetries, each counted with the positions it stands for: up to 48
/// times fewer states to store and expand than positions.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let mut pictures = Pictures::open(&args.search, Subject::Chart)?;
    let space = SymmetricCubeSpace::new(Cube::SOLVED, args.metric.into());
    let exploration = args.search.explore(ctx, &space);
    report_exploration(ctx, &args.search, "cube", &exploration, &mut pictures)
}
