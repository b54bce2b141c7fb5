//! An optimal solver for any cube: [`Optimal`].
//!
//! IDA* over the cube's moves, bounded by the exact distance to G1 = <U, D, R2, L2, F2, B2>
//! (phase 1 of two-phase) seen along each of the three axes. That distance is read from one
//! table over all of phase 1's coordinates (twist, flip, middle-edge positions: 2.2 billion
//! of them), made 16 times smaller by the symmetries that keep the U-D axis: 64,430 classes
//! of (flip, slice) times 2,187 twists, two bits an entry (the distance modulo 3; a move
//! changes the distance by at most one, so the search knows each child's distance from its
//! parent's). This is the bound of Kociemba's optimal solver.
//!
//! The largest table ([`TableSize::Large`]) refines the same coordinate by where the four
//! U-layer corners are (70 sets of positions) and by the parity of the middle-layer edges'
//! order: the distance to the cubes of G1 with the U-layer corners in the U layer and the
//! middle-layer edges in an even order. That set is smaller than G1, so the distance is
//! larger (a stronger bound): 64,430 x 2,187 x 140 entries, built in place at two bits a
//! rank ([`Builder::build_mod3`]) so that the build needs little more than that, then packed
//! in place five to a byte in base 3 ([`Width::Ternary`]): 3.94 GB. The medium one
//! ([`TableSize::Medium`]) knows the corner sets up to swapping the U and D layers (35
//! pairs), and not the parity: the distance to the cubes of G1 with the U-layer corners all
//! in one layer, U or D; 64,430 x 2,187 x 35 entries, built the same way, 986 MB. The parity
//! follows from the slice coordinate and a move (or a symmetry), so both share the small
//! table's symmetry classes and move tables.
//!
//! The bound also looks at the inverse cube along its three axes (a cube and its inverse
//! need as many moves). The inverse's distances are not those of a neighbour of the parent's
//! inverse, so they are read from a table of exact distances to G1 (four bits an entry),
//! refined for the medium and large tables by their own entry modulo 3.
//!
//! Kociemba's "huge" table (the distance to G1 with the middle-layer edges home in order,
//! 1,523,864 classes of flip and sorted slice x 2,187 twists, 833 MB) was this solver's
//! medium table: the 35 pairs of corner sets make a stronger bound in about as much memory
//! (`benches/RESULTS.md`).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use frontier_search::{prefetch, Config, Limit, Outcome, Solution, Stats, Status, Watch};
use frontier_tables::{
    BuildProgress, Builder, Cache, Coordinates, Table, TableReport, Visit, Width,
};

use crate::cache::{self, TableKind};
use crate::cube::Cube;
use crate::cubie::{parity, CubieCube};
use crate::geometry::Face;
use crate::heuristic::{
    flip, move_table, set_flip, set_slice, set_twist, slice, slice_of_mask, twist, FLIPS, SLICES,
    TWISTS,
};
use crate::huge::HugeTable;
use crate::lock;
use crate::moves::{Metric, Move};
use crate::symmetry::{moves_seen, stabiliser_moves, view, views_turning};

/// How many of the 48 symmetries keep the U-D axis (the view of a U turn is a U or D turn).
const UD_SYMMETRIES: usize = 16;
/// Classes of (flip, slice) under those symmetries (Kociemba's "flipslice" classes).
pub const FLIPSLICE_CLASSES: usize = 64_430;
/// Entries of the phase-1 table: a class of (flip, slice) and a twist.
pub(crate) const PHASE1_ENTRIES: usize = FLIPSLICE_CLASSES * TWISTS;
/// Bytes of the phase-1 table, four entries a byte.
pub(crate) const PHASE1_BYTES: usize = PHASE1_ENTRIES.div_ceil(4);
/// Bytes of the cached reduction and move tables ([`Reduction::to_bytes`]).
pub(crate) const COORDINATES_BYTES: usize = FLIPS * SLICES * 4
    + FLIPSLICE_CLASSES * 4
    + (TWISTS * UD_SYMMETRIES + FLIPSLICE_CLASSES + (TWISTS + FLIPS + SLICES) * 18) * 2;
/// The sets of four corner positions (C(8, 4)): where the U-layer corners can be.
pub(crate) const CORNER_SETS: usize = 70;
/// Those sets paired with their complements: where the U-layer corners are, up to swapping
/// the U and D layers.
pub(crate) const CORNER_HALVES: usize = CORNER_SETS / 2;
/// Entries of the medium table: a class of (flip, slice), a twist and where the U-layer
/// corners are up to swapping the U and D layers.
pub(crate) const MEDIUM_ENTRIES: usize = FLIPSLICE_CLASSES * TWISTS * CORNER_HALVES;
/// Bytes of the medium table, five entries a byte.
pub(crate) const MEDIUM_BYTES: usize = MEDIUM_ENTRIES.div_ceil(5);
/// The corner sets each with the two parities of the middle-layer edges' order: the large
/// table's coordinate beside the twist.
pub(crate) const CORNER_KEYS: usize = CORNER_SETS * 2;
/// Entries of the large table: a class of (flip, slice), a twist, where the U-layer corners
/// are and the parity of the middle-layer edges' order.
pub(crate) const LARGE_ENTRIES: usize = FLIPSLICE_CLASSES * TWISTS * CORNER_KEYS;
/// Bytes of the large table, five entries a byte.
pub(crate) const LARGE_BYTES: usize = LARGE_ENTRIES.div_ceil(5);
/// Bytes of the exact phase-1 distances (two entries a byte), the bound of the inverse's
/// views.
pub(crate) const EXACT_BYTES: usize = PHASE1_ENTRIES.div_ceil(2);
/// The longest solution searched for: past God's number in either metric (20 HTM, 26 QTM).
const LONGEST: usize = 30;

/// Which of the optimal solver's tables: the distance to G1 over (flip, slice) classes and
/// twist, or, bigger, to the cubes of G1 with the U-layer corners in one layer, or, largest,
/// in the U layer with the middle-layer edges in an even order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableSize {
    /// The distance to G1: 64,430 classes of (flip, slice) x 2,187 twists, 35 MB.
    Small,
    /// The distance to the cubes of G1 with the U-layer corners all in the U layer or all in
    /// the D layer: 64,430 classes of (flip, slice) x 2,187 twists x 35 pairs of sets of
    /// corner positions, 986 MB.
    Medium,
    /// The distance to the cubes of G1 with the U-layer corners in the U layer and the
    /// middle-layer edges in an even order: 64,430 classes of (flip, slice) x 2,187 twists x
    /// 70 sets of corner positions x 2 parities, 3.94 GB.
    Large,
}

impl TableSize {
    /// Every size, smallest first.
    pub const ALL: [TableSize; 3] = [TableSize::Small, TableSize::Medium, TableSize::Large];

    /// The size's name: `small`, `medium` or `large`.
    pub fn name(self) -> &'static str {
        match self {
            TableSize::Small => "small",
            TableSize::Medium => "medium",
            TableSize::Large => "large",
        }
    }

    /// The size of this name, if one has it.
    pub fn from_name(name: &str) -> Option<TableSize> {
        TableSize::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The values of the coordinate beside the twist: for the large table the 70 sets of
    /// positions of the U-layer corners, each with the parity of the middle-layer edges'
    /// order (140); 35 pairs of sets for the medium one; one for the small one.
    fn corner_sets(self) -> usize {
        match self {
            TableSize::Small => 1,
            TableSize::Medium => CORNER_HALVES,
            TableSize::Large => CORNER_KEYS,
        }
    }

    /// The table's entries.
    fn entries(self) -> usize {
        FLIPSLICE_CLASSES * TWISTS * self.corner_sets()
    }

    /// How the table keeps its entries: two bits each for the small one, five a byte for the
    /// others.
    fn width(self) -> Width {
        match self {
            TableSize::Small => Width::Two,
            _ => Width::Ternary,
        }
    }

    /// The bytes of the table.
    pub fn table_bytes(self) -> u64 {
        self.width().bytes(self.entries() as u64)
    }

    /// The bytes it takes to build the table, with the exact phase-1 distances that bound
    /// the inverse's views (their build: the distances a byte each, then packed): for the
    /// small one, that build and the table packed from it; for the bigger ones, the more of
    /// the table at two bits an entry (built in place, then packed smaller in place) with
    /// the reduction, and the packed table with the exact distances' build after it.
    pub fn build_bytes(self) -> u64 {
        let exact = (PHASE1_ENTRIES + EXACT_BYTES) as u64;
        match self {
            TableSize::Small => exact + PHASE1_BYTES as u64,
            size => (Width::Two.bytes(size.entries() as u64) + COORDINATES_BYTES as u64)
                .max(size.table_bytes() + exact),
        }
    }

    /// The table's cached kind (all three are looked up with
    /// [`TableKind::Phase1Coordinates`]).
    fn kind(self) -> TableKind {
        match self {
            TableSize::Small => TableKind::Phase1,
            TableSize::Medium => TableKind::Phase1Medium,
            TableSize::Large => TableKind::Phase1Large,
        }
    }

    /// Whether the table of `metric` lies in `cache`, of the right size (its contents are
    /// checked when it is loaded).
    pub fn is_cached(self, cache: &Cache, metric: Metric) -> bool {
        let spec = cache::spec(self.kind(), metric);
        std::fs::metadata(cache.path(&spec))
            .is_ok_and(|m| m.is_file() && m.len() == spec.file_bytes())
    }
}

/// The classes of (flip, slice) under the 16 symmetries that keep the U-D axis, and how twist
/// changes under each of them: what it takes to look up a cube in the phase-1 table.
pub(crate) struct Reduction {
    /// `twist_view[t * 16 + k]`: the twist of a cube of twist `t` seen through symmetry `k`.
    twist_view: Vec<u16>,
    /// `class_of[fs]`: the class of (flip, slice) `fs` (shifted left by 4) and the symmetry
    /// that turns a cube with `fs` into the class's representative (the low 4 bits).
    class_of: HugeTable<u32>,
    /// The representative (flip, slice) of each class.
    representatives: Vec<u32>,
    /// For each class, the symmetries that leave its representative's (flip, slice) as it is,
    /// as bits.
    stabilizers: Vec<u16>,
}

/// Of the 48 [views](view), the 16 that keep the U-D axis (a U turn's view is a U or D turn),
/// the identity first.
fn ud_symmetries() -> [usize; UD_SYMMETRIES] {
    let mut symmetries = [0; UD_SYMMETRIES];
    let mut count = 0;
    for (slot, s) in symmetries
        .iter_mut()
        .zip(views_turning(Face::U, [Face::U, Face::D]))
    {
        *slot = s;
        count += 1;
    }
    assert_eq!(count, UD_SYMMETRIES, "16 symmetries keep the U-D axis");
    symmetries
}

impl Reduction {
    /// The reduction, or the limit `stop` returned (it is asked every few thousand classes).
    fn new(stop: &dyn Fn() -> Option<Limit>) -> Result<Reduction, Limit> {
        let set_flipslice = |fs: usize| {
            let mut cube = set_slice(fs % SLICES);
            cube.eo = set_flip(fs / SLICES).eo;
            cube
        };
        let flipslice = |c: &CubieCube| flip(c) * SLICES + slice(c);
        let symmetries = ud_symmetries();
        let seen = |c: &CubieCube, k: usize| view(Cube::from_cubie(c), symmetries[k]).to_cubie();
        let mut twist_view = vec![0u16; TWISTS * UD_SYMMETRIES];
        for t in 0..TWISTS {
            let cube = set_twist(t);
            for k in 0..UD_SYMMETRIES {
                twist_view[t * UD_SYMMETRIES + k] = twist(&seen(&cube, k)) as u16;
            }
        }
        // Which symmetry undoes each one.
        let probe = Cube::random(7);
        let inverse: Vec<usize> = (0..UD_SYMMETRIES)
            .map(|k| {
                let there = view(probe, symmetries[k]);
                (0..UD_SYMMETRIES)
                    .find(|&j| view(there, symmetries[j]) == probe)
                    .expect("the symmetries form a group")
            })
            .collect();
        let mut class_of = HugeTable::zeroed(FLIPS * SLICES);
        class_of.fill(u32::MAX);
        let mut representatives = Vec::with_capacity(FLIPSLICE_CLASSES);
        let mut stabilizers = Vec::with_capacity(FLIPSLICE_CLASSES);
        for fs in 0..FLIPS * SLICES {
            if class_of[fs] != u32::MAX {
                continue;
            }
            let class = representatives.len() as u32;
            if class.is_multiple_of(4096) {
                if let Some(limit) = stop() {
                    return Err(limit);
                }
            }
            representatives.push(fs as u32);
            let cube = set_flipslice(fs);
            let mut stabilizer = 0u16;
            for k in 0..UD_SYMMETRIES {
                let other = flipslice(&seen(&cube, k));
                if other == fs {
                    stabilizer |= 1 << k;
                }
                if class_of[other] == u32::MAX {
                    // `other` is `fs` seen through k: k's inverse takes it back.
                    class_of[other] = class << 4 | inverse[k] as u32;
                }
            }
            stabilizers.push(stabilizer);
        }
        assert_eq!(
            representatives.len(),
            FLIPSLICE_CLASSES,
            "Kociemba's class count"
        );
        Ok(Reduction {
            twist_view,
            class_of,
            representatives,
            stabilizers,
        })
    }

    /// Where a pair of flip and slice coordinates is looked up in [`Reduction::class_of`].
    #[inline(always)]
    fn flipslice(&self, flip: usize, slice: usize) -> usize {
        flip * SLICES + slice
    }

    /// The reduction and the move tables as the bytes of their cached file
    /// ([`TableKind::Phase1Coordinates`]): each array in turn, little-endian.
    fn to_bytes(&self, moves: &MoveTables) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(COORDINATES_BYTES);
        for &c in self.class_of.iter() {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
        for &r in &self.representatives {
            bytes.extend_from_slice(&r.to_le_bytes());
        }
        for part in [
            &self.twist_view,
            &self.stabilizers,
            &moves.twist,
            &moves.flip,
            &moves.slice,
        ] {
            for &x in part {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        debug_assert_eq!(bytes.len(), COORDINATES_BYTES);
        bytes
    }

    /// The reduction and the move tables back from [`Reduction::to_bytes`]'s bytes.
    fn from_bytes(bytes: &[u8]) -> (Reduction, MoveTables) {
        let (classes, rest) = bytes.split_at(FLIPS * SLICES * 4);
        let (representatives, rest) = rest.split_at(FLIPSLICE_CLASSES * 4);
        let u32s = |b: &[u8]| -> Vec<u32> {
            (b.chunks_exact(4))
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let mut rest = rest;
        let mut u16s = |n: usize| -> Vec<u16> {
            let (part, tail) = rest.split_at(n * 2);
            rest = tail;
            (part.chunks_exact(2))
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let twist_view = u16s(TWISTS * UD_SYMMETRIES);
        let stabilizers = u16s(FLIPSLICE_CLASSES);
        let moves = MoveTables {
            twist: u16s(TWISTS * 18),
            flip: u16s(FLIPS * 18),
            slice: u16s(SLICES * 18),
        };
        let mut class_of = HugeTable::zeroed(FLIPS * SLICES);
        for (slot, c) in class_of.iter_mut().zip(classes.chunks_exact(4)) {
            *slot = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let reduction = Reduction {
            twist_view,
            class_of,
            representatives: u32s(representatives),
            stabilizers,
        };
        (reduction, moves)
    }

    /// The reduction and its move tables, read from `cache` or computed and written there
    /// (they take longer to compute than to read); or the limit `stop` returned.
    fn load_or_build(
        cache: &Cache,
        stop: &dyn Fn() -> Option<Limit>,
    ) -> Result<(Reduction, MoveTables, TableReport), Limit> {
        let spec = cache::spec(TableKind::Phase1Coordinates, Metric::Htm);
        let build = || {
            let reduction = Reduction::new(stop)?;
            Ok(reduction.to_bytes(&MoveTables::new()))
        };
        let (bytes, report) = cache.load_or_build(&spec, |len| vec![0; len], build)?;
        let (reduction, moves) = Reduction::from_bytes(&bytes);
        Ok((reduction, moves, report))
    }

    /// The table entry of a cube with these coordinates (`set`, the value of
    /// [`CornerSets`], counts for the medium and large tables alone: `sets` says).
    #[inline(always)]
    fn entry(&self, sets: &CornerSets, twist: usize, set: usize, flipslice: usize) -> usize {
        let class = self.class_of[flipslice];
        let k = (class & 15) as usize;
        let twist = usize::from(self.twist_view[twist * UD_SYMMETRIES + k]);
        let set = sets.seen(set, flipslice % SLICES, k);
        ((class >> 4) as usize * TWISTS + twist) * sets.count + set
    }
}

/// The coordinate beside the twist. For the large table: where the U-layer corners URF UFL
/// ULB UBR are, as one of the 70 sets of four corner positions (ranked by their bit masks in
/// increasing order), twice, plus the parity of the middle-layer edges' order (the order of
/// FR FL BL BR read by position, [`slice_parity`]): 140 keys. The medium table's is the pair
/// of a set and its complement (where the D-layer corners are): the lesser of the two ranks,
/// as the masks' complements rank in reverse. For the small table a single value stands for
/// all cubes.
///
/// Every symmetry that keeps the U-D axis takes the U layer to the U or the D layer, so the
/// set of a cube's view depends on the cube's set alone, and so does the pair. The parity of
/// a view or of a moved cube is the cube's, changed or not by what the symmetry or the move
/// does to the positions of the middle layer, which the slice coordinate says
/// ([`CornerSets::seen`], [`CornerSets::moved`]). Each face turn keeps the set of its own
/// axis's layer corners in that layer and leaves its middle layer's edges alone, which the
/// bound's "one more when the three axes agree" needs.
pub(crate) struct CornerSets {
    /// 140, 35, or 1.
    count: usize,
    /// `value[key]`: the coordinate of each of the 140 keys (set and parity).
    value: [u8; CORNER_KEYS],
    /// `view[value * 16 + k]`: the value of a cube's view through symmetry `k`, with the
    /// parity unchanged.
    view: Vec<u8>,
    /// `moves[value * 18 + m]`: the value after move `m`, with the parity unchanged.
    moves: Vec<u8>,
    /// `slice_view[slice * 16 + k]`: 1 where symmetry `k` changes the parity of a cube
    /// whose middle-layer edges take the positions of `slice` (0 for the tables without).
    slice_view: Vec<u8>,
    /// `slice_moves[slice * 18 + m]`: 1 where move `m` changes that parity.
    slice_moves: Vec<u8>,
}

/// The 70 masks of four corner positions in increasing order, and the rank of each mask.
fn corner_set_tables() -> &'static ([u8; CORNER_SETS], [u8; 256]) {
    static TABLES: OnceLock<([u8; CORNER_SETS], [u8; 256])> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (mut masks, mut rank) = ([0u8; CORNER_SETS], [u8::MAX; 256]);
        for (i, m) in (0u8..=255).filter(|m| m.count_ones() == 4).enumerate() {
            masks[i] = m;
            rank[usize::from(m)] = i as u8;
        }
        (masks, rank)
    })
}

/// Which positions hold the U-layer corners (cubies 0..4), ranked among the 70 sets.
pub(crate) fn corner_set(c: &CubieCube) -> usize {
    let mask = (c.cp.iter().enumerate())
        .filter(|(_, &corner)| corner < 4)
        .fold(0usize, |m, (i, _)| m | 1 << i);
    usize::from(corner_set_tables().1[mask])
}

/// The parity of the middle-layer edges FR FL BL BR (cubies 8..12) in the order of the
/// positions that hold them: 1 when that order is an odd permutation.
pub(crate) fn slice_parity(c: &CubieCube) -> usize {
    let mut order = c.ep.iter().filter(|&&e| e >= 8);
    let edges: [u8; 4] = std::array::from_fn(|_| *order.next().expect("four middle edges"));
    usize::from(parity(&edges))
}

/// The large table's key of a cube: its corner set, twice, plus its [`slice_parity`].
pub(crate) fn corner_key(c: &CubieCube) -> usize {
    corner_set(c) * 2 + slice_parity(c)
}

/// A cube whose U-layer corners take the positions of `set` (in order), the D-layer
/// corners the others, everything else solved.
fn set_corner_set(set: usize) -> CubieCube {
    let mask = corner_set_tables().0[set];
    let mut c = CubieCube::SOLVED;
    let (mut up, mut down) = (0, 4);
    for (i, slot) in c.cp.iter_mut().enumerate() {
        if mask & (1 << i) != 0 {
            *slot = up;
            up += 1;
        } else {
            *slot = down;
            down += 1;
        }
    }
    c
}

/// A cube of key `key` ([`corner_key`]), everything else solved.
#[cfg(test)]
fn set_corner_key(key: usize) -> CubieCube {
    let mut c = set_corner_set(key / 2);
    if key % 2 == 1 {
        c.ep.swap(8, 9);
    }
    c
}

impl CornerSets {
    /// The coordinate of `size`'s table.
    fn new(size: TableSize) -> CornerSets {
        let count = size.corner_sets();
        let value: [u8; CORNER_KEYS] = std::array::from_fn(|key| {
            let set = key / 2;
            (match count {
                CORNER_KEYS => key,
                CORNER_HALVES => set.min(CORNER_SETS - 1 - set),
                _ => 0,
            }) as u8
        });
        // The first key of each value stands for it (the parity 0 where it counts).
        let mut first = vec![0; count];
        for key in (0..CORNER_KEYS).rev() {
            first[usize::from(value[key])] = key;
        }
        // A set's view and move, the parity kept: the slice tables below change it.
        let with_parity = |set: usize, key: usize| value[set * 2 + key % 2];
        let symmetries = ud_symmetries();
        let mut view_of = vec![0u8; count * UD_SYMMETRIES];
        for (v, &key) in first.iter().enumerate() {
            let cube = Cube::from_cubie(&set_corner_set(key / 2));
            for (k, &symmetry) in symmetries.iter().enumerate() {
                let there = corner_set(&view(cube, symmetry).to_cubie());
                view_of[v * UD_SYMMETRIES + k] = with_parity(there, key);
            }
        }
        let sets = move_table(CORNER_SETS, set_corner_set, corner_set, &Move::ALL);
        let mut moves = Vec::with_capacity(count * 18);
        for &key in &first {
            moves.extend((0..18).map(|m| with_parity(sets[key / 2 * 18 + m] as usize, key)));
        }
        let (mut slice_view, mut slice_moves) =
            (vec![0u8; SLICES * UD_SYMMETRIES], vec![0u8; SLICES * 18]);
        if count == CORNER_KEYS {
            for slice in 0..SLICES {
                let cube = Cube::from_cubie(&set_slice(slice));
                let parity = slice_parity(&cube.to_cubie());
                for (k, &symmetry) in symmetries.iter().enumerate() {
                    let seen = slice_parity(&view(cube, symmetry).to_cubie());
                    slice_view[slice * UD_SYMMETRIES + k] = (seen ^ parity) as u8;
                }
                for mv in Move::ALL {
                    let moved = slice_parity(&cube.apply(mv).to_cubie());
                    slice_moves[slice * 18 + mv.index()] = (moved ^ parity) as u8;
                }
            }
        }
        CornerSets {
            count,
            value,
            view: view_of,
            moves,
            slice_view,
            slice_moves,
        }
    }

    /// The single value of the small table.
    fn one() -> CornerSets {
        CornerSets::new(TableSize::Small)
    }

    /// The coordinate of a cube.
    fn of(&self, c: &CubieCube) -> usize {
        self.value_of(corner_key(c))
    }

    /// The coordinate of the cubes of key `key`.
    #[inline(always)]
    fn value_of(&self, key: usize) -> usize {
        usize::from(self.value[key])
    }

    /// The value of the view through symmetry `k` of a cube of value `value` whose
    /// middle-layer edges take the positions of `slice`.
    #[inline(always)]
    fn seen(&self, value: usize, slice: usize, k: usize) -> usize {
        usize::from(
            self.view[value * UD_SYMMETRIES + k] ^ self.slice_view[slice * UD_SYMMETRIES + k],
        )
    }

    /// The value after move `m` of a cube of value `value` whose middle-layer edges take the
    /// positions of `slice`.
    #[inline(always)]
    fn moved(&self, value: usize, slice: usize, m: usize) -> usize {
        usize::from(self.moves[value * 18 + m] ^ self.slice_moves[slice * 18 + m])
    }
}

/// The move tables of phase 1's coordinates: `twist[t * 18 + m]` and so on.
pub(crate) struct MoveTables {
    twist: Vec<u16>,
    flip: Vec<u16>,
    slice: Vec<u16>,
}

impl MoveTables {
    /// The move tables of twist, flip and slice.
    fn new() -> MoveTables {
        let u16s = |table: Vec<u32>| table.into_iter().map(|x| x as u16).collect();
        MoveTables {
            twist: u16s(move_table(TWISTS, set_twist, twist, &Move::ALL)),
            flip: u16s(move_table(FLIPS, set_flip, flip, &Move::ALL)),
            slice: u16s(move_table(SLICES, set_slice, slice, &Move::ALL)),
        }
    }
}

/// Phase 1's coordinates as a space of table entries: a class of (flip, slice) and a twist
/// (`class * 2187 + twist`), a move taking the class's representative to another class and
/// the twist along (seen through the symmetry that takes the cube to that class's
/// representative).
struct Phase1Space<'a> {
    reduction: &'a Reduction,
    moves: &'a MoveTables,
    sets: &'a CornerSets,
    /// The metric's moves, by index.
    turns: Vec<usize>,
}

/// A worker's cursor over [`Phase1Space`]: the last class seen and, for each move, the class
/// (and symmetry to it) its representative goes to, and the slice it has there.
type ClassMoves = (usize, [(u32, u8, u16); 18]);

impl Coordinates for Phase1Space<'_> {
    type Cursor = ClassMoves;

    fn len(&self) -> usize {
        self.reduction.representatives.len() * TWISTS * self.sets.count
    }

    fn branching(&self) -> usize {
        self.turns.len()
    }

    fn cursor(&self) -> ClassMoves {
        (usize::MAX, [(0, 0, 0); 18])
    }

    #[inline]
    fn each_successor(
        &self,
        rank: usize,
        (last, neighbours): &mut ClassMoves,
        visit: &mut impl Visit,
    ) -> ControlFlow<()> {
        let (reduction, moves, sets) = (self.reduction, self.moves, self.sets);
        let (corners, set) = (rank / sets.count, rank % sets.count);
        let (class, t) = (corners / TWISTS, corners % TWISTS);
        let s = reduction.representatives[class] as usize % SLICES;
        if *last != class {
            *last = class;
            let f = reduction.representatives[class] as usize / SLICES;
            for (slot, &m) in neighbours.iter_mut().zip(&self.turns) {
                let s2 = moves.slice[s * 18 + m];
                let fs2 = reduction.flipslice(usize::from(moves.flip[f * 18 + m]), usize::from(s2));
                let c = reduction.class_of[fs2];
                *slot = (c >> 4, (c & 15) as u8, s2);
            }
        }
        let rank_of = |c: usize, t: usize, set: usize| (c * TWISTS + t) * sets.count + set;
        for (&(c, k, s2), &m) in neighbours.iter().zip(&self.turns) {
            let (c, k) = (c as usize, usize::from(k));
            let t2 = usize::from(moves.twist[t * 18 + m]);
            let t3 = usize::from(reduction.twist_view[t2 * UD_SYMMETRIES + k]);
            let set3 = sets.seen(sets.moved(set, s, m), usize::from(s2), k);
            visit.visit(rank_of(c, t3, set3))?;
            // The same cubes seen through the symmetries that keep the class's representative:
            // every way of looking them up gets the distance.
            let stabilizer = reduction.stabilizers[c];
            if stabilizer != 1 {
                let s3 = reduction.representatives[c] as usize % SLICES;
                for k in 1..UD_SYMMETRIES {
                    if stabilizer & (1 << k) != 0 {
                        let t4 = usize::from(reduction.twist_view[t3 * UD_SYMMETRIES + k]);
                        visit.visit(rank_of(c, t4, sets.seen(set3, s3, k)))?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The phase-1 distances of `metric`, one byte an entry, by breadth-first search over the
/// table's entries with `builder` (its limit check and progress), the late layers backwards;
/// or the limit that stopped it.
fn phase1_distances(
    reduction: &Reduction,
    moves: &MoveTables,
    metric: Metric,
    builder: Builder<'_>,
) -> Result<Vec<u8>, Limit> {
    let sets = CornerSets::one();
    let space = Phase1Space {
        reduction,
        moves,
        sets: &sets,
        turns: metric.moves().iter().map(|m| m.index()).collect(),
    };
    builder
        .backwards(true)
        .build(&space, &[solved_entry(reduction, &sets)])
}

/// The table entry of the solved cube.
fn solved_entry(reduction: &Reduction, sets: &CornerSets) -> usize {
    let c = &CubieCube::SOLVED;
    reduction.entry(
        sets,
        twist(c),
        sets.of(c),
        reduction.flipslice(flip(c), slice(c)),
    )
}

/// [`phase1_distances`] modulo 3 (refined by `sets`), built in place into `table` at two
/// bits an entry.
fn packed_distances(
    reduction: &Reduction,
    moves: &MoveTables,
    sets: &CornerSets,
    metric: Metric,
    builder: Builder<'_>,
    table: &mut [u8],
) -> Result<(), Limit> {
    let space = Phase1Space {
        reduction,
        moves,
        sets,
        turns: metric.moves().iter().map(|m| m.index()).collect(),
    };
    builder
        .backwards(true)
        .build_mod3(&space, &[solved_entry(reduction, sets)], table)
}

/// An optimal solver for any cube: IDA* bounded by the distance to G1 along all three axes.
///
/// The bound of a cube is the largest of its three phase-1 distances (the cube seen with the
/// U-D, R-L and F-B axis up), plus one when all three are equal and not zero: a solution of
/// exactly that length would end with a quarter turn, which belongs to one axis's G1, so
/// that axis would be one move closer. The phase-1 table is read from the disk cache
/// (`phase1-htm` or `phase1-qtm`, 35 MB) or built (seconds, in parallel) and written there.
///
/// With the large table ([`Optimal::load_or_build_table`], `phase1-large-htm` or `-qtm`,
/// 3.94 GB, minutes to build) each axis's distance is to the cubes of G1 whose U-layer
/// corners are in the U layer and whose middle-layer edges are in an even order: every face
/// turn keeps that set of its own axis (it takes no corner of that layer out of it, twists
/// nothing seen along it and leaves the middle layer alone), so the same bound and the same
/// plus one hold. With the medium table (`phase1-medium-htm` or `-qtm`, 986 MB)
/// each is to the cubes of G1 whose U-layer corners are all in one of the axis's layers:
/// the same holds.
///
/// The cube's inverse needs as many moves, so its three axes bound the cube as well: their
/// distances come from the exact distances to G1 (`phase1-exact`, 70 MB, four bits an
/// entry), refined by the solver's own table modulo 3 (see [`Optimal::set_inverse_views`]).
///
/// The corners' distance (permutation and twist, 2,768 x 2,187 entries by the same
/// symmetries, 1.5 MB) is not used as a second bound: it cuts fewer nodes than it costs per
/// node (`benches/RESULTS.md`).
///
/// ```
/// use frontier_cube::{Cube, Metric, Notation, Optimal};
/// use frontier_search::{Config, Status};
///
/// // The checkerboard: 6 half turns, and no fewer.
/// let cube = Cube::from_scramble("U2 D2 F2 B2 L2 R2", Notation::Wca).unwrap();
/// // The table of frontier's cache is [`Optimal::get`]'s; a cache of one's own:
/// let cache = frontier_tables::Cache::at(std::env::temp_dir().join("frontier-doc-cache"));
/// let optimal = Optimal::load_or_build(&cache, Metric::Htm, &|_| {}, &|| None).unwrap();
/// let outcome = optimal.solve(cube, &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// let solution = outcome.into_solution().unwrap();
/// assert_eq!(solution.len(), 6);
/// assert!(cube.apply_all(&solution.moves).is_solved());
/// ```
pub struct Optimal {
    metric: Metric,
    size: TableSize,
    /// The slice coordinate of the solved cube (its distance is 0 there).
    solved_slice: u16,
    /// Where the solved cube's U-layer corners are (0 where it does not count).
    solved_set: u8,
    reduction: Reduction,
    moves: MoveTables,
    sets: CornerSets,
    /// The phase-1 distances modulo 3, packed at [`Width::Two`].
    phase1: HugeTable<u8>,
    /// The exact distances to G1 that bound the inverse's views, if they were loaded.
    exact: Option<Exact>,
    /// Whether the bound takes the inverse's three views too (with `exact` loaded).
    inverse: bool,
    /// Whether a symmetric cube's search leaves out the move sequences that its symmetries
    /// map onto others.
    symmetric: bool,
    /// The symmetries (rotations) that show the cube with its U-D, R-L and F-B axis up: the
    /// identity, and two others.
    views: [usize; 3],
    /// `axis_moves[axis][m]`: the move of the view along `axis` behind real move `m` (by index).
    axis_moves: [[u8; 18]; 3],
    /// `goal_moves[axis]`: the real moves (bits by index) whose view along `axis` lies in the
    /// table's goal (U and D turns, and for the small table the half turns too).
    goal_moves: [u32; 3],
    report: TableReport,
    /// What happened to the reduction's and the move tables' file.
    coordinates: TableReport,
}

/// The exact distance to G1 of every entry of the small table (64,430 classes of (flip,
/// slice) x 2,187 twists), four bits an entry, 70 MB: the bound of the inverse's views.
///
/// A move M makes of cube C the cube C·M, whose inverse M⁻¹·C⁻¹ is the inverse's coset
/// moved from the other side: its distance can differ from the parent's by more than one,
/// so a table of distances modulo 3 cannot be read along the inverse's path. An exact
/// distance is read alone; for the medium and large tables the entry of the solver's own
/// table, modulo 3, refines it (their goals lie inside G1, so their distance is the least
/// number at least the distance to G1 with that remainder, or more).
struct Exact {
    /// Two entries a byte, the first in the low four bits.
    table: HugeTable<u8>,
    /// The small table's corner coordinate: the twist alone.
    one: CornerSets,
    report: TableReport,
}

impl Exact {
    /// The exact distances of `metric` over this reduction and these move tables, read from
    /// `cache` or built (with `progress` and `stop`) and written there.
    fn load_or_build(
        cache: &Cache,
        metric: Metric,
        reduction: &Reduction,
        moves: &MoveTables,
        progress: &(dyn Fn(BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
    ) -> Result<Exact, Limit> {
        let build = || {
            let builder = Builder::new().progress(progress).stop(stop);
            let distances = phase1_distances(reduction, moves, metric, builder)?;
            let mut table = HugeTable::zeroed(EXACT_BYTES);
            Table::pack_into(&distances, Width::Four, &mut table);
            Ok(table)
        };
        let spec = cache::spec(TableKind::Phase1Exact, metric);
        let (table, report) = cache.load_or_build(&spec, HugeTable::zeroed, build)?;
        Ok(Exact {
            table,
            one: CornerSets::one(),
            report,
        })
    }

    /// Writes the distances modulo 3 into `packed` (four entries a byte), if every one of
    /// them is exact (below 15, the four bits' "15 or more"); returns whether they were.
    fn modulo_3(&self, packed: &mut [u8]) -> bool {
        for (byte, pair) in packed.iter_mut().zip(self.table.chunks(2)) {
            let mut out = 0;
            for i in 0..4 {
                let Some(b) = pair.get(i / 2) else { break };
                let d = (b >> (4 * (i % 2))) & 15;
                if d == 15 {
                    return false;
                }
                out |= (d % 3) << (2 * i);
            }
            *byte = out;
        }
        true
    }
}

/// The tables are summed up by their metric and where they came from.
impl std::fmt::Debug for Optimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Optimal")
            .field("metric", &self.metric)
            .field("size", &self.size)
            .field("inverse", &self.inverse)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

/// Lower bounds of the distances of a cube's three views, or of its inverse's three views.
type Distances = [u8; 3];

/// The inverse's coordinates along one axis, for [`Optimal::inverse_entries`].
#[derive(Clone, Copy, Default)]
struct InverseCoordinates {
    twist: u16,
    set: u8,
    /// Where its flip and slice are looked up in the reduction.
    flipslice: usize,
}

/// The phase-1 coordinates of a cube seen along one axis, and its exact distance to G1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisNode {
    pub(crate) twist: u16,
    pub(crate) flip: u16,
    pub(crate) slice: u16,
    /// The [`CornerSets`] value: where the U-layer corners are and the middle layer's parity
    /// for the large table, the pair of sets for the medium one, 0 for the small one.
    pub(crate) set: u8,
    pub(crate) distance: u8,
}

/// A node of the search: the cube's coordinates along each axis, and the cube itself seen
/// along each axis (rotated so that the axis is U-D), whose inverse's coordinates are read
/// from its pieces.
#[derive(Clone, Copy, Debug)]
struct Node {
    axes: [AxisNode; 3],
    views: [Cube; 3],
    /// Lower bounds of the inverse's distances along the axes (0 when not taken).
    inverse: Distances,
}

/// `(3 - o) % 3 * 3^(6 - c)` for a corner field of cubie `c` and twist `o` (cubie 7, DRB,
/// counts nothing): a corner's part of its inverse's twist.
const INVERSE_TWIST: [u16; 32] = {
    let mut table = [0u16; 32];
    let mut field = 0;
    while field < 32 {
        let (c, o) = (field & 7, field >> 3);
        if c < 7 && o < 3 {
            let mut weight = 1u16;
            let mut i = c;
            while i < 6 {
                weight *= 3;
                i += 1;
            }
            table[field] = ((3 - o as u16) % 3) * weight;
        }
        field += 1;
    }
    table
};

/// The coordinates of the inverse of a packed cube, read from its pieces' fields: the
/// inverse puts cubie `c` where the cube has `c`'s position, turned back. Returns the
/// inverse's twist, flip, slice and key (its U-layer corner set and middle-layer parity,
/// [`corner_key`]).
#[inline(always)]
fn inverse_coordinates(cube: Cube) -> (u16, u16, u16, u8) {
    let bits = cube.bits();
    let (mut twist, mut corner_mask) = (0u16, 0usize);
    for i in 0..8 {
        let field = (bits >> (5 * i)) as usize & 31;
        twist += INVERSE_TWIST[field];
        if i < 4 {
            corner_mask |= 1 << (field & 7);
        }
    }
    let (mut flip, mut slice_mask) = (0u16, 0usize);
    let mut middle = [0u8; 4];
    for j in 0..12 {
        let field = (bits >> (40 + 5 * j)) as usize & 31;
        let (e, o) = (field & 15, (field >> 4) as u16);
        if e < 11 {
            flip |= o << (10 - e);
        }
        if j >= 8 {
            slice_mask |= 1 << e;
            middle[j - 8] = e as u8;
        }
    }
    let slice = slice_of_mask(slice_mask) as u16;
    // The inverse's middle-layer edge j lies where the cube's position j sends it: their
    // order by position is as far from sorted as those positions are.
    let key = corner_set_tables().1[corner_mask] * 2 + u8::from(parity(&middle));
    (twist, flip, slice, key)
}

impl Optimal {
    /// The bytes its small table takes to build: the distances a byte each (141 million),
    /// then packed four to a byte. Loaded from the cache, the table takes the packed quarter
    /// alone. ([`TableSize::build_bytes`] for each size, with the inverse's bound.)
    pub const BUILD_BYTES: u64 = (PHASE1_ENTRIES + PHASE1_BYTES) as u64;

    /// The solver for `metric`, its table loaded on first use from the cache
    /// ([`cache::default_cache`]) or built and saved there, then shared by the whole process.
    pub fn get(metric: Metric) -> &'static Optimal {
        static HTM: OnceLock<Optimal> = OnceLock::new();
        static QTM: OnceLock<Optimal> = OnceLock::new();
        let cell = match metric {
            Metric::Htm => &HTM,
            Metric::Qtm => &QTM,
        };
        cell.get_or_init(|| {
            Optimal::load_or_build(&cache::default_cache(), metric, &|_| {}, &|| None)
                .expect("a build with no limit check ends")
        })
    }

    /// The solver for `metric`, its phase-1 table read from `cache`, or built (reporting its
    /// progress to `progress`) and written there when the file is missing or fails a check;
    /// the limit `stop` returned, if it did during the build (then nothing is written). A
    /// cache that cannot be written costs nothing but the next build; see
    /// [`Optimal::cache_report`].
    pub fn load_or_build(
        cache: &Cache,
        metric: Metric,
        progress: &(dyn Fn(BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
    ) -> Result<Optimal, Limit> {
        Optimal::load_or_build_table(cache, TableSize::Small, metric, progress, stop)
    }

    /// [`Optimal::load_or_build`] with the table of `size`: the medium and large ones are
    /// built in place, in parallel on rayon's pool (minutes), and take
    /// [`TableSize::build_bytes`]. The exact distances to G1 that bound the inverse's views
    /// (`phase1-exact`, 70 MB) are loaded or built likewise.
    pub fn load_or_build_table(
        cache: &Cache,
        size: TableSize,
        metric: Metric,
        progress: &(dyn Fn(BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
    ) -> Result<Optimal, Limit> {
        Optimal::load(cache, size, metric, progress, stop, true)
    }

    /// The small table alone, without the inverse's bound: phase 1 of two-phase.
    pub(crate) fn load_phase1(
        cache: &Cache,
        progress: &(dyn Fn(BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
    ) -> Result<Optimal, Limit> {
        Optimal::load(cache, TableSize::Small, Metric::Htm, progress, stop, false)
    }

    /// The solver of `size`, with the inverse's bound if `inverse`.
    fn load(
        cache: &Cache,
        size: TableSize,
        metric: Metric,
        progress: &(dyn Fn(BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
        inverse: bool,
    ) -> Result<Optimal, Limit> {
        let (reduction, moves, coordinates) = Reduction::load_or_build(cache, stop)?;
        let load_exact = || match inverse {
            true => {
                Exact::load_or_build(cache, metric, &reduction, &moves, progress, stop).map(Some)
            }
            false => Ok(None),
        };
        // The small table is packed from the exact distances; a bigger one is built before
        // they are read, so that its build holds only itself.
        let exact_first = match size {
            TableSize::Small => load_exact()?,
            _ => None,
        };
        let sets = CornerSets::new(size);
        let build = || {
            let builder = Builder::new().progress(progress).stop(stop);
            let entries = size.entries();
            let mut packed = HugeTable::zeroed(Width::Two.bytes(entries as u64) as usize);
            if size != TableSize::Small {
                packed_distances(&reduction, &moves, &sets, metric, builder, &mut packed)?;
                let used = Width::two_to_ternary(&mut packed, entries);
                packed.truncate(used);
            } else if !exact_first
                .as_ref()
                .is_some_and(|e| e.modulo_3(&mut packed))
            {
                // The exact distances modulo 3, unless some are too far for four bits.
                let distances = phase1_distances(&reduction, &moves, metric, builder)?;
                Table::pack_into(&distances, Width::Two, &mut packed);
            }
            Ok(packed)
        };
        let spec = cache::spec(size.kind(), metric);
        let (phase1, report) = cache.load_or_build(&spec, HugeTable::zeroed, build)?;
        let exact = match size {
            TableSize::Small => exact_first,
            _ => load_exact()?,
        };
        // For each axis, a rotation whose view turns it into the U-D axis, and the move of
        // the view behind each real move.
        let views = [Face::U, Face::R, Face::F].map(|face| {
            (views_turning(face, [Face::U, Face::D]).next())
                .expect("some rotation takes each axis to the U-D axis")
        });
        let axis_moves = views.map(|rotation| moves_seen(rotation).map(|mv| mv.index() as u8));
        let in_goal = |mv: Move| {
            matches!(mv.face(), Face::U | Face::D)
                || (size == TableSize::Small && mv.quarter_turns() == 2)
        };
        let goal_moves = axis_moves.map(|seen| {
            (0..18)
                .filter(|&m| in_goal(Move::ALL[usize::from(seen[m])]))
                .fold(0u32, |bits, m| bits | 1 << m)
        });
        Ok(Optimal {
            metric,
            size,
            solved_slice: slice(&CubieCube::SOLVED) as u16,
            solved_set: sets.of(&CubieCube::SOLVED) as u8,
            reduction,
            moves,
            sets,
            phase1,
            inverse: exact.is_some(),
            symmetric: true,
            exact,
            views,
            axis_moves,
            goal_moves,
            report,
            coordinates,
        })
    }

    /// Whether the bound takes the inverse's three views as well as the cube's (the
    /// default): a switch to measure what they give.
    pub fn set_inverse_views(&mut self, on: bool) {
        self.inverse = on && self.exact.is_some();
    }

    /// Whether the search of a cube that some of the 48 symmetries leave as it is (the
    /// superflip, say) searches one of each set of move sequences they map onto each other
    /// (the default), or all of them: a switch to measure what that gives. [`Optimal::solve_all`]
    /// always searches them all.
    pub fn set_symmetric_pruning(&mut self, on: bool) {
        self.symmetric = on;
    }

    /// What happened to the table of exact distances that bounds the inverse's views.
    pub fn exact_report(&self) -> Option<&TableReport> {
        self.exact.as_ref().map(|e| &e.report)
    }

    /// What happened to the phase-1 table: loaded, built, rebuilt (and why), not cached (and
    /// why).
    pub fn cache_report(&self) -> &TableReport {
        &self.report
    }

    /// What happened to the file of the symmetry classes and move tables the phase-1 table is
    /// looked up with (`phase1-coordinates`).
    pub fn coordinates_report(&self) -> &TableReport {
        &self.coordinates
    }

    /// The metric whose moves the solver counts.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The size of its table.
    pub fn size(&self) -> TableSize {
        self.size
    }

    /// The distance modulo 3 stored for an entry ([`TableSize::width`]).
    #[inline(always)]
    fn stored(&self, entry: usize) -> u8 {
        match self.size {
            TableSize::Small => (self.phase1[entry >> 2] >> ((entry & 3) << 1)) & 3,
            _ => Width::ternary(&self.phase1, entry),
        }
    }

    /// The byte of the table that holds an entry.
    #[inline(always)]
    fn byte_of(&self, entry: usize) -> usize {
        match self.size {
            TableSize::Small => entry >> 2,
            _ => entry / 5,
        }
    }

    /// Whether coordinates are at distance 0: in G1 for the small table, for the medium
    /// one with the U-layer corners in the U or the D layer too, for the large one in the U
    /// layer and with the middle-layer edges in an even order.
    pub(crate) fn in_g1(&self, node: &AxisNode) -> bool {
        node.twist == 0
            && node.flip == 0
            && node.slice == self.solved_slice
            && node.set == self.solved_set
    }

    /// A cube's coordinates along the U-D axis with an unknown distance.
    pub(crate) fn coordinates(&self, cube: Cube) -> AxisNode {
        let c = cube.to_cubie();
        AxisNode {
            twist: twist(&c) as u16,
            flip: flip(&c) as u16,
            slice: slice(&c) as u16,
            set: self.sets.of(&c) as u8,
            distance: 0,
        }
    }

    /// The coordinates after move `m` (index into `Move::ALL`), with `node`'s distance still.
    #[inline(always)]
    pub(crate) fn moved(&self, node: &AxisNode, m: usize) -> AxisNode {
        AxisNode {
            twist: self.moves.twist[usize::from(node.twist) * 18 + m],
            flip: self.moves.flip[usize::from(node.flip) * 18 + m],
            slice: self.moves.slice[usize::from(node.slice) * 18 + m],
            set: (self.sets).moved(usize::from(node.set), usize::from(node.slice), m) as u8,
            distance: node.distance,
        }
    }

    /// Where the node's flip and slice are looked up in the class table.
    #[inline(always)]
    pub(crate) fn flipslice_of(&self, node: &AxisNode) -> usize {
        (self.reduction).flipslice(usize::from(node.flip), usize::from(node.slice))
    }

    /// The node's entry in the phase-1 table.
    #[inline(always)]
    pub(crate) fn entry_of(&self, node: &AxisNode) -> usize {
        self.reduction.entry(
            &self.sets,
            usize::from(node.twist),
            usize::from(node.set),
            self.flipslice_of(node),
        )
    }

    /// Starts reading the class of the node's flip and slice, for [`Optimal::entry_of`].
    #[inline(always)]
    pub(crate) fn prefetch_class(&self, node: &AxisNode) {
        prefetch((self.reduction.class_of.as_ptr()).wrapping_add(self.flipslice_of(node)));
    }

    /// Starts reading the byte of a phase-1 entry, for [`Optimal::distance_after`].
    #[inline(always)]
    pub(crate) fn prefetch_entry(&self, entry: usize) {
        prefetch(self.phase1.as_ptr().wrapping_add(self.byte_of(entry)));
    }

    /// The distance of a neighbour of a node at distance `parent`, from its table entry: one
    /// move closer, as far, or one further, whichever has the stored remainder.
    #[inline(always)]
    pub(crate) fn distance_after(&self, parent: u8, entry: usize) -> u8 {
        match (self.stored(entry) + 3 - parent % 3) % 3 {
            0 => parent,
            1 => parent + 1,
            _ => parent - 1,
        }
    }

    /// The exact phase-1 distance of coordinates: walk towards G1, one move closer at each
    /// step (the neighbour whose stored remainder is one less), counting the moves. Each
    /// step reads its neighbours' entries in two rounds, all of them at each (their classes,
    /// then their entries), so that the reads of memory overlap.
    pub(crate) fn phase1_distance(&self, mut node: AxisNode) -> u8 {
        let moves = self.metric.moves();
        let mut steps = 0;
        while !self.in_g1(&node) {
            // Any distance of the right remainder works: only the difference matters, and the
            // closer neighbour's is one less.
            let here = self.stored(self.entry_of(&node));
            let closer = (here + 2) % 3;
            let mut children = [node; 18];
            for (child, m) in children.iter_mut().zip(moves) {
                *child = self.moved(&node, m.index());
                self.prefetch_class(child);
            }
            let mut entries = [0usize; 18];
            for (entry, child) in entries.iter_mut().zip(&children) {
                *entry = self.entry_of(child);
                self.prefetch_entry(*entry);
            }
            let next = (0..moves.len())
                .find(|&k| self.stored(entries[k]) == closer)
                .expect("a cube outside G1 has a neighbour closer to it");
            node = children[next];
            steps += 1;
        }
        steps
    }

    /// The cube's coordinates along the three axes, with their distances.
    fn axis_nodes(&self, cube: Cube) -> [AxisNode; 3] {
        self.views.map(|rotation| {
            let mut node = self.coordinates(view(cube, rotation));
            node.distance = self.phase1_distance(node);
            node
        })
    }

    /// A lower bound of the moves that solve a cube whose three axis distances are these.
    #[inline(always)]
    fn bound_of(distances: [u8; 3]) -> usize {
        let [a, b, c] = distances;
        let most = a.max(b).max(c);
        usize::from(most) + usize::from(a == b && b == c && most > 0)
    }

    /// The search's node of a cube.
    fn root(&self, cube: Cube) -> Node {
        let views = self.views.map(|rotation| view(cube, rotation));
        Node {
            axes: self.axis_nodes(cube),
            views,
            inverse: self.inverse_distances(&views).unwrap_or_default(),
        }
    }

    /// The bound of a node: its three views', and its inverse's three views'.
    fn node_bound(&self, node: &Node) -> usize {
        let cube = Optimal::bound_of(node.axes.map(|n| n.distance));
        cube.max(Optimal::bound_of(node.inverse))
    }

    /// The moves that may start a solution of `left` moves from `node`: not one whose view
    /// along an axis lies in the table's goal where the inverse's distance along that axis
    /// is `left`. (Were C·M·W solved, W of `left - 1` moves, with M in the goal H of an axis,
    /// then W⁻¹ would take C⁻¹ to M⁻¹, in H: the inverse would be within `left - 1`.)
    #[inline(always)]
    fn first_moves(&self, node: &Node, left: usize) -> u32 {
        let mut allowed = u32::MAX;
        for axis in 0..3 {
            if usize::from(node.inverse[axis]) == left {
                allowed &= !self.goal_moves[axis];
            }
        }
        allowed
    }

    /// The exact table, when the inverse's views are taken.
    #[inline(always)]
    fn exact(&self) -> Option<&Exact> {
        self.exact.as_ref().filter(|_| self.inverse)
    }

    /// Lower bounds of the distances of the inverse of the cube whose views along the three
    /// axes are `views`, one for each axis; `None` when the inverse's views are not taken.
    fn inverse_distances(&self, views: &[Cube; 3]) -> Option<Distances> {
        let exact = self.exact()?;
        Some(views.map(|seen| {
            let coordinates = self.inverse_start(seen);
            let entries = self.inverse_entries(exact, &coordinates);
            self.inverse_distance(exact, entries)
        }))
    }

    /// The first step of an inverse view's bound: the coordinates of the inverse of `seen`
    /// (the cube seen along one axis), and where its flip and slice are looked up, whose
    /// classes it starts to read.
    #[inline(always)]
    fn inverse_start(&self, seen: Cube) -> InverseCoordinates {
        let (twist, flip, slice, set) = inverse_coordinates(seen);
        let flipslice = self
            .reduction
            .flipslice(usize::from(flip), usize::from(slice));
        prefetch(self.reduction.class_of.as_ptr().wrapping_add(flipslice));
        InverseCoordinates {
            twist,
            set: self.sets.value_of(usize::from(set)) as u8,
            flipslice,
        }
    }

    /// The second step: the entries of the inverse's coordinates in the exact table and in
    /// the solver's own, which it starts to read.
    #[inline(always)]
    fn inverse_entries(&self, exact: &Exact, c: &InverseCoordinates) -> (usize, usize) {
        let twist = usize::from(c.twist);
        let at = (self.reduction).entry(&exact.one, twist, 0, c.flipslice);
        prefetch(exact.table.as_ptr().wrapping_add(at >> 1));
        let own = match self.size {
            TableSize::Small => at,
            _ => {
                let own =
                    (self.reduction).entry(&self.sets, twist, usize::from(c.set), c.flipslice);
                self.prefetch_entry(own);
                own
            }
        };
        (at, own)
    }

    /// The last step: a lower bound of the inverse view's distance, from its entries.
    #[inline(always)]
    fn inverse_distance(&self, exact: &Exact, (at, own): (usize, usize)) -> u8 {
        let to_g1 = (exact.table[at >> 1] >> ((at & 1) << 2)) & 15;
        match self.size {
            TableSize::Small => to_g1,
            // The least distance of the stored remainder at least the distance to G1.
            _ => to_g1 + (self.stored(own) + 3 - to_g1 % 3) % 3,
        }
    }

    /// A lower bound of the number of moves (in the solver's metric) that solve `cube`: the
    /// solver's bound at the root.
    pub fn estimate(&self, cube: Cube) -> u64 {
        self.first_bound(cube, &self.root(cube)) as u64
    }

    /// The first bound worth searching from `root`, the node of `cube`: its bound, raised in
    /// QTM to the parity of every solution's length.
    fn first_bound(&self, cube: Cube, root: &Node) -> usize {
        let bound = self.node_bound(root);
        match self.metric {
            Metric::Htm => bound,
            Metric::Qtm => bound + (bound % 2 != usize::from(Optimal::odd_in_qtm(cube))) as usize,
        }
    }

    /// Whether every QTM solution of `cube` has an odd length: each quarter turn is a 4-cycle
    /// of corners, so it changes their permutation's parity, which a solution must undo.
    fn odd_in_qtm(cube: Cube) -> bool {
        parity(&cube.to_cubie().cp)
    }

    /// How far apart the bounds worth searching lie: in QTM a solution's length has the
    /// parity of the cube's corners ([`Optimal::odd_in_qtm`]), so the bounds between are
    /// searched in vain.
    fn bound_step(&self) -> usize {
        match self.metric {
            Metric::Htm => 1,
            Metric::Qtm => 2,
        }
    }

    /// A shortest solution of `cube` in the solver's metric, by IDA*: each bound in turn is
    /// searched completely, so the first solution found is a shortest one.
    ///
    /// Limits: `config.max_depth` (no longer solution is looked for: [`Limit::Depth`]),
    /// `config.timeout` ([`Limit::Time`]) and `config.cancel` ([`Limit::Cancelled`]). It
    /// stores no states but each bound's nodes five moves down (some 577,000 in HTM, 55 MB,
    /// within what its table took to build), so `max_states` does not apply. With
    /// `config.threads` above one, the workers share out those subtrees (the nearest to
    /// solved first); which of several shortest solutions is returned may then vary from run
    /// to run.
    pub fn solve(&self, cube: Cube, config: &Config) -> Outcome<Cube, Move> {
        self.search(cube, config, false, self.symmetric).0
    }

    /// Every shortest solution of `cube` in the solver's metric, each canonical move
    /// sequence once (of two opposite faces' turns side by side, U before D, R before L, F
    /// before B; never one face twice running, but in QTM the same quarter turn twice): the
    /// IDA* ends after the bound of the first solution, having searched it all. The outcome
    /// holds the first of them in the list's order (sorted by move index); with a limit hit,
    /// the list is empty.
    pub fn solve_all(&self, cube: Cube, config: &Config) -> (Outcome<Cube, Move>, Vec<Vec<Move>>) {
        self.search(cube, config, true, false)
    }

    /// [`Optimal::solve`], or with `all` [`Optimal::solve_all`]; with `symmetric`, one of each
    /// set of move sequences that the cube's symmetries map onto each other.
    fn search(
        &self,
        cube: Cube,
        config: &Config,
        all: bool,
        symmetric: bool,
    ) -> (Outcome<Cube, Move>, Vec<Vec<Move>>) {
        let longest = config
            .max_depth
            .map_or(LONGEST, |d| (d as usize).min(LONGEST));
        let root = self.root(cube);
        let shared = Shared {
            solver: self,
            cube,
            config,
            watch: Watch::new(config),
            found: Mutex::new(Vec::new()),
            all,
            done: AtomicBool::new(false),
            bound: AtomicUsize::new(0),
            // Every solution is wanted with `all`: none may be dropped as a view of another.
            symmetries: match symmetric {
                true => stabiliser_moves(cube),
                false => Vec::new(),
            },
        };
        let mut counts = (0, 0);
        let mut listing = None;
        let mut status = Status::Limit(Limit::Depth);
        let mut bound = self.first_bound(cube, &root);
        if cube.is_solved() {
            lock(&shared.found).push(Vec::new());
            status = Status::Solved;
        }
        while status != Status::Solved && bound <= longest {
            // Between two bounds too, so that a limit already hit never waits for the next
            // check: a timeout of 0 stops before any search.
            if shared.stop_at(shared.watch.limit()) {
                status = Status::Limit(shared.watch.stopped().unwrap_or(Limit::Time));
                break;
            }
            shared.bound.store(bound, Ordering::Relaxed);
            let (expanded, generated) = shared.search(root, bound, &mut listing);
            counts.0 += expanded;
            counts.1 += generated;
            // A limit hit during the bound may leave some of its solutions unfound: with
            // `all`, the list is then no answer.
            if let Some(limit) = shared.watch.stopped().filter(|_| all) {
                status = Status::Limit(limit);
                break;
            }
            if !lock(&shared.found).is_empty() {
                status = Status::Solved;
            } else if let Some(limit) = shared.watch.stopped() {
                status = Status::Limit(limit);
                break;
            }
            bound += self.bound_step();
        }
        let stats = Stats {
            expanded: counts.0,
            generated: counts.1,
            stored: 0,
            peak_frontier: shared.bound.load(Ordering::Relaxed) as u64,
            seconds: shared.watch.seconds(),
        };
        let mut found = std::mem::take(&mut *lock(&shared.found));
        found.sort();
        let outcome = match (status, found.first()) {
            (Status::Solved, Some(moves)) => Outcome::Solved {
                solution: Solution {
                    cost: moves.iter().map(|m| m.cost(self.metric)).sum(),
                    states: cube.path(moves),
                    moves: moves.clone(),
                },
                stats,
            },
            (Status::Limit(limit), _) => Outcome::Stopped { limit, stats },
            // Solved is set only once the moves are stored, and the search never proves a
            // cube unsolvable (every cube it accepts is solvable within `LONGEST`).
            _ => Outcome::Stopped {
                limit: Limit::Depth,
                stats,
            },
        };
        if outcome.status() != Status::Solved {
            found.clear();
        }
        (outcome, found)
    }
}

/// What the workers of one solve share.
struct Shared<'a> {
    solver: &'a Optimal,
    /// The cube to solve.
    cube: Cube,
    config: &'a Config,
    /// The limits, the clock and the progress reports; it keeps the limit that stopped the
    /// search, if one did.
    watch: Watch<'a>,
    /// The solutions found: any solution within the current bound is a shortest one.
    found: Mutex<Vec<Vec<Move>>>,
    /// Whether every solution within the bound is wanted, not only the first.
    all: bool,
    /// Whether the workers must end: a solution was found or a limit was hit.
    done: AtomicBool,
    /// The bound being searched.
    bound: AtomicUsize,
    /// The symmetries that keep the cube, as move maps ([`stabiliser_moves`]): empty for most
    /// cubes, all 47 for the superflip.
    symmetries: Vec<[u8; 18]>,
}

impl Shared<'_> {
    /// Whether a symmetry that keeps the cube maps the first blocks of `path` onto earlier
    /// ones, where the path's last move starts its second or third block: then the subtree
    /// below is left out. A block is a run of turns about one axis, which commute; its
    /// canonical order is its move indices sorted, and a symmetry maps the blocks of a
    /// canonical sequence onto the blocks of another, as long. Of the images of a solution,
    /// the one whose first two blocks come first is kept (the least of an orbit is nobody's
    /// image of something less), so a solution of the bound is still found, sooner. Where
    /// only the first block is complete, a symmetry that maps it onto an earlier block maps
    /// the first two onto earlier ones too, whatever the second.
    fn mapped_onto_earlier(&self, path: &[Move]) -> bool {
        /// Moves a block may hold in the key (two in HTM, up to four quarter turns in QTM).
        const BLOCK: usize = 4;
        if self.symmetries.is_empty() || !(2..=2 * BLOCK + 1).contains(&path.len()) {
            return false;
        }
        let axis = |i: usize| path[i].face().index() % 3;
        let last = path.len() - 1;
        if axis(last) == axis(last - 1) {
            return false;
        }
        // Where the blocks before the last move start (the first at 0).
        let mut starts = [0, last];
        let mut blocks = 1;
        for i in 1..last {
            if axis(i) != axis(i - 1) {
                if blocks == 2 {
                    return false;
                }
                starts[1] = i;
                blocks = 2;
            }
        }
        let ranges = [0..starts[1], starts[1]..last];
        if ranges.iter().any(|r| r.len() > BLOCK) {
            return false;
        }
        let key = |seen: Option<&[u8; 18]>| {
            let mut key = [u8::MAX; 2 * BLOCK];
            for (block, range) in ranges.iter().take(blocks).enumerate() {
                let slot = &mut key[block * BLOCK..][..range.len()];
                for (k, mv) in slot.iter_mut().zip(&path[range.clone()]) {
                    *k = seen.map_or(mv.index() as u8, |s| s[mv.index()]);
                }
                slot.sort_unstable();
            }
            key
        };
        let own = key(None);
        self.symmetries.iter().any(|seen| key(Some(seen)) < own)
    }

    /// Ends the search at `limit`, if there is one; returns whether there was.
    fn stop_at(&self, limit: Option<Limit>) -> bool {
        let Some(limit) = limit else {
            return false;
        };
        self.watch.stop(limit);
        self.done.store(true, Ordering::Relaxed);
        true
    }

    /// Searches every sequence of `bound` moves from the root, the subtrees five moves down
    /// shared out among the workers; `listing` holds those subtrees, listed for this bound
    /// or an earlier one. Returns the nodes expanded and generated.
    fn search(&self, root: Node, bound: usize, listing: &mut Option<Listing>) -> (u64, u64) {
        let mut counts = (0, 0);
        let listing = match listing {
            Some(listed) if listed.bound >= bound => listed,
            _ => {
                let (listed, expanded, generated) = self.list(root, bound + reach(bound));
                counts = (expanded, generated);
                listing.insert(listed)
            }
        };
        // The subtrees of this bound, in the listing's order.
        let order: Vec<u32> = (listing.order.iter().copied())
            .filter(|&i| listing.tasks[i as usize].searched_at(bound))
            .collect();
        let threads = self.config.threads;
        let run = self.run(&listing.tasks, &order, threads, bound, LONGEST + 1);
        self.done.store(
            self.watch.stopped().is_some() || !lock(&self.found).is_empty(),
            Ordering::Relaxed,
        );
        (counts.0 + run.1, counts.1 + run.2)
    }

    /// The nodes five moves down of every bound up to `bound`, nearest-looking first, and the
    /// nodes expanded and generated to list them.
    ///
    /// A bound that holds a solution ends at the first one found, so the subtrees whose
    /// nodes look nearest to solved go first (the least bound, then the least sum of the six
    /// views' distances): the finer the subtrees so ordered, the sooner a solution comes
    /// (`benches/RESULTS.md`). Five moves down there are up to 577,368 (every canonical
    /// sequence of five face turns): the workers list them from the subtrees three moves down
    /// (some 3,000, listed first on one thread), with the search's own reads, then their
    /// indices are sorted as one list. Listed to a bound, they serve every bound below it
    /// ([`Task::searched_at`]), so that the bounds that take longest list once.
    fn list(&self, root: Node, bound: usize) -> (Listing, u64, u64) {
        let root = Task {
            moves: [Move::ALL[0]; SPLIT],
            depth: 0,
            need: self.solver.node_bound(&root) as u8,
            node: root,
        };
        let mut counts = (0, 0);
        let mut tasks = vec![root];
        for depth in [PLANNED, SPLIT].map(|d| d.min(bound)) {
            if tasks.iter().all(|task| task.depth >= depth) {
                break;
            }
            let order: Vec<u32> = (0..tasks.len() as u32).collect();
            let threads = self.config.threads;
            let (found, expanded, generated) = self.run(&tasks, &order, threads, bound, depth);
            counts = (counts.0 + expanded, counts.1 + generated);
            tasks = found;
        }
        // The tasks stay where they are and their indices are sorted, by one number a task:
        // its bound, its sum, then its moves (5 bits each), so that ties fall in move order,
        // whatever order the workers listed them in.
        let mut keyed: Vec<(u64, u32)> = (tasks.iter().enumerate())
            .map(|(i, task)| {
                let node = &task.node;
                let sum = (node.axes.iter().map(|axis| u64::from(axis.distance)))
                    .chain(node.inverse.iter().map(|&d| u64::from(d)))
                    .sum::<u64>();
                let moves = (task.moves.iter()).fold(0, |key, mv| key << 5 | mv.index() as u64);
                let bound = self.solver.node_bound(node) as u64;
                (bound << 58 | sum << 50 | moves, i as u32)
            })
            .collect();
        keyed.sort_unstable();
        let order = keyed.into_iter().map(|(_, i)| i).collect();
        let listing = Listing {
            bound,
            tasks,
            order,
        };
        (listing, counts.0, counts.1)
    }

    /// Searches the subtrees of `tasks` to `bound` in `order` (indices into `tasks`) on
    /// `threads` workers, each down to `depth` moves from the root, where its nodes are
    /// listed as tasks instead. Returns those tasks, and the nodes expanded and generated.
    fn run(
        &self,
        tasks: &[Task],
        order: &[u32],
        threads: usize,
        bound: usize,
        depth: usize,
    ) -> (Vec<Task>, u64, u64) {
        let next = AtomicUsize::new(0);
        let threads = threads.max(1).min(order.len().max(1));
        let work = || {
            let mut worker = Worker::new(self);
            worker.list_at = depth;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= order.len() || self.done.load(Ordering::Relaxed) {
                    break;
                }
                let task = &tasks[order[i] as usize];
                let depth = task.depth;
                worker.path[..depth].copy_from_slice(&task.moves[..depth]);
                worker.need[depth] = task.need;
                worker.dive(task.node, depth, bound - depth);
            }
            (worker.listed, worker.expanded, worker.generated)
        };
        let mut results: Vec<(Vec<Task>, u64, u64)> = Vec::new();
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            results.push(work());
            for other in others {
                results.push(other.join().expect("a search worker does not panic"));
            }
        });
        let mut listed = Vec::new();
        let (mut expanded, mut generated) = (0, 0);
        for (mut tasks, e, g) in results {
            match listed.is_empty() {
                true => listed = tasks,
                false => listed.append(&mut tasks),
            }
            (expanded, generated) = (expanded + e, generated + g);
        }
        (listed, expanded, generated)
    }
}

/// How many moves down the subtrees first listed on one thread lie.
const PLANNED: usize = 3;
/// How many moves down the subtrees the workers share out lie.
const SPLIT: usize = 5;

/// How many bounds past the one searched the nodes five moves down are listed for: none
/// while the bounds are quick, three from bound 15 on (most random cubes end at 17 or 18,
/// which then list once).
fn reach(bound: usize) -> usize {
    match bound {
        0..15 => 0,
        _ => 3,
    }
}

/// A subtree of the search that one worker searches: the node after `moves[..depth]`.
struct Task {
    moves: [Move; SPLIT],
    depth: usize,
    /// The least bound whose search reaches the node: the most, over the nodes of its path,
    /// of a node's bound and its depth. (The moves that may not start a solution,
    /// [`Optimal::first_moves`], lead to nodes that their bound cuts off too.)
    need: u8,
    node: Node,
}

impl Task {
    /// Whether the search to `bound` reaches the node.
    fn searched_at(&self, bound: usize) -> bool {
        usize::from(self.need) <= bound
    }
}

/// The nodes five moves down that the searches of the bounds up to `bound` reach, and the
/// order they are searched in (indices into `tasks`).
struct Listing {
    bound: usize,
    tasks: Vec<Task>,
    order: Vec<u32>,
}

/// One worker's depth-first search.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    path: [Move; LONGEST + 1],
    /// The depth whose nodes it lists as tasks instead of searching below them (past
    /// [`LONGEST`]: none).
    list_at: usize,
    /// The nodes listed.
    listed: Vec<Task>,
    /// While listing, the [`Task::need`] of each node along the path.
    need: [u8; SPLIT + 1],
    expanded: u64,
    generated: u64,
}

impl Worker<'_> {
    /// A worker of `shared`'s search, at the root.
    fn new<'b>(shared: &'b Shared<'b>) -> Worker<'b> {
        Worker {
            shared,
            path: [Move::ALL[0]; LONGEST + 1],
            list_at: LONGEST + 1,
            listed: Vec::new(),
            need: [0; SPLIT + 1],
            expanded: 0,
            generated: 0,
        }
    }

    /// Searches below `node` after `depth` moves with `left` more to make.
    fn dive(&mut self, node: Node, depth: usize, left: usize) -> bool {
        if depth == self.list_at {
            let mut moves = [Move::ALL[0]; SPLIT];
            moves[..depth].copy_from_slice(&self.path[..depth]);
            self.listed.push(Task {
                moves,
                depth,
                need: self.need[depth],
                node,
            });
            return false;
        }
        let nodes = node.axes;
        if left == 0 {
            if !nodes.iter().all(|n| self.shared.solver.in_g1(n)) {
                return false;
            }
            let moves = &self.path[..depth];
            if !self.shared.cube.apply_all(moves).is_solved() {
                return false;
            }
            let shared = self.shared;
            let mut found = lock(&shared.found);
            if shared.all {
                found.push(moves.to_vec());
                return false;
            }
            if found.is_empty() {
                found.push(moves.to_vec());
            }
            shared.done.store(true, Ordering::Relaxed);
            return true;
        }
        if self.count() {
            return true;
        }
        let solver = self.shared.solver;
        let metric = solver.metric;
        let mut moves = [0u8; 18];
        let mut alive = 0;
        let first = solver.first_moves(&node, left);
        for &mv in metric.moves() {
            if (depth == 0 || metric.may_follow(self.path[depth - 1], mv))
                && first & (1 << mv.index()) != 0
            {
                moves[alive] = mv.index() as u8;
                alive += 1;
            }
        }
        self.generated += alive as u64;
        // The three axes of all the children alive in two rounds (the classes of their flips
        // and slices, then their phase-1 entries), so that the reads of memory overlap. (One
        // axis at a time, so that a child cut off along one is not read along the next, makes
        // fewer reads but waits on memory six times instead of twice: slower here,
        // `benches/RESULTS.md`.)
        let mut children = [node; 18];
        let classes = solver.reduction.class_of.as_ptr();
        for (k, &m) in moves[..alive].iter().enumerate() {
            for axis in 0..3 {
                let seen = usize::from(solver.axis_moves[axis][usize::from(m)]);
                children[k].axes[axis] = solver.moved(&nodes[axis], seen);
                prefetch(classes.wrapping_add(solver.flipslice_of(&children[k].axes[axis])));
            }
        }
        let mut entries = [[0usize; 3]; 18];
        for k in 0..alive {
            for axis in 0..3 {
                entries[k][axis] = solver.entry_of(&children[k].axes[axis]);
                solver.prefetch_entry(entries[k][axis]);
            }
        }
        let mut kept = 0;
        for k in 0..alive {
            for axis in 0..3 {
                children[k].axes[axis].distance =
                    solver.distance_after(nodes[axis].distance, entries[k][axis]);
            }
            if Optimal::bound_of(children[k].axes.map(|c| c.distance)) < left {
                moves[kept] = moves[k];
                children[kept] = children[k];
                kept += 1;
            }
        }
        alive = kept;
        // The inverse's three views of the children left, in three rounds likewise: their
        // coordinates and classes, their entries, their bounds. A move whose view along an
        // axis lies in the table's goal H leaves the inverse's coset along it as it was (the
        // inverse changes by that move from the side of H), so that axis keeps its distance.
        if let Some(exact) = solver.exact() {
            let mut coordinates = [[InverseCoordinates::default(); 3]; 18];
            for k in 0..alive {
                let m = usize::from(moves[k]);
                for axis in 0..3 {
                    let seen = Move::ALL[usize::from(solver.axis_moves[axis][m])];
                    let cube = node.views[axis].apply(seen);
                    children[k].views[axis] = cube;
                    if solver.goal_moves[axis] & (1 << m) == 0 {
                        coordinates[k][axis] = solver.inverse_start(cube);
                    }
                }
            }
            let mut entries = [[(0usize, 0usize); 3]; 18];
            for k in 0..alive {
                let m = usize::from(moves[k]);
                for axis in 0..3 {
                    if solver.goal_moves[axis] & (1 << m) == 0 {
                        entries[k][axis] = solver.inverse_entries(exact, &coordinates[k][axis]);
                    }
                }
            }
            let mut kept = 0;
            for k in 0..alive {
                let m = usize::from(moves[k]);
                let distances: Distances =
                    std::array::from_fn(|axis| match solver.goal_moves[axis] & (1 << m) {
                        0 => solver.inverse_distance(exact, entries[k][axis]),
                        _ => node.inverse[axis],
                    });
                children[k].inverse = distances;
                if Optimal::bound_of(distances) < left {
                    moves[kept] = moves[k];
                    children[kept] = children[k];
                    kept += 1;
                }
            }
            alive = kept;
        }
        for k in 0..alive {
            self.path[depth] = Move::ALL[usize::from(moves[k])];
            if self.shared.mapped_onto_earlier(&self.path[..=depth]) {
                continue;
            }
            if self.list_at <= SPLIT {
                let bound = solver.node_bound(&children[k]) + depth + 1;
                self.need[depth + 1] = self.need[depth].max(bound as u8);
            }
            if self.dive(children[k], depth + 1, left - 1) {
                return true;
            }
        }
        false
    }

    /// Counts a node; at each checkpoint, looks at the other workers and the limits, and
    /// reports progress. Returns whether the search must end.
    #[inline]
    fn count(&mut self) -> bool {
        self.expanded += 1;
        if !Watch::due(self.expanded) {
            return false;
        }
        let shared = self.shared;
        if shared.done.load(Ordering::Relaxed) {
            return true;
        }
        let bound = shared.bound.load(Ordering::Relaxed) as u64;
        shared.stop_at(shared.watch.checkpoint(Watch::CHECK_EVERY, bound))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::temp_dir;
    use crate::{random_scramble, Facelets, Notation, SymmetricCubeSpace, SYMMETRIES};
    use frontier_search::bidirectional;
    use frontier_tables::Origin;
    use std::collections::BTreeSet;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Duration;

    fn solver(metric: Metric) -> &'static Optimal {
        Optimal::get(metric)
    }

    /// Replays `moves` on the facelet model, which knows nothing of coordinates.
    fn assert_solves(cube: Cube, moves: &[Move]) {
        let mut facelets = cube.to_facelets();
        for &mv in moves {
            facelets.apply(mv);
        }
        assert_eq!(
            facelets,
            Facelets::SOLVED,
            "{moves:?} does not solve the cube"
        );
    }

    #[test]
    fn flip_and_slice_fall_into_kociembas_64430_classes() {
        // Kociemba, "The two-phase algorithm": 2048 x 495 (flip, slice) pairs make 64,430
        // classes under the 16 symmetries that keep the U-D axis.
        let reduction = Reduction::new(&|| None).unwrap();
        assert_eq!(reduction.representatives.len(), FLIPSLICE_CLASSES);
        let sizes: usize = (reduction.stabilizers.iter())
            .map(|s| UD_SYMMETRIES / s.count_ones() as usize)
            .sum();
        assert_eq!(sizes, FLIPS * SLICES, "the classes cover every pair once");
        check_views(&reduction, None);
    }

    /// Checks that random cubes and their views share a class, that the twist of a view is
    /// the reduction's, and (with `stored`) that they share a table entry's value.
    fn check_views(reduction: &Reduction, stored: Option<&dyn Fn(usize) -> u8>) {
        let flipslice = |c: &CubieCube| reduction.flipslice(flip(c), slice(c));
        let one = CornerSets::one();
        let entry = |c: &CubieCube| reduction.entry(&one, twist(c), 0, flipslice(c));
        for seed in 0..200 {
            let cube = Cube::random(seed);
            let c = cube.to_cubie();
            let class = reduction.class_of[flipslice(&c)] >> 4;
            let value = stored.map(|s| s(entry(&c)));
            for (k, &symmetry) in ud_symmetries().iter().enumerate() {
                let seen = view(cube, symmetry).to_cubie();
                assert_eq!(
                    reduction.class_of[flipslice(&seen)] >> 4,
                    class,
                    "seed {seed}"
                );
                let t = reduction.twist_view[twist(&c) * UD_SYMMETRIES + k];
                assert_eq!(usize::from(t), twist(&seen), "seed {seed}, symmetry {k}");
                let seen_value = stored.map(|s| s(entry(&seen)));
                assert_eq!(seen_value, value, "seed {seed}, symmetry {k}");
            }
        }
    }

    #[test]
    fn the_large_coordinate_follows_moves_and_views() {
        // 8 choose 4 = 70 sets of positions of the U-layer corners.
        assert_eq!(corner_set_tables().0.len(), CORNER_SETS);
        assert_eq!(
            (0..CORNER_SETS)
                .map(|s| corner_set(&set_corner_set(s)))
                .collect::<Vec<_>>(),
            (0..CORNER_SETS).collect::<Vec<_>>()
        );
        assert_eq!(
            (0..CORNER_KEYS)
                .map(|k| corner_key(&set_corner_key(k)))
                .collect::<Vec<_>>(),
            (0..CORNER_KEYS).collect::<Vec<_>>()
        );
        // The large table's keys: the set and the middle layer's parity, both followed.
        let sets = CornerSets::new(TableSize::Large);
        assert_eq!(sets.count, CORNER_KEYS);
        let mut parities = [0; 2];
        for seed in 0..300 {
            let cube = Cube::random(seed);
            let c = cube.to_cubie();
            let (key, at) = (corner_key(&c), slice(&c));
            parities[key % 2] += 1;
            assert_eq!(sets.of(&c), key);
            for (k, &symmetry) in ud_symmetries().iter().enumerate() {
                let seen = corner_key(&view(cube, symmetry).to_cubie());
                assert_eq!(sets.seen(key, at, k), seen, "seed {seed}, symmetry {k}");
            }
            for mv in Move::ALL {
                let moved = corner_key(&cube.apply(mv).to_cubie());
                assert_eq!(sets.moved(key, at, mv.index()), moved, "seed {seed}, {mv}");
            }
        }
        assert!(
            parities.iter().all(|&n| n > 100),
            "both parities: {parities:?}"
        );
        // The medium table's pairs: a set and its complement, moved and seen as the sets are.
        let halves = CornerSets::new(TableSize::Medium);
        assert_eq!(halves.count, CORNER_HALVES);
        for seed in 0..200 {
            let cube = Cube::random(seed);
            let c = cube.to_cubie();
            let pair = halves.of(&c);
            let mut swapped = c;
            swapped.cp = c.cp.map(|p| (p + 4) % 8);
            assert_eq!(
                halves.of(&swapped),
                pair,
                "a set and its complement share a pair"
            );
            let at = slice(&c);
            for (k, &symmetry) in ud_symmetries().iter().enumerate() {
                let seen = halves.of(&view(cube, symmetry).to_cubie());
                assert_eq!(halves.seen(pair, at, k), seen, "seed {seed}, symmetry {k}");
            }
            for mv in Move::ALL {
                let moved = halves.of(&cube.apply(mv).to_cubie());
                assert_eq!(
                    halves.moved(pair, at, mv.index()),
                    moved,
                    "seed {seed}, {mv}"
                );
            }
        }
        // Each face's turns keep its own layer's corners in it, U and D the U layer's, and
        // leave the middle layer's edges alone.
        let (solved, at) = (corner_key(&CubieCube::SOLVED), slice(&CubieCube::SOLVED));
        for mv in Move::ALL {
            let kept = sets.moved(solved, at, mv.index()) == solved;
            assert_eq!(kept, matches!(mv.face(), Face::U | Face::D), "{mv}");
        }
        // The table's space: from a cube's entry, the successors include the entry of the
        // cube after each move, whatever cube of the class the entry stands for.
        let reduction = Reduction::new(&|| None).unwrap();
        let moves = MoveTables::new();
        let space = Phase1Space {
            reduction: &reduction,
            moves: &moves,
            sets: &sets,
            turns: Metric::Htm.moves().iter().map(|m| m.index()).collect(),
        };
        assert_eq!(space.len(), LARGE_ENTRIES);
        let entry = |c: &CubieCube| {
            let fs = reduction.flipslice(flip(c), slice(c));
            reduction.entry(&sets, twist(c), corner_key(c), fs)
        };
        struct Collect(Vec<usize>);
        impl Visit for Collect {
            fn visit(&mut self, rank: usize) -> ControlFlow<()> {
                self.0.push(rank);
                ControlFlow::Continue(())
            }
            fn reached(&self, _: usize) -> bool {
                false
            }
        }
        let mut cursor = space.cursor();
        for seed in 0..200 {
            let cube = Cube::random(1000 + seed);
            let mut successors = Collect(Vec::new());
            let _ = space.each_successor(entry(&cube.to_cubie()), &mut cursor, &mut successors);
            for mv in Move::ALL {
                let next = entry(&cube.apply(mv).to_cubie());
                assert!(successors.0.contains(&next), "seed {seed}, {mv}");
            }
        }
    }

    #[test]
    fn the_inverse_coordinates_are_those_of_the_inverse_cube() {
        for seed in 0..300 {
            let cube = Cube::random(seed);
            let inverse = cube.to_cubie().inverse();
            let expected = (
                twist(&inverse) as u16,
                flip(&inverse) as u16,
                slice(&inverse) as u16,
                corner_key(&inverse) as u8,
            );
            assert_eq!(inverse_coordinates(cube), expected, "seed {seed}");
        }
    }

    #[test]
    fn the_inverse_views_read_the_inverse_cubes_distances() {
        // The inverse's views, read from the cube's pieces, get the inverse cube's own
        // distances, so the bound is the same for a cube and its inverse.
        let solver = solver(Metric::Htm);
        for seed in 0..100 {
            let cube = Cube::random(seed);
            let inverse = Cube::from_cubie(&cube.to_cubie().inverse());
            let of_inverse = solver.axis_nodes(inverse).map(|n| n.distance);
            let views = solver.views.map(|r| view(cube, r));
            assert_eq!(
                solver.inverse_distances(&views),
                Some(of_inverse),
                "seed {seed}"
            );
        }
        for seed in 0..12u64 {
            let cube =
                Cube::SOLVED.apply_all(&random_scramble(seed, 1 + seed as usize % 7, Metric::Htm));
            let inverse = Cube::from_cubie(&cube.to_cubie().inverse());
            assert_eq!(
                solver.estimate(cube),
                solver.estimate(inverse),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn a_cube_and_its_views_share_a_class_and_a_distance() {
        // The reduction rests on the flip and slice of a view depending on the cube's flip and
        // slice alone, and its twist on the cube's twist alone; random whole cubes test it.
        let solver = solver(Metric::Htm);
        check_views(&solver.reduction, Some(&|entry| solver.stored(entry)));
    }

    #[test]
    fn phase1_distances_are_kociembas() {
        // The number of phase-1 coordinates (twist, flip, slice: 2,217,093,120) at each
        // distance to G1 in HTM, as Kociemba publishes them. An entry stands for one
        // coordinate per (flip, slice) pair of its class.
        const PUBLISHED: [u64; 13] = [
            1,
            4,
            50,
            592,
            7_156,
            87_236,
            1_043_817,
            12_070_278,
            124_946_368,
            821_605_960,
            1_199_128_738,
            58_202_444,
            476,
        ];
        let reduction = Reduction::new(&|| None).unwrap();
        let moves = MoveTables::new();
        let distances = phase1_distances(&reduction, &moves, Metric::Htm, Builder::new()).unwrap();
        let mut counts = [0u64; 13];
        for (class, row) in distances.chunks(TWISTS).enumerate() {
            let size = (UD_SYMMETRIES / reduction.stabilizers[class].count_ones() as usize) as u64;
            for &d in row {
                counts[usize::from(d)] += size;
            }
        }
        assert_eq!(counts, PUBLISHED);
        // The packed table holds the same distances, modulo 3.
        let packed = Table::pack(&distances, Width::Two);
        let packed = packed.bytes();
        for entry in (0..PHASE1_ENTRIES).step_by(9973) {
            let stored = (packed[entry >> 2] >> ((entry & 3) << 1)) & 3;
            assert_eq!(stored, distances[entry] % 3);
        }
        // The build in place at two bits a rank (the medium table's) makes the same table.
        let mut in_place = vec![0u8; PHASE1_BYTES];
        packed_distances(
            &reduction,
            &moves,
            &CornerSets::one(),
            Metric::Htm,
            Builder::new(),
            &mut in_place,
        )
        .unwrap();
        assert!(in_place == packed, "the two builds differ");
    }

    #[test]
    fn the_bound_follows_each_axis() {
        let solver = solver(Metric::Htm);
        let distances = |text: &str| {
            let cube = Cube::from_scramble(text, Notation::Wca).unwrap();
            solver.axis_nodes(cube).map(|n| n.distance)
        };
        // A quarter turn is in the G1 of its own axis only.
        assert_eq!(distances("U"), [0, 1, 1]);
        assert_eq!(distances("R'"), [1, 0, 1]);
        assert_eq!(distances("F"), [1, 1, 0]);
        assert_eq!(distances("R2 F2 U2"), [0, 0, 0]);
        // Three equal distances: one more move (R U F needs 3, and no axis sees it in fewer).
        let cube = Cube::from_scramble("R U F", Notation::Wca).unwrap();
        assert_eq!(
            solver.estimate(cube),
            Optimal::bound_of(distances("R U F")) as u64
        );
        assert!(solver.estimate(cube) <= 3);
        assert_eq!(solver.estimate(Cube::SOLVED), 0);
    }

    #[test]
    fn solutions_are_as_short_as_bidirectional_search_finds() {
        // An independent optimal solver: bidirectional search on classes of cubes.
        for metric in [Metric::Htm, Metric::Qtm] {
            let solver = solver(metric);
            for seed in 0..12u64 {
                let length = 1 + seed as usize % 9;
                let cube = Cube::SOLVED.apply_all(&random_scramble(seed, length, metric));
                let threads = 1 + seed as usize % 2;
                let outcome = solver.solve(cube, &Config::default().threads(threads));
                assert_eq!(outcome.status(), Status::Solved);
                let solution = outcome.solution().unwrap();
                assert_solves(cube, &solution.moves);
                assert_eq!(solution.states, cube.path(&solution.moves));
                let reference =
                    bidirectional(&SymmetricCubeSpace::new(cube, metric), &Config::default());
                let shortest = reference.solution().unwrap().cost;
                assert_eq!(solution.cost, shortest, "{metric} scramble {seed}");
                let estimate = solver.estimate(cube);
                assert!(estimate <= shortest, "the bound is admissible");
                // A quarter turn changes the corners' parity: in QTM the bound has the
                // parity of every solution's length, and the odd bounds of an even cube
                // (or the even of an odd one) are never searched.
                if metric == Metric::Qtm {
                    assert_eq!(estimate % 2, shortest % 2, "scramble {seed}");
                }
            }
        }
    }

    /// Every canonical sequence of `length` moves (as [`Metric::may_follow`] allows) that
    /// solves `cube`, by trying them all.
    fn every_solution_by_brute_force(cube: Cube, length: usize, metric: Metric) -> Vec<Vec<Move>> {
        fn extend(
            cube: Cube,
            left: usize,
            metric: Metric,
            path: &mut Vec<Move>,
            out: &mut Vec<Vec<Move>>,
        ) {
            if left == 0 {
                if cube.is_solved() {
                    out.push(path.clone());
                }
                return;
            }
            for &mv in metric.moves() {
                if path.last().is_none_or(|&l| metric.may_follow(l, mv)) {
                    path.push(mv);
                    extend(cube.apply(mv), left - 1, metric, path, out);
                    path.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(cube, length, metric, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn all_shortest_solutions_are_every_solving_sequence_of_that_length() {
        for metric in [Metric::Htm, Metric::Qtm] {
            let solver = solver(metric);
            for seed in 0..10u64 {
                let length = 1 + seed as usize % 5;
                let cube = Cube::SOLVED.apply_all(&random_scramble(100 + seed, length, metric));
                let threads = 1 + seed as usize % 2;
                let (outcome, mut all) =
                    solver.solve_all(cube, &Config::default().threads(threads));
                let shortest = outcome.solution().unwrap().moves.len();
                let mut expected = every_solution_by_brute_force(cube, shortest, metric);
                all.sort();
                expected.sort();
                assert!(!all.is_empty());
                assert_eq!(all, expected, "{metric} scramble {seed}");
                for moves in &all {
                    assert_solves(cube, moves);
                }
                // No shorter sequence solves it.
                if shortest > 0 {
                    assert!(every_solution_by_brute_force(cube, shortest - 1, metric).is_empty());
                }
            }
        }
        // The checkerboard's half turns commute in pairs: more than one shortest solution.
        let cube = Cube::from_scramble("U2 D2", Notation::Wca).unwrap();
        let (_, all) = solver(Metric::Htm).solve_all(cube, &Config::default());
        assert_eq!(
            all,
            [Move::ALL
                .iter()
                .filter(|m| m.quarter_turns() == 2 && matches!(m.face(), Face::U | Face::D))
                .copied()
                .collect::<Vec<_>>()]
        );
        let (solved, all) = solver(Metric::Htm).solve_all(Cube::SOLVED, &Config::default());
        assert_eq!((solved.status(), all), (Status::Solved, vec![Vec::new()]));
        let (stopped, all) = solver(Metric::Htm).solve_all(
            Cube::random(3),
            &Config::default().timeout(Duration::from_millis(20)),
        );
        assert_eq!(
            (stopped.status(), all.len()),
            (Status::Limit(Limit::Time), 0)
        );
    }

    /// The cube's table of `size`, built in a directory of its own for the test (minutes in
    /// a release build), or read from (or built into) `$FRONTIER_CACHE_DIR/cube` when that is
    /// set.
    fn big_cache(name: &str) -> Cache {
        match std::env::var_os("FRONTIER_CACHE_DIR").filter(|d| !d.is_empty()) {
            Some(_) => Cache::from_env().join("cube"),
            None => Cache::at(temp_dir(name)),
        }
    }

    /// The medium table's goal: G1 with the U-layer corners all in the U or all in the D
    /// layer.
    fn in_g1_with_u_corners_in_one_layer(cube: Cube) -> bool {
        let c = cube.to_cubie();
        c.co == [0; 8]
            && c.eo == [0; 12]
            && c.ep[8..].iter().all(|&e| e >= 8)
            && (c.cp[..4].iter().all(|&p| p < 4) || c.cp[..4].iter().all(|&p| p >= 4))
    }

    /// The large table's goal: G1 with the U-layer corners in the U layer and the
    /// middle-layer edges in an even order (an even number of pairs out of order).
    fn in_g1_with_u_corners_up(cube: Cube) -> bool {
        let c = cube.to_cubie();
        let middle = &c.ep[8..];
        let out_of_order = (0..4)
            .flat_map(|i| (i + 1..4).map(move |j| (i, j)))
            .filter(|&(i, j)| middle[i] > middle[j])
            .count();
        c.co == [0; 8]
            && c.eo == [0; 12]
            && middle.iter().all(|&e| e >= 8)
            && c.cp[..4].iter().all(|&p| p < 4)
            && out_of_order % 2 == 0
    }

    /// The fewest moves of `metric` that take `cube` to `at_goal` (a subset of G1), by IDA*
    /// on whole cubes with the small table's distance to G1 as its bound: a second
    /// computation, which shares no coordinate, move table or reduction with the big tables.
    fn distance_to_goal(small: &Optimal, cube: Cube, at_goal: fn(Cube) -> bool) -> usize {
        fn dive(
            small: &Optimal,
            cube: Cube,
            node: AxisNode,
            last: Option<Move>,
            left: usize,
            at_goal: fn(Cube) -> bool,
        ) -> bool {
            if left == 0 {
                return at_goal(cube);
            }
            for &mv in small.metric.moves() {
                if last.is_some_and(|l| !small.metric.may_follow(l, mv)) {
                    continue;
                }
                let mut child = small.moved(&node, mv.index());
                child.distance = small.distance_after(node.distance, small.entry_of(&child));
                if usize::from(child.distance) < left
                    && dive(small, cube.apply(mv), child, Some(mv), left - 1, at_goal)
                {
                    return true;
                }
            }
            false
        }
        let mut node = small.coordinates(cube);
        node.distance = small.phase1_distance(node);
        (usize::from(node.distance)..)
            .find(|&bound| dive(small, cube, node, None, bound, at_goal))
            .expect("some bound reaches the goal")
    }

    /// Checks the table of `size` against [`distance_to_goal`] on `randoms` random cubes and
    /// 200 short scrambles, and prints the random cubes' distances.
    fn check_big_table(size: TableSize, at_goal: fn(Cube) -> bool, randoms: u64) {
        let metric = Metric::Htm;
        let big =
            Optimal::load_or_build_table(&big_cache(size.name()), size, metric, &|_| {}, &|| None)
                .unwrap();
        let small = solver(metric);
        let mut histogram = [0usize; 20];
        for seed in 0..randoms {
            let cube = Cube::random(10_000 + seed);
            let stored = usize::from(big.phase1_distance(big.coordinates(cube)));
            let searched = distance_to_goal(small, cube, at_goal);
            assert_eq!(stored, searched, "seed {seed}");
            histogram[stored] += 1;
        }
        // The same for short scrambles, whose distances are small.
        for seed in 0..200 {
            let cube =
                Cube::SOLVED.apply_all(&random_scramble(seed, 1 + seed as usize % 8, metric));
            let stored = usize::from(big.phase1_distance(big.coordinates(cube)));
            assert_eq!(
                stored,
                distance_to_goal(small, cube, at_goal),
                "scramble {seed}"
            );
        }
        println!("distances of {randoms} random cubes: {histogram:?}");
        // The whole solver over the big table (its six views, the inverse's read through
        // it) finds the lengths the small one does.
        for seed in 0..40 {
            let cube =
                Cube::SOLVED.apply_all(&random_scramble(seed, 8 + seed as usize % 6, metric));
            let config = Config::default().threads(1 + seed as usize % 2);
            let found = big.solve(cube, &config);
            let solution = found.solution().unwrap();
            assert_solves(cube, &solution.moves);
            let reference = small.solve(cube, &config);
            assert_eq!(solution.cost, reference.solution().unwrap().cost, "{seed}");
        }
    }

    #[test]
    #[ignore = "loads or builds the 986 MB medium table: FRONTIER_CACHE_DIR=DIR cargo test --release -p frontier-cube -- --ignored medium"]
    fn the_medium_table_holds_the_distances_of_random_cubes() {
        check_big_table(TableSize::Medium, in_g1_with_u_corners_in_one_layer, 300);
    }

    #[test]
    #[ignore = "loads or builds the 3.94 GB large table: FRONTIER_CACHE_DIR=DIR cargo test --release -p frontier-cube -- --ignored large"]
    fn the_large_table_holds_the_distances_of_random_cubes() {
        check_big_table(TableSize::Large, in_g1_with_u_corners_up, 100);
    }

    /// The superflip: every edge flipped in place; 20 face turns (Reid 1995) and 24 quarter
    /// turns (Reid 1998) optimally.
    const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

    #[test]
    fn a_listing_for_a_later_bound_holds_each_earlier_bounds_subtrees() {
        // The nodes five moves down that a bound's search reaches are those that a listing
        // for that bound holds, and those that a listing for a later bound says it reaches:
        // the later bounds reuse their listing.
        let solver = solver(Metric::Htm);
        let moves = |task: &Task| task.moves.map(|mv| mv.index());
        for seed in 0..16u64 {
            let cube = Cube::SOLVED.apply_all(&random_scramble(seed, 8, Metric::Htm));
            let config = Config::default().threads(1 + seed as usize % 2);
            let shared = Shared {
                solver,
                cube,
                config: &config,
                watch: Watch::new(&config),
                found: Mutex::new(Vec::new()),
                all: false,
                done: AtomicBool::new(false),
                bound: AtomicUsize::new(0),
                symmetries: Vec::new(),
            };
            let root = solver.root(cube);
            let first = solver.first_bound(cube, &root);
            for bound in first.max(SPLIT)..first.max(SPLIT) + 3 {
                let (own, ..) = shared.list(root, bound);
                let reached: BTreeSet<_> = own.tasks.iter().map(moves).collect();
                assert!(own.tasks.iter().all(|task| task.searched_at(bound)));
                for later in bound + 1..=bound + 3 {
                    let (listing, ..) = shared.list(root, later);
                    let kept: BTreeSet<_> = (listing.tasks.iter())
                        .filter(|task| task.searched_at(bound))
                        .map(moves)
                        .collect();
                    assert_eq!(
                        kept, reached,
                        "seed {seed}, bound {bound} listed for {later}"
                    );
                    assert!(listing.tasks.len() >= own.tasks.len());
                }
            }
        }
    }

    #[test]
    fn symmetric_cubes_search_one_of_each_set_of_mapped_sequences() {
        // Patterns that some of the 48 symmetries keep: the checkerboard, the six spots,
        // the four-spot half turns, and a slice of U against D.
        let patterns = [
            "U2 D2 F2 B2 L2 R2",
            "U D' R L' F B' U D'",
            "R2 L2 U2 D2",
            "U D'",
        ];
        for metric in [Metric::Htm, Metric::Qtm] {
            let solver = solver(metric);
            for (k, pattern) in patterns.into_iter().enumerate() {
                let cube = Cube::from_scramble(pattern, Notation::Wca).unwrap();
                let symmetries = stabiliser_moves(cube);
                assert!(!symmetries.is_empty(), "{pattern} is symmetric");
                for seen in &symmetries {
                    for m in 0..18 {
                        let (mv, image) = (Move::ALL[m], Move::ALL[usize::from(seen[m])]);
                        let r = (0..SYMMETRIES)
                            .find(|&r| moves_seen(r).map(|x| x.index() as u8) == *seen);
                        let r = r.expect("a symmetry of the list");
                        assert_eq!(view(cube.apply(mv), r), cube.apply(image), "{pattern}");
                    }
                }
                let config = Config::default().threads(1 + k % 2);
                let (pruned, _) = solver.search(cube, &config, false, true);
                let (full, _) = solver.search(cube, &config, false, false);
                let (pruned, full) = (pruned.solution().unwrap(), full.solution().unwrap());
                assert_solves(cube, &pruned.moves);
                let reference =
                    bidirectional(&SymmetricCubeSpace::new(cube, metric), &Config::default());
                let shortest = reference.solution().unwrap().cost;
                assert_eq!(pruned.cost, shortest, "{metric} {pattern}");
                assert_eq!(full.cost, shortest, "{metric} {pattern}");
            }
            // The searches of bounds that hold no solution are complete: the superflip's
            // 48 symmetries leave a few dozenth of the nodes.
            let superflip = Cube::from_scramble(SUPERFLIP, Notation::Wca).unwrap();
            let below = Config::default().max_depth(match metric {
                Metric::Htm => 14,
                Metric::Qtm => 17,
            });
            let (pruned, _) = solver.search(superflip, &below, false, true);
            let (full, _) = solver.search(superflip, &below, false, false);
            assert_eq!(pruned.status(), Status::Limit(Limit::Depth));
            assert_eq!(full.status(), Status::Limit(Limit::Depth));
            assert!(
                pruned.stats().expanded * 8 < full.stats().expanded,
                "{metric}: {} nodes pruned, {} not",
                pruned.stats().expanded,
                full.stats().expanded
            );
        }
    }

    #[test]
    fn known_patterns_get_their_known_lengths() {
        // The checkerboard (pons asinorum): 6 half turns, 12 quarter turns, and no fewer.
        let checkerboard = "U2 D2 F2 B2 L2 R2";
        let cube = Cube::from_scramble(checkerboard, Notation::Wca).unwrap();
        for (metric, length) in [(Metric::Htm, 6), (Metric::Qtm, 12)] {
            let outcome = solver(metric).solve(cube, &Config::default());
            let solution = outcome.solution().unwrap();
            assert_eq!(solution.cost, length, "{metric}");
            assert_solves(cube, &solution.moves);
        }
        let solved = solver(Metric::Htm).solve(Cube::SOLVED, &Config::default());
        assert_eq!(solved.status(), Status::Solved);
        assert!(solved.solution().unwrap().moves.is_empty());
    }

    #[test]
    fn limits_stop_it_with_their_names() {
        let solver = solver(Metric::Htm);
        let cube = Cube::random(11);
        let depth = solver.solve(cube, &Config::default().max_depth(5));
        assert_eq!(depth.status(), Status::Limit(Limit::Depth));
        assert!(depth.solution().is_none());
        let time = solver.solve(cube, &Config::default().timeout(Duration::from_millis(50)));
        assert_eq!(time.status(), Status::Limit(Limit::Time));
        assert!(time.stats().expanded > 0);
        let flag = Arc::new(AtomicBool::new(true));
        let cancelled = solver.solve(cube, &Config::default().cancel(flag).threads(2));
        assert_eq!(cancelled.status(), Status::Limit(Limit::Cancelled));
    }

    #[test]
    fn the_table_is_cached_checked_and_a_stopped_build_writes_nothing() {
        let dir = temp_dir("optimal");
        let cache = Cache::at(&dir);
        let path = dir.join(cache::file_name(TableKind::Phase1, Metric::Qtm));
        let stop = || Some(Limit::Cancelled);
        let stopped = Optimal::load_or_build(&cache, Metric::Qtm, &|_| {}, &stop);
        assert_eq!(stopped.err(), Some(Limit::Cancelled));
        assert!(!path.exists());
        let layers = Mutex::new(Vec::new());
        let never = || None;
        let built = Optimal::load_or_build(
            &cache,
            Metric::Qtm,
            &|p| lock(&layers).push(p.depth),
            &never,
        )
        .unwrap();
        assert_eq!(built.cache_report().origin, Origin::Built);
        let mut layers = layers.into_inner().unwrap();
        assert!(layers.windows(2).all(|w| w[0] <= w[1]), "{layers:?}");
        layers.dedup();
        assert_eq!(layers, (1..=layers.len() as u8).collect::<Vec<_>>());
        let loaded = Optimal::load_or_build(&cache, Metric::Qtm, &|_| {}, &never).unwrap();
        assert_eq!(loaded.cache_report().origin, Origin::Cache);
        assert!(loaded.phase1[..] == built.phase1[..]);
        // A damaged file is found out and rebuilt, and the reason is in the report.
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let rebuilt = Optimal::load_or_build(&cache, Metric::Qtm, &|_| {}, &never).unwrap();
        assert_eq!(rebuilt.cache_report().origin, Origin::Rebuilt);
        assert!(rebuilt.cache_report().warning().is_some());
        assert!(rebuilt.phase1[..] == built.phase1[..]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
