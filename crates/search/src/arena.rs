//! The store behind the graph searches: every seen state once, with its parent as an index.

use std::hash::{BuildHasher, Hash};

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::outcome::Solution;
use crate::space::Cost;

/// Marks a root (a start or a goal): it has no parent and no move.
const NO_PARENT: u32 = u32::MAX;

/// The most states an arena can index with `u32` ids (one id is reserved for "no parent").
pub(crate) const MAX_NODES: usize = (u32::MAX - 1) as usize;

/// The hash every store uses: FxHash.
#[inline]
pub(crate) fn hash_of<S: Hash>(state: &S) -> u64 {
    FxBuildHasher.hash_one(state)
}

/// Asks the CPU to start loading the cache line at `ptr`; a hint only, never a fault.
#[inline(always)]
fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults, even on an address that is not mapped;
    // SSE is part of every x86_64 target.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

/// How many insertions ahead the solvers [prefetch](StateSet::prefetch) a slot: enough to
/// overlap the misses of a table in memory, few enough that the prefetched lines are still in
/// cache when used (measured on cube searches: 8 beat 16 and 32).
pub(crate) const AHEAD: usize = 8;

/// Spreads a hash over all 64 bits (Fibonacci hashing); a state's key is the top 32.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;
/// The most slots a large table has: every key bit is then a slot-number bit.
const MAX_SLOTS: usize = 1 << 32;
/// A slot's id half.
const ID_BITS: u64 = 0xffff_ffff;
/// States held before a set moves from the small index to the large one. Below it the table
/// mostly stays in cache, where hashbrown's one-byte control groups make a miss cheapest
/// (measured: a third faster than the large index on the 8-puzzle's 181,440 states); above
/// it every probe goes to memory, where one slot read per lookup, prefetching and growth
/// without re-hashing win (measured with the batched, prefetched inserts of the solvers: a
/// bidirectional cube search of 10 million states, 3.6 s -> 1.5 s).
pub(crate) const LARGE_FROM: usize = 1 << 20;

/// Small indexes below this many entries grow four times over, larger ones twice. Measured on
/// the 8-puzzle against pathfinding in the same run: bidirectional search (about 10,000 states
/// a side) 1.9x -> 2.15x; quadrupling up to 2^14 entries instead made explore (181,440 states)
/// a quarter slower.
const QUADRUPLE_BELOW: usize = 1 << 12;

/// Seen states in insertion order, indexed by a hash table of `u32` ids.
///
/// The index holds only ids into `states`, so each state is stored exactly once, and a BFS
/// frontier is just a range of ids: no separate queue. A small set's index is a hashbrown table;
/// past [`LARGE_FROM`] states it becomes a [`Slots`] table, and the solvers'
/// [prefetch](StateSet::prefetch)es take effect.
pub(crate) struct StateSet<S> {
    index: Index,
    hasher: FxBuildHasher,
    pub states: Vec<S>,
}

enum Index {
    Small(HashTable<u32>),
    Large(Slots),
}

/// The large index: open addressing over `u64` slots, each 0 when empty or else the state's
/// 32-bit key (from its hash) above its id plus one. A key's home slot is its top bits and
/// probing is linear, so a lookup reads one cache line of slots and, only when the whole key
/// matches, the state itself; the table is at most seven eighths full. Since a slot's key gives
/// its home, doubling the table moves slots without reading or hashing a single state.
struct Slots {
    slots: Vec<u64>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: usize,
    /// `32 - log2(slots.len())`: a key's home slot is the key shifted right by this.
    shift: u32,
}

impl Slots {
    /// A table for `len` states with room to grow, indexing `states`' hashes in order.
    fn build<S>(states: &[S], hash: impl Fn(&S) -> u64) -> Slots {
        let size = (states.len() * 2).next_power_of_two().max(16);
        let mut table = Slots {
            slots: zeroed(size),
            mask: size - 1,
            shift: 32 - size.trailing_zeros(),
        };
        for (id, state) in states.iter().enumerate() {
            let slot = Self::key(hash(state)) | (id as u64 + 1);
            table.place(slot);
        }
        table
    }

    /// The key of a hash, placed in a slot's high half.
    #[inline]
    fn key(hash: u64) -> u64 {
        hash.wrapping_mul(SPREAD) & !ID_BITS
    }

    /// The slot where the search for a key (in a slot's high half) starts.
    #[inline]
    fn home(&self, key: u64) -> usize {
        (key >> 32 >> self.shift) as usize
    }

    /// Puts a slot known to be absent in the first free place from its home.
    fn place(&mut self, slot: u64) {
        let mut at = self.home(slot);
        while self.slots[at] != 0 {
            at = (at + 1) & self.mask;
        }
        self.slots[at] = slot;
    }

    /// How many states the table takes before it grows: seven eighths of its slots (at the
    /// largest size, all but one, so that every probe still ends at an empty slot).
    #[inline]
    fn limit(&self) -> usize {
        if self.slots.len() == MAX_SLOTS {
            MAX_SLOTS - 1
        } else {
            self.slots.len() / 8 * 7
        }
    }

    /// The id of the state whose hash is `hash` and which `is` recognises, if stored; else
    /// the empty slot where it would go.
    #[inline]
    fn probe(&self, hash: u64, is: impl Fn(u32) -> bool) -> Result<u32, usize> {
        let key = Self::key(hash);
        let mut at = self.home(key);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return Err(at);
            }
            if slot & !ID_BITS == key && is(slot as u32 - 1) {
                return Ok(slot as u32 - 1);
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Doubles the table. The keys say where each slot goes, and old slots are visited in
    /// order, so the new table is written nearly front to back; no state is read.
    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, zeroed(size));
        self.mask = size - 1;
        self.shift -= 1;
        for slot in old.into_iter().filter(|&slot| slot != 0) {
            self.place(slot);
        }
    }
}

impl<S: Hash + Eq> StateSet<S> {
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// A set with room for `capacity` states before its index first grows.
    pub fn with_capacity(capacity: usize) -> Self {
        StateSet {
            index: Index::Small(HashTable::with_capacity(capacity)),
            hasher: FxBuildHasher,
            states: Vec::with_capacity(capacity),
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Hashes a state the way the set does.
    #[inline]
    pub fn hash(&self, state: &S) -> u64 {
        self.hasher.hash_one(state)
    }

    /// Starts loading the slot where `hash` would be found, for a lookup or insert soon after
    /// (large sets only: a small one is in cache).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        if let Index::Large(table) = &self.index {
            let home = table.home(Slots::key(hash));
            prefetch(table.slots.as_ptr().wrapping_add(home));
        }
    }

    /// The id of `state`, if stored.
    #[inline]
    pub fn find(&self, state: &S) -> Option<u32> {
        self.find_hashed(self.hash(state), state)
    }

    #[inline]
    pub fn find_hashed(&self, hash: u64, state: &S) -> Option<u32> {
        let states = &self.states;
        match &self.index {
            Index::Small(table) => table
                .find(hash, |&id| states[id as usize] == *state)
                .copied(),
            Index::Large(table) => table.probe(hash, |id| states[id as usize] == *state).ok(),
        }
    }

    /// Stores `state` (whose hash is `hash`) unless it is already there.
    #[inline]
    pub fn insert_hashed(&mut self, hash: u64, state: S) -> Insert {
        let id = self.states.len() as u32;
        let states = &self.states;
        match &mut self.index {
            Index::Small(table) => {
                if table.len() == table.capacity() {
                    self.grow();
                    return self.insert_hashed(hash, state);
                }
                let hasher = &self.hasher;
                // One probe both looks for the state and finds the slot for it.
                match table.entry(
                    hash,
                    |&other| states[other as usize] == state,
                    |&other| hasher.hash_one(&states[other as usize]),
                ) {
                    Entry::Occupied(seen) => return Insert::Seen(*seen.get()),
                    Entry::Vacant(slot) => {
                        slot.insert(id);
                    }
                }
            }
            Index::Large(table) => {
                if states.len() >= table.limit() {
                    table.grow();
                }
                match table.probe(hash, |other| states[other as usize] == state) {
                    Ok(seen) => return Insert::Seen(seen),
                    Err(at) => table.slots[at] = Slots::key(hash) | (u64::from(id) + 1),
                }
            }
        }
        self.states.push(state);
        Insert::New(id)
    }

    /// Stores `state` unless it is already there.
    #[inline]
    pub fn insert(&mut self, state: S) -> Insert {
        self.insert_hashed(self.hash(&state), state)
    }

    /// Makes room for `additional` more states, so that a large table does not grow (and move
    /// its slots away from what was prefetched) while they are inserted.
    pub fn reserve(&mut self, additional: usize) {
        if let Index::Large(table) = &mut self.index {
            while self.states.len() + additional > table.limit() && table.slots.len() < MAX_SLOTS {
                table.grow();
            }
        }
    }

    /// Moves a small index to the large one now, whatever this set's size: for a set that is
    /// one shard of a store too large for the cache.
    pub fn make_large(&mut self) {
        if let Index::Small(_) = self.index {
            let hasher = self.hasher;
            self.index = Index::Large(Slots::build(&self.states, |state| hasher.hash_one(state)));
        }
    }

    /// Forgets every state, keeping the memory for reuse.
    pub fn clear(&mut self) {
        match &mut self.index {
            Index::Small(table) => table.clear(),
            Index::Large(table) => table.slots.fill(0),
        }
        self.states.clear();
    }

    /// Grows a full small index by re-inserting the ids in order (hashbrown's own resize
    /// would re-hash them in slot order, visiting the states at random), or past
    /// [`LARGE_FROM`] states replaces it by a large one. A table of up to [`QUADRUPLE_BELOW`]
    /// entries quadruples, so that small searches re-hash less; a larger one doubles, which
    /// keeps its slots denser in cache.
    #[cold]
    fn grow(&mut self) {
        let Index::Small(small) = &self.index else {
            return;
        };
        let hasher = self.hasher;
        self.index = if self.states.len() >= LARGE_FROM {
            Index::Large(Slots::build(&self.states, |state| hasher.hash_one(state)))
        } else {
            let factor = if small.capacity() < QUADRUPLE_BELOW {
                4
            } else {
                2
            };
            let mut table = HashTable::with_capacity((small.capacity() * factor).max(16));
            for (id, state) in self.states.iter().enumerate() {
                let hash = hasher.hash_one(state);
                // Capacity is reserved, so the re-hash closure is never called.
                table.insert_unique(hash, id as u32, |_| hash);
            }
            Index::Small(table)
        };
    }
}

/// `len` zero slots, written rather than allocated zeroed: a zeroed allocation maps the
/// kernel's shared zero page, the table's first read of a slot keeps it, and the first write
/// then costs a second fault and a TLB flush on every core (measured: most of the system
/// time of a two-thread search).
#[allow(clippy::slow_vector_initialization)] // deliberately: see above
fn zeroed(len: usize) -> Vec<u64> {
    let mut slots = Vec::with_capacity(len);
    slots.resize(len, 0);
    slots
}

/// States an arena has room for before it first grows: a few pages of memory, and most small
/// searches never re-hash.
const ARENA_START: usize = 1 << 12;

/// Seen states, each with its parent's id and the move from the parent: the store behind the
/// graph searches, with parents as indices instead of cloned paths.
pub(crate) struct Arena<S, M> {
    pub set: StateSet<S>,
    parents: Vec<u32>,
    /// `moves[i - roots]` is the move into node `i`; roots have none.
    moves: Vec<M>,
    roots: usize,
}

/// The answer of [`Arena::insert`].
pub(crate) enum Insert {
    /// The state is new and got this id.
    New(u32),
    /// The state was already stored under this id.
    Seen(u32),
}

impl<S: Hash + Eq, M: Clone> Arena<S, M> {
    pub fn new() -> Self {
        Arena {
            set: StateSet::with_capacity(ARENA_START),
            parents: Vec::with_capacity(ARENA_START),
            moves: Vec::with_capacity(ARENA_START),
            roots: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// The state with id `id`.
    #[inline]
    pub fn state(&self, id: u32) -> &S {
        &self.set.states[id as usize]
    }

    /// Stores a root state (no parent). Roots must all be added before any other node.
    pub fn insert_root(&mut self, state: S) -> Insert {
        debug_assert_eq!(self.roots, self.len());
        let insert = self.set.insert(state);
        if let Insert::New(_) = insert {
            self.parents.push(NO_PARENT);
            self.roots += 1;
        }
        insert
    }

    /// Stores `state`, reached from `parent` by `mv`, unless it is already stored.
    #[inline]
    pub fn insert(&mut self, state: S, parent: u32, mv: M) -> Insert {
        let hash = self.set.hash(&state);
        self.insert_hashed(hash, state, parent, mv)
    }

    /// [`Arena::insert`] with the state's hash already computed (by a parallel worker).
    #[inline]
    pub fn insert_hashed(&mut self, hash: u64, state: S, parent: u32, mv: M) -> Insert {
        let insert = self.set.insert_hashed(hash, state);
        if let Insert::New(_) = insert {
            self.parents.push(parent);
            self.moves.push(mv);
        }
        insert
    }

    /// Makes `parent --mv-->` the way into `id` (for the cost-driven solvers, on a cheaper path).
    pub fn relink(&mut self, id: u32, parent: u32, mv: M) {
        self.parents[id as usize] = parent;
        self.moves[id as usize - self.roots] = mv;
    }

    /// The parent of `id` and the move from it, or `None` for a root.
    #[inline]
    pub fn parent(&self, id: u32) -> Option<(u32, &M)> {
        let parent = self.parents[id as usize];
        (parent != NO_PARENT).then(|| (parent, &self.moves[id as usize - self.roots]))
    }

    /// The moves from a root to `id`, in the order to play them, and the states along the way.
    pub fn path_to(&self, id: u32) -> (Vec<M>, Vec<S>)
    where
        S: Clone,
    {
        let mut moves = Vec::new();
        let mut states = vec![self.state(id).clone()];
        let mut at = id;
        while let Some((parent, mv)) = self.parent(at) {
            moves.push(mv.clone());
            states.push(self.state(parent).clone());
            at = parent;
        }
        moves.reverse();
        states.reverse();
        (moves, states)
    }

    /// The solution from a root to `id`, its cost given.
    pub fn solution(&self, id: u32, cost: Cost) -> Solution<S, M>
    where
        S: Clone,
    {
        let (moves, states) = self.path_to(id);
        Solution {
            moves,
            states,
            cost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_keeps_its_ids_across_the_move_to_the_large_index() {
        let mut set = StateSet::new();
        let n = 3 * LARGE_FROM as u64;
        // Numbers spread over the whole u64 range, inserted once, then all again.
        let state = |i: u64| i.wrapping_mul(0x2545_F491_4F6C_DD1D);
        for i in 0..n {
            assert!(matches!(set.insert(state(i)), Insert::New(id) if u64::from(id) == i));
        }
        assert!(matches!(set.index, Index::Large(_)));
        for i in (0..n).step_by(7) {
            assert!(matches!(set.insert(state(i)), Insert::Seen(id) if u64::from(id) == i));
            assert_eq!(set.find(&state(i)), Some(i as u32));
        }
        assert_eq!(set.find(&state(n)), None);
        assert_eq!(set.len() as u64, n);
        set.clear();
        assert_eq!(set.find(&state(1)), None);
        assert!(matches!(set.insert(state(5)), Insert::New(0)));
    }
}
