//! Permutations of at most [`MAX_POINTS`] points, as image lists of bytes.

use std::fmt;

/// The most points a puzzle may have: a point is a byte.
pub const MAX_POINTS: usize = 255;

/// A permutation of the points `0..degree`, kept as its image list: point `p` goes to
/// `images()[p]` (GAP's `p^g`). Products follow GAP too: `a.then(&b)` applies `a` first.
///
/// Points are numbered from 0 here; the text forms (cycle notation, image lists) number them
/// from 1, as GAP does.
///
/// ```
/// use frontier_perm::Perm;
///
/// let a = Perm::from_cycles(4, &[vec![0, 1, 2]]).unwrap();
/// assert_eq!(a.images(), [1, 2, 0, 3]);
/// assert_eq!(a.to_string(), "(1,2,3)");
/// assert_eq!(a.then(&a).then(&a), Perm::identity(4));
/// assert_eq!(a.inverse(), a.pow(2));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Perm(Box<[u8]>);

impl Perm {
    /// The identity on `degree` points (at most [`MAX_POINTS`]).
    pub fn identity(degree: usize) -> Perm {
        debug_assert!(degree <= MAX_POINTS);
        Perm((0..degree).map(|p| p as u8).collect())
    }

    /// The permutation with these images, if they are one (each point of `0..len` once).
    pub fn from_images(images: Vec<u8>) -> Option<Perm> {
        if images.len() > MAX_POINTS {
            return None;
        }
        let mut seen = vec![false; images.len()];
        for &i in &images {
            if usize::from(i) >= images.len() || std::mem::replace(&mut seen[usize::from(i)], true)
            {
                return None;
            }
        }
        Some(Perm(images.into()))
    }

    /// The permutation of `degree` points made of these disjoint cycles (0-based), if each
    /// point is below `degree` and in at most one cycle.
    pub fn from_cycles(degree: usize, cycles: &[Vec<u8>]) -> Option<Perm> {
        if degree > MAX_POINTS {
            return None;
        }
        let mut images: Vec<u8> = (0..degree).map(|p| p as u8).collect();
        let mut used = vec![false; degree];
        for cycle in cycles {
            for (i, &p) in cycle.iter().enumerate() {
                let p = usize::from(p);
                if p >= degree || std::mem::replace(&mut used[p], true) {
                    return None;
                }
                images[p] = cycle[(i + 1) % cycle.len()];
            }
        }
        Some(Perm(images.into()))
    }

    /// The number of points.
    pub fn degree(&self) -> usize {
        self.0.len()
    }

    /// The image list: `images()[p]` is where point `p` goes.
    pub fn images(&self) -> &[u8] {
        &self.0
    }

    /// Where point `p` goes.
    #[inline]
    pub fn image(&self, p: u8) -> u8 {
        self.0[usize::from(p)]
    }

    /// `self` then `other` (GAP's `self * other`): `p` goes to `other(self(p))`.
    pub fn then(&self, other: &Perm) -> Perm {
        Perm(self.0.iter().map(|&p| other.0[usize::from(p)]).collect())
    }

    /// The inverse.
    pub fn inverse(&self) -> Perm {
        let mut inv = vec![0u8; self.0.len()];
        for (p, &i) in self.0.iter().enumerate() {
            inv[usize::from(i)] = p as u8;
        }
        Perm(inv.into())
    }

    /// `self` applied `k` times (`k` may be negative: powers of the inverse).
    pub fn pow(&self, k: i64) -> Perm {
        let order = self.order();
        let k = k.rem_euclid(order as i64) as u64;
        let mut images = vec![0u8; self.0.len()];
        for cycle in self.cycles() {
            let len = cycle.len() as u64;
            for (i, &p) in cycle.iter().enumerate() {
                images[usize::from(p)] = cycle[((i as u64 + k) % len) as usize];
            }
        }
        for (p, image) in images.iter_mut().enumerate() {
            if self.0[p] == p as u8 {
                *image = p as u8;
            }
        }
        Perm(images.into())
    }

    /// Whether every point stays.
    pub fn is_identity(&self) -> bool {
        self.0.iter().enumerate().all(|(p, &i)| usize::from(i) == p)
    }

    /// The least `k >= 1` with `self^k` the identity: the lcm of its cycle lengths (at most
    /// Landau's g(255), below 2^64).
    pub fn order(&self) -> u64 {
        self.cycles().iter().fold(1u64, |acc, c| {
            let len = c.len() as u64;
            acc / gcd(acc, len) * len
        })
    }

    /// Whether it is a product of an even number of transpositions.
    pub fn is_even(&self) -> bool {
        self.cycles().iter().filter(|c| c.len() % 2 == 0).count() % 2 == 0
    }

    /// The points it moves.
    pub fn support(&self) -> impl Iterator<Item = u8> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(p, &i)| usize::from(i) != *p)
            .map(|(p, _)| p as u8)
    }

    /// Its cycles of length 2 or more, each from its least point, in order of that point.
    pub fn cycles(&self) -> Vec<Vec<u8>> {
        let mut seen = vec![false; self.0.len()];
        let mut cycles = Vec::new();
        for start in 0..self.0.len() {
            if seen[start] || usize::from(self.0[start]) == start {
                continue;
            }
            let mut cycle = Vec::new();
            let mut p = start;
            while !seen[p] {
                seen[p] = true;
                cycle.push(p as u8);
                p = usize::from(self.0[p]);
            }
            cycles.push(cycle);
        }
        cycles
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Cycle notation over the points from 1, as GAP prints it; `()` for the identity.
impl fmt::Display for Perm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cycles = self.cycles();
        if cycles.is_empty() {
            return f.write_str("()");
        }
        for cycle in cycles {
            f.write_str("(")?;
            for (i, p) in cycle.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}", u32::from(*p) + 1)?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_follow_gap() {
        // GAP: (1,2)*(2,3) = (1,3,2): 1 goes to 2 by the first, then to 3 by the second.
        let a = Perm::from_cycles(3, &[vec![0, 1]]).unwrap();
        let b = Perm::from_cycles(3, &[vec![1, 2]]).unwrap();
        assert_eq!(a.then(&b).to_string(), "(1,3,2)");
        assert_eq!(a.then(&b).inverse().to_string(), "(1,2,3)");
    }

    #[test]
    fn order_parity_and_powers() {
        let p = Perm::from_cycles(7, &[vec![0, 1, 2, 3], vec![4, 5]]).unwrap();
        assert_eq!(p.order(), 4);
        assert!(p.is_even());
        assert_eq!(p.pow(-1), p.inverse());
        assert_eq!(p.pow(4), Perm::identity(7));
        assert_eq!(p.pow(2).to_string(), "(1,3)(2,4)");
        assert!(!Perm::from_cycles(3, &[vec![0, 1]]).unwrap().is_even());
    }

    #[test]
    fn non_permutations_are_refused() {
        assert!(Perm::from_images(vec![0, 0]).is_none());
        assert!(Perm::from_images(vec![0, 2]).is_none());
        assert!(Perm::from_cycles(3, &[vec![0, 1], vec![1, 2]]).is_none());
        assert!(Perm::from_cycles(3, &[vec![0, 3]]).is_none());
    }
}
