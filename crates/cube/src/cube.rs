//! The compact cube: the cubie model packed into one `u128`, and face moves on it.

use std::fmt;
use std::sync::OnceLock;

use crate::cubie::{CubieCube, SplitMix};
use crate::error::{CubeError, NotationError};
use crate::facelet::Facelets;
use crate::geometry::{quarter_turn, OUTER};
use crate::moves::{Metric, Move};
use crate::notation::{parse, Notation};

/// A cube in 16 bytes: for each of the 8 corner positions 5 bits (the cubie in the low 3, its
/// orientation in the next 2), then for each of the 12 edge positions 5 bits (the cubie in the
/// low 4, its orientation in the 5th), 100 bits in all. Always a solvable cube.
///
/// ```
/// use frontier_cube::{Cube, Move};
///
/// let sexy: Vec<Move> = ["R", "U", "R'", "U'"].iter().map(|m| m.parse().unwrap()).collect();
/// let mut cube = Cube::SOLVED;
/// for _ in 0..6 {
///     cube = cube.apply_all(&sexy);
/// }
/// assert!(cube.is_solved()); // (R U R' U') has order 6
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cube(u128);

/// A face move on the packed cube: the bits it leaves alone, and for each of the 4 corners and
/// 4 edges it moves, (destination shift, source shift, orientation change).
struct PackedMove {
    keep: u128,
    corners: [(u8, u8, u8); 4],
    edges: [(u8, u8, u8); 4],
}

struct Tables {
    cubie: [CubieCube; 18],
    packed: [PackedMove; 18],
}

const CORNER_BITS: u32 = 5;
const EDGE_BASE: u32 = 40;

/// `TWIST[t][field]`: a corner field (cubie | orientation << 3) turned by `t` more.
const TWIST: [[u8; 32]; 3] = {
    let mut table = [[0u8; 32]; 3];
    let mut t = 0;
    while t < 3 {
        let mut field = 0;
        while field < 32 {
            let ori = (field >> 3) as u8;
            table[t][field] = (field as u8 & 7) | (((ori + t as u8) % 3) << 3);
            field += 1;
        }
        t += 1;
    }
    table
};

/// The cubie-model face moves, derived from the geometry: a face's quarter turn is applied to
/// the solved facelets and the result read back as cubies.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let cubie: [CubieCube; 18] = std::array::from_fn(|m| {
            let mv = Move::ALL[m];
            let quarter = quarter_turn(mv.face(), OUTER);
            let mut facelets = Facelets::SOLVED;
            for _ in 0..mv.quarter_turns() {
                let old = facelets;
                for (j, &from) in quarter.iter().enumerate() {
                    facelets.0[j] = old.0[from as usize];
                }
            }
            facelets
                .to_cubie()
                .expect("a face turn of the solved cube is a cube")
        });
        let packed = cubie.map(|m| {
            let mut keep = u128::MAX;
            let mut corners = Vec::new();
            for i in 0..8 {
                if m.cp[i] as usize != i || m.co[i] != 0 {
                    let dst = CORNER_BITS * i as u32;
                    keep &= !(31u128 << dst);
                    corners.push((dst as u8, (CORNER_BITS * u32::from(m.cp[i])) as u8, m.co[i]));
                }
            }
            let mut edges = Vec::new();
            for i in 0..12 {
                if m.ep[i] as usize != i || m.eo[i] != 0 {
                    let dst = EDGE_BASE + CORNER_BITS * i as u32;
                    keep &= !(31u128 << dst);
                    let src = EDGE_BASE + CORNER_BITS * u32::from(m.ep[i]);
                    edges.push((dst as u8, src as u8, m.eo[i]));
                }
            }
            PackedMove {
                keep,
                corners: corners.try_into().expect("a face turn moves 4 corners"),
                edges: edges.try_into().expect("a face turn moves 4 edges"),
            }
        });
        Tables { cubie, packed }
    })
}

impl Cube {
    /// The solved cube.
    pub const SOLVED: Cube = {
        let mut bits = 0u128;
        let mut i = 0;
        while i < 8 {
            bits |= (i as u128) << (5 * i);
            i += 1;
        }
        let mut j = 0;
        while j < 12 {
            bits |= (j as u128) << (40 + 5 * j);
            j += 1;
        }
        Cube(bits)
    };

    /// Whether this is the solved cube.
    pub fn is_solved(self) -> bool {
        self == Cube::SOLVED
    }

    /// The cube after the face move `mv`: 8 fields moved, no allocation.
    #[inline]
    pub fn apply(self, mv: Move) -> Cube {
        let packed = &tables().packed[mv.index()];
        let s = self.0;
        let mut out = s & packed.keep;
        for &(dst, src, twist) in &packed.corners {
            let field = ((s >> src) & 31) as usize;
            out |= u128::from(TWIST[usize::from(twist)][field]) << dst;
        }
        for &(dst, src, flip) in &packed.edges {
            let field = (s >> src) & 31;
            out |= (field ^ (u128::from(flip) << 4)) << dst;
        }
        Cube(out)
    }

    /// The cube after every move of `moves`, in order.
    pub fn apply_all(self, moves: &[Move]) -> Cube {
        moves.iter().fold(self, |cube, &mv| cube.apply(mv))
    }

    /// The cubes along `moves`: this one first, then the cube after each move (one more than
    /// the moves).
    ///
    /// ```
    /// use frontier_cube::{Cube, Move};
    ///
    /// let moves: Vec<Move> = ["R", "R'"].iter().map(|m| m.parse().unwrap()).collect();
    /// let path = Cube::SOLVED.path(&moves);
    /// assert_eq!(path.len(), 3);
    /// assert!(path[0].is_solved() && !path[1].is_solved() && path[2].is_solved());
    /// ```
    pub fn path(self, moves: &[Move]) -> Vec<Cube> {
        let mut cubes = Vec::with_capacity(moves.len() + 1);
        cubes.push(self);
        for &mv in moves {
            cubes.push(cubes[cubes.len() - 1].apply(mv));
        }
        cubes
    }

    /// The cube a scramble makes of the solved cube. Wide, slice and rotation moves are
    /// applied to the facelets and the result is re-expressed with the centres in place.
    ///
    /// ```
    /// use frontier_cube::{Cube, Notation};
    ///
    /// // Rotations change nothing once the centres are put back; M is R L' seen from fixed centres.
    /// assert!(Cube::from_scramble("x y z2", Notation::Wca).unwrap().is_solved());
    /// let m = Cube::from_scramble("M", Notation::Wca).unwrap();
    /// assert_eq!(m, Cube::from_scramble("R L'", Notation::Wca).unwrap());
    /// ```
    pub fn from_scramble(text: &str, notation: Notation) -> Result<Cube, NotationError> {
        let facelets = scramble_facelets(Facelets::SOLVED, text, notation)?;
        Ok(Cube::from_facelets(&facelets).expect("a scramble of a cube is a cube"))
    }

    /// The cube a facelet model shows, or why it is impossible.
    pub fn from_facelets(facelets: &Facelets) -> Result<Cube, CubeError> {
        Ok(Cube::from_cubie(&facelets.to_cubie()?))
    }

    /// Packs a cubie-model cube, refused unless it is solvable.
    pub fn try_from_cubie(cube: &CubieCube) -> Result<Cube, CubeError> {
        cube.validate()?;
        Ok(Cube::from_cubie(cube))
    }

    pub(crate) fn from_cubie(cube: &CubieCube) -> Cube {
        let mut bits = 0u128;
        for i in 0..8 {
            let field = u128::from(cube.cp[i]) | u128::from(cube.co[i]) << 3;
            bits |= field << (5 * i);
        }
        for i in 0..12 {
            let field = u128::from(cube.ep[i]) | u128::from(cube.eo[i]) << 4;
            bits |= field << (40 + 5 * i);
        }
        Cube(bits)
    }

    /// The cubie model of this cube.
    pub fn to_cubie(self) -> CubieCube {
        let mut cube = CubieCube::SOLVED;
        for i in 0..8 {
            let field = (self.0 >> (5 * i)) as u8 & 31;
            cube.cp[i] = field & 7;
            cube.co[i] = field >> 3;
        }
        for i in 0..12 {
            let field = (self.0 >> (40 + 5 * i)) as u8 & 31;
            cube.ep[i] = field & 15;
            cube.eo[i] = field >> 4;
        }
        cube
    }

    /// The facelet model of this cube.
    pub fn to_facelets(self) -> Facelets {
        Facelets::from_cubie(&self.to_cubie())
    }

    /// The cube whose packed bits are `bits` (which must be those of a cube).
    pub(crate) fn from_bits(bits: u128) -> Cube {
        Cube(bits)
    }

    /// The packed bits (100 of the 128 are used).
    pub fn bits(self) -> u128 {
        self.0
    }

    /// The cube whose solutions are the moves that take this cube to `target`: a solver that
    /// solves it answers "from here to that pattern" (`target` solved: this cube).
    ///
    /// ```
    /// use frontier_cube::{Cube, Move};
    ///
    /// let cube = Cube::random(1);
    /// let moves: Vec<Move> = ["F", "R2", "D'"].iter().map(|m| m.parse().unwrap()).collect();
    /// let target = cube.apply_all(&moves);
    /// // The moves that take the cube to the target solve the relative cube.
    /// assert!(cube.toward(target).apply_all(&moves).is_solved());
    /// assert_eq!(cube.toward(Cube::SOLVED), cube);
    /// ```
    pub fn toward(self, target: Cube) -> Cube {
        Cube::from_cubie(&target.to_cubie().inverse().multiply(&self.to_cubie()))
    }

    /// A uniformly random cube from a seed (deterministic).
    pub fn random(seed: u64) -> Cube {
        Cube::from_cubie(&CubieCube::random(seed))
    }

    /// The cubie-model move table entry for `mv` (derived from the geometry).
    pub fn move_cube(mv: Move) -> CubieCube {
        tables().cubie[mv.index()]
    }
}

/// `start` after the turns of `text`, re-expressed with the centres in place.
pub fn scramble_facelets(
    start: Facelets,
    text: &str,
    notation: Notation,
) -> Result<Facelets, NotationError> {
    let mut facelets = start;
    for turn in parse(text, notation)? {
        facelets.apply_turn(turn);
    }
    Ok(facelets
        .normalised()
        .expect("turns of a cube keep its centres those of a cube"))
}

/// A random scramble of `length` moves in `metric` (deterministic for a seed): never the same
/// face twice in a row, nor two opposite faces in the non-canonical order, so it does not
/// undo itself right away (its optimal solution may still be shorter).
pub fn random_scramble(seed: u64, length: usize, metric: Metric) -> Vec<Move> {
    let mut rng = SplitMix(seed);
    let moves = metric.moves();
    let mut out: Vec<Move> = Vec::with_capacity(length);
    while out.len() < length {
        let mv = moves[rng.below(moves.len() as u64) as usize];
        let fine = match out.last() {
            Some(&last) => last.face() != mv.face() && metric.may_follow(last, mv),
            None => true,
        };
        if fine {
            out.push(mv);
        }
    }
    out
}

impl fmt::Debug for Cube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cube({})", self.to_facelets())
    }
}

impl fmt::Display for Cube {
    /// The 54-letter facelet string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_facelets())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for seed in 0..100 {
            let cubie = CubieCube::random(seed);
            assert_eq!(Cube::from_cubie(&cubie).to_cubie(), cubie);
        }
        assert_eq!(Cube::from_cubie(&CubieCube::SOLVED), Cube::SOLVED);
    }

    #[test]
    fn packed_moves_agree_with_cubie_multiplication() {
        for seed in 0..50 {
            let cubie = CubieCube::random(seed);
            for mv in Move::ALL {
                let by_table = Cube::from_cubie(&cubie).apply(mv).to_cubie();
                assert_eq!(by_table, cubie.multiply(&Cube::move_cube(mv)), "{mv}");
            }
        }
    }

    #[test]
    fn r_matches_kociemba_definition() {
        // Kociemba's cubie-level R (kociemba.org, "The Cubie Level"): corners
        // (DFR, UFL, ULB, URF, DRB, DLF, DBL, UBR) with twists (2,0,0,1,1,0,0,2), edges
        // (FR, UF, UL, UB, BR, DF, DL, DB, DR, FL, BL, UR), no flips.
        let r = Cube::move_cube("R".parse().unwrap());
        assert_eq!(r.cp, [4, 1, 2, 0, 7, 5, 6, 3]);
        assert_eq!(r.co, [2, 0, 0, 1, 1, 0, 0, 2]);
        assert_eq!(r.ep, [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0]);
        assert_eq!(r.eo, [0; 12]);
    }
}
