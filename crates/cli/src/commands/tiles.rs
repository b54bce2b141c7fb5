//! `frontier tiles`: placeholder until the tiles domain lands.

use std::process::ExitCode;

use crate::common::{Context, SearchArgs};

/// The arguments of `frontier tiles`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The puzzle
    input: String,
    #[command(flatten)]
    search: SearchArgs,
}

/// Solves the puzzle.
pub fn run(args: Args, _ctx: &Context) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the tiles domain is not built yet ({}, {:?})", args.input, args.search.algo)
}

/// The arguments of `frontier explore tiles`.
#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    search: SearchArgs,
}

/// Explores the puzzle.
pub fn explore(args: ExploreArgs, _ctx: &Context) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the tiles domain is not built yet ({:?})", args.search.algo)
}
