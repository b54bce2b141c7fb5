//! Shortest solutions over piece subsets: each orbit's pieces split into sets small enough
//! for a pruning table, a state tracked as where each set's pieces are and how they are
//! twisted, a move a table lookup per set.
//!
//! A set of `t` of an orbit's `n` pieces is one coordinate: the *place* of its pieces (a
//! partial permutation of the blocks, `n!/(n-t)!` values) and their *twists* (a digit each,
//! the last left out when the set is the whole orbit and the orbit's twists always sum to
//! 0). Every set of one orbit with as many pieces shares one move table over places, which
//! also gives the twist each move adds to each piece (it depends on the block the piece is
//! in); the twists are then added digit by digit (an exclusive or for flips, a table for
//! small sets of larger twists). The sets cover every piece, so the sets' values are the
//! whole state and the goal test compares them.
//!
//! The pruning tables are the sets' exact distances (4 bits an entry, 15 meaning 15 or
//! more), small sets packed together into one table; the estimate is their largest. IDA*
//! runs over canonical move sequences ([`Model::may_follow`]), each bound's subtrees below
//! the first two moves shared out among the threads; the first prefix (in the moves' order)
//! holding a solution gives the answer, so it is the same on any number of threads. On the 3x3x3 from its 48 facets with
//! 2^27 entries a table this is the corner orbit whole (8! x 3^7 = 88,179,840 entries) and
//! the edges as two sets of six (12!/6! x 2^6 = 42,577,920 each): Korf's tables (1997),
//! found from the orbits.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use frontier_search::{prefetch, Config, Limit, Outcome, Solution, Stats, Watch};
use frontier_tables::{Builder, Cache, Coordinates, Table, TableReport, TableSpec, Visit, Width};

use crate::coord::{Coords, OrbitMoves};
use crate::puzzle::Turn;
use crate::space::Model;

/// The most rows (places times moves) of one move table over places.
const MAX_PLACE_ROWS: u64 = 1 << 24;
/// The most twist values of a set whose digit-by-digit sums are tabled.
const MAX_SUM_TABLE: u32 = 2187;
/// The deepest bound searched.
const LONGEST: usize = 63;
/// The most sets of one pruning table.
const MAX_MEMBERS: usize = 16;
/// The version of the tables' layout, in their cache key.
const VERSION: u32 = 2;

/// The number of places of `t` pieces among `n` blocks: `n!/(n-t)!`.
fn places(n: usize, t: usize) -> u64 {
    (n - t + 1..=n).map(|x| x as u64).product()
}

/// The rank of the blocks `pos` (distinct, below `n`) as a partial permutation.
#[inline]
fn rank_places(pos: &[u8], n: usize) -> u32 {
    let mut used = 0u64;
    let mut rank = 0u64;
    for (i, &p) in pos.iter().enumerate() {
        let below = (used & ((1u64 << p) - 1)).count_ones();
        rank = rank * (n - i) as u64 + u64::from(u32::from(p) - below);
        used |= 1 << p;
    }
    rank as u32
}

/// The blocks of place rank `rank`, into `pos` (its length the number of pieces).
fn unrank_places(mut rank: u64, n: usize, pos: &mut [u8]) {
    let t = pos.len();
    let mut digits = [0u8; 64];
    for i in (0..t).rev() {
        let radix = (n - i) as u64;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (p, &d) in pos.iter_mut().zip(&digits) {
        let mut mask = free;
        for _ in 0..d {
            mask &= mask - 1;
        }
        let block = mask.trailing_zeros();
        free &= !(1u64 << block);
        *p = block as u8;
    }
}

/// The move table shared by the sets of one orbit with one number of pieces.
///
/// A set of some of the orbit's pieces reads its pieces' twists piece by piece: what a move
/// adds to each depends on the block it is in, so each row also holds the twists the move
/// adds to the set's pieces. A set of the whole orbit reads the twists block by block
/// instead (the twist in each block, whatever the piece): then a move's effect on them is
/// independent of the places, and has a small table of its own.
#[derive(Debug)]
struct Places {
    orbit: usize,
    count: usize,
    /// `rows[place * moves + m]`: the place move `m` leads to, shifted left by `shift`, and
    /// below it the twists it adds, a digit a piece (none for a whole orbit).
    rows: Vec<u32>,
    shift: u32,
    order: u8,
    /// Twist digits kept.
    digits: usize,
    /// `order^digits`.
    twists: u32,
    /// `sums[a * twists + b]`: twists `a` and `b` added digit by digit, for orders above 2
    /// and few values.
    sums: Option<Vec<u16>>,
    /// For a whole orbit, `whole[twist * moves + m]`: the block by block twists after move
    /// `m`.
    whole: Option<Vec<u32>>,
}

impl Places {
    fn new(orbit: &OrbitMoves, index: usize, count: usize, digits: usize) -> Places {
        let n = orbit.maps[0].len();
        let moves = orbit.maps.len();
        let order = orbit.order;
        let k = u32::from(order);
        let twists = k.pow(digits as u32);
        let whole = (count == n && order > 1 && u64::from(twists) * moves as u64 <= MAX_PLACE_ROWS)
            .then(|| {
                let mut table = Vec::with_capacity(twists as usize * moves);
                let (mut d, mut after) = (vec![0u32; n], vec![0u32; n]);
                for twist in 0..twists {
                    let (mut rest, mut sum) = (twist, 0);
                    for digit in &mut d[..digits] {
                        *digit = rest % k;
                        rest /= k;
                        sum += *digit;
                    }
                    // The whole orbit's twists sum to 0: the last block's is the rest.
                    if digits < n {
                        d[n - 1] = (k - sum % k) % k;
                    }
                    for (map, add) in orbit.maps.iter().zip(&orbit.add) {
                        for b in 0..n {
                            after[usize::from(map[b])] = (d[b] + u32::from(add[b])) % k;
                        }
                        table.push(after[..digits].iter().rev().fold(0, |x, &a| x * k + a));
                    }
                }
                table
            });
        let shift = match whole {
            Some(_) => 0,
            None => 32 - (twists - 1).leading_zeros(),
        };
        let len = places(n, count) as usize;
        let mut rows = Vec::with_capacity(len * moves);
        let mut pos = vec![0u8; count];
        let mut next = vec![0u8; count];
        for place in 0..len {
            unrank_places(place as u64, n, &mut pos);
            for (map, add) in orbit.maps.iter().zip(&orbit.add) {
                for (q, &p) in next.iter_mut().zip(&pos) {
                    *q = map[usize::from(p)];
                }
                let delta = match whole {
                    Some(_) => 0,
                    None => pos[..digits]
                        .iter()
                        .rev()
                        .fold(0u32, |d, &p| d * k + u32::from(add[usize::from(p)])),
                };
                rows.push((rank_places(&next, n) << shift) | delta);
            }
        }
        let sums = (whole.is_none() && order > 2 && twists <= MAX_SUM_TABLE).then(|| {
            let mut sums = Vec::with_capacity((twists * twists) as usize);
            for a in 0..twists {
                for b in 0..twists {
                    sums.push(digit_sum(a, b, order, digits) as u16);
                }
            }
            sums
        });
        Places {
            orbit: index,
            count,
            rows,
            shift,
            order,
            digits,
            twists,
            sums,
            whole,
        }
    }

    /// The bytes of the tables of `count` pieces of `orbit`, with `digits` twist digits.
    fn bytes(orbit: &OrbitMoves, count: usize, digits: usize) -> u64 {
        let n = orbit.maps[0].len();
        let moves = orbit.maps.len() as u64;
        let twists = u64::from(orbit.order).pow(digits as u32);
        let rows = places(n, count) * moves * 4;
        if count == n && orbit.order > 1 && twists * moves <= MAX_PLACE_ROWS {
            rows + twists * moves * 4
        } else if orbit.order > 2 && twists <= u64::from(MAX_SUM_TABLE) {
            rows + twists * twists * 2
        } else {
            rows
        }
    }

    /// Twists `a` and `b` added digit by digit.
    #[inline(always)]
    fn add(&self, a: u32, b: u32) -> u32 {
        match self.order {
            1 => 0,
            2 => a ^ b,
            _ => match &self.sums {
                Some(sums) => u32::from(sums[(a * self.twists + b) as usize]),
                None => digit_sum(a, b, self.order, self.digits),
            },
        }
    }
}

/// `a` and `b`, numbers of `digits` digits in base `order`, added digit by digit modulo
/// `order`.
fn digit_sum(mut a: u32, mut b: u32, order: u8, digits: usize) -> u32 {
    let k = u32::from(order);
    let (mut out, mut weight) = (0, 1);
    for _ in 0..digits {
        out += ((a % k + b % k) % k) * weight;
        a /= k;
        b /= k;
        weight *= k;
    }
    out
}

/// A set of pieces of one orbit, tracked together.
#[derive(Debug)]
struct Subset {
    /// The index of its move table in [`Optimal::places`].
    places: usize,
    pieces: Vec<u8>,
    /// Its values: places times twists.
    size: u64,
}

/// A pruning table over one or more sets (the first varying fastest in its rank).
#[derive(Debug)]
struct Pruning {
    members: Vec<usize>,
    mults: Vec<u64>,
    len: usize,
    table: Table,
}

/// The layout of the sets and tables of a model, before anything is built.
struct Layout {
    orbits: Vec<OrbitMoves>,
    /// Per set: orbit, pieces, twist digits kept.
    subsets: Vec<(usize, Vec<u8>, usize)>,
    /// Per table: its sets.
    groups: Vec<Vec<usize>>,
    /// Each set's size.
    sizes: Vec<u64>,
}

impl Layout {
    fn of(model: &Model, entries: usize) -> Option<Layout> {
        let orbits = Coords::orbit_moves(model)?;
        let moves = model.moves.len() as u64;
        let mut subsets = Vec::new();
        let mut sizes = Vec::new();
        for (o, orbit) in orbits.iter().enumerate() {
            let n = orbit.maps.first()?.len();
            if n > 64 {
                return None;
            }
            let digits = |t: usize| match orbit.order {
                1 => 0,
                _ if t == n && orbit.fixed_sum => t - 1,
                _ => t,
            };
            let size = |t: usize| {
                places(n, t).saturating_mul(u64::from(orbit.order).pow(digits(t) as u32))
            };
            let fits = |t: usize| {
                size(t) <= entries as u64 && places(n, t).saturating_mul(moves) <= MAX_PLACE_ROWS
            };
            let t = (1..=n).take_while(|&t| fits(t)).last()?;
            let mut start = 0;
            while start < n {
                let count = t.min(n - start);
                let pieces: Vec<u8> = (start..start + count).map(|p| p as u8).collect();
                subsets.push((o, pieces, digits(count)));
                sizes.push(size(count));
                start += count;
            }
        }
        // The sets into as few tables as fit, the largest first.
        let mut order: Vec<usize> = (0..subsets.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
        let mut bins: Vec<(u64, Vec<usize>)> = Vec::new();
        for i in order {
            match bins.iter_mut().find(|(len, m)| {
                m.len() < MAX_MEMBERS && len.saturating_mul(sizes[i]) <= entries as u64
            }) {
                Some((len, members)) => {
                    *len *= sizes[i];
                    members.push(i);
                }
                None => bins.push((sizes[i], vec![i])),
            }
        }
        Some(Layout {
            orbits,
            subsets,
            groups: bins.into_iter().map(|(_, m)| m).collect(),
            sizes,
        })
    }
}

/// A puzzle's shortest solver over piece subsets, for puzzles whose pieces can be told
/// apart, however many states they have: IDA* bounded by exact pruning tables over sets of
/// each orbit's pieces (their places and twists, moved by table lookups), the largest that fit
/// the entries allowed a table; for the 3x3x3 at 2^27 entries, Korf's tables (the corners,
/// two sets of six edges).
///
/// ```
/// use frontier_perm::{preset, Metric, Model, Optimal};
/// use frontier_search::Config;
/// use frontier_tables::Builder;
///
/// let cube = preset("cube3").unwrap().puzzle();
/// let model = Model::new(&cube, Metric::Htm);
/// let solver = Optimal::build(&model, 1 << 16, None, &Builder::new()).unwrap().unwrap();
/// let position = cube.apply(&cube.parse_moves("R U2 F'")?);
/// let outcome = solver.solve(&model.colours_of(&position), &Config::default());
/// let moves: Vec<String> = outcome.into_solution().unwrap().moves.iter().map(|&t| cube.turn_name(t)).collect();
/// assert_eq!(moves, ["F", "U2", "R'"]);
/// # Ok::<(), frontier_perm::ParseError>(())
/// ```
#[derive(Debug)]
pub struct Optimal {
    model: Model,
    turns: Vec<Turn>,
    /// `follows[(last + 1) * moves + next]`: whether `next` may follow `last` (row 0: the
    /// first move).
    follows: Vec<bool>,
    places: Vec<Places>,
    subsets: Vec<Subset>,
    tables: Vec<Pruning>,
    goal: Vec<u64>,
    reports: Vec<TableReport>,
}

/// A set's value: its place in the high half, its twists in the low.
#[inline(always)]
fn value(place: u32, twist: u32) -> u64 {
    (u64::from(place) << 32) | u64::from(twist)
}

impl Optimal {
    /// The bytes the tables of [`Optimal::build`] take (4 bits an entry, and the move
    /// tables); `None` if the model's pieces cannot be told apart.
    pub fn bytes_for(model: &Model, entries: usize) -> Option<u64> {
        let layout = Layout::of(model, entries)?;
        let tables: u64 = layout
            .groups
            .iter()
            .map(|g| Width::Four.bytes(g.iter().map(|&i| layout.sizes[i]).product()))
            .sum();
        let mut shared = Vec::new();
        for (o, pieces, digits) in &layout.subsets {
            if !shared.contains(&(*o, pieces.len(), *digits)) {
                shared.push((*o, pieces.len(), *digits));
            }
        }
        let moves: u64 = shared
            .iter()
            .map(|&(o, t, digits)| Places::bytes(&layout.orbits[o], t, digits))
            .sum();
        Some(tables + moves)
    }

    /// The solver of `model` with tables of at most `entries` entries each, loaded from
    /// `cache` or built there (and then saved) by `builder`; without a cache, built.
    /// `Ok(None)` if the model's pieces cannot be told apart (identical pieces, say); the
    /// builder's limit check stops the build.
    pub fn build(
        model: &Model,
        entries: usize,
        cache: Option<&Cache>,
        builder: &Builder,
    ) -> Result<Option<Optimal>, Limit> {
        Optimal::build_each(model, entries, cache, builder, &|_, _| {})
    }

    /// [`Optimal::build`], calling `starting(i, n)` before table `i` of `n` is loaded or
    /// built (for a progress message).
    pub fn build_each(
        model: &Model,
        entries: usize,
        cache: Option<&Cache>,
        builder: &Builder,
        starting: &dyn Fn(usize, usize),
    ) -> Result<Option<Optimal>, Limit> {
        let Some(layout) = Layout::of(model, entries) else {
            return Ok(None);
        };
        let mut places: Vec<Places> = Vec::new();
        let mut subsets = Vec::new();
        for ((o, pieces, digits), &size) in layout.subsets.iter().zip(&layout.sizes) {
            let index = match places
                .iter()
                .position(|p| p.orbit == *o && p.count == pieces.len())
            {
                Some(i) => i,
                None => {
                    places.push(Places::new(&layout.orbits[*o], *o, pieces.len(), *digits));
                    places.len() - 1
                }
            };
            subsets.push(Subset {
                places: index,
                pieces: pieces.clone(),
                size,
            });
        }
        let m = model.moves.len();
        let mut follows = vec![true; (m + 1) * m];
        for (last, l) in model.moves.iter().enumerate() {
            for (next, n) in model.moves.iter().enumerate() {
                follows[(last + 1) * m + next] = model.may_follow(l.turn, n.turn);
            }
        }
        let mut solver = Optimal {
            model: model.clone(),
            turns: model.turns().collect(),
            follows,
            places,
            subsets,
            tables: Vec::new(),
            goal: Vec::new(),
            reports: Vec::new(),
        };
        solver.goal = solver
            .values_of(&model.goal)
            .expect("the solved state reads as pieces");
        let n = layout.groups.len();
        for (i, members) in layout.groups.into_iter().enumerate() {
            starting(i, n);
            let mut mults = Vec::with_capacity(members.len());
            let mut len = 1u64;
            for &s in &members {
                mults.push(len);
                len *= solver.subsets[s].size;
            }
            let space = Group {
                solver: &solver,
                members: &members,
                mults: &mults,
                len: len as usize,
            };
            let goal = space.rank(&solver.goal) as usize;
            let build = || {
                let distances = builder.backwards(true).build(&space, &[goal])?;
                Ok(Table::pack(&distances, Width::Four).bytes().to_vec())
            };
            let bytes = match cache {
                Some(cache) => {
                    let key = solver.key(&members);
                    let file = format!(
                        "perm-pieces-{:016x}.table",
                        xxhash_rust::xxh3::xxh3_64(key.as_bytes())
                    );
                    let spec = TableSpec::new(file, key, Width::Four, len);
                    let (bytes, report) = cache.load_or_build(&spec, |l| vec![0; l], build)?;
                    solver.reports.push(report);
                    bytes
                }
                None => build()?,
            };
            let table = Table::from_bytes(Width::Four, len as usize, bytes)
                .expect("a table of the sets' size");
            solver.tables.push(Pruning {
                members,
                mults,
                len: len as usize,
                table,
            });
        }
        Ok(Some(solver))
    }

    /// The cache key of the table over `members`: everything its distances depend on.
    fn key(&self, members: &[usize]) -> String {
        let sets: Vec<String> = members
            .iter()
            .map(|&s| {
                let set = &self.subsets[s];
                let p = &self.places[set.places];
                format!("orbit {} pieces {:?}", p.orbit, set.pieces)
            })
            .collect();
        format!(
            "perm pieces v{VERSION} {} [{}]",
            self.model.fingerprint(),
            sets.join("; ")
        )
    }

    /// What happened to each table (loaded, built, rebuilt), when a cache was used.
    pub fn reports(&self) -> &[TableReport] {
        &self.reports
    }

    /// The number of pruning tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there is none (no position moves).
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The entries of each pruning table.
    pub fn entries(&self) -> Vec<u64> {
        self.tables.iter().map(|t| t.len as u64).collect()
    }

    /// The sets' values of a state's colours at the compact positions; `None` if they are
    /// not an arrangement of the puzzle's pieces.
    fn values_of(&self, colours: &[u8]) -> Option<Vec<u64>> {
        let orbits = Coords::read_pieces(&self.model, colours)?;
        let mut out = Vec::with_capacity(self.subsets.len());
        for set in &self.subsets {
            let p = &self.places[set.places];
            let (arrangement, twists) = &orbits[p.orbit];
            let n = arrangement.len();
            let mut pos = Vec::with_capacity(set.pieces.len());
            for &piece in &set.pieces {
                pos.push(arrangement.iter().position(|&a| a == piece)? as u8);
            }
            // A whole orbit's twists block by block, another's piece by piece.
            let blocks: Vec<u8> = match p.whole {
                Some(_) => (0..n as u8).collect(),
                None => pos.clone(),
            };
            let twist = blocks[..p.digits].iter().rev().fold(0u32, |d, &b| {
                d * u32::from(p.order) + u32::from(twists[usize::from(b)])
            });
            out.push(value(rank_places(&pos, n), twist));
        }
        Some(out)
    }

    /// A set's value after move `m`.
    #[inline(always)]
    fn step(&self, set: &Subset, v: u64, m: usize) -> u64 {
        let p = &self.places[set.places];
        let moves = self.turns.len();
        let row = p.rows[(v >> 32) as usize * moves + m];
        let twist = match &p.whole {
            Some(whole) => whole[(v & 0xffff_ffff) as usize * moves + m],
            None => p.add(row & ((1 << p.shift) - 1), v as u32),
        };
        value(row >> p.shift, twist)
    }

    /// A set's index in its tables: places times twists.
    #[inline(always)]
    fn index(&self, set: &Subset, v: u64) -> u64 {
        (v >> 32) * u64::from(self.places[set.places].twists) + (v & 0xffff_ffff)
    }

    /// The rank of the sets' values in `table`.
    #[inline(always)]
    fn rank(&self, table: &Pruning, values: &[u64]) -> usize {
        let rank: u64 = table
            .members
            .iter()
            .zip(&table.mults)
            .map(|(&s, &mult)| self.index(&self.subsets[s], values[s]) * mult)
            .sum();
        rank as usize
    }

    /// Whether the sets' largest distance is within `left` moves.
    #[inline]
    fn within(&self, values: &[u64], left: usize) -> bool {
        self.tables
            .iter()
            .all(|t| usize::from(t.table.get(self.rank(t, values))) <= left)
    }

    /// The least number of moves the state (its colours at the compact positions) needs, as
    /// far as the tables know; `None` if the colours are not an arrangement of its pieces.
    pub fn estimate(&self, colours: &[u8]) -> Option<u8> {
        let values = self.values_of(colours)?;
        Some(self.estimate_values(&values))
    }

    fn estimate_values(&self, values: &[u64]) -> u8 {
        (0..=u8::MAX)
            .find(|&d| self.within(values, usize::from(d)))
            .unwrap_or(u8::MAX)
    }

    /// A shortest solution of the state whose colours at the compact positions are `start`
    /// ([`Model::colours_of`]), in the model's metric, by IDA*; the outcome's states are
    /// left out. Limits: `max_depth`, `timeout` and `cancel`; with `threads` above one the
    /// workers share out the subtrees below the first two moves, and the answer is still the
    /// first shortest one in the moves' order. Colours that are no arrangement of the pieces
    /// are exhausted at once.
    pub fn solve(&self, start: &[u8], config: &Config) -> Outcome<(), Turn> {
        let Some(root) = self.values_of(start) else {
            return Outcome::Exhausted {
                stats: Stats::default(),
            };
        };
        let longest = config
            .max_depth
            .map_or(LONGEST, |d| (d as usize).min(LONGEST));
        let shared = Shared {
            solver: self,
            root: &root,
            watch: Watch::new(config),
            found: Mutex::new(None),
            first: AtomicUsize::new(usize::MAX),
            stopped: AtomicBool::new(false),
        };
        let mut counts = (0u64, 0u64);
        let mut found = (root == self.goal).then(Vec::new);
        let mut bound = usize::from(self.estimate_values(&root));
        let mut limit = None;
        while found.is_none() && bound <= longest {
            if let Some(l) = shared.watch.limit() {
                limit = Some(l);
                break;
            }
            let (e, g) = shared.search(bound, config.worker_threads());
            counts = (counts.0 + e, counts.1 + g);
            found = lock(&shared.found).take().map(|(_, path)| path);
            if found.is_some() {
                break;
            }
            if let Some(l) = shared.watch.stopped() {
                limit = Some(l);
                break;
            }
            bound += 1;
        }
        let stats = Stats {
            expanded: counts.0,
            generated: counts.1,
            stored: 0,
            peak_frontier: bound as u64,
            seconds: shared.watch.seconds(),
        };
        match found {
            Some(path) => Outcome::Solved {
                solution: Solution {
                    cost: path.len() as u64,
                    states: vec![(); path.len() + 1],
                    moves: path.iter().map(|&m| self.turns[m]).collect(),
                },
                stats,
            },
            None => Outcome::Stopped {
                limit: limit.unwrap_or(Limit::Depth),
                stats,
            },
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One pruning table's sets as a coordinate space, for the builder.
struct Group<'a> {
    solver: &'a Optimal,
    members: &'a [usize],
    mults: &'a [u64],
    len: usize,
}

impl Group<'_> {
    /// The rank of the sets' values (all the solver's sets).
    fn rank(&self, values: &[u64]) -> u64 {
        self.members
            .iter()
            .zip(self.mults)
            .map(|(&s, &mult)| self.solver.index(&self.solver.subsets[s], values[s]) * mult)
            .sum()
    }
}

impl Coordinates for Group<'_> {
    type Cursor = ();

    fn len(&self) -> usize {
        self.len
    }

    fn branching(&self) -> usize {
        self.solver.turns.len()
    }

    fn cursor(&self) {}

    fn each_successor(&self, rank: usize, _: &mut (), visit: &mut impl Visit) -> ControlFlow<()> {
        let solver = self.solver;
        let mut values = [0u64; MAX_MEMBERS];
        let mut rest = rank as u64;
        for (v, &s) in values.iter_mut().zip(self.members) {
            let set = &solver.subsets[s];
            let twists = u64::from(solver.places[set.places].twists);
            let i = rest % set.size;
            rest /= set.size;
            *v = value((i / twists) as u32, (i % twists) as u32);
        }
        for m in 0..solver.turns.len() {
            let mut next = 0u64;
            for ((&v, &s), &mult) in values.iter().zip(self.members).zip(self.mults) {
                let set = &solver.subsets[s];
                next += solver.index(set, solver.step(set, v, m)) * mult;
            }
            visit.visit(next as usize)?;
        }
        ControlFlow::Continue(())
    }
}

/// What the workers of one solve share.
struct Shared<'a> {
    solver: &'a Optimal,
    root: &'a [u64],
    watch: Watch<'a>,
    /// The solution of the first prefix (in the prefixes' order) that has one, with that
    /// prefix's index: the same answer whatever the number of threads.
    found: Mutex<Option<(usize, Vec<usize>)>>,
    /// The index of the first prefix known to hold a solution (`usize::MAX` if none): the
    /// prefixes after it need no search.
    first: AtomicUsize,
    /// Whether a limit was hit.
    stopped: AtomicBool,
}

impl Shared<'_> {
    /// Searches every canonical sequence of `bound` moves, the subtrees below the first two
    /// moves shared out among `threads` workers. Returns the nodes expanded and generated.
    fn search(&self, bound: usize, threads: usize) -> (u64, u64) {
        let solver = self.solver;
        let m = solver.turns.len();
        let mut prefixes: Vec<Vec<usize>> = vec![Vec::new()];
        for _ in 0..bound.min(2) {
            let mut longer = Vec::new();
            for p in &prefixes {
                let last = p.last().map_or(0, |&l| l + 1);
                for next in 0..m {
                    if solver.follows[last * m + next] {
                        longer.push([p.as_slice(), &[next]].concat());
                    }
                }
            }
            prefixes = longer;
        }
        let next = AtomicUsize::new(0);
        let work = || {
            let s = solver.subsets.len();
            let (m, t) = (solver.turns.len(), solver.tables.len());
            let mut worker = Worker {
                shared: self,
                levels: vec![0u64; (LONGEST + 2) * s],
                kids: vec![0u64; (LONGEST + 1) * m * s],
                ranks: vec![0usize; (LONGEST + 1) * m * t],
                moves: vec![0usize; (LONGEST + 1) * m],
                path: Vec::with_capacity(LONGEST + 1),
                expanded: 0,
                generated: 0,
                unchecked: 0,
                bound,
                current: 0,
            };
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= prefixes.len() || worker.must_end(i) {
                    break;
                }
                worker.current = i;
                worker.prefix(&prefixes[i]);
            }
            if let Some(limit) = self.watch.checkpoint(worker.unchecked, bound as u64) {
                self.watch.stop(limit);
            }
            (worker.expanded, worker.generated)
        };
        let threads = threads.clamp(1, prefixes.len().max(1));
        let mut counts = vec![(0, 0); threads];
        std::thread::scope(|scope| {
            let (first, others) = counts.split_at_mut(1);
            for count in others.iter_mut() {
                let work = &work;
                scope.spawn(move || *count = work());
            }
            first[0] = work();
        });
        counts
            .into_iter()
            .fold((0, 0), |(e, g), (a, b)| (e + a, g + b))
    }
}

/// One worker's depth-first search: the sets' values at each depth in `levels`, and each
/// depth's children (their values, ranks in each table and moves) in `kids`, `ranks` and
/// `moves`.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    levels: Vec<u64>,
    kids: Vec<u64>,
    ranks: Vec<usize>,
    moves: Vec<usize>,
    path: Vec<usize>,
    expanded: u64,
    generated: u64,
    /// Nodes expanded since the last checkpoint.
    unchecked: u64,
    bound: usize,
    /// The index of the prefix being searched.
    current: usize,
}

impl Worker<'_> {
    /// Whether the search of prefix `i` is of no more use: a limit was hit, or an earlier
    /// prefix holds a solution.
    #[inline(always)]
    fn must_end(&self, i: usize) -> bool {
        self.shared.stopped.load(Ordering::Relaxed) || self.shared.first.load(Ordering::Relaxed) < i
    }

    /// Plays `prefix` from the root, pruning as the search would, and searches below it.
    fn prefix(&mut self, prefix: &[usize]) {
        let s = self.shared.solver.subsets.len();
        self.levels[..s].copy_from_slice(self.shared.root);
        self.path.clear();
        if !self.shared.solver.within(&self.levels[..s], self.bound) {
            return;
        }
        for (depth, &m) in prefix.iter().enumerate() {
            self.generated += 1;
            if !self.child(depth, m, self.bound - depth - 1) {
                return;
            }
            self.path.push(m);
        }
        self.dive(prefix.len(), self.bound - prefix.len());
    }

    /// Writes the values after move `m` from depth `depth` at depth `depth + 1`; returns
    /// whether they are within `left` moves of the goal as far as the tables know.
    #[inline(always)]
    fn child(&mut self, depth: usize, m: usize, left: usize) -> bool {
        let solver = self.shared.solver;
        let s = solver.subsets.len();
        let (here, below) = self.levels.split_at_mut((depth + 1) * s);
        let here = &here[depth * s..];
        let next = &mut below[..s];
        for ((n, &v), set) in next.iter_mut().zip(here).zip(&solver.subsets) {
            *n = solver.step(set, v, m);
        }
        solver.within(next, left)
    }

    /// Searches below depth `depth` with `left` more moves to make; returns whether a
    /// solution was found (or the search must end).
    fn dive(&mut self, depth: usize, left: usize) -> bool {
        let solver = self.shared.solver;
        let s = solver.subsets.len();
        if left == 0 {
            if self.levels[depth * s..(depth + 1) * s] != solver.goal[..] {
                return false;
            }
            let mut found = lock(&self.shared.found);
            if found.as_ref().is_none_or(|(i, _)| self.current < *i) {
                *found = Some((self.current, self.path.clone()));
            }
            self.shared.first.fetch_min(self.current, Ordering::Relaxed);
            return true;
        }
        self.expanded += 1;
        self.unchecked += 1;
        if Watch::due(self.expanded) {
            if let Some(limit) = self
                .shared
                .watch
                .checkpoint(self.unchecked, self.bound as u64)
            {
                self.shared.watch.stop(limit);
                self.shared.stopped.store(true, Ordering::Relaxed);
            }
            self.unchecked = 0;
        }
        if self.must_end(self.current) {
            return true;
        }
        let m = solver.turns.len();
        let t = solver.tables.len();
        let last = self.path.last().map_or(0, |&l| l + 1);
        // Every child first, its tables' entries prefetched, so that the children's reads of
        // memory overlap; then the ones the bound keeps, in the moves' order.
        let base = depth * m;
        let mut alive = 0;
        for next in 0..m {
            if !solver.follows[last * m + next] {
                continue;
            }
            let c = base + alive;
            let kid = &mut self.kids[c * s..(c + 1) * s];
            for ((k, &v), set) in kid
                .iter_mut()
                .zip(&self.levels[depth * s..(depth + 1) * s])
                .zip(&solver.subsets)
            {
                *k = solver.step(set, v, next);
            }
            for (j, table) in solver.tables.iter().enumerate() {
                let rank = solver.rank(table, kid);
                self.ranks[c * t + j] = rank;
                prefetch(table.table.bytes().as_ptr().wrapping_add(rank / 2));
            }
            self.moves[c] = next;
            alive += 1;
        }
        self.generated += alive as u64;
        for c in base..base + alive {
            let ranks = &self.ranks[c * t..(c + 1) * t];
            let kept = solver
                .tables
                .iter()
                .zip(ranks)
                .all(|(table, &rank)| usize::from(table.table.get(rank)) < left);
            if !kept {
                continue;
            }
            self.levels[(depth + 1) * s..(depth + 2) * s]
                .copy_from_slice(&self.kids[c * s..(c + 1) * s]);
            self.path.push(self.moves[c]);
            if self.dive(depth + 1, left - 1) {
                return true;
            }
            self.path.pop();
        }
        false
    }
}
