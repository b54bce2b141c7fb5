//! The puzzles that ship with the crate, as `.perm` texts.

use crate::puzzle::Puzzle;

/// A preset: its name, what it is, and its `.perm` text.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name it is asked for by.
    pub name: &'static str,
    /// One line on what it is.
    pub about: &'static str,
    /// Its `.perm` text.
    pub text: &'static str,
}

impl Preset {
    /// The puzzle.
    pub fn puzzle(&self) -> Puzzle {
        Puzzle::parse(self.name, self.text).expect("the presets parse")
    }
}

/// Every preset, in the order `--list` shows them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "cube3",
        about: "3x3x3 Rubik's cube, 48 facets numbered as GAP and Sage do (the seed's)",
        text: include_str!("../presets/cube3.perm"),
    },
    Preset {
        name: "cube2",
        about: "2x2x2 cube, 24 corner facets, turns U R F (one corner fixed)",
        text: include_str!("../presets/cube2.perm"),
    },
    Preset {
        name: "pyraminx",
        about: "Pyraminx with its tips, 36 facets",
        text: include_str!("../presets/pyraminx.perm"),
    },
    Preset {
        name: "skewb",
        about: "Skewb, 30 facets, turns around four non-adjacent corners",
        text: include_str!("../presets/skewb.perm"),
    },
    Preset {
        name: "megaminx",
        about: "Megaminx, 120 facets (centres fixed)",
        text: include_str!("../presets/megaminx.perm"),
    },
    Preset {
        name: "topspin",
        about: "TopSpin, 20 tokens, turntable of 4",
        text: include_str!("../presets/topspin.perm"),
    },
    Preset {
        name: "topspin10",
        about: "TopSpin, 10 tokens, turntable of 4",
        text: include_str!("../presets/topspin10.perm"),
    },
];

/// The preset called `name`, if there is one.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}
