//! The cache directory, and what happened to each table loaded or built through it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use frontier_search::Limit;

use crate::file::{self, TableError, TableSpec};

/// Where a table came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache.
    Cache,
    /// Built now: no file was cached.
    Built,
    /// Built now because the cached file was damaged, truncated or of another version or key.
    Rebuilt,
}

/// What happened to one table: where it came from, why a cached file was rebuilt, and why
/// the table could not be saved. The domains return these; the command line turns them
/// into warnings ([`TableReport::warning`]).
#[derive(Debug)]
pub struct TableReport {
    /// The table's key.
    pub key: String,
    /// The file it was read from or written to.
    pub path: PathBuf,
    /// Where it came from.
    pub origin: Origin,
    /// Why the cached file was not used, when it was there ([`Origin::Rebuilt`]).
    pub damage: Option<TableError>,
    /// Why the table could not be saved, if writing it failed.
    pub unwritable: Option<TableError>,
}

impl TableReport {
    /// A report of a table built with no cache at all.
    pub fn built(key: impl Into<String>) -> TableReport {
        TableReport {
            key: key.into(),
            path: PathBuf::new(),
            origin: Origin::Built,
            damage: None,
            unwritable: None,
        }
    }

    /// One line about a damaged file or an unwritable cache, `None` if all went well: what
    /// a user should hear of, since each costs a build.
    ///
    /// ```
    /// use frontier_tables::{Origin, TableReport};
    ///
    /// let quiet = TableReport::built("cube twist-flip htm");
    /// assert_eq!(quiet.warning(), None);
    /// ```
    pub fn warning(&self) -> Option<String> {
        if self.damage.is_none() && self.unwritable.is_none() {
            return None;
        }
        Some(self.to_string())
    }
}

impl fmt::Display for TableReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table {}: ", self.key)?;
        match (&self.origin, &self.damage) {
            (Origin::Cache, _) => write!(f, "loaded from {}", self.path.display())?,
            (_, Some(damage)) => write!(f, "{damage}; rebuilt")?,
            (_, None) => write!(f, "built")?,
        }
        if let Some(error) = &self.unwritable {
            write!(f, "; not cached: {error}")?;
        }
        Ok(())
    }
}

/// A table's bytes ([`Cache::map_or_build`]): its cache file mapped into memory, or the table
/// just built.
#[derive(Debug)]
pub enum TableBytes {
    /// Read from the cache, checked.
    Mapped(file::Mapped),
    /// Built by this process.
    Owned(Vec<u8>),
}

impl std::ops::Deref for TableBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            TableBytes::Mapped(m) => m,
            TableBytes::Owned(v) => v,
        }
    }
}

impl AsRef<[u8]> for TableBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// A cache directory of tables. [`Cache::from_env`] is frontier's own
/// ([`Cache::default_root`]); [`Cache::at`] is any directory (a library's, a test's
/// temporary one). After one write fails, no other write to this cache is tried (each would
/// fail the same way and cost the time of writing).
///
/// ```
/// use frontier_tables::{Cache, Origin, TableSpec, Width};
///
/// let dir = std::env::temp_dir().join(format!("frontier-cache-doc-{}", std::process::id()));
/// let cache = Cache::at(&dir);
/// let spec = TableSpec::new("squares.table", "squares v1", Width::Byte, 4);
/// let build = || Ok(vec![0, 1, 4, 9]);
/// let (table, report) = cache.load_or_build(&spec, |len| vec![0; len], build).unwrap();
/// assert_eq!((table, report.origin), (vec![0, 1, 4, 9], Origin::Built));
/// let (_, report) = cache.load_or_build(&spec, |len| vec![0; len], build).unwrap();
/// assert_eq!(report.origin, Origin::Cache);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    writable: AtomicBool,
}

impl Clone for Cache {
    fn clone(&self) -> Cache {
        Cache {
            dir: self.dir.clone(),
            writable: AtomicBool::new(self.writable.load(Ordering::Relaxed)),
        }
    }
}

impl Cache {
    /// The cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: dir.into(),
            writable: AtomicBool::new(true),
        }
    }

    /// frontier's cache: in [`Cache::default_root`].
    pub fn from_env() -> Cache {
        Cache::at(Cache::default_root())
    }

    /// frontier's cache directory: `$FRONTIER_CACHE_DIR` if set and not empty, else
    /// `frontier/` in the user's cache directory (`dirs::cache_dir()`), else in the system's
    /// temporary directory.
    pub fn default_root() -> PathBuf {
        if let Some(dir) = std::env::var_os("FRONTIER_CACHE_DIR").filter(|d| !d.is_empty()) {
            return dir.into();
        }
        dirs::cache_dir()
            .unwrap_or_else(std::env::temp_dir)
            .join("frontier")
    }

    /// The cache in the subdirectory `name` of this one (a domain's: `cube`).
    pub fn join(&self, name: &str) -> Cache {
        Cache::at(self.dir.join(name))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of a table's file.
    pub fn path(&self, spec: &TableSpec) -> PathBuf {
        self.dir.join(&spec.file)
    }

    /// The table of `spec` from the cache, checked ([`file::read_into`], into `make(len)`),
    /// or, when its file is missing or fails a check, `build()` saved there
    /// ([`file::write`]). Returns the limit `build` stopped on, if it did (then nothing is
    /// written). A broken cache costs a build, never the table: the report says what
    /// happened.
    pub fn load_or_build<B: AsMut<[u8]> + AsRef<[u8]>>(
        &self,
        spec: &TableSpec,
        make: impl FnOnce(usize) -> B,
        build: impl FnOnce() -> Result<B, Limit>,
    ) -> Result<(B, TableReport), Limit> {
        self.load_or_build_admitting(spec, make, build, |_| true)
    }

    /// [`Cache::load_or_build`], with `admit(path)` asked before a built table is written:
    /// false keeps it out of the cache (a cache kept within a budget), with no error.
    pub fn load_or_build_admitting<B: AsMut<[u8]> + AsRef<[u8]>>(
        &self,
        spec: &TableSpec,
        make: impl FnOnce(usize) -> B,
        build: impl FnOnce() -> Result<B, Limit>,
        admit: impl FnOnce(&Path) -> bool,
    ) -> Result<(B, TableReport), Limit> {
        self.fetch(spec, |path| file::read_into(path, spec, make), build, admit)
    }

    /// [`Cache::load_or_build`] for a table only read once made: the cache's file is mapped
    /// into memory ([`file::map`]) rather than copied, which spares a short run the copy of a
    /// large table.
    pub fn map_or_build(
        &self,
        spec: &TableSpec,
        build: impl FnOnce() -> Result<Vec<u8>, Limit>,
    ) -> Result<(TableBytes, TableReport), Limit> {
        self.fetch(
            spec,
            |path| file::map(path, spec).map(TableBytes::Mapped),
            || build().map(TableBytes::Owned),
            |_| true,
        )
    }

    /// The table of `spec`: `load`ed from its path, else `build()` and written there if
    /// `admit` says so.
    fn fetch<B: AsRef<[u8]>>(
        &self,
        spec: &TableSpec,
        load: impl FnOnce(&Path) -> Result<B, TableError>,
        build: impl FnOnce() -> Result<B, Limit>,
        admit: impl FnOnce(&Path) -> bool,
    ) -> Result<(B, TableReport), Limit> {
        let path = self.path(spec);
        let damage = match load(&path) {
            Ok(table) => {
                let report = TableReport {
                    key: spec.key.clone(),
                    path,
                    origin: Origin::Cache,
                    damage: None,
                    unwritable: None,
                };
                return Ok((table, report));
            }
            Err(e) if e.is_missing() => None,
            Err(e) => Some(e),
        };
        let table = build()?;
        let mut unwritable = None;
        if self.writable.load(Ordering::Relaxed) && admit(&path) {
            if let Err(e) = file::write(&path, spec, table.as_ref()) {
                unwritable = Some(e);
                self.writable.store(false, Ordering::Relaxed);
            }
        }
        let report = TableReport {
            key: spec.key.clone(),
            path,
            origin: if damage.is_some() {
                Origin::Rebuilt
            } else {
                Origin::Built
            },
            damage,
            unwritable,
        };
        Ok((table, report))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::file::tests::temp_dir;
    use crate::Width;

    fn spec(name: &str) -> TableSpec {
        TableSpec::new(
            format!("{name}.table"),
            format!("test {name}"),
            Width::Byte,
            3,
        )
    }

    fn make(len: usize) -> Vec<u8> {
        vec![0; len]
    }

    #[test]
    fn a_table_is_built_saved_loaded_and_rebuilt_when_damaged() {
        let dir = temp_dir("cache");
        let cache = Cache::at(&dir);
        let built = || Ok(vec![1, 2, 3]);
        let (table, report) = cache.load_or_build(&spec("a"), make, built).unwrap();
        assert_eq!(table, [1, 2, 3]);
        assert_eq!(report.origin, Origin::Built);
        assert_eq!(report.warning(), None);
        let (_, report) = cache.load_or_build(&spec("a"), make, built).unwrap();
        assert_eq!(report.origin, Origin::Cache);
        let path = cache.path(&spec("a"));
        let mut bytes = fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&path, &bytes).unwrap();
        let (table, report) = cache.load_or_build(&spec("a"), make, built).unwrap();
        assert_eq!(table, [1, 2, 3]);
        assert_eq!(report.origin, Origin::Rebuilt);
        assert!(matches!(report.damage, Some(TableError::Checksum { .. })));
        let warning = report.warning().unwrap();
        assert!(!warning.contains('\n'), "{warning}");
        assert!(
            warning.contains("test a") && warning.contains("rebuilt"),
            "{warning}"
        );
        assert_eq!(
            cache
                .load_or_build(&spec("a"), make, built)
                .unwrap()
                .1
                .origin,
            Origin::Cache
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_mapped_table_reads_as_built_and_a_damaged_one_is_rebuilt() {
        let dir = temp_dir("mapped");
        let cache = Cache::at(&dir);
        let spec = spec("m");
        let built = || Ok(vec![4, 5, 6]);
        let (table, report) = cache.map_or_build(&spec, built).unwrap();
        assert!(matches!(table, TableBytes::Owned(_)));
        assert_eq!((&table[..], report.origin), (&[4, 5, 6][..], Origin::Built));
        let (table, report) = cache.map_or_build(&spec, built).unwrap();
        assert!(matches!(table, TableBytes::Mapped(_)));
        assert_eq!((&table[..], report.origin), (&[4, 5, 6][..], Origin::Cache));
        drop(table);
        let path = cache.path(&spec);
        let mut bytes = fs::read(&path).unwrap();
        bytes[file::HEADER + spec.key.len()] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let (table, report) = cache.map_or_build(&spec, built).unwrap();
        assert_eq!(
            (&table[..], report.origin),
            (&[4, 5, 6][..], Origin::Rebuilt)
        );
        assert!(matches!(report.damage, Some(TableError::Checksum { .. })));
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(
            file::map(&path, &spec),
            Err(TableError::Size { .. })
        ));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stopped_build_writes_nothing() {
        let dir = temp_dir("stopped");
        let cache = Cache::at(&dir);
        let stopped = cache.load_or_build(&spec("b"), make, || Err(Limit::Cancelled));
        assert_eq!(stopped.map(|(t, _)| t).unwrap_err(), Limit::Cancelled);
        assert!(!cache.path(&spec("b")).exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_cache_is_reported_once_and_costs_only_the_build() {
        let dir = temp_dir("unwritable");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("file"), b"").unwrap();
        let cache = Cache::at(dir.join("file").join("cube"));
        let built = || Ok(vec![7, 8, 9]);
        let (table, first) = cache.load_or_build(&spec("c"), make, built).unwrap();
        assert_eq!(table, [7, 8, 9]);
        assert!(matches!(first.unwritable, Some(TableError::Io { .. })));
        assert!(first.warning().unwrap().contains("not cached"));
        let (_, second) = cache.load_or_build(&spec("d"), make, built).unwrap();
        assert_eq!(second.origin, Origin::Built);
        assert!(second.unwritable.is_none(), "no second write is tried");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_kept_out_by_admit_is_not_written() {
        let dir = temp_dir("admit");
        let cache = Cache::at(&dir);
        let built = || Ok(vec![1, 1, 1]);
        let (_, report) = cache
            .load_or_build_admitting(&spec("e"), make, built, |_| false)
            .unwrap();
        assert_eq!((report.origin, report.warning()), (Origin::Built, None));
        assert!(!cache.path(&spec("e")).exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_default_root_follows_the_environment_variable() {
        // Read only: setting the variable would race with the other tests' reads.
        let root = Cache::default_root();
        match std::env::var_os("FRONTIER_CACHE_DIR").filter(|d| !d.is_empty()) {
            Some(dir) => assert_eq!(root, PathBuf::from(dir)),
            None => assert!(root.ends_with("frontier"), "{}", root.display()),
        }
        assert_eq!(Cache::at("/x").join("cube").dir(), Path::new("/x/cube"));
    }
}
