//! One bit per index for every state seen, for the spaces with a perfect
//! [index](crate::Space::index_bound): the bit set behind [`crate::bfs`]'s indexed strategy,
//! and the store behind [`crate::explore`]'s, which keeps the states themselves only for the
//! previous, current and next layers.

use std::alloc::{alloc_zeroed, Layout};

use crate::arena::prefetch;
use crate::config::Config;
use crate::explore::{Lent, Store};
use crate::layers::Layer;

#[cold]
#[inline(never)]
fn out_of_bound(index: u64, bound: u64) -> ! {
    panic!("Space::index gave {index}, which is not below Space::index_bound, {bound}")
}

/// The most indexes a bit store takes: 2^33 bits, 1 GiB. A larger space is explored with a
/// hash table instead.
pub(crate) const MAX_INDEX_BOUND: u64 = 1 << 33;

/// The bytes a bit array may take: what `max_states` lets the states themselves take, so that
/// a small budget is not spent on bits (13 cells of tiles have 13! indexes, 778 MB of bits).
pub(crate) fn bits_budget<S>(config: &Config) -> u64 {
    let state = std::mem::size_of::<S>().max(1) as u64;
    config
        .max_states
        .map_or(u64::MAX, |m| m.saturating_mul(state))
}

/// One bit per index below a bound: which [indexes](crate::Space::index) were seen.
pub(crate) struct BitSet {
    words: Vec<u64>,
    /// The indexes taken are those below it.
    bound: u64,
}

impl BitSet {
    /// No index set, for indexes below `bound`; `None` if the bits would pass
    /// [`MAX_INDEX_BOUND`] or `budget` bytes, or cannot be allocated.
    ///
    /// The words are allocated zeroed, so the system maps them lazily: a space that reaches few
    /// of its indexes touches few pages, and a large array costs no time before the search
    /// starts (writing its zeros first kept a 13-cell line of tiles, 13 states in 778 MB of
    /// bits, from seeing its timeout for half a second).
    pub fn new(bound: u64, budget: u64) -> Option<Self> {
        if bound > MAX_INDEX_BOUND || bound.div_ceil(8) > budget {
            return None;
        }
        let len = bound.div_ceil(64) as usize;
        if len == 0 {
            return Some(BitSet {
                words: Vec::new(),
                bound,
            });
        }
        let layout = Layout::array::<u64>(len).ok()?;
        // SAFETY: the layout has a non-zero size; the allocator returns zeroed memory or null.
        let words = unsafe { alloc_zeroed(layout) }.cast::<u64>();
        if words.is_null() {
            return None;
        }
        // SAFETY: allocated by the global allocator with the layout of `len` u64s, all zero
        // (a valid u64), so a Vec of length and capacity `len` may own it.
        let words = unsafe { Vec::from_raw_parts(words, len, len) };
        Some(BitSet { words, bound })
    }

    /// The word holding index `index`'s bit, and the bit.
    #[inline]
    fn place(index: u64) -> (usize, u64) {
        ((index / 64) as usize, 1 << (index % 64))
    }

    /// Panics, naming the index and the bound, unless `index` lies below the bound: a space
    /// whose index breaks its promise gets told so, not an error about words.
    #[inline(always)]
    fn check(&self, index: u64) {
        if index >= self.bound {
            out_of_bound(index, self.bound);
        }
    }

    #[inline]
    pub fn contains(&self, index: u64) -> bool {
        self.check(index);
        let (word, bit) = Self::place(index);
        // SAFETY: `check` passed, so `index < bound <= 64 * words.len()`: the word exists.
        unsafe { self.words.get_unchecked(word) & bit != 0 }
    }

    /// Sets `index`'s bit; returns whether it was clear.
    #[inline]
    pub fn insert(&mut self, index: u64) -> bool {
        self.check(index);
        let (word, bit) = Self::place(index);
        // SAFETY: `check` passed, so `index < bound <= 64 * words.len()`: the word exists.
        let word = unsafe { self.words.get_unchecked_mut(word) };
        if *word & bit != 0 {
            return false;
        }
        *word |= bit;
        true
    }

    /// Starts loading the word of `index`'s bit.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        prefetch(self.words.as_ptr().wrapping_add(Self::place(index).0));
    }
}

/// Seen states as bits of their [index](crate::Space::index), each layer's states in the
/// order found. Looking a state up reads one bit, so the table neither grows nor holds a state;
/// the key the explorer hands in is the state's index.
pub(crate) struct Bits<S> {
    seen: BitSet,
    previous: Vec<S>,
    current: Vec<S>,
    next: Vec<S>,
}

impl<S> Bits<S> {
    /// A store over `seen`, empty.
    pub fn new(seen: BitSet) -> Self {
        Bits {
            seen,
            previous: Vec::new(),
            current: Vec::new(),
            next: Vec::new(),
        }
    }
}

impl<S> Store<S> for Bits<S> {
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
        self.seen.contains(index)
    }

    #[inline]
    fn insert_next(&mut self, index: u64, state: S) -> bool {
        let new = self.seen.insert(index);
        if new {
            self.next.push(state);
        }
        new
    }

    fn place(&mut self, layer: Layer, index: u64, state: S) {
        self.seen.insert(index);
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
        self.seen.prefetch(index);
    }

    fn make_large(&mut self) {}

    /// A bit store looks states up by their bits alone: its layers can be lent.
    fn lend(&mut self) -> Option<Lent<S>> {
        Some(Lent {
            previous: std::mem::take(&mut self.previous),
            current: std::mem::take(&mut self.current),
        })
    }

    fn restore(&mut self, lent: Lent<S>) {
        self.previous = lent.previous;
        self.current = lent.current;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bit_set_keeps_to_its_budget_and_bound() {
        assert!(BitSet::new(MAX_INDEX_BOUND + 1, u64::MAX).is_none());
        assert!(
            BitSet::new(1 << 20, (1 << 17) - 1).is_none(),
            "2^20 bits are 2^17 bytes"
        );
        let mut set = BitSet::new(1 << 20, 1 << 17).unwrap();
        for index in [0, 63, 64, 12_345, (1 << 20) - 1] {
            assert!(!set.contains(index));
            assert!(set.insert(index));
            assert!(set.contains(index));
            assert!(!set.insert(index));
        }
        assert!(!set.contains(1));
        assert!(BitSet::new(0, 0).is_some());
    }

    #[test]
    #[should_panic(expected = "Space::index gave 12, which is not below Space::index_bound, 10")]
    fn an_index_past_the_bound_is_named() {
        // Inside the word the bits take, so it was taken without a word of complaint.
        BitSet::new(10, 1 << 10).unwrap().insert(12);
    }
}
