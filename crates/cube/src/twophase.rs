//! Kociemba's two-phase algorithm: [`TwoPhase`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use frontier_search::{Config, Limit, Outcome, Solution, Stats, Watch};

use frontier_tables::{Cache, TableReport};

use crate::cache::{self, TableKind};
use crate::cube::Cube;
use crate::cubie::CubieCube;
use crate::geometry::Face;
use crate::heuristic::{
    corner_perm, flip, move_table, perm_rank, perm_unrank, product_distances, set_corner_perm,
    set_flip, set_slice, set_twist, slice, twist, Heuristic, CORNER_PERMS, FLIPS, SLICES, TWISTS,
};
use crate::lock;
use crate::moves::{Metric, Move};
use crate::symmetry::{moves_seen, view, views_turning};

/// Permutations of the eight U and D layer edges.
const EDGE8_PERMS: usize = 40320;
/// Permutations of the four middle-layer edges.
const SLICE_PERMS: usize = 24;
/// The longest phase 2 tried: G1 is solved in at most 18 of its moves.
const PHASE2_MOST: usize = 18;
/// The longest solution two-phase ever returns: 30 moves, far above what it finds at once.
const LONGEST: usize = 30;
/// After the first solution within the target, the search goes on for as many nodes again as
/// it took, but at least `EXTRA_NODES.start` (about 0.04 s) and at most `EXTRA_NODES.end`
/// (about 0.15 s), keeping any shorter solution: short scrambles then get short answers
/// (`R U R' U'` 4 moves instead of 11) for at most 0.15 s more.
const EXTRA_NODES: std::ops::Range<u64> = (1 << 18)..(1 << 20);

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

/// The distance tables of phase 2, by [`TableKind`]: built by breadth-first search in G1.
pub(crate) fn phase2_table(kind: TableKind) -> Vec<u8> {
    let moves = phase2_moves();
    let slices = move_table(SLICE_PERMS, set_slice_perm, slice_perm, &moves);
    let (other, size) = match kind {
        TableKind::CornersInG1 => (
            move_table(CORNER_PERMS, set_corner_perm, corner_perm, &moves),
            CORNER_PERMS,
        ),
        _ => (
            move_table(EDGE8_PERMS, set_edge8_perm, edge8_perm, &moves),
            EDGE8_PERMS,
        ),
    };
    product_distances((&other, size), (&slices, SLICE_PERMS), 0, &moves)
}

/// Kociemba's two-phase algorithm: a short solution of any cube in a fraction of a second, not
/// necessarily the shortest.
///
/// Phase 1 takes the cube into the subgroup G1 = <U, D, R2, L2, F2, B2>, where no corner is
/// twisted, no edge flipped, and the four middle-layer edges are in the middle layer; phase 2
/// solves it with G1's ten moves, which never leave it. Each phase is an IDA* over small
/// coordinates of the cube (numbers read off the cubie model) with move tables and exact
/// distance tables of projections as its heuristic:
///
/// - phase 1: corner twist (2,187 values), edge flip (2,048) and the positions of the
///   middle-layer edges (495), bounded by the [`Heuristic`]'s HTM tables twist x flip,
///   twist x slice and flip x slice, which measure exactly the distance to G1's projections;
/// - phase 2: the corner permutation (40,320), the permutation of the eight U and D layer edges
///   (40,320) and of the four middle-layer edges (24), bounded by two tables of distances
///   within G1: corners x middle edges and U/D edges x middle edges (967,680 entries each),
///   cached on disk like the [`Heuristic`]'s.
///
/// The phase-1 solutions are tried in order of length, each followed by the shortest phase 2
/// that beats the best solution so far, until a solution is at most the target length (and a
/// short extra search after it, see [`TwoPhase::solve`]) or no phase 1 is short enough to
/// improve on the best. A phase-1 solution must end with a quarter turn of R, L, F or B: one
/// ending with a G1 move reached G1 one move earlier, and that shorter phase 1 is tried too.
/// Six problems are searched side by side, phase-1 length by phase-1 length: the cube and its
/// inverse, each seen along the three axes; their phase 1s differ, and a solution of any of
/// them maps back to the cube move by move (100 random cubes: 9.3-10.1 s; the first build,
/// with the cube alone and a longer extra search, took 80.7 s).
///
/// ```
/// use frontier_cube::{Cube, Facelets, Notation, TwoPhase};
/// use frontier_search::{Config, Status};
///
/// // The superflip: every edge flipped in place. Optimal in 20 moves (Reid 1995).
/// let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
/// let cube = Cube::from_scramble(superflip, Notation::Wca).unwrap();
/// // The tables of frontier's cache are [`TwoPhase::get`]'s; a cache of one's own:
/// let cache = frontier_tables::Cache::at(std::env::temp_dir().join("frontier-doc-cache"));
/// let outcome = TwoPhase::load_or_build(&cache).solve(cube, 24, &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// let solution = outcome.into_solution().unwrap();
/// assert!(solution.len() <= 24);
/// assert!(cube.apply_all(&solution.moves).is_solved());
/// ```
///
/// A `TwoPhase` holds the move tables of the six coordinates and the distance tables that bound
/// each phase (3.7 MB, and the HTM [`Heuristic`]'s 6.5 MB); [`TwoPhase::get`] shares one per
/// process.
pub struct TwoPhase {
    /// Phase 1's bounds: twist x flip, twist x slice, flip x slice (the HTM [`Heuristic`]).
    phase1: Heuristic,
    /// `twist_moves[t * 18 + m]`: the twist after move `m`; likewise flip and slice.
    twist_moves: Vec<u16>,
    flip_moves: Vec<u16>,
    slice_moves: Vec<u16>,
    /// Phase 2's moves, and its move tables over them: `corner_moves[c * 10 + k]`.
    moves2: [Move; 10],
    corner_moves: Vec<u16>,
    edge_moves: Vec<u16>,
    slice_perm_moves: Vec<u16>,
    /// Phase 2's bounds: corners x middle edges, U/D edges x middle edges.
    corners_in_g1: Vec<u8>,
    edges_in_g1: Vec<u8>,
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
            .field("reports", &self.reports)
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
}

impl Variant {
    /// The cube and its inverse, each along the three axes.
    fn all(cube: Cube, tables: &TwoPhase) -> [Variant; 6] {
        let inverse = Cube::from_cubie(&cube.to_cubie().inverse());
        let seen = |base: Cube, axis: Option<usize>, inverse: bool| Variant {
            cube: axis.map_or(base, |a| view(base, tables.axes[a].0)),
            axis,
            inverse,
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
    target: usize,
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
    /// Once the target is met: the node count at which this worker ends.
    until: Option<u64>,
    expanded: u64,
    generated: u64,
    /// Whether this worker must end now: a limit stopped the search or its extra nodes are
    /// spent.
    halted: bool,
}

/// Whether the search should stop: it found what it wanted or a limit stopped it.
type Stop = bool;

impl TwoPhase {
    /// About the bytes its tables take, built or loaded: phase 1's heuristic tables (6.6 MB),
    /// phase 2's pruning tables (1.9 MB) and the move tables. Measured: a first run peaked at
    /// 21 MB, against 5 MB for a run that loads no table.
    pub const BYTES: u64 = 16 << 20;

    /// The solver's tables, loaded on first use (phase 1's from the HTM [`Heuristic`], phase
    /// 2's from the disk cache, or built in about 0.1 s and saved there) and shared by the
    /// whole process.
    pub fn get() -> &'static TwoPhase {
        static TABLES: OnceLock<TwoPhase> = OnceLock::new();
        TABLES.get_or_init(|| TwoPhase::load_or_build(&cache::default_cache()))
    }

    /// The tables, phase 1's (the HTM [`Heuristic`]'s) and phase 2's read from `cache` or
    /// built and written there (as [`Heuristic::load_or_build`] does).
    pub fn load_or_build(cache: &Cache) -> TwoPhase {
        let all = Move::ALL;
        let moves2 = phase2_moves();
        let u16s = |table: Vec<u32>| table.into_iter().map(|x| x as u16).collect();
        let mut reports = Vec::new();
        let [corners_in_g1, edges_in_g1] =
            [TableKind::CornersInG1, TableKind::EdgesInG1].map(|kind| {
                let spec = cache::spec(kind, Metric::Htm);
                let build = || Ok(phase2_table(kind));
                let (table, report) = cache
                    .load_or_build(&spec, |len| vec![0; len], build)
                    .expect("a build with no limit check ends");
                reports.push(report);
                table
            });
        TwoPhase {
            phase1: Heuristic::load_or_build(cache, Metric::Htm),
            twist_moves: u16s(move_table(TWISTS, set_twist, twist, &all)),
            flip_moves: u16s(move_table(FLIPS, set_flip, flip, &all)),
            slice_moves: u16s(move_table(SLICES, set_slice, slice, &all)),
            moves2,
            corner_moves: compact(
                &move_table(CORNER_PERMS, set_corner_perm, corner_perm, &moves2),
                &moves2,
            ),
            edge_moves: compact(
                &move_table(EDGE8_PERMS, set_edge8_perm, edge8_perm, &moves2),
                &moves2,
            ),
            slice_perm_moves: compact(
                &move_table(SLICE_PERMS, set_slice_perm, slice_perm, &moves2),
                &moves2,
            ),
            corners_in_g1,
            edges_in_g1,
            axes: axes(),
            reports,
        }
    }

    /// What happened to each of the solver's tables (loaded, built, rebuilt and why, not
    /// cached and why): phase 1's (the HTM [`Heuristic`]'s), then phase 2's two.
    pub fn cache_report(&self) -> impl Iterator<Item = &TableReport> {
        self.phase1.cache_report().iter().chain(&self.reports)
    }

    /// A lower bound of the moves that take a cube with these coordinates into G1. The three
    /// tables are all read (the reads overlap in memory). Measured on 100 random cubes:
    /// stopping after the first table that cuts the node off was slower (16.7-17.5 s against
    /// 13.4-15.5 s, on a loaded machine); reading the 4.5 MB twist x flip table only when the
    /// two 1 MB ones let the node through was no faster (9.8-10.2 s both, alternating).
    #[inline]
    fn phase1_bound(&self, twist: usize, flip: usize, slice: usize) -> usize {
        let table = |kind| self.phase1.table(kind);
        let bounds = [
            table(TableKind::TwistSlice)[twist * SLICES + slice],
            table(TableKind::FlipSlice)[flip * SLICES + slice],
            table(TableKind::TwistFlip)[twist * FLIPS + flip],
        ];
        usize::from(bounds.into_iter().max().unwrap_or(0))
    }

    /// A lower bound of the G1 moves that solve a cube of G1 with these coordinates.
    #[inline]
    fn phase2_bound(&self, corners: usize, edges: usize, slice: usize) -> usize {
        let c = self.corners_in_g1[corners * SLICE_PERMS + slice];
        let e = self.edges_in_g1[edges * SLICE_PERMS + slice];
        usize::from(c.max(e))
    }

    /// Solves `cube` in at most `target` moves (HTM) if two-phase can. Once a solution that
    /// short is found, the search goes on for as many nodes again (between 2^18 and 2^20)
    /// and returns the shortest it saw; if the phase-1 lengths run out first, the shortest
    /// found (at most 30 moves, or `config.max_depth` if smaller). Every cube has a
    /// solution of at most 20 moves (God's number: Rokicki, Kociemba, Davidson, Dethridge
    /// 2010), so a target of 20 or more is always reachable, though two-phase may need long
    /// for 20 (the superflip: about 2.3 s). A target below the cube's optimal length can never
    /// be met: the search then runs through every phase-1 length up to 30, which takes very
    /// long; give a timeout, and compare the answer's length with the target (the status
    /// alone does not say it was missed). [`Optimal`](crate::Optimal) finds the shortest.
    ///
    /// Limits: `config.max_depth` (no solution longer; [`Limit::Depth`] if none is found),
    /// `config.timeout` (the best solution so far is returned as solved; [`Limit::Time`]
    /// if there is none yet) and `config.cancel` ([`Limit::Cancelled`]). It stores nothing, so
    /// `max_states` does not apply. `config.threads` workers (at most six) share out the six
    /// variants and the best solution; with more than one, which solution comes first may vary
    /// from run to run.
    pub fn solve(&self, cube: Cube, target: usize, config: &Config) -> Outcome<Cube, Move> {
        let longest = config
            .max_depth
            .map_or(LONGEST, |d| (d as usize).min(LONGEST));
        let shared = Shared {
            tables: self,
            watch: Watch::new(config),
            variants: Variant::all(cube, self),
            best: Mutex::new(cube.is_solved().then(Vec::new)),
            best_len: AtomicUsize::new(longest + 1),
            target: target.min(longest),
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

impl<'a> Search<'a> {
    fn new(shared: &'a Shared<'a>) -> Search<'a> {
        Search {
            shared,
            variant: shared.variants[0],
            path: [Move::ALL[0]; LONGEST + PHASE2_MOST + 1],
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
        let variants = &shared.variants;
        let mine: Vec<usize> = (worker..variants.len())
            .step_by(threads)
            // A symmetric cube has equal variants (the superflip's six are one): each problem
            // is searched once.
            .filter(|&k| !variants[..k].iter().any(|v| v.cube == variants[k].cube))
            .collect();
        let coordinates: Vec<(usize, usize, usize)> = (mine.iter())
            .map(|&k| {
                let c = variants[k].cube.to_cubie();
                (twist(&c), flip(&c), slice(&c))
            })
            .collect();
        let bounds: Vec<usize> = (coordinates.iter())
            .map(|&(t, f, s)| shared.tables.phase1_bound(t, f, s))
            .collect();
        let mut length = bounds.iter().copied().min().unwrap_or(usize::MAX);
        while length < shared.best_len.load(Ordering::Relaxed) {
            shared.phase1_len.fetch_max(length, Ordering::Relaxed);
            for (i, &(t, f, s)) in coordinates.iter().enumerate() {
                if bounds[i] > length || length >= shared.best_len.load(Ordering::Relaxed) {
                    continue;
                }
                self.variant = variants[mine[i]];
                if self.phase1(t, f, s, 0, length) {
                    return (self.expanded, self.generated);
                }
            }
            length += 1;
        }
        (self.expanded, self.generated)
    }

    /// Ends the whole search at a limit.
    fn stop(&mut self, limit: Limit) -> Stop {
        self.shared.watch.stop(limit);
        self.halted = true;
        true
    }

    /// Counts a node; at each checkpoint, looks at the limits, the other workers and the
    /// extra nodes, and reports progress. Returns whether this worker must end (`halted`).
    #[inline]
    fn count(&mut self) -> Stop {
        self.expanded += 1;
        if !Watch::due(self.expanded) {
            return false;
        }
        let shared = self.shared;
        if shared.watch.stopped().is_some() {
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
        // A solution within the target was found: this worker searches its extra nodes.
        if self.until.is_none() && shared.best_len.load(Ordering::Relaxed) <= shared.target {
            let extra = self.expanded.clamp(EXTRA_NODES.start, EXTRA_NODES.end);
            self.until = Some(self.expanded + extra);
        }
        if self.until.is_some_and(|end| self.expanded >= end) {
            self.halted = true;
            return true;
        }
        false
    }

    /// Phase 1 from the coordinates `(t, f, s)` after `depth` moves, with `left` more to
    /// make: at the end, a cube in G1 goes on to phase 2.
    fn phase1(&mut self, t: usize, f: usize, s: usize, depth: usize, left: usize) -> Stop {
        if left == 0 {
            // The bound is 0 only in G1. Its last move must leave G1's moves behind.
            if depth.checked_sub(1).is_some_and(|d| keeps_g1(self.path[d])) {
                return false;
            }
            return self.phase2_from(depth);
        }
        if self.count() {
            return true;
        }
        let tables = self.shared.tables;
        for mv in Move::ALL {
            if depth > 0 && !Metric::Htm.may_follow(self.path[depth - 1], mv) {
                continue;
            }
            self.generated += 1;
            let m = mv.index();
            let t2 = usize::from(tables.twist_moves[t * 18 + m]);
            let f2 = usize::from(tables.flip_moves[f * 18 + m]);
            let s2 = usize::from(tables.slice_moves[s * 18 + m]);
            if tables.phase1_bound(t2, f2, s2) >= left {
                continue;
            }
            self.path[depth] = mv;
            if self.phase1(t2, f2, s2, depth + 1, left - 1) {
                return true;
            }
        }
        false
    }

    /// Phase 2 after a phase 1 of `depth` moves: the shortest one that makes a solution
    /// shorter than the best so far. Returns whether this worker must end.
    fn phase2_from(&mut self, depth: usize) -> Stop {
        let cube = self.variant.cube.apply_all(&self.path[..depth]).to_cubie();
        let (c, e, s) = (corner_perm(&cube), edge8_perm(&cube), slice_perm(&cube));
        debug_assert_eq!(
            slice(&cube),
            slice(&CubieCube::SOLVED),
            "phase 1 ends in G1"
        );
        let shared = self.shared;
        let Some(most) = shared
            .best_len
            .load(Ordering::Relaxed)
            .checked_sub(1 + depth)
        else {
            return false;
        };
        let bound = shared.tables.phase2_bound(c, e, s);
        for length in bound..=most.min(PHASE2_MOST) {
            if self.phase2(c, e, s, depth, length) {
                if self.halted {
                    return true;
                }
                let total = depth + length;
                let mut best = lock(&shared.best);
                // Another worker may have found a shorter one meanwhile.
                if total < shared.best_len.load(Ordering::Relaxed) {
                    *best = Some(self.variant.solution(&self.path[..total], shared.tables));
                    shared.best_len.store(total, Ordering::Relaxed);
                }
                return false;
            }
        }
        false
    }

    /// Phase 2 from the coordinates `(c, e, s)` at `depth`, with `left` G1 moves to make.
    /// Returns whether it solved the cube or this worker must end (see `halted`).
    fn phase2(&mut self, c: usize, e: usize, s: usize, depth: usize, left: usize) -> bool {
        if left == 0 {
            return c == 0 && e == 0 && s == 0;
        }
        if self.count() {
            return true;
        }
        let tables = self.shared.tables;
        for (k, &mv) in tables.moves2.iter().enumerate() {
            if depth > 0 && !Metric::Htm.may_follow(self.path[depth - 1], mv) {
                continue;
            }
            self.generated += 1;
            let c2 = usize::from(tables.corner_moves[c * 10 + k]);
            let e2 = usize::from(tables.edge_moves[e * 10 + k]);
            let s2 = usize::from(tables.slice_perm_moves[s * 10 + k]);
            if tables.phase2_bound(c2, e2, s2) >= left {
                continue;
            }
            self.path[depth] = mv;
            if self.phase2(c2, e2, s2, depth + 1, left - 1) {
                return true;
            }
        }
        false
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
        for table in [&tables.corners_in_g1, &tables.edges_in_g1] {
            assert_eq!(table.len(), EDGE8_PERMS * SLICE_PERMS);
            assert_eq!(table[0], 0);
            let deepest = *table.iter().max().unwrap();
            assert!((10..=18).contains(&deepest), "deepest {deepest}");
        }
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
    fn random_cubes_are_solved_in_at_most_20_moves() {
        let solver = TwoPhase::get();
        for seed in 0..6 {
            let cube = Cube::random(seed);
            // One worker, then workers that share the variants (2, and more than there are).
            let threads = [1, 2, 9][seed as usize % 3];
            let outcome = solver.solve(cube, 20, &Config::default().threads(threads));
            assert_eq!(outcome.status(), Status::Solved);
            let solution = outcome.solution().unwrap();
            assert!(solution.len() <= 20, "{} moves", solution.len());
            assert_eq!(solution.cost, solution.len() as u64);
            assert_eq!(solution.states.len(), solution.len() + 1);
            assert!(solution.states.last().unwrap().is_solved());
            assert_solves(cube, &solution.moves);
        }
    }

    #[test]
    fn short_scrambles_get_short_answers_and_solved_an_empty_one() {
        let solver = TwoPhase::get();
        let outcome = solver.solve(Cube::SOLVED, 20, &Config::default());
        assert_eq!(outcome.status(), Status::Solved);
        assert!(outcome.solution().unwrap().is_empty());
        // The first solution within 20 moves has 11; the extra nodes find the 4.
        let cube = Cube::from_scramble("R U R' U'", Notation::Wca).unwrap();
        let solution = solver
            .solve(cube, 20, &Config::default())
            .into_solution()
            .unwrap();
        assert_eq!(solution.len(), 4);
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
        // With a solution in hand, the clock ends the search with it.
        let config = Config::default().timeout(Duration::from_millis(200));
        let outcome = solver.solve(superflip, 0, &config);
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
        let built = TwoPhase::load_or_build(&cache);
        // Phase 2's: the reports after the heuristic's four.
        let origins =
            |t: &TwoPhase| -> Vec<Origin> { t.cache_report().skip(4).map(|r| r.origin).collect() };
        assert_eq!(origins(&built), [Origin::Built; 2]);
        let loaded = TwoPhase::load_or_build(&cache);
        assert_eq!(origins(&loaded), [Origin::Cache; 2]);
        assert!(loaded.corners_in_g1 == built.corners_in_g1);
        assert!(loaded.edges_in_g1 == built.edges_in_g1);
        let path = dir.join(cache::file_name(TableKind::EdgesInG1, Metric::Htm));
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[500_000] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let repaired = TwoPhase::load_or_build(&cache);
        assert_eq!(origins(&repaired), [Origin::Cache, Origin::Rebuilt]);
        assert!(repaired.edges_in_g1 == built.edges_in_g1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
