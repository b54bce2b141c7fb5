//! The cube's cached tables, in frontier's one table format ([`frontier_tables`]).
//!
//! Each table (one [`TableKind`] in one [`Metric`]) is one file in the cube's cache directory
//! ([`default_cache`]: `cube/` in frontier's cache root, `$FRONTIER_CACHE_DIR` or
//! `frontier/` in the user's cache directory), named by [`file_name`] and keyed by
//! [`spec`]: the kind, the metric and [`CONTENTS_VERSION`]. A file is checked when it is
//! read (size, header, key, checksum) and rebuilt when it fails; see
//! [`frontier_tables::file`].
//!
//! ```
//! use frontier_cube::cache::{spec, TableKind};
//! use frontier_cube::Metric;
//! use frontier_tables::{file, TableError};
//!
//! let dir = std::env::temp_dir().join(format!("frontier-cube-doc-{}", std::process::id()));
//! let corners = spec(TableKind::Corners, Metric::Htm);
//! let table = vec![3u8; TableKind::Corners.len()];
//! file::write(&dir.join(&corners.file), &corners, &table).unwrap();
//! assert_eq!(file::read(&dir.join(&corners.file), &corners).unwrap(), table);
//! // The same file is not the QTM table.
//! let qtm = spec(TableKind::Corners, Metric::Qtm);
//! assert!(matches!(
//!     file::read(&dir.join(&corners.file), &qtm),
//!     Err(TableError::Key { .. })
//! ));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::path::PathBuf;

use frontier_tables::{Cache, TableSpec, Width};

use crate::moves::Metric;

/// The version of the tables' contents (a coordinate's order, the metric's moves), part of
/// every key: raise it when they change, or old caches would be read as valid.
pub const CONTENTS_VERSION: u32 = 2;

/// One of the cached tables: the heuristic's four pattern databases, and the two distance
/// tables of the [two-phase solver](crate::TwoPhase)'s second phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Corner twist x edge flip (2187 x 2048 entries).
    TwistFlip,
    /// Corner twist x positions of the middle-layer edges (2187 x 495 entries).
    TwistSlice,
    /// Edge flip x positions of the middle-layer edges (2048 x 495 entries).
    FlipSlice,
    /// Corner permutation (40,320 entries).
    Corners,
    /// In G1 = <U, D, R2, L2, F2, B2>: corner permutation x permutation of the middle-layer
    /// edges (40,320 x 24 entries; HTM only).
    CornersInG1,
    /// In G1: permutation of the U and D layer edges x permutation of the middle-layer edges
    /// (40,320 x 24 entries; HTM only).
    EdgesInG1,
    /// In G1: permutation of the U and D layer edges x where the U-layer corners are and the
    /// corners' parity (40,320 x 140 entries; HTM only).
    EdgesCornersInG1,
    /// The [optimal solver](crate::Optimal)'s distances to G1: 64,430 classes of (flip, slice)
    /// x 2,187 twists, the distance modulo 3 in two bits, four entries a byte.
    Phase1,
    /// What [`TableKind::Phase1`] is looked up with: the class and symmetry of each (flip,
    /// slice) pair, each class's representative and symmetries, each twist seen through each
    /// symmetry, and the move tables of twist, flip and slice (little-endian bytes; HTM
    /// only, for both metrics).
    Phase1Coordinates,
    /// The optimal solver's medium table ([`crate::TableSize::Medium`]): distances to the
    /// cubes of G1 with the U-layer corners all in the U or all in the D layer, 64,430
    /// classes of (flip, slice) x 2,187 twists x 35 pairs of sets of positions of the
    /// U-layer corners, modulo 3 in base 3, five entries a byte; looked up with
    /// [`TableKind::Phase1Coordinates`].
    Phase1Medium,
    /// The optimal solver's large table ([`crate::TableSize::Large`]): distances to the
    /// cubes of G1 with the U-layer corners in the U layer and the middle-layer edges in an
    /// even order, 64,430 classes of (flip, slice) x 2,187 twists x 70 sets of positions of
    /// the U-layer corners x 2 parities, modulo 3 in base 3, five entries a byte; looked up
    /// with [`TableKind::Phase1Coordinates`].
    Phase1Large,
    /// The exact distances to G1 of [`TableKind::Phase1`]'s entries, four bits an entry, two
    /// a byte: the optimal solver's bound for the inverse cube's views.
    Phase1Exact,
    /// Two-phase's move tables in G1: corner permutation and U/D edge permutation under G1's
    /// ten moves (40,320 x 10 entries each), the inverse of each permutation of eight and
    /// where a corner permutation puts the U-layer corners (40,320 entries each); two bytes an
    /// entry, HTM only.
    G1Moves,
}

impl TableKind {
    /// The heuristic's four kinds.
    pub const ALL: [TableKind; 4] = [
        TableKind::TwistFlip,
        TableKind::TwistSlice,
        TableKind::FlipSlice,
        TableKind::Corners,
    ];

    /// Every kind.
    pub const EVERY: [TableKind; 13] = [
        TableKind::TwistFlip,
        TableKind::TwistSlice,
        TableKind::FlipSlice,
        TableKind::Corners,
        TableKind::CornersInG1,
        TableKind::EdgesInG1,
        TableKind::EdgesCornersInG1,
        TableKind::Phase1,
        TableKind::Phase1Coordinates,
        TableKind::Phase1Medium,
        TableKind::Phase1Large,
        TableKind::Phase1Exact,
        TableKind::G1Moves,
    ];

    /// The kind's name, as used in file names: `twist-flip`, `twist-slice`, `flip-slice`,
    /// `corners`, `g1-corners`, `g1-edges`, `g1-edges-corners`, `phase1`,
    /// `phase1-coordinates`, `phase1-medium`, `phase1-large`, `phase1-exact`, `g1-moves`.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::TwistFlip => "twist-flip",
            TableKind::TwistSlice => "twist-slice",
            TableKind::FlipSlice => "flip-slice",
            TableKind::Corners => "corners",
            TableKind::CornersInG1 => "g1-corners",
            TableKind::EdgesInG1 => "g1-edges",
            TableKind::EdgesCornersInG1 => "g1-edges-corners",
            TableKind::Phase1 => "phase1",
            TableKind::Phase1Coordinates => "phase1-coordinates",
            TableKind::Phase1Medium => "phase1-medium",
            TableKind::Phase1Large => "phase1-large",
            TableKind::Phase1Exact => "phase1-exact",
            TableKind::G1Moves => "g1-moves",
        }
    }

    /// The bytes of the table (for [`TableKind::Phase1`] four entries a byte, for
    /// [`TableKind::Phase1Medium`] and [`TableKind::Phase1Large`] five, for
    /// [`TableKind::Phase1Exact`] two).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(self) -> usize {
        match self {
            TableKind::TwistFlip => 2187 * 2048,
            TableKind::TwistSlice => 2187 * 495,
            TableKind::FlipSlice => 2048 * 495,
            TableKind::Corners => 40320,
            TableKind::CornersInG1 | TableKind::EdgesInG1 => 40320 * 24,
            TableKind::EdgesCornersInG1 => 40320 * 140,
            TableKind::Phase1 => crate::optimal::PHASE1_BYTES,
            TableKind::Phase1Coordinates => crate::optimal::COORDINATES_BYTES,
            TableKind::Phase1Medium => crate::optimal::MEDIUM_BYTES,
            TableKind::Phase1Large => crate::optimal::LARGE_BYTES,
            TableKind::Phase1Exact => crate::optimal::EXACT_BYTES,
            TableKind::G1Moves => (2 * 40320 * 10 + 2 * 40320) * 2,
        }
    }

    /// The width of its entries: two bits for [`TableKind::Phase1`] (the distance modulo 3),
    /// five a byte for [`TableKind::Phase1Medium`] and [`TableKind::Phase1Large`] (the same),
    /// four bits for [`TableKind::Phase1Exact`], a byte for the others.
    pub fn width(self) -> Width {
        match self {
            TableKind::Phase1 => Width::Two,
            TableKind::Phase1Medium | TableKind::Phase1Large => Width::Ternary,
            TableKind::Phase1Exact => Width::Four,
            _ => Width::Byte,
        }
    }

    /// The number of entries: [`TableKind::len`] but for the tables of several entries a
    /// byte.
    pub fn entries(self) -> u64 {
        match self {
            TableKind::Phase1 => crate::optimal::PHASE1_ENTRIES as u64,
            TableKind::Phase1Medium => crate::optimal::MEDIUM_ENTRIES as u64,
            TableKind::Phase1Large => crate::optimal::LARGE_ENTRIES as u64,
            TableKind::Phase1Exact => crate::optimal::PHASE1_ENTRIES as u64,
            kind => kind.len() as u64,
        }
    }
}

/// The cube's cache: `cube/` in frontier's cache root ([`Cache::default_root`]). The crate's
/// own unit tests use a directory under the system's temporary directory instead.
pub fn default_cache() -> Cache {
    if cfg!(test) {
        return Cache::at(std::env::temp_dir().join("frontier-cube-test-cache"));
    }
    Cache::from_env().join("cube")
}

/// The directory of [`default_cache`].
pub fn default_dir() -> PathBuf {
    default_cache().dir().to_path_buf()
}

/// The file name of a table: `twist-flip-htm.table`, ...
pub fn file_name(kind: TableKind, metric: Metric) -> String {
    format!("{}-{}.table", kind.name(), metric.name())
}

/// What the table of `kind` in `metric` is, for the cache: its file, its key (`cube
/// twist-flip htm v2`), its width and entries.
pub fn spec(kind: TableKind, metric: Metric) -> TableSpec {
    TableSpec::new(
        file_name(kind, metric),
        format!("cube {} {} v{CONTENTS_VERSION}", kind.name(), metric.name()),
        kind.width(),
        kind.entries(),
    )
}

/// A fresh directory under the system's temporary directory, for tests.
#[cfg(test)]
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("frontier-cube-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[cfg(test)]
mod tests {
    use std::fs;

    use frontier_tables::{file, TableError};

    use super::*;

    #[test]
    fn every_table_has_its_own_key_and_file() {
        let mut keys = std::collections::HashSet::new();
        let mut files = std::collections::HashSet::new();
        for kind in TableKind::EVERY {
            for metric in [Metric::Htm, Metric::Qtm] {
                let spec = spec(kind, metric);
                assert_eq!(spec.data_bytes(), kind.len() as u64, "{}", kind.name());
                assert!(keys.insert(spec.key));
                assert!(files.insert(spec.file));
            }
        }
    }

    #[test]
    fn every_kind_of_damage_is_named() {
        let dir = temp_dir("damage");
        let spec = spec(TableKind::Corners, Metric::Qtm);
        let path = dir.join(&spec.file);
        let table: Vec<u8> = (0..TableKind::Corners.len()).map(|i| i as u8).collect();
        file::write(&path, &spec, &table).unwrap();
        let good = fs::read(&path).unwrap();
        assert_eq!(good.len() as u64, spec.file_bytes());
        assert_eq!(file::read(&path, &spec).unwrap(), table);
        let read_with = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            file::read(&path, &spec).unwrap_err()
        };
        let mut bytes = good.clone();
        bytes[0] = b'X';
        assert!(matches!(read_with(&bytes), TableError::Magic { .. }));
        let mut bytes = good.clone();
        bytes[8] = 2;
        assert!(matches!(read_with(&bytes), TableError::Version { .. }));
        let mut bytes = good.clone();
        bytes[16] ^= 1;
        assert!(matches!(read_with(&bytes), TableError::Shape { .. }));
        assert!(matches!(read_with(&good[..1000]), TableError::Size { .. }));
        let mut bytes = good.clone();
        bytes.push(0);
        assert!(matches!(read_with(&bytes), TableError::Size { .. }));
        let mut bytes = good.clone();
        *bytes.last_mut().unwrap() ^= 0x10;
        assert!(matches!(read_with(&bytes), TableError::Checksum { .. }));
        fs::write(&path, &good).unwrap();
        let htm = super::spec(TableKind::Corners, Metric::Htm);
        assert!(matches!(
            file::read(&path, &htm),
            Err(TableError::Key { .. })
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
}
