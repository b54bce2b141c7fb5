//! What every position of a puzzle keeps, found from its generators alone: its pieces (the
//! points every move carries together), the parities of its permutations of points and of
//! pieces, and the twists of its pieces.
//!
//! These are the classic reasons a position cannot be reached (a corner torn apart, a single
//! twisted corner, two edges swapped): [`Invariants::broken_by`] names the first one a position
//! breaks, before the group's membership test settles what they leave open.

use std::fmt;

use crate::analysis::Unreachable;
use crate::perm::Perm;
use crate::prune::spread;

/// The most labellings of a piece's points tried in search of its orientation: all of them
/// for pieces of up to six points.
const MAX_LABELLINGS: usize = 120;
/// The most parity invariants searched for the simplest ones; past it, an echelon basis.
const MAX_SIMPLEST: usize = 12;
/// The largest pieces whose twists are looked for.
const MAX_TWISTED: usize = 16;

/// A permutation whose parity the invariants speak of: an orbit's points, or its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The points of the orbit (numbered from 1, in order of least point).
    Points(usize),
    /// The pieces of the orbit.
    Pieces(usize),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Points(orbit) => write!(f, "orbit {orbit}'s points"),
            Part::Pieces(orbit) => write!(f, "orbit {orbit}'s pieces"),
        }
    }
}

/// One rule that every position keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invariant {
    /// The parities of these permutations add up to even (one part: it is always even;
    /// two: they are equal).
    Parity(Vec<Part>),
    /// The twists of the orbit's pieces add up to a multiple of `modulus`.
    Twist {
        /// The orbit, from 1.
        orbit: usize,
        /// What the sum of twists is always a multiple of.
        modulus: u8,
    },
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invariant::Parity(parts) => match parts.as_slice() {
                [one] => write!(f, "{one} are always permuted evenly"),
                [a, b] => write!(f, "{a} and {b} are permuted with equal parity"),
                parts => {
                    let names: Vec<String> = parts.iter().map(Part::to_string).collect();
                    write!(f, "the parities of {} add up to even", names.join(", "))
                }
            },
            Invariant::Twist { orbit, modulus } => {
                write!(
                    f,
                    "the twists of orbit {orbit}'s pieces add up to a multiple of {modulus}"
                )
            }
        }
    }
}

/// One orbit's pieces and, where its pieces have one, their orientation.
#[derive(Clone, Debug)]
struct OrbitPieces {
    /// The pieces, each sorted, in order of least point; single points where the orbit has
    /// no coarser system of blocks.
    pieces: Vec<Vec<u8>>,
    /// Whether each move turns every piece as a rotation of its points' labels (`label`),
    /// and the modulus of the twists' sum it keeps (1: none).
    twist: Option<u8>,
}

/// The invariants of a group given by its generators.
#[derive(Clone, Debug)]
pub struct Invariants {
    orbits: Vec<OrbitPieces>,
    /// The orbit (index into `orbits`) and piece of each point; `usize::MAX` for a point no
    /// move moves.
    orbit_of: Vec<usize>,
    piece_of: Vec<usize>,
    /// Each point's place in its piece's cycle of labels, where the orbit has an orientation.
    label: Vec<u8>,
    /// Each orbit's points, and each point's place in that list.
    points: Vec<Vec<u8>>,
    place: Vec<usize>,
    /// The parts whose parities the rules speak of.
    parts: Vec<Part>,
    /// The generators' parity vectors over `parts`, in echelon form (each row's lowest bit is
    /// its pivot, unset in the rows after it).
    span: Vec<Vec<u64>>,
    /// The parity rules, simplest first.
    rules: Vec<Vec<u64>>,
}

impl Invariants {
    /// Finds the invariants of the group `generators` make on `degree` points, whose orbits
    /// of two or more points are `orbits`.
    pub fn new(degree: usize, generators: &[Perm], orbits: &[Vec<u8>]) -> Invariants {
        let mut orbit_of = vec![usize::MAX; degree];
        let mut piece_of = vec![usize::MAX; degree];
        let mut label = vec![0u8; degree];
        let mut found = Vec::with_capacity(orbits.len());
        for (i, orbit) in orbits.iter().enumerate() {
            // The finest block system in which the orbit's first point has company.
            let pieces = (spread(orbit, generators).1)
                .unwrap_or_else(|| orbit.iter().map(|&p| vec![p]).collect());
            for (k, piece) in pieces.iter().enumerate() {
                for &p in piece {
                    orbit_of[usize::from(p)] = i;
                    piece_of[usize::from(p)] = k;
                }
            }
            let twist = orientation(generators, &pieces, &piece_of, &mut label);
            found.push(OrbitPieces { pieces, twist });
        }
        let mut parts = Vec::new();
        for (i, orbit) in found.iter().enumerate() {
            parts.push(Part::Points(i + 1));
            if orbit.pieces.len() < orbits[i].len() {
                parts.push(Part::Pieces(i + 1));
            }
        }
        let mut place = vec![0usize; degree];
        for orbit in orbits {
            for (i, &p) in orbit.iter().enumerate() {
                place[usize::from(p)] = i;
            }
        }
        let mut invariants = Invariants {
            orbits: found,
            orbit_of,
            piece_of,
            label,
            points: orbits.to_vec(),
            place,
            parts,
            span: Vec::new(),
            rules: Vec::new(),
        };
        for g in generators {
            let parities = invariants.parities(g);
            insert(&mut invariants.span, parities);
        }
        invariants.rules = simplest_rules(&invariants.span, &invariants.parts);
        invariants
    }

    /// Each orbit's pieces (in the order of the orbits given to [`Invariants::new`]): the
    /// points every move carries together, each piece sorted; single points where the orbit
    /// has no coarser system of blocks.
    pub fn pieces(&self) -> impl Iterator<Item = &[Vec<u8>]> + '_ {
        self.orbits.iter().map(|o| o.pieces.as_slice())
    }

    /// Every rule that each position keeps: parity rules (simplest first), then the twists.
    pub fn rules(&self) -> Vec<Invariant> {
        let mut rules: Vec<Invariant> = (self.rules.iter())
            .map(|rule| Invariant::Parity(self.parts_of(rule)))
            .collect();
        for (i, orbit) in self.orbits.iter().enumerate() {
            if let Some(modulus) = orbit.twist.filter(|&m| m > 1) {
                rules.push(Invariant::Twist {
                    orbit: i + 1,
                    modulus,
                });
            }
        }
        rules
    }

    /// The first of these invariants `position` breaks, if any. The position must keep every
    /// orbit (the caller checks that first).
    pub fn broken_by(&self, position: &Perm) -> Option<Unreachable> {
        for orbit in &self.orbits {
            for piece in &orbit.pieces {
                let target = self.piece_at(position.image(piece[0]));
                if piece
                    .iter()
                    .any(|&p| self.piece_at(position.image(p)) != target)
                {
                    return Some(Unreachable::Piece {
                        piece: piece.iter().map(|&p| usize::from(p) + 1).collect(),
                        to: piece
                            .iter()
                            .map(|&p| usize::from(position.image(p)) + 1)
                            .collect(),
                    });
                }
            }
        }
        for (i, orbit) in self.orbits.iter().enumerate() {
            let Some(modulus) = orbit.twist else {
                continue;
            };
            let size = orbit.pieces[0].len() as u8;
            let mut sum = 0u32;
            for piece in &orbit.pieces {
                let Some(turn) = self.turn(position, piece, size) else {
                    return Some(Unreachable::Mirrored {
                        piece: piece.iter().map(|&p| usize::from(p) + 1).collect(),
                    });
                };
                sum += u32::from(turn);
            }
            let sum = (sum % u32::from(size)) as u8;
            if modulus > 1 && !sum.is_multiple_of(modulus) {
                return Some(Unreachable::Twist {
                    orbit: i + 1,
                    sum,
                    size,
                    modulus,
                });
            }
        }
        let parities = self.parities(position);
        let broken = self.rules.iter().find(|rule| dot(rule, &parities))?;
        Some(Unreachable::Parities {
            rule: Invariant::Parity(self.parts_of(broken)).to_string(),
        })
    }

    /// The piece (orbit and index) at point `p`.
    fn piece_at(&self, p: u8) -> (usize, usize) {
        (self.orbit_of[usize::from(p)], self.piece_of[usize::from(p)])
    }

    /// How far `perm` turns `piece` (whose orbit has an orientation with pieces of `size`
    /// points): the shift of labels it makes, or `None` if it is not a rotation of them.
    fn turn(&self, perm: &Perm, piece: &[u8], size: u8) -> Option<u8> {
        let label = |p: u8| self.label[usize::from(p)];
        let first = piece[0];
        let turn = (label(perm.image(first)) + size - label(first)) % size;
        piece
            .iter()
            .all(|&p| label(perm.image(p)) == (label(p) + turn) % size)
            .then_some(turn)
    }

    /// `perm`'s parity on each of `parts`, one bit each (1: odd). `perm` keeps every orbit and
    /// carries pieces to pieces.
    fn parities(&self, perm: &Perm) -> Vec<u64> {
        let mut bits = vec![0u64; self.parts.len().div_ceil(64)];
        for (k, part) in self.parts.iter().enumerate() {
            let odd = match *part {
                Part::Points(orbit) => {
                    let points = &self.points[orbit - 1];
                    odd_on(points.len(), |i| {
                        self.place[usize::from(perm.image(points[i]))]
                    })
                }
                Part::Pieces(orbit) => {
                    let pieces = &self.orbits[orbit - 1].pieces;
                    odd_on(pieces.len(), |k| {
                        self.piece_of[usize::from(perm.image(pieces[k][0]))]
                    })
                }
            };
            if odd {
                bits[k / 64] |= 1 << (k % 64);
            }
        }
        bits
    }

    /// The parts a rule's bits name.
    fn parts_of(&self, rule: &[u64]) -> Vec<Part> {
        (0..self.parts.len())
            .filter(|&k| bit(rule, k))
            .map(|k| self.parts[k])
            .collect()
    }
}

/// Labels each piece's points `0..size` so that every generator turns every piece as a
/// rotation of labels, if some labelling does (writing `label`); returns the modulus that the
/// generators' sums of turns over the pieces generate, or `None` without an orientation.
fn orientation(
    generators: &[Perm],
    pieces: &[Vec<u8>],
    piece_of: &[usize],
    label: &mut [u8],
) -> Option<u8> {
    let size = pieces[0].len();
    if !(2..=MAX_TWISTED).contains(&size) {
        return None;
    }
    let mut first: Vec<u8> = (0..size as u8).collect();
    for _ in 0..MAX_LABELLINGS {
        if let Some(modulus) = try_labelling(generators, pieces, piece_of, &first, label) {
            return Some(modulus);
        }
        // The next labelling of the first piece, its first point kept at 0.
        if !next_permutation(&mut first[1..]) {
            break;
        }
    }
    None
}

/// One attempt of [`orientation`]: the first piece labelled `first`, the labels carried to
/// every other piece along the generators, then every generator checked to rotate them.
fn try_labelling(
    generators: &[Perm],
    pieces: &[Vec<u8>],
    piece_of: &[usize],
    first: &[u8],
    label: &mut [u8],
) -> Option<u8> {
    let size = first.len() as u8;
    let mut done = vec![false; pieces.len()];
    for (&p, &l) in pieces[0].iter().zip(first) {
        label[usize::from(p)] = l;
    }
    done[0] = true;
    let mut queue = vec![0usize];
    while let Some(k) = queue.pop() {
        for g in generators {
            let to = piece_of[usize::from(g.image(pieces[k][0]))];
            if !done[to] {
                for &p in &pieces[k] {
                    label[usize::from(g.image(p))] = label[usize::from(p)];
                }
                done[to] = true;
                queue.push(to);
            }
        }
    }
    let mut modulus = u32::from(size);
    for g in generators {
        let mut sum = 0u32;
        for piece in pieces {
            let turn = (label[usize::from(g.image(piece[0]))] + size
                - label[usize::from(piece[0])])
                % size;
            let rotates = piece
                .iter()
                .all(|&p| label[usize::from(g.image(p))] == (label[usize::from(p)] + turn) % size);
            if !rotates {
                return None;
            }
            sum += u32::from(turn);
        }
        modulus = gcd(modulus, sum % u32::from(size));
    }
    Some(modulus as u8)
}

/// Steps `items` to the next permutation in lexicographic order; false after the last.
fn next_permutation(items: &mut [u8]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .expect("a larger item follows");
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Whether the permutation `image` of `0..n` is odd.
fn odd_on(n: usize, image: impl Fn(usize) -> usize) -> bool {
    let mut seen = vec![false; n];
    let mut even_cycles = 0;
    for start in 0..n {
        let mut len = 0;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = image(i);
            len += 1;
        }
        if len > 0 && len % 2 == 0 {
            even_cycles += 1;
        }
    }
    even_cycles % 2 == 1
}

fn bit(bits: &[u64], k: usize) -> bool {
    bits[k / 64] >> (k % 64) & 1 == 1
}

fn lowest(bits: &[u64]) -> Option<usize> {
    (bits.iter().enumerate())
        .find(|(_, &w)| w != 0)
        .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

fn xor(into: &mut [u64], other: &[u64]) {
    for (a, b) in into.iter_mut().zip(other) {
        *a ^= b;
    }
}

/// The odd number of shared parts: whether the parities `x` break the rule `rule`.
fn dot(rule: &[u64], x: &[u64]) -> bool {
    rule.iter()
        .zip(x)
        .map(|(a, b)| (a & b).count_ones())
        .sum::<u32>()
        % 2
        == 1
}

/// `x` reduced by the echelon rows of `span`.
fn reduce(span: &[Vec<u64>], mut x: Vec<u64>) -> Vec<u64> {
    for row in span {
        if let Some(pivot) = lowest(row) {
            if bit(&x, pivot) {
                xor(&mut x, row);
            }
        }
    }
    x
}

/// Adds `x` to the echelon rows of `span` if it is not already in their span.
fn insert(span: &mut Vec<Vec<u64>>, x: Vec<u64>) {
    let x = reduce(span, x);
    let Some(pivot) = lowest(&x) else {
        return;
    };
    // Keep the echelon form: clear the new pivot from the rows before.
    for row in span.iter_mut() {
        if bit(row, pivot) {
            xor(row, &x);
        }
    }
    span.push(x);
    span.sort_by_key(|row| lowest(row));
}

/// A basis of the parity rules: the vectors orthogonal to every row of `span`, of `parts`
/// bits each, the fewest parts first (of equal sizes, those naming pieces rather than points
/// first, as the more familiar).
fn simplest_rules(span: &[Vec<u64>], parts: &[Part]) -> Vec<Vec<u64>> {
    let words = parts.len().div_ceil(64);
    // The span is in reduced echelon form: each part that is no row's pivot gives one rule,
    // itself plus the pivots of the rows holding it.
    let pivots: Vec<usize> = span.iter().filter_map(|row| lowest(row)).collect();
    let mut basis: Vec<Vec<u64>> = Vec::new();
    for free in (0..parts.len()).filter(|k| !pivots.contains(k)) {
        let mut rule = vec![0u64; words];
        rule[free / 64] |= 1 << (free % 64);
        for (row, &pivot) in span.iter().zip(&pivots) {
            if bit(row, free) {
                rule[pivot / 64] |= 1 << (pivot % 64);
            }
        }
        basis.push(rule);
    }
    if basis.len() > MAX_SIMPLEST {
        return basis;
    }
    // Every rule, simplest first, kept where it is independent of those kept before.
    let mut all: Vec<Vec<u64>> = (1u32..1 << basis.len())
        .map(|mask| {
            let mut rule = vec![0u64; words];
            for (k, b) in basis.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    xor(&mut rule, b);
                }
            }
            rule
        })
        .collect();
    all.sort_by_key(|rule| {
        let named = (0..parts.len()).filter(|&k| bit(rule, k));
        let points = named
            .clone()
            .filter(|&k| matches!(parts[k], Part::Points(_)));
        (named.count(), points.count(), rule.clone())
    });
    let mut kept: Vec<Vec<u64>> = Vec::new();
    let mut echelon: Vec<Vec<u64>> = Vec::new();
    for rule in all {
        if lowest(&reduce(&echelon, rule.clone())).is_some() {
            insert(&mut echelon, rule.clone());
            kept.push(rule);
        }
    }
    kept
}
