//! What the group says about a puzzle: its order, its states, its orbits and invariants, and
//! why a position cannot be reached.

use num_bigint::BigUint;
use thiserror::Error;

use crate::group::{orbits, Group};
use crate::invariants::Invariants;
use crate::perm::Perm;
use crate::puzzle::Puzzle;

/// The most nodes the search for the elements that keep the colouring may visit.
const COLOUR_SEARCH: u64 = 1 << 24;

/// A puzzle's group, analysed.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The group (its stabiliser chain).
    pub group: Group,
    /// The group's order.
    pub order: BigUint,
    /// The states the colouring tells apart: the order divided by the number of elements
    /// that keep every point's colour; `None` if that search was too long.
    pub states: Option<BigUint>,
    /// The orbits of the points the generators move, each sorted, in order of least point.
    pub orbits: Vec<Vec<u8>>,
    /// Whether every generator is an even permutation (then so is every position).
    pub even: bool,
    /// The pieces of each orbit and the rules (parities, twists) every position keeps.
    pub invariants: Invariants,
}

impl Analysis {
    /// Analyses `puzzle`'s group.
    pub fn of(puzzle: &Puzzle) -> Analysis {
        let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
        let group = puzzle.group().clone();
        let order = group.order();
        let states = if puzzle.is_coloured() {
            group
                .colour_stabiliser_order(puzzle.colours(), COLOUR_SEARCH)
                .map(|kept| &order / kept)
        } else {
            Some(order.clone())
        };
        let orbits: Vec<Vec<u8>> = orbits(puzzle.points(), &gens)
            .into_iter()
            .filter(|o| o.len() > 1)
            .collect();
        let invariants = Invariants::new(puzzle.points(), &gens, &orbits);
        Analysis {
            invariants,
            group,
            order,
            states,
            orbits,
            even: gens.iter().all(Perm::is_even),
        }
    }

    /// Why `position` cannot be reached from the solved state, if it cannot: decided by
    /// membership in the group, with the simplest reason found first.
    pub fn unreachable(&self, position: &Perm) -> Option<Unreachable> {
        let mut orbit_of = vec![usize::MAX; position.degree()];
        for (i, orbit) in self.orbits.iter().enumerate() {
            for &p in orbit {
                orbit_of[usize::from(p)] = i;
            }
        }
        for p in 0..position.degree() {
            let q = usize::from(position.image(p as u8));
            if q != p && (orbit_of[p] == usize::MAX || orbit_of[p] != orbit_of[q]) {
                return Some(Unreachable::Orbit {
                    from: p + 1,
                    to: q + 1,
                });
            }
        }
        if self.even && !position.is_even() {
            return Some(Unreachable::Parity);
        }
        if let Some(why) = self.invariants.broken_by(position) {
            return Some(why);
        }
        (!self.group.contains(position)).then_some(Unreachable::NotInGroup)
    }
}

/// Why a position is outside the group.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Unreachable {
    /// A piece would leave its orbit.
    #[error("it takes the piece at point {from} to point {to}, which no sequence of moves can")]
    Orbit {
        /// The point, from 1.
        from: usize,
        /// Its image, from 1.
        to: usize,
    },
    /// An odd position where every move is even.
    #[error("it is an odd permutation, and every generator is even")]
    Parity,
    /// A piece torn apart: points that every move carries together sent to points of
    /// different pieces.
    #[error("it tears apart the piece at points {}: they go to {}, which no move keeps together", list(.piece), list(.to))]
    Piece {
        /// The piece's points, from 1.
        piece: Vec<usize>,
        /// Their images, from 1.
        to: Vec<usize>,
    },
    /// A piece turned in a way no move turns it (its points mirrored).
    #[error("it turns the piece at points {} over in a way no move can (a mirror image of it)", list(.piece))]
    Mirrored {
        /// The piece's points, from 1.
        piece: Vec<usize>,
    },
    /// The twists of an orbit's pieces add up to what no position has.
    #[error("the twists of orbit {orbit}'s pieces add up to {sum} (mod {size}), and every move keeps that sum a multiple of {modulus}")]
    Twist {
        /// The orbit, from 1, in order of least point.
        orbit: usize,
        /// The sum of the twists, modulo the pieces' size.
        sum: u8,
        /// The points of a piece.
        size: u8,
        /// What every position's sum is a multiple of.
        modulus: u8,
    },
    /// Parities of its permutations of points or pieces that break a rule every move keeps.
    #[error("it breaks a rule every move keeps: {rule}")]
    Parities {
        /// The rule, in words.
        rule: String,
    },
    /// Not a product of the generators, though it keeps every invariant above.
    #[error("it is not a product of the generators: it keeps its pieces whole, their twists and parities as the moves do, but fails to sift through the group's stabiliser chain")]
    NotInGroup,
}

/// Points as `1, 9, 35`.
fn list(points: &[usize]) -> String {
    let names: Vec<String> = points.iter().map(usize::to_string).collect();
    names.join(", ")
}
