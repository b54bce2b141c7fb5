//! The problem side of the engine: what a search space must say about itself.

/// The cost of a step or of a whole path. Every step costs 1 unless a space says otherwise.
/// A path's cost is summed with saturation: one that would pass `u64::MAX` costs `u64::MAX`
/// (the solvers then can no longer tell such paths apart, but never wrap around or panic).
pub type Cost = u64;

/// The indexes of a block that [`Space::index_shifts`] moves as one: those of a word of the
/// dense strategy's array, two bits an index.
pub const SHIFT_BLOCK: u64 = 32;

/// A search problem: a start state, a goal test, and transitions labelled with moves.
///
/// This is the seed's `SearchSpace` class in Rust. Optional parts have defaults: every step costs
/// 1 ([`Space::step_cost`]) and the heuristic is 0 ([`Space::heuristic`]), which is admissible for
/// any space.
///
/// Successors are handed to a callback instead of being returned in a collection, so a solver's
/// inner loop allocates nothing. Keep states small: a `Copy` integer encoding makes every solver
/// faster and every stored state cheaper.
///
/// # Example
///
/// ```
/// use frontier_search::{bfs, Config, Space, Status};
///
/// /// Reach `target` from 1 by doubling or adding one.
/// struct Doubling { target: u32 }
///
/// impl Space for Doubling {
///     type State = u32;
///     type Move = &'static str;
///     fn start(&self) -> u32 { 1 }
///     fn is_goal(&self, n: &u32) -> bool { *n == self.target }
///     fn successors(&self, n: &u32, _last: Option<&Self::Move>, mut out: impl FnMut(Self::Move, u32)) {
///         if *n < self.target { out("+1", n + 1); out("*2", n * 2); }
///     }
/// }
///
/// let outcome = bfs(&Doubling { target: 10 }, &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// assert_eq!(outcome.into_solution().unwrap().moves, ["+1", "*2", "+1", "*2"]);
/// ```
pub trait Space {
    /// One configuration of the problem.
    type State: Clone;
    /// The label of a transition, reported in solutions.
    type Move: Clone;

    /// The state the search starts from.
    fn start(&self) -> Self::State;

    /// Whether `state` solves the problem.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// Calls `out(move, next)` for every transition out of `state`.
    ///
    /// `last` is the move that produced `state` when the solver follows a single path (the tree
    /// searches `iddfs`, `idastar`); a space may skip moves that are redundant after it, such as
    /// turning the same cube face twice, as long as every state keeps some shortest path that
    /// survives the pruning. Solvers with a seen-set pass `None`.
    fn successors(
        &self,
        state: &Self::State,
        last: Option<&Self::Move>,
        out: impl FnMut(Self::Move, Self::State),
    );

    /// The cost of playing `mv` in `from`; 1 unless overridden. Free moves (cost 0) are allowed:
    /// `ucs`, `astar` and `idastar` still return a cheapest path. But an endless run of free
    /// moves on an infinite space holds `idastar` (a depth-first search within a cost bound)
    /// for ever: give it `max_depth`, `max_states` or a timeout, or use `ucs` or `astar`.
    /// Path costs saturate at `Cost::MAX` (see [`Cost`]).
    fn step_cost(&self, _from: &Self::State, _mv: &Self::Move) -> Cost {
        1
    }

    /// The most any single step may cost, if the space knows it; `None` (unknown) unless
    /// overridden. A space whose moves all cost 1 says `Some(1)`.
    ///
    /// [`crate::idastar`] under a depth limit `d` uses it to stop: once an iteration's bound
    /// reaches `d` times this cost, every path within the limit has been searched (given an
    /// admissible heuristic), and a deeper bound could only re-search them. Without it, each
    /// later iteration searches the whole tree within the limit again, up to a bound that
    /// covers every path in it. Claiming less than some step costs can end the search with
    /// `Limit(Depth)` when a solution lies within the limit.
    ///
    /// ```
    /// use frontier_search::{idastar, Config, Limit, Space, Status};
    ///
    /// /// Counting up by one, with no end: the goal, 40, lies beyond a depth limit of 10.
    /// struct Count;
    /// impl Space for Count {
    ///     type State = u32;
    ///     type Move = ();
    ///     fn start(&self) -> u32 { 0 }
    ///     fn is_goal(&self, n: &u32) -> bool { *n == 40 }
    ///     fn successors(&self, n: &u32, _: Option<&()>, mut out: impl FnMut((), u32)) {
    ///         out((), n + 1);
    ///         out((), n + 2);
    ///     }
    ///     fn max_step_cost(&self) -> Option<u64> { Some(1) }
    /// }
    ///
    /// let outcome = idastar(&Count, &Config::default().max_depth(10));
    /// assert_eq!(outcome.status(), Status::Limit(Limit::Depth));
    /// ```
    fn max_step_cost(&self) -> Option<Cost> {
        None
    }

    /// Whether every move can be undone: whenever `next` is a successor of `state`, `state` is
    /// a successor of `next` (the graph is undirected, as in sliding tiles or the cube). Then a
    /// successor of a state at distance `d` lies at `d - 1`, `d` or `d + 1`, and [`crate::explore`]
    /// keeps only those three layers instead of every state seen (frontier search). Default
    /// `false`; claiming it for a space where it does not hold makes `explore` count wrongly,
    /// or, on a directed cycle, count new layers for ever (only `max_depth` or a timeout then
    /// stops it, since it stores no more than three layers).
    fn undirected(&self) -> bool {
        false
    }

    /// How many states of the problem `state` stands for; 1 unless overridden. A space that
    /// searches over classes of equivalent states (under a symmetry that keeps distances, say)
    /// gives each class its size, and [`crate::explore`] counts the states of the problem, not
    /// the classes. `explore` weighs each state once, when it first stores it, within the work
    /// its limits watch: a slow weight is no reason for a late stop.
    ///
    /// ```
    /// use frontier_search::{explore, Config, Space};
    ///
    /// /// The integers -5..=5, one step at a time, explored as |n|: n and -n are as far from 0.
    /// struct Mirrored;
    /// impl Space for Mirrored {
    ///     type State = u8;
    ///     type Move = ();
    ///     fn start(&self) -> u8 { 0 }
    ///     fn is_goal(&self, _: &u8) -> bool { false }
    ///     fn successors(&self, n: &u8, _: Option<&()>, mut out: impl FnMut((), u8)) {
    ///         if *n < 5 { out((), n + 1); }
    ///         if *n > 0 { out((), n - 1); }
    ///     }
    ///     fn weight(&self, n: &u8) -> u64 { if *n == 0 { 1 } else { 2 } }
    /// }
    ///
    /// assert_eq!(explore(&Mirrored, &Config::default()).layers, [1, 2, 2, 2, 2, 2]);
    /// ```
    fn weight(&self, _state: &Self::State) -> u64 {
        1
    }

    /// An estimate of the cheapest cost from `state` to a goal, used by `astar` and `idastar`.
    /// They return a cheapest solution when it never overestimates (is admissible). Default 0.
    /// [`Cost::MAX`] says that no goal can be reached from `state`: `idastar` then never goes
    /// there, and `astar` goes there last.
    fn heuristic(&self, _state: &Self::State) -> Cost {
        0
    }

    /// One more than the largest perfect index of a state, if the space has one: distinct
    /// numbers below this bound, as a permutation has its rank ([`Space::index`]). `None`
    /// (the default) says there is none. With one, [`crate::bfs`] and [`crate::explore`] mark
    /// each state seen as one bit of an array of `index_bound` bits instead of storing it in a
    /// hash table, when the bits fit the state budget (and for `bfs`, on one thread).
    ///
    /// ```
    /// use frontier_search::{explore, Config, Space};
    ///
    /// /// The states 0..100 of a ring, one step either way; a state is its own index.
    /// struct Ring;
    /// impl Space for Ring {
    ///     type State = u32;
    ///     type Move = ();
    ///     fn start(&self) -> u32 { 0 }
    ///     fn is_goal(&self, _: &u32) -> bool { false }
    ///     fn successors(&self, n: &u32, _: Option<&()>, mut out: impl FnMut((), u32)) {
    ///         out((), (n + 1) % 100);
    ///         out((), (n + 99) % 100);
    ///     }
    ///     fn index_bound(&self) -> Option<u64> { Some(100) }
    ///     fn index(&self, n: &u32) -> u64 { u64::from(*n) }
    /// }
    ///
    /// let exploration = explore(&Ring, &Config::default());
    /// assert_eq!(exploration.states(), 100);
    /// assert_eq!(exploration.layers.len(), 51);
    /// ```
    fn index_bound(&self) -> Option<u64> {
        None
    }

    /// The index of `state`: below [`Space::index_bound`], and different for different states
    /// reachable from the start (the only ones a search asks for: a space may number only
    /// those, as the sliding tiles number the half of their arrangements a layout reaches).
    /// Called only when `index_bound` is `Some`; a space that gives a bound must override it.
    /// Two states with the same index would be counted as one; an index at or past the bound
    /// panics, as does the default, which has no index to give.
    fn index(&self, _state: &Self::State) -> u64 {
        panic!("Space::index_bound gave a bound, but Space::index is not overridden")
    }

    /// The state whose [index](Space::index) is `index`: the inverse of `index`, if the space
    /// can give it; `None` (the default) says it cannot. Asked only for the indexes of states
    /// the search reached. With it, [`crate::explore`] keeps no states at all: two bits an
    /// index (a quarter of `index_bound` bytes, when that fits the state budget), and each
    /// layer expanded from its indexes on every [thread](crate::Config::threads). A space
    /// that gives a state here must give every reached index's state (the engine checks the
    /// start's).
    ///
    /// ```
    /// use frontier_search::{explore, Config, Space};
    ///
    /// /// The states 0..1000 of a ring, one step either way; a state is its own index.
    /// struct Ring;
    /// impl Space for Ring {
    ///     type State = u32;
    ///     type Move = ();
    ///     fn start(&self) -> u32 { 0 }
    ///     fn is_goal(&self, _: &u32) -> bool { false }
    ///     fn successors(&self, n: &u32, _: Option<&()>, mut out: impl FnMut((), u32)) {
    ///         out((), (n + 1) % 1000);
    ///         out((), (n + 999) % 1000);
    ///     }
    ///     fn index_bound(&self) -> Option<u64> { Some(1000) }
    ///     fn index(&self, n: &u32) -> u64 { u64::from(*n) }
    ///     fn state_at(&self, index: u64) -> Option<u32> { u32::try_from(index).ok() }
    /// }
    ///
    /// let exploration = explore(&Ring, &Config::default().threads(2));
    /// assert_eq!(exploration.states(), 1000);
    /// assert_eq!(exploration.layers.len(), 501);
    /// ```
    fn state_at(&self, _index: u64) -> Option<Self::State> {
        None
    }

    /// Calls `out(index, next)` for every successor `next` of the state of index `index`, with
    /// `next`'s index: how [`crate::explore`]'s dense strategy expands a state. By default
    /// [`Space::state_at`], then [`Space::successors`] and [`Space::index`] of each; a space
    /// that can tell a successor's index from its parent's faster than from scratch (as a slide
    /// of the tiles changes a few digits of a rank) overrides it. Asked only for the indexes
    /// of states the search reached.
    ///
    /// # Panics
    ///
    /// By default, if `state_at` gives no state for `index`.
    fn indexed_successors(&self, index: u64, mut out: impl FnMut(u64, Self::State)) {
        let Some(state) = self.state_at(index) else {
            panic!("Space::state_at gave no state for index {index}, which the search reached")
        };
        self.successors(&state, None, |_, next| out(self.index(&next), next));
    }

    /// Whether [`Space::state_at`] gives a state for every index below the bound, reached or
    /// not (as a rank that numbers exactly the arrangements of some pieces does). With it and
    /// [`Space::undirected`], the dense strategy finds its late layers backwards: once the
    /// indexes left are fewer than a layer's states, each index left looks for a neighbour in
    /// the layer ([`Space::indexed_successor_where`]), and the states of the layer are never
    /// expanded. Default `false`: `state_at` is then asked only for reached indexes.
    fn every_index_a_state(&self) -> bool {
        false
    }

    /// Whether some successor of the state of index `index` has an index for which `test`
    /// holds; a space may stop at the first one (`test` need not be asked about the others).
    /// By default [`Space::indexed_successors`], every successor asked about until one passes.
    /// Asked, by the dense strategy's backward layers, only of spaces whose
    /// [`Space::every_index_a_state`] says so.
    fn indexed_successor_where(&self, index: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let mut found = false;
        self.indexed_successors(index, |next, _| found = found || test(next));
        found
    }

    /// [`Space::indexed_successors`] of each index of `run` in turn: how the dense strategy
    /// expands a stretch of one layer (indexes of reached states, ascending). A space whose
    /// neighbouring indexes share work (the leading digits of a rank, say) overrides it to do
    /// that work once for the run.
    fn indexed_successors_of_run(&self, run: &[u64], mut out: impl FnMut(u64, Self::State)) {
        for &index in run {
            self.indexed_successors(index, &mut out);
        }
    }

    /// The moves that take a whole block of [`SHIFT_BLOCK`] indexes (from a multiple of it)
    /// to another such block, each index to the same place in it: calls `out(to)` for each,
    /// `to` the first index of the block the one from `first` goes to, so that the successor
    /// of index `first + j` by that move is `to + j` for every `j` whose index stands for a
    /// state. The dense strategy then marks a block's successors by these moves a word at a
    /// time, with weight 1 each, and asks [`Space::indexed_unshifted_successors_of_run`] for
    /// the rest. A space offers shifts only if every state weighs 1 ([`Space::weight`]). None
    /// by default.
    fn index_shifts(&self, _first: u64, _out: impl FnMut(u64)) {}

    /// [`Space::indexed_successors_of_run`] without the successors that
    /// [`Space::index_shifts`] gives: each index's other successors. By default (no shifts),
    /// all of them.
    fn indexed_unshifted_successors_of_run(&self, run: &[u64], out: impl FnMut(u64, Self::State)) {
        self.indexed_successors_of_run(run, out);
    }
}

/// A space that can also be searched backwards from its goals, as [`crate::bidirectional`] does.
pub trait Reversible: Space {
    /// Every goal state: the backward search starts from all of them at once. They must be
    /// exactly the states [`Space::is_goal`] accepts: a goal left out is never found (the
    /// search may then call the space unsolvable), and a listed state that `is_goal` refuses
    /// is dropped.
    fn goals(&self) -> Vec<Self::State>;

    /// Calls `out(move, prev)` for every transition `prev --move--> state`.
    fn predecessors(&self, state: &Self::State, out: impl FnMut(Self::Move, Self::State));
}

/// A state written as a fixed number of 64-bit words, and read back: how a state travels
/// from one worker of a distributed exploration to another (frontier-distributed shares out
/// a space without a rank by a hash of these words, so they must be the same for a state on
/// every machine). The unsigned integers have it; a domain gives its packed states.
///
/// ```
/// use frontier_search::Words;
///
/// let mut words = Vec::new();
/// (u128::MAX - 5).put(&mut words);
/// assert_eq!(words.len(), u128::WORDS);
/// assert_eq!(u128::take(&words), u128::MAX - 5);
/// ```
pub trait Words: Sized {
    /// The words a state takes.
    const WORDS: usize;

    /// Appends the state's [`Words::WORDS`] words to `out`.
    fn put(&self, out: &mut Vec<u64>);

    /// The state whose words [`Words::put`] wrote: `words` holds exactly [`Words::WORDS`].
    fn take(words: &[u64]) -> Self;
}

/// The integers of at most 64 bits: one word, the value.
macro_rules! one_word {
    ($($t:ty),*) => {$(
        impl Words for $t {
            const WORDS: usize = 1;
            #[inline]
            fn put(&self, out: &mut Vec<u64>) {
                out.push(u64::from(*self));
            }
            /// The low bits of the word: the value `put` wrote.
            #[inline]
            fn take(words: &[u64]) -> Self {
                words[0] as $t
            }
        }
    )*};
}

one_word!(u8, u16, u32, u64);

impl Words for u128 {
    const WORDS: usize = 2;
    /// The low word first.
    #[inline]
    fn put(&self, out: &mut Vec<u64>) {
        out.extend([*self as u64, (*self >> 64) as u64]);
    }
    #[inline]
    fn take(words: &[u64]) -> Self {
        u128::from(words[0]) | u128::from(words[1]) << 64
    }
}

impl<const N: usize> Words for [u64; N] {
    const WORDS: usize = N;
    #[inline]
    fn put(&self, out: &mut Vec<u64>) {
        out.extend_from_slice(self);
    }
    #[inline]
    fn take(words: &[u64]) -> Self {
        let mut state = [0; N];
        state.copy_from_slice(&words[..N]);
        state
    }
}
