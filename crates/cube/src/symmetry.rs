//! The cube's 48 symmetries, and searching on classes of cubes instead of cubes.
//!
//! Looking at a cube from another side (a rotation, then re-reading it with the centres in
//! place), or in a mirror (left and right swapped), gives another cube at the same distance
//! from solved: conjugation by a symmetry maps face turns to face turns and fixes the solved
//! cube. Every cube has up to 48 such views; the least one stands for the class. A breadth-first
//! or bidirectional search over classes stores up to 48 times fewer states around the solved
//! cube than one over cubes, and finds the same distance; [`unfold`] turns its path of classes
//! back into face turns on the real cube.

use std::sync::OnceLock;

use frontier_search::{Cost, Reversible, Space};

use crate::cube::Cube;
use crate::cubie::CubieCube;
use crate::geometry::{
    corner_facelets, edge_facelets, facelet_at, facelet_place, quarter_turn, Face, ALL_LAYERS, V3,
};
use crate::moves::{Metric, Move};
use crate::space::CubeSpace;

/// How many rotations the cube has.
const ROTATIONS: usize = 24;
/// How many symmetries: the rotations, then each rotation followed by the left-right mirror.
pub const SYMMETRIES: usize = 2 * ROTATIONS;

/// Bits of a packed corner field, and where the edge fields start (see [`Cube`]).
const FIELD: u32 = 5;
const EDGE_BASE: u32 = 40;

/// For each symmetry: for each position, the position its field is read from, and what each
/// field value (cubie | orientation << 3 or << 4) becomes there.
struct Tables {
    corner_from: [[u8; 8]; SYMMETRIES],
    corner_map: [[[u8; 32]; 8]; SYMMETRIES],
    edge_from: [[u8; 12]; SYMMETRIES],
    edge_map: [[[u8; 32]; 12]; SYMMETRIES],
    /// The first step of [`canonical`] at once: for each source position `p` and the field
    /// found there, the least value corner 7 takes in the views that read it from `p`, and
    /// the set of those views.
    first_least: [[u8; 32]; 8],
    first_views: [[u64; 32]; 8],
}

/// "Comes from" facelet tables of the 24 rotations: any face up (6 ways), then a quarter turn
/// about the vertical axis 0-3 times.
pub(crate) fn rotation_facelets() -> Vec<[u8; 54]> {
    let identity: [u8; 54] = std::array::from_fn(|i| i as u8);
    // After `a` then `b`, facelet j shows what `a` had brought to facelet b[j].
    let then =
        |a: &[u8; 54], b: &[u8; 54]| -> [u8; 54] { std::array::from_fn(|j| a[b[j] as usize]) };
    let x = quarter_turn(Face::R, ALL_LAYERS);
    let z = quarter_turn(Face::F, ALL_LAYERS);
    let y = quarter_turn(Face::U, ALL_LAYERS);
    let x2 = then(&x, &x);
    let ups = [identity, x, x2, then(&x2, &x), z, then(&then(&z, &z), &z)];
    let mut all = Vec::with_capacity(ROTATIONS);
    for up in ups {
        let mut r = up;
        for _ in 0..4 {
            all.push(r);
            r = then(&r, &y);
        }
    }
    all
}

/// The rotation as a cubie-model "move" `S`: `S.cp[i]` is the position whose cubie the rotation
/// brings to position `i`, `S.co[i]` how far it is turned there (edges likewise).
fn rotation_cubie(from: &[u8; 54]) -> CubieCube {
    let mut s = CubieCube::SOLVED;
    locate(from, &corner_facelets(), &mut s.cp, &mut s.co);
    locate(from, &edge_facelets(), &mut s.ep, &mut s.eo);
    s
}

/// For pieces whose positions have the facelets `positions` (reference facelet first): after
/// the facelet move `from`, which position's piece sits at each position (`piece`), and in
/// which of its facelets the piece's reference facelet lies (`turn`).
fn locate<const N: usize>(
    from: &[u8; 54],
    positions: &[[u8; N]],
    piece: &mut [u8],
    turn: &mut [u8],
) {
    for (i, target) in positions.iter().enumerate() {
        for (p, source) in positions.iter().enumerate() {
            if let Some(slot) = target.iter().position(|&f| from[f as usize] == source[0]) {
                piece[i] = p as u8;
                turn[i] = slot as u8;
            }
        }
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            corner_from: [[0; 8]; SYMMETRIES],
            corner_map: [[[0; 32]; 8]; SYMMETRIES],
            edge_from: [[0; 12]; SYMMETRIES],
            edge_map: [[[0; 32]; 12]; SYMMETRIES],
            first_least: [[u8::MAX; 32]; 8],
            first_views: [[0; 32]; 8],
        };
        for (r, from) in rotation_facelets().iter().enumerate() {
            // The view from rotation r is S^-1 * cube * S: position i reads the field of
            // position S.cp[i], whose cubie c becomes S^-1.cp[c], turned by S^-1.co[c] + S.co[i].
            let s = rotation_cubie(from);
            let inv = s.inverse();
            for i in 0..8 {
                t.corner_from[r][i] = s.cp[i];
                for field in 0..32u8 {
                    let (c, o) = ((field & 7) as usize, field >> 3);
                    let ori = (inv.co[c] + o + s.co[i]) % 3;
                    t.corner_map[r][i][field as usize] = inv.cp[c] | ori << 3;
                }
            }
            for i in 0..12 {
                t.edge_from[r][i] = s.ep[i];
                // Fields 12-15 and 28-31 name no edge and never occur.
                for field in (0..32u8).filter(|f| f & 15 < 12) {
                    let (e, o) = ((field & 15) as usize, field >> 4);
                    let ori = (inv.eo[e] + o + s.eo[i]) % 2;
                    t.edge_map[r][i][field as usize] = inv.ep[e] | ori << 4;
                }
            }
        }
        // The mirror view of a cube D: position i reads the field of its mirror image m(i),
        // whose cubie c becomes m(c) and whose corner twist turns the other way (the U/D
        // facelet stays on U/D; clockwise becomes counter-clockwise). Edge flips stay.
        let (corner_mirror, edge_mirror) = mirror_positions();
        for r in 0..ROTATIONS {
            for i in 0..8 {
                let m = corner_mirror[i] as usize;
                t.corner_from[ROTATIONS + r][i] = t.corner_from[r][m];
                for field in 0..32 {
                    let seen = t.corner_map[r][m][field];
                    let (c, o) = (seen & 7, seen >> 3);
                    t.corner_map[ROTATIONS + r][i][field] =
                        corner_mirror[c as usize] | ((3 - o) % 3) << 3;
                }
            }
            for i in 0..12 {
                let m = edge_mirror[i] as usize;
                t.edge_from[ROTATIONS + r][i] = t.edge_from[r][m];
                for field in 0..32 {
                    let seen = t.edge_map[r][m][field];
                    let (e, o) = ((seen & 15) as usize, seen >> 4);
                    t.edge_map[ROTATIONS + r][i][field] =
                        edge_mirror.get(e).map_or(0, |&m| m | o << 4);
                }
            }
        }
        for r in 0..SYMMETRIES {
            let p = t.corner_from[r][7] as usize;
            for field in 0..32 {
                let value = t.corner_map[r][7][field];
                if value < t.first_least[p][field] {
                    t.first_least[p][field] = value;
                    t.first_views[p][field] = 0;
                }
                if value == t.first_least[p][field] {
                    t.first_views[p][field] |= 1 << r;
                }
            }
        }
        t
    })
}

/// The left-right mirror ("comes from" facelet table): every point's x negated.
pub(crate) fn mirror_facelets() -> [u8; 54] {
    std::array::from_fn(|j| {
        let (point, normal) = facelet_place(j);
        let flip = |v: V3| [-v[0], v[1], v[2]];
        facelet_at(flip(point), flip(normal)) as u8
    })
}

/// For each corner and edge position, the position the left-right mirror puts in its place.
fn mirror_positions() -> ([u8; 8], [u8; 12]) {
    let from = mirror_facelets();
    let (mut corner, mut edge) = ([0; 8], [0; 12]);
    // The mirror keeps the U, D, F and B faces, so a reference facelet stays a reference
    // facelet (every turn found is 0); that a corner's twist reverses is the caller's part.
    locate(&from, &corner_facelets(), &mut corner, &mut [0; 8]);
    locate(&from, &edge_facelets(), &mut edge, &mut [0; 12]);
    (corner, edge)
}

/// `cube` seen through symmetry `r` (0 is the identity; below 24 a rotation: the same
/// position, re-read with the centres in place after turning the whole cube; from 24 the same
/// rotation and then the left-right mirror).
///
/// # Panics
///
/// If `r` is not below [`SYMMETRIES`].
pub fn view(cube: Cube, r: usize) -> Cube {
    assert!(r < SYMMETRIES, "symmetry {r} of {SYMMETRIES}");
    Fields::of(cube).view(tables(), r)
}

/// The face move that makes `cube` of the solved cube, if one does.
pub(crate) fn move_of(cube: Cube) -> Option<Move> {
    Move::ALL
        .into_iter()
        .find(|&m| Cube::SOLVED.apply(m) == cube)
}

/// The symmetries (rotations first) whose view turns a quarter turn of `face` into a turn of
/// one of the faces `onto`.
pub(crate) fn views_turning(face: Face, onto: [Face; 2]) -> impl Iterator<Item = usize> {
    let turn = Cube::SOLVED.apply(Move::new(face, 1));
    (0..SYMMETRIES)
        .filter(move |&r| move_of(view(turn, r)).is_some_and(|m| onto.contains(&m.face())))
}

/// For each move (by index), the move a view through symmetry `r` sees instead: a view of a
/// face turn is a face turn.
pub(crate) fn moves_seen(r: usize) -> [Move; 18] {
    Move::ALL.map(|mv| {
        move_of(view(Cube::SOLVED.apply(mv), r)).expect("a view of a face turn is a face turn")
    })
}

/// The symmetries that leave `cube` as it is, but the identity, each as the move (by index)
/// that each move becomes in its view. A search from `cube` can drop a move sequence that one
/// of them maps onto a sequence it searches anyway: both reach views of one another.
pub(crate) fn stabiliser_moves(cube: Cube) -> Vec<[u8; 18]> {
    (0..SYMMETRIES)
        .filter(|&r| view(cube, r) == cube)
        .map(|r| moves_seen(r).map(|m| m.index() as u8))
        .filter(|seen| seen.iter().enumerate().any(|(i, &m)| usize::from(m) != i))
        .collect()
}

/// The class of `cube`: the least of its 48 views, comparing the packed corner bits first
/// and the edge bits among ties (so that edges are read for few views). Equal for two cubes
/// exactly when one is a view of the other; the solved cube is its own class.
///
/// ```
/// use frontier_cube::{canonical, Cube, Notation};
///
/// let r = Cube::from_scramble("R", Notation::Wca).unwrap();
/// let u = Cube::from_scramble("U'", Notation::Wca).unwrap();
/// let r2 = Cube::from_scramble("R2", Notation::Wca).unwrap();
/// assert_eq!(canonical(r), canonical(u)); // one quarter turn, seen from another side
/// assert_ne!(canonical(r), canonical(r2));
/// ```
pub fn canonical(cube: Cube) -> Cube {
    let (fields, least) = least_views(cube);
    fields.view(tables(), least.trailing_zeros() as usize)
}

/// How many of the 48 symmetries leave `cube`'s class as it is: 48 for the solved cube, 1 for
/// most. The class holds `48 / symmetries(cube)` positions.
///
/// ```
/// use frontier_cube::{symmetries, Cube, Notation};
///
/// assert_eq!(symmetries(Cube::SOLVED), 48);
/// // A half turn of U keeps the U-D axis: the 4 rotations about it and 4 mirrors through it.
/// assert_eq!(symmetries(Cube::from_scramble("U2", Notation::Wca).unwrap()), 8);
/// assert_eq!(symmetries(Cube::from_scramble("R U", Notation::Wca).unwrap()), 1);
/// ```
pub fn symmetries(cube: Cube) -> u32 {
    least_views(cube).1.count_ones()
}

/// A cube's fields and the set of its views that are least (its class), as bits by symmetry;
/// when it holds one view, the narrowing stopped early. Several views are all the same cube,
/// the class, and there are as many as the symmetries that leave it as it is.
fn least_views(cube: Cube) -> (Fields, u64) {
    let t = tables();
    let fields = Fields::of(cube);
    // The views still in the running, as a bit set narrowed field by field from the most
    // significant (corner 7) down: after a field or two one view is usually left, and only it
    // is built.
    let mut least = u8::MAX;
    let mut alive = 0u64;
    for (p, &field) in fields.corners.iter().enumerate() {
        let value = t.first_least[p][field as usize];
        if value < least {
            least = value;
            alive = 0;
        }
        if value == least {
            alive |= t.first_views[p][field as usize];
        }
    }
    if alive & (alive - 1) == 0 {
        return (fields, alive);
    }
    for i in (0..7).rev() {
        alive = narrow(alive, |r| {
            t.corner_map[r][i][fields.corners[t.corner_from[r][i] as usize] as usize]
        });
        if alive & (alive - 1) == 0 {
            return (fields, alive);
        }
    }
    for i in (0..12).rev() {
        alive = narrow(alive, |r| {
            t.edge_map[r][i][fields.edges[t.edge_from[r][i] as usize] as usize]
        });
        if alive & (alive - 1) == 0 {
            break;
        }
    }
    // Several views left are all the same cube (the cube has a symmetry of its own).
    (fields, alive)
}

/// A cube's packed fields, unpacked once for the views that read them.
struct Fields {
    corners: [u8; 8],
    edges: [u8; 12],
}

impl Fields {
    fn of(cube: Cube) -> Fields {
        let bits = cube.bits();
        Fields {
            corners: std::array::from_fn(|p| (bits >> (FIELD * p as u32)) as u8 & 31),
            edges: std::array::from_fn(|p| (bits >> (EDGE_BASE + FIELD * p as u32)) as u8 & 31),
        }
    }

    /// The cube seen through symmetry `r`.
    fn view(&self, t: &Tables, r: usize) -> Cube {
        let mut bits = 0u128;
        for i in 0..8 {
            let field = t.corner_map[r][i][self.corners[t.corner_from[r][i] as usize] as usize];
            bits |= u128::from(field) << (FIELD * i as u32);
        }
        for i in 0..12 {
            let field = t.edge_map[r][i][self.edges[t.edge_from[r][i] as usize] as usize];
            bits |= u128::from(field) << (EDGE_BASE + FIELD * i as u32);
        }
        Cube::from_bits(bits)
    }
}

/// Of the symmetries in the bit set `alive`, those whose `field` is least.
#[inline(always)]
fn narrow(alive: u64, field: impl Fn(usize) -> u8) -> u64 {
    let mut least = u8::MAX;
    let mut kept = 0u64;
    let mut rest = alive;
    while rest != 0 {
        let r = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let value = field(r);
        if value < least {
            least = value;
            kept = 0;
        }
        if value == least {
            kept |= 1 << r;
        }
    }
    kept
}

/// Solving a cube on classes: states are [`canonical`] cubes, a move turns the class's cube
/// and takes the class of the result. Distances are those of [`crate::CubeSpace`], with up to
/// 48 times fewer states to store around the solved cube, for the graph searches (`bfs`,
/// `bidirectional`).
/// The solution's states are classes; [`unfold`] gives the face turns on the real cube.
///
/// Tree searches (`iddfs`, `idastar`) gain nothing from it and should use `CubeSpace`, whose
/// move pruning and heuristic assume real cubes.
///
/// ```
/// use frontier_cube::{unfold, Cube, Metric, Notation, SymmetricCubeSpace};
/// use frontier_search::{bidirectional, Config};
///
/// let cube = Cube::from_scramble("R U F' L2", Notation::Wca).unwrap();
/// let space = SymmetricCubeSpace::new(cube, Metric::Htm);
/// let classes = bidirectional(&space, &Config::default()).into_solution().unwrap().states;
/// let moves = unfold(cube, &classes, Metric::Htm).unwrap();
/// assert_eq!(moves.len(), 4);
/// assert!(cube.apply_all(&moves).is_solved());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SymmetricCubeSpace {
    /// The real cubes' space, started from the start's class: a class's neighbours are the
    /// classes of its cube's neighbours.
    cubes: CubeSpace,
}

impl SymmetricCubeSpace {
    /// Solving `start` in `metric`, on classes.
    pub fn new(start: Cube, metric: Metric) -> SymmetricCubeSpace {
        SymmetricCubeSpace {
            cubes: CubeSpace::new(canonical(start), metric),
        }
    }
}

impl Space for SymmetricCubeSpace {
    type State = Cube;
    type Move = Move;

    fn start(&self) -> Cube {
        self.cubes.start()
    }

    fn is_goal(&self, cube: &Cube) -> bool {
        self.cubes.is_goal(cube)
    }

    /// Every move of the metric (the labels are moves on the class's cube, not on the real
    /// one; `last` is not passed on, since a class's cube may be seen from another side than
    /// the move that led to it).
    #[inline]
    fn successors(&self, cube: &Cube, _last: Option<&Move>, mut out: impl FnMut(Move, Cube)) {
        self.cubes
            .successors(cube, None, |mv, next| out(mv, canonical(next)));
    }

    /// Every turn is undone by its inverse, and views of views are views.
    fn undirected(&self) -> bool {
        true
    }

    /// Every move costs 1, in either metric.
    fn max_step_cost(&self) -> Option<Cost> {
        Some(1)
    }

    /// A class stands for `48 / symmetries` positions, so that `explore` counts positions.
    fn weight(&self, cube: &Cube) -> u64 {
        SYMMETRIES as u64 / u64::from(symmetries(*cube))
    }
}

impl Reversible for SymmetricCubeSpace {
    fn goals(&self) -> Vec<Cube> {
        self.cubes.goals()
    }

    #[inline]
    fn predecessors(&self, cube: &Cube, mut out: impl FnMut(Move, Cube)) {
        self.cubes
            .predecessors(cube, |mv, prev| out(mv, canonical(prev)));
    }
}

/// The face turns that take `start` through the classes `classes` (a path found on
/// [`SymmetricCubeSpace`], beginning with `start`'s class): at each step, a turn of the real
/// cube whose result lies in the next class. `None` if `classes` is not such a path.
pub fn unfold(start: Cube, classes: &[Cube], metric: Metric) -> Option<Vec<Move>> {
    let (first, rest) = classes.split_first()?;
    if canonical(start) != *first {
        return None;
    }
    let mut cube = start;
    let mut moves = Vec::with_capacity(rest.len());
    for &class in rest {
        let &mv = metric
            .moves()
            .iter()
            .find(|&&mv| canonical(cube.apply(mv)) == class)?;
        cube = cube.apply(mv);
        moves.push(mv);
    }
    Some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facelet::Facelets;
    use crate::notation::Notation;
    use proptest::prelude::*;

    /// Moves the facelets by a "comes from" table, then recolours every facelet by the colour
    /// its centre now shows, so that centres are home.
    fn moved(facelets: &Facelets, from: &[u8; 54]) -> Facelets {
        let mut turned = Facelets::default();
        for (j, &f) in from.iter().enumerate() {
            turned.0[j] = facelets.0[f as usize];
        }
        let mut recolour = [Face::U; 6];
        for face in Face::ALL {
            recolour[turned.0[face.index() * 9 + 4].index()] = face;
        }
        for colour in turned.0.iter_mut() {
            *colour = recolour[colour.index()];
        }
        turned
    }

    /// `cube` seen through every symmetry the slow way, on the facelet model: every rotation,
    /// and every rotation then the mirror.
    fn views_by_facelets(cube: Cube) -> Vec<Cube> {
        let facelets = cube.to_facelets();
        let mirror = mirror_facelets();
        let mut views = Vec::new();
        for from in rotation_facelets() {
            let turned = moved(&facelets, &from);
            views.push(Cube::from_facelets(&turned).expect("a view of a cube is a cube"));
            let mirrored = moved(&turned, &mirror);
            views.push(Cube::from_facelets(&mirrored).expect("a mirrored cube is a cube"));
        }
        views
    }

    #[test]
    fn the_symmetries_are_48_distinct_views_that_fix_the_solved_cube() {
        let views: Vec<[u8; 54]> = rotation_facelets();
        for (a, va) in views.iter().enumerate() {
            for vb in &views[a + 1..] {
                assert_ne!(va, vb);
            }
        }
        for r in 0..SYMMETRIES {
            assert_eq!(view(Cube::SOLVED, r), Cube::SOLVED, "symmetry {r}");
        }
        // A cube with no symmetry of its own has 48 different views.
        let cube = Cube::random(1);
        let mut all: Vec<Cube> = (0..SYMMETRIES).map(|r| view(cube, r)).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), SYMMETRIES);
    }

    #[test]
    fn a_view_of_a_face_turn_is_a_face_turn() {
        for r in 0..SYMMETRIES {
            for &mv in Metric::Htm.moves() {
                let seen = view(Cube::SOLVED.apply(mv), r);
                let matches = Metric::Htm
                    .moves()
                    .iter()
                    .filter(|&&m| Cube::SOLVED.apply(m) == seen)
                    .count();
                assert_eq!(matches, 1, "rotation {r}, {mv:?}");
            }
        }
    }

    #[test]
    fn rotations_keep_a_turns_direction_and_mirrors_reverse_it() {
        // U seen from every side is a clockwise quarter turn of each face in turn; in the
        // mirror it is a counter-clockwise one. Never a half turn.
        let u = Cube::from_scramble("U", Notation::Wca).unwrap();
        let views = |range: std::ops::Range<usize>| {
            let mut seen: Vec<Cube> = range.map(|r| view(u, r)).collect();
            seen.sort();
            seen.dedup();
            seen
        };
        let turns = |names: [&str; 6]| {
            let mut cubes: Vec<Cube> = names
                .iter()
                .map(|t| Cube::from_scramble(t, Notation::Wca).unwrap())
                .collect();
            cubes.sort();
            cubes
        };
        assert_eq!(views(0..ROTATIONS), turns(["U", "D", "R", "L", "F", "B"]));
        assert_eq!(
            views(ROTATIONS..SYMMETRIES),
            turns(["U'", "D'", "R'", "L'", "F'", "B'"])
        );
    }

    /// How many views of `cube` are `cube` itself, counted the slow way.
    fn symmetries_by_views(cube: Cube) -> u32 {
        (0..SYMMETRIES).filter(|&r| view(cube, r) == cube).count() as u32
    }

    #[test]
    fn symmetries_count_the_views_that_leave_each_class_within_five_moves() {
        // Every class within 5 face turns, where the symmetric positions are: the counts
        // agree with the slow way, and the class sizes add up to the positions at each
        // distance (OEIS A080601: 1, 18, 243, 3240, 43239, 574908).
        let space = SymmetricCubeSpace::new(Cube::SOLVED, Metric::Htm);
        let mut seen = std::collections::HashSet::from([Cube::SOLVED]);
        let mut layer = vec![Cube::SOLVED];
        let mut positions = Vec::new();
        while positions.len() < 6 {
            let mut count = 0;
            for &class in &layer {
                assert_eq!(symmetries(class), symmetries_by_views(class), "{class:?}");
                count += SYMMETRIES as u64 / u64::from(symmetries(class));
            }
            positions.push(count);
            let mut next = Vec::new();
            for class in &layer {
                space.successors(class, None, |_, c| {
                    if seen.insert(c) {
                        next.push(c);
                    }
                });
            }
            layer = next;
        }
        assert_eq!(positions, [1, 18, 243, 3240, 43239, 574908]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn a_cube_has_as_many_symmetries_as_its_class(seed in any::<u64>(), r in 0..SYMMETRIES) {
            let cube = Cube::random(seed);
            let class = canonical(cube);
            prop_assert_eq!(symmetries(cube), symmetries_by_views(class));
            prop_assert_eq!(symmetries(view(cube, r)), symmetries(cube));
        }

        #[test]
        fn fast_views_are_the_facelet_views(seed in any::<u64>()) {
            let cube = Cube::random(seed);
            let mut fast: Vec<Cube> = (0..SYMMETRIES).map(|r| view(cube, r)).collect();
            let mut slow = views_by_facelets(cube);
            fast.sort();
            slow.sort();
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn the_class_is_the_least_view_by_corners_then_edges(seed in any::<u64>()) {
            let cube = Cube::random(seed);
            let corners = |c: Cube| c.bits() & ((1 << EDGE_BASE) - 1);
            let least = (0..SYMMETRIES)
                .map(|r| view(cube, r))
                .min_by_key(|&v| (corners(v), v.bits() >> EDGE_BASE))
                .unwrap();
            prop_assert_eq!(canonical(cube), least);
        }

        #[test]
        fn every_view_has_the_same_class(seed in any::<u64>(), r in 0..SYMMETRIES) {
            let cube = Cube::random(seed);
            let class = canonical(cube);
            prop_assert_eq!(canonical(view(cube, r)), class);
            prop_assert!((0..SYMMETRIES).any(|k| view(cube, k) == class));
        }
    }
}
