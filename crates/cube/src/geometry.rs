//! The cube's geometry: where each of the 54 facelets sits in space, and what turning a set of
//! layers does to them. Every move table of the crate is derived from here, so nothing about
//! the moves is typed in by hand.
//!
//! Coordinates: `x` points to the right face (R), `y` up (U), `z` towards the viewer (F). The
//! 27 cubies sit at the points of `{-1, 0, 1}^3`; a facelet is a point on the surface of a
//! cubie together with the outward normal of its face. A face's nine facelets are numbered in
//! reading order as the face is drawn in the usual net (U with B above it, D with F above it,
//! the four side faces with U above them), which is the URFDLB order of Kociemba's format.

use std::fmt;

/// A face of the cube, which is also the colour of its centre: `U R F D L B` (Kociemba's order).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Face {
    /// Up.
    U,
    /// Right.
    R,
    /// Front.
    F,
    /// Down.
    D,
    /// Left.
    L,
    /// Back.
    B,
}

/// A vector with small integer coordinates.
pub(crate) type V3 = [i8; 3];

impl Face {
    /// The six faces in URFDLB order.
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// The face's position in URFDLB order (0 to 5).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The face at `index` in URFDLB order, if `index < 6`.
    pub fn from_index(index: usize) -> Option<Face> {
        Face::ALL.get(index).copied()
    }

    /// The face's letter: `U R F D L B`.
    pub fn letter(self) -> char {
        b"URFDLB"[self.index()] as char
    }

    /// The face named by an upper-case letter.
    pub fn from_letter(letter: char) -> Option<Face> {
        "URFDLB".find(letter).and_then(Face::from_index)
    }

    /// The face across the cube: U and D, R and L, F and B.
    pub fn opposite(self) -> Face {
        Face::ALL[(self.index() + 3) % 6]
    }

    /// The outward normal.
    pub(crate) fn normal(self) -> V3 {
        match self {
            Face::U => [0, 1, 0],
            Face::R => [1, 0, 0],
            Face::F => [0, 0, 1],
            Face::D => [0, -1, 0],
            Face::L => [-1, 0, 0],
            Face::B => [0, 0, -1],
        }
    }

    /// The directions of "one column right" and "one row down" as the face is drawn in the net,
    /// seen from outside the cube.
    fn right_and_down(self) -> (V3, V3) {
        match self {
            Face::U => ([1, 0, 0], [0, 0, 1]),
            Face::R => ([0, 0, -1], [0, -1, 0]),
            Face::F => ([1, 0, 0], [0, -1, 0]),
            Face::D => ([1, 0, 0], [0, 0, -1]),
            Face::L => ([0, 0, 1], [0, -1, 0]),
            Face::B => ([-1, 0, 0], [0, -1, 0]),
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scale(k: i8, a: V3) -> V3 {
    [k * a[0], k * a[1], k * a[2]]
}

pub(crate) fn dot(a: V3, b: V3) -> i8 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// A clockwise quarter turn about the outward axis `a`, as seen from outside (looking at the
/// face `a` points to): a rotation by -90 degrees, `v -> a (a.v) - a x v`.
fn turn_clockwise(a: V3, v: V3) -> V3 {
    add(scale(dot(a, v), a), scale(-1, cross(a, v)))
}

/// Where facelet `index` (0..54, URFDLB order) sits: the point on its cubie and its normal.
pub(crate) fn facelet_place(index: usize) -> (V3, V3) {
    let face = Face::ALL[index / 9];
    let (row, col) = ((index % 9) / 3, index % 3);
    let (right, down) = face.right_and_down();
    let normal = face.normal();
    let point = add(
        normal,
        add(scale(col as i8 - 1, right), scale(row as i8 - 1, down)),
    );
    (point, normal)
}

/// The facelet at `point` with outward `normal`.
pub(crate) fn facelet_at(point: V3, normal: V3) -> usize {
    (0..54)
        .find(|&i| facelet_place(i) == (point, normal))
        .expect("every surface point with an outward normal is a facelet")
}

/// A set of layers perpendicular to a face's axis: bit 0 the layer of the face itself, bit 1
/// the middle layer, bit 2 the layer of the opposite face.
pub(crate) type Layers = u8;

/// The outer layer only: a face turn.
pub(crate) const OUTER: Layers = 0b001;
/// The middle layer only: a slice turn.
pub(crate) const MIDDLE: Layers = 0b010;
/// The outer and middle layers: a wide turn.
pub(crate) const WIDE: Layers = 0b011;
/// All three layers: a rotation of the whole cube.
pub(crate) const ALL_LAYERS: Layers = 0b111;

/// The facelet permutation of one clockwise quarter turn of `layers` about `axis`, as a
/// "comes from" table: after the turn, facelet `j` shows what facelet `from[j]` showed before.
pub(crate) fn quarter_turn(axis: Face, layers: Layers) -> [u8; 54] {
    // Worked out from the geometry once: a scramble applies one per move.
    static TURNS: std::sync::OnceLock<[[[u8; 54]; 8]; 6]> = std::sync::OnceLock::new();
    let turns = TURNS.get_or_init(|| {
        std::array::from_fn(|face| {
            std::array::from_fn(|layers| turn_from_geometry(Face::ALL[face], layers as Layers))
        })
    });
    turns[axis.index()][usize::from(layers & ALL_LAYERS)]
}

/// [`quarter_turn`], worked out from the facelets' places in space.
fn turn_from_geometry(axis: Face, layers: Layers) -> [u8; 54] {
    let a = axis.normal();
    let mut from = [0u8; 54];
    for (i, _) in from.clone().iter().enumerate() {
        let (point, normal) = facelet_place(i);
        // The layer index: 0 for the face's own layer, 1 middle, 2 opposite.
        let layer = (1 - dot(a, point)) as u8;
        let j = if layers & (1 << layer) != 0 {
            facelet_at(turn_clockwise(a, point), turn_clockwise(a, normal))
        } else {
            i
        };
        from[j] = i as u8;
    }
    from
}

/// The corner positions in Kociemba's order. Each name lists the corner's faces starting with
/// the U or D face and then going clockwise around the corner (checked by a test below).
pub const CORNER_NAMES: [&str; 8] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];

/// The edge positions in Kociemba's order. The first face of each name is the edge's
/// reference facelet for orientation: its U or D face, or else its F or B face.
pub const EDGE_NAMES: [&str; 12] = [
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
];

/// The faces a cubie position's name lists, in order.
fn name_faces<const N: usize>(name: &str) -> [Face; N] {
    let mut faces = [Face::U; N];
    for (slot, letter) in faces.iter_mut().zip(name.chars()) {
        *slot = Face::from_letter(letter).expect("cubie names are made of face letters");
    }
    faces
}

/// The point of the cubie where the named faces meet.
fn cubie_point(faces: &[Face]) -> V3 {
    faces
        .iter()
        .fold([0, 0, 0], |point, face| add(point, face.normal()))
}

/// For each corner position, its three facelets in the order of its name.
pub(crate) fn corner_facelets() -> [[u8; 3]; 8] {
    CORNER_NAMES.map(position_facelets)
}

/// For each edge position, its two facelets in the order of its name.
pub(crate) fn edge_facelets() -> [[u8; 2]; 12] {
    EDGE_NAMES.map(position_facelets)
}

/// The facelets of the cubie position called `name`, in the order of its faces.
fn position_facelets<const N: usize>(name: &str) -> [u8; N] {
    let faces: [Face; N] = name_faces(name);
    let point = cubie_point(&faces);
    faces.map(|face| facelet_at(point, face.normal()) as u8)
}

/// The colours of each corner cubie, in the order of its name.
pub(crate) fn corner_colours() -> [[Face; 3]; 8] {
    CORNER_NAMES.map(name_faces)
}

/// The colours of each edge cubie, in the order of its name.
pub(crate) fn edge_colours() -> [[Face; 2]; 12] {
    EDGE_NAMES.map(name_faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facelets_are_distinct_points_on_the_surface() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..54 {
            let (point, normal) = facelet_place(i);
            assert!(point.iter().all(|c| (-1..=1).contains(c)));
            assert_eq!(dot(point, normal), 1, "facelet {i} lies on its face");
            assert!(seen.insert((point, normal)));
            assert_eq!(facelet_at(point, normal), i);
        }
    }

    #[test]
    fn centres_are_the_fifth_facelet_of_each_face() {
        for face in Face::ALL {
            assert_eq!(facelet_place(face.index() * 9 + 4).0, face.normal());
        }
    }

    #[test]
    fn each_face_is_drawn_as_seen_from_outside() {
        // Right x down points into the cube for every face, so no face is drawn mirrored.
        for face in Face::ALL {
            let (right, down) = face.right_and_down();
            assert_eq!(cross(right, down), scale(-1, face.normal()), "{face}");
        }
    }

    #[test]
    fn corner_names_go_clockwise() {
        // Clockwise seen from outside the corner: (n0 x n1) points away from the corner.
        for name in CORNER_NAMES {
            let faces: [Face; 3] = name_faces(name);
            let point = cubie_point(&faces);
            assert!(matches!(faces[0], Face::U | Face::D), "{name}");
            for k in 0..3 {
                let (a, b) = (faces[k].normal(), faces[(k + 1) % 3].normal());
                assert!(dot(cross(a, b), point) < 0, "{name} is not clockwise");
            }
        }
    }

    #[test]
    fn quarter_turns_have_order_four_and_move_the_right_facelets() {
        for axis in Face::ALL {
            for layers in [OUTER, MIDDLE, WIDE, ALL_LAYERS] {
                let turn = quarter_turn(axis, layers);
                let mut state: [u8; 54] = std::array::from_fn(|i| i as u8);
                for _ in 0..4 {
                    state = std::array::from_fn(|j| state[turn[j] as usize]);
                }
                assert_eq!(state, std::array::from_fn(|i| i as u8));
                let moved = (0..54).filter(|&j| turn[j] as usize != j).count();
                let expected = match layers {
                    OUTER => 20,  // 8 on the face, 12 on its sides
                    MIDDLE => 12, // 4 centres and 8 edge facelets
                    WIDE => 32,   // both
                    _ => 54 - 2,  // everything but the two centres on the axis
                };
                assert_eq!(moved, expected, "{axis} layers {layers:b}");
            }
        }
    }
}
