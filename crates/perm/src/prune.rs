//! Pruning tables over projections of a puzzle: for one orbit of positions, where the pieces
//! of some colours are (the others blanked out), ranked densely and filled by the table
//! toolkit's breadth-first builder.

use std::ops::ControlFlow;

use frontier_search::Limit;
use frontier_tables::{Builder, Cache, Coordinates, Table, TableReport, TableSpec, Visit, Width};

use crate::group::orbits;
use crate::perm::Perm;
use crate::space::Model;

/// No item at a position: its piece is blanked out.
const BLANK: u8 = u8::MAX;
/// The most tables made for one orbit.
const TABLES_PER_ORBIT: usize = 2;
/// The version of the tables' layout, in their cache key.
const VERSION: u32 = 1;

/// The blocks of an orbit (its pieces: positions that always move together), for ranking
/// one tracked position in each block as a placement of blocks and an offset in each.
#[derive(Clone, Debug)]
struct Blocks {
    /// The block of each local position.
    block_of: Vec<u8>,
    /// Each local position's offset in its block.
    offset_of: Vec<u8>,
    /// The local position at `block * size + offset`.
    at: Vec<u8>,
    count: usize,
    size: usize,
}

/// One orbit's share of a projection: the orbit's compact positions, and the colours
/// tracked in it (each an item, with the number of its pieces in the orbit). A rank is a
/// sequence of combinations (where the first item's pieces are among the orbit's positions,
/// where the second's are among the positions left, ...), or, where each item is one point
/// of a block of its own, the placement of those blocks and the offset in each.
#[derive(Clone, Debug)]
struct Part {
    orbit: Vec<u8>,
    counts: Vec<u8>,
    /// The item of each colour (`BLANK` if untracked).
    item_of: Vec<u8>,
    /// Each move's map of the orbit's local positions.
    moves: Vec<Box<[u8]>>,
    /// `binom[n][k]`, saturated, for `k` up to the largest count.
    binom: Vec<Vec<u64>>,
    radix: Vec<u64>,
    blocks: Option<Blocks>,
    len: u64,
}

impl Part {
    fn new(model: &Model, orbit: &[u8], colours: &[u8], blocks: Option<&[Vec<u8>]>) -> Part {
        let m = orbit.len();
        let mut local = vec![BLANK; model.len()];
        for (q, &i) in orbit.iter().enumerate() {
            local[usize::from(i)] = q as u8;
        }
        let moves = model
            .moves
            .iter()
            .map(|mv| {
                orbit
                    .iter()
                    .map(|&i| local[usize::from(mv.map[usize::from(i)])])
                    .collect()
            })
            .collect();
        let mut item_of = vec![BLANK; model.colours];
        let mut counts = Vec::new();
        for &c in colours {
            item_of[usize::from(c)] = counts.len() as u8;
            let count = orbit
                .iter()
                .filter(|&&i| model.goal[usize::from(i)] == c)
                .count();
            counts.push(count as u8);
        }
        let kmax = counts.iter().copied().max().unwrap_or(0) as usize;
        let mut binom = vec![vec![0u64; kmax + 1]; m + 1];
        for n in 0..=m {
            binom[n][0] = 1;
            for k in 1..=kmax.min(n) {
                binom[n][k] =
                    binom[n - 1][k - 1].saturating_add(if k < n { binom[n - 1][k] } else { 0 });
            }
        }
        let blocks = blocks
            .filter(|b| counts.iter().all(|&c| c == 1) && counts.len() <= b.len())
            .map(|blocks| {
                let size = blocks[0].len();
                let mut block_of = vec![0u8; m];
                let mut offset_of = vec![0u8; m];
                let mut at = vec![0u8; m];
                for (b, members) in blocks.iter().enumerate() {
                    for (o, &i) in members.iter().enumerate() {
                        let q = local[usize::from(i)];
                        block_of[usize::from(q)] = b as u8;
                        offset_of[usize::from(q)] = o as u8;
                        at[b * size + o] = q;
                    }
                }
                Blocks {
                    block_of,
                    offset_of,
                    at,
                    count: blocks.len(),
                    size,
                }
            });
        let mut radix = Vec::new();
        match &blocks {
            Some(b) => radix.extend((0..counts.len()).map(|j| ((b.count - j) * b.size) as u64)),
            None => {
                let mut free = m;
                for &c in &counts {
                    radix.push(binom[free][usize::from(c)]);
                    free -= usize::from(c);
                }
            }
        }
        let len = radix.iter().fold(1u64, |a, &r| a.saturating_mul(r));
        Part {
            orbit: orbit.to_vec(),
            counts,
            item_of,
            moves,
            binom,
            radix,
            blocks,
            len,
        }
    }

    /// The part's cells (an item or `BLANK` at each local position) of a state's colours at
    /// the compact positions.
    #[inline]
    fn cells_into(&self, colours: &[u8], cells: &mut [u8]) {
        for (cell, &i) in cells.iter_mut().zip(&self.orbit) {
            *cell = self.item_of[usize::from(colours[usize::from(i)])];
        }
    }

    /// The rank of some cells.
    #[inline]
    fn rank(&self, cells: &[u8]) -> u64 {
        if self.blocks.is_some() {
            let mut pos = [0u8; 128];
            for (q, &cell) in cells.iter().enumerate() {
                if cell != BLANK {
                    pos[usize::from(cell)] = q as u8;
                }
            }
            return self.rank_positions(&pos[..self.radix.len()]);
        }
        let mut rank = 0u64;
        let mut mult = 1u64;
        // taken[q]: position q belongs to an earlier item.
        let mut taken = [0u64; 4];
        for (j, &radix) in self.radix.iter().enumerate() {
            let mut k = 0usize;
            let mut comb = 0u64;
            let mut below = 0usize;
            for (q, &cell) in cells.iter().enumerate() {
                if taken[q / 64] >> (q % 64) & 1 == 1 {
                    below += 1;
                    continue;
                }
                if usize::from(cell) == j {
                    k += 1;
                    comb += self.binom[q - below][k];
                }
            }
            for (q, &cell) in cells.iter().enumerate() {
                if usize::from(cell) == j {
                    taken[q / 64] |= 1 << (q % 64);
                }
            }
            rank += comb * mult;
            mult = mult.saturating_mul(radix);
        }
        rank
    }

    /// In block mode, the rank of the items' local positions.
    #[inline]
    fn rank_positions(&self, pos: &[u8]) -> u64 {
        let b = self.blocks.as_ref().expect("block mode");
        let mut used = 0u128;
        let mut rank = 0u64;
        let mut mult = 1u64;
        for (&q, &radix) in pos.iter().zip(&self.radix) {
            let q = usize::from(q);
            let block = b.block_of[q];
            let r = u64::from(block) - u64::from((used & ((1u128 << block) - 1)).count_ones());
            used |= 1 << block;
            rank += (r * b.size as u64 + u64::from(b.offset_of[q])) * mult;
            mult *= radix;
        }
        rank
    }

    /// In block mode, the items' local positions of a rank.
    fn unrank_positions(&self, mut rank: u64, pos: &mut [u8]) {
        let b = self.blocks.as_ref().expect("block mode");
        let mut used = 0u128;
        for (p, &radix) in pos.iter_mut().zip(&self.radix) {
            let d = rank % radix;
            rank /= radix;
            let (mut r, offset) = (d / b.size as u64, (d % b.size as u64) as usize);
            let mut block = 0;
            loop {
                if used >> block & 1 == 0 {
                    if r == 0 {
                        break;
                    }
                    r -= 1;
                }
                block += 1;
            }
            used |= 1 << block;
            *p = b.at[block * b.size + offset];
        }
    }

    /// The cells of a rank.
    fn unrank(&self, mut rank: u64, cells: &mut [u8], picks: &mut Vec<usize>) {
        cells.fill(BLANK);
        if self.blocks.is_some() {
            let mut pos = [0u8; 128];
            let pos = &mut pos[..self.radix.len()];
            self.unrank_positions(rank, pos);
            for (j, &q) in pos.iter().enumerate() {
                cells[usize::from(q)] = j as u8;
            }
            return;
        }
        let mut free = self.orbit.len();
        for (j, &radix) in self.radix.iter().enumerate() {
            let mut comb = rank % radix;
            rank /= radix;
            let c = usize::from(self.counts[j]);
            picks.clear();
            // Colex: the largest r with binom(r, k) <= comb, for k from c down to 1.
            for k in (1..=c).rev() {
                let mut r = k - 1;
                while r + 1 < free && self.binom[r + 1][k] <= comb {
                    r += 1;
                }
                comb -= self.binom[r][k];
                picks.push(r);
            }
            picks.reverse();
            let mut f = 0;
            let mut next = picks.iter().peekable();
            for cell in cells.iter_mut() {
                if *cell != BLANK {
                    continue;
                }
                if next.peek() == Some(&&f) {
                    *cell = j as u8;
                    next.next();
                }
                f += 1;
            }
            free -= c;
        }
    }
}

/// A projection of the puzzle: one or more orbits' parts, ranked together (the first part's
/// rank varying fastest).
#[derive(Clone, Debug)]
pub struct Projection {
    parts: Vec<Part>,
    len: usize,
}

impl Projection {
    fn of(parts: Vec<Part>) -> Projection {
        let len = parts.iter().fold(1u64, |a, p| a.saturating_mul(p.len));
        Projection {
            parts,
            len: usize::try_from(len).unwrap_or(usize::MAX),
        }
    }

    /// The number of ranks.
    pub fn ranks(&self) -> usize {
        self.len
    }

    /// The rank of a state's colours at the compact positions.
    #[inline]
    fn rank_of(&self, colours: &[u8]) -> usize {
        let mut cells = [BLANK; 256];
        let mut rank = 0u64;
        let mut mult = 1u64;
        for part in &self.parts {
            let cells = &mut cells[..part.orbit.len()];
            part.cells_into(colours, cells);
            rank += part.rank(cells) * mult;
            mult *= part.len;
        }
        rank as usize
    }
}

/// Scratch for one builder worker: each part's cells of a rank and of its successor.
pub struct Scratch {
    cells: Vec<Vec<u8>>,
    next: Vec<Vec<u8>>,
    picks: Vec<usize>,
}

impl Coordinates for Projection {
    type Cursor = Scratch;

    fn len(&self) -> usize {
        self.len
    }

    fn branching(&self) -> usize {
        self.parts[0].moves.len()
    }

    fn cursor(&self) -> Scratch {
        Scratch {
            cells: self
                .parts
                .iter()
                .map(|p| vec![BLANK; p.orbit.len()])
                .collect(),
            next: self
                .parts
                .iter()
                .map(|p| vec![BLANK; p.orbit.len()])
                .collect(),
            picks: Vec::new(),
        }
    }

    fn each_successor(
        &self,
        rank: usize,
        s: &mut Scratch,
        visit: &mut impl Visit,
    ) -> ControlFlow<()> {
        let mut rest = rank as u64;
        for (part, cells) in self.parts.iter().zip(&mut s.cells) {
            part.unrank(rest % part.len, cells, &mut s.picks);
            rest /= part.len;
        }
        for m in 0..self.branching() {
            let mut next_rank = 0u64;
            let mut mult = 1u64;
            for ((part, cells), next) in self.parts.iter().zip(&s.cells).zip(&mut s.next) {
                let map = &part.moves[m];
                for (q, &cell) in cells.iter().enumerate() {
                    next[usize::from(map[q])] = cell;
                }
                next_rank += part.rank(next) * mult;
                mult *= part.len;
            }
            visit.visit(next_rank as usize)?;
        }
        ControlFlow::Continue(())
    }
}

/// The pruning tables of a puzzle in one metric: for each orbit of its positions, one or two
/// projections that fit the budget, each with its distances (4 bits an entry, 15 meaning 15
/// or more). The estimate of a state, the largest of its projections' distances, never
/// overestimates.
#[derive(Debug)]
pub struct Tables {
    tables: Vec<(Projection, Table)>,
    reports: Vec<TableReport>,
}

impl Tables {
    /// The projections of `model` of at most `entries` ranks each. Per orbit, the colours in
    /// order; where the orbit's points are distinct, spread over its blocks (such as the
    /// facets of one cube corner), one point of each block tracked. Orbits tracked whole are
    /// packed together into as few projections as fit (the largest first); an orbit too
    /// large for one has its first items in one projection, the next ones in a second.
    pub fn plan(model: &Model, entries: usize) -> Vec<Projection> {
        let gens: Vec<Perm> = model
            .moves
            .iter()
            .map(|m| Perm::from_images(m.map.to_vec()).expect("a move permutes the positions"))
            .collect();
        let mut whole = Vec::new();
        let mut plans = Vec::new();
        for orbit in orbits(model.len(), &gens) {
            if orbit.len() < 2 {
                continue;
            }
            let distinct = {
                let mut seen = vec![false; model.colours];
                orbit.iter().all(|&i| {
                    !std::mem::replace(&mut seen[usize::from(model.goal[usize::from(i)])], true)
                })
            };
            let (positions, blocks) = if distinct {
                spread(&orbit, &gens)
            } else {
                (orbit.clone(), None)
            };
            let mut order: Vec<u8> = Vec::new();
            for &i in &positions {
                let c = model.goal[usize::from(i)];
                if !order.contains(&c) {
                    order.push(c);
                }
            }
            if let Some(b) = &blocks {
                order.truncate(b.len());
            }
            let blocks = blocks.as_deref();
            let full = Part::new(model, &orbit, &order, blocks);
            if full.len <= entries as u64 {
                whole.push(full);
                continue;
            }
            let mut start = 0;
            for _ in 0..TABLES_PER_ORBIT {
                let mut end = start;
                while end < order.len()
                    && Part::new(model, &orbit, &order[start..=end], blocks).len <= entries as u64
                {
                    end += 1;
                }
                if end == start {
                    break;
                }
                plans.push(Projection::of(vec![Part::new(
                    model,
                    &orbit,
                    &order[start..end],
                    blocks,
                )]));
                start = end;
            }
        }
        whole.sort_by_key(|p| std::cmp::Reverse(p.len));
        let mut bins: Vec<(u64, Vec<Part>)> = Vec::new();
        for part in whole {
            match bins
                .iter_mut()
                .find(|(len, _)| len.saturating_mul(part.len) <= entries as u64)
            {
                Some((len, parts)) => {
                    *len *= part.len;
                    parts.push(part);
                }
                None => bins.push((part.len, vec![part])),
            }
        }
        let mut all: Vec<Projection> = bins
            .into_iter()
            .map(|(_, parts)| Projection::of(parts))
            .collect();
        all.extend(plans);
        all
    }

    /// The tables of `model` of at most `entries` ranks each, loaded from `cache` or built
    /// there (and then saved) by `builder`; without a cache, built. The builder's limit
    /// check stops the build.
    pub fn build(
        model: &Model,
        entries: usize,
        cache: Option<&Cache>,
        builder: &Builder,
    ) -> Result<Tables, Limit> {
        Tables::build_each(model, entries, cache, builder, &|_, _| {})
    }

    /// [`Tables::build`], calling `starting(i, n)` before table `i` of `n` is loaded or
    /// built (for a progress message).
    pub fn build_each(
        model: &Model,
        entries: usize,
        cache: Option<&Cache>,
        builder: &Builder,
        starting: &dyn Fn(usize, usize),
    ) -> Result<Tables, Limit> {
        let plans = Tables::plan(model, entries);
        let n = plans.len();
        let mut tables = Vec::new();
        let mut reports = Vec::new();
        for (i, projection) in plans.into_iter().enumerate() {
            starting(i, n);
            let solved = projection.rank_of(&model.goal);
            let build = || {
                let distances = builder.backwards(false).build(&projection, &[solved])?;
                Ok(Table::pack(&distances, Width::Four).bytes().to_vec())
            };
            let bytes = match cache {
                Some(cache) => {
                    let key = key(model, &projection);
                    let file = format!(
                        "perm-{:016x}.table",
                        xxhash_rust::xxh3::xxh3_64(key.as_bytes())
                    );
                    let spec = TableSpec::new(file, key, Width::Four, projection.len as u64);
                    let (bytes, report) = cache.load_or_build(&spec, |len| vec![0; len], build)?;
                    reports.push(report);
                    bytes
                }
                None => build()?,
            };
            let table = Table::from_bytes(Width::Four, projection.len, bytes)
                .expect("a table of the projection's size");
            tables.push((projection, table));
        }
        Ok(Tables { tables, reports })
    }

    /// The bytes the tables of [`Tables::build`] take: 4 bits an entry.
    pub fn bytes_for(model: &Model, entries: usize) -> u64 {
        Tables::plan(model, entries)
            .iter()
            .map(|p| Width::Four.bytes(p.len as u64))
            .sum()
    }

    /// What happened to each table (loaded, built, rebuilt), when a cache was used.
    pub fn reports(&self) -> &[TableReport] {
        &self.reports
    }

    /// The number of tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there is none (no orbit has two positions).
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The entries of all the tables.
    pub fn entries(&self) -> u64 {
        self.tables.iter().map(|(p, _)| p.len as u64).sum()
    }

    /// The least number of moves a state (its colours at the compact positions) needs, as
    /// far as the tables know.
    #[inline]
    pub fn estimate(&self, colours: &[u8]) -> u8 {
        let mut best = 0;
        for (projection, table) in &self.tables {
            best = best.max(table.get(projection.rank_of(colours)));
        }
        best
    }
}

/// The cache key of a projection's table: everything its distances depend on.
fn key(model: &Model, projection: &Projection) -> String {
    let mut bytes = Vec::new();
    for m in &model.moves {
        bytes.extend_from_slice(&m.map);
        bytes.push(0xff);
    }
    bytes.extend_from_slice(&model.goal);
    let mut parts = String::new();
    for part in &projection.parts {
        let tracked: Vec<(usize, u8)> = part
            .item_of
            .iter()
            .enumerate()
            .filter(|(_, &i)| i != BLANK)
            .map(|(c, &i)| (c, i))
            .collect();
        let blocks = part.blocks.as_ref().map(|b| &b.at);
        parts.push_str(&format!(
            " [orbit {:?} tracked {tracked:?} blocks {blocks:?}]",
            part.orbit
        ));
    }
    format!(
        "perm v{VERSION} {} moves {:016x}{parts}",
        model.metric(),
        xxhash_rust::xxh3::xxh3_64(&bytes),
    )
}

/// The orbit's positions ordered so that consecutive ones lie in different blocks (pieces):
/// the first position of every block, then the second of every block, and so on. The blocks
/// are the finest block system in which the orbit's first position has company (Atkinson's
/// algorithm: join two positions, then their images under every move, until it closes).
pub(crate) fn spread(orbit: &[u8], gens: &[Perm]) -> (Vec<u8>, Option<Vec<Vec<u8>>>) {
    let n = gens.first().map_or(0, |g| g.degree());
    let mut best: Option<Vec<usize>> = None;
    let mut best_size = orbit.len();
    for &b in &orbit[1..] {
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut queue = vec![(usize::from(orbit[0]), usize::from(b))];
        let (r0, rb) = (find(&mut parent, queue[0].0), find(&mut parent, queue[0].1));
        parent[r0.max(rb)] = r0.min(rb);
        while let Some((x, y)) = queue.pop() {
            for g in gens {
                let (u, v) = (usize::from(g.image(x as u8)), usize::from(g.image(y as u8)));
                let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
                if ru != rv {
                    parent[ru.max(rv)] = ru.min(rv);
                    queue.push((u, v));
                }
            }
        }
        let root = find(&mut parent, usize::from(orbit[0]));
        let size = orbit
            .iter()
            .filter(|&&p| find(&mut parent, usize::from(p)) == root)
            .count();
        if size < best_size {
            best_size = size;
            best = Some(
                orbit
                    .iter()
                    .map(|&p| find(&mut parent, usize::from(p)))
                    .collect(),
            );
        }
    }
    let Some(roots) = best else {
        return (orbit.to_vec(), None);
    };
    let mut blocks: Vec<(usize, Vec<u8>)> = Vec::new();
    for (&p, &r) in orbit.iter().zip(&roots) {
        match blocks.iter_mut().find(|(root, _)| *root == r) {
            Some((_, members)) => members.push(p),
            None => blocks.push((r, vec![p])),
        }
    }
    let order = (0..best_size)
        .flat_map(|k| blocks.iter().filter_map(move |(_, m)| m.get(k).copied()))
        .collect();
    (order, Some(blocks.into_iter().map(|(_, m)| m).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset;
    use crate::space::Metric;

    #[test]
    fn ranks_and_unranks_agree() {
        // Blocks (the 2x2x2's corners), combinations of distinct points (the Pyraminx's tips),
        // and combinations of alike pieces (TopSpin with two colours).
        let two = format!(
            "{}colours: {{1,2,3,4,5}} {{6,7}}\n",
            preset("topspin10").unwrap().text
        );
        let puzzles = [
            preset("cube2").unwrap().puzzle(),
            preset("pyraminx").unwrap().puzzle(),
            crate::Puzzle::parse("two", &two).unwrap(),
        ];
        for puzzle in &puzzles {
            let model = Model::new(puzzle, Metric::Htm);
            for projection in Tables::plan(&model, 1 << 16) {
                let mut s = projection.cursor();
                for part in &projection.parts {
                    let mut cells = vec![BLANK; part.orbit.len()];
                    let step = (part.len / 997).max(1);
                    for rank in (0..part.len).step_by(step as usize) {
                        part.unrank(rank, &mut cells, &mut s.picks);
                        assert_eq!(part.rank(&cells), rank, "{}", puzzle.name());
                    }
                }
            }
        }
    }

    #[test]
    fn the_2x2x2_fits_one_table_of_placed_and_twisted_corners() {
        let model = Model::new(&preset("cube2").unwrap().puzzle(), Metric::Htm);
        let plans = Tables::plan(&model, 1 << 24);
        assert_eq!(plans.len(), 1);
        // 7 corners placed (7!) and twisted (3^7).
        assert_eq!(plans[0].ranks(), 5040 * 2187);
    }

    #[test]
    fn the_cube_corners_spread_over_their_pieces() {
        // On the cube two facets belong to one piece when every face turn moves both or
        // neither: the first eight corner facets tracked must come from eight corners.
        let puzzle = preset("cube3").unwrap().puzzle();
        let model = Model::new(&puzzle, Metric::Htm);
        let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
        let compact: Vec<Perm> = model
            .moves
            .iter()
            .map(|m| Perm::from_images(m.map.to_vec()).unwrap())
            .collect();
        let orbit = orbits(model.len(), &compact).remove(0);
        let signature = |i: u8| -> Vec<bool> {
            let p = model.points[usize::from(i)];
            gens.iter().map(|g| g.image(p) != p).collect()
        };
        let first: Vec<Vec<bool>> = spread(&orbit, &compact).0[..8]
            .iter()
            .map(|&i| signature(i))
            .collect();
        for a in 0..8 {
            for b in a + 1..8 {
                assert_ne!(first[a], first[b], "{a} {b}");
            }
        }
        // One facet of each of three corners: 8 * 7 * 6 placements, 3^3 twists.
        let plans = Tables::plan(&model, 336 * 27);
        assert_eq!(plans[0].ranks(), 336 * 27);
    }
}
