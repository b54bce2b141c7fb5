//! What can be wrong with a puzzle file, and where.

use std::fmt;

use crate::rule::RuleErrorKind;

/// A place in a puzzle file: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Location {
    /// The location of byte `offset` in `source` (clamped to the end of the text).
    pub fn of_offset(source: &str, offset: usize) -> Location {
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &source[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Location { line, column }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Which side of the river.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bank {
    /// Where everyone starts (unless `[start]` says otherwise).
    Near,
    /// Where everyone must end up.
    Far,
}

impl Bank {
    /// `"near"` or `"far"`.
    pub fn name(self) -> &'static str {
        match self {
            Bank::Near => "near",
            Bank::Far => "far",
        }
    }

    /// The other bank.
    pub fn other(self) -> Bank {
        match self {
            Bank::Near => Bank::Far,
            Bank::Far => Bank::Near,
        }
    }
}

impl fmt::Display for Bank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn at(location: &Option<Location>) -> String {
    location.map_or(String::new(), |l| format!("{l}: "))
}

/// Everything that can be wrong with a river puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RiverError {
    /// The text is not valid TOML, or does not have the shape of a puzzle (a missing or unknown
    /// key, a value of the wrong type).
    #[error("{}{message}", at(.location))]
    Toml {
        /// Where, when the TOML parser knows.
        location: Option<Location>,
        /// What.
        message: String,
    },
    /// A value that is well-formed but not acceptable: an unknown rower, a capacity of 0, a count
    /// too large.
    #[error("{}{message}", at(.location))]
    Invalid {
        /// Where.
        location: Option<Location>,
        /// What.
        message: String,
    },
    /// The file passes one of the limits that keep reading it small ([`crate::MAX_ITEMS`],
    /// [`crate::MAX_RULE_CHARS`]), measured in its text before the TOML is read.
    #[error("{location}: {what}")]
    TooLarge {
        /// The line where the limit was passed.
        location: Location,
        /// Which limit, and what passed it.
        what: String,
    },
    /// A rule that does not parse.
    #[error(
        "{location}: {which} \"{}\", {}: {kind}",
        shorten(.rule),
        place_in_rule(.rule, *.rule_column)
    )]
    Rule {
        /// Where in the file the fault is (the rule's string, pointed at the column when the
        /// string holds no escapes).
        location: Location,
        /// `rule 2` or `boat rule 1`.
        which: String,
        /// The rule's text.
        rule: String,
        /// 1-based column inside the rule.
        rule_column: usize,
        /// What is wrong.
        kind: RuleErrorKind,
    },
    /// The start position already breaks a rule.
    #[error("{location}: the start is not safe: {which} \"{}\" fails on the {bank} bank", shorten(.rule))]
    UnsafeStart {
        /// Where the rule is written.
        location: Location,
        /// `rule 2`.
        which: String,
        /// The rule's text.
        rule: String,
        /// The bank where it fails.
        bank: Bank,
    },
    /// `Puzzle::preset` with a name that is not a preset.
    #[error("unknown preset `{name}` (presets: {known})")]
    UnknownPreset {
        /// The name asked for.
        name: String,
        /// The preset names, comma-separated.
        known: String,
    },
}

impl RiverError {
    /// Where in the file the error is, when it is tied to a place.
    pub fn location(&self) -> Option<Location> {
        match self {
            RiverError::Toml { location, .. } | RiverError::Invalid { location, .. } => *location,
            RiverError::Rule { location, .. } | RiverError::TooLarge { location, .. } => {
                Some(*location)
            }
            RiverError::UnsafeStart { location, .. } => Some(*location),
            RiverError::UnknownPreset { .. } => None,
        }
    }
}

/// A rule's text as quoted in a message: on one line (line breaks and tabs written as `\n`,
/// `\r`, `\t`), at most 80 characters, the rest elided (a rule may be megabytes long).
fn shorten(rule: &str) -> String {
    const MOST: usize = 80;
    let (kept, more) = match rule.char_indices().nth(MOST) {
        Some((cut, _)) => (&rule[..cut], "..."),
        None => (rule, ""),
    };
    let mut text = String::with_capacity(kept.len() + more.len());
    for c in kept.chars() {
        match c {
            '\n' => text.push_str("\\n"),
            '\r' => text.push_str("\\r"),
            '\t' => text.push_str("\\t"),
            c => text.push(c),
        }
    }
    text + more
}

/// Where character `column` (from 1) of a rule lies, as the message says it: `column 7`, or in
/// a rule written over several lines, `line 2, column 1` of the rule.
fn place_in_rule(rule: &str, column: usize) -> String {
    if !rule.contains('\n') {
        return format!("column {column}");
    }
    let before: String = rule.chars().take(column.saturating_sub(1)).collect();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}
