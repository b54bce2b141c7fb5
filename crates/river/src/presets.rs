//! The puzzles that ship with frontier, each a TOML file under `presets/` so users can copy one.

use crate::error::RiverError;
use crate::puzzle::Puzzle;

/// A shipped puzzle: its name on the command line and its TOML source.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name `frontier river NAME` accepts.
    pub name: &'static str,
    /// The TOML text.
    pub source: &'static str,
}

/// Every preset, in the order `frontier river --list` shows them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "family",
        source: include_str!("../presets/family.toml"),
    },
    Preset {
        name: "wolf-goat-cabbage",
        source: include_str!("../presets/wolf-goat-cabbage.toml"),
    },
    Preset {
        name: "missionaries",
        source: include_str!("../presets/missionaries.toml"),
    },
    Preset {
        name: "jealous-husbands",
        source: include_str!("../presets/jealous-husbands.toml"),
    },
    Preset {
        name: "bridge-torch",
        source: include_str!("../presets/bridge-torch.toml"),
    },
];

impl Preset {
    /// The preset called `name`.
    pub fn find(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }
}

impl Puzzle {
    /// The shipped puzzle called `name` (see [`PRESETS`]).
    pub fn preset(name: &str) -> Result<Puzzle, RiverError> {
        match Preset::find(name) {
            Some(preset) => Puzzle::from_toml(preset.source),
            None => Err(RiverError::UnknownPreset {
                name: name.to_string(),
                known: PRESETS
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}
