//! The open list of the best-first searches (`ucs`, `astar`): entries `(f, g, id)` given back
//! least `f` first, then greatest `g` (closer to a goal), then in the order they came.
//!
//! Entries wait in buckets, one per `f` and, within it, one per `g` (Dial 1969; for A*, Burns
//! et al. 2012, "Implementing fast heuristic search code"): a push appends an id, a pop takes
//! the first id of the greatest `g` of the least `f`, and no entry is ever compared with
//! another. Buckets suit `f`s that are dense: the list moves to a binary heap for good when the
//! `f`s waiting would span [`MAX_SPAN`] values or more, when one `f` would hold more than
//! [`MAX_GS`] distinct `g`s, or when pops have skipped more than [`SKIPS_PER_POP`] empty
//! buckets each on average (an inconsistent heuristic sending entries far below the rest). The
//! heap takes ties by least id, which is the order they came except for a state queued again
//! at a lower cost.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use crate::space::Cost;

/// The most distinct `f` values the buckets span at once: bucket headers cost 24 bytes each,
/// so at most 1.5 MiB of them.
const MAX_SPAN: Cost = 1 << 16;

/// The most distinct `g` values one bucket holds: a `g` lower than the greatest is put in
/// place by shifting the queues above it.
const MAX_GS: usize = 1 << 10;

/// The most empty buckets pops may skip on average (beyond one whole span): past it, finding
/// the least `f` costs more than a heap would.
const SKIPS_PER_POP: u64 = 64;

/// The open list.
pub(crate) enum OpenList {
    Buckets(Buckets),
    /// `f` and `g` within 32 bits: an entry is one `u128` (16 bytes), compared without a branch.
    Narrow(BinaryHeap<u128>),
    /// Costs past 32 bits.
    Wide(BinaryHeap<Wide>),
}

impl OpenList {
    pub fn new() -> Self {
        OpenList::Buckets(Buckets::new())
    }

    /// Entries waiting (stale ones included).
    pub fn len(&self) -> usize {
        match self {
            OpenList::Buckets(buckets) => buckets.len,
            OpenList::Narrow(heap) => heap.len(),
            OpenList::Wide(heap) => heap.len(),
        }
    }

    #[inline]
    pub fn push(&mut self, f: Cost, g: Cost, id: u32) {
        match self {
            OpenList::Buckets(buckets) => {
                if !buckets.push(f, g, id) {
                    self.move_to_heap();
                    self.push(f, g, id);
                }
            }
            OpenList::Narrow(heap) if f <= NARROW_MAX && g <= NARROW_MAX => {
                heap.push(narrow(f, g, id));
            }
            OpenList::Narrow(heap) => {
                let widened = std::mem::take(heap).into_iter().map(|entry| {
                    let (f, g, id) = from_narrow(entry);
                    Wide::new(f, g, id)
                });
                let mut heap: BinaryHeap<Wide> = widened.collect();
                heap.push(Wide::new(f, g, id));
                *self = OpenList::Wide(heap);
            }
            OpenList::Wide(heap) => heap.push(Wide::new(f, g, id)),
        }
    }

    /// The first entry's `f`, `g` and id.
    #[inline]
    pub fn pop(&mut self) -> Option<(Cost, Cost, u32)> {
        match self {
            OpenList::Buckets(buckets) => {
                let first = buckets.pop();
                if buckets.skipped > SKIPS_PER_POP * buckets.pops + MAX_SPAN {
                    self.move_to_heap();
                }
                first
            }
            OpenList::Narrow(heap) => heap.pop().map(from_narrow),
            OpenList::Wide(heap) => heap.pop().map(|entry| entry.get()),
        }
    }

    /// Moves the buckets' entries to a heap (narrow if their costs allow).
    #[cold]
    fn move_to_heap(&mut self) {
        let OpenList::Buckets(buckets) = self else {
            return;
        };
        // Bounds on the greatest `f` and `g` waiting, read from the buckets' headers.
        let top_f = (buckets.base).saturating_add(buckets.by_f.len().saturating_sub(1) as Cost);
        let top_g = (buckets.by_f.iter())
            .filter_map(|same_f| same_f.by_g.last().map(|(g, _)| *g))
            .max()
            .unwrap_or(0);
        let entries = std::iter::from_fn(|| buckets.pop());
        *self = if top_f <= NARROW_MAX && top_g <= NARROW_MAX {
            OpenList::Narrow(entries.map(|(f, g, id)| narrow(f, g, id)).collect())
        } else {
            OpenList::Wide(entries.map(|(f, g, id)| Wide::new(f, g, id)).collect())
        };
    }
}

/// The buckets: `by_f[f - base]` holds the entries of that `f`. A deque, so that an `f` below
/// `base` (an inconsistent heuristic) adds buckets in front at the cost of the gap alone.
pub(crate) struct Buckets {
    by_f: VecDeque<SameF>,
    /// The `f` of `by_f[0]`.
    base: Cost,
    /// Every bucket below this index is empty.
    lowest: usize,
    len: usize,
    /// Emptied queues' vectors, for new queues to reuse: a search whose every expansion opens
    /// a new `f` or `g` (a chain) allocates nothing per node.
    spare: Vec<Vec<u32>>,
    /// Pops made, and empty buckets they skipped to find the least `f`.
    pops: u64,
    skipped: u64,
}

/// The most emptied queues' vectors kept for reuse.
const SPARE: usize = 64;

/// The entries of one `f`: a queue for each `g`, in increasing `g` (the greatest is taken
/// first, so it is last).
#[derive(Default)]
struct SameF {
    by_g: Vec<(Cost, Queue)>,
}

/// Ids in the order they came; `head` is the next to leave.
#[derive(Default)]
struct Queue {
    ids: Vec<u32>,
    head: usize,
}

impl Buckets {
    fn new() -> Self {
        Buckets {
            by_f: VecDeque::new(),
            base: 0,
            lowest: 0,
            len: 0,
            spare: Vec::new(),
            pops: 0,
            skipped: 0,
        }
    }

    /// Queues an entry; `false` (and nothing queued, though the buckets may have moved) if its
    /// `f` would make the buckets span [`MAX_SPAN`] values or more, or its bucket hold more
    /// than [`MAX_GS`] distinct `g`s.
    #[inline]
    fn push(&mut self, f: Cost, g: Cost, id: u32) -> bool {
        if self.len == 0 {
            // Every bucket is empty: they may stand for any `f`s, this one first.
            self.base = f;
            self.lowest = 0;
        } else if f < self.base {
            // An `f` below every bucket (an inconsistent heuristic): buckets go in front.
            let below = self.base - f;
            // `below` first: the sum could pass u64::MAX (a base near it, an `f` near 0).
            if below >= MAX_SPAN || below + self.by_f.len() as Cost >= MAX_SPAN {
                return false;
            }
            for _ in 0..below {
                self.by_f.push_front(SameF::default());
            }
            self.base = f;
            self.lowest = 0;
        } else if f - self.base >= MAX_SPAN {
            // Past the span: the empty buckets below the lowest in use move to the top.
            self.by_f.rotate_left(self.lowest);
            self.base += self.lowest as Cost;
            self.lowest = 0;
            if f - self.base >= MAX_SPAN {
                return false;
            }
        }
        let at = (f - self.base) as usize;
        if at >= self.by_f.len() {
            self.by_f.resize_with(at + 1, SameF::default);
        }
        if !self.by_f[at].push(g, id, &mut self.spare) {
            return false;
        }
        self.lowest = self.lowest.min(at);
        self.len += 1;
        true
    }

    #[inline]
    fn pop(&mut self) -> Option<(Cost, Cost, u32)> {
        if self.len == 0 {
            return None;
        }
        while self.by_f[self.lowest].by_g.is_empty() {
            self.lowest += 1;
            self.skipped += 1;
        }
        self.pops += 1;
        let f = self.base + self.lowest as Cost;
        let (g, id) = self.by_f[self.lowest].pop(&mut self.spare);
        self.len -= 1;
        Some((f, g, id))
    }
}

impl SameF {
    /// Queues `id` under `g`; `false` (and nothing queued) if that would make [`MAX_GS`] + 1
    /// distinct `g`s.
    #[inline]
    fn push(&mut self, g: Cost, id: u32, spare: &mut Vec<Vec<u32>>) -> bool {
        // Most pushes go to the greatest `g`.
        let at = match self.by_g.last() {
            Some(&(top, _)) if top < g => self.by_g.len(),
            Some(&(top, _)) if top == g => {
                let last = self.by_g.len() - 1;
                self.by_g[last].1.ids.push(id);
                return true;
            }
            _ => self.by_g.partition_point(|&(other, _)| other < g),
        };
        if let Some((_, queue)) = self.by_g.get_mut(at).filter(|(other, _)| *other == g) {
            queue.ids.push(id);
            return true;
        }
        if self.by_g.len() == MAX_GS {
            return false;
        }
        let mut ids = spare.pop().unwrap_or_default();
        ids.push(id);
        self.by_g.insert(at, (g, Queue { ids, head: 0 }));
        true
    }

    /// Takes the first id of the greatest `g`; the bucket must not be empty.
    #[inline]
    fn pop(&mut self, spare: &mut Vec<Vec<u32>>) -> (Cost, u32) {
        let (g, queue) = self.by_g.last_mut().expect("a bucket in use holds entries");
        let (g, id) = (*g, queue.ids[queue.head]);
        queue.head += 1;
        if queue.head == queue.ids.len() {
            if let Some((_, mut emptied)) = self.by_g.pop() {
                if spare.len() < SPARE {
                    emptied.ids.clear();
                    spare.push(emptied.ids);
                }
            }
        } else if queue.head >= 1024 && queue.head * 2 >= queue.ids.len() {
            // A queue pushed to while it is drained (moves that cost nothing) would keep every
            // id it ever held: its taken half goes.
            queue.ids.drain(..queue.head);
            queue.head = 0;
        }
        (g, id)
    }
}

/// The most a narrow entry's `f` or `g` may be.
const NARROW_MAX: Cost = u32::MAX as Cost;

/// `!f`, `g` and `!id` from the top: the greatest entry is the least `f`, then the greatest
/// `g`, then the least id.
#[inline]
fn narrow(f: Cost, g: Cost, id: u32) -> u128 {
    (u128::from(!(f as u32)) << 96) | (u128::from(g as u32) << 64) | u128::from(!id)
}

#[inline]
fn from_narrow(entry: u128) -> (Cost, Cost, u32) {
    let f = !(entry >> 96) as u32;
    (f.into(), u64::from((entry >> 64) as u32), !entry as u32)
}

/// A heap entry for costs past 32 bits. The heap's greatest entry comes out first.
#[derive(PartialEq, Eq)]
pub(crate) struct Wide {
    /// `!f` above `g`: one comparison ranks both.
    key: u128,
    id: u32,
}

impl Wide {
    fn new(f: Cost, g: Cost, id: u32) -> Self {
        Wide {
            key: (u128::from(!f) << 64) | u128::from(g),
            id,
        }
    }

    fn get(&self) -> (Cost, Cost, u32) {
        (!((self.key >> 64) as Cost), self.key as Cost, self.id)
    }
}

impl Ord for Wide {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key).then(other.id.cmp(&self.id))
    }
}

impl PartialOrd for Wide {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Entries come back least `f` first, then greatest `g`, then in the order they came
        /// (here also the least id first), pushes and pops interleaved, through the buckets'
        /// re-basing and the moves to the narrow and the wide heap.
        #[test]
        fn the_open_list_gives_entries_back_in_order(
            steps in proptest::collection::vec((0u64..8, 0u64..8, 0u8..10, 0u8..3), 1..80),
        ) {
            let mut open = OpenList::new();
            let mut model = std::collections::BTreeSet::new();
            for (id, &(f, g, size, pops)) in steps.iter().enumerate() {
                // f spread over a few far-apart ranges: within the span, past it (a heap),
                // past 32 bits (a wide heap), and next to u64::MAX (a base there, then an f
                // near 0, overflowed the span's check).
                let offset = match size {
                    0..=4 => 0,
                    5 | 6 => MAX_SPAN,
                    7 => 1 << 40,
                    _ => u64::MAX - 16,
                };
                let (f, g) = (f + offset, g + offset / 2);
                open.push(f, g, id as u32);
                model.insert((f, Reverse(g), id as u32));
                prop_assert_eq!(open.len(), model.len());
                for _ in 0..pops {
                    let expected = model.pop_first().map(|(f, Reverse(g), id)| (f, g, id));
                    prop_assert_eq!(open.pop(), expected);
                }
            }
            let rest: Vec<_> = std::iter::from_fn(|| open.pop()).collect();
            let expected: Vec<_> = model.into_iter().map(|(f, Reverse(g), id)| (f, g, id)).collect();
            prop_assert_eq!(rest, expected);
        }
    }

    #[test]
    fn buckets_follow_an_f_that_climbs_far_without_leaving_them() {
        // Uniform-cost search on two long chains side by side: f climbs by one every other pop,
        // and the span of the f waiting stays two, so the buckets below move up.
        let mut open = OpenList::new();
        open.push(0, 0, 0);
        open.push(0, 0, 1);
        let last = 3 * MAX_SPAN as u32;
        for id in 2..last {
            let (f, g, _) = open.pop().expect("two wait");
            assert_eq!(f, Cost::from(id / 2 - 1));
            open.push(f + 1, g + 1, id);
        }
        assert!(matches!(open, OpenList::Buckets(_)));
        let f = Cost::from(last / 2 - 1);
        assert_eq!(open.pop(), Some((f, f, last - 2)));
        assert_eq!(open.pop(), Some((f, f, last - 1)));
        assert_eq!(open.pop(), None);
    }

    /// Pops everything, checking the order: least f, greatest g, least id.
    fn drain_in_order(open: &mut OpenList) -> usize {
        let popped: Vec<_> = std::iter::from_fn(|| open.pop()).collect();
        let mut sorted = popped.clone();
        sorted.sort_by_key(|&(f, g, id)| (f, Reverse(g), id));
        assert_eq!(popped, sorted);
        popped.len()
    }

    #[test]
    fn a_bucket_of_too_many_gs_moves_the_list_to_a_heap() {
        // One f, its gs arriving greatest first: each went in at the front, past every other
        // (quadratic: 100,000 entries took 11 s).
        let mut open = OpenList::new();
        let count = 4 * MAX_GS as u32;
        for id in 0..count {
            open.push(10_000, Cost::from(count - id), id);
            assert_eq!(matches!(open, OpenList::Buckets(_)), (id as usize) < MAX_GS);
        }
        assert_eq!(drain_in_order(&mut open), count as usize);
    }

    #[test]
    fn pops_that_skip_too_many_empty_buckets_move_the_list_to_a_heap() {
        // Over and over, an entry far above another: the pop after the low one skipped the
        // whole gap again (a gap of 60,000: 6 s for 100,000 rounds).
        let mut open = OpenList::new();
        let mut rounds = 0;
        while matches!(open, OpenList::Buckets(_)) {
            let id = 2 * rounds;
            open.push(0, 0, id);
            open.push(60_000, 0, id + 1);
            assert_eq!(open.pop(), Some((0, 0, id)));
            assert_eq!(open.pop(), Some((60_000, 0, id + 1)));
            rounds += 1;
            assert!(rounds < 10, "still in buckets after {rounds} rounds");
        }
        open.push(7, 0, 1000);
        assert_eq!(open.pop(), Some((7, 0, 1000)));
    }

    #[test]
    fn a_queue_drained_while_it_grows_keeps_only_what_waits() {
        // Moves that cost nothing: every pop pushes an entry of the same f and g.
        let mut open = OpenList::new();
        open.push(5, 5, 0);
        for id in 1..100_000 {
            assert_eq!(open.pop(), Some((5, 5, id - 1)));
            open.push(5, 5, id);
        }
        let OpenList::Buckets(buckets) = &open else {
            panic!("still in buckets");
        };
        let queue = &buckets.by_f[0].by_g[0].1;
        assert!(queue.ids.len() <= 2048, "{} ids kept", queue.ids.len());
    }
}
