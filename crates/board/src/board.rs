//! The board: a rectangle of letters, where the robot starts, and the board file format.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The letter stored in a padding cell around the board: nothing may move onto it.
pub(crate) const OUTSIDE: u8 = u8::MAX;

/// The largest board accepted, counting the one-cell padding ring: states pack a padded cell
/// index and a heading into a `u32`.
pub const MAX_PADDED_CELLS: usize = 1 << 29;

/// A compass heading; north is up (towards the top row of the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Heading {
    /// Up, towards the first line of the file.
    N = 0,
    /// Right.
    E = 1,
    /// Down.
    S = 2,
    /// Left.
    W = 3,
}

impl Heading {
    /// All four headings, clockwise from north.
    pub const ALL: [Heading; 4] = [Heading::N, Heading::E, Heading::S, Heading::W];

    /// The heading with index `i % 4` (0 north, 1 east, 2 south, 3 west).
    pub fn from_index(i: u32) -> Heading {
        Heading::ALL[(i & 3) as usize]
    }

    /// The heading after a quarter turn to the right (clockwise).
    pub fn right(self) -> Heading {
        Heading::from_index(self as u32 + 1)
    }

    /// The heading after a quarter turn to the left (counter-clockwise).
    pub fn left(self) -> Heading {
        Heading::from_index(self as u32 + 3)
    }

    /// The step `(dx, dy)` one cell ahead, with `y` counted upwards from the bottom row.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Heading::N => (0, 1),
            Heading::E => (1, 0),
            Heading::S => (0, -1),
            Heading::W => (-1, 0),
        }
    }

    /// The letter naming the heading: `N`, `E`, `S` or `W`.
    pub fn letter(self) -> char {
        match self {
            Heading::N => 'N',
            Heading::E => 'E',
            Heading::S => 'S',
            Heading::W => 'W',
        }
    }
}

impl fmt::Display for Heading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A heading that is not `N`, `E`, `S` or `W`: the text given.
///
/// ```
/// use frontier_board::Heading;
///
/// assert_eq!("w".parse::<Heading>(), Ok(Heading::W));
/// let error = "north".parse::<Heading>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown heading \"north\" (expected N, E, S or W)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown heading {0:?} (expected N, E, S or W)")]
pub struct ParseHeadingError(pub String);

impl FromStr for Heading {
    type Err = ParseHeadingError;

    /// Reads `N`, `E`, `S` or `W` (either case).
    fn from_str(s: &str) -> Result<Heading, ParseHeadingError> {
        match s {
            "N" | "n" => Ok(Heading::N),
            "E" | "e" => Ok(Heading::E),
            "S" | "s" => Ok(Heading::S),
            "W" | "w" => Ok(Heading::W),
            _ => Err(ParseHeadingError(s.to_owned())),
        }
    }
}

/// Where the robot stands, in board coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// On the cell in column `x`, row `y` (row 0 is the bottom row, the last line of letters).
    Cell {
        /// The column, 0 at the left.
        x: usize,
        /// The row, 0 at the bottom.
        y: usize,
    },
    /// Off the board, waiting just below the bottom row in this column (the file's `*`).
    Below {
        /// The column, 0 at the left.
        column: usize,
    },
}

/// Where and how the robot starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// The robot's place.
    pub place: Place,
    /// The robot's heading.
    pub heading: Heading,
}

/// A rectangular board of letters `A`–`Z` and the robot's start.
///
/// Letters are stored as `0..26` in a grid padded with one ring of `OUTSIDE` cells, so a step
/// never needs a bounds check and the place just below the bottom row (the `*` start) is itself
/// a cell index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    /// `(height + 2)` rows of `(width + 2)` letters, the padding row below the board first.
    cells: Vec<u8>,
    start: Start,
}

/// "1 letter", "2 letters".
fn letters(n: usize) -> String {
    if n == 1 {
        "1 letter".to_owned()
    } else {
        format!("{n} letters")
    }
}

/// What is wrong in a board file; [`ParseError`] adds where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// No rows of letters at all.
    #[error("the file holds no board (expected rows of letters A-Z)")]
    Empty,
    /// The bytes are not UTF-8 text.
    #[error("the file is not UTF-8 text")]
    NotUtf8,
    /// A character in a row of letters that is not `A`–`Z`.
    #[error("{0:?} is not a letter A-Z")]
    NotALetter(char),
    /// A row whose width differs from the first row's.
    #[error(
        "this row is {} wide, but the first row (line {first_line}) is {expected}",
        letters(*found)
    )]
    Ragged {
        /// The first row's width.
        expected: usize,
        /// This row's width.
        found: usize,
        /// The line of the first row.
        first_line: usize,
    },
    /// More of the file after a blank line (only the end of the file may be blank).
    #[error("the blank line {blank} comes before this one: only the end of the file may be blank")]
    BlankLine {
        /// The blank line's number.
        blank: usize,
    },
    /// A second `*`.
    #[error("a second '*' (the first is on line {first_line}, column {first_column})")]
    TwoStars {
        /// The line of the first `*`.
        first_line: usize,
        /// The column of the first `*`.
        first_column: usize,
    },
    /// Something other than spaces beside the `*`.
    #[error("{0:?} in the '*' line, which may hold only spaces and one '*'")]
    StarLineChar(char),
    /// A `*` beyond the last column.
    #[error("the '*' is in column {column}, outside the board's columns 1-{width}")]
    StarOutside {
        /// The `*`'s column (1-based, as in the file).
        column: usize,
        /// The board's width.
        width: usize,
    },
    /// A start coordinate too large for any board.
    #[error("{0} is far outside any board")]
    HugeNumber(String),
    /// A row of letters below the `*` line or the start line.
    #[error("a row of letters after the '*' or start line")]
    RowAfterStart,
    /// The caller's stop (a deadline, an interrupt) ended the reading at this line
    /// ([`Board::from_bytes_until`]): not a fault of the file.
    #[error("reading stopped before the end of the board")]
    Stopped,
    /// A `*` line or start line before any row of letters.
    #[error("a '*' or start line before the board: the rows of letters come first")]
    StartBeforeRows,
    /// The start line came before the `*` line.
    #[error("the '*' line must come before the `X Y D` start line")]
    StarAfterStart,
    /// Text after the start line.
    #[error("unexpected text after the `X Y D` start line")]
    AfterStart,
    /// The start line does not have three fields.
    #[error("the start line must be `X Y D` (column, row from the bottom, heading N|E|S|W)")]
    StartFields,
    /// A coordinate that is not a whole number.
    #[error("{0:?} is not a whole number")]
    NotANumber(String),
    /// A heading other than `N`, `E`, `S`, `W`.
    #[error("{0:?} is not a heading (N, E, S or W)")]
    BadHeading(String),
    /// A start cell outside the board.
    #[error("the start ({x}, {y}) is outside the board (columns 0-{max_x}, rows 0-{max_y} from the bottom)")]
    StartOutside {
        /// The start column.
        x: i64,
        /// The start row.
        y: i64,
        /// The last column.
        max_x: usize,
        /// The last row.
        max_y: usize,
    },
    /// With a `*` line, the start must be the cell above the `*`.
    #[error("the start ({x}, {y}) is not the cell the robot enters from the '*': ({column}, 0)")]
    StartNotAboveStar {
        /// The start column.
        x: i64,
        /// The start row.
        y: i64,
        /// The `*`'s column (0-based, a coordinate).
        column: usize,
    },
    /// The board has more cells than the parse limit ([`Board::parse_within`]) allows.
    #[error(
        "the board passes its limit of {max} cells at this row: {width} x {height}, with the \
         border of one cell around it ({width} + 2) x ({height} + 2) cells"
    )]
    PastCellLimit {
        /// The width.
        width: usize,
        /// The number of rows so far.
        height: usize,
        /// The most padded cells allowed.
        max: usize,
    },
    /// The board is too large to index.
    #[error(
        "the board is too large ({width} x {height}: with the border of one cell that the robot may step on, ({width} + 2) x ({height} + 2) cells; at most {max})"
    )]
    TooLarge {
        /// The width.
        width: usize,
        /// The number of rows so far.
        height: usize,
        /// The most cells accepted.
        max: usize,
    },
}

/// A board file error, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

fn err(line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { line, column, kind }
}

impl Board {
    /// Reads a board file (the format of the seed and DESIGN.md):
    ///
    /// ```text
    /// AAAA        rows of letters A-Z, top row first, all the same width
    /// ACCB
    /// ADEF
    /// *           optional: the robot waits below this column and must first enter the board
    /// 0 0 N       optional: X Y D, column and row from the bottom-left cell, heading N|E|S|W
    /// ```
    ///
    /// With a `*` line, `X Y` must name the cell above the `*`, and `D` is the robot's heading
    /// while it waits (it can only enter heading north). Without a `*` line, `X Y D` puts the robot
    /// on that cell. Without either, the robot waits below column 0 heading north. Trailing
    /// spaces and blank lines before and after the board are ignored.
    ///
    /// ```
    /// use frontier_board::{Board, Place};
    ///
    /// let board = Board::parse("AB\nAC\n")?;
    /// assert_eq!((board.width(), board.height()), (2, 2));
    /// assert_eq!(board.start().place, Place::Below { column: 0 });
    /// assert_eq!(board.letter(1, 1), Some('B'));
    ///
    /// let error = Board::parse("AB\nA\n").unwrap_err();
    /// assert_eq!((error.line, error.column), (2, 2));
    /// # Ok::<(), frontier_board::ParseError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        Board::parse_within(text, MAX_PADDED_CELLS)
    }

    /// [`Board::parse`], refusing a board of more than `max_cells` cells (counting the border
    /// of one cell around it) at the row that passes the limit, before more of the file is read.
    /// A limit above [`MAX_PADDED_CELLS`] counts as that.
    ///
    /// The board is read into one flat grid as it goes: what it takes is about the board's
    /// cells, however the file is written.
    ///
    /// ```
    /// use frontier_board::{Board, ParseErrorKind};
    ///
    /// let error = Board::parse_within("AB\nAB\nAB\n", 12).unwrap_err();
    /// assert_eq!(error.line, 2); // 4 x 4 cells with the border
    /// assert!(matches!(error.kind, ParseErrorKind::PastCellLimit { max: 12, .. }));
    /// ```
    pub fn parse_within(text: &str, max_cells: usize) -> Result<Board, ParseError> {
        Board::parse_until(text, max_cells, &|| false)
    }

    /// [`Board::parse_within`], asking `stop` now and then (every few thousand lines or
    /// megabyte) whether to go on: when it says yes, the error is [`ParseErrorKind::Stopped`]
    /// at the line reached. A deadline then holds while a large board is read.
    ///
    /// ```
    /// use frontier_board::{Board, ParseErrorKind};
    ///
    /// let text = "AB\n".repeat(10_000);
    /// let error = Board::parse_until(&text, usize::MAX, &|| true).unwrap_err();
    /// assert_eq!((error.line, error.kind), (4097, ParseErrorKind::Stopped));
    /// // A small board is read whole: the stop is first asked after 4,096 lines.
    /// assert!(Board::parse_until("AB\nAB\n", 100, &|| true).is_ok());
    /// ```
    pub fn parse_until(
        text: &str,
        max_cells: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Board, ParseError> {
        let parser = Parser {
            max_cells: max_cells.min(MAX_PADDED_CELLS),
            ..Parser::default()
        };
        // A byte-order mark, as some editors write at the start of a UTF-8 file, is not part of
        // the board (columns are counted after it).
        parser.run(text.strip_prefix('\u{feff}').unwrap_or(text), stop)
    }

    /// Reads a board file from bytes, refusing text that is not UTF-8 with its line and column.
    pub fn from_bytes(bytes: &[u8]) -> Result<Board, ParseError> {
        Board::from_bytes_within(bytes, MAX_PADDED_CELLS)
    }

    /// [`Board::from_bytes`] within a cell limit, as [`Board::parse_within`].
    pub fn from_bytes_within(bytes: &[u8], max_cells: usize) -> Result<Board, ParseError> {
        Board::from_bytes_until(bytes, max_cells, &|| false)
    }

    /// [`Board::from_bytes_within`], stopped by `stop` as [`Board::parse_until`] is.
    pub fn from_bytes_until(
        bytes: &[u8],
        max_cells: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Board, ParseError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Board::parse_until(text, max_cells, stop),
            Err(e) => {
                let good = &bytes[..e.valid_up_to()];
                let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
                let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                // `good` is valid UTF-8, so counting non-continuation bytes counts characters.
                let column = good[line_start..]
                    .iter()
                    .filter(|&&b| (b & 0xC0) != 0x80)
                    .count()
                    + 1;
                Err(err(line, column, ParseErrorKind::NotUtf8))
            }
        }
    }

    /// Builds a board from its rows (top row first, letters `A`–`Z`) and a start.
    ///
    /// Returns `None` when the rows are empty or ragged, hold another character, or the start is
    /// not on the board (or, for [`Place::Below`], not below one of its columns).
    pub fn from_rows(rows: &[&str], start: Start) -> Option<Board> {
        let width = rows.first()?.len();
        if width == 0 || rows.iter().any(|r| r.len() != width) {
            return None;
        }
        let letters: Vec<u8> = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| b.wrapping_sub(b'A')))
            .collect();
        if letters.iter().any(|&l| l >= 26) {
            return None;
        }
        if (width + 2).checked_mul(rows.len() + 2)? > MAX_PADDED_CELLS {
            return None;
        }
        let ok = match start.place {
            Place::Cell { x, y } => x < width && y < rows.len(),
            Place::Below { column } => column < width,
        };
        ok.then(|| Board::build(&letters, width, start))
    }

    /// The board of `letters`, rows of `width` (top row first) one after another.
    fn build(letters: &[u8], width: usize, start: Start) -> Board {
        let height = letters.len() / width;
        let pw = width + 2;
        let mut cells = vec![OUTSIDE; pw * (height + 2)];
        for (i, row) in letters.chunks_exact(width).enumerate() {
            let y = height - 1 - i;
            let base = (y + 1) * pw + 1;
            cells[base..base + width].copy_from_slice(row);
        }
        Board {
            width,
            height,
            cells,
            start,
        }
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The robot's start.
    pub fn start(&self) -> Start {
        self.start
    }

    /// The letter in column `x`, row `y` counted from the bottom; `None` off the board.
    pub fn letter(&self, x: usize, y: usize) -> Option<char> {
        (x < self.width && y < self.height).then(|| char::from(b'A' + self.cells[self.index(x, y)]))
    }

    /// The highest letter on the board (the default target).
    pub fn highest_letter(&self) -> char {
        // A fold without a branch, so that it runs over wide words on a large board.
        let top = self
            .cells
            .iter()
            .fold(0, |top: u8, &c| top.max(if c == OUTSIDE { 0 } else { c }));
        char::from(b'A' + top)
    }

    /// Whether some cell holds `letter`.
    pub fn contains(&self, letter: char) -> bool {
        letter.is_ascii_uppercase() && self.cells.contains(&(letter as u8 - b'A'))
    }

    /// The rows as text, top row first.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .rev()
            .map(|y| (0..self.width).filter_map(|x| self.letter(x, y)).collect())
            .collect()
    }

    /// The padded index of the cell `(x, y)`; `y == -1` is the padding row below the board.
    pub(crate) fn index(&self, x: usize, y: usize) -> usize {
        (y + 1) * (self.width + 2) + x + 1
    }

    /// The padded index below column `x`.
    pub(crate) fn below(&self, x: usize) -> usize {
        x + 1
    }

    /// The place of a padded index.
    pub(crate) fn place(&self, index: usize) -> Place {
        let pw = self.width + 2;
        let (row, col) = (index / pw, index % pw);
        if row == 0 {
            Place::Below {
                column: col.saturating_sub(1),
            }
        } else {
            Place::Cell {
                x: col.saturating_sub(1),
                y: row - 1,
            }
        }
    }

    /// The padded letters.
    pub(crate) fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The padded row length: a step north adds it to an index.
    pub(crate) fn stride(&self) -> usize {
        self.width + 2
    }
}

impl fmt::Display for Board {
    /// Writes the board back in its file format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        match self.start.place {
            Place::Below { column } => {
                writeln!(f, "{:>width$}", '*', width = column + 1)?;
                writeln!(f, "{} 0 {}", column, self.start.heading)
            }
            Place::Cell { x, y } => writeln!(f, "{x} {y} {}", self.start.heading),
        }
    }
}

impl FromStr for Board {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Board, ParseError> {
        Board::parse(s)
    }
}

/// Where the parser is in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    #[default]
    Rows,
    Star,
    Position,
}

#[derive(Default)]
struct Parser {
    phase: Phase,
    /// The rows read so far, one after another (top row first): one byte a cell, so that
    /// a file of many short rows costs what its cells do.
    letters: Vec<u8>,
    /// The first row's width; 0 before it.
    width: usize,
    /// The rows read so far.
    height: usize,
    /// The most padded cells accepted.
    max_cells: usize,
    first_row_line: usize,
    /// The `*`: (line, 0-based column).
    star: Option<(usize, usize)>,
    start: Option<Start>,
    /// A blank line seen after content (an error if more content follows).
    blank: Option<usize>,
}

impl Parser {
    fn run(mut self, text: &str, stop: &dyn Fn() -> bool) -> Result<Board, ParseError> {
        // Bytes read since `stop` was last asked: asked every megabyte or 4,096 lines.
        // Not before the first such stretch: a small board is read whole, even past a deadline,
        // and the search then reports the limit with what it knows.
        let mut unchecked = 0usize;
        for (i, raw) in text.split('\n').enumerate() {
            let line = i + 1;
            unchecked += raw.len() + 1;
            if (unchecked >= 1 << 20 || (i > 0 && i % 4096 == 0)) && stop() {
                return Err(err(line, 1, ParseErrorKind::Stopped));
            }
            if unchecked >= 1 << 20 {
                unchecked = 0;
            }
            let content = raw.trim_end_matches([' ', '\t', '\r']);
            if content.is_empty() {
                if self.height > 0 && self.blank.is_none() {
                    self.blank = Some(line);
                }
                continue;
            }
            if let Some(blank) = self.blank {
                return Err(err(line, 1, ParseErrorKind::BlankLine { blank }));
            }
            if content.contains('*') {
                self.star_line(line, content)?;
            } else if content
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
            {
                self.position_line(line, content)?;
            } else {
                self.row(line, content)?;
            }
        }
        if self.height == 0 {
            return Err(err(1, 1, ParseErrorKind::Empty));
        }
        let start = match (self.star, self.start) {
            (_, Some(start)) => start,
            (Some((_, column)), None) => Start {
                place: Place::Below { column },
                heading: Heading::N,
            },
            (None, None) => Start {
                place: Place::Below { column: 0 },
                heading: Heading::N,
            },
        };
        Ok(Board::build(&self.letters, self.width, start))
    }

    fn row(&mut self, line: usize, content: &str) -> Result<(), ParseError> {
        // Letters are ASCII, so a row's width is its length in bytes once every one is checked.
        if let Some((col, c)) = content
            .chars()
            .enumerate()
            .find(|(_, c)| !c.is_ascii_uppercase())
        {
            return Err(err(line, col + 1, ParseErrorKind::NotALetter(c)));
        }
        if self.phase != Phase::Rows {
            return Err(err(line, 1, ParseErrorKind::RowAfterStart));
        }
        let found = content.len();
        if self.height == 0 {
            self.first_row_line = line;
            self.width = found;
        } else if found != self.width {
            let column = found.min(self.width) + 1;
            return Err(err(
                line,
                column,
                ParseErrorKind::Ragged {
                    expected: self.width,
                    found,
                    first_line: self.first_row_line,
                },
            ));
        }
        // Checked before the row is stored: nothing past the limit is ever allocated.
        let (width, height) = (self.width, self.height + 1);
        let padded = (width + 2).checked_mul(height + 2);
        if padded.is_none_or(|p| p > MAX_PADDED_CELLS) {
            return Err(err(
                line,
                1,
                ParseErrorKind::TooLarge {
                    width,
                    height,
                    max: MAX_PADDED_CELLS,
                },
            ));
        }
        if padded.is_none_or(|p| p > self.max_cells) {
            return Err(err(
                line,
                1,
                ParseErrorKind::PastCellLimit {
                    width,
                    height,
                    max: self.max_cells,
                },
            ));
        }
        self.letters
            .extend(content.bytes().map(|letter| letter - b'A'));
        self.height = height;
        Ok(())
    }

    fn star_line(&mut self, line: usize, content: &str) -> Result<(), ParseError> {
        if self.height == 0 {
            return Err(err(line, 1, ParseErrorKind::StartBeforeRows));
        }
        let width = self.width;
        for (col, c) in content.chars().enumerate() {
            match c {
                ' ' => {}
                '*' => {
                    if let Some((first_line, first)) = self.star {
                        return Err(err(
                            line,
                            col + 1,
                            ParseErrorKind::TwoStars {
                                first_line,
                                first_column: first + 1,
                            },
                        ));
                    }
                    if self.phase == Phase::Position {
                        return Err(err(line, col + 1, ParseErrorKind::StarAfterStart));
                    }
                    if col >= width {
                        return Err(err(
                            line,
                            col + 1,
                            ParseErrorKind::StarOutside {
                                column: col + 1,
                                width,
                            },
                        ));
                    }
                    self.star = Some((line, col));
                }
                other => return Err(err(line, col + 1, ParseErrorKind::StarLineChar(other))),
            }
        }
        self.phase = Phase::Star;
        Ok(())
    }

    fn position_line(&mut self, line: usize, content: &str) -> Result<(), ParseError> {
        if self.height == 0 {
            return Err(err(line, 1, ParseErrorKind::StartBeforeRows));
        }
        if self.phase == Phase::Position {
            return Err(err(line, 1, ParseErrorKind::AfterStart));
        }
        let fields = fields(content);
        if fields.len() != 3 {
            let column = fields
                .get(3)
                .map_or(content.chars().count() + 1, |&(c, _)| c);
            return Err(err(line, column, ParseErrorKind::StartFields));
        }
        let number = |&(column, text): &(usize, &str)| {
            use std::num::IntErrorKind;
            text.parse::<i64>().map_err(|e| {
                let kind = match e.kind() {
                    // Digits too many for 64 bits: a number all the same.
                    IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                        ParseErrorKind::HugeNumber(text.to_string())
                    }
                    _ => ParseErrorKind::NotANumber(text.to_string()),
                };
                err(line, column, kind)
            })
        };
        let x = number(&fields[0])?;
        let y = number(&fields[1])?;
        let (hcol, htext) = fields[2];
        let heading = htext
            .parse::<Heading>()
            .map_err(|ParseHeadingError(text)| err(line, hcol, ParseErrorKind::BadHeading(text)))?;
        let (width, height) = (self.width, self.height);
        let place = if let Some((_, column)) = self.star {
            if x != column as i64 || y != 0 {
                let kind = ParseErrorKind::StartNotAboveStar { x, y, column };
                return Err(err(line, fields[0].0, kind));
            }
            Place::Below { column }
        } else {
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                let kind = ParseErrorKind::StartOutside {
                    x,
                    y,
                    max_x: width - 1,
                    max_y: height - 1,
                };
                let column = if x < 0 || x >= width as i64 {
                    fields[0].0
                } else {
                    fields[1].0
                };
                return Err(err(line, column, kind));
            }
            Place::Cell {
                x: x as usize,
                y: y as usize,
            }
        };
        self.start = Some(Start { place, heading });
        self.phase = Phase::Position;
        Ok(())
    }
}

/// The whitespace-separated fields of a line, each with its 1-based column.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut begin: Option<(usize, usize)> = None; // (column, byte offset)
    for (col, (offset, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((column, from)) = begin.take() {
                out.push((column + 1, &line[from..offset]));
            }
        } else if begin.is_none() {
            begin = Some((col, offset));
        }
    }
    if let Some((column, from)) = begin {
        out.push((column + 1, &line[from..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> (usize, usize, ParseErrorKind) {
        let e = Board::parse(text).unwrap_err();
        (e.line, e.column, e.kind)
    }

    #[test]
    fn a_stop_ends_the_reading_part_way_and_names_the_line() {
        let text = "AB\n".repeat(10_000);
        let asked = std::cell::Cell::new(0);
        // Go on the first time asked (at line 4,097), stop the second: at line 2 * 4,096 + 1.
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 1
        };
        let error = Board::parse_until(&text, usize::MAX, &stop).unwrap_err();
        assert_eq!((error.line, error.kind), (8193, ParseErrorKind::Stopped));
        // Never stopped, the same text reads whole.
        assert_eq!(
            Board::parse_until(&text, usize::MAX, &|| false)
                .unwrap()
                .height(),
            10_000
        );
    }

    #[test]
    fn the_highest_letter_ignores_the_border() {
        assert_eq!(Board::parse("AC\nBA\n").unwrap().highest_letter(), 'C');
        assert_eq!(Board::parse("A\n").unwrap().highest_letter(), 'A');
    }

    #[test]
    fn reads_the_seed_board() {
        let board = Board::parse("AAAA\nACCB\nADEF\n*\n0 0 N\n").unwrap();
        assert_eq!((board.width(), board.height()), (4, 3));
        assert_eq!(
            board.start(),
            Start {
                place: Place::Below { column: 0 },
                heading: Heading::N
            }
        );
        // (3, 0) is F, the seed's "F coordinates are (3,0)".
        assert_eq!(board.letter(3, 0), Some('F'));
        assert_eq!(board.letter(0, 2), Some('A'));
        assert_eq!(board.letter(4, 0), None);
        assert_eq!(board.highest_letter(), 'F');
        assert_eq!(board.rows(), ["AAAA", "ACCB", "ADEF"]);
    }

    #[test]
    fn defaults_and_positions() {
        let board = Board::parse("AB\r\nAC\r\n\r\n").unwrap();
        assert_eq!(board.start().place, Place::Below { column: 0 });
        // A file saved with a byte-order mark (it was "'\u{feff}' is not a letter A-Z").
        let marked = Board::parse("\u{feff}AB\r\nAC\r\n").unwrap();
        assert_eq!(marked.letter(0, 0), Some('A'));
        let error = Board::parse("\u{feff}AB\nA\n").unwrap_err();
        assert_eq!((error.line, error.column), (2, 2));
        let board = Board::parse("AB\nAC\n *\n").unwrap();
        assert_eq!(board.start().place, Place::Below { column: 1 });
        let board = Board::parse("AB\nAC\n1 1 w\n").unwrap();
        assert_eq!(board.start().place, Place::Cell { x: 1, y: 1 });
        assert_eq!(board.start().heading, Heading::W);
    }

    #[test]
    fn display_round_trips() {
        for text in ["AB\nAC\n *\n1 0 E\n", "ABC\nCDE\n2 1 S\n"] {
            let board = Board::parse(text).unwrap();
            assert_eq!(board.to_string(), text);
            assert_eq!(Board::parse(&board.to_string()).unwrap(), board);
        }
    }

    #[test]
    fn errors_name_line_and_column() {
        use ParseErrorKind::*;
        assert_eq!(kind(""), (1, 1, Empty));
        assert_eq!(kind("\n\n"), (1, 1, Empty));
        assert_eq!(kind("AB\nAx\n").2, NotALetter('x'));
        assert_eq!(kind("AB\nAx\n").0, 2);
        assert_eq!(kind("AB\nAx\n").1, 2);
        assert!(matches!(kind("AB\nABC\n"), (2, 3, Ragged { .. })));
        assert!(matches!(kind("AB\n\nAB\n"), (3, 1, BlankLine { blank: 2 })));
        // After the board, before a start line: the same rule, not "inside the board".
        let e = Board::parse("AB\n*\n\n0 0 N\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4, column 1: the blank line 3 comes before this one: only the end of the file \
             may be blank"
        );
        assert!(matches!(kind("AB\n**\n"), (2, 2, TwoStars { .. })));
        assert!(matches!(kind("AB\n*\n *\n"), (3, 2, TwoStars { .. })));
        assert!(matches!(kind("AB\n  *\n"), (2, 3, StarOutside { .. })));
        assert!(matches!(kind("AB\n*x\n"), (2, 2, StarLineChar('x'))));
        assert!(matches!(kind("AB\n*\nAB\n"), (3, 1, RowAfterStart)));
        // Not a row of letters at all: said so (it was called "a row of letters").
        assert!(matches!(
            kind("AB\n*\n0 0 N\n# comment\n"),
            (4, 1, NotALetter('#'))
        ));
        // The start lines before the rows (reported as "no board" before).
        assert!(matches!(kind("0 0 N\nAB\n"), (1, 1, StartBeforeRows)));
        assert!(matches!(kind("*\nAB\n"), (1, 1, StartBeforeRows)));
        assert!(matches!(kind("A*\n"), (1, 1, StartBeforeRows)));
        assert!(matches!(kind("AB\n0 0 N\n*\n"), (3, 1, StarAfterStart)));
        assert!(matches!(kind("AB\n0 0 N\n0 0 N\n"), (3, 1, AfterStart)));
        assert!(matches!(kind("AB\n0 0\n"), (2, 4, StartFields)));
        assert!(matches!(kind("AB\n0 0 N N\n"), (2, 7, StartFields)));
        assert!(matches!(kind("AB\n0 y N\n"), (2, 3, NotANumber(_))));
        // Too many digits is still a number, not "not a number".
        assert!(matches!(
            kind("AB\n99999999999999999999 0 N\n"),
            (2, 1, HugeNumber(_))
        ));
        assert!(matches!(kind("AB\n0 0 Q\n"), (2, 5, BadHeading(_))));
        assert!(matches!(kind("AB\n2 0 N\n"), (2, 1, StartOutside { .. })));
        assert!(matches!(kind("AB\n0 1 N\n"), (2, 3, StartOutside { .. })));
        assert!(matches!(kind("AB\n-1 0 N\n"), (2, 1, StartOutside { .. })));
        assert!(matches!(
            kind("AB\n *\n0 0 N\n"),
            (3, 1, StartNotAboveStar { .. })
        ));
        assert!(matches!(kind("*\n"), (1, 1, StartBeforeRows)));
        // Past the cell limit: refused at the row that passes it.
        let e = Board::parse_within("A\nA\nA\nA\n", 15).unwrap_err();
        assert_eq!((e.line, e.column), (4, 1));
        assert!(matches!(
            e.kind,
            PastCellLimit {
                width: 1,
                height: 4,
                max: 15
            }
        ));
        assert!(Board::parse_within("A\nA\nA\n", 15).is_ok());
        let e = Board::from_bytes(b"AB\nA\xffB\n").unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (2, 2, NotUtf8));
    }

    #[test]
    fn messages_read_well() {
        let e = Board::parse("AAAA\nACCB\nADE\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column 4: this row is 3 letters wide, but the first row (line 1) is 4"
        );
        let e = Board::parse("AB\nA\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 2: this row is 1 letter wide, but the first row (line 1) is 2"
        );
    }
}
