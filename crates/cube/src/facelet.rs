//! The facelet model: the colour of each of the 54 facelets, in the URFDLB order of Kociemba's
//! format. It is the model for input, output and checking; turns act on it through the
//! permutations of [`crate::geometry`], independently of the cubie model.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::cubie::CubieCube;
use crate::error::CubeError;
use crate::geometry::{
    corner_colours, corner_facelets, edge_colours, edge_facelets, quarter_turn, Face, CORNER_NAMES,
    EDGE_NAMES,
};
use crate::moves::Move;
use crate::notation::{Turn, TurnKind};

/// The colours of the 54 facelets: face U's nine in reading order, then R, F, D, L, B.
///
/// ```
/// use frontier_cube::{Facelets, Move};
///
/// let mut cube = Facelets::SOLVED;
/// cube.apply(Move::parse_wca("R").unwrap());
/// assert_eq!(cube.to_string(), "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Facelets(pub(crate) [Face; 54]);

/// Which cubie shows the colours `shown` (a position's facelets, in the order of its name), and
/// turned by how much: the cubie `j` and orientation `ori` with `shown[(n + ori) % N]` equal to
/// the cubie's `n`-th colour for every `n`. `None` if no cubie has these colours.
fn identify<const N: usize>(shown: &[Face; N], colours: &[[Face; N]]) -> Option<(usize, usize)> {
    colours.iter().enumerate().find_map(|(j, cubie)| {
        (0..N)
            .find(|&ori| (0..N).all(|n| shown[(n + ori) % N] == cubie[n]))
            .map(|ori| (j, ori))
    })
}

/// The tables the facelet model is built on, derived from the geometry once.
struct Tables {
    /// The "comes from" permutation of each of the 18 face moves.
    moves: [[u8; 54]; 18],
    corner_facelets: [[u8; 3]; 8],
    edge_facelets: [[u8; 2]; 12],
    corner_colours: [[Face; 3]; 8],
    edge_colours: [[Face; 2]; 12],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        moves: std::array::from_fn(|m| {
            let mv = Move::ALL[m];
            let quarter = quarter_turn(mv.face(), crate::geometry::OUTER);
            power(&quarter, mv.quarter_turns())
        }),
        corner_facelets: corner_facelets(),
        edge_facelets: edge_facelets(),
        corner_colours: corner_colours(),
        edge_colours: edge_colours(),
    })
}

/// A "comes from" permutation applied `times` times.
fn power(perm: &[u8; 54], times: u8) -> [u8; 54] {
    let mut out: [u8; 54] = std::array::from_fn(|i| i as u8);
    for _ in 0..times {
        out = std::array::from_fn(|j| out[perm[j] as usize]);
    }
    out
}

impl Default for Facelets {
    fn default() -> Self {
        Self::SOLVED
    }
}

impl Facelets {
    /// The solved cube: every face its own colour.
    pub const SOLVED: Facelets = {
        let mut colours = [Face::U; 54];
        let mut i = 0;
        while i < 54 {
            colours[i] = Face::ALL[i / 9];
            i += 1;
        }
        Facelets(colours)
    };

    /// The colour of facelet `index` (0..54, URFDLB order), if in range.
    pub fn colour(&self, index: usize) -> Option<Face> {
        self.0.get(index).copied()
    }

    /// Turns one face (a permutation of the facelets, no cubie model involved).
    pub fn apply(&mut self, mv: Move) {
        self.permute(&tables().moves[mv.index()]);
    }

    /// Applies any turn: a face, wide or slice turn, or a rotation of the whole cube.
    pub fn apply_turn(&mut self, turn: Turn) {
        let (axis, layers) = turn.kind.axis_and_layers();
        let quarter = quarter_turn(axis, layers);
        self.permute(&power(&quarter, turn.quarters));
    }

    fn permute(&mut self, from: &[u8; 54]) {
        let old = self.0;
        for (new, &src) in self.0.iter_mut().zip(from) {
            *new = old[src as usize];
        }
    }

    /// The same cube seen from the orientation that puts every centre back on its face: after
    /// slice moves or rotations the cube is re-expressed relative to fixed centres. Returns
    /// `None` only if the centres are not those of a real cube (two equal, or mirrored).
    pub fn normalised(&self) -> Option<Facelets> {
        // The 24 orientations: bring any face up (6 ways), then turn about the vertical (4).
        let ups = [
            None,
            Some((TurnKind::Rotation(Face::R), 1)),
            Some((TurnKind::Rotation(Face::R), 2)),
            Some((TurnKind::Rotation(Face::R), 3)),
            Some((TurnKind::Rotation(Face::F), 1)),
            Some((TurnKind::Rotation(Face::F), 3)),
        ];
        for up in ups {
            let mut cube = *self;
            if let Some((kind, quarters)) = up {
                cube.apply_turn(Turn { kind, quarters });
            }
            for _ in 0..4 {
                if cube.centres_home() {
                    return Some(cube);
                }
                cube.apply_turn(Turn {
                    kind: TurnKind::Rotation(Face::U),
                    quarters: 1,
                });
            }
        }
        None
    }

    fn centres_home(&self) -> bool {
        Face::ALL.iter().all(|&f| self.0[f.index() * 9 + 4] == f)
    }

    /// Reads a 54-letter facelet string, checking only its letters and length. Whitespace
    /// between the letters is ignored (`UUUUUUUUU RRRRRRRRR ...`, a face a group); columns
    /// count every character from 1.
    fn parse_letters(text: &str) -> Result<Facelets, CubeError> {
        let letters: Vec<(usize, char)> = (text.chars().enumerate())
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, c)| (i + 1, c))
            .collect();
        // Six groups are six faces: each must hold nine letters, whatever the total.
        if let Some(short) = face_length(text) {
            return Err(short);
        }
        if letters.len() != 54 {
            return Err(CubeError::Length(letters.len()));
        }
        let mut colours = [Face::U; 54];
        for (slot, &(column, c)) in colours.iter_mut().zip(&letters) {
            *slot = Face::from_letter(c).ok_or(CubeError::Letter { column, found: c })?;
        }
        Ok(Facelets(colours))
    }

    /// The cubie model of this cube, or the reason it is not a solvable cube: wrong sticker
    /// counts, centres out of place, a corner or edge that cannot exist, a cubie twice, a
    /// twisted corner, a flipped edge, odd parity.
    pub fn to_cubie(&self) -> Result<CubieCube, CubeError> {
        for face in Face::ALL {
            let count = self.0.iter().filter(|&&c| c == face).count();
            if count != 9 {
                return Err(CubeError::StickerCount {
                    colour: face,
                    count,
                });
            }
        }
        for face in Face::ALL {
            let found = self.0[face.index() * 9 + 4];
            if found != face {
                return Err(CubeError::Centre { face, found });
            }
        }
        let t = tables();
        let mut cube = CubieCube::SOLVED;
        for i in 0..8 {
            let shown = t.corner_facelets[i].map(|f| self.0[f as usize]);
            let (j, ori) =
                identify(&shown, &t.corner_colours).ok_or_else(|| CubeError::NoSuchCorner {
                    position: CORNER_NAMES[i],
                    colours: shown.iter().map(|f| f.letter()).collect(),
                })?;
            cube.cp[i] = j as u8;
            cube.co[i] = ori as u8;
        }
        for i in 0..12 {
            let shown = t.edge_facelets[i].map(|f| self.0[f as usize]);
            let (j, ori) =
                identify(&shown, &t.edge_colours).ok_or_else(|| CubeError::NoSuchEdge {
                    position: EDGE_NAMES[i],
                    colours: shown.iter().map(|f| f.letter()).collect(),
                })?;
            cube.ep[i] = j as u8;
            cube.eo[i] = ori as u8;
        }
        cube.validate()?;
        Ok(cube)
    }

    /// The facelets of a cubie-model cube.
    pub fn from_cubie(cube: &CubieCube) -> Facelets {
        let t = tables();
        let mut out = Facelets::SOLVED;
        for i in 0..8 {
            let (j, ori) = (cube.cp[i] as usize, cube.co[i] as usize);
            for n in 0..3 {
                out.0[t.corner_facelets[i][(n + ori) % 3] as usize] = t.corner_colours[j][n];
            }
        }
        for i in 0..12 {
            let (j, ori) = (cube.ep[i] as usize, cube.eo[i] as usize);
            for n in 0..2 {
                out.0[t.edge_facelets[i][(n + ori) % 2] as usize] = t.edge_colours[j][n];
            }
        }
        out
    }

    /// The cube drawn as an unfolded net: U on top, then L F R B, then D. With `ansi`, each
    /// facelet is a block of its colour (ANSI escape codes); otherwise its face letter.
    ///
    /// ```
    /// use frontier_cube::Facelets;
    ///
    /// let net = Facelets::SOLVED.net(false);
    /// assert_eq!(net.lines().nth(4).unwrap(), "L L L F F F R R R B B B");
    /// ```
    pub fn net(&self, ansi: bool) -> String {
        let mut out = String::new();
        let cell = |out: &mut String, face: Face| {
            if ansi {
                out.push_str(ansi_block(face));
            } else {
                out.push(face.letter());
                out.push(' ');
            }
        };
        let row = |face: Face, r: usize| (0..3).map(move |c| self.0[face.index() * 9 + r * 3 + c]);
        for (faces, indent) in [
            (&[Face::U][..], true),
            (&[Face::L, Face::F, Face::R, Face::B][..], false),
            (&[Face::D][..], true),
        ] {
            for r in 0..3 {
                let mut line = String::new();
                if indent {
                    line.push_str("      ");
                }
                for &face in faces {
                    for colour in row(face, r) {
                        cell(&mut line, colour);
                    }
                }
                if !ansi {
                    line.truncate(line.trim_end().len());
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }
}

/// A two-character block of a face's colour: U white, R red, F green, D yellow, L orange,
/// B blue (the usual colour scheme).
fn ansi_block(face: Face) -> &'static str {
    match face {
        Face::U => "\x1b[48;5;15m  \x1b[0m",
        Face::R => "\x1b[48;5;160m  \x1b[0m",
        Face::F => "\x1b[48;5;34m  \x1b[0m",
        Face::D => "\x1b[48;5;226m  \x1b[0m",
        Face::L => "\x1b[48;5;208m  \x1b[0m",
        Face::B => "\x1b[48;5;27m  \x1b[0m",
    }
}

impl fmt::Display for Facelets {
    /// The 54-letter URFDLB string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for face in self.0 {
            write!(f, "{}", face.letter())?;
        }
        Ok(())
    }
}

/// When `text` is written as six whitespace-separated groups, one a face, the first group that
/// does not hold nine letters.
fn face_length(text: &str) -> Option<CubeError> {
    let mut groups = Vec::new();
    let mut column = 0;
    let mut start = None;
    for c in text.chars().chain(std::iter::once(' ')) {
        column += 1;
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(column),
            (true, Some(from)) => {
                groups.push((from, column - from));
                start = None;
            }
            _ => {}
        }
    }
    if groups.len() != 6 {
        return None;
    }
    let (face, &(column, count)) = (Face::ALL.iter().zip(&groups)).find(|(_, g)| g.1 != 9)?;
    Some(CubeError::FaceLength {
        face: *face,
        count,
        column,
    })
}

impl FromStr for Facelets {
    type Err = CubeError;

    /// Reads a 54-letter URFDLB string (whitespace between the letters ignored) and checks that
    /// it is a solvable cube.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let cube = Facelets::parse_letters(text)?;
        cube.to_cubie()?;
        Ok(cube)
    }
}

impl From<&CubieCube> for Facelets {
    fn from(cube: &CubieCube) -> Self {
        Facelets::from_cubie(cube)
    }
}

impl TryFrom<&Facelets> for CubieCube {
    type Error = CubeError;
    fn try_from(cube: &Facelets) -> Result<Self, Self::Error> {
        cube.to_cubie()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From the issue text (Kociemba's format): the cube after `R`.
    const AFTER_R: &str = "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB";

    #[test]
    fn solved_string_and_r() {
        assert_eq!(
            Facelets::SOLVED.to_string(),
            "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
        );
        let mut cube = Facelets::SOLVED;
        cube.apply(Move::parse_wca("R").unwrap());
        assert_eq!(cube.to_string(), AFTER_R);
        assert_eq!(AFTER_R.parse::<Facelets>(), Ok(cube));
    }

    #[test]
    fn refusals_name_the_reason() {
        let solved = Facelets::SOLVED.to_string();
        assert_eq!("UUU".parse::<Facelets>(), Err(CubeError::Length(3)));
        let bad = solved.replacen('R', "X", 1);
        assert_eq!(
            bad.parse::<Facelets>(),
            Err(CubeError::Letter {
                column: 10,
                found: 'X'
            })
        );
        // A face a group: whitespace between facelets is ignored, and columns count it.
        let faces: Vec<String> = (0..6)
            .map(|f| solved[f * 9..f * 9 + 9].to_owned())
            .collect();
        assert_eq!(faces.join(" ").parse::<Facelets>(), Ok(Facelets::SOLVED));
        assert_eq!(faces.join("\n  ").parse::<Facelets>(), Ok(Facelets::SOLVED));
        let mut bad = faces.clone();
        bad[1].replace_range(3..4, "'");
        assert_eq!(
            bad.join(" ").parse::<Facelets>().unwrap_err().to_string(),
            "facelet string, column 14: \"'\" is not a face letter (U R F D L B)"
        );
        // A group too short: which face, and where it starts.
        let mut short = faces.clone();
        short[2].pop();
        assert_eq!(
            short.join(" ").parse::<Facelets>(),
            Err(CubeError::FaceLength {
                face: Face::F,
                count: 8,
                column: 21
            })
        );
        // Groups of 8 and 10 letters make 54 all the same: the face is named (the colour
        // count was blamed).
        let mut uneven = faces.clone();
        let moved = uneven[0].pop().unwrap();
        uneven[1].insert(0, moved);
        assert_eq!(
            uneven.join(" ").parse::<Facelets>(),
            Err(CubeError::FaceLength {
                face: Face::U,
                count: 8,
                column: 1
            })
        );
        assert_eq!(
            "UUU".parse::<Facelets>().unwrap_err().to_string(),
            "the facelet string has 3 letters; it needs 54 (9 per face, faces in the order U R F D L B, spaces between them ignored)"
        );
        let ten_u = solved.replacen('R', "U", 1);
        assert!(matches!(
            ten_u.parse::<Facelets>(),
            Err(CubeError::StickerCount {
                colour: Face::U,
                count: 10
            })
        ));
        // Swap two centres: counts stay right.
        let mut chars: Vec<char> = solved.chars().collect();
        chars.swap(4, 13);
        let swapped: String = chars.iter().collect();
        assert!(matches!(
            swapped.parse::<Facelets>(),
            Err(CubeError::Centre { face: Face::U, .. })
        ));
        // Twist the URF corner in place: U9 R1 F3 become R F U.
        let mut chars: Vec<char> = solved.chars().collect();
        (chars[8], chars[9], chars[20]) = ('R', 'F', 'U');
        let twisted: String = chars.iter().collect();
        assert_eq!(
            twisted.parse::<Facelets>(),
            Err(CubeError::TwistedCorner(2))
        );
        // Flip the UR edge: U6 R2.
        let mut chars: Vec<char> = solved.chars().collect();
        chars.swap(5, 10);
        let flipped: String = chars.iter().collect();
        assert_eq!(flipped.parse::<Facelets>(), Err(CubeError::FlippedEdge));
        // Swap two edges UR and UF (both facelets).
        let mut chars: Vec<char> = solved.chars().collect();
        chars.swap(5, 7);
        chars.swap(10, 19);
        let swapped: String = chars.iter().collect();
        assert_eq!(swapped.parse::<Facelets>(), Err(CubeError::Parity));
        // Mirror the URF corner: U R F shown as U F R.
        let mut chars: Vec<char> = solved.chars().collect();
        chars.swap(9, 20);
        let mirrored: String = chars.iter().collect();
        assert!(matches!(
            mirrored.parse::<Facelets>(),
            Err(CubeError::NoSuchCorner {
                position: "URF",
                ..
            })
        ));
    }

    #[test]
    fn a_duplicated_cubie_is_named() {
        // Corners: URF twice instead of ULB; edges: BL twice instead of FR. Counts balance.
        let mut cube = Facelets::SOLVED;
        let t = tables();
        for n in 0..3 {
            cube.0[t.corner_facelets[2][n] as usize] = t.corner_colours[0][n];
        }
        for n in 0..2 {
            cube.0[t.edge_facelets[8][n] as usize] = t.edge_colours[10][n];
        }
        assert_eq!(cube.to_cubie(), Err(CubeError::DuplicateCorner("URF")));
    }

    #[test]
    fn the_net_has_nine_rows_in_letters_or_colours() {
        let mut cube = Facelets::SOLVED;
        cube.apply(Move::parse_wca("F").unwrap());
        let letters = cube.net(false);
        assert_eq!(letters.lines().count(), 9);
        assert!(!letters.contains('\x1b'));
        // After F, the bottom row of U shows L's colour.
        assert_eq!(letters.lines().nth(2).unwrap(), "      L L L");
        let colours = cube.net(true);
        assert_eq!(colours.lines().count(), 9);
        assert_eq!(colours.matches("\x1b[0m").count(), 54);
    }

    #[test]
    fn rotations_are_normalised_away() {
        let mut cube = Facelets::SOLVED;
        cube.apply_turn(Turn {
            kind: TurnKind::Rotation(Face::F),
            quarters: 1,
        });
        cube.apply_turn(Turn {
            kind: TurnKind::Rotation(Face::U),
            quarters: 3,
        });
        assert_ne!(cube, Facelets::SOLVED);
        assert_eq!(cube.normalised(), Some(Facelets::SOLVED));
    }
}
