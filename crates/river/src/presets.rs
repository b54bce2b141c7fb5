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

/// The jealous-husbands puzzle generalised: `couples` couples (husband `hN`, wife `wN`) and a
/// boat of `capacity`; no wife may be with another man, on a bank or aboard, unless her husband
/// is there. `couples_toml(3, 2)` is the `jealous-husbands` preset. Used to make large puzzles.
///
/// ```
/// use frontier_river::{couples_toml, Puzzle};
///
/// let puzzle = Puzzle::from_toml(&couples_toml(4, 3)).unwrap();
/// assert_eq!(puzzle.people(), 8);
/// ```
pub fn couples_toml(couples: usize, capacity: u32) -> String {
    let rule = |i: usize| {
        let others: Vec<String> = (1..=couples)
            .filter(|&j| j != i)
            .map(|j| format!("h{j}"))
            .collect();
        let others = if others.is_empty() {
            "0".to_string()
        } else {
            others.join(" + ")
        };
        format!("  \"w{i} and not h{i} -> not ({others})\",\n")
    };
    let rules: String = (1..=couples).map(rule).collect();
    let roles: String = (1..=couples)
        .map(|i| format!("h{i} = 1\nw{i} = 1\n"))
        .collect();
    format!(
        "name = \"Jealous husbands, {couples} couples, boat of {capacity}\"\nrules = [\n{rules}]\n\n\
         [roles]\n{roles}\n[boat]\ncapacity = {capacity}\nrules = [\n{rules}]\n"
    )
}

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
