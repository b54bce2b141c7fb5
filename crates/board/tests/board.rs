//! Integration tests: the seed's answers, every solver against an independent move simulator,
//! the inverse moves, the heuristic's admissibility, and malformed input.

use std::collections::{HashMap, HashSet, VecDeque};

use frontier_board::{Board, Heading, Move, Place, Puzzle, Rules, Start, State};
use frontier_search::{
    astar, bfs, bidirectional, explore, idastar, iddfs, Config, Outcome, Reversible, Space, Status,
};
use proptest::prelude::*;

/// A tiny simulator written apart from the crate: rows of letters (top first), a position
/// `(x, y)` with `y` counted up from the bottom row and `y == -1` below the board.
struct Sim {
    rows: Vec<Vec<char>>,
    lightbot: bool,
}

impl Sim {
    fn new(rows: &[&str], lightbot: bool) -> Sim {
        Sim {
            rows: rows.iter().map(|r| r.chars().collect()).collect(),
            lightbot,
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<char> {
        let h = self.rows.len() as i64;
        if x < 0 || y < 0 || y >= h || x >= self.rows[0].len() as i64 {
            return None;
        }
        Some(self.rows[(h - 1 - y) as usize][x as usize])
    }

    /// Plays `moves` from `(x, y, heading)`, heading 0..4 clockwise from north; returns the
    /// final letter, or the index of the first illegal move.
    fn play(&self, mut x: i64, mut y: i64, mut d: i64, moves: &[Move]) -> Result<char, usize> {
        for (i, mv) in moves.iter().enumerate() {
            let here = self.at(x, y);
            match mv {
                Move::Left | Move::Right => {
                    if here.is_none() {
                        return Err(i);
                    }
                    d = (d + if *mv == Move::Left { 3 } else { 1 }) % 4;
                }
                Move::Forward | Move::Jump => {
                    let (dx, dy) = [(0, 1), (1, 0), (0, -1), (-1, 0)][d as usize];
                    let from = here.unwrap_or('A') as u32;
                    let Some(to) = self.at(x + dx, y + dy) else {
                        return Err(i);
                    };
                    let to = to as u32;
                    let ok = match mv {
                        Move::Forward => to == from,
                        _ => to == from + 1 || (self.lightbot && to < from),
                    };
                    if !ok {
                        return Err(i);
                    }
                    x += dx;
                    y += dy;
                }
            }
        }
        self.at(x, y).ok_or(moves.len())
    }
}

fn heading_index(h: Heading) -> i64 {
    match h {
        Heading::N => 0,
        Heading::E => 1,
        Heading::S => 2,
        Heading::W => 3,
    }
}

/// Replays a solution on the simulator and checks that it ends on the target.
fn replay(rows: &[&str], start: Start, rules: Rules, target: char, moves: &[Move]) {
    let sim = Sim::new(rows, rules == Rules::Lightbot);
    let (x, y) = match start.place {
        Place::Cell { x, y } => (x as i64, y as i64),
        Place::Below { column } => (column as i64, -1),
    };
    let end = sim.play(x, y, heading_index(start.heading), moves);
    assert_eq!(end, Ok(target), "replaying {moves:?} on {rows:?}");
}

fn puzzle(text: &str, rules: Rules, target: Option<char>) -> Puzzle {
    Puzzle::new(Board::parse(text).unwrap(), rules, target).unwrap()
}

fn moves(outcome: &Outcome<State, Move>) -> Vec<Move> {
    outcome.solution().expect("solved").moves.clone()
}

#[test]
fn the_seed_board_takes_17_moves() {
    // Source: the seed tutorial 002_e01a57dc5b96d110.txt prints a 17-move solution to F.
    let text = "AAAA\nACCB\nADEF\n*\n0 0 N\n";
    let p = puzzle(text, Rules::Seed, None);
    let rows = ["AAAA", "ACCB", "ADEF"];
    let start = p.board().start();
    for (name, outcome) in [
        ("bfs", bfs(&p, &Config::default())),
        ("bidirectional", bidirectional(&p, &Config::default())),
        ("astar", astar(&p, &Config::default())),
        ("idastar", idastar(&p, &Config::default())),
        ("iddfs", iddfs(&p, &Config::default())),
    ] {
        let m = moves(&outcome);
        assert_eq!(m.len(), 17, "{name}");
        replay(&rows, start, Rules::Seed, 'F', &m);
    }
}

#[test]
fn ab_ac_with_target_c_takes_6_moves() {
    // Source: the same seed prints Forward, Forward, Right, Jump, Right, Jump for AB/AC.
    let p = puzzle("AB\nAC\n", Rules::Seed, Some('C'));
    let m = moves(&bfs(&p, &Config::default()));
    assert_eq!(m.len(), 6);
    replay(&["AB", "AC"], p.board().start(), Rules::Seed, 'C', &m);
    let m = moves(&bidirectional(&p, &Config::default()));
    assert_eq!(m.len(), 6);
    replay(&["AB", "AC"], p.board().start(), Rules::Seed, 'C', &m);
}

#[test]
fn lightbot_can_use_a_way_down() {
    // A climbs to C at the top; the target D is reached by dropping to B and climbing again.
    let text = "BCB\nABC\nAAD\n*\n";
    let seed = bfs(&puzzle(text, Rules::Seed, None), &Config::default());
    let light = bfs(&puzzle(text, Rules::Lightbot, None), &Config::default());
    let (s, l) = (moves(&seed), moves(&light));
    assert!(l.len() <= s.len());
    let rows = ["BCB", "ABC", "AAD"];
    let start = Board::parse(text).unwrap().start();
    replay(&rows, start, Rules::Seed, 'D', &s);
    replay(&rows, start, Rules::Lightbot, 'D', &l);
    // Under the seed's rules the robot cannot come down from B to A.
    let down = "A\nB\n0 0 N\n";
    let p = puzzle(down, Rules::Seed, Some('A'));
    assert_eq!(bfs(&p, &Config::default()).status(), Status::Exhausted);
    let p = puzzle(down, Rules::Lightbot, Some('A'));
    assert_eq!(moves(&bfs(&p, &Config::default())), [Move::Jump]);
}

#[test]
fn unsolvable_boards_are_proven_so() {
    let p = puzzle("AC\nAC\n", Rules::Seed, None);
    let outcome = bfs(&p, &Config::default());
    assert_eq!(outcome.status(), Status::Exhausted);
    // Below column 0, then 2 cells of A in 4 headings.
    assert_eq!(outcome.stats().stored, 9);
    assert_eq!(
        bidirectional(&p, &Config::default()).status(),
        Status::Exhausted
    );
    assert_eq!(astar(&p, &Config::default()).status(), Status::Exhausted);
}

/// Counts by a plain BFS on the simulator the states reachable from the start.
fn sim_reachable(rows: &[&str], start: Start, lightbot: bool) -> usize {
    let sim = Sim::new(rows, lightbot);
    let (x, y) = match start.place {
        Place::Cell { x, y } => (x as i64, y as i64),
        Place::Below { column } => (column as i64, -1),
    };
    let first = (x, y, heading_index(start.heading));
    let mut seen = HashSet::from([first]);
    let mut queue = VecDeque::from([first]);
    while let Some((x, y, d)) = queue.pop_front() {
        for mv in Move::ALL {
            let (dx, dy) = [(0, 1), (1, 0), (0, -1), (-1, 0)][d as usize];
            let next = match mv {
                Move::Left => (x, y, (d + 3) % 4),
                Move::Right => (x, y, (d + 1) % 4),
                _ => (x + dx, y + dy, d),
            };
            let legal = Sim {
                rows: sim.rows.clone(),
                lightbot,
            }
            .play(x, y, d, &[mv])
            .is_ok();
            if legal && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen.len()
}

/// A random small board: rows, a start, rules and a target on the board.
fn small_board() -> impl Strategy<Value = (Vec<String>, Start, Rules, char)> {
    (1usize..=4, 1usize..=4, 2u8..=4)
        .prop_flat_map(|(w, h, letters)| {
            let cells = proptest::collection::vec(0..letters, w * h);
            let place = prop_oneof![
                (0..w).prop_map(|column| Place::Below { column }),
                (0..w, 0..h).prop_map(|(x, y)| Place::Cell { x, y }),
            ];
            let heading = prop_oneof![
                4 => Just(Heading::N),
                1 => Just(Heading::E),
                1 => Just(Heading::S),
                1 => Just(Heading::W),
            ];
            let rules = prop_oneof![Just(Rules::Seed), Just(Rules::Lightbot)];
            (
                Just(w),
                cells,
                place,
                heading,
                rules,
                any::<prop::sample::Index>(),
            )
        })
        .prop_map(|(w, cells, place, heading, rules, pick)| {
            let rows: Vec<String> = cells
                .chunks(w)
                .map(|r| r.iter().map(|&l| char::from(b'A' + l)).collect())
                .collect();
            let target = char::from(b'A' + cells[pick.index(cells.len())]);
            (rows, Start { place, heading }, rules, target)
        })
}

fn build((rows, start, rules, target): &(Vec<String>, Start, Rules, char)) -> Puzzle {
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let board = Board::from_rows(&refs, *start).expect("a valid board");
    Puzzle::new(board, *rules, Some(*target)).expect("the target is on the board")
}

/// Distances to the nearest goal of every state that can reach one, by BFS over predecessors.
fn distances_to_goal(p: &Puzzle) -> HashMap<State, u64> {
    let mut dist: HashMap<State, u64> = p.goals().into_iter().map(|g| (g, 0)).collect();
    let mut queue: VecDeque<State> = dist.keys().copied().collect();
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        p.predecessors(&s, |_, prev| {
            dist.entry(prev).or_insert_with(|| {
                queue.push_back(prev);
                d + 1
            });
        });
    }
    dist
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_shortest_solver_agrees_and_replays(case in small_board()) {
        let p = build(&case);
        let (rows, start, rules, target) = &case;
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let reference = bfs(&p, &Config::default());
        match reference.status() {
            Status::Solved => {
                let len = reference.solution().unwrap().len();
                replay(&refs, *start, *rules, *target, &moves(&reference));
                let bounded = Config::default().max_depth(len as u32);
                for (name, outcome) in [
                    ("bidirectional", bidirectional(&p, &Config::default())),
                    ("astar", astar(&p, &Config::default())),
                    ("iddfs", iddfs(&p, &bounded)),
                    ("idastar", idastar(&p, &bounded)),
                ] {
                    prop_assert_eq!(outcome.status(), Status::Solved, "{}", name);
                    let m = moves(&outcome);
                    prop_assert_eq!(m.len(), len, "{}", name);
                    replay(&refs, *start, *rules, *target, &m);
                }
            }
            status => {
                prop_assert_eq!(status, Status::Exhausted);
                prop_assert_eq!(bidirectional(&p, &Config::default()).status(), Status::Exhausted);
                prop_assert_eq!(astar(&p, &Config::default()).status(), Status::Exhausted);
            }
        }
    }

    #[test]
    fn the_fast_solvers_match_the_engine(case in small_board(), depth in 0u32..8, budget in 1u64..40) {
        let p = build(&case);
        let (rows, start, rules, target) = &case;
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let slow = bfs(&p, &Config::default());
        let fast = p.fast_bfs(&Config::default());
        prop_assert_eq!(slow.status(), fast.status());
        if slow.status() == Status::Exhausted {
            prop_assert_eq!(slow.stats().stored, fast.stats().stored);
        }
        if let Some(solution) = &fast.solution() {
            prop_assert_eq!(solution.len(), slow.solution().unwrap().len());
            prop_assert_eq!(solution.states.len(), solution.len() + 1);
            prop_assert_eq!(solution.states[0], p.start());
            replay(&refs, *start, *rules, *target, &solution.moves);
        }
        let e = explore(&p, &Config::default());
        let f = p.fast_explore(&Config::default());
        prop_assert_eq!(&e.layers, &f.layers);
        prop_assert_eq!(e.status(), f.status());
        // Under a depth limit: the same layers, and a cut only where more lies deeper.
        let bounded = Config::default().max_depth(depth);
        let e = explore(&p, &bounded);
        let f = p.fast_explore(&bounded);
        prop_assert_eq!(&e.layers, &f.layers);
        prop_assert_eq!(e.status(), f.status());
        let fast = p.fast_bfs(&bounded);
        match bfs(&p, &bounded).status() {
            Status::Solved => prop_assert_eq!(fast.status(), Status::Solved),
            _ => prop_assert_ne!(fast.status(), Status::Solved),
        }
        // Under a budget of stored states: a limit exactly when the reachable set is larger.
        let capped = Config::default().max_states(budget);
        let f = p.fast_explore(&capped);
        let all = explore(&p, &Config::default()).states();
        prop_assert_eq!(f.status() == Status::Exhausted, all <= budget, "{:?} {}", f.status(), all);
        prop_assert!(f.stats.stored <= budget.max(1) + 3);
    }

    #[test]
    fn predecessors_invert_successors(case in small_board()) {
        let p = build(&case);
        let states: Vec<State> = p.states().collect();
        let all: HashSet<State> = states.iter().copied().collect();
        prop_assert!(all.contains(&p.start()));
        for &s in &states {
            let mut next = Vec::new();
            p.successors(&s, None, |m, t| next.push((m, t)));
            for &(m, t) in &next {
                prop_assert!(all.contains(&t));
                let mut back = Vec::new();
                p.predecessors(&t, |m, s| back.push((m, s)));
                prop_assert!(back.contains(&(m, s)), "{:?} -{:?}-> {:?}", s, m, t);
            }
            let mut prev = Vec::new();
            p.predecessors(&s, |m, t| prev.push((m, t)));
            for &(m, r) in &prev {
                prop_assert!(all.contains(&r));
                let mut forth = Vec::new();
                p.successors(&r, None, |m, t| forth.push((m, t)));
                prop_assert!(forth.contains(&(m, s)), "{:?} -{:?}-> {:?}", r, m, s);
            }
        }
        // The goals are every target cell in every heading.
        let goals: Vec<State> = p.goals();
        prop_assert!(goals.iter().all(|g| p.is_goal(g)));
        prop_assert_eq!(goals.len(), states.iter().filter(|s| p.is_goal(s)).count());
    }

    #[test]
    fn the_heuristic_never_overestimates(case in small_board()) {
        let p = build(&case);
        let dist = distances_to_goal(&p);
        for s in p.states() {
            if let Some(&d) = dist.get(&s) {
                prop_assert!(p.heuristic(&s) <= d, "h({:?}) = {} > {}", s, p.heuristic(&s), d);
            }
        }
    }

    #[test]
    fn explore_counts_what_the_simulator_reaches(case in small_board()) {
        let p = build(&case);
        let (rows, start, rules, _) = &case;
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let exploration = explore(&p, &Config::default());
        prop_assert!(exploration.is_complete());
        let expected = sim_reachable(&refs, *start, *rules == Rules::Lightbot);
        prop_assert_eq!(exploration.states(), expected as u64);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(board) = Board::from_bytes(&bytes) {
            let _ = Puzzle::new(board, Rules::Seed, None).map(|p| bfs(&p, &Config::default()));
        }
    }

    #[test]
    fn near_valid_boards_never_panic(
        case in small_board(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(vec!['A', 'B', 'Z', '*', ' ', '\n', '0', '3', '-', 'N', 'q', 'é'])), 0..4),
    ) {
        let (rows, start, _, _) = &case;
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let text = Board::from_rows(&refs, *start).unwrap().to_string();
        prop_assert_eq!(&Board::parse(&text).unwrap(), &Board::from_rows(&refs, *start).unwrap());
        let mut chars: Vec<char> = text.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 => chars.insert(i, c),
                1 if i < chars.len() => { chars.remove(i); }
                _ if i < chars.len() => chars[i] = c,
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        match Board::parse(&text) {
            Ok(board) => {
                // Whatever parses writes back to text that parses to the same board.
                prop_assert_eq!(&Board::parse(&board.to_string()).unwrap(), &board);
                let p = Puzzle::new(board, Rules::Lightbot, None).unwrap();
                let _ = bfs(&p, &Config::default());
            }
            Err(e) => {
                prop_assert!(e.line >= 1 && e.column >= 1);
                prop_assert!(e.line <= text.split('\n').count().max(1));
            }
        }
    }
}
