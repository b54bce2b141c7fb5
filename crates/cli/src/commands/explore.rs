//! `frontier explore DOMAIN ...`: the distance distribution of a puzzle's reachable set.

use std::process::ExitCode;

use crate::commands::{board, cube, perm, river, tiles};
use crate::common::Context;

/// The arguments of `frontier explore`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    domain: Domain,
}

#[derive(clap::Subcommand, Debug)]
enum Domain {
    /// Every state of the robot on a board
    Board(board::ExploreArgs),
    /// Every arrangement of a river crossing
    River(river::ExploreArgs),
    /// Cube positions by distance from solved
    Cube(cube::ExploreArgs),
    /// Tile arrangements by distance from the goal
    Tiles(tiles::ExploreArgs),
    /// Permutation puzzle positions by distance from solved
    Perm(perm::ExploreArgs),
}

/// Runs the exploration of the chosen domain.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    match args.domain {
        Domain::Board(args) => board::explore(args, ctx),
        Domain::River(args) => river::explore(args, ctx),
        Domain::Cube(args) => cube::explore(args, ctx),
        Domain::Tiles(args) => tiles::explore(args, ctx),
        Domain::Perm(args) => perm::explore(args, ctx),
    }
}
