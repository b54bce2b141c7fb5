//! A simple admissible heuristic: small pattern databases built by breadth-first search.
//!
//! Four projections of the cube, each small enough to search completely in a fraction of a
//! second: corner twist x edge flip (4,478,976 states), corner twist x positions of the four
//! middle-layer edges (1,082,565), edge flip x those positions (1,013,760), and the corner
//! permutation (40,320). The distance of a projection to solved is a lower bound of the
//! cube's distance (every solution of the cube solves its projection), so their maximum is
//! admissible. The tables are loaded on first use for each metric from the disk cache (see
//! [`crate::cache`]), or built and saved there, and kept in memory.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use frontier_tables::{Builder, Cache, Coordinates, TableReport, Visit};

use crate::cache::{self, TableKind};
use crate::cube::Cube;
use crate::cubie::CubieCube;
use crate::moves::{Metric, Move};
use crate::twophase;

pub(crate) const TWISTS: usize = 2187; // 3^7
pub(crate) const FLIPS: usize = 2048; // 2^11
pub(crate) const SLICES: usize = 495; // C(12, 4)
pub(crate) const CORNER_PERMS: usize = 40320; // 8!

/// The corner twist coordinate: the first 7 orientations as a base-3 number.
pub(crate) fn twist(c: &CubieCube) -> usize {
    c.co[..7].iter().fold(0, |t, &o| t * 3 + usize::from(o))
}

pub(crate) fn set_twist(t: usize) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    let mut t = t;
    for i in (0..7).rev() {
        c.co[i] = (t % 3) as u8;
        t /= 3;
    }
    c.co[7] = (3 - c.co[..7].iter().sum::<u8>() % 3) % 3;
    c
}

/// The edge flip coordinate: the first 11 orientations as a base-2 number.
pub(crate) fn flip(c: &CubieCube) -> usize {
    c.eo[..11].iter().fold(0, |f, &o| f * 2 + usize::from(o))
}

pub(crate) fn set_flip(f: usize) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    let mut f = f;
    for i in (0..11).rev() {
        c.eo[i] = (f % 2) as u8;
        f /= 2;
    }
    c.eo[11] = c.eo[..11].iter().sum::<u8>() % 2;
    c
}

/// The 495 sets of 4 positions out of 12, as 12-bit masks in increasing order, and the index
/// of each mask.
struct SliceTables {
    masks: Vec<u16>,
    index: Vec<u16>,
}

fn slice_tables() -> &'static SliceTables {
    static TABLES: OnceLock<SliceTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let masks: Vec<u16> = (0u16..1 << 12).filter(|m| m.count_ones() == 4).collect();
        let mut index = vec![u16::MAX; 1 << 12];
        for (i, &m) in masks.iter().enumerate() {
            index[usize::from(m)] = i as u16;
        }
        SliceTables { masks, index }
    })
}

/// Which positions hold the middle-layer edges FR FL BL BR (cubies 8..12).
pub(crate) fn slice(c: &CubieCube) -> usize {
    let mask =
        c.ep.iter()
            .enumerate()
            .filter(|(_, &e)| e >= 8)
            .fold(0usize, |m, (i, _)| m | 1 << i);
    usize::from(slice_tables().index[mask])
}

/// The [`slice`] coordinate of the positions in a 12-bit mask of four.
pub(crate) fn slice_of_mask(mask: usize) -> usize {
    usize::from(slice_tables().index[mask])
}

pub(crate) fn set_slice(s: usize) -> CubieCube {
    let mask = slice_tables().masks[s];
    let mut c = CubieCube::SOLVED;
    let (mut slice_edge, mut other) = (8, 0);
    for i in 0..12 {
        if mask & (1 << i) != 0 {
            c.ep[i] = slice_edge;
            slice_edge += 1;
        } else {
            c.ep[i] = other;
            other += 1;
        }
    }
    c
}

/// The corner permutation's rank (Lehmer code).
pub(crate) fn corner_perm(c: &CubieCube) -> usize {
    perm_rank(&c.cp)
}

pub(crate) fn set_corner_perm(rank: usize) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    c.cp.copy_from_slice(&perm_unrank(rank, 8));
    c
}

/// The Lehmer rank of a sequence of distinct numbers (of any values): 0 for increasing order.
pub(crate) fn perm_rank(values: &[u8]) -> usize {
    let mut rank = 0;
    for (i, &v) in values.iter().enumerate() {
        let smaller = values[i + 1..].iter().filter(|&&x| x < v).count();
        rank = rank * (values.len() - i) + smaller;
    }
    rank
}

/// The permutation of `0..n` with Lehmer rank `rank`.
pub(crate) fn perm_unrank(rank: usize, n: usize) -> Vec<u8> {
    let mut digits = vec![0; n];
    let mut r = rank;
    for i in (0..n).rev() {
        digits[i] = r % (n - i);
        r /= n - i;
    }
    let mut left: Vec<u8> = (0..n as u8).collect();
    digits.into_iter().map(|d| left.remove(d)).collect()
}

/// The four coordinates (twist, flip, slice, corner permutation) read straight from the packed
/// cube's bits (layout in [`Cube`]), without unpacking it: the heuristic's hot path.
#[inline]
fn packed_coordinates(bits: u128) -> [usize; 4] {
    let (mut twist, mut rank, mut used) = (0usize, 0usize, 0u32);
    for i in 0..8 {
        let field = (bits >> (5 * i)) as u32 & 31;
        let (corner, ori) = (field & 7, field >> 3);
        if i < 7 {
            twist = twist * 3 + ori as usize;
        }
        // Lehmer digit: the later corners below this one are those below it not used yet.
        let smaller = corner - (used & ((1 << corner) - 1)).count_ones();
        rank = rank * (8 - i) + smaller as usize;
        used |= 1 << corner;
    }
    let (mut flip, mut mask) = (0usize, 0usize);
    for j in 0..12 {
        let field = (bits >> (40 + 5 * j)) as usize & 31;
        if j < 11 {
            flip = flip * 2 + (field >> 4);
        }
        // Edges 8..11 (FR FL BL BR) are exactly those with bit 3 set.
        mask |= ((field >> 3) & 1) << j;
    }
    let slice = usize::from(slice_tables().index[mask]);
    [twist, flip, slice, rank]
}

/// `table[coordinate * 18 + move]`: the coordinate after the move, for each of `moves` (the
/// entries of other moves are 0: a coordinate that only some moves keep meaningful, like a
/// permutation within a layer, is tabulated for those moves alone).
pub(crate) fn move_table(
    size: usize,
    set: impl Fn(usize) -> CubieCube,
    get: impl Fn(&CubieCube) -> usize,
    moves: &[Move],
) -> Vec<u32> {
    let mut table = vec![0; size * 18];
    for coordinate in 0..size {
        let cube = set(coordinate);
        for &mv in moves {
            table[coordinate * 18 + mv.index()] = get(&cube.multiply(&Cube::move_cube(mv))) as u32;
        }
    }
    table
}

/// The product of two coordinates (`a * b_size + b`) under some moves, given the
/// coordinates' move tables (`a_moves[a * 18 + move]`): the space of a pattern database.
pub(crate) struct Product<'a> {
    a_moves: &'a [u32],
    b_moves: &'a [u32],
    a_size: usize,
    b_size: usize,
    /// The moves' indices.
    moves: Vec<usize>,
}

impl Coordinates for Product<'_> {
    type Cursor = ();

    fn len(&self) -> usize {
        self.a_size * self.b_size
    }

    fn branching(&self) -> usize {
        self.moves.len()
    }

    fn cursor(&self) {}

    #[inline]
    fn each_successor(&self, rank: usize, _: &mut (), visit: &mut impl Visit) -> ControlFlow<()> {
        let (a, b) = (rank / self.b_size, rank % self.b_size);
        for &m in &self.moves {
            let next_a = self.a_moves[a * 18 + m] as usize;
            visit.visit(next_a * self.b_size + self.b_moves[b * 18 + m] as usize)?;
        }
        ControlFlow::Continue(())
    }
}

/// Breadth-first distances over the product of two coordinates (`a * b_size + b`), given
/// their move tables; 255 would mean unreachable. Every set of moves used here holds each
/// move's inverse, so the late layers are found backwards.
pub(crate) fn product_distances(
    (a_moves, a_size): (&[u32], usize),
    (b_moves, b_size): (&[u32], usize),
    start: usize,
    moves: &[Move],
) -> Vec<u8> {
    let space = Product {
        a_moves,
        b_moves,
        a_size,
        b_size,
        moves: moves.iter().map(|m| m.index()).collect(),
    };
    Builder::new()
        .backwards(true)
        .build(&space, &[start])
        .expect("a build with no limit check ends")
}

/// The move tables of the four coordinates, needed only to build tables.
struct MoveTables {
    twist: Vec<u32>,
    flip: Vec<u32>,
    slice: Vec<u32>,
    corners: Vec<u32>,
}

impl MoveTables {
    fn new() -> MoveTables {
        MoveTables {
            twist: move_table(TWISTS, set_twist, twist, &Move::ALL),
            flip: move_table(FLIPS, set_flip, flip, &Move::ALL),
            slice: move_table(SLICES, set_slice, slice, &Move::ALL),
            corners: move_table(CORNER_PERMS, set_corner_perm, corner_perm, &Move::ALL),
        }
    }

    /// The distances of one table in one metric.
    fn distances(&self, kind: TableKind, metric: Metric) -> Vec<u8> {
        let solved = CubieCube::SOLVED;
        let moves = metric.moves();
        let (t0, f0, s0) = (twist(&solved), flip(&solved), slice(&solved));
        // The corner permutation alone is the product with a one-state coordinate.
        let nothing = [0u32; 18];
        match kind {
            TableKind::TwistFlip => product_distances(
                (&self.twist, TWISTS),
                (&self.flip, FLIPS),
                t0 * FLIPS + f0,
                moves,
            ),
            TableKind::TwistSlice => product_distances(
                (&self.twist, TWISTS),
                (&self.slice, SLICES),
                t0 * SLICES + s0,
                moves,
            ),
            TableKind::FlipSlice => product_distances(
                (&self.flip, FLIPS),
                (&self.slice, SLICES),
                f0 * SLICES + s0,
                moves,
            ),
            TableKind::Corners => product_distances(
                (&self.corners, CORNER_PERMS),
                (&nothing, 1),
                corner_perm(&solved),
                moves,
            ),
            // Not the heuristic's: the two-phase solver's, which builds its own move tables.
            TableKind::CornersInG1 | TableKind::EdgesInG1 | TableKind::EdgesCornersInG1 => {
                twophase::phase2_table(kind)
            }
            TableKind::Phase1
            | TableKind::Phase1Coordinates
            | TableKind::Phase1Medium
            | TableKind::Phase1Large
            | TableKind::Phase1Exact
            | TableKind::G1Moves => {
                unreachable!("the optimal and two-phase solvers build their own tables")
            }
        }
    }
}

/// One of the heuristic's HTM tables (of [`TableKind::ALL`]), built alone: the two-phase
/// solver bounds phase 1 by its twist x slice and flip x slice projections, whose distances to
/// solved are their distances to G1.
pub(crate) fn projection_table(kind: TableKind) -> Vec<u8> {
    let solved = CubieCube::SOLVED;
    let slices = move_table(SLICES, set_slice, slice, &Move::ALL);
    let (other, size, start) = match kind {
        TableKind::TwistSlice => (
            move_table(TWISTS, set_twist, twist, &Move::ALL),
            TWISTS,
            twist(&solved),
        ),
        TableKind::FlipSlice => (
            move_table(FLIPS, set_flip, flip, &Move::ALL),
            FLIPS,
            flip(&solved),
        ),
        _ => unreachable!("two-phase projects phase 1 on twist x slice and flip x slice"),
    };
    product_distances(
        (&other, size),
        (&slices, SLICES),
        start * SLICES + slice(&solved),
        &Move::ALL,
    )
}

/// The pattern databases of one metric.
pub struct Heuristic {
    twist_flip: Vec<u8>,
    twist_slice: Vec<u8>,
    flip_slice: Vec<u8>,
    corners: Vec<u8>,
    reports: Vec<TableReport>,
}

/// The metric is not kept; the tables are summed up by their size.
impl std::fmt::Debug for Heuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Heuristic")
            .field("bytes", &Self::bytes())
            .field("reports", &self.reports)
            .finish_non_exhaustive()
    }
}

impl Heuristic {
    /// The bytes its tables take, built or loaded: 6.6 MB, for a memory budget.
    ///
    /// ```
    /// assert_eq!(frontier_cube::Heuristic::bytes(), 6_615_621);
    /// ```
    pub fn bytes() -> u64 {
        TableKind::ALL.iter().map(|kind| kind.len() as u64).sum()
    }

    /// The tables for `metric`, loaded on first use from the cache
    /// ([`cache::default_cache`]), or built (in under a second in a release build; loading
    /// is much faster) and saved there, then shared
    /// by the whole process. A damaged or unwritable cache costs a rebuild, never the tables:
    /// see [`Heuristic::cache_report`].
    pub fn get(metric: Metric) -> &'static Heuristic {
        static HTM: OnceLock<Heuristic> = OnceLock::new();
        static QTM: OnceLock<Heuristic> = OnceLock::new();
        let cell = match metric {
            Metric::Htm => &HTM,
            Metric::Qtm => &QTM,
        };
        cell.get_or_init(|| Heuristic::load_or_build(&cache::default_cache(), metric))
    }

    /// Builds the tables for `metric` in memory, without any cache.
    pub fn build(metric: Metric) -> Heuristic {
        let moves = MoveTables::new();
        let [twist_flip, twist_slice, flip_slice, corners] =
            TableKind::ALL.map(|kind| moves.distances(kind, metric));
        Heuristic {
            twist_flip,
            twist_slice,
            flip_slice,
            corners,
            reports: TableKind::ALL
                .map(|kind| TableReport::built(cache::spec(kind, metric).key))
                .into(),
        }
    }

    /// Loads each table of `metric` from `cache` ([`cache::spec`]), or builds it when the
    /// file is missing or fails a check (size, header, key, checksum) and writes it there. If
    /// the cache cannot be written the tables are still built and returned; the first write
    /// error is in the [reports](Heuristic::cache_report) and no further write is tried.
    pub fn load_or_build(cache: &Cache, metric: Metric) -> Heuristic {
        let mut moves: Option<MoveTables> = None;
        let mut reports = Vec::new();
        let [twist_flip, twist_slice, flip_slice, corners] = TableKind::ALL.map(|kind| {
            let build = || {
                let moves = moves.get_or_insert_with(MoveTables::new);
                Ok(moves.distances(kind, metric))
            };
            let spec = cache::spec(kind, metric);
            let (table, report) = cache
                .load_or_build(&spec, |len| vec![0; len], build)
                .expect("a build with no limit check ends");
            reports.push(report);
            table
        });
        Heuristic {
            twist_flip,
            twist_slice,
            flip_slice,
            corners,
            reports,
        }
    }

    /// What happened to each table (loaded, built, rebuilt and why, not cached and why), in
    /// [`TableKind::ALL`] order.
    pub fn cache_report(&self) -> &[TableReport] {
        &self.reports
    }

    /// The table of `kind`: one distance (a byte) per value of its coordinates; empty for the
    /// kinds outside [`TableKind::ALL`], which belong to the [two-phase](crate::TwoPhase) and
    /// [optimal](crate::Optimal) solvers.
    pub fn table(&self, kind: TableKind) -> &[u8] {
        match kind {
            TableKind::TwistFlip => &self.twist_flip,
            TableKind::TwistSlice => &self.twist_slice,
            TableKind::FlipSlice => &self.flip_slice,
            TableKind::Corners => &self.corners,
            _ => &[],
        }
    }

    /// A lower bound of the number of moves (in the tables' metric) that solve `cube`.
    #[inline]
    pub fn estimate(&self, cube: Cube) -> u64 {
        let [t, f, s, c] = packed_coordinates(cube.bits());
        let bounds = [
            self.twist_flip[t * FLIPS + f],
            self.twist_slice[t * SLICES + s],
            self.flip_slice[f * SLICES + s],
            self.corners[c],
        ];
        u64::from(bounds.into_iter().max().unwrap_or(0))
    }

    /// The largest value each table holds: (twist x flip, twist x slice, flip x slice, corners).
    pub fn depths(&self) -> [u8; 4] {
        [
            &self.twist_flip,
            &self.twist_slice,
            &self.flip_slice,
            &self.corners,
        ]
        .map(|t| {
            t.iter()
                .copied()
                .filter(|&d| d != u8::MAX)
                .max()
                .unwrap_or(0)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use frontier_tables::{Origin, TableError};

    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for t in [0, 1, 1000, TWISTS - 1] {
            assert_eq!(twist(&set_twist(t)), t);
        }
        for f in [0, 1, 777, FLIPS - 1] {
            assert_eq!(flip(&set_flip(f)), f);
        }
        for s in 0..SLICES {
            assert_eq!(slice(&set_slice(s)), s);
        }
        for r in [0, 1, 12345, CORNER_PERMS - 1] {
            assert_eq!(corner_perm(&set_corner_perm(r)), r);
        }
    }

    #[test]
    fn packed_coordinates_match_the_cubie_ones() {
        for seed in 0..500 {
            let cube = Cube::random(seed);
            let c = cube.to_cubie();
            assert_eq!(
                packed_coordinates(cube.bits()),
                [twist(&c), flip(&c), slice(&c), corner_perm(&c)]
            );
        }
    }

    #[test]
    fn tables_are_complete_and_known_depths_hold() {
        let h = Heuristic::get(Metric::Htm);
        for table in [&h.twist_flip, &h.twist_slice, &h.flip_slice, &h.corners] {
            assert!(
                table.iter().all(|&d| d != u8::MAX),
                "every projection is reachable"
            );
        }
        // Each projection needs at least a few moves for its farthest state, and no table
        // claims more than God's number in HTM (20, Rokicki, Kociemba, Davidson, Dethridge 2010).
        assert!(
            h.depths().iter().all(|&d| (5..=20).contains(&d)),
            "{:?}",
            h.depths()
        );
        assert_eq!(h.estimate(Cube::SOLVED), 0);
    }

    fn origins(h: &Heuristic) -> Vec<Origin> {
        h.cache_report().iter().map(|r| r.origin).collect()
    }

    /// The warnings of the reports: a damaged file, an unwritable cache.
    fn problems(h: &Heuristic) -> Vec<&TableError> {
        (h.cache_report().iter())
            .flat_map(|r| r.damage.iter().chain(&r.unwritable))
            .collect()
    }

    fn assert_same_tables(a: &Heuristic, b: &Heuristic) {
        for kind in TableKind::ALL {
            assert!(a.table(kind) == b.table(kind), "{} differs", kind.name());
        }
    }

    #[test]
    fn cache_is_written_then_loaded_and_repaired() {
        let dir = cache::temp_dir("heuristic");
        let metric = Metric::Qtm;
        let built = Heuristic::build(metric);
        let cache = Cache::at(&dir);
        let fresh = Heuristic::load_or_build(&cache, metric);
        assert_eq!(origins(&fresh), [Origin::Built; 4]);
        assert!(problems(&fresh).is_empty());
        assert_same_tables(&fresh, &built);
        for kind in TableKind::ALL {
            let spec = cache::spec(kind, metric);
            let file = dir.join(&spec.file);
            assert_eq!(fs::metadata(file).unwrap().len(), spec.file_bytes());
        }

        let loaded = Heuristic::load_or_build(&cache, metric);
        assert_eq!(origins(&loaded), [Origin::Cache; 4]);
        assert!(problems(&loaded).is_empty());
        assert_same_tables(&loaded, &built);

        // Damage three files in three ways: a flipped byte in the table, a truncation, another
        // format version. Each is detected, rebuilt and rewritten; the fourth is loaded.
        let path = |kind| dir.join(cache::file_name(kind, metric));
        let mut bytes = fs::read(path(TableKind::TwistFlip)).unwrap();
        bytes[1_000_000] ^= 1;
        fs::write(path(TableKind::TwistFlip), &bytes).unwrap();
        let bytes = fs::read(path(TableKind::TwistSlice)).unwrap();
        fs::write(path(TableKind::TwistSlice), &bytes[..bytes.len() / 2]).unwrap();
        let mut bytes = fs::read(path(TableKind::Corners)).unwrap();
        bytes[8..12].copy_from_slice(&(frontier_tables::file::FORMAT_VERSION + 1).to_le_bytes());
        fs::write(path(TableKind::Corners), &bytes).unwrap();

        let repaired = Heuristic::load_or_build(&cache, metric);
        assert_eq!(
            origins(&repaired),
            [
                Origin::Rebuilt,
                Origin::Rebuilt,
                Origin::Cache,
                Origin::Rebuilt
            ]
        );
        assert!(matches!(
            problems(&repaired)[..],
            [
                TableError::Checksum { .. },
                TableError::Size { .. },
                TableError::Version { .. }
            ]
        ));
        // One warning a damaged table, one line each.
        let warnings: Vec<String> = repaired
            .cache_report()
            .iter()
            .filter_map(|r| r.warning())
            .collect();
        assert_eq!(warnings.len(), 3);
        assert!(warnings
            .iter()
            .all(|w| w.contains("rebuilt") && !w.contains('\n')));
        assert_same_tables(&repaired, &built);
        let again = Heuristic::load_or_build(&cache, metric);
        assert_eq!(origins(&again), [Origin::Cache; 4]);
        assert_same_tables(&again, &built);
        // Only the four tables are there: no temporary file was left.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 4);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_cache_still_gives_correct_tables() {
        let dir = cache::temp_dir("unwritable");
        fs::create_dir_all(&dir).unwrap();
        // A directory below a regular file cannot be created, even by root.
        fs::write(dir.join("file"), b"").unwrap();
        let h = Heuristic::load_or_build(&Cache::at(dir.join("file").join("cube")), Metric::Htm);
        assert_eq!(origins(&h), [Origin::Built; 4]);
        // One diagnostic: after the first failed write no other is tried.
        let problems = problems(&h);
        assert!(
            matches!(problems[..], [TableError::Io { .. }]),
            "{problems:?}"
        );
        assert_same_tables(&h, Heuristic::get(Metric::Htm));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_loaders_at_once_both_get_the_tables() {
        let dir = cache::temp_dir("race");
        let metric = Metric::Htm;
        let [a, b] = std::thread::scope(|s| {
            [0, 1]
                .map(|_| s.spawn(|| Heuristic::load_or_build(&Cache::at(&dir), metric)))
                .map(|t| t.join().unwrap())
        });
        assert!(problems(&a).is_empty());
        assert!(problems(&b).is_empty());
        assert_same_tables(&a, &b);
        let loaded = Heuristic::load_or_build(&Cache::at(&dir), metric);
        assert_eq!(origins(&loaded), [Origin::Cache; 4]);
        assert_same_tables(&loaded, &a);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 4);
        fs::remove_dir_all(&dir).unwrap();
    }
}
