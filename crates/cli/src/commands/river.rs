//! `frontier river`: river-crossing puzzles from TOML files or presets (the `frontier-river` crate).

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::process::ExitCode;

use frontier_river::{Bank, Preset, Puzzle, RiverError, RiverSpace, State, Trip, PRESETS};
use frontier_search::{search_tree, Outcome, SearchTree, Solution, Status};
use serde_json::{json, Value};

use crate::commands::explore::{self as explore_cmd, Plan};
use crate::common::{
    emit, input_name, plural, read_input, report_exploration, Algo, Context, SearchArgs,
};
use crate::driver::{self, Domain};
use crate::pictures::{self, Pictures, Subject};

/// The arguments of `frontier river`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A preset (see --list), a puzzle file in TOML, or - for standard input. A preset's name
    /// is read as the preset even if a file has that name: write ./NAME for the file
    #[arg(value_name = "PRESET|FILE.toml|-", required_unless_present = "list")]
    pub input: Option<OsString>,
    /// List the presets and exit
    #[arg(long, conflicts_with_all = [
        "show", "input", "algo", "max_depth", "max_states", "timeout", "threads", "weight", "stats",
        "svg", "png",
    ])]
    pub list: bool,
    /// Print the puzzle's TOML (a preset's source, to copy and change) instead of solving it
    #[arg(long, conflicts_with_all = [
        "algo", "max_depth", "max_states", "timeout", "threads", "weight", "stats", "svg", "png",
    ])]
    pub show: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The arguments of `frontier explore river`.
#[derive(clap::Args, Debug)]
#[command(mut_args(crate::common::for_exploring))]
pub struct ExploreArgs {
    /// A preset (see `frontier river --list`), a puzzle file in TOML, or - for standard input.
    /// A preset's name is read as the preset even if a file has that name: write ./NAME for
    /// the file
    #[arg(value_name = "PRESET|FILE.toml|-")]
    pub input: OsString,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The puzzle named on the command line: a preset, else a file. Returns its TOML and its name
/// for messages.
fn source(input: &OsStr, search: &SearchArgs, ctx: &Context) -> anyhow::Result<(String, String)> {
    if let Some(preset) = input.to_str().and_then(Preset::find) {
        return Ok((preset.source.to_string(), preset.name.to_string()));
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
    let bytes = read_input(input, "a river puzzle", RIVER_FILE_LIMIT, search, ctx)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column) = utf8_error_place(e.as_bytes(), e.utf8_error().valid_up_to());
        anyhow::anyhow!("{name}:{line}:{column}: not UTF-8 text")
    })?;
    Ok((text, name))
}

/// The line and column (both from 1, the column in characters) of the first byte that is not
/// UTF-8, which follows `valid` bytes that are.
fn utf8_error_place(bytes: &[u8], valid: usize) -> (usize, usize) {
    let good = &bytes[..valid];
    let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
    // `good` is UTF-8, so its characters are its bytes that do not continue one.
    let column = good[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
        + 1;
    (line, column)
}

/// The largest river file read: far above any puzzle (rules of a million terms fit).
const RIVER_FILE_LIMIT: u64 = 64 << 20;

/// Reads and checks the puzzle; errors read `FILE:LINE:COLUMN: what`.
fn load(input: &OsStr, search: &SearchArgs, ctx: &Context) -> anyhow::Result<Puzzle> {
    let (text, name) = source(input, search, ctx)?;
    parse(&text, &name)
}

/// Parses and checks a puzzle's TOML; `name` says where it came from in errors.
fn parse(text: &str, name: &str) -> anyhow::Result<Puzzle> {
    Puzzle::from_toml(text).map_err(|e: RiverError| match e.location() {
        Some(_) => anyhow::anyhow!("{name}:{e}"),
        None => anyhow::anyhow!("{name}: {e}"),
    })
}

/// Lists the presets: a line each, or with `--json` one object `{"presets": [...]}`.
fn list(json: bool) -> anyhow::Result<ExitCode> {
    let mut presets = Vec::new();
    for preset in PRESETS {
        presets.push((preset.name, Puzzle::from_toml(preset.source)?));
    }
    if json {
        let entries: Vec<_> = (presets.iter())
            .map(|(name, p)| {
                json!({
                    "name": name,
                    "title": p.name(),
                    "people": p.people(),
                    "capacity": p.capacity(),
                    "timed": p.is_timed(),
                })
            })
            .collect();
        emit(|out| writeln!(out, "{}", json!({ "presets": entries })))?;
        return Ok(ExitCode::SUCCESS);
    }
    let wide = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
    emit(|out| {
        for (name, puzzle) in &presets {
            writeln!(
                out,
                "{name:<wide$}  {} ({} people, boat of {}{})",
                puzzle.name(),
                puzzle.people(),
                puzzle.capacity(),
                if puzzle.is_timed() { ", timed" } else { "" }
            )?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Solves the puzzle: fewest crossings with `bfs`, or the quickest plan with `astar` when roles
/// have crossing times.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    if args.list {
        return list(args.search.json);
    }
    let input = args.input.as_deref().unwrap_or_default();
    if args.show {
        // A file is shown as it is, once it is known to be a puzzle.
        let (text, name) = source(input, &args.search, ctx)?;
        parse(&text, &name)?;
        if args.search.json {
            emit(|out| writeln!(out, "{}", json!({ "name": name, "toml": text })))?;
        } else {
            emit(|out| write!(out, "{text}"))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let puzzle = load(input, &args.search, ctx)?;
    let default = if puzzle.is_timed() {
        Algo::Astar
    } else {
        Algo::Bfs
    };
    let goal_note = puzzle.broken_goal_rule().map(|(rule, bank)| {
        format!(
            "note: the goal itself breaks {} \"{}\" on the {bank} bank",
            rule.which,
            rule.rule.source()
        )
    });
    let algo = args.search.algo.unwrap_or(default);
    args.search.check_weight(algo.name(), algo.is_informed())?;
    let space = RiverSpace::new(puzzle);
    driver::run(
        RiverRun {
            space,
            algo,
            goal_note,
        },
        &args.search,
        ctx,
    )
}

/// One run of `frontier river`: the puzzle and the solver.
struct RiverRun {
    space: RiverSpace,
    algo: Algo,
    /// What to say when the goal itself breaks a rule: why no plan is found.
    goal_note: Option<String>,
}

impl Domain for RiverRun {
    type State = State;
    type Move = Trip;

    const NAME: &'static str = "river";

    fn algorithm(&self) -> &'static str {
        self.algo.name()
    }

    fn solve(&self, ctx: &Context, search: &SearchArgs) -> anyhow::Result<Outcome<State, Trip>> {
        Ok(search.solve(ctx, &self.space, self.algo).1)
    }

    fn move_name(&self, trip: &Trip) -> String {
        self.space.trip_names(*trip).join(", ")
    }

    fn move_json(&self, trip: &Trip) -> Value {
        json!(self.space.trip_names(*trip))
    }

    /// One trip a line, `-->` away from the start bank and `<--` back.
    fn write_moves(&self, out: &mut dyn Write, plan: &Solution<State, Trip>) -> io::Result<()> {
        for (i, trip) in plan.moves.iter().enumerate() {
            let arrow = match self.space.boat(plan.states[i]) {
                Bank::Near => "-->",
                Bank::Far => "<--",
            };
            writeln!(out, "{arrow} {}", self.move_name(trip))?;
        }
        Ok(())
    }

    fn draw(&self, out: &mut dyn Write, plan: &Solution<State, Trip>) -> io::Result<()> {
        render(out, &self.space, self.algo, plan)
    }

    fn picture(&self, plan: &Solution<State, Trip>) -> Result<svg::Document, String> {
        let title = title(&self.space, self.algo, plan);
        pictures::river::draw(&self.space, &plan.states, &plan.moves, &title)
    }

    fn note(&self, outcome: &Outcome<State, Trip>) -> Option<String> {
        (outcome.status() == Status::Exhausted)
            .then(|| self.goal_note.clone())
            .flatten()
    }

    fn search_tree(&self, depth: u32, max_nodes: usize) -> SearchTree<State, Trip> {
        search_tree(&self.space, depth, max_nodes)
    }

    /// Who stands on the far bank.
    fn state_label(&self, state: &State) -> String {
        format!("across: {}", self.space.bank_text(*state, Bank::Far))
    }

    fn use_solver(&mut self, algo: Algo) {
        self.algo = algo;
    }
}

/// Counts the puzzle's reachable positions by distance (in crossings) from the start.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let mut pictures = Pictures::open(&args.search, Subject::Chart)?;
    let space = RiverSpace::new(load(&args.input, &args.search, ctx)?);
    let exploration = args.search.explore(ctx, &space);
    report_exploration(ctx, &args.search, "river", &exploration, &mut pictures)
}

/// Counts the puzzle's arrangements by distance on the workers of `plan`, each owning the
/// states whose hash falls in its shard.
pub fn explore_across(args: ExploreArgs, plan: &Plan, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let (text, name) = source(&args.input, &args.search, ctx)?;
    let space = RiverSpace::new(parse(&text, &name)?);
    // What every process must agree on: the puzzle's text.
    let fingerprint = format!("river {name} {}", explore_cmd::digest(&text));
    explore_cmd::across(&space, plan.run(fingerprint), &args.search, ctx, "river")
}

/// A title line, then one line per trip in the seed's style, `-->` away from the start bank and
/// `<--` back, each followed by who stands on each bank after it.
fn render(
    out: &mut dyn Write,
    space: &RiverSpace,
    algo: Algo,
    plan: &Solution<State, Trip>,
) -> io::Result<()> {
    writeln!(out, "{}", title(space, algo, plan))?;
    write!(out, "{}", space.plan_text(plan))
}

/// The plan's title: `Family, police and prisoner: 17 crossings (bfs)`.
fn title(space: &RiverSpace, algo: Algo, plan: &Solution<State, Trip>) -> String {
    let puzzle = space.puzzle();
    let n = plan.len();
    let title = if puzzle.name().is_empty() {
        "river crossing"
    } else {
        puzzle.name()
    };
    let time = if puzzle.is_timed() {
        format!(", total time {}", plan.cost)
    } else {
        String::new()
    };
    format!(
        "{title}: {}{time} ({})",
        plural(n as u64, "crossing"),
        algo.name()
    )
}
