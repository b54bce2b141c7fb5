//! Full distance tables over the states' coordinates: the engine's dense strategy on one and
//! two threads against the published counts and against the hash-table exploration of packed
//! states; the coordinates' rank turned back into the same state.

use frontier_perm::{explore, explore_packed, preset, CoordSpace, Coords, Metric, Model};
use frontier_search::{Config, Space};
use proptest::prelude::*;

/// OEIS A079761 (2x2x2, face turns) and A079762 (quarter turns): positions at each distance,
/// 3,674,160 in all, the farthest 11 face turns or 14 quarter turns away.
const CUBE2_HTM: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];
const CUBE2_QTM: [u64; 15] = [
    1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
];

#[test]
fn the_2x2x2_counts_as_published_on_one_and_two_threads() {
    let cube = preset("cube2").unwrap().puzzle();
    for (metric, counts) in [(Metric::Htm, &CUBE2_HTM[..]), (Metric::Qtm, &CUBE2_QTM[..])] {
        let model = Model::new(&cube, metric);
        // The dense strategy keeps no state: what it stores is the count of ranks reached.
        for threads in [1, 2] {
            let e = explore(&model, &Config::default().threads(threads));
            assert!(e.is_complete(), "{metric} {threads}");
            assert_eq!(e.layers, counts, "{metric} {threads} threads");
            assert_eq!(e.states(), 3_674_160);
            assert_eq!(e.stats.stored, 3_674_160);
        }
    }
}

#[test]
fn coordinates_count_as_packed_states_do() {
    // The hash-table exploration of packed colours, on the first layers of each preset with
    // coordinates (the Skewb's and Pyraminx's centres, tips and corners, TopSpin's tokens).
    for (name, depth) in [("pyraminx", 5), ("skewb", 5), ("topspin10", 6)] {
        let model = Model::new(&preset(name).unwrap().puzzle(), Metric::Htm);
        assert!(Coords::new(&model).is_some(), "{name}");
        let config = Config::default().max_depth(depth);
        let dense = explore(&model, &config);
        assert_eq!(
            dense.layers,
            explore_packed(&model, &config).layers,
            "{name}"
        );
        assert_eq!(dense.layers, explore(&model, &config.threads(2)).layers);
    }
}

#[test]
#[ignore = "the whole Skewb, Pyraminx and TopSpin both ways (seconds in release)"]
fn whole_tables_count_as_packed_states_do() {
    // Skewb: 3,149,280 positions (Jaap's puzzle page, fixed-centre orientation as here);
    // Pyraminx: 75,582,720 with its tips; TopSpin (10 tokens, turntable of 4): all 10!.
    for (name, states) in [
        ("skewb", 3_149_280u64),
        ("pyraminx", 75_582_720),
        ("topspin10", 3_628_800),
    ] {
        let model = Model::new(&preset(name).unwrap().puzzle(), Metric::Htm);
        let dense = explore(&model, &Config::default().threads(2));
        assert_eq!(dense.states(), states, "{name}");
        if name != "pyraminx" {
            assert_eq!(
                dense.layers,
                explore_packed(&model, &Config::default()).layers
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A scrambled position's rank turns back into its colours, and the rank the coordinates'
    /// tables reach by the same moves is its rank.
    #[test]
    fn a_rank_turns_back_into_its_state(
        name in prop::sample::select(vec!["cube2", "pyraminx", "skewb", "topspin10"]),
        picks in prop::collection::vec(0usize..64, 0..40),
        qtm in any::<bool>(),
    ) {
        let puzzle = preset(name).unwrap().puzzle();
        let metric = if qtm { Metric::Qtm } else { Metric::Htm };
        let model = Model::new(&puzzle, metric);
        let coords = Coords::new(&model).unwrap();
        let turns: Vec<_> = model.turns().collect();
        let scramble: Vec<_> = picks.iter().map(|&p| turns[p % turns.len()]).collect();
        let colours = model.colours_of(&puzzle.apply(&scramble));
        let rank = coords.rank_of(&colours).unwrap();
        prop_assert!(rank < coords.bound());
        prop_assert_eq!(coords.colours_at(rank, model.len()), colours);
        // The same moves through the space's successors, from the solved state.
        let space = CoordSpace::new(&model, &coords, &model.colours_of(&puzzle.apply(&[]))).unwrap();
        let mut state = space.start();
        for &t in &scramble {
            let mut next = None;
            space.successors(&state, None, |mv, s| if mv == t { next = Some(s) });
            state = next.unwrap();
        }
        prop_assert_eq!(state, rank);
    }
}
