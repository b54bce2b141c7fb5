//! A river-crossing puzzle: its cast, its boat and its rules, read from TOML.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::error::{Bank, Location, RiverError};
use crate::rule::Rule;

/// The most people of one role.
pub const MAX_COUNT: u32 = 1_000_000;
/// The longest crossing time of one role.
pub const MAX_TIME: u64 = 1_000_000_000;
/// The most different boat loads a puzzle may allow (they are listed once, up front).
pub const MAX_LOADS: u64 = 1 << 21;
/// The most rule steps ([`Rule::steps`]) one crossing may take to check (the bank rules on
/// both banks, for every load), and listing the loads too (the boat rules, for every load).
/// About a second's work; past it a search could not stop at its timeout, since a crossing is
/// checked as a whole.
pub const MAX_CHECK_STEPS: u64 = 1 << 30;
/// The most rules in one list (`rules`, `boat.rules`).
pub const MAX_RULES: usize = 10_000;
/// The most instructions all the rules together compile to ([`crate::MAX_RULE_NODES`] is one
/// rule's limit): a few megabytes of code.
pub const MAX_TOTAL_RULE_NODES: usize = 1 << 20;
/// The most values, keys and brackets a puzzle file may hold, counted in its text before the
/// TOML is read: the TOML reader builds a tree of the whole document, at tens of bytes an item,
/// and a puzzle needs a few hundred (a rule is one string).
pub const MAX_ITEMS: usize = 100_000;
/// Bits of a state: one for the boat, and per role its count's bits plus one guard bit.
pub(crate) const STATE_BITS: u32 = 64;

/// One kind of person (or animal, or cabbage): identical people are one role with a count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Role {
    /// The name used in rules, rowers and output.
    pub name: String,
    /// How many people have this role.
    pub count: u32,
    /// Minutes (or any unit) this role needs to cross; a trip takes as long as the slowest
    /// aboard. 1 when not given.
    pub time: u64,
    /// Whether this role can row the boat.
    pub rows: bool,
    /// How many of them start on the near bank.
    pub start_near: u32,
}

/// A rule together with where it came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRule {
    /// `rule 2` or `boat rule 1` (1-based, in file order).
    pub which: String,
    /// The compiled rule.
    pub rule: Rule,
}

/// A validated river-crossing puzzle.
///
/// Built from TOML with [`Puzzle::from_toml`] or from a shipped preset with [`Puzzle::preset`];
/// every check (names, counts, rules, a safe start) is done then, so a `Puzzle` is always
/// searchable.
///
/// ```
/// use frontier_river::Puzzle;
///
/// let puzzle = Puzzle::from_toml(r#"
///     rules = ["goat and (wolf + cabbage) -> farmer"]
///     [roles]
///     farmer = 1
///     wolf = 1
///     goat = 1
///     cabbage = 1
///     [boat]
///     capacity = 2
///     rowers = ["farmer"]
/// "#).unwrap();
/// assert_eq!(puzzle.roles().len(), 4);
/// assert_eq!(puzzle.roles()[1].name, "wolf"); // file order is kept
///
/// let err = Puzzle::from_toml("[roles]\nfarmer = 1\n[boat]\ncapacity = 0\n").unwrap_err();
/// assert_eq!(err.to_string(), "4:12: the boat's capacity must be at least 1, not 0");
/// ```
#[derive(Clone, Debug)]
pub struct Puzzle {
    name: String,
    roles: Vec<Role>,
    capacity: u32,
    rules: Vec<NamedRule>,
    boat_rules: Vec<NamedRule>,
    boat_start: Bank,
    timed: bool,
}

impl Puzzle {
    /// Reads and checks a puzzle in the TOML format of `DESIGN.md`.
    ///
    /// The text is measured before the TOML is read ([`MAX_ITEMS`] values, keys and brackets,
    /// no string longer than [`crate::MAX_RULE_CHARS`]), and each rule list against
    /// [`MAX_RULES`] and [`MAX_TOTAL_RULE_NODES`] as it is compiled: a file past them is refused
    /// at the line where it passes, in about the time it takes to read it.
    pub fn from_toml(source: &str) -> Result<Puzzle, RiverError> {
        prescan(source)?;
        let doc: Doc = toml::from_str(source).map_err(|e| {
            let mut message = e.message().trim_end().to_string();
            // The toml crate says "duplicate key" without the key: name it, from the source.
            let key = e.span().and_then(|span| source.get(span));
            if let Some(key) = key.filter(|k| message == "duplicate key" && !k.contains('\n')) {
                message = format!("duplicate key `{key}`");
            }
            RiverError::Toml {
                location: e.span().map(|s| Location::of_offset(source, s.start)),
                message,
            }
        })?;
        Builder { source }.build(doc)
    }

    /// The puzzle's title (`name = ...`; empty when not given).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The roles, in file order.
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }

    /// The most people aboard at once.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The rules that must hold on both banks after every crossing.
    pub fn rules(&self) -> &[NamedRule] {
        &self.rules
    }

    /// The rules that must hold for the people aboard.
    pub fn boat_rules(&self) -> &[NamedRule] {
        &self.boat_rules
    }

    /// The bank the boat starts on.
    pub fn boat_start(&self) -> Bank {
        self.boat_start
    }

    /// Whether some role has a crossing time: then the cheapest plan is the quickest one, not
    /// the one with fewest crossings.
    pub fn is_timed(&self) -> bool {
        self.timed
    }

    /// The total number of people.
    pub fn people(&self) -> u64 {
        self.roles.iter().map(|r| u64::from(r.count)).sum()
    }

    /// The first bank rule that fails when role `r` counts `count(r)` on a bank.
    pub fn broken_rule(&self, count: impl Fn(usize) -> i64 + Copy) -> Option<&NamedRule> {
        self.rules.iter().find(|r| !r.rule.holds(count))
    }

    /// The first boat rule that fails when role `r` has `count(r)` people aboard.
    pub fn broken_boat_rule(&self, count: impl Fn(usize) -> i64 + Copy) -> Option<&NamedRule> {
        self.boat_rules.iter().find(|r| !r.rule.holds(count))
    }

    /// A rule that the goal itself breaks, and the bank where it does (everyone on the far bank,
    /// nobody on the near one): such a puzzle is unsolvable whatever the boat does.
    pub fn broken_goal_rule(&self) -> Option<(&NamedRule, Bank)> {
        if let Some(rule) = self.broken_rule(|_| 0) {
            return Some((rule, Bank::Near));
        }
        self.broken_rule(|r| i64::from(self.roles[r].count))
            .map(|rule| (rule, Bank::Far))
    }

    /// The number of different boat loads (non-empty, at most `capacity` people), before the
    /// rowers and boat rules are applied; saturates at [`MAX_LOADS`] + 1.
    pub fn load_count(&self) -> u64 {
        count_loads(self.roles.iter().map(|r| r.count), self.capacity, MAX_LOADS)
    }
}

/// Counts the multisets of 1..=capacity people drawn from roles of the given counts, up to
/// `limit`: the answer is exact when at most `limit`, and `limit + 1` otherwise.
fn count_loads(counts: impl Iterator<Item = u32>, capacity: u32, limit: u64) -> u64 {
    let counts: Vec<u32> = counts.collect();
    let people: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    let cap = u64::from(capacity).min(people);
    // There is at least one load of each size up to `cap`.
    if cap > limit {
        return limit + 1;
    }
    let cap = cap as usize;
    let clamp = u128::from(limit) + 1;
    // ways[k]: multisets of exactly k people from the roles seen so far, clamped at limit + 1
    // (clamping each term keeps "is the total above the limit" exact).
    let mut ways = vec![0u128; cap + 1];
    ways[0] = 1;
    let mut next = vec![0u128; cap + 1];
    for count in counts {
        let count = count as usize;
        // next[k] = ways[k] + ways[k-1] + ... + ways[k-count]: a sliding window.
        let mut window = 0u128;
        for k in 0..=cap {
            window += ways[k];
            if k > count {
                window -= ways[k - count - 1];
            }
            next[k] = window.min(clamp);
        }
        std::mem::swap(&mut ways, &mut next);
    }
    let total: u128 = ways[1..].iter().sum();
    total.min(clamp) as u64
}

/// The bits a count up to `count` needs (at least one).
pub(crate) fn width(count: u32) -> u32 {
    (32 - count.leading_zeros()).max(1)
}

// ---------------------------------------------------------------------------------------------
// The file's shape, as serde sees it.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    #[serde(default)]
    name: Option<Spanned<String>>,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    roles: Spanned<Entries<RoleSpec>>,
    boat: Spanned<BoatDoc>,
    #[serde(default)]
    start: Option<Entries<StartSpec>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoatDoc {
    capacity: Spanned<Whole>,
    #[serde(default)]
    rowers: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    #[serde(default)]
    start: Option<Spanned<String>>,
}

/// A TOML table read as a list of entries, keeping spans (re-sorted into file order later:
/// the TOML reader hands tables over sorted by key).
struct Entries<V>(Vec<(Spanned<String>, Spanned<V>)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Entries<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<V> {
            type Value = Entries<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    let value = map.next_value::<Spanned<V>>()?;
                    entries.push((key, value));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}

/// A number from the file in 64 bits: the largest (or smallest) if it does not fit.
fn saturated<T: TryInto<i64> + PartialOrd + Default + Copy>(v: T) -> i64 {
    v.try_into()
        .unwrap_or(if v < T::default() { i64::MIN } else { i64::MAX })
}

/// A whole number in the file. One too large (or small) for 64 bits is read as the largest (or
/// smallest), so that the range check of its field refuses it by name; anything else is
/// refused as "expected a whole number" (serde said "expected i64").
#[derive(Clone, Copy)]
struct Whole(i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WholeVisitor;
        impl Visitor<'_> for WholeVisitor {
            type Value = Whole;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Whole, E> {
                Ok(Whole(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Whole, E> {
                Ok(Whole(saturated(v)))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Whole, E> {
                Ok(Whole(saturated(v)))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Whole, E> {
                Ok(Whole(saturated(v)))
            }
        }
        deserializer.deserialize_any(WholeVisitor)
    }
}

/// `boy = 2` or `boy = { count = 2, time = 5 }`.
struct RoleSpec {
    count: Option<Spanned<Whole>>,
    time: Option<Spanned<Whole>>,
}

impl<'de> Deserialize<'de> for RoleSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RoleVisitor;
        impl<'de> Visitor<'de> for RoleVisitor {
            type Value = RoleSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a count (an integer) or a table like { count = 1, time = 5 }")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RoleSpec, E> {
                // The span is filled in from the entry's own span later.
                Ok(RoleSpec {
                    count: Some(Spanned::new(0..0, Whole(v))),
                    time: None,
                })
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RoleSpec, E> {
                self.visit_i64(saturated(v))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<RoleSpec, E> {
                self.visit_i64(saturated(v))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<RoleSpec, E> {
                self.visit_i64(saturated(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RoleSpec, A::Error> {
                let mut spec = RoleSpec {
                    count: None,
                    time: None,
                };
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "count" if spec.count.is_none() => spec.count = Some(map.next_value()?),
                        "time" if spec.time.is_none() => spec.time = Some(map.next_value()?),
                        "count" | "time" => return Err(de::Error::duplicate_field("count")),
                        other => return Err(de::Error::unknown_field(other, &["count", "time"])),
                    }
                }
                Ok(spec)
            }
        }
        deserializer.deserialize_any(RoleVisitor)
    }
}

/// `boy = "far"`, `boy = "near"` or `boy = 1` (how many start on the near bank).
enum StartSpec {
    Bank(String),
    Near(i64),
}

impl<'de> Deserialize<'de> for StartSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StartVisitor;
        impl Visitor<'_> for StartVisitor {
            type Value = StartSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"near\", \"far\", or how many start on the near bank")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StartSpec, E> {
                Ok(StartSpec::Near(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StartSpec, E> {
                Ok(StartSpec::Near(saturated(v)))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<StartSpec, E> {
                Ok(StartSpec::Near(saturated(v)))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<StartSpec, E> {
                Ok(StartSpec::Near(saturated(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StartSpec, E> {
                Ok(StartSpec::Bank(v.to_string()))
            }
        }
        deserializer.deserialize_any(StartVisitor)
    }
}

// ---------------------------------------------------------------------------------------------
// From the file's shape to a checked puzzle.

struct Builder<'s> {
    source: &'s str,
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
        && !matches!(name, "and" | "or" | "not")
}

impl Builder<'_> {
    /// The file's text at `span`, as written (a number too large for 64 bits included).
    fn text(&self, span: Range<usize>) -> &str {
        self.source.get(span).unwrap_or("").trim()
    }

    fn at(&self, span: Range<usize>) -> Option<Location> {
        Some(Location::of_offset(self.source, span.start))
    }

    fn invalid(&self, span: Range<usize>, message: String) -> RiverError {
        RiverError::Invalid {
            location: self.at(span),
            message,
        }
    }

    fn build(&self, doc: Doc) -> Result<Puzzle, RiverError> {
        let roles_span = doc.roles.span();
        let mut entries = doc.roles.into_inner().0;
        entries.sort_by_key(|(key, _)| key.span().start);
        if entries.is_empty() {
            return Err(self.invalid(roles_span, "[roles] lists no role".into()));
        }
        let mut roles = Vec::with_capacity(entries.len());
        let mut timed = false;
        for (key, value) in &entries {
            let name = key.get_ref();
            if !is_identifier(name) {
                return Err(self.invalid(
                    key.span(),
                    format!(
                        "role name `{name}` must be a word of letters, digits and `_` \
                         (not starting with a digit, not `and`, `or`, `not`) to be usable in rules"
                    ),
                ));
            }
            let spec = value.get_ref();
            let count = match &spec.count {
                None => 1,
                Some(c) => {
                    let span = if c.span() == (0..0) {
                        value.span()
                    } else {
                        c.span()
                    };
                    let v = c.get_ref().0;
                    if !(0..=i64::from(MAX_COUNT)).contains(&v) {
                        let v = self.text(span.clone());
                        return Err(self.invalid(
                            span,
                            format!(
                                "the count of `{name}` must be between 0 and {MAX_COUNT}, not {v}"
                            ),
                        ));
                    }
                    v as u32
                }
            };
            let time = match &spec.time {
                None => 1,
                Some(t) => {
                    let v = t.get_ref().0;
                    if !(1..=MAX_TIME as i64).contains(&v) {
                        let v = self.text(t.span());
                        return Err(self.invalid(
                            t.span(),
                            format!(
                                "the time of `{name}` must be between 1 and {MAX_TIME}, not {v}"
                            ),
                        ));
                    }
                    timed = true;
                    v as u64
                }
            };
            roles.push(Role {
                name: name.clone(),
                count,
                time,
                rows: true,
                start_near: count,
            });
        }
        let bits: u32 = 1 + roles.iter().map(|r| width(r.count) + 1).sum::<u32>();
        if bits > STATE_BITS {
            return Err(self.invalid(
                roles_span,
                format!(
                    "the roles' counts overflow the state: they need {bits} bits and {STATE_BITS} \
                     are available (each role takes the bits of its count plus one, and the \
                     boat's bank one more)"
                ),
            ));
        }
        let names: Vec<String> = roles.iter().map(|r| r.name.clone()).collect();

        // The boat.
        let boat = doc.boat.into_inner();
        let capacity = boat.capacity.get_ref().0;
        if capacity < 1 {
            return Err(self.invalid(
                boat.capacity.span(),
                format!("the boat's capacity must be at least 1, not {capacity}"),
            ));
        }
        let people: u64 = roles.iter().map(|r| u64::from(r.count)).sum();
        let capacity = u32::try_from(capacity.min(people.max(1) as i64)).unwrap_or(u32::MAX);
        if let Some(rowers) = &boat.rowers {
            if rowers.get_ref().is_empty() {
                return Err(self.invalid(
                    rowers.span(),
                    "`rowers` is empty: nobody could row the boat".into(),
                ));
            }
            for role in roles.iter_mut() {
                role.rows = false;
            }
            for rower in rowers.get_ref() {
                match names.iter().position(|n| n == rower.get_ref()) {
                    Some(i) => roles[i].rows = true,
                    None => {
                        return Err(self.invalid(
                            rower.span(),
                            format!(
                                "unknown role `{}` in rowers (roles: {})",
                                rower.get_ref(),
                                names.join(", ")
                            ),
                        ))
                    }
                }
            }
        }
        let boat_start = match &boat.start {
            None => Bank::Near,
            Some(s) => self.bank(s)?,
        };

        // Where everyone starts.
        if let Some(start) = doc.start {
            let mut entries = start.0;
            entries.sort_by_key(|(key, _)| key.span().start);
            for (key, value) in entries {
                let Some(i) = names.iter().position(|n| n == key.get_ref()) else {
                    return Err(self.invalid(
                        key.span(),
                        format!(
                            "unknown role `{}` in [start] (roles: {})",
                            key.get_ref(),
                            names.join(", ")
                        ),
                    ));
                };
                let count = roles[i].count;
                roles[i].start_near = match value.get_ref() {
                    StartSpec::Bank(b) => {
                        match self.bank(&Spanned::new(value.span(), b.clone()))? {
                            Bank::Near => count,
                            Bank::Far => 0,
                        }
                    }
                    StartSpec::Near(n) if (0..=i64::from(count)).contains(n) => *n as u32,
                    StartSpec::Near(n) if *n < 0 => {
                        return Err(self.invalid(
                            value.span(),
                            format!(
                                "how many `{}` start on the near bank must be 0 to {count}, \
                                 not {}",
                                key.get_ref(),
                                self.text(value.span())
                            ),
                        ));
                    }
                    StartSpec::Near(_) => {
                        return Err(self.invalid(
                            value.span(),
                            format!(
                                "{} `{}` cannot start on the near bank: there are {count}",
                                self.text(value.span()),
                                key.get_ref()
                            ),
                        ))
                    }
                };
            }
        }

        let rules = self.rules(&doc.rules, &names, "rule")?;
        let boat_rules = self.rules(&boat.rules, &names, "boat rule")?;
        // The title is printed as it is: a control character (an escape sequence) would
        // reach the user's terminal.
        if let Some(name) = &doc.name {
            let steers = |c: &char| {
                c.is_control()
                    || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            };
            if let Some(c) = name.get_ref().chars().find(steers) {
                return Err(self.invalid(
                    name.span(),
                    format!(
                        "the name holds a control or text-direction character (U+{:04X}); a \
                         title is one line of printable text",
                        u32::from(c)
                    ),
                ));
            }
        }

        let puzzle = Puzzle {
            name: doc.name.map(Spanned::into_inner).unwrap_or_default(),
            roles,
            capacity,
            rules,
            boat_rules,
            boat_start,
            timed,
        };
        let loads = puzzle.load_count();
        if loads > MAX_LOADS {
            return Err(self.invalid(
                boat.capacity.span(),
                format!(
                    "the boat could carry more than {MAX_LOADS} different groups, too many to \
                     list: lower the capacity or the counts"
                ),
            ));
        }
        // The bank rules are checked on both banks for every load at each crossing; the boat
        // rules once for every load, when the loads are listed. Either is pointed at its
        // longest rule, the one to shorten first.
        let checks = [
            (&doc.rules, &puzzle.rules, 2, "a crossing"),
            (
                &boat.rules,
                &puzzle.boat_rules,
                1,
                "listing the boat's loads",
            ),
        ];
        for (texts, rules, banks, when) in checks {
            let per_load = banks * rules.iter().map(|r| r.rule.steps() as u64).sum::<u64>();
            let check = loads.saturating_mul(per_load);
            if check > MAX_CHECK_STEPS {
                let longest = (texts.iter().zip(rules.iter()))
                    .rev()
                    .max_by_key(|(_, named)| named.rule.steps())
                    .map_or(0..0, |(text, _)| text.span());
                return Err(self.invalid(
                    longest,
                    format!(
                        "the rules are too long to check: {per_load} steps for each of {loads} \
                         boat loads make {check} steps for {when}, more than {MAX_CHECK_STEPS}; \
                         shorten the rules or lower the capacity"
                    ),
                ));
            }
        }
        for bank in [Bank::Near, Bank::Far] {
            let on = |r: usize| {
                let role = &puzzle.roles[r];
                i64::from(match bank {
                    Bank::Near => role.start_near,
                    Bank::Far => role.count - role.start_near,
                })
            };
            if let Some(broken) = puzzle.broken_rule(on) {
                let index = puzzle.rules.iter().position(|r| std::ptr::eq(r, broken));
                let span = index.and_then(|i| doc.rules.get(i)).map(Spanned::span);
                return Err(RiverError::UnsafeStart {
                    location: Location::of_offset(self.source, span.map_or(0, |s| s.start)),
                    which: broken.which.clone(),
                    rule: broken.rule.source().to_string(),
                    bank,
                });
            }
        }
        Ok(puzzle)
    }

    fn bank(&self, value: &Spanned<String>) -> Result<Bank, RiverError> {
        match value.get_ref().as_str() {
            "near" => Ok(Bank::Near),
            "far" => Ok(Bank::Far),
            other => Err(self.invalid(
                value.span(),
                format!("expected \"near\" or \"far\", not \"{other}\""),
            )),
        }
    }

    fn rules(
        &self,
        rules: &[Spanned<String>],
        names: &[String],
        label: &str,
    ) -> Result<Vec<NamedRule>, RiverError> {
        if let Some(past) = rules.get(MAX_RULES) {
            return Err(self.invalid(
                past.span(),
                format!("more than {MAX_RULES} {label}s: a puzzle needs far fewer"),
            ));
        }
        let mut out = Vec::with_capacity(rules.len());
        let mut nodes = 0;
        for (i, text) in rules.iter().enumerate() {
            let which = format!("{label} {}", i + 1);
            let rule = Rule::parse(text.get_ref(), names).map_err(|e| {
                let location = place_in_string(self.source, text.span(), text.get_ref(), e.column);
                RiverError::Rule {
                    location,
                    which: which.clone(),
                    rule: text.get_ref().clone(),
                    rule_column: e.column,
                    kind: e.kind,
                }
            })?;
            nodes += rule.steps();
            if nodes > MAX_TOTAL_RULE_NODES {
                return Err(self.invalid(
                    text.span(),
                    format!(
                        "the {label}s up to {which} compile to more than {MAX_TOTAL_RULE_NODES} \
                         instructions: shorten them"
                    ),
                ));
            }
            out.push(NamedRule { which, rule });
        }
        Ok(out)
    }
}

/// Measures a puzzle file's text before the TOML reader builds its tree: refuses more than
/// [`MAX_ITEMS`] values, keys and brackets, or a string longer than
/// [`crate::MAX_RULE_CHARS`] characters (as written, escapes included), at the line where the
/// limit is passed. It reads strings and comments as TOML does, so that what they hold is not
/// counted; text that is not TOML is left to the reader, which says what is wrong.
fn prescan(source: &str) -> Result<(), RiverError> {
    let bytes = source.as_bytes();
    let (mut at, mut items) = (0, 0usize);
    let too_many = |offset: usize| RiverError::TooLarge {
        location: Location::of_offset(source, offset),
        what: format!(
            "more than {MAX_ITEMS} values, keys and brackets by here; a river puzzle needs far \
             fewer (at most {MAX_RULES} rules a list)"
        ),
    };
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'#' => {
                at += bytes[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(bytes.len() - at);
                continue;
            }
            b'"' | b'\'' => {
                let opening = at;
                let quote = if bytes[at..].starts_with(&[byte; 3]) {
                    3
                } else {
                    1
                };
                let mut chars = 0usize;
                at += quote;
                while let Some(&b) = bytes.get(at) {
                    if bytes[at..].starts_with(&[byte; 3][..quote]) {
                        at += quote;
                        break;
                    }
                    if b == b'\n' && quote == 1 {
                        break;
                    }
                    // Only basic strings (") have escapes; an escaped quote does not end one.
                    if b == b'\\' && byte == b'"' {
                        at += 1;
                        chars += 1;
                    }
                    at += 1;
                    chars += usize::from(b & 0xC0 != 0x80);
                    if chars > crate::MAX_RULE_CHARS {
                        return Err(RiverError::TooLarge {
                            location: Location::of_offset(source, opening),
                            what: format!(
                                "this string is longer than {} characters; no rule or name is \
                                 that long",
                                crate::MAX_RULE_CHARS
                            ),
                        });
                    }
                }
                items += 1;
                if items > MAX_ITEMS {
                    return Err(too_many(opening));
                }
                continue;
            }
            b',' | b'=' | b'[' | b'{' | b'.' => {
                items += 1;
                if items > MAX_ITEMS {
                    return Err(too_many(at));
                }
            }
            _ => {}
        }
        at += 1;
    }
    Ok(())
}

/// Where in `source` the character `column` (from 1; one past the end is allowed) of a string
/// value lies, when the value is written in the file as it reads (no escapes; a multi-line
/// string's first line break aside); else the string's start, its quote.
fn place_in_string(
    source: &str,
    span: std::ops::Range<usize>,
    value: &str,
    column: usize,
) -> Location {
    let raw = source.get(span.clone()).unwrap_or("");
    // Triple quotes first: `"""` also starts with `"`. Only basic strings (`"`) have escapes.
    for (quote, escapes) in [("\"\"\"", true), ("'''", false), ("\"", true), ("'", false)] {
        let Some(inner) = raw.strip_prefix(quote).and_then(|r| r.strip_suffix(quote)) else {
            continue;
        };
        // A multi-line string drops a line break right after its opening quotes.
        let skip = match quote.len() {
            3 if inner.starts_with("\r\n") => 2,
            3 if inner.starts_with('\n') => 1,
            _ => 0,
        };
        let body = &inner[skip..];
        if body == value && !(escapes && body.contains('\\')) {
            let at = body
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(body.len(), |(i, _)| i);
            return Location::of_offset(source, span.start + quote.len() + skip + at);
        }
        break;
    }
    Location::of_offset(source, span.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_error_points_into_the_file_when_the_rule_reads_as_written() {
        // `source` holds one string, from its first quote to its last, whose value is `value`.
        let place = |source: &str, value: &str, column| {
            let start = source.find(['"', '\'']).unwrap();
            let end = source.rfind(['"', '\'']).unwrap() + 1;
            place_in_string(source, start..end, value, column)
        };
        let at = |line, column| Location { line, column };
        assert_eq!(place("r = \"a and b\"", "a and b", 7), at(1, 12));
        assert_eq!(place("r = 'a and b'", "a and b", 7), at(1, 12));
        // One past the end: just before the closing quote.
        assert_eq!(place("r = \"a b\"", "a b", 4), at(1, 9));
        // Multi-line: the line break after the opening quotes is not part of the value.
        assert_eq!(place("r = \"\"\"\na and\nb\"\"\"", "a and\nb", 7), at(3, 1));
        assert_eq!(place("r = '''a and\nb'''", "a and\nb", 7), at(2, 1));
        // An escape moves the characters: the string's start is all that is sure.
        assert_eq!(place("r = \"a\\tb c\"", "a\tb c", 5), at(1, 5));
    }

    #[test]
    fn load_counts() {
        // 3 distinct people, boat of 2: 3 singles + 3 pairs.
        let big = u64::MAX - 1;
        assert_eq!(count_loads([1, 1, 1].into_iter(), 2, big), 6);
        // 3 and 3, boat of 2: {m, c, mm, cc, mc}.
        assert_eq!(count_loads([3, 3].into_iter(), 2, big), 5);
        // 20 distinct people, boat of 4: C(20,1..4).
        assert_eq!(
            count_loads([1; 20].into_iter(), 4, big),
            20 + 190 + 1140 + 4845
        );
        assert_eq!(count_loads([1; 30].into_iter(), 30, big), (1 << 30) - 1);
        assert_eq!(count_loads([1; 30].into_iter(), 30, 1000), 1001);
        // A capacity beyond the people changes nothing.
        assert_eq!(count_loads([2, 1].into_iter(), 99, big), 5);
        // Huge counts are counted quickly and clamped.
        assert_eq!(
            count_loads([MAX_COUNT; 3].into_iter(), 3 * MAX_COUNT, MAX_LOADS),
            MAX_LOADS + 1
        );
    }

    #[test]
    fn the_documented_format_reads() {
        let text = r#"
name = "Doc"
rules = ["father and girl -> mother"]
[roles]
father = 1
girl = 2
runner = { count = 1, time = 5 }
mother = { time = 2 }
[boat]
capacity = 2
rowers = ["father", "mother"]
rules = ["girl < 2"]
start = "far"
[start]
girl = 1
father = "far"
mother = "far"
"#;
        let p = Puzzle::from_toml(text).unwrap();
        assert_eq!(p.name(), "Doc");
        let names: Vec<&str> = p.roles().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["father", "girl", "runner", "mother"]);
        assert_eq!(p.roles()[2].time, 5);
        assert_eq!(p.roles()[3].count, 1);
        assert_eq!(p.roles()[0].time, 1);
        assert!(p.is_timed());
        assert_eq!(p.boat_start(), Bank::Far);
        let near: Vec<u32> = p.roles().iter().map(|r| r.start_near).collect();
        assert_eq!(near, [0, 1, 1, 0]);
        let rows: Vec<bool> = p.roles().iter().map(|r| r.rows).collect();
        assert_eq!(rows, [true, false, false, true]);
        assert_eq!(p.rules().len(), 1);
        assert_eq!(p.boat_rules()[0].which, "boat rule 1");
    }

    #[test]
    fn files_past_the_limits_are_refused_at_the_line_before_toml_reads_them() {
        let tail = "]\n[roles]\na = 1\n[boat]\ncapacity = 1\n";
        // Many short rules, one a line: refused at the line where the items pass the limit
        // (a string and a comma each).
        let many = format!("rules = [\n{}{tail}", "\"a\",\n".repeat(MAX_ITEMS));
        match Puzzle::from_toml(&many).unwrap_err() {
            RiverError::TooLarge { location, what } => {
                assert_eq!(
                    (location.line, location.column),
                    (MAX_ITEMS / 2 + 1, 1),
                    "{what}"
                );
                assert!(what.contains(&MAX_ITEMS.to_string()), "{what}");
            }
            other => panic!("{other}"),
        }
        // A long string, on line 2: refused by its length, whatever it holds.
        let long = format!(
            "# a comment \"\nrules = [\"{}\"{tail}",
            "a+".repeat(crate::MAX_RULE_CHARS)
        );
        let e = Puzzle::from_toml(&long).unwrap_err();
        assert!(
            matches!(
                e,
                RiverError::TooLarge {
                    location: Location { line: 2, .. },
                    ..
                }
            ),
            "{e}"
        );
        // What strings and comments hold is not counted: commas inside one are a string's.
        let quoted = format!(
            "# {}\nrules = [\"{}a\", '{}', '''{}'''{tail}",
            ",".repeat(MAX_ITEMS),
            "1,".repeat(MAX_ITEMS / 4),
            "[".repeat(MAX_ITEMS / 2),
            "=".repeat(MAX_ITEMS / 2)
        );
        assert!(!matches!(
            Puzzle::from_toml(&quoted),
            Err(RiverError::TooLarge { .. })
        ));
        // An escaped quote does not end a string.
        let half = ",".repeat(MAX_ITEMS / 2 + 1);
        let escaped = format!("rules = [\"a \\\" {half}\", \"\\\" {half}\"{tail}");
        assert!(!matches!(
            Puzzle::from_toml(&escaped),
            Err(RiverError::TooLarge { .. })
        ));
        // More rules than a list may hold (within the item limit): the first one past it named.
        let rules = format!("rules = [{}{tail}", "\"a\",".repeat(MAX_RULES + 1));
        let e = Puzzle::from_toml(&rules).unwrap_err().to_string();
        let at = format!("1:{}: more than {MAX_RULES} rules", 10 + 4 * MAX_RULES);
        assert!(e.starts_with(&at), "{e}");
        // Rules within each limit, too many instructions together.
        let rule = format!("\"a{}\",", " + a".repeat(crate::MAX_RULE_NODES / 2 - 1));
        let count = MAX_TOTAL_RULE_NODES / crate::MAX_RULE_NODES + 2;
        let heavy = format!("rules = [{}{tail}", rule.repeat(count));
        let e = Puzzle::from_toml(&heavy).unwrap_err().to_string();
        let says = format!("compile to more than {MAX_TOTAL_RULE_NODES} instructions");
        assert!(e.contains(&says), "{e}");
    }

    #[test]
    fn bad_values_say_where() {
        let err = |text: &str| Puzzle::from_toml(text).unwrap_err().to_string();
        let base = "[roles]\na = 2\n[boat]\ncapacity = 1\n";
        assert_eq!(
            err(&format!("{base}[start]\na = 99999999999999999999\n")),
            "6:5: 99999999999999999999 `a` cannot start on the near bank: there are 2"
        );
        assert_eq!(
            err(&format!("{base}[start]\na = -1\n")),
            "6:5: how many `a` start on the near bank must be 0 to 2, not -1"
        );
        // Not a number, or too large for any: said in words, not in Rust's types.
        assert_eq!(
            err("[roles]\na = 2\n[boat]\ncapacity = true\n"),
            "4:12: invalid type: boolean `true`, expected a whole number"
        );
        assert_eq!(
            err("[roles]\na = { time = 99999999999999999999 }\n[boat]\ncapacity = 1\n"),
            "2:14: the time of `a` must be between 1 and 1000000000, not 99999999999999999999"
        );
        assert_eq!(
            err("[roles]\na = -99999999999999999999\n[boat]\ncapacity = 1\n"),
            "2:5: the count of `a` must be between 0 and 1000000, not -99999999999999999999"
        );
        assert_eq!(
            err(&format!("{base}[start]\na = 3\n")),
            "6:5: 3 `a` cannot start on the near bank: there are 2"
        );
        assert_eq!(
            err(&format!("{base}[start]\nb = \"far\"\n")),
            "6:1: unknown role `b` in [start] (roles: a)"
        );
        assert_eq!(
            err(&format!("{base}[start]\na = \"left\"\n")),
            "6:5: expected \"near\" or \"far\", not \"left\""
        );
        assert!(
            err("[roles]\n\"two words\" = 1\n[boat]\ncapacity = 1\n").starts_with("2:1: role name")
        );
        assert!(err("[roles]\nand = 1\n[boat]\ncapacity = 1\n").starts_with("2:1: role name"));
        let escape = err("name = \"a\\u001b[31mred\"\n[roles]\na = 1\n[boat]\ncapacity = 1\n");
        assert!(
            escape
                .starts_with("1:8: the name holds a control or text-direction character (U+001B)"),
            "{escape}"
        );
        let reversal = err("name = \"x\\u202ey\"\n[roles]\na = 1\n[boat]\ncapacity = 1\n");
        assert!(reversal.contains("(U+202E)"), "{reversal}");
        assert!(err("[roles]\n[boat]\ncapacity = 1\n").contains("lists no role"));
        assert_eq!(
            err("[roles]\na = 1\n[boat]\ncapacity = 1\nrowers = []\n"),
            "5:10: `rowers` is empty: nobody could row the boat"
        );
        // A rule written with escapes is pointed at its string, with the column in the rule.
        assert_eq!(
            err("rules = [\"a \\u0026 b\"]\n[roles]\na = 1\n[boat]\ncapacity = 1\n"),
            "1:10: rule 1 \"a & b\", column 3: unexpected character `&`"
        );
    }

    #[test]
    fn a_goal_that_breaks_a_rule_is_named() {
        let p = Puzzle::from_toml(
            "rules = [\"a < 2\"]\n[roles]\na = 2\n[start]\na = 1\n[boat]\ncapacity = 1\n",
        )
        .unwrap();
        let (rule, bank) = p.broken_goal_rule().unwrap();
        assert_eq!((rule.which.as_str(), bank), ("rule 1", Bank::Far));
        assert!(Puzzle::preset("family")
            .unwrap()
            .broken_goal_rule()
            .is_none());
    }

    #[test]
    fn widths() {
        assert_eq!(width(0), 1);
        assert_eq!(width(1), 1);
        assert_eq!(width(2), 2);
        assert_eq!(width(3), 2);
        assert_eq!(width(4), 3);
        assert_eq!(width(MAX_COUNT), 20);
    }

    #[test]
    fn rules_too_long_to_check_in_a_second_are_refused_where_they_are_longest() {
        // Nine roles of three and a boat for all: 4^9 - 1 = 262,143 loads, each checked on
        // both banks. A search checks a crossing as a whole, so such rules would keep it from
        // its timeout for a minute (50,000 terms: 53 s past a 1 s timeout).
        let puzzle = |terms: usize| {
            let sum = vec!["r0"; terms].join(" + ");
            let roles: String = (0..9).map(|i| format!("r{i} = 3\n")).collect();
            format!(
                "rules = [\"r1 >= 0\", \"{sum} >= 0\"]\n[roles]\n{roles}[boat]\ncapacity = 27\n"
            )
        };
        let refused = Puzzle::from_toml(&puzzle(2000)).unwrap_err().to_string();
        assert!(
            refused.starts_with(
                "1:21: the rules are too long to check: 8008 steps for each of 262143 boat loads"
            ),
            "{refused}"
        );
        let accepted = Puzzle::from_toml(&puzzle(100)).unwrap();
        assert_eq!(accepted.load_count(), 262_143);
        // Boat rules are checked once a load, when the loads are listed, not at each crossing:
        // 15 jealous couples in a boat of 6 (a million loads under long boat rules) pass.
        let couples = Puzzle::from_toml(&crate::couples_toml(15, 6));
        assert!(couples.is_ok(), "{couples:?}");
    }
}
