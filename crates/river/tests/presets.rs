//! The presets against published minimums, each plan replayed by a checker that knows the
//! puzzles' rules natively (it never uses the crate's rule language), and the minimums confirmed
//! by the checker's own brute-force search.

use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet, VecDeque};

use frontier_river::{Bank, Puzzle, RiverSpace, State, Trip};
use frontier_search::{
    astar, bfs, bidirectional, dfs, explore, iddfs, ucs, Config, Outcome, Status,
};

/// Counts per role name on one bank (or in the boat).
type Group = BTreeMap<&'static str, i64>;

/// A river puzzle as the checker understands it: plain Rust, independent of the crate.
struct Model {
    people: Vec<(&'static str, i64, u64)>, // name, count, crossing time
    capacity: i64,
    rowers: Vec<&'static str>,
    bank_ok: fn(&Group) -> bool,
    boat_ok: fn(&Group) -> bool,
}

fn n(g: &Group, role: &str) -> i64 {
    g.get(role).copied().unwrap_or(0)
}

fn always(_: &Group) -> bool {
    true
}

fn family() -> Model {
    Model {
        people: vec![
            ("father", 1, 1),
            ("mother", 1, 1),
            ("boy", 2, 1),
            ("girl", 2, 1),
            ("police", 1, 1),
            ("prisoner", 1, 1),
        ],
        capacity: 2,
        rowers: vec!["father", "mother", "police"],
        // The seed's canShareBank: fatherOk, motherOk, prisonerOk.
        bank_ok: |g| {
            let on = |r| n(g, r) > 0;
            let father_ok = !on("father") || on("mother") || !on("girl");
            let mother_ok = !on("mother") || on("father") || !on("boy");
            let alone = g.values().sum::<i64>() == n(g, "prisoner");
            let prisoner_ok = !on("prisoner") || on("police") || alone;
            father_ok && mother_ok && prisoner_ok
        },
        boat_ok: always,
    }
}

fn wolf_goat_cabbage() -> Model {
    Model {
        people: vec![
            ("farmer", 1, 1),
            ("wolf", 1, 1),
            ("goat", 1, 1),
            ("cabbage", 1, 1),
        ],
        capacity: 2,
        rowers: vec!["farmer"],
        bank_ok: |g| {
            n(g, "farmer") > 0 || !(n(g, "goat") > 0 && (n(g, "wolf") > 0 || n(g, "cabbage") > 0))
        },
        boat_ok: always,
    }
}

fn missionaries(each: i64) -> Model {
    Model {
        people: vec![("missionary", each, 1), ("cannibal", each, 1)],
        capacity: 2,
        rowers: vec!["missionary", "cannibal"],
        bank_ok: |g| n(g, "missionary") == 0 || n(g, "missionary") >= n(g, "cannibal"),
        boat_ok: always,
    }
}

fn jealous_husbands() -> Model {
    // No wife with another man unless her husband is there.
    fn ok(g: &Group) -> bool {
        let husbands = ["h1", "h2", "h3"];
        let wives = ["w1", "w2", "w3"];
        (0..3).all(|i| {
            n(g, wives[i]) == 0
                || n(g, husbands[i]) > 0
                || (0..3).all(|j| j == i || n(g, husbands[j]) == 0)
        })
    }
    Model {
        people: ["h1", "w1", "h2", "w2", "h3", "w3"]
            .iter()
            .map(|&p| (p, 1, 1))
            .collect(),
        capacity: 2,
        rowers: vec!["h1", "w1", "h2", "w2", "h3", "w3"],
        bank_ok: ok,
        boat_ok: ok,
    }
}

fn bridge_torch() -> Model {
    Model {
        people: vec![("p1", 1, 1), ("p2", 1, 2), ("p5", 1, 5), ("p10", 1, 10)],
        capacity: 2,
        rowers: vec!["p1", "p2", "p5", "p10"],
        bank_ok: always,
        boat_ok: always,
    }
}

impl Model {
    fn total(&self) -> Group {
        self.people.iter().map(|&(p, c, _)| (p, c)).collect()
    }

    fn time(&self, role: &str) -> u64 {
        self.people.iter().find(|p| p.0 == role).unwrap().2
    }

    /// Plays one trip from `near` (people on the near bank) with the boat at `boat_far`;
    /// returns the new near bank and the trip's time, or why the trip is illegal.
    fn cross(&self, near: &Group, boat_far: bool, aboard: &Group) -> Result<(Group, u64), String> {
        let total = self.total();
        let people: i64 = aboard.values().sum();
        if people == 0 || people > self.capacity {
            return Err(format!("{people} aboard"));
        }
        if !aboard
            .iter()
            .any(|(r, &c)| c > 0 && self.rowers.contains(r))
        {
            return Err("nobody rows".into());
        }
        if !(self.boat_ok)(aboard) {
            return Err("the boat breaks a rule".into());
        }
        let mut next = near.clone();
        for (&r, &c) in aboard {
            let here = if boat_far {
                total[r] - n(near, r)
            } else {
                n(near, r)
            };
            if c > here {
                return Err(format!("not enough {r} on the bank"));
            }
            *next.entry(r).or_insert(0) += if boat_far { c } else { -c };
        }
        let far: Group = total.iter().map(|(&r, &c)| (r, c - n(&next, r))).collect();
        if !(self.bank_ok)(&next) || !(self.bank_ok)(&far) {
            return Err("a bank breaks a rule".into());
        }
        let time = aboard
            .iter()
            .filter(|(_, &c)| c > 0)
            .map(|(r, _)| self.time(r))
            .max()
            .unwrap();
        Ok((next, time))
    }

    /// Replays `trips` (role names aboard, as the JSON output gives them) from the start; returns
    /// the total time, panicking with the reason if any trip is illegal or the end is no goal.
    fn replay(&self, trips: &[Vec<String>]) -> u64 {
        let mut near = self.total();
        let mut boat_far = false;
        let mut time = 0;
        for (i, trip) in trips.iter().enumerate() {
            let mut aboard = Group::new();
            for who in trip {
                let name = self
                    .people
                    .iter()
                    .find(|p| p.0 == who)
                    .expect("a known role")
                    .0;
                *aboard.entry(name).or_insert(0) += 1;
            }
            let (next, t) = self
                .cross(&near, boat_far, &aboard)
                .unwrap_or_else(|why| panic!("trip {} {trip:?} is illegal: {why}", i + 1));
            near = next;
            boat_far = !boat_far;
            time += t;
        }
        assert!(
            near.values().all(|&c| c == 0),
            "people left behind: {near:?}"
        );
        time
    }

    /// Every group the boat could carry.
    fn loads(&self) -> Vec<Group> {
        let mut loads = vec![Group::new()];
        for &(p, c, _) in &self.people {
            let mut more = Vec::new();
            for load in &loads {
                for k in 0..=c {
                    let mut l = load.clone();
                    l.insert(p, k);
                    more.push(l);
                }
            }
            loads = more;
        }
        loads
            .into_iter()
            .filter(|l| (1..=self.capacity).contains(&l.values().sum()))
            .collect()
    }

    /// Dijkstra over the checker's own states: the least number of trips (unit) or time, or
    /// `Err(reachable states)` when the far bank cannot be reached.
    fn optimum(&self, timed: bool) -> Result<u64, usize> {
        let loads = self.loads();
        let key = |near: &Group, far: bool| (near.values().copied().collect::<Vec<_>>(), far);
        let mut best: HashMap<(Vec<i64>, bool), u64> = HashMap::new();
        let mut heap = BinaryHeap::new();
        let start = self.total();
        best.insert(key(&start, false), 0);
        heap.push(std::cmp::Reverse((
            0u64,
            start.values().copied().collect::<Vec<_>>(),
            false,
        )));
        let names: Vec<&'static str> = start.keys().copied().collect();
        let mut answer = None;
        while let Some(std::cmp::Reverse((cost, counts, far))) = heap.pop() {
            if best[&(counts.clone(), far)] < cost {
                continue;
            }
            if counts.iter().all(|&c| c == 0) {
                answer.get_or_insert(cost);
                continue;
            }
            let near: Group = names.iter().copied().zip(counts.iter().copied()).collect();
            for load in &loads {
                if let Ok((next, t)) = self.cross(&near, far, load) {
                    let c = cost + if timed { t } else { 1 };
                    let k = key(&next, !far);
                    if best.get(&k).is_none_or(|&old| c < old) {
                        best.insert(k.clone(), c);
                        heap.push(std::cmp::Reverse((c, k.0, k.1)));
                    }
                }
            }
        }
        answer.ok_or(best.len())
    }
}

fn space(preset: &str) -> RiverSpace {
    RiverSpace::new(Puzzle::preset(preset).unwrap())
}

/// The plan's trips as role names, as `--json` prints them.
fn names(space: &RiverSpace, outcome: &Outcome<State, Trip>) -> Vec<Vec<String>> {
    let plan = outcome.solution().expect("solved");
    plan.moves
        .iter()
        .map(|&t| space.trip_names(t).into_iter().map(String::from).collect())
        .collect()
}

/// Solves `preset` with bfs (or astar when timed), replays the plan with the checker, and checks
/// the length or time against `published` and against the checker's own optimum.
fn check_preset(preset: &str, model: Model, published: u64) {
    let space = space(preset);
    let timed = space.puzzle().is_timed();
    let outcome = if timed {
        astar(&space, &Config::default())
    } else {
        bfs(&space, &Config::default())
    };
    assert_eq!(outcome.status(), Status::Solved);
    let trips = names(&space, &outcome);
    let time = model.replay(&trips);
    let plan = outcome.solution().unwrap();
    if timed {
        assert_eq!(time, published, "{preset}: total time");
        assert_eq!(plan.cost, published);
    } else {
        assert_eq!(trips.len() as u64, published, "{preset}: crossings");
        assert_eq!(plan.cost, published);
    }
    assert_eq!(
        model.optimum(timed),
        Ok(published),
        "{preset}: the checker's own optimum"
    );

    // The plan's states agree with the replay, step by step.
    let mut near = model.total();
    for (i, &trip) in plan.moves.iter().enumerate() {
        let state = plan.states[i];
        for (r, role) in space.puzzle().roles().iter().enumerate() {
            assert_eq!(
                i64::from(space.count(state, Bank::Near, r)),
                n(&near, &role.name)
            );
        }
        let aboard: Group = space
            .puzzle()
            .roles()
            .iter()
            .enumerate()
            .map(|(r, role)| -> (&'static str, i64) {
                (
                    model.people.iter().find(|p| p.0 == role.name).unwrap().0,
                    i64::from(space.aboard(trip, r)),
                )
            })
            .collect();
        near = model.cross(&near, i % 2 == 1, &aboard).unwrap().0;
    }

    // Every solver agrees, and every plan replays.
    let config = Config::default();
    if !timed {
        for (name, other) in [
            ("bidirectional", bidirectional(&space, &config)),
            ("iddfs", iddfs(&space, &config)),
            ("ucs", ucs(&space, &config)),
            ("astar", astar(&space, &config)),
        ] {
            let trips = names(&space, &other);
            assert_eq!(trips.len() as u64, published, "{preset}: {name}");
            model.replay(&trips);
        }
    } else {
        let other = ucs(&space, &config);
        assert_eq!(
            model.replay(&names(&space, &other)),
            published,
            "{preset}: ucs"
        );
    }
    let first = dfs(&space, &config);
    let trips = names(&space, &first);
    assert!(trips.len() as u64 >= if timed { 1 } else { published });
    model.replay(&trips);
}

// "The Japanese river-crossing IQ test" (family, police and prisoner): 17 crossings, the number
// quoted with the puzzle wherever it is published (and confirmed by the checker's search below).
#[test]
fn family_takes_17_crossings() {
    check_preset("family", family(), 17);
}

// Alcuin of York, Propositiones ad acuendos juvenes, problem 18: 7 crossings.
#[test]
fn wolf_goat_cabbage_takes_7_crossings() {
    check_preset("wolf-goat-cabbage", wolf_goat_cabbage(), 7);
}

// Missionaries and cannibals, 3 and 3 with a boat of 2: 11 crossings (S. Amarel, "On
// representations of problems of reasoning about actions", 1968).
#[test]
fn missionaries_take_11_crossings() {
    check_preset("missionaries", missionaries(3), 11);
}

// Jealous husbands, 3 couples with a boat of 2: 11 crossings (Alcuin, problem 17; I. Pressman and
// D. Singmaster, "The jealous husbands and the missionaries and cannibals", Math. Gazette 1989).
#[test]
fn jealous_husbands_take_11_crossings() {
    check_preset("jealous-husbands", jealous_husbands(), 11);
}

// Bridge and torch with 1, 2, 5 and 10 minutes: 17 minutes (G. Rote, "Crossing the bridge at
// night", Bulletin of the EATCS 78, 2002).
#[test]
fn bridge_torch_takes_17_minutes() {
    check_preset("bridge-torch", bridge_torch(), 17);
}

const FOUR_MISSIONARIES: &str = r#"
rules = ["missionary -> missionary >= cannibal"]
[roles]
missionary = 4
cannibal = 4
[boat]
capacity = 2
"#;

// Four missionaries and four cannibals cannot cross in a boat of two (Pressman and Singmaster,
// 1989: n >= 4 couples need a boat of 3). The number of reachable states is the proof, and the
// checker's own search counts the same set.
#[test]
fn four_missionaries_are_unsolvable_with_their_reachable_count() {
    let space = RiverSpace::new(Puzzle::from_toml(FOUR_MISSIONARIES).unwrap());
    let outcome = bfs(&space, &Config::default());
    assert_eq!(outcome.status(), Status::Exhausted);
    let reachable = missionaries(4).optimum(false).unwrap_err();
    assert_eq!(outcome.stats().stored, reachable as u64);
    let exploration = explore(&space, &Config::default());
    assert!(exploration.is_complete());
    assert_eq!(exploration.states(), reachable as u64);
    assert_eq!(
        bidirectional(&space, &Config::default()).status(),
        Status::Exhausted
    );
    assert_eq!(ucs(&space, &Config::default()).status(), Status::Exhausted);
}

#[test]
fn explore_counts_what_the_checker_reaches() {
    // The checker's Dijkstra stores every reachable state when the far bank is unreachable;
    // on a solvable puzzle, compare with a plain BFS instead.
    let model = wolf_goat_cabbage();
    let loads = model.loads();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let start = (model.total(), false);
    seen.insert((start.0.values().copied().collect::<Vec<_>>(), false));
    queue.push_back(start);
    while let Some((near, far)) = queue.pop_front() {
        for load in &loads {
            if let Ok((next, _)) = model.cross(&near, far, load) {
                if seen.insert((next.values().copied().collect(), !far)) {
                    queue.push_back((next, !far));
                }
            }
        }
    }
    let exploration = explore(&space("wolf-goat-cabbage"), &Config::default());
    assert_eq!(exploration.states(), seen.len() as u64);
}

#[test]
fn the_heuristic_never_overestimates_on_the_presets() {
    use frontier_search::Space;
    for preset in ["family", "missionaries", "jealous-husbands", "bridge-torch"] {
        let space = space(preset);
        // From every state on an optimal path, the remaining cost bounds the heuristic.
        let plan = ucs(&space, &Config::default()).into_solution().unwrap();
        let mut left = plan.cost;
        for (i, state) in plan.states.iter().enumerate() {
            assert!(space.heuristic(state) <= left, "{preset} step {i}");
            if i < plan.moves.len() {
                left -= space.step_cost(state, &plan.moves[i]);
            }
        }
    }
}

#[test]
fn the_heuristic_is_consistent_on_every_edge_of_the_presets() {
    use frontier_search::Space;
    for preset in [
        "family",
        "wolf-goat-cabbage",
        "missionaries",
        "jealous-husbands",
        "bridge-torch",
    ] {
        let space = space(preset);
        let mut seen = HashSet::from([space.start()]);
        let mut queue = VecDeque::from([space.start()]);
        while let Some(state) = queue.pop_front() {
            let h = space.heuristic(&state);
            let mut next = Vec::new();
            space.successors(&state, None, |t, s| next.push((t, s)));
            for (trip, s) in next {
                let cost = space.step_cost(&state, &trip);
                assert!(
                    h <= cost + space.heuristic(&s),
                    "{preset}: {state:?} -> {s:?}"
                );
                if seen.insert(s) {
                    queue.push_back(s);
                }
            }
        }
    }
}

/// The seed's program, transcribed: people as a list (two boys are two entries), moves as the
/// singles then the pairs of `tails`, `w \\ m` and `e ++ m`, and a depth-first search that only
/// avoids states already on the current path. Returns the first plan it finds.
fn seed_first_plan() -> Vec<Vec<&'static str>> {
    type Game = (bool, Vec<&'static str>, Vec<&'static str>); // (boat east, west, east)
    fn share(ps: &[&str]) -> bool {
        let on = |p: &str| ps.contains(&p);
        let father_ok = !on("father") || on("mother") || !on("girl");
        let mother_ok = !on("mother") || on("father") || !on("boy");
        let prisoner_ok = !on("prisoner") || on("police") || ps == ["prisoner"];
        father_ok && mother_ok && prisoner_ok
    }
    fn minus(xs: &[&'static str], m: &[&'static str]) -> Vec<&'static str> {
        let mut xs = xs.to_vec();
        for y in m {
            if let Some(i) = xs.iter().position(|x| x == y) {
                xs.remove(i);
            }
        }
        xs
    }
    fn play(g: &Game, m: &[&'static str]) -> Game {
        let (east, w, e) = g;
        if !east {
            (true, minus(w, m), [e.as_slice(), m].concat())
        } else {
            (false, [w.as_slice(), m].concat(), minus(e, m))
        }
    }
    fn key(g: &Game) -> (bool, Vec<&'static str>, Vec<&'static str>) {
        let (mut w, mut e) = (g.1.clone(), g.2.clone());
        w.sort();
        e.sort();
        (g.0, w, e)
    }
    fn solve(
        path: &mut Vec<(bool, Vec<&'static str>, Vec<&'static str>)>,
        plan: &mut Vec<Vec<&'static str>>,
        g: &Game,
    ) -> bool {
        if g.0 && g.1.is_empty() && g.2.len() == 8 {
            return true;
        }
        let people = if g.0 { &g.2 } else { &g.1 };
        let mut moves: Vec<Vec<&'static str>> = people.iter().map(|&p| vec![p]).collect();
        for i in 0..people.len() {
            for j in i + 1..people.len() {
                moves.push(vec![people[i], people[j]]);
            }
        }
        for m in moves {
            let rows = m.iter().any(|p| ["father", "mother", "police"].contains(p));
            let next = play(g, &m);
            if !rows || !share(&next.1) || !share(&next.2) || path.contains(&key(&next)) {
                continue;
            }
            path.push(key(&next));
            plan.push(m);
            if solve(path, plan, &next) {
                return true;
            }
            path.pop();
            plan.pop();
        }
        false
    }
    let start: Game = (
        false,
        vec![
            "father", "boy", "boy", "mother", "girl", "girl", "police", "prisoner",
        ],
        vec![],
    );
    let mut plan = Vec::new();
    assert!(solve(&mut vec![key(&start)], &mut plan, &start));
    plan
}

// `--algo dfs` is the seed's solver: on the seed's puzzle it finds the plan the seed prints.
#[test]
fn dfs_finds_the_seeds_first_plan() {
    let space = space("family");
    let ours = names(&space, &dfs(&space, &Config::default()));
    let seed = seed_first_plan();
    let sorted = |trip: &[&str]| {
        let mut t: Vec<String> = trip.iter().map(|s| s.to_string()).collect();
        t.sort();
        t
    };
    let ours: Vec<Vec<String>> = ours
        .iter()
        .map(|t| sorted(&t.iter().map(String::as_str).collect::<Vec<_>>()))
        .collect();
    let seed: Vec<Vec<String>> = seed.iter().map(|t| sorted(t)).collect();
    assert_eq!(ours, seed);
    family().replay(&names(&space, &dfs(&space, &Config::default())));
}

/// `n` couples and a boat of `capacity`, for the checker: no wife with another man unless her
/// husband is there, on a bank or aboard.
fn couples(n: usize, capacity: i64) -> Model {
    fn ok(g: &Group) -> bool {
        let men = |g: &Group| {
            g.iter()
                .filter(|(r, &c)| r.starts_with('h') && c > 0)
                .count()
        };
        g.iter().all(|(r, &c)| {
            let Some(couple) = r.strip_prefix('w') else {
                return true;
            };
            let husband = g.get(format!("h{couple}").as_str()).copied().unwrap_or(0);
            c == 0 || husband > 0 || men(g) == 0
        })
    }
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let people: Vec<(&'static str, i64, u64)> = (1..=n)
        .flat_map(|i| [(leak(format!("h{i}")), 1, 1), (leak(format!("w{i}")), 1, 1)])
        .collect();
    Model {
        rowers: people.iter().map(|p| p.0).collect(),
        people,
        capacity,
        bank_ok: ok,
        boat_ok: ok,
    }
}

// H. E. Dudeney, "Amusements in Mathematics" (1917), the five jealous husbands: five couples with a
// boat of three cross in 11 crossings.
#[test]
fn five_couples_with_a_boat_of_three_take_11_crossings() {
    let space = RiverSpace::new(Puzzle::from_toml(&frontier_river::couples_toml(5, 3)).unwrap());
    let outcome = bfs(&space, &Config::default());
    let trips = names(&space, &outcome);
    assert_eq!(trips.len(), 11);
    couples(5, 3).replay(&trips);
    assert_eq!(couples(5, 3).optimum(false), Ok(11));
}

// Pressman and Singmaster (1989): with a boat of two, four or more couples cannot cross; with a
// boat of three, six or more cannot. The reachable sets, counted by the checker, are the proof.
#[test]
fn too_many_couples_for_the_boat_are_unsolvable() {
    for (n, capacity) in [(4, 2), (6, 3)] {
        let space = RiverSpace::new(
            Puzzle::from_toml(&frontier_river::couples_toml(n, capacity as u32)).unwrap(),
        );
        let outcome = bfs(&space, &Config::default());
        assert_eq!(
            outcome.status(),
            Status::Exhausted,
            "{n} couples, boat {capacity}"
        );
        let reachable = couples(n, capacity).optimum(false).unwrap_err();
        assert_eq!(outcome.stats().stored, reachable as u64);
    }
}
