//! One breadth-first sweep over ranks, layer by layer, for every array that records where
//! each rank of a space stands: the engine's dense exploration (two bits a rank, no state
//! stored) and the table toolkit's builders (a distance a byte, or modulo 3 in two bits) all
//! run it.
//!
//! The array is an [`Entries`]: it finds the ranks of a layer (or the ranks not reached)
//! within a chunk of ranks, and claims a rank for a layer, exactly once however many workers
//! try at once. What a rank's successors are is an [`Expand`]'s business: it hands them to a
//! [`Marker`], which claims the unreached ones for the next layer and counts what it did. The
//! sweep shares out the chunks among the workers of the current rayon pool, skips the chunks
//! where no rank of the layer was claimed, asks a [`Control`] for limits and reports, and
//! counts each layer as it finishes.
//!
//! A layer is found *forwards* (each rank of the layer claims its unreached successors) or,
//! when the expander allows it and the ranks left are fewer than the layer would generate,
//! *backwards* (each rank not reached yet looks for a neighbour in the layer, and claims
//! itself if it has one: the workers then write only their own chunks). Backwards needs every
//! move undone by a move, and every rank below the bound to stand for a state.
//!
//! ```
//! use std::ops::ControlFlow;
//! use frontier_search::sweep::{sweep, Control, Entries, Expand, Marker, Sweep};
//! use frontier_search::Limit;
//! use std::sync::atomic::{AtomicU8, Ordering};
//!
//! /// A distance a byte, 255 for a rank not reached.
//! struct Distances(Vec<AtomicU8>);
//!
//! impl Entries for Distances {
//!     fn ranks(&self) -> u64 {
//!         self.0.len() as u64
//!     }
//!     fn scan(
//!         &self,
//!         ranks: std::ops::Range<u64>,
//!         depth: u32,
//!         backward: bool,
//!         mut take: impl FnMut(u64) -> ControlFlow<()>,
//!     ) -> ControlFlow<()> {
//!         let wanted = if backward { 255 } else { depth as u8 };
//!         for rank in ranks {
//!             if self.0[rank as usize].load(Ordering::Relaxed) == wanted {
//!                 take(rank)?;
//!             }
//!         }
//!         ControlFlow::Continue(())
//!     }
//!     fn claim(&self, rank: u64, depth: u32) -> bool {
//!         let entry = &self.0[rank as usize];
//!         entry.compare_exchange(255, depth as u8, Ordering::Relaxed, Ordering::Relaxed).is_ok()
//!     }
//!     fn in_layer(&self, rank: u64, depth: u32) -> bool {
//!         self.0[rank as usize].load(Ordering::Relaxed) == depth as u8
//!     }
//!     fn reached(&self, rank: u64) -> bool {
//!         self.0[rank as usize].load(Ordering::Relaxed) != 255
//!     }
//! }
//!
//! /// The numbers below 100, a move adding 1 or doubling.
//! struct Steps;
//!
//! impl Expand for Steps {
//!     type Worker = ();
//!     fn worker(&self) {}
//!     fn expand<E: Entries>(&self, _: &mut (), rank: u64, marker: &mut Marker<'_, E>) -> ControlFlow<()> {
//!         for next in [rank + 1, rank * 2] {
//!             if next < 100 {
//!                 marker.visit(next, || 1)?;
//!             }
//!         }
//!         ControlFlow::Continue(())
//!     }
//! }
//!
//! /// No limit, no report.
//! struct Free;
//! impl Control for Free {
//!     fn limit(&self) -> Option<Limit> {
//!         None
//!     }
//! }
//!
//! let distances = Distances((0..100).map(|_| AtomicU8::new(255)).collect());
//! let swept = sweep(&distances, &Steps, [(1, 1)], &Sweep::new(&Free));
//! assert_eq!(swept.reached, 99);
//! assert_eq!(swept.layers[..4], [(1, 1), (1, 1), (2, 2), (3, 3)]); // 1; 2; 3 4; 5 6 8
//! assert_eq!(distances.0[64].load(Ordering::Relaxed), 6);
//! ```

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::outcome::Limit;
use crate::space::SHIFT_BLOCK;
use crate::watch::Watch;

/// Ranks a worker takes at once: a multiple of the ranks of any array's word. The limits are
/// looked at, and the work is handed out, a chunk at a time.
pub const CHUNK: u64 = 1 << 16;

/// A block's successors (bit `j` of `mask` for rank `first + j`, [`SHIFT_BLOCK`] of them) as
/// the entries of a word of two-bit entries: bit `j` of `mask` becomes the low bit of entry
/// `j`, so that a word of marks can be tested and set for the whole block at once.
///
/// ```
/// assert_eq!(frontier_search::sweep::spread_block(0b101), 0b01_00_01);
/// ```
#[inline]
pub fn spread_block(mask: u64) -> u64 {
    let mut x = mask & 0xffff_ffff;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

// A block of ranks that moves as one lies within a chunk.
const _: () = assert!(CHUNK.is_multiple_of(SHIFT_BLOCK));

/// An array with an entry for each rank below a bound, saying where the rank stands: not
/// reached, or in some layer. Several workers read and write it at once, so its entries are
/// atomics (or parts of them).
pub trait Entries: Sync {
    /// The ranks: the entries are those of `0..ranks()`.
    fn ranks(&self) -> u64;

    /// Calls `take(rank)` for each rank of `ranks` (one chunk, from a multiple of [`CHUNK`])
    /// in increasing order that is in layer `depth`, or with `backward`, that is not reached;
    /// stops at the first `Break`, and returns it. Only the worker that owns the chunk calls
    /// it, once for the layer, so an array may change the chunk's entries as it goes (close
    /// the ranks it hands out, say). An array may also hand out ranks of an earlier layer
    /// with the same entry, if expanding those again marks nothing wrong (their successors
    /// are all reached).
    fn scan(
        &self,
        ranks: Range<u64>,
        depth: u32,
        backward: bool,
        take: impl FnMut(u64) -> ControlFlow<()>,
    ) -> ControlFlow<()>;

    /// Puts `rank` in layer `depth` if it is not reached; returns whether it was not. When
    /// several workers claim one rank for one layer at once, all leave the same entry, and
    /// an array that counts exactly tells exactly one of them (one that does not may tell
    /// more than one: the sweep then counts a rank twice, never past the bound).
    fn claim(&self, rank: u64, depth: u32) -> bool;

    /// Claims for layer `depth` each rank `first + j` for the bits `j` of `mask` that are set,
    /// as [`Entries::claim`] claims one (`first` a multiple of [`SHIFT_BLOCK`], the ranks
    /// below the bound); returns how many it was told it claimed. One at a time by default;
    /// an array whose word holds the block's entries claims them at once.
    #[inline]
    fn claim_block(&self, first: u64, mut mask: u64, depth: u32) -> u64 {
        let mut claimed = 0;
        while mask != 0 {
            claimed += u64::from(self.claim(first + u64::from(mask.trailing_zeros()), depth));
            mask &= mask - 1;
        }
        claimed
    }

    /// Whether `rank` is in layer `depth`, for a rank not reached looking backwards for a
    /// neighbour in it.
    fn in_layer(&self, rank: u64, depth: u32) -> bool;

    /// Whether `rank` is reached (in any layer).
    fn reached(&self, rank: u64) -> bool;

    /// Starts loading `rank`'s entry, for a worker that will claim it soon; nothing by
    /// default.
    #[inline]
    fn prefetch(&self, _rank: u64) {}

    /// Whether the sweep calls [`Entries::close`] after each backward layer; by default not.
    const CLOSES: bool = false;

    /// Makes the ranks of layer `depth` in `ranks` (one chunk) reached but in no layer: for
    /// an array whose layers share their entries (layer `depth + 2` taking layer `depth`'s,
    /// say) and that closes a forward layer's ranks as its scan hands them out, which a
    /// backward layer's scan does not. Called, if [`Entries::CLOSES`], once the layer after a
    /// backward layer `depth` is found, on each chunk that held ranks of layer `depth`, by
    /// one worker while no other reads or writes the array. Nothing by default.
    fn close(&self, _ranks: Range<u64>, _depth: u32) {}
}

/// The successors of a rank, for a sweep: handed to the [`Marker`] one by one. Within one
/// chunk a worker is asked for increasing ranks, so what it keeps in its [`Expand::Worker`]
/// may carry over what consecutive ranks share.
pub trait Expand: Sync {
    /// What a worker keeps from rank to rank: buffers, the last rank unranked.
    type Worker: Send;

    /// A fresh worker's.
    fn worker(&self) -> Self::Worker;

    /// Gives every successor of `rank` (a rank of the layer being expanded) to `marker`,
    /// stopping at the first `Break` it answers (a limit); or keeps `rank` to expand with
    /// others in [`Expand::flush`].
    fn expand<E: Entries>(
        &self,
        worker: &mut Self::Worker,
        rank: u64,
        marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()>;

    /// Expands what [`Expand::expand`] kept, at the end of each chunk; nothing by default.
    fn flush<E: Entries>(
        &self,
        _worker: &mut Self::Worker,
        _marker: &mut Marker<'_, E>,
    ) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// Whether the next layer is to be found backwards, with `left` ranks not reached and a
    /// layer of `layer` ranks whose ranks had `branching` successors each on average in the
    /// forward layers so far (0 before any). Never, by default: say yes only if every move is
    /// undone by a move and [`Expand::parent`] is given.
    fn backwards(&self, _left: u64, _layer: u64, _branching: f64) -> bool {
        false
    }

    /// For a rank not reached, in a backward layer: its weight, if one of its neighbours is
    /// in the layer (`marker.in_layer`), else `None`. Asked only when
    /// [`Expand::backwards`] said yes; by default `None`.
    fn parent<E: Entries>(
        &self,
        _worker: &mut Self::Worker,
        _rank: u64,
        _marker: &mut Marker<'_, E>,
    ) -> Option<u64> {
        None
    }
}

/// Where a sweep looks for limits and sends its reports.
pub trait Control: Sync {
    /// The limit reached, if any: asked before each layer and each chunk, and every
    /// [`Watch::CHECK_EVERY`] successors within a chunk.
    fn limit(&self) -> Option<Limit>;

    /// After a worker's chunk `chunk` of a layer `depth`, what it did; a limit to stop at.
    /// Nothing by default.
    fn chunk_done(&self, _chunk: u64, _depth: u32, _tally: &Tally) -> Option<Limit> {
        None
    }

    /// After layer `depth` was found whole (`found` ranks, `reached` in all). Nothing by
    /// default.
    fn layer_done(&self, _depth: u32, _found: u64, _reached: u64) {}
}

/// What a worker did in a chunk, or a sweep in a layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Ranks whose successors were asked for: of the layer (forwards) or not reached
    /// (backwards).
    pub expanded: u64,
    /// Successors handed to the marker, or neighbours looked at.
    pub generated: u64,
    /// Ranks claimed for the next layer.
    pub found: u64,
    /// Their weight (saturating).
    pub weight: u64,
    /// In a last layer: whether a successor was not reached (something lies deeper).
    pub deeper: bool,
}

impl Tally {
    fn add(self, other: Tally) -> Tally {
        Tally {
            expanded: self.expanded + other.expanded,
            generated: self.generated + other.generated,
            found: self.found + other.found,
            weight: self.weight.saturating_add(other.weight),
            deeper: self.deeper || other.deeper,
        }
    }
}

/// How a sweep runs.
#[derive(Clone, Copy)]
pub struct Sweep<'a> {
    /// Whether the chunks are shared out among the workers of the current rayon pool
    /// (else all are done on the calling thread). Default: yes.
    pub parallel: bool,
    /// The deepest layer filled; `None` (the default) for no bound.
    pub max_depth: Option<u32>,
    /// Whether the successors of the layer at `max_depth` are looked at, to tell whether
    /// something lies deeper ([`Limit::Depth`]). Default: no.
    pub look_past: bool,
    /// The limits and the reports.
    pub control: &'a dyn Control,
}

impl<'a> Sweep<'a> {
    /// A parallel sweep with no depth bound, under `control`.
    pub fn new(control: &'a dyn Control) -> Sweep<'a> {
        Sweep {
            parallel: true,
            max_depth: None,
            look_past: false,
            control,
        }
    }
}

/// What a sweep found.
#[derive(Clone, Debug, PartialEq)]
pub struct Swept {
    /// Each layer's ranks and weight, from the starts' (layer 0). A layer a limit stopped is
    /// included with what it found by then, unless it was the last one looked past.
    pub layers: Vec<(u64, u64)>,
    /// The limit that stopped the sweep; [`Limit::Depth`] if the last layer allowed had
    /// successors not reached (with [`Sweep::look_past`]).
    pub limit: Option<Limit>,
    /// Ranks expanded, in all layers.
    pub expanded: u64,
    /// Successors generated, in all layers.
    pub generated: u64,
    /// Ranks reached: the layers' sum, at most the bound.
    pub reached: u64,
    /// The widest layer expanded.
    pub peak: u64,
    /// The layers found backwards.
    pub backward_layers: u32,
}

/// The marker a worker hands a chunk's successors to: it claims the unreached ones for the
/// next layer and counts them.
pub struct Marker<'a, E> {
    shared: &'a Shared<'a, E>,
    tally: Tally,
    /// The count of generated successors at which the limits are looked at next.
    next_look: u64,
}

impl<E: Entries> Marker<'_, E> {
    /// The depth of the layer being expanded.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.shared.depth
    }

    /// Takes `rank` as a successor: claims it for the next layer if it is not reached,
    /// adding `weight()` to the layer's weight; in the last layer only looks whether it is.
    /// `Break` once a limit stopped the sweep.
    #[inline]
    pub fn visit(&mut self, rank: u64, weight: impl FnOnce() -> u64) -> ControlFlow<()> {
        self.count_generated(1)?;
        let shared = self.shared;
        if shared.last {
            self.tally.deeper |= !shared.entries.reached(rank);
        } else if shared.entries.claim(rank, shared.depth + 1) {
            self.tally.found += 1;
            self.tally.weight = self.tally.weight.saturating_add(weight());
            shared.activate(rank, shared.depth + 1);
        }
        ControlFlow::Continue(())
    }

    /// Counts `count` successors generated and, once every [`Watch::CHECK_EVERY`], looks at
    /// the limits: `Break` once one stopped the sweep.
    #[inline]
    fn count_generated(&mut self, count: u64) -> ControlFlow<()> {
        self.tally.generated += count;
        if self.tally.generated >= self.next_look {
            self.next_look = self.tally.generated + Watch::CHECK_EVERY;
            if self.shared.poll() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// Takes each of `batch`'s successors (ranks whose entries were prefetched) as
    /// [`Marker::visit`] takes one, `rank(item)` its rank and `weight(item)` its weight; the
    /// limits, the last-layer test and the next layer's flags are looked at once for the
    /// batch, not once a successor (a limit found first leaves the batch unmarked). `Break`
    /// once a limit stopped the sweep.
    #[inline]
    pub fn visit_batch<T>(
        &mut self,
        batch: &[T],
        rank: impl Fn(&T) -> u64,
        weight: impl Fn(&T) -> u64,
    ) -> ControlFlow<()> {
        self.count_generated(batch.len() as u64)?;
        let shared = self.shared;
        let entries = shared.entries;
        if shared.last {
            self.tally.deeper |= batch.iter().any(|item| !entries.reached(rank(item)));
            return ControlFlow::Continue(());
        }
        let next = shared.depth + 1;
        let active = &shared.active[(next & 1) as usize];
        let (mut found, mut weighed) = (0, self.tally.weight);
        for item in batch {
            let rank = rank(item);
            if entries.claim(rank, next) {
                found += 1;
                weighed = weighed.saturating_add(weight(item));
                raise(&active[(rank / CHUNK) as usize]);
            }
        }
        self.tally.found += found;
        self.tally.weight = weighed;
        ControlFlow::Continue(())
    }

    /// Takes as successors the ranks `first + j` for the bits `j` of `mask` that are set
    /// (`first` a multiple of [`SHIFT_BLOCK`]), as [`Marker::visit`] takes one of weight 1.
    /// `Break` once a limit stopped the sweep.
    #[inline]
    pub fn visit_block(&mut self, first: u64, mask: u64) -> ControlFlow<()> {
        self.count_generated(u64::from(mask.count_ones()))?;
        let shared = self.shared;
        let entries = shared.entries;
        if shared.last {
            let mut left = mask;
            while left != 0 {
                self.tally.deeper |= !entries.reached(first + u64::from(left.trailing_zeros()));
                left &= left - 1;
            }
            return ControlFlow::Continue(());
        }
        let found = entries.claim_block(first, mask, shared.depth + 1);
        if found > 0 {
            self.tally.found += found;
            self.tally.weight = self.tally.weight.saturating_add(found);
            shared.activate(first, shared.depth + 1);
        }
        ControlFlow::Continue(())
    }

    /// Whether `rank` is reached.
    #[inline]
    pub fn reached(&self, rank: u64) -> bool {
        self.shared.entries.reached(rank)
    }

    /// Whether `rank` is in the layer being expanded: for a backward look.
    #[inline]
    pub fn in_layer(&self, rank: u64) -> bool {
        self.shared.entries.in_layer(rank, self.shared.depth)
    }

    /// Starts loading `rank`'s entry, to be visited soon.
    #[inline]
    pub fn prefetch(&self, rank: u64) {
        self.shared.entries.prefetch(rank);
    }

    /// Counts `looked` neighbours looked at in a backward layer.
    #[inline]
    pub fn looked(&mut self, looked: u64) {
        self.tally.generated += looked;
    }
}

/// Sets `flag`, a chunk's, writing only if it was not set: most are already, and a load
/// leaves the cache line shared among the workers.
#[inline]
fn raise(flag: &AtomicBool) {
    if !flag.load(Ordering::Relaxed) {
        flag.store(true, Ordering::Relaxed);
    }
}

/// What the workers of one layer share.
struct Shared<'a, E> {
    entries: &'a E,
    control: &'a dyn Control,
    depth: u32,
    /// The layer is the last one allowed: its successors are only looked at.
    last: bool,
    backward: bool,
    /// `active[d % 2][chunk]`: a rank of layer `d` may lie in the chunk.
    active: &'a [Vec<AtomicBool>; 2],
    /// `held[chunk]`: the chunk held ranks of the layer (for [`Entries::close`]).
    held: &'a [AtomicBool],
    halted: AtomicBool,
    limit: Mutex<Option<Limit>>,
}

impl<E: Entries> Shared<'_, E> {
    /// Records that layer `depth` has a rank in `rank`'s chunk.
    #[inline]
    fn activate(&self, rank: u64, depth: u32) {
        raise(&self.active[(depth & 1) as usize][(rank / CHUNK) as usize]);
    }

    /// Stops the layer at `limit` (the first one kept).
    fn halt(&self, limit: Limit) {
        let mut kept = self.limit.lock().unwrap_or_else(|p| p.into_inner());
        kept.get_or_insert(limit);
        self.halted.store(true, Ordering::Relaxed);
    }

    /// Whether the layer is stopped, asking the control first.
    fn poll(&self) -> bool {
        if self.halted.load(Ordering::Relaxed) {
            return true;
        }
        match self.control.limit() {
            Some(limit) => {
                self.halt(limit);
                true
            }
            None => false,
        }
    }

    /// Expands, or looks backwards from, the ranks of chunk `chunk`.
    fn chunk<X: Expand>(&self, expander: &X, worker: &mut X::Worker, chunk: u64) -> Tally {
        let entries = self.entries;
        let flag = &self.active[(self.depth & 1) as usize][chunk as usize];
        let holds = flag.load(Ordering::Relaxed);
        if holds {
            flag.store(false, Ordering::Relaxed);
            if E::CLOSES && self.backward {
                self.held[chunk as usize].store(true, Ordering::Relaxed);
            }
        } else if !self.backward {
            // No rank of the layer to expand here.
            return Tally::default();
        }
        if self.poll() {
            return Tally::default();
        }
        let mut marker = Marker {
            shared: self,
            tally: Tally::default(),
            next_look: Watch::CHECK_EVERY,
        };
        let ranks = chunk * CHUNK..((chunk + 1) * CHUNK).min(entries.ranks());
        let next = self.depth + 1;
        if self.backward {
            let _ = entries.scan(ranks, self.depth, true, |rank| {
                marker.tally.expanded += 1;
                if let Some(weight) = expander.parent(worker, rank, &mut marker) {
                    if entries.claim(rank, next) {
                        marker.tally.found += 1;
                        marker.tally.weight = marker.tally.weight.saturating_add(weight);
                        self.activate(rank, next);
                    }
                }
                if marker.tally.expanded.is_multiple_of(Watch::CHECK_EVERY) && self.poll() {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
        } else {
            let flow = entries.scan(ranks, self.depth, false, |rank| {
                marker.tally.expanded += 1;
                expander.expand(worker, rank, &mut marker)
            });
            // After a limit, what the expander kept is dropped with the worker: the sweep
            // ends with this layer.
            if flow.is_continue() {
                let _ = expander.flush(worker, &mut marker);
            }
        }
        if let Some(limit) = self.control.chunk_done(chunk, self.depth, &marker.tally) {
            self.halt(limit);
        }
        marker.tally
    }
}

/// Sweeps `entries` layer by layer from `starts` (ranks with their weights; those at or past
/// the bound are left out, and a rank given twice counts once) with `expander`'s successors,
/// as `how` says; returns the layers found (see the [module](self)).
pub fn sweep<E: Entries, X: Expand>(
    entries: &E,
    expander: &X,
    starts: impl IntoIterator<Item = (u64, u64)>,
    how: &Sweep<'_>,
) -> Swept {
    let total = entries.ranks();
    let chunks = total.div_ceil(CHUNK) as usize;
    let flags = || {
        (0..chunks)
            .map(|_| AtomicBool::new(false))
            .collect::<Vec<_>>()
    };
    let active = [flags(), flags()];
    let held = if E::CLOSES { flags() } else { Vec::new() };
    let mut first = (0u64, 0u64);
    for (rank, weight) in starts {
        if rank < total && entries.claim(rank, 0) {
            first.0 += 1;
            first.1 = first.1.saturating_add(weight);
            active[0][(rank / CHUNK) as usize].store(true, Ordering::Relaxed);
        }
    }
    let mut swept = Swept {
        layers: vec![first],
        limit: None,
        expanded: 0,
        generated: 0,
        reached: first.0,
        peak: 0,
        backward_layers: 0,
    };
    let (mut width, mut depth) = (first.0, 0u32);
    // The forward layers' successors a rank, for the choice of direction.
    let (mut forward_expanded, mut forward_generated) = (0u64, 0u64);
    swept.limit = loop {
        if width == 0 {
            break None;
        }
        swept.peak = swept.peak.max(width);
        let last = how.max_depth.is_some_and(|max| depth >= max);
        if last && !how.look_past {
            break None;
        }
        if let Some(limit) = how.control.limit() {
            // The next layer was begun, with nothing found yet.
            if !last {
                swept.layers.push((0, 0));
            }
            break Some(limit);
        }
        let branching = if forward_expanded == 0 {
            0.0
        } else {
            forward_generated as f64 / forward_expanded as f64
        };
        let left = total - swept.reached;
        let backward = !last && expander.backwards(left, width, branching);
        let shared = Shared {
            entries,
            control: how.control,
            depth,
            last,
            backward,
            active: &active,
            held: &held,
            halted: AtomicBool::new(false),
            limit: Mutex::new(None),
        };
        let run = |worker: &mut X::Worker, chunk: u64| shared.chunk(expander, worker, chunk);
        let tally = if how.parallel {
            (0..chunks as u64)
                .into_par_iter()
                .map_init(|| expander.worker(), run)
                .reduce(Tally::default, Tally::add)
        } else {
            let mut worker = expander.worker();
            (0..chunks as u64)
                .map(|chunk| run(&mut worker, chunk))
                .fold(Tally::default(), Tally::add)
        };
        swept.expanded += tally.expanded;
        swept.generated += tally.generated;
        if !backward {
            forward_expanded += tally.expanded;
            forward_generated += tally.generated;
        } else {
            swept.backward_layers += 1;
        }
        if let Some(limit) = shared.limit.into_inner().unwrap_or_else(|p| p.into_inner()) {
            if !last {
                swept.layers.push((tally.found, tally.weight));
            }
            break Some(limit);
        }
        if last {
            break tally.deeper.then_some(Limit::Depth);
        }
        if tally.found == 0 {
            break None;
        }
        if E::CLOSES && backward {
            let close = |chunk: usize| {
                if held[chunk].swap(false, Ordering::Relaxed) {
                    let chunk = chunk as u64;
                    entries.close(chunk * CHUNK..((chunk + 1) * CHUNK).min(total), depth);
                }
            };
            if how.parallel {
                (0..chunks).into_par_iter().for_each(close);
            } else {
                (0..chunks).for_each(close);
            }
        }
        swept.layers.push((tally.found, tally.weight));
        swept.reached = (swept.reached + tally.found).min(total);
        width = tally.found;
        depth += 1;
        how.control.layer_done(depth, tally.found, swept.reached);
    };
    swept
}
