//! What can be wrong with a cube or a move sequence, said precisely.

use thiserror::Error;

use crate::geometry::Face;

/// A character quoted for a message: `'x'`, an apostrophe as `"'"`, a control character
/// escaped (`'\n'`).
pub(crate) fn quoted(c: char) -> String {
    match c {
        '\'' => "\"'\"".to_owned(),
        c if c.is_control() => format!("'{}'", c.escape_debug()),
        c => format!("'{c}'"),
    }
}

/// Why a facelet string or a cubie description is not a cube that can be solved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CubeError {
    /// The facelet string does not hold 54 facelet letters (whitespace between them aside).
    #[error("the facelet string has {0} letters; it needs 54 (9 per face, faces in the order U R F D L B, spaces between them ignored)")]
    Length(usize),
    /// The facelet string is written as six groups, one a face, and one of them does not hold
    /// nine letters.
    #[error("facelet string, column {column}: the group of face {face} has {count} letters; each face has 9 (faces in the order U R F D L B)")]
    FaceLength {
        /// The face of the group (its place among the six).
        face: Face,
        /// How many letters the group has.
        count: usize,
        /// 1-based column (character) where the group starts in the string.
        column: usize,
    },
    /// A character of the facelet string is not a face letter.
    #[error("facelet string, column {column}: {} is not a face letter (U R F D L B)", quoted(*.found))]
    Letter {
        /// 1-based column (character) in the string.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A colour does not appear on exactly nine facelets.
    #[error("colour {colour} appears on {count} facelets; every colour appears on exactly 9")]
    StickerCount {
        /// The colour.
        colour: Face,
        /// How often it appears.
        count: usize,
    },
    /// A centre facelet does not show its own face's colour.
    #[error("the centre of face {face} shows {found}; the centres must read U R F D L B (facelets 5, 14, 23, 32, 41, 50)")]
    Centre {
        /// The face whose centre is wrong.
        face: Face,
        /// The colour shown there.
        found: Face,
    },
    /// No corner cubie has these colours in this clockwise order.
    #[error("the corner at {position} shows {colours}: no corner has these colours in this order")]
    NoSuchCorner {
        /// The corner position (`URF`, ...).
        position: &'static str,
        /// Its colours read clockwise from the position's first face.
        colours: String,
    },
    /// No edge cubie has these colours.
    #[error("the edge at {position} shows {colours}: no edge has these colours")]
    NoSuchEdge {
        /// The edge position (`UR`, ...).
        position: &'static str,
        /// Its colours in the order of the position's name.
        colours: String,
    },
    /// A corner cubie appears twice (so another is missing).
    #[error("corner {0} appears twice")]
    DuplicateCorner(&'static str),
    /// An edge cubie appears twice (so another is missing).
    #[error("edge {0} appears twice")]
    DuplicateEdge(&'static str),
    /// An orientation value out of range in a cubie description.
    #[error("{0}: orientation out of range")]
    Orientation(&'static str),
    /// The corner twists do not add up to a multiple of 3.
    #[error("a corner is twisted: the corner orientations add up to {0} mod 3 instead of 0")]
    TwistedCorner(u8),
    /// The edge flips do not add up to an even number.
    #[error("an edge is flipped: an odd number of edges is flipped")]
    FlippedEdge,
    /// The corner and edge permutations have different parities.
    #[error("odd parity: the corner and edge permutations differ in parity (as if two pieces were swapped)")]
    Parity,
}

/// Why a move sequence could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// A character that starts no move.
    #[error("column {column}: {} is not a move{hint}", quoted(*.found))]
    UnknownMove {
        /// 1-based column of the character.
        column: usize,
        /// The character.
        found: char,
        /// A hint for the notation in use.
        hint: &'static str,
    },
    /// An amount that the notation does not allow, such as `R3` or `R'2`.
    #[error("column {column}: {found:?} is not a valid move; write {suggestion}")]
    BadAmount {
        /// 1-based column of the move.
        column: usize,
        /// The move as written.
        found: String,
        /// What to write instead.
        suggestion: String,
    },
}

/// A metric name that is neither `htm` nor `qtm`: the text given.
///
/// ```
/// use frontier_cube::Metric;
///
/// assert_eq!("qtm".parse::<Metric>(), Ok(Metric::Qtm));
/// assert_eq!(Metric::Htm.to_string(), "htm");
/// let error = "stm".parse::<Metric>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown metric \"stm\" (expected htm or qtm)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown metric {0:?} (expected htm or qtm)")]
pub struct ParseMetricError(pub String);

/// A notation name that is neither `wca` nor `seed`: the text given.
///
/// ```
/// use frontier_cube::Notation;
///
/// assert_eq!("seed".parse::<Notation>(), Ok(Notation::Seed));
/// assert_eq!(Notation::Wca.to_string(), "wca");
/// let error = "singmaster".parse::<Notation>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown notation \"singmaster\" (expected wca or seed)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown notation {0:?} (expected wca or seed)")]
pub struct ParseNotationError(pub String);
