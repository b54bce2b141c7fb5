//! The on-disk format of a table, its writer and its checked reader.
//!
//! A file is a 32-byte header, the table's key, then the packed entries:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `FRNTTABL` |
//! | 8..12 | format version ([`FORMAT_VERSION`]), little-endian |
//! | 12 | bits an entry: 2, 4 or 8, or 3 for five entries a byte in base 3 ([`Width`]) |
//! | 13 | zero |
//! | 14..16 | length of the key in bytes, little-endian |
//! | 16..24 | number of entries, little-endian |
//! | 24..32 | xxh3-64 of bytes 0..24, the key and the entries, little-endian |
//! | 32.. | the key (UTF-8), then the entries ([`Width::bytes`] of them) |
//!
//! The key names the table and everything its contents depend on (the domain, the
//! coordinates, the metric, the domain's own version of them): a file whose key differs is
//! another table. [`write()`] writes to a temporary file in the same directory and renames it
//! into place, so a reader (another process included) sees the old file, the new one, or
//! none, never half a table; it first removes the temporary files of the same table that a
//! killed writer left. [`read()`] checks the size, every header field and the checksum, and
//! says which one is wrong.
//!
//! ```
//! use frontier_tables::file::{read, write};
//! use frontier_tables::{TableError, TableSpec, Width};
//!
//! let dir = std::env::temp_dir().join(format!("frontier-tables-doc-{}", std::process::id()));
//! let spec = TableSpec::new("example.table", "example v1", Width::Byte, 5);
//! write(&dir.join(&spec.file), &spec, &[0, 1, 2, 1, 0]).unwrap();
//! assert_eq!(read(&dir.join(&spec.file), &spec).unwrap(), [0, 1, 2, 1, 0]);
//! // The same file is not the table of another key.
//! let other = TableSpec::new("example.table", "example v2", Width::Byte, 5);
//! assert!(matches!(read(&dir.join(&spec.file), &other), Err(TableError::Key { .. })));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use thiserror::Error;
use xxhash_rust::xxh3::Xxh3;

use crate::build::Width;

/// The version of the file layout; a file of another version is rebuilt. (A change in a
/// table's contents changes its key instead.)
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: [u8; 8] = *b"FRNTTABL";
/// The bytes of the fixed header.
pub const HEADER: usize = 32;
/// The longest key kept in a message about a file whose key differs.
const SHOWN_KEY: usize = 80;

/// What a table is: its file name in the cache, its key, the width and number of its
/// entries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TableSpec {
    /// The file name in its cache directory.
    pub file: String,
    /// The key stored in the file: the name and parameters of the table.
    pub key: String,
    /// Bits an entry.
    pub width: Width,
    /// The number of entries.
    pub entries: u64,
}

impl TableSpec {
    /// A table named `file` in its directory, with this key, width and number of entries.
    pub fn new(
        file: impl Into<String>,
        key: impl Into<String>,
        width: Width,
        entries: u64,
    ) -> TableSpec {
        TableSpec {
            file: file.into(),
            key: key.into(),
            width,
            entries,
        }
    }

    /// The bytes of the packed entries.
    pub fn data_bytes(&self) -> u64 {
        self.width.bytes(self.entries)
    }

    /// The size of the file: header, key and entries.
    pub fn file_bytes(&self) -> u64 {
        (HEADER + self.key.len()) as u64 + self.data_bytes()
    }
}

/// Why a table could not be read or written. Every variant names the file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TableError {
    /// The file or directory could not be read, written, created or renamed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The path is not a regular file (a named pipe would make a reader wait for a writer).
    #[error("{}: not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is shorter or longer than its header, key and table.
    #[error("{}: {found} bytes, expected {expected} (header, key and table)", path.display())]
    Size {
        /// The file.
        path: PathBuf,
        /// The file's size.
        found: u64,
        /// The size it should have.
        expected: u64,
    },
    /// The file does not start with the magic bytes `FRNTTABL`.
    #[error("{}: not a frontier table (bytes 0..8 are not \"FRNTTABL\")", path.display())]
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
    /// The file holds another table (or another version of its contents).
    #[error("{}: the file holds table {found:?}, expected {expected:?}", path.display())]
    Key {
        /// The file.
        path: PathBuf,
        /// The key in the file (shortened if long; lossy if not UTF-8).
        found: String,
        /// The key wanted.
        expected: String,
    },
    /// The entries are of another width, the header's zero byte is not zero, or the entry
    /// count differs.
    #[error("{}: the header says {found_entries} entries of {found_bits} bits (byte 13 {reserved:#04x}), expected {expected_entries} of {expected_bits}", path.display())]
    Shape {
        /// The file.
        path: PathBuf,
        /// Bits an entry in the header.
        found_bits: u8,
        /// Bits an entry wanted.
        expected_bits: u8,
        /// Entries in the header.
        found_entries: u64,
        /// Entries wanted.
        expected_entries: u64,
        /// Byte 13, which must be zero.
        reserved: u8,
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

impl TableError {
    /// Whether the error only says that the file does not exist, or its directory does not
    /// (a cache miss, not damage).
    pub fn is_missing(&self) -> bool {
        matches!(
            self,
            TableError::Io { source, .. }
                if matches!(source.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory)
        )
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> TableError + '_ {
    move |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Bytes 0..24 of the header of `spec`.
fn header(spec: &TableSpec) -> [u8; 24] {
    let mut h = [0u8; 24];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = spec.width.bits();
    h[14..16].copy_from_slice(&(spec.key.len() as u16).to_le_bytes());
    h[16..24].copy_from_slice(&spec.entries.to_le_bytes());
    h
}

fn checksum(head: &[u8], key: &[u8], data: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    hasher.update(head);
    hasher.update(key);
    hasher.update(data);
    hasher.digest()
}

/// Reads the table of `spec` from `path`, checking its size, header and checksum. Nothing
/// larger than the expected table is allocated, whatever the file holds.
pub fn read(path: &Path, spec: &TableSpec) -> Result<Vec<u8>, TableError> {
    read_into(path, spec, |len| vec![0u8; len])
}

/// [`read()`] into memory of the caller's making: `make(len)` gives room for the table's `len`
/// bytes (huge pages, say). A large table is read in parts on rayon's threads.
pub fn read_into<B: AsMut<[u8]>>(
    path: &Path,
    spec: &TableSpec,
    make: impl FnOnce(usize) -> B,
) -> Result<B, TableError> {
    let (file, head, key) = open_checked(path, spec)?;
    let mut table = make(spec.data_bytes() as usize);
    let start = (HEADER + key.len()) as u64;
    read_parts(&file, start, table.as_mut(), READ_PART).map_err(io_error(path))?;
    check_sum(path, &head, &key, table.as_mut())?;
    Ok(table)
}

/// The bytes a thread reads at a time ([`read_parts`]).
const READ_PART: usize = 64 << 20;

/// Fills `data` with the bytes of `file` from offset `start`, in parts of `part` bytes on
/// rayon's threads: most of the time a table of gigabytes takes to read goes to faulting in
/// and zeroing the fresh pages it lands in, work the threads share.
#[cfg(unix)]
fn read_parts(file: &File, start: u64, data: &mut [u8], part: usize) -> io::Result<()> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;
    data.par_chunks_mut(part)
        .enumerate()
        .try_for_each(|(i, bytes)| file.read_exact_at(bytes, start + (i * part) as u64))
}

/// Fills `data` with the bytes of `file` from its current position, `start`.
#[cfg(not(unix))]
fn read_parts(mut file: &File, _start: u64, data: &mut [u8], _part: usize) -> io::Result<()> {
    file.read_exact(data)
}

/// The table of `spec` in `path`, checked as by [`read()`], but mapped into memory rather than
/// copied: a process that only reads a large table pays neither the copy nor the zeroing of
/// a buffer, and processes reading the same file share its pages.
pub fn map(path: &Path, spec: &TableSpec) -> Result<Mapped, TableError> {
    let (file, head, key) = open_checked(path, spec)?;
    let start = HEADER + key.len();
    // SAFETY: the mapping is read-only and private, and frontier never writes into an
    // existing table file: `write` renames a new file over it, which leaves this mapping on
    // the old one. Only a file truncated in place by another program while mapped could fault.
    let map = unsafe {
        memmap2::MmapOptions::new()
            .populate()
            .map_copy_read_only(&file)
    }
    .map_err(io_error(path))?;
    let mapped = Mapped { map, start };
    check_sum(path, &head, &key, &mapped)?;
    Ok(mapped)
}

/// A checked table file mapped into memory ([`map()`]): derefs to the table's bytes.
#[derive(Debug)]
pub struct Mapped {
    map: memmap2::Mmap,
    start: usize,
}

impl std::ops::Deref for Mapped {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map[self.start..]
    }
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// The little-endian number in `bytes` (at most eight).
fn le_word(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b))
}

/// Checks the checksum in `head` against the header, the key and the table's `data`.
fn check_sum(path: &Path, head: &[u8; HEADER], key: &[u8], data: &[u8]) -> Result<(), TableError> {
    let stored = le_word(&head[24..32]);
    let computed = checksum(&head[..24], key, data);
    if stored != computed {
        return Err(TableError::Checksum {
            path: path.into(),
            stored,
            computed,
        });
    }
    Ok(())
}

/// The file of `spec` at `path`, open at its table's first byte, with its header and key,
/// once every field of the header and the file's size are checked (not yet the checksum).
fn open_checked(
    path: &Path,
    spec: &TableSpec,
) -> Result<(File, [u8; HEADER], Vec<u8>), TableError> {
    // Opening a named pipe would wait for a writer, past any timeout: only a regular file
    // (or a link to one) is opened.
    if !fs::metadata(path).map_err(io_error(path))?.is_file() {
        return Err(TableError::NotAFile { path: path.into() });
    }
    let mut file = File::open(path).map_err(io_error(path))?;
    let size = file.metadata().map_err(io_error(path))?.len();
    let expected_size = spec.file_bytes();
    let size_error = || TableError::Size {
        path: path.into(),
        found: size,
        expected: expected_size,
    };
    let mut head = [0u8; HEADER];
    if size < HEADER as u64 {
        return Err(size_error());
    }
    file.read_exact(&mut head).map_err(io_error(path))?;
    if head[..8] != MAGIC {
        return Err(TableError::Magic { path: path.into() });
    }
    let word = |range: std::ops::Range<usize>| le_word(&head[range]);
    let version = word(8..12) as u32;
    if version != FORMAT_VERSION {
        return Err(TableError::Version {
            path: path.into(),
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let key_len = word(14..16) as usize;
    let mut key = vec![0u8; key_len.min(spec.key.len() + 1)];
    if key_len == spec.key.len() && size < (HEADER + key_len) as u64 {
        return Err(size_error());
    }
    if key_len != spec.key.len() {
        // Read what there is of it to say which table the file holds.
        let shown = key.len().min((size - HEADER as u64) as usize);
        file.read_exact(&mut key[..shown]).map_err(io_error(path))?;
        key.truncate(shown);
    } else {
        file.read_exact(&mut key).map_err(io_error(path))?;
    }
    if key != spec.key.as_bytes() {
        let mut found = String::from_utf8_lossy(&key).into_owned();
        if found.chars().count() > SHOWN_KEY || key_len > key.len() {
            found = found.chars().take(SHOWN_KEY).collect::<String>() + "...";
        }
        return Err(TableError::Key {
            path: path.into(),
            found,
            expected: spec.key.clone(),
        });
    }
    let (bits, entries) = (head[12], word(16..24));
    if bits != spec.width.bits() || entries != spec.entries || head[13] != 0 {
        return Err(TableError::Shape {
            path: path.into(),
            found_bits: bits,
            expected_bits: spec.width.bits(),
            found_entries: entries,
            expected_entries: spec.entries,
            reserved: head[13],
        });
    }
    if size != expected_size {
        return Err(size_error());
    }
    Ok((file, head, key))
}

/// Writes the table of `spec` to `path`, creating its directory: to a temporary file in the
/// same directory, flushed to disk, then renamed over `path`, so that no reader ever sees a
/// partial file. The temporary files of the same table left by writers that no longer run
/// are removed first ([`remove_stale_temporaries`]). On error the temporary file is removed
/// and `path` is untouched.
///
/// # Panics
///
/// If `data` does not hold [`TableSpec::data_bytes`] bytes, or the key is longer than 65,535
/// bytes (bugs of the caller).
pub fn write(path: &Path, spec: &TableSpec, data: &[u8]) -> Result<(), TableError> {
    assert_eq!(
        data.len() as u64,
        spec.data_bytes(),
        "the table {}",
        spec.key
    );
    assert!(
        spec.key.len() <= usize::from(u16::MAX),
        "a key of at most 65,535 bytes"
    );
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let name = path
        .file_name()
        .map_or_else(|| "table".into(), |n| n.to_string_lossy().into_owned());
    remove_stale_temporaries(dir, &name);
    let temp = dir.join(temporary_name(
        &name,
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
    ));
    let head = header(spec);
    let sum = checksum(&head, spec.key.as_bytes(), data);
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(&head)?;
        file.write_all(&sum.to_le_bytes())?;
        file.write_all(spec.key.as_bytes())?;
        file.write_all(data)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)
    })();
    written.map_err(|source| {
        let _ = fs::remove_file(&temp);
        TableError::Io {
            path: path.into(),
            source,
        }
    })
}

/// The name of the `n`-th temporary file process `pid` writes for the table file `name`.
fn temporary_name(name: &str, pid: u32, n: u64) -> String {
    format!(".{name}.{pid}.{n}.tmp")
}

/// How old a temporary file must be before any writer removes it, whether or not its writer
/// seems to run: longer than any table takes to build and write. (Its process id may have
/// been given to another process since.)
pub const STALE: Duration = Duration::from_secs(24 * 60 * 60);

/// Whether process `pid` exists; `None` where the system does not say (then only a file's
/// age tells).
fn process_exists(pid: u32) -> Option<bool> {
    if cfg!(target_os = "linux") {
        Some(Path::new("/proc").join(pid.to_string()).exists())
    } else {
        None
    }
}

/// Removes the temporary files of the table file `name` in `dir` that a killed writer left:
/// those whose writer's process no longer exists (on Linux, no `/proc/PID`), and those older
/// than [`STALE`]. Files of this process, of other tables and of other names are left
/// alone, and so is anything that cannot be read or removed. Returns the files removed.
pub fn remove_stale_temporaries(dir: &Path, name: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let prefix = format!(".{name}.");
    let own = std::process::id();
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let Some(middle) = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some((Ok(pid), Ok(_))) = middle
            .split_once('.')
            .map(|(pid, n)| (pid.parse::<u32>(), n.parse::<u64>()))
        else {
            continue;
        };
        let old = (entry.metadata().and_then(|m| m.modified()).ok())
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age >= STALE);
        let dead = pid != own && process_exists(pid) == Some(false);
        if (old || dead) && fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory.
    pub(crate) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "frontier-tables-test-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn spec() -> TableSpec {
        TableSpec::new("corners.table", "test corners v1", Width::Four, 40_321)
    }

    fn data(spec: &TableSpec) -> Vec<u8> {
        (0..spec.data_bytes()).map(|i| (i * 7) as u8).collect()
    }

    /// The test table written to a fresh directory: the directory, the spec, the file's
    /// path and the table's bytes.
    fn written(name: &str) -> (PathBuf, TableSpec, PathBuf, Vec<u8>) {
        let dir = temp_dir(name);
        let spec = spec();
        let path = dir.join(&spec.file);
        let table = data(&spec);
        write(&path, &spec, &table).unwrap();
        (dir, spec, path, table)
    }

    #[test]
    fn a_table_read_in_parts_is_the_table_written() {
        let (dir, spec, path, table) = written("parts");
        let (file, _, key) = open_checked(&path, &spec).unwrap();
        let start = (HEADER + key.len()) as u64;
        // Parts that do not divide the table, so that the last one is short.
        for part in [1_000, 4_093, table.len()] {
            let mut read = vec![0u8; table.len()];
            read_parts(&file, start, &mut read, part).unwrap();
            assert!(read == table, "parts of {part} bytes");
        }
        let mut longer = vec![0u8; table.len() + 1];
        assert!(read_parts(&file, start, &mut longer, 1_000).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_round_trips_and_every_kind_of_damage_is_named() {
        let (dir, spec, path, table) = written("damage");
        let good = fs::read(&path).unwrap();
        assert_eq!(good.len() as u64, spec.file_bytes());
        assert_eq!(read(&path, &spec).unwrap(), table);
        let read_with = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            read(&path, &spec).unwrap_err()
        };
        let mut bytes = good.clone();
        bytes[0] = b'X';
        assert!(matches!(read_with(&bytes), TableError::Magic { .. }));
        let mut bytes = good.clone();
        bytes[8] = 2;
        assert!(matches!(
            read_with(&bytes),
            TableError::Version {
                found: 2,
                expected: 1,
                ..
            }
        ));
        let mut bytes = good.clone();
        bytes[12] = 8;
        assert!(matches!(
            read_with(&bytes),
            TableError::Shape { found_bits: 8, .. }
        ));
        let mut bytes = good.clone();
        bytes[13] = 1;
        assert!(matches!(
            read_with(&bytes),
            TableError::Shape { reserved: 1, .. }
        ));
        let mut bytes = good.clone();
        bytes[16] ^= 1;
        assert!(matches!(read_with(&bytes), TableError::Shape { .. }));
        let mut bytes = good.clone();
        bytes[14] += 1;
        assert!(matches!(read_with(&bytes), TableError::Key { .. }));
        let mut bytes = good.clone();
        bytes[HEADER] = b'X';
        assert!(matches!(read_with(&bytes), TableError::Key { .. }));
        assert!(matches!(read_with(&good[..1000]), TableError::Size { .. }));
        assert!(matches!(read_with(&good[..10]), TableError::Size { .. }));
        assert!(matches!(
            read_with(&good[..HEADER + 3]),
            TableError::Size { .. }
        ));
        let mut bytes = good.clone();
        bytes.push(0);
        assert!(matches!(read_with(&bytes), TableError::Size { .. }));
        for at in [
            24,
            31,
            HEADER + spec.key.len(),
            HEADER + 9_000,
            good.len() - 1,
        ] {
            let mut bytes = good.clone();
            bytes[at] ^= 0x10;
            assert!(
                matches!(read_with(&bytes), TableError::Checksum { .. }),
                "byte {at}"
            );
        }
        let other = TableSpec::new("corners.table", "test corners v2", Width::Four, 40_321);
        fs::write(&path, &good).unwrap();
        let err = read(&path, &other).unwrap_err();
        assert!(err.to_string().contains("test corners v1"), "{err}");
        assert!(read(&dir.join("none"), &spec).unwrap_err().is_missing());
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_long_foreign_key_is_shortened_in_the_message() {
        let dir = temp_dir("long-key");
        let long = TableSpec::new("t.table", "k".repeat(5000), Width::Byte, 3);
        let path = dir.join("t.table");
        write(&path, &long, &[1, 2, 3]).unwrap();
        let err = read(&path, &TableSpec::new("t.table", "short", Width::Byte, 3)).unwrap_err();
        assert!(err.to_string().len() < 300, "{err}");
        assert!(err.to_string().contains("..."), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

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
            let _ = send.send(read(&reading, &spec()).map(|_| ()));
        });
        let read = receive
            .recv_timeout(Duration::from_secs(10))
            .expect("the read returns");
        let err = read.unwrap_err();
        assert!(matches!(err, TableError::NotAFile { .. }), "{err}");
        assert!(!err.is_missing());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_directory_is_an_error_and_leaves_nothing() {
        // A directory below a regular file cannot be created, even by root.
        let dir = temp_dir("blocked");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("file"), b"").unwrap();
        let spec = spec();
        let path = dir.join("file").join("cube").join(&spec.file);
        let err = write(&path, &spec, &data(&spec)).unwrap_err();
        assert!(matches!(err, TableError::Io { .. }), "{err}");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A process id that no process has: a child that has exited and been reaped.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!Path::new("/proc").join(pid.to_string()).exists() || !cfg!(target_os = "linux"));
        pid
    }

    #[test]
    fn a_write_removes_the_temporary_files_killed_writers_left() {
        let dir = temp_dir("stale");
        fs::create_dir_all(&dir).unwrap();
        let spec = spec();
        let name = &spec.file;
        let dead = dead_pid();
        let alive = std::process::id();
        // This test's parent (the test runner or cargo) runs while the test does.
        let other_alive = std::os::unix::process::parent_id();
        let killed = dir.join(temporary_name(name, dead, 0));
        let writing = dir.join(temporary_name(name, other_alive, 3));
        let own = dir.join(temporary_name(name, alive, 9_999));
        let ancient = dir.join(temporary_name(name, other_alive, 4));
        let other_table = dir.join(temporary_name("twist-flip.table", dead, 0));
        let not_ours = dir.join(format!(".{name}.notes.tmp"));
        for file in [&killed, &writing, &own, &ancient, &other_table, &not_ours] {
            fs::write(file, b"partial").unwrap();
        }
        let old = std::time::SystemTime::now() - STALE - Duration::from_secs(1);
        File::options()
            .write(true)
            .open(&ancient)
            .unwrap()
            .set_modified(old)
            .unwrap();
        write(&dir.join(name), &spec, &data(&spec)).unwrap();
        if cfg!(target_os = "linux") {
            assert!(!killed.exists(), "a dead writer's file is removed");
        }
        assert!(!ancient.exists(), "a file older than any build is removed");
        assert!(writing.exists(), "a running writer's file is kept");
        assert!(own.exists(), "this process's files are its own business");
        assert!(other_table.exists(), "another table's files are kept");
        assert!(
            not_ours.exists(),
            "a name not of the writer's making is kept"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
