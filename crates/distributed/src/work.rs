//! The run: the processes connected, the workers started, and each worker's layers.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::thread;
use std::time::{Duration, Instant};

use frontier_search::{Config, Exploration, Limit, Space, Stats, Watch};
use serde::{Deserialize, Serialize};
use timely::communication::allocator::zero_copy::allocator::TcpBuilder;
use timely::communication::allocator::zero_copy::initialize::{
    initialize_networking_from_sockets, CommsGuard,
};
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{Allocator, Hooks};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::WorkerConfig;

use crate::checkpoint::{Place, Saved};
use crate::net;
use crate::shard::{entries_of, layer_code, Count, Shard, CHUNK_WORDS, CLOSED, PER_WORD};
use crate::{Error, LayerReport, Run};

/// Successor ranks sent to a worker in one message.
const BATCH: usize = 4096;
/// A worker's own successors marked together.
const LOCAL_BATCH: usize = 256;
/// How long a waiting worker sleeps when there is nothing to do.
const PARK: Duration = Duration::from_millis(1);

/// Successor ranks on their way to the worker that owns them, with the weights of those whose
/// state weighs other than 1 (by their position in `ranks`; none in most spaces).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Batch {
    ranks: Vec<u64>,
    weights: Vec<(u32, u64)>,
}

/// A batch and the index of the worker it goes to.
type Parcel = (u32, Batch);

/// What a worker tells every worker once a round: at the start, how it was started; after
/// each layer, its part of the layer.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Note {
    to: u32,
    from: u32,
    process: u32,
    /// The run's arguments as this worker's process was given them (the first round).
    settings: String,
    /// The layers it has checkpoints of (the first round of a resumed run).
    saved: Vec<u32>,
    /// Its arrays do not fit its process's state budget (the first round).
    over_budget: bool,
    found: u64,
    weight: u64,
    deeper: bool,
    expanded: u64,
    generated: u64,
    /// Successor ranks it sent to other workers.
    sent: u64,
    /// The limit that stopped it in the layer ([`limit_code`]), 0 for none.
    limit: u8,
    /// Why it cannot go on.
    error: Option<String>,
}

fn limit_code(limit: Option<Limit>) -> u8 {
    match limit {
        None => 0,
        Some(Limit::Depth) => 1,
        Some(Limit::States) => 2,
        Some(Limit::Time) => 3,
        Some(Limit::Cancelled) => 4,
    }
}

fn code_limit(code: u8) -> Option<Limit> {
    match code {
        1 => Some(Limit::Depth),
        2 => Some(Limit::States),
        3 => Some(Limit::Time),
        4 => Some(Limit::Cancelled),
        _ => None,
    }
}

/// Explores `space` on the workers of `run`, as [`frontier_search::explore`] explores it
/// densely on one machine, and returns the same counts: every process of the run calls it
/// with the same arguments (but its own [`Cluster::process`](crate::Cluster::process)), and
/// each gets the whole exploration.
///
/// `config` gives the limits: its depth limit, timeout and cancel flag, and its state budget
/// for the arrays of this process's workers (two bits a rank of their ranges, a state's size
/// a byte as [`frontier_search::explore`] counts them); the arrays past the budget stop the
/// run at once with [`Limit::States`]. A limit seen by any worker stops all of them within the
/// layer; the last layer is then partial, as the engine's. `on_layer` hears of each layer
/// once its count is summed, on the first worker of each process.
///
/// # Errors
///
/// The space has no rank that unranks; the processes cannot connect; a checkpoint is damaged,
/// of another run, or cannot be written; the processes were started with different
/// arguments; a process stopped or its connection broke ([`Error::Lost`]).
///
/// # Panics
///
/// If the space's ranks break its promise (a rank at or past its bound).
pub fn explore<P>(
    space: &P,
    config: &Config,
    run: &Run,
    on_layer: &(dyn Fn(&LayerReport) + Sync),
) -> Result<Exploration, Error>
where
    P: Space + Sync,
    P::State: PartialEq,
{
    let bound = space.index_bound().ok_or(Error::NoRank)?;
    let start = space.start();
    let start_rank = space.index(&start);
    if space.state_at(start_rank).as_ref() != Some(&start) {
        return Err(Error::NoRank);
    }
    let cluster = &run.cluster;
    let processes = cluster.processes();
    if cluster.process >= processes || cluster.workers == 0 {
        return Err(Error::Hosts(format!(
            "process {} of {processes}, with {} workers, is not a place in the run",
            cluster.process, cluster.workers
        )));
    }
    let watch = Watch::new(config);
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(
        cluster.workers,
        hooks.refill.clone(),
        hooks.spill.clone(),
    );
    let (builders, guard): (Vec<Builder>, Option<CommsGuard>) = if processes > 1 {
        let cancel = config.cancel.as_deref();
        let sockets = match net::connect(&cluster.hosts, cluster.process, run.patience, cancel) {
            Ok(sockets) => sockets,
            Err(Error::Cancelled) => return Ok(stopped(Limit::Cancelled, &watch)),
            Err(e) => return Err(e),
        };
        let (tcp, guard) = initialize_networking_from_sockets(
            local,
            sockets,
            cluster.process,
            cluster.workers,
            hooks,
        )
        .map_err(|e| Error::Network {
            why: format!("cannot start the connections: {e}"),
        })?;
        (tcp.into_iter().map(Builder::Tcp).collect(), Some(guard))
    } else {
        (local.into_iter().map(Builder::Process).collect(), None)
    };
    let shared = Shared {
        space,
        config,
        watch: &watch,
        run,
        bound,
        start_rank,
        start_weight: space.weight(&start),
        on_layer,
    };
    let results: Vec<thread::Result<Result<Exploration, Error>>> = thread::scope(|scope| {
        let handles: Vec<_> = builders
            .into_iter()
            .map(|builder| {
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker::new(
                        WorkerConfig::default(),
                        builder.build(),
                        Some(Instant::now()),
                    );
                    let result = Node::new(&mut worker, shared).run();
                    // The inputs are closed: the dataflows end once every worker's are, and
                    // no worker leaves another waiting for its last progress messages.
                    while worker.has_dataflows() {
                        worker.step_or_park(Some(PARK));
                    }
                    result
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    });
    let mut outcome = None;
    let mut lost = false;
    for result in results {
        match result {
            Ok(result) => {
                // A worker's own error first: another's is only its echo.
                let replace = match (&outcome, &result) {
                    (None, _) => true,
                    (Some(Ok(_)), Err(_)) => true,
                    (Some(Err(Error::Peer { .. })), Err(e)) => !matches!(e, Error::Peer { .. }),
                    _ => false,
                };
                if replace {
                    outcome = Some(result);
                }
            }
            Err(panic) => {
                let text = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("");
                // timely's connections fail by panicking, in their threads and then in the
                // workers that read from them; any other panic is a bug, and goes on.
                if text.contains("timely communication error") || text.contains("MergeQueue") {
                    lost = true;
                } else {
                    std::panic::resume_unwind(panic);
                }
            }
        }
    }
    if lost {
        // Its drop joins the connection threads, which panicked: leave them.
        std::mem::forget(guard);
        return Err(Error::Lost);
    }
    drop(guard);
    outcome.unwrap_or(Err(Error::Lost))
}

/// What makes a worker's allocator, in its own thread: for the workers of this process
/// alone, or for a process among several.
enum Builder {
    Process(ProcessBuilder),
    Tcp(TcpBuilder),
}

impl Builder {
    fn build(self) -> Allocator {
        match self {
            Builder::Process(builder) => Allocator::Process(builder.build()),
            Builder::Tcp(builder) => Allocator::Tcp(builder.build()),
        }
    }
}

/// The exploration of a run stopped by `limit` before its first layer.
fn stopped(limit: Limit, watch: &Watch) -> Exploration {
    Exploration {
        layers: Vec::new(),
        limit: Some(limit),
        stats: Stats {
            seconds: watch.seconds(),
            ..Stats::default()
        },
    }
}

/// What the workers of a process share.
struct Shared<'a, P> {
    space: &'a P,
    config: &'a Config,
    watch: &'a Watch<'a>,
    run: &'a Run,
    bound: u64,
    start_rank: u64,
    start_weight: u64,
    on_layer: &'a (dyn Fn(&LayerReport) + Sync),
}

/// One worker's part of a layer.
#[derive(Debug, Default)]
struct Tally {
    count: Count,
    expanded: u64,
    generated: u64,
    /// Successor ranks sent to other workers.
    sent: u64,
    limit: Option<Limit>,
    /// The layer was the last the depth limit allows: its successors were only looked at.
    last: bool,
    /// Why the worker cannot go on (its checkpoint could not be written).
    error: Option<Error>,
}

/// The sums of the workers' notes of a round.
#[derive(Default)]
struct Sum {
    found: u64,
    weight: u64,
    deeper: bool,
    expanded: u64,
    generated: u64,
    sent: u64,
    limit: Option<Limit>,
}

/// What the run has counted, summed across the workers.
#[derive(Default)]
struct Totals {
    expanded: u64,
    generated: u64,
    reached: u64,
    widest: u64,
}

/// A worker and its dataflows: one carries successor ranks to their owners, timestamped with
/// the layer they were found in; the other carries the notes of the rounds.
struct Node<'w, 'a, P> {
    worker: &'w mut Worker,
    shared: &'a Shared<'a, P>,
    me: usize,
    peers: usize,
    /// Ranks each worker owns (the last owns fewer).
    span: u64,
    shard: Rc<RefCell<Shard>>,
    ranks_in: InputHandle<u64, CapacityContainerBuilder<Vec<Parcel>>>,
    ranks_done: ProbeHandle<u64>,
    notes_in: InputHandle<u64, CapacityContainerBuilder<Vec<Note>>>,
    notes_done: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<(u64, Note)>>>,
    /// The rounds of notes so far.
    round: u64,
}

impl<'w, 'a, P> Node<'w, 'a, P>
where
    P: Space + Sync,
{
    fn new(worker: &'w mut Worker, shared: &'a Shared<'a, P>) -> Self {
        let (me, peers) = (worker.index(), worker.peers());
        let span = shared.bound.div_ceil(peers as u64).max(1);
        let first = (me as u64 * span).min(shared.bound);
        // Allocated once the workers agree that the arrays fit (the first round).
        let shard = Rc::new(RefCell::new(Shard::new(first, first)));
        let max_depth = shared.config.max_depth;
        let marks = Rc::clone(&shard);
        let (ranks_in, ranks_done) = worker.dataflow::<u64, _, _>(|scope| {
            let (input, stream) = scope.new_input::<Vec<Parcel>>();
            let probe = ProbeHandle::new();
            stream
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|parcel: &Parcel| u64::from(parcel.0)),
                    "Mark",
                    move |_, _| {
                        move |input, _| {
                            input.for_each_stamp(|cap, containers| {
                                let Some(&time) = cap.least() else { return };
                                let look_only = max_depth.is_some_and(|m| time >= u64::from(m));
                                let mut shard = marks.borrow_mut();
                                for container in containers {
                                    for (_, batch) in container.drain(..) {
                                        let t = time as u32;
                                        shard.receive(t, &batch.ranks, &batch.weights, look_only);
                                    }
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
            (input, probe)
        });
        let inbox = Rc::new(RefCell::new(Vec::new()));
        let letters = Rc::clone(&inbox);
        let (notes_in, notes_done) = worker.dataflow::<u64, _, _>(|scope| {
            let (input, stream) = scope.new_input::<Vec<Note>>();
            let probe = ProbeHandle::new();
            stream
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|note: &Note| u64::from(note.to)),
                    "Notes",
                    move |_, _| {
                        move |input, _| {
                            input.for_each_stamp(|cap, containers| {
                                let Some(&time) = cap.least() else { return };
                                let mut inbox = letters.borrow_mut();
                                for container in containers {
                                    inbox.extend(container.drain(..).map(|note| (time, note)));
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
            (input, probe)
        });
        Node {
            worker,
            shared,
            me,
            peers,
            span,
            shard,
            ranks_in,
            ranks_done,
            notes_in,
            notes_done,
            inbox,
            round: 0,
        }
    }

    /// This worker's index among the workers of its process is 0.
    fn leads_its_process(&self) -> bool {
        self.me.is_multiple_of(self.shared.run.cluster.workers)
    }

    fn process_of(&self, worker: usize) -> usize {
        worker / self.shared.run.cluster.workers
    }

    /// Sends `note` to every worker and returns every worker's note of the round, in the
    /// order of the workers. With `mine` an error, every worker hears of it, and this one
    /// returns it; with another's, this one returns [`Error::Peer`].
    fn round(&mut self, mut note: Note, mine: Option<Error>) -> Result<Vec<Note>, Error> {
        note.from = self.me as u32;
        note.process = self.process_of(self.me) as u32;
        note.error = mine.as_ref().map(|e| e.to_string());
        for to in 0..self.peers {
            note.to = to as u32;
            self.notes_in.send(note.clone());
        }
        let round = self.round;
        self.round += 1;
        self.notes_in.advance_to(self.round);
        while self.notes_done.less_than(&self.round) {
            self.worker.step_or_park(Some(PARK));
        }
        let mut notes: Vec<Note> = Vec::with_capacity(self.peers);
        self.inbox.borrow_mut().retain(|(time, note)| {
            if *time == round {
                notes.push(note.clone());
            }
            *time != round
        });
        notes.sort_by_key(|note| note.from);
        if let Some(error) = mine {
            return Err(error);
        }
        if let Some(note) = notes.iter().find(|n| n.error.is_some()) {
            return Err(Error::Peer {
                worker: note.from as usize,
                process: note.process as usize,
                why: note.error.clone().unwrap_or_default(),
            });
        }
        if notes.len() != self.peers {
            return Err(Error::Lost);
        }
        Ok(notes)
    }

    /// The checkpoints of this worker, if the run keeps them.
    fn place<'p>(&self, dir: &'p Path) -> Place<'p>
    where
        'a: 'p,
    {
        let shard = self.shard.borrow();
        Place {
            dir,
            fingerprint: &self.shared.run.fingerprint,
            peers: self.peers,
            index: self.me,
            first: shard.first,
            end: (shard.first + self.span).min(self.shared.bound),
        }
    }

    /// The run's arguments that every process must share.
    fn settings(&self) -> String {
        let run = self.shared.run;
        format!(
            "{}; {} ranks; {} processes of {} workers; max depth {}; checkpoints {}; {}",
            run.fingerprint,
            self.shared.bound,
            run.cluster.processes(),
            run.cluster.workers,
            self.shared
                .config
                .max_depth
                .map_or("none".to_owned(), |d| d.to_string()),
            if run.checkpoint.is_some() {
                "kept"
            } else {
                "not kept"
            },
            if run.resume {
                "resumed"
            } else {
                "from the start"
            },
        )
    }

    /// The whole exploration, as this worker sees it (every worker sees the same).
    fn run(mut self) -> Result<Exploration, Error> {
        let run = self.shared.run;
        let (first, end) = {
            let shard = self.shard.borrow();
            (
                shard.first,
                (shard.first + self.span).min(self.shared.bound),
            )
        };
        // The first round: the same arguments everywhere, the arrays within the budget, the
        // checkpoints each worker has.
        let settings = self.settings();
        let mut hello = Note {
            settings: settings.clone(),
            ..Note::default()
        };
        let mut problem = None;
        if let Some(dir) = &run.checkpoint {
            match self.place(dir).layers(!run.resume) {
                Ok(layers) => hello.saved = layers,
                Err(e) => problem = Some(e.into()),
            }
        }
        let state = std::mem::size_of::<P::State>().max(1) as u64;
        let budget = (self.shared.config.max_states).map_or(u64::MAX, |m| m.saturating_mul(state));
        let workers = run.cluster.workers as u64;
        hello.over_budget = (end - first).div_ceil(4).saturating_mul(workers) > budget;
        let notes = self.round(hello, problem)?;
        if let Some(other) = notes.iter().find(|n| n.settings != settings) {
            return Err(Error::Settings(format!(
                "process {} was started otherwise than process {}: {} / {}",
                other.process,
                self.process_of(self.me),
                other.settings,
                settings
            )));
        }
        if notes.iter().any(|n| n.over_budget) {
            return Ok(stopped(Limit::States, self.shared.watch));
        }
        let mut layers = Vec::new();
        let mut totals = Totals::default();
        let mut depth = 0u32;
        let mut tally = Tally::default();
        match &run.checkpoint {
            Some(dir) if run.resume => {
                // The newest layer every worker has: at most one behind the newest of any.
                let common = (hello_layers(&notes).into_iter())
                    .filter(|d| notes.iter().all(|n| n.saved.contains(d)))
                    .max();
                let nothing = notes.iter().all(|n| n.saved.is_empty());
                let loaded = match common {
                    Some(d) => (self.place(dir).read(d))
                        .map(|(saved, words)| (saved, Some(words)))
                        .map_err(Error::from),
                    // Killed before every worker had written its layer 0: from the start.
                    None if !nothing && notes.iter().all(|n| n.saved.iter().all(|&d| d == 0)) => {
                        Ok((self.fresh(first, end, &mut tally), None))
                    }
                    None => Err(Error::Checkpoint(crate::CheckpointError::Directory {
                        dir: dir.clone(),
                        why: if nothing {
                            "it holds no checkpoint of this run".to_owned()
                        } else {
                            "no layer was completed by every worker".to_owned()
                        },
                    })),
                };
                let (saved, words, problem) = match loaded {
                    Ok((saved, words)) => (saved, words, None),
                    Err(e) => (Saved::default(), None, Some(e)),
                };
                self.round(Note::default(), problem)?;
                if let Some(words) = words {
                    *self.shard.borrow_mut() = Shard::with_words(first, end, words);
                }
                layers = saved.layers;
                depth = saved.depth;
                totals = Totals {
                    expanded: saved.expanded,
                    generated: saved.generated,
                    reached: saved.reached,
                    widest: saved.widest,
                };
                tally.count = saved.count;
                tally.expanded = saved.own_expanded;
                tally.generated = saved.own_generated;
            }
            _ => {
                self.fresh(first, end, &mut tally);
            }
        }
        if let (Some(dir), 0) = (&run.checkpoint, depth) {
            // Layer 0 too: then a run killed at any moment has a layer every worker completed.
            tally.error = self.save(dir, 0, &layers, &totals, &tally).err();
        }
        let limit = loop {
            // Layer `depth` is marked everywhere: its count, summed.
            let note = Note {
                found: tally.count.found,
                weight: tally.count.weight,
                deeper: tally.count.deeper,
                expanded: tally.expanded,
                generated: tally.generated,
                sent: tally.sent,
                limit: limit_code(tally.limit),
                ..Note::default()
            };
            let notes = self.round(note, tally.error.take())?;
            let sum = notes.iter().fold(Sum::default(), |sum, n| Sum {
                found: sum.found + n.found,
                weight: sum.weight.saturating_add(n.weight),
                deeper: sum.deeper || n.deeper,
                expanded: sum.expanded + n.expanded,
                generated: sum.generated + n.generated,
                sent: sum.sent + n.sent,
                limit: sum.limit.or(code_limit(n.limit)),
            });
            totals.expanded += sum.expanded;
            totals.generated += sum.generated;
            if let Some(limit) = sum.limit {
                if !tally.last {
                    layers.push(sum.weight);
                }
                break Some(limit);
            }
            if tally.last {
                break sum.deeper.then_some(Limit::Depth);
            }
            if sum.found == 0 {
                break None;
            }
            layers.push(sum.weight);
            totals.reached += sum.found;
            totals.widest = totals.widest.max(sum.found);
            if self.leads_its_process() {
                (self.shared.on_layer)(&LayerReport {
                    depth,
                    states: sum.weight,
                    total: layers.iter().fold(0u64, |a, &b| a.saturating_add(b)),
                    sent: sum.sent,
                    seconds: self.shared.watch.seconds(),
                });
            }
            let last = self.shared.config.max_depth.is_some_and(|m| depth >= m);
            tally = self.expand(depth, last);
            depth += 1;
            if let (Some(dir), None, false) = (&run.checkpoint, tally.limit, last) {
                tally.error = self.save(dir, depth, &layers, &totals, &tally).err();
            }
        };
        Ok(Exploration {
            layers,
            limit,
            stats: Stats {
                expanded: totals.expanded,
                generated: totals.generated,
                stored: totals.reached,
                peak_frontier: totals.widest,
                seconds: self.shared.watch.seconds(),
            },
        })
    }

    /// Marks the start, if this worker owns it, in a new array of the ranks `first..end`;
    /// its count goes to `tally`. What a resumed run loads instead.
    fn fresh(&mut self, first: u64, end: u64, tally: &mut Tally) -> Saved {
        let mut shard = Shard::new(first, end);
        if (first..end).contains(&self.shared.start_rank) {
            shard.mark(self.shared.start_rank, layer_code(0));
            tally.count = Count {
                found: 1,
                weight: self.shared.start_weight,
                deeper: false,
            };
        }
        *self.shard.borrow_mut() = shard;
        Saved {
            count: tally.count,
            ..Saved::default()
        }
    }

    /// Writes the checkpoint of layer `depth`, marked and counted by this worker in `tally`.
    fn save(
        &self,
        dir: &Path,
        depth: u32,
        layers: &[u64],
        totals: &Totals,
        tally: &Tally,
    ) -> Result<(), Error> {
        let saved = Saved {
            depth,
            layers: layers.to_vec(),
            count: tally.count,
            expanded: totals.expanded,
            generated: totals.generated,
            reached: totals.reached,
            widest: totals.widest,
            own_expanded: tally.expanded,
            own_generated: tally.generated,
        };
        let shard = self.shard.borrow();
        Ok(self.place(dir).write(&saved, &shard.words)?)
    }

    /// Expands this worker's entries of layer `depth` (with `last`, only looks whether their
    /// successors are unseen), and waits until every worker's successors of the layer have
    /// reached their owners.
    fn expand(&mut self, depth: u32, last: bool) -> Tally {
        let mut tally = Tally {
            last,
            ..Tally::default()
        };
        let (me, span, bound) = (self.me, self.span, self.shared.bound);
        let space = self.shared.space;
        let watch = self.shared.watch;
        let code = layer_code(depth);
        self.ranks_in.advance_to(u64::from(depth));
        let mut batches: Vec<Batch> = (0..self.peers).map(|_| Batch::default()).collect();
        let mut own: Vec<(u64, u64)> = Vec::with_capacity(LOCAL_BATCH);
        let chunks = self.shard.borrow().chunks();
        for chunk in 0..chunks {
            if let Some(limit) = watch.limit() {
                tally.limit = Some(limit);
                break;
            }
            let mut count = Count::default();
            {
                let mut shard = self.shard.borrow_mut();
                if !shard.take_active(chunk, code) {
                    continue;
                }
                let ranks_in = &mut self.ranks_in;
                let start = chunk * CHUNK_WORDS;
                let stop = (start + CHUNK_WORDS).min(shard.words.len());
                for w in start..stop {
                    let mut layer = entries_of(shard.words[w], code);
                    if layer == 0 {
                        continue;
                    }
                    // Each entry of the layer becomes CLOSED, both its bits set.
                    let close = layer * CLOSED;
                    let base = shard.first + w as u64 * PER_WORD;
                    while layer != 0 {
                        let rank = base + u64::from(layer.trailing_zeros() / 2);
                        layer &= layer - 1;
                        tally.expanded += 1;
                        space.indexed_successors(rank, |succ, state| {
                            tally.generated += 1;
                            if succ >= bound {
                                past_bound(succ, bound);
                            }
                            let owner = (succ / span) as usize;
                            if owner == me {
                                // Marked in batches, each entry's word loaded ahead, so that
                                // the cache misses of a batch overlap.
                                shard.prefetch(succ);
                                own.push((succ, space.weight(&state)));
                                if own.len() >= LOCAL_BATCH {
                                    shard.settle(depth, &mut own, last, &mut count);
                                }
                                return;
                            }
                            let batch = &mut batches[owner];
                            let weight = space.weight(&state);
                            if weight != 1 {
                                batch.weights.push((batch.ranks.len() as u32, weight));
                            }
                            batch.ranks.push(succ);
                            tally.sent += 1;
                            if batch.ranks.len() >= BATCH {
                                let full = std::mem::take(batch);
                                batch.ranks.reserve(BATCH);
                                ranks_in.send((owner as u32, full));
                            }
                        });
                    }
                    shard.words[w] |= close;
                }
                shard.settle(depth, &mut own, last, &mut count);
                let total = shard.count(depth);
                total.found += count.found;
                total.weight = total.weight.saturating_add(count.weight);
                total.deeper |= count.deeper;
            }
            // What this worker sent goes out, and what it received is marked, a chunk at a
            // time: the messages in flight stay within a few chunks' successors.
            self.ranks_in.flush();
            self.worker.step();
        }
        for (owner, batch) in batches.into_iter().enumerate() {
            if !batch.ranks.is_empty() {
                self.ranks_in.send((owner as u32, batch));
            }
        }
        let done = u64::from(depth) + 1;
        self.ranks_in.advance_to(done);
        while self.ranks_done.less_than(&done) {
            self.worker.step_or_park(Some(PARK));
        }
        tally.count = self.shard.borrow_mut().take_count(depth);
        tally
    }
}

/// The layers the workers have checkpoints of.
fn hello_layers(notes: &[Note]) -> Vec<u32> {
    let mut layers: Vec<u32> = notes.iter().flat_map(|n| n.saved.iter().copied()).collect();
    layers.sort_unstable();
    layers.dedup();
    layers
}

#[cold]
#[inline(never)]
fn past_bound(rank: u64, bound: u64) -> ! {
    panic!("Space::index gave {rank}, which is not below Space::index_bound, {bound}")
}
