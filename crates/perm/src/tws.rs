//! twsearch and KSolve definition files (`.tws`, `.def`), read into the same [`Puzzle`] a
//! `.perm` file gives.
//!
//! A set of `n` pieces with `o` orientations becomes `n * o` points: point `(slot, t)` is
//! where a piece's facet `f` sits when the piece is in `slot` twisted by `t - f`. A move (a
//! permutation of the slots and a twist of each piece) is then a permutation of points, and a
//! solved state with repeated piece numbers a colouring of them.

use std::io::BufRead;

use crate::perm::{Perm, MAX_POINTS};
use crate::puzzle::{name_len, read_lines, Generator, ParseError, Problem, Puzzle, MAX_GENERATORS};

/// The most orientations a set may have (twsearch's limit).
pub const MAX_ORIENTATIONS: u64 = 126;

/// The two kinds of puzzle definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A `.perm` file: generators in GAP cycle notation.
    Perm,
    /// A twsearch or KSolve definition file: `Set`, `Solved` and `Move` blocks.
    Tws,
}

impl Format {
    /// The format of a file: its extension's (`.tws` and `.def` are twsearch files, `.perm` a
    /// `.perm` file), else its first line that is not blank or a comment: twsearch files open
    /// with `Name` or `Set`.
    ///
    /// ```
    /// use frontier_perm::Format;
    ///
    /// assert_eq!(Format::detect("x.def", b""), Format::Tws);
    /// assert_eq!(Format::detect("-", b"# comment\nName Cube\n"), Format::Tws);
    /// assert_eq!(Format::detect("-", b"U: (1,2,3,4)\n"), Format::Perm);
    /// ```
    pub fn detect(file_name: &str, text: &[u8]) -> Format {
        let lower = file_name.to_ascii_lowercase();
        if lower.ends_with(".tws") || lower.ends_with(".def") {
            return Format::Tws;
        }
        if lower.ends_with(".perm") {
            return Format::Perm;
        }
        for line in text.split(|&b| b == b'\n') {
            let content = line.split(|&b| b == b'#').next().unwrap_or_default();
            let mut words = content
                .split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty());
            if let Some(word) = words.next() {
                return match word {
                    b"Name" | b"Set" => Format::Tws,
                    _ => Format::Perm,
                };
            }
        }
        Format::Perm
    }
}

impl Puzzle {
    /// Reads a twsearch or KSolve definition file (the README gives the syntax), named `name`
    /// in messages, with the limits of [`Puzzle::read`].
    ///
    /// ```
    /// use frontier_perm::{Analysis, Puzzle};
    ///
    /// // Two pieces that swap, each with two orientations, and a move that also twists one.
    /// let text = "Name Tiny\nSet P 2 2\nSolved\nP\n1 2\nEnd\nMove A\nP\n2 1\n1 0\nEnd\n";
    /// let puzzle = Puzzle::parse_tws("tiny", text)?;
    /// assert_eq!(puzzle.points(), 4);
    /// assert_eq!(Analysis::of(&puzzle).order.to_string(), "4");
    /// # Ok::<(), frontier_perm::ParseError>(())
    /// ```
    pub fn read_tws<R: BufRead>(name: &str, input: R) -> Result<Puzzle, ParseError> {
        let mut reader = TwsReader::default();
        let lines = read_lines(input, |text, number| reader.line(text, number))?;
        reader.finish(name, lines)
    }

    /// Reads a twsearch or KSolve definition text (as [`Puzzle::read_tws`]).
    pub fn parse_tws(name: &str, text: &str) -> Result<Puzzle, ParseError> {
        Puzzle::read_tws(name, text.as_bytes())
    }
}

/// A set: its pieces, their orientations, and its first point.
struct Set {
    name: String,
    pieces: usize,
    orientations: usize,
    base: usize,
}

/// One number of a line, or `?` (an orientation wildcard, in a solved state only).
type Value = Option<u64>;

/// What a block gives for one set: the pieces (or permutation) and the orientations.
struct Chunk {
    pieces: Vec<u64>,
    orientations: Option<Vec<Value>>,
}

/// A block being read.
struct Block {
    /// `None` for the solved state, else the move's name.
    mv: Option<String>,
    /// Numbers from 0 (`StartState`, `MoveTransformation`) rather than from 1.
    zero_based: bool,
    /// Orientations in the state's form (`MoveTransformation`) rather than KSolve's moves'.
    state_form: bool,
    /// The command that opened it, for a missing `End`.
    command: String,
    line: usize,
    column: usize,
    chunks: Vec<Option<Chunk>>,
    /// The set whose lines come next, and its permutation once read.
    pending: Option<(usize, Option<Vec<u64>>)>,
}

/// The lines of a twsearch file read so far.
#[derive(Default)]
struct TwsReader {
    sets: Vec<Set>,
    points: usize,
    solved: Option<Vec<Option<Chunk>>>,
    moves: Vec<(String, Perm)>,
    block: Option<Block>,
    blocks_seen: bool,
}

/// The words of a line before any `#`, each with its column from 1.
fn words(text: &str) -> Vec<(usize, &str)> {
    let content = text.split('#').next().unwrap_or("");
    let mut out = Vec::new();
    let mut start = None;
    for (column, (i, c)) in content.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((column + 1, i)),
            (true, Some((col, s))) => {
                out.push((col, &content[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col, s)) = start {
        out.push((col, &content[s..]));
    }
    out
}

/// Whether a move's name makes it a rotation of the whole puzzle, as twsearch tells them:
/// capitals or `_` then `v` (`Uv`), or `x`, `y`, `z` with an optional `2` or `'`.
fn is_rotation(name: &str) -> bool {
    if let Some(head) = name.strip_suffix('v') {
        return !head.is_empty() && head.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
    }
    matches!(
        name,
        "x" | "y" | "z" | "x2" | "y2" | "z2" | "x'" | "y'" | "z'"
    )
}

impl TwsReader {
    fn line(&mut self, text: &str, number: usize) -> Result<(), ParseError> {
        let words = words(text);
        if words.is_empty() {
            return Ok(());
        }
        let at = |column: usize, problem| ParseError {
            line: number,
            column,
            problem,
        };
        if self.block.is_some() {
            return self.block_line(&words, number);
        }
        let (column, command) = words[0];
        let arity = |n: usize, expected: &'static str| -> Result<(), ParseError> {
            if words.len() < n {
                let end = text.split('#').next().unwrap_or("").chars().count() + 1;
                return Err(at(
                    end,
                    Problem::Expected {
                        expected,
                        found: "the end of the line".into(),
                    },
                ));
            }
            if let Some(&(c, w)) = words.get(n) {
                return Err(at(
                    c,
                    Problem::Expected {
                        expected: "the end of the line",
                        found: format!("{w:?}"),
                    },
                ));
            }
            Ok(())
        };
        match command {
            "Name" => {
                if words.len() < 2 {
                    arity(2, "the puzzle's name")?;
                }
                Ok(())
            }
            "Set" => {
                arity(4, "Set NAME PIECES ORIENTATIONS")?;
                if self.blocks_seen {
                    return Err(at(column, Problem::SetAfterBlock));
                }
                let (name_column, name) = words[1];
                if self.sets.iter().any(|s| s.name == name) {
                    return Err(at(name_column, Problem::SetTwice(name.to_string())));
                }
                if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                    return Err(at(
                        name_column,
                        Problem::Expected {
                            expected: "a set name (from a letter or '_')",
                            found: format!("{name:?}"),
                        },
                    ));
                }
                let pieces = number_in(words[2], "pieces", 1, MAX_POINTS as u64, number)?;
                let orientations =
                    number_in(words[3], "orientations", 1, MAX_ORIENTATIONS, number)?;
                let points = self.points + (pieces * orientations) as usize;
                if points > MAX_POINTS {
                    return Err(at(words[2].0, Problem::TooManyPoints(points)));
                }
                self.sets.push(Set {
                    name: name.to_string(),
                    pieces: pieces as usize,
                    orientations: orientations as usize,
                    base: self.points,
                });
                self.points = points;
                Ok(())
            }
            "Solved" | "StartState" => {
                arity(1, "")?;
                if self.solved.is_some() {
                    return Err(at(column, Problem::SecondSolved));
                }
                self.open(None, command, number, column);
                Ok(())
            }
            "Move" | "MoveTransformation" => {
                arity(2, "the move's name")?;
                let (name_column, name) = words[1];
                if !is_rotation(name) && name_len(name) != name.len() {
                    return Err(at(name_column, Problem::BadMoveName(name.to_string())));
                }
                if self.moves.iter().any(|(n, _)| n == name) {
                    return Err(at(name_column, Problem::DuplicateName(name.to_string())));
                }
                self.open(Some(name.to_string()), command, number, column);
                Ok(())
            }
            _ => Err(at(column, Problem::UnknownCommand(command.to_string()))),
        }
    }

    fn open(&mut self, mv: Option<String>, command: &str, line: usize, column: usize) {
        self.blocks_seen = true;
        let zero_based = matches!(command, "StartState" | "MoveTransformation");
        self.block = Some(Block {
            mv,
            zero_based,
            state_form: command == "MoveTransformation",
            command: command.to_string(),
            line,
            column,
            chunks: (0..self.sets.len()).map(|_| None).collect(),
            pending: None,
        });
    }

    /// A line inside a block: a set's name, its permutation, its orientations, or `End`.
    fn block_line(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ParseError> {
        let at = |column: usize, problem| ParseError {
            line: number,
            column,
            problem,
        };
        let block = self.block.as_mut().expect("inside a block");
        let numeric = words[0]
            .1
            .starts_with(|c: char| c.is_ascii_digit() || c == '?');
        match block.pending.take() {
            Some((set, None)) => {
                let pieces = self.numbers(words, set, number)?;
                let block = self.block.as_mut().expect("inside a block");
                block.pending = Some((set, Some(pieces)));
                return Ok(());
            }
            Some((set, Some(pieces))) if numeric => {
                let orientations = self.orientations(words, set, &pieces, number)?;
                let block = self.block.as_mut().expect("inside a block");
                block.chunks[set] = Some(Chunk {
                    pieces,
                    orientations: Some(orientations),
                });
                return Ok(());
            }
            Some((set, Some(pieces))) => {
                block.chunks[set] = Some(Chunk {
                    pieces,
                    orientations: None,
                });
            }
            None => {}
        }
        let (column, word) = words[0];
        if let Some(&(c, w)) = words.get(1) {
            return Err(at(
                c,
                Problem::Expected {
                    expected: "the end of the line (a set's name or End stands alone)",
                    found: format!("{w:?}"),
                },
            ));
        }
        if word == "End" {
            return self.close(number);
        }
        if numeric {
            return Err(at(
                column,
                Problem::Expected {
                    expected: "a set's name or End",
                    found: format!("{word:?}"),
                },
            ));
        }
        let set = self
            .sets
            .iter()
            .position(|s| s.name == word)
            .ok_or_else(|| at(column, Problem::UnknownSet(word.to_string())))?;
        let block = self.block.as_mut().expect("inside a block");
        if block.chunks[set].is_some() {
            return Err(at(column, Problem::SetTwice(word.to_string())));
        }
        block.pending = Some((set, None));
        Ok(())
    }

    /// A line of a set's pieces: a permutation in a move, piece numbers in a solved state.
    fn numbers(
        &self,
        words: &[(usize, &str)],
        set: usize,
        number: usize,
    ) -> Result<Vec<u64>, ParseError> {
        let block = self.block.as_ref().expect("inside a block");
        let n = self.sets[set].pieces;
        count(words, n, number)?;
        let min = u64::from(!block.zero_based);
        let max = n as u64 - 1 + min;
        let mut seen = vec![false; n];
        let mut out = Vec::with_capacity(n);
        for &word in words {
            let v = number_in(word, "piece", min, max, number)?;
            if block.mv.is_some() && std::mem::replace(&mut seen[(v - min) as usize], true) {
                return Err(ParseError {
                    line: number,
                    column: word.0,
                    problem: Problem::PieceTwice(v),
                });
            }
            out.push(v - min);
        }
        Ok(out)
    }

    /// A line of a set's orientations; `?` only in a solved state, and then for every piece
    /// of that number or none.
    fn orientations(
        &self,
        words: &[(usize, &str)],
        set: usize,
        pieces: &[u64],
        number: usize,
    ) -> Result<Vec<Value>, ParseError> {
        let block = self.block.as_ref().expect("inside a block");
        let s = &self.sets[set];
        count(words, s.pieces, number)?;
        let mut wild: Vec<Option<bool>> = vec![None; s.pieces];
        let mut out = Vec::with_capacity(s.pieces);
        for (i, &word) in words.iter().enumerate() {
            let v = if word.1 == "?" && block.mv.is_none() {
                None
            } else {
                Some(number_in(
                    word,
                    "orientation",
                    0,
                    s.orientations as u64 - 1,
                    number,
                )?)
            };
            let piece = pieces[i] as usize;
            if *wild[piece].get_or_insert(v.is_none()) != v.is_none() {
                return Err(ParseError {
                    line: number,
                    column: word.0,
                    problem: Problem::MixedWildcards(pieces[i] + u64::from(!block.zero_based)),
                });
            }
            out.push(v);
        }
        Ok(out)
    }

    /// `End`: the block becomes the solved state or a generator.
    fn close(&mut self, number: usize) -> Result<(), ParseError> {
        let block = self.block.take().expect("inside a block");
        let Some(name) = block.mv else {
            self.solved = Some(block.chunks);
            return Ok(());
        };
        if is_rotation(&name) {
            // Rotations turn the whole puzzle: twsearch uses them for symmetry, not as moves.
            return Ok(());
        }
        let mut images: Vec<u8> = (0..self.points).map(|p| p as u8).collect();
        for (set, chunk) in self.sets.iter().zip(&block.chunks) {
            let Some(chunk) = chunk else { continue };
            let m = set.orientations;
            for (i, &from) in chunk.pieces.iter().enumerate() {
                let from = from as usize;
                // The piece in slot `from` comes to slot `i`, twisted by the state-form twist
                // of slot `i` (KSolve gives a move's twists by the piece's old slot).
                let twist = match &chunk.orientations {
                    None => 0,
                    Some(o) if block.state_form => o[i].unwrap_or(0) as usize,
                    Some(o) => o[from].unwrap_or(0) as usize,
                };
                for t in 0..m {
                    images[set.base + from * m + t] = (set.base + i * m + (t + twist) % m) as u8;
                }
            }
        }
        let perm = Perm::from_images(images).expect("a permutation of slots and twists");
        if perm.is_identity() {
            return Err(ParseError {
                line: block.line,
                column: block.column,
                problem: Problem::Identity(name),
            });
        }
        if self.moves.len() == MAX_GENERATORS {
            return Err(ParseError {
                line: number,
                column: block.column,
                problem: Problem::TooManyGenerators,
            });
        }
        self.moves.push((name, perm));
        Ok(())
    }

    fn finish(self, name: &str, lines: usize) -> Result<Puzzle, ParseError> {
        if let Some(block) = &self.block {
            return Err(ParseError {
                line: block.line,
                column: block.column,
                problem: Problem::MissingEnd(match &block.mv {
                    Some(m) => format!("{} {m}", block.command),
                    None => block.command.clone(),
                }),
            });
        }
        let end = ParseError {
            line: lines.max(1),
            column: 1,
            problem: Problem::NoSets,
        };
        if self.sets.is_empty() {
            return Err(end);
        }
        if self.moves.is_empty() {
            return Err(ParseError {
                problem: Problem::NoGenerators,
                ..end
            });
        }
        let colours = self.solved.as_ref().and_then(|chunks| self.colours(chunks));
        let generators = self
            .moves
            .into_iter()
            .map(|(name, perm)| Generator { name, perm })
            .collect();
        Ok(Puzzle::from_generators(name, generators, colours))
    }

    /// Each point's colour class in the solved state, `None` if every point is distinct:
    /// a piece's facet `f` is at twist `f + t` of its slot when the slot's orientation is `t`,
    /// and a wildcard orientation makes all the piece's facets alike.
    fn colours(&self, chunks: &[Option<Chunk>]) -> Option<Vec<u8>> {
        let mut keys: Vec<(usize, u64, u64)> = Vec::with_capacity(self.points);
        for (s, set) in self.sets.iter().enumerate() {
            let m = set.orientations as u64;
            for i in 0..set.pieces {
                let (piece, twist) = match &chunks[s] {
                    Some(c) => (
                        c.pieces[i],
                        c.orientations.as_ref().map_or(Some(0), |o| o[i]),
                    ),
                    None => (i as u64, Some(0)),
                };
                for t in 0..m {
                    let facet = twist.map_or(m, |tw| (t + m - tw) % m);
                    keys.push((s, piece, facet));
                }
            }
        }
        let mut distinct = keys.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() == keys.len() {
            return None;
        }
        Some(
            keys.iter()
                .map(|k| distinct.binary_search(k).expect("a key of the list") as u8)
                .collect(),
        )
    }
}

/// Checks that a line holds `n` numbers.
fn count(words: &[(usize, &str)], n: usize, line: usize) -> Result<(), ParseError> {
    if words.len() == n {
        return Ok(());
    }
    let column = words.get(n).map_or_else(
        || {
            let (c, w) = words[words.len() - 1];
            c + w.chars().count()
        },
        |w| w.0,
    );
    Err(ParseError {
        line,
        column,
        problem: Problem::NumberCount {
            expected: n,
            found: words.len(),
        },
    })
}

/// A number from `min` to `max`, naming `what` it counts if it is out of range.
fn number_in(
    (column, word): (usize, &str),
    what: &'static str,
    min: u64,
    max: u64,
    line: usize,
) -> Result<u64, ParseError> {
    let at = |problem| ParseError {
        line,
        column,
        problem,
    };
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(at(Problem::Expected {
            expected: "a number",
            found: format!("{word:?}"),
        }));
    }
    let value = word.bytes().fold(0u64, |v, d| {
        (v * 10 + u64::from(d - b'0')).min(u64::from(u32::MAX))
    });
    if value < min || value > max {
        return Err(at(Problem::OutOfRange {
            what,
            value,
            min,
            max,
        }));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> (usize, usize, Problem) {
        let e = Puzzle::parse_tws("t", text).unwrap_err();
        (e.line, e.column, e.problem)
    }

    const TINY: &str = "Set P 3 2\nSolved\nP\n1 2 3\nEnd\n";

    #[test]
    fn a_move_is_a_permutation_of_slots_and_twists() {
        // Slot 1 takes the piece of slot 2, twisted by 1 (KSolve: the twist of piece 2).
        let p = Puzzle::parse_tws("t", &format!("{TINY}Move A\nP\n2 1 3\n0 1 0\nEnd\n")).unwrap();
        // Points: (slot, twist) = 1..6 as (1,0) (1,1) (2,0) (2,1) (3,0) (3,1).
        assert_eq!(p.generators()[0].perm.to_string(), "(1,3,2,4)");
        assert!(!p.is_coloured());
        // The same move in the state form: the twist belongs to the slot it lands in.
        let q = Puzzle::parse_tws(
            "t",
            "Set P 3 2\nMoveTransformation A\nP\n1 0 2\n1 0 0\nEnd\n",
        )
        .unwrap();
        assert_eq!(q.generators()[0].perm, p.generators()[0].perm);
    }

    #[test]
    fn repeated_numbers_and_wildcards_colour_the_points() {
        let p = Puzzle::parse_tws(
            "t",
            "Set P 3 2\nSolved\nP\n1 1 2\n0 0 ?\nEnd\nMove A\nP\n2 1 3\nEnd\n",
        )
        .unwrap();
        assert!(p.is_coloured());
        let c = p.colours();
        assert_eq!((c[0], c[1]), (c[2], c[3]));
        assert_ne!(c[0], c[1]);
        assert_eq!(c[4], c[5]);
        assert_ne!(c[4], c[0]);
    }

    #[test]
    fn rotations_are_not_moves() {
        let p = Puzzle::parse_tws(
            "t",
            &format!("{TINY}Move A\nP\n2 1 3\nEnd\nMove x\nP\n3 1 2\nEnd\n"),
        )
        .unwrap();
        assert_eq!(p.generators().len(), 1);
    }

    #[test]
    fn errors_name_line_and_column() {
        let mv = |body: &str| format!("{TINY}Move A\nP\n{body}\nEnd\n");
        assert_eq!(problem(&mv("1 1 3")), (8, 3, Problem::PieceTwice(1)));
        assert!(matches!(
            problem(&mv("1 2 4")),
            (8, 5, Problem::OutOfRange { value: 4, .. })
        ));
        assert!(matches!(
            problem(&mv("2 1 3\n0 2 0")),
            (
                9,
                3,
                Problem::OutOfRange {
                    what: "orientation",
                    value: 2,
                    ..
                }
            )
        ));
        assert!(matches!(
            problem(&mv("2 1 3\n0 ? 0")),
            (9, 3, Problem::Expected { .. })
        ));
        assert_eq!(
            problem(&mv("1 2")),
            (
                8,
                4,
                Problem::NumberCount {
                    expected: 3,
                    found: 2
                }
            )
        );
        assert_eq!(
            problem(&format!("{TINY}Move A\nQ\n1 2 3\nEnd\n")),
            (7, 1, Problem::UnknownSet("Q".into()))
        );
        assert_eq!(
            problem(&format!("{TINY}Move A\nP\n2 1 3\n")),
            (6, 1, Problem::MissingEnd("Move A".into()))
        );
        assert_eq!(problem(&mv("1 2 3")), (6, 1, Problem::Identity("A".into())));
        assert_eq!(
            problem("Set P 3 2\nIllegal\n"),
            (2, 1, Problem::UnknownCommand("Illegal".into()))
        );
        assert_eq!(
            problem("Set P 200 2\n"),
            (1, 7, Problem::TooManyPoints(400))
        );
        assert!(matches!(
            problem("Set P 3 127\n"),
            (1, 9, Problem::OutOfRange { .. })
        ));
        assert_eq!(
            problem("Set P 3 2\nSolved\nP\n1 1 2\n0 ? 0\nEnd\n"),
            (5, 3, Problem::MixedWildcards(1))
        );
        assert_eq!(problem(TINY), (5, 1, Problem::NoGenerators));
        assert_eq!(
            problem(&format!("{TINY}Move R'2\n")).2,
            Problem::BadMoveName("R'2".into())
        );
    }

    #[test]
    fn the_format_is_told_by_name_or_content() {
        assert_eq!(Format::detect("a.TWS", b"U: (1,2)"), Format::Tws);
        assert_eq!(Format::detect("a.perm", b"Name X"), Format::Perm);
        assert_eq!(Format::detect("a", b"\n  \n# x\nSet A 2 1\n"), Format::Tws);
        assert_eq!(Format::detect("a", b"Name: (1,2)\n"), Format::Perm);
    }
}
