//! No input panics, and the solvers agree on random puzzles.

use frontier_river::{Puzzle, RiverSpace, Rule};
use frontier_search::{astar, bfs, bidirectional, ucs, Config, Space, Status};
use proptest::prelude::*;

const ROLES: [&str; 4] = ["a", "b", "c", "d"];

/// Pieces rules are made of, so random strings are often nearly valid.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("zz".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("and".to_string()),
        Just("or".to_string()),
        Just("not".to_string()),
        Just("->".to_string()),
        Just("+".to_string()),
        Just("-".to_string()),
        Just("*".to_string()),
        Just("<=".to_string()),
        Just("==".to_string()),
        Just("=".to_string()),
        Just("!".to_string()),
        Just(" ".to_string()),
        "[0-9]{1,22}",
        any::<char>().prop_map(String::from),
    ]
}

/// A well-formed rule over roles a..d.
fn rule() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(ROLES.to_vec()).prop_map(String::from),
        (0i64..4).prop_map(|v| v.to_string()),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        (
            inner.clone(),
            prop::sample::select(vec![
                "+", "-", "*", "<", "<=", "==", "!=", ">=", ">", "and", "or", "->",
            ]),
            inner.clone(),
        )
            .prop_map(|(l, op, r)| format!("({l} {op} {r})"))
            .boxed()
            .prop_union(inner.prop_map(|e| format!("not {e}")).boxed())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_rule_text_never_panics(tokens in prop::collection::vec(token(), 0..30)) {
        let text = tokens.join(" ");
        if let Ok(rule) = Rule::parse(&text, &ROLES) {
            let _ = rule.value(|r| r as i64);
        }
        let glued = tokens.concat();
        if let Ok(rule) = Rule::parse(&glued, &ROLES) {
            let _ = rule.value(|r| r as i64 * 1000);
        }
    }

    #[test]
    fn random_strings_never_panic(text in ".{0,80}") {
        let _ = Rule::parse(&text, &ROLES);
    }

    #[test]
    fn error_columns_lie_within_the_rule(tokens in prop::collection::vec(token(), 0..20)) {
        let text = tokens.join(" ");
        if let Err(e) = Rule::parse(&text, &ROLES) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e} in {text:?}");
        }
    }
}

/// A random puzzle document, mostly valid.
fn document() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(0u32..5, 1..5),
        1i64..5,
        prop::collection::vec(rule(), 0..3),
        prop::option::of(prop::collection::vec(0usize..4, 1..3)),
        prop::option::of(prop::collection::vec(1i64..6, 4)),
        prop::collection::vec(rule(), 0..2),
    )
        .prop_map(|(counts, capacity, rules, rowers, times, boat_rules)| {
            let quote = |v: &[String]| {
                v.iter()
                    .map(|r| format!("{r:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut doc = format!("rules = [{}]\n[roles]\n", quote(&rules));
            for (i, count) in counts.iter().enumerate() {
                match &times {
                    Some(t) => {
                        doc += &format!("{} = {{ count = {count}, time = {} }}\n", ROLES[i], t[i])
                    }
                    None => doc += &format!("{} = {count}\n", ROLES[i]),
                }
            }
            doc += &format!(
                "[boat]\ncapacity = {capacity}\nrules = [{}]\n",
                quote(&boat_rules)
            );
            if let Some(rowers) = rowers {
                let names: Vec<String> = rowers.iter().map(|&r| ROLES[r].to_string()).collect();
                doc += &format!("rowers = [{}]\n", quote(&names));
            }
            doc
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_documents_never_panic(text in "[\\[\\]a-z0-9 =\"{},\n>-]{0,120}") {
        let _ = Puzzle::from_toml(&text);
    }

    /// On every random puzzle that parses, the solvers agree: bfs and bidirectional on the
    /// fewest crossings, ucs and astar on the cheapest time (so the heuristic is admissible),
    /// and every plan replays through the space's own transitions.
    #[test]
    fn solvers_agree_on_random_puzzles(doc in document()) {
        let Ok(puzzle) = Puzzle::from_toml(&doc) else { return Ok(()) };
        let space = RiverSpace::new(puzzle);
        let config = Config::default();
        let fewest = bfs(&space, &config);
        let meet = bidirectional(&space, &config);
        prop_assert_eq!(fewest.status(), meet.status(), "{}", doc);
        let cheapest = ucs(&space, &config);
        let guided = astar(&space, &config);
        prop_assert_eq!(cheapest.status(), guided.status());
        if fewest.status() == Status::Solved {
            let (f, m) = (fewest.solution().unwrap(), meet.solution().unwrap());
            prop_assert_eq!(f.len(), m.len(), "{}", doc);
            let (c, g) = (cheapest.solution().unwrap(), guided.solution().unwrap());
            prop_assert_eq!(c.cost, g.cost, "{}", doc);
            prop_assert!(c.cost <= f.cost);
            // Replay: each move is among the successors of its state.
            for (i, trip) in g.moves.iter().enumerate() {
                let mut found = false;
                space.successors(&g.states[i], None, |t, next| {
                    found |= t == *trip && next == g.states[i + 1];
                });
                prop_assert!(found);
                prop_assert!(space.heuristic(&g.states[i]) <= g.cost);
            }
            prop_assert!(space.is_goal(g.states.last().unwrap()));
        } else {
            prop_assert_eq!(fewest.status(), Status::Exhausted);
        }
    }
}
