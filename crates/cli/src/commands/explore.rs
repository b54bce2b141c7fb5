//! `frontier explore DOMAIN ...`: the distance distribution of a puzzle's reachable set, on
//! this process's threads or, with `--processes` or `--workers`, on the workers of a timely
//! dataflow run (frontier-distributed).

use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context as _};
use frontier_distributed::{parse_hosts, Cluster, LayerReport, Run};
use frontier_search::{Limit, Space, Status, Words};

use crate::commands::{board, cube, perm, river, tiles};
use crate::common::{
    count, exit_code, parse_whole, report_exploration, resident_memory, to_stderr, Context,
    SearchArgs,
};
use crate::pictures::{Pictures, Subject};

/// The arguments of `frontier explore`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    domain: Domain,
    #[command(flatten)]
    across: AcrossArgs,
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

/// The flags of an exploration across processes: given after the domain, as every flag.
#[derive(clap::Args, Debug)]
struct AcrossArgs {
    /// Explore on N processes, on this machine or others, over timely dataflow: start each
    /// with the same arguments and its own --process, after --hosts FILE
    #[arg(long, value_name = "N", global = true, value_parser = parse_processes, help_heading = HEADING)]
    processes: Option<usize>,
    /// This process's place among the --processes, from 0
    #[arg(long, value_name = "I", global = true, value_parser = parse_process, help_heading = HEADING)]
    process: Option<usize>,
    /// The addresses the processes listen on: one host:port a line, line I for process I (as
    /// timely's host files)
    #[arg(long, value_name = "FILE", global = true, help_heading = HEADING)]
    hosts: Option<PathBuf>,
    /// Worker threads in each process of a distributed exploration (each owns a part of the
    /// states) [default: 1]
    #[arg(long, value_name = "W", global = true, value_parser = parse_workers, help_heading = HEADING)]
    workers: Option<usize>,
    /// Keep each worker's checkpoint in DIR after every layer (its ranks' two bits, or its states)
    #[arg(long, value_name = "DIR", global = true, help_heading = HEADING)]
    checkpoint: Option<PathBuf>,
    /// Go on from the checkpoints in --checkpoint DIR, from the last layer every worker
    /// completed (each process with the arguments it was first started with)
    #[arg(long, global = true, help_heading = HEADING)]
    resume: bool,
}

const HEADING: &str = "Across processes (timely dataflow)";

fn parse_processes(text: &str) -> Result<usize, String> {
    parse_whole(text, "processes", 1, 4096).map(|n| n as usize)
}

fn parse_process(text: &str) -> Result<usize, String> {
    parse_whole(text, "processes", 0, 4095).map(|n| n as usize)
}

fn parse_workers(text: &str) -> Result<usize, String> {
    parse_whole(text, "workers", 1, 1024).map(|n| n as usize)
}

/// A distributed exploration, its flags checked: where its workers are and what it keeps.
#[derive(Debug)]
pub struct Plan {
    cluster: Cluster,
    checkpoint: Option<PathBuf>,
    resume: bool,
}

impl Plan {
    /// The run of the space named by `fingerprint` on this plan.
    pub fn run(&self, fingerprint: String) -> Run {
        Run {
            checkpoint: self.checkpoint.clone(),
            resume: self.resume,
            ..Run::new(self.cluster.clone(), fingerprint)
        }
    }
}

impl AcrossArgs {
    /// The plan these flags ask for, or `None` for an exploration on this process alone.
    fn plan(&self) -> anyhow::Result<Option<Plan>> {
        let asked = self.processes.is_some()
            || self.process.is_some()
            || self.hosts.is_some()
            || self.workers.is_some()
            || self.checkpoint.is_some()
            || self.resume;
        if !asked {
            return Ok(None);
        }
        let processes = self.processes.unwrap_or(1);
        let process = self.process.unwrap_or(0);
        if process >= processes {
            bail!(
                "--process {process}: a run of {processes} processes numbers them from 0 to {}",
                processes - 1
            );
        }
        if processes > 1 && self.process.is_none() {
            bail!("--processes {processes}: give each process its place with --process I");
        }
        if self.resume && self.checkpoint.is_none() {
            bail!("--resume goes on from the checkpoints of --checkpoint DIR: give it");
        }
        let hosts = match &self.hosts {
            Some(file) => {
                let name = file.display();
                let text = std::fs::read_to_string(file)
                    .with_context(|| format!("--hosts {name}: cannot read it"))?;
                parse_hosts(&text, processes).with_context(|| format!("--hosts {name}"))?
            }
            None if processes > 1 => {
                bail!("--processes {processes}: give the addresses of the processes with --hosts FILE")
            }
            None => Vec::new(),
        };
        Ok(Some(Plan {
            cluster: Cluster {
                hosts,
                process,
                workers: self.workers.unwrap_or(1),
            },
            checkpoint: self.checkpoint.clone(),
            resume: self.resume,
        }))
    }
}

/// Runs the exploration of the chosen domain.
pub fn run(args: Args, ctx: &Context) -> anyhow::Result<ExitCode> {
    if let Some(plan) = args.across.plan()? {
        return match args.domain {
            Domain::Board(args) => board::explore_across(args, &plan, ctx),
            Domain::River(args) => river::explore_across(args, &plan, ctx),
            Domain::Tiles(args) => tiles::explore_across(args, &plan, ctx),
            Domain::Perm(args) => perm::explore_across(args, &plan, ctx),
            Domain::Cube(_) => bail!(
                "--processes, --workers and --checkpoint explore board, river, tiles or perm; the cube's positions are explored in one process (--threads), or across processes as a permutation puzzle: explore perm cube3"
            ),
        };
    }
    match args.domain {
        Domain::Board(args) => board::explore(args, ctx),
        Domain::River(args) => river::explore(args, ctx),
        Domain::Cube(args) => cube::explore(args, ctx),
        Domain::Tiles(args) => tiles::explore(args, ctx),
        Domain::Perm(args) => perm::explore(args, ctx),
    }
}

/// A digest of `text` (a board, a puzzle file) for a run's fingerprint: the same in every
/// process of one build.
pub fn digest(text: &str) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// Explores `space` on the workers of `run` and prints the exploration as `explore` prints it,
/// on process 0 alone; each layer goes to stderr as it is counted, unless `--quiet`. Every
/// process exits with the same code. A space with a rank is shared out by ranges of ranks,
/// any other by its states' hashes.
pub fn across<P>(
    space: &P,
    mut run: Run,
    search: &SearchArgs,
    ctx: &Context,
    domain: &str,
) -> anyhow::Result<ExitCode>
where
    P: Space + Sync,
    P::State: Words + Hash + Eq + Clone,
{
    if search.threads.is_some() {
        bail!("--threads sets the threads of an exploration in one process; across processes, give --workers W");
    }
    let mut config = search.config::<P::State, ()>(ctx);
    // The layers are reported below, one line each, instead of a spinner.
    config.progress = None;
    if let Some(timeout) = config.timeout {
        // Waiting for the other processes counts against --timeout too.
        run.patience = run.patience.min(timeout.max(Duration::from_millis(1)));
    }
    let leader = run.cluster.process == 0;
    // Only the leader reports, so only it draws the chart.
    let mut pictures = match leader {
        true => Pictures::open(search, Subject::Chart)?,
        false => Pictures::none(),
    };
    let last = Mutex::new(0.0f64);
    let on_layer = |layer: &LayerReport| {
        if search.quiet || !leader {
            return;
        }
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        let seconds = (layer.seconds - *last).max(1e-9);
        *last = layer.seconds;
        let memory = resident_memory().map_or("-".to_owned(), |b| format!("{} MB", b / 1_000_000));
        let sent = match layer.sent {
            0 => String::new(),
            sent => format!(", {} successors sent", count(sent)),
        };
        to_stderr(format_args!(
            "layer {:>3}: {:>15} states, {:>15} in all, {:>8.2} s, {:>12} states/s, {memory}{sent}",
            layer.depth,
            count(layer.states),
            count(layer.total),
            layer.seconds,
            count((layer.states as f64 / seconds) as u64),
        ));
    };
    let mut exploration = frontier_distributed::explore(space, &config, &run, &on_layer)?;
    exploration.stats.seconds = ctx.seconds();
    if leader {
        return report_exploration(ctx, search, domain, &exploration, &mut pictures);
    }
    Ok(match exploration.status() {
        Status::Exhausted | Status::Limit(Limit::Depth) => ExitCode::SUCCESS,
        status => exit_code(status),
    })
}
