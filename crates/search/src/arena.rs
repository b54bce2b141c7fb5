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

/// Asks the CPU to start loading the cache line at `ptr`; a hint only, never a fault, so any
/// address will do. For spaces whose heuristics read large tables: start the reads of several
/// successors' entries before using the first, and their cache misses overlap.
///
/// ```
/// let table = vec![0u8; 1 << 20];
/// let entries = [12_345, 678_901];
/// for &e in &entries {
///     frontier_search::prefetch(table.as_ptr().wrapping_add(e));
/// }
/// let sum: u32 = entries.iter().map(|&e| u32::from(table[e])).sum();
/// assert_eq!(sum, 0);
/// ```
#[inline(always)]
pub fn prefetch<T>(ptr: *const T) {
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
    pub states: Vec<S>,
}

/// A hash table of `u32` values (ids) that stores no states: its owner says which value holds
/// a given state (`is`) and, for growth, what each value's hash is. A small index is a
/// hashbrown table; a large one is [`Slots`].
pub(crate) enum Index {
    Small(HashTable<u32>),
    Large(Slots),
}

impl Index {
    /// A small index with room for `capacity` values.
    pub fn with_capacity(capacity: usize) -> Index {
        Index::Small(HashTable::with_capacity(capacity))
    }

    /// An index of `entries` (hash, value), all distinct: a small one with room for `capacity`
    /// values, or a large one.
    pub fn build(entries: impl Iterator<Item = (u64, u32)>, capacity: usize, large: bool) -> Index {
        if large {
            Index::Large(Slots::build(capacity, entries))
        } else {
            let mut table = HashTable::with_capacity(capacity.max(16));
            for (hash, value) in entries {
                // Capacity is reserved, so the re-hash closure is never called.
                table.insert_unique(hash, value, |_| hash);
            }
            Index::Small(table)
        }
    }

    pub fn is_large(&self) -> bool {
        matches!(self, Index::Large(_))
    }

    /// The values a small index takes before it must grow, or `None` for a large one.
    pub fn small_capacity(&self) -> Option<usize> {
        match self {
            Index::Small(table) => Some(table.capacity()),
            Index::Large(_) => None,
        }
    }

    /// Whether one more value needs the index to grow first, when it holds `len` values.
    #[inline(always)]
    pub fn is_full(&self, len: usize) -> bool {
        match self {
            Index::Small(table) => table.len() == table.capacity(),
            Index::Large(table) => len >= table.limit(),
        }
    }

    /// Starts loading the slot where `hash` would be found (large indexes only: a small one is
    /// in cache).
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        if let Index::Large(table) = self {
            let home = table.home(Slots::key(hash));
            prefetch(table.slots.as_ptr().wrapping_add(home));
        }
    }

    /// The value with this hash that `is` recognises, if any.
    #[inline(always)]
    pub fn find(&self, hash: u64, is: impl Fn(u32) -> bool) -> Option<u32> {
        match self {
            Index::Small(table) => table.find(hash, |&value| is(value)).copied(),
            Index::Large(table) => table.probe(hash, is).ok(),
        }
    }

    /// The value with this hash that `is` recognises; if there is none, stores `value` and
    /// returns `None`. The index must not be [full](Index::is_full); `rehash` gives a stored
    /// value's hash.
    #[inline(always)]
    pub fn find_or_insert(
        &mut self,
        hash: u64,
        value: u32,
        is: impl Fn(u32) -> bool,
        rehash: impl Fn(u32) -> u64,
    ) -> Option<u32> {
        match self {
            Index::Small(table) => {
                // One probe both looks for the value and finds the slot for it.
                match table.entry(hash, |&other| is(other), |&other| rehash(other)) {
                    Entry::Occupied(seen) => Some(*seen.get()),
                    Entry::Vacant(slot) => {
                        slot.insert(value);
                        None
                    }
                }
            }
            Index::Large(table) => match table.probe(hash, is) {
                Ok(seen) => Some(seen),
                Err(at) => {
                    table.slots[at] = Slots::key(hash) | (u64::from(value) + 1);
                    None
                }
            },
        }
    }

    /// Removes `value`, stored under `hash`.
    pub fn remove(&mut self, hash: u64, value: u32) {
        match self {
            Index::Small(table) => {
                if let Ok(entry) = table.find_entry(hash, |&other| other == value) {
                    entry.remove();
                }
            }
            Index::Large(table) => table.remove(Slots::key(hash) | (u64::from(value) + 1)),
        }
    }

    /// Doubles a large index (a small one is rebuilt by its owner, who knows the hashes).
    pub fn grow_large(&mut self) {
        if let Index::Large(table) = self {
            table.grow();
        }
    }

    /// Makes room in a large index for `additional` more values beyond `len`.
    pub fn reserve(&mut self, len: usize, additional: usize) {
        if let Index::Large(table) = self {
            while len + additional > table.limit() && table.slots.len() < MAX_SLOTS {
                table.grow();
            }
        }
    }
}

/// The large index: open addressing over `u64` slots, each 0 when empty or else the state's
/// 32-bit key (from its hash) above its id plus one. A key's home slot is its top bits and
/// probing is linear, so a lookup reads one cache line of slots and, only when the whole key
/// matches, the state itself; the table is at most seven eighths full. Since a slot's key gives
/// its home, doubling the table moves slots without reading or hashing a single state.
pub(crate) struct Slots {
    slots: Vec<u64>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: usize,
    /// `32 - log2(slots.len())`: a key's home slot is the key shifted right by this.
    shift: u32,
}

impl Slots {
    /// A table for `len` values with room to grow, holding `entries` (hash, value).
    fn build(len: usize, entries: impl Iterator<Item = (u64, u32)>) -> Slots {
        let size = (len * 2).next_power_of_two().max(16);
        let mut table = Slots {
            slots: zeroed(size),
            mask: size - 1,
            shift: 32 - size.trailing_zeros(),
        };
        for (hash, value) in entries {
            table.place(Self::key(hash) | (u64::from(value) + 1));
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

    /// Removes a slot if it is stored, shifting back the slots after it that may move closer
    /// to their homes, so that no probe meets a gap before its key (no tombstones).
    fn remove(&mut self, slot: u64) {
        let mut hole = self.home(slot & !ID_BITS);
        while self.slots[hole] != slot {
            if self.slots[hole] == 0 {
                return;
            }
            hole = (hole + 1) & self.mask;
        }
        let mut at = (hole + 1) & self.mask;
        loop {
            let moving = self.slots[at];
            if moving == 0 {
                break;
            }
            // `moving` may fill the hole unless its home lies after the hole (cyclically).
            let home = self.home(moving & !ID_BITS);
            if at.wrapping_sub(home) & self.mask >= at.wrapping_sub(hole) & self.mask {
                self.slots[hole] = moving;
                hole = at;
            }
            at = (at + 1) & self.mask;
        }
        self.slots[hole] = 0;
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
            index: Index::with_capacity(capacity),
            states: Vec::with_capacity(capacity),
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Starts loading the slot where `hash` would be found, for a lookup or insert soon after
    /// (large sets only: a small one is in cache).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        self.index.prefetch(hash);
    }

    /// The id of `state`, if stored.
    #[inline]
    pub fn find(&self, state: &S) -> Option<u32> {
        self.find_hashed(hash_of(state), state)
    }

    #[inline]
    pub fn find_hashed(&self, hash: u64, state: &S) -> Option<u32> {
        let states = &self.states;
        self.index.find(hash, |id| states[id as usize] == *state)
    }

    /// Stores `state` (whose hash is `hash`) unless it is already there.
    #[inline]
    pub fn insert_hashed(&mut self, hash: u64, state: S) -> Insert {
        if self.index.is_full(self.states.len()) {
            self.grow();
        }
        let id = self.states.len() as u32;
        let states = &self.states;
        let is = |other: u32| states[other as usize] == state;
        let rehash = |other: u32| hash_of(&states[other as usize]);
        match self.index.find_or_insert(hash, id, is, rehash) {
            Some(seen) => Insert::Seen(seen),
            None => {
                self.states.push(state);
                Insert::New(id)
            }
        }
    }

    /// Appends `state` without indexing it, for an owner that keeps its own record of the
    /// states seen (a bit per [index](crate::Space::index)); returns its id. A set that takes states
    /// this way must not be searched or inserted into.
    #[inline]
    pub fn push_unindexed(&mut self, state: S) -> u32 {
        self.states.push(state);
        (self.states.len() - 1) as u32
    }

    /// Stores `state` unless it is already there.
    #[inline]
    pub fn insert(&mut self, state: S) -> Insert {
        self.insert_hashed(hash_of(&state), state)
    }

    /// Makes room for `additional` more states, so that a large table does not grow (and move
    /// its slots away from what was prefetched) while they are inserted.
    pub fn reserve(&mut self, additional: usize) {
        self.index.reserve(self.states.len(), additional);
    }

    /// Moves a small index to the large one now, whatever this set's size: for a set that is
    /// one shard of a store too large for the cache.
    pub fn make_large(&mut self) {
        if !self.index.is_large() {
            self.index = self.rebuilt(self.states.len(), true);
        }
    }

    /// An index of every stored state, in id order: small with room for `capacity`, or large.
    fn rebuilt(&self, capacity: usize, large: bool) -> Index {
        let entries =
            (self.states.iter().enumerate()).map(|(id, state)| (hash_of(state), id as u32));
        Index::build(entries, capacity, large)
    }

    /// Grows a full index. A small one is rebuilt by re-inserting the ids in order
    /// (hashbrown's own resize would re-hash them in slot order, visiting the states at
    /// random), or past [`LARGE_FROM`] states replaced by a large one. A small table of up to
    /// [`QUADRUPLE_BELOW`] entries quadruples, so that small searches re-hash less; a larger one
    /// doubles, which keeps its slots denser in cache.
    #[cold]
    fn grow(&mut self) {
        let Some(capacity) = self.index.small_capacity() else {
            return self.index.grow_large();
        };
        self.index = if self.states.len() >= LARGE_FROM {
            self.rebuilt(self.states.len(), true)
        } else {
            let factor = if capacity < QUADRUPLE_BELOW { 4 } else { 2 };
            self.rebuilt((capacity * factor).max(16), false)
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

/// States an arena has room for before it first grows: most small searches never re-hash, and
/// memory not yet written costs nothing. Measured in new processes: the 8-puzzle's
/// bidirectional search (about 8,000 states a side) 0.95 ms with room for 4,096 states, 0.80 ms
/// with 8,192; `frontier river family --stats` (50 expansions) reports 0.65-0.71 M expansions
/// a second instead of 1.05-1.14 M (about 73 us instead of 46 us), in a command that takes
/// 1.5 ms either way.
pub(crate) const ARENA_START: usize = 1 << 13;

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
        Self::with_capacity(ARENA_START)
    }

    /// An arena with room for `capacity` states before it first grows.
    pub fn with_capacity(capacity: usize) -> Self {
        Arena {
            set: StateSet::with_capacity(capacity),
            parents: Vec::with_capacity(capacity),
            moves: Vec::with_capacity(capacity),
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

    /// An arena without a hash index, for a search that knows which states are new (by a bit
    /// per [index](crate::Space::index)): states go in by [`Arena::push`] only.
    pub fn unindexed() -> Self {
        let mut arena = Self::with_capacity(0);
        arena.set.states.reserve(ARENA_START);
        arena.parents.reserve(ARENA_START);
        arena.moves.reserve(ARENA_START);
        arena
    }

    /// Appends a state known to be new, reached from `parent` by `mv`, or a root with `None`
    /// (roots first); returns its id. For [unindexed](Arena::unindexed) arenas.
    #[inline]
    pub fn push(&mut self, state: S, from: Option<(u32, M)>) -> u32 {
        let id = self.set.push_unindexed(state);
        match from {
            Some((parent, mv)) => {
                self.parents.push(parent);
                self.moves.push(mv);
            }
            None => {
                debug_assert_eq!(self.roots, id as usize);
                self.parents.push(NO_PARENT);
                self.roots += 1;
            }
        }
        id
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
        self.insert_hashed(hash_of(&state), state, parent, mv)
    }

    /// [`Arena::insert`] with the state's hash already computed (by a parallel worker).
    #[inline]
    pub fn insert_hashed(&mut self, hash: u64, state: S, parent: u32, mv: M) -> Insert {
        match self.insert_or_return_hashed(hash, state, parent, mv) {
            Ok(id) => Insert::New(id),
            Err((id, _)) => Insert::Seen(id),
        }
    }

    /// [`Arena::insert_hashed`] that gives the move back with the id of a state already stored,
    /// for a solver that may re-link it: `Ok(new id)` or `Err((seen id, mv))`; no move is
    /// cloned.
    #[inline]
    pub fn insert_or_return_hashed(
        &mut self,
        hash: u64,
        state: S,
        parent: u32,
        mv: M,
    ) -> Result<u32, (u32, M)> {
        match self.set.insert_hashed(hash, state) {
            Insert::New(id) => {
                self.parents.push(parent);
                self.moves.push(mv);
                Ok(id)
            }
            Insert::Seen(id) => Err((id, mv)),
        }
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
    fn both_index_kinds_find_what_they_hold_through_inserts_and_removals() {
        use std::collections::HashSet;
        // Values 0..400 under hashes that few values share (long clusters of equal keys) or
        // that most values share alone; inserted and removed at random against a model.
        for shared in [7u64, 1 << 40] {
            for large in [false, true] {
                let hash =
                    |value: u32| (u64::from(value) % shared).wrapping_mul(0xF1357AEA2E62A9C5);
                let mut index = Index::build(std::iter::empty(), 0, large);
                let mut held = HashSet::new();
                let mut seed = 0x2545_F491_4F6C_DD1Du64;
                for _ in 0..20_000 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let value = (seed % 400) as u32;
                    if held.contains(&value) {
                        if seed & (1 << 20) != 0 {
                            index.remove(hash(value), value);
                            held.remove(&value);
                        }
                    } else {
                        if index.is_full(held.len()) {
                            let entries = held.iter().map(|&v| (hash(v), v));
                            index = match index.small_capacity() {
                                Some(capacity) => Index::build(entries, 2 * capacity, false),
                                None => {
                                    index.grow_large();
                                    index
                                }
                            };
                        }
                        let fresh = index.find_or_insert(hash(value), value, |o| o == value, hash);
                        assert_eq!(fresh, None, "{value} was not held");
                        held.insert(value);
                    }
                    let probe = ((seed >> 32) % 400) as u32;
                    let found = index.find(hash(probe), |o| o == probe);
                    assert_eq!(found.is_some(), held.contains(&probe), "{probe}");
                }
                assert!(held
                    .iter()
                    .all(|&v| index.find(hash(v), |o| o == v) == Some(v)));
            }
        }
    }

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
    }
}
