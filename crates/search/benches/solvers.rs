//! frontier's generic solvers against the `pathfinding` crate on the same spaces, with the same
//! successor functions, in the same run.
//!
//! Run with `cargo bench -p frontier-search --bench solvers`. Before criterion's timings, it
//! prints a table of peak heap memory (a counting allocator) and, for IDA*, expansions per second.
//! `-- --large-astar` instead times A* on a 15-puzzle of about 14 M expansions.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use criterion::{BenchmarkId, Criterion};
use frontier_search::{
    astar, bfs, bidirectional, explore, idastar, ucs, Config, Reversible, Space, Status,
};

#[path = "../tests/common/mod.rs"]
mod common;
use common::{Indexed, Rank};

/// A global allocator that tracks the peak of live heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the peak heap growth it caused, in bytes.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

// ---------------------------------------------------------------------------------------------
// Sliding tiles, packed one nibble per cell in a u64 (cell 0 in the low nibble), blank position
// kept beside the tiles. The successor function is shared by both libraries.

/// A sliding-tile board with `W` columns and `H` rows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Board<const W: usize, const H: usize> {
    tiles: u64,
    blank: u8,
    /// Manhattan distance to the goal, kept up to date by each move.
    h: u8,
}

/// The blank's moves: up, down, left, right.
const MOVES: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

impl<const W: usize, const H: usize> Board<W, H> {
    fn parse(text: &str, goal_blank_first: bool) -> Self {
        let cells: Vec<u64> = text
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(cells.len(), W * H);
        let mut tiles = 0;
        for (i, &t) in cells.iter().enumerate() {
            tiles |= t << (4 * i);
        }
        let blank = cells.iter().position(|&t| t == 0).unwrap() as u8;
        let mut board = Board { tiles, blank, h: 0 };
        board.h = (0..W * H)
            .map(|cell| board.distance(board.tile(cell), cell, goal_blank_first))
            .sum::<u32>() as u8;
        board
    }

    fn tile(&self, cell: usize) -> u64 {
        (self.tiles >> (4 * cell)) & 0xf
    }

    /// Where `tile` belongs: tile t at cell t (blank first) or at cell t - 1 (blank last).
    fn home(tile: u64, blank_first: bool) -> usize {
        if blank_first {
            tile as usize
        } else {
            (tile as usize + W * H - 1) % (W * H)
        }
    }

    fn distance(&self, tile: u64, cell: usize, blank_first: bool) -> u32 {
        if tile == 0 {
            return 0;
        }
        manhattan::<W>(Self::home(tile, blank_first), cell) as u32
    }

    /// Calls `out(direction, next)` for each move of the blank: where the blank can go and how
    /// far the moved tile then is from home both come from tables made once per board size.
    #[inline]
    fn neighbours(&self, blank_first: bool, mut out: impl FnMut(u8, Self)) {
        let steps = &Self::STEPS[self.blank as usize];
        let deltas = &Self::DELTAS[usize::from(blank_first)];
        for (dir, &cell) in steps.iter().enumerate() {
            if cell == OFF_BOARD {
                continue;
            }
            let tile = self.tile(cell as usize);
            let tiles = (self.tiles & !(0xf << (4 * cell))) | (tile << (4 * self.blank));
            let h = self
                .h
                .wrapping_add_signed(deltas[tile as usize][self.blank as usize][dir]);
            out(
                dir as u8,
                Board {
                    tiles,
                    blank: cell,
                    h,
                },
            );
        }
    }

    /// For each blank cell and move of the blank, the cell it moves to or [`OFF_BOARD`].
    const STEPS: [[u8; 4]; 16] = {
        let mut steps = [[OFF_BOARD; 4]; 16];
        let mut cell = 0;
        while cell < W * H {
            let (x, y) = ((cell % W) as i8, (cell / W) as i8);
            let mut dir = 0;
            while dir < 4 {
                let (nx, ny) = (x + MOVES[dir].0, y + MOVES[dir].1);
                if nx >= 0 && ny >= 0 && nx < W as i8 && ny < H as i8 {
                    steps[cell][dir] = (ny as usize * W + nx as usize) as u8;
                }
                dir += 1;
            }
            cell += 1;
        }
        steps
    };

    /// `DELTAS[blank_first][tile][blank][dir]`: how much nearer home (negative) or farther
    /// (positive) `tile` gets when the blank at `blank` moves `dir`, onto the tile's cell.
    const DELTAS: [[[[i8; 4]; 16]; 16]; 2] = {
        let mut deltas = [[[[0; 4]; 16]; 16]; 2];
        let mut layout = 0;
        while layout < 2 {
            let mut tile = 1;
            while tile < W * H {
                let home = if layout == 1 { tile } else { tile - 1 };
                let mut blank = 0;
                while blank < W * H {
                    let mut dir = 0;
                    while dir < 4 {
                        let cell = Self::STEPS[blank][dir];
                        if cell != OFF_BOARD {
                            let before = manhattan::<W>(home, cell as usize);
                            let after = manhattan::<W>(home, blank);
                            deltas[layout][tile][blank][dir] = after as i8 - before as i8;
                        }
                        dir += 1;
                    }
                    blank += 1;
                }
                tile += 1;
            }
            layout += 1;
        }
        deltas
    };
}

/// A move that would take the blank off the board.
const OFF_BOARD: u8 = u8::MAX;

/// The distance between two cells of a board `W` wide, in moves.
const fn manhattan<const W: usize>(a: usize, b: usize) -> usize {
    (a % W).abs_diff(b % W) + (a / W).abs_diff(b / W)
}

/// A sliding-tile problem as a frontier space.
struct Tiles<const W: usize, const H: usize> {
    start: Board<W, H>,
    goal: Board<W, H>,
    blank_first: bool,
    /// Whether to tell the engine that every move can be undone (it can): `explore` then runs
    /// frontier search, keeping three layers instead of every state.
    undirected: bool,
}

impl<const W: usize, const H: usize> Space for Tiles<W, H> {
    type State = Board<W, H>;
    type Move = u8;

    fn start(&self) -> Board<W, H> {
        self.start
    }

    fn is_goal(&self, board: &Board<W, H>) -> bool {
        board.tiles == self.goal.tiles
    }

    #[inline]
    fn successors(
        &self,
        board: &Board<W, H>,
        _last: Option<&u8>,
        out: impl FnMut(u8, Board<W, H>),
    ) {
        board.neighbours(self.blank_first, out);
    }

    fn undirected(&self) -> bool {
        self.undirected
    }

    fn heuristic(&self, board: &Board<W, H>) -> u64 {
        u64::from(board.h)
    }
}

impl<const W: usize, const H: usize> Reversible for Tiles<W, H> {
    fn goals(&self) -> Vec<Board<W, H>> {
        vec![self.goal]
    }

    fn predecessors(&self, board: &Board<W, H>, mut out: impl FnMut(u8, Board<W, H>)) {
        // Moves are their own inverses up to direction: the blank going up undoes going down.
        board.neighbours(self.blank_first, |dir, prev| out(dir ^ 1, prev));
    }
}

/// The 3x3 board's permutation rank: a perfect index, lent to the engine by [`Indexed`].
impl Rank for Tiles<3, 3> {
    fn bound(&self) -> u64 {
        362_880
    }

    #[inline]
    fn rank(&self, board: &Board<3, 3>) -> u64 {
        rank9(board.tiles)
    }
}

/// The successors as pathfinding wants them: an iterator, here over a fixed array (no heap).
type SuccessorArray<const W: usize, const H: usize> =
    std::iter::Flatten<std::array::IntoIter<Option<Board<W, H>>, 4>>;

fn successor_array<const W: usize, const H: usize>(
    board: &Board<W, H>,
    blank_first: bool,
) -> SuccessorArray<W, H> {
    let mut out = [None; 4];
    let mut n = 0;
    board.neighbours(blank_first, |_, next| {
        out[n] = Some(next);
        n += 1;
    });
    out.into_iter().flatten()
}

/// Successors with their step costs, each 1, as pathfinding's cost-driven solvers take them.
struct UnitCosts<I>(I);

impl<S, I: Iterator<Item = S>> Iterator for UnitCosts<I> {
    type Item = (S, u64);

    #[inline]
    fn next(&mut self) -> Option<(S, u64)> {
        self.0.next().map(|next| (next, 1))
    }
}

/// The 15-puzzle's successors with unit costs, each call counted in `expansions`.
fn counted_successors(
    expansions: &Cell<u64>,
) -> impl Fn(&Board<4, 4>) -> UnitCosts<SuccessorArray<4, 4>> + '_ {
    move |b| {
        expansions.set(expansions.get() + 1);
        UnitCosts(successor_array(b, true))
    }
}

type Eight = Tiles<3, 3>;
type Fifteen = Tiles<4, 4>;

fn eight_puzzle() -> Eight {
    Tiles {
        // The hardest 8-puzzle position: 31 moves from the goal (Reinefeld 1993).
        start: Board::parse("8 6 7 2 5 4 3 0 1", false),
        goal: Board::parse("1 2 3 4 5 6 7 8 0", false),
        blank_first: false,
        undirected: false,
    }
}

fn korf_nine() -> Fifteen {
    Tiles {
        // Korf (1985), instance 9: 46 moves.
        start: Board::parse("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", true),
        goal: Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", true),
        blank_first: true,
        undirected: false,
    }
}

fn korf_one() -> Fifteen {
    Tiles {
        // Korf (1985), instance 1: 57 moves.
        start: Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", true),
        ..korf_nine()
    }
}

// ---------------------------------------------------------------------------------------------
// The pairs measured.

/// The 8-puzzle explored from its goal, as `bfs_reach` does; `undirected` says whether the
/// space tells the engine that moves can be undone.
fn from_goal(space: &Eight, undirected: bool) -> Eight {
    Tiles {
        start: space.goal,
        undirected,
        ..eight_puzzle()
    }
}

/// `explore` with the full seen-set, as for any space.
fn frontier_explore(space: &Eight) -> u64 {
    explore(&from_goal(space, false), &Config::default()).states()
}

/// `explore` told that moves can be undone: frontier search over three layers.
fn frontier_search_explore(space: &Eight) -> u64 {
    explore(&from_goal(space, true), &Config::default()).states()
}

/// `explore` on two threads (its narrow layers on one: [`Config::parallel_from`]).
fn frontier_explore_two_threads(space: &Eight) -> u64 {
    explore(&from_goal(space, false), &Config::default().threads(2)).states()
}

/// `explore` over the permutation rank: one bit per permutation instead of a hash table.
fn frontier_explore_indexed(space: &Eight) -> u64 {
    explore(&Indexed(&from_goal(space, false)), &Config::default()).states()
}

fn pathfinding_reach(space: &Eight) -> u64 {
    pathfinding::prelude::bfs_reach(space.goal, |b| successor_array(b, false)).count() as u64
}

fn frontier_bfs(space: &Eight) -> usize {
    bfs(space, &Config::default()).solution().unwrap().len()
}

/// `bfs` over the permutation rank: a bit per permutation instead of a hash table.
fn frontier_bfs_indexed(space: &Eight) -> usize {
    bfs(&Indexed(space), &Config::default())
        .solution()
        .unwrap()
        .len()
}

/// `bfs` on two threads (its narrow layers on one: [`Config::parallel_from`]).
fn frontier_par_bfs(space: &Eight) -> usize {
    let outcome = bfs(space, &Config::default().threads(2));
    outcome.solution().unwrap().len()
}

fn pathfinding_bfs(space: &Eight) -> usize {
    let goal = space.goal.tiles;
    pathfinding::prelude::bfs(
        &space.start,
        |b| successor_array(b, false),
        |b| b.tiles == goal,
    )
    .unwrap()
    .len()
        - 1
}

fn frontier_bidirectional(space: &Eight) -> usize {
    bidirectional(space, &Config::default())
        .solution()
        .unwrap()
        .len()
}

fn pathfinding_bidirectional(space: &Eight) -> usize {
    pathfinding::prelude::bfs_bidirectional(
        &space.start,
        &space.goal,
        |b| successor_array(b, false),
        |b| successor_array(b, false),
    )
    .unwrap()
    .len()
        - 1
}

/// `astar` with Manhattan distance: returns the cost of the path found.
fn frontier_astar(space: &Eight) -> u64 {
    astar(space, &Config::default()).solution().unwrap().cost
}

fn pathfinding_astar(space: &Eight) -> u64 {
    let goal = space.goal.tiles;
    pathfinding::prelude::astar(
        &space.start,
        |b| UnitCosts(successor_array(b, false)),
        |b| u64::from(b.h),
        |b| b.tiles == goal,
    )
    .unwrap()
    .1
}

/// `ucs` (every move costs 1): returns the cost of the path found.
fn frontier_ucs(space: &Eight) -> u64 {
    ucs(space, &Config::default()).solution().unwrap().cost
}

fn pathfinding_dijkstra(space: &Eight) -> u64 {
    let goal = space.goal.tiles;
    pathfinding::prelude::dijkstra(
        &space.start,
        |b| UnitCosts(successor_array(b, false)),
        |b| b.tiles == goal,
    )
    .unwrap()
    .1
}

/// A solve that returns (cost, expansions).
type Solver<'a> = dyn Fn() -> (u64, u64) + 'a;

/// A* at scale (`--large-astar`): Korf's 15-puzzle #1, about 14 M expansions and over a GB a
/// side, too long for the table's sixteen runs. Frontier and pathfinding take turns for two rounds;
/// prints each side's fastest solve, expansions and peak heap.
fn large_astar() {
    let fifteen = korf_one();
    let goal = fifteen.goal.tiles;
    let frontier = || {
        let outcome = astar(&fifteen, &Config::default());
        (outcome.solution().unwrap().cost, outcome.stats().expanded)
    };
    let pathfinding = || {
        let expansions = Cell::new(0u64);
        let (_, cost) = pathfinding::prelude::astar(
            &fifteen.start,
            counted_successors(&expansions),
            |b| u64::from(b.h),
            |b| b.tiles == goal,
        )
        .unwrap();
        (cost, expansions.get())
    };
    let sides: [(&str, &Solver<'_>); 2] = [("frontier", &frontier), ("pathfinding", &pathfinding)];
    let mut best = [(f64::INFINITY, 0, 0); 2];
    for _ in 0..2 {
        for (k, (_, solve)) in sides.iter().enumerate() {
            let start = Instant::now();
            let ((cost, expansions), peak) = peak_of(solve);
            let seconds = start.elapsed().as_secs_f64();
            assert_eq!(cost, 57, "Korf's #1 takes 57 moves");
            best[k] = (best[k].0.min(seconds), expansions, peak);
        }
    }
    for ((name, _), (seconds, expansions, peak)) in sides.iter().zip(best) {
        println!(
            "astar, Korf's 15-puzzle #1, {name}: {seconds:.2} s, {expansions} expansions, {:.0} MiB peak heap",
            peak as f64 / (1 << 20) as f64
        );
    }
    println!("ratio: {:.2}x", best[1].0 / best[0].0);
}

/// Returns (length, expansions).
fn frontier_idastar(space: &Fifteen) -> (usize, u64) {
    let outcome = idastar(space, &Config::default());
    assert_eq!(outcome.status(), Status::Solved);
    (outcome.solution().unwrap().len(), outcome.stats().expanded)
}

/// Returns (length, expansions).
fn pathfinding_idastar(space: &Fifteen) -> (usize, u64) {
    let expansions = Cell::new(0u64);
    let goal = space.goal.tiles;
    let (path, _) = pathfinding::prelude::idastar(
        &space.start,
        counted_successors(&expansions),
        |b| u64::from(b.h),
        |b| b.tiles == goal,
    )
    .unwrap();
    (path.len() - 1, expansions.get())
}

/// Baseline: a plain hand-written BFS over the same successors, with an `FxHashSet` and two
/// layer vectors, no limits, no statistics: what the generic API is measured against.
fn plain_explore(space: &Eight) -> u64 {
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(space.goal);
    let mut layer = vec![space.goal];
    let mut next = Vec::new();
    while !layer.is_empty() {
        for board in &layer {
            board.neighbours(false, |_, b| {
                if seen.insert(b) {
                    next.push(b);
                }
            });
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
    }
    seen.len() as u64
}

/// `ONES[mask]`: the bits set in a 9-bit mask (the baseline x86-64 target has no popcount
/// instruction, and its emulation was most of the ranking's time).
static ONES: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut mask = 1;
    while mask < 512 {
        table[mask] = table[mask >> 1] + (mask & 1) as u8;
        mask += 1;
    }
    table
};

/// The rank of a 3x3 board's permutation among all 9! (its Lehmer code): a perfect index.
#[inline]
fn rank9(tiles: u64) -> u64 {
    const FACT: [u64; 9] = [40320, 5040, 720, 120, 24, 6, 2, 1, 1];
    let mut unused: usize = 0x1ff;
    let mut rank = 0;
    for (i, weight) in FACT.iter().enumerate() {
        let v = ((tiles >> (4 * i)) & 0xf) as usize;
        rank += u64::from(ONES[unused & ((1 << v) - 1)]) * weight;
        unused &= !(1 << v);
    }
    rank
}

/// Baseline: a plain hand-written BFS over the same successors that needs no hash table: a
/// bit array of 9! bits (45 KiB, in cache) indexed by each board's rank, and two layer vectors.
/// What a perfect index, which no generic store has, would give.
fn ranked_explore(space: &Eight) -> u64 {
    let mut seen = vec![0u64; 362_880 / 64 + 1];
    let start = space.goal;
    let r = rank9(start.tiles);
    seen[(r / 64) as usize] |= 1 << (r % 64);
    let mut layer = vec![start];
    let mut next = Vec::new();
    let mut count = 1;
    while !layer.is_empty() {
        for board in &layer {
            board.neighbours(false, |_, b| {
                let r = rank9(b.tiles);
                let (w, bit) = ((r / 64) as usize, 1u64 << (r % 64));
                if seen[w] & bit == 0 {
                    seen[w] |= bit;
                    next.push(b);
                    count += 1;
                }
            });
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
    }
    count
}

/// Baseline: a plain hand-written BFS to the goal over the same successors, with an
/// `FxHashMap` from each state to its parent and two layer vectors; returns the path's length.
fn plain_bfs(space: &Eight) -> u64 {
    let mut parents = rustc_hash::FxHashMap::default();
    parents.insert(space.start, space.start);
    let mut layer = vec![space.start];
    let mut next = Vec::new();
    while !layer.is_empty() {
        for board in &layer {
            let mut found = None;
            board.neighbours(false, |_, b| {
                if found.is_none() {
                    if let std::collections::hash_map::Entry::Vacant(slot) = parents.entry(b) {
                        slot.insert(*board);
                        next.push(b);
                        if b.tiles == space.goal.tiles {
                            found = Some(b);
                        }
                    }
                }
            });
            if let Some(mut at) = found {
                let mut moves = 0;
                while at != space.start {
                    at = parents[&at];
                    moves += 1;
                }
                return moves;
            }
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
    }
    unreachable!("the goal is reachable")
}

/// Baseline: a plain hand-written recursive IDA* over the same successors, skipping the
/// parent state. Returns (length, expansions).
fn plain_idastar(space: &Fifteen) -> (usize, u64) {
    fn dive(
        b: &Board<4, 4>,
        parent: u64,
        g: u64,
        bound: u64,
        next: &mut u64,
        count: &mut u64,
        goal: u64,
    ) -> Option<usize> {
        let f = g + u64::from(b.h);
        if f > bound {
            *next = (*next).min(f);
            return None;
        }
        if b.tiles == goal {
            return Some(g as usize);
        }
        *count += 1;
        let mut found = None;
        b.neighbours(true, |_, child| {
            if found.is_none() && child.tiles != parent {
                found = dive(&child, b.tiles, g + 1, bound, next, count, goal);
            }
        });
        found
    }
    let mut bound = u64::from(space.start.h);
    let mut count = 0;
    loop {
        let mut next = u64::MAX;
        if let Some(len) = dive(
            &space.start,
            0,
            0,
            bound,
            &mut next,
            &mut count,
            space.goal.tiles,
        ) {
            return (len, count);
        }
        bound = next;
    }
}

/// A measure on the 8-puzzle: runs a search and returns its answer.
type Measure = fn(&Eight) -> u64;

/// The 8-puzzle measures by name, for `--sample` and `--profile`.
const MEASURES: [(&str, Measure); 18] = [
    ("indexed", frontier_explore_indexed),
    ("ranked", ranked_explore),
    ("explore", frontier_explore),
    ("explore-2", frontier_explore_two_threads),
    ("frontier-search", frontier_search_explore),
    ("reach", pathfinding_reach),
    ("plain", plain_explore),
    ("plain-bfs", plain_bfs),
    ("bfs", |s| frontier_bfs(s) as u64),
    ("par-bfs", |s| frontier_par_bfs(s) as u64),
    ("bfs-indexed", |s| frontier_bfs_indexed(s) as u64),
    ("pf-bfs", |s| pathfinding_bfs(s) as u64),
    ("bidirectional", |s| frontier_bidirectional(s) as u64),
    ("pf-bidirectional", |s| pathfinding_bidirectional(s) as u64),
    ("astar", frontier_astar),
    ("pf-astar", pathfinding_astar),
    ("ucs", frontier_ucs),
    ("pf-dijkstra", pathfinding_dijkstra),
];

/// The measure called `name`.
fn measure(name: &str) -> Measure {
    match MEASURES.iter().find(|(n, _)| *n == name) {
        Some((_, f)) => *f,
        None => panic!("unknown measure {name}"),
    }
}

/// Processes started per side of a pair: a multiple of four, so that on one, two or four CPUs
/// each side runs first equally often on each ([`goes_second`]).
const SAMPLES: usize = 16;

/// Times one run of measure `name` in a new process of this program (`--sample NAME`), which
/// prints its answer and the seconds it took; on CPU `cpu` alone, if given.
fn sample(name: &str, cpu: Option<usize>) -> (u64, f64) {
    let exe = std::env::current_exe().expect("the bench knows its own path");
    let mut command = std::process::Command::new(exe);
    command.args(["--sample", name]);
    if let Some(cpu) = cpu {
        command.args(["--cpu", &cpu.to_string()]);
    }
    let out = command.output().expect("the bench can start itself");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    let mut next = || {
        words
            .next()
            .unwrap_or_else(|| panic!("--sample {name}: {text}"))
    };
    let answer = next().parse().expect("an answer");
    let seconds = next().parse().expect("seconds");
    (answer, seconds)
}

/// The CPUs this process may run on.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: `cpu_set_t` is plain bits, zeroed is empty; sched_getaffinity writes at most its
    // size, and CPU_ISSET reads within it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// Keeps this process on `cpu` alone (a hint: if the system refuses, it runs anywhere).
fn pin_to(cpu: usize) {
    // SAFETY: as in `allowed_cpus`; sched_setaffinity only reads the set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// The measures that start threads of their own, and so are not pinned to one CPU.
const THREADED: [&str; 2] = ["explore-2", "par-bfs"];

/// Whether frontier runs second in round `k` of a pair, the rounds taking `cpus` CPUs in turn:
/// every other pass over the CPUs, so that each side runs first equally often on each CPU.
/// The first run of a round came out slower than the second: the same bidirectional search,
/// twice in a row, took a median 1.51 ms first and 1.36 ms second (a paired 1.10x over 30
/// rounds; the 27 ms explore, 1.01x). Always first, frontier's short runs paid for it.
fn goes_second(k: usize, cpus: usize) -> bool {
    (k / cpus.max(1)) % 2 == 1
}

/// The least and the median of some times, in milliseconds.
fn best_and_median(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[0] * 1e3, times[times.len() / 2] * 1e3)
}

/// The median over rounds of `theirs[k] / ours[k]`, the two sides' times in round `k`: each
/// round's two runs follow one another on the same CPU, so a stretch of load on a shared
/// machine slows both and leaves their ratio alone, where the best and the median of each side
/// may come from different stretches (on one machine, three runs of the explore pair gave
/// best-of-nine ratios of 1.72x, 2.09x and 1.77x).
fn paired_ratio(ours: &[f64], theirs: &[f64]) -> f64 {
    let mut ratios: Vec<f64> = ours.iter().zip(theirs).map(|(a, b)| b / a).collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// One measured run of each pair outside criterion: answers, peak memory, expansion rates.
///
/// Each time is that of a single run in a new process, sides taking turns, [`SAMPLES`] each:
/// within one process, a side's time depended on what ran before it (whether the allocator
/// had freed memory to hand out again or faulted in fresh pages), by up to a third for
/// frontier and up to a half for pathfinding. A new process starts every run from the same
/// state, the one a user's run of a search starts from. In round `k` both sides run on the
/// same CPU, the allowed CPUs taken in turn, so that each side meets each CPU equally: on a
/// shared machine one CPU may be busier than another (here, runs on one CPU took 22 ms, on the
/// other 14 ms), and which one the system picked decided a ratio.
fn print_table() {
    let eight = eight_puzzle();
    let fifteen = korf_nine();
    println!(
        "{:<34} {:>12} {:>12} {:>10}",
        "pair", "frontier", "pathfinding", "ratio"
    );
    let pairs = [
        ("explore 8-puzzle (states)", "explore", "reach"),
        ("explore, undirected (states)", "frontier-search", "reach"),
        ("explore, 2 threads (states)", "explore-2", "reach"),
        ("explore, ranks (states)", "indexed", "reach"),
        ("bfs 8-puzzle (moves)", "bfs", "pf-bfs"),
        ("bfs, 2 threads (moves)", "par-bfs", "pf-bfs"),
        ("bfs, ranks (moves)", "bfs-indexed", "pf-bfs"),
        (
            "bidirectional 8-puzzle (moves)",
            "bidirectional",
            "pf-bidirectional",
        ),
        ("astar, Manhattan (cost)", "astar", "pf-astar"),
        ("ucs vs dijkstra (cost)", "ucs", "pf-dijkstra"),
    ];
    let cpus = allowed_cpus();
    let cpu_of = |round: usize| (!cpus.is_empty()).then(|| cpus[round % cpus.len()]);
    let baselines = [
        ("hand-written FxHashSet explore", "plain", 181_440),
        ("hand-written bit-array explore", "ranked", 181_440),
        ("hand-written FxHashMap bfs", "plain-bfs", 31),
    ];
    for (label, name, answer) in baselines {
        let (got, peak) = peak_of(|| measure(name)(&eight));
        assert_eq!(got, answer, "{label}");
        let times = (0..SAMPLES).map(|k| sample(name, cpu_of(k)).1).collect();
        let (best, _) = best_and_median(times);
        println!(
            "{label:<34} {best:>12.2} ms (best of {SAMPLES} processes), {:.2} MiB peak heap",
            peak as f64 / (1 << 20) as f64
        );
    }
    for (label, ours, theirs) in pairs {
        let (a, ma) = peak_of(|| measure(ours)(&eight));
        let (b, mb) = peak_of(|| measure(theirs)(&eight));
        assert_eq!(a, b, "{label}: the two libraries disagree");
        let (mut times_a, mut times_b) = (Vec::new(), Vec::new());
        for k in 0..SAMPLES {
            let mut sides = [(ours, &mut times_a, a), (theirs, &mut times_b, b)];
            if goes_second(k, cpus.len()) {
                sides.reverse();
            }
            for (name, times, answer) in sides {
                let cpu = cpu_of(k).filter(|_| !THREADED.contains(&name));
                let (got, seconds) = sample(name, cpu);
                assert_eq!(got, answer, "{name} in a new process");
                times.push(seconds);
            }
        }
        let paired = paired_ratio(&times_a, &times_b);
        let ((best_a, median_a), (best_b, median_b)) =
            (best_and_median(times_a), best_and_median(times_b));
        println!("{label:<34} {a:>12} {b:>12}");
        println!(
            "{:<34} {:>12.2} {:>12.2} {:>9.2}x",
            format!("  time (ms, best of {SAMPLES} processes)"),
            best_a,
            best_b,
            best_b / best_a
        );
        println!(
            "{:<34} {:>12.2} {:>12.2} {:>9.2}x",
            "  time (ms, median)",
            median_a,
            median_b,
            median_b / median_a
        );
        println!(
            "{:<34} {:>12} {:>12} {:>9.2}x",
            "  paired ratio (median of rounds)", "", "", paired
        );
        println!(
            "{:<34} {:>12.2} {:>12.2} {:>9.2}x",
            "  peak heap (MiB)",
            ma as f64 / (1 << 20) as f64,
            mb as f64 / (1 << 20) as f64,
            mb as f64 / ma as f64
        );
    }
    let ((len_a, exp_a), ma) = peak_of(|| frontier_idastar(&fifteen));
    let ((len_b, exp_b), mb) = peak_of(|| pathfinding_idastar(&fifteen));
    assert_eq!(len_a, len_b, "IDA*: the two libraries disagree");
    let (len_p, exp_p) = plain_idastar(&fifteen);
    assert_eq!(len_p, len_a);
    let ([ta, tb, tp], [rounds_a, rounds_b, _]) = ida_times(&fifteen);
    println!(
        "{:<34} {:>12.1} M expansions/s ({} expansions)",
        "hand-written recursive IDA*",
        exp_p as f64 / tp / 1e6,
        exp_p
    );
    println!(
        "{:<34} {len_a:>12} {len_b:>12}",
        "idastar 15-puzzle #9 (moves)"
    );
    println!(
        "{:<34} {:>12.1} {:>12.1} {:>9.2}x",
        "  M expansions/s",
        exp_a as f64 / ta / 1e6,
        exp_b as f64 / tb / 1e6,
        (exp_a as f64 / ta) / (exp_b as f64 / tb)
    );
    println!(
        "{:<34} {:>12} {:>12} {:>9.2}x",
        "  paired rate ratio (median)",
        "",
        "",
        paired_ratio(&rounds_a, &rounds_b) * exp_a as f64 / exp_b as f64
    );
    println!("{:<34} {:>12} {:>12}", "  expansions", exp_a, exp_b);
    println!(
        "{:<34} {:>12.3} {:>12.3} {:>9.2}x",
        "  time (s, fastest solve)",
        ta,
        tb,
        tb / ta
    );
    println!(
        "{:<34} {:>12.3} {:>12.3}",
        "  peak heap (KiB)",
        ma as f64 / 1024.0,
        mb as f64 / 1024.0
    );
}

/// An IDA* on the 15-puzzle: returns (length, expansions).
type Solve = fn(&Fifteen) -> (usize, u64);

/// Rounds of the IDA* pair: in each, frontier, pathfinding and the hand-written IDA* solve once.
const IDA_ROUNDS: usize = 9;

/// The fastest solve of Korf's #9, in seconds, by frontier, pathfinding and the hand-written
/// IDA*, the three taking turns for [`IDA_ROUNDS`] rounds, so that every side's best time is
/// taken over the same stretch of a shared machine's load and from as many solves: with five
/// solves each, one side after the other, a busy second made the ratio anything from 3.3x to
/// 5.3x. Also returns each side's times, round by round, for the paired ratio.
fn ida_times(fifteen: &Fifteen) -> ([f64; 3], [Vec<f64>; 3]) {
    let solvers: [Solve; 3] = [frontier_idastar, pathfinding_idastar, plain_idastar];
    let mut best = [f64::INFINITY; 3];
    let mut rounds: [Vec<f64>; 3] = Default::default();
    for _ in 0..IDA_ROUNDS {
        for (k, solve) in solvers.iter().enumerate() {
            let start = Instant::now();
            black_box(solve(black_box(fifteen)));
            let seconds = start.elapsed().as_secs_f64();
            best[k] = best[k].min(seconds);
            rounds[k].push(seconds);
        }
    }
    (best, rounds)
}

fn benches(c: &mut Criterion) {
    let eight = eight_puzzle();
    let mut group = c.benchmark_group("explore/tiles/3x3");
    group.sample_size(20);
    group.bench_function("frontier", |b| {
        b.iter(|| frontier_explore(black_box(&eight)))
    });
    group.bench_function("frontier-undirected", |b| {
        b.iter(|| frontier_search_explore(black_box(&eight)))
    });
    group.bench_function("pathfinding", |b| {
        b.iter(|| pathfinding_reach(black_box(&eight)))
    });
    group.finish();

    let mut group = c.benchmark_group("bfs/tiles/3x3");
    group.sample_size(20);
    group.bench_function("frontier", |b| b.iter(|| frontier_bfs(black_box(&eight))));
    group.bench_function("pathfinding", |b| {
        b.iter(|| pathfinding_bfs(black_box(&eight)))
    });
    group.finish();

    let mut group = c.benchmark_group("bidirectional/tiles/3x3");
    group.sample_size(20);
    group.bench_function("frontier", |b| {
        b.iter(|| frontier_bidirectional(black_box(&eight)))
    });
    group.bench_function("pathfinding", |b| {
        b.iter(|| pathfinding_bidirectional(black_box(&eight)))
    });
    group.finish();

    for (name, ours, theirs) in [
        (
            "astar/tiles/3x3",
            frontier_astar as Measure,
            pathfinding_astar as Measure,
        ),
        ("ucs/tiles/3x3", frontier_ucs, pathfinding_dijkstra),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        group.bench_function("frontier", |b| b.iter(|| ours(black_box(&eight))));
        group.bench_function("pathfinding", |b| b.iter(|| theirs(black_box(&eight))));
        group.finish();
    }

    let fifteen = korf_nine();
    let mut group = c.benchmark_group("idastar/tiles/4x4");
    group.sample_size(10);
    for (name, solve) in [
        ("frontier", frontier_idastar as Solve),
        ("pathfinding", pathfinding_idastar),
    ] {
        group.bench_with_input(BenchmarkId::new(name, "korf9"), &fifteen, |b, s| {
            b.iter(|| solve(black_box(s)))
        });
    }
    group.finish();
}

/// Runs one side of one pair 20 times, for a profiler: `--profile NAME` with NAME one of
/// `explore`, `explore-2`, `frontier-search`, `reach`, `plain`, `ranked`, `plain-bfs`, `bfs`,
/// `par-bfs`, `bfs-indexed`, `pf-bfs`, `bidirectional`, `pf-bidirectional`, `astar`, `pf-astar`,
/// `ucs`, `pf-dijkstra`, `idastar`, `pf-idastar` (the
/// bidirectional pair runs 1000 times); or both sides in turn, as the table times them:
/// `both-explore`, `both-bidirectional`.
fn profile(name: &str) {
    let (eight, fifteen) = (eight_puzzle(), korf_nine());
    let rounds = if name.ends_with("bidirectional") {
        1000
    } else {
        20
    };
    for _ in 0..rounds {
        match name {
            "both-bidirectional" => {
                black_box(frontier_bidirectional(&eight));
                black_box(pathfinding_bidirectional(&eight));
            }
            "both-explore" => {
                black_box(frontier_explore(&eight));
                black_box(pathfinding_reach(&eight));
            }
            "idastar" => drop(black_box(frontier_idastar(&fifteen))),
            "pf-idastar" => drop(black_box(pathfinding_idastar(&fifteen))),
            _ => drop(black_box(measure(name)(&eight))),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--sample") {
        if let Some(cpu) = args.iter().position(|a| a == "--cpu") {
            pin_to(args[cpu + 1].parse().expect("--cpu takes a CPU number"));
        }
        let eight = eight_puzzle();
        let f = measure(&args[at + 1]);
        let start = Instant::now();
        let answer = f(&eight);
        return println!("{answer} {}", start.elapsed().as_secs_f64());
    }
    if let Some(at) = args.iter().position(|a| a == "--profile") {
        return profile(&args[at + 1]);
    }
    if args.iter().any(|a| a == "--large-astar") {
        return large_astar();
    }
    print_table();
    if args.iter().any(|a| a == "--table-only") {
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
}
