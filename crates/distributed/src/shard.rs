//! One worker's part of the ranks: two bits for each rank of its range, as the engine's dense
//! strategy keeps them for the whole space.
//!
//! Entry `i` says where rank `first + i` stands: unseen (0), in one of the two alternating
//! layer codes (1 and 2: layer `d` is [`layer_code`]`(d)`), or closed (3, expanded). Only the
//! worker that owns the range touches it, so no entry needs an atomic operation.

/// Entries a `u64` word holds.
pub(crate) const PER_WORD: u64 = 32;
// A block of ranks that a move shifts as one is a word.
const _: () = assert!(PER_WORD == frontier_search::SHIFT_BLOCK);
/// Words scanned at once (65,536 entries): a worker looks at its limits, and lets the
/// exchange deliver what it received, a chunk at a time.
pub(crate) const CHUNK_WORDS: usize = 1 << 11;
/// The even bits of a word: the low bit of every entry.
const LOW: u64 = 0x5555_5555_5555_5555;
/// The code of an expanded entry.
pub(crate) const CLOSED: u64 = 3;

/// The code of the entries of layer `depth`: 1 and 2 alternate (0 is unseen).
#[inline]
pub(crate) fn layer_code(depth: u32) -> u64 {
    1 + u64::from(depth & 1)
}

/// The entries of `word` whose code is `code` (1 or 2), as their low bits.
#[inline]
pub(crate) fn entries_of(word: u64, code: u64) -> u64 {
    let (low, high) = (word & LOW, (word >> 1) & LOW);
    if code == 1 {
        low & !high
    } else {
        high & !low
    }
}

/// The states one worker marked for a layer: how many, their weight, and (in a layer the
/// depth limit leaves unexpanded) whether one of their successors was unseen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Count {
    pub found: u64,
    pub weight: u64,
    pub deeper: bool,
}

/// The ranks `first..end`, two bits each.
pub(crate) struct Shard {
    pub first: u64,
    pub end: u64,
    pub words: Vec<u64>,
    /// `active[code - 1][chunk]`: an entry of `code` may lie in `chunk`.
    active: [Vec<bool>; 2],
    /// `counts[t]`: the states marked from the successors of layer `t` (layer `t + 1`).
    counts: Vec<Count>,
}

impl Shard {
    /// Every rank of `first..end` unseen. The words are allocated zeroed, so the system maps
    /// them lazily.
    pub fn new(first: u64, end: u64) -> Shard {
        let len = (end - first).div_ceil(PER_WORD) as usize;
        Shard::with_words(first, end, vec![0; len])
    }

    /// The ranks `first..end` with the entries of `words` (read from a checkpoint): every
    /// chunk is taken as active, since the flags are not saved.
    pub fn with_words(first: u64, end: u64, words: Vec<u64>) -> Shard {
        let chunks = words.len().div_ceil(CHUNK_WORDS);
        Shard {
            first,
            end,
            words,
            active: [vec![true; chunks], vec![true; chunks]],
            counts: Vec::new(),
        }
    }

    /// The number of chunks.
    pub fn chunks(&self) -> usize {
        self.active[0].len()
    }

    /// The word and the shift of `rank`'s entry.
    #[inline]
    fn place(&self, rank: u64) -> (usize, u32) {
        if rank < self.first || rank >= self.end {
            out_of_range(rank, self.first, self.end);
        }
        let i = rank - self.first;
        ((i / PER_WORD) as usize, 2 * (i % PER_WORD) as u32)
    }

    /// Starts loading the word of `rank`'s entry (a hint: a rank out of the range loads
    /// nothing).
    #[inline]
    pub fn prefetch(&self, rank: u64) {
        let word = (rank.wrapping_sub(self.first) / PER_WORD) as usize;
        frontier_search::prefetch(self.words.as_ptr().wrapping_add(word));
    }

    /// Marks this worker's own successors of layer `depth` (with `look_only`, looks whether
    /// one is unseen), each rank with its state's weight, into `count`; empties `own`.
    pub fn settle(
        &mut self,
        depth: u32,
        own: &mut Vec<(u64, u64)>,
        look_only: bool,
        count: &mut Count,
    ) {
        if look_only {
            count.deeper |= own.iter().any(|&(rank, _)| self.unseen(rank));
        } else {
            let code = layer_code(depth + 1);
            for &(rank, weight) in own.iter() {
                if self.mark(rank, code) {
                    count.found += 1;
                    count.weight = count.weight.saturating_add(weight);
                }
            }
        }
        own.clear();
    }

    /// Whether `rank` was never seen.
    #[inline]
    pub fn unseen(&self, rank: u64) -> bool {
        let (w, shift) = self.place(rank);
        (self.words[w] >> shift) & 3 == 0
    }

    /// Gives an unseen `rank` the code `code`; returns whether it was unseen.
    #[inline]
    pub fn mark(&mut self, rank: u64, code: u64) -> bool {
        let (w, shift) = self.place(rank);
        if (self.words[w] >> shift) & 3 != 0 {
            return false;
        }
        self.words[w] |= code << shift;
        self.active[code as usize - 1][w / CHUNK_WORDS] = true;
        true
    }

    /// Marks this worker's own successors of layer `depth` by a shift: the ranks `first + j`
    /// for the bits `j` of `block` (`first` a multiple of [`PER_WORD`] past this range's
    /// first rank, which is one too), each of weight 1, into `count`; with `look_only`, looks
    /// whether one is unseen.
    pub fn mark_block(
        &mut self,
        depth: u32,
        first: u64,
        block: u64,
        look_only: bool,
        count: &mut Count,
    ) {
        let (w, _) = self.place(first);
        let value = self.words[w];
        let unseen = frontier_search::sweep::spread_block(block) & !(value | value >> 1) & LOW;
        if look_only {
            count.deeper |= unseen != 0;
            return;
        }
        if unseen == 0 {
            return;
        }
        let code = layer_code(depth + 1);
        self.words[w] = value | unseen << (code - 1);
        self.active[code as usize - 1][w / CHUNK_WORDS] = true;
        let found = u64::from(unseen.count_ones());
        count.found += found;
        count.weight = count.weight.saturating_add(found);
    }

    /// The count of the states marked from the successors of layer `t`.
    pub fn count(&mut self, t: u32) -> &mut Count {
        let t = t as usize;
        if self.counts.len() <= t {
            self.counts.resize(t + 1, Count::default());
        }
        &mut self.counts[t]
    }

    /// Takes the count of layer `t`'s successors (the next use starts from nothing).
    pub fn take_count(&mut self, t: u32) -> Count {
        std::mem::take(self.count(t))
    }

    /// Whether chunk `chunk` may hold entries of `code`; clears the flag (the expansion of
    /// the chunk is about to close them all).
    pub fn take_active(&mut self, chunk: usize, code: u64) -> bool {
        std::mem::replace(&mut self.active[code as usize - 1][chunk], false)
    }

    /// Marks the `ranks` received for layer `t + 1` (the successors of layer `t`), each of
    /// weight 1 but those listed in `weights` by their position; in a layer past the depth
    /// limit (`look_only`), only looks whether one is unseen.
    pub fn receive(&mut self, t: u32, ranks: &[u64], weights: &[(u32, u64)], look_only: bool) {
        if look_only {
            let deeper = ranks.iter().any(|&rank| self.unseen(rank));
            self.count(t).deeper |= deeper;
            return;
        }
        let code = layer_code(t + 1);
        let mut heavy = weights.iter().peekable();
        let mut count = *self.count(t);
        for (i, &rank) in ranks.iter().enumerate() {
            // The weights of the positions before this one were passed over with them.
            let mut weight = 1;
            while let Some(&&(at, w)) = heavy.peek() {
                if at as usize > i {
                    break;
                }
                if at as usize == i {
                    weight = w;
                }
                heavy.next();
            }
            if self.mark(rank, code) {
                count.found += 1;
                count.weight = count.weight.saturating_add(weight);
            }
        }
        *self.count(t) = count;
    }
}

#[cold]
#[inline(never)]
fn out_of_range(rank: u64, first: u64, end: u64) -> ! {
    panic!("rank {rank} reached the worker that owns ranks {first}..{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_alternate_and_are_read_back_from_a_word() {
        assert_eq!(layer_code(0), 1);
        assert_eq!(layer_code(1), 2);
        assert_eq!(layer_code(2), 1);
        // Entries 0 (code 1), 1 (code 2), 2 (closed), 3 (code 1).
        let word = 1 | (2 << 2) | (3 << 4) | (1 << 6);
        assert_eq!(entries_of(word, 1), 1 | (1 << 6));
        assert_eq!(entries_of(word, 2), 1 << 2);
    }

    #[test]
    fn a_rank_is_marked_once_and_counted_with_its_weight() {
        let mut shard = Shard::new(100, 200);
        shard.receive(0, &[150, 150, 199, 100], &[(2, 5)], false);
        let count = shard.take_count(0);
        assert_eq!((count.found, count.weight), (3, 7));
        assert!(!shard.unseen(150) && !shard.unseen(100) && shard.unseen(101));
        assert_eq!(shard.take_count(0), Count::default());
        // Seen ranks are not new again; an unseen one in a look-only layer says "deeper".
        shard.receive(1, &[150], &[], true);
        assert!(!shard.take_count(1).deeper);
        shard.receive(1, &[151], &[], true);
        assert!(shard.take_count(1).deeper);
        assert!(shard.unseen(151));
    }

    #[test]
    fn a_shifted_block_marks_its_unseen_ranks_once() {
        let mut shard = Shard::new(64, 192);
        shard.mark(97, layer_code(1));
        let mut count = Count::default();
        // Ranks 96, 97, 98 and 127 of layer 1; 97 was seen.
        let block = 1 | 1 << 1 | 1 << 2 | 1 << 31;
        shard.mark_block(0, 96, block, true, &mut count);
        assert!(count.deeper && shard.unseen(96), "a look only");
        shard.mark_block(0, 96, block, false, &mut count);
        assert_eq!((count.found, count.weight), (3, 3));
        for rank in [96, 98, 127] {
            assert!(!shard.unseen(rank));
            assert_eq!(shard.words[1] >> (2 * (rank - 96)) & 3, layer_code(1));
        }
        assert!(shard.unseen(99) && shard.unseen(128));
        let mut again = Count::default();
        shard.mark_block(0, 96, block, false, &mut again);
        shard.mark_block(0, 96, block, true, &mut again);
        assert_eq!(again, Count::default());
    }

    #[test]
    #[should_panic(expected = "rank 200 reached the worker that owns ranks 100..200")]
    fn a_rank_out_of_the_range_is_a_bug_of_the_caller() {
        Shard::new(100, 200).mark(200, 1);
    }
}
