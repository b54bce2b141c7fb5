//! A fast solver for boards of any size that gives up on the shortest answer: the board is
//! reduced line by line, each line's tiles placed by small exact searches, and the last 3 x 3
//! (or smaller) region solved optimally.
//!
//! This is the method people use by hand (and the idea of Parberry's real-time algorithm for
//! the (n^2 - 1)-puzzle, 1995), with each step searched instead of scripted: a tile is moved to
//! its cell by A* over (that tile's cell, the blank's cell) among the cells not yet placed, and
//! the last two tiles of a line together by A* over (both cells, the blank's), which finds the
//! classic corner manoeuvre by itself. A stage's search space has at most 256^3 states and is
//! usually explored in a few thousand, so a 16 x 16 board takes milliseconds.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use frontier_search::{Config, Limit, Outcome, Stats, Status, Watch};
use rustc_hash::FxHashMap;

use crate::board::{solution, Dir, Puzzle, Shape};
use crate::ida::Solver;

/// The most states one stage's search may store when `config.max_states` says nothing: far
/// beyond what a stage needs (a few thousand), well within memory (16 bytes a state).
const STAGE_STATES: u64 = 1 << 24;

/// Why a stage ended without placing its tiles.
enum Stop {
    /// A limit of the configuration.
    Limit(Limit),
    /// No sequence of moves places them (only a stage that is allowed to fail may end so).
    NoPath,
}

/// Solves `puzzle` in stages: an answer for any solvable board, fast, not the shortest.
/// Unsolvable boards are [`Outcome::Exhausted`] at once (parity); boards of a single line or of
/// at most 3 x 3 are solved optimally. `config`'s timeout, cancel flag and `max_states` (per
/// stage) apply; an answer longer than `max_depth` is not returned (a depth limit instead).
/// The statistics' `stored` is the most states one stage's search held.
///
/// ```
/// use frontier_search::{Config, Status};
/// use frontier_tiles::{solve_in_stages, Puzzle, Shape};
///
/// // Two tiles swapped far from the blank on an 8 x 8 board.
/// let shape = Shape::new(8, 8).unwrap();
/// let mut start = shape.default_goal();
/// start.swap(0, 1);
/// start.swap(2, 3);
/// let puzzle = Puzzle::new(shape, &start, &shape.default_goal()).unwrap();
/// let outcome = solve_in_stages(&puzzle, &Config::default());
/// assert_eq!(outcome.status(), Status::Solved);
/// let moves = outcome.into_solution().unwrap().moves;
/// assert_eq!(puzzle.replay(&moves).unwrap(), puzzle.goal());
/// ```
pub fn solve_in_stages(puzzle: &Puzzle, config: &Config) -> Outcome<Vec<u8>, Dir> {
    let shape = puzzle.shape();
    let small = shape.rows() <= 3 && shape.cols() <= 3;
    if !puzzle.is_solvable() || small || shape.rows() == 1 || shape.cols() == 1 {
        // Nothing to reduce: the exact solver is as fast (a line has one free cell to move).
        return Solver::conflict(puzzle).solve(puzzle.start(), config);
    }
    let mut work = Work::new(puzzle, config);
    let mut end = work.reduce();
    if let Err(Stop::NoPath) = end {
        // A stage that must succeed found no way: not possible on a solvable board of at least
        // 2 x 2 cells, but never claim more than was shown: search on from here, exactly.
        end = work.solve_the_rest(puzzle);
    }
    let too_long = (config.max_depth).is_some_and(|depth| work.moves.len() > depth as usize);
    // The limit that stopped it, or `None` once proven unsolvable.
    let end: Result<(), Option<Limit>> = match end {
        // Not the shortest answer, so only a depth limit, not a proof: no answer that short
        // was found.
        Ok(()) if too_long => Err(Some(Limit::Depth)),
        Ok(()) => Ok(()),
        Err(Stop::Limit(limit)) => Err(Some(limit)),
        Err(Stop::NoPath) => Err(None),
    };
    let stats = Stats {
        expanded: work.expanded,
        generated: work.generated,
        stored: work.peak_stored,
        peak_frontier: work.peak_stored,
        seconds: work.watch.seconds(),
    };
    match end {
        Ok(()) => Outcome::Solved {
            solution: solution(shape, puzzle.start(), work.moves),
            stats,
        },
        Err(limit) => Outcome::unsolved(limit, stats),
    }
}

/// The board as the stages change it, and what they have done.
struct Work<'a> {
    shape: Shape,
    goal: &'a [u8],
    board: Vec<u8>,
    blank: usize,
    /// Cells whose tile is placed for good (and the cells outside the region left to solve).
    fixed: Vec<bool>,
    moves: Vec<Dir>,
    config: &'a Config,
    /// The timeout and the cancel flag, looked at between stages.
    watch: Watch<'a>,
    budget: u64,
    expanded: u64,
    generated: u64,
    peak_stored: u64,
}

impl<'a> Work<'a> {
    fn new(puzzle: &'a Puzzle, config: &'a Config) -> Self {
        let board = puzzle.start().to_vec();
        Work {
            shape: puzzle.shape(),
            goal: puzzle.goal(),
            blank: board.iter().position(|&t| t == 0).unwrap_or(0),
            fixed: vec![false; board.len()],
            board,
            moves: Vec::new(),
            config,
            watch: Watch::new(config),
            budget: config.max_states.unwrap_or(STAGE_STATES).min(STAGE_STATES),
            expanded: 0,
            generated: 0,
            peak_stored: 0,
        }
    }

    /// Peels lines off the region left to solve, always along its longer side and on the side
    /// away from the blank's goal cell (which stays in the region), until it is at most 3 x 3;
    /// then solves that region exactly.
    fn reduce(&mut self) -> Result<(), Stop> {
        let cols = self.shape.cols();
        let (mut top, mut bottom, mut left, mut right) = (0, self.shape.rows() - 1, 0, cols - 1);
        let home = self.goal.iter().position(|&t| t == 0).unwrap_or(0);
        let (home_row, home_col) = (home / cols, home % cols);
        loop {
            let (height, width) = (bottom - top + 1, right - left + 1);
            if height <= 3 && width <= 3 {
                return self.finish(top, bottom, left, right);
            }
            if height >= width {
                let row = if home_row - top >= bottom - home_row {
                    top
                } else {
                    bottom
                };
                let cells: Vec<usize> = (left..=right).map(|c| row * cols + c).collect();
                let inward = if row == top { Dir::D } else { Dir::U };
                self.place_line(&cells, inward)?;
                if row == top {
                    top += 1;
                } else {
                    bottom -= 1;
                }
            } else {
                let col = if home_col - left >= right - home_col {
                    left
                } else {
                    right
                };
                let cells: Vec<usize> = (top..=bottom).map(|r| r * cols + col).collect();
                let inward = if col == left { Dir::R } else { Dir::L };
                self.place_line(&cells, inward)?;
                if col == left {
                    left += 1;
                } else {
                    right -= 1;
                }
            }
        }
    }

    /// Places the goal tiles of `cells` (a line on the region's edge; `inward` points into the
    /// region) and fixes them: one by one, then the last two together.
    fn place_line(&mut self, cells: &[usize], inward: Dir) -> Result<(), Stop> {
        let n = cells.len();
        for &cell in &cells[..n - 2] {
            self.place(&[(self.goal[cell], cell)])?;
            self.fixed[cell] = true;
        }
        let (c1, c2) = (cells[n - 2], cells[n - 1]);
        let (t1, t2) = (self.goal[c1], self.goal[c2]);
        if self.board[c1] != t1 || self.board[c2] != t2 {
            // Bring both near their cells with the cheap one-tile searches (the first in its
            // cell, the second next to its cell, inside the region), then finish them together.
            self.place(&[(t1, c1)])?;
            if self.board[c2] != t2 {
                if let Some(near) = self.shape.step(c2, inward) {
                    self.fixed[c1] = true;
                    let nearby = self.place(&[(t2, near)]);
                    self.fixed[c1] = false;
                    if let Err(Stop::Limit(limit)) = nearby {
                        return Err(Stop::Limit(limit));
                    }
                }
            }
            self.place(&[(t1, c1), (t2, c2)])?;
        }
        self.fixed[c1] = true;
        self.fixed[c2] = true;
        Ok(())
    }

    /// Moves each `(tile, cell)` of `targets` (one or two) to its cell by the fewest moves of
    /// the blank among the cells not fixed (A*), and plays those moves.
    fn place(&mut self, targets: &[(u8, usize)]) -> Result<(), Stop> {
        self.check()?;
        let cols = self.shape.cols();
        let distance = |a: usize, b: usize| {
            ((a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols)) as u32
        };
        // A state packs the blank's cell, then the targets' cells, a byte each.
        let pack = |blank: usize, at: &[usize]| {
            at.iter()
                .enumerate()
                .fold(blank as u32, |s, (i, &c)| s | (c as u32) << (8 * (i + 1)))
        };
        let unpack = |state: u32, i: usize| (state >> (8 * i) & 0xff) as usize;
        // Every tile move takes one move, and the first needs the blank beside a misplaced tile.
        let estimate = |state: u32| {
            let blank = unpack(state, 0);
            let mut tiles = 0;
            let mut reach = u32::MAX;
            for (i, &(_, cell)) in targets.iter().enumerate() {
                let at = unpack(state, i + 1);
                if at != cell {
                    tiles += distance(at, cell);
                    reach = reach.min(distance(blank, at) - 1);
                }
            }
            if tiles == 0 {
                0
            } else {
                tiles + reach
            }
        };
        let at: Vec<usize> = targets
            .iter()
            .map(|&(tile, _)| self.board.iter().position(|&t| t == tile).unwrap_or(0))
            .collect();
        let start = pack(self.blank, &at);
        if estimate(start) == 0 {
            return Ok(());
        }
        // Per state: its cost from the start, the state it came from and the blank's move.
        let mut seen: FxHashMap<u32, (u32, u32, Dir)> = FxHashMap::default();
        seen.insert(start, (0, start, Dir::U));
        let mut open = BinaryHeap::new();
        open.push(Reverse((estimate(start), 0u32, start)));
        let mut goal = None;
        while let Some(Reverse((_, g, state))) = open.pop() {
            if seen.get(&state).is_some_and(|&(best, _, _)| best < g) {
                continue;
            }
            if estimate(state) == 0 {
                goal = Some(state);
                break;
            }
            self.expanded += 1;
            if self.expanded.is_multiple_of(4096) {
                self.check()?;
            }
            let blank = unpack(state, 0);
            for dir in Dir::ALL {
                let Some(next) = self.shape.step(blank, dir) else {
                    continue;
                };
                if self.fixed[next] {
                    continue;
                }
                self.generated += 1;
                let mut child = state & !0xff | next as u32;
                for i in 0..targets.len() {
                    if unpack(state, i + 1) == next {
                        // The tile slides into the blank's old cell.
                        child = child & !(0xff << (8 * (i + 1))) | (blank as u32) << (8 * (i + 1));
                    }
                }
                let cost = g + 1;
                if seen.get(&child).is_none_or(|&(best, _, _)| cost < best) {
                    seen.insert(child, (cost, state, dir));
                    open.push(Reverse((cost + estimate(child), cost, child)));
                }
            }
            if seen.len() as u64 > self.budget {
                self.peak_stored = self.peak_stored.max(seen.len() as u64);
                return Err(Stop::Limit(Limit::States));
            }
        }
        self.peak_stored = self.peak_stored.max(seen.len() as u64);
        let Some(mut state) = goal else {
            return Err(Stop::NoPath);
        };
        let mut path = Vec::new();
        while state != start {
            let (_, parent, dir) = seen[&state];
            path.push(dir);
            state = parent;
        }
        for &dir in path.iter().rev() {
            self.slide(dir);
        }
        Ok(())
    }

    /// Solves the whole board from where it stands, exactly, and plays the answer.
    fn solve_the_rest(&mut self, puzzle: &Puzzle) -> Result<(), Stop> {
        let rest = puzzle.with_start(&self.board).map_err(|_| Stop::NoPath)?;
        let outcome = Solver::conflict(&rest).solve(&self.board, &self.remaining());
        self.play(outcome)
    }

    /// The configuration for a last exact search: the time left, no depth limit.
    fn remaining(&self) -> Config {
        let mut config = self.config.clone();
        config.max_depth = None;
        let elapsed = self.watch.started().elapsed();
        config.timeout = (self.config.timeout).map(|t| t.saturating_sub(elapsed));
        config
    }

    /// Plays the answer of an exact search, or passes on why there is none.
    fn play(&mut self, outcome: Outcome<Vec<u8>, Dir>) -> Result<(), Stop> {
        self.expanded += outcome.stats().expanded;
        self.generated += outcome.stats().generated;
        match (outcome.status(), outcome.solution()) {
            (Status::Solved, Some(solution)) => {
                for &dir in &solution.moves {
                    self.slide(dir);
                }
                Ok(())
            }
            (Status::Limit(limit), _) => Err(Stop::Limit(limit)),
            _ => Err(Stop::NoPath),
        }
    }

    /// Solves the last region (at most 3 x 3, rows `top..=bottom`, columns `left..=right`)
    /// optimally, as a small puzzle of its own.
    fn finish(&mut self, top: usize, bottom: usize, left: usize, right: usize) -> Result<(), Stop> {
        let cols = self.shape.cols();
        let cells: Vec<usize> = (top..=bottom)
            .flat_map(|r| (left..=right).map(move |c| r * cols + c))
            .collect();
        // The region's tiles renamed 1, 2, ... in the goal's order, the blank still 0.
        let mut name = vec![0u8; self.board.len()];
        let mut next = 0;
        for &cell in &cells {
            let tile = self.goal[cell];
            if tile != 0 {
                next += 1;
                name[tile as usize] = next;
            }
        }
        let start: Vec<u8> = cells
            .iter()
            .map(|&c| name[self.board[c] as usize])
            .collect();
        let goal: Vec<u8> = cells.iter().map(|&c| name[self.goal[c] as usize]).collect();
        let shape = Shape::new(bottom - top + 1, right - left + 1).map_err(|_| Stop::NoPath)?;
        let region = Puzzle::new(shape, &start, &goal).map_err(|_| Stop::NoPath)?;
        let outcome = Solver::conflict(&region).solve(&start, &self.remaining());
        self.play(outcome)
    }

    /// Moves the blank one cell (a move the stages have checked).
    fn slide(&mut self, dir: Dir) {
        if let Some(next) = self.shape.step(self.blank, dir) {
            self.board.swap(self.blank, next);
            self.blank = next;
            self.moves.push(dir);
        }
    }

    /// Stops at the configuration's timeout or cancel flag.
    fn check(&self) -> Result<(), Stop> {
        match self.watch.limit() {
            Some(limit) => Err(Stop::Limit(limit)),
            None => Ok(()),
        }
    }
}
