//! # frontier-river
//!
//! River-crossing puzzles that users describe in TOML: a cast of roles with counts (identical
//! people are one role with a count), a boat with a capacity and rowers, safety rules written as
//! expressions over the counts on a bank, optional crossing times and start banks. The seed's
//! puzzle and four classics ship as presets ([`PRESETS`]).
//!
//! A [`Puzzle`] is checked when it is read (TOML shape, names, counts, rule syntax, a safe
//! start), and every error says where it is, as `line:column`. A [`RiverSpace`] turns it into a
//! [`frontier_search::Space`]: a state is one `u64` (the counts on the near bank, packed, and the
//! boat's side), a move is one `u64` (the counts aboard). Any solver of `frontier-search` runs on
//! it:
//!
//! - `bfs` (or `bidirectional`, the space is [`frontier_search::Reversible`]) finds the fewest
//!   crossings;
//! - `ucs` and `astar` (with an admissible heuristic) find the quickest plan when roles have
//!   times: a trip takes as long as the slowest aboard;
//! - `dfs` finds the first plan in move order, as the seed's program does.
//!
//! ```
//! use frontier_river::{Puzzle, RiverSpace};
//! use frontier_search::{astar, bfs, Config, Status};
//!
//! let space = RiverSpace::new(Puzzle::preset("family").unwrap());
//! let plan = bfs(&space, &Config::default()).into_solution().unwrap();
//! assert_eq!(plan.len(), 17);
//! print!("{}", space.plan_text(&plan)); // " 1. --> police, prisoner   near: ... | far: ..."
//!
//! let torch = RiverSpace::new(Puzzle::preset("bridge-torch").unwrap());
//! assert_eq!(astar(&torch, &Config::default()).into_solution().unwrap().cost, 17);
//!
//! // Four missionaries and four cannibals cannot cross in a boat of two.
//! let four = Puzzle::from_toml(r#"
//!     rules = ["missionary -> missionary >= cannibal"]
//!     [roles]
//!     missionary = 4
//!     cannibal = 4
//!     [boat]
//!     capacity = 2
//! "#).unwrap();
//! let outcome = bfs(&RiverSpace::new(four), &Config::default());
//! assert_eq!(outcome.status(), Status::Exhausted);
//! ```
//!
//! ## The file format
//!
//! ```toml
//! name = "Family, police and prisoner"   # optional title
//! rules = ["father and girl -> mother"]  # must hold on both banks after every crossing
//!
//! [roles]                # file order is kept: it orders the output and dfs's move order
//! father = 1             # a count...
//! girl = 2
//! runner = { count = 1, time = 5 }   # ...or a table with a crossing time (default 1)
//! mother = { time = 2 }  # a table without a count stands for one person
//!
//! [boat]
//! capacity = 2           # at least 1
//! rowers = ["father"]    # optional; absent: everyone rows
//! rules = ["girl < 2"]   # optional: must hold for the people aboard
//! start = "near"         # optional: the bank the boat starts on
//!
//! [start]                # optional: "near", "far", or how many start on the near bank
//! girl = 1
//! ```
//!
//! The goal is everyone on the far bank. When any role has a `time`, a trip costs as long as the
//! slowest aboard and solvers minimise the total time; otherwise every trip costs 1. Each role
//! may count up to [`MAX_COUNT`]; the state is one `u64`, so the roles together may use 63 bits
//! (a role takes the bits of its count plus one), and the boat may carry at most [`MAX_LOADS`]
//! different groups. Checking one crossing (the bank rules' [steps](Rule::steps) on both banks,
//! for every group) may take at most [`MAX_CHECK_STEPS`], about a second, so that a search
//! stops near its timeout; so may checking the boat rules on every group, once. A start that
//! already breaks a rule is refused, naming the rule and the bank.
//!
//! ## The rule language
//!
//! See [`Rule`]: integers, role names (the count of that role on the bank, or aboard for boat
//! rules), `+ - * ( )`, comparisons `< <= == != >= >`, `and or not`, and `->` (implies, lowest
//! precedence, right-associative). A count used as a truth value is true when non-zero. Every
//! bank rule must hold on both banks after every crossing (the people in the boat count with the
//! bank they arrive at); boat rules must hold for the people aboard.

mod error;
mod presets;
mod puzzle;
mod rule;
mod space;

pub use error::{Bank, Location, RiverError};
pub use presets::{couples_toml, Preset, PRESETS};
pub use puzzle::{
    NamedRule, Puzzle, Role, MAX_CHECK_STEPS, MAX_COUNT, MAX_ITEMS, MAX_LOADS, MAX_RULES, MAX_TIME,
    MAX_TOTAL_RULE_NODES,
};
pub use rule::{Rule, RuleError, RuleErrorKind, MAX_RULE_CHARS, MAX_RULE_NODES};
pub use space::{RiverSpace, State, Trip};
