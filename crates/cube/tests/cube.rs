//! The cube domain end to end: models agree, notation, validation, published counts, and every
//! solver's answer replayed on the facelet model.

use frontier_cube::{
    parse, parse_moves, random_scramble, scramble_facelets, unfold, write_moves, Cube, CubeError,
    CubeSpace, CubieCube, Face, Facelets, Heuristic, Metric, Move, Notation, SymmetricCubeSpace,
};
use frontier_search::{
    bfs, bidirectional, explore, idastar, iddfs, Config, Outcome, Reversible, Space, Status,
};
use proptest::prelude::*;

/// Points the tables' cache (`FRONTIER_CACHE_DIR`, read when a table is first loaded) at a
/// directory under cargo's temporary directory for tests, never the user's cache: called
/// first by every test, before any table is loaded.
fn isolate_cache() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cube-cache");
        // Every test calls this before anything reads the variable, and only Rust code of
        // this process reads it (through std's lock).
        std::env::set_var("FRONTIER_CACHE_DIR", dir);
    });
}

/// Replays `moves` on the facelet model only (geometry permutations, no cubies involved).
fn replay(start: &Facelets, moves: &[Move]) -> Facelets {
    let mut facelets = *start;
    for &mv in moves {
        facelets.apply(mv);
    }
    facelets
}

/// Checks a solved outcome: the moves lead from `start` to solved on the facelet model, and
/// the recorded states match the cubie model along the way.
fn check_solution(start: Cube, outcome: &Outcome<Cube, Move>) -> usize {
    assert_eq!(outcome.status(), Status::Solved);
    let solution = outcome.solution().expect("a solution");
    assert_eq!(
        replay(&start.to_facelets(), &solution.moves),
        Facelets::SOLVED,
        "the solution {} does not solve the cube on the facelet model",
        write_moves(&solution.moves, Notation::Wca)
    );
    assert_eq!(solution.states.first(), Some(&start));
    assert_eq!(solution.states.last(), Some(&Cube::SOLVED));
    solution.moves.len()
}

#[test]
fn the_seeds_example_takes_five_quarter_turns() {
    isolate_cache();
    // The seed solves rot_B . rot_L . rot_U . rot_l . rot_B applied to zero, i.e. the
    // scramble B l U L B, in 5 quarter turns (it prints "bLulb", newest move first).
    let cube = Cube::from_scramble("B l U L B", Notation::Seed).unwrap();
    let space = CubeSpace::new(cube, Metric::Qtm);
    for outcome in [
        bidirectional(&space, &Config::default()),
        iddfs(&space, &Config::default()),
        idastar(&space, &Config::default()),
    ] {
        assert_eq!(check_solution(cube, &outcome), 5);
        let moves = &outcome.solution().unwrap().moves;
        assert!(moves.iter().all(|m| m.quarter_turns() != 2));
    }
}

/// OEIS A080601: positions of Rubik's cube at distance n in the half-turn metric.
const HTM_LAYERS: [u64; 6] = [1, 18, 243, 3240, 43239, 574908];
/// OEIS A080602: positions of Rubik's cube at distance n in the quarter-turn metric.
const QTM_LAYERS: [u64; 6] = [1, 12, 114, 1068, 10011, 93840];

#[test]
fn explore_reproduces_the_published_counts_to_depth_4_htm_and_5_qtm() {
    isolate_cache();
    let htm = explore(
        &CubeSpace::new(Cube::SOLVED, Metric::Htm),
        &Config::default().max_depth(4),
    );
    assert_eq!(htm.layers, HTM_LAYERS[..5]);
    let qtm = explore(
        &CubeSpace::new(Cube::SOLVED, Metric::Qtm),
        &Config::default().max_depth(5),
    );
    assert_eq!(qtm.layers, QTM_LAYERS);
}

#[test]
fn explore_reproduces_the_published_htm_count_at_depth_5() {
    isolate_cache();
    let htm = explore(
        &CubeSpace::new(Cube::SOLVED, Metric::Htm),
        &Config::default().max_depth(5),
    );
    assert_eq!(htm.layers, HTM_LAYERS);
}

/// The number of move sequences of `depth` moves that survive the pruning by last move.
fn canonical_sequences(space: &CubeSpace, cube: Cube, last: Option<Move>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut children = Vec::new();
    space.successors(&cube, last.as_ref(), |mv, next| children.push((mv, next)));
    children
        .into_iter()
        .map(|(mv, next)| canonical_sequences(space, next, Some(mv), depth - 1))
        .sum()
}

#[test]
fn pruning_by_last_move_keeps_exactly_the_canonical_sequences() {
    isolate_cache();
    // After U, R or F, 15 moves may follow (6 of them on U, R, F); after D, L or B only 12
    // (the opposite face came first). So with a(n), b(n) counting sequences ending on either
    // kind: a(1) = b(1) = 9, a(n+1) = 6 a(n) + 6 b(n), b(n+1) = 9 a(n) + 6 b(n), which gives
    // 1, 18, 243, 3240, 43254. Up to 3 moves these are all distinct positions (A080601); at
    // 4 moves 15 coincide (43239).
    let space = CubeSpace::new(Cube::SOLVED, Metric::Htm);
    let counts: Vec<u64> = (0..=4)
        .map(|d| canonical_sequences(&space, Cube::SOLVED, None, d))
        .collect();
    assert_eq!(counts, [1, 18, 243, 3240, 43254]);
    // QTM: after a quarter turn, 11 moves may follow (the same one again, not its inverse);
    // after D, L or B, 9. 6 x 11 + 6 x 9 = 120 sequences of 2 moves, 114 positions (A080602):
    // the 6 half turns are each made both ways (U U and U' U').
    let qtm = CubeSpace::new(Cube::SOLVED, Metric::Qtm);
    assert_eq!(canonical_sequences(&qtm, Cube::SOLVED, None, 2), 120);
}

#[test]
fn predecessors_lead_forward_by_their_label() {
    isolate_cache();
    for metric in [Metric::Htm, Metric::Qtm] {
        let space = CubeSpace::new(Cube::SOLVED, metric);
        let cube = Cube::random(11);
        let mut count = 0;
        space.predecessors(&cube, |mv, prev| {
            assert_eq!(prev.apply(mv), cube);
            count += 1;
        });
        assert_eq!(count, metric.moves().len());
        assert_eq!(space.goals(), [Cube::SOLVED]);
    }
}

#[test]
fn each_face_turn_has_order_four_on_both_models() {
    isolate_cache();
    for face in Face::ALL {
        let quarter = Move::new(face, 1);
        let mut facelets = Facelets::SOLVED;
        let mut cube = Cube::SOLVED;
        for turn in 1..=4 {
            facelets.apply(quarter);
            cube = cube.apply(quarter);
            assert_eq!(facelets == Facelets::SOLVED, turn == 4, "{face} x{turn}");
            assert_eq!(cube.is_solved(), turn == 4, "{face} x{turn}");
            assert_eq!(cube.to_facelets(), facelets);
        }
        assert_eq!(
            Cube::SOLVED.apply(Move::new(face, 2)),
            Cube::SOLVED.apply(quarter).apply(quarter)
        );
    }
}

#[test]
fn the_superflip_has_its_known_facelets() {
    isolate_cache();
    // The superflip (every edge flipped in place) in Kociemba's facelet format, and a 20-move
    // maneuver for it (Michael Reid, 1995): two independent facts that must agree here.
    let superflip = "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB";
    let cube = Cube::from_scramble(
        "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2",
        Notation::Wca,
    )
    .unwrap();
    assert_eq!(cube.to_string(), superflip);
    let cubie = cube.to_cubie();
    assert_eq!(cubie.edge_orientation(), [1; 12]);
    assert_eq!(cubie.edge_permutation(), std::array::from_fn(|i| i as u8));
    assert_eq!(cubie.corner_orientation(), [0; 8]);
}

#[test]
fn wide_slice_and_rotation_moves_are_normalised() {
    isolate_cache();
    let same = |a: &str, b: &str| {
        assert_eq!(
            Cube::from_scramble(a, Notation::Wca).unwrap(),
            Cube::from_scramble(b, Notation::Wca).unwrap(),
            "{a} vs {b}"
        );
    };
    same("x y2 z'", "");
    same("M", "R L'");
    same("E", "U D'");
    same("S", "F' B");
    same("Rw", "L");
    same("r U", "Rw U");
    same("Uw'", "D'");
    // After x, the front is what was down: F then is D.
    same("x F", "D");
    same("y R", "B");
    same("z U", "L");
    same("M2 U M2 U2 M2 U M2", "R2 L2 D R2 L2 U2 R2 L2 D R2 L2");
}

#[test]
fn solved_answers_with_an_empty_solution() {
    isolate_cache();
    let space = CubeSpace::new(Cube::SOLVED, Metric::Htm);
    for outcome in [
        bidirectional(&space, &Config::default()),
        bfs(&space, &Config::default()),
        iddfs(&space, &Config::default()),
        idastar(&space, &Config::default()),
    ] {
        assert_eq!(check_solution(Cube::SOLVED, &outcome), 0);
    }
}

#[test]
fn optimal_solvers_agree_on_random_scrambles() {
    isolate_cache();
    for (seed, metric) in (0..12).map(|s| (s, if s % 2 == 0 { Metric::Htm } else { Metric::Qtm })) {
        let scramble = random_scramble(seed, 5 + seed as usize % 2, metric);
        let cube = Cube::SOLVED.apply_all(&scramble);
        let space = CubeSpace::new(cube, metric);
        let mut lengths = vec![
            check_solution(cube, &bidirectional(&space, &Config::default())),
            check_solution(cube, &idastar(&space, &Config::default())),
        ];
        if lengths[0] <= 5 {
            // Uninformed iterative deepening grows by 13-15 times per move: keep it short.
            lengths.push(check_solution(cube, &iddfs(&space, &Config::default())));
        }
        assert!(lengths.iter().all(|&l| l == lengths[0]), "{lengths:?}");
        assert!(lengths[0] <= scramble.len());
        // The heuristic never overestimates, here checked against the true distance.
        assert!(Heuristic::get(metric).estimate(cube) <= lengths[0] as u64);
    }
}

#[test]
fn bidirectional_solves_a_ten_move_scramble() {
    isolate_cache();
    let scramble = random_scramble(2026, 10, Metric::Htm);
    let cube = Cube::SOLVED.apply_all(&scramble);
    let outcome = bidirectional(&CubeSpace::new(cube, Metric::Htm), &Config::default());
    assert!(check_solution(cube, &outcome) <= 10);
}

#[test]
fn limits_stop_cleanly() {
    isolate_cache();
    let cube = Cube::random(7); // needs about 18 moves: far beyond these limits
    let space = CubeSpace::new(cube, Metric::Htm);
    let outcome = bidirectional(&space, &Config::default().max_states(10_000));
    assert!(matches!(outcome.status(), Status::Limit(_)));
    let outcome = iddfs(&space, &Config::default().max_depth(3));
    assert!(matches!(outcome.status(), Status::Limit(_)));
}

#[test]
fn impossible_cubes_are_refused_with_the_reason() {
    isolate_cache();
    let solved = Facelets::SOLVED.to_string();
    let with = |edits: &[(usize, char)]| -> String {
        let mut chars: Vec<char> = solved.chars().collect();
        for &(i, c) in edits {
            chars[i] = c;
        }
        chars.into_iter().collect()
    };
    // A flipped UF edge (U8 and F2).
    assert_eq!(
        with(&[(7, 'F'), (19, 'U')]).parse::<Facelets>(),
        Err(CubeError::FlippedEdge)
    );
    // Two corners swapped: URF and UFL.
    let mut cube = CubieCube::SOLVED.corner_permutation();
    cube.swap(0, 1);
    let swapped = CubieCube::new(cube, [0; 8], std::array::from_fn(|i| i as u8), [0; 12]);
    assert_eq!(swapped, Err(CubeError::Parity));
    let err = with(&[(0, 'D')]).parse::<Facelets>().unwrap_err();
    assert!(
        err.to_string().contains("colour U appears on 8 facelets"),
        "{err}"
    );
}

fn any_cube() -> impl Strategy<Value = Cube> {
    any::<u64>().prop_map(Cube::random)
}

fn any_moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec((0usize..18).prop_map(|i| Move::ALL[i]), 0..40)
}

proptest! {
    #[test]
    fn facelets_cubies_facelets_round_trip(cube in any_cube()) {
        isolate_cache();
        let facelets = cube.to_facelets();
        prop_assert_eq!(Cube::from_facelets(&facelets), Ok(cube));
        let text = facelets.to_string();
        prop_assert_eq!(text.parse::<Facelets>(), Ok(facelets));
        prop_assert_eq!(CubieCube::try_from(&facelets), Ok(cube.to_cubie()));
    }

    #[test]
    fn facelet_and_cubie_models_agree(cube in any_cube(), moves in any_moves()) {
        isolate_cache();
        let by_cubies = cube.apply_all(&moves).to_facelets();
        let by_facelets = replay(&cube.to_facelets(), &moves);
        prop_assert_eq!(by_cubies, by_facelets);
    }

    #[test]
    fn a_move_then_its_inverse_changes_nothing(cube in any_cube(), i in 0usize..18) {
        isolate_cache();
        let mv = Move::ALL[i];
        prop_assert_eq!(cube.apply(mv).apply(mv.inverse()), cube);
    }

    #[test]
    fn the_heuristic_is_consistent_and_zero_only_when_solved(cube in any_cube()) {
        isolate_cache();
        // Each table is an exact distance in a projection, so one move changes each by at most
        // 1; with h(solved) = 0 this makes the maximum admissible as well as consistent.
        for metric in [Metric::Htm, Metric::Qtm] {
            let h = Heuristic::get(metric);
            let here = h.estimate(cube);
            prop_assert!(here > 0 || cube.is_solved());
            for &mv in metric.moves() {
                prop_assert!(here.abs_diff(h.estimate(cube.apply(mv))) <= 1);
            }
        }
    }

    #[test]
    fn written_moves_read_back(moves in any_moves()) {
        isolate_cache();
        for notation in [Notation::Wca, Notation::Seed] {
            let text = write_moves(&moves, notation);
            let cube = Cube::from_scramble(&text, notation).unwrap();
            prop_assert_eq!(cube, Cube::SOLVED.apply_all(&moves));
        }
        let wca = write_moves(&moves, Notation::Wca);
        prop_assert_eq!(parse_moves(&wca, Notation::Wca).unwrap(), moves);
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,40}", letters in "[URFDLBurfdlbMESxyzw2'3 ]{0,30}") {
        isolate_cache();
        for notation in [Notation::Wca, Notation::Seed] {
            let _ = parse(&text, notation);
            let _ = parse(&letters, notation);
            let _ = scramble_facelets(Facelets::SOLVED, &letters, notation);
        }
        let _ = text.parse::<Facelets>();
    }

    #[test]
    fn random_facelet_strings_never_panic(text in "[URFDLB]{54}") {
        isolate_cache();
        match text.parse::<Facelets>() {
            Ok(f) => prop_assert_eq!(f.to_string(), text),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn searching_classes_of_cubes_finds_shortest_solutions() {
    isolate_cache();
    // Over classes under the 24 rotations, bfs and bidirectional search find paths as short
    // as IDA* on real cubes, and the unfolded turns solve the cube on the facelet model.
    for seed in 0..10u64 {
        let metric = if seed % 2 == 0 {
            Metric::Htm
        } else {
            Metric::Qtm
        };
        let scramble = random_scramble(100 + seed, 5 + seed as usize % 3, metric);
        let cube = Cube::SOLVED.apply_all(&scramble);
        let shortest = check_solution(
            cube,
            &idastar(&CubeSpace::new(cube, metric), &Config::default()),
        );
        let classes = SymmetricCubeSpace::new(cube, metric);
        let mut outcomes = vec![
            bidirectional(&classes, &Config::default()),
            bidirectional(&classes, &Config::default().threads(2)),
        ];
        if shortest <= 5 {
            // One-sided BFS from the scramble gains little from classes: keep it short.
            outcomes.push(bfs(&classes, &Config::default()));
        }
        for outcome in outcomes {
            assert_eq!(outcome.status(), Status::Solved);
            let states = &outcome.solution().unwrap().states;
            let moves = unfold(cube, states, metric).expect("a path of classes unfolds");
            assert_eq!(moves.len(), shortest, "seed {seed}");
            assert_eq!(replay(&cube.to_facelets(), &moves), Facelets::SOLVED);
        }
    }
}

#[test]
fn a_path_that_is_not_one_does_not_unfold() {
    isolate_cache();
    let cube = Cube::from_scramble("R U", Notation::Wca).unwrap();
    let two_turns = [frontier_cube::canonical(cube), Cube::SOLVED];
    assert_eq!(unfold(cube, &two_turns, Metric::Htm), None);
    assert_eq!(unfold(cube, &[], Metric::Htm), None);
}
