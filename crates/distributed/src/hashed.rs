//! One worker's part of a space without a rank: the states whose hash falls in its shard,
//! kept in a hash set, and its part of the layer being expanded and of the next one.
//!
//! A state's owner is read from a hash of its [`Words`], the same on every machine: a
//! multiply-and-fold of the words (not the hash set's own hash, so that the states a worker
//! keeps still spread over all of its table).
//!
//! A checkpoint of a shard, between two layers, is words: the number of states found for the
//! next layer, the number of states seen, then the words of each state of the next layer, and
//! of each state seen.

use std::hash::Hash;

use frontier_search::{Space, Words};
use hashbrown::HashSet;
use rustc_hash::FxBuildHasher;

use crate::shard::Count;

/// The worker, of `peers`, that owns the state written as `words`.
#[inline]
pub(crate) fn owner(words: &[u64], peers: usize) -> usize {
    // Odd constants of the golden ratio's and of MurmurHash3's finaliser: each word is
    // mixed into all the bits, and the top ones (which choose the owner) depend on every
    // bit of every word.
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in words {
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 32;
    }
    ((u128::from(h) * peers as u128) >> 64) as usize
}

/// The states a worker owns: every one it has seen, and those of the layer it expands
/// next.
pub(crate) struct Hashed<S> {
    seen: HashSet<S, FxBuildHasher>,
    /// The states of the layer being expanded (taken from `next` when it begins).
    pub layer: Vec<S>,
    /// The states found for the next layer, in the order found.
    next: Vec<S>,
    /// What the states of the next layer count for.
    count: Count,
}

impl<S: Words + Hash + Eq + Clone> Hashed<S> {
    /// No state yet.
    pub fn new() -> Hashed<S> {
        Hashed {
            seen: HashSet::with_hasher(FxBuildHasher),
            layer: Vec::new(),
            next: Vec::new(),
            count: Count::default(),
        }
    }

    /// The states kept.
    pub fn stored(&self) -> u64 {
        self.seen.len() as u64
    }

    /// Takes `state`, one of this worker's, as a successor: keeps it for the next layer if
    /// it was never seen, counting it with its weight; with `look_only` (a layer past the
    /// depth limit), only looks whether it was.
    #[inline]
    pub fn take<P: Space<State = S>>(&mut self, space: &P, state: S, look_only: bool) {
        if look_only {
            self.count.deeper |= !self.seen.contains(&state);
        } else if self.seen.insert(state.clone()) {
            self.count.found += 1;
            self.count.weight = self.count.weight.saturating_add(space.weight(&state));
            self.next.push(state);
        }
    }

    /// Takes each state of `words` (as [`Words::put`] wrote them, one after another), sent
    /// by another worker, as [`Hashed::take`] does.
    pub fn receive<P: Space<State = S>>(&mut self, space: &P, words: &[u64], look_only: bool) {
        for state in words.chunks_exact(S::WORDS.max(1)) {
            self.take(space, S::take(state), look_only);
        }
    }

    /// Begins a layer: the states found for it become the layer expanded.
    pub fn begin(&mut self) {
        self.layer.clear();
        std::mem::swap(&mut self.layer, &mut self.next);
    }

    /// The words of a checkpoint of the shard (see the [module](self)): how many, and the
    /// blocks of at most `block` words (or one state's, if more) handed to `put` in order.
    pub fn save<E>(
        &self,
        block: usize,
        put: &mut dyn FnMut(&[u64]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut words = vec![self.next.len() as u64, self.seen.len() as u64];
        for state in self.next.iter().chain(&self.seen) {
            state.put(&mut words);
            if words.len() >= block {
                put(&words)?;
                words.clear();
            }
        }
        if words.is_empty() {
            Ok(())
        } else {
            put(&words)
        }
    }

    /// The words [`Hashed::save`] gives.
    pub fn saved_words(&self) -> u64 {
        let states = (self.next.len() + self.seen.len()) as u64;
        2 + states * S::WORDS as u64
    }

    /// The shard of a checkpoint's `words`; why not, if they do not make one.
    pub fn restore(words: &[u64]) -> Result<Hashed<S>, String> {
        let [next, seen, ref states @ ..] = *words else {
            return Err("its states' words are cut short".to_owned());
        };
        let each = S::WORDS as u64;
        // A state of no words is the only one of its space.
        if next > seen
            || (each == 0 && seen > 1)
            || (next + seen).checked_mul(each) != Some(states.len() as u64)
        {
            return Err(format!(
                "{} words do not hold {next} states of the layer and {seen} seen",
                states.len()
            ));
        }
        let state = |i: u64| S::take(&states[(i * each) as usize..((i + 1) * each) as usize]);
        let mut part = Hashed::new();
        part.next = (0..next).map(state).collect();
        part.seen.reserve(seen as usize);
        part.seen.extend((next..next + seen).map(state));
        if part.seen.len() as u64 != seen || !part.next.iter().all(|s| part.seen.contains(s)) {
            return Err(
                "its states seen are not all different, or miss some of the layer's".to_owned(),
            );
        }
        Ok(part)
    }

    /// The count of the states found for the next layer so far (then nothing).
    pub fn take_count(&mut self) -> Count {
        std::mem::take(&mut self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_spread_evenly_and_agree_on_every_call() {
        for peers in [1, 2, 3, 7] {
            let mut shares = vec![0u32; peers];
            for n in 0..70_000u64 {
                let words = [n, n >> 3];
                let owner = owner(&words, peers);
                assert_eq!(owner, super::owner(&words, peers));
                shares[owner] += 1;
            }
            let fair = 70_000 / peers as u32;
            for share in shares {
                // Within 3% of a fair share.
                assert!(
                    share.abs_diff(fair) < fair / 33,
                    "{peers} peers: {share} of {fair}"
                );
            }
        }
    }

    /// Counting up from 0 to 9, each number weighing 1 + its parity.
    struct Count10;

    impl Space for Count10 {
        type State = u32;
        type Move = ();
        fn start(&self) -> u32 {
            0
        }
        fn is_goal(&self, _: &u32) -> bool {
            false
        }
        fn successors(&self, n: &u32, _: Option<&()>, mut out: impl FnMut((), u32)) {
            if *n < 9 {
                out((), n + 1);
            }
        }
        fn weight(&self, n: &u32) -> u64 {
            1 + u64::from(n % 2)
        }
    }

    #[test]
    fn a_shard_saved_in_blocks_restores_as_it_was() {
        let mut part = Hashed::new();
        for n in [1u32, 2, 3] {
            part.take(&Count10, n, false);
        }
        part.begin();
        for n in [4u32, 5, 3] {
            part.take(&Count10, n, false);
        }
        let mut words = Vec::new();
        part.save(3, &mut |block: &[u64]| {
            assert!(block.len() <= 3 || words.is_empty());
            words.extend_from_slice(block);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(words.len() as u64, part.saved_words());
        let back = Hashed::<u32>::restore(&words).unwrap();
        assert_eq!(back.next, [4, 5]);
        assert_eq!(back.seen, part.seen);
        // Words of another shape, or a layer's state not among those seen, are refused.
        assert!(Hashed::<u32>::restore(&words[..words.len() - 1]).is_err());
        assert!(Hashed::<u32>::restore(&[1]).is_err());
        let mut bad = words.clone();
        bad[2] = 9;
        assert!(Hashed::<u32>::restore(&bad).is_err());
    }

    #[test]
    fn a_state_is_kept_once_and_counted_with_its_weight() {
        let mut part = Hashed::new();
        let mut words = Vec::new();
        for n in [3u32, 4, 3] {
            n.put(&mut words);
        }
        part.receive(&Count10, &words, false);
        part.take(&Count10, 4, false);
        let count = part.take_count();
        assert_eq!((count.found, count.weight), (2, 3));
        part.begin();
        assert_eq!(part.layer, [3, 4]);
        assert_eq!(part.stored(), 2);
        // Past the depth limit: only looks.
        part.take(&Count10, 3, true);
        assert!(!part.take_count().deeper);
        part.take(&Count10, 5, true);
        assert!(part.take_count().deeper);
        assert_eq!(part.stored(), 2);
    }
}
