//! The chain of a puzzle with no subgroup step: phases whose targets are pieces solved (the
//! rest of the puzzle left as it falls), a few more each phase.
//!
//! The generators are left out one at a time: next the one that moves the most pieces
//! placed or placed by leaving it out (the face most surrounded by those gone). Leaving a
//! generator out places the pieces no generator left would still move, so a phase never
//! disturbs the pieces placed before it and its tables follow only the pieces it places.
//! Phases are checked by group orders (Schreier-Sims over a base in the order the pieces
//! are placed): a phase can always reach its target when its moves act on the pieces it
//! places as the whole stabiliser of the pieces placed before does, that is, when the two
//! groups' orbits of the placed pieces have the same size. Generators are left out while the
//! phases so far pass and the generators left generate that whole stabiliser; the last
//! stage keeps those generators and places the rest in sub-phases, the pieces of one
//! generator left out (in the same order) a sub-phase, the pieces that several of them move
//! last, a sub-phase that fails the check being joined to the next. Consecutive phases of
//! the first part are joined up to [`StagedBudget::phase_pieces`] pieces.
//!
//! Each phase is an IDA* over exact tables of sets of its pieces: where the reference facet
//! of each piece of the set is, its distance in the phase's moves, the sets chosen so that
//! every two pieces share one where the tables fit, maxed.

use std::cmp::Reverse;
use std::sync::Arc;
use std::time::Instant;

use std::ops::ControlFlow;

use frontier_search::{prefetch, Limit};
use frontier_tables::{Builder, Coordinates, Table, TableBytes, Visit, Width};
use num_bigint::BigUint;

use super::{
    perms, phase_steps, replayed, support, Found, Item, NotStaged, StagedBudget, Step, DEEPEST,
};
use crate::group::{orbits, Group};
use crate::perm::Perm;
use crate::puzzle::{Puzzle, Turn};

/// A phase of pieces placed, before its tables.
#[derive(Debug)]
pub(super) struct PiecePlan {
    /// The generators it turns.
    pub(super) items: Vec<Item>,
    steps: Vec<Step>,
    /// `commute[a][b]`: items `a` and `b` commute.
    commute: Vec<Vec<bool>>,
    /// Each step's images of the points.
    maps: Vec<Vec<u8>>,
    /// The reference point (the least) of each piece the phase places, then of each piece
    /// placed before that its moves move (they must come back).
    refs: Vec<u8>,
    /// Every point of the pieces placed by the end of the phase.
    kept: Vec<u8>,
    /// Each reference point's orbit under the phase's moves: a point's place in it
    /// (`u32::MAX` outside), and its length.
    local: Vec<Vec<u32>>,
    sizes: Vec<usize>,
    /// The tables: sets of pieces (indices into `refs`).
    sets: Vec<Vec<usize>>,
}

/// A phase of pieces placed, with its tables (one distance a state of each set's pieces).
#[derive(Debug)]
pub(super) struct PiecePhase {
    plan: PiecePlan,
    /// The chain's tables, one after another (four bits an entry), and where each of this
    /// phase's begins, in the order of its plan's sets.
    bytes: Arc<TableBytes>,
    offsets: Vec<usize>,
    /// `shares[t][j * n + p]`: what piece `j` of table `t`'s set adds to the table's rank
    /// when its reference facet is at point `p` (`n` points), so that a rank is a sum of
    /// lookups.
    shares: Vec<Vec<u32>>,
}

impl PiecePlan {
    /// The phase turning `gens`, placing `pieces` (lists of points) after `before`.
    fn new(
        puzzle: &Puzzle,
        gens: &[usize],
        pieces: &[Vec<u8>],
        before: &[Vec<u8>],
        budget: &StagedBudget,
    ) -> PiecePlan {
        let n = puzzle.points();
        let items: Vec<Item> = gens
            .iter()
            .map(|&g| Item {
                generator: g as u8,
                step: 1,
            })
            .collect();
        let phase_perms = perms(puzzle, &items);
        let (steps, commute) = phase_steps(puzzle, &items, &phase_perms);
        let maps = steps
            .iter()
            .map(|s| puzzle.turn_perm(s.turn).images().to_vec())
            .collect();
        let moved = support(n, &phase_perms);
        let refs: Vec<u8> = pieces
            .iter()
            .chain(before.iter().filter(|p| moved[usize::from(p[0])]))
            .map(|p| p[0])
            .collect();
        let kept = before.iter().chain(pieces).flatten().copied().collect();
        let orbs = orbits(n, &phase_perms);
        let mut local = Vec::new();
        let mut sizes = Vec::new();
        for &r in &refs {
            let orbit = orbs
                .iter()
                .find(|o| o.contains(&r))
                .expect("every point is in an orbit");
            let mut l = vec![u32::MAX; n];
            for (i, &p) in orbit.iter().enumerate() {
                l[usize::from(p)] = i as u32;
            }
            local.push(l);
            sizes.push(orbit.len());
        }
        // A table's ranks are summed as `u32` (in the search and in the build).
        let entries = budget.piece_entries.min(u32::MAX as usize);
        let mut sets = cover(&sizes[..pieces.len()], entries);
        // The pieces placed before, in the order they were placed, a set while they fit.
        for i in pieces.len()..refs.len() {
            match sets.last_mut() {
                Some(set)
                    if set[0] >= pieces.len()
                        && set.iter().map(|&j| sizes[j]).product::<usize>() * sizes[i]
                            <= entries =>
                {
                    set.push(i)
                }
                _ => sets.push(vec![i]),
            }
        }
        PiecePlan {
            items,
            steps,
            commute,
            maps,
            refs,
            kept,
            local,
            sizes,
            sets,
        }
    }

    /// The sets of pieces of the phase's tables.
    pub(super) fn sets(&self) -> &[Vec<usize>] {
        &self.sets
    }

    /// The size of the table of `set`.
    pub(super) fn table_len(&self, set: &[usize]) -> usize {
        set.iter().map(|&i| self.sizes[i]).product()
    }

    /// A description of the phase for the tables' cache key.
    pub(super) fn describe(&self) -> String {
        let gens: Vec<String> = self
            .items
            .iter()
            .map(|it| it.generator.to_string())
            .collect();
        format!(
            "{} place {:?} sets {:?} kept {}",
            gens.join(","),
            self.refs,
            self.sets,
            self.kept.len()
        )
    }

    /// The table of `set`: its distances from every piece at home, by the table toolkit's
    /// builder, four bits an entry (15 for 15 moves or more, still a lower bound).
    pub(super) fn build_table(&self, set: &[usize], builder: &Builder) -> Result<Table, Limit> {
        let space = SetSpace::new(self, set);
        let distances = builder.build(&space, &[self.home(set, &space)])?;
        Ok(Table::pack(&distances, Width::Four))
    }

    /// What the table of `set` is made from: two sets (of this phase or another) with the
    /// same key have the same table, so that it is built and stored once.
    pub(super) fn table_key(&self, set: &[usize]) -> TableKey {
        let space = SetSpace::new(self, set);
        TableKey {
            home: self.home(set, &space),
            sizes: space.sizes,
            shares: space.shares,
        }
    }

    /// The rank of `set`'s pieces all at home in `space`, the table's.
    fn home(&self, set: &[usize], space: &SetSpace) -> usize {
        set.iter()
            .zip(&space.strides)
            .map(|(&i, &stride)| self.home_place(i) as usize * stride)
            .sum()
    }

    /// Each piece's digit weight in the ranks of `set`'s table: the first piece the most
    /// significant.
    fn strides(&self, set: &[usize]) -> Vec<usize> {
        (0..set.len())
            .map(|k| set[k + 1..].iter().map(|&i| self.sizes[i]).product())
            .collect()
    }
}

/// A table's space (each piece's places and where each step takes them) and the rank its
/// breadth-first search starts from: all that its distances depend on. A later phase that
/// keeps an earlier one's moves and restores its pieces has tables of the same key.
#[derive(PartialEq, Eq, Hash)]
pub(super) struct TableKey {
    home: usize,
    sizes: Vec<usize>,
    shares: Vec<Vec<u32>>,
}

/// The most generators of a phase whose tables are matched with other phases' under
/// relabelings of the generators ([`PiecePlan::view_onto`]): the relabelings are tried one
/// by one, 384 of them for three generators of order 5.
const RELABELED_ITEMS: usize = 4;

/// The most relabelings of the generators tried for one pair of tables, so that generators
/// of large orders (many powers to map each onto) cost a bounded time: past it the table is
/// built.
const RELABELINGS: usize = 4096;

/// How a phase reads a table: where the table begins, and for each piece of the phase's set
/// (in the set's order) its digit's weight in the table's rank and the table's place for
/// each of the piece's places.
#[derive(Clone, Debug)]
pub(super) struct TableView {
    pub(super) start: usize,
    digits: Vec<(u32, Vec<u32>)>,
}

impl PiecePlan {
    /// The view of `set`'s own table, built for it at `start`.
    pub(super) fn own_view(&self, set: &[usize], start: usize) -> TableView {
        let digits = set
            .iter()
            .zip(self.strides(set))
            .map(|(&i, stride)| (stride as u32, (0..self.sizes[i] as u32).collect()))
            .collect();
        TableView { start, digits }
    }

    /// Each item's generator as a map of piece `i`'s places (`None` if an item moves
    /// nothing, so has no step).
    fn generator_places(&self, i: usize) -> Option<Vec<Vec<u32>>> {
        (0..self.items.len())
            .map(|item| {
                let step = (self.steps.iter())
                    .position(|s| usize::from(s.item) == item && s.power == 1)?;
                Some(self.step_places(i, step))
            })
            .collect()
    }

    /// Step `step` as a map of piece `i`'s places.
    fn step_places(&self, i: usize, step: usize) -> Vec<u32> {
        let mut places = vec![0; self.sizes[i]];
        for (p, &place) in self.local[i].iter().enumerate() {
            if place != u32::MAX {
                places[place as usize] = self.local[i][usize::from(self.maps[step][p])];
            }
        }
        places
    }

    /// The place of piece `i` at home.
    fn home_place(&self, i: usize) -> u32 {
        self.local[i][usize::from(self.refs[i])]
    }

    /// A view of the table of `kept`'s set `kept_set`, which begins at `start`, that reads
    /// as the table of this phase's `set` would, if there is one: a map of the generators of
    /// this phase to powers of `kept`'s (each onto another, of the same order, by a power
    /// prime to it) and a map of the set's pieces and their places onto `kept_set`'s that
    /// take the set's start to the other's and its moves to the other's moves. The two
    /// tables' state graphs are then the same, and so are their distances: a puzzle's
    /// symmetry that keeps the phase's generators maps one set's pieces onto another's so.
    pub(super) fn view_onto(
        &self,
        set: &[usize],
        kept: &PiecePlan,
        kept_set: &[usize],
        start: usize,
    ) -> Option<TableView> {
        let items = self.items.len();
        let mut sizes: Vec<usize> = set.iter().map(|&i| self.sizes[i]).collect();
        let mut kept_sizes: Vec<usize> = kept_set.iter().map(|&i| kept.sizes[i]).collect();
        sizes.sort_unstable();
        kept_sizes.sort_unstable();
        if items > RELABELED_ITEMS || kept.items.len() != items || sizes != kept_sizes {
            return None;
        }
        let powers = |plan: &PiecePlan, item: usize| {
            (plan.steps.iter())
                .filter(|s| usize::from(s.item) == item)
                .count()
        };
        let search = Relabeling {
            plan: self,
            set,
            kept,
            kept_set,
            generators: (set.iter())
                .map(|&i| self.generator_places(i))
                .collect::<Option<_>>()?,
            kept_steps: (kept_set.iter())
                .map(|&i| {
                    (0..kept.steps.len())
                        .map(|s| kept.step_places(i, s))
                        .collect()
                })
                .collect(),
            kept_strides: kept.strides(kept_set),
            // For each item of `kept`, its steps that generate what it does.
            candidates: (0..items)
                .map(|item| {
                    let order = powers(kept, item) + 1;
                    (0..kept.steps.len())
                        .filter(|&s| {
                            let step = &kept.steps[s];
                            usize::from(step.item) == item
                                && (2..=order)
                                    .all(|d| order % d != 0 || usize::from(step.power) % d != 0)
                        })
                        .collect()
                })
                .collect(),
            orders: (0..items).map(|item| powers(self, item)).collect(),
            kept_orders: (0..items).map(|item| powers(kept, item)).collect(),
            tries: std::cell::Cell::new(RELABELINGS),
        };
        let mut chosen = Vec::with_capacity(items);
        let digits = search.items(&mut chosen, &mut vec![false; items])?;
        Some(TableView { start, digits })
    }
}

/// The search for a [`PiecePlan::view_onto`].
struct Relabeling<'a> {
    plan: &'a PiecePlan,
    set: &'a [usize],
    kept: &'a PiecePlan,
    kept_set: &'a [usize],
    /// Each piece of the set's generators as maps of its places.
    generators: Vec<Vec<Vec<u32>>>,
    /// Each piece of `kept_set`'s steps as maps of its places, and its digit weight.
    kept_steps: Vec<Vec<Vec<u32>>>,
    kept_strides: Vec<usize>,
    /// The steps of `kept` each item may be mapped onto, by `kept`'s item.
    candidates: Vec<Vec<usize>>,
    /// Each item's number of powers, in the plan and in `kept`.
    orders: Vec<usize>,
    kept_orders: Vec<usize>,
    /// The relabelings left to try ([`RELABELINGS`]).
    tries: std::cell::Cell<usize>,
}

impl Relabeling<'_> {
    /// Maps the plan's items from `chosen.len()` on to steps of `kept`'s items not `used`,
    /// then the pieces; the view, if some choice works.
    fn items(&self, chosen: &mut Vec<usize>, used: &mut [bool]) -> Option<Vec<(u32, Vec<u32>)>> {
        if self.tries.get() == 0 {
            return None;
        }
        let item = chosen.len();
        if item == self.orders.len() {
            self.tries.set(self.tries.get() - 1);
            let mut digits = vec![None; self.set.len()];
            return self.pieces(chosen, 0, &mut digits, &mut vec![false; self.set.len()]);
        }
        for onto in 0..used.len() {
            if used[onto] || self.kept_orders[onto] != self.orders[item] {
                continue;
            }
            used[onto] = true;
            for &step in &self.candidates[onto] {
                chosen.push(step);
                if let Some(view) = self.items(chosen, used) {
                    return Some(view);
                }
                chosen.pop();
            }
            used[onto] = false;
        }
        None
    }

    /// Matches the set's pieces from `j` on with `kept_set`'s not `taken`, the items
    /// mapped onto `steps`; the view, if a matching works.
    fn pieces(
        &self,
        steps: &[usize],
        j: usize,
        digits: &mut Vec<Option<(u32, Vec<u32>)>>,
        taken: &mut [bool],
    ) -> Option<Vec<(u32, Vec<u32>)>> {
        if j == self.set.len() {
            return digits.iter().cloned().collect();
        }
        let i = self.set[j];
        for k in 0..self.kept_set.len() {
            let kept_i = self.kept_set[k];
            if taken[k] || self.kept.sizes[kept_i] != self.plan.sizes[i] {
                continue;
            }
            let Some(places) = self.places(j, k, steps) else {
                continue;
            };
            taken[k] = true;
            digits[j] = Some((self.kept_strides[k] as u32, places));
            if let Some(view) = self.pieces(steps, j + 1, digits, taken) {
                return Some(view);
            }
            taken[k] = false;
        }
        None
    }

    /// The map of the places of the set's piece `j` onto those of `kept_set`'s piece `k`
    /// that takes home to home and each generator to its step of `steps`, if there is one.
    fn places(&self, j: usize, k: usize, steps: &[usize]) -> Option<Vec<u32>> {
        let (i, kept_i) = (self.set[j], self.kept_set[k]);
        let size = self.plan.sizes[i];
        let mut places = vec![u32::MAX; size];
        let mut used = vec![false; size];
        let home = self.plan.home_place(i) as usize;
        places[home] = self.kept.home_place(kept_i);
        used[places[home] as usize] = true;
        let mut stack = vec![home];
        while let Some(q) = stack.pop() {
            let r = places[q] as usize;
            for (generator, &step) in self.generators[j].iter().zip(steps) {
                let (q2, r2) = (generator[q] as usize, self.kept_steps[k][step][r]);
                if places[q2] == u32::MAX {
                    if used[r2 as usize] {
                        return None;
                    }
                    places[q2] = r2;
                    used[r2 as usize] = true;
                    stack.push(q2);
                } else if places[q2] != r2 {
                    return None;
                }
            }
        }
        // The places are one orbit of the phase's moves: all are reached from home.
        Some(places)
    }
}

/// The states of a set of pieces as table ranks: the place of each piece's reference
/// facet in its orbit under the phase's moves, the first piece the most significant digit.
struct SetSpace {
    /// Each piece's number of places, and its digit's weight.
    sizes: Vec<usize>,
    strides: Vec<usize>,
    /// The phase's number of steps.
    steps: usize,
    /// `shares[k][place * steps + step]`: the part of a successor's rank that piece `k` of
    /// the set, at `place`, gives after `step` (its new place times its weight). A
    /// successor's rank is the sum over the pieces, and a piece's row of all steps is one
    /// contiguous slice, so all successors are summed at once.
    shares: Vec<Vec<u32>>,
}

/// A worker's place in a [`SetSpace`]: the last rank it decoded, that rank's digits, and
/// the part of its successors' ranks that all but the last piece give. The builder asks for
/// ranks in increasing order within a chunk, most often a few apart, so a rank is usually
/// the last one with only its last digit moved on: no division, and one row of shares added.
struct SetCursor {
    rank: usize,
    digits: Vec<usize>,
    base: Vec<u32>,
}

impl SetSpace {
    fn new(plan: &PiecePlan, set: &[usize]) -> SetSpace {
        let sizes: Vec<usize> = set.iter().map(|&i| plan.sizes[i]).collect();
        let strides = plan.strides(set);
        let steps = plan.maps.len();
        let shares = set
            .iter()
            .zip(&strides)
            .map(|(&i, &stride)| {
                let mut row = vec![0u32; plan.sizes[i] * steps];
                // Each point of the piece's orbit, by its place.
                for (p, &place) in plan.local[i].iter().enumerate() {
                    if place == u32::MAX {
                        continue;
                    }
                    for (step, m) in plan.maps.iter().enumerate() {
                        let to = plan.local[i][usize::from(m[p])];
                        row[place as usize * steps + step] = to * stride as u32;
                    }
                }
                row
            })
            .collect();
        SetSpace {
            sizes,
            strides,
            steps,
            shares,
        }
    }

    /// Points `cursor` at `rank`: its digits, and its successors' shares but the last piece's.
    #[inline(always)]
    fn seek(&self, rank: usize, cursor: &mut SetCursor) {
        let last = self.sizes.len() - 1;
        if let Some(ahead) = rank.checked_sub(cursor.rank) {
            let digit = cursor.digits[last] + ahead;
            if digit < self.sizes[last] {
                cursor.rank = rank;
                cursor.digits[last] = digit;
                return;
            }
        }
        self.decode(rank, cursor);
    }

    /// Points `cursor` at `rank` from scratch.
    #[inline(never)]
    fn decode(&self, rank: usize, cursor: &mut SetCursor) {
        let last = self.sizes.len() - 1;
        let mut rest = rank;
        for (d, &stride) in cursor.digits.iter_mut().zip(&self.strides) {
            *d = rest / stride;
            rest %= stride;
        }
        cursor.base.fill(0);
        for (&d, row) in cursor.digits[..last].iter().zip(&self.shares) {
            let row = &row[d * self.steps..(d + 1) * self.steps];
            for (b, &share) in cursor.base.iter_mut().zip(row) {
                *b += share;
            }
        }
        cursor.rank = rank;
    }
}

impl Coordinates for SetSpace {
    type Cursor = SetCursor;

    fn len(&self) -> usize {
        self.sizes.iter().product()
    }

    fn branching(&self) -> usize {
        self.steps
    }

    fn cursor(&self) -> SetCursor {
        SetCursor {
            // Past every rank: the first rank asked for is decoded in full.
            rank: usize::MAX,
            digits: vec![0; self.sizes.len()],
            base: vec![0; self.steps],
        }
    }

    fn each_successor(
        &self,
        rank: usize,
        cursor: &mut SetCursor,
        visit: &mut impl Visit,
    ) -> ControlFlow<()> {
        self.seek(rank, cursor);
        let last = self.sizes.len() - 1;
        let d = cursor.digits[last];
        let row = &self.shares[last][d * self.steps..(d + 1) * self.steps];
        for (&b, &share) in cursor.base.iter().zip(row) {
            visit.visit((b + share) as usize)?;
        }
        ControlFlow::Continue(())
    }
}

/// Sets of pieces (indices into `sizes`, each piece's number of places) for the tables,
/// so that every three pieces (every two, where three do not fit `entries`) share one:
/// each set begun with the first three (or two) not yet together, grown by the piece that
/// brings the most such triples (then pairs) together while the product of sizes fits; a
/// piece in no set alone. Three rather than two: the tables then see the pieces that a move
/// sequence must place together, at the cost of about twice the tables.
fn cover(sizes: &[usize], entries: usize) -> Vec<Vec<usize>> {
    let k = sizes.len();
    let mut pairs = vec![false; k * k];
    let mut triples = vec![false; k * k * k];
    let fits = |set: &[usize]| {
        set.iter()
            .try_fold(1usize, |size, &i| size.checked_mul(sizes[i]))
            .is_some_and(|size| size <= entries)
    };
    let mut sets: Vec<Vec<usize>> = Vec::new();
    loop {
        let triple = (0..k)
            .flat_map(|a| (a + 1..k).flat_map(move |b| (b + 1..k).map(move |c| [a, b, c])))
            .find(|&[a, b, c]| !triples[(a * k + b) * k + c] && fits(&[a, b, c]));
        let start = match triple {
            Some(t) => t.to_vec(),
            None => {
                let pair = (0..k)
                    .flat_map(|a| (a + 1..k).map(move |b| [a, b]))
                    .find(|&[a, b]| !pairs[a * k + b] && fits(&[a, b]));
                match pair {
                    Some(p) => p.to_vec(),
                    None => break,
                }
            }
        };
        let mut set = start;
        loop {
            let gain = |c: usize| {
                let mut new = (0, 0);
                for (x, &a) in set.iter().enumerate() {
                    let (lo, hi) = (a.min(c), a.max(c));
                    new.1 += usize::from(!pairs[lo * k + hi]);
                    for &b in &set[x + 1..] {
                        let mut t = [a, b, c];
                        t.sort_unstable();
                        new.0 += usize::from(!triples[(t[0] * k + t[1]) * k + t[2]]);
                    }
                }
                new
            };
            let best = (0..k)
                .filter(|&c| !set.contains(&c) && fits(&[set.as_slice(), &[c]].concat()))
                .map(|c| (Reverse(gain(c)), sizes[c], c))
                .min();
            match best {
                Some((Reverse(g), _, c)) if g != (0, 0) => set.push(c),
                _ => break,
            }
        }
        set.sort_unstable();
        for (x, &a) in set.iter().enumerate() {
            for (y, &b) in set.iter().enumerate().skip(x + 1) {
                pairs[a * k + b] = true;
                for &c in &set[y + 1..] {
                    triples[(a * k + b) * k + c] = true;
                }
            }
        }
        sets.push(set);
    }
    for p in 0..k {
        if !sets.iter().any(|s| s.contains(&p)) {
            sets.push(vec![p]);
        }
    }
    sets
}

/// The pieces: blocks of the whole puzzle's orbits, each a list of points (least first),
/// only those some generator moves.
fn pieces(puzzle: &Puzzle) -> Vec<Vec<u8>> {
    let n = puzzle.points();
    let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
    let moved = support(n, &gens);
    let piece_of = super::piece_ids(puzzle);
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for p in (0..n).filter(|&p| moved[p]) {
        let root = piece_of[p];
        if index[root] == usize::MAX {
            index[root] = out.len();
            out.push(Vec::new());
        }
        out[index[root]].push(p as u8);
    }
    out
}

/// The generators in the order they are left out, each with the pieces that leaving it
/// out places (`moves[u][g]`: generator `g` moves piece `u`).
fn drop_order(moves: &[Vec<bool>], gens: usize) -> Vec<(usize, Vec<usize>)> {
    let units = moves.len();
    let mut placed = vec![false; units];
    let mut live = vec![true; gens];
    let mut out = Vec::new();
    let fresh = |g: usize, live: &[bool], placed: &[bool]| -> Vec<usize> {
        (0..units)
            .filter(|&u| {
                !placed[u] && moves[u][g] && (0..gens).all(|h| h == g || !live[h] || !moves[u][h])
            })
            .collect()
    };
    while let Some((_, _, g)) = (0..gens)
        .filter(|&g| live[g])
        .map(|g| {
            let f = fresh(g, &live, &placed).len();
            let spent = (0..units).filter(|&u| placed[u] && moves[u][g]).count() + f;
            (Reverse(spent), f, g)
        })
        .min()
    {
        let f = fresh(g, &live, &placed);
        live[g] = false;
        for &u in &f {
            placed[u] = true;
        }
        out.push((g, f));
    }
    out
}

/// The order of the part of the group a phase's moves must cover, from chains of the same
/// base: the orbit of the points `from..to` of the base under the stabiliser of the points
/// before them.
fn index(chain: &Group, from: usize, to: usize) -> BigUint {
    chain.stabiliser_order(from) / chain.stabiliser_order(to)
}

/// A chain of pieces placed before its tables are planned: each phase's generators and the
/// pieces it places (each a list of points). Working it out takes group orders over many
/// bases (most of a second for the Megaminx), so it is cached beside the tables.
pub(super) type Skeleton = Vec<(Vec<usize>, Vec<Vec<u8>>)>;

/// The phases of `skeleton`, without their tables.
pub(super) fn plans(puzzle: &Puzzle, skeleton: &Skeleton, budget: &StagedBudget) -> Vec<PiecePlan> {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    skeleton
        .iter()
        .map(|(gens, pieces)| {
            let plan = PiecePlan::new(puzzle, gens, pieces, &kept, budget);
            kept.extend(pieces.iter().cloned());
            plan
        })
        .collect()
}

/// `skeleton` as bytes: the number of phases (two bytes, little-endian), then for each
/// its number of generators and their indices, its number of pieces and each piece's
/// number of points and its points, a byte each.
pub(super) fn encode(skeleton: &Skeleton) -> Vec<u8> {
    let mut out = (skeleton.len() as u16).to_le_bytes().to_vec();
    for (gens, pieces) in skeleton {
        out.push(gens.len() as u8);
        out.extend(gens.iter().map(|&g| g as u8));
        out.push(pieces.len() as u8);
        for piece in pieces {
            out.push(piece.len() as u8);
            out.extend(piece);
        }
    }
    out
}

/// The skeleton of `bytes` (made by [`encode`]), or `None` if they do not describe one of
/// `puzzle`'s.
pub(super) fn decode(puzzle: &Puzzle, bytes: &[u8]) -> Option<Skeleton> {
    let mut rest = bytes;
    let mut take = |count: usize| -> Option<&[u8]> {
        let (head, tail) = rest.split_at_checked(count)?;
        rest = tail;
        Some(head)
    };
    let phases = u16::from_le_bytes(take(2)?.try_into().ok()?);
    let mut skeleton = Vec::new();
    for _ in 0..phases {
        let count = usize::from(take(1)?[0]);
        let gens: Vec<usize> = take(count)?.iter().map(|&g| usize::from(g)).collect();
        let count = usize::from(take(1)?[0]);
        let mut pieces = Vec::new();
        for _ in 0..count {
            let len = usize::from(take(1)?[0]);
            pieces.push(take(len)?.to_vec());
        }
        let fits = gens.iter().all(|&g| g < puzzle.generators().len())
            && pieces
                .iter()
                .flatten()
                .all(|&p| usize::from(p) < puzzle.points())
            && !gens.is_empty()
            && pieces.iter().all(|p| !p.is_empty());
        if !fits {
            return None;
        }
        skeleton.push((gens, pieces));
    }
    rest.is_empty().then_some(skeleton)
}

/// The chain of pieces placed of `puzzle`.
pub(super) fn skeleton(puzzle: &Puzzle, budget: &StagedBudget) -> Result<Skeleton, NotStaged> {
    let n = puzzle.points();
    let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
    let units = pieces(puzzle);
    let moves: Vec<Vec<bool>> = units
        .iter()
        .map(|u| {
            gens.iter()
                .map(|g| u.iter().any(|&p| g.image(p) != p))
                .collect()
        })
        .collect();
    let drops = drop_order(&moves, gens.len());
    let perms_of =
        |live: &[usize]| -> Vec<Perm> { live.iter().map(|&g| gens[g].clone()).collect() };
    let points_of =
        |us: &[usize]| -> Vec<u8> { us.iter().flat_map(|&u| units[u].iter().copied()).collect() };
    // The base: the pieces in the order they are placed, then the points no move moves.
    let base_of = |order: &[usize]| -> Vec<u8> {
        let mut base = points_of(order);
        let mut seen = vec![false; n];
        for &p in &base {
            seen[usize::from(p)] = true;
        }
        base.extend((0..n as u8).filter(|&p| !seen[usize::from(p)]));
        base
    };
    let order: Vec<usize> = drops.iter().flat_map(|(_, f)| f.iter().copied()).collect();
    let base = base_of(&order);
    let whole = Group::with_full_base(n, &gens, &base);
    // The first part: phases of generators left out, while they pass and the generators
    // left still generate the stabiliser of the pieces placed.
    let mut live: Vec<usize> = (0..gens.len()).collect();
    let mut placed_points = 0;
    let mut first = 0;
    for (t, (g, fresh)) in drops.iter().enumerate() {
        let count: usize = fresh.iter().map(|&u| units[u].len()).sum();
        let chain = Group::with_full_base(n, &perms_of(&live), &base);
        let passes = index(&chain, placed_points, placed_points + count)
            == index(&whole, placed_points, placed_points + count);
        if !passes {
            break;
        }
        live.retain(|h| h != g);
        placed_points += count;
        if Group::new(n, &perms_of(&live)).order() == whole.stabiliser_order(placed_points) {
            first = t + 1;
        }
    }
    let mut plans = Vec::new();
    let mut live: Vec<usize> = (0..gens.len()).collect();
    let mut batch: Vec<usize> = Vec::new();
    let mut batch_live = live.clone();
    for (g, fresh) in &drops[..first] {
        if !batch.is_empty() && batch.len() + fresh.len() > budget.phase_pieces {
            let pieces: Vec<Vec<u8>> = batch.iter().map(|&u| units[u].clone()).collect();
            plans.push((batch_live.clone(), pieces));
            batch.clear();
        }
        if batch.is_empty() {
            batch_live = live.clone();
        }
        batch.extend(fresh);
        live.retain(|h| h != g);
    }
    if !batch.is_empty() {
        let pieces: Vec<Vec<u8>> = batch.iter().map(|&u| units[u].clone()).collect();
        plans.push((batch_live.clone(), pieces));
    }
    // The last stage: the generators left, the rest of the pieces a generator left out at
    // a time, those that several of them move last.
    let several = |u: usize| live.iter().filter(|&&g| moves[u][g]).count() > 1;
    let mut targets: Vec<Vec<usize>> = drops[first..]
        .iter()
        .map(|(_, f)| {
            f.iter()
                .copied()
                .filter(|&u| !several(u))
                .collect::<Vec<_>>()
        })
        .filter(|t| !t.is_empty())
        .collect();
    let late: Vec<usize> = drops[first..]
        .iter()
        .flat_map(|(_, f)| f.iter().copied().filter(|&u| several(u)))
        .collect();
    if !late.is_empty() {
        targets.push(late);
    }
    let order: Vec<usize> = drops[..first]
        .iter()
        .flat_map(|(_, f)| f.iter().copied())
        .chain(targets.iter().flatten().copied())
        .collect();
    let base = base_of(&order);
    let whole = Group::with_full_base(n, &gens, &base);
    let chain = Group::with_full_base(n, &perms_of(&live), &base);
    // The points placed by the first part's phases.
    let mut from: usize = plans
        .iter()
        .flat_map(|(_, pieces)| pieces)
        .map(Vec::len)
        .sum();
    let mut pending: Vec<usize> = Vec::new();
    for (k, target) in targets.iter().enumerate() {
        pending.extend(target);
        let to = from + points_of(&pending).len();
        if k + 1 < targets.len() && index(&chain, from, to) != index(&whole, from, to) {
            continue;
        }
        let pieces: Vec<Vec<u8>> = pending.iter().map(|&u| units[u].clone()).collect();
        plans.push((live.clone(), pieces));
        pending.clear();
        from = to;
    }
    if plans.len() > budget.phases {
        return Err(NotStaged::TooManyPhases(budget.phases));
    }
    Ok(plans)
}

/// Entry `i` of the four-bit table that begins at `start` in `bytes`.
#[inline]
fn nibble(bytes: &[u8], start: usize, i: usize) -> usize {
    usize::from((bytes[start + i / 2] >> ((i % 2) * 4)) & 15)
}

/// The running search of one phase.
struct Search<'a> {
    phase: &'a PiecePhase,
    /// The next phase, whose start decides between equally short answers.
    next: Option<&'a PiecePhase>,
    puzzle: &'a Puzzle,
    /// The phase's start: the home point of the piece at each point.
    start: &'a [u8],
    /// Ends (in the same form) not to answer with: tried already, the next phase ran long
    /// from each.
    tried: &'a [Vec<u8>],
    /// One state a depth: where each reference facet is.
    stack: Vec<Vec<u8>>,
    /// A depth's children, one state a step, and the steps kept with their first table's
    /// entries.
    kids: Vec<Vec<u8>>,
    keep: Vec<Vec<(u16, u32)>>,
    path: Vec<Turn>,
    /// The best answer found so far, with the next phase's estimate from its end.
    best: Option<(usize, Vec<Turn>)>,
    /// The answers found so far.
    found: usize,
    /// The node count past which the search takes the best answer found.
    enough: u64,
    nodes: u64,
    most: u64,
    deadline: Option<Instant>,
}

/// The most equally short answers a phase weighs against each other.
const ANSWERS: usize = 256;

/// The nodes a phase may spend weighing answers, beyond those it took to find the first.
const WEIGHING: u64 = 100_000;

impl PiecePhase {
    /// The phase of `plan` with its tables, the table of each set (in the plan's order) read
    /// through its entry of `views` in `bytes`, the tables that say most first: a search
    /// reads them in this order and stops at the first that cuts a state off.
    pub(super) fn new(
        mut plan: PiecePlan,
        bytes: Arc<TableBytes>,
        views: Vec<TableView>,
    ) -> PiecePhase {
        let mut order: Vec<(usize, TableView, Vec<usize>)> = std::mem::take(&mut plan.sets)
            .into_iter()
            .zip(views)
            .map(|(set, view)| {
                let len = plan.table_len(&set);
                // The mean of a sample of the table's entries.
                let step = (len / 4096).max(1);
                let sum: usize = (0..len)
                    .step_by(step)
                    .map(|i| nibble(&bytes, view.start, i))
                    .sum();
                (sum * 4096 / (len / step).max(1), view, set)
            })
            .collect();
        order.sort_by_key(|(strength, _, _)| Reverse(*strength));
        let n = plan.local.first().map_or(0, Vec::len);
        let mut offsets = Vec::with_capacity(order.len());
        let mut shares = Vec::with_capacity(order.len());
        let mut sets = Vec::with_capacity(order.len());
        for (_, view, set) in order {
            let mut table_shares = vec![0u32; set.len() * n];
            for (j, (&i, (weight, places))) in set.iter().zip(&view.digits).enumerate() {
                for (p, &place) in plan.local[i].iter().enumerate() {
                    if place != u32::MAX {
                        table_shares[j * n + p] = places[place as usize] * weight;
                    }
                }
            }
            offsets.push(view.start);
            shares.push(table_shares);
            sets.push(set);
        }
        plan.sets = sets;
        PiecePhase {
            plan,
            bytes,
            offsets,
            shares,
        }
    }

    /// The plan of the phase.
    pub(super) fn plan(&self) -> &PiecePlan {
        &self.plan
    }

    /// The entry of `state` (where each reference facet is) in table `t`.
    #[inline]
    fn rank(&self, t: usize, state: &[u8]) -> usize {
        let shares = &self.shares[t];
        let n = shares.len() / self.plan.sets[t].len();
        self.plan.sets[t]
            .iter()
            .enumerate()
            .map(|(j, &i)| shares[j * n + usize::from(state[i])] as usize)
            .sum()
    }

    /// Entry `rank` of table `t`.
    #[inline]
    fn entry(&self, t: usize, rank: usize) -> usize {
        nibble(&self.bytes, self.offsets[t], rank)
    }

    /// The phase's lower bound on the moves left from `state` (where each reference facet
    /// is), or any bound past `limit` (the first table's that says so).
    #[inline]
    fn estimate(&self, state: &[u8], limit: usize) -> usize {
        let mut h = 0;
        for t in 0..self.offsets.len() {
            h = h.max(self.entry(t, self.rank(t, state)));
            if h > limit {
                break;
            }
        }
        h
    }
}

impl Search<'_> {
    /// The path's end, the home point of the piece at each point, if it places every piece
    /// of the phase and keeps the earlier ones and was not tried before (asked only where
    /// every table says 0, so the state is rebuilt from the start).
    fn end(&self) -> Option<Vec<u8>> {
        let at = replayed(self.puzzle, self.start, &self.path);
        let placed = self
            .phase
            .plan
            .kept
            .iter()
            .all(|&q| at[usize::from(q)] == q);
        (placed && !self.tried.contains(&at)).then_some(at)
    }

    /// Keeps the path if the next phase starts nearer from its end than from the best
    /// answer's so far; whether to stop weighing.
    fn weigh(&mut self, at: &[u8]) -> bool {
        let Some(next) = self.next else {
            self.best = Some((0, self.path.clone()));
            return true;
        };
        let mut place = vec![0u8; at.len()];
        for (q, &home) in at.iter().enumerate() {
            place[usize::from(home)] = q as u8;
        }
        let state: Vec<u8> = next
            .plan
            .refs
            .iter()
            .map(|&r| place[usize::from(r)])
            .collect();
        let score = next.estimate(&state, usize::MAX);
        if self.best.as_ref().is_none_or(|(b, _)| score < *b) {
            self.best = Some((score, self.path.clone()));
        }
        if self.found == 0 {
            self.enough = self.nodes.saturating_add(WEIGHING);
        }
        self.found += 1;
        self.found >= ANSWERS || score == 0
    }

    /// Searches below the state at `depth`, whose bound `h` is within `bound`.
    fn dfs(&mut self, depth: usize, h: usize, bound: usize, last: Option<u8>) -> Found {
        if h == 0 {
            if let Some(at) = self.end() {
                if self.weigh(&at) {
                    return Found::Yes;
                }
                // Other answers of this length: the bound is not raised past it.
                return Found::No(usize::MAX / 2);
            }
        }
        if depth + 1 >= self.stack.len() {
            return Found::No(usize::MAX / 2);
        }
        if depth >= bound {
            return Found::No(bound + 1);
        }
        self.nodes += 1;
        if self.best.is_some() && self.nodes > self.enough {
            return Found::Yes;
        }
        if self.nodes > self.most
            || (self.nodes.is_multiple_of(65_536)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Found::Stop;
        }
        let phase = self.phase;
        let plan = &phase.plan;
        let k = plan.refs.len();
        let limit = bound - depth - 1;
        // Every child first, its first table's entry prefetched; then that entry read for
        // each; then each child it keeps read in the other tables and searched.
        let mut kids = std::mem::take(&mut self.kids[depth]);
        let mut keep = std::mem::take(&mut self.keep[depth]);
        keep.clear();
        let mut least = usize::MAX / 2;
        let here = &self.stack[depth];
        for (j, (s, map)) in plan.steps.iter().zip(&plan.maps).enumerate() {
            let item = usize::from(s.item);
            if let Some(l) = last {
                let l = usize::from(l);
                if l == item || (plan.commute[l][item] && item < l) {
                    continue;
                }
            }
            let kid = &mut kids[j * k..(j + 1) * k];
            for (c, x) in here.iter().zip(kid.iter_mut()) {
                *x = map[usize::from(*c)];
            }
            let rank = phase.rank(0, kid);
            prefetch(
                phase
                    .bytes
                    .as_ptr()
                    .wrapping_add(phase.offsets[0] + rank / 2),
            );
            keep.push((j as u16, rank as u32));
        }
        keep.retain(|&(_, rank)| {
            let h = phase.entry(0, rank as usize);
            if h > limit {
                least = least.min(depth + 1 + h);
                return false;
            }
            true
        });
        let mut result = None;
        for &(j, _) in &keep {
            let j = usize::from(j);
            let kid = &kids[j * k..(j + 1) * k];
            let h = phase.estimate(kid, limit);
            if h > limit {
                least = least.min(depth + 1 + h);
                continue;
            }
            self.stack[depth + 1].copy_from_slice(kid);
            let s = &plan.steps[j];
            self.path.push(s.turn);
            match self.dfs(depth + 1, h, bound, Some(s.item)) {
                Found::No(b) => least = least.min(b),
                done => {
                    result = Some(done);
                    break;
                }
            }
            self.path.pop();
        }
        self.kids[depth] = kids;
        self.keep[depth] = keep;
        result.unwrap_or(Found::No(least))
    }
}

impl PiecePhase {
    /// Moves of the phase that take `current` (which keeps the earlier phases' pieces) to
    /// its target but to none of the positions `tried`, or `None` past `most` nodes or the
    /// deadline: of the shortest, the first found from whose end `next` (the next phase)
    /// estimates the fewest moves, weighed while a few more nodes are spent.
    pub(super) fn solve(
        &self,
        next: Option<&PiecePhase>,
        puzzle: &Puzzle,
        current: &Perm,
        tried: &[Perm],
        most: u64,
        deadline: Option<Instant>,
    ) -> Option<Vec<Turn>> {
        // The home point of the piece at each point: the inverse's images.
        let at = current.inverse().images().to_vec();
        let tried: Vec<Vec<u8>> = tried
            .iter()
            .map(|t| t.inverse().images().to_vec())
            .collect();
        let start: Vec<u8> = self.plan.refs.iter().map(|&r| current.image(r)).collect();
        let mut search = Search {
            phase: self,
            next,
            puzzle,
            start: &at,
            tried: &tried,
            stack: vec![start; DEEPEST + 1],
            kids: vec![vec![0; self.plan.steps.len() * self.plan.refs.len()]; DEEPEST + 1],
            keep: (0..=DEEPEST)
                .map(|_| Vec::with_capacity(self.plan.steps.len()))
                .collect(),
            path: Vec::new(),
            best: None,
            found: 0,
            enough: u64::MAX,
            nodes: 0,
            most,
            deadline,
        };
        let h = self.estimate(&search.stack[0], usize::MAX);
        let mut bound = h;
        loop {
            let result = search.dfs(0, h, bound, None);
            if let Some((_, path)) = search.best.take() {
                return Some(path);
            }
            match result {
                Found::Yes | Found::Stop => return None,
                Found::No(b) if b < DEEPEST => bound = b,
                Found::No(_) => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cover, decode, encode, perms, skeleton, support, Item, PiecePlan, SetSpace};
    use crate::preset;
    use crate::puzzle::Puzzle;
    use crate::staged::{Staged, StagedBudget};
    use frontier_tables::{Builder, Coordinates, Table};

    /// The Pyraminx forced onto a chain of pieces (no subgroup step within 2^4 elements).
    fn pyraminx_chain() -> (Puzzle, Staged) {
        let budget = StagedBudget {
            last_log2: 4.0,
            piece_entries: 1 << 16,
            phase_pieces: 4,
            ..StagedBudget::default()
        };
        let pyraminx = preset("pyraminx").unwrap().puzzle();
        let staged = Staged::build(&pyraminx, &budget, &Builder::new()).unwrap();
        (pyraminx, staged)
    }

    #[test]
    fn a_phase_answers_with_an_end_not_tried_before() {
        // The first phase, asked again with each end it gave so far ruled out, answers each
        // time with a new end that still places its pieces.
        let (pyraminx, staged) = pyraminx_chain();
        let position = pyraminx.apply(&pyraminx.parse_moves("U L' R B U' l r' b").unwrap());
        let phase = &staged.pieces[0];
        let mut tried = Vec::new();
        for _ in 0..4 {
            let moves = phase
                .solve(
                    staged.pieces.get(1),
                    &pyraminx,
                    &position,
                    &tried,
                    u64::MAX,
                    None,
                )
                .expect("another answer");
            let end = position.then(&pyraminx.apply(&moves));
            assert!(
                phase.plan.kept.iter().all(|&q| end.image(q) == q),
                "{moves:?}"
            );
            assert!(!tried.contains(&end), "{moves:?} again");
            tried.push(end);
        }
        // The whole chain places every piece, so the inverse position's answer, undone,
        // answers the position (what the solver falls back on when the first phase runs long).
        let (_, moves) = staged
            .place_pieces(&position.inverse(), u64::MAX, false, None)
            .unwrap();
        let answer = pyraminx.inverse_moves(&moves);
        assert!(position.then(&pyraminx.apply(&answer)).is_identity());
    }

    #[test]
    fn each_table_holds_the_distances_of_a_search_over_the_pieces_points() {
        // Every phase's every table against a breadth-first search over where its pieces'
        // reference points are, the steps applied to points (not to ranks): a wrong rank,
        // weight or successor shows.
        let (_, staged) = pyraminx_chain();
        let mut checked = 0;
        for phase in &staged.pieces {
            let plan = &phase.plan;
            for (t, set) in plan.sets.iter().enumerate() {
                let home: Vec<u8> = set.iter().map(|&i| plan.refs[i]).collect();
                let mut seen = std::collections::HashMap::from([(home.clone(), 0usize)]);
                let mut layer = vec![home];
                let mut depth = 0;
                while !layer.is_empty() {
                    let mut next = Vec::new();
                    for at in &layer {
                        for map in &plan.maps {
                            let to: Vec<u8> = at.iter().map(|&p| map[usize::from(p)]).collect();
                            if !seen.contains_key(&to) {
                                seen.insert(to.clone(), depth + 1);
                                next.push(to);
                            }
                        }
                    }
                    layer = next;
                    depth += 1;
                }
                for (at, &d) in &seen {
                    let mut state = vec![0u8; plan.refs.len()];
                    for (&i, &p) in set.iter().zip(at) {
                        state[i] = p;
                    }
                    assert_eq!(phase.entry(t, phase.rank(t, &state)), d.min(15), "{at:?}");
                }
                checked += seen.len();
            }
        }
        assert!(checked > 10_000, "{checked} states");
        // A phase that restores an earlier one's pieces with its moves reads that one's
        // tables (checked above as each phase reads them), stored once.
        let starts: Vec<usize> = (staged.pieces.iter())
            .flat_map(|phase| phase.offsets.iter().copied())
            .collect();
        let distinct: std::collections::HashSet<usize> = starts.iter().copied().collect();
        assert!(distinct.len() < starts.len(), "{} tables", starts.len());
    }

    #[test]
    fn a_table_read_through_another_sets_view_holds_its_own_distances() {
        // The 3x3x3's <U, R, F>: the turns of the corner those faces share (and the mirrors
        // through it) keep the three faces, mapping pairs of its pieces onto other pairs.
        // Every view found between two pairs reads the other pair's table as the pair's own.
        let cube = preset("cube3").unwrap().puzzle();
        let gens: Vec<usize> = ["U", "R", "F"]
            .iter()
            .map(|name| {
                cube.generators()
                    .iter()
                    .position(|g| g.name == *name)
                    .unwrap()
            })
            .collect();
        let moved = support(
            cube.points(),
            &perms(
                &cube,
                &gens
                    .iter()
                    .map(|&g| Item {
                        generator: g as u8,
                        step: 1,
                    })
                    .collect::<Vec<_>>(),
            ),
        );
        let placed: Vec<Vec<u8>> = (super::pieces(&cube).into_iter())
            .filter(|piece| moved[usize::from(piece[0])])
            .collect();
        let plan = PiecePlan::new(&cube, &gens, &placed, &[], &StagedBudget::default());
        let pairs: Vec<[usize; 2]> = (0..placed.len())
            .flat_map(|a| (a + 1..placed.len()).map(move |b| [a, b]))
            .collect();
        let builder = Builder::new();
        let tables: Vec<Table> = (pairs.iter())
            .map(|pair| plan.build_table(pair, &builder).unwrap())
            .collect();
        let mut views = 0;
        for (x, pair) in pairs.iter().enumerate() {
            for (y, kept) in pairs.iter().enumerate().filter(|&(y, _)| y != x) {
                let Some(view) = plan.view_onto(pair, &plan, kept, 0) else {
                    continue;
                };
                views += 1;
                let own = SetSpace::new(&plan, pair);
                for rank in 0..own.len() {
                    let digits = [rank / own.strides[0], rank % own.strides[0]];
                    let read: u32 = (digits.iter().zip(&view.digits))
                        .map(|(&d, (weight, places))| places[d] * weight)
                        .sum();
                    assert_eq!(
                        tables[y].get(read as usize),
                        tables[x].get(rank),
                        "{pair:?} read as {kept:?}, rank {rank}"
                    );
                }
            }
        }
        // (492 of the 14,280 ordered pairs of pairs here.)
        assert!(views > 100, "{views} views");
    }

    #[test]
    fn a_skeleton_reads_back_as_written_and_refuses_what_does_not_fit() {
        let pyraminx = preset("pyraminx").unwrap().puzzle();
        let chain = skeleton(&pyraminx, &StagedBudget::default()).unwrap();
        assert!(chain.len() > 1, "{chain:?}");
        let bytes = encode(&chain);
        assert_eq!(decode(&pyraminx, &bytes), Some(chain));
        // Cut short, one byte too many, or a generator the puzzle lacks.
        assert_eq!(decode(&pyraminx, &bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(&pyraminx, &[bytes.as_slice(), &[0]].concat()), None);
        let mut wrong = bytes.clone();
        wrong[3] = 200;
        assert_eq!(decode(&pyraminx, &wrong), None);
    }

    #[test]
    fn every_three_pieces_and_every_two_that_fit_share_a_set() {
        // Seven pieces of 60 places (the Megaminx's first phase) and a mix of sizes.
        for (sizes, entries) in [
            (vec![60; 7], 1 << 24),
            (vec![60, 24, 30, 60, 24, 5, 300], 100_000),
        ] {
            let sets = cover(&sizes, entries);
            let k = sizes.len();
            for set in &sets {
                let size: usize = set.iter().map(|&i| sizes[i]).product();
                assert!(set.len() == 1 || size <= entries, "{set:?}");
            }
            for a in 0..k {
                assert!(sets.iter().any(|s| s.contains(&a)));
                for b in a + 1..k {
                    if sizes[a] * sizes[b] <= entries {
                        assert!(sets.iter().any(|s| s.contains(&a) && s.contains(&b)));
                    }
                    for c in b + 1..k {
                        if sizes[a] * sizes[b] * sizes[c] <= entries {
                            assert!(
                                sets.iter().any(|s| [a, b, c].iter().all(|x| s.contains(x))),
                                "{a} {b} {c} in {sets:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
