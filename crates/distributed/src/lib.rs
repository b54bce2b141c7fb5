//! # frontier-distributed
//!
//! The engine's exploration ([`frontier_search::explore`]: the states at each distance) on the
//! workers of a [timely dataflow](timely) run: the threads of one process, or of several
//! processes on several machines.
//!
//! For a space with a rank and its inverse, each worker owns a contiguous range of the ranks
//! and keeps two bits for each of them (unseen, in one of two alternating layer codes, or
//! expanded), and no state. Any other space is shared out by a hash of its states'
//! [`Words`](frontier_search::Words): each worker keeps the states of its shard in a hash set, and its
//! part of the layer being expanded. The layers are synchronous, and a layer's number is the
//! timestamp of the successors found while expanding it: each worker expands its states of
//! the layer (for ranks, asking the space for its successors' ranks,
//! [`Space::indexed_successors`](frontier_search::Space::indexed_successors)), keeps its own
//! successors at once, and sends the others to their owners through timely's exchange,
//! batched a few thousand words to a message. Once timely says that no successor of the layer
//! is still on its way, every worker has its part of the next layer; a second, small dataflow
//! then sums the layer's count across the workers, and every worker learns the total, so that
//! all of them stop together.
//!
//! With a checkpoint directory, each worker of a ranked run writes its array, the layer and
//! the counts so far after every layer, with a checksum; a run killed at any moment resumes
//! from the last layer that every worker completed, with the same counts. A damaged
//! checkpoint, or one of another run, is refused. A run shared out by hashes checkpoints each
//! worker's states seen and its part of the next layer alike.
//!
//! ```
//! use frontier_distributed::{explore, Cluster, Run};
//! use frontier_search::{Config, Space};
//!
//! /// The states 0..1000 of a ring, one step either way; a state is its own rank.
//! struct Ring;
//! impl Space for Ring {
//!     type State = u32;
//!     type Move = ();
//!     fn start(&self) -> u32 { 0 }
//!     fn is_goal(&self, _: &u32) -> bool { false }
//!     fn successors(&self, n: &u32, _: Option<&()>, mut out: impl FnMut((), u32)) {
//!         out((), (n + 1) % 1000);
//!         out((), (n + 999) % 1000);
//!     }
//!     fn index_bound(&self) -> Option<u64> { Some(1000) }
//!     fn index(&self, n: &u32) -> u64 { u64::from(*n) }
//!     fn state_at(&self, rank: u64) -> Option<u32> { u32::try_from(rank).ok() }
//! }
//!
//! // Three workers in this process.
//! let run = Run::new(Cluster::local(3), "the ring of 1000");
//! let exploration = explore(&Ring, &Config::default(), &run, &|_| {}).unwrap();
//! assert_eq!(exploration.states(), 1000);
//! assert_eq!(exploration.layers.len(), 501);
//! ```

mod checkpoint;
mod hashed;
mod net;
mod shard;
mod work;

use std::path::PathBuf;
use std::time::Duration;

pub use checkpoint::CheckpointError;
pub use work::explore;

/// Where the workers of a run are: this process's place among the processes, and the worker
/// threads each one runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// The address (`host:port`) each process listens on, in the order of the processes; one
    /// address or none for a run in one process (which listens on none).
    pub hosts: Vec<String>,
    /// This process's index among them, from 0.
    pub process: usize,
    /// The worker threads of each process (every process runs as many).
    pub workers: usize,
}

impl Cluster {
    /// A run of `workers` worker threads in this process alone.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            hosts: Vec::new(),
            process: 0,
            workers: workers.max(1),
        }
    }

    /// The number of processes.
    pub fn processes(&self) -> usize {
        self.hosts.len().max(1)
    }

    /// The number of workers in all the processes.
    pub fn peers(&self) -> usize {
        self.processes() * self.workers
    }
}

/// What a run explores, where, and what it keeps.
#[derive(Clone, Debug)]
pub struct Run {
    /// Its workers.
    pub cluster: Cluster,
    /// Names the space explored (its domain, size and start), so that a checkpoint of another
    /// space, or a process started with other arguments, is refused.
    pub fingerprint: String,
    /// The directory of the checkpoints, if the run keeps them.
    pub checkpoint: Option<PathBuf>,
    /// Whether to go on from the checkpoints in [`Run::checkpoint`] instead of from the start.
    pub resume: bool,
    /// How long a process waits for the others to connect before it gives up.
    pub patience: Duration,
}

impl Run {
    /// A run on `cluster` of the space named by `fingerprint`, without checkpoints, that waits
    /// up to two minutes for its processes to connect.
    pub fn new(cluster: Cluster, fingerprint: impl Into<String>) -> Run {
        Run {
            cluster,
            fingerprint: fingerprint.into(),
            checkpoint: None,
            resume: false,
            patience: Duration::from_secs(120),
        }
    }
}

/// A layer counted, as reported to the observer of [`explore`] (on the first worker of each
/// process, once the layer's count is summed across all the workers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerReport {
    /// Its distance from the start.
    pub depth: u32,
    /// The states in it (each counted with its weight).
    pub states: u64,
    /// The states in it and in every layer before it.
    pub total: u64,
    /// The successors the workers sent to one another while expanding the layer before it (a
    /// rank, 8 bytes, or a state, 8 bytes a word, each, and a little for each message): 0 on
    /// one worker, at the start, and for the layer a run resumed at.
    pub sent: u64,
    /// Seconds since the run started.
    pub seconds: f64,
}

/// Why a distributed exploration could not run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The hosts given do not describe the run.
    #[error("{0}")]
    Hosts(String),
    /// The processes could not connect.
    #[error("{why}")]
    Network {
        /// What failed, and where.
        why: String,
    },
    /// The run was cancelled before the processes were connected.
    #[error("cancelled while the processes connected")]
    Cancelled,
    /// A checkpoint was refused or could not be written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The processes were not started with the same arguments.
    #[error("{0}")]
    Settings(String),
    /// Another worker could not go on.
    #[error("worker {worker} (process {process}) could not go on: {why}")]
    Peer {
        /// Its index among all the workers.
        worker: usize,
        /// Its process.
        process: usize,
        /// Its error.
        why: String,
    },
    /// A process of the run stopped before the end, or its connection broke.
    #[error("a process of the run stopped or its connection broke: the exploration cannot go on (with checkpoints, --resume goes on from the last layer)")]
    Lost,
}

/// Reads a hosts file: one `host:port` a line, line `i` for process `i`, as timely's own host
/// files; blank lines and `#` comments are skipped. It must name at least `processes`
/// hosts; those past them are not used.
///
/// ```
/// let hosts = frontier_distributed::parse_hosts("127.0.0.1:7000\n# the second\n127.0.0.1:7001\n", 2).unwrap();
/// assert_eq!(hosts, ["127.0.0.1:7000", "127.0.0.1:7001"]);
/// assert!(frontier_distributed::parse_hosts("127.0.0.1\n", 1).unwrap_err().to_string().contains("line 1"));
/// ```
pub fn parse_hosts(text: &str, processes: usize) -> Result<Vec<String>, Error> {
    let mut hosts = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let port = line
            .rsplit_once(':')
            .map(|(host, port)| (host, port.parse::<u16>()));
        match port {
            Some((host, Ok(_))) if !host.is_empty() && !line.contains(char::is_whitespace) => {
                hosts.push(line.to_owned());
            }
            _ => {
                return Err(Error::Hosts(format!(
                    "line {}: '{line}' is not host:port (a port from 0 to 65535)",
                    n + 1
                )))
            }
        }
        if hosts.len() == processes {
            break;
        }
    }
    if hosts.len() < processes {
        return Err(Error::Hosts(format!(
            "it names {} hosts, and the run has {processes} processes (one host:port a line)",
            hosts.len()
        )));
    }
    Ok(hosts)
}
