//! Face moves, the two metrics, and which moves may follow which.

use std::fmt;
use std::str::FromStr;

use crate::error::{NotationError, ParseMetricError};
use crate::geometry::Face;
use crate::notation::{parse, Notation, TurnKind};

/// A turn of one face: a quarter turn clockwise, a half turn, or a quarter turn
/// counter-clockwise (clockwise as seen looking at the face).
///
/// ```
/// use frontier_cube::{Face, Move};
///
/// let mv = Move::new(Face::R, 3);
/// assert_eq!(mv.to_string(), "R'");
/// assert_eq!(mv.inverse().to_string(), "R");
/// assert_eq!(mv.seed(), "r");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The 18 face moves: `U U2 U' R R2 R' F ... B'`.
    pub const ALL: [Move; 18] = {
        let mut all = [Move(0); 18];
        let mut i = 0;
        while i < 18 {
            all[i] = Move(i as u8);
            i += 1;
        }
        all
    };

    /// A turn of `face` by `quarter_turns` clockwise quarter turns (1, 2 or 3; taken mod 4).
    ///
    /// # Panics
    /// If `quarter_turns` is a multiple of 4 (that is no move).
    pub fn new(face: Face, quarter_turns: u8) -> Move {
        let q = quarter_turns % 4;
        assert!(q != 0, "a move turns its face by 1, 2 or 3 quarter turns");
        Move(face.index() as u8 * 3 + q - 1)
    }

    /// The move's number, `0..18`: face index times 3 plus quarter turns minus 1.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The face turned.
    pub fn face(self) -> Face {
        Face::ALL[usize::from(self.0 / 3)]
    }

    /// Clockwise quarter turns: 1, 2 or 3 (3 is one counter-clockwise quarter turn).
    pub fn quarter_turns(self) -> u8 {
        self.0 % 3 + 1
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        Move::new(self.face(), 4 - self.quarter_turns())
    }

    /// The move's cost in `metric`: 1 in HTM; 1 or 2 quarter turns in QTM.
    pub fn cost(self, metric: Metric) -> u64 {
        match metric {
            Metric::Htm => 1,
            Metric::Qtm if self.quarter_turns() == 2 => 2,
            Metric::Qtm => 1,
        }
    }

    /// The move in the seed's notation: `R` clockwise, `r` counter-clockwise, `RR` a half turn.
    pub fn seed(self) -> String {
        let upper = self.face().letter();
        match self.quarter_turns() {
            1 => upper.to_string(),
            2 => format!("{upper}{upper}"),
            _ => upper.to_ascii_lowercase().to_string(),
        }
    }

    /// The move written in `notation`.
    pub fn write(self, notation: Notation) -> String {
        match notation {
            Notation::Wca => self.to_string(),
            Notation::Seed => self.seed(),
        }
    }

    /// Reads exactly one face move in WCA notation (`R`, `R2`, `R'`, `R2'`).
    pub fn parse_wca(text: &str) -> Result<Move, NotationError> {
        text.parse()
    }

    /// `moves` in the quarter-turn metric: each half turn written as two clockwise quarter
    /// turns, the other moves kept, so that every move of the result costs 1 in QTM.
    ///
    /// ```
    /// use frontier_cube::Move;
    /// let moves: Vec<Move> = ["R2", "U'"].iter().map(|m| m.parse().unwrap()).collect();
    /// let quarters: Vec<String> = Move::in_quarter_turns(&moves).iter().map(Move::to_string).collect();
    /// assert_eq!(quarters, ["R", "R", "U'"]);
    /// ```
    pub fn in_quarter_turns(moves: &[Move]) -> Vec<Move> {
        (moves.iter())
            .flat_map(|&mv| match mv.quarter_turns() {
                2 => std::iter::repeat_n(Move::new(mv.face(), 1), 2),
                _ => std::iter::repeat_n(mv, 1),
            })
            .collect()
    }
}

impl fmt::Display for Move {
    /// WCA notation: `R`, `R2`, `R'`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = ["", "2", "'"][usize::from(self.quarter_turns() - 1)];
        write!(f, "{}{suffix}", self.face().letter())
    }
}

impl FromStr for Move {
    type Err = NotationError;

    /// Reads exactly one face move in WCA notation.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let turns = parse(text, Notation::Wca)?;
        match turns.as_slice() {
            [turn] => match turn.kind {
                TurnKind::Face(face) => Ok(Move::new(face, turn.quarters)),
                _ => Err(NotationError::BadAmount {
                    column: 1,
                    found: text.trim().to_owned(),
                    suggestion: "a single face move such as R, R2 or R'".to_owned(),
                }),
            },
            _ => Err(NotationError::BadAmount {
                column: 1,
                found: text.trim().to_owned(),
                suggestion: "exactly one face move such as R, R2 or R'".to_owned(),
            }),
        }
    }
}

/// How solution length is counted, which is also which moves the solvers may use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Metric {
    /// Half-turn metric: the 18 face moves, each counting 1.
    #[default]
    Htm,
    /// Quarter-turn metric (the seed's): the 12 quarter turns only; a half turn counts 2.
    Qtm,
}

/// The 12 quarter turns: `U U' R R' ...`.
const QUARTER_TURNS: [Move; 12] = {
    let mut out = [Move(0); 12];
    let mut i = 0;
    while i < 6 {
        out[2 * i] = Move(3 * i as u8);
        out[2 * i + 1] = Move(3 * i as u8 + 2);
        i += 1;
    }
    out
};

/// `FOLLOWS[metric][last][next]`: whether `next` may be played right after `last` in a
/// canonical sequence (see [`Metric::may_follow`]).
static FOLLOWS: [[[bool; 18]; 18]; 2] = {
    let mut table = [[[false; 18]; 18]; 2];
    let mut metric = 0;
    while metric < 2 {
        let mut last = 0;
        while last < 18 {
            let mut next = 0;
            while next < 18 {
                let (fl, fn_) = (last / 3, next / 3);
                let allowed = if fl == fn_ {
                    // QTM: `U U` is the only way to make a half turn; `U U'` undoes itself.
                    metric == 1 && last == next
                } else {
                    // Opposite faces commute: only U before D, R before L, F before B.
                    !(fl == fn_ + 3)
                };
                table[metric][last][next] = allowed;
                next += 1;
            }
            last += 1;
        }
        metric += 1;
    }
    table
};

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = ParseMetricError;

    /// Reads `htm` or `qtm`.
    fn from_str(s: &str) -> Result<Metric, ParseMetricError> {
        match s {
            "htm" => Ok(Metric::Htm),
            "qtm" => Ok(Metric::Qtm),
            other => Err(ParseMetricError(other.to_owned())),
        }
    }
}

impl Metric {
    /// The metric's name: `htm` or `qtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }

    /// The moves the metric counts as one: 18 in HTM, 12 in QTM.
    pub fn moves(self) -> &'static [Move] {
        match self {
            Metric::Htm => &Move::ALL,
            Metric::Qtm => &QUARTER_TURNS,
        }
    }

    /// Whether `next` may follow `last` in a canonical move sequence: never the same face twice
    /// (in QTM, the same quarter turn twice is allowed, as it makes a half turn), and of two
    /// opposite faces (which commute) only U before D, R before L, F before B. Every sequence
    /// can be rewritten into a canonical one no longer than itself, so pruning the others
    /// keeps a shortest solution.
    pub fn may_follow(self, last: Move, next: Move) -> bool {
        FOLLOWS[self as usize][last.index()][next.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_turns_become_two_quarter_turns_that_do_the_same() {
        let moves: Vec<Move> = (0..18).map(Move).collect();
        let quarters = Move::in_quarter_turns(&moves);
        assert_eq!(quarters.len(), 24);
        assert!(quarters.iter().all(|mv| mv.cost(Metric::Qtm) == 1));
        let apply = |moves: &[Move]| *crate::Cube::SOLVED.path(moves).last().unwrap();
        assert_eq!(apply(&quarters), apply(&moves));
    }

    #[test]
    fn moves_round_trip_through_their_names() {
        for mv in Move::ALL {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
            assert_eq!(mv.inverse().inverse(), mv);
            assert_eq!(mv.inverse().face(), mv.face());
            assert_eq!((mv.quarter_turns() + mv.inverse().quarter_turns()) % 4, 0);
        }
        assert_eq!(Metric::Qtm.moves().len(), 12);
        assert!(Metric::Qtm.moves().iter().all(|m| m.quarter_turns() != 2));
    }

    #[test]
    fn pruning_keeps_one_order_of_opposite_faces() {
        let m = |s: &str| s.parse::<Move>().unwrap();
        assert!(Metric::Htm.may_follow(m("U"), m("D")));
        assert!(!Metric::Htm.may_follow(m("D"), m("U2")));
        assert!(!Metric::Htm.may_follow(m("R"), m("R2")));
        assert!(Metric::Htm.may_follow(m("R"), m("U")));
        assert!(Metric::Qtm.may_follow(m("R"), m("R")));
        assert!(!Metric::Qtm.may_follow(m("R"), m("R'")));
        assert!(!Metric::Qtm.may_follow(m("B'"), m("F")));
    }
}
