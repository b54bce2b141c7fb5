//! The one run path of every solving command: a domain implements [`Domain`] once (its solvers,
//! the tables they need, how its moves are written and its solutions drawn), and [`run`] does
//! the rest in the same order for all of them.
//!
//! The order, and why it is one:
//! 1. a verdict that needs no search ([`Domain::unsolvable`], e.g. the tiles' parity);
//! 2. the tables the chosen solver needs ([`Domain::tables`]), worked out but not built;
//! 3. a short answer first ([`Domain::short`]): a bidirectional search within a few moves, so
//!    that the first run does not build a table for seconds to answer a move or two;
//! 4. tables past the memory budget refused ([`TableNeed::refuse_beyond`]), whether cached or
//!    not, so that the answer does not depend on the cache;
//! 5. the tables loaded or built ([`Domain::build`]) under the command's [`Stopwatch`]:
//!    `--timeout` and Ctrl-C count from the command's start and stop a build like a search;
//! 6. the solver ([`Domain::solve`]), its seconds the command's;
//! 7. the answer ([`report`]): JSON, the moves alone with `--quiet`, or the drawing; then a note
//!    that belongs to the answer ([`Domain::note`]) and a hint on a terminal ([`Domain::hint`]);
//!    then the picture ([`Domain::picture`]) to the files of `--svg` and `--png`, which were
//!    opened before step 1 so that a path that cannot be written fails before any search.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context as _;
use frontier_search::{Limit, Outcome, SearchTree, Solution, Stats, Status};
use serde_json::Value;
use svg::Document;

use crate::common::{
    draw_forest, emit, json_answer, parse_compare, peak_memory, report, report_compare,
    reset_peak_memory, stats_line, to_stderr, tree_json, Algo, CompareRow, Context, SearchArgs,
    Stopwatch, TableNeed, MOST_TREE_NODES,
};
use crate::pictures::{Pictures, Subject};

/// A puzzle the command line solves: its solvers, the tables they need and how its answers
/// are written. A value of it is one command's run, its flags already checked.
pub trait Domain {
    /// The states a solution passes through, as the drawing reads them.
    type State;
    /// The moves of a solution.
    type Move;

    /// The domain's name in the JSON answer: `cube`.
    const NAME: &'static str;

    /// The solver named in the answer: `optimal`, `twophase`, `bfs`.
    fn algorithm(&self) -> &'static str;

    /// Why no goal can be reached, when the domain tells without searching (a parity): the
    /// answer then says so, `(decided without searching)`.
    fn unsolvable(&self) -> Option<&str> {
        None
    }

    /// The tables the solver needs before it searches, to be refused past the memory budget;
    /// `None` when it needs none.
    fn tables(&self) -> anyhow::Result<Option<TableNeed>> {
        Ok(None)
    }

    /// A short answer found without tables ([`short_answer`]), or `None` when the answer is
    /// left to the solver. Only a solver that needs tables looks for one.
    fn short(
        &self,
        _ctx: &Context,
        _search: &SearchArgs,
    ) -> anyhow::Result<Option<Outcome<Self::State, Self::Move>>> {
        Ok(None)
    }

    /// Loads or builds the tables the solver needs (with a [`BuildBar`](crate::common::BuildBar)); false when `clock`
    /// (`--timeout`, Ctrl-C) stopped the build first.
    fn build(
        &mut self,
        _ctx: &Context,
        _search: &SearchArgs,
        _clock: &Stopwatch,
    ) -> anyhow::Result<bool> {
        Ok(true)
    }

    /// Runs the solver.
    fn solve(
        &self,
        ctx: &Context,
        search: &SearchArgs,
    ) -> anyhow::Result<Outcome<Self::State, Self::Move>>;

    /// A move as people read it: `R2`, `U`, `Forward`.
    fn move_name(&self, mv: &Self::Move) -> String;

    /// A move in the JSON answer: its name, unless the domain's JSON says otherwise.
    fn move_json(&self, mv: &Self::Move) -> Value {
        Value::String(self.move_name(mv))
    }

    /// The answer under `--quiet`: the moves on one line, unless the domain writes them
    /// otherwise.
    fn write_moves(
        &self,
        out: &mut dyn Write,
        solution: &Solution<Self::State, Self::Move>,
    ) -> io::Result<()> {
        // One move at a time: a long answer (millions of moves on a board) is never held as
        // strings.
        for (i, mv) in solution.moves.iter().enumerate() {
            let space = if i == 0 { "" } else { " " };
            write!(out, "{space}{}", self.move_name(mv))?;
        }
        writeln!(out)
    }

    /// The answer for people: the solution drawn.
    fn draw(
        &self,
        out: &mut dyn Write,
        solution: &Solution<Self::State, Self::Move>,
    ) -> io::Result<()>;

    /// The answer as a picture, for `--svg` and `--png` (drawn by [`crate::pictures`]), or why
    /// it cannot be drawn (a route too long to show).
    fn picture(&self, solution: &Solution<Self::State, Self::Move>) -> Result<Document, String>;

    /// A line that is part of the answer, printed after it on stdout (not with `--json` or
    /// `--quiet`).
    fn note(&self, _outcome: &Outcome<Self::State, Self::Move>) -> Option<String> {
        None
    }

    /// A hint on what to try instead, for an outcome of the solver (`short`: of the short
    /// search); shown on a terminal only, not with `--json` or `--quiet`.
    fn hint(
        &self,
        _outcome: &Outcome<Self::State, Self::Move>,
        _short: bool,
    ) -> Option<&'static str> {
        None
    }

    /// The first `depth` levels of the search tree from the start, at most `max_nodes` of
    /// them, for `--tree` ([`frontier_search::search_tree`] over the domain's space).
    fn search_tree(&self, depth: u32, max_nodes: usize) -> SearchTree<Self::State, Self::Move>;

    /// A short name of a state for the tree: the letter under the robot, the tiles in a row.
    fn state_label(&self, state: &Self::State) -> String;

    /// Makes this run use the generic solver `algo` instead (for `--compare`).
    fn use_solver(&mut self, algo: Algo);
}

/// Solves `domain` with the command's flags and prints the answer; returns the exit code.
/// `--tree` draws the search tree instead, and `--compare` solves with several solvers.
pub fn run<D: Domain>(
    mut domain: D,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<ExitCode> {
    if let Some(depth) = search.tree {
        return draw_tree(&domain, search, depth);
    }
    if let Some(list) = &search.compare {
        return compare(domain, search, ctx, list);
    }
    let mut pictures = Pictures::open(search, Subject::Answer)?;
    if let Some(why) = domain.unsolvable() {
        pictures.skip(NOTHING_TO_DRAW);
        return report_unsolvable(&domain, search, ctx, why);
    }
    let tables = domain.tables()?;
    let short = match tables {
        Some(_) => domain.short(ctx, search)?,
        None => None,
    };
    let (outcome, short) = match short {
        Some(outcome) => (outcome, true),
        None => {
            if let Some(tables) = tables {
                if let Some(code) =
                    tables.refuse_beyond(ctx, search, D::NAME, domain.algorithm())?
                {
                    pictures.skip(NOTHING_TO_DRAW);
                    return Ok(code);
                }
            }
            let clock = Stopwatch::new(search, ctx);
            if !domain.build(ctx, search, &clock)? {
                let outcome = clock.stopped();
                let code = answer(&domain, search, ctx, &outcome)?;
                draw_picture(&domain, &mut pictures, &outcome)?;
                return Ok(code);
            }
            let mut outcome = domain.solve(ctx, search)?;
            ctx.clear_progress();
            // The time the command took, tables included, as --timeout counts it.
            outcome.stats_mut().seconds = ctx.seconds();
            (outcome, false)
        }
    };
    let code = answer(&domain, search, ctx, &outcome)?;
    if !search.quiet && !search.json && ctx.stderr_is_terminal {
        if let Some(hint) = domain.hint(&outcome, short) {
            to_stderr(hint);
        }
    }
    draw_picture(&domain, &mut pictures, &outcome)?;
    Ok(code)
}

/// Why a picture asked for is not written when the search found no answer.
const NOTHING_TO_DRAW: &str = "there is no answer to draw";

/// Writes the picture of a solved `outcome` to the files asked for; says on stderr that there
/// is none for any other outcome.
fn draw_picture<D: Domain>(
    domain: &D,
    pictures: &mut Pictures,
    outcome: &Outcome<D::State, D::Move>,
) -> anyhow::Result<()> {
    match outcome.solution() {
        Some(solution) => pictures.write(|| domain.picture(solution)),
        None => {
            pictures.skip(NOTHING_TO_DRAW);
            Ok(())
        }
    }
}

/// Prints `outcome` as the domain writes it, then its note; returns the exit code.
pub fn answer<D: Domain>(
    domain: &D,
    search: &SearchArgs,
    ctx: &Context,
    outcome: &Outcome<D::State, D::Move>,
) -> anyhow::Result<ExitCode> {
    let code = report(
        ctx,
        search,
        D::NAME,
        domain.algorithm(),
        outcome,
        |mv| domain.move_json(mv),
        |out, solution| match search.quiet {
            true => domain.write_moves(out, solution),
            false => domain.draw(out, solution),
        },
    )?;
    // Part of the answer, after the verdict it explains: on stdout, where a pipe keeps it
    // (stderr carries diagnostics only on a terminal).
    if !search.quiet && !search.json {
        if let Some(note) = domain.note(outcome) {
            emit(|out| writeln!(out, "{note}"))?;
        }
    }
    Ok(code)
}

/// The answer when the domain proves without searching that no goal can be reached (exit 1).
fn report_unsolvable<D: Domain>(
    domain: &D,
    search: &SearchArgs,
    ctx: &Context,
    why: &str,
) -> anyhow::Result<ExitCode> {
    let outcome: Outcome<D::State, D::Move> = Outcome::Exhausted {
        stats: Stats::default(),
    };
    ctx.clear_progress();
    if search.json {
        // DESIGN's object, with the reason after the status.
        let mut buffer = Vec::new();
        let name = |mv: &D::Move| domain.move_json(mv);
        json_answer(
            &mut buffer,
            search,
            D::NAME,
            domain.algorithm(),
            &outcome,
            &name,
            None,
        )?;
        let plain: serde_json::Map<String, Value> =
            serde_json::from_slice(&buffer).context("internal error: the answer is not JSON")?;
        let mut object = serde_json::Map::new();
        for (key, value) in plain {
            let status = key == "status";
            object.insert(key, value);
            if status {
                object.insert("reason".into(), Value::from(why));
            }
        }
        emit(|out| writeln!(out, "{}", Value::Object(object)))?;
        return Ok(ExitCode::from(1));
    }
    emit(|out| {
        writeln!(out, "unsolvable: {why} (decided without searching)")?;
        if search.stats {
            writeln!(out, "{}", stats_line(outcome.stats()))?;
        }
        Ok(())
    })?;
    Ok(ExitCode::from(1))
}

/// The short answer of [`Domain::short`]: what `bidirectional` finds with the command's flags
/// limited to `most` moves (or `--max-depth`, if less), or `None` when the answer lies further
/// or the state budget is too small for the search (the tables then say so).
pub fn short_answer<S, M>(
    search: &SearchArgs,
    most: u32,
    bidirectional: impl FnOnce(&SearchArgs) -> anyhow::Result<Outcome<S, M>>,
) -> anyhow::Result<Option<Outcome<S, M>>> {
    let outcome = bidirectional(&search.short(most))?;
    let further = search.past_short(outcome.status(), most);
    Ok((!further).then_some(outcome))
}

/// The drawing of a solution the cube and the tiles share: the start, with `show` the state
/// after each move, then `solution: MOVES` (or `none`) and the `length` line.
pub fn walk_through<D: Domain>(
    domain: &D,
    out: &mut dyn Write,
    solution: &Solution<D::State, D::Move>,
    show: bool,
    picture: impl Fn(&mut dyn Write, &D::State) -> io::Result<()>,
    none: &str,
) -> io::Result<()> {
    if let Some(start) = solution.states.first() {
        picture(out, start)?;
    }
    let names: Vec<String> = solution.moves.iter().map(|m| domain.move_name(m)).collect();
    if show {
        for (i, state) in solution.states.iter().enumerate().skip(1) {
            writeln!(out, "\nafter {} ({i}):", names[i - 1])?;
            picture(out, state)?;
        }
    }
    let moves = if names.is_empty() {
        none.to_owned()
    } else {
        names.join(" ")
    };
    writeln!(out, "\nsolution: {moves}")
}

/// `--tree DEPTH`: the first levels of the search tree, drawn (or as JSON).
fn draw_tree<D: Domain>(domain: &D, search: &SearchArgs, depth: u32) -> anyhow::Result<ExitCode> {
    let tree = domain.search_tree(depth, MOST_TREE_NODES);
    if search.json {
        let mut value = tree_json(&tree, depth, &|mv| domain.move_json(mv), &|s| {
            domain.state_label(s)
        });
        value["domain"] = Value::String(D::NAME.to_owned());
        emit(|out| writeln!(out, "{value}"))?;
    } else {
        emit(|out| {
            draw_forest(out, &tree, &|mv, state| {
                format!("{} ({})", domain.move_name(mv), domain.state_label(state))
            })
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--compare [ALGO,...]`: the domain's own solver first (when it has one), then each listed
/// generic solver (all of them by default), each under the command's limits with `--timeout`
/// counted from its own start; one table.
fn compare<D: Domain>(
    mut domain: D,
    search: &SearchArgs,
    ctx: &Context,
    list: &str,
) -> anyhow::Result<ExitCode> {
    use clap::ValueEnum;
    let algos = match list.trim() {
        "" => Algo::value_variants().to_vec(),
        list => parse_compare(list).map_err(|e| anyhow::anyhow!("--compare: {e}"))?,
    };
    let quiet = SearchArgs {
        compare: None,
        quiet: true,
        ..search.clone()
    };
    let mut rows: Vec<CompareRow> = Vec::new();
    // The domain's own solver (or --algo's) first, then each listed one not run yet.
    let runs = std::iter::once(None).chain(algos.into_iter().map(Some));
    for algo in runs {
        if let Some(algo) = algo {
            if rows.iter().any(|row| row.algorithm == algo.name()) {
                continue;
            }
            domain.use_solver(algo);
        }
        // Each run has the whole --timeout, counted from its own start.
        let run = SearchArgs {
            algo: algo.or(search.algo),
            timeout: search.timeout.map(|t| t + ctx.started.elapsed()),
            ..quiet.clone()
        };
        reset_peak_memory();
        let outcome = attempt(&mut domain, &run, ctx)?;
        ctx.clear_progress();
        rows.push(CompareRow::of(domain.algorithm(), &outcome, peak_memory()));
        if outcome.status() == Status::Limit(Limit::Cancelled) {
            break;
        }
    }
    report_compare(D::NAME, &rows, search.json)?;
    let cancelled = rows
        .last()
        .is_some_and(|r| r.status == Status::Limit(Limit::Cancelled));
    Ok(if cancelled {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// One run of the domain's flow for `--compare`, printing nothing: a verdict without search,
/// tables past the budget (a limit), the short answer, or the solver's.
fn attempt<D: Domain>(
    domain: &mut D,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<Outcome<D::State, D::Move>> {
    let started = std::time::Instant::now();
    if domain.unsolvable().is_some() {
        return Ok(Outcome::Exhausted {
            stats: Stats::default(),
        });
    }
    let tables = domain.tables()?;
    if let Some(tables) = &tables {
        if let Some(outcome) = domain.short(ctx, search)? {
            return Ok(outcome);
        }
        if tables.bytes > search.table_budget() {
            return Ok(Outcome::Stopped {
                limit: Limit::States,
                stats: Stats::default(),
            });
        }
    }
    let clock = Stopwatch::new(search, ctx);
    if !domain.build(ctx, search, &clock)? {
        return Ok(clock.stopped());
    }
    let mut outcome = domain.solve(ctx, search)?;
    // The run's own time, its tables included.
    outcome.stats_mut().seconds = started.elapsed().as_secs_f64();
    Ok(outcome)
}
