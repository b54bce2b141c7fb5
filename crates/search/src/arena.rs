//! The store behind the graph searches: every seen state once, with its parent as an index.

use std::hash::{BuildHasher, Hash};

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

/// Spreads a hash over all 64 bits (Fibonacci hashing); a state's key is the top 32.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;
/// The fewest slots a set has.
const MIN_SLOTS: usize = 16;
/// The most slots a set has: every key bit is then a slot-number bit.
const MAX_SLOTS: usize = 1 << 32;
/// A slot's id half.
const ID_BITS: u64 = 0xffff_ffff;

/// Seen states in insertion order, indexed by an open-addressing table of ids.
///
/// Each slot is one `u64`: 0 when empty, else the state's 32-bit key (from its hash) above its
/// id plus one. A state's home slot is the top bits of its key, and probing is linear, so a
/// lookup reads one cache line of slots and, only when the whole key matches, the state
/// itself; the table is at most seven eighths full. Since the key in a slot gives the home,
/// doubling the table moves slots without reading or hashing a single state.
///
/// The table holds only ids into `states`, so each state is stored exactly once, and a BFS
/// frontier is just a range of ids: no separate queue. The solvers insert in batches and
/// [prefetch](StateSet::prefetch) the slots a few entries ahead, so the cache misses of a
/// large table overlap instead of following one another.
pub(crate) struct StateSet<S> {
    slots: Vec<u64>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: usize,
    /// `32 - log2(slots.len())`: a key's home slot is the key shifted right by this.
    shift: u32,
    hasher: FxBuildHasher,
    pub states: Vec<S>,
}

impl<S: Hash + Eq> StateSet<S> {
    pub fn new() -> Self {
        StateSet {
            slots: vec![0; MIN_SLOTS],
            mask: MIN_SLOTS - 1,
            shift: 32 - MIN_SLOTS.trailing_zeros(),
            hasher: FxBuildHasher,
            states: Vec::new(),
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

    /// Starts loading the slot where `hash` would be found, for a lookup or insert soon after.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        let home = self.home(Self::key(hash));
        prefetch(self.slots.as_ptr().wrapping_add(home));
    }

    /// The id of `state`, if stored.
    #[inline]
    pub fn find(&self, state: &S) -> Option<u32> {
        self.find_hashed(self.hash(state), state)
    }

    #[inline]
    pub fn find_hashed(&self, hash: u64, state: &S) -> Option<u32> {
        let key = Self::key(hash);
        let mut at = self.home(key);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return None;
            }
            if slot & !ID_BITS == key {
                let id = slot as u32 - 1;
                if self.states[id as usize] == *state {
                    return Some(id);
                }
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Stores `state` (whose hash is `hash`) unless it is already there.
    #[inline]
    pub fn insert_hashed(&mut self, hash: u64, state: S) -> Insert {
        if self.states.len() >= self.limit() {
            self.grow();
        }
        let key = Self::key(hash);
        let mut at = self.home(key);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                let id = self.states.len() as u32;
                self.slots[at] = key | (u64::from(id) + 1);
                self.states.push(state);
                return Insert::New(id);
            }
            if slot & !ID_BITS == key {
                let id = slot as u32 - 1;
                if self.states[id as usize] == state {
                    return Insert::Seen(id);
                }
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Stores `state` unless it is already there.
    #[inline]
    pub fn insert(&mut self, state: S) -> Insert {
        self.insert_hashed(self.hash(&state), state)
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

    /// Makes room for `additional` more states, so that the table does not grow (and move its
    /// slots away from what was prefetched) while they are inserted.
    pub fn reserve(&mut self, additional: usize) {
        while self.states.len() + additional > self.limit() && self.slots.len() < MAX_SLOTS {
            self.grow();
        }
    }

    /// Forgets every state, keeping the memory for reuse.
    pub fn clear(&mut self) {
        self.slots.fill(0);
        self.states.clear();
    }

    /// Doubles the table. The keys say where each slot goes, and old slots are visited in
    /// order, so the new table is written nearly front to back; no state is read.
    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = zeroed(size);
        let mask = size - 1;
        let shift = self.shift - 1;
        for &slot in self.slots.iter().filter(|&&slot| slot != 0) {
            let mut at = (slot >> 32 >> shift) as usize;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = slot;
        }
        self.slots = slots;
        self.mask = mask;
        self.shift = shift;
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
            set: StateSet::new(),
            parents: Vec::new(),
            moves: Vec::new(),
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
