//! Reading move sequences: WCA notation and the seed's letters.
//!
//! WCA notation (Regulation 12a): a face `U D L R F B`, optionally followed by `2` (half turn)
//! and/or `'` (counter-clockwise); `R2'` is accepted (12a4 of the 2009 regulations lists it)
//! and means `R2`, while `R'2`, `R3` or `R1` are refused with a suggestion. Also accepted: wide
//! turns `Uw` or `u` (the face and the middle layer), slices `M` (turns like `L`), `E` (like
//! `D`), `S` (like `F`), and rotations `x` (like `R`), `y` (like `U`), `z` (like `F`). Moves may
//! be separated by spaces or commas, or written together (`RUR'U'`). The typographic
//! apostrophe `’` counts as `'`.
//!
//! Seed notation: one letter per quarter turn, upper case clockwise, lower case
//! counter-clockwise (`B l U L B`).

use std::fmt;
use std::str::FromStr;

use crate::error::{NotationError, ParseNotationError};
use crate::geometry::{Face, Layers, ALL_LAYERS, MIDDLE, OUTER, WIDE};
use crate::moves::Move;

/// Which notation a move sequence is written in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Notation {
    /// WCA notation: `R U R' U' F2`, with wide, slice and rotation moves accepted in input.
    #[default]
    Wca,
    /// The seed's letters: `R` clockwise, `r` counter-clockwise quarter turns.
    Seed,
}

impl Notation {
    /// The notation's name: `wca` or `seed`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Wca => "wca",
            Notation::Seed => "seed",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = ParseNotationError;

    /// Reads `wca` or `seed`.
    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        match s {
            "wca" => Ok(Notation::Wca),
            "seed" => Ok(Notation::Seed),
            other => Err(ParseNotationError(other.to_owned())),
        }
    }
}

/// What a turn turns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TurnKind {
    /// One face: `R`.
    Face(Face),
    /// A face and the middle layer next to it: `Rw` or `r`.
    Wide(Face),
    /// The middle layer, turning like the given face: `M` (L), `E` (D), `S` (F).
    Slice(Face),
    /// The whole cube, turning like the given face: `x` (R), `y` (U), `z` (F).
    Rotation(Face),
}

impl TurnKind {
    /// The axis (as the face whose clockwise direction the turn follows) and the layers turned.
    pub(crate) fn axis_and_layers(self) -> (Face, Layers) {
        match self {
            TurnKind::Face(f) => (f, OUTER),
            TurnKind::Wide(f) => (f, WIDE),
            TurnKind::Slice(f) => (f, MIDDLE),
            TurnKind::Rotation(f) => (f, ALL_LAYERS),
        }
    }
}

/// One turn as written in a scramble: what turns, and by how many clockwise quarter turns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Turn {
    /// What turns.
    pub kind: TurnKind,
    /// Clockwise quarter turns: 1, 2 or 3.
    pub quarters: u8,
}

impl Turn {
    /// The face move this turn is, if it turns a single face (its quarter turns taken modulo
    /// 4, as [`Facelets::apply_turn`](crate::Facelets::apply_turn) takes them; a whole number
    /// of turns is no move).
    pub fn face_move(self) -> Option<Move> {
        match (self.kind, self.quarters % 4) {
            (_, 0) => None,
            (TurnKind::Face(face), quarters) => Some(Move::new(face, quarters)),
            _ => None,
        }
    }
}

impl fmt::Display for Turn {
    /// WCA notation: `R`, `Rw2`, `M'`, `x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            TurnKind::Face(face) => write!(f, "{face}")?,
            TurnKind::Wide(face) => write!(f, "{face}w")?,
            TurnKind::Slice(face) => write!(
                f,
                "{}",
                match face {
                    Face::L | Face::R => 'M',
                    Face::D | Face::U => 'E',
                    Face::F | Face::B => 'S',
                }
            )?,
            TurnKind::Rotation(face) => write!(
                f,
                "{}",
                match face {
                    Face::R | Face::L => 'x',
                    Face::U | Face::D => 'y',
                    Face::F | Face::B => 'z',
                }
            )?,
        }
        // Quarters modulo 4, as everywhere; a whole number of turns shows as `R0`.
        f.write_str(["0", "", "2", "'"][usize::from(self.quarters % 4)])
    }
}

const WCA_HINT: &str = " (moves are U D L R F B, each optionally followed by w, 2 or ', \
                        or u d l r f b, M E S, x y z)";
const SEED_HINT: &str = " (the seed's notation has one letter per quarter turn: U D L R F B \
                         clockwise, u d l r f b counter-clockwise)";

fn is_prime(c: char) -> bool {
    matches!(c, '\'' | '’' | '′')
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// Reads a move sequence.
///
/// ```
/// use frontier_cube::{parse, Notation};
///
/// let turns = parse("R U2' Rw M' x", Notation::Wca).unwrap();
/// let written: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
/// assert_eq!(written, ["R", "U2", "Rw", "M'", "x"]);
/// assert_eq!(parse("B l U L B", Notation::Seed).unwrap().len(), 5);
/// assert!(parse("R'2", Notation::Wca).is_err());
/// ```
pub fn parse(text: &str, notation: Notation) -> Result<Vec<Turn>, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut turns = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_separator(c) {
            i += 1;
            continue;
        }
        let column = i + 1;
        match notation {
            Notation::Seed => {
                let face = Face::from_letter(c.to_ascii_uppercase())
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or(NotationError::UnknownMove {
                        column,
                        found: c,
                        hint: SEED_HINT,
                    })?;
                let quarters = if c.is_ascii_uppercase() { 1 } else { 3 };
                turns.push(Turn {
                    kind: TurnKind::Face(face),
                    quarters,
                });
                i += 1;
            }
            Notation::Wca => {
                let unknown = NotationError::UnknownMove {
                    column,
                    found: c,
                    hint: WCA_HINT,
                };
                let mut kind = match c {
                    'U' | 'R' | 'F' | 'D' | 'L' | 'B' => {
                        TurnKind::Face(Face::from_letter(c).ok_or(unknown.clone())?)
                    }
                    'u' | 'r' | 'f' | 'd' | 'l' | 'b' => TurnKind::Wide(
                        Face::from_letter(c.to_ascii_uppercase()).ok_or(unknown.clone())?,
                    ),
                    'M' => TurnKind::Slice(Face::L),
                    'E' => TurnKind::Slice(Face::D),
                    'S' => TurnKind::Slice(Face::F),
                    'x' => TurnKind::Rotation(Face::R),
                    'y' => TurnKind::Rotation(Face::U),
                    'z' => TurnKind::Rotation(Face::F),
                    _ => return Err(unknown),
                };
                i += 1;
                if let (TurnKind::Face(face), Some('w')) = (kind, chars.get(i)) {
                    kind = TurnKind::Wide(face);
                    i += 1;
                }
                let start = i;
                // The amount: the longest run of digits and primes, then checked.
                while i < chars.len() && (chars[i].is_ascii_digit() || is_prime(chars[i])) {
                    i += 1;
                }
                let suffix: String = chars[start..i]
                    .iter()
                    .map(|&c| if is_prime(c) { '\'' } else { c })
                    .collect();
                let quarters = match suffix.as_str() {
                    "" => 1,
                    "2" | "2'" => 2,
                    "'" => 3,
                    _ => {
                        let name = Turn { kind, quarters: 1 }.to_string();
                        let suggestion = match suffix.as_str() {
                            "'2" => format!("{name}2 (or {name}2')"),
                            "3" => format!("{name}' for a counter-clockwise quarter turn"),
                            "1" => name.clone(),
                            _ => format!("{name}, {name}2 or {name}'"),
                        };
                        return Err(NotationError::BadAmount {
                            column,
                            found: chars[column - 1..i].iter().collect(),
                            suggestion,
                        });
                    }
                };
                turns.push(Turn { kind, quarters });
            }
        }
    }
    Ok(turns)
}

/// Reads a sequence of face moves only (as a solution is written); wide, slice and rotation
/// moves are refused.
pub fn parse_moves(text: &str, notation: Notation) -> Result<Vec<Move>, NotationError> {
    let turns = parse(text, notation)?;
    turns
        .iter()
        .map(|turn| {
            turn.face_move().ok_or_else(|| NotationError::BadAmount {
                column: 1,
                found: turn.to_string(),
                suggestion: "face moves only (U D L R F B)".to_owned(),
            })
        })
        .collect()
}

/// Writes face moves in `notation`, separated by spaces.
pub fn write_moves(moves: &[Move], notation: Notation) -> String {
    moves
        .iter()
        .map(|m| m.write(notation))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wca(text: &str) -> Result<Vec<String>, NotationError> {
        parse(text, Notation::Wca).map(|turns| turns.iter().map(|t| t.to_string()).collect())
    }

    #[test]
    fn a_face_turn_is_a_move_by_its_quarters_modulo_4() {
        let turn = |quarters| Turn {
            kind: TurnKind::Face(Face::R),
            quarters,
        };
        assert_eq!(turn(0).face_move(), None);
        assert_eq!(turn(4).face_move(), None);
        assert_eq!(turn(5).face_move(), Some(Move::new(Face::R, 1)));
        assert_eq!(turn(3).face_move(), Some(Move::new(Face::R, 3)));
        let wide = Turn {
            kind: TurnKind::Wide(Face::R),
            quarters: 1,
        };
        assert_eq!(wide.face_move(), None);
        let shown: Vec<String> = [0, 1, 2, 3, 5].map(|q| turn(q).to_string()).into();
        assert_eq!(shown, ["R0", "R", "R2", "R'", "R"]);
    }

    #[test]
    fn wca_forms() {
        assert_eq!(
            wca("R U' F2 B2' Dw l M2 E' S x' y2 z").unwrap(),
            ["R", "U'", "F2", "B2", "Dw", "Lw", "M2", "E'", "S", "x'", "y2", "z"]
        );
        assert_eq!(wca("RUR’U’").unwrap(), ["R", "U", "R'", "U'"]);
        assert_eq!(wca("  R,U  ").unwrap(), ["R", "U"]);
        assert_eq!(wca("").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn wca_refusals_say_where() {
        assert!(matches!(
            wca("R Q"),
            Err(NotationError::UnknownMove {
                column: 3,
                found: 'Q',
                ..
            })
        ));
        assert!(matches!(
            wca("U R'2"),
            Err(NotationError::BadAmount { column: 3, ref suggestion, .. }) if suggestion.starts_with("R2")
        ));
        assert!(matches!(wca("R3"), Err(NotationError::BadAmount { .. })));
        assert!(matches!(wca("R''"), Err(NotationError::BadAmount { .. })));
        assert!(matches!(
            wca("Mw"),
            Err(NotationError::UnknownMove { column: 2, .. })
        ));
        assert!(matches!(
            wca("'R"),
            Err(NotationError::UnknownMove { column: 1, .. })
        ));
    }

    #[test]
    fn seed_letters() {
        let moves = parse_moves("B l U L B", Notation::Seed).unwrap();
        assert_eq!(write_moves(&moves, Notation::Wca), "B L' U L B");
        assert_eq!(write_moves(&moves, Notation::Seed), "B l U L B");
        assert_eq!(parse_moves("BlULB", Notation::Seed).unwrap(), moves);
        assert!(matches!(
            parse("R'", Notation::Seed),
            Err(NotationError::UnknownMove {
                column: 2,
                found: '\'',
                ..
            })
        ));
        assert!(parse("x", Notation::Seed).is_err());
    }
}
