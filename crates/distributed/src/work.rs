//! The run: the processes connected, the workers started, and each worker's layers.

use std::cell::RefCell;
use std::hash::Hash;
use std::path::Path;
use std::rc::Rc;
use std::thread;
use std::time::{Duration, Instant};

use frontier_search::{Config, Exploration, Limit, Space, Stats, Watch, Words};
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
use crate::hashed::{owner, Hashed};
use crate::net;
use crate::shard::{entries_of, layer_code, Count, Shard, CHUNK_WORDS, CLOSED, PER_WORD};
use crate::{Error, LayerReport, Run};

/// Words of successors sent to a worker in one message (a rank takes one).
const BATCH: usize = 4096;
/// A worker's own successors marked together.
const LOCAL_BATCH: usize = 256;
/// How long a waiting worker sleeps when there is nothing to do.
const PARK: Duration = Duration::from_millis(1);

/// Successors on their way to the worker that owns them: ranks, one word each, with the
/// weights of those whose state weighs other than 1 (by their position in `words`; none in
/// most spaces); or states, as their [`Words`] one after another (their owner weighs them).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Batch {
    words: Vec<u64>,
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
    /// Successors it sent to other workers.
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

/// Explores `space` on the workers of `run`, as [`frontier_search::explore`] explores it on
/// one machine, and returns the same counts: every process of the run calls it with the same
/// arguments (but its own [`Cluster::process`](crate::Cluster::process)), and each gets the
/// whole exploration. A space with a rank that turns back into its state
/// ([`Space::index_bound`], [`Space::index`], [`Space::state_at`]) is shared out by ranges of
/// ranks, two bits a rank; any other by a hash of its states' [`Words`], each worker keeping
/// the states of its shard in a hash set.
///
/// `config` gives the limits: its depth limit, timeout and cancel flag, and its state budget
/// for this process's workers: the arrays (two bits a rank of their ranges, a state's size a
/// byte as [`frontier_search::explore`] counts them), or the states the hash sets hold. Arrays
/// past the budget stop the run at once with [`Limit::States`], hash sets as they pass it. A
/// limit seen by any worker stops all of them within the layer; the last layer is then
/// partial, as the engine's. `on_layer` hears of each layer once its count is summed, on the
/// first worker of each process.
///
/// # Errors
///
/// The processes cannot connect; a checkpoint is damaged, of another run, or cannot be
/// written, or asked of a space without a rank; the processes were started with different
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
    P::State: Words + Hash + Eq + Clone,
{
    let start = space.start();
    let ranked = space.index_bound().and_then(|bound| {
        let rank = space.index(&start);
        (rank < bound && space.state_at(rank).as_ref() == Some(&start)).then_some((bound, rank))
    });
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
        ranked,
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
    /// The bound of the ranks and the start's rank, for a space shared out by ranks; `None`
    /// for one shared out by hashes.
    ranked: Option<(u64, u64)>,
    start_weight: u64,
    on_layer: &'a (dyn Fn(&LayerReport) + Sync),
}

/// One worker's part of a layer.
#[derive(Debug, Default)]
struct Tally {
    count: Count,
    expanded: u64,
    generated: u64,
    /// Successors sent to other workers.
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
struct Node<'w, 'a, P: Space> {
    worker: &'w mut Worker,
    shared: &'a Shared<'a, P>,
    me: usize,
    peers: usize,
    /// Ranks each worker owns (the last owns fewer), for a space shared out by ranks.
    span: u64,
    part: Part<P::State>,
    outbox: Outbox,
    ranks_done: ProbeHandle<u64>,
    /// The batches received, with their layers, until the worker takes them.
    received: Rc<RefCell<Vec<(u64, Batch)>>>,
    notes_in: InputHandle<u64, CapacityContainerBuilder<Vec<Note>>>,
    notes_done: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<(u64, Note)>>>,
    /// The rounds of notes so far.
    round: u64,
}

impl<'w, 'a, P> Node<'w, 'a, P>
where
    P: Space + Sync,
    P::State: Words + Hash + Eq + Clone,
{
    fn new(worker: &'w mut Worker, shared: &'a Shared<'a, P>) -> Self {
        let (me, peers) = (worker.index(), worker.peers());
        let (part, span) = match shared.ranked {
            Some((bound, _)) => {
                // Whole words: a block of ranks that a move shifts as one (the space's
                // `index_shifts`) then has one owner.
                let span = bound
                    .div_ceil(peers as u64)
                    .max(1)
                    .next_multiple_of(PER_WORD);
                let first = (me as u64 * span).min(bound);
                // Allocated once the workers agree that the arrays fit (the first round).
                (Part::Ranked(Shard::new(first, first)), span)
            }
            None => (Part::Hashed(Hashed::new()), 0),
        };
        let received = Rc::new(RefCell::new(Vec::new()));
        let inbox = Rc::clone(&received);
        let (ranks_in, ranks_done) = worker.dataflow::<u64, _, _>(|scope| {
            let (input, stream) = scope.new_input::<Vec<Parcel>>();
            let probe = ProbeHandle::new();
            stream
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|parcel: &Parcel| u64::from(parcel.0)),
                    "Receive",
                    move |_, _| {
                        // Kept for the worker, which has the space to weigh states with.
                        move |input, _| {
                            input.for_each_stamp(|cap, containers| {
                                let Some(&time) = cap.least() else { return };
                                let mut inbox = inbox.borrow_mut();
                                for container in containers {
                                    inbox.extend(container.drain(..).map(|(_, b)| (time, b)));
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
            part,
            outbox: Outbox {
                input: ranks_in,
                batches: (0..peers).map(|_| Batch::default()).collect(),
                sent: 0,
            },
            ranks_done,
            received,
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

    /// The ranks this worker owns: `first..end` (none, for a space shared out by hashes).
    fn range(&self) -> (u64, u64) {
        match (&self.part, self.shared.ranked) {
            (Part::Ranked(shard), Some((bound, _))) => {
                (shard.first, (shard.first + self.span).min(bound))
            }
            _ => (0, 0),
        }
    }

    /// The checkpoints of this worker, if the run keeps them.
    fn place<'p>(&self, dir: &'p Path) -> Place<'p>
    where
        'a: 'p,
    {
        let (first, end) = self.range();
        Place {
            dir,
            fingerprint: &self.shared.run.fingerprint,
            peers: self.peers,
            index: self.me,
            first,
            end,
            ranked: self.shared.ranked.is_some(),
        }
    }

    /// The run's arguments that every process must share.
    fn settings(&self) -> String {
        let run = self.shared.run;
        format!(
            "{}; {}; {} processes of {} workers; max depth {}; checkpoints {}; {}",
            run.fingerprint,
            match self.shared.ranked {
                Some((bound, _)) => format!("{bound} ranks"),
                None => "hash shards".to_owned(),
            },
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
        let (first, end) = self.range();
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
                    Some(d) => self.load(dir, d),
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
                if let Some(part) = words {
                    self.part = part;
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

    /// Marks the start, if this worker owns it, in a new array of the ranks `first..end` (or
    /// in its hash shard); its count goes to `tally`. What a resumed run loads instead.
    fn fresh(&mut self, first: u64, end: u64, tally: &mut Tally) -> Saved {
        let space = self.shared.space;
        match (&mut self.part, self.shared.ranked) {
            (part, Some((_, start_rank))) => {
                let mut shard = Shard::new(first, end);
                if (first..end).contains(&start_rank) {
                    shard.mark(start_rank, layer_code(0));
                    tally.count = Count {
                        found: 1,
                        weight: self.shared.start_weight,
                        deeper: false,
                    };
                }
                *part = Part::Ranked(shard);
            }
            (Part::Hashed(part), None) => {
                let start = space.start();
                let mut words = Vec::with_capacity(P::State::WORDS);
                start.put(&mut words);
                if owner(&words, self.peers) == self.me {
                    part.take(space, start, false);
                }
                tally.count = part.take_count();
            }
            (Part::Ranked(_), None) => unreachable!("a space without a rank gets a hash shard"),
        }
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
        let place = self.place(dir);
        match &self.part {
            Part::Ranked(shard) => place.write(&saved, &shard.words)?,
            Part::Hashed(part) => {
                place.write_blocks(&saved, part.saved_words(), |put| part.save(1 << 12, put))?;
            }
        }
        Ok(())
    }

    /// Reads this worker's checkpoint of layer `depth`: what was saved, and its part.
    fn load(&self, dir: &Path, depth: u32) -> Result<Loaded<P::State>, Error> {
        let place = self.place(dir);
        let (saved, words) = place.read(depth)?;
        let part = match self.shared.ranked {
            Some(_) => Part::Ranked(Shard::with_words(place.first, place.end, words)),
            None => Part::Hashed(Hashed::restore(&words).map_err(|why| {
                crate::CheckpointError::Damaged {
                    path: place.file(depth),
                    why,
                }
            })?),
        };
        Ok((saved, Some(part)))
    }

    /// Expands this worker's states of layer `depth` (with `last`, only looks whether their
    /// successors are unseen), and waits until every worker's successors of the layer have
    /// reached their owners.
    fn expand(&mut self, depth: u32, last: bool) -> Tally {
        let mut tally = Tally {
            last,
            ..Tally::default()
        };
        let shared = self.shared;
        let (me, span, peers) = (self.me, self.span, self.peers);
        // The states a worker of this process may keep in its hash shard.
        let budget =
            (shared.config.max_states).map_or(u64::MAX, |m| m / shared.run.cluster.workers as u64);
        self.outbox.input.advance_to(u64::from(depth));
        self.outbox.sent = 0;
        let mut own: Vec<(u64, u64)> = Vec::with_capacity(LOCAL_BATCH);
        let mut words = Vec::new();
        if let Part::Hashed(part) = &mut self.part {
            part.begin();
        }
        for piece in 0.. {
            if let Some(limit) = shared.watch.limit() {
                tally.limit = Some(limit);
                break;
            }
            // Whether the piece held states of the layer, if there was one.
            let held = match &mut self.part {
                Part::Ranked(shard) => (piece < shard.chunks()).then(|| {
                    let ctx = (me, span, depth, last);
                    let outbox = &mut self.outbox;
                    expand_chunk(shared, shard, outbox, &mut own, piece, ctx, &mut tally)
                }),
                Part::Hashed(part) => {
                    let range = piece * PIECE..((piece + 1) * PIECE).min(part.layer.len());
                    let held = (!range.is_empty()).then_some(true);
                    for i in range {
                        let state = part.layer[i].clone();
                        tally.expanded += 1;
                        shared.space.successors(&state, None, |_, next| {
                            tally.generated += 1;
                            words.clear();
                            next.put(&mut words);
                            let owner = owner(&words, peers);
                            if owner == me {
                                part.take(shared.space, next, last);
                            } else {
                                self.outbox.push(owner, &words);
                            }
                        });
                    }
                    held
                }
            };
            match held {
                None => break,
                Some(false) => continue,
                Some(true) => {}
            }
            // What this worker sent goes out, and what it received is taken, a piece at a
            // time: the messages in flight stay within a few pieces' successors.
            self.outbox.input.flush();
            self.worker.step();
            self.take_received();
            if self.stored() > budget {
                tally.limit = Some(Limit::States);
                break;
            }
        }
        self.outbox.send_all();
        let done = u64::from(depth) + 1;
        self.outbox.input.advance_to(done);
        while self.ranks_done.less_than(&done) {
            self.worker.step_or_park(Some(PARK));
            self.take_received();
        }
        self.take_received();
        if tally.limit.is_none() && self.stored() > budget {
            tally.limit = Some(Limit::States);
        }
        tally.sent = self.outbox.sent;
        tally.count = match &mut self.part {
            Part::Ranked(shard) => shard.take_count(depth),
            Part::Hashed(part) => part.take_count(),
        };
        tally
    }

    /// The states this worker's hash shard holds (0 for a range of ranks, whose array was
    /// within the budget from the start).
    fn stored(&self) -> u64 {
        match &self.part {
            Part::Ranked(_) => 0,
            Part::Hashed(part) => part.stored(),
        }
    }

    /// Marks, or keeps, the successors other workers sent this one.
    fn take_received(&mut self) {
        let space = self.shared.space;
        let max_depth = self.shared.config.max_depth;
        let mut received = self.received.borrow_mut();
        for (time, batch) in received.drain(..) {
            // The successors of a layer past the depth limit are only looked at.
            let look_only = max_depth.is_some_and(|m| time >= u64::from(m));
            match &mut self.part {
                Part::Ranked(shard) => {
                    shard.receive(time as u32, &batch.words, &batch.weights, look_only);
                }
                Part::Hashed(part) => part.receive(space, &batch.words, look_only),
            }
        }
    }
}

/// States of a hash shard's layer expanded between two looks at the limits and the messages
/// received.
const PIECE: usize = 1 << 14;

/// What a worker starts a run from: its checkpoint's record, and its part when one was read.
type Loaded<S> = (Saved, Option<Part<S>>);

/// What a worker keeps of the states it owns.
enum Part<S> {
    /// A range of ranks, two bits each.
    Ranked(Shard),
    /// The states of its hash shard.
    Hashed(Hashed<S>),
}

/// The successors a worker sends to the others: a batch for each worker, sent when full.
struct Outbox {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Parcel>>>,
    batches: Vec<Batch>,
    /// The successors sent in this layer.
    sent: u64,
}

impl Outbox {
    /// Sends `words` (a rank, or a state's words) to `owner`.
    #[inline]
    fn push(&mut self, owner: usize, words: &[u64]) {
        let batch = &mut self.batches[owner];
        batch.words.extend_from_slice(words);
        self.sent += 1;
        if batch.words.len() >= BATCH {
            let full = std::mem::take(batch);
            batch.words.reserve(BATCH);
            self.input.send((owner as u32, full));
        }
    }

    /// Sends `rank` of weight `weight` to `owner`.
    #[inline]
    fn push_rank(&mut self, owner: usize, rank: u64, weight: u64) {
        if weight != 1 {
            let batch = &mut self.batches[owner];
            batch.weights.push((batch.words.len() as u32, weight));
        }
        self.push(owner, &[rank]);
    }

    /// Sends what the batches hold.
    fn send_all(&mut self) {
        for (owner, batch) in self.batches.iter_mut().enumerate() {
            if !batch.words.is_empty() {
                self.input.send((owner as u32, std::mem::take(batch)));
            }
        }
    }
}

/// Expands the entries of layer `depth` in chunk `chunk` of `shard`, as worker `me` of the
/// ranks `span` each (with `last`, only looks whether their successors are unseen): marks its
/// own successors, in batches of `own`, and sends the others. Returns whether the chunk may
/// have held entries of the layer.
fn expand_chunk<P: Space>(
    shared: &Shared<'_, P>,
    shard: &mut Shard,
    outbox: &mut Outbox,
    own: &mut Vec<(u64, u64)>,
    chunk: usize,
    (me, span, depth, last): (usize, u64, u32, bool),
    tally: &mut Tally,
) -> bool {
    let code = layer_code(depth);
    if !shard.take_active(chunk, code) {
        return false;
    }
    let space = shared.space;
    let bound = shared.ranked.map_or(0, |(bound, _)| bound);
    let mut count = Count::default();
    let start = chunk * CHUNK_WORDS;
    let stop = (start + CHUNK_WORDS).min(shard.words.len());
    let mut run = Vec::with_capacity(PER_WORD as usize);
    for w in start..stop {
        let mut layer = entries_of(shard.words[w], code);
        if layer == 0 {
            continue;
        }
        // Each entry of the layer becomes CLOSED, both its bits set.
        let close = layer * CLOSED;
        let base = shard.first + w as u64 * PER_WORD;
        // The word's entries of the layer: their ranks, and bit `j` for rank `base + j`.
        let mut block = 0u64;
        run.clear();
        while layer != 0 {
            let j = layer.trailing_zeros() / 2;
            run.push(base + u64::from(j));
            block |= 1 << j;
            layer &= layer - 1;
        }
        tally.expanded += run.len() as u64;
        // The successors by the moves that shift the whole block (a span is whole words, so
        // each block has one owner), then the others.
        space.index_shifts(base, |to| {
            tally.generated += u64::from(block.count_ones());
            if to >= bound {
                past_bound(to, bound);
            }
            let owner = (to / span) as usize;
            if owner == me {
                shard.mark_block(depth, to, block, last, &mut count);
            } else {
                let mut left = block;
                while left != 0 {
                    outbox.push_rank(owner, to + u64::from(left.trailing_zeros()), 1);
                    left &= left - 1;
                }
            }
        });
        space.indexed_unshifted_successors_of_run(&run, |succ, state| {
            tally.generated += 1;
            if succ >= bound {
                past_bound(succ, bound);
            }
            let owner = (succ / span) as usize;
            if owner == me {
                // Marked in batches, each entry's word loaded ahead, so that the cache
                // misses of a batch overlap.
                shard.prefetch(succ);
                own.push((succ, space.weight(&state)));
                if own.len() >= LOCAL_BATCH {
                    shard.settle(depth, own, last, &mut count);
                }
            } else {
                outbox.push_rank(owner, succ, space.weight(&state));
            }
        });
        shard.words[w] |= close;
    }
    shard.settle(depth, own, last, &mut count);
    let total = shard.count(depth);
    total.found += count.found;
    total.weight = total.weight.saturating_add(count.weight);
    total.deeper |= count.deeper;
    true
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
