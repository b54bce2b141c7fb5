//! A puzzle read from a `.perm` file: named generators and an optional colouring; scrambles
//! and positions.

use std::fmt;
use std::io::BufRead;
use std::sync::OnceLock;

use thiserror::Error;

use crate::group::Group;
use crate::perm::{Perm, MAX_POINTS};

/// The most generators a puzzle may name.
pub const MAX_GENERATORS: usize = 64;
/// The longest line of a `.perm` file, in bytes.
pub const MAX_LINE: usize = 1 << 16;
/// The most bytes a `.perm` file may hold.
pub const MAX_FILE: usize = 1 << 22;
/// The most moves a scramble may hold.
pub const MAX_SCRAMBLE: usize = 10_000;
/// The keyword of the colouring line.
pub const COLOURS: &str = "colours";

/// What was wrong in a `.perm` file, a scramble or a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Problem {
    /// A line longer than [`MAX_LINE`].
    #[error("line longer than {MAX_LINE} bytes")]
    LineTooLong,
    /// A file longer than [`MAX_FILE`].
    #[error("file longer than {MAX_FILE} bytes")]
    FileTooLong,
    /// Bytes that are not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// Something else was expected here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What would have been read.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// A point is 0 or above [`MAX_POINTS`], or above the puzzle's points.
    #[error("point {point} out of range 1..={max}")]
    PointOutOfRange {
        /// The point read.
        point: u64,
        /// The largest allowed.
        max: usize,
    },
    /// A point appears twice in one permutation or in the colouring.
    #[error("point {0} appears twice")]
    PointTwice(usize),
    /// Two generators share a name.
    #[error("generator {0} is named twice")]
    DuplicateName(String),
    /// A generator that moves nothing.
    #[error("generator {0} is the identity")]
    Identity(String),
    /// More than [`MAX_GENERATORS`] generators.
    #[error("more than {MAX_GENERATORS} generators")]
    TooManyGenerators,
    /// The colouring line given twice.
    #[error("a second colouring line")]
    SecondColouring,
    /// No generator at all.
    #[error("no generator defined")]
    NoGenerators,
    /// A move names no generator.
    #[error("unknown generator {0}")]
    UnknownGenerator(String),
    /// A move's power is the identity.
    #[error("{0} is the identity")]
    IdentityMove(String),
    /// More than [`MAX_SCRAMBLE`] moves.
    #[error("more than {MAX_SCRAMBLE} moves")]
    ScrambleTooLong,
    /// A word that opens no known block or command of a twsearch file.
    #[error("unknown command {0:?} (expected Name, Set, Solved, StartState, Move, MoveTransformation or End)")]
    UnknownCommand(String),
    /// A set name no `Set` line defined.
    #[error("unknown set {0}")]
    UnknownSet(String),
    /// Two `Set` lines with one name, or one set twice in a block.
    #[error("set {0} given twice")]
    SetTwice(String),
    /// No `Set` line.
    #[error("no Set defined")]
    NoSets,
    /// A `Set` line after the first block.
    #[error("a Set line after the first Solved or Move block")]
    SetAfterBlock,
    /// A second `Solved` (or `StartState`) block.
    #[error("a second Solved block")]
    SecondSolved,
    /// The sets need more points than a permutation may have.
    #[error("the sets need {0} points, more than {MAX_POINTS}")]
    TooManyPoints(usize),
    /// A number that is not in its range.
    #[error("{what} {value} out of range {min}..={max}")]
    OutOfRange {
        /// What the number counts.
        what: &'static str,
        /// The number read.
        value: u64,
        /// The least allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
    /// A move's permutation names a slot twice.
    #[error("piece {0} appears twice in a move's permutation")]
    PieceTwice(u64),
    /// A line of numbers of the wrong length.
    #[error("expected {expected} numbers, found {found}")]
    NumberCount {
        /// The set's pieces.
        expected: usize,
        /// The numbers read.
        found: usize,
    },
    /// Pieces of one identity, some with a wildcard orientation and some without.
    #[error("piece {0} has a wildcard orientation in one slot and a number in another")]
    MixedWildcards(u64),
    /// A block that ends with the file.
    #[error("the {0} block has no End")]
    MissingEnd(String),
    /// A move name that scrambles could not write.
    #[error("move name {0:?}: expected letters and '_' after optional digits (R, Rw, 2R)")]
    BadMoveName(String),
    /// An image list of the wrong length.
    #[error("an image list needs {expected} points, found {found}")]
    ImageCount {
        /// The puzzle's points.
        expected: usize,
        /// The numbers read.
        found: usize,
    },
}

/// A [`Problem`] and where it is: line and column from 1 (line 1 for a one-line input).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub column: usize,
    /// What was wrong.
    pub problem: Problem,
}

/// A generator: its name and its permutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// The name moves are written with (`U`; its inverse is `U'`, its square `U2`).
    pub name: String,
    /// The permutation of the puzzle's points.
    pub perm: Perm,
}

/// A move: a generator and a power of it (between 1 and the generator's order minus 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The generator's index in [`Puzzle::generators`].
    pub generator: u8,
    /// The power, in `1..order`.
    pub power: u8,
}

/// A permutation puzzle: points `0..points()`, its generators, and which points carry
/// identical pieces in the solved state (its colouring).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    name: String,
    points: usize,
    generators: Vec<Generator>,
    orders: Vec<u8>,
    colours: Vec<u8>,
    coloured: bool,
    group: GroupOnce,
}

/// A puzzle's group, made on first use and kept: the analysis, the membership check and the
/// chain solver all need it, and Schreier-Sims is a noticeable part of a short run. It is a
/// function of the generators, so it takes no part in comparing puzzles.
#[derive(Clone, Debug, Default)]
struct GroupOnce(OnceLock<Group>);

impl PartialEq for GroupOnce {
    fn eq(&self, _: &GroupOnce) -> bool {
        true
    }
}

impl Eq for GroupOnce {}

impl Puzzle {
    /// Reads a `.perm` file (see the crate docs for its syntax), named `name` in messages.
    /// Lines are checked against [`MAX_LINE`] as they are read, the file against
    /// [`MAX_FILE`], so hostile input costs bounded memory.
    pub fn read<R: BufRead>(name: &str, input: R) -> Result<Puzzle, ParseError> {
        let mut builder = PuzzleBuilder::default();
        read_lines(input, |text, number| builder.line(text, number))?;
        builder.finish(name)
    }

    /// Reads a `.perm` text (as [`Puzzle::read`]).
    pub fn parse(name: &str, text: &str) -> Result<Puzzle, ParseError> {
        Puzzle::read(name, text.as_bytes())
    }

    /// The puzzle from its generators (0-based permutations of the same degree), with every
    /// point distinct unless `colours` gives each point a class (points of one class carry
    /// identical pieces).
    pub fn from_generators(
        name: &str,
        generators: Vec<Generator>,
        colours: Option<Vec<u8>>,
    ) -> Puzzle {
        let points = generators.first().map_or(0, |g| g.perm.degree());
        let orders = generators
            .iter()
            .map(|g| g.perm.order().min(255) as u8)
            .collect();
        let coloured = colours.is_some();
        let colours = colours.unwrap_or_else(|| (0..points).map(|p| p as u8).collect());
        Puzzle {
            name: name.to_string(),
            points,
            generators,
            orders,
            colours,
            coloured,
            group: GroupOnce::default(),
        }
    }

    /// The group the generators make (its stabiliser chain by Schreier-Sims), computed the
    /// first time it is asked for.
    pub fn group(&self) -> &Group {
        self.group.0.get_or_init(|| {
            let gens: Vec<Perm> = self.generators.iter().map(|g| g.perm.clone()).collect();
            Group::new(self.points, &gens)
        })
    }

    /// The name it was read under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of points (the largest point named).
    pub fn points(&self) -> usize {
        self.points
    }

    /// The generators, in the file's order.
    pub fn generators(&self) -> &[Generator] {
        &self.generators
    }

    /// The order of generator `g`.
    pub fn generator_order(&self, g: usize) -> u8 {
        self.orders[g]
    }

    /// Whether a colouring makes some points carry identical pieces.
    pub fn is_coloured(&self) -> bool {
        self.coloured
    }

    /// Each point's colour class: points of one class carry identical pieces (without a
    /// colouring, each point its own class).
    pub fn colours(&self) -> &[u8] {
        &self.colours
    }

    /// The permutation of a move.
    pub fn turn_perm(&self, turn: Turn) -> Perm {
        self.generators[usize::from(turn.generator)]
            .perm
            .pow(i64::from(turn.power))
    }

    /// A move's name: the generator's, with `'` for its inverse and a power `k` (or `k'`,
    /// the inverse of the `k`-th power, when that is the shorter).
    pub fn turn_name(&self, turn: Turn) -> String {
        let name = &self.generators[usize::from(turn.generator)].name;
        let order = self.orders[usize::from(turn.generator)];
        let (power, inverse) = if u16::from(turn.power) * 2 <= u16::from(order) {
            (turn.power, false)
        } else {
            (order - turn.power, true)
        };
        let mut s = name.clone();
        if power > 1 {
            s.push_str(&power.to_string());
        }
        if inverse {
            s.push('\'');
        }
        s
    }

    /// The moves of a scramble: generator names, each followed by an optional power and
    /// an optional `'` (`U`, `U'`, `U2`, `U2'`), separated by white space.
    pub fn parse_moves(&self, text: &str) -> Result<Vec<Turn>, ParseError> {
        let mut turns = Vec::new();
        let mut chars = text.char_indices().peekable();
        let column = |byte: usize| text[..byte].chars().count() + 1;
        let err = |byte: usize, problem| ParseError {
            line: 1,
            column: column(byte),
            problem,
        };
        while let Some(&(start, c)) = chars.peek() {
            if c.is_whitespace() {
                chars.next();
                continue;
            }
            let end = start + name_len(&text[start..]);
            if end == start {
                return Err(err(
                    start,
                    Problem::Expected {
                        expected: "a generator name",
                        found: format!("{c:?}"),
                    },
                ));
            }
            while chars.peek().is_some_and(|&(i, _)| i < end) {
                chars.next();
            }
            let name = &text[start..end];
            let generator = self
                .generators
                .iter()
                .position(|g| g.name == name)
                .ok_or_else(|| err(start, Problem::UnknownGenerator(name.to_string())))?;
            let mut power: u64 = 1;
            let mut digits = false;
            while let Some(&(_, d)) = chars.peek() {
                let Some(v) = d.to_digit(10) else { break };
                power = if digits {
                    power * 10 + u64::from(v)
                } else {
                    u64::from(v)
                };
                power = power.min(1 << 32);
                digits = true;
                chars.next();
            }
            let mut inverse = false;
            if let Some(&(_, '\'')) = chars.peek() {
                inverse = true;
                chars.next();
            }
            if let Some(&(i, c)) = chars.peek() {
                if !c.is_whitespace() {
                    return Err(err(
                        i,
                        Problem::Expected {
                            expected: "a space between moves",
                            found: format!("{c:?}"),
                        },
                    ));
                }
            }
            let order = u64::from(self.orders[generator]);
            let mut power = power % order;
            if inverse {
                power = (order - power) % order;
            }
            let token = text[start..chars.peek().map_or(text.len(), |&(i, _)| i)].to_string();
            if power == 0 {
                return Err(err(start, Problem::IdentityMove(token)));
            }
            if turns.len() == MAX_SCRAMBLE {
                return Err(err(start, Problem::ScrambleTooLong));
            }
            turns.push(Turn {
                generator: generator as u8,
                power: power as u8,
            });
        }
        Ok(turns)
    }

    /// The position a sequence of moves reaches from the solved state (the first move
    /// applied first).
    pub fn apply(&self, turns: &[Turn]) -> Perm {
        turns.iter().fold(Perm::identity(self.points), |p, &t| {
            p.then(&self.turn_perm(t))
        })
    }

    /// The moves that undo `turns`: the same in reverse order, each inverted.
    ///
    /// ```
    /// let cube = frontier_perm::preset("cube3").unwrap().puzzle();
    /// let turns = cube.parse_moves("R U2 F'").unwrap();
    /// let undo = cube.inverse_moves(&turns);
    /// assert_eq!(undo, cube.parse_moves("F U2 R'").unwrap());
    /// assert!(cube.apply(&[turns, undo].concat()).is_identity());
    /// ```
    pub fn inverse_moves(&self, turns: &[Turn]) -> Vec<Turn> {
        turns
            .iter()
            .rev()
            .map(|&t| Turn {
                generator: t.generator,
                power: self.generator_order(usize::from(t.generator)) - t.power,
            })
            .collect()
    }

    /// A position given as a permutation: in cycle notation (`(1,3,8,6)(2,5,7,4)`) or as its
    /// image list (the images of the points 1, 2, ... in order, separated by spaces or
    /// commas). The piece at point `p` in the solved state is at `p^position`.
    pub fn parse_position(&self, text: &str) -> Result<Perm, ParseError> {
        let one_line = |e: LineError| ParseError {
            line: 1,
            column: e.column,
            problem: e.problem,
        };
        if text.contains('(') {
            let mut cursor = Cursor::new(text, 0);
            let cycles = cursor.cycles(self.points).map_err(one_line)?;
            cursor.end().map_err(one_line)?;
            return Ok(Perm::from_cycles(self.points, &cycles).expect("cycles were checked"));
        }
        let mut images = Vec::new();
        let mut seen = vec![false; self.points];
        let mut cursor = Cursor::new(text, 0);
        loop {
            cursor.skip(|c| c.is_whitespace() || c == ',');
            if cursor.at_end() {
                break;
            }
            let column = cursor.column();
            let p = cursor.point(self.points).map_err(one_line)?;
            if images.len() == self.points {
                return Err(ParseError {
                    line: 1,
                    column,
                    problem: Problem::ImageCount {
                        expected: self.points,
                        found: self.points + 1,
                    },
                });
            }
            if std::mem::replace(&mut seen[usize::from(p)], true) {
                return Err(ParseError {
                    line: 1,
                    column,
                    problem: Problem::PointTwice(usize::from(p) + 1),
                });
            }
            images.push(p);
        }
        if images.len() != self.points {
            return Err(ParseError {
                line: 1,
                column: cursor.column(),
                problem: Problem::ImageCount {
                    expected: self.points,
                    found: images.len(),
                },
            });
        }
        Ok(Perm::from_images(images).expect("images were checked"))
    }

    /// The `.perm` text of the puzzle (which [`Puzzle::parse`] reads back).
    pub fn to_perm_text(&self) -> String {
        let mut s = String::new();
        for g in &self.generators {
            s.push_str(&format!("{}: {}\n", g.name, g.perm));
        }
        if self.coloured {
            s.push_str(COLOURS);
            s.push(':');
            for class in self.colour_classes() {
                if class.len() > 1 {
                    let points: Vec<String> = class
                        .iter()
                        .map(|p| (usize::from(*p) + 1).to_string())
                        .collect();
                    s.push_str(&format!(" {{{}}}", points.join(",")));
                }
            }
            s.push('\n');
        }
        s
    }

    /// The colour classes, each a list of points, in order of their least point.
    pub fn colour_classes(&self) -> Vec<Vec<u8>> {
        let mut classes: Vec<Vec<u8>> = Vec::new();
        let mut index = vec![usize::MAX; 256];
        for (p, &c) in self.colours.iter().enumerate() {
            if index[usize::from(c)] == usize::MAX {
                index[usize::from(c)] = classes.len();
                classes.push(Vec::new());
            }
            classes[index[usize::from(c)]].push(p as u8);
        }
        classes
    }
}

/// Feeds each line of `input` (without its line break) to `each` with its number from 1;
/// returns the number of lines. Lines are checked against [`MAX_LINE`] as they are read and
/// the whole against [`MAX_FILE`], so hostile input costs bounded memory.
pub(crate) fn read_lines<R: BufRead>(
    mut input: R,
    mut each: impl FnMut(&str, usize) -> Result<(), ParseError>,
) -> Result<usize, ParseError> {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut lines = 0;
    for number in 1.. {
        line.clear();
        let at = |problem| ParseError {
            line: number,
            column: 1,
            problem,
        };
        let mut limited = <&mut R as std::io::Read>::take(&mut input, MAX_LINE as u64 + 1);
        let read = limited
            .read_until(b'\n', &mut line)
            .map_err(|e| at(Problem::Io(e.to_string())))?;
        if read == 0 {
            break;
        }
        total += read;
        if total > MAX_FILE {
            return Err(at(Problem::FileTooLong));
        }
        if line.len() > MAX_LINE || (read == MAX_LINE + 1 && line.last() != Some(&b'\n')) {
            return Err(at(Problem::LineTooLong));
        }
        let text = std::str::from_utf8(&line).map_err(|_| at(Problem::NotUtf8))?;
        each(text.trim_end_matches(['\n', '\r']), number)?;
        lines = number;
    }
    Ok(lines)
}

/// The length in bytes of the move name at the start of `text`: optional digits (an inner
/// slice, `2R`), then ASCII letters and `_`; 0 if there is none.
pub(crate) fn name_len(text: &str) -> usize {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let letters = text[digits..]
        .bytes()
        .take_while(|&b| b.is_ascii_alphabetic() || b == b'_')
        .count();
    if letters == 0 {
        0
    } else {
        digits + letters
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}^{}", self.generator, self.power)
    }
}

/// A problem at a column of one line.
struct LineError {
    column: usize,
    problem: Problem,
}

/// A reader of one line's characters that knows its column.
struct Cursor<'a> {
    rest: std::iter::Peekable<std::str::Chars<'a>>,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, column: usize) -> Cursor<'a> {
        Cursor {
            rest: text.chars().peekable(),
            column: column + 1,
        }
    }

    fn column(&self) -> usize {
        self.column
    }

    fn at_end(&mut self) -> bool {
        self.rest.peek().is_none()
    }

    fn peek(&mut self) -> Option<char> {
        self.rest.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.rest.next();
        if c.is_some() {
            self.column += 1;
        }
        c
    }

    fn skip(&mut self, mut what: impl FnMut(char) -> bool) {
        while self.peek().is_some_and(&mut what) {
            self.bump();
        }
    }

    fn found(&mut self) -> String {
        match self.peek() {
            Some(c) => format!("{c:?}"),
            None => "the end of the line".to_string(),
        }
    }

    fn expected(&mut self, expected: &'static str) -> LineError {
        LineError {
            column: self.column,
            problem: Problem::Expected {
                expected,
                found: self.found(),
            },
        }
    }

    fn eat(&mut self, c: char, expected: &'static str) -> Result<(), LineError> {
        self.skip(char::is_whitespace);
        if self.peek() == Some(c) {
            self.bump();
            Ok(())
        } else {
            Err(self.expected(expected))
        }
    }

    fn end(&mut self) -> Result<(), LineError> {
        self.skip(char::is_whitespace);
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("the end of the line"))
        }
    }

    /// A point from 1 up to `max` (0-based on return).
    fn point(&mut self, max: usize) -> Result<u8, LineError> {
        self.skip(char::is_whitespace);
        let column = self.column;
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.expected("a point (a number from 1)"));
        }
        let mut value: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = (value * 10 + u64::from(d)).min(u64::from(u32::MAX));
            self.bump();
        }
        if value == 0 || value > max as u64 {
            return Err(LineError {
                column,
                problem: Problem::PointOutOfRange { point: value, max },
            });
        }
        Ok((value - 1) as u8)
    }

    /// Disjoint cycles `(a,b,...)(c,...)` over points 1..=max, until the end of the line.
    fn cycles(&mut self, max: usize) -> Result<Vec<Vec<u8>>, LineError> {
        let mut cycles = Vec::new();
        let mut seen = vec![false; max];
        loop {
            self.skip(char::is_whitespace);
            if self.peek() != Some('(') {
                break;
            }
            self.bump();
            let mut cycle = Vec::new();
            self.skip(char::is_whitespace);
            if self.peek() == Some(')') {
                self.bump();
                continue;
            }
            loop {
                let column = self.column;
                let p = self.point(max)?;
                if std::mem::replace(&mut seen[usize::from(p)], true) {
                    return Err(LineError {
                        column,
                        problem: Problem::PointTwice(usize::from(p) + 1),
                    });
                }
                cycle.push(p);
                self.skip(char::is_whitespace);
                match self.peek() {
                    Some(',') => {
                        self.bump();
                    }
                    Some(')') => {
                        self.bump();
                        break;
                    }
                    _ => return Err(self.expected("',' or ')'")),
                }
            }
            cycles.push(cycle);
        }
        if cycles.is_empty() {
            return Err(self.expected("a cycle such as (1,2,3)"));
        }
        Ok(cycles)
    }

    /// Sets of points `{a,b,...}` until the end of the line.
    fn sets(&mut self, seen: &mut [bool]) -> Result<Vec<Vec<u8>>, LineError> {
        let mut sets = Vec::new();
        loop {
            self.skip(char::is_whitespace);
            if self.at_end() {
                break;
            }
            self.eat('{', "'{' (a set of points such as {1,2,3})")?;
            let mut set = Vec::new();
            loop {
                let column = self.column;
                let p = self.point(MAX_POINTS)?;
                if std::mem::replace(&mut seen[usize::from(p)], true) {
                    return Err(LineError {
                        column,
                        problem: Problem::PointTwice(usize::from(p) + 1),
                    });
                }
                set.push(p);
                self.skip(char::is_whitespace);
                match self.peek() {
                    Some(',') => {
                        self.bump();
                    }
                    Some('}') => {
                        self.bump();
                        break;
                    }
                    _ => return Err(self.expected("',' or '}'")),
                }
            }
            sets.push(set);
        }
        Ok(sets)
    }
}

/// The lines of a `.perm` file read so far.
#[derive(Default)]
struct PuzzleBuilder {
    /// Each generator's name, cycles and where it was defined.
    generators: Vec<(String, Vec<Vec<u8>>, usize)>,
    colours: Option<(Vec<Vec<u8>>, usize)>,
    /// The largest point named, and where.
    largest: usize,
}

impl PuzzleBuilder {
    fn line(&mut self, text: &str, number: usize) -> Result<(), ParseError> {
        let content = text.split('#').next().unwrap_or("");
        let at = |e: LineError| ParseError {
            line: number,
            column: e.column,
            problem: e.problem,
        };
        let mut cursor = Cursor::new(content, 0);
        cursor.skip(char::is_whitespace);
        if cursor.at_end() {
            return Ok(());
        }
        let name_column = cursor.column();
        let rest = content.trim_start();
        let name = rest[..name_len(rest)].to_string();
        if name.is_empty() {
            return Err(at(cursor.expected("a generator name (letters and '_')")));
        }
        for _ in name.chars() {
            cursor.bump();
        }
        cursor.eat(':', "':' after the name").map_err(at)?;
        let named = |problem| ParseError {
            line: number,
            column: name_column,
            problem,
        };
        if name == COLOURS {
            if self.colours.is_some() {
                return Err(named(Problem::SecondColouring));
            }
            let mut seen = vec![false; MAX_POINTS];
            let sets = cursor.sets(&mut seen).map_err(at)?;
            for set in &sets {
                self.largest = self
                    .largest
                    .max(set.iter().map(|&p| usize::from(p) + 1).max().unwrap_or(0));
            }
            self.colours = Some((sets, number));
            return Ok(());
        }
        if self.generators.iter().any(|(n, _, _)| *n == name) {
            return Err(named(Problem::DuplicateName(name)));
        }
        if self.generators.len() == MAX_GENERATORS {
            return Err(named(Problem::TooManyGenerators));
        }
        let cycles = cursor.cycles(MAX_POINTS).map_err(at)?;
        cursor.end().map_err(at)?;
        if cycles.iter().all(|c| c.len() < 2) {
            return Err(named(Problem::Identity(name)));
        }
        for cycle in &cycles {
            self.largest = self
                .largest
                .max(cycle.iter().map(|&p| usize::from(p) + 1).max().unwrap_or(0));
        }
        self.generators.push((name, cycles, number));
        Ok(())
    }

    fn finish(self, name: &str) -> Result<Puzzle, ParseError> {
        if self.generators.is_empty() {
            return Err(ParseError {
                line: 1,
                column: 1,
                problem: Problem::NoGenerators,
            });
        }
        let points = self.largest;
        let generators = self
            .generators
            .into_iter()
            .map(|(name, cycles, _)| Generator {
                name,
                perm: Perm::from_cycles(points, &cycles).expect("cycles were checked"),
            })
            .collect();
        let colours = self.colours.map(|(sets, _)| {
            // Points outside every set keep a class of their own.
            let mut colours = vec![u8::MAX; points];
            for (class, set) in sets.iter().enumerate() {
                for &p in set {
                    colours[usize::from(p)] = class as u8;
                }
            }
            let unlisted = colours.iter_mut().filter(|c| **c == u8::MAX);
            for (c, class) in unlisted.zip(sets.len()..) {
                *c = class as u8;
            }
            colours
        });
        Ok(Puzzle::from_generators(name, generators, colours))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> ParseError {
        Puzzle::parse("test", text).unwrap_err()
    }

    #[test]
    fn generators_comments_and_colours_are_read() {
        let p = Puzzle::parse(
            "t",
            "# a comment\nA: (1,2,3) # trailing\n\n  B : (3, 4)(5,6)\ncolours: {1,2} {5,6}\n",
        )
        .unwrap();
        assert_eq!(p.points(), 6);
        assert_eq!(p.generators()[0].perm.to_string(), "(1,2,3)");
        assert_eq!(p.generators()[1].perm.to_string(), "(3,4)(5,6)");
        assert_eq!(p.colours(), [0, 0, 2, 3, 1, 1]);
        assert_eq!(Puzzle::parse("t", &p.to_perm_text()).unwrap(), p);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = problem("A: (1,2)\nB: (1,2,1)\n");
        assert_eq!(
            (e.line, e.column, e.problem),
            (2, 9, Problem::PointTwice(1))
        );
        let e = problem("A: (1,0)\n");
        assert_eq!((e.line, e.column), (1, 7));
        assert!(matches!(
            e.problem,
            Problem::PointOutOfRange { point: 0, .. }
        ));
        let e = problem("A: (1,256)\n");
        assert!(matches!(
            e.problem,
            Problem::PointOutOfRange { point: 256, .. }
        ));
        assert_eq!(problem("A: (1,2\n").column, 8);
        assert_eq!(
            problem("A (1,2)\n").problem.to_string(),
            "expected ':' after the name, found '('"
        );
        assert_eq!(
            problem("A: (1,2)\nA: (2,3)\n").problem,
            Problem::DuplicateName("A".into())
        );
        assert_eq!(problem("A: (1)\n").problem, Problem::Identity("A".into()));
        assert_eq!(problem("# nothing\n").problem, Problem::NoGenerators);
        assert!(matches!(
            problem("A: (1,2)\ncolours: {1,2} {2}\n").problem,
            Problem::PointTwice(2)
        ));
        let long = format!("A: (1,2) #{}\n", "x".repeat(MAX_LINE));
        assert_eq!(problem(&long).problem, Problem::LineTooLong);
    }

    #[test]
    fn scrambles_and_positions() {
        let p = Puzzle::parse("t", "U: (1,2,3,4)\nR: (4,5)\n").unwrap();
        let t = p.parse_moves("U U' U2 R U3 U5").unwrap();
        let powers: Vec<u8> = t.iter().map(|t| t.power).collect();
        assert_eq!(powers, [1, 3, 2, 1, 3, 1]);
        let names: Vec<String> = t.iter().map(|&t| p.turn_name(t)).collect();
        assert_eq!(names, ["U", "U'", "U2", "R", "U'", "U"]);
        assert_eq!(p.parse_moves("U X").unwrap_err().column, 3);
        assert_eq!(
            p.parse_moves("U4").unwrap_err().problem,
            Problem::IdentityMove("U4".into())
        );
        assert_eq!(p.parse_moves("U,R").unwrap_err().column, 2);
        // U then R: 1 -> 2, 4 -> 1 -> ... cycle notation and image list agree.
        let ur = p.apply(&p.parse_moves("U R").unwrap());
        assert_eq!(p.parse_position(&ur.to_string()).unwrap(), ur);
        let images: Vec<String> = ur.images().iter().map(|i| (i + 1).to_string()).collect();
        assert_eq!(p.parse_position(&images.join(" ")).unwrap(), ur);
        assert!(matches!(
            p.parse_position("1 2 3").unwrap_err().problem,
            Problem::ImageCount { .. }
        ));
        assert_eq!(
            p.parse_position("1 1 3 4 5").unwrap_err().problem,
            Problem::PointTwice(1)
        );
        assert!(p.parse_position("(1,6)").is_err());
    }
}
