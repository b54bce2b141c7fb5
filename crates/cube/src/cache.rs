//! The on-disk cache of the pruning tables.
//!
//! Each table of the [`Heuristic`](crate::Heuristic) (one [`TableKind`] in one [`Metric`]) is
//! one file in the cache directory ([`default_dir`]: `frontier/cube/` in the user's cache
//! directory, or `$FRONTIER_CACHE_DIR/cube/`), named by [`file_name`]. A file is a 32-byte
//! header followed by the table, one byte an entry:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `FRNTCUBE` |
//! | 8..12 | format version ([`FORMAT_VERSION`]), little-endian |
//! | 12 | table kind (0 twist x flip, 1 twist x slice, 2 flip x slice, 3 corners, 4 G1 corners, 5 G1 edges) |
//! | 13 | metric (0 htm, 1 qtm) |
//! | 14..16 | zero |
//! | 16..24 | number of entries, little-endian |
//! | 24..32 | FNV-1a 64 ([`fnv1a64`]) of bytes 0..24 followed by the table, little-endian |
//!
//! [`write_table`] writes to a temporary file in the same directory and renames it into
//! place, so a reader (another process included) sees the old file, the new one, or none,
//! never half a table. [`read_table`] checks every header field, the file's size and the
//! checksum, and says which one is wrong.
//!
//! ```
//! use frontier_cube::cache::{read_table, write_table, CacheError, TableKind};
//! use frontier_cube::Metric;
//!
//! let dir = std::env::temp_dir().join(format!("frontier-cube-doc-{}", std::process::id()));
//! let path = dir.join("example.table");
//! let table = vec![3u8; TableKind::Corners.len()];
//! write_table(&path, TableKind::Corners, Metric::Htm, &table).unwrap();
//! assert_eq!(read_table(&path, TableKind::Corners, Metric::Htm).unwrap(), table);
//! // The same file is not the QTM table.
//! assert!(matches!(
//!     read_table(&path, TableKind::Corners, Metric::Qtm),
//!     Err(CacheError::Metric { .. })
//! ));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

use crate::moves::Metric;

/// The version of the file layout and of the tables' meaning; a file of another version is
/// rebuilt. Raise it whenever the layout or the contents of a table change (a coordinate's
/// order, the metric's moves), or old caches would be read as valid.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: [u8; 8] = *b"FRNTCUBE";
const HEADER: usize = 32;

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
    /// The [optimal solver](crate::Optimal)'s distances to G1: 64,430 classes of (flip, slice)
    /// x 2,187 twists, the distance modulo 3 in two bits, four entries a byte.
    Phase1,
}

impl TableKind {
    /// The heuristic's four kinds, in the order of the file's kind byte.
    pub const ALL: [TableKind; 4] = [
        TableKind::TwistFlip,
        TableKind::TwistSlice,
        TableKind::FlipSlice,
        TableKind::Corners,
    ];

    /// Every kind, in the order of the file's kind byte.
    pub const EVERY: [TableKind; 7] = [
        TableKind::TwistFlip,
        TableKind::TwistSlice,
        TableKind::FlipSlice,
        TableKind::Corners,
        TableKind::CornersInG1,
        TableKind::EdgesInG1,
        TableKind::Phase1,
    ];

    /// The kind's name, as used in file names: `twist-flip`, `twist-slice`, `flip-slice`,
    /// `corners`, `g1-corners`, `g1-edges`, `phase1`.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::TwistFlip => "twist-flip",
            TableKind::TwistSlice => "twist-slice",
            TableKind::FlipSlice => "flip-slice",
            TableKind::Corners => "corners",
            TableKind::CornersInG1 => "g1-corners",
            TableKind::EdgesInG1 => "g1-edges",
            TableKind::Phase1 => "phase1",
        }
    }

    /// The number of entries (bytes) of the table.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(self) -> usize {
        match self {
            TableKind::TwistFlip => 2187 * 2048,
            TableKind::TwistSlice => 2187 * 495,
            TableKind::FlipSlice => 2048 * 495,
            TableKind::Corners => 40320,
            TableKind::CornersInG1 | TableKind::EdgesInG1 => 40320 * 24,
            TableKind::Phase1 => crate::optimal::PHASE1_BYTES,
        }
    }

    fn code(self) -> u8 {
        self as u8
    }
}

fn metric_code(metric: Metric) -> u8 {
    match metric {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

/// Why a cached table could not be read or written.
#[derive(Debug, Error)]
pub enum CacheError {
    /// The file or directory could not be read, written, created or renamed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The file does not start with the magic bytes `FRNTCUBE`.
    #[error("{}: not a frontier cube table (bytes 0..8 are not \"FRNTCUBE\")", path.display())]
    Magic {
        /// The file.
        path: PathBuf,
    },
    /// The file was written in another format version.
    #[error("{}: format version {found}, this build reads version {expected}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// [`FORMAT_VERSION`].
        expected: u32,
    },
    /// The file holds another kind of table (byte 12).
    #[error("{}: byte 12 says table kind {found}, expected {expected} ({})", path.display(), TableKind::EVERY[usize::from(*expected)].name())]
    Kind {
        /// The file.
        path: PathBuf,
        /// The kind byte in the file.
        found: u8,
        /// The kind byte wanted.
        expected: u8,
    },
    /// The file holds a table of the other metric (byte 13).
    #[error("{}: byte 13 says metric {found}, expected {expected} (0 htm, 1 qtm)", path.display())]
    Metric {
        /// The metric byte in the file.
        found: u8,
        /// The metric byte wanted.
        expected: u8,
        /// The file.
        path: PathBuf,
    },
    /// The header's reserved bytes or entry count are not those of the table.
    #[error("{}: the header says {found} entries (reserved bytes {reserved:#06x}), expected {expected} entries", path.display())]
    Length {
        /// The file.
        path: PathBuf,
        /// The entry count in the header.
        found: u64,
        /// The table's entry count.
        expected: u64,
        /// Bytes 14..16, which must be zero.
        reserved: u16,
    },
    /// The file is shorter or longer than header plus table (truncated, or appended to).
    #[error("{}: {found} bytes, expected {expected} (32-byte header and the table)", path.display())]
    Size {
        /// The file.
        path: PathBuf,
        /// The file's size.
        found: u64,
        /// The size it should have.
        expected: u64,
    },
    /// The checksum does not match the contents: the file is damaged.
    #[error("{}: checksum {stored:016x} in the header, {computed:016x} computed: the file is damaged", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
}

impl CacheError {
    /// Whether the error only says that the file does not exist, or its directory does not
    /// (a cache miss, not damage).
    pub fn is_missing(&self) -> bool {
        matches!(
            self,
            CacheError::Io { source, .. }
                if matches!(source.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory)
        )
    }
}

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo) of `bytes`, continuing from `state` (start with
/// [`FNV_OFFSET`]).
pub fn fnv1a64_continue(state: u64, bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(state, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The FNV-1a 64 offset basis: the hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_continue(FNV_OFFSET, bytes)
}

/// The frontier cache root: `$FRONTIER_CACHE_DIR` if set and not empty, else `frontier/` in the user's
/// cache directory (`dirs::cache_dir()`), else in the system's temporary directory. (The
/// same rule as the other domains' caches.)
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("FRONTIER_CACHE_DIR").filter(|d| !d.is_empty()) {
        return dir.into();
    }
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("frontier")
}

/// The directory of the cube's tables: `cube/` in [`cache_root`].
pub fn default_dir() -> PathBuf {
    cache_root().join("cube")
}

/// The file name of a table: `twist-flip-htm.table`, ...
pub fn file_name(kind: TableKind, metric: Metric) -> String {
    format!("{}-{}.table", kind.name(), metric.name())
}

fn header(kind: TableKind, metric: Metric, entries: u64) -> [u8; 24] {
    let mut h = [0u8; 24];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = kind.code();
    h[13] = metric_code(metric);
    h[16..24].copy_from_slice(&entries.to_le_bytes());
    h
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> CacheError + '_ {
    move |source| CacheError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads the `kind` table of `metric` from `path`, checking the header, the size and the
/// checksum. Nothing larger than the expected table is allocated, whatever the file holds.
pub fn read_table(path: &Path, kind: TableKind, metric: Metric) -> Result<Vec<u8>, CacheError> {
    read_table_into(path, kind, metric, |len| vec![0u8; len])
}

/// [`read_table`] into memory of the caller's making: `make(len)` gives room for the table's
/// `len` bytes (the optimal solver reads straight into huge pages).
pub fn read_table_into<B: AsMut<[u8]>>(
    path: &Path,
    kind: TableKind,
    metric: Metric,
    make: impl FnOnce(usize) -> B,
) -> Result<B, CacheError> {
    // Opening a named pipe would wait for a writer, past any timeout: only a regular file
    // (or a link to one) is opened.
    if !fs::metadata(path).map_err(io_error(path))?.is_file() {
        let source = io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
        return Err(io_error(path)(source));
    }
    let mut file = File::open(path).map_err(io_error(path))?;
    let size = file.metadata().map_err(io_error(path))?.len();
    let expected_size = (HEADER + kind.len()) as u64;
    let mut head = [0u8; HEADER];
    if size < HEADER as u64 {
        return Err(CacheError::Size {
            path: path.into(),
            found: size,
            expected: expected_size,
        });
    }
    file.read_exact(&mut head).map_err(io_error(path))?;
    if head[..8] != MAGIC {
        return Err(CacheError::Magic { path: path.into() });
    }
    let word = |range: std::ops::Range<usize>| {
        head[range]
            .iter()
            .rev()
            .fold(0u64, |w, &b| w << 8 | u64::from(b))
    };
    let version = word(8..12) as u32;
    if version != FORMAT_VERSION {
        return Err(CacheError::Version {
            path: path.into(),
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    if head[12] != kind.code() {
        return Err(CacheError::Kind {
            path: path.into(),
            found: head[12],
            expected: kind.code(),
        });
    }
    if head[13] != metric_code(metric) {
        return Err(CacheError::Metric {
            path: path.into(),
            found: head[13],
            expected: metric_code(metric),
        });
    }
    let (entries, reserved) = (word(16..24), word(14..16) as u16);
    if entries != kind.len() as u64 || reserved != 0 {
        return Err(CacheError::Length {
            path: path.into(),
            found: entries,
            expected: kind.len() as u64,
            reserved,
        });
    }
    if size != expected_size {
        return Err(CacheError::Size {
            path: path.into(),
            found: size,
            expected: expected_size,
        });
    }
    let mut table = make(kind.len());
    file.read_exact(table.as_mut()).map_err(io_error(path))?;
    let stored = word(24..32);
    let computed = fnv1a64_continue(fnv1a64(&head[..24]), table.as_mut());
    if stored != computed {
        return Err(CacheError::Checksum {
            path: path.into(),
            stored,
            computed,
        });
    }
    Ok(table)
}

/// Writes the `kind` table of `metric` to `path`, creating its directory: to a temporary file
/// in the same directory, flushed to disk, then renamed over `path`, so that no reader ever
/// sees a partial file. On error the temporary file is removed and `path` is untouched.
///
/// # Panics
///
/// If `table` does not have [`TableKind::len`] entries (a bug of the caller).
pub fn write_table(
    path: &Path,
    kind: TableKind,
    metric: Metric,
    table: &[u8],
) -> Result<(), CacheError> {
    assert_eq!(table.len(), kind.len(), "a {} table", kind.name());
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let name = path
        .file_name()
        .map_or_else(|| "table".into(), |n| n.to_string_lossy().into_owned());
    remove_stale_temporaries(dir, &name);
    let temp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let head = header(kind, metric, table.len() as u64);
    let checksum = fnv1a64_continue(fnv1a64(&head), table);
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(&head)?;
        file.write_all(&checksum.to_le_bytes())?;
        file.write_all(table)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)
    })();
    written.map_err(|source| {
        let _ = fs::remove_file(&temp);
        CacheError::Io {
            path: path.into(),
            source,
        }
    })
}

/// How old a temporary file of [`write_table`] must be before another write removes it: a
/// process killed while writing (a second Ctrl-C, SIGKILL) leaves its file behind, while a
/// process writing now has touched its own within the last seconds.
const STALE: std::time::Duration = std::time::Duration::from_secs(600);

/// Removes the temporary files of `name` in `dir` that were left behind ([`STALE`]);
/// anything that cannot be read or removed is left alone.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let stale = (entry.metadata().and_then(|m| m.modified()).ok())
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age >= STALE);
        if file.starts_with(&prefix) && file.ends_with(".tmp") && stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Where a table of a loaded [`Heuristic`](crate::Heuristic) came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache.
    Cache,
    /// Built now: no file was cached (or no cache was used).
    Built,
    /// Built now because the cached file was damaged, truncated or of another version.
    Rebuilt,
}

/// How the tables of a [`Heuristic`](crate::Heuristic) were obtained: each table's
/// [`Origin`] (in [`TableKind::ALL`] order) and every problem met on the way, which cost at
/// most a rebuild (a damaged file) or the cache (an unwritable directory), never the tables.
#[derive(Debug, Default)]
pub struct CacheReport {
    /// The cache directory used, if any.
    pub dir: Option<PathBuf>,
    /// Where each table came from, in [`TableKind::ALL`] order.
    pub origins: Vec<(TableKind, Origin)>,
    /// Why a file was rebuilt, or why the cache could not be written (once: after a failed
    /// write no other is tried).
    pub problems: Vec<CacheError>,
}

/// The `kind` table of `metric` from the directory `dir` ([`file_name`]), or, when the file is
/// missing or fails a check ([`read_table`]), `build(kind)` written there ([`write_table`]).
/// Where it came from goes into `report.origins`, a damaged file or a failed write into
/// `report.problems`; after a failed write (`*writable` turns false) no other is tried. A
/// broken cache costs a rebuild, never the table.
pub fn load_or_build(
    dir: &Path,
    kind: TableKind,
    metric: Metric,
    report: &mut CacheReport,
    writable: &mut bool,
    build: impl FnOnce(TableKind) -> Vec<u8>,
) -> Vec<u8> {
    let built = |kind| Some(build(kind));
    load_or_build_into(
        dir,
        kind,
        metric,
        report,
        writable,
        |len| vec![0; len],
        built,
    )
    .expect("a build that always returns a table")
}

/// [`load_or_build`] into memory of the caller's making (`make(len)`, as for
/// [`read_table_into`]), with a build that may give up (`None`, and nothing is written).
pub fn load_or_build_into<B: AsMut<[u8]> + AsRef<[u8]>>(
    dir: &Path,
    kind: TableKind,
    metric: Metric,
    report: &mut CacheReport,
    writable: &mut bool,
    make: impl FnOnce(usize) -> B,
    build: impl FnOnce(TableKind) -> Option<B>,
) -> Option<B> {
    let path = dir.join(file_name(kind, metric));
    match read_table_into(&path, kind, metric, make) {
        Ok(table) => {
            report.origins.push((kind, Origin::Cache));
            Some(table)
        }
        Err(e) => {
            let origin = if e.is_missing() {
                Origin::Built
            } else {
                report.problems.push(e);
                Origin::Rebuilt
            };
            report.origins.push((kind, origin));
            let table = build(kind)?;
            if *writable {
                if let Err(e) = write_table(&path, kind, metric, table.as_ref()) {
                    report.problems.push(e);
                    *writable = false;
                }
            }
            Some(table)
        }
    }
}

/// A fresh directory under the system's temporary directory, for tests.
#[cfg(test)]
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("frontier-cube-test-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn a_named_pipe_in_place_of_a_table_is_refused_without_waiting_for_a_writer() {
        let dir = temp_dir("fifo");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("corners.table");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Read on another thread: opening the pipe would block it until a writer came.
        let (send, receive) = std::sync::mpsc::channel();
        let reading = path.clone();
        std::thread::spawn(move || {
            let _ = send.send(read_table(&reading, TableKind::Corners, Metric::Htm).map(|_| ()));
        });
        let read = receive
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the read returns");
        let err = read.unwrap_err();
        assert!(err.to_string().ends_with("not a regular file"), "{err}");
        assert!(!err.is_missing());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        // Test vectors of the FNV reference (Fowler, Noll, Vo; draft-eastlake-fnv, "FNV-1a 64").
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(
            fnv1a64_continue(fnv1a64(b"foo"), b"bar"),
            fnv1a64(b"foobar")
        );
    }

    #[test]
    fn every_kind_of_damage_is_named() {
        let dir = temp_dir("damage");
        let path = dir.join(file_name(TableKind::Corners, Metric::Qtm));
        let table: Vec<u8> = (0..TableKind::Corners.len()).map(|i| i as u8).collect();
        write_table(&path, TableKind::Corners, Metric::Qtm, &table).unwrap();
        let good = fs::read(&path).unwrap();
        assert_eq!(good.len(), 32 + table.len());
        assert_eq!(
            read_table(&path, TableKind::Corners, Metric::Qtm).unwrap(),
            table
        );
        let read_with = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            read_table(&path, TableKind::Corners, Metric::Qtm).unwrap_err()
        };
        let mut bytes = good.clone();
        bytes[0] = b'X';
        assert!(matches!(read_with(&bytes), CacheError::Magic { .. }));
        let mut bytes = good.clone();
        bytes[8] = 2;
        assert!(matches!(
            read_with(&bytes),
            CacheError::Version {
                found: 2,
                expected: 1,
                ..
            }
        ));
        let mut bytes = good.clone();
        bytes[12] = 0;
        assert!(matches!(read_with(&bytes), CacheError::Kind { .. }));
        let mut bytes = good.clone();
        bytes[16] ^= 1;
        assert!(matches!(read_with(&bytes), CacheError::Length { .. }));
        assert!(matches!(read_with(&good[..1000]), CacheError::Size { .. }));
        assert!(matches!(read_with(&good[..10]), CacheError::Size { .. }));
        let mut bytes = good.clone();
        bytes.push(0);
        assert!(matches!(read_with(&bytes), CacheError::Size { .. }));
        for at in [24, 32, 32 + 20_000, good.len() - 1] {
            let mut bytes = good.clone();
            bytes[at] ^= 0x10;
            assert!(
                matches!(read_with(&bytes), CacheError::Checksum { .. }),
                "byte {at}"
            );
        }
        assert!(matches!(
            read_table(&path, TableKind::Corners, Metric::Htm),
            Err(CacheError::Metric { .. })
        ));
        assert!(
            read_table(&dir.join("none"), TableKind::Corners, Metric::Qtm)
                .unwrap_err()
                .is_missing()
        );
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_directory_is_an_error_and_leaves_nothing() {
        // A directory below a regular file cannot be created, even by root.
        let dir = temp_dir("blocked");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("file"), b"").unwrap();
        let path = dir.join("file").join("cube").join("corners-htm.table");
        let table = vec![0u8; TableKind::Corners.len()];
        let err = write_table(&path, TableKind::Corners, Metric::Htm, &table).unwrap_err();
        assert!(matches!(err, CacheError::Io { .. }), "{err}");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_write_removes_the_temporary_files_killed_writers_left() {
        let dir = temp_dir("stale");
        fs::create_dir_all(&dir).unwrap();
        let name = file_name(TableKind::Corners, Metric::Htm);
        let left = dir.join(format!(".{name}.999999.0.tmp"));
        let writing = dir.join(format!(".{name}.999998.0.tmp"));
        let other = dir.join(".twist-flip-htm.table.999999.0.tmp");
        for file in [&left, &writing, &other] {
            fs::write(file, b"partial").unwrap();
        }
        let old = std::time::SystemTime::now() - STALE - std::time::Duration::from_secs(1);
        for file in [&left, &other] {
            File::options()
                .write(true)
                .open(file)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        let table = vec![0u8; TableKind::Corners.len()];
        write_table(&dir.join(&name), TableKind::Corners, Metric::Htm, &table).unwrap();
        assert!(!left.exists(), "a stale file of this table is removed");
        assert!(writing.exists(), "a recent one may be another writer's");
        assert!(
            other.exists(),
            "another table's files are not this write's business"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
