//! What the engine's tests and benchmarks share: a way to run one space with and without its
//! perfect index, so that both strategies of `bfs` and `explore` meet the same oracles.

use frontier_search::{Cost, Reversible, Space};

/// A perfect index of a space's states, kept apart from its [`Space`] impl: the space itself
/// offers none (and is searched over a hash table), [`Indexed`] lends it to the engine.
pub trait Rank: Space {
    /// One more than the largest rank.
    fn bound(&self) -> u64;
    /// The rank of `state`: below [`Rank::bound`], and different for different states.
    fn rank(&self, state: &Self::State) -> u64;
    /// The state of rank `rank`, for [`Dense`]; `None` if the space cannot tell. (The
    /// benchmarks, which share this module, explore no space densely.)
    #[allow(dead_code)]
    fn unrank(&self, _rank: u64) -> Option<Self::State> {
        None
    }
}

/// A space over `P` that delegates everything to it and adds the index its [`Rank`] gives; with
/// `unranks`, the index's inverse too.
macro_rules! ranked {
    ($(#[$doc:meta])* $name:ident, unranks: $unranks:expr) => {
        $(#[$doc])*
        pub struct $name<'a, P>(pub &'a P);

        impl<P: Rank> Space for $name<'_, P> {
            type State = P::State;
            type Move = P::Move;

            fn start(&self) -> P::State {
                self.0.start()
            }

            fn is_goal(&self, state: &P::State) -> bool {
                self.0.is_goal(state)
            }

            fn successors(
                &self,
                state: &P::State,
                last: Option<&P::Move>,
                out: impl FnMut(P::Move, P::State),
            ) {
                self.0.successors(state, last, out)
            }

            fn step_cost(&self, from: &P::State, mv: &P::Move) -> Cost {
                self.0.step_cost(from, mv)
            }

            fn max_step_cost(&self) -> Option<Cost> {
                self.0.max_step_cost()
            }

            fn undirected(&self) -> bool {
                self.0.undirected()
            }

            fn weight(&self, state: &P::State) -> u64 {
                self.0.weight(state)
            }

            fn heuristic(&self, state: &P::State) -> Cost {
                self.0.heuristic(state)
            }

            fn index_bound(&self) -> Option<u64> {
                Some(self.0.bound())
            }

            fn index(&self, state: &P::State) -> u64 {
                self.0.rank(state)
            }

            fn state_at(&self, index: u64) -> Option<P::State> {
                if $unranks {
                    self.0.unrank(index)
                } else {
                    None
                }
            }
        }

        impl<P: Rank + Reversible> Reversible for $name<'_, P> {
            fn goals(&self) -> Vec<P::State> {
                self.0.goals()
            }

            fn predecessors(&self, state: &P::State, out: impl FnMut(P::Move, P::State)) {
                self.0.predecessors(state, out)
            }
        }
    };
}

ranked!(
    /// `P` with the index its [`Rank`] gives: `bfs` and `explore` over it take their indexed
    /// strategies where the bits fit.
    Indexed,
    unranks: false
);

ranked!(
    /// `P` with its index and the index's inverse ([`Rank::unrank`]): `explore` over it takes
    /// its dense strategy (two bits a rank, no state stored) where the array fits.
    #[allow(dead_code)]
    Dense,
    unranks: true
);
