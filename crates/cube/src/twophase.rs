//! Kociemba's two-phase algorithm: [`TwoPhase`].

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use frontier_search::{prefetch, Config, Limit, Outcome, Solution, Stats, Watch};

use frontier_tables::{BuildProgress, Cache, TableReport};

use crate::cache::{self, TableKind};
use crate::cube::Cube;
use crate::cubie::{CubieCube, SplitMix};
use crate::geometry::Face;
use crate::heuristic::{
    corner_perm, move_table, perm_rank, perm_unrank, product_distances, set_corner_perm,
    CORNER_PERMS, SLICES,
};
use crate::lock;
use crate::moves::{Metric, Move};
use crate::optimal::{AxisNode, Optimal};
use crate::symmetry::{moves_seen, view, views_turning};

/// Permutations of the eight U and D layer edges.
const EDGE8_PERMS: usize = 40320;
/// Permutations of the four middle-layer edges.
const SLICE_PERMS: usize = 24;
/// Where the quarter turns of U and D are among [`phase2_moves`]: each followed by the half
/// turn and the other quarter turn of its face.
const QUARTER_TURNS_UD: [usize; 2] = [0, 5];
/// The longest phase 2 tried: G1 is solved in at most 18 of its moves.
const PHASE2_MOST: usize = 18;
/// The longest phase 2 tried after a phase 1 of at least one move: a long phase 2 costs more
/// than the longer phase 1s that leave a short one (min2phase takes 12; 11 searches fewer
/// nodes here and gives shorter solutions).
const PHASE2_CAP: usize = 11;
/// A phase 1 that reaches G1 with fewer moves than this left is not followed out of G1 and
/// back: the shorter phase 1 that stops there is tried on its own (min2phase's choice).
const EXCURSION: usize = 5;
/// Phase 1 bounds a node's children by their exact distance to G1 when it has at least this
/// many moves left, and by their projections' distances nearer G1 (where those prune about as
/// well, from tables small enough to stay in cache); below it a node's `distance` is not kept.
const EXACT_FROM: usize = 6;
/// The pre-moved variants join the search once the first phase-1 length tried has failed and
/// the lengths exceed this: their phase 1s are one move shorter than the others' at the same
/// time (the pre-move makes up the difference), and finding their exact distances to G1 costs
/// more than most easy cubes' whole search.
const PRE_FROM: usize = 8;
/// The longest solution two-phase ever returns: 30 moves.
const LONGEST: usize = 30;

/// Whether `mv` is one of G1's moves: any turn of U or D, a half turn of the others.
fn keeps_g1(mv: Move) -> bool {
    matches!(mv.face().index(), 0 | 3) || mv.quarter_turns() == 2
}

/// The ten moves of G1: U, D (any turn), R2, L2, F2, B2, in move order.
fn phase2_moves() -> [Move; 10] {
    let mut out = [Move::ALL[0]; 10];
    for (slot, mv) in out
        .iter_mut()
        .zip(Move::ALL.into_iter().filter(|&mv| keeps_g1(mv)))
    {
        *slot = mv;
    }
    out
}

/// The permutation of the U and D layer edges (positions 0..8) of a cube in G1.
fn edge8_perm(c: &CubieCube) -> usize {
    perm_rank(&c.ep[..8])
}

fn set_edge8_perm(rank: usize) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    c.ep[..8].copy_from_slice(&perm_unrank(rank, 8));
    c
}

/// The permutation of the middle-layer edges (positions 8..12) of a cube in G1.
fn slice_perm(c: &CubieCube) -> usize {
    perm_rank(&c.ep[8..])
}

fn set_slice_perm(rank: usize) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    for (slot, e) in c.ep[8..].iter_mut().zip(perm_unrank(rank, 4)) {
        *slot = 8 + e;
    }
    c
}

/// A move table compacted to `moves`: `out[coordinate * moves.len() + k]` is the coordinate
/// after `moves[k]`, in the smallest type that holds it.
fn compact(table: &[u32], moves: &[Move]) -> Vec<u16> {
    let size = table.len() / 18;
    let mut out = Vec::with_capacity(size * moves.len());
    for coordinate in 0..size {
        for mv in moves {
            out.push(table[coordinate * 18 + mv.index()] as u16);
        }
    }
    out
}

/// Where the four U-layer corners are (which 4 of the 8 positions: 70 sets, ranked in
/// lexicographic order of the position bits' combination) and the parity of the corner
/// permutation: 140 values, 0 when solved. In G1 its parity is the parity of all the edges,
/// so it says of the middle-layer edges' permutation what the U/D edges' does not.
fn corner_comb(c: &CubieCube) -> usize {
    let mut rank = 0;
    let mut seen = 0;
    // The rank of a 4-set among 8 positions in the combinatorial number system.
    for (i, &corner) in c.cp.iter().enumerate() {
        if corner < 4 {
            seen += 1;
            rank += binomial(i, seen);
        }
    }
    rank + COMBS * usize::from(crate::cubie::parity(&c.cp))
}

/// A cube of G1 with this [`corner_comb`].
fn set_corner_comb(value: usize) -> CubieCube {
    let (mut rank, odd) = (value % COMBS, value >= COMBS);
    let mut c = CubieCube::SOLVED;
    // Positions from the highest down: the combinatorial number system's greedy decoding.
    let (mut up, mut down) = (4u8, 8u8);
    let mut k = 4;
    for i in (0..8).rev() {
        if k > 0 && binomial(i, k) <= rank {
            rank -= binomial(i, k);
            k -= 1;
            up -= 1;
            c.cp[i] = up;
        } else {
            down -= 1;
            c.cp[i] = down;
        }
    }
    if crate::cubie::parity(&c.cp) != odd {
        let (a, b) = (
            c.cp.iter().position(|&x| x == 0),
            c.cp.iter().position(|&x| x == 1),
        );
        c.cp.swap(
            a.expect("corner 0 is somewhere"),
            b.expect("corner 1 is somewhere"),
        );
    }
    c
}

/// The combinations of 4 corner positions among 8.
const COMBS: usize = 70;
/// [`corner_comb`]'s values.
const CORNER_COMBS: usize = 2 * COMBS;

/// `n` choose `k` (0 when `k > n`), for small numbers.
const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut out = 1;
    let mut i = 0;
    while i < k {
        out = out * (n - i) / (i + 1);
        i += 1;
    }
    out
}

/// The distance tables of phase 2, by [`TableKind`]: built by breadth-first search in G1.
pub(crate) fn phase2_table(kind: TableKind) -> Vec<u8> {
    let moves = phase2_moves();
    let edges = || move_table(EDGE8_PERMS, set_edge8_perm, edge8_perm, &moves);
    let (first, second) = match kind {
        TableKind::CornersInG1 => (
            (
                move_table(CORNER_PERMS, set_corner_perm, corner_perm, &moves),
                CORNER_PERMS,
            ),
            (
                move_table(SLICE_PERMS, set_slice_perm, slice_perm, &moves),
                SLICE_PERMS,
            ),
        ),
        TableKind::EdgesCornersInG1 => (
            (edges(), EDGE8_PERMS),
            (
                move_table(CORNER_COMBS, set_corner_comb, corner_comb, &moves),
                CORNER_COMBS,
            ),
        ),
        _ => (
            (edges(), EDGE8_PERMS),
            (
                move_table(SLICE_PERMS, set_slice_perm, slice_perm, &moves),
                SLICE_PERMS,
            ),
        ),
    };
    product_distances((&first.0, first.1), (&second.0, second.1), 0, &moves)
}

/// Kociemba's two-phase algorithm: a solution of any cube within a bound (20 moves or more:
/// always; fewer: when two-phase finds one), fast, not necessarily the shortest.
///
/// Phase 1 takes the cube into the subgroup G1 = <U, D, R2, L2, F2, B2>, where no corner is
/// twisted, no edge flipped, and the four middle-layer edges are in the middle layer; phase 2
/// solves it with G1's ten moves, which never leave it. Each phase is a depth-first search
/// over small coordinates of the cube (numbers read off the cubie model) with move tables:
///
/// - phase 1 knows the exact distance to G1 of every node, from the [`Optimal`] solver's
///   table (64,430 symmetry classes of flip and middle-edge positions x 2,187 twists, the
///   distance modulo 3 in two bits, 35 MB); it walks only along paths that reach G1 in the
///   length it tries. Within five moves of the end of such a path, where they prune about as
///   well, it bounds the children by the distances of two projections instead (twist x
///   middle-edge positions and flip x middle-edge positions, the heuristic's 2 MB), which
///   mostly stay in cache;
/// - phase 2 is bounded by three tables of distances within G1: corner permutation x
///   middle-edge permutation and U/D-edge permutation x middle-edge permutation (967,680
///   entries each), and U/D-edge permutation x where the U corners are and the corners'
///   parity (5.6 million entries), this one read for the cube and for its inverse too. The
///   bound is checked before phase 2 is entered; phase 2 may take at most 11 moves after a
///   phase 1 of at least one move (a longer phase 1 with a shorter phase 2 is tried
///   instead), and starts from the cube phase 1 reached (kept move by move along its path).
///
/// Phase-1 lengths are tried in increasing order, each for six problems side by side: the
/// cube and its inverse, each seen along the three axes (a rotated view has other phase 1s,
/// and its solutions map back move by move). Once the first length has failed (and from
/// phase 1s of 9 moves), each of the six is tried after each pre-move too, a quarter turn of
/// R, F, L or B made before it (and its other quarter turn, which leaves the same phase 1s):
/// a phase 1 one move shorter, then phase 2, then the pre-move solve it. Hard cubes find a
/// solution within the bound sooner among these 24 more problems. [`TwoPhase::solve`] stops
/// at the first solution within the bound; [`TwoPhase::solve_with_effort`] then searches a
/// number of nodes more and keeps any shorter one. A phase-1 solution must end with a quarter
/// turn of R, L, F or B: one ending with a G1 move reached G1 one move earlier, and that
/// shorter phase 1 is tried too.
///
/// ```
/// use frontier_cube::{Cube, Notation, TwoPhase};
/// use frontier_search::{Config, Status};
///
/// // The tables of frontier's cache are [`TwoPhase::get`]'s; a cache of one's own:
/// let cache = frontier_tables::Cache::at(std::env::temp_dir().join("frontier-doc-cache"));
/// let solver = TwoPhase::load_or_build(&cache);
/// let cube = Cube::from_scramble("R U R' U' F2 D B' L2 U R' F D2", Notation::Wca).unwrap();
/// // A solution of at most 20 moves, in one call.
/// let outcome = solver.solve(cube, 20, &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// let solution = outcome.into_solution().unwrap();
/// assert!(solution.len() <= 20);
/// assert!(cube.apply_all(&solution.moves).is_solved());
/// ```
///
/// A `TwoPhase` holds the phase-1 table and what it is looked up with (the [`Optimal`]
/// solver's, about 40 MB), phase 1's projections (2 MB) and phase 2's move and distance
/// tables (9 MB), all cached on disk:
/// the first build is mostly the phase-1 table's (shared with the optimal solver), a load
/// mostly reading it. [`TwoPhase::get`] shares one per process.
pub struct TwoPhase {
    /// Phase 1's exact distances and coordinates (the HTM optimal solver's tables).
    phase1: Optimal,
    /// Phase 1's projections' distances to G1 (the heuristic's twist x slice and flip x
    /// slice tables): near G1 a child is bounded by them instead of its exact distance.
    twist_slice: Vec<u8>,
    flip_slice: Vec<u8>,
    /// Phase 2's moves, and its move tables over them: `corner_moves[c * 10 + k]`.
    moves2: [Move; 10],
    corner_moves: Vec<u16>,
    edge_moves: Vec<u16>,
    slice_perm_moves: Vec<u16>,
    /// The rank of the inverse of each permutation of eight, by rank: the inverse cube's
    /// corner and U/D edge permutations.
    inverses: Vec<u16>,
    /// Phase 2's bounds: corners x middle edges, U/D edges x middle edges, U/D edges x
    /// [`corner_comb`].
    corners_in_g1: Vec<u8>,
    edges_in_g1: Vec<u8>,
    edges_corners_in_g1: Vec<u8>,
    /// The [`corner_comb`] of each corner permutation, by rank.
    comb_of: Vec<u8>,
    /// Two rotations that take the U-D axis to the R-L and to the F-B axis, and for each, the
    /// move of the real cube behind each move of the rotated view (by move index).
    axes: [(usize, [Move; 18]); 2],
    /// What happened to phase 2's tables.
    reports: Vec<TableReport>,
}

/// The tables are summed up by where they came from.
impl std::fmt::Debug for TwoPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwoPhase")
            .field("reports", &self.cache_report().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// One of the six problems two-phase solves for a cube: the cube or its inverse, seen along
/// each of the three axes (the view a rotation gives). They share their solutions, mapped
/// back, but not their phase 1s, so one of them often finds a short solution sooner.
#[derive(Clone, Copy)]
struct Variant {
    /// The cube this variant solves.
    cube: Cube,
    /// Which of the solver's `axes` views it, if any.
    axis: Option<usize>,
    /// Whether it is the inverse of the cube.
    inverse: bool,
    /// The pre-move, if any: a quarter turn `m` of R, L, F or B made before the cube, so that
    /// `cube` is `m` then the variant's cube and a solution of it, followed by `m`, solves the
    /// variant. A phase 1 of the pre-moved cube is one of the cube after its other quarter
    /// turn `m'` too (they differ by a half turn made first, which keeps the phase-1
    /// coordinates), so phase 2 is tried for both.
    pre: Option<Move>,
}

impl Variant {
    /// The cube and its inverse, each along the three axes.
    fn all(cube: Cube, tables: &TwoPhase) -> [Variant; 6] {
        let inverse = Cube::from_cubie(&cube.to_cubie().inverse());
        let seen = |base: Cube, axis: Option<usize>, inverse: bool| Variant {
            cube: axis.map_or(base, |a| view(base, tables.axes[a].0)),
            axis,
            inverse,
            pre: None,
        };
        [
            seen(cube, None, false),
            seen(inverse, None, true),
            seen(cube, Some(0), false),
            seen(inverse, Some(0), true),
            seen(cube, Some(1), false),
            seen(inverse, Some(1), true),
        ]
    }

    /// This variant after the pre-move `m` (a quarter turn of R, L, F or B).
    fn pre_moved(&self, m: Move) -> Variant {
        Variant {
            cube: Cube::from_cubie(&Cube::move_cube(m).multiply(&self.cube.to_cubie())),
            pre: Some(m),
            ..*self
        }
    }

    /// The moves that solve the real cube, from moves that solve this variant: each move
    /// seen back from its axis; for the inverse, the moves undone in reverse order.
    fn solution(&self, moves: &[Move], tables: &TwoPhase) -> Vec<Move> {
        let back = |mv: Move| self.axis.map_or(mv, |a| tables.axes[a].1[mv.index()]);
        if self.inverse {
            moves.iter().rev().map(|&mv| back(mv).inverse()).collect()
        } else {
            moves.iter().map(|&mv| back(mv)).collect()
        }
    }
}

/// Two rotations that take the U-D axis to the R-L and the F-B axis, each with the move of the
/// real cube behind each move of its view.
fn axes() -> [(usize, [Move; 18]); 2] {
    [[Face::R, Face::L], [Face::F, Face::B]].map(|faces| {
        let rotation = (views_turning(Face::U, faces).next())
            .expect("some rotation takes U to the R-L and to the F-B axis");
        let mut back = [Move::ALL[0]; 18];
        for (mv, seen) in Move::ALL.into_iter().zip(moves_seen(rotation)) {
            back[seen.index()] = mv;
        }
        (rotation, back)
    })
}

/// Phase 2's move tables of the corner and U/D edge permutations and the inverse of each
/// permutation of eight (both coordinates rank them alike), as the bytes of their cached
/// file ([`TableKind::G1Moves`]): `corner_moves[c * 10 + k]`, then `edge_moves`, then
/// `inverses[p]`, then the [`corner_comb`] of each corner permutation; each entry two bytes,
/// little-endian.
fn g1_moves_bytes(moves: &[Move; 10]) -> Vec<u8> {
    let corners = compact(
        &move_table(CORNER_PERMS, set_corner_perm, corner_perm, moves),
        moves,
    );
    let edges = compact(
        &move_table(EDGE8_PERMS, set_edge8_perm, edge8_perm, moves),
        moves,
    );
    let inverses = inverse_ranks(8, CORNER_PERMS);
    let combs: Vec<u16> = (0..CORNER_PERMS)
        .map(|rank| corner_comb(&set_corner_perm(rank)) as u16)
        .collect();
    (corners.iter().chain(&edges).chain(&inverses).chain(&combs))
        .flat_map(|x| x.to_le_bytes())
        .collect()
}

/// The rank of the inverse of each permutation of `n` elements, by rank.
fn inverse_ranks(n: usize, count: usize) -> Vec<u16> {
    (0..count)
        .map(|rank| {
            let perm = perm_unrank(rank, n);
            let mut inverse = vec![0u8; n];
            for (i, &p) in perm.iter().enumerate() {
                inverse[usize::from(p)] = i as u8;
            }
            perm_rank(&inverse) as u16
        })
        .collect()
}

/// What the workers of one solve share: the best solution, the limits' verdict, the counts.
struct Shared<'a> {
    tables: &'a TwoPhase,
    /// The limits, the clock and the progress reports; it keeps the limit that stopped the
    /// search, if one did: every worker then ends.
    watch: Watch<'a>,
    /// The cube and its six variants; a worker takes every `threads`-th variant.
    variants: [Variant; 6],
    /// The best solution found (moves of the real cube), and one more than the longest
    /// solution still wanted: phase 2 is bounded by it.
    best: Mutex<Option<Vec<Move>>>,
    best_len: AtomicUsize,
    /// The nodes each worker searches after the first solution, for a shorter one.
    effort: u64,
    /// Whether a solution was found: then each worker searches its `effort` nodes more.
    found: AtomicBool,
    /// Whether the workers must end: a solution was found and there is no effort left.
    done: AtomicBool,
    /// The longest phase 1 searched so far.
    phase1_len: AtomicUsize,
}

/// One worker: its phase 1 and phase 2 in progress, over some of the variants.
struct Search<'a> {
    shared: &'a Shared<'a>,
    /// The variant the current phase 1 works on.
    variant: Variant,
    /// The moves of the current phase 1 and phase 2, in order.
    path: [Move; LONGEST + PHASE2_MOST + 1],
    /// `cubes[d]`: the variant's cube after the first `d` moves of the path, for
    /// `d <= valid` (phase 2 starts from it; filled in only when a phase 1 ends).
    cubes: [Cube; LONGEST + 1],
    valid: usize,
    /// Once a solution is found: the node count at which this worker ends.
    until: Option<u64>,
    expanded: u64,
    generated: u64,
    /// Whether this worker must end now: a limit stopped the search, or a solution was found
    /// and its effort is spent.
    halted: bool,
}

/// Whether the search should stop: it found what it wanted or a limit stopped it.
type Stop = bool;

impl TwoPhase {
    /// About the bytes its tables take to build: the phase-1 table's build (as
    /// [`Optimal::BUILD_BYTES`]), and the rest (18 MB). Loaded from the cache, they take about
    /// 52 MB.
    pub const BYTES: u64 = Optimal::BUILD_BYTES + (18 << 20);

    /// Random-state scrambles from `seed` (the same seed, the same scrambles); see
    /// [`Scrambles`].
    ///
    /// ```
    /// use frontier_cube::{Cube, TwoPhase};
    ///
    /// let cache = frontier_tables::Cache::at(std::env::temp_dir().join("frontier-doc-cache"));
    /// let solver = TwoPhase::load_or_build(&cache);
    /// for scramble in solver.scrambles(7).take(3) {
    ///     assert!((2..=20).contains(&scramble.moves.len()));
    ///     assert_eq!(Cube::SOLVED.apply_all(&scramble.moves), scramble.cube);
    /// }
    /// ```
    pub fn scrambles(&self, seed: u64) -> Scrambles<'_> {
        Scrambles {
            solver: self,
            rng: SplitMix(seed),
        }
    }

    /// The solver's tables, loaded on first use from the disk cache (or built the first time
    /// and saved there) and shared by the whole process.
    pub fn get() -> &'static TwoPhase {
        static TABLES: OnceLock<TwoPhase> = OnceLock::new();
        TABLES.get_or_init(|| TwoPhase::load_or_build(&cache::default_cache()))
    }

    /// The tables, read from `cache` or built and written there (as
    /// [`Heuristic::load_or_build`](crate::Heuristic::load_or_build) does).
    pub fn load_or_build(cache: &Cache) -> TwoPhase {
        TwoPhase::load_or_build_with(cache, &|_| {}, &|| None)
            .expect("a build with no limit check ends")
    }

    /// [`TwoPhase::load_or_build`], reporting the phase-1 table's build to `progress` and
    /// stopped by the limit `stop` returns, if it does during that build (then nothing is
    /// written and the limit is returned).
    pub fn load_or_build_with(
        cache: &Cache,
        progress: &(dyn Fn(BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
    ) -> Result<TwoPhase, Limit> {
        let phase1 = Optimal::load_phase1(cache, progress, stop)?;
        let moves2 = phase2_moves();
        let mut reports = Vec::new();
        let [twist_slice, flip_slice] = [TableKind::TwistSlice, TableKind::FlipSlice].map(|kind| {
            let spec = cache::spec(kind, Metric::Htm);
            let build = || Ok(crate::heuristic::projection_table(kind));
            let (table, report) = cache
                .load_or_build(&spec, |len| vec![0; len], build)
                .expect("a build with no limit check ends");
            reports.push(report);
            table
        });
        let [corners_in_g1, edges_in_g1, edges_corners_in_g1] = [
            TableKind::CornersInG1,
            TableKind::EdgesInG1,
            TableKind::EdgesCornersInG1,
        ]
        .map(|kind| {
            let spec = cache::spec(kind, Metric::Htm);
            let build = || Ok(phase2_table(kind));
            let (table, report) = cache
                .load_or_build(&spec, |len| vec![0; len], build)
                .expect("a build with no limit check ends");
            reports.push(report);
            table
        });
        let spec = cache::spec(TableKind::G1Moves, Metric::Htm);
        let (bytes, report) = cache
            .load_or_build(&spec, |len| vec![0; len], || Ok(g1_moves_bytes(&moves2)))
            .expect("a build with no limit check ends");
        reports.push(report);
        let u16s: Vec<u16> = (bytes.chunks_exact(2))
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        let (corner_moves, rest) = u16s.split_at(CORNER_PERMS * 10);
        let (edge_moves, rest) = rest.split_at(EDGE8_PERMS * 10);
        let (inverses, combs) = rest.split_at(CORNER_PERMS);
        Ok(TwoPhase {
            phase1,
            twist_slice,
            flip_slice,
            moves2,
            corner_moves: corner_moves.to_vec(),
            edge_moves: edge_moves.to_vec(),
            inverses: inverses.to_vec(),
            slice_perm_moves: compact(
                &move_table(SLICE_PERMS, set_slice_perm, slice_perm, &moves2),
                &moves2,
            ),
            corners_in_g1,
            edges_in_g1,
            edges_corners_in_g1,
            comb_of: combs.iter().map(|&c| c as u8).collect(),
            axes: axes(),
            reports,
        })
    }

    /// What happened to each of the solver's tables (loaded, built, rebuilt and why, not
    /// cached and why): phase 1's (its distances, then what they are looked up with), its two
    /// projections (twist x slice, flip x slice: the heuristic's files), then phase 2's four
    /// (corner and edge distances, move tables).
    pub fn cache_report(&self) -> impl Iterator<Item = &TableReport> {
        [self.phase1.cache_report(), self.phase1.coordinates_report()]
            .into_iter()
            .chain(&self.reports)
    }

    /// A lower bound of the moves that take phase-1 coordinates into G1: the larger of their
    /// twist x slice and flip x slice projections' distances.
    #[inline(always)]
    fn projected(&self, node: &AxisNode) -> usize {
        let (t, f, s) = (
            usize::from(node.twist),
            usize::from(node.flip),
            usize::from(node.slice),
        );
        let twist_slice = self.twist_slice[t * SLICES + s];
        let flip_slice = self.flip_slice[f * SLICES + s];
        usize::from(twist_slice.max(flip_slice))
    }

    /// Starts reading the entries [`TwoPhase::projected`] reads.
    #[inline(always)]
    fn prefetch_projections(&self, node: &AxisNode) {
        let s = usize::from(node.slice);
        prefetch(
            self.twist_slice
                .as_ptr()
                .wrapping_add(usize::from(node.twist) * SLICES + s),
        );
        prefetch(
            self.flip_slice
                .as_ptr()
                .wrapping_add(usize::from(node.flip) * SLICES + s),
        );
    }

    /// A lower bound of the G1 moves that solve a cube of G1 with these coordinates.
    #[inline]
    fn phase2_bound(&self, corners: usize, edges: usize, slice: usize) -> usize {
        let c = self.corners_in_g1[corners * SLICE_PERMS + slice];
        let e = self.edges_in_g1[edges * SLICE_PERMS + slice];
        usize::from(c.max(e))
    }

    /// Starts reading the entries [`TwoPhase::phase2_bound`] reads.
    #[inline(always)]
    fn prefetch_phase2_bound(&self, (corners, edges, slice): (usize, usize, usize)) {
        prefetch(
            self.corners_in_g1
                .as_ptr()
                .wrapping_add(corners * SLICE_PERMS + slice),
        );
        prefetch(
            self.edges_in_g1
                .as_ptr()
                .wrapping_add(edges * SLICE_PERMS + slice),
        );
    }

    /// Starts reading the entries [`TwoPhase::comb_bound`] reads in its largest table.
    #[inline(always)]
    fn prefetch_comb_bound(&self, corners: usize, edges: usize) {
        let entry = |e: usize, c: usize| e * CORNER_COMBS + usize::from(self.comb_of[c]);
        let inverse = entry(
            usize::from(self.inverses[edges]),
            usize::from(self.inverses[corners]),
        );
        prefetch(
            self.edges_corners_in_g1
                .as_ptr()
                .wrapping_add(entry(edges, corners)),
        );
        prefetch(self.edges_corners_in_g1.as_ptr().wrapping_add(inverse));
    }

    /// A second lower bound, from the U/D edges and the U corners' positions, of the cube and
    /// of its inverse (which is as far from solved, and whose corner positions are not the
    /// cube's).
    #[inline(always)]
    fn comb_bound(&self, corners: usize, edges: usize) -> usize {
        let entry = |e: usize, c: usize| {
            self.edges_corners_in_g1[e * CORNER_COMBS + usize::from(self.comb_of[c])]
        };
        let inverse = entry(
            usize::from(self.inverses[edges]),
            usize::from(self.inverses[corners]),
        );
        usize::from(entry(edges, corners).max(inverse))
    }

    /// Solves `cube` in at most `bound` moves (HTM; at most `config.max_depth` if smaller):
    /// the first solution found that short. Every cube has a solution of at most 20 moves
    /// (God's number: Rokicki, Kociemba, Davidson, Dethridge 2010); two-phase finds one of 21
    /// sooner than one of 20, and a few cubes take far longer than most at 20. A bound
    /// below the cube's optimal length can never be met: the search then runs through every
    /// phase-1 length up to the bound, which takes very long; give a timeout.
    /// [`Optimal`] finds the shortest.
    ///
    /// Limits: `config.timeout` ([`Limit::Time`]) and `config.cancel` ([`Limit::Cancelled`]);
    /// [`Limit::Depth`] if the phase-1 lengths up to the bound ran out. It stores nothing, so
    /// `max_states` does not apply. `config.threads` workers (at most six) share out the six
    /// variants; with more than one, which solution comes first may vary from run to run.
    pub fn solve(&self, cube: Cube, bound: usize, config: &Config) -> Outcome<Cube, Move> {
        self.solve_with_effort(cube, bound, 0, config)
    }

    /// [`TwoPhase::solve`], then `effort` nodes more (phase-1 and phase-2 nodes, for each
    /// worker) looking for a shorter solution: the shortest found is returned. Short
    /// scrambles then get short answers (`R U R' U'`: 4 moves, where the first solution has
    /// more). A limit hit during the extra search
    /// returns the best solution so far, as solved.
    pub fn solve_with_effort(
        &self,
        cube: Cube,
        bound: usize,
        effort: u64,
        config: &Config,
    ) -> Outcome<Cube, Move> {
        let longest = (config.max_depth)
            .map_or(LONGEST, |d| (d as usize).min(LONGEST))
            .min(bound);
        let shared = Shared {
            tables: self,
            watch: Watch::new(config),
            variants: Variant::all(cube, self),
            best: Mutex::new(cube.is_solved().then(Vec::new)),
            best_len: AtomicUsize::new(longest + 1),
            effort,
            found: AtomicBool::new(false),
            done: AtomicBool::new(false),
            phase1_len: AtomicUsize::new(0),
        };
        let threads = config.threads.clamp(1, shared.variants.len());
        let mut counts = vec![(0, 0); threads];
        // A limit hit before the search starts (a zero timeout) stops it with nothing found,
        // as it stops every other solver.
        let at_once = shared.watch.limit();
        if !cube.is_solved() && at_once.is_none() {
            std::thread::scope(|scope| {
                let shared = &shared;
                let (first, others) = counts.split_at_mut(1);
                for (worker, count) in others.iter_mut().enumerate() {
                    scope.spawn(move || *count = Search::new(shared).run(worker + 1, threads));
                }
                first[0] = Search::new(shared).run(0, threads);
            });
        }
        let stopped = shared.watch.stopped();
        let best = lock(&shared.best).take();
        let stats = Stats {
            expanded: counts.iter().map(|c| c.0).sum(),
            generated: counts.iter().map(|c| c.1).sum(),
            stored: 0,
            peak_frontier: shared.phase1_len.load(Ordering::Relaxed) as u64,
            seconds: shared.watch.seconds(),
        };
        match (best, stopped) {
            (_, Some(Limit::Cancelled)) => Outcome::Stopped {
                limit: Limit::Cancelled,
                stats,
            },
            (Some(moves), _) => Outcome::Solved {
                solution: Solution {
                    cost: moves.len() as u64,
                    states: cube.path(&moves),
                    moves,
                },
                stats,
            },
            (None, Some(limit)) => Outcome::Stopped { limit, stats },
            (None, None) => Outcome::Stopped {
                limit: Limit::Depth,
                stats,
            },
        }
    }
}

/// A random-state scramble: a uniformly random cube, and moves that take the solved cube
/// there (the inverse of a two-phase solution of at most 20 moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    /// The moves, from the solved cube.
    pub moves: Vec<Move>,
    /// The cube they make.
    pub cube: Cube,
}

/// Random-state scrambles from a seed, as the WCA's scrambler makes them: each cube drawn
/// uniformly from all 43,252,003,274,489,856,000 (uniform corner and edge permutations of equal
/// parity, uniform twist and flip), drawn again if it lies within one move of solved, and
/// written as the inverse of a two-phase solution of at most 20 moves. Made by
/// [`TwoPhase::scrambles`]; endless.
pub struct Scrambles<'a> {
    solver: &'a TwoPhase,
    rng: SplitMix,
}

impl Scrambles<'_> {
    /// The next scramble, its solve under `config`'s limits (a timeout, a cancel flag): the
    /// limit that stopped it, if one did.
    pub fn next_within(&mut self, config: &Config) -> Result<Scramble, Limit> {
        loop {
            let cube = Cube::from_cubie(&CubieCube::random_from(&mut self.rng));
            let near = cube.is_solved() || Move::ALL.iter().any(|&mv| cube.apply(mv).is_solved());
            if near {
                continue;
            }
            let solution = match self.solver.solve(cube, 20, config) {
                Outcome::Solved { solution, .. } => solution,
                outcome => return Err(outcome.limit().unwrap_or(Limit::Depth)),
            };
            let moves = solution.moves.iter().rev().map(|mv| mv.inverse()).collect();
            return Ok(Scramble { moves, cube });
        }
    }
}

impl Iterator for Scrambles<'_> {
    type Item = Scramble;

    fn next(&mut self) -> Option<Scramble> {
        let scramble = self.next_within(&Config::default());
        Some(scramble.expect("two-phase finds 20 moves for every cube, with no limit"))
    }
}

impl<'a> Search<'a> {
    fn new(shared: &'a Shared<'a>) -> Search<'a> {
        Search {
            shared,
            variant: shared.variants[0],
            path: [Move::ALL[0]; LONGEST + PHASE2_MOST + 1],
            cubes: [Cube::SOLVED; LONGEST + 1],
            valid: 0,
            until: None,
            expanded: 0,
            generated: 0,
            halted: false,
        }
    }

    /// Phase 1 of every length in turn, on the variants `worker`, `worker + threads`, ...
    /// Returns the nodes expanded and generated.
    fn run(mut self, worker: usize, threads: usize) -> (u64, u64) {
        let shared = self.shared;
        let phase1 = &shared.tables.phase1;
        let variants = &shared.variants;
        let mine: Vec<usize> = (worker..variants.len())
            .step_by(threads)
            // A symmetric cube has equal variants (the superflip's six are one): each problem
            // is searched once.
            .filter(|&k| !variants[..k].iter().any(|v| v.cube == variants[k].cube))
            .collect();
        let roots: Vec<AxisNode> = (mine.iter())
            .map(|&k| {
                let mut node = phase1.coordinates(variants[k].cube);
                node.distance = phase1.phase1_distance(node);
                node
            })
            .collect();
        // Each variant's pre-moved ones, with their roots, once the phase 1s are long enough
        // for them.
        let mut pre: Vec<(Variant, AxisNode)> = Vec::new();
        let mut pre_made = false;
        let mut length = roots.iter().map(|n| usize::from(n.distance)).min();
        let nearest = length.unwrap_or(0);
        while let Some(l) = length.filter(|&l| l < shared.best_len.load(Ordering::Relaxed)) {
            shared.phase1_len.fetch_max(l, Ordering::Relaxed);
            if !pre_made && l > PRE_FROM && l > nearest {
                pre_made = true;
                for &k in &mine {
                    for face in [Face::R, Face::F, Face::L, Face::B] {
                        let variant = variants[k].pre_moved(Move::new(face, 1));
                        let mut node = phase1.coordinates(variant.cube);
                        node.distance = phase1.phase1_distance(node);
                        pre.push((variant, node));
                    }
                }
            }
            let plain = roots
                .iter()
                .enumerate()
                .map(|(i, root)| (variants[mine[i]], *root, l));
            let moved = pre.iter().map(|&(variant, root)| (variant, root, l - 1));
            for (variant, root, length) in plain.chain(moved) {
                if usize::from(root.distance) > length
                    || l >= shared.best_len.load(Ordering::Relaxed)
                {
                    continue;
                }
                self.variant = variant;
                self.cubes[0] = self.variant.cube;
                self.valid = 0;
                if self.phase1(root, 0, length) {
                    return (self.expanded, self.generated);
                }
            }
            length = Some(l + 1);
        }
        (self.expanded, self.generated)
    }

    /// Ends the whole search at a limit.
    fn stop(&mut self, limit: Limit) -> Stop {
        self.shared.watch.stop(limit);
        self.halted = true;
        true
    }

    /// Counts a node; ends this worker once its effort after a solution is spent; at each
    /// checkpoint, looks at the limits and the other workers, and reports progress. Returns
    /// whether this worker must end (`halted`).
    #[inline]
    fn count(&mut self) -> Stop {
        self.expanded += 1;
        if self.until.is_some_and(|end| self.expanded >= end) {
            self.halted = true;
            return true;
        }
        if !Watch::due(self.expanded) {
            return false;
        }
        let shared = self.shared;
        if shared.watch.stopped().is_some() || shared.done.load(Ordering::Relaxed) {
            self.halted = true;
            return true;
        }
        let phase1_len = shared.phase1_len.load(Ordering::Relaxed);
        if let Some(limit) = shared
            .watch
            .checkpoint(Watch::CHECK_EVERY, phase1_len as u64)
        {
            return self.stop(limit);
        }
        // Another worker found a solution: this one searches its effort too.
        if self.until.is_none() && shared.found.load(Ordering::Relaxed) {
            self.until = Some(self.expanded.saturating_add(shared.effort));
        }
        false
    }

    /// Phase 1 from `node` (its coordinates and exact distance to G1) after `depth` moves,
    /// with `left` more to make: at the end, a cube in G1 goes on to phase 2. A child is
    /// searched only if it is within `left - 1` moves of G1.
    fn phase1(&mut self, node: AxisNode, depth: usize, left: usize) -> Stop {
        if left == 0 {
            return self.phase2_from(depth);
        }
        if left < EXCURSION && self.shared.tables.phase1.in_g1(&node) {
            return false;
        }
        if self.count() {
            return true;
        }
        let phase1 = &self.shared.tables.phase1;
        if left == 1 {
            // The last move takes the cube into G1, which the coordinates say without a table;
            // it is a quarter turn of R, L, F or B.
            for mv in Move::ALL {
                if keeps_g1(mv) || (depth > 0 && !Metric::Htm.may_follow(self.path[depth - 1], mv))
                {
                    continue;
                }
                self.generated += 1;
                if phase1.in_g1(&phase1.moved(&node, mv.index())) {
                    self.path[depth] = mv;
                    self.valid = self.valid.min(depth);
                    if self.phase2_from(depth + 1) {
                        return true;
                    }
                }
            }
            return false;
        }
        let tables = self.shared.tables;
        let mut moves = [0u8; 18];
        let mut children = [node; 18];
        let mut generated = 0;
        for face in 0..6 {
            if depth > 0 && !Metric::Htm.may_follow(self.path[depth - 1], Move::ALL[face * 3]) {
                continue;
            }
            for m in face * 3..face * 3 + 3 {
                children[generated] = phase1.moved(&node, m);
                moves[generated] = m as u8;
                generated += 1;
            }
        }
        self.generated += generated as u64;
        if left < EXACT_FROM {
            // Near G1 the projections (twist x slice, flip x slice: small tables) prune
            // about as well as the exact table, without its reads of memory. Their bounds
            // change by at most one a move: a power of a face whose bound exceeds `left`
            // leaves the face's later powers at least at `left`, pruned.
            for child in &children[..generated] {
                tables.prefetch_projections(child);
            }
            let mut k = 0;
            while k < generated {
                let projected = tables.projected(&children[k]);
                if projected >= left {
                    let power = usize::from(moves[k]) % 3;
                    k += if projected > left { 3 - power } else { 1 };
                    continue;
                }
                self.path[depth] = Move::ALL[usize::from(moves[k])];
                self.valid = self.valid.min(depth);
                if self.phase1(children[k], depth + 1, left - 1) {
                    return true;
                }
                k += 1;
            }
            return false;
        }
        // The children's entries are read in two rounds, all children at each (the class of
        // their flip and slice, then their entry), so that their reads of memory overlap.
        for child in &children[..generated] {
            phase1.prefetch_class(child);
        }
        let mut entries = [0usize; 18];
        for k in 0..generated {
            entries[k] = phase1.entry_of(&children[k]);
            phase1.prefetch_entry(entries[k]);
        }
        for k in 0..generated {
            let child = &mut children[k];
            child.distance = phase1.distance_after(node.distance, entries[k]);
            let mv = Move::ALL[usize::from(moves[k])];
            if usize::from(child.distance) >= left {
                continue;
            }
            self.path[depth] = mv;
            self.valid = self.valid.min(depth);
            if self.phase1(*child, depth + 1, left - 1) {
                return true;
            }
        }
        false
    }

    /// Phase 2 after a phase 1 of `depth` moves: the shortest one, if it makes a solution
    /// within the bound. Returns whether this worker must end.
    fn phase2_from(&mut self, depth: usize) -> Stop {
        if self.shared.done.load(Ordering::Relaxed) {
            self.halted = true;
            return true;
        }
        for d in self.valid..depth {
            self.cubes[d + 1] = self.cubes[d].apply(self.path[d]);
        }
        self.valid = depth;
        let cube = self.cubes[depth];
        let Some(m) = self.variant.pre else {
            return self.phase2_of(cube, depth, None);
        };
        if self.phase2_of(cube, depth, Some(m)) {
            return true;
        }
        // The other quarter turn of the pre-move: its cube differs by a half turn made first.
        let half = Cube::move_cube(Move::new(m.face(), 2));
        let other = Cube::from_cubie(&half.multiply(&cube.to_cubie()));
        self.phase2_of(other, depth, Some(m.inverse()))
    }

    /// Phase 2 of `cube`, in G1 after a phase 1 of `depth` moves and then the pre-move `pre`
    /// at the end, if any: the shortest one, if it makes a solution within the bound. Returns
    /// whether this worker must end.
    fn phase2_of(&mut self, cube: Cube, depth: usize, pre: Option<Move>) -> Stop {
        let shared = self.shared;
        let cap = if depth == 0 { PHASE2_MOST } else { PHASE2_CAP };
        let Some(most) = (shared.best_len.load(Ordering::Relaxed))
            .checked_sub(1 + depth + usize::from(pre.is_some()))
            .map(|most| most.min(cap))
        else {
            return false;
        };
        let cube = cube.to_cubie();
        let (c, e, s) = (corner_perm(&cube), edge8_perm(&cube), slice_perm(&cube));
        let tables = shared.tables;
        // Iterative deepening from the tables' bound: the shortest phase 2 of this phase 1.
        // The cheaper bound first: most phase 1s end too far from solved for it.
        let mut bound = tables.phase2_bound(c, e, s);
        if bound > most {
            return false;
        }
        bound = bound.max(tables.comb_bound(c, e));
        for limit in bound..=most {
            let Some(used) = self.phase2(c, e, s, depth, limit) else {
                if self.halted {
                    return true;
                }
                continue;
            };
            let mut total = depth + used;
            if let Some(m) = pre {
                self.path[total] = m;
                total += 1;
            }
            {
                let mut best = lock(&shared.best);
                // Another worker may have found a shorter one meanwhile.
                if total < shared.best_len.load(Ordering::Relaxed) {
                    *best = Some(self.variant.solution(&self.path[..total], tables));
                    shared.best_len.store(total, Ordering::Relaxed);
                }
            }
            shared.found.store(true, Ordering::Relaxed);
            if shared.effort == 0 {
                shared.done.store(true, Ordering::Relaxed);
                self.halted = true;
                return true;
            }
            self.until
                .get_or_insert(self.expanded.saturating_add(shared.effort));
            return false;
        }
        false
    }

    /// Phase 2 from the coordinates `(c, e, s)` at `depth`, with at most `left` G1 moves to
    /// make: the number of moves that solved the cube, or `None` if none did or this worker
    /// must end (see `halted`).
    fn phase2(&mut self, c: usize, e: usize, s: usize, depth: usize, left: usize) -> Option<usize> {
        if c == 0 && e == 0 && s == 0 {
            return Some(0);
        }
        if left == 0 || self.count() {
            return None;
        }
        let tables = self.shared.tables;
        // The children's bounds are read in rounds, all children at each (the two product
        // tables, then the U/D-edge and U-corner table for those still within reach), so that
        // their reads of memory overlap. The product tables' bound changes by at most one a
        // move: a turn of U or D whose bound exceeds `left` leaves that face's later powers at
        // least at `left`, pruned.
        let mut children = [(0usize, 0usize, 0usize); 10];
        let mut allowed = [false; 10];
        for (k, &mv) in tables.moves2.iter().enumerate() {
            if depth > 0 && !Metric::Htm.may_follow(self.path[depth - 1], mv) {
                continue;
            }
            allowed[k] = true;
            self.generated += 1;
            let child = (
                usize::from(tables.corner_moves[c * 10 + k]),
                usize::from(tables.edge_moves[e * 10 + k]),
                usize::from(tables.slice_perm_moves[s * 10 + k]),
            );
            tables.prefetch_phase2_bound(child);
            children[k] = child;
        }
        let mut k = 0;
        while k < 10 {
            if allowed[k] {
                let (c2, e2, s2) = children[k];
                let bound = tables.phase2_bound(c2, e2, s2);
                if bound >= left {
                    allowed[k] = false;
                    if bound > left && QUARTER_TURNS_UD.contains(&k) {
                        allowed[k + 1] = false;
                        allowed[k + 2] = false;
                        k += 2;
                    }
                } else {
                    tables.prefetch_comb_bound(c2, e2);
                }
            }
            k += 1;
        }
        for (k, &mv) in tables.moves2.iter().enumerate() {
            let (c2, e2, s2) = children[k];
            if !allowed[k] || tables.comb_bound(c2, e2) >= left {
                continue;
            }
            self.path[depth] = mv;
            if let Some(used) = self.phase2(c2, e2, s2, depth + 1, left - 1) {
                return Some(used + 1);
            }
            if self.halted {
                return None;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Duration;

    use frontier_search::Status;

    use super::*;
    use crate::facelet::Facelets;
    use crate::heuristic::{flip, slice, twist};
    use crate::notation::Notation;
    use crate::symmetry::move_of;
    use frontier_tables::Origin;

    /// The superflip: every edge flipped in place, 20 moves optimally (Reid 1995).
    const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

    /// The moves, replayed on the facelet model (which knows nothing of cubies or
    /// coordinates), solve `cube`.
    fn assert_solves(cube: Cube, moves: &[Move]) {
        let mut facelets = cube.to_facelets();
        for &mv in moves {
            facelets.apply(mv);
        }
        assert_eq!(facelets, Facelets::SOLVED, "{moves:?}");
    }

    #[test]
    fn corner_combinations_round_trip_and_follow_the_moves() {
        for value in 0..CORNER_COMBS {
            assert_eq!(corner_comb(&set_corner_comb(value)), value);
        }
        assert_eq!(corner_comb(&CubieCube::SOLVED), 0);
        // A quarter turn of U keeps the U corners in the U layer and flips the parity; R2
        // swaps two of them with two D corners and keeps the parity.
        let u = Cube::move_cube(Move::new(crate::Face::U, 1));
        assert_eq!(corner_comb(&u), COMBS);
        let r2 = corner_comb(&Cube::move_cube(Move::new(crate::Face::R, 2)));
        assert!(r2 != 0 && r2 < COMBS, "{r2}");
        assert_eq!(binomial(8, 4), COMBS);
    }

    #[test]
    fn permutation_coordinates_round_trip() {
        for rank in (0..EDGE8_PERMS).step_by(97) {
            assert_eq!(edge8_perm(&set_edge8_perm(rank)), rank);
        }
        for rank in 0..SLICE_PERMS {
            assert_eq!(slice_perm(&set_slice_perm(rank)), rank);
        }
        let solved = CubieCube::SOLVED;
        assert_eq!((edge8_perm(&solved), slice_perm(&solved)), (0, 0));
        // Any offset: the rank depends on the order alone.
        assert_eq!(perm_rank(&[8, 9, 11, 10]), perm_rank(&[0, 1, 3, 2]));
    }

    #[test]
    fn g1_moves_keep_g1_and_the_others_leave_it() {
        let moves = phase2_moves();
        let names: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(
            names,
            ["U", "U2", "U'", "R2", "F2", "D", "D2", "D'", "L2", "B2"]
        );
        for mv in Move::ALL {
            let c = Cube::move_cube(mv);
            let in_g1 = twist(&c) == 0 && flip(&c) == 0 && slice(&c) == slice(&CubieCube::SOLVED);
            assert_eq!(in_g1, moves.contains(&mv), "{mv}");
        }
    }

    #[test]
    fn phase2_tables_are_complete_within_g1s_diameter() {
        // Every cube of G1 is solved in at most 18 of its moves (Kociemba), so no projection
        // of one is farther; each table reaches all its entries.
        let tables = TwoPhase::get();
        for table in [
            &tables.corners_in_g1,
            &tables.edges_in_g1,
            &tables.edges_corners_in_g1,
        ] {
            assert_eq!(table[0], 0);
            let deepest = *table.iter().max().unwrap();
            assert!((10..=18).contains(&deepest), "deepest {deepest}");
        }
        assert_eq!(tables.corners_in_g1.len(), CORNER_PERMS * SLICE_PERMS);
        assert_eq!(tables.edges_corners_in_g1.len(), EDGE8_PERMS * CORNER_COMBS);
        // A single half turn of R is 1 move from solved in both projections.
        let r2 = Cube::move_cube(Move::new(crate::Face::R, 2));
        assert_eq!(
            tables.phase2_bound(corner_perm(&r2), edge8_perm(&r2), slice_perm(&r2)),
            1
        );
    }

    #[test]
    fn every_variant_maps_its_solutions_back_to_the_cube() {
        let solver = TwoPhase::get();
        let cube = Cube::random(99);
        let variants = Variant::all(cube, solver);
        for (k, variant) in variants.iter().enumerate() {
            assert_eq!(variant.inverse, k % 2 == 1);
            // Each variant is another cube, solved on its own, and its solution seen back
            // solves the real cube.
            assert_eq!(variant.cube == cube, k == 0, "variant {k}");
            let outcome = solver.solve(variant.cube, 24, &Config::default());
            let moves = outcome.into_solution().unwrap().moves;
            assert_solves(cube, &variant.solution(&moves, solver));
            // A pre-moved variant: its solution, then the pre-move, solves the real cube; its
            // other quarter turn leaves the same phase-1 coordinates.
            for face in [
                crate::Face::R,
                crate::Face::F,
                crate::Face::L,
                crate::Face::B,
            ] {
                let m = Move::new(face, 1);
                let pre = variant.pre_moved(m);
                let other = variant.pre_moved(m.inverse());
                let (a, b) = (
                    solver.phase1.coordinates(pre.cube),
                    solver.phase1.coordinates(other.cube),
                );
                assert_eq!((a.twist, a.flip, a.slice), (b.twist, b.flip, b.slice));
                assert_ne!(pre.cube, other.cube);
                if face == crate::Face::R {
                    let outcome = solver.solve(pre.cube, 24, &Config::default());
                    let mut moves = outcome.into_solution().unwrap().moves;
                    moves.push(m);
                    assert_solves(cube, &pre.solution(&moves, solver));
                }
            }
        }
        // The rotations take a turn of U to a turn of R or L, then of F or B.
        let up = Move::new(crate::Face::U, 1);
        for (a, faces) in [[1, 4], [2, 5]].iter().enumerate() {
            let (rotation, back) = solver.axes[a];
            let seen = view(Cube::SOLVED.apply(up), rotation);
            let image = move_of(seen).unwrap();
            assert!(faces.contains(&image.face().index()), "axis {a}: {image}");
            assert_eq!(back[image.index()], up);
        }
    }

    #[test]
    fn random_cubes_are_solved_within_their_bound() {
        // 200 seeded uniformly random cubes, bound 20 (God's number: Rokicki, Kociemba,
        // Davidson, Dethridge 2010), and a few at 21 and with threads; every solution is
        // replayed on the facelet model.
        let solver = TwoPhase::get();
        for seed in 0..200 {
            let cube = Cube::random(seed);
            // One worker, then workers that share the variants (2, and more than there are).
            let (bound, threads) = match seed % 20 {
                1 => (21, 1),
                2 => (20, 2),
                3 => (20, 9),
                _ => (20, 1),
            };
            let outcome = solver.solve(cube, bound, &Config::default().threads(threads));
            assert_eq!(outcome.status(), Status::Solved);
            let solution = outcome.solution().unwrap();
            assert!(solution.len() <= bound, "{} moves", solution.len());
            assert_eq!(solution.cost, solution.len() as u64);
            assert_eq!(solution.states.len(), solution.len() + 1);
            assert!(solution.states.last().unwrap().is_solved());
            assert_solves(cube, &solution.moves);
        }
    }

    #[test]
    fn scrambles_make_their_cubes_and_are_never_within_a_move() {
        let solver = TwoPhase::get();
        let scrambles: Vec<Scramble> = solver.scrambles(5).take(20).collect();
        for scramble in &scrambles {
            assert!((2..=20).contains(&scramble.moves.len()), "{scramble:?}");
            let mut facelets = Facelets::SOLVED;
            for &mv in &scramble.moves {
                facelets.apply(mv);
            }
            assert_eq!(facelets, scramble.cube.to_facelets());
        }
        // Seeded: the same seed, the same scrambles; another seed, others.
        assert_eq!(solver.scrambles(5).take(20).collect::<Vec<_>>(), scrambles);
        assert_ne!(solver.scrambles(6).next().unwrap(), scrambles[0]);
    }

    #[test]
    fn short_scrambles_get_short_answers_and_solved_an_empty_one() {
        let solver = TwoPhase::get();
        let outcome = solver.solve(Cube::SOLVED, 20, &Config::default());
        assert_eq!(outcome.status(), Status::Solved);
        assert!(outcome.solution().unwrap().is_empty());
        // The first solution within 20 moves is longer; the effort finds the 4.
        let cube = Cube::from_scramble("R U R' U'", Notation::Wca).unwrap();
        let first = solver.solve(cube, 20, &Config::default());
        let first = first.into_solution().unwrap();
        assert_solves(cube, &first.moves);
        let solution = solver
            .solve_with_effort(cube, 20, 1 << 20, &Config::default())
            .into_solution()
            .unwrap();
        assert_eq!(solution.len(), 4);
        assert!(first.len() > 4, "{} moves", first.len());
        assert_solves(cube, &solution.moves);
        // A cube already in G1 needs no phase 1.
        let cube = Cube::from_scramble("U R2 D' F2 L2", Notation::Wca).unwrap();
        let solution = solver
            .solve(cube, 20, &Config::default())
            .into_solution()
            .unwrap();
        assert!(solution.len() <= 5);
        assert_solves(cube, &solution.moves);
    }

    #[test]
    fn limits_stop_it_with_their_names() {
        let solver = TwoPhase::get();
        let superflip = Cube::from_scramble(SUPERFLIP, Notation::Wca).unwrap();
        // The superflip needs 20 moves: 19 is never found, so the clock stops the search.
        let config = Config::default()
            .max_depth(19)
            .timeout(Duration::from_millis(200));
        let outcome = solver.solve(superflip, 19, &config);
        assert_eq!(outcome.status(), Status::Limit(Limit::Time));
        assert!(outcome.solution().is_none());
        // With a solution in hand, the clock ends the search with it (a second: the first
        // solution of the superflip within 24 takes about 170,000 nodes, a tenth of a second
        // or more when other work shares the machine).
        let config = Config::default().timeout(Duration::from_secs(1));
        let outcome = solver.solve_with_effort(superflip, 24, u64::MAX, &config);
        assert_eq!(outcome.status(), Status::Solved);
        assert_solves(superflip, &outcome.solution().unwrap().moves);
        let cancel = Arc::new(AtomicBool::new(true));
        let outcome = solver.solve(superflip, 20, &Config::default().cancel(cancel));
        assert_eq!(outcome.status(), Status::Limit(Limit::Cancelled));
        // Two moves from solved, one is not enough: every phase 1 of at most 1 move is tried.
        let cube = Cube::from_scramble("R U", Notation::Wca).unwrap();
        let outcome = solver.solve(cube, 20, &Config::default().max_depth(1));
        assert_eq!(outcome.status(), Status::Limit(Limit::Depth));
        // A zero timeout stops it before its first look at the clock, however easy the cube
        // (it answered "R U" before).
        let outcome = solver.solve(cube, 20, &Config::default().timeout(Duration::ZERO));
        assert_eq!(outcome.status(), Status::Limit(Limit::Time));
    }

    #[test]
    fn phase2_tables_are_cached_and_checked() {
        let dir = cache::temp_dir("twophase");
        let cache = Cache::at(&dir);
        // Phase 1's two files come from the optimal solver, copied in to save their build.
        let optimal = cache::default_cache();
        let _ = Optimal::load_or_build(&optimal, Metric::Htm, &|_| {}, &|| None);
        std::fs::create_dir_all(&dir).unwrap();
        for kind in [TableKind::Phase1, TableKind::Phase1Coordinates] {
            let name = cache::file_name(kind, Metric::Htm);
            std::fs::copy(optimal.dir().join(&name), dir.join(&name)).unwrap();
        }
        let built = TwoPhase::load_or_build(&cache);
        let origins =
            |t: &TwoPhase| -> Vec<Origin> { t.cache_report().map(|r| r.origin).collect() };
        let [cached, built_here] = [Origin::Cache, Origin::Built];
        assert_eq!(
            origins(&built),
            [
                cached, cached, built_here, built_here, built_here, built_here, built_here,
                built_here
            ]
        );
        let loaded = TwoPhase::load_or_build(&cache);
        assert_eq!(origins(&loaded), [Origin::Cache; 8]);
        // The projections are the heuristic's tables, and bound every cube's phase 1 by at
        // most its exact distance.
        let heuristic = crate::Heuristic::get(Metric::Htm);
        assert!(loaded.twist_slice == heuristic.table(TableKind::TwistSlice));
        assert!(loaded.flip_slice == heuristic.table(TableKind::FlipSlice));
        for seed in 0..50 {
            let mut node = loaded.phase1.coordinates(Cube::random(seed));
            node.distance = loaded.phase1.phase1_distance(node);
            assert!(loaded.projected(&node) <= usize::from(node.distance));
        }
        assert!(loaded.corners_in_g1 == built.corners_in_g1);
        assert!(loaded.edges_in_g1 == built.edges_in_g1);
        assert!(loaded.edges_corners_in_g1 == built.edges_corners_in_g1);
        assert!(loaded.corner_moves == built.corner_moves && loaded.inverses == built.inverses);
        let path = dir.join(cache::file_name(TableKind::EdgesInG1, Metric::Htm));
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[500_000] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let repaired = TwoPhase::load_or_build(&cache);
        let mut expected = [Origin::Cache; 8];
        expected[5] = Origin::Rebuilt;
        assert_eq!(origins(&repaired), expected);
        assert!(repaired.edges_in_g1 == built.edges_in_g1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
