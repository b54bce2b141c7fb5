//! A perfect rank of a puzzle's states as a product of small coordinates, each moved by a
//! table: how a full distance table is counted densely.
//!
//! Each orbit of the moved positions splits into its pieces (the blocks of positions that
//! always move together, such as the three facets of a cube corner). An orbit's state is then
//! which piece sits in each block (a *permutation* coordinate: the Lehmer rank, halved when
//! every move permutes the blocks evenly) and how each is turned (a *twist* coordinate: one
//! digit a block, the last one left out when every move keeps the digits' sum). A twist is a
//! power of one cyclic turn of the block's positions, in a frame chosen for each block so that
//! every move turns a piece by such a power.
//!
//! A move acts on each coordinate alone, so each coordinate small enough gets a table
//! (coordinate value and move to value, built once); a larger one is unranked once a state and
//! ranked again for each move. A state's rank is the mixed-radix number of its coordinates, the
//! first varying fastest. The rank is perfect over the product of the coordinates, which may
//! be larger than the reachable set (a parity shared by two orbits, say), never smaller.
//!
//! Puzzles whose pieces this cannot tell apart (identical pieces, a piece whose turns look
//! alike, blocks turned by a group that is not cyclic) have no coordinates: [`Coords::new`]
//! says `None`, and they are explored over a hash table instead.

use std::collections::HashMap;

use frontier_search::{Cost, Space};

use crate::group::orbits;
use crate::perm::Perm;
use crate::prune::spread;
use crate::puzzle::Turn;
use crate::space::Model;

/// The most coordinates a rank may have.
const MAX_COORDS: usize = 32;
/// The most blocks of one orbit (20! is below 2^63).
const MAX_BLOCKS: usize = 20;
/// The largest coordinate given a move table: larger ones are computed for each state.
const MAX_TABLE: u64 = 1 << 20;
/// The most values of the leading coordinates taken as one ([`Inner`]), when there are
/// several: a table of that many rows stays in the cache.
const MAX_INNER: u64 = 1 << 16;

/// What a coordinate counts.
#[derive(Clone, Debug)]
enum Kind {
    /// Which piece is in each block; only even arrangements if `even`.
    Perm { even: bool },
    /// Each block's twist, a digit below `order`; `add[m][b]` is what move `m` adds to the
    /// twist of the piece in block `b`. With `fixed_sum` the digits always sum to 0 modulo
    /// `order`, and the last one is left out of the rank.
    Twist {
        order: u8,
        fixed_sum: bool,
        add: Vec<Vec<u8>>,
    },
}

/// One coordinate of an orbit: its values `0..size`, and how each move changes them.
#[derive(Clone, Debug)]
struct Coordinate {
    kind: Kind,
    /// The orbit's blocks.
    blocks: usize,
    /// `maps[m][b]`: the block move `m` takes block `b` to.
    maps: Vec<Vec<u8>>,
    size: u64,
    /// `table[value * moves + m]`: the value after move `m`, if the coordinate is small
    /// enough for a table.
    table: Option<Vec<u32>>,
}

impl Coordinate {
    fn new(kind: Kind, maps: Vec<Vec<u8>>) -> Coordinate {
        let blocks = maps.first().map_or(0, Vec::len);
        let size = match &kind {
            Kind::Perm { even } => {
                let all = (1..=blocks as u64).product::<u64>();
                if *even && blocks >= 2 {
                    all / 2
                } else {
                    all
                }
            }
            Kind::Twist {
                order, fixed_sum, ..
            } => u64::from(*order).pow((blocks - usize::from(*fixed_sum)) as u32),
        };
        Coordinate {
            kind,
            blocks,
            maps,
            size,
            table: None,
        }
    }

    /// Builds the move table, if the coordinate has at most [`MAX_TABLE`] values.
    fn build_table(&mut self) {
        if self.size > MAX_TABLE {
            return;
        }
        let moves = self.maps.len();
        let mut table = vec![0u32; self.size as usize * moves];
        let (mut digits, mut next) = ([0u8; MAX_BLOCKS], [0u8; MAX_BLOCKS]);
        for value in 0..self.size {
            self.unrank(value, &mut digits);
            for m in 0..moves {
                self.apply(m, &digits, &mut next);
                table[value as usize * moves + m] = self.rank(&next) as u32;
            }
        }
        self.table = Some(table);
    }

    /// The rank of `digits` (the piece in each block, or each block's twist).
    #[inline]
    fn rank(&self, digits: &[u8]) -> u64 {
        let n = self.blocks;
        match &self.kind {
            Kind::Perm { even } => {
                // Lehmer code, most significant digit first: the pieces not yet placed that
                // are below the piece in block i.
                let mut left: u32 = (1u32 << n) - 1;
                let mut rank = 0u64;
                for (i, &piece) in digits[..n].iter().enumerate() {
                    let below = (left & ((1u32 << piece) - 1)).count_ones();
                    left &= !(1u32 << piece);
                    rank = rank * (n - i) as u64 + u64::from(below);
                }
                // The digit of weight 1 is the parity of the others in an even arrangement.
                if *even && n >= 2 {
                    rank / 2
                } else {
                    rank
                }
            }
            Kind::Twist {
                order, fixed_sum, ..
            } => {
                let kept = n - usize::from(*fixed_sum);
                digits[..kept]
                    .iter()
                    .rev()
                    .fold(0u64, |r, &d| r * u64::from(*order) + u64::from(d))
            }
        }
    }

    /// The digits of `rank`.
    fn unrank(&self, rank: u64, digits: &mut [u8]) {
        let n = self.blocks;
        match &self.kind {
            Kind::Perm { even } => {
                let halved = *even && n >= 2;
                let mut rest = if halved { rank * 2 } else { rank };
                let mut lehmer = [0u8; MAX_BLOCKS];
                for i in (0..n).rev() {
                    let radix = (n - i) as u64;
                    lehmer[i] = (rest % radix) as u8;
                    rest /= radix;
                }
                if halved {
                    let parity = lehmer[..n].iter().map(|&d| u32::from(d)).sum::<u32>() % 2;
                    lehmer[n - 2] ^= parity as u8;
                }
                let mut left: u32 = (1u32 << n) - 1;
                for (digit, &d) in digits[..n].iter_mut().zip(&lehmer) {
                    let mut mask = left;
                    for _ in 0..d {
                        mask &= mask - 1;
                    }
                    let piece = mask.trailing_zeros();
                    left &= !(1u32 << piece);
                    *digit = piece as u8;
                }
            }
            Kind::Twist {
                order, fixed_sum, ..
            } => {
                let kept = n - usize::from(*fixed_sum);
                let mut rest = rank;
                let mut sum = 0u32;
                for digit in &mut digits[..kept] {
                    *digit = (rest % u64::from(*order)) as u8;
                    rest /= u64::from(*order);
                    sum += u32::from(*digit);
                }
                if *fixed_sum {
                    let order = u32::from(*order);
                    digits[n - 1] = ((order - sum % order) % order) as u8;
                }
            }
        }
    }

    /// The digits after move `m`.
    #[inline]
    fn apply(&self, m: usize, digits: &[u8], next: &mut [u8]) {
        let map = &self.maps[m];
        match &self.kind {
            Kind::Perm { .. } => {
                for (b, &to) in map.iter().enumerate() {
                    next[usize::from(to)] = digits[b];
                }
            }
            Kind::Twist { order, add, .. } => {
                for (b, &to) in map.iter().enumerate() {
                    next[usize::from(to)] =
                        ((u16::from(digits[b]) + u16::from(add[m][b])) % u16::from(*order)) as u8;
                }
            }
        }
    }
}

/// The leading coordinates of a rank taken as one, where every coordinate has a move table:
/// the ranks a sweep expands one after the other differ only in them, so that each move's
/// share of the rank from the others is looked up once for many ranks.
#[derive(Clone, Debug)]
struct Inner {
    /// How many leading coordinates: the first alone if it is large, else as many as fit
    /// in [`MAX_INNER`] values.
    coords: usize,
    /// The product of their sizes: a rank's inner value is the rank modulo it.
    size: u64,
    /// `table[value * moves + m]`: their share of the rank after move `m`, if they are
    /// several (the first coordinate's own table if it is alone).
    table: Option<Vec<u32>>,
}

/// How the moves act on one orbit's pieces, block by block.
#[derive(Clone, Debug)]
pub(crate) struct OrbitMoves {
    /// `maps[m][b]`: the block move `m` takes block `b` to.
    pub(crate) maps: Vec<Vec<u8>>,
    /// `add[m][b]`: the twist move `m` adds to the piece in block `b` (all 0 if pieces never
    /// turn).
    pub(crate) add: Vec<Vec<u8>>,
    /// The number of twists of a piece (1 if pieces never turn).
    pub(crate) order: u8,
    /// Whether the twists of the whole orbit always sum to 0 modulo `order`.
    pub(crate) fixed_sum: bool,
}

/// How one orbit's positions are read as pieces: for the ranks of colours and back.
#[derive(Clone, Debug)]
struct Pieces {
    /// `frames[b][o]`: the compact position of offset `o` of block `b`.
    frames: Vec<Vec<u8>>,
    /// `turn[d][o]`: where twist `d` takes offset `o`.
    turn: Vec<Vec<u8>>,
    /// The colours a block shows, by offset, for each piece and twist.
    looks: HashMap<Vec<u8>, (u8, u8)>,
    /// The orbit's permutation coordinate (none for a single block) and twist coordinate
    /// (none if its pieces never turn).
    perm: Option<usize>,
    twist: Option<usize>,
}

/// The coordinates of a puzzle in one metric: a perfect rank of its states as a product of
/// per-orbit permutation and twist coordinates, each small one moved by a table.
#[derive(Clone, Debug)]
pub struct Coords {
    coords: Vec<Coordinate>,
    /// The weight of each coordinate in the rank.
    mults: Vec<u64>,
    orbits: Vec<Pieces>,
    moves: usize,
    bound: u64,
    /// Whether every coordinate has a move table.
    tabled: bool,
    /// The leading coordinates as one, where every coordinate has a move table.
    inner: Option<Inner>,
}

impl Coords {
    /// The coordinates of `model`, if each orbit splits into pieces it can tell apart and the
    /// product of the coordinates fits in 64 bits; `None` otherwise.
    pub fn new(model: &Model) -> Option<Coords> {
        let (mut coords, orbits_out) = Self::of_orbits(model)?;
        if coords.len() > MAX_COORDS {
            return None;
        }
        let mut mults = Vec::with_capacity(coords.len());
        let mut bound = 1u64;
        for c in &coords {
            mults.push(bound);
            bound = bound.checked_mul(c.size)?;
        }
        // Only once the rank is known to fit: a puzzle refused builds no table.
        for c in &mut coords {
            c.build_table();
        }
        let moves = model.moves.len();
        let tabled = coords.iter().all(|c| c.table.is_some());
        Some(Coords {
            inner: if tabled {
                Self::inner(&coords, &mults, moves)
            } else {
                None
            },
            tabled,
            coords,
            mults,
            orbits: orbits_out,
            moves,
            bound,
        })
    }

    /// The leading coordinates of `coords` (each with a table, weighing `mults` in a rank)
    /// as one; `None` if there is none.
    fn inner(coords: &[Coordinate], mults: &[u64], moves: usize) -> Option<Inner> {
        let first = coords.first()?;
        let (mut count, mut size) = (1, first.size);
        while let Some(next) = coords.get(count) {
            match size.checked_mul(next.size) {
                Some(product) if product <= MAX_INNER => {
                    size = product;
                    count += 1;
                }
                _ => break,
            }
        }
        let table = (count > 1).then(|| {
            let mut table = vec![0u32; size as usize * moves];
            for (value, row) in table.chunks_exact_mut(moves).enumerate() {
                let mut rest = value as u64;
                for (c, &mult) in coords[..count].iter().zip(mults) {
                    let digit = (rest % c.size) as usize;
                    rest /= c.size;
                    let moved = &c.table.as_deref().unwrap_or_default()[digit * moves..];
                    for (share, &next) in row.iter_mut().zip(moved) {
                        // Below `size`, at most MAX_INNER: no overflow.
                        *share += next * mult as u32;
                    }
                }
            }
            table
        });
        Some(Inner {
            coords: count,
            size,
            table,
        })
    }

    /// Each orbit's coordinates (no move table yet) and pieces; `None` where an orbit's
    /// pieces cannot be told apart.
    fn of_orbits(model: &Model) -> Option<(Vec<Coordinate>, Vec<Pieces>)> {
        let gens: Vec<Perm> = model
            .moves
            .iter()
            .map(|m| Perm::from_images(m.map.to_vec()).expect("a move permutes the positions"))
            .collect();
        let mut coords = Vec::new();
        let mut orbits_out = Vec::new();
        for orbit in orbits(model.len(), &gens) {
            let (_, blocks) = spread(&orbit, &gens);
            let blocks = blocks.unwrap_or_else(|| orbit.iter().map(|&p| vec![p]).collect());
            orbits_out.push(Self::orbit(model, &gens, &blocks, &mut coords)?);
        }
        Some((coords, orbits_out))
    }

    /// How each move acts on each orbit's pieces, however large the product of the orbits'
    /// coordinates (for the piece-subset solver, [`crate::Optimal`]); `None` where an
    /// orbit's pieces cannot be told apart.
    pub(crate) fn orbit_moves(model: &Model) -> Option<Vec<OrbitMoves>> {
        let (coords, orbits) = Self::of_orbits(model)?;
        let moves = model.moves.len();
        let out = orbits
            .iter()
            .map(|pieces| {
                let blocks = pieces.frames.len();
                let of = pieces.perm.or(pieces.twist).map(|i| &coords[i]);
                let maps = of.map_or_else(|| vec![vec![0u8; blocks]; moves], |c| c.maps.clone());
                let (order, fixed_sum, add) = match pieces.twist.map(|i| &coords[i].kind) {
                    Some(Kind::Twist {
                        order,
                        fixed_sum,
                        add,
                    }) => (*order, *fixed_sum, add.clone()),
                    _ => (1, false, vec![vec![0u8; blocks]; moves]),
                };
                OrbitMoves {
                    maps,
                    add,
                    order,
                    fixed_sum,
                }
            })
            .collect();
        Some(out)
    }

    /// The piece in each block and each block's twist, orbit by orbit, of a state's colours
    /// at the compact positions; `None` if a block shows no piece of the orbit.
    pub(crate) fn read_pieces(model: &Model, colours: &[u8]) -> Option<Vec<(Vec<u8>, Vec<u8>)>> {
        let (_, orbits) = Self::of_orbits(model)?;
        orbits
            .iter()
            .map(|pieces| {
                let mut arrangement = Vec::with_capacity(pieces.frames.len());
                let mut twists = Vec::with_capacity(pieces.frames.len());
                for frame in &pieces.frames {
                    let look: Vec<u8> = frame
                        .iter()
                        .map(|&p| *colours.get(usize::from(p)).unwrap_or(&u8::MAX))
                        .collect();
                    let (piece, twist) = *pieces.looks.get(&look)?;
                    arrangement.push(piece);
                    twists.push(twist);
                }
                Some((arrangement, twists))
            })
            .collect()
    }

    /// The coordinates of one orbit, split into `blocks`, pushed onto `coords`.
    fn orbit(
        model: &Model,
        gens: &[Perm],
        blocks: &[Vec<u8>],
        coords: &mut Vec<Coordinate>,
    ) -> Option<Pieces> {
        let n = blocks.len();
        let k = blocks[0].len();
        if n > MAX_BLOCKS || blocks.iter().any(|b| b.len() != k) {
            return None;
        }
        let mut block_of = vec![u8::MAX; model.len()];
        for (b, members) in blocks.iter().enumerate() {
            for &p in members {
                block_of[usize::from(p)] = b as u8;
            }
        }
        // Frames along a spanning tree of the blocks, from block 0 as listed: each block's
        // frame the image of its parent's under the move that first reached it.
        let mut frames: Vec<Option<Vec<u8>>> = vec![None; n];
        frames[0] = Some(blocks[0].clone());
        let mut queue = vec![0usize];
        while let Some(b) = queue.pop() {
            let frame = frames[b].clone().expect("queued with a frame");
            for g in gens {
                let image: Vec<u8> = frame.iter().map(|&p| g.image(p)).collect();
                let to = usize::from(block_of[usize::from(image[0])]);
                if frames[to].is_none() {
                    frames[to] = Some(image);
                    queue.push(to);
                }
            }
        }
        let frames: Vec<Vec<u8>> = frames.into_iter().collect::<Option<_>>()?;
        let mut offset_of = vec![0u8; model.len()];
        for frame in &frames {
            for (o, &p) in frame.iter().enumerate() {
                offset_of[usize::from(p)] = o as u8;
            }
        }
        // Each move's map of the blocks, and its turn of each block in the frames.
        let maps: Vec<Vec<u8>> = gens
            .iter()
            .map(|g| {
                (frames.iter())
                    .map(|f| block_of[usize::from(g.image(f[0]))])
                    .collect()
            })
            .collect();
        let turns: Vec<Vec<Vec<u8>>> = gens
            .iter()
            .map(|g| {
                (frames.iter())
                    .map(|f| {
                        f.iter()
                            .map(|&p| offset_of[usize::from(g.image(p))])
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let (turn, power) = cyclic(k, turns.iter().flatten())?;
        let order = turn.len();
        // What a block shows for each piece and twist: piece j's offset o, at twist d, lies at
        // offset turn[d][o].
        let mut looks = HashMap::new();
        for (j, frame) in frames.iter().enumerate() {
            for (d, t) in turn.iter().enumerate() {
                let mut look = vec![0u8; k];
                for (o, &p) in frame.iter().enumerate() {
                    look[usize::from(t[o])] = model.goal[usize::from(p)];
                }
                if looks.insert(look, (j as u8, d as u8)).is_some() {
                    return None;
                }
            }
        }
        let perm = (n > 1).then(|| {
            let even = maps.iter().all(|map| {
                Perm::from_images(map.clone())
                    .expect("a move permutes the blocks")
                    .is_even()
            });
            coords.push(Coordinate::new(Kind::Perm { even }, maps.clone()));
            coords.len() - 1
        });
        let twist = (order > 1).then(|| {
            let add: Vec<Vec<u8>> = turns
                .iter()
                .map(|per_block| per_block.iter().map(|t| power[t]).collect())
                .collect();
            let fixed_sum = n > 1
                && add
                    .iter()
                    .all(|a| a.iter().map(|&d| usize::from(d)).sum::<usize>() % order == 0);
            let kind = Kind::Twist {
                order: order as u8,
                fixed_sum,
                add,
            };
            coords.push(Coordinate::new(kind, maps.clone()));
            coords.len() - 1
        });
        Some(Pieces {
            frames,
            turn,
            looks,
            perm,
            twist,
        })
    }

    /// One more than the largest rank: the product of the coordinates' sizes.
    pub fn bound(&self) -> u64 {
        self.bound
    }

    /// The number of coordinates.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether there is none (no position moves).
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The size of each coordinate, the first varying fastest in a rank.
    pub fn sizes(&self) -> Vec<u64> {
        self.coords.iter().map(|c| c.size).collect()
    }

    /// The rank of a state's colours at the compact positions ([`Model::colours_of`]); `None`
    /// if the colours are not an arrangement of the pieces the coordinates count.
    pub fn rank_of(&self, colours: &[u8]) -> Option<u64> {
        let mut rank = 0u64;
        for pieces in &self.orbits {
            let n = pieces.frames.len();
            let (mut arrangement, mut twists) = ([0u8; MAX_BLOCKS], [0u8; MAX_BLOCKS]);
            for (b, frame) in pieces.frames.iter().enumerate() {
                let look: Vec<u8> = frame
                    .iter()
                    .map(|&p| *colours.get(usize::from(p)).unwrap_or(&u8::MAX))
                    .collect();
                (arrangement[b], twists[b]) = *pieces.looks.get(&look)?;
            }
            if let Some(i) = pieces.perm {
                let mut seen = 0u32;
                for &piece in &arrangement[..n] {
                    seen |= 1 << piece;
                }
                let value = self.coords[i].rank(&arrangement);
                if seen.count_ones() as usize != n || value >= self.coords[i].size {
                    return None;
                }
                let mut back = [0u8; MAX_BLOCKS];
                self.coords[i].unrank(value, &mut back);
                if back[..n] != arrangement[..n] {
                    return None;
                }
                rank += value * self.mults[i];
            }
            if let Some(i) = pieces.twist {
                let value = self.coords[i].rank(&twists);
                let mut back = [0u8; MAX_BLOCKS];
                self.coords[i].unrank(value, &mut back);
                if back[..n] != twists[..n] {
                    return None;
                }
                rank += value * self.mults[i];
            }
        }
        Some(rank)
    }

    /// The colours at the compact positions of the state of rank `rank` (below
    /// [`Coords::bound`]), for a model of `positions` compact positions.
    pub fn colours_at(&self, rank: u64, positions: usize) -> Vec<u8> {
        let mut colours = vec![0u8; positions];
        let mut values = [0u64; MAX_COORDS];
        self.split(rank, &mut values);
        let mut by_look = vec![];
        for pieces in &self.orbits {
            let n = pieces.frames.len();
            let (mut arrangement, mut twists) = ([0u8; MAX_BLOCKS], [0u8; MAX_BLOCKS]);
            for (b, a) in arrangement[..n].iter_mut().enumerate() {
                *a = b as u8;
            }
            if let Some(i) = pieces.perm {
                self.coords[i].unrank(values[i], &mut arrangement);
            }
            if let Some(i) = pieces.twist {
                self.coords[i].unrank(values[i], &mut twists);
            }
            by_look.clear();
            by_look.extend(pieces.looks.iter().map(|(look, &key)| (key, look)));
            by_look.sort_unstable();
            let order = pieces.turn.len();
            for (b, frame) in pieces.frames.iter().enumerate() {
                let key = usize::from(arrangement[b]) * order + usize::from(twists[b]);
                let look = by_look[key].1;
                for (o, &p) in frame.iter().enumerate() {
                    colours[usize::from(p)] = look[o];
                }
            }
        }
        colours
    }

    /// Each coordinate's value in `rank`.
    #[inline]
    fn split(&self, mut rank: u64, values: &mut [u64; MAX_COORDS]) {
        for (value, c) in values.iter_mut().zip(&self.coords) {
            *value = rank % c.size;
            rank /= c.size;
        }
    }

    /// The table of the inner coordinates ([`Inner`]).
    #[inline]
    fn inner_table<'t>(&'t self, inner: &'t Inner) -> &'t [u32] {
        match &inner.table {
            Some(table) => table,
            None => self.coords[0].table.as_deref().unwrap_or_default(),
        }
    }

    /// Calls `out(next)` with the rank after each move, for each rank of `run` (ascending) in
    /// turn. Where every coordinate has a table, consecutive ranks share all but their inner
    /// coordinates ([`Inner`]): the others' share of each move's rank is looked up once for
    /// each value they take in the run, and each rank then costs a lookup and an add a move.
    #[inline]
    fn each_successor_of_run(&self, run: &[u64], mut out: impl FnMut(u64)) {
        let Some(inner) = &self.inner else {
            for &rank in run {
                self.each_successor(rank, |_| true, |_, next| out(next));
            }
            return;
        };
        let moves = self.moves;
        let table = self.inner_table(inner);
        let mut outer = vec![0u64; moves];
        // The ranks `base..end` share their outer coordinates (none before the first).
        let (mut base, mut end) = (0, 0);
        for &rank in run {
            if rank < base || rank >= end {
                let high = rank / inner.size;
                base = high * inner.size;
                end = base.saturating_add(inner.size);
                self.outer_shares(inner, high, &mut outer);
            }
            let row = &table[(rank - base) as usize * moves..][..moves];
            for (&share, &value) in outer.iter().zip(row) {
                out(share + u64::from(value));
            }
        }
    }

    /// Each move's share of the rank from the coordinates after the inner ones, whose values
    /// are the digits of `high` (a rank divided by the inner size).
    #[inline]
    fn outer_shares(&self, inner: &Inner, mut high: u64, shares: &mut [u64]) {
        shares.fill(0);
        for (c, &mult) in self.coords.iter().zip(&self.mults).skip(inner.coords) {
            let value = (high % c.size) as usize;
            high /= c.size;
            let table = c.table.as_deref().unwrap_or_default();
            for (share, &next) in shares.iter_mut().zip(&table[value * self.moves..]) {
                *share += u64::from(next) * mult;
            }
        }
    }

    /// Whether `test` holds for the rank after some move from `rank`: the moves are tried in
    /// turn until one passes.
    #[inline]
    fn successor_where(&self, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let Some(inner) = &self.inner else {
            let found = std::cell::Cell::new(false);
            self.each_successor(rank, |_| !found.get(), |_, next| found.set(test(next)));
            return found.get();
        };
        let moves = self.moves;
        let high = rank / inner.size;
        let row = &self.inner_table(inner)[(rank - high * inner.size) as usize * moves..][..moves];
        let outer = &self.coords[inner.coords..];
        let mults = &self.mults[inner.coords..];
        // Each outer coordinate's row in its table.
        let mut rows = [0usize; MAX_COORDS];
        let mut rest = high;
        for (at, c) in rows.iter_mut().zip(outer) {
            *at = (rest % c.size) as usize * moves;
            rest /= c.size;
        }
        (0..moves).any(|m| {
            let mut next = u64::from(row[m]);
            for ((c, &at), &mult) in outer.iter().zip(&rows).zip(mults) {
                next += u64::from(c.table.as_deref().unwrap_or_default()[at + m]) * mult;
            }
            test(next)
        })
    }

    /// Calls `out(m, next)` with the rank after each move `m` (in the model's order) that
    /// `wanted` accepts, from the state of rank `rank`.
    #[inline]
    fn each_successor(
        &self,
        rank: u64,
        mut wanted: impl FnMut(usize) -> bool,
        mut out: impl FnMut(usize, u64),
    ) {
        let mut values = [0u64; MAX_COORDS];
        self.split(rank, &mut values);
        if self.tabled {
            // Every coordinate in a table: each move's rank is a lookup per coordinate.
            let rows = &mut values[..self.coords.len()];
            for row in rows.iter_mut() {
                *row *= self.moves as u64;
            }
            for m in 0..self.moves {
                if !wanted(m) {
                    continue;
                }
                let mut rank = 0u64;
                for ((c, &row), &mult) in self.coords.iter().zip(rows.iter()).zip(&self.mults) {
                    let table = c.table.as_deref().unwrap_or_default();
                    rank += u64::from(table[row as usize + m]) * mult;
                }
                out(m, rank);
            }
            return;
        }
        // The coordinates without a table, unranked once for all the moves.
        let mut digits = [[0u8; MAX_BLOCKS]; MAX_COORDS];
        for ((c, &value), digits) in self.coords.iter().zip(&values).zip(&mut digits) {
            if c.table.is_none() {
                c.unrank(value, digits);
            }
        }
        let mut next = [0u8; MAX_BLOCKS];
        for m in 0..self.moves {
            if !wanted(m) {
                continue;
            }
            let mut rank = 0u64;
            for ((c, (&value, digits)), &mult) in self
                .coords
                .iter()
                .zip(values.iter().zip(&digits))
                .zip(&self.mults)
            {
                let moved = match &c.table {
                    Some(table) => u64::from(table[value as usize * self.moves + m]),
                    None => {
                        c.apply(m, digits, &mut next);
                        c.rank(&next)
                    }
                };
                rank += moved * mult;
            }
            out(m, rank);
        }
    }
}

/// A map of a block's offsets: where each offset goes.
type Offsets = Vec<u8>;

/// The cyclic group the `turns` (permutations of `k` offsets) generate, as its elements'
/// offset maps (element `d` the `d`-th power of a generator) and each turn's power; `None` if
/// it is not cyclic.
fn cyclic<'a>(
    k: usize,
    turns: impl Iterator<Item = &'a Vec<u8>>,
) -> Option<(Vec<Offsets>, HashMap<Offsets, u8>)> {
    let identity: Vec<u8> = (0..k as u8).collect();
    let turns: Vec<&Vec<u8>> = turns.collect();
    let compose =
        |a: &[u8], b: &[u8]| -> Vec<u8> { a.iter().map(|&o| b[usize::from(o)]).collect() };
    // The group's elements, by closing the identity under the turns.
    let mut elements = vec![identity.clone()];
    let mut i = 0;
    while i < elements.len() {
        for t in &turns {
            let e = compose(&elements[i], t);
            if !elements.contains(&e) {
                elements.push(e);
                if elements.len() > usize::from(u8::MAX) {
                    return None;
                }
            }
        }
        i += 1;
    }
    let order = elements.len();
    for g in &elements {
        let mut powers = vec![identity.clone()];
        while powers.len() < order {
            let next = compose(powers.last().expect("the identity"), g);
            if next == identity {
                break;
            }
            powers.push(next);
        }
        if powers.len() == order {
            let power = powers
                .iter()
                .enumerate()
                .map(|(d, p)| (p.clone(), d as u8))
                .collect();
            return Some((powers, power));
        }
    }
    None
}

/// A puzzle position as a [`Space`] whose states are their [ranks](Coords): the engine
/// explores it densely (two bits a rank, every thread) and across the workers of a timely run.
pub struct CoordSpace<'a> {
    model: &'a Model,
    coords: &'a Coords,
    start: u64,
    goal: u64,
}

impl<'a> CoordSpace<'a> {
    /// The space from `start` (colours at the compact positions, see [`Model::colours_of`]);
    /// `None` if the coordinates do not count it.
    pub fn new(model: &'a Model, coords: &'a Coords, start: &[u8]) -> Option<CoordSpace<'a>> {
        Some(CoordSpace {
            model,
            coords,
            start: coords.rank_of(start)?,
            goal: coords.rank_of(&model.goal)?,
        })
    }
}

impl Space for CoordSpace<'_> {
    type State = u64;
    type Move = Turn;

    fn start(&self) -> u64 {
        self.start
    }

    fn is_goal(&self, state: &u64) -> bool {
        *state == self.goal
    }

    fn successors(&self, state: &u64, last: Option<&Turn>, mut out: impl FnMut(Turn, u64)) {
        let moves = &self.model.moves;
        self.coords.each_successor(
            *state,
            |m| last.is_none_or(|&l| self.model.may_follow(l, moves[m].turn)),
            |m, next| out(moves[m].turn, next),
        );
    }

    fn max_step_cost(&self) -> Option<Cost> {
        Some(1)
    }

    fn undirected(&self) -> bool {
        true
    }

    fn index_bound(&self) -> Option<u64> {
        Some(self.coords.bound)
    }

    fn index(&self, state: &u64) -> u64 {
        *state
    }

    fn state_at(&self, index: u64) -> Option<u64> {
        (index < self.coords.bound).then_some(index)
    }

    fn indexed_successors(&self, index: u64, mut out: impl FnMut(u64, u64)) {
        self.coords
            .each_successor(index, |_| true, |_, next| out(next, next));
    }

    fn indexed_successors_of_run(&self, run: &[u64], mut out: impl FnMut(u64, u64)) {
        self.coords
            .each_successor_of_run(run, |next| out(next, next));
    }

    /// Every rank below the bound is a state: each coordinate's value is a placement or an
    /// orientation of its pieces, reached or not.
    fn every_index_a_state(&self) -> bool {
        true
    }

    /// The moves after the first successor that passes are skipped before they are worked
    /// out.
    fn indexed_successor_where(&self, index: u64, test: impl FnMut(u64) -> bool) -> bool {
        self.coords.successor_where(index, test)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset;
    use crate::space::Metric;

    #[test]
    fn the_presets_split_into_the_coordinates_of_their_pieces() {
        // The 2x2x2: 7 corners placed (7!) and twisted, the last twist fixed by the others
        // (3^6): exactly its 3,674,160 states. The Pyraminx: 4 tips and 4 axial pieces
        // twisted (3 each), 6 edges evenly placed (6!/2) and flipped (2^5): exactly its
        // 75,582,720 states (Jaap's puzzle page). TopSpin on 10 tokens: 10! arrangements.
        for (name, sizes, bound) in [
            ("cube2", vec![5040, 729], 3_674_160u64),
            ("topspin10", vec![3_628_800], 3_628_800),
        ] {
            let model = Model::new(&preset(name).unwrap().puzzle(), Metric::Htm);
            let coords = Coords::new(&model).unwrap();
            assert_eq!(coords.sizes(), sizes, "{name}");
            assert_eq!(coords.bound(), bound, "{name}");
        }
        let model = Model::new(&preset("pyraminx").unwrap().puzzle(), Metric::Htm);
        assert_eq!(Coords::new(&model).unwrap().bound(), 75_582_720);
        // The 3x3x3's coordinates pass 2^64.
        let model = Model::new(&preset("cube3").unwrap().puzzle(), Metric::Htm);
        assert!(Coords::new(&model).is_none());
    }

    #[test]
    fn identical_pieces_have_no_coordinates() {
        let two = format!(
            "{}colours: {{1,2,3,4,5}} {{6,7}}\n",
            preset("topspin10").unwrap().text
        );
        let model = Model::new(&crate::Puzzle::parse("two", &two).unwrap(), Metric::Htm);
        assert!(Coords::new(&model).is_none());
    }

    #[test]
    fn tables_and_direct_ranks_agree_with_the_moves() {
        // Every successor's rank, from the tables or computed, is the rank of the colours the
        // move makes.
        for name in ["cube2", "pyraminx", "skewb", "topspin10"] {
            let model = Model::new(&preset(name).unwrap().puzzle(), Metric::Htm);
            let coords = Coords::new(&model).unwrap();
            let mut rank = coords.rank_of(&model.goal).unwrap();
            assert_eq!(rank, 0, "{name}");
            for step in 0..200usize {
                let colours = coords.colours_at(rank, model.len());
                assert_eq!(coords.rank_of(&colours), Some(rank), "{name}");
                let mut next = Vec::new();
                coords.each_successor(rank, |_| true, |m, r| next.push((m, r)));
                assert_eq!(next.len(), model.moves.len());
                for &(m, r) in &next {
                    let mut moved = vec![0u8; colours.len()];
                    for (i, &to) in model.moves[m].map.iter().enumerate() {
                        moved[usize::from(to)] = colours[i];
                    }
                    assert_eq!(coords.rank_of(&moved), Some(r), "{name} move {m}");
                }
                rank = next[(step * 7 + 3) % next.len()].1;
            }
        }
    }

    #[test]
    fn runs_and_searches_for_a_neighbour_move_as_one_rank_at_a_time() {
        // The inner coordinates' table (one coordinate or several as one) and the outer
        // shares give each rank of a run the successors a rank alone has, in the same order;
        // a search for a neighbour finds exactly the ones there are.
        for name in ["cube2", "pyraminx", "skewb", "topspin10"] {
            let model = Model::new(&preset(name).unwrap().puzzle(), Metric::Htm);
            let coords = Coords::new(&model).unwrap();
            let bound = coords.bound();
            // Ascending ranks, some sharing their outer coordinates, some not.
            let run: Vec<u64> = (0..3000u64)
                .map(|i| (i * i * 7919 + i) % bound)
                .chain([0, 1, 2, bound - 1])
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let mut one_by_one = Vec::new();
            for &rank in &run {
                coords.each_successor(rank, |_| true, |_, next| one_by_one.push(next));
            }
            let mut by_run = Vec::new();
            coords.each_successor_of_run(&run, |next| by_run.push(next));
            assert_eq!(by_run, one_by_one, "{name}");
            let moves = model.moves.len();
            for (i, &rank) in run.iter().enumerate() {
                let neighbours = &one_by_one[i * moves..(i + 1) * moves];
                let last = neighbours[(i * 5) % moves];
                assert!(coords.successor_where(rank, |next| next == last), "{name}");
                let absent = (0..bound).find(|r| !neighbours.contains(r)).unwrap();
                assert!(
                    !coords.successor_where(rank, |next| next == absent),
                    "{name}"
                );
            }
        }
        // The Pyraminx's leading coordinates (its tips' twists, 3 values each) are taken as
        // one; the 2x2x2's first (7! places) stands alone.
        let model = Model::new(&preset("pyraminx").unwrap().puzzle(), Metric::Htm);
        assert!(Coords::new(&model).unwrap().inner.unwrap().coords > 1);
        let model = Model::new(&preset("cube2").unwrap().puzzle(), Metric::Htm);
        assert_eq!(Coords::new(&model).unwrap().inner.unwrap().coords, 1);
    }
}
