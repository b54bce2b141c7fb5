//! Boards, moves, the input format and the solvability (parity) check.

use std::fmt;

use frontier_search::Solution;
use thiserror::Error;

/// The most cells a board may have (a 16 x 16 board, or any other shape as large): tiles are
/// numbered below this, so every tile and cell fits in a byte.
pub const MAX_CELLS: usize = 256;

/// A direction the blank moves in: a move is named by where the blank goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// The blank moves up (the tile above it slides down).
    U,
    /// The blank moves down.
    D,
    /// The blank moves left.
    L,
    /// The blank moves right.
    R,
}

impl Dir {
    /// The four directions, in the order solvers try them.
    pub const ALL: [Dir; 4] = [Dir::U, Dir::D, Dir::L, Dir::R];

    /// The move that undoes this one.
    pub fn inverse(self) -> Dir {
        match self {
            Dir::U => Dir::D,
            Dir::D => Dir::U,
            Dir::L => Dir::R,
            Dir::R => Dir::L,
        }
    }

    /// The one-letter name: `U`, `D`, `L` or `R`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::U => "U",
            Dir::D => "D",
            Dir::L => "L",
            Dir::R => "R",
        }
    }

    /// Reads a one-letter name (`U D L R`, either case).
    pub fn from_char(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::U),
            'D' => Some(Dir::D),
            'L' => Some(Dir::L),
            'R' => Some(Dir::R),
            _ => None,
        }
    }

    /// The direction's index in [`Dir::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The dimensions of a board: `rows` x `cols` cells, at least one and at most [`MAX_CELLS`]
/// (made by [`Shape::new`] or [`Shape::parse`], which check them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: usize,
    cols: usize,
}

impl Shape {
    /// Number of rows.
    pub const fn rows(self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub const fn cols(self) -> usize {
        self.cols
    }

    /// A shape, if it has between 1 and [`MAX_CELLS`] cells (a board of one cell holds the
    /// blank alone, and is solved as it stands).
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ParseError> {
        let cells = rows.saturating_mul(cols);
        if rows == 0 || cols == 0 {
            return Err(ParseError::BadSize {
                text: format!("{rows}x{cols}"),
                reason: "a board needs at least 1 row and 1 column",
            });
        }
        if cells > MAX_CELLS {
            return Err(ParseError::TooLarge { cells });
        }
        Ok(Shape { rows, cols })
    }

    /// Reads `RxC` (rows x columns), e.g. `4x4` or `3X5`.
    pub fn parse(text: &str) -> Result<Shape, ParseError> {
        let bad = |reason| ParseError::BadSize {
            text: text.to_string(),
            reason,
        };
        let lower = text.trim().to_ascii_lowercase();
        let (r, c) = lower
            .split_once('x')
            .ok_or_else(|| bad("expected ROWSxCOLS, e.g. 4x4"))?;
        let num = |s: &str| -> Result<usize, ParseError> {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 4 {
                return Err(bad("rows and columns must be small positive numbers"));
            }
            s.parse().map_err(|_| bad("not a number"))
        };
        Shape::new(num(r)?, num(c)?)
    }

    /// The number of cells.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// The cell reached by moving the blank from `cell` in `dir`, if it stays on the board.
    pub fn step(self, cell: usize, dir: Dir) -> Option<usize> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match dir {
            Dir::U if r > 0 => Some(cell - self.cols),
            Dir::D if r + 1 < self.rows => Some(cell + self.cols),
            Dir::L if c > 0 => Some(cell - 1),
            Dir::R if c + 1 < self.cols => Some(cell + 1),
            _ => None,
        }
    }

    /// The goal used when none is given: tiles `1..n-1` in reading order, the blank last.
    pub fn default_goal(self) -> Vec<u8> {
        let n = self.cells();
        (1..n).map(|t| t as u8).chain(std::iter::once(0)).collect()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// Where a number starts in a layout's text: its column (characters from 1) and, when the text
/// has several lines, its line (from 1). Written `column 7`, or `line 3, column 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The line, named only when the text has more than one.
    pub line: Option<usize>,
    /// The column within the line.
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}, column {}", self.column),
            None => write!(f, "column {}", self.column),
        }
    }
}

/// `count` of `noun`, with an s in the plural: `1 tile`, `9 cells`.
fn counted(count: &usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// What was wrong with a puzzle's input, and where (see [`Place`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A token that is not a tile number.
    #[error("{what}, {at}: `{token}` is not a tile number")]
    BadToken {
        /// `tiles` or `goal`.
        what: &'static str,
        /// The offending text (its first 20 characters and `...` when longer than 24).
        token: String,
        /// Where it starts.
        at: Place,
    },
    /// A tile number at or above the number of cells.
    #[error("{what}, {at}: tile {tile} is too large for a board of {} (tiles are 0..{max})", counted(.cells, "cell"), max = cells - 1)]
    TileOutOfRange {
        /// `tiles` or `goal`.
        what: &'static str,
        /// The number as typed (shortened as [`ParseError::BadToken`]'s token is).
        tile: String,
        /// Where it starts.
        at: Place,
        /// The board's number of cells.
        cells: usize,
    },
    /// A tile given twice.
    #[error("{what}, {at}: tile {tile} appears twice (first at {first})")]
    Repeated {
        /// `tiles` or `goal`.
        what: &'static str,
        /// The repeated tile.
        tile: u8,
        /// Where it first appears.
        first: Place,
        /// Where it appears again.
        at: Place,
    },
    /// Tiles that do not appear.
    #[error("{what}: tile {tile}{} is missing", if *.tile == 0 { " (the blank)" } else { "" })]
    Missing {
        /// `tiles` or `goal`.
        what: &'static str,
        /// The lowest missing tile.
        tile: u8,
    },
    /// No tiles at all.
    #[error("{what}: no tiles given")]
    Empty {
        /// `tiles` or `goal`.
        what: &'static str,
    },
    /// More tiles than any board has, without `--size`.
    #[error("{what}: {} given, but a board has at most {MAX_CELLS} cells", counted(.count, "tile"))]
    TooMany {
        /// `tiles` or `goal`.
        what: &'static str,
        /// How many tiles were given.
        count: usize,
    },
    /// A count that is not a square, without `--size`.
    #[error(
        "{what}: {} do not make a square board; give the size with --size ROWSxCOLS",
        counted(.count, "tile")
    )]
    NotSquare {
        /// `tiles` or `goal`.
        what: &'static str,
        /// How many tiles were given.
        count: usize,
    },
    /// A count that does not match the board's size.
    #[error("{what}: {} given, but a {shape} board has {}", counted(.count, "tile"), counted(.cells, "cell"))]
    WrongCount {
        /// `tiles` or `goal`.
        what: &'static str,
        /// How many tiles were given.
        count: usize,
        /// The board's shape.
        shape: Shape,
        /// Its number of cells.
        cells: usize,
    },
    /// A `--size` that cannot be read or is out of range.
    #[error("size `{text}`: {reason}")]
    BadSize {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A board with more cells than supported.
    #[error("a board of {cells} cells is too large (at most {MAX_CELLS})")]
    TooLarge {
        /// The number of cells asked for.
        cells: usize,
    },
}

/// A sliding-tile puzzle: a board shape, a start layout and a goal layout.
///
/// Layouts list the tile in each cell in reading order, `0` for the blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    shape: Shape,
    start: Vec<u8>,
    goal: Vec<u8>,
}

impl Puzzle {
    /// Reads a puzzle in the DESIGN format: `"8 6 7 2 5 4 3 0 1"`. The size is `shape` if given,
    /// else the square the tile count makes; the goal is `goal` if given (same format), else
    /// `1 2 ... n-1 0`. Tiles may be separated by spaces, commas or newlines.
    ///
    /// ```
    /// use frontier_tiles::Puzzle;
    /// let p = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None).unwrap();
    /// assert_eq!(p.shape().to_string(), "3x3");
    /// assert!(p.is_solvable());
    /// assert!(Puzzle::parse("1 2 3 4 5", None, None).is_err());
    /// ```
    pub fn parse(
        text: &str,
        shape: Option<Shape>,
        goal: Option<&str>,
    ) -> Result<Puzzle, ParseError> {
        let start = read_tiles("tiles", text)?;
        let shape = match shape {
            Some(shape) => shape,
            None => match infer_shape("tiles", start.count) {
                Ok(shape) => shape,
                // One short of a square: most likely a tile was left out; say which.
                Err(e) => match infer_shape("tiles", start.count + 1) {
                    Ok(shape) => {
                        return Err(missing_tile("tiles", &start.tokens, shape.cells()).unwrap_or(e))
                    }
                    Err(_) => return Err(e),
                },
            },
        };
        if start.count + 1 == shape.cells() {
            if let Some(e) = missing_tile("tiles", &start.tokens, shape.cells()) {
                return Err(e);
            }
        }
        let start = check_layout("tiles", start, shape)?;
        let goal = match goal {
            Some(g) => check_layout("goal", read_tiles("goal", g)?, shape)?,
            None => shape.default_goal(),
        };
        Ok(Puzzle { shape, start, goal })
    }

    /// The puzzle that starts at its goal, `goal` (in the format of [`Puzzle::parse`]): the size
    /// is `shape` if given, else the square the goal's tile count makes. Errors name the goal.
    ///
    /// ```
    /// use frontier_tiles::Puzzle;
    /// let p = Puzzle::at_goal(None, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    /// assert_eq!(p.shape().to_string(), "4x4");
    /// assert_eq!(p.start(), p.goal());
    /// assert!(Puzzle::at_goal(None, "1 2 0").unwrap_err().to_string().starts_with("goal"));
    /// ```
    pub fn at_goal(shape: Option<Shape>, goal: &str) -> Result<Puzzle, ParseError> {
        let tokens = read_tiles("goal", goal)?;
        let shape = match shape {
            Some(shape) => shape,
            None => infer_shape("goal", tokens.count)?,
        };
        let goal = check_layout("goal", tokens, shape)?;
        Puzzle::new(shape, &goal, &goal)
    }

    /// A puzzle from layouts already in memory (checked like parsed input).
    pub fn new(shape: Shape, start: &[u8], goal: &[u8]) -> Result<Puzzle, ParseError> {
        let to_tokens = |v: &[u8]| Tokens {
            tokens: (v.iter().enumerate())
                .map(|(i, &t)| Token {
                    value: u64::from(t),
                    text: t.to_string(),
                    at: Place {
                        line: None,
                        column: i + 1,
                    },
                })
                .collect(),
            count: v.len(),
        };
        Ok(Puzzle {
            shape,
            start: check_layout("tiles", to_tokens(start), shape)?,
            goal: check_layout("goal", to_tokens(goal), shape)?,
        })
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The start layout.
    pub fn start(&self) -> &[u8] {
        &self.start
    }

    /// The goal layout.
    pub fn goal(&self) -> &[u8] {
        &self.goal
    }

    /// The same puzzle with another start layout (which must be a permutation of the goal's tiles).
    pub fn with_start(&self, start: &[u8]) -> Result<Puzzle, ParseError> {
        Puzzle::new(self.shape, start, &self.goal)
    }

    /// Whether the goal can be reached from the start.
    ///
    /// On boards with at least 2 rows and 2 columns: exactly when the permutation taking the start
    /// to the goal (blank included) has the parity of the blank's taxicab distance between its two
    /// cells. On a single row or column, tiles cannot pass each other: exactly when they appear in
    /// the same order.
    pub fn is_solvable(&self) -> bool {
        layouts_solvable(self.shape, &self.start, &self.goal)
    }

    /// Plays `moves` from the start; `None` if one leaves the board. Returns the final layout.
    pub fn replay(&self, moves: &[Dir]) -> Option<Vec<u8>> {
        let mut board = self.start.clone();
        let mut blank = board.iter().position(|&t| t == 0)?;
        for &m in moves {
            let next = self.shape.step(blank, m)?;
            board.swap(blank, next);
            blank = next;
        }
        Some(board)
    }
}

/// The puzzle on `shape` whose start is its default goal, for tests that need tables.
#[cfg(test)]
pub(crate) fn solved(shape: Shape) -> Puzzle {
    let goal = shape.default_goal();
    Puzzle::new(shape, &goal, &goal).expect("the default goal is a layout")
}

/// Whether `tiles` is a layout of the board: each of `0..shape.cells()` once.
pub(crate) fn is_layout(shape: Shape, tiles: &[u8]) -> bool {
    let mut seen = [false; MAX_CELLS];
    tiles.len() == shape.cells()
        && tiles.iter().all(|&t| {
            usize::from(t) < tiles.len() && !std::mem::replace(&mut seen[usize::from(t)], true)
        })
}

/// The solution the moves make from `start`: the moves and every layout on the way, start and
/// end included (moves that would leave the board are skipped; a solver's never do).
pub(crate) fn solution(shape: Shape, start: &[u8], moves: Vec<Dir>) -> Solution<Vec<u8>, Dir> {
    let mut states = Vec::with_capacity(moves.len() + 1);
    let mut board = start.to_vec();
    let mut blank = board.iter().position(|&t| t == 0).unwrap_or(0);
    states.push(board.clone());
    for &m in &moves {
        if let Some(next) = shape.step(blank, m) {
            board.swap(blank, next);
            blank = next;
        }
        states.push(board.clone());
    }
    Solution {
        cost: moves.len() as u64,
        moves,
        states,
    }
}

/// The solvability test of [`Puzzle::is_solvable`] on raw layouts; `false` unless both are
/// layouts of the board (permutations of `0..shape.cells()`).
pub fn is_solvable(shape: Shape, start: &[u8], goal: &[u8]) -> bool {
    is_layout(shape, start) && is_layout(shape, goal) && layouts_solvable(shape, start, goal)
}

/// [`is_solvable`] for two slices known to be layouts of the board.
pub(crate) fn layouts_solvable(shape: Shape, start: &[u8], goal: &[u8]) -> bool {
    if shape.rows == 1 || shape.cols == 1 {
        let a = start.iter().filter(|&&t| t != 0);
        let b = goal.iter().filter(|&&t| t != 0);
        return a.eq(b);
    }
    let n = shape.cells();
    let mut goal_cell = [0usize; MAX_CELLS];
    for (cell, &t) in goal.iter().enumerate() {
        goal_cell[t as usize] = cell;
    }
    // perm[cell] = the goal cell of the tile now in `cell`; count its cycles for the parity.
    let perm: Vec<usize> = start.iter().map(|&t| goal_cell[t as usize]).collect();
    let mut seen = [false; MAX_CELLS];
    let mut transpositions = 0;
    for i in 0..n {
        if seen[i] {
            continue;
        }
        let mut j = i;
        let mut len = 0;
        while !seen[j] {
            seen[j] = true;
            j = perm[j];
            len += 1;
        }
        transpositions += len - 1;
    }
    let (sb, gb) = (
        start.iter().position(|&t| t == 0).unwrap_or(0),
        goal.iter().position(|&t| t == 0).unwrap_or(0),
    );
    let dist =
        (sb / shape.cols).abs_diff(gb / shape.cols) + (sb % shape.cols).abs_diff(gb % shape.cols);
    transpositions % 2 == dist % 2
}

/// A number of a layout's text: its value (`u64::MAX` if larger), as typed, and where.
struct Token {
    value: u64,
    text: String,
    at: Place,
}

/// The numbers of a layout's text: the first [`MAX_CELLS`] + 1 of them, and how many there are.
struct Tokens {
    tokens: Vec<Token>,
    count: usize,
}

/// A token as an error shows it: at most 24 characters, else its first 20 and `...`.
fn shown(token: &str) -> String {
    if token.chars().count() <= 24 {
        token.to_owned()
    } else {
        format!("{}...", token.chars().take(20).collect::<String>())
    }
}

/// Splits the input into numbers with their places. Every token is checked, but no more than
/// one past the largest board is kept.
fn read_tiles(what: &'static str, text: &str) -> Result<Tokens, ParseError> {
    let lines = text.trim_end().contains('\n');
    let mut out = Tokens {
        tokens: Vec::new(),
        count: 0,
    };
    let mut chars = text.chars().peekable();
    let (mut line, mut column) = (1, 0);
    let separates = |c: char| c.is_whitespace() || c == ',';
    while let Some(c) = chars.next() {
        column += 1;
        if c == '\n' {
            (line, column) = (line + 1, 0);
        }
        if separates(c) {
            continue;
        }
        let at = Place {
            line: lines.then_some(line),
            column,
        };
        let mut token = String::from(c);
        while let Some(&d) = chars.peek() {
            if separates(d) {
                break;
            }
            token.push(d);
            chars.next();
            column += 1;
        }
        if !token.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::BadToken {
                what,
                token: shown(&token),
                at,
            });
        }
        out.count += 1;
        if out.tokens.len() <= MAX_CELLS {
            out.tokens.push(Token {
                value: token.parse::<u64>().unwrap_or(u64::MAX),
                text: shown(&token),
                at,
            });
        }
    }
    if out.count == 0 {
        return Err(ParseError::Empty { what });
    }
    Ok(out)
}

/// When `tokens` are distinct tiles below `cells` with exactly one absent: that tile is missing.
fn missing_tile(what: &'static str, tokens: &[Token], cells: usize) -> Option<ParseError> {
    let mut seen = [false; MAX_CELLS + 1];
    for token in tokens {
        let t = token.value;
        if t >= cells as u64 || std::mem::replace(&mut seen[t as usize], true) {
            return None;
        }
    }
    let tile = (0..cells).find(|&t| !seen[t])?;
    Some(ParseError::Missing {
        what,
        tile: tile as u8,
    })
}

/// The square board `count` tiles make.
fn infer_shape(what: &'static str, count: usize) -> Result<Shape, ParseError> {
    if count > MAX_CELLS {
        return Err(ParseError::TooMany { what, count });
    }
    match (1..=16).find(|s| s * s == count) {
        Some(s) => Shape::new(s, s),
        None => Err(ParseError::NotSquare { what, count }),
    }
}

/// The layout `tokens` make on a board of `shape`: every tile from 0 to the last once.
fn check_layout(what: &'static str, tokens: Tokens, shape: Shape) -> Result<Vec<u8>, ParseError> {
    let cells = shape.cells();
    if tokens.count != cells {
        return Err(ParseError::WrongCount {
            what,
            count: tokens.count,
            shape,
            cells,
        });
    }
    let mut first: [Option<Place>; MAX_CELLS] = [None; MAX_CELLS];
    let mut layout = Vec::with_capacity(cells);
    for Token { value, text, at } in tokens.tokens {
        if value >= cells as u64 {
            return Err(ParseError::TileOutOfRange {
                what,
                tile: text,
                at,
                cells,
            });
        }
        let t = value as usize;
        if let Some(first) = first[t] {
            return Err(ParseError::Repeated {
                what,
                tile: t as u8,
                first,
                at,
            });
        }
        first[t] = Some(at);
        layout.push(t as u8);
    }
    // With `cells` distinct tiles below `cells`, none is missing; keep the check for clarity.
    if let Some(t) = (0..cells).find(|&t| first[t].is_none()) {
        return Err(ParseError::Missing {
            what,
            tile: t as u8,
        });
    }
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_design_example() {
        let p = Puzzle::parse("8 6 7 2 5 4 3 0 1", None, None).unwrap();
        assert_eq!((p.shape().rows(), p.shape().cols()), (3, 3));
        assert_eq!(p.goal(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
        assert!(p.is_solvable());
    }

    #[test]
    fn errors_say_where() {
        let column = |column| Place { line: None, column };
        let e = Puzzle::parse("1 2 3 3 0 5 6 7 8", None, None).unwrap_err();
        assert_eq!(
            e,
            ParseError::Repeated {
                what: "tiles",
                tile: 3,
                first: column(5),
                at: column(7)
            }
        );
        assert!(matches!(
            Puzzle::parse("1 2 x 4", None, None),
            Err(ParseError::BadToken { at, .. }) if at == column(5)
        ));
        assert!(matches!(
            Puzzle::parse("1 2 3 4 5 0", None, None),
            Err(ParseError::NotSquare { count: 6, .. })
        ));
        assert!(Puzzle::parse("1 2 3 4 5 0", Some(Shape::parse("2x3").unwrap()), None).is_ok());
        assert!(matches!(
            Puzzle::parse("1 2 3 9", None, None),
            Err(ParseError::TileOutOfRange { tile, .. }) if tile == "9"
        ));
        assert!(matches!(
            Puzzle::parse("  ", None, None),
            Err(ParseError::Empty { .. })
        ));
        assert!(Shape::parse("4by4").is_err());
        assert!(Shape::parse("16x16").is_ok());
        assert!(Shape::parse("2x128").is_ok());
        assert!(matches!(
            Shape::parse("16x17"),
            Err(ParseError::TooLarge { cells: 272 })
        ));
        // One cell holds the blank alone (DESIGN's "any n x m"); no rows or columns is no board.
        assert!(Shape::parse("1x1").is_ok());
        assert!(Shape::parse("0x4").is_err());
    }

    #[test]
    fn errors_quote_what_was_typed_and_place_it_by_line() {
        let message = |text: &str, shape: Option<&str>, goal: Option<&str>| {
            let shape = shape.map(|s| Shape::parse(s).unwrap());
            Puzzle::parse(text, shape, goal).unwrap_err().to_string()
        };
        // The number as typed, not as saturated.
        assert_eq!(
            message("1 2 3 4 5 6 7 8 99999999999999999999999", None, None),
            "tiles, column 17: tile 99999999999999999999999 is too large for a board of 9 cells (tiles are 0..8)"
        );
        assert_eq!(
            message("1 2 0 0007", None, None),
            "tiles, column 7: tile 0007 is too large for a board of 4 cells (tiles are 0..3)"
        );
        // The blank alone is a board of one cell, solved; too many tiles for any board.
        assert_eq!(
            Puzzle::parse("0", None, None).map(|p| p.shape()),
            Shape::new(1, 1)
        );
        assert_eq!(
            message("0", Some("2x2"), None),
            "tiles: 1 tile given, but a 2x2 board has 4 cells"
        );
        let many: Vec<String> = (0..300).map(|t| t.to_string()).collect();
        let many = many.join(" ");
        assert_eq!(
            message(&many, None, None),
            "tiles: 300 tiles given, but a board has at most 256 cells"
        );
        assert_eq!(
            message(&many, Some("3x3"), None),
            "tiles: 300 tiles given, but a 3x3 board has 9 cells"
        );
        // A goal of the wrong length says so, named.
        for size in [None, Some("3x3")] {
            assert_eq!(
                message("1 2 3 4 5 6 7 8 0", size, Some(&many)),
                "goal: 300 tiles given, but a 3x3 board has 9 cells"
            );
        }
        // Several lines: the line, and the column within it.
        assert_eq!(
            message("1 2 3\n4 5 6\n7 x 0", None, None),
            "tiles, line 3, column 3: `x` is not a tile number"
        );
        assert_eq!(
            message("1 2 3\n4 5 6\n7 8 0\n", None, Some("1 2 3\n4 5 6\n7 5 0")),
            "goal, line 3, column 3: tile 5 appears twice (first at line 2, column 3)"
        );
        // One line, with a line break after it: columns only.
        assert_eq!(
            message("1 2 3 4 5 6 7 x 0\n", None, None),
            "tiles, column 15: `x` is not a tile number"
        );
    }

    #[test]
    fn parity_matches_the_classics() {
        // Sam Loyd's 14-15 puzzle: unsolvable.
        let loyd = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0";
        assert!(!Puzzle::parse(loyd, None, None).unwrap().is_solvable());
        // One move away from the goal: solvable.
        let one = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
        assert!(Puzzle::parse(one, None, None).unwrap().is_solvable());
        // Korf's goal puts the blank first.
        let korf = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
        let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
        assert!(Puzzle::parse(korf, None, Some(goal)).unwrap().is_solvable());
        // A single row: order matters.
        let row = Shape::parse("1x3").unwrap();
        assert!(Puzzle::parse("0 1 2", Some(row), None)
            .unwrap()
            .is_solvable());
        assert!(!Puzzle::parse("2 0 1", Some(row), None)
            .unwrap()
            .is_solvable());
    }
}
