//! Additive disjoint pattern databases (Korf and Felner 2002), built by backward BFS and cached
//! on disk.
//!
//! The tiles are split into disjoint groups. For each group, a table gives, for every placement
//! of the group's tiles, the fewest moves *of those tiles* that bring them home from there. The
//! search behind it tracks the blank too: the blank wanders for free among the cells no pattern
//! tile holds, and a pattern tile moves (cost 1) only into the blank; a placement stores its
//! least distance over blank cells. Since each table counts only its own tiles' moves and every
//! real move moves one tile, the sum over the groups never exceeds the true distance: the
//! heuristic is admissible (and consistent enough for IDA*).
//!
//! When the (placement, blank) space of a group would exceed [`BLANK_AWARE_LIMIT`] entries (the
//! 8-tile group of a 7-8 split: over 4 billion), the group is built without the blank, every
//! free cell acting as one: smaller to build, admissible, but weaker.
//!
//! A placement of `k` tiles on `n` cells is indexed by its rank among the `n!/(n-k)!`
//! k-permutations; each entry is one byte. The default 6-6-3 split of the 15-puzzle holds
//! 2 x 5,765,760 + 3,360 entries (11.5 MB).

use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use frontier_search::Limit;
use frontier_tables::{
    BuildProgress, Builder, Cache, Coordinates, Origin, TableReport, TableSpec, Visit, Width,
    UNREACHED,
};
use rayon::prelude::*;

use crate::board::{Puzzle, Shape};
use crate::heuristic::{Tables, NONE};

/// The version of the tables' contents (the indexing, the search behind them), part of
/// their file names and keys: raise it when they change.
const VERSION: u32 = 3;

/// One pattern: its tiles (in index order) and its table of distances.
#[derive(Clone, Debug)]
pub struct Pattern {
    tiles: Vec<u8>,
    table: Vec<u8>,
}

impl Pattern {
    /// The tiles of this pattern.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The number of entries (placements) in the table.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the table is empty (never, for a built pattern).
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The largest distance in the table.
    pub fn max(&self) -> u8 {
        self.table.iter().copied().max().unwrap_or(0)
    }

    /// The stored distance of a placement rank.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        self.table[index]
    }
}

/// The most cells a board may have for pattern databases: a build keeps sets of cells as bits
/// of a `u64`. (Tables for larger boards would be far too large to build anyway: 7 tiles on a
/// 65-cell board already take 4.4 billion entries.)
pub const MAX_CELLS: usize = 64;

/// The number of placements of `k` tiles on `n` cells: `n!/(n-k)!` (0 when `k > n`), or
/// `u64::MAX` when it is larger (63 tiles on 64 cells make 64!, which no `u64` holds).
pub fn placements(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |p: u64, i| p.saturating_mul((n - i) as u64))
}

/// Whether the table of `k` tiles on `n` cells is built with the blank tracked: when its
/// (placement, blank cell) space has at most [`BLANK_AWARE_LIMIT`] entries.
fn tracks_blank(n: usize, k: usize) -> bool {
    placements(n, k).saturating_mul((n - k) as u64) <= BLANK_AWARE_LIMIT
}

/// The most bytes a build of the tables of `groups` on a board of `cells` cells holds at once:
/// the tables built before, and the one being built with its working space (a byte per
/// (placement, blank cell) and then the table, when the blank is tracked; else the table
/// alone). Saturates at `u64::MAX`. The tables themselves take a byte per entry,
/// [`placements`] each; that is all that reading them from the cache takes.
pub fn build_bytes(cells: usize, groups: &[Vec<u8>]) -> u64 {
    let (mut built, mut peak) = (0u64, 0u64);
    for group in groups {
        let (n, k) = (cells, group.len());
        let table = placements(n, k);
        let work = if tracks_blank(n, k) {
            table.saturating_mul((n - k) as u64).saturating_add(table)
        } else {
            table
        };
        peak = peak.max(built.saturating_add(work));
        built = built.saturating_add(table);
    }
    peak
}

/// The rank of a placement: `cells[i]` is the cell of the i-th tile; mixed radix `n, n-1, ...`.
#[inline]
pub(crate) fn rank(cells: &[u8], n: usize) -> usize {
    let (mut index, mut used) = (0usize, 0u64);
    for (i, &c) in cells.iter().enumerate() {
        (index, used) = rank_step(index, used, i, c, n);
    }
    index
}

/// One digit of [`rank`]: the running index and occupied mask after cell `i` is at `c`.
#[inline(always)]
fn rank_step(index: usize, used: u64, i: usize, c: u8, n: usize) -> (usize, u64) {
    let below = (used & ((1u64 << c) - 1)).count_ones() as usize;
    (index * (n - i) + c as usize - below, used | 1u64 << c)
}

/// Rank prefixes of a placement of `k` cells: `index[i]` and `used[i]` are [`rank`]'s running
/// index and occupied mask before cell `i`, so that a placement differing from cell `i` on is
/// re-ranked from there ([`rank_moved`]).
#[inline]
fn rank_prefixes(cells: &[u8], k: usize, n: usize, index: &mut [usize], used: &mut [u64]) {
    let (mut acc, mut u) = (0usize, 0u64);
    for i in 0..k {
        (index[i], used[i]) = (acc, u);
        (acc, u) = rank_step(acc, u, i, cells[i], n);
    }
}

/// The rank of the placement `cells[..k]` with cell `i` moved to `to`, from its prefixes.
#[inline]
fn rank_moved(
    cells: &[u8],
    k: usize,
    n: usize,
    i: usize,
    to: u8,
    prefixes: (&[usize], &[u64]),
) -> usize {
    let (mut acc, mut u) = (prefixes.0[i], prefixes.1[i]);
    for (x, &c) in cells.iter().enumerate().take(k).skip(i) {
        (acc, u) = rank_step(acc, u, x, if x == i { to } else { c }, n);
    }
    acc
}

/// The placement of a rank (inverse of [`rank`]); returns the occupied-cell mask.
fn unrank(mut index: usize, k: usize, n: usize, cells: &mut [u8]) -> u64 {
    let mut digits = [0usize; MAX_CELLS];
    for i in (0..k).rev() {
        let radix = n - i;
        digits[i] = index % radix;
        index /= radix;
    }
    let mut used: u64 = 0;
    for i in 0..k {
        // The digits[i]-th free cell.
        let mut free = !used & low_mask(n);
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        let c = free.trailing_zeros() as u8;
        cells[i] = c;
        used |= 1u64 << c;
    }
    used
}

fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Why groups of tiles cannot make a pattern database, or why a database cannot guide the
/// search of a puzzle. Groups are counted from 0, in the order given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PdbError {
    /// The board has more cells than a database handles.
    #[error("a board of {cells} cells is too large for pattern databases (at most {MAX_CELLS})")]
    TooManyCells {
        /// The board's cells.
        cells: usize,
    },
    /// A group holds no tile.
    #[error("group {group} holds no tile")]
    EmptyGroup {
        /// The group.
        group: usize,
    },
    /// A group holds the blank, or a number that is no tile of the board.
    #[error("group {group}: {tile} is not a tile of a board of {cells} cells ({})", tile_range(*.cells))]
    NotATile {
        /// The group.
        group: usize,
        /// The number given.
        tile: u8,
        /// The board's cells.
        cells: usize,
    },
    /// Two groups share a tile: their distances would be counted twice, and the sum would
    /// overestimate (no longer give shortest solutions).
    #[error("tile {tile} is in groups {first} and {second}: groups must not share tiles")]
    Shared {
        /// The tile.
        tile: u8,
        /// The first group holding it.
        first: usize,
        /// The other group holding it (the same group if it is there twice).
        second: usize,
    },
    /// A tile in no group.
    #[error("tile {tile} is in no group: the groups must hold every tile")]
    Uncovered {
        /// The lowest tile missing.
        tile: u8,
    },
    /// The database was built for a board of another shape.
    #[error("the pattern database is for a {built} board, not {wanted}")]
    OtherShape {
        /// The shape it was built for.
        built: Shape,
        /// The puzzle's shape.
        wanted: Shape,
    },
    /// The database was built for another goal: its distances are to that goal.
    #[error("the pattern database is for the goal {built:?}, not {wanted:?}")]
    OtherGoal {
        /// The goal it was built for.
        built: Vec<u8>,
        /// The puzzle's goal.
        wanted: Vec<u8>,
    },
}

/// The tiles of a board of `cells` cells, in words.
fn tile_range(cells: usize) -> String {
    match cells {
        0 | 1 => "it has none".into(),
        _ => format!("tiles are 1 to {}", cells - 1),
    }
}

/// Checks that `groups` split the tiles of a board of `cells` cells: every tile (not the
/// blank) in exactly one group, no group empty.
pub fn check_groups(cells: usize, groups: &[Vec<u8>]) -> Result<(), PdbError> {
    if cells > MAX_CELLS {
        return Err(PdbError::TooManyCells { cells });
    }
    let mut group_of = [usize::MAX; MAX_CELLS];
    for (group, tiles) in groups.iter().enumerate() {
        if tiles.is_empty() {
            return Err(PdbError::EmptyGroup { group });
        }
        for &tile in tiles {
            if tile == 0 || usize::from(tile) >= cells {
                return Err(PdbError::NotATile { group, tile, cells });
            }
            let first = std::mem::replace(&mut group_of[usize::from(tile)], group);
            if first != usize::MAX {
                return Err(PdbError::Shared {
                    tile,
                    first,
                    second: group,
                });
            }
        }
    }
    match (1..cells).find(|&t| group_of[t] == usize::MAX) {
        Some(tile) => Err(PdbError::Uncovered { tile: tile as u8 }),
        None => Ok(()),
    }
}

/// A set of additive disjoint patterns covering every tile of a board and goal.
#[derive(Clone, Debug)]
pub struct PatternDb {
    shape: Shape,
    /// The goal the distances are to, tile by cell.
    goal: Vec<u8>,
    patterns: Vec<Pattern>,
    /// `group_of[tile]`: which pattern holds the tile.
    group_of: [u8; MAX_CELLS],
    /// `slot_of[tile]`: the tile's position within its pattern.
    slot_of: [u8; MAX_CELLS],
    /// What happened to each table (loaded, built, rebuilt and why, not cached and why).
    reports: Arc<[TableReport]>,
    /// The reflection about the main diagonal, when the board is square and the blank's goal
    /// cell lies on the diagonal: `(cell map, tile map)`. The reflected layout (tile `tile[t]`
    /// in cell `cell[c]` for each tile `t` in cell `c`) is exactly as far from the goal, so the
    /// larger of the two lookups is still admissible (Korf and Felner 2002).
    mirror: Option<Mirror>,
}

/// A reflection of layouts that maps the goal to itself.
#[derive(Clone, Debug)]
pub(crate) struct Mirror {
    /// `cell[c]`: the reflected cell.
    pub cell: [u8; MAX_CELLS],
    /// `tile[t]`: the tile whose goal cell is the reflection of `t`'s.
    pub tile: [u8; MAX_CELLS],
}

impl Mirror {
    /// The transposition of a square board, if the blank's goal cell is on the diagonal.
    pub(crate) fn of(tables: &Tables) -> Option<Mirror> {
        let (rows, cols) = (tables.shape.rows(), tables.shape.cols());
        let blank = tables.goal_cell[0] as usize;
        if rows != cols || blank / cols != blank % cols {
            return None;
        }
        let mut cell = [0u8; MAX_CELLS];
        let mut tile = [0u8; MAX_CELLS];
        for (c, m) in cell.iter_mut().enumerate().take(rows * cols) {
            *m = ((c % cols) * cols + c / cols) as u8;
        }
        for t in 0..rows * cols {
            tile[t] = tables.goal[cell[tables.goal_cell[t] as usize] as usize];
        }
        Some(Mirror { cell, tile })
    }
}

/// The default split of a board's tiles into groups, by goal cell in reading order: 6-6-3 on the
/// 15-puzzle (Korf and Felner 2002's split; the blank-aware 7-8 would need a 4-billion-entry
/// build), 6-6-6-6 on the 24-puzzle (large: about 510 MB, built only on request); other boards
/// get groups as large as keep each build at or under 2^26 (placement, blank) entries, the last
/// group taking the rest (one group of all 8 tiles on the 8-puzzle: exact distances).
pub fn default_sizes(shape: Shape) -> Vec<usize> {
    let n = shape.cells();
    let tiles = n - 1;
    match n {
        16 => return vec![6, 6, 3],
        25 => return vec![6, 6, 6, 6],
        _ => {}
    }
    let mut k = 1;
    while k < tiles && placements(n, k + 1).saturating_mul((n - k - 1) as u64) <= 1 << 26 {
        k += 1;
    }
    let mut sizes = vec![k; tiles / k];
    let rest = tiles - k * (tiles / k);
    if rest > 0 {
        sizes.push(rest);
    }
    sizes
}

/// The default groups of a board and goal: runs of [`default_sizes`] in goal reading order.
///
/// On the 15-puzzle, reading-order runs (rows) beat compact 2x3 blocks such as
/// `{4,5,8,9,12,13} {6,7,10,11,14,15} {1,2,3}` once the reflected lookup is added (the
/// reflection turns rows into columns): fewer nodes over Korf's 100 instances (the `korf100`
/// example; `benches/RESULTS.md`).
pub fn default_groups(shape: Shape, goal: &[u8]) -> Option<Vec<Vec<u8>>> {
    groups_by_sizes(shape, goal, &default_sizes(shape))
}

/// Splits the tiles into consecutive groups of `sizes` by their goal cell in reading order.
/// `None` if the sizes do not add up to the number of tiles, or if the board has more than
/// [`MAX_CELLS`] cells.
pub fn groups_by_sizes(shape: Shape, goal: &[u8], sizes: &[usize]) -> Option<Vec<Vec<u8>>> {
    let tiles: Vec<u8> = goal.iter().copied().filter(|&t| t != 0).collect();
    if shape.cells() > MAX_CELLS
        || sizes.iter().sum::<usize>() != tiles.len()
        || sizes.contains(&0)
        || tiles.len() + 1 != shape.cells()
    {
        return None;
    }
    let mut out = Vec::new();
    let mut at = 0;
    for &s in sizes {
        out.push(tiles[at..at + s].to_vec());
        at += s;
    }
    Some(out)
}

/// The largest pattern table [`choose_groups`] allows a group: one byte an entry, 2 GiB.
pub const MAX_TABLE_ENTRIES: u64 = 1 << 31;

/// Why [`choose_groups`] chose no groups for a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GroupsError {
    /// The board has more cells than a database handles.
    #[error("pattern databases are built for boards of up to {MAX_CELLS} cells, and this {shape} board has {}", shape.cells())]
    BoardTooLarge {
        /// The board.
        shape: Shape,
    },
    /// The sizes are not whole numbers separated by `-`, `,` or `+`.
    #[error("`{text}`: expected group sizes such as 6-6-3")]
    NotSizes {
        /// The sizes as given.
        text: String,
    },
    /// A size is 0, or the sizes do not add up to the number of tiles.
    #[error(
        "`{text}`: the group sizes must be positive and add up to {tiles} (the number of tiles)"
    )]
    WrongSizes {
        /// The sizes as given.
        text: String,
        /// The board's tiles.
        tiles: usize,
    },
    /// A group's table would have more than [`MAX_TABLE_ENTRIES`] entries.
    #[error("a group of {tiles} tiles on {cells} cells needs {entries} table entries (at most {MAX_TABLE_ENTRIES} allowed)")]
    TableTooLarge {
        /// The group's tiles.
        tiles: usize,
        /// The board's cells.
        cells: usize,
        /// The table's entries ([`placements`]: `u64::MAX` for more than a `u64` holds).
        entries: u64,
    },
    /// The board has no default split ([`default_groups`]).
    #[error("no default pattern groups")]
    NoDefault,
}

/// The groups of tiles whose pattern databases guide the search of `puzzle`: those of
/// `sizes` (group sizes in goal reading order, `6-6-3`, also written `6,6,3` or `6+6+3`), or
/// the [default ones](default_groups); refused when the board is too large for databases or
/// a group's table would pass [`MAX_TABLE_ENTRIES`].
pub fn choose_groups(puzzle: &Puzzle, sizes: Option<&str>) -> Result<Vec<Vec<u8>>, GroupsError> {
    let shape = puzzle.shape();
    if shape.cells() > MAX_CELLS {
        return Err(GroupsError::BoardTooLarge { shape });
    }
    let groups = match sizes {
        Some(text) => {
            let sizes: Vec<usize> = text
                .split(['-', ',', '+'])
                .map(|s| s.trim().parse::<usize>())
                .collect::<Result<_, _>>()
                .map_err(|_| GroupsError::NotSizes {
                    text: text.to_owned(),
                })?;
            groups_by_sizes(shape, puzzle.goal(), &sizes).ok_or_else(|| {
                GroupsError::WrongSizes {
                    text: text.to_owned(),
                    tiles: shape.cells() - 1,
                }
            })?
        }
        None => default_groups(shape, puzzle.goal()).ok_or(GroupsError::NoDefault)?,
    };
    for group in &groups {
        let entries = placements(shape.cells(), group.len());
        if entries > MAX_TABLE_ENTRIES {
            return Err(GroupsError::TableTooLarge {
                tiles: group.len(),
                cells: shape.cells(),
                entries,
            });
        }
    }
    Ok(groups)
}

impl PatternDb {
    /// Builds every table now, in memory, calling `progress` with the table's index (from 0,
    /// in the order of `groups`) as entries fill; refuses groups that do not [split the
    /// tiles](check_groups). Memory: [`build_bytes`] at the peak.
    pub fn build(
        tables: &Tables,
        groups: &[Vec<u8>],
        progress: &(dyn Fn(usize, BuildProgress) + Sync),
    ) -> Result<PatternDb, PdbError> {
        check_groups(tables.cells(), groups)?;
        let mut patterns = Vec::new();
        let mut reports = Vec::new();
        for (i, g) in groups.iter().enumerate() {
            let report = |p| progress(i, p);
            let table = build_pattern(tables, g, &report, &|| None)
                .expect("a build with no limit check ends");
            patterns.push(Pattern {
                tiles: g.clone(),
                table,
            });
            reports.push(TableReport::built(spec(tables, g).key));
        }
        Ok(PatternDb::assemble(tables, patterns, reports))
    }

    /// Loads each table from `cache`, or builds and saves it when it is missing or damaged
    /// (wrong header, key, size or checksum; see [`frontier_tables::file`]). An unwritable
    /// cache is not an error: the table is still built and used, and its
    /// [report](PatternDb::cache_report) says why it was not saved.
    ///
    /// A build asks `stop` at every chunk of entries and gives up when it names a limit (a
    /// timeout, Ctrl-C: a 5x5 table takes minutes): then `Ok(None)`, and nothing is written.
    /// Groups that do not [split the tiles](check_groups) are refused before anything is read.
    ///
    /// The cache keeps at most 2 GiB of tables: before a table is written, the least recently
    /// used ones (never one of `groups`) are removed to make room for it, and a table that
    /// does not fit beside the other tables of `groups` is used but not written.
    pub fn load_or_build(
        cache: &Cache,
        tables: &Tables,
        groups: &[Vec<u8>],
        progress: &(dyn Fn(usize, BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
    ) -> Result<Option<PatternDb>, PdbError> {
        check_groups(tables.cells(), groups)?;
        Ok(PatternDb::load_or_build_within(
            cache,
            tables,
            groups,
            progress,
            stop,
            CACHE_BUDGET,
        ))
    }

    /// [`PatternDb::load_or_build`] with a cache of at most `budget` bytes of tables, for
    /// groups already checked.
    fn load_or_build_within(
        cache: &Cache,
        tables: &Tables,
        groups: &[Vec<u8>],
        progress: &(dyn Fn(usize, BuildProgress) + Sync),
        stop: &(dyn Fn() -> Option<Limit> + Sync),
        budget: u64,
    ) -> Option<PatternDb> {
        let used: Vec<PathBuf> = groups
            .iter()
            .map(|g| cache.path(&spec(tables, g)))
            .collect();
        let mut patterns = Vec::new();
        let mut reports = Vec::new();
        for (i, g) in groups.iter().enumerate() {
            let spec = spec(tables, g);
            let report = |p| progress(i, p);
            let build = || build_pattern(tables, g, &report, stop);
            let admit = |path: &Path| {
                // A damaged or outdated file of this table is replaced: it takes no room
                // meanwhile.
                let _ = fs::remove_file(path);
                let size = spec.file_bytes();
                let others = trim_cache(cache.dir(), &used, budget.saturating_sub(size));
                others.saturating_add(size) <= budget
            };
            let (table, report) = cache
                .load_or_build_admitting(&spec, |len| vec![0; len], build, admit)
                .ok()?;
            if report.origin == Origin::Cache {
                // Marked as used, for the cache's least-recently-used order.
                let _ = fs::File::options()
                    .write(true)
                    .open(&report.path)
                    .and_then(|f| f.set_modified(std::time::SystemTime::now()));
            }
            patterns.push(Pattern {
                tiles: g.clone(),
                table,
            });
            reports.push(report);
        }
        Some(PatternDb::assemble(tables, patterns, reports))
    }

    /// The tables of `groups` from `cache` (for frontier's own, [`crate::default_cache`]), or
    /// built and saved there, with no progress shown and no way to stop: for examples, tests
    /// and benchmarks.
    pub fn cached(
        cache: &Cache,
        tables: &Tables,
        groups: &[Vec<u8>],
    ) -> Result<PatternDb, PdbError> {
        let db = PatternDb::load_or_build(cache, tables, groups, &|_, _| {}, &|| None)?;
        Ok(db.expect("a build with no limit check ends"))
    }

    fn assemble(tables: &Tables, patterns: Vec<Pattern>, reports: Vec<TableReport>) -> PatternDb {
        let mut group_of = [u8::MAX; MAX_CELLS];
        let mut slot_of = [0u8; MAX_CELLS];
        for (g, p) in patterns.iter().enumerate() {
            for (s, &t) in p.tiles.iter().enumerate() {
                group_of[t as usize] = g as u8;
                slot_of[t as usize] = s as u8;
            }
        }
        PatternDb {
            shape: tables.shape,
            goal: tables.goal().to_vec(),
            patterns,
            group_of,
            slot_of,
            reports: reports.into(),
            mirror: Mirror::of(tables),
        }
    }

    /// The patterns.
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// Where each table came from (cache, built, rebuilt), in the order of the groups.
    pub fn origins(&self) -> Vec<Origin> {
        self.reports.iter().map(|r| r.origin).collect()
    }

    /// What happened to each table, in the order of the groups: where it came from, why a
    /// cached file was rebuilt, why it could not be saved.
    pub fn cache_report(&self) -> &[TableReport] {
        &self.reports
    }

    /// The board shape the tables are for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal the tables give distances to, tile by cell.
    pub fn goal(&self) -> &[u8] {
        &self.goal
    }

    /// Whether these tables can guide a search on `tables`' board to its goal: the same shape
    /// and goal (a database for another goal would give wrong distances, and answers that are
    /// not the shortest).
    pub fn check_fits(&self, tables: &Tables) -> Result<(), PdbError> {
        if self.shape != tables.shape() {
            return Err(PdbError::OtherShape {
                built: self.shape,
                wanted: tables.shape(),
            });
        }
        if self.goal != tables.goal() {
            return Err(PdbError::OtherGoal {
                built: self.goal.clone(),
                wanted: tables.goal().to_vec(),
            });
        }
        Ok(())
    }

    /// The total size of the tables in bytes (one byte per entry).
    pub fn bytes(&self) -> u64 {
        self.patterns.iter().map(|p| p.len() as u64).sum()
    }

    /// Which pattern holds `tile`, and the tile's slot in it.
    #[inline]
    pub(crate) fn locate(&self, tile: u8) -> (usize, usize) {
        (
            self.group_of[tile as usize] as usize,
            self.slot_of[tile as usize] as usize,
        )
    }

    /// The value of pattern `g` given the cell of every tile (`cell_of[tile]`).
    #[inline]
    pub(crate) fn value(&self, g: usize, cell_of: &[u8; MAX_CELLS]) -> u32 {
        let p = &self.patterns[g];
        let n = self.shape.cells();
        let mut used: u64 = 0;
        let mut index = 0usize;
        for (i, &t) in p.tiles.iter().enumerate() {
            let c = cell_of[t as usize];
            let below = used & ((1u64 << c) - 1);
            index = index * (n - i) + (c as usize - below.count_ones() as usize);
            used |= 1u64 << c;
        }
        p.table[index] as u32
    }

    /// The heuristic of a layout: the sum of the patterns' distances, or on a square board with
    /// the blank's goal on the diagonal the larger of that sum and the sum for the reflected
    /// layout.
    pub fn estimate(&self, board: &[u8]) -> u32 {
        let mut cell_of = [0u8; MAX_CELLS];
        for (cell, &t) in board.iter().enumerate() {
            cell_of[t as usize] = cell as u8;
        }
        let direct = (0..self.patterns.len())
            .map(|g| self.value(g, &cell_of))
            .sum();
        match &self.mirror {
            None => direct,
            Some(m) => {
                let mut reflected = [0u8; MAX_CELLS];
                for (cell, &t) in board.iter().enumerate() {
                    reflected[m.tile[t as usize] as usize] = m.cell[cell];
                }
                let r: u32 = (0..self.patterns.len())
                    .map(|g| self.value(g, &reflected))
                    .sum();
                direct.max(r)
            }
        }
    }

    /// The reflection used by [`PatternDb::estimate`], if any.
    pub(crate) fn mirror(&self) -> Option<&Mirror> {
        self.mirror.as_ref()
    }
}

/// Builds one group's table, reporting to `progress`, or the limit `stop` named first (it
/// is asked at every chunk of entries): tracking the blank when the (placement, blank) space
/// has at most [`BLANK_AWARE_LIMIT`] entries, else the coarser relaxation where every
/// non-pattern cell acts as a blank.
fn build_pattern(
    tables: &Tables,
    group: &[u8],
    progress: &(dyn Fn(BuildProgress) + Sync),
    stop: &(dyn Fn() -> Option<Limit> + Sync),
) -> Result<Vec<u8>, Limit> {
    let n = tables.cells();
    let home: Vec<u8> = group
        .iter()
        .map(|&t| tables.goal_cell[t as usize])
        .collect();
    let k = group.len();
    let builder = Builder::new().progress(progress).stop(stop);
    if !tracks_blank(n, k) {
        let space = Placements { tables, k };
        return builder.backwards(true).build(&space, &[rank(&home, n)]);
    }
    let space = BlankAware::new(tables, k);
    let home_used = home.iter().fold(0u64, |u, &c| u | 1 << c);
    let start = rank(&home, n) * space.free;
    let mut region = space.region(home_used, 1 << tables.goal_cell[0]);
    let mut starts = Vec::new();
    while region != 0 {
        starts.push(start + space.slot(home_used, region.trailing_zeros() as u8));
        region &= region - 1;
    }
    let distances = builder.build(&space, &starts)?;
    // A placement's distance: the least over the cells of its blank.
    Ok(distances
        .par_chunks(space.free)
        .map(|c| c.iter().copied().min().unwrap_or(UNREACHED))
        .collect())
}

/// The largest (placement, blank cell) space built with the blank tracked (one byte each).
pub const BLANK_AWARE_LIMIT: u64 = 1 << 30;

/// The bit mask of the cells next to any cell of `set`.
#[inline]
fn spread(set: u64, cols: usize, not_left: u64, not_right: u64, all: u64) -> u64 {
    ((set << cols) | (set >> cols) | ((set << 1) & not_left) | ((set >> 1) & not_right)) & all
}

/// A worker's cursor over placements: the last placement unranked (its rank, cells,
/// occupied mask and rank prefixes), which consecutive entries of [`BlankAware`] share.
struct Unranked {
    rank: usize,
    cells: [u8; MAX_CELLS],
    used: u64,
    prefix_index: [usize; MAX_CELLS],
    prefix_used: [u64; MAX_CELLS],
}

impl Unranked {
    fn new() -> Unranked {
        Unranked {
            rank: usize::MAX,
            cells: [0; MAX_CELLS],
            used: 0,
            prefix_index: [0; MAX_CELLS],
            prefix_used: [0; MAX_CELLS],
        }
    }

    /// Unranks placement `rank` of `k` tiles on `n` cells, unless it is the last one.
    #[inline]
    fn load(&mut self, rank: usize, k: usize, n: usize) {
        if self.rank != rank {
            self.rank = rank;
            self.used = unrank(rank, k, n, &mut self.cells);
            // Rank prefixes, so a successor moving tile i re-ranks only from i on.
            rank_prefixes(
                &self.cells,
                k,
                n,
                &mut self.prefix_index,
                &mut self.prefix_used,
            );
        }
    }

    /// The rank after tile `i` moves to `to`.
    #[inline]
    fn moved(&self, k: usize, n: usize, i: usize, to: u8) -> usize {
        let prefixes = (&self.prefix_index[..], &self.prefix_used[..]);
        rank_moved(&self.cells, k, n, i, to, prefixes)
    }
}

/// The placements of one group's `k` tiles, where a pattern tile may slide into any cell no
/// other pattern tile holds (every other cell acts as a blank: weaker than [`BlankAware`],
/// but with no blank in the state). Every move is undone by a move.
struct Placements<'a> {
    tables: &'a Tables,
    k: usize,
}

impl Coordinates for Placements<'_> {
    type Cursor = Unranked;

    fn len(&self) -> usize {
        placements(self.tables.cells(), self.k) as usize
    }

    fn branching(&self) -> usize {
        4 * self.k
    }

    fn cursor(&self) -> Unranked {
        Unranked::new()
    }

    #[inline]
    fn each_successor(
        &self,
        rank: usize,
        at: &mut Unranked,
        visit: &mut impl Visit,
    ) -> ControlFlow<()> {
        let (n, k) = (self.tables.cells(), self.k);
        at.load(rank, k, n);
        for i in 0..k {
            for &to in &self.tables.neighbours[at.cells[i] as usize] {
                if to == NONE || at.used & (1u64 << to) != 0 {
                    continue;
                }
                visit.visit(at.moved(k, n, i, to as u8))?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// The (placement, blank) space of one group: entry `placement * free + slot`, the blank in
/// the `slot`-th free cell. The blank wanders at no cost among the cells no pattern tile
/// holds, so the entries of a region of free cells are reached together, and the region is
/// expanded once, from its lowest cell: a pattern tile moves (cost 1) into any cell of the
/// region, which gives the new placement and the region the blank is then in (the one of
/// the cell the tile left).
struct BlankAware<'a> {
    tables: &'a Tables,
    k: usize,
    /// Free cells: the board's cells less the group's tiles.
    free: usize,
    cols: usize,
    all: u64,
    /// The cells not in the first column (targets of a shift by one to the right).
    not_left: u64,
    /// The cells not in the last column.
    not_right: u64,
}

impl<'a> BlankAware<'a> {
    fn new(tables: &'a Tables, k: usize) -> BlankAware<'a> {
        let n = tables.cells();
        let cols = tables.shape.cols();
        let (mut not_left, mut not_right) = (0u64, 0u64);
        for c in 0..n {
            if c % cols != 0 {
                not_left |= 1 << c;
            }
            if c % cols != cols - 1 {
                not_right |= 1 << c;
            }
        }
        BlankAware {
            tables,
            k,
            free: n - k,
            cols,
            all: low_mask(n),
            not_left,
            not_right,
        }
    }

    /// The cells next to any cell of `set`.
    #[inline]
    fn spread(&self, set: u64) -> u64 {
        spread(set, self.cols, self.not_left, self.not_right, self.all)
    }

    /// The free cells (not in `used`) connected to `from` through free cells.
    #[inline]
    fn region(&self, used: u64, from: u64) -> u64 {
        let free = !used & self.all;
        let mut r = from;
        loop {
            let grown = r | (self.spread(r) & free);
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// The slot of free cell `cell` among the cells not in `used`.
    #[inline]
    fn slot(&self, used: u64, cell: u8) -> usize {
        cell as usize - (used & ((1u64 << cell) - 1)).count_ones() as usize
    }
}

impl Coordinates for BlankAware<'_> {
    type Cursor = Unranked;

    fn len(&self) -> usize {
        placements(self.tables.cells(), self.k) as usize * self.free
    }

    fn branching(&self) -> usize {
        4 * self.k
    }

    fn cursor(&self) -> Unranked {
        Unranked::new()
    }

    #[inline]
    fn each_successor(
        &self,
        rank: usize,
        at: &mut Unranked,
        visit: &mut impl Visit,
    ) -> ControlFlow<()> {
        let (n, k, m) = (self.tables.cells(), self.k, self.free);
        let (placement, s) = (rank / m, rank % m);
        at.load(placement, k, n);
        let used = at.used;
        // The blank's cell: the s-th free cell.
        let mut free = !used & self.all;
        for _ in 0..s {
            free &= free - 1;
        }
        let blank = free.trailing_zeros();
        let reg = self.region(used, 1 << blank);
        if reg.trailing_zeros() != blank {
            return ControlFlow::Continue(()); // expand each region once, from its lowest cell
        }
        let touching = self.spread(reg) & used;
        for i in 0..k {
            let from = at.cells[i];
            if touching & (1 << from) == 0 {
                continue;
            }
            for &to in &self.tables.neighbours[from as usize] {
                if to == NONE || reg & (1u64 << to) == 0 {
                    continue;
                }
                let next = at.moved(k, n, i, to as u8) * m;
                let used2 = used ^ (1u64 << from) ^ (1u64 << to);
                // A region is reached whole: one of its cells tells for all.
                if visit.reached(next + self.slot(used2, from)) {
                    continue;
                }
                let mut region = self.region(used2, 1 << from);
                while region != 0 {
                    visit.visit(next + self.slot(used2, region.trailing_zeros() as u8))?;
                    region &= region - 1;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The most bytes of pattern databases the cache keeps: four 5x5 goals' worth (about 510 MB
/// each with the default 6-6-6-6 split), or thousands of 15-puzzle goals (about 50 MB each).
const CACHE_BUDGET: u64 = 2 << 30;

/// Removes the least recently used pattern databases from the cache `dir` (by modification
/// time, which a load renews) until they take at most `budget` bytes, never one of `used`
/// (the tables of the puzzle at hand). Other files are left alone; what cannot be read or
/// removed is skipped. Returns the bytes of tables left (0 if `dir` cannot be read).
fn trim_cache(dir: &Path, used: &[PathBuf], budget: u64) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut tables: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            // Older versions' files too (`.bin`): they are rebuilt, never read again.
            name.starts_with("tiles-pdb-v") && (name.ends_with(".table") || name.ends_with(".bin"))
        })
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    let mut total: u64 = tables.iter().map(|t| t.1).sum();
    tables.sort();
    for (_, size, path) in tables {
        if total <= budget {
            break;
        }
        if !used.contains(&path) && fs::remove_file(&path).is_ok() {
            total -= size;
        }
    }
    total
}

/// What the table of `group` is, for the cache: its file (the board, the blank's goal cell
/// and the goal cells of the group's tiles: `tiles-pdb-v3-4x4-b15-0-1-2-3-4-5.table`), the
/// same as its key, a byte an entry, [`placements`] of them.
fn spec(tables: &Tables, group: &[u8]) -> TableSpec {
    let homes: Vec<String> = group
        .iter()
        .map(|&t| tables.goal_cell[t as usize].to_string())
        .collect();
    let name = format!(
        "tiles-pdb-v{VERSION}-{}-b{}-{}",
        tables.shape,
        tables.goal_cell[0],
        homes.join("-")
    );
    let entries = placements(tables.cells(), group.len());
    TableSpec::new(format!("{name}.table"), name, Width::Byte, entries)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::board::solved;

    #[test]
    fn groups_are_chosen_from_sizes_or_by_default_and_refused_when_too_large() {
        let fifteen = Puzzle::parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", None, None).unwrap();
        // The default 6-6-3 split of the 15-puzzle, in goal reading order.
        let default = choose_groups(&fifteen, None).unwrap();
        let sizes: Vec<usize> = default.iter().map(Vec::len).collect();
        assert_eq!(sizes, [6, 6, 3]);
        assert_eq!(default[0], [1, 2, 3, 4, 5, 6]);
        let seven_eight = choose_groups(&fifteen, Some("7+8")).unwrap();
        assert_eq!(seven_eight[1], (8..=15).collect::<Vec<u8>>());
        assert_eq!(
            choose_groups(&fifteen, Some("6-x")),
            Err(GroupsError::NotSizes { text: "6-x".into() })
        );
        assert_eq!(
            choose_groups(&fifteen, Some("6-6-2")),
            Err(GroupsError::WrongSizes {
                text: "6-6-2".into(),
                tiles: 15
            })
        );
        assert_eq!(
            choose_groups(&fifteen, Some("15-0")),
            Err(GroupsError::WrongSizes {
                text: "15-0".into(),
                tiles: 15
            })
        );
        // 36 cells, a group of 9: 36!/27! placements, past the table limit.
        let goal: Vec<String> = (1..36).chain([0]).map(|t| t.to_string()).collect();
        let six = Puzzle::parse(&goal.join(" "), None, None).unwrap();
        let refused = choose_groups(&six, Some("9-9-9-8")).unwrap_err();
        assert_eq!(
            refused,
            GroupsError::TableTooLarge {
                tiles: 9,
                cells: 36,
                entries: placements(36, 9)
            }
        );
        assert!(placements(36, 9) > MAX_TABLE_ENTRIES);
        let goal: Vec<String> = (1..81).chain([0]).map(|t| t.to_string()).collect();
        let nine = Puzzle::parse(&goal.join(" "), None, None).unwrap();
        let refused = choose_groups(&nine, None).unwrap_err();
        assert!(matches!(refused, GroupsError::BoardTooLarge { .. }));
        assert!(refused.to_string().contains("up to 64 cells"), "{refused}");
    }

    #[test]
    #[cfg(unix)]
    fn a_named_pipe_in_place_of_a_table_is_rebuilt_without_waiting_for_a_writer() {
        let dir = std::env::temp_dir().join(format!("frontier-tiles-fifo-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let shape = Shape::new(3, 3).unwrap();
        let tables = Tables::new(&solved(shape));
        let groups = groups_by_sizes(shape, &shape.default_goal(), &[4, 4]).unwrap();
        let path = dir.join(spec(&tables, &groups[0]).file);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Load on another thread: opening the pipe would block it until a writer came.
        let (send, receive) = std::sync::mpsc::channel();
        let cache = Cache::at(&dir);
        std::thread::spawn(move || {
            let db = PatternDb::load_or_build(&cache, &tables, &groups, &|_, _| {}, &|| None);
            let _ = send.send(db.map(|db| db.map(|db| db.cache_report()[0].to_string())));
        });
        let report = receive
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the load returns")
            .unwrap()
            .unwrap();
        assert!(report.contains("not a regular file"), "{report}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_cache_keeps_the_most_recently_used_tables_within_its_budget() {
        let dir = std::env::temp_dir().join(format!("frontier-tiles-trim-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let now = std::time::SystemTime::now();
        let file = |name: &str, size: usize, age: u64| {
            let path = dir.join(name);
            fs::write(&path, vec![0u8; size]).unwrap();
            let when = now - std::time::Duration::from_secs(age);
            let f = fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(when).unwrap();
            path
        };
        let oldest = file("tiles-pdb-v1-old.bin", 400, 300);
        let used = file("tiles-pdb-v2-used.bin", 300, 200);
        let older = file("tiles-pdb-v2-older.bin", 300, 100);
        let newest = file("tiles-pdb-v2-newest.bin", 300, 0);
        let other = file("notes.txt", 5000, 400);
        trim_cache(&dir, std::slice::from_ref(&used), 700);
        // 1300 bytes of tables for a budget of 700: the oldest go first, but never one in use.
        assert!(!oldest.exists() && !older.exists());
        assert!(used.exists() && newest.exists());
        assert!(
            other.exists(),
            "only pattern databases are the cache's business"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cache_never_grows_past_its_budget() {
        let dir = std::env::temp_dir().join(format!("frontier-tiles-cap-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // An older table of another puzzle, which must make room.
        let stale = dir.join("tiles-pdb-v2-stale.bin");
        fs::write(&stale, vec![0u8; 1000]).unwrap();
        let shape = Shape::new(3, 3).unwrap();
        let tables = Tables::new(&solved(shape));
        // Two tables of 3,024 entries: room for one of them only.
        let groups = groups_by_sizes(shape, &shape.default_goal(), &[4, 4]).unwrap();
        let budget = 4000;
        let load = || {
            let cache = Cache::at(&dir);
            PatternDb::load_or_build_within(&cache, &tables, &groups, &|_, _| {}, &|| None, budget)
                .unwrap()
        };
        let db = load();
        assert_eq!(db.patterns().len(), 2, "both tables are used");
        let sizes: Vec<u64> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .collect();
        assert_eq!(sizes.len(), 1, "{sizes:?}");
        assert!(sizes[0] <= budget);
        assert!(!stale.exists());
        assert_eq!(load().origins(), &[Origin::Cache, Origin::Built]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn build_bytes_count_the_tables_and_the_working_space() {
        let groups =
            |sizes: &[usize]| -> Vec<Vec<u8>> { sizes.iter().map(|&k| vec![0; k]).collect() };
        // The 8-puzzle's one table, with the blank: 9!/1! entries, and as many while building.
        assert_eq!(build_bytes(9, &groups(&[8])), 2 * 362_880);
        // 6-6-3: the second 6-tile build (10 blank cells, then its table) beside the first.
        assert_eq!(
            build_bytes(16, &groups(&[6, 6, 3])),
            5_765_760 + 11 * 5_765_760
        );
        // Twelve 5-tile tables on 8 x 8 (built without the blank), then 3 tiles with it.
        let five = placements(64, 5);
        assert_eq!(five, 914_941_440);
        let three = placements(64, 3);
        assert_eq!(
            build_bytes(64, &groups(&[5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 3])),
            12 * five + 62 * three
        );
        assert_eq!(placements(64, 63), u64::MAX);
        assert_eq!(build_bytes(64, &groups(&[63])), u64::MAX);
    }

    #[test]
    fn rank_round_trips() {
        let n = 9;
        let k = 4;
        let total = placements(n, k) as usize;
        let mut cells = [0u8; MAX_CELLS];
        for index in 0..total {
            unrank(index, k, n, &mut cells);
            assert_eq!(rank(&cells[..k], n), index);
        }
    }

    #[test]
    fn default_splits() {
        let s = |r, c| Shape::new(r, c).unwrap();
        assert_eq!(default_sizes(s(3, 3)), vec![8]);
        assert_eq!(default_sizes(s(4, 4)), vec![6, 6, 3]);
        assert_eq!(default_sizes(s(5, 5)), vec![6, 6, 6, 6]);
        assert_eq!(default_sizes(s(2, 3)), vec![5]);
        assert_eq!(default_sizes(s(3, 4)), vec![7, 4]);
        assert_eq!(default_sizes(s(6, 6)).iter().sum::<usize>(), 35);
    }

    #[test]
    fn cache_detects_damage_and_rebuilds() {
        let dir =
            std::env::temp_dir().join(format!("frontier-tiles-pdb-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let shape = Shape::new(3, 3).unwrap();
        let tables = Tables::new(&solved(shape));
        let groups = groups_by_sizes(shape, &shape.default_goal(), &[4, 4]).unwrap();
        let quiet = |_: usize, _: BuildProgress| {};
        let never = || None;
        let cache = Cache::at(&dir);
        let built = PatternDb::load_or_build(&cache, &tables, &groups, &quiet, &never)
            .unwrap()
            .unwrap();
        assert_eq!(built.origins(), &[Origin::Built, Origin::Built]);
        let cached = PatternDb::load_or_build(&cache, &tables, &groups, &quiet, &never)
            .unwrap()
            .unwrap();
        assert_eq!(cached.origins(), &[Origin::Cache, Origin::Cache]);
        assert_eq!(cached.patterns()[0].table, built.patterns()[0].table);
        // Flip one byte of the first table's data: the checksum catches it.
        let path = dir.join(spec(&tables, &groups[0]).file);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let repaired = PatternDb::load_or_build(&cache, &tables, &groups, &quiet, &never)
            .unwrap()
            .unwrap();
        assert_eq!(repaired.origins(), &[Origin::Rebuilt, Origin::Cache]);
        let warning = repaired.cache_report()[0].warning().unwrap();
        assert!(
            warning.contains("checksum") && warning.contains("rebuilt"),
            "{warning}"
        );
        assert_eq!(repaired.cache_report()[1].warning(), None);
        assert_eq!(repaired.patterns()[0].table, built.patterns()[0].table);
        // Truncate it: the size check catches it.
        fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let again = PatternDb::load_or_build(&cache, &tables, &groups, &quiet, &never)
            .unwrap()
            .unwrap();
        assert_eq!(again.origins()[0], Origin::Rebuilt);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stopped_build_gives_nothing_and_writes_nothing() {
        let dir =
            std::env::temp_dir().join(format!("frontier-tiles-pdb-stop-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let shape = Shape::new(3, 3).unwrap();
        let tables = Tables::new(&solved(shape));
        // Groups of two sizes; the stop is asked once per chunk of each layer.
        for sizes in [&[4, 4][..], &[8][..]] {
            let groups = groups_by_sizes(shape, &shape.default_goal(), sizes).unwrap();
            let asked = AtomicU64::new(0);
            // Stops at the second look: the first chunk of the first layer is done.
            let stop = || (asked.fetch_add(1, Ordering::Relaxed) >= 1).then_some(Limit::Cancelled);
            let cache = Cache::at(&dir);
            let db = PatternDb::load_or_build(&cache, &tables, &groups, &|_, _| {}, &stop);
            assert!(db.unwrap().is_none(), "{sizes:?}");
            assert!(asked.load(Ordering::Relaxed) >= 2);
            assert!(fs::read_dir(&dir).map_or(true, |mut d| d.next().is_none()));
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
