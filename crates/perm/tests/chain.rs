//! The chain solver: an answer for every position of the group, replayed by the multiplier of
//! image lists in `common`; positions outside the group refused; the same answers every run.

mod common;

use common::{labels, replay, turns_of};
use frontier_perm::{preset, Chain, ChainBudget, Metric, Perm};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// A smaller budget than the default, for debug builds: the answers stay valid, only longer.
const QUICK: ChainBudget = ChainBudget {
    short_words: 3_000,
    products: 3_000,
    seed: 7,
    ball: 5_000,
};

#[test]
fn the_chain_solves_every_position_it_is_given() {
    for name in [
        "cube2",
        "pyraminx",
        "skewb",
        "topspin10",
        "cube3",
        "megaminx",
    ] {
        let puzzle = preset(name).unwrap().puzzle();
        for metric in [Metric::Htm, Metric::Qtm] {
            let chain = Chain::build(&puzzle, metric, &QUICK);
            let mut runner = TestRunner::new(Config::with_cases(12));
            let picks = prop::collection::vec((0usize..64, 0u8..8), 0..80);
            runner
                .run(&picks, |picks| {
                    let scramble = turns_of(&puzzle, &picks);
                    let position = puzzle.apply(&scramble);
                    let answer = chain.solve(&position).expect("a position of the group");
                    let mut played = scramble.clone();
                    played.extend(&answer);
                    let end = replay(&puzzle, &labels(&puzzle), &played);
                    prop_assert_eq!(end, labels(&puzzle), "{} {}", name, metric);
                    if metric == Metric::Qtm {
                        // Quarter turns only: each generator or its inverse.
                        for t in &answer {
                            let order = puzzle.generator_order(usize::from(t.generator));
                            prop_assert!(t.power == 1 || t.power == order - 1);
                        }
                    }
                    Ok(())
                })
                .unwrap();
        }
    }
}

#[test]
fn positions_outside_the_group_have_no_answer() {
    let cube = preset("cube3").unwrap().puzzle();
    let chain = Chain::build(&cube, Metric::Htm, &QUICK);
    // A corner twisted alone, a corner facet swapped with an edge facet, an edge flipped alone.
    for position in ["(1,9,35)", "(1,2)", "(2,34)"] {
        let p = cube.parse_position(position).unwrap();
        assert_eq!(chain.solve(&p), None, "{position}");
    }
    // The Pyraminx's moves are all even.
    let pyraminx = preset("pyraminx").unwrap().puzzle();
    let chain = Chain::build(&pyraminx, Metric::Htm, &QUICK);
    let odd = pyraminx.parse_position("(15,33)(16,34)(17,35)").unwrap();
    assert_eq!(chain.solve(&odd), None);
    assert_eq!(
        chain.solve(&Perm::identity(pyraminx.points())),
        Some(vec![])
    );
}

#[test]
fn the_same_chain_and_answers_on_every_run() {
    let cube = preset("cube3").unwrap().puzzle();
    let scramble = cube
        .parse_moves("R U2 F' L D B2 R' U F2 L' D2 B U' R2 F L2 D' B' U2 R")
        .unwrap();
    let position = cube.apply(&scramble);
    let a = Chain::build(&cube, Metric::Htm, &QUICK).solve(&position);
    let b = Chain::build(&cube, Metric::Htm, &QUICK).solve(&position);
    assert_eq!(a, b);
    // The default budget's words are shorter than the quick one's, or as short.
    let default = Chain::build(&cube, Metric::Htm, &ChainBudget::default());
    let quick = Chain::build(&cube, Metric::Htm, &QUICK);
    let total = |c: &Chain| c.longest().iter().map(|&l| u64::from(l)).sum::<u64>();
    assert!(total(&default) <= total(&quick));
    assert_eq!(default.levels(), quick.levels());
}
