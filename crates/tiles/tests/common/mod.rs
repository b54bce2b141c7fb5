//! Helpers shared by the tiles integration tests.

use frontier_tiles::Dir;

/// An independent check: plays the moves on a plain array; `None` if one leaves the board.
pub fn play(start: &[u8], cols: usize, moves: &[Dir]) -> Option<Vec<u8>> {
    let mut b = start.to_vec();
    let rows = b.len() / cols;
    let mut blank = b.iter().position(|&t| t == 0)?;
    for m in moves {
        let (r, c) = (blank / cols, blank % cols);
        let next = match m {
            Dir::U if r > 0 => blank - cols,
            Dir::D if r + 1 < rows => blank + cols,
            Dir::L if c > 0 => blank - 1,
            Dir::R if c + 1 < cols => blank + 1,
            _ => return None,
        };
        b.swap(blank, next);
        blank = next;
    }
    Some(b)
}
