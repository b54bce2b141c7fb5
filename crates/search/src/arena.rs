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

/// Seen states in insertion order, indexed by a hash table of `u32` ids.
///
/// The table holds only ids into `states`, so each state is stored exactly once, and a BFS
/// frontier is just a range of ids: no separate queue. (Keeping hash bits beside each id was
/// measured: it made growing cheaper but every lookup slower, 20% slower overall.)
pub(crate) struct StateSet<S> {
    table: HashTable<u32>,
    hasher: FxBuildHasher,
    pub states: Vec<S>,
}

impl<S: Hash + Eq> StateSet<S> {
    pub fn new() -> Self {
        StateSet {
            table: HashTable::new(),
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

    /// The id of `state`, if stored.
    #[inline]
    pub fn find(&self, state: &S) -> Option<u32> {
        self.find_hashed(self.hash(state), state)
    }

    #[inline]
    pub fn find_hashed(&self, hash: u64, state: &S) -> Option<u32> {
        let states = &self.states;
        self.table
            .find(hash, |&id| states[id as usize] == *state)
            .copied()
    }

    /// Stores `state` (whose hash is `hash`) unless it is already there.
    #[inline]
    pub fn insert_hashed(&mut self, hash: u64, state: S) -> Insert {
        if self.table.len() == self.table.capacity() {
            self.grow();
        }
        let id = self.states.len() as u32;
        let states = &self.states;
        let hasher = &self.hasher;
        // One probe both looks for the state and finds the slot for it.
        match self.table.entry(
            hash,
            |&other| states[other as usize] == state,
            |&other| hasher.hash_one(&states[other as usize]),
        ) {
            Entry::Occupied(seen) => Insert::Seen(*seen.get()),
            Entry::Vacant(slot) => {
                slot.insert(id);
                self.states.push(state);
                Insert::New(id)
            }
        }
    }

    /// Stores `state` unless it is already there.
    #[inline]
    pub fn insert(&mut self, state: S) -> Insert {
        self.insert_hashed(self.hash(&state), state)
    }

    /// Forgets every state, keeping the memory for reuse.
    pub fn clear(&mut self) {
        self.table.clear();
        self.states.clear();
    }

    /// Doubles the table by re-inserting the ids in order. The table would grow by itself, but
    /// it would re-hash its entries in slot order, visiting the states at random; in id order
    /// the states are read front to back (measured: a third faster on large sets).
    #[cold]
    fn grow(&mut self) {
        let mut table = HashTable::with_capacity((self.table.capacity() * 2).max(16));
        for (id, state) in self.states.iter().enumerate() {
            let hash = self.hasher.hash_one(state);
            // Capacity is reserved, so the re-hash closure is never called.
            table.insert_unique(hash, id as u32, |_| hash);
        }
        self.table = table;
    }
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
