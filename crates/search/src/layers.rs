//! The store behind frontier search: three consecutive BFS layers under one index.

use std::hash::Hash;

use crate::arena::{hash_of, Index, LARGE_FROM};
use crate::explore::{Store, SHARD_FROM};

/// A value in the index: the layer's slot above the position in that layer.
const SLOT_SHIFT: u32 = 30;
/// The most states one layer of one set can hold.
const LAYER_CAPACITY: usize = 1 << SLOT_SHIFT;

/// The previous, current and next layers of a breadth-first search, each a list of states in
/// the order found, under one index. A successor of the current layer is looked up once,
/// wherever it lies (three separate sets took three probes). Advancing drops the previous
/// layer's states from the index one by one, so the index only ever holds three layers.
pub(crate) struct LayerSet<S> {
    index: Index,
    /// The three layers, by slot: the current one is `layers[now]`, the next `now + 1` and the
    /// previous `now + 2`, counting modulo 3.
    layers: [Vec<S>; 3],
    now: usize,
    /// The most states one layer may hold: [`LAYER_CAPACITY`] (tests lower it).
    layer_room: usize,
    /// Whether a state was refused because its layer was full.
    refused: bool,
}

/// One of the three layers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Layer {
    Previous,
    Current,
    Next,
}

impl<S: Hash + Eq> LayerSet<S> {
    pub fn new() -> Self {
        LayerSet {
            index: Index::with_capacity(0),
            layers: [Vec::new(), Vec::new(), Vec::new()],
            now: 0,
            layer_room: LAYER_CAPACITY,
            refused: false,
        }
    }

    fn slot(&self, layer: Layer) -> usize {
        let offset = match layer {
            Layer::Current => 0,
            Layer::Next => 1,
            Layer::Previous => 2,
        };
        (self.now + offset) % 3
    }

    /// The states of `layer`, in the order they were found.
    pub fn layer(&self, layer: Layer) -> &[S] {
        &self.layers[self.slot(layer)]
    }

    /// The state an index value stands for.
    #[inline]
    fn state(layers: &[Vec<S>; 3], value: u32) -> &S {
        &layers[(value >> SLOT_SHIFT) as usize][(value as usize) & (LAYER_CAPACITY - 1)]
    }

    /// Adds `state` to `layer` unless it lies in one of the three; returns whether it was new.
    /// A full layer takes no more states (see [`Store::refused`]).
    #[inline]
    pub fn insert(&mut self, layer: Layer, hash: u64, state: S) -> bool {
        if self.index.is_full(self.held()) {
            self.grow();
        }
        let slot = self.slot(layer);
        if self.layers[slot].len() >= self.layer_room {
            self.refused = true;
            return false;
        }
        let value = (slot as u32) << SLOT_SHIFT | self.layers[slot].len() as u32;
        let layers = &self.layers;
        let is = |other: u32| Self::state(layers, other) == &state;
        let rehash = |other: u32| hash_of(Self::state(layers, other));
        if self.index.find_or_insert(hash, value, is, rehash).is_some() {
            return false;
        }
        self.layers[slot].push(state);
        true
    }

    /// An index of every state held: small with room for `capacity`, or large.
    fn rebuilt(&self, capacity: usize, large: bool) -> Index {
        let entries = self.layers.iter().enumerate().flat_map(|(slot, states)| {
            let tag = (slot as u32) << SLOT_SHIFT;
            (states.iter().enumerate()).map(move |(at, state)| (hash_of(state), tag | at as u32))
        });
        Index::build(entries, capacity, large)
    }

    /// Grows a full index: a small one is rebuilt with room for twice the states held (which
    /// also clears the marks its removals left), or past [`LARGE_FROM`] replaced by a large one.
    #[cold]
    fn grow(&mut self) {
        if self.index.is_large() {
            return self.index.grow_large();
        }
        let held = self.held();
        self.index = self.rebuilt((2 * held).max(16), held >= LARGE_FROM);
    }
}

impl<S: Hash + Eq> Store<S> for LayerSet<S> {
    /// From the split into shards: a layer set removes every state it inserts, so its index
    /// grows to hold layers that come and go, and the large kind grows without re-hashing.
    /// Measured on the cube's positions, one thread: to depth 6, 1.44 s -> 1.13-1.17 s; to
    /// depth 7, 16.1 s -> 15.8 s (two threads 8.4-8.6 s -> 8.3-8.4 s), in the same memory.
    const LARGE_FROM: usize = SHARD_FROM;

    fn fresh() -> Option<Self> {
        Some(LayerSet::new())
    }

    #[inline]
    fn layer(&self) -> &[S] {
        LayerSet::layer(self, Layer::Current)
    }

    #[inline]
    fn previous(&self) -> &[S] {
        LayerSet::layer(self, Layer::Previous)
    }

    /// Whether `state` (whose hash is `hash`) lies in any of the three layers.
    #[inline]
    fn seen(&self, hash: u64, state: &S) -> bool {
        let is = |value| Self::state(&self.layers, value) == state;
        self.index.find(hash, is).is_some()
    }

    #[inline]
    fn insert_next(&mut self, hash: u64, state: S) -> bool {
        self.insert(Layer::Next, hash, state)
    }

    fn place(&mut self, layer: Layer, hash: u64, state: S) {
        self.insert(layer, hash, state);
    }

    fn into_layers(mut self) -> Vec<(Layer, Vec<S>)> {
        [Layer::Previous, Layer::Current, Layer::Next]
            .map(|layer| {
                let slot = self.slot(layer);
                (layer, std::mem::take(&mut self.layers[slot]))
            })
            .into()
    }

    fn found(&self) -> &[S] {
        LayerSet::layer(self, Layer::Next)
    }

    /// Makes the next layer the current one and the current one the previous; the states of
    /// the old previous layer leave the index one by one.
    fn advance(&mut self) {
        let slot = self.slot(Layer::Previous);
        let mut dropped = std::mem::take(&mut self.layers[slot]);
        for (position, state) in dropped.iter().enumerate() {
            let value = (slot as u32) << SLOT_SHIFT | position as u32;
            self.index.remove(hash_of(state), value);
        }
        dropped.clear();
        self.layers[slot] = dropped;
        self.now = (self.now + 1) % 3;
    }

    /// States held, in all three layers.
    fn held(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    fn reserve(&mut self, additional: usize) {
        self.index.reserve(self.held(), additional);
    }

    #[inline]
    fn prefetch(&self, hash: u64) {
        self.index.prefetch(hash);
    }

    fn make_large(&mut self) {
        if !self.index.is_large() {
            self.index = self.rebuilt(self.held(), true);
        }
    }

    /// Whether a state was ever refused because its layer held [`LAYER_CAPACITY`] states
    /// already: the counts are then incomplete, and the search must stop at its state limit.
    fn refused(&self) -> bool {
        self.refused
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_layers_under_one_index_in_both_index_kinds() {
        for large in [false, true] {
            let mut set = LayerSet::<u64>::new();
            if large {
                set.make_large();
            }
            // Layer d holds the numbers 1000 d .. 1000 d + 999 (spread over the u64 range),
            // inserted twice each; after each advance only three layers are found.
            let state = |d: u64, i: u64| (1000 * d + i).wrapping_mul(0x2545_F491_4F6C_DD1D);
            for d in 0..8u64 {
                for i in 0..1000 {
                    let s = state(d, i);
                    assert!(set.insert(Layer::Next, hash_of(&s), s), "{d} {i}");
                    assert!(!set.insert(Layer::Next, hash_of(&s), s));
                }
                set.advance();
                assert_eq!(set.layer(Layer::Current)[7], state(d, 7));
                for back in 0..=d.min(3) {
                    let s = state(d - back, 3);
                    assert_eq!(set.seen(hash_of(&s), &s), back < 2, "{d} {back}");
                }
                assert_eq!(set.held(), 1000 * (d as usize + 1).min(2));
            }
            // A state of a forgotten layer is new again.
            let old = state(0, 5);
            assert!(set.insert(Layer::Next, hash_of(&old), old));
        }
    }

    #[test]
    fn a_full_layer_refuses_states_and_says_so() {
        let mut set = LayerSet::<u64>::new();
        set.layer_room = 3;
        for s in 0..3u64 {
            assert!(set.insert(Layer::Next, hash_of(&s), s));
        }
        assert!(!set.refused());
        assert!(!set.insert(Layer::Next, hash_of(&3u64), 3));
        assert!(set.refused());
        assert!(!set.seen(hash_of(&3u64), &3));
        assert_eq!(set.held(), 3);
    }

    #[test]
    fn a_small_index_regrows_past_its_removal_marks_and_into_the_large_one() {
        let mut set = LayerSet::<u64>::new();
        let mut next = 0u64;
        // Layers of growing size: a growth past LARGE_FROM states makes the index large.
        let big = 4 * LARGE_FROM as u64;
        for size in [10, 1000, 100_000, big, 50] {
            for _ in 0..size {
                next += 1;
                assert!(set.insert(Layer::Next, hash_of(&next), next));
            }
            set.advance();
        }
        assert!(set.index.is_large());
        assert_eq!(set.held() as u64, big + 50);
        for s in next - 60..=next {
            assert!(set.seen(hash_of(&s), &s));
        }
        // The last state of the layer before those two is forgotten.
        let gone = next - 50 - big;
        assert!(!set.seen(hash_of(&gone), &gone));
        assert!(set.seen(hash_of(&(gone + 1)), &(gone + 1)));
    }
}
