//! Precomputed tables for a board and goal, and the Manhattan and linear-conflict heuristics.

use std::fmt;
use std::str::FromStr;

use crate::board::{Dir, Shape, MAX_CELLS};

/// No neighbour in this direction.
pub(crate) const NONE: u8 = u8::MAX;

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

impl FromStr for HeuristicKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "manhattan" => Ok(HeuristicKind::Manhattan),
            "conflict" => Ok(HeuristicKind::Conflict),
            "pdb" => Ok(HeuristicKind::Pdb),
            _ => Err(format!(
                "unknown heuristic `{s}` (manhattan, conflict, pdb)"
            )),
        }
    }
}

/// Everything about a board and its goal that the heuristics and solvers look up per node.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The board's shape.
    pub shape: Shape,
    /// The goal layout (tile per cell), padded with zeros.
    pub goal: [u8; MAX_CELLS],
    /// `goal_cell[tile]`: where the tile belongs.
    pub goal_cell: [u8; MAX_CELLS],
    /// `neighbours[cell][dir]`: the cell the blank reaches from `cell` moving in `dir`, or `NONE`.
    pub(crate) neighbours: [[u8; 4]; MAX_CELLS],
    /// `manhattan[tile * MAX_CELLS + cell]`: the tile's distance from `cell` to its goal cell.
    manhattan: Vec<u8>,
}

impl Tables {
    /// Tables for `shape` and `goal` (a permutation of `0..shape.cells()`).
    pub fn new(shape: Shape, goal: &[u8]) -> Tables {
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
                    row[d.index()] = next as u8;
                }
            }
        }
        let mut manhattan = vec![0u8; MAX_CELLS * MAX_CELLS];
        for tile in 1..n {
            let home = goal_cell[tile] as usize;
            for cell in 0..n {
                let d = (cell / shape.cols).abs_diff(home / shape.cols)
                    + (cell % shape.cols).abs_diff(home % shape.cols);
                manhattan[tile * MAX_CELLS + cell] = d as u8;
            }
        }
        Tables {
            shape,
            goal: g,
            goal_cell,
            neighbours,
            manhattan,
        }
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
    pub fn line_conflict(&self, board: &[u8], row: bool, line: usize) -> u32 {
        let (rows, cols) = (self.shape.rows, self.shape.cols);
        let len = if row { cols } else { rows };
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
        if count < 2 {
            return 0;
        }
        // Longest increasing subsequence (lines are short: O(k^2) is fine).
        let mut best = [1u8; MAX_CELLS];
        let mut longest = 1;
        for i in 1..count {
            for j in 0..i {
                if keys[j] < keys[i] && best[j] + 1 > best[i] {
                    best[i] = best[j] + 1;
                }
            }
            longest = longest.max(best[i]);
        }
        2 * (count as u32 - longest as u32)
    }

    /// Manhattan distance plus the linear conflicts of every row and column.
    pub fn conflict(&self, board: &[u8]) -> u32 {
        let rows: u32 = (0..self.shape.rows)
            .map(|r| self.line_conflict(board, true, r))
            .sum();
        let cols: u32 = (0..self.shape.cols)
            .map(|c| self.line_conflict(board, false, c))
            .sum();
        self.manhattan(board) + rows + cols
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manhattan_and_conflicts() {
        let shape = Shape::new(3, 3).unwrap();
        let t = Tables::new(shape, &shape.default_goal());
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
