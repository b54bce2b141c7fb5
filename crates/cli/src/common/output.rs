//! Printing the answer: text or JSON, limit and unsolvability messages, the exit code, and
//! writing to stdout and stderr safely.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use frontier_search::{Exploration, Limit, Outcome, Solution, Stats, Status};
use serde_json::{json, Value};

use super::*;
use crate::pictures::{chart, Pictures};

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

/// The exit code for a search's status: 0 solved, 1 unsolvable, 3 a limit, 130 cancelled.
pub fn exit_code(status: Status) -> ExitCode {
    match status {
        Status::Solved => ExitCode::SUCCESS,
        Status::Exhausted => ExitCode::from(1),
        Status::Limit(Limit::Cancelled) => ExitCode::from(130),
        Status::Limit(_) => ExitCode::from(3),
    }
}

pub(super) fn stats_json(stats: &Stats) -> Value {
    json!({
        "expanded": stats.expanded,
        "generated": stats.generated,
        "stored": stats.stored,
        "seconds": stats.seconds,
    })
}

/// A solution's moves as a JSON array, each turned into JSON (by the function) as it is
/// written.
pub(super) struct JsonMoves<'a, M, F>(&'a [M], &'a F);

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
        // complete would enter each state again many times).
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
pub(super) fn unsolvable_message(algorithm: &str, args: &SearchArgs, stats: &Stats) -> String {
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
pub(super) fn states(n: u64) -> String {
    match n {
        1 => "1 state".to_owned(),
        _ => format!("{} states", count(n)),
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
pub(crate) const MAX_TOKEN_CHARS: usize = 200;
/// How much of a longer token a message shows, before `...` and its length.
pub(crate) const TOKEN_KEPT_CHARS: usize = 80;

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

/// Writes a search's answer as DESIGN's JSON object, one line, with `"line": N` when it
/// answers line N of a batch.
pub fn json_answer<S, M>(
    out: &mut dyn Write,
    args: &SearchArgs,
    domain: &str,
    algorithm: &str,
    outcome: &Outcome<S, M>,
    move_json: &impl Fn(&M) -> Value,
    line: Option<usize>,
) -> io::Result<()> {
    // Written field by field, the moves one at a time: a long answer (ten million moves on a
    // board) is never held as JSON values, which would take several times the search's memory.
    use serde::ser::{SerializeMap, Serializer};
    let mut json = serde_json::Serializer::new(&mut *out);
    let mut object = json.serialize_map(None)?;
    if let Some(line) = line {
        object.serialize_entry("line", &line)?;
    }
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
        object.serialize_entry("moves", &JsonMoves(&solution.moves, move_json))?;
    }
    if let Some(w) = args.weight {
        object.serialize_entry("weight", &w)?;
    }
    object.serialize_entry("stats", &stats_json(outcome.stats()))?;
    object.end()?;
    writeln!(out)
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
        emit(|out| json_answer(out, args, domain, algorithm, outcome, &move_json, None))?;
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

/// Prints an exploration: the number of states at each distance, as a table or as JSON; then
/// writes its chart to the `pictures` asked for.
pub fn report_exploration(
    ctx: &Context,
    args: &SearchArgs,
    domain: &str,
    exploration: &Exploration,
    pictures: &mut Pictures,
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
    pictures.write(|| {
        let total = states(exploration.states());
        let counted = match exploration.status() {
            Status::Exhausted => format!("{total}, the whole reachable set"),
            Status::Limit(Limit::Depth) => format!("{total} within --max-depth"),
            Status::Limit(limit) => {
                format!("{total} counted, stopped by a limit ({})", limit.name())
            }
            Status::Solved => total,
        };
        let title = format!("explore {domain}: the states at each distance ({counted})");
        let scale = args.scale.unwrap_or_default();
        Ok(chart::draw(&title, &exploration.layers, partial, scale))
    })?;
    // Counting everything, or everything up to the requested depth, is the job done.
    Ok(match exploration.status() {
        Status::Exhausted | Status::Limit(Limit::Depth) => ExitCode::SUCCESS,
        status => exit_code(status),
    })
}
