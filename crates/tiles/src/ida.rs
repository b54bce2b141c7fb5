//! The fast solver: IDA* specialised for sliding tiles.
//!
//! One board array is updated in place (a move swaps the blank with a neighbour, and undoes it
//! on the way back), the heuristic is updated incrementally from the one tile that moved, the
//! blank never steps straight back, and nothing is allocated per node. With `threads > 1`, each
//! iteration splits the tree a few levels below the root and hands the subtrees to rayon's
//! workers under the same bound, so the answer stays optimal.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use frontier_search::{Config, Limit, Outcome, Stats, Watch};
use rayon::prelude::*;

use crate::board::{is_layout, layouts_solvable, solution, Dir, Puzzle, MAX_CELLS};
use crate::heuristic::{Tables, NONE};
use crate::pdb::{Mirror, PatternDb, PdbError, MAX_CELLS as PDB_CELLS};
use crate::space::Estimate;

/// The deepest dive that needs no stack checks: at most a few hundred bytes a level, well
/// within the 2 MiB of a worker thread's stack.
const SHALLOW: u32 = 2048;
/// How many levels a dive descends between two checks of the remaining thread stack.
const STACK_CHECK_EVERY: u32 = 64;
/// The stack that must remain for `STACK_CHECK_EVERY` more levels; below it, the dive continues
/// on a fresh segment of `STACK_SEGMENT` bytes.
const STACK_RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 4 << 20;
/// Aim for this many subtrees per worker when splitting an iteration.
const SUBTREES_PER_THREAD: usize = 64;

/// A heuristic updated move by move.
trait Eval: Clone + Send + Sync {
    /// What `undo` needs to restore the state before a move.
    type Undo: Copy;
    /// The heuristic of a whole board; resets the incremental state.
    fn init(&mut self, t: &Tables, board: &[u8; MAX_CELLS]) -> u32;
    /// `tile` moved from `from` to `to` (`board` is already updated); returns the new value, or
    /// any admissible value above `limit` as soon as one is known (the node will be cut off,
    /// so the rest of the work can be skipped).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        t: &Tables,
        board: &[u8; MAX_CELLS],
        tile: u8,
        from: usize,
        to: usize,
        h: u32,
        limit: u32,
    ) -> (u32, Self::Undo);
    /// Undoes the last `step`.
    fn undo(&mut self, u: Self::Undo);
}

#[derive(Clone)]
struct ManhattanEval;

impl Eval for ManhattanEval {
    type Undo = ();
    fn init(&mut self, t: &Tables, board: &[u8; MAX_CELLS]) -> u32 {
        t.manhattan(&board[..t.cells()])
    }
    #[inline(always)]
    fn step(
        &mut self,
        t: &Tables,
        _: &[u8; MAX_CELLS],
        tile: u8,
        from: usize,
        to: usize,
        h: u32,
        _: u32,
    ) -> (u32, ()) {
        (h + t.distance(tile, to) - t.distance(tile, from), ())
    }
    #[inline(always)]
    fn undo(&mut self, _: ()) {}
}

/// Manhattan distance plus linear conflicts; only the two lines a move touches are recounted.
#[derive(Clone)]
struct ConflictEval {
    row: [u8; MAX_CELLS],
    col: [u8; MAX_CELLS],
}

#[derive(Clone, Copy)]
struct ConflictUndo {
    is_row: bool,
    a: u8,
    old_a: u8,
    b: u8,
    old_b: u8,
}

impl Eval for ConflictEval {
    type Undo = ConflictUndo;
    fn init(&mut self, t: &Tables, board: &[u8; MAX_CELLS]) -> u32 {
        for r in 0..t.shape.rows() {
            self.row[r] = t.line_conflict(board, true, r) as u8;
        }
        for c in 0..t.shape.cols() {
            self.col[c] = t.line_conflict(board, false, c) as u8;
        }
        t.conflict(&board[..t.cells()])
    }
    #[inline(always)]
    fn step(
        &mut self,
        t: &Tables,
        board: &[u8; MAX_CELLS],
        tile: u8,
        from: usize,
        to: usize,
        h: u32,
        _: u32,
    ) -> (u32, ConflictUndo) {
        let cols = t.shape.cols();
        let md = h + t.distance(tile, to) - t.distance(tile, from);
        // A vertical move changes the two rows' conflicts; the column keeps its order of tiles.
        let is_row = from / cols != to / cols;
        let (a, b, lines) = if is_row {
            (from / cols, to / cols, &mut self.row)
        } else {
            (from % cols, to % cols, &mut self.col)
        };
        let (old_a, old_b) = (lines[a], lines[b]);
        let new_a = t.line_conflict(board, is_row, a) as u8;
        let new_b = t.line_conflict(board, is_row, b) as u8;
        lines[a] = new_a;
        lines[b] = new_b;
        let h = md + new_a as u32 + new_b as u32 - old_a as u32 - old_b as u32;
        (
            h,
            ConflictUndo {
                is_row,
                a: a as u8,
                old_a,
                b: b as u8,
                old_b,
            },
        )
    }
    #[inline(always)]
    fn undo(&mut self, u: ConflictUndo) {
        let lines = if u.is_row {
            &mut self.row
        } else {
            &mut self.col
        };
        lines[u.b as usize] = u.old_b;
        lines[u.a as usize] = u.old_a;
    }
}

/// Additive pattern databases; only the moved tile's pattern is re-ranked (and, with a
/// reflection, the reflected tile's pattern in the reflected layout).
#[derive(Clone)]
struct PdbEval<'a> {
    db: &'a PatternDb,
    cell_of: [u8; PDB_CELLS],
    values: [u32; PDB_CELLS],
    sum: u32,
    mirror: Option<&'a Mirror>,
    m_cell_of: [u8; PDB_CELLS],
    m_values: [u32; PDB_CELLS],
    m_sum: u32,
}

impl<'a> PdbEval<'a> {
    fn new(db: &'a PatternDb) -> Self {
        PdbEval {
            db,
            cell_of: [0; PDB_CELLS],
            values: [0; PDB_CELLS],
            sum: 0,
            mirror: db.mirror(),
            m_cell_of: [0; PDB_CELLS],
            m_values: [0; PDB_CELLS],
            m_sum: 0,
        }
    }
}

impl Eval for PdbEval<'_> {
    /// (tile, from, group, old value, mirrored group, its old value)
    type Undo = (u8, u8, u8, u32, u8, u32);
    fn init(&mut self, t: &Tables, board: &[u8; MAX_CELLS]) -> u32 {
        for (cell, &tile) in board.iter().enumerate().take(t.cells()) {
            self.cell_of[tile as usize] = cell as u8;
            if let Some(m) = self.mirror {
                self.m_cell_of[m.tile[tile as usize] as usize] = m.cell[cell];
            }
        }
        self.sum = 0;
        self.m_sum = 0;
        for g in 0..self.db.patterns().len() {
            self.values[g] = self.db.value(g, &self.cell_of);
            self.sum += self.values[g];
            if self.mirror.is_some() {
                self.m_values[g] = self.db.value(g, &self.m_cell_of);
                self.m_sum += self.m_values[g];
            }
        }
        self.sum.max(self.m_sum)
    }
    #[inline(always)]
    fn step(
        &mut self,
        _: &Tables,
        _: &[u8; MAX_CELLS],
        tile: u8,
        from: usize,
        to: usize,
        _: u32,
        limit: u32,
    ) -> (u32, Self::Undo) {
        self.cell_of[tile as usize] = to as u8;
        let (g, _) = self.db.locate(tile);
        let old = self.values[g];
        let new = self.db.value(g, &self.cell_of);
        self.values[g] = new;
        self.sum = self.sum + new - old;
        let (mut g2, mut old2) = (u8::MAX, 0);
        if self.sum > limit {
            // Cut off anyway: leave the reflected layout alone (`g2 == MAX` tells `undo`).
            return (self.sum, (tile, from as u8, g as u8, old, g2, old2));
        }
        if let Some(m) = self.mirror {
            let mt = m.tile[tile as usize];
            self.m_cell_of[mt as usize] = m.cell[to];
            let (mg, _) = self.db.locate(mt);
            old2 = self.m_values[mg];
            let new2 = self.db.value(mg, &self.m_cell_of);
            self.m_values[mg] = new2;
            self.m_sum = self.m_sum + new2 - old2;
            g2 = mg as u8;
        }
        (
            self.sum.max(self.m_sum),
            (tile, from as u8, g as u8, old, g2, old2),
        )
    }
    #[inline(always)]
    fn undo(&mut self, (tile, from, g, old, g2, old2): Self::Undo) {
        self.cell_of[tile as usize] = from;
        self.sum = self.sum + old - self.values[g as usize];
        self.values[g as usize] = old;
        if let (Some(m), true) = (self.mirror, g2 != u8::MAX) {
            let mt = m.tile[tile as usize];
            self.m_cell_of[mt as usize] = m.cell[from as usize];
            self.m_sum = self.m_sum + old2 - self.m_values[g2 as usize];
            self.m_values[g2 as usize] = old2;
        }
    }
}

/// Why a dive stopped early.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Halt {
    Limit(Limit),
    /// Another worker found the solution.
    Elsewhere,
}

/// What the workers share: the limits (with the clock and the progress reports), and whether
/// one of them found the goal.
struct Team<'c> {
    watch: Watch<'c>,
    found: AtomicBool,
}

impl Team<'_> {
    /// A worker's checkpoint after `expanded` more nodes at `bound`.
    fn check(&self, expanded: u64, bound: u32) -> Result<(), Halt> {
        if self.found.load(Ordering::Relaxed) {
            return Err(Halt::Elsewhere);
        }
        match self.watch.checkpoint(expanded, u64::from(bound)) {
            Some(limit) => Err(Halt::Limit(limit)),
            None => Ok(()),
        }
    }
}

/// The heuristic as the bound sees it: times the weight, rounded down, if there is one (the
/// weight is at most [`frontier_search::MAX_WEIGHT`], so the product fits).
#[inline(always)]
fn weigh(weight: Option<f64>, h: u32) -> u32 {
    frontier_search::weigh(weight, u64::from(h)) as u32
}

/// One depth-first dive's working memory.
struct Dive<'a, E: Eval> {
    t: &'a Tables,
    eval: E,
    board: [u8; MAX_CELLS],
    path: Vec<Dir>,
    bound: u32,
    next: u32,
    expanded: u64,
    generated: u64,
    /// Nodes at this depth are not expanded but collected into `frontier` (splitting mode).
    split_at: u32,
    frontier: Vec<Vec<Dir>>,
    team: &'a Team<'a>,
    halt: Option<Halt>,
    /// `config.weight`: the bound then applies to `g + w·h` (weighted IDA*).
    weight: Option<f64>,
    /// With a weight, nodes this deep are not expanded, nor nodes whose heuristic says the goal
    /// lies beyond it (`config.max_depth`): the bound no longer caps the depth. Without one,
    /// `u32::MAX` (the bound does).
    max_g: u32,
    /// Whether `max_g` kept a node from being expanded.
    depth_cut: bool,
    /// The deepest node expanded, with a weight (without one, the bound is the depth).
    deepest: u32,
}

impl<'a, E: Eval> Dive<'a, E> {
    fn new(t: &'a Tables, eval: E, board: [u8; MAX_CELLS], team: &'a Team<'a>) -> Self {
        let config = team.watch.config();
        let weight = config.effective_weight();
        Dive {
            t,
            eval,
            board,
            path: Vec::with_capacity(256),
            bound: 0,
            next: u32::MAX,
            expanded: 0,
            generated: 0,
            split_at: u32::MAX,
            frontier: Vec::new(),
            team,
            halt: None,
            weight,
            max_g: match weight {
                Some(_) => config.max_depth.unwrap_or(u32::MAX),
                None => u32::MAX,
            },
            depth_cut: false,
            deepest: 0,
        }
    }

    /// Searches below the current board (its blank in `blank`, `g` moves from the root, heuristic
    /// `h`), never moving the blank back in direction `back` (4: none). True when the goal is
    /// reached; the path then holds the moves.
    fn search(&mut self, g: u32, h: u32, blank: usize, back: usize) -> bool {
        // No path is longer than the bound (f >= g), so a shallow bound needs no stack checks.
        match (self.weight.is_some(), self.bound > SHALLOW) {
            (false, false) => self.dfs::<false, false>(g, h, blank, back),
            (false, true) => self.dfs::<false, true>(g, h, blank, back),
            (true, false) => self.dfs::<true, false>(g, h, blank, back),
            (true, true) => self.dfs::<true, true>(g, h, blank, back),
        }
    }

    /// [`Dive::search`] compiled for one kind of bound: `WEIGHTED` when it applies to
    /// `g + w·h`, so that the exact search pays nothing for the weighted one; `DEEP` when it
    /// may dive deeper than [`SHALLOW`] moves (a weighted bound, a large board). A deep dive
    /// makes sure of the stack every few levels, and goes on on a new segment when it runs low.
    #[inline(always)]
    fn dfs<const WEIGHTED: bool, const DEEP: bool>(
        &mut self,
        g: u32,
        h: u32,
        blank: usize,
        back: usize,
    ) -> bool {
        if DEEP && g % STACK_CHECK_EVERY == STACK_CHECK_EVERY - 1 {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                self.expand::<WEIGHTED, DEEP>(g, h, blank, back)
            })
        } else {
            self.expand::<WEIGHTED, DEEP>(g, h, blank, back)
        }
    }

    /// Expands the current board: [`Dive::dfs`] without the stack check.
    fn expand<const WEIGHTED: bool, const DEEP: bool>(
        &mut self,
        g: u32,
        h: u32,
        blank: usize,
        back: usize,
    ) -> bool {
        if g == self.split_at {
            self.frontier.push(self.path.clone());
            return false;
        }
        if WEIGHTED {
            if g >= self.max_g {
                self.depth_cut = true;
                return false;
            }
            self.deepest = self.deepest.max(g);
        }
        self.expanded += 1;
        if Watch::due(self.expanded) {
            if let Err(halt) = self.team.check(Watch::CHECK_EVERY, self.bound) {
                self.halt = Some(halt);
                return false;
            }
        }
        let neighbours = self.t.neighbours[blank];
        for (d, &to) in neighbours.iter().enumerate() {
            if to == NONE || d == back {
                continue;
            }
            let to = to as usize;
            let tile = self.board[to];
            self.board[blank] = tile;
            self.board[to] = 0;
            // A heuristic above `limit` is cut off anyway, so it may be left half updated
            // (weighted, the cut depends on the rounding of w·h: never left half updated).
            let limit = if WEIGHTED {
                u32::MAX
            } else {
                self.bound.saturating_sub(g + 1)
            };
            let (h2, undo) = self
                .eval
                .step(self.t, &self.board, tile, to, blank, h, limit);
            self.generated += 1;
            let f = if WEIGHTED {
                (g + 1).saturating_add(weigh(self.weight, h2))
            } else {
                g + 1 + h2
            };
            if WEIGHTED && (g + 1).saturating_add(h2) > self.max_g {
                // No path within `max_g` moves passes through it (h never overestimates):
                // without this cut, the weighted bound lets through a tree far larger than
                // the exact search's (Korf's #9 under --weight 3 --max-depth 50 ran for minutes
                // without an answer).
                self.depth_cut = true;
            } else if f > self.bound {
                self.next = self.next.min(f);
            } else {
                self.path.push(Dir::ALL[d]);
                let back = Dir::ALL[d].inverse().index();
                // Every few levels, make sure of the stack: a weighted bound, or a large board,
                // may dive thousands of moves deep (on a new segment when it runs low).
                let reached = h2 == 0 || self.dfs::<WEIGHTED, DEEP>(g + 1, h2, to, back);
                if reached {
                    return true;
                }
                self.path.pop();
                if self.halt.is_some() {
                    self.eval.undo(undo);
                    self.board[to] = tile;
                    self.board[blank] = 0;
                    return false;
                }
            }
            self.eval.undo(undo);
            self.board[to] = tile;
            self.board[blank] = 0;
        }
        false
    }

    /// Plays `moves` from the current board (updating the heuristic); returns the blank's cell
    /// and the new heuristic.
    fn replay(&mut self, mut blank: usize, mut h: u32, moves: &[Dir]) -> (usize, u32) {
        for &m in moves {
            let to = self.t.neighbours[blank][m.index()] as usize;
            let tile = self.board[to];
            self.board[blank] = tile;
            self.board[to] = 0;
            h = self
                .eval
                .step(self.t, &self.board, tile, to, blank, h, u32::MAX)
                .0;
            self.path.push(m);
            blank = to;
        }
        (blank, h)
    }
}

/// The fast IDA* solver for one board shape, goal and heuristic.
///
/// ```
/// use frontier_search::{Config, Status};
/// use frontier_tiles::{Estimate, Puzzle, Solver};
///
/// let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None).unwrap();
/// let solver = Solver::new(&puzzle, Estimate::Conflict).unwrap();
/// let outcome = solver.solve(puzzle.start(), &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// assert_eq!(outcome.into_solution().unwrap().moves.len(), 31);
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    tables: Arc<Tables>,
    puzzle: Puzzle,
    estimate: Estimate,
}

impl Solver {
    /// A solver for `puzzle`'s board and goal; a pattern database must be for that board and
    /// goal. [`Estimate::Zero`] is taken as Manhattan (the solver's goal test relies on a
    /// heuristic that is 0 only at the goal).
    pub fn new(puzzle: &Puzzle, estimate: Estimate) -> Result<Solver, PdbError> {
        let estimate = match estimate {
            Estimate::Zero => Estimate::Manhattan,
            e => e,
        };
        let solver = Solver::unchecked(puzzle, estimate);
        solver.estimate.check_fits(&solver.tables)?;
        Ok(solver)
    }

    /// A solver for `puzzle` guided by Manhattan distance and linear conflicts, which fit
    /// every board.
    pub(crate) fn conflict(puzzle: &Puzzle) -> Solver {
        Solver::unchecked(puzzle, Estimate::Conflict)
    }

    /// A solver for `puzzle` guided by `estimate`, which the caller knows to fit.
    fn unchecked(puzzle: &Puzzle, estimate: Estimate) -> Solver {
        Solver {
            tables: Arc::new(Tables::new(puzzle)),
            puzzle: puzzle.clone(),
            estimate,
        }
    }

    /// The heuristic's value on a layout.
    pub fn estimate(&self, board: &[u8]) -> u32 {
        match &self.estimate {
            Estimate::Zero | Estimate::Manhattan => self.tables.manhattan(board),
            Estimate::Conflict => self.tables.conflict(board),
            Estimate::Pdb(db) => db.estimate(board),
        }
    }

    /// Solves from `start` (a permutation of the goal's tiles): an optimal solution, proven
    /// unsolvable at once by parity ([`Outcome::Exhausted`]), or a limit from `config` (depth,
    /// time, cancel). `config.threads > 1` searches each iteration in parallel.
    ///
    /// # Panics
    ///
    /// If `start` is not a layout of the board: a tile missing or twice, or the wrong length
    /// ([`Puzzle::with_start`] checks a layout and says what is wrong).
    pub fn solve(&self, start: &[u8], config: &Config) -> Outcome<Vec<u8>, Dir> {
        let team = Team {
            watch: Watch::new(config),
            found: AtomicBool::new(false),
        };
        let t = &*self.tables;
        let n = t.cells();
        let stats = |expanded, generated, depth: u32| Stats {
            expanded,
            generated,
            stored: 0,
            peak_frontier: depth as u64,
            seconds: team.watch.seconds(),
        };
        assert!(
            is_layout(t.shape, start),
            "{start:?} is not a layout of a {} board: each of 0..{n} once",
            t.shape
        );
        if !layouts_solvable(t.shape, start, t.goal()) {
            return Outcome::Exhausted {
                stats: stats(0, 0, 0),
            };
        }
        let mut board = [0u8; MAX_CELLS];
        board[..n].copy_from_slice(start);
        let result = match &self.estimate {
            Estimate::Zero | Estimate::Manhattan => run(t, ManhattanEval, board, &team),
            Estimate::Conflict => run(
                t,
                ConflictEval {
                    row: [0; MAX_CELLS],
                    col: [0; MAX_CELLS],
                },
                board,
                &team,
            ),
            Estimate::Pdb(db) => run(t, PdbEval::new(db), board, &team),
        };
        let (end, expanded, generated, depth) = result;
        let stats = stats(expanded, generated, depth);
        match end {
            Ok(moves) => Outcome::Solved {
                solution: solution(t.shape, start, moves),
                stats,
            },
            Err(limit) => Outcome::unsolved(limit, stats),
        }
    }

    /// The puzzle this solver was made for.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }
}

/// How a run ended (the moves found, or the limit that stopped it, `None` once proven
/// unsolvable), then expansions, successors generated and the depth reached.
type RunResult = (Result<Vec<Dir>, Option<Limit>>, u64, u64, u32);

/// Iterative deepening on `f = g + h`, sequential or split across threads.
fn run<E: Eval>(t: &Tables, mut eval: E, board: [u8; MAX_CELLS], team: &Team) -> RunResult {
    let config = team.watch.config();
    let threads = config.threads.max(1);
    let blank = board
        .iter()
        .take(t.cells())
        .position(|&x| x == 0)
        .unwrap_or(0);
    let h0 = eval.init(t, &board);
    if h0 == 0 {
        return (Ok(Vec::new()), 0, 0, 0);
    }
    let (mut expanded, mut generated) = (0u64, 0u64);
    let weight = config.effective_weight();
    let mut bound = weigh(weight, h0);
    let mut depth_cut = false;
    // The depth reported: the bound, or with a weight (whose bound lies deeper than any path
    // it lets through) the deepest node expanded.
    let mut deepest = 0;
    let depth = |bound: u32, deepest: u32| if weight.is_some() { deepest } else { bound };
    let pool = if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()
    } else {
        None
    };
    loop {
        // A path of at most `max` moves has f <= w·max everywhere (h never overestimates), so
        // past that bound every such path has been searched. (Unweighted, w = 1; weighted, the
        // dives also cut at `max_depth`, since the bound no longer caps the depth.)
        if config
            .max_depth
            .is_some_and(|max| bound > weigh(weight, max))
        {
            return (Err(Some(Limit::Depth)), expanded, generated, bound);
        }
        let mut root = Dive::new(t, eval.clone(), board, team);
        root.bound = bound;
        // The limits are looked at before each iteration too, so that a zero timeout stops
        // even a search that would end before its first check.
        let outcome = match (team.watch.limit(), &pool) {
            (Some(limit), _) => Err(Halt::Limit(limit)),
            (None, None) => {
                let found = root.search(0, h0, blank, 4);
                expanded += root.expanded;
                generated += root.generated;
                depth_cut |= root.depth_cut;
                deepest = deepest.max(root.deepest);
                if found {
                    return (Ok(root.path), expanded, generated, depth(bound, deepest));
                }
                root.halt.map(Err).unwrap_or(Ok(root.next))
            }
            (None, Some(pool)) => {
                let r = pool.install(|| parallel_iteration(root, h0, blank, threads));
                expanded += r.expanded;
                generated += r.generated;
                depth_cut |= r.depth_cut;
                deepest = deepest.max(r.deepest);
                if let Some(path) = r.path {
                    return (Ok(path), expanded, generated, depth(bound, deepest));
                }
                r.halt.map(Err).unwrap_or(Ok(r.next))
            }
        };
        match outcome {
            Err(Halt::Limit(limit)) => {
                return (Err(Some(limit)), expanded, generated, depth(bound, deepest))
            }
            // Only workers of an iteration that found the goal stop for `Elsewhere`, and that
            // iteration returns the solution above; treat a stray one as a cancellation.
            Err(Halt::Elsewhere) => {
                return (
                    Err(Some(Limit::Cancelled)),
                    expanded,
                    generated,
                    depth(bound, deepest),
                )
            }
            Ok(u32::MAX) => {
                let limit = depth_cut.then_some(Limit::Depth);
                return (Err(limit), expanded, generated, depth(bound, deepest));
            }
            Ok(next) => bound = next,
        }
    }
}

struct IterationResult {
    path: Option<Vec<Dir>>,
    next: u32,
    expanded: u64,
    generated: u64,
    halt: Option<Halt>,
    depth_cut: bool,
    deepest: u32,
}

/// One IDA* iteration in parallel: collect the nodes a few levels down (within the bound), then
/// search below each of them on rayon's workers, sharing the found flag.
fn parallel_iteration<E: Eval>(
    mut root: Dive<'_, E>,
    h0: u32,
    blank: usize,
    threads: usize,
) -> IterationResult {
    let board0 = root.board;
    let eval0 = root.eval.clone();
    let mut split = 1;
    loop {
        root.split_at = split;
        root.frontier.clear();
        root.next = u32::MAX;
        root.path.clear();
        let found = root.search(0, h0, blank, 4);
        if found || root.halt.is_some() {
            return IterationResult {
                path: found.then(|| root.path.clone()),
                next: root.next,
                expanded: root.expanded,
                generated: root.generated,
                halt: root.halt,
                depth_cut: root.depth_cut,
                deepest: root.deepest,
            };
        }
        if root.frontier.len() >= threads * SUBTREES_PER_THREAD
            || split >= root.bound
            || root.frontier.is_empty()
        {
            break;
        }
        split += 1;
    }
    let team = root.team;
    let t = root.t;
    let bound = root.bound;
    let solution: Mutex<Option<Vec<Dir>>> = Mutex::new(None);
    let expanded = AtomicU64::new(root.expanded);
    let generated = AtomicU64::new(root.generated);
    let halt: Mutex<Option<Halt>> = Mutex::new(None);
    let depth_cut = AtomicBool::new(root.depth_cut);
    let deepest = AtomicU32::new(root.deepest);
    let split_next = root.next;
    let h_root = h0;
    let next = root
        .frontier
        .par_iter()
        .map(|prefix| {
            if team.found.load(Ordering::Relaxed) {
                return u32::MAX;
            }
            let mut dive = Dive::new(t, eval0.clone(), board0, team);
            dive.eval.init(t, &board0);
            dive.bound = bound;
            let (b, h) = dive.replay(blank, h_root, prefix);
            let back = prefix.last().map_or(4, |d| d.inverse().index());
            let found = dive.search(prefix.len() as u32, h, b, back);
            expanded.fetch_add(dive.expanded, Ordering::Relaxed);
            generated.fetch_add(dive.generated, Ordering::Relaxed);
            if dive.depth_cut {
                depth_cut.store(true, Ordering::Relaxed);
            }
            deepest.fetch_max(dive.deepest, Ordering::Relaxed);
            if found {
                team.found.store(true, Ordering::Relaxed);
                let mut s = solution.lock().unwrap_or_else(|e| e.into_inner());
                if s.is_none() {
                    *s = Some(dive.path);
                }
            } else if let Some(Halt::Limit(l)) = dive.halt {
                *halt.lock().unwrap_or_else(|e| e.into_inner()) = Some(Halt::Limit(l));
            }
            dive.next
        })
        .min()
        .unwrap_or(u32::MAX)
        .min(split_next);
    let path = solution.into_inner().unwrap_or_else(|e| e.into_inner());
    let halt = if path.is_some() {
        None
    } else {
        halt.into_inner().unwrap_or_else(|e| e.into_inner())
    };
    IterationResult {
        path,
        next,
        expanded: expanded.into_inner(),
        generated: generated.into_inner(),
        halt,
        depth_cut: depth_cut.into_inner(),
        deepest: deepest.into_inner(),
    }
}
