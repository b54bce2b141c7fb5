//! The search space of a puzzle: packed states, precomputed boat loads, and the transitions.

use std::fmt::{self, Write as _};
use std::sync::atomic::{AtomicU8, Ordering};

use frontier_search::{Cost, Reversible, Solution, Space, Words};
use unicode_width::UnicodeWidthStr;

use crate::error::Bank;
use crate::puzzle::{width, Puzzle};

/// A position: how many of each role stand on the near bank, and where the boat is.
///
/// Bit 0 is the boat (1 = far bank); each role owns a field of the bits of its count plus one
/// guard bit, so a whole bank is compared and updated with one integer operation. The far bank is
/// the totals minus the near bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(u64);

impl State {
    /// The packed encoding (see the type's documentation).
    pub fn bits(self) -> u64 {
        self.0
    }
}

/// The packed encoding, for a distributed exploration.
impl Words for State {
    const WORDS: usize = 1;
    #[inline]
    fn put(&self, out: &mut Vec<u64>) {
        out.push(self.0);
    }
    #[inline]
    fn take(words: &[u64]) -> Self {
        State(words[0])
    }
}

/// A crossing: how many of each role are aboard, packed like a bank of [`State`]. The direction
/// follows from the state it is played in (trips alternate, starting from the boat's bank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Trip(u64);

impl Trip {
    /// The packed counts aboard.
    pub fn bits(self) -> u64 {
        self.0
    }
}

/// A [`Puzzle`] as a search space for the `frontier-search` solvers.
///
/// Successors scan a precomputed list of every load the boat may carry (at least one rower, at
/// most `capacity` people, the boat rules hold); a load fits on a bank when one subtraction leaves
/// every guard bit set. Loads are listed by size, then in role order, so `dfs` tries single
/// crossers first, as the seed's program does.
///
/// ```
/// use frontier_river::{Puzzle, RiverSpace};
/// use frontier_search::{bfs, Config};
///
/// let space = RiverSpace::new(Puzzle::preset("wolf-goat-cabbage").unwrap());
/// let plan = bfs(&space, &Config::default()).into_solution().unwrap();
/// assert_eq!(plan.len(), 7);
/// assert_eq!(space.trip_names(plan.moves[0]), ["farmer", "goat"]);
/// ```
#[derive(Clone, Debug)]
pub struct RiverSpace {
    puzzle: Puzzle,
    shifts: Vec<u32>,
    masks: Vec<u64>,
    guards: u64,
    total: u64,
    start: State,
    loads: Vec<Trip>,
    min_time: u64,
    memo: Option<Memo>,
}

/// The most bank configurations whose safety is remembered (2 bits each: 16 MiB).
const MEMO_ENTRIES: u64 = 1 << 26;

/// Remembered bank safety, indexed by a bank's mixed-radix rank (role `r` weighs the product of
/// `count + 1` of the roles before it). Ranks are linear in the counts, so the rank of a bank
/// after a trip is one subtraction away: successors cost O(1) per fitting load once the rules
/// have been evaluated for that bank configuration. Entries are filled lazily, with atomics so
/// parallel solvers can share the space: 0 unknown, 1 safe, 2 unsafe.
struct Memo {
    radix: Vec<u64>,
    total_rank: u64,
    load_ranks: Vec<u64>,
    table: Vec<AtomicU8>,
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo {
            radix: self.radix.clone(),
            total_rank: self.total_rank,
            load_ranks: self.load_ranks.clone(),
            table: self
                .table
                .iter()
                .map(|b| AtomicU8::new(b.load(Ordering::Relaxed)))
                .collect(),
        }
    }
}

impl fmt::Debug for Memo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Memo")
            .field("entries", &(self.table.len() * 4))
            .finish()
    }
}

impl RiverSpace {
    /// Lays out the state and lists the boat's possible loads.
    pub fn new(puzzle: Puzzle) -> RiverSpace {
        let mut shifts = Vec::with_capacity(puzzle.roles().len());
        let mut masks = Vec::with_capacity(puzzle.roles().len());
        let mut guards = 0u64;
        let mut total = 0u64;
        let mut start = 0u64;
        let mut shift = 1u32;
        for role in puzzle.roles() {
            let w = width(role.count);
            shifts.push(shift);
            masks.push((1u64 << w) - 1);
            guards |= 1u64 << (shift + w);
            total |= u64::from(role.count) << shift;
            start |= u64::from(role.start_near) << shift;
            shift += w + 1;
        }
        if puzzle.boat_start() == Bank::Far {
            start |= 1;
        }
        let min_time = puzzle.roles().iter().map(|r| r.time).min().unwrap_or(1);
        let mut space = RiverSpace {
            puzzle,
            shifts,
            masks,
            guards,
            total,
            start: State(start),
            loads: Vec::new(),
            min_time,
            memo: None,
        };
        space.loads = space.list_loads();
        space.memo = space.build_memo();
        space
    }

    /// The same space without the safety memo: every bank check evaluates the rules. Slower; for
    /// measuring what the memo buys, and for tests.
    pub fn without_memo(mut self) -> RiverSpace {
        self.memo = None;
        self
    }

    /// The safety memo, when the puzzle has rules and few enough bank configurations.
    fn build_memo(&self) -> Option<Memo> {
        if self.puzzle.rules().is_empty() {
            return None;
        }
        let mut radix = Vec::with_capacity(self.shifts.len());
        let mut entries = 1u64;
        for role in self.puzzle.roles() {
            radix.push(entries);
            entries = entries.checked_mul(u64::from(role.count) + 1)?;
            if entries > MEMO_ENTRIES {
                return None;
            }
        }
        let mut memo = Memo {
            radix,
            total_rank: 0,
            load_ranks: Vec::new(),
            table: (0..entries.div_ceil(4)).map(|_| AtomicU8::new(0)).collect(),
        };
        memo.total_rank = self.rank(&memo, self.total);
        memo.load_ranks = self.loads.iter().map(|t| self.rank(&memo, t.0)).collect();
        Some(memo)
    }

    /// The mixed-radix rank of a packed bank.
    #[inline]
    fn rank(&self, memo: &Memo, bank: u64) -> u64 {
        memo.radix
            .iter()
            .enumerate()
            .map(|(r, &weight)| self.field(bank, r) * weight)
            .sum()
    }

    /// Whether the bank of rank `rank` (packed as `bank`) is safe, from the memo or the rules.
    #[inline]
    fn safe_ranked(&self, memo: &Memo, rank: u64, bank: u64) -> bool {
        let cell = &memo.table[(rank / 4) as usize];
        let shift = (rank % 4) * 2;
        match (cell.load(Ordering::Relaxed) >> shift) & 3 {
            1 => true,
            2 => false,
            _ => {
                let safe = self.safe(bank);
                cell.fetch_or(if safe { 1 } else { 2 } << shift, Ordering::Relaxed);
                safe
            }
        }
    }

    /// The puzzle this space searches.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// Every load the boat may carry, in the order successors are generated.
    pub fn loads(&self) -> &[Trip] {
        &self.loads
    }

    /// The field of role `r` in a packed bank or trip.
    #[inline]
    fn field(&self, word: u64, r: usize) -> u64 {
        (word >> self.shifts[r]) & self.masks[r]
    }

    /// How many of role `r` stand on `bank` in `state`.
    pub fn count(&self, state: State, bank: Bank, r: usize) -> u32 {
        let near = self.field(state.0, r);
        (match bank {
            Bank::Near => near,
            Bank::Far => self.field(self.total, r) - near,
        }) as u32
    }

    /// How many of role `r` are aboard in `trip`.
    pub fn aboard(&self, trip: Trip, r: usize) -> u32 {
        self.field(trip.0, r) as u32
    }

    /// The bank the boat is at in `state`.
    pub fn boat(&self, state: State) -> Bank {
        if state.0 & 1 == 1 {
            Bank::Far
        } else {
            Bank::Near
        }
    }

    /// The state with `near[r]` people of role `r` on the near bank and the boat at `boat`, if
    /// the counts are within the roles' totals.
    pub fn state(&self, near: &[u32], boat: Bank) -> Option<State> {
        if near.len() != self.shifts.len() {
            return None;
        }
        let mut word = u64::from(boat == Bank::Far);
        for (r, &n) in near.iter().enumerate() {
            if n > self.puzzle.roles()[r].count {
                return None;
            }
            word |= u64::from(n) << self.shifts[r];
        }
        Some(State(word))
    }

    /// The role names aboard, a name repeated for each person of that role: `["boy", "boy"]`.
    pub fn trip_names(&self, trip: Trip) -> Vec<&str> {
        let mut names = Vec::new();
        for (r, role) in self.puzzle.roles().iter().enumerate() {
            for _ in 0..self.aboard(trip, r) {
                names.push(role.name.as_str());
            }
        }
        names
    }

    /// How long `trip` takes: the slowest aboard (1 when the puzzle has no times).
    pub fn trip_time(&self, trip: Trip) -> Cost {
        let mut time = 0;
        for (r, role) in self.puzzle.roles().iter().enumerate() {
            if self.field(trip.0, r) != 0 {
                time = time.max(role.time);
            }
        }
        time
    }

    /// Who stands on `bank`: `father, boy×2, mother`, or `nobody`.
    pub fn bank_text(&self, state: State, bank: Bank) -> String {
        self.people_text(|r| self.count(state, bank, r))
    }

    /// Who crosses on `trip`, as a bank is written: `boy×2`, `father, mother`.
    pub fn trip_text(&self, trip: Trip) -> String {
        self.people_text(|r| self.aboard(trip, r))
    }

    /// The roles with `count(role)` people each, in the puzzle's order: `father, boy×2`, or
    /// `nobody`.
    fn people_text(&self, count: impl Fn(usize) -> u32) -> String {
        let mut text = String::new();
        for (r, role) in self.puzzle.roles().iter().enumerate() {
            let n = count(r);
            if n == 0 {
                continue;
            }
            if !text.is_empty() {
                text.push_str(", ");
            }
            text.push_str(&role.name);
            if n > 1 {
                let _ = write!(text, "×{n}");
            }
        }
        if text.is_empty() {
            text.push_str("nobody");
        }
        text
    }

    /// The seed's printout, one line per trip: the direction (`-->` from the near bank, `<--`
    /// back), who crosses, and then who stands on each bank.
    pub fn plan_text(&self, plan: &Solution<State, Trip>) -> String {
        let mut out = String::new();
        let crossers: Vec<String> = plan.moves.iter().map(|&t| self.trip_text(t)).collect();
        let times: Vec<String> = plan
            .moves
            .iter()
            .map(|&t| match self.puzzle.is_timed() {
                true => format!("  ({})", self.trip_time(t)),
                false => String::new(),
            })
            .collect();
        // Columns on a terminal, not characters: 狼 takes two.
        let wide = crossers.iter().map(|c| c.width()).max().unwrap_or(0);
        let wide_time = times.iter().map(String::len).max().unwrap_or(0);
        let digits = plan.moves.len().to_string().len();
        let banks = |state: State| {
            format!(
                "near: {} | far: {}",
                self.bank_text(state, Bank::Near),
                self.bank_text(state, Bank::Far)
            )
        };
        if let Some(&first) = plan.states.first() {
            let _ = writeln!(
                out,
                "{:>digits$}  {:<w$}   {}",
                "",
                "start",
                banks(first),
                w = wide + wide_time + 4
            );
        }
        for (i, (who, time)) in crossers.iter().zip(&times).enumerate() {
            let arrow = match self.boat(plan.states[i]) {
                Bank::Near => "-->",
                Bank::Far => "<--",
            };
            let pad = wide - who.width();
            let _ = writeln!(
                out,
                "{:>digits$}. {arrow} {who}{:pad$}{time:<wide_time$}   {}",
                i + 1,
                "",
                banks(plan.states[i + 1])
            );
        }
        out
    }

    /// Whether every bank rule holds for a packed bank.
    #[inline]
    fn safe(&self, bank: u64) -> bool {
        self.puzzle
            .rules()
            .iter()
            .all(|r| r.rule.holds(|role| self.field(bank, role) as i64))
    }

    /// The boat's possible loads: size first, then role order (non-decreasing role sequences in
    /// lexicographic order: more of the first role first), keeping those with a rower that
    /// satisfy the boat rules. The recursion is over roles, never over people, so its depth is
    /// bounded by the number of roles whatever the counts.
    fn list_loads(&self) -> Vec<Trip> {
        let roles = self.puzzle.roles();
        // room[r]: how many people the roles from r on can hold.
        let mut room = vec![0u64; roles.len() + 1];
        for r in (0..roles.len()).rev() {
            room[r] = room[r + 1] + u64::from(roles[r].count);
        }
        let mut loads = Vec::new();
        let mut taken = vec![0u32; roles.len()];
        for size in 1..=self.puzzle.capacity() {
            self.extend_loads(0, size, &room, &mut taken, &mut loads);
        }
        loads
    }

    fn extend_loads(
        &self,
        r: usize,
        left: u32,
        room: &[u64],
        taken: &mut [u32],
        loads: &mut Vec<Trip>,
    ) {
        let roles = self.puzzle.roles();
        if r == roles.len() {
            let rower = roles
                .iter()
                .zip(taken.iter())
                .any(|(r, &n)| n > 0 && r.rows);
            if rower
                && self
                    .puzzle
                    .broken_boat_rule(|r| i64::from(taken[r]))
                    .is_none()
            {
                let word = taken
                    .iter()
                    .enumerate()
                    .fold(0u64, |w, (r, &n)| w | (u64::from(n) << self.shifts[r]));
                loads.push(Trip(word));
            }
            return;
        }
        for take in (0..=roles[r].count.min(left)).rev() {
            if room[r + 1] < u64::from(left - take) {
                break; // fewer of this role leave even more for the rest: no room either
            }
            taken[r] = take;
            self.extend_loads(r + 1, left - take, room, taken, loads);
        }
        taken[r] = 0;
    }

    /// Every safe crossing out of `state`. Crossings are undoable, so these are also the
    /// predecessors.
    #[inline]
    fn neighbours(&self, state: State, mut out: impl FnMut(Trip, State)) {
        let near = state.0 & !1;
        let at_far = state.0 & 1 == 1;
        let here = if at_far { self.total - near } else { near };
        let guarded = here | self.guards;
        let Some(memo) = &self.memo else {
            for &trip in &self.loads {
                let left = guarded.wrapping_sub(trip.0);
                if left & self.guards != self.guards {
                    continue; // not enough people of some role on this bank
                }
                let left = left & !self.guards;
                let there = self.total - left;
                if self.safe(left) && self.safe(there) {
                    out(trip, State(if at_far { there } else { left | 1 }));
                }
            }
            return;
        };
        let here_rank = self.rank(memo, here);
        for (&trip, &trip_rank) in self.loads.iter().zip(&memo.load_ranks) {
            let left = guarded.wrapping_sub(trip.0);
            if left & self.guards != self.guards {
                continue;
            }
            let left = left & !self.guards;
            let there = self.total - left;
            let left_rank = here_rank - trip_rank;
            let there_rank = memo.total_rank - left_rank;
            if self.safe_ranked(memo, left_rank, left) && self.safe_ranked(memo, there_rank, there)
            {
                out(trip, State(if at_far { there } else { left | 1 }));
            }
        }
    }

    /// People on the near bank, and the slowest of them.
    fn near_people(&self, state: State) -> (u64, u64) {
        let mut people = 0;
        let mut slowest = 0;
        for (r, role) in self.puzzle.roles().iter().enumerate() {
            let n = self.field(state.0, r);
            if n > 0 {
                people += n;
                slowest = slowest.max(role.time);
            }
        }
        (people, slowest)
    }
}

/// The fewest trips that can bring `people` from the near bank to the far one with a boat of
/// `capacity`, the boat starting near: each forward trip carries at most `capacity`, each return
/// brings at least one back, so `f` forward trips move at most `f * (capacity - 1) + 1` people.
fn fewest_trips(people: u64, capacity: u64) -> u64 {
    if people == 0 {
        return 0;
    }
    let forward = if capacity <= 1 {
        1
    } else {
        (people - 1).div_ceil(capacity - 1).max(1)
    };
    2 * forward - 1
}

impl Space for RiverSpace {
    type State = State;
    type Move = Trip;

    fn start(&self) -> State {
        self.start
    }

    fn is_goal(&self, state: &State) -> bool {
        state.0 & !1 == 0
    }

    fn successors(&self, state: &State, _last: Option<&Trip>, out: impl FnMut(Trip, State)) {
        self.neighbours(*state, out);
    }

    /// Every trip can be undone: the same people row back (they include a rower and satisfy
    /// the boat's rules), and the state they return to was safe (the start is checked too).
    fn undirected(&self) -> bool {
        true
    }

    fn step_cost(&self, _from: &State, trip: &Trip) -> Cost {
        if self.puzzle.is_timed() {
            self.trip_time(*trip)
        } else {
            1
        }
    }

    /// A trip takes as long as its slowest rower, so at most the slowest role's time.
    fn max_step_cost(&self) -> Option<Cost> {
        if self.puzzle.is_timed() {
            self.puzzle.roles().iter().map(|role| role.time).max()
        } else {
            Some(1)
        }
    }

    /// Admissible: at least `fewest_trips` trips remain (one more when the boat must first come
    /// back), each taking at least the quickest role's time; and the slowest person still on the
    /// near bank must cross once, after that return trip if there is one.
    fn heuristic(&self, state: &State) -> Cost {
        let (people, slowest) = self.near_people(*state);
        if people == 0 {
            return 0;
        }
        let capacity = u64::from(self.puzzle.capacity());
        let back = state.0 & 1;
        let trips = back + fewest_trips(people + back, capacity);
        if !self.puzzle.is_timed() {
            return trips;
        }
        (trips * self.min_time).max(slowest + back * self.min_time)
    }
}

impl Reversible for RiverSpace {
    fn goals(&self) -> Vec<State> {
        let mut goals = Vec::new();
        if self.is_goal(&self.start) {
            goals.push(self.start);
        }
        // Everyone across, with the boat that brought the last of them.
        if self.safe(0) && self.safe(self.total) && self.start != State(1) {
            goals.push(State(1));
        }
        goals
    }

    fn predecessors(&self, state: &State, out: impl FnMut(Trip, State)) {
        self.neighbours(*state, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::couples_toml;
    use std::collections::{HashSet, VecDeque};

    #[test]
    fn trips_and_banks_count_people_alike() {
        // Missionaries and cannibals (3 each, boat of 2): two cannibals cross together.
        let space = RiverSpace::new(Puzzle::preset("missionaries").unwrap());
        let plan = frontier_search::bfs(&space, &frontier_search::Config::default());
        let text = space.plan_text(&plan.into_solution().unwrap());
        assert!(text.contains("--> cannibal×2 "), "{text}");
        assert!(!text.contains("cannibal, cannibal"), "{text}");
        assert!(text.contains("near: missionary×3, cannibal×3"), "{text}");
    }

    #[test]
    fn the_plan_lines_up_names_that_take_two_columns() {
        // Padded by characters, 狼 (two columns on a terminal) pushed its row's banks out.
        let text = r#"
            name = "农夫过河"
            rules = ["狼 and 山羊 -> 农夫", "山羊 and 白菜 -> 农夫"]
            [roles]
            "农夫" = 1
            "狼" = 1
            "山羊" = 1
            "白菜" = 1
            [boat]
            capacity = 2
            rowers = ["农夫"]
        "#;
        let space = RiverSpace::new(Puzzle::from_toml(text).unwrap());
        let plan = frontier_search::bfs(&space, &frontier_search::Config::default());
        let lines = space.plan_text(&plan.into_solution().unwrap());
        let columns: HashSet<usize> = (lines.lines())
            .map(|line| line[..line.find("near:").unwrap()].width())
            .collect();
        assert_eq!(columns.len(), 1, "{lines}");
    }

    fn all_successors(space: &RiverSpace, state: State) -> Vec<(Trip, State)> {
        let mut out = Vec::new();
        space.successors(&state, None, |t, s| out.push((t, s)));
        out
    }

    /// The memo is only a cache: with and without it, every reachable state has the same
    /// successors, in the same order.
    #[test]
    fn the_safety_memo_changes_nothing() {
        for text in [
            couples_toml(5, 3),
            "rules = [\"a -> a >= b + c\"]\n[roles]\na = 4\nb = 2\nc = 2\n[boat]\ncapacity = 3\n"
                .to_string(),
        ] {
            let memo = RiverSpace::new(Puzzle::from_toml(&text).unwrap());
            assert!(memo.memo.is_some());
            let mut plain = memo.clone();
            plain.memo = None;
            let mut seen = HashSet::from([memo.start()]);
            let mut queue = VecDeque::from([memo.start()]);
            while let Some(state) = queue.pop_front() {
                let next = all_successors(&memo, state);
                assert_eq!(next, all_successors(&plain, state));
                for (_, s) in next {
                    if seen.insert(s) {
                        queue.push_back(s);
                    }
                }
            }
            assert!(seen.len() > 20);
        }
    }

    #[test]
    fn huge_counts_go_without_a_memo() {
        let text = "rules = [\"a -> a >= b\"]\n[roles]\na = 1000\nb = 1000\nc = 1000\n[boat]\ncapacity = 2\n";
        let space = RiverSpace::new(Puzzle::from_toml(text).unwrap());
        assert!(space.memo.is_none());
        assert!(!all_successors(&space, space.start()).is_empty());
    }

    #[test]
    fn a_million_in_one_boat_is_listed_without_deep_recursion() {
        let text = "[roles]\na = 1000000\n[boat]\ncapacity = 1000000\n";
        let space = RiverSpace::new(Puzzle::from_toml(text).unwrap());
        assert_eq!(space.loads().len(), 1_000_000);
        assert_eq!(space.aboard(space.loads()[999_999], 0), 1_000_000);
    }

    #[test]
    fn loads_come_by_size_then_role_order() {
        let text = "[roles]\na = 2\nb = 1\nc = 1\n[boat]\ncapacity = 2\n";
        let space = RiverSpace::new(Puzzle::from_toml(text).unwrap());
        let names: Vec<String> = space
            .loads()
            .iter()
            .map(|&t| space.trip_names(t).join("+"))
            .collect();
        assert_eq!(names, ["a", "b", "c", "a+a", "a+b", "a+c", "b+c"]);
    }

    #[test]
    fn fewest_trips_bounds() {
        assert_eq!(fewest_trips(0, 2), 0);
        assert_eq!(fewest_trips(1, 2), 1);
        assert_eq!(fewest_trips(2, 2), 1);
        // Missionaries: 6 people, boat of 2 need 5 forward trips, 9 in all (11 with the rules).
        assert_eq!(fewest_trips(6, 2), 9);
        assert_eq!(fewest_trips(4, 2), 5); // bridge and torch: 5 crossings
        assert_eq!(fewest_trips(5, 1), 1); // unsolvable anyway; any bound will do
    }
}
