//! The cubie model: which cubie sits at each corner and edge position, and how it is turned.
//!
//! Kociemba's conventions: `cp[i]` is the corner cubie at corner position `i` (positions and
//! cubies both numbered URF UFL ULB UBR DFR DLF DBL DRB), `co[i]` its orientation: 0 when its
//! U or D facelet lies on the U or D face, 1 or 2 when it is turned clockwise once or twice.
//! Edges likewise (UR UF UL UB DR DF DL DB FR FL BL BR), with `eo[i]` 1 when the edge's
//! reference facelet is not on the position's reference face. Moves compose by
//! [`CubieCube::multiply`]: `a.multiply(&b)` is `a` followed by `b`.

use crate::error::CubeError;
use crate::geometry::{CORNER_NAMES, EDGE_NAMES};

/// A cube as four arrays: corner and edge permutation and orientation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CubieCube {
    pub(crate) cp: [u8; 8],
    pub(crate) co: [u8; 8],
    pub(crate) ep: [u8; 12],
    pub(crate) eo: [u8; 12],
}

impl Default for CubieCube {
    fn default() -> Self {
        Self::SOLVED
    }
}

impl CubieCube {
    /// The solved cube: every cubie at home, unturned.
    pub const SOLVED: CubieCube = CubieCube {
        cp: [0, 1, 2, 3, 4, 5, 6, 7],
        co: [0; 8],
        ep: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        eo: [0; 12],
    };

    /// A cube from its four arrays, refused with the reason unless it is a solvable cube.
    ///
    /// ```
    /// use frontier_cube::{CubeError, CubieCube};
    ///
    /// let mut co = [0; 8];
    /// co[0] = 1; // twist the URF corner in place
    /// let err = CubieCube::new([0, 1, 2, 3, 4, 5, 6, 7], co, std::array::from_fn(|i| i as u8), [0; 12]);
    /// assert_eq!(err, Err(CubeError::TwistedCorner(1)));
    /// ```
    pub fn new(cp: [u8; 8], co: [u8; 8], ep: [u8; 12], eo: [u8; 12]) -> Result<Self, CubeError> {
        let cube = CubieCube { cp, co, ep, eo };
        cube.validate()?;
        Ok(cube)
    }

    /// The corner cubie at each corner position.
    pub fn corner_permutation(&self) -> [u8; 8] {
        self.cp
    }

    /// The orientation (0, 1, 2) of the corner at each corner position.
    pub fn corner_orientation(&self) -> [u8; 8] {
        self.co
    }

    /// The edge cubie at each edge position.
    pub fn edge_permutation(&self) -> [u8; 12] {
        self.ep
    }

    /// The orientation (0, 1) of the edge at each edge position.
    pub fn edge_orientation(&self) -> [u8; 12] {
        self.eo
    }

    /// Checks that this is a cube that can be reached from solved by face turns: each cubie
    /// exactly once, orientations in range, no twisted corner, no flipped edge, even parity.
    pub fn validate(&self) -> Result<(), CubeError> {
        let mut seen = [false; 12];
        for &c in &self.cp {
            let name = *CORNER_NAMES
                .get(c as usize)
                .ok_or(CubeError::Orientation("corner cubie number"))?;
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(CubeError::DuplicateCorner(name));
            }
        }
        let mut seen = [false; 12];
        for &e in &self.ep {
            let name = *EDGE_NAMES
                .get(e as usize)
                .ok_or(CubeError::Orientation("edge cubie number"))?;
            if std::mem::replace(&mut seen[e as usize], true) {
                return Err(CubeError::DuplicateEdge(name));
            }
        }
        if self.co.iter().any(|&o| o > 2) {
            return Err(CubeError::Orientation("corner"));
        }
        if self.eo.iter().any(|&o| o > 1) {
            return Err(CubeError::Orientation("edge"));
        }
        let twist = self.co.iter().map(|&o| u32::from(o)).sum::<u32>() % 3;
        if twist != 0 {
            return Err(CubeError::TwistedCorner(twist as u8));
        }
        if self.eo.iter().map(|&o| u32::from(o)).sum::<u32>() % 2 != 0 {
            return Err(CubeError::FlippedEdge);
        }
        if parity(&self.cp) != parity(&self.ep) {
            return Err(CubeError::Parity);
        }
        Ok(())
    }

    /// `self` followed by `other`.
    pub fn multiply(&self, other: &CubieCube) -> CubieCube {
        let mut out = CubieCube::SOLVED;
        for i in 0..8 {
            let from = other.cp[i] as usize;
            out.cp[i] = self.cp[from];
            out.co[i] = (self.co[from] + other.co[i]) % 3;
        }
        for i in 0..12 {
            let from = other.ep[i] as usize;
            out.ep[i] = self.ep[from];
            out.eo[i] = (self.eo[from] + other.eo[i]) % 2;
        }
        out
    }

    /// The cube that undoes `self`: `self.multiply(&self.inverse())` is solved.
    pub fn inverse(&self) -> CubieCube {
        let mut out = CubieCube::SOLVED;
        for i in 0..8 {
            let c = self.cp[i] as usize;
            out.cp[c] = i as u8;
            out.co[c] = (3 - self.co[i]) % 3;
        }
        for i in 0..12 {
            let e = self.ep[i] as usize;
            out.ep[e] = i as u8;
            out.eo[e] = self.eo[i];
        }
        out
    }

    /// A uniformly random solvable cube, from a seed (deterministic: the same seed gives the
    /// same cube).
    pub fn random(seed: u64) -> CubieCube {
        CubieCube::random_from(&mut SplitMix(seed))
    }

    /// A uniformly random solvable cube drawn from `rng`: uniform corner and edge
    /// permutations of equal parity (an odd edge permutation is made even by one fixed swap,
    /// a bijection), uniform twist and flip (the last corner's twist and the last edge's flip
    /// follow from the others).
    pub(crate) fn random_from(rng: &mut SplitMix) -> CubieCube {
        let mut cube = CubieCube::SOLVED;
        shuffle(&mut cube.cp, rng);
        shuffle(&mut cube.ep, rng);
        if parity(&cube.cp) != parity(&cube.ep) {
            cube.ep.swap(10, 11);
        }
        for i in 0..7 {
            cube.co[i] = rng.below(3) as u8;
        }
        cube.co[7] = (3 - cube.co[..7].iter().sum::<u8>() % 3) % 3;
        for i in 0..11 {
            cube.eo[i] = rng.below(2) as u8;
        }
        cube.eo[11] = cube.eo[..11].iter().sum::<u8>() % 2;
        cube
    }
}

/// The parity of a permutation: `true` when odd.
pub(crate) fn parity(perm: &[u8]) -> bool {
    let mut odd = false;
    for i in 0..perm.len() {
        for j in i + 1..perm.len() {
            odd ^= perm[i] > perm[j];
        }
    }
    odd
}

/// A small deterministic generator (SplitMix64) for random cubes and scrambles.
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (the tiny modulo bias is irrelevant here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn shuffle(items: &mut [u8], rng: &mut SplitMix) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_cubes_are_valid_and_invert() {
        for seed in 0..200 {
            let cube = CubieCube::random(seed);
            assert_eq!(cube.validate(), Ok(()));
            assert_eq!(cube.multiply(&cube.inverse()), CubieCube::SOLVED);
            assert_eq!(cube.inverse().multiply(&cube), CubieCube::SOLVED);
        }
    }

    /// Pearson's statistic of `counts` against equal expected counts.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        (counts.iter())
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    /// The chi-square distribution's upper 0.1% point for `dof` degrees of freedom (NIST/
    /// SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4, critical values of the
    /// chi-square distribution).
    fn critical(dof: usize) -> f64 {
        match dof {
            1 => 10.828,
            2 => 13.816,
            7 => 24.322,
            11 => 31.264,
            _ => unreachable!("no other degrees of freedom here"),
        }
    }

    #[test]
    fn random_cubes_are_uniform_piece_by_piece() {
        // 10,000 cubes from one stream: at each position, which corner or edge is there and
        // its orientation are uniform within the chi-square bound.
        let mut rng = SplitMix(2026);
        let cubes: Vec<CubieCube> = (0..10_000)
            .map(|_| CubieCube::random_from(&mut rng))
            .collect();
        let check = |name: &str, counts: Vec<u64>| {
            let statistic = chi_square(&counts);
            let bound = critical(counts.len() - 1);
            assert!(
                statistic < bound,
                "{name}: {statistic:.1} >= {bound} {counts:?}"
            );
        };
        for i in 0..8 {
            let mut pieces = vec![0; 8];
            let mut twists = vec![0; 3];
            for c in &cubes {
                pieces[usize::from(c.cp[i])] += 1;
                twists[usize::from(c.co[i])] += 1;
            }
            check(&format!("corner position {i}"), pieces);
            check(&format!("corner twist {i}"), twists);
        }
        for i in 0..12 {
            let mut pieces = vec![0; 12];
            let mut flips = vec![0; 2];
            for c in &cubes {
                pieces[usize::from(c.ep[i])] += 1;
                flips[usize::from(c.eo[i])] += 1;
            }
            check(&format!("edge position {i}"), pieces);
            check(&format!("edge flip {i}"), flips);
        }
        // The test can fail: a generator that never leaves corner 0 at position 0 is caught.
        let mut biased = vec![0; 8];
        for c in &cubes {
            let piece = if c.cp[0] == 0 { c.cp[1] } else { c.cp[0] };
            biased[usize::from(piece)] += 1;
        }
        assert!(chi_square(&biased) > critical(7));
    }

    #[test]
    fn validation_names_the_fault() {
        let mut cube = CubieCube::SOLVED;
        cube.eo[3] = 1;
        assert_eq!(cube.validate(), Err(CubeError::FlippedEdge));
        let mut cube = CubieCube::SOLVED;
        cube.ep.swap(0, 1);
        assert_eq!(cube.validate(), Err(CubeError::Parity));
        cube.cp.swap(0, 1);
        assert_eq!(cube.validate(), Ok(()));
        let mut cube = CubieCube::SOLVED;
        cube.cp[1] = 0;
        assert_eq!(cube.validate(), Err(CubeError::DuplicateCorner("URF")));
        let mut cube = CubieCube::SOLVED;
        cube.co[2] = 2;
        assert_eq!(cube.validate(), Err(CubeError::TwistedCorner(2)));
    }
}
