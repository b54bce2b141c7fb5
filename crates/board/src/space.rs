//! The robot's moves and rules, and the search space over cell-and-heading states.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use frontier_search::{Cost, Limit, Reversible, Space, Words};
use thiserror::Error;

use crate::board::{Board, Heading, Place, OUTSIDE};

/// A move of the robot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Step ahead onto a cell with the same letter.
    Forward,
    /// Step ahead onto the next letter up (and, under [`Rules::Lightbot`], onto any lower one).
    Jump,
    /// Turn a quarter to the left, in place (only on the board).
    Left,
    /// Turn a quarter to the right, in place (only on the board).
    Right,
}

impl Move {
    /// All moves.
    pub const ALL: [Move; 4] = [Move::Forward, Move::Jump, Move::Left, Move::Right];

    /// The move's name: `Forward`, `Jump`, `Left` or `Right` (as in the JSON output).
    pub fn name(self) -> &'static str {
        match self {
            Move::Forward => "Forward",
            Move::Jump => "Jump",
            Move::Left => "Left",
            Move::Right => "Right",
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which steps between letters are allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The seed's: Forward onto the same letter, Jump onto the next letter (B from A).
    #[default]
    Seed,
    /// Lightbot's: as `Seed`, and Jump may also go down onto any lower letter.
    Lightbot,
}

impl Rules {
    /// The rules' name: `seed` or `lightbot`.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Seed => "seed",
            Rules::Lightbot => "lightbot",
        }
    }

    /// The move that steps from letter `from` onto letter `to` (`0` is A), if any.
    #[inline]
    pub fn step(self, from: u8, to: u8) -> Option<Move> {
        if to == from {
            Some(Move::Forward)
        } else if to == from.wrapping_add(1) || (self == Rules::Lightbot && to < from) {
            Some(Move::Jump)
        } else {
            None
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name of rules that is neither `seed` nor `lightbot`: the text given.
///
/// ```
/// use frontier_board::Rules;
///
/// assert_eq!("lightbot".parse::<Rules>(), Ok(Rules::Lightbot));
/// let error = "chess".parse::<Rules>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown rules \"chess\" (expected seed or lightbot)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?} (expected seed or lightbot)")]
pub struct ParseRulesError(pub String);

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads `seed` or `lightbot`.
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        match s {
            "seed" => Ok(Rules::Seed),
            "lightbot" => Ok(Rules::Lightbot),
            other => Err(ParseRulesError(other.to_owned())),
        }
    }
}

/// The robot's state: a padded cell index and a heading, packed in a `u32`.
///
/// The index counts cells of the board surrounded by a ring of padding, so "off the board, just
/// below column c" (the `*` start) is the padding cell below that column: every state is a cell
/// and a heading, and one state is four bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(u32);

impl State {
    #[inline]
    pub(crate) fn new(index: usize, heading: u32) -> State {
        State(((index as u32) << 2) | (heading & 3))
    }

    /// The padded cell index.
    #[inline]
    fn index(self) -> usize {
        (self.0 >> 2) as usize
    }

    /// The robot's heading.
    pub fn heading(self) -> Heading {
        Heading::from_index(self.0)
    }

    /// The packed encoding (padded cell index times 4 plus heading).
    pub fn bits(self) -> u32 {
        self.0
    }

    /// The state with this packed encoding.
    pub(crate) fn from_bits(bits: u32) -> State {
        State(bits)
    }
}

/// The packed encoding, for a distributed exploration.
impl Words for State {
    const WORDS: usize = 1;
    #[inline]
    fn put(&self, out: &mut Vec<u64>) {
        out.push(u64::from(self.0));
    }
    #[inline]
    fn take(words: &[u64]) -> Self {
        State(words[0] as u32)
    }
}

/// A target letter that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TargetError {
    /// The target is not a letter A-Z.
    #[error("the target {0:?} is not a letter A-Z")]
    NotALetter(char),
    /// No cell holds the target.
    #[error("no cell holds the target {target:?} (the board's letters run up to {highest:?})")]
    NotOnBoard {
        /// The target asked for.
        target: char,
        /// The highest letter on the board.
        highest: char,
    },
}

/// A board, rules and target letter: the search space the engine's solvers run on.
///
/// States are [`State`]s (four bytes); successors and predecessors are computed from the padded
/// grid with no bounds checks and no allocation. Every step costs 1. The heuristic (used by
/// `astar` and `idastar`) is the larger of the letters still to climb and the Manhattan distance
/// to the nearest target cell: each move climbs at most one letter and moves at most one cell,
/// so it never overestimates, under either rules.
#[derive(Clone, Debug)]
pub struct Puzzle {
    board: Board,
    rules: Rules,
    target: u8,
    start: State,
    /// The index offsets of one step north, east, south and west, as wrapping `usize`s.
    steps: [usize; 4],
    /// The Manhattan distance from each padded cell to the nearest target cell, built on first
    /// use of the heuristic.
    distance: OnceLock<Vec<u32>>,
}

impl Puzzle {
    /// Builds the space for `board` under `rules`, aiming at `target` (default: the highest
    /// letter on the board).
    ///
    /// ```
    /// use frontier_board::{Board, Puzzle, Rules};
    /// use frontier_search::{bfs, Config};
    ///
    /// let board = Board::parse("AAAA\nACCB\nADEF\n*\n0 0 N\n")?;
    /// let puzzle = Puzzle::new(board, Rules::Seed, None)?;
    /// let solution = bfs(&puzzle, &Config::default()).into_solution().unwrap();
    /// assert_eq!(solution.len(), 17); // the seed's answer
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(board: Board, rules: Rules, target: Option<char>) -> Result<Puzzle, TargetError> {
        let target = target.unwrap_or_else(|| board.highest_letter());
        if !target.is_ascii_alphabetic() {
            return Err(TargetError::NotALetter(target));
        }
        let target = target.to_ascii_uppercase();
        if !board.contains(target) {
            return Err(TargetError::NotOnBoard {
                target,
                highest: board.highest_letter(),
            });
        }
        let start = board.start();
        let index = match start.place {
            Place::Cell { x, y } => board.index(x, y),
            Place::Below { column } => board.below(column),
        };
        let stride = board.stride();
        Ok(Puzzle {
            rules,
            target: target as u8 - b'A',
            start: State::new(index, start.heading as u32),
            steps: [stride, 1, stride.wrapping_neg(), usize::MAX],
            distance: OnceLock::new(),
            board,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The target letter.
    pub fn target(&self) -> char {
        char::from(b'A' + self.target)
    }

    /// Where a state puts the robot.
    pub fn place(&self, state: State) -> Place {
        self.board.place(state.index())
    }

    /// The state of the robot at `place` heading `heading`, if it is on the board or the start.
    pub fn state_at(&self, place: Place, heading: Heading) -> Option<State> {
        let index = match place {
            Place::Cell { x, y } if x < self.board.width() && y < self.board.height() => {
                self.board.index(x, y)
            }
            Place::Below { .. } => {
                let start = self.start;
                let same = self.place(start) == place && start.heading() == heading;
                return (same && self.board.cells()[start.index()] == OUTSIDE).then_some(start);
            }
            _ => return None,
        };
        Some(State::new(index, heading as u32))
    }

    /// Every state of the space: each board cell in each heading, and an off-board start.
    pub fn states(&self) -> impl Iterator<Item = State> + '_ {
        let cells = self.board.cells();
        let on_board = (0..cells.len())
            .filter(move |&i| cells[i] != OUTSIDE)
            .flat_map(|i| (0..4).map(move |h| State::new(i, h)));
        let off = (cells[self.start.index()] == OUTSIDE).then_some(self.start);
        off.into_iter().chain(on_board)
    }

    /// The number of state slots: four headings for each padded cell (the fast solvers'
    /// table size).
    pub(crate) fn slots(&self) -> usize {
        self.board.cells().len() * 4
    }

    /// The state that `mv` came from to reach `state` (the unique inverse of a move).
    #[inline]
    pub(crate) fn undo(&self, state: State, mv: Move) -> State {
        let (index, heading) = (state.index(), state.0 & 3);
        match mv {
            Move::Left => State::new(index, heading + 1),
            Move::Right => State::new(index, heading + 3),
            Move::Forward | Move::Jump => {
                State::new(index.wrapping_sub(self.steps[heading as usize]), heading)
            }
        }
    }

    /// The letter the robot stands on: off the board it counts as `A` (0).
    #[inline]
    fn here(&self, index: usize) -> u8 {
        let letter = self.board.cells()[index];
        if letter == OUTSIDE {
            0
        } else {
            letter
        }
    }

    /// The bytes of the heuristic's distance map: four a padded cell.
    pub fn heuristic_bytes(&self) -> u64 {
        self.board.cells().len() as u64 * 4
    }

    /// Builds the heuristic's distance map ahead of a search, within limits: refused with
    /// [`Limit::States`] when its [bytes](Puzzle::heuristic_bytes) pass `max_bytes` (a byte
    /// counts as a stored state, as for every table), and stopped with the limit `stop` names,
    /// which is asked once a row. Without it, `astar` and `idastar` build the map on their
    /// first heuristic call, unwatched: on a board of hundreds of millions of cells that takes
    /// seconds.
    ///
    /// ```
    /// use frontier_board::{Board, Puzzle, Rules};
    /// use frontier_search::Limit;
    ///
    /// let puzzle = Puzzle::new(Board::parse("AAAA\nACCB\nADEF\n")?, Rules::Seed, None)?;
    /// assert_eq!(puzzle.prepare_heuristic(10, &|| None), Err(Limit::States));
    /// assert_eq!(puzzle.prepare_heuristic(1 << 20, &|| Some(Limit::Time)), Err(Limit::Time));
    /// assert_eq!(puzzle.prepare_heuristic(1 << 20, &|| None), Ok(()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_heuristic(
        &self,
        max_bytes: u64,
        stop: &dyn Fn() -> Option<Limit>,
    ) -> Result<(), Limit> {
        if self.distance.get().is_some() {
            return Ok(());
        }
        if self.heuristic_bytes() > max_bytes {
            return Err(Limit::States);
        }
        let map = self.distance_map(stop)?;
        // Another thread may have built it meanwhile: the same map.
        let _ = self.distance.set(map);
        Ok(())
    }

    /// The Manhattan distance from every padded cell to the nearest target cell.
    fn distances(&self) -> &[u32] {
        self.distance
            .get_or_init(|| match self.distance_map(&|| None) {
                Ok(map) => map,
                // A build that nothing stops cannot stop.
                Err(_) => unreachable!("an unwatched distance map stopped"),
            })
    }

    /// The distance map, asking `stop` once a row.
    fn distance_map(&self, stop: &dyn Fn() -> Option<Limit>) -> Result<Vec<u32>, Limit> {
        let (w, h) = (self.board.width(), self.board.height());
        let cells = self.board.cells();
        let pw = w + 2;
        let far = u32::MAX / 2;
        let mut d: Vec<u32> = cells
            .iter()
            .map(|&c| if c == self.target { 0 } else { far })
            .collect();
        // The city-block distance transform: one pass from the bottom-left, one back.
        // Padding cells keep `far` and are never read as a source.
        for y in 1..=h {
            if let Some(limit) = stop() {
                return Err(limit);
            }
            for x in 1..=w {
                let i = y * pw + x;
                let best = d[i].min(d[i - 1] + 1).min(d[i - pw] + 1);
                d[i] = best;
            }
        }
        for y in (1..=h).rev() {
            if let Some(limit) = stop() {
                return Err(limit);
            }
            for x in (1..=w).rev() {
                let i = y * pw + x;
                let best = d[i].min(d[i + 1] + 1).min(d[i + pw] + 1);
                d[i] = best;
            }
        }
        // The padding row below the board: one more than the cell above.
        for x in 1..=w {
            d[x] = d[x + pw] + 1;
        }
        Ok(d)
    }
}

impl Space for Puzzle {
    type State = State;
    type Move = Move;

    fn start(&self) -> State {
        self.start
    }

    #[inline]
    fn is_goal(&self, state: &State) -> bool {
        self.board.cells()[state.index()] == self.target
    }

    #[inline]
    fn successors(&self, state: &State, last: Option<&Move>, mut out: impl FnMut(Move, State)) {
        let index = state.index();
        let heading = state.0 & 3;
        let cells = self.board.cells();
        let on_board = cells[index] != OUTSIDE;
        // Off the board (below it) only a step north leads anywhere, and any other step could
        // leave the padded grid.
        if on_board || heading == Heading::N as u32 {
            let ahead = index.wrapping_add(self.steps[heading as usize]);
            let to = cells[ahead];
            if to != OUTSIDE {
                if let Some(mv) = self.rules.step(self.here(index), to) {
                    out(mv, State::new(ahead, heading));
                }
            }
        }
        if on_board {
            // Left then Right (or Right then Left) is never on a shortest path.
            if last != Some(&Move::Right) {
                out(Move::Left, State::new(index, heading + 3));
            }
            if last != Some(&Move::Left) {
                out(Move::Right, State::new(index, heading + 1));
            }
        }
    }

    fn heuristic(&self, state: &State) -> Cost {
        let index = state.index();
        let climb = self.target.saturating_sub(self.here(index));
        Cost::from(climb).max(Cost::from(self.distances()[index]))
    }

    /// Every move costs 1.
    fn max_step_cost(&self) -> Option<Cost> {
        Some(1)
    }
}

impl Reversible for Puzzle {
    /// Every target cell, in every heading.
    fn goals(&self) -> Vec<State> {
        let cells = self.board.cells();
        (0..cells.len())
            .filter(|&i| cells[i] == self.target)
            .flat_map(|i| (0..4).map(move |h| State::new(i, h)))
            .collect()
    }

    fn predecessors(&self, state: &State, mut out: impl FnMut(Move, State)) {
        let index = state.index();
        let heading = state.0 & 3;
        let cells = self.board.cells();
        let letter = cells[index];
        if letter == OUTSIDE {
            // Nothing moves off the board, and the robot cannot turn there.
            return;
        }
        let behind = index.wrapping_sub(self.steps[heading as usize]);
        let prev = State::new(behind, heading);
        let from = cells[behind];
        if from != OUTSIDE || prev == self.start {
            if let Some(mv) = self.rules.step(self.here(behind), letter) {
                out(mv, prev);
            }
        }
        out(Move::Left, State::new(index, heading + 1));
        out(Move::Right, State::new(index, heading + 3));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontier_search::{bfs, Config, Status};

    fn solve(text: &str, rules: Rules, target: Option<char>) -> Option<Vec<Move>> {
        let puzzle = Puzzle::new(Board::parse(text).unwrap(), rules, target).unwrap();
        bfs(&puzzle, &Config::default())
            .into_solution()
            .map(|s| s.moves)
    }

    #[test]
    fn seed_answers() {
        // The seed (002_e01a57dc5b96d110.txt) prints 17 moves for this board, 6 for AB/AC.
        let seed = solve("AAAA\nACCB\nADEF\n*\n0 0 N\n", Rules::Seed, None).unwrap();
        assert_eq!(seed.len(), 17);
        let small = solve("AB\nAC\n", Rules::Seed, Some('C')).unwrap();
        assert_eq!(small.len(), 6);
    }

    #[test]
    fn off_board_start() {
        let puzzle = Puzzle::new(Board::parse("B\n").unwrap(), Rules::Seed, None).unwrap();
        let mut next = Vec::new();
        puzzle.successors(&puzzle.start(), None, |m, s| next.push((m, s)));
        assert_eq!(next.len(), 1, "off the board: no turns, one jump onto B");
        assert_eq!(next[0].0, Move::Jump);
        let mut prev = Vec::new();
        puzzle.predecessors(&puzzle.start(), |m, s| prev.push((m, s)));
        assert!(prev.is_empty());
        let mut prev = Vec::new();
        puzzle.predecessors(&next[0].1, |m, s| prev.push((m, s)));
        assert!(prev.contains(&(Move::Jump, puzzle.start())));
        // Heading east below the board, nothing is ahead.
        let east = Puzzle::new(Board::parse("A\n*\n0 0 E\n").unwrap(), Rules::Seed, None).unwrap();
        let mut any = false;
        east.successors(&east.start(), None, |_, _| any = true);
        assert!(!any);
        assert_eq!(bfs(&east, &Config::default()).status(), Status::Exhausted);
    }

    #[test]
    fn lightbot_goes_down() {
        assert_eq!(
            solve("C\nB\n0 0 N\n", Rules::Seed, Some('B')).map(|m| m.len()),
            Some(0)
        );
        assert!(solve("B\nC\n0 0 N\n", Rules::Seed, Some('B')).is_none());
        assert_eq!(
            solve("B\nC\n0 0 N\n", Rules::Lightbot, Some('B')),
            Some(vec![Move::Jump])
        );
    }

    #[test]
    fn heuristic_values() {
        let p = Puzzle::new(
            Board::parse("AAAA\nACCB\nADEF\n").unwrap(),
            Rules::Seed,
            None,
        )
        .unwrap();
        // Below column 0: F is 3 columns right and 1 row up; 5 letters to climb.
        assert_eq!(p.heuristic(&p.start()), 5);
        let f = p.state_at(Place::Cell { x: 3, y: 0 }, Heading::N).unwrap();
        assert_eq!(p.heuristic(&f), 0);
        let a = p.state_at(Place::Cell { x: 0, y: 2 }, Heading::N).unwrap();
        assert_eq!(p.heuristic(&a), 5);
        let b = p.state_at(Place::Cell { x: 3, y: 1 }, Heading::N).unwrap();
        assert_eq!(p.heuristic(&b), 4);
    }
}
