//! The store behind [`crate::explore_indexed`]: one bit per index for every state seen, and the
//! states themselves only for the previous, current and next layers.

use crate::arena::{prefetch, zeroed};
use crate::explore::Store;
use crate::layers::Layer;

/// The most indexes a bit store takes: 2^33 bits, 1 GiB. A larger space is explored with a
/// hash table instead.
pub const MAX_INDEX_BOUND: u64 = 1 << 33;

/// Seen states as bits of their [index](crate::Indexed::index), each layer's states in the
/// order found. Looking a state up reads one bit, so the table neither grows nor holds a state;
/// the key the explorer hands in is the state's index.
pub(crate) struct Bits<S> {
    seen: Vec<u64>,
    previous: Vec<S>,
    current: Vec<S>,
    next: Vec<S>,
}

impl<S> Bits<S> {
    /// A store for indexes below `bound` (at most [`MAX_INDEX_BOUND`]).
    pub fn new(bound: u64) -> Self {
        debug_assert!(bound <= MAX_INDEX_BOUND);
        Bits {
            seen: zeroed(bound.div_ceil(64) as usize),
            previous: Vec::new(),
            current: Vec::new(),
            next: Vec::new(),
        }
    }

    /// The word holding index `index`'s bit, and the bit.
    #[inline]
    fn place(index: u64) -> (usize, u64) {
        ((index / 64) as usize, 1 << (index % 64))
    }
}

impl<S: Send + Sync> Store<S> for Bits<S> {
    /// Never: a bit store has no index to move.
    const LARGE_FROM: usize = usize::MAX;

    fn fresh() -> Option<Self> {
        None
    }

    #[inline]
    fn layer(&self) -> &[S] {
        &self.current
    }

    #[inline]
    fn previous(&self) -> &[S] {
        &self.previous
    }

    #[inline]
    fn seen(&self, index: u64, _: &S) -> bool {
        let (word, bit) = Self::place(index);
        self.seen[word] & bit != 0
    }

    #[inline]
    fn insert_next(&mut self, index: u64, state: S) -> bool {
        let (word, bit) = Self::place(index);
        if self.seen[word] & bit != 0 {
            return false;
        }
        self.seen[word] |= bit;
        self.next.push(state);
        true
    }

    fn place(&mut self, layer: Layer, index: u64, state: S) {
        let (word, bit) = Self::place(index);
        self.seen[word] |= bit;
        match layer {
            Layer::Previous => self.previous.push(state),
            Layer::Current => self.current.push(state),
            Layer::Next => self.next.push(state),
        }
    }

    fn into_layers(self) -> Vec<(Layer, Vec<S>)> {
        vec![
            (Layer::Previous, self.previous),
            (Layer::Current, self.current),
            (Layer::Next, self.next),
        ]
    }

    fn found(&self) -> &[S] {
        &self.next
    }

    fn advance(&mut self) {
        // The old previous layer's buffer takes the next layer's states.
        std::mem::swap(&mut self.previous, &mut self.current);
        std::mem::swap(&mut self.current, &mut self.next);
        self.next.clear();
    }

    fn held(&self) -> usize {
        self.previous.len() + self.current.len() + self.next.len()
    }

    fn reserve(&mut self, _additional: usize) {}

    #[inline]
    fn prefetch(&self, index: u64) {
        prefetch(self.seen.as_ptr().wrapping_add(Self::place(index).0));
    }

    fn make_large(&mut self) {}
}
