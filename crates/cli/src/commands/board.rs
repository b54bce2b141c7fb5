//! `frontier board`: the robot on a board of letters (the `frontier-board` crate).

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::process::ExitCode;

use frontier_board::{
    Board, Heading, Move, ParseErrorKind, Place, Puzzle, Rules, State, MAX_PADDED_CELLS,
};
use frontier_search::{search_tree, Limit, Outcome, SearchTree, Solution};

use crate::commands::explore::{self as explore_cmd, Plan};
use crate::common::{
    input_name, plural, read_input, report_exploration, Algo, Context, InputStopped, SearchArgs,
    Stopwatch, TableNeed,
};
use crate::driver::{self, Domain};
use crate::pictures::{self, Pictures, Subject};

/// The rules the robot moves by.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RulesArg {
    /// The seed's: turn only on the board, Forward onto the same letter, Jump onto the next one
    #[default]
    Seed,
    /// As seed, and Jump may also go down onto any lower letter
    Lightbot,
}

impl From<RulesArg> for Rules {
    fn from(rules: RulesArg) -> Rules {
        match rules {
            RulesArg::Seed => Rules::Seed,
            RulesArg::Lightbot => Rules::Lightbot,
        }
    }
}

/// The arguments of `frontier board`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board file (`-` reads standard input): rows of letters A-Z, top row first, then
    /// optionally a line with `*` below the column where the robot waits, then optionally
    /// `X Y D` (column, row from the bottom, heading N|E|S|W)
    #[arg(value_name = "FILE|-")]
    pub input: OsString,
    /// The letter to reach [default: the highest letter on the board]
    #[arg(long, value_name = "LETTER", value_parser = parse_letter)]
    pub target: Option<char>,
    /// The rules
    #[arg(long, value_enum, default_value_t = RulesArg::Seed)]
    pub rules: RulesArg,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The arguments of `frontier explore board`.
#[derive(clap::Args, Debug)]
#[command(mut_args(crate::common::for_exploring))]
pub struct ExploreArgs {
    /// The board file (`-` reads standard input)
    #[arg(value_name = "FILE|-")]
    pub input: OsString,
    /// The rules
    #[arg(long, value_enum, default_value_t = RulesArg::Seed)]
    pub rules: RulesArg,
    #[command(flatten)]
    pub search: SearchArgs,
}

fn parse_letter(text: &str) -> Result<char, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok(c.to_ascii_uppercase()),
        _ => Err(format!("'{text}' is not one letter A-Z")),
    }
}

/// The fewest cells a board may have whatever the state budget: a board this small costs
/// nothing next to the program itself.
const LEAST_CELL_LIMIT: u64 = 1 << 20;

/// The most cells (the border included) of a board that `search` may load: a cell is a byte,
/// counted like a byte of a table against the state budget ([`SearchArgs::table_budget`]), but
/// never fewer than [`LEAST_CELL_LIMIT`] nor more than a state can index.
fn cell_limit(search: &SearchArgs) -> usize {
    let budget = search.table_budget().max(LEAST_CELL_LIMIT);
    usize::try_from(budget).map_or(MAX_PADDED_CELLS, |cells| cells.min(MAX_PADDED_CELLS))
}

/// The distance map of a board of [`LEAST_CELL_LIMIT`] cells, four bytes a cell: the least any
/// budget allows the informed solvers.
const LEAST_MAP_BYTES: u64 = 4 * LEAST_CELL_LIMIT;

/// Reads and parses the board file, or standard input for `-`, refusing a board of more cells
/// than `search`'s budget allows ([`cell_limit`]) at the row that passes it.
fn load(input: &OsStr, search: &SearchArgs, ctx: &Context) -> anyhow::Result<Board> {
    let cells = cell_limit(search);
    // A board's letters and line ends fit in twice its cells; twice that leaves room for
    // trailing blanks and CRLF line ends, so that the parser, which names the row, refuses a
    // board too large for the budget.
    let limit = 4 * cells as u64;
    let bytes = read_input(input, "a board that can be searched", limit, search, ctx)?;
    let name = input_name(input);
    // A large board takes a while to parse: the clock and Ctrl-C hold there too.
    let clock = Stopwatch::new(search, ctx);
    let board = Board::from_bytes_until(&bytes, cells, &|| clock.limit().is_some());
    drop(bytes);
    board.map_err(|error| {
        if error.kind == ParseErrorKind::Stopped {
            return anyhow::Error::new(InputStopped {
                limit: clock.limit().unwrap_or(Limit::Time),
                name: name.clone(),
                seconds: ctx.seconds(),
                parsing: true,
            });
        }
        let raise = match (&error.kind, search.max_states) {
            (ParseErrorKind::PastCellLimit { .. }, Some(_)) => {
                " (a cell counts as a stored state: raise --max-states for a larger board)"
            }
            (ParseErrorKind::PastCellLimit { .. }, None) => {
                " (the default budget of about half the available memory; a cell counts as a \
                 stored state)"
            }
            _ => "",
        };
        anyhow::Error::new(error).context(format!("{name}: not a valid board{raise}"))
    })
}

/// Solves the puzzle.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    let algo = args.search.algo.unwrap_or(Algo::Bfs);
    args.search.check_weight(algo.name(), algo.is_informed())?;
    let board = load(&args.input, &args.search, ctx)?;
    let puzzle = Puzzle::new(board, args.rules.into(), args.target)?;
    driver::run(BoardRun { puzzle, algo }, &args.search, ctx)
}

/// One run of `frontier board`: the puzzle and the solver.
struct BoardRun {
    puzzle: Puzzle,
    algo: Algo,
}

impl Domain for BoardRun {
    type State = State;
    type Move = Move;

    const NAME: &'static str = "board";

    fn algorithm(&self) -> &'static str {
        self.algo.name()
    }

    // A map within what any board may take is allowed, as the board itself is.
    fn tables(&self) -> anyhow::Result<Option<TableNeed>> {
        let bytes = self.puzzle.heuristic_bytes();
        Ok(
            (self.algo.is_informed() && bytes > LEAST_MAP_BYTES).then(|| TableNeed {
                what: "the heuristic's distance map".to_owned(),
                bytes,
                instead: "use --algo bfs or bidirectional, which need no map",
            }),
        )
    }

    // The heuristic's distance map is built before an informed search, within the table
    // budget and watched by `--timeout` and Ctrl-C, instead of on the search's first
    // heuristic call.
    fn build(
        &mut self,
        _ctx: &Context,
        search: &SearchArgs,
        clock: &Stopwatch,
    ) -> anyhow::Result<bool> {
        let budget = search.table_budget().max(LEAST_MAP_BYTES);
        Ok(!self.algo.is_informed()
            || self
                .puzzle
                .prepare_heuristic(budget, &|| clock.limit())
                .is_ok())
    }

    fn solve(&self, ctx: &Context, search: &SearchArgs) -> anyhow::Result<Outcome<State, Move>> {
        let config = search.config::<State, Move>(ctx);
        // A one-thread BFS runs on the board's own flat table (same answers, no hashing),
        // which beats the hash set by more than threads would give.
        Ok(
            if self.algo == Algo::Bfs && self.puzzle.fast_fits(&config) {
                self.puzzle.fast_bfs(&config)
            } else {
                search.solve(ctx, &self.puzzle, Algo::Bfs).1
            },
        )
    }

    fn move_name(&self, mv: &Move) -> String {
        mv.name().to_owned()
    }

    fn draw(&self, out: &mut dyn Write, solution: &Solution<State, Move>) -> io::Result<()> {
        render(out, &self.puzzle, self.algo, solution)
    }

    fn picture(&self, solution: &Solution<State, Move>) -> Result<svg::Document, String> {
        let title = title(&self.puzzle, self.algo, solution.len());
        pictures::board::draw(&self.puzzle, &solution.states, &solution.moves, &title)
    }

    fn search_tree(&self, depth: u32, max_nodes: usize) -> SearchTree<State, Move> {
        search_tree(&self.puzzle, depth, max_nodes)
    }

    /// The letter under the robot and its heading, as the seed's tree shows the letter.
    fn state_label(&self, state: &State) -> String {
        let letter = match self.puzzle.place(*state) {
            Place::Cell { x, y } => self.puzzle.board().letter(x, y).unwrap_or('?'),
            Place::Below { .. } => '*',
        };
        format!("{letter} {}", state.heading())
    }

    fn use_solver(&mut self, algo: Algo) {
        self.algo = algo;
    }
}

/// Explores the puzzle: the robot's reachable states by distance from the start.
pub fn explore(args: ExploreArgs, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let mut pictures = Pictures::open(&args.search, Subject::Chart)?;
    let board = load(&args.input, &args.search, ctx)?;
    let puzzle = Puzzle::new(board, args.rules.into(), None)?;
    let config = args.search.config::<State, Move>(ctx);
    let exploration = if puzzle.fast_fits(&config) {
        let mut exploration = puzzle.fast_explore(&config);
        ctx.clear_progress();
        exploration.stats.seconds = ctx.seconds();
        exploration
    } else {
        args.search.explore(ctx, &puzzle)
    };
    report_exploration(ctx, &args.search, "board", &exploration, &mut pictures)
}

/// Counts the robot's states by distance on the workers of `plan`, each owning the states
/// whose hash falls in its shard.
pub fn explore_across(args: ExploreArgs, plan: &Plan, ctx: &Context) -> anyhow::Result<ExitCode> {
    args.search.refuse_solver_flags()?;
    let board = load(&args.input, &args.search, ctx)?;
    // What every process must agree on: the board and the rules.
    let fingerprint = format!(
        "board {} ({:?} rules)",
        explore_cmd::digest(&board.to_string()),
        args.rules
    );
    let puzzle = Puzzle::new(board, args.rules.into(), None)?;
    explore_cmd::across(&puzzle, plan.run(fingerprint), &args.search, ctx, "board")
}

/// The most columns or rows drawn; larger boards are drawn cropped to the route.
const MAX_DRAWN: usize = 100;

/// A title line, the numbered moves and the board beside the route.
fn render(
    out: &mut dyn Write,
    puzzle: &Puzzle,
    algo: Algo,
    solution: &Solution<State, Move>,
) -> io::Result<()> {
    let n = solution.len();
    writeln!(out, "{}", title(puzzle, algo, n))?;
    let digits = n.max(1).to_string().len();
    for (i, mv) in solution.moves.iter().enumerate() {
        writeln!(out, "{:>digits$}. {mv}", i + 1)?;
    }
    writeln!(out)?;
    draw(out, puzzle, &solution.states)
}

/// The answer's title: `17 moves to F (bfs, rules seed)`.
fn title(puzzle: &Puzzle, algo: Algo, moves: usize) -> String {
    format!(
        "{} to {} ({}, rules {})",
        plural(moves as u64, "move"),
        puzzle.target(),
        algo.name(),
        puzzle.rules()
    )
}

/// What the route panel shows in a cell.
fn mark(heading: Heading) -> char {
    match heading {
        Heading::N => '^',
        Heading::E => '>',
        Heading::S => 'v',
        Heading::W => '<',
    }
}

/// Draws the board and, beside it, the route: `S` the start, `G` the goal, an arrow where the
/// robot left a cell (pointing the way it went), `.` a cell it never entered.
fn draw(out: &mut dyn Write, puzzle: &Puzzle, states: &[State]) -> io::Result<()> {
    let board = puzzle.board();
    let (width, height) = (board.width(), board.height());
    let cell = |state: &State| match puzzle.place(*state) {
        Place::Cell { x, y } => Some((x, y)),
        Place::Below { .. } => None,
    };
    // The columns and rows drawn: the whole board, or the route's box on a large board.
    let (mut x0, mut x1, mut y0, mut y1) = (0, width - 1, 0, height - 1);
    if width > MAX_DRAWN || height > MAX_DRAWN {
        // The route's box, in one pass (a route may be millions of cells long).
        let (mut left, mut right, mut bottom, mut top) = (usize::MAX, 0, usize::MAX, 0);
        for (x, y) in states.iter().filter_map(cell) {
            (left, right) = (left.min(x), right.max(x));
            (bottom, top) = (bottom.min(y), top.max(y));
        }
        if left == usize::MAX {
            (left, bottom) = (0, 0);
        }
        x0 = left.saturating_sub(1);
        x1 = (right + 1).min(width - 1);
        y0 = bottom.saturating_sub(1);
        y1 = (top + 1).min(height - 1);
        if x1 - x0 >= MAX_DRAWN || y1 - y0 >= MAX_DRAWN {
            return writeln!(
                out,
                "(the route spans more than {MAX_DRAWN} columns or rows: not drawn)"
            );
        }
        writeln!(
            out,
            "columns {x0}-{x1}, rows {y0}-{y1} (from the bottom) of the {width} x {height} board:"
        )?;
    }
    let cols = x1 - x0 + 1;
    let rows = y1 - y0 + 1;
    let mut route = vec!['.'; cols * rows];
    let at = |x: usize, y: usize| (y - y0) * cols + (x - x0);
    for pair in states.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        if let Some((x, y)) = cell(&from) {
            if cell(&to) != Some((x, y)) {
                route[at(x, y)] = mark(from.heading());
            }
        }
    }
    let first = states.first().copied();
    let below_start = first.and_then(|s| match puzzle.place(s) {
        Place::Below { column } => Some(column),
        Place::Cell { .. } => None,
    });
    if let Some((x, y)) = first.as_ref().and_then(cell) {
        route[at(x, y)] = 'S';
    }
    if let Some((x, y)) = states.last().and_then(cell) {
        route[at(x, y)] = 'G';
    }
    let gap = "   ";
    let panel = cols.max("board".len());
    writeln!(
        out,
        "{:<panel$}{gap}route: S start, G goal, ^>v< the way the robot left a cell",
        "board"
    )?;
    for y in (y0..=y1).rev() {
        let letters: String = (x0..=x1).filter_map(|x| board.letter(x, y)).collect();
        let marks: String = (x0..=x1).map(|x| route[at(x, y)]).collect();
        writeln!(out, "{letters:<panel$}{gap}{marks}")?;
    }
    if let Some(column) = below_start.filter(|c| (x0..=x1).contains(c) && y0 == 0) {
        let pad = " ".repeat(column - x0);
        let star = format!("{pad}*");
        writeln!(out, "{star:<panel$}{gap}{pad}S")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_letters() {
        assert_eq!(parse_letter("c"), Ok('C'));
        assert_eq!(parse_letter("F"), Ok('F'));
        assert!(parse_letter("").is_err());
        assert!(parse_letter("AB").is_err());
        assert!(parse_letter("1").is_err());
    }
}
