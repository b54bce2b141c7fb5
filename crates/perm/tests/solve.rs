//! Shortest solutions and distance distributions, against BFS and published counts; every
//! solution replayed by a multiplier of image lists written in `common`, apart from the
//! crate's.

mod common;

use common::{solve_checked, tables};
use frontier_perm::{explore, preset, Metric, Model, Puzzle, Turn};
use frontier_search::{Algorithm, Config};
use proptest::prelude::*;

#[test]
fn the_seeds_scramble_takes_five_quarter_turns() {
    // The seed solves rot_B $ rot_L $ rot_U $ rot_l $ rot_B (B l U L B, B applied first) in
    // five quarter turns, "bLulb".
    let cube = preset("cube3").unwrap().puzzle();
    let model = Model::new(&cube, Metric::Qtm);
    let tables = tables(&model, 1 << 16);
    for algorithm in [Algorithm::Idastar, Algorithm::Bidirectional] {
        let moves = solve_checked(&cube, &model, Some(&tables), "B L' U L B", algorithm);
        let names: Vec<String> = moves.iter().map(|&t| cube.turn_name(t)).collect();
        assert_eq!(names, ["B'", "L'", "U'", "L", "B'"], "{algorithm}");
    }
}

/// OEIS A079761 (2x2x2, face turns) and A079762 (quarter turns): positions at each distance.
const CUBE2_HTM: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];
const CUBE2_QTM: [u64; 15] = [
    1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
];

#[test]
fn the_2x2x2_distances_begin_as_published() {
    let cube = preset("cube2").unwrap().puzzle();
    for (metric, counts) in [
        (Metric::Htm, &CUBE2_HTM[..7]),
        (Metric::Qtm, &CUBE2_QTM[..8]),
    ] {
        let model = Model::new(&cube, metric);
        let config = Config::default().max_depth(counts.len() as u32 - 1);
        assert_eq!(explore(&model, &config).layers, counts, "{metric}");
    }
}

#[test]
#[ignore = "the whole 2x2x2: 3,674,160 states (a few seconds in release)"]
fn the_2x2x2_distances_are_as_published() {
    let cube = preset("cube2").unwrap().puzzle();
    for (metric, counts) in [(Metric::Htm, &CUBE2_HTM[..]), (Metric::Qtm, &CUBE2_QTM[..])] {
        let exploration = explore(&Model::new(&cube, metric), &Config::default());
        assert!(exploration.is_complete());
        assert_eq!(exploration.layers, counts, "{metric}");
        assert_eq!(exploration.states(), 3_674_160);
    }
}

#[test]
fn the_3x3x3_from_its_facets_to_depth_five() {
    // OEIS A080601 (face turns) and A080602 (quarter turns), from the seed's 48 facets.
    let cube = preset("cube3").unwrap().puzzle();
    let htm = [1, 18, 243, 3240, 43239, 574908];
    let qtm = [1, 12, 114, 1068, 10011, 93840];
    for (metric, counts) in [(Metric::Htm, &htm[..]), (Metric::Qtm, &qtm[..])] {
        let config = Config::default().max_depth(5);
        assert_eq!(
            explore(&Model::new(&cube, metric), &config).layers,
            counts,
            "{metric}"
        );
    }
}

fn scramble_of(puzzle: &Puzzle, picks: &[(usize, u8)]) -> String {
    picks
        .iter()
        .map(|&(g, p)| {
            let g = g % puzzle.generators().len();
            let order = puzzle.generator_order(g);
            let power = 1 + p % (order - 1);
            puzzle.turn_name(Turn {
                generator: g as u8,
                power,
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// IDA* over the pruning tables finds solutions as short as BFS's, in both metrics.
    #[test]
    fn idastar_is_as_short_as_bfs(
        which in 0usize..4,
        qtm in any::<bool>(),
        picks in prop::collection::vec((0usize..16, 0u8..8), 0..7),
    ) {
        let name = ["cube2", "pyraminx", "skewb", "topspin10"][which];
        let puzzle = preset(name).unwrap().puzzle();
        let metric = if qtm { Metric::Qtm } else { Metric::Htm };
        let model = Model::new(&puzzle, metric);
        let tables = tables(&model, 1 << 14);
        let scramble = scramble_of(&puzzle, &picks);
        let ida = solve_checked(&puzzle, &model, Some(&tables), &scramble, Algorithm::Idastar);
        let bfs = solve_checked(&puzzle, &model, None, &scramble, Algorithm::Bfs);
        prop_assert_eq!(ida.len(), bfs.len(), "{} {}: {}", name, metric, scramble);
    }
}
