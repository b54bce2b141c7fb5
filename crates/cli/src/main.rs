//! `frontier`: solve search puzzles from the command line.
//!
//! This binary is only the command-line definition and the glue: each domain crate parses its
//! own formats and implements its search space; the shared flags, progress, exit codes and
//! output live in [`common`].

mod commands;
mod common;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::common::Context;

/// Find shortest (or cheapest) solutions to search puzzles, or prove that none exists.
///
/// Exit codes: 0 solved (or explore finished), 1 proven unsolvable, 2 bad input or usage,
/// 3 a limit was hit before an answer, 130 interrupted by Ctrl-C.
#[derive(Parser, Debug)]
#[command(name = "frontier", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A robot on a board of letters
    Board(commands::board::Args),
    /// A river crossing: a preset or a TOML file
    River(commands::river::Args),
    /// The 3x3x3 Rubik's cube
    Cube(commands::cube::Args),
    /// Sliding-tile puzzles (8, 15, 24, any n x m)
    Tiles(commands::tiles::Args),
    /// Count the reachable states of a puzzle at each distance from its start
    Explore(commands::explore::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ctx = Context::new();
    let result = match cli.command {
        Command::Board(args) => commands::board::run(args, &ctx),
        Command::River(args) => commands::river::run(args, &ctx),
        Command::Cube(args) => commands::cube::run(args, &ctx),
        Command::Tiles(args) => commands::tiles::run(args, &ctx),
        Command::Explore(args) => commands::explore::run(args, &ctx),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            ctx.clear_progress();
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
