//! Precomputed tables for a board and goal, and the Manhattan and linear-conflict heuristics.

use std::fmt;
use std::str::FromStr;

use crate::board::{Dir, Puzzle, Shape, MAX_CELLS};

/// No neighbour in this direction (cells run up to 255, so a neighbour takes 16 bits).
pub(crate) const NONE: u16 = u16::MAX;

/// Which heuristic guides IDA*.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// The sum of the tiles' Manhattan distances to their goal cells.
    Manhattan,
    /// Manhattan plus linear conflicts (two extra moves per tile that must leave its goal
    /// row or column to let another pass; Hansson, Mayer and Yung 1992).
    Conflict,
    /// Additive disjoint pattern databases (Korf and Felner 2002).
    Pdb,
}

impl HeuristicKind {
    /// The name used on the command line: `manhattan`, `conflict`, `pdb`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::Conflict => "conflict",
            HeuristicKind::Pdb => "pdb",
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A heuristic name that is not `manhattan`, `conflict` or `pdb`: the text given.
///
/// ```
/// use frontier_tiles::HeuristicKind;
///
/// assert_eq!("pdb".parse::<HeuristicKind>(), Ok(HeuristicKind::Pdb));
/// let error = "euclid".parse::<HeuristicKind>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown heuristic \"euclid\" (expected manhattan, conflict or pdb)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic {0:?} (expected manhattan, conflict or pdb)")]
pub struct ParseHeuristicError(pub String);

impl FromStr for HeuristicKind {
    type Err = ParseHeuristicError;

    /// Reads `manhattan`, `conflict` or `pdb`.
    fn from_str(s: &str) -> Result<Self, ParseHeuristicError> {
        match s {
            "manhattan" => Ok(HeuristicKind::Manhattan),
            "conflict" => Ok(HeuristicKind::Conflict),
            "pdb" => Ok(HeuristicKind::Pdb),
            _ => Err(ParseHeuristicError(s.to_owned())),
        }
    }
}

/// Everything about a board and its goal that the heuristics and solvers look up per node.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The board's shape.
    pub(crate) shape: Shape,
    /// The goal layout (tile per cell), padded with zeros.
    pub(crate) goal: [u8; MAX_CELLS],
    /// `goal_cell[tile]`: where the tile belongs.
    pub(crate) goal_cell: [u8; MAX_CELLS],
    /// `neighbours[cell][dir]`: the cell the blank reaches from `cell` moving in `dir`, or `NONE`.
    pub(crate) neighbours: [[u16; 4]; MAX_CELLS],
    /// `manhattan[tile * MAX_CELLS + cell]`: the tile's distance from `cell` to its goal cell.
    manhattan: Vec<u8>,
    /// Table-driven linear conflicts for lines of at most [`MAX_TABLE_LINE`] cells:
    /// `code[kind][line * MAX_CELLS + tile]` is the tile's position within `line` if the line
    /// is its goal line, else the line length ("elsewhere"); a line's codes, read as digits in
    /// base `len + 1`, index `conflicts[kind]`. Kind 0 is rows, 1 is columns.
    code: [Vec<u8>; 2],
    conflicts: [Vec<u8>; 2],
}

/// The longest line whose conflicts are tabulated (base 7, 7^6 = 117,649 entries).
const MAX_TABLE_LINE: usize = 6;

/// Extra moves forced by the conflicts among `keys` (goal positions, in line order):
/// two per tile outside a longest increasing run.
fn conflicts_of(keys: &[u8]) -> u32 {
    if keys.len() < 2 {
        return 0;
    }
    let mut best = [1u8; MAX_CELLS];
    let best = &mut best[..keys.len()];
    let mut longest = 1;
    for i in 1..keys.len() {
        for j in 0..i {
            if keys[j] < keys[i] && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
            }
        }
        longest = longest.max(best[i]);
    }
    2 * (keys.len() as u32 - longest as u32)
}

/// The conflict table for lines of `len` cells: every digit string in base `len + 1`.
fn conflict_table(len: usize) -> Vec<u8> {
    let base = len + 1;
    let size = base.pow(len as u32);
    let mut table = vec![0u8; size];
    let mut keys = Vec::with_capacity(len);
    for (index, entry) in table.iter_mut().enumerate() {
        keys.clear();
        let mut x = index;
        for _ in 0..len {
            let digit = x % base;
            x /= base;
            if digit < len {
                keys.push(digit as u8);
            }
        }
        *entry = conflicts_of(&keys) as u8;
    }
    table
}

impl Tables {
    /// The tables of a puzzle's board and goal.
    pub fn new(puzzle: &Puzzle) -> Tables {
        let (shape, goal) = (puzzle.shape(), puzzle.goal());
        let n = shape.cells();
        let mut g = [0u8; MAX_CELLS];
        let mut goal_cell = [0u8; MAX_CELLS];
        for (cell, &t) in goal.iter().enumerate().take(n) {
            g[cell] = t;
            goal_cell[t as usize] = cell as u8;
        }
        let mut neighbours = [[NONE; 4]; MAX_CELLS];
        for (cell, row) in neighbours.iter_mut().enumerate().take(n) {
            for d in Dir::ALL {
                if let Some(next) = shape.step(cell, d) {
                    row[d.index()] = next as u16;
                }
            }
        }
        let mut manhattan = vec![0u8; MAX_CELLS * MAX_CELLS];
        for tile in 1..n {
            let home = goal_cell[tile] as usize;
            for cell in 0..n {
                let d = (cell / shape.cols()).abs_diff(home / shape.cols())
                    + (cell % shape.cols()).abs_diff(home % shape.cols());
                manhattan[tile * MAX_CELLS + cell] = d as u8;
            }
        }
        let mut code = [
            vec![0u8; MAX_CELLS * MAX_CELLS],
            vec![0u8; MAX_CELLS * MAX_CELLS],
        ];
        let mut conflicts = [Vec::new(), Vec::new()];
        for (kind, (lines, len)) in [(shape.rows(), shape.cols()), (shape.cols(), shape.rows())]
            .into_iter()
            .enumerate()
        {
            if len > MAX_TABLE_LINE {
                continue;
            }
            conflicts[kind] = conflict_table(len);
            for line in 0..lines {
                for tile in 0..n {
                    let home = goal_cell[tile] as usize;
                    let (home_line, home_pos) = if kind == 0 {
                        (home / shape.cols(), home % shape.cols())
                    } else {
                        (home % shape.cols(), home / shape.cols())
                    };
                    code[kind][line * MAX_CELLS + tile] = if tile != 0 && home_line == line {
                        home_pos as u8
                    } else {
                        len as u8
                    };
                }
            }
        }
        Tables {
            code,
            conflicts,
            shape,
            goal: g,
            goal_cell,
            neighbours,
            manhattan,
        }
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal layout, tile by cell.
    pub fn goal(&self) -> &[u8] {
        &self.goal[..self.shape.cells()]
    }

    /// The number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.shape.cells()
    }

    /// The Manhattan distance of `tile` standing in `cell` from its goal cell.
    #[inline]
    pub fn distance(&self, tile: u8, cell: usize) -> u32 {
        self.manhattan[tile as usize * MAX_CELLS + cell] as u32
    }

    /// The Manhattan heuristic of a layout.
    pub fn manhattan(&self, board: &[u8]) -> u32 {
        board
            .iter()
            .enumerate()
            .take(self.cells())
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| self.distance(t, cell))
            .sum()
    }

    /// The extra moves forced by linear conflicts in one row (`row == true`) or column.
    ///
    /// Of the tiles standing in their goal line, those whose goal order disagrees with their
    /// order on the line cannot all stay: at least `count - longest increasing run` must leave
    /// the line and come back, two moves each beyond their Manhattan distance.
    #[inline]
    pub fn line_conflict(&self, board: &[u8], row: bool, line: usize) -> u32 {
        let (rows, cols) = (self.shape.rows(), self.shape.cols());
        let len = if row { cols } else { rows };
        let kind = usize::from(!row);
        if len <= MAX_TABLE_LINE {
            let code = &self.code[kind][line * MAX_CELLS..];
            let base = len + 1;
            let mut index = 0;
            for i in (0..len).rev() {
                let cell = if row {
                    line * cols + i
                } else {
                    i * cols + line
                };
                index = index * base + code[board[cell] as usize] as usize;
            }
            return self.conflicts[kind][index] as u32;
        }
        let mut keys = [0u8; MAX_CELLS];
        let mut count = 0;
        for i in 0..len {
            let cell = if row {
                line * cols + i
            } else {
                i * cols + line
            };
            let t = board[cell];
            if t == 0 {
                continue;
            }
            let home = self.goal_cell[t as usize] as usize;
            let (home_line, home_pos) = if row {
                (home / cols, home % cols)
            } else {
                (home % cols, home / cols)
            };
            if home_line == line {
                keys[count] = home_pos as u8;
                count += 1;
            }
        }
        conflicts_of(&keys[..count])
    }

    /// Manhattan distance plus the linear conflicts of every row and column.
    pub fn conflict(&self, board: &[u8]) -> u32 {
        let rows: u32 = (0..self.shape.rows())
            .map(|r| self.line_conflict(board, true, r))
            .sum();
        let cols: u32 = (0..self.shape.cols())
            .map(|c| self.line_conflict(board, false, c))
            .sum();
        self.manhattan(board) + rows + cols
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::solved;

    #[test]
    fn tabulated_conflicts_match_the_direct_count() {
        // The 6-high columns of a 6x7 board are tabulated: compare with the direct count.
        let shape = Shape::new(6, 7).unwrap();
        let t = Tables::new(&solved(shape));
        let mut board: Vec<u8> = shape.default_goal();
        let mut seed = 12345u64;
        for _ in 0..2000 {
            for i in (1..board.len()).rev() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                board.swap(i, (seed >> 33) as usize % (i + 1));
            }
            for c in 0..7 {
                let mut keys = Vec::new();
                for r in 0..6 {
                    let tile = board[r * 7 + c];
                    let home = t.goal_cell[tile as usize] as usize;
                    if tile != 0 && home % 7 == c {
                        keys.push((home / 7) as u8);
                    }
                }
                assert_eq!(t.line_conflict(&board, false, c), conflicts_of(&keys));
            }
        }
    }

    #[test]
    fn manhattan_and_conflicts() {
        let shape = Shape::new(3, 3).unwrap();
        let t = Tables::new(&solved(shape));
        let goal = shape.default_goal();
        assert_eq!(t.manhattan(&goal), 0);
        assert_eq!(t.conflict(&goal), 0);
        // 2 1 3 / 4 5 6 / 7 8 0: tiles 1 and 2 swapped in their goal row.
        let b = [2, 1, 3, 4, 5, 6, 7, 8, 0];
        assert_eq!(t.manhattan(&b), 2);
        assert_eq!(t.conflict(&b), 4);
        // 3 2 1 in the top row: two of the three must leave.
        let b = [3, 2, 1, 4, 5, 6, 7, 8, 0];
        assert_eq!(t.manhattan(&b), 4);
        assert_eq!(t.conflict(&b), 8);
    }
}
